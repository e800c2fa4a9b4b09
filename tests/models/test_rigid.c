/* SPDX-License-Identifier: MIT */
/* the contacts-only rigid model: how it parses, that its contact points are the penalty models',
 * and under lcp-lemke a resting cube that carries its weight and a dropped cube that lands */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "solvers/tc_contact_space.h"

#define DT   1e-3 /* s */
#define G    9.81 /* m/s^2 */
#define H    0.1  /* m, the cube's half size */
#define MASS 2.0  /* kg */

/* the ground and a 20 cm cube of 2 kg, its bottom face gap (m) above the plane, turned by quat */
static tc_scene cube_scene(double gap, const double quat[4]) {
    tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    const double h[3] = {H, H, H}, pos[3] = {0, 0, H + gap};
    cr_assert_eq(tc_scene_ground(&sc, G, 0.5, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_scene_add_box(&sc, "cube", h, MASS, pos, quat, &err), TC_OK, "%s", err.msg);
    return sc;
}

static tc_sim *sim_of(const tc_scene *sc, const char *spec) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, DT, &err), TC_OK, "%s", err.msg);
    return sim;
}

/* the sum of the last step's normal impulses (N s) */
static double normal_sum(tc_sim *sim, int *n) {
    tc_contact_impulse im[64];
    *n = tc_sim_impulses(sim, im, 64);
    cr_assert_leq(*n, 64);
    double s = 0;
    for (int i = 0; i < *n; i++)
        s += im[i].normal_impulse;
    return s;
}

Test(rigid, parses_to_lcp_lemke_and_needs_a_contact_solver) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, "rigid", &err), TC_OK, "%s", err.msg);
    cr_assert_str_eq(m.spec, "rigid/lcp-lemke");
    cr_assert_eq(m.caps, TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTACTS);
    cr_assert_null(m.model->force);
    /* an integrator would let the bodies fall through: refused, naming a solver that resolves
     * contacts */
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, "rigid/semi-euler", &err), TC_EUNSUP);
    int named = 0;
    for (int i = 0; tc_solver_at(i); i++)
        if ((tc_solver_at(i)->needs & TC_CAP_CONTACTS) && strstr(err.msg, tc_solver_at(i)->name))
            named = 1;
    cr_assert(named, "message names no contact solver: %s", err.msg);
    cr_assert_eq(tc_method_parse(&m, "rigid/lcp-pgs", NULL), TC_OK);
}

/* the same contact points as penalty-mp (shared code, same default spacing) when rigid keeps the
 * extremes alone (keep_deepest = 0): a tilted cube in the ground and the pile of boxes,
 * cylinders and spheres after 0.3 s of settling */
Test(rigid, reports_the_penalty_models_contact_points) {
    const double tilt[4] = {cos(0.1), sin(0.1) * 0.6, sin(0.1) * 0.8, 0};
    tc_scene cube = cube_scene(-0.01, tilt), pile;
    tc_pile p = tc_default_pile();
    p.bodies = 6;
    cr_assert_eq(tc_scene_pile(&pile, &p, NULL), TC_OK);
    const tc_scene *scenes[] = {&cube, &pile};
    for (int s = 0; s < 2; s++) {
        tc_method m;
        tc_sim *r = NULL, *pm = sim_of(scenes[s], "penalty-mp/lcp-lemke");
        cr_assert_eq(tc_method_parse(&m, "rigid", NULL), TC_OK);
        cr_assert_eq(tc_method_set(&m, "keep_deepest", 0, NULL), TC_OK);
        cr_assert_eq(tc_sim_alloc(&r, scenes[s], &m, DT, NULL), TC_OK);
        int total = 0;
        for (int step = 0; step <= 300; step++) {
            if (step % 50 == 0) {
                /* both at the rigid run's state */
                cr_assert_eq(tc_sim_copy_state(pm, r), TC_OK);
                tc_model_contact a[256], b[256];
                int na = tc_sim_contacts(r, a, 256), nb = tc_sim_contacts(pm, b, 256);
                cr_assert_eq(na, nb, "scene %d step %d: %d vs %d contacts", s, step, na, nb);
                cr_assert_eq(memcmp(a, b, (size_t)na * sizeof *a), 0, "scene %d step %d", s, step);
                total += na;
            }
            cr_assert_eq(tc_sim_step(r), TC_OK);
        }
        cr_assert_gt(total, 0, "scene %d: no contacts compared", s);
        tc_sim_free(r);
        tc_sim_free(pm);
    }
}

