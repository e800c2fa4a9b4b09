/* SPDX-License-Identifier: MIT */
/* dynamics: momentum through an SCM collision in free space, planar kinematics, kinematic bodies */
#include <criterion/criterion.h>
#include <math.h>

#include "math/tc_vec.h"
#include "sim/tc_sim.h"

/* two free spheres, spinning, colliding off-centre in free space; returns the largest drift of
 * linear and angular momentum (relative to the initial |p| and |L|) over the run */
static void collide(int consistent, double *dlin, double *dang) {
    tc_scene sc = tc_default_scene();
    tc_body_desc a = tc_default_body("a", tc_sphere(0.05)),
                 b = tc_default_body("b", tc_sphere(0.04));
    a.joint = b.joint = TC_JOINT_FREE;
    tc_v3_set(a.pos, 0, 0, 0);
    tc_v3_set(a.vel, 0.5, 0, 0);
    tc_v3_set(a.omega, 0, 0, 3);
    tc_v3_set(b.pos, 0.15, 0.03, 0.01);
    tc_v3_set(b.vel, -0.3, 0, 0);
    tc_v3_set(b.omega, 2, 0, -1);
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
    tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
    tc_system_momentum(sys, bs, l0, L0);
    *dlin = *dang = 0;
    for (int i = 0; i < 400; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
        tc_system_momentum(sys, bs, l, L);
        tc_v3_sub(d, l, l0);
        *dlin = fmax(*dlin, tc_v3_norm(d) / tc_v3_norm(l0));
        tc_v3_sub(d, L, L0);
        *dang = fmax(*dang, tc_v3_norm(d) / tc_v3_norm(L0));
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
    tc_system_kinematics(&sys, 0, q, v, &bs);
    cr_expect_float_eq(bs.pos[2], 0.3, 1e-15);
    /* body x (world x before) now points along world y */
    cr_expect_float_eq(bs.R[3], 1.0, 1e-12);
    cr_expect_float_eq(bs.omega[2], 1.5, 1e-15);
    /* kinetic energy: m v^2 / 2 + I_zz w^2 / 2 */
    double e = tc_system_energy(&sys, &bs), m = sc.body[0].mass;
    cr_expect_float_eq(e, 0.5 * m * 0.05 + 0.5 * sys.izz[0] * 2.25, 1e-12 * e);
}

/* a kinematic body with three waypoints 0.5 s apart, fixed orientation */
static tc_body_desc kinematic_body(void) {
    tc_body_desc b = tc_default_body("pusher", tc_sphere(0.05));
    b.joint = TC_JOINT_KINEMATIC;
    b.path_n = 3;
    b.path_dt = 0.5;
    tc_v3_set(b.path[0], 0, 0, 0);
    tc_v3_set(b.path[1], 1, 2, -1);
    tc_v3_set(b.path[2], 1, 2, 3);
    double q[4] = {cos(0.3), 0, sin(0.3), 0};
    memcpy(b.quat, q, sizeof q);
    return b;
}

/* position and velocity of the path at t against the expected values, exactly (dt is 1/2, the
 * waypoints small integers: every value here is representable) */
static void expect_path(const tc_body_desc *b, double t, double x, double y, double z, double vx,
                        double vy, double vz) {
    double p[3], v[3];
    tc_body_path(b, t, p, v);
    cr_expect(p[0] == x && p[1] == y && p[2] == z, "t = %g: position (%g %g %g), want (%g %g %g)",
              t, p[0], p[1], p[2], x, y, z);
    cr_expect(v[0] == vx && v[1] == vy && v[2] == vz,
              "t = %g: velocity (%g %g %g), want (%g %g %g)", t, v[0], v[1], v[2], vx, vy, vz);
}

Test(dynamics, kinematic_path_positions_and_slopes) {
    tc_body_desc b = kinematic_body();
    /* at waypoints and halfway between them; velocity the segment's slope */
    expect_path(&b, 0, 0, 0, 0, 2, 4, -2);
    expect_path(&b, 0.25, 0.5, 1, -0.5, 2, 4, -2);
    expect_path(&b, 0.5, 1, 2, -1, 0, 0, 8);
    expect_path(&b, 0.75, 1, 2, 1, 0, 0, 8);
    /* the last point held from the end on, the first before the start, at rest */
    expect_path(&b, 1.0, 1, 2, 3, 0, 0, 0);
    expect_path(&b, 7.3, 1, 2, 3, 0, 0, 0);
    expect_path(&b, -0.1, 0, 0, 0, 0, 0, 0);
    /* a single waypoint: held at all times, and path_dt plays no part */
    b.path_n = 1;
    b.path_dt = 0;
    expect_path(&b, 0.25, 0, 0, 0, 0, 0, 0);
    /* vel may be NULL */
    double p[3];
    b = kinematic_body();
    tc_body_path(&b, 0.125, p, NULL);
    cr_expect(p[0] == 0.25 && p[1] == 0.5 && p[2] == -0.25);
}

Test(dynamics, kinematic_body_in_the_system) {
    tc_scene sc = tc_default_scene();
    tc_body_desc k = kinematic_body(), f = tc_default_body("wall", tc_box(0.1, 0.1, 0.1)),
                 g = tc_default_body("ground", tc_plane());
    /* no mass needed; the initial state is the path's at t = 0 */
    cr_assert_eq(tc_scene_add(&sc, &k, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &f, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &g, 0, NULL), TC_OK);
    const double *v0 = sc.body[0].vel;
    cr_expect(v0[0] == 2 && v0[1] == 4 && v0[2] == -2, "initial velocity (%g %g %g)", v0[0], v0[1],
              v0[2]);
    /* no degrees of freedom */
    tc_system sys;
    tc_system_init(&sys, &sc);
    cr_expect_eq(sys.nq, 0);
    cr_expect_eq(sys.nv, 0);
    cr_expect_eq(sys.qadr[0], -1);
    cr_expect_eq(sys.vadr[0], -1);
    /* it pairs with both fixed bodies, the fixed bodies not with each other */
    int pairs[6];
    cr_expect_eq(tc_scene_pairs(&sc, pairs), 2);
    cr_expect(pairs[0] == 0 && pairs[1] == 1 && pairs[2] == 0 && pairs[3] == 2);
    /* pose and twist from the path at t, orientation from the scene, no spin */
    tc_body_state bs[3];
    double dummy = 0;
    tc_system_kinematics(&sys, 0.75, &dummy, &dummy, bs);
    cr_expect(bs[0].pos[0] == 1 && bs[0].pos[1] == 2 && bs[0].pos[2] == 1);
    cr_expect(bs[0].vel[0] == 0 && bs[0].vel[1] == 0 && bs[0].vel[2] == 8);
    cr_expect(bs[0].omega[0] == 0 && bs[0].omega[1] == 0 && bs[0].omega[2] == 0);
    cr_expect_eq(memcmp(bs[0].quat, sc.body[0].quat, sizeof bs[0].quat), 0);
    cr_expect_float_eq(bs[0].R[2], sin(0.6), 1e-15, "R from the scene quaternion");
    /* v == NULL: a static query, every twist zero */
    tc_system_kinematics(&sys, 0.75, &dummy, NULL, bs);
    cr_expect(bs[0].pos[2] == 1 && bs[0].vel[2] == 0);
    /* an external agent: no energy, no momentum */
    double lin[3], ang[3];
    tc_system_kinematics(&sys, 0.75, &dummy, &dummy, bs);
    tc_system_momentum(&sys, bs, lin, ang);
    cr_expect(tc_v3_norm(lin) == 0 && tc_v3_norm(ang) == 0);
    cr_expect_eq(tc_system_energy(&sys, bs), 0);
}

Test(dynamics, kinematic_body_checks) {
    static const struct {
        int n;
        double dt, x;
        int kp, damping;
        const char *param;
    } bad[] = {
        {0, 0.5, 0, 0, 0, "path_n"},  {TC_PATH_MAX + 1, 0.5, 0, 0, 0, "path_n"},
        {2, 0, 0, 0, 0, "path_dt"},   {2, -1, 0, 0, 0, "path_dt"},
        {2, NAN, 0, 0, 0, "path_dt"}, {2, 0.5, INFINITY, 0, 0, "path"},
        {2, 0.5, 0, 1, 0, "kp"},      {2, 0.5, 0, 0, 1, "damping"},
    };
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        tc_scene sc = tc_default_scene();
        tc_body_desc b = kinematic_body();
        b.path_n = bad[c].n;
        b.path_dt = bad[c].dt;
        b.path[1][1] = bad[c].x;
        b.kp[0] = bad[c].kp;
        b.damping[0] = bad[c].damping;
        tc_error err = {0};
        cr_expect_eq(tc_scene_add(&sc, &b, 1000, &err), TC_EINVAL, "case %zu accepted", c);
        cr_expect_str_eq(err.param, bad[c].param, "case %zu: %s", c, err.msg);
        cr_expect_eq(sc.nbody, 0);
    }
    /* the most waypoints, and a single one with no interval */
    tc_scene sc = tc_default_scene();
    tc_body_desc b = kinematic_body();
    b.path_n = TC_PATH_MAX;
    cr_expect_eq(tc_scene_add(&sc, &b, 0, NULL), TC_OK);
    b.path_n = 1;
    b.path_dt = 0;
    cr_expect_eq(tc_scene_add(&sc, &b, 0, NULL), TC_OK);
    /* a kinematic plane is refused like any moving plane */
    tc_body_desc p = tc_default_body("ground", tc_plane());
    p.joint = TC_JOINT_KINEMATIC;
    p.path_n = 1;
    cr_expect_eq(tc_scene_add(&sc, &p, 0, NULL), TC_EINVAL);
}

