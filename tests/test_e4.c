/* SPDX-License-Identifier: MIT */
/* E4: scenes from seeds, the geometric penetration measure, perturbations, and the same bits for
 * any thread count */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
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

/* poses of a scene's initial state */
static void poses(const tc_scene *sc, tc_body_state *bs) {
    tc_system sys;
    tc_system_init(&sys, sc);
    double q[7 * TC_SCENE_MAXBODY], v[6 * TC_SCENE_MAXBODY];
    tc_system_initial_state(&sys, q, v);
    tc_system_kinematics(&sys, 0, q, v, bs);
}

Test(e4, scenes_and_penetration_measure) {
    e4_setup e;
    setup(&e);
    tc_scene a, b;
    tc_body_state bs[TC_SCENE_MAXBODY];
    /* (a): the lowest corner starts exactly a_depth deep */
    cr_assert_eq(e4_penetrating_block(&e, &a, NULL), TC_OK);
    poses(&a, bs);
    cr_expect(fabs(e4_penetration(&a, bs) - e.a_depth) < 1e-12, "%g", e4_penetration(&a, bs));
    /* a flat cube 1 cm into the plane, and touching it */
    const double rest[4] = {1, 0, 0, 0};
    cr_assert_eq(e4_block_scene(&e, 10, rest, 0.49, &b, NULL), TC_OK);
    poses(&b, bs);
    cr_expect(fabs(e4_penetration(&b, bs) - 0.01) < 1e-12);
    cr_assert_eq(e4_block_scene(&e, 10, rest, 0.5, &b, NULL), TC_OK);
    poses(&b, bs);
    cr_expect_eq(e4_penetration(&b, bs), 0.0);
    /* kinetic energy of a spinning, moving cube: 1/2 m v^2 + 1/2 I w^2 */
    bs[1].vel[0] = 2, bs[1].omega[2] = 3;
    cr_expect(fabs(e4_kinetic(&b, bs) - (0.5 * 10 * 4 + 0.5 * 10.0 / 6 * 9)) < 1e-12);
}

Test(e4, pile_from_a_seed) {
    e4_setup e;
    setup(&e);
    tc_scene p1, p2, p3;
    cr_assert_eq(e4_pile_scene(&e, 12, 7, &p1, NULL), TC_OK);
    cr_assert_eq(e4_pile_scene(&e, 12, 7, &p2, NULL), TC_OK);
    cr_assert_eq(e4_pile_scene(&e, 12, 8, &p3, NULL), TC_OK);
    cr_expect_eq(memcmp(&p1, &p2, sizeof p1), 0, "same seed, same pile");
    cr_expect_neq(memcmp(&p1, &p3, sizeof p1), 0, "another seed, another pile");
    cr_assert_eq(p1.nbody, 1 + 4 + 12, "ground, four walls, the bodies");
    /* every body starts inside the box, above the floor, touching nothing */
    tc_body_state bs[TC_SCENE_MAXBODY];
    poses(&p1, bs);
    cr_expect_eq(e4_penetration(&p1, bs), 0.0);
    int kinds[TC_SHAPE_COUNT] = {0};
    for (int i = 5; i < p1.nbody; i++) {
        cr_expect_eq(e4_escaped(&e, &p1, bs, i), 0, "body %d", i);
        cr_expect(p1.body[i].mass >= e.c_mass_lo - 1e-9 && p1.body[i].mass <= e.c_mass_hi + 1e-9);
        kinds[p1.body[i].shape.type]++;
    }
    cr_expect_gt(kinds[TC_SHAPE_BOX], 0);
    cr_expect_gt(kinds[TC_SHAPE_CYLINDER], 0);
    cr_expect_gt(kinds[TC_SHAPE_SPHERE], 0);
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
    tc_scene sc;
    cr_assert_eq(e4_pile_scene(&e, 6, e.c_seed, &sc, NULL), TC_OK);
    static const char *const specs[] = {"penalty-mp/rk4", "penalty-dp/lcp-lemke", "scm"};
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, specs[k], NULL), TC_OK);
        if (!strcmp(specs[k], "scm")) cr_assert_eq(tc_method_set(&m, "spacing", 0.1, NULL), TC_OK);
        double ke[2][40], pen[2][40];
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(t + 1);
            e4_series s = {.n = 40, .ke = ke[t], .pen = pen[t]};
            e4_simulate(&e, &sc, &m, E4_PILE, 400, 10, NULL, &s);
            cr_assert_eq(s.summary.status, TC_OK, "%s: %s", specs[k], s.summary.reason);
        }
        cr_expect_eq(memcmp(ke[0], ke[1], sizeof ke[0]), 0, "%s: kinetic energy", specs[k]);
        cr_expect_eq(memcmp(pen[0], pen[1], sizeof pen[0]), 0, "%s: penetration", specs[k]);
    }
}