/* a cube put exactly on the plane: the first step it falls g dt^2 (a touching pair, depth 0, is
 * no contact), the second its contacts take 2 m g dt, and from then on it holds still with the
 * normal impulses carrying exactly its weight m g dt per step */
Test(rigid, holds_a_resting_cube_for_5_s) {
    const double upright[4] = {1, 0, 0, 0};
    tc_scene sc = cube_scene(0, upright);
    tc_sim *sim = sim_of(&sc, "rigid");
    double q0[7], drift = 0, worst = 0;
    memcpy(q0, tc_sim_q(sim), sizeof q0);
    const double mgdt = MASS * G * DT;
    for (int i = 0; i < 5000; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        const double *q = tc_sim_q(sim);
        for (int k = 0; k < 7; k++)
            drift = fmax(drift, fabs(q[k] - q0[k]));
        int n;
        double sum = normal_sum(sim, &n);
        if (i == 0)
            cr_assert_eq(n, 0, "contacts at depth 0");
        else if (i == 1)
            cr_assert_float_eq(sum, 2 * mgdt, 1e-9 * mgdt, "landing: %g", sum);
        else
            worst = fmax(worst, fabs(sum - mgdt) / mgdt);
    }
    const tc_sim_stats *st = tc_sim_get_stats(sim);
    cr_log_info("resting cube, 5 s: drift %.3g m (g dt^2 = %.3g), impulses vs m g dt %.3g "
                "relative, %lld pivots, %lld failures",
                drift, G * DT * DT, worst, st->solver_iters, st->solver_fails);
    cr_assert_lt(drift, 2 * G * DT * DT, "drift %g m", drift);
    cr_assert_lt(worst, 1e-9, "normal impulses off m g dt by %g", worst);
    cr_assert_eq(st->solver_fails, 0);
    cr_assert_gt(st->solver_iters, 0);
    tc_sim_free(sim);
}

/* a cube dropped from 5 cm: it falls freely until its first step below the plane, which it ends
 * at the discrete overshoot g dt^2 n (n + 1) / 2 - 5 cm (< v dt < 1 mm); then it stops there */
Test(rigid, dropped_cube_comes_to_rest_on_the_plane) {
    const double upright[4] = {1, 0, 0, 0}, h0 = 0.05;
    tc_scene sc = cube_scene(h0, upright);
    tc_sim *sim = sim_of(&sc, "rigid");
    double worst = 0;
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        worst = fmax(worst, tc_sim_penetration(sim, NULL));
    }
    int n = 1;
    while (G * DT * DT * n * (n + 1) / 2 < h0)
        n++;
    double overshoot = G * DT * DT * n * (n + 1) / 2 - h0, pen = tc_sim_penetration(sim, NULL);
    const double *v = tc_sim_v(sim);
    double speed = 0;
    for (int k = 0; k < 6; k++)
        speed = fmax(speed, fabs(v[k]));
    cr_log_info("drop from 5 cm: rests %.4g m deep (closed form %.4g, worst %.4g), speed %.3g", pen,
                overshoot, worst, speed);
    cr_assert_lt(worst, 1e-3, "penetrated %g m", worst);
    cr_assert_float_eq(pen, overshoot, 1e-9, "rest depth %g, closed form %g", pen, overshoot);
    cr_assert_lt(speed, 1e-9, "still moving at %g", speed);
    int nc;
    cr_assert_float_eq(normal_sum(sim, &nc), MASS * G * DT, 1e-9 * MASS * G * DT);
    cr_assert_eq(tc_sim_get_stats(sim)->solver_fails, 0);
    tc_sim_free(sim);
}

