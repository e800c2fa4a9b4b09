/* SPDX-License-Identifier: MIT */
/* unit tests of the Bullet 3.24 engine adapter: rest, drop and rebound against closed forms, the
 * weight from the force query, determinism, threads, errors */
#include "engines/tc_engine.h"
#include "math/tc_vec.h"
#include "sim/tc_sim.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

extern const tc_engine_type tc_engine_bullet;

#include "test_engine_run.h"
#define G 9.81

/* a run with default parameters, gravity -z and a fixed ground plane (body 0) */
static void init_run(run *r) {
    run_reset(r, &tc_engine_bullet);
    tc_v3_set(r->scene.gravity, 0, 0, -G);
    tc_body_desc g = tc_default_body("ground", tc_plane());
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&r->scene, &g, 0, &err), TC_OK, "%s", err.msg);
}

/* add a free body of shape sh at height z with density 1000; returns its index */
static int add_free(run *r, const char *name, tc_shape sh, double z) {
    tc_body_desc b = tc_default_body(name, sh);
    b.joint = TC_JOINT_FREE;
    tc_v3_set(b.pos, 0, 0, z);
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&r->scene, &b, 1000, &err), TC_OK, "%s", err.msg);
    return r->scene.nbody - 1;
}

/* the runs under test: large structs, kept off the stack */
static run R, R2;

Test(engine_bullet, registry_and_params) {
    cr_assert_eq(tc_engine_find("bullet"), &tc_engine_bullet);
    cr_assert_str_eq(tc_engine_bullet.version, "3.24");
    /* every parameter documented with a unit and a reason, default inside its range */
    for (const tc_param_spec *s = tc_engine_bullet.params; s->name; s++) {
        cr_assert(s->unit && s->unit[0] && s->doc && s->doc[0] && s->reason && s->reason[0], "%s",
                  s->name);
        cr_assert(s->def >= s->lo && s->def <= s->hi, "%s", s->name);
    }
}

/* a 20 cm cube (8 kg) set down exactly touching the ground, 10 s at dt = 1/240 s; the largest
 * sinking, sideways slide and tilt seen, with `iterations` PGS sweeps per step */
static void rest(int iterations, double *sink, double *side, double *tilt) {
    init_run(&R);
    int b = add_free(&R, "box", tc_box(0.1, 0.1, 0.1), 0.1);
    set_param(&R, "iterations", iterations);
    start(&R, 1.0 / 240);
    const double *q = R.q + R.sys.qadr[b];
    *sink = *side = *tilt = 0;
    for (int i = 0; i < 2400; i++) {
        cr_assert_eq(tc_engine_bullet.step(R.st, NULL, NULL, R.q, R.v), TC_OK, "step %d", i);
        *sink = fmax(*sink, fabs(q[2] - 0.1));
        *side = fmax(*side, hypot(q[0], q[1]));
        *tilt = fmax(*tilt, 2 * hypot(q[4], hypot(q[5], q[6])));
    }
    cr_log_info("box at rest, %d sweeps: |z - 0.1| <= %.3g m, sideways %.3g m, tilt %.3g rad",
                iterations, *sink, *side, *tilt);
    cr_assert_geq(tc_engine_bullet.ncontact(R.st), 4);
    char buf[512];
    cr_assert_eq(tc_engine_bullet.warnings(R.st, buf, sizeof buf), 0, "%s", buf);
    tc_engine_bullet.free(R.st);
}

/* Tolerance. Bullet removes a penetration through the impulse at rate erp / dt and lets a gap
 * close within one step (speculative contacts), so the contact itself holds the height to
 * rounding; what moves the box is the projected Gauss-Seidel residual: 10 sweeps (Bullet's
 * default) leave the four corners' impulses unequal, the box rocks by tens of microradians and
 * creeps sideways (measured 2e-8 m, 1.3e-4 m, 4.6e-5 rad over 10 s). We allow 1e-6 m of
 * sinking and 1 mm sideways and 1e-3 rad of tilt at the default, 1/20 of the 2 cm contact
 * breaking threshold that bounds Bullet's contact slop; and with 100 sweeps the solver
 * converges and the box must not move beyond rounding (1e-12 m, 1e-12 rad), which shows the
 * creep is the solver's residual, not the adapter's */
