/* SPDX-License-Identifier: MIT */
/* E4: scenes from seeds, the geometric penetration measure, perturbations, and the same bits for
 * any thread count */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/e4.h"

/* E4's quick-tier setup from its script */
static void setup(e4_setup *e) {
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/e4_penalty.cfg", getenv("TOUCHE_SOURCE_DIR"));
    tc_script s;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_script_load(&s, path, "quick", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(e4_read_setup(&s, e, &err), TC_OK, "%s", err.msg);
    tc_script_free(&s);
}

/* the geometric penetration (m) of a scene's initial state, through a simulation */
static double penetration(const tc_scene *sc) {
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.001, NULL), TC_OK);
    double p = tc_sim_penetration(sim, NULL);
    tc_sim_free(sim);
    return p;
}

Test(e4, scenes_and_penetration_measure) {
    e4_setup e;
    setup(&e);
    tc_scene *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    /* (a): the lowest corner starts exactly a_depth deep */
    cr_assert_eq(e4_block_scene(&e, a, NULL), TC_OK);
    cr_expect(fabs(penetration(a) - e.a_depth) < 1e-12, "%g", penetration(a));
    /* a flat cube 1 cm into the plane, and touching it */
    const double h[3] = {0.5, 0.5, 0.5}, rest[4] = {1, 0, 0, 0}, in[3] = {0, 0, 0.49}, on[3] = {0, 0, 0.5};
    cr_assert_eq(tc_scene_ground(b, 9.8, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_box(b, "block", h, 10, in, rest, NULL), TC_OK);
    cr_expect(fabs(penetration(b) - 0.01) < 1e-12);
    cr_assert_eq(e4_rest_scene(&e, b, NULL), TC_OK);
    cr_expect_eq(penetration(b), 0.0);
    cr_expect(fabs(b->body[1].pos[2] - on[2]) < 1e-15);
    /* kinetic energy of a spinning, moving cube: 1/2 m v^2 + 1/2 I w^2 */
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, b, &m, 0.001, NULL), TC_OK);
    tc_sim_v(sim)[0] = 2, tc_sim_v(sim)[5] = 3;
    double M = e.b_mass;
    cr_expect(fabs(tc_sim_kinetic_energy(sim) - (0.5 * M * 4 + 0.5 * M / 6 * 9)) < 1e-12,
              "%g", tc_sim_kinetic_energy(sim));
    tc_sim_free(sim);
    free(a), free(b);
}

Test(e4, pile_from_a_seed) {
    e4_setup e;
    setup(&e);
    tc_scene *p1 = malloc(sizeof *p1), *p2 = malloc(sizeof *p2), *p3 = malloc(sizeof *p3);
    tc_pile pile = e.pile;
    pile.bodies = 12, pile.seed = 7;
    cr_assert_eq(tc_scene_pile(p1, &pile, NULL), TC_OK);
    cr_assert_eq(tc_scene_pile(p2, &pile, NULL), TC_OK);
    pile.seed = 8;
    cr_assert_eq(tc_scene_pile(p3, &pile, NULL), TC_OK);
    cr_expect_eq(memcmp(p1, p2, sizeof *p1), 0, "same seed, same pile");
    cr_expect_neq(memcmp(p1, p3, sizeof *p1), 0, "another seed, another pile");
    cr_assert_eq(p1->nbody, 1 + 4 + 12, "ground, four walls, the bodies");
    /* every body starts inside the box, above the floor, touching nothing */
    cr_expect_eq(penetration(p1), 0.0);
    int kinds[TC_SHAPE_COUNT] = {0};
    for (int i = 5; i < p1->nbody; i++) {
        cr_expect_eq(tc_pile_escaped(&pile, p1->body[i].pos), 0, "body %d", i);
        cr_expect(p1->body[i].mass >= pile.mass_lo - 1e-9 && p1->body[i].mass <= pile.mass_hi + 1e-9);
        kinds[p1->body[i].shape.type]++;
    }
    cr_expect_gt(kinds[TC_SHAPE_BOX], 0);
    cr_expect_gt(kinds[TC_SHAPE_CYLINDER], 0);
    cr_expect_gt(kinds[TC_SHAPE_SPHERE], 0);
    free(p1), free(p2), free(p3);
}

Test(e4, perturbations_from_a_seed) {
    e4_setup e;
    setup(&e);
    double f1[64][3], f2[64][3];
    cr_assert_leq(e.b_cycles, 64);
    e4_perturbations(&e, f1);
    e4_perturbations(&e, f2);
    cr_expect_eq(memcmp(f1, f2, (size_t)e.b_cycles * sizeof *f1), 0);
    for (int c = 0; c < e.b_cycles; c++) {
        cr_expect(fabs(f1[c][0]) <= 0.5 && fabs(f1[c][1]) <= 0.5, "on the top face");
        cr_expect(f1[c][2] >= e.b_force_lo && f1[c][2] <= e.b_force_hi);
    }
}

/* a short pile run per method, on 1 and on 2 threads: the same bits */
Test(e4, same_bits_for_any_thread_count) {
    e4_setup e;
    setup(&e);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e4_pile_scene(&e, 6, sc, NULL), TC_OK);
    static const char *const specs[] = {"penalty-mp/rk4", "penalty-dp/lcp-lemke", "scm"};
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, specs[k], NULL), TC_OK);
        if (!strcmp(specs[k], "scm")) cr_assert_eq(tc_method_set(&m, "spacing", 0.1, NULL), TC_OK);
        e4_run r[2];
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(t + 1);
            cr_assert_eq(tc_series_alloc(&r[t].s, 400, 10, TC_SERIES_KINETIC | TC_SERIES_PENETRATION), TC_OK);
            tc_item it = {0};
            e4_simulate(&e, sc, &m, E4_PILE, 400, 10, NULL, &r[t], &it);
            cr_assert_eq(it.status, TC_OK, "%s: %s", specs[k], it.reason);
        }
        cr_expect_eq(memcmp(r[0].s.ke, r[1].s.ke, 40 * sizeof(double)), 0, "%s: kinetic energy", specs[k]);
        cr_expect_eq(memcmp(r[0].s.pen, r[1].s.pen, 40 * sizeof(double)), 0, "%s: penetration", specs[k]);
        tc_series_free(&r[0].s), tc_series_free(&r[1].s);
    }
    free(sc);
}
