/* SPDX-License-Identifier: MIT */
/* the scenes of `touche bench all`: one representative scene per experiment, built by the
 * experiment's own builders from its script at the tier the bench plans it (add a line to
 * scenes[] for a new experiment) */
#include "exp/tc_bench_scene.h"
#include "exp/tc_script.h"
#include "experiments/e2/e2.h"
#include "experiments/e4/e4.h"
#include "experiments/e5/e5.h"
#include "experiments/e6/e6.h"
#include "experiments/e7/e7.h"

#include <stdio.h>
#include <stdlib.h>

/* E1: the script's spheres, the small one 1 cm into the big one (as bench scm and pfc) */
static tc_status build_e1(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    double R, r, rho;
    const tc_setting *g = tc_script_lookup(tc_exp_script(x), NULL, "scene");
    tc_status st = tc_script_real(tc_exp_script(x), g, "big_radius", 1e-4, 1e3, &R, err);
    if (!st) st = tc_script_real(tc_exp_script(x), g, "small_radius", 1e-4, 1e3, &r, err);
    if (!st) st = tc_script_real(tc_exp_script(x), g, "density", 1e-3, 1e6, &rho, err);
    if (st) return st;
    b->dt = 0.002;
    snprintf(b->what, sizeof b->what, "E1's spheres (R %g m, r %g m), 1 cm deep", R, r);
    return tc_scene_sphere_pair(sc, R, r, R + r - 0.01, rho, err);
}

/* E3: the contact-surface scene (fig. 1), a sphere pressed into the ground; the sinusoid itself
 * is a 1-D integral with no scene a method could run */
static tc_status build_e3(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    double r, depth;
    const tc_setting *g = tc_script_lookup(tc_exp_script(x), NULL, "surface");
    tc_status st = tc_script_real(tc_exp_script(x), g, "radius", 1e-3, 10, &r, err);
    if (!st) st = tc_script_real(tc_exp_script(x), g, "depth", 1e-6, 10, &depth, err);
    if (st) return st;
    const double pos[3] = {0, 0, r - depth};
    b->dt = 0.002;
    snprintf(b->what, sizeof b->what, "E3's contact surface: a %g m sphere %g m into the ground", r,
             depth);
    st = tc_scene_ground(sc, 0, 0, err);
    return st ? st : tc_scene_add_free(sc, "ball", tc_sphere(r), pos, NULL, 1000, err);
}

/* e2: the finger servoed to the T's centre, so it pushes the stem */
static void start_e2(const void *ctx, int i, tc_sim *sim) {
    (void)ctx, (void)i;
    tc_sim_set_target(sim, 1, 0, 0);
    tc_sim_set_target(sim, 1, 1, 0);
}

/* E2: the T and the finger at the script's first step of the grid */
static tc_status build_e2(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    e2_setup *e = b->own = calloc(1, sizeof *e);
    if (!e) return TC_ENOMEM;
    tc_status st = e2_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    b->dt = e->dt[0];
    b->start = start_e2;
    b->horizon = e->duration;
    snprintf(b->what, sizeof b->what, "E2's T pushed by the finger, dt %g s", b->dt);
    return tc_scene_t_pusher(sc, &e->scene, err);
}

/* E4 (c): the pile of the tier, landed by MuJoCo for the pile study's seconds */
static tc_status build_e4(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    e4_setup *e = b->own = calloc(1, sizeof *e);
    if (!e) return TC_ENOMEM;
    tc_status st = e4_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    b->dt = e->dt;
    b->settle = e->c_seconds;
    b->horizon = e->c_seconds;
    snprintf(b->what, sizeof b->what, "E4's pile of %d bodies in its box, landed for %g s, dt %g s",
             e->pile.bodies, b->settle, b->dt);
    return e4_pile_scene(e, e->pile.bodies, sc, err);
}

/* E5: the first seeded drop of the polytope at the grid's highest rate */
static tc_status build_e5(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    e5_setup *e = b->own = calloc(1, sizeof *e);
    if (!e) return TC_ENOMEM;
    tc_status st = e5_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    e56_study s = e5_study(e);
    b->dt = 1 / e->grid.rate[e->grid.nrate - 1];
    b->start = s.start;
    b->ctx = s.ctx;
    b->horizon = e->grid.seconds;
    snprintf(b->what, sizeof b->what, "E5's polytope, drop 0 (2-D), dt %g s", b->dt);
    return s.build(s.ctx, 0, sc, err);
}

/* E6: the tall stack at its rate */
static tc_status build_e6(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    e6_setup *e = b->own = calloc(1, sizeof *e);
    if (!e) return TC_ENOMEM;
    tc_status st = e6_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    e56_study s = e6_tall_study(e);
    b->dt = 1 / e->tall_rate;
    b->start = s.start;
    b->ctx = s.ctx;
    b->horizon = e->grid.seconds;
    snprintf(b->what, sizeof b->what, "E6's tower of %d blocks (2-D), dt %g s", e->tall_n, b->dt);
    return s.build(s.ctx, 0, sc, err);
}

/* E7 (d): the tier's smallest pile of compounds, landed by MuJoCo for 1 s (its top layer lands
 * by 0.7 s) */
static tc_status build_e7(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err) {
    e7_setup *e = b->own = calloc(1, sizeof *e);
    if (!e) return TC_ENOMEM;
    tc_status st = e7_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    b->dt = e->d_dt;
    b->settle = 1.0;
    b->horizon = e->d_seconds - 1.0;
    snprintf(b->what, sizeof b->what, "E7's pile of %d compounds, landed for %g s, dt %g s",
             e->d_bodies[0], b->settle, b->dt);
    return e7_pile_scene(e, 0, sc, NULL, err);
}

static const tc_bench_scene scenes[] = {
    {"e1-spheres", "e1_sphere_profiles", 0, build_e1}, {"e2-t", "e2_t_pushing", 1, build_e2},
    {"e3-sphere", "e3_sinusoid", 0, build_e3},         {"e4-pile", "e4_penalty", 1, build_e4},
    {"e5-polytope", "e5_polytopes", 1, build_e5},      {"e6-tower", "e6_stacking", 1, build_e6},
    {"e7-pile", "e7_frictional", 1, build_e7},
};

const tc_bench_scene *tc_bench_scene_at(int i) {
    return i >= 0 && i < (int)(sizeof scenes / sizeof scenes[0]) ? &scenes[i] : NULL;
}
