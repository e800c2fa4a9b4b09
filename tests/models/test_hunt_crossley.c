/* SPDX-License-Identifier: MIT */
/* Hunt–Crossley: the force law exactly, direction, separation, friction */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "collide/tc_collide.h"
#include "sim/tc_sim.h"

/* a free sphere of radius 5 cm over a plane, centre at height z, velocity v */
static void ball(double z, const double v[6], tc_wrench *w) {
    tc_scene sc = tc_default_scene();
    sc.friction = 0.4;
    tc_body_desc floor = tc_default_body("floor", tc_plane());
    tc_body_desc b = tc_default_body("ball", tc_sphere(0.05));
    b.joint = TC_JOINT_FREE;
    b.pos[2] = z;
    cr_assert_eq(tc_scene_add(&sc, &floor, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, NULL), TC_OK);
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "k", 2e4, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "d", 0.3, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, NULL), TC_OK);
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w), TC_OK);
    tc_sim_free(sim);
}

Test(hunt_crossley, matches_its_formula) {
    const double zero[6] = {0}, down[6] = {0, 0, -0.4, 0, 0, 0};
    tc_wrench w[2];
    for (double x = 0.001; x < 0.02; x *= 1.7) {
        ball(0.05 - x, zero, w);
        cr_expect_float_eq(w[1].f[2], 2e4 * pow(x, 1.5), 1e-12 * w[1].f[2]);
        cr_expect_float_eq(w[0].f[2], -w[1].f[2], 1e-15, "equal and opposite");
        ball(0.05 - x, down, w);
        cr_expect_float_eq(w[1].f[2], 2e4 * pow(x, 1.5) * (1 + 0.3 * 0.4), 1e-12 * w[1].f[2]);
    }
    ball(0.0501, zero, w);
    cr_expect_eq(w[1].f[2], 0.0, "no force when separated");
}

Test(hunt_crossley, friction_is_bounded_by_the_cone) {
    const double slide[6] = {1.0, 0, 0, 0, 0, 0};
    tc_wrench w[2];
    ball(0.045, slide, w);
    cr_expect_lt(w[1].f[0], 0.0);
    cr_expect_leq(fabs(w[1].f[0]), 0.4 * w[1].f[2] * (1 + 1e-12));
    /* the friction acts at the contact point below the centre: it spins the ball forward */
    cr_expect_gt(w[1].t[1], 0.0);
}

/* one pair table: tc_collide handles exactly the pairs tc_collide_supported names (-1 for the
 * others, every type against every type), and for two different types either order gives the
 * same contacts, bit for bit, with opposite normals */
Test(hunt_crossley, pair_table_agrees_both_ways) {
    tc_shape sh[TC_SHAPE_COUNT] = {0};
    sh[TC_SHAPE_SPHERE] = tc_sphere(0.1);
    sh[TC_SHAPE_BOX] = tc_box(0.1, 0.07, 0.05);
    sh[TC_SHAPE_PLANE] = tc_plane();
    sh[TC_SHAPE_COMPOUND].type = TC_SHAPE_COMPOUND;
    sh[TC_SHAPE_COMPOUND].npart = 2;
    sh[TC_SHAPE_COMPOUND].part[0] = (tc_shape_part){TC_SHAPE_SPHERE, {0.06, 0, 0}, {0, 0, 0.04}};
    sh[TC_SHAPE_COMPOUND].part[1] =
        (tc_shape_part){TC_SHAPE_BOX, {0.05, 0.05, 0.02}, {0, 0, -0.03}};
    sh[TC_SHAPE_ELLIPSOID] = tc_ellipsoid(0.1, 0.06, 0.05);
    sh[TC_SHAPE_CYLINDER] = tc_cylinder(0.05, 0.1);
    sh[TC_SHAPE_POLYTOPE].type = TC_SHAPE_POLYTOPE; /* refused before its hull is read */
    /* two overlapping poses, the second turned 0.3 rad about x */
    tc_body_state A = {.pos = {0, 0, 0}, .quat = {1, 0, 0, 0}, .R = {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    double c = cos(0.3), s = sin(0.3);
    tc_body_state B = {.pos = {0.03, 0.02, 0.12}, .R = {1, 0, 0, 0, c, -s, 0, s, c}};
    int supported = 0;
    for (int a = 0; a < TC_SHAPE_COUNT; a++)
        for (int b = 0; b < TC_SHAPE_COUNT; b++) {
            tc_contact ab[TC_COLLIDE_MAX], ba[TC_COLLIDE_MAX];
            tc_shape_type ta = (tc_shape_type)a, tb = (tc_shape_type)b;
            int yes = tc_collide_supported(ta, tb);
            int m = tc_collide(&sh[a], &A, &sh[b], &B, 1, ab);
            cr_expect_eq(m >= 0, yes, "%d-%d: %d contacts, supported %d", a, b, m, yes);
            cr_expect_eq(tc_collide_supported(tb, ta), yes, "%d-%d", a, b);
            supported += yes;
            if (!yes || a == b) continue;
            cr_expect_gt(m, 0, "%d-%d", a, b);
            cr_assert_eq(tc_collide(&sh[b], &B, &sh[a], &A, 1, ba), m, "%d-%d", a, b);
            for (int k = 0; k < m; k++) {
                cr_expect_eq(memcmp(ab[k].pos, ba[k].pos, sizeof ab[k].pos), 0, "%d-%d", a, b);
                cr_expect_eq(ab[k].depth, ba[k].depth, "%d-%d", a, b);
                for (int j = 0; j < 3; j++)
                    cr_expect_eq(ab[k].normal[j], -ba[k].normal[j], "%d-%d", a, b);
            }
        }
    /* sphere-sphere, sphere-box, sphere-plane, sphere-compound and box-plane, both ways */
    cr_expect_eq(supported, 9);
}

/* no analytic ellipsoid contact: the pair test refuses it, the model does not claim the shape and a
 * scene with an ellipsoid does not start */
Test(hunt_crossley, refuses_ellipsoids) {
    for (int t = 0; t < TC_SHAPE_COUNT; t++) {
        cr_expect_eq(tc_collide_supported(TC_SHAPE_ELLIPSOID, (tc_shape_type)t), 0, "%d", t);
        cr_expect_eq(tc_collide_supported((tc_shape_type)t, TC_SHAPE_ELLIPSOID), 0, "%d", t);
    }
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley", NULL), TC_OK);
    cr_expect_eq(m.shapes & TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID), 0u);
    tc_scene sc = tc_default_scene();
    tc_body_desc e = tc_default_body("e", tc_ellipsoid(0.06, 0.1, 0.06));
    tc_body_desc b = tc_default_body("ball", tc_sphere(0.05));
    b.joint = TC_JOINT_FREE;
    b.pos[1] = 0.14;
    cr_assert_eq(tc_scene_add(&sc, &e, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, NULL), TC_OK);
    tc_sim *sim = NULL;
    cr_expect_neq(tc_sim_alloc(&sim, &sc, &m, 0.001, NULL), TC_OK);
}
