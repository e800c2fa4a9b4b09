/* SPDX-License-Identifier: MIT */
/* dynamics: momentum through an SCM collision in free space, planar kinematics */
#include <criterion/criterion.h>
#include <math.h>

#include "math/tc_vec.h"
#include "sim/tc_sim.h"

/* two free spheres, spinning, colliding off-centre in free space; returns the largest drift of
 * linear and angular momentum (relative to the initial |p| and |L|) over the run */
static void collide(int consistent, double *dlin, double *dang) {
    tc_scene sc = tc_default_scene();
    tc_body_desc a = tc_default_body("a", tc_sphere(0.05)), b = tc_default_body("b", tc_sphere(0.04));
    a.joint = b.joint = TC_JOINT_FREE;
    tc_v3_set(a.pos, 0, 0, 0), tc_v3_set(a.vel, 0.5, 0, 0), tc_v3_set(a.omega, 0, 0, 3);
    tc_v3_set(b.pos, 0.15, 0.03, 0.01), tc_v3_set(b.vel, -0.3, 0, 0), tc_v3_set(b.omega, 2, 0, -1);
    cr_assert_eq(tc_scene_add(&sc, &a, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 700, NULL), TC_OK);
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_method_parse(&m, "scm/semi-euler", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "consistent", consistent, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "spacing", 0.01, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "k", 2000, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, NULL), TC_OK);
    const tc_system *sys = tc_sim_system(sim);
    tc_body_state bs[2];
    double l0[3], L0[3], l[3], L[3], d[3];
    tc_system_kinematics(sys, tc_sim_q(sim), tc_sim_v(sim), bs);
    tc_system_momentum(sys, bs, l0, L0);
    *dlin = *dang = 0;
    for (int i = 0; i < 400; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        tc_system_kinematics(sys, tc_sim_q(sim), tc_sim_v(sim), bs);
        tc_system_momentum(sys, bs, l, L);
        tc_v3_sub(d, l, l0), *dlin = fmax(*dlin, tc_v3_norm(d) / tc_v3_norm(l0));
        tc_v3_sub(d, L, L0), *dang = fmax(*dang, tc_v3_norm(d) / tc_v3_norm(L0));
    }
    /* they did collide: a's x velocity turned round */
    cr_expect_lt(tc_sim_v(sim)[0], 0.3, "no collision happened");
    tc_sim_free(sim);
}

Test(dynamics, scm_collision_conserves_momentum_with_the_consistent_form) {
    /* semi-implicit Euler with equal and opposite, collinear forces on isotropic bodies keeps
     * both momenta exactly (each step adds h * sum of r x F + tau = 0) */
    double dlin, dang, dlin_p, dang_p;
    collide(1, &dlin, &dang);
    collide(0, &dlin_p, &dang_p);
    cr_log_info("consistent: linear %g, angular %g; paper form: linear %g, angular %g", dlin, dang,
                dlin_p, dang_p);
    cr_expect_lt(dlin, 1e-13, "linear momentum drift %g", dlin);
    cr_expect_lt(dang, 1e-12, "angular momentum drift %g (consistent form)", dang);
    cr_expect_lt(dlin_p, 1e-13, "the paper form conserves linear momentum too (%g)", dlin_p);
    cr_expect_gt(dang_p, 1e-9, "the paper form should drift in angular momentum (%g)", dang_p);
}

Test(dynamics, planar_body_pose_and_inertia) {
    /* a box tilted on its side, planar: theta turns it about world z, z stays, I_zz is its
     * inertia about the world vertical */
    tc_scene sc = tc_default_scene();
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.05, 0.02));
    b.joint = TC_JOINT_PLANAR;
    b.pos[2] = 0.3;
    double qx[4] = {cos(M_PI / 4), sin(M_PI / 4), 0, 0}; /* 90 degrees about x: body y -> world z */
    memcpy(b.quat, qx, sizeof qx);
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, NULL), TC_OK);
    tc_system sys;
    tc_system_init(&sys, &sc);
    cr_expect_eq(sys.nq, 3);
    cr_expect_float_eq(sys.izz[0], sc.body[0].inertia[1], 1e-12 * sys.izz[0]);
    double q[3] = {0.2, -0.1, M_PI / 2}, v[3] = {0.1, 0.2, 1.5};
    tc_body_state bs;
    tc_system_kinematics(&sys, q, v, &bs);
    cr_expect_float_eq(bs.pos[2], 0.3, 1e-15);
    /* body x (world x before) now points along world y */
    cr_expect_float_eq(bs.R[3], 1.0, 1e-12);
    cr_expect_float_eq(bs.omega[2], 1.5, 1e-15);
    /* kinetic energy: m v^2 / 2 + I_zz w^2 / 2 */
    double e = tc_system_energy(&sys, &bs), m = sc.body[0].mass;
    cr_expect_float_eq(e, 0.5 * m * 0.05 + 0.5 * sys.izz[0] * 2.25, 1e-12 * e);
}