/* with its deepest point kept (the default), every pair's contacts hold E4's quick pile: the
 * largest penetration stays below 5 mm for 1.5 s (with the extremes alone a box sunk on an edge
 * kept its two shallow ends and went 25 cm into the ground) */
Test(rigid, keeps_each_pairs_deepest_point_and_holds_a_pile) {
    tc_pile p = tc_default_pile();
    p.bodies = 8;
    tc_scene *pile = malloc(sizeof *pile);
    cr_assert_eq(tc_scene_pile(pile, &p, NULL), TC_OK);
    tc_sim *r = sim_of(pile, "rigid");
    double worst = 0;
    for (int step = 0; step < 1500; step++) {
        cr_assert_eq(tc_sim_step(r), TC_OK);
        worst = fmax(worst, tc_sim_penetration(r, NULL));
        if (step % 100 == 0) {
            /* the deepest contact reported for a pair is that pair's deepest bottom point */
            tc_model_contact c[256];
            int n = tc_sim_contacts(r, c, 256);
            for (int i = 0; i < n; i++)
                cr_assert_geq(c[i].c.depth, 0.0);
        }
    }
    cr_log_info("rigid pile: largest penetration %.3g m", worst);
    cr_expect_lt(worst, 5e-3, "largest penetration %g m", worst);
    cr_expect_eq(tc_sim_get_stats(r)->solver_fails, 0);
    tc_sim_free(r);
    free(pile);
}

/* what rigid does with a penetration: by default nothing (lcp-lemke's drift_rate is 0, the
 * velocity-level LCP holds every contact at zero approach speed), so a cube started flat 5 mm
 * inside the plane stays 5 mm inside; with drift_rate 2 /s the post-stabilisation takes it out
 * as e^-2t. A cube started on an edge 5 mm deep topples flat, which lifts most of it out by
 * itself (measured: 2.3e-5 m left after 3 s), and the correction takes it to 1e-7 m */
Test(rigid, keeps_a_penetration_unless_drift_correction_is_asked_for) {
    const double flat[4] = {1, 0, 0, 0}, edge[4] = {cos(0.15), sin(0.15), 0, 0};
    const double *quat[2] = {flat, edge};
    double left[2][2];
    for (int o = 0; o < 2; o++)
        for (int r = 0; r < 2; r++) {
            tc_scene sc = cube_scene(0, quat[o]);
            /* the lowest point 5 mm under the plane */
            double low = H * (cos(0.3 * o) + sin(0.3 * o));
            sc.body[1].pos[2] = low - 5e-3;
            tc_method m;
            cr_assert_eq(tc_method_parse(&m, "rigid", NULL), TC_OK);
            cr_assert_eq(tc_method_set(&m, "drift_rate", 2.0 * r, NULL), TC_OK);
            tc_sim *sim;
            cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
            cr_assert(fabs(tc_sim_penetration(sim, NULL) - 5e-3) < 1e-12, "%g",
                      tc_sim_penetration(sim, NULL));
            for (int k = 0; k < 3000; k++)
                cr_assert_eq(tc_sim_step(sim), TC_OK);
            double d = tc_sim_penetration(sim, NULL);
            cr_log_info("rigid, %s, drift_rate %d /s: %.3g m deep after 3 s (started 5 mm)",
                        o ? "on an edge" : "flat", 2 * r, d);
            if (r)
                cr_expect_lt(d, 5e-3 * exp(-6.0) * 1.1, "%g m left", d);
            else if (!o)
                cr_expect(fabs(d - 5e-3) < 1e-12, "moved: %g m", d);
            left[o][r] = d;
            tc_sim_free(sim);
        }
    cr_expect_gt(left[1][0], 10 * left[1][1], "on an edge: %g m left without, %g with", left[1][0],
                 left[1][1]);
}