/* a kinematic sphere (r 5 cm) sweeping along +x at 0.4 m/s, from x = -0.2 at t = 0 to 0.2 at
 * t = 1 s, into a free box (half extent 5 cm, density 500: 0.5 kg) at rest at the origin; no
 * gravity, no friction */
static tc_scene sweep_scene(void) {
    tc_scene sc = tc_default_scene();
    sc.friction = 0;
    tc_body_desc k = tc_default_body("pusher", tc_sphere(0.05));
    k.joint = TC_JOINT_KINEMATIC;
    k.path_n = 2;
    k.path_dt = 1;
    tc_v3_set(k.path[0], -0.2, 0, 0);
    tc_v3_set(k.path[1], 0.2, 0, 0);
    tc_body_desc b = tc_default_body("box", tc_box(0.05, 0.05, 0.05));
    b.joint = TC_JOINT_FREE;
    cr_assert_eq(tc_scene_add(&sc, &k, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 500, NULL), TC_OK);
    return sc;
}

/* the kinematic body is an external agent: the free body's momentum is the impulse of the contact
 * force on it. With semi-implicit Euler v_{n+1} = v_n + dt F(t_n, q_n, v_n) / m, and tc_sim_force
 * at the step's start evaluates the same F (the same pusher position, at the same time), so
 * m v_N = sum dt F_n up to rounding (measured: equal to the last bit; tolerance 1e-6). */