Test(engine_bullet, box_at_rest_does_not_drift) {
    double sink, side, tilt;
    rest(10, &sink, &side, &tilt);
    cr_assert_lt(sink, 1e-6, "sank %g m", sink);
    cr_assert_lt(side, 1e-3, "slid %g m", side);
    cr_assert_lt(tilt, 1e-3, "tilted %g rad", tilt);
    rest(100, &sink, &side, &tilt);
    cr_assert_lt(sink, 1e-12, "sank %g m", sink);
    cr_assert_lt(side, 1e-12, "slid %g m", side);
    cr_assert_lt(tilt, 1e-12, "tilted %g rad", tilt);
}

/* the force query on the resting cube returns its weight: one step from rest with no cached
 * points (so no warm start), impulses / dt. 10 cold PGS sweeps over the four corners leave the
 * sum within 1e-4 of m g (measured 3e-5), a sideways friction below 1e-3 m g (measured
 * 1.7e-4) and the torque about the COM below 1e-2 m g times the 0.1 m half side (measured
 * 1.2e-3); with 100 sweeps all within 1e-9; the ground gets the opposite force */
Test(engine_bullet, force_query_weight) {
    init_run(&R);
    int b = add_free(&R, "box", tc_box(0.1, 0.1, 0.1), 0.1);
    start(&R, 1.0 / 240);
    double mg = R.scene.body[b].mass * G;
    tc_wrench w[2];
    cr_assert_eq(tc_engine_bullet.force(R.st, R.q, NULL, w), TC_OK);
    cr_log_info("weight %.9g N, query %.9g N, ncontact %d", mg, w[b].f[2],
                tc_engine_bullet.ncontact(R.st));
    cr_assert_geq(tc_engine_bullet.ncontact(R.st), 4, "the whole face (multipoint)");
    cr_log_info("torque %.3g N m, sideways %.3g N", tc_v3_norm(w[b].t),
                hypot(w[b].f[0], w[b].f[1]));
    cr_assert_lt(fabs(w[b].f[2] - mg), 1e-4 * mg, "got %.9g N for %.9g N", w[b].f[2], mg);
    cr_assert_lt(hypot(w[b].f[0], w[b].f[1]), 1e-3 * mg);
    cr_assert_lt(tc_v3_norm(w[b].t), 1e-2 * mg * 0.1);
    for (int k = 0; k < 3; k++)
        cr_assert_leq(fabs(w[b].f[k] + w[0].f[k]), 1e-9 * mg);
    /* the query leaves the dynamics alone: a second query gives the same bits */
    tc_wrench w2[2];
    cr_assert_eq(tc_engine_bullet.force(R.st, R.q, NULL, w2), TC_OK);
    cr_assert_eq(memcmp(w, w2, sizeof w), 0);
    tc_engine_bullet.free(R.st);
    /* converged: 100 sweeps */
    set_param(&R, "iterations", 100);
    start(&R, 1.0 / 240);
    cr_assert_eq(tc_engine_bullet.force(R.st, R.q, NULL, w), TC_OK);
    cr_log_info("100 sweeps: query %.12g N, torque %.3g N m", w[b].f[2], tc_v3_norm(w[b].t));
    cr_assert_lt(fabs(w[b].f[2] - mg), 1e-9 * mg);
    cr_assert_lt(tc_v3_norm(w[b].t), 1e-9 * mg * 0.1);
    cr_assert_lt(hypot(w[b].f[0], w[b].f[1]), 1e-9 * mg);
    tc_engine_bullet.free(R.st);
}

/* a ball of radius 5 cm dropped from rest with its lowest point h = g dt^2 N (N + 1) / 2 above
 * the ground (N = 300, dt = 1 ms: h = 0.443 m), so semi-implicit Euler brings it exactly to the
 * surface at step N. A sphere's collision margin is its radius, so the contact distance is
 * exact. Contact time: the first step whose velocity leaves free fall, within one step of
 * sqrt(2 h / g). Rebound: Bullet targets e |v| with v the approach speed at the step's start,
 * minus the gap over dt (speculative contact), so the first upward speed is e sqrt(2 g h)
 * within e 2 g dt (two steps of gravity between the closed-form impact and Bullet's v) */
Test(engine_bullet, drop_contact_time_and_rebound) {
    const double dt = 1e-3, e = 0.5, r = 0.05;
    const int N = 300;
    double h = G * dt * dt * N * (N + 1) / 2;
    init_run(&R);
    int b = add_free(&R, "ball", tc_sphere(r), r + h);
    set_param(&R, "restitution", e);
    start(&R, dt);
    const double *vz = R.v + R.sys.vadr[b] + 2;
    double t_contact = -1, v_up = 0;
    for (int i = 1; i <= 2 * N && v_up <= 0; i++) {
        double free_fall = *vz - G * dt;
        cr_assert_eq(tc_engine_bullet.step(R.st, NULL, NULL, R.q, R.v), TC_OK, "step %d", i);
        if (t_contact < 0 && *vz > free_fall + 1e-9) t_contact = i * dt;
        if (t_contact > 0) v_up = *vz;
    }
    double tc = sqrt(2 * h / G), vin = sqrt(2 * G * h);
    cr_log_info("contact at %.6g s (closed form %.6g s), rebound %.6g m/s (e v = %.6g m/s)",
                t_contact, tc, v_up, e * vin);
    cr_assert_gt(t_contact, 0, "no contact");
    cr_assert_leq(fabs(t_contact - tc), dt, "contact at %g s, closed form %g s", t_contact, tc);
    cr_assert_leq(fabs(v_up - e * vin), e * 2 * G * dt, "rebound %g m/s", v_up);
    tc_engine_bullet.free(R.st);
}

/* a regular octahedron (vertices 5 cm out on the axes) set on a face rests with its COM at the
 * face distance r / sqrt 3 = 2.887 cm: the hull Bullet collides is the polytope's faces moved in
 * by the margin, plus the margin, so it is not inflated by it (a hull of the vertices would rest
 * 5.8 mm higher). Tolerance 1e-4 m (about g dt^2 = 1.7e-4 m of resting penetration at most;
 * measured 4e-5 m) */
Test(engine_bullet, octahedron_rests_on_a_face) {
    const double r = 0.05,
                 v[6][3] = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
    tc_shape o;
    tc_error err = {0};
    cr_assert_eq(tc_polytope(&o, v, 6, &err), TC_OK, "%s", err.msg);
    init_run(&R);
    int b = add_free(&R, "octa", o, r / sqrt(3) + 0.002);
    /* turn the face normal (1, 1, 1) / sqrt 3 onto -z: about (1, -1, 0) / sqrt 2 by the angle
     * between them */
    double ang = acos(-1 / sqrt(3)), s2 = sin(ang / 2) / sqrt(2);
    double qb[4] = {cos(ang / 2), s2, -s2, 0};
    memcpy(R.scene.body[b].quat, qb, sizeof qb);
    start(&R, 1.0 / 240);
    for (int i = 0; i < 480; i++)
        cr_assert_eq(tc_engine_bullet.step(R.st, NULL, NULL, R.q, R.v), TC_OK, "step %d", i);
    double z = R.q[R.sys.qadr[b] + 2];
    cr_log_info("octahedron at rest: z = %.6g m (face distance %.6g m)", z, r / sqrt(3));
    cr_assert_lt(fabs(z - r / sqrt(3)), 1e-4, "z = %g m", z);
    tc_engine_bullet.free(R.st);
}

/* two identical runs of a tumbling box landing give the same bits, also in parallel threads
 * (each state owns its worlds; the adapter keeps nothing global) */