Test(dynamics, kinematic_push_momentum_is_the_contact_impulse) {
    const double dt = 0.001;
    tc_scene sc = sweep_scene();
    tc_method m;
    tc_sim *sim;
    tc_error err = {0};
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley/semi-euler", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, dt, &err), TC_OK, "%s", err.msg);
    const tc_system *sys = tc_sim_system(sim);
    double J[3] = {0, 0, 0}, lin[3], ang[3];
    tc_wrench w[2];
    for (int n = 0; n < 800; n++) {
        cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), tc_sim_v(sim), w), TC_OK);
        tc_v3_addscl(J, w[1].f, dt);
        cr_assert_eq(tc_sim_step(sim), TC_OK, "step %d", n);
    }
    /* the system's momentum is the box's alone */
    tc_body_state bs[2];
    tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
    tc_system_momentum(sys, bs, lin, ang);
    double mass = sc.body[1].mass, d[3];
    const double *v = tc_sim_v(sim) + sys->vadr[1];
    cr_log_info("kinematic push: impulse %.17g N s, momentum %.17g kg m/s, box at %.6g m/s", J[0],
                lin[0], v[0]);
    /* the box was pushed along +x */
    cr_expect_gt(v[0], 0.3, "box speed %g", v[0]);
    cr_expect_lt(fabs(v[1]) + fabs(v[2]), 1e-12);
    tc_v3_sub(d, lin, J);
    cr_expect_leq(tc_v3_norm(d), 1e-6 * tc_v3_norm(J), "momentum (%.17g %g %g) vs impulse (%.17g)",
                  lin[0], lin[1], lin[2], J[0]);
    cr_expect_float_eq(lin[0], mass * v[0], 1e-15 * lin[0]);
    /* the pusher is exactly on its path at the final time (0.8 s: x = 0.12 m) */
    double p[3], pv[3];
    tc_body_path(&sc.body[0], tc_sim_time(sim), p, pv);
    cr_expect_eq(memcmp(bs[0].pos, p, sizeof p), 0);
    cr_expect_float_eq(bs[0].pos[0], 0.12, 1e-12);
    cr_expect(pv[0] == 0.4 && bs[0].vel[0] == pv[0]);
    tc_sim_free(sim);
}

/* the same sweep with RK4: the box ends up moving along +x, the pusher exactly on its path */
Test(dynamics, kinematic_push_rk4) {
    tc_scene sc = sweep_scene();
    tc_method m;
    tc_sim *sim;
    tc_error err = {0};
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley/rk4", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, &err), TC_OK, "%s", err.msg);
    for (int n = 0; n < 800; n++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "step %d", n);
    const tc_system *sys = tc_sim_system(sim);
    const double *v = tc_sim_v(sim) + sys->vadr[1], *q = tc_sim_q(sim) + sys->qadr[1];
    tc_body_state bs[2];
    double p[3];
    tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
    tc_body_path(&sc.body[0], tc_sim_time(sim), p, NULL);
    cr_log_info("rk4 kinematic push: box at x = %.6g m, %.6g m/s", q[0], v[0]);
    cr_expect_gt(v[0], 0.3, "box speed %g", v[0]);
    cr_expect_gt(q[0], 0.1, "box position %g", q[0]);
    cr_expect_eq(memcmp(bs[0].pos, p, sizeof p), 0);
    tc_sim_free(sim);
}