Test(engine_bullet, deterministic_and_thread_safe) {
    enum { NRUN = 6 };
    static run runs[NRUN];
    int fails = 0;
#pragma omp parallel for reduction(+ : fails)
    for (int k = 0; k < NRUN; k++) {
        run *r = &runs[k];
        tc_error err = {0};
        memset(r, 0, sizeof *r);
        tc_scene_init(&r->scene);
        tc_v3_set(r->scene.gravity, 0, 0, -G);
        tc_params_default(&r->p, tc_engine_bullet.params);
        tc_body_desc g = tc_default_body("ground", tc_plane());
        tc_body_desc b = tc_default_body("box", tc_box(0.05, 0.03, 0.02));
        b.joint = TC_JOINT_FREE;
        tc_v3_set(b.pos, 0, 0, 0.1);
        b.quat[0] = cos(0.2);
        b.quat[2] = sin(0.2);
        tc_v3_set(b.omega, 1, 2, 3);
        fails += tc_scene_add(&r->scene, &g, 0, &err) != TC_OK;
        fails += tc_scene_add(&r->scene, &b, 800, &err) != TC_OK;
        tc_system_init(&r->sys, &r->scene);
        tc_system_initial_state(&r->sys, r->q, r->v);
        if (tc_engine_bullet.alloc(&r->st, &r->scene, &r->p, 0.002, &err) != TC_OK) {
            fails++;
            continue;
        }
        for (int i = 0; i < 300; i++) {
            fails += tc_engine_bullet.step(r->st, NULL, NULL, r->q, r->v) != TC_OK;
            /* queries interleaved in half the runs must not change the trajectory */
            tc_wrench w[2];
            if (k % 2) fails += tc_engine_bullet.force(r->st, r->q, r->v, w) != TC_OK;
        }
        tc_engine_bullet.free(r->st);
    }
    cr_assert_eq(fails, 0);
    for (int k = 1; k < NRUN; k++) {
        cr_assert_eq(memcmp(runs[k].q, runs[0].q, 7 * sizeof(double)), 0, "run %d q", k);
        cr_assert_eq(memcmp(runs[k].v, runs[0].v, 6 * sizeof(double)), 0, "run %d v", k);
    }
    cr_assert_lt(runs[0].q[2], 0.06, "the box has landed (z = %g)", runs[0].q[2]);
}

/* a planar body on a position servo reaches its target (touche's ctrl, world x) and the
 * servo's static balance with a constant push: kp dx = F */
Test(engine_bullet, planar_servo_balance) {
    init_run(&R);
    R.scene.gravity[2] = 0;
    tc_body_desc f = tc_default_body("finger", tc_sphere(0.015));
    f.joint = TC_JOINT_PLANAR;
    tc_v3_set(f.pos, 0.3, 0, 0.5);
    f.kp[0] = f.kp[1] = 200;
    f.damping[0] = f.damping[1] = 9;
    f.damping[2] = 1e-4;
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&R.scene, &f, 1000, &err), TC_OK, "%s", err.msg);
    int i = R.scene.nbody - 1;
    start(&R, 0.005);
    double ctrl[3] = {0.4, 0.1, 0};
    tc_wrench x[2] = {{{0}, {0}}, {{1.0, 0, 0}, {0, 0, 0}}};
    for (int k = 0; k < 2000; k++)
        cr_assert_eq(tc_engine_bullet.step(R.st, ctrl, x, R.q, R.v), TC_OK);
    const double *q = R.q + R.sys.qadr[i];
    cr_log_info("servo: x = %.9g (expect %.9g), y = %.9g", q[0], 0.4 + 1.0 / 200, q[1]);
    cr_assert_lt(fabs(q[0] - (0.4 + 1.0 / 200)), 1e-6);
    cr_assert_lt(fabs(q[1] - 0.1), 1e-6);
    tc_engine_bullet.free(R.st);
}

/* bad input: an ellipsoid is not supported (TC_EUNSUP), a zero step is TC_EINVAL */
Test(engine_bullet, refuses_what_it_cannot_do) {
    init_run(&R2);
    tc_body_desc b = tc_default_body("egg", tc_ellipsoid(0.1, 0.05, 0.05));
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&R2.scene, &b, 0, &err), TC_OK, "%s", err.msg);
    tc_system_init(&R2.sys, &R2.scene);
    cr_assert_eq(tc_engine_bullet.alloc(&R2.st, &R2.scene, &R2.p, 0.01, &err), TC_EUNSUP);
    cr_expect_str_eq(err.param, "shape");
    cr_expect_str_eq(err.msg, "body 'egg': Bullet has no ellipsoid shape here");
    init_run(&R2);
    tc_error_clear(&err);
    cr_assert_eq(tc_engine_bullet.alloc(&R2.st, &R2.scene, &R2.p, 0, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "dt");
    cr_expect_str_eq(err.msg, "must be > 0 s (got 0)");
    cr_assert_null(R2.st);
}
