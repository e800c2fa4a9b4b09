/* SPDX-License-Identifier: MIT */
/* unit tests of the ODE 0.16 engine adapter: rest without drift, the ball drop's closed forms,
 * the weight through the force query, determinism */
#include "engines/tc_engine.h"
#include "math/tc_vec.h"
#include "scenes/tc_scenes.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <ode/ode.h>
#include <omp.h>
#include <signal.h>
#include <string.h>

extern const tc_engine_type tc_engine_ode;

#define NQ (7 * 16)
#define NV (6 * 16)
#include "test_engine_run.h"
#define G 9.81

/* a run with default parameters, an empty scene with gravity -g z, friction 0.5 */
static void init_run(run *r) {
    run_reset(r, &tc_engine_ode);
    r->scene.gravity[2] = -G;
}

/* append a body that must be accepted; returns its index */
static int add(run *r, tc_body_desc b, double density) {
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&r->scene, &b, density, &err), TC_OK, "%s", err.msg);
    return r->scene.nbody - 1;
}

/* a fixed ground plane through the origin */
static int add_plane(run *r) {
    return add(r, tc_default_body("ground", tc_plane()), 0);
}

/* a free body of the shape at (x, y, z), density 1000 */
static int add_free(run *r, const char *name, tc_shape sh, double x, double y, double z) {
    tc_body_desc b = tc_default_body(name, sh);
    b.joint = TC_JOINT_FREE;
    tc_v3_set(b.pos, x, y, z);
    return add(r, b, 1000);
}

/* one step that must succeed */
static void step(run *r) {
    cr_assert_eq(tc_engine_ode.step(r->st, NULL, NULL, r->q, r->v), TC_OK);
}

/* the runs under test: large structs, kept off the stack */
static run R, S;

Test(engine_ode, registry_and_params) {
    cr_assert_eq(tc_engine_find("ode"), &tc_engine_ode);
    cr_assert_str_eq(tc_engine_ode.version, "0.16");
    /* every parameter documented with a unit and a reason, default inside its range */
    for (const tc_param_spec *s = tc_engine_ode.params; s->name; s++) {
        cr_assert(s->unit && s->unit[0] && s->doc && s->doc[0] && s->reason && s->reason[0], "%s",
                  s->name);
        cr_assert(s->def >= s->lo && s->def <= s->hi, "%s", s->name);
    }
    /* ODE's documented world defaults: ERP 0.2, CFM 1e-10 (double), QuickStep 20 x 1.3 */
    tc_params p;
    tc_params_default(&p, tc_engine_ode.params);
    cr_assert_eq(tc_params_get(&p, "erp"), 0.2);
    cr_assert_eq(tc_params_get(&p, "cfm"), 1e-10);
    cr_assert_eq(tc_params_get(&p, "iterations"), 20);
    cr_assert_eq(tc_params_get(&p, "sor_w"), 1.3);
}

/* a 20 cm cube (8 kg) placed touching the ground stays put for 4 s at 1 ms steps.
 * dWorldStep: ODE's ERP and CFM make each contact row a spring of stiffness k = ERP / (h CFM)
 * (ODE manual, "How do I make 'spongy' and 'soft' constraints?"; no damping term), 2e12 N/m at
 * h = 1 ms, so the weight sinks the cube by at most m g / k = 4e-11 m: bound 1e-9 m, and no
 * sliding or turning beyond 1e-9 (the LCP is solved exactly: no drift source is left).
 * QuickStep: ODE documents no bound ("less accurate", its manual); its 20 SOR sweeps in a
 * random row order leave a residual that ERP corrects each step, a jitter measured at 4.2e-6 m
 * vertically, 3.8e-6 m sideways and 2e-5 in the quaternion over 4 s: bounds 1e-5 m and 1e-4,
 * and the jitter must not grow (the last second stays within the same bounds) */
static void box_rest(int stepper) {
    init_run(&R);
    set_param(&R, "stepper", stepper);
    add_plane(&R);
    int box = add_free(&R, "box", tc_box(0.1, 0.1, 0.1), 0, 0, 0.1);
    start(&R, 0.001);
    int qa = R.sys.qadr[box];
    double zmax = 0, xymax = 0, rmax = 0, late = 0;
    for (int n = 0; n < 4000; n++) {
        step(&R);
        double dz = fabs(R.q[qa + 2] - 0.1), dxy = hypot(R.q[qa], R.q[qa + 1]);
        double dr = fabs(R.q[qa + 4]) + fabs(R.q[qa + 5]) + fabs(R.q[qa + 6]);
        zmax = fmax(zmax, dz);
        xymax = fmax(xymax, dxy);
        rmax = fmax(rmax, dr);
        if (n >= 3000) late = fmax(late, fmax(dz, dxy));
    }
    double tol = stepper == 0 ? 1e-9 : 1e-5, rtol = stepper == 0 ? 1e-9 : 1e-4;
    cr_expect_geq(tc_engine_ode.ncontact(R.st), 3, "the face rests on its corners");
    cr_expect_leq(zmax, tol, "stepper %d: vertical drift %g m", stepper, zmax);
    cr_expect_leq(xymax, tol, "stepper %d: slid %g m", stepper, xymax);
    cr_expect_leq(rmax, rtol, "stepper %d: turned %g", stepper, rmax);
    cr_expect_leq(late, tol, "stepper %d: %g m in the last second", stepper, late);
    char buf[512];
    cr_expect_eq(tc_engine_ode.warnings(R.st, buf, (int)sizeof buf), 0, "%s", buf);
    tc_engine_ode.free(R.st);
}
Test(engine_ode, box_at_rest_does_not_drift) {
    box_rest(0);
    box_rest(1);
}

/* a 5 cm ball dropped from h = 0.5 m (gap) onto the ground with bounce e = 0.5.
 * Contact time: free fall reaches the ground at sqrt(2 h / g) = 0.3193 s; ODE's semi-implicit
 * Euler steps and discrete contact detection (at each step's start) find it within one step.
 * Rebound: ODE's bounce sets the normal velocity after the contact step to e times the
 * approach velocity at its start (when that exceeds bounce_vel and ERP's push-out, here at
 * most ERP v dt / dt = 0.2 v < 0.5 v), so v_out = e v_in up to the CFM's softening: the
 * impulse solves (1/m + CFM/h) lambda = rhs, so the velocity change (1 + e) v_in falls short by
 * the relative m CFM / h (5e-8 here; bound twice that);
 * against the closed form e sqrt(2 g h) the discrete fall adds at most g dt */
Test(engine_ode, ball_drop_contact_time_and_rebound) {
    const double h = 0.5, r = 0.05, dt = 0.001, e = 0.5;
    for (int stepper = 0; stepper < 2; stepper++) {
        init_run(&R);
        set_param(&R, "stepper", stepper);
        set_param(&R, "bounce", e);
        add_plane(&R);
        int ball = add_free(&R, "ball", tc_sphere(r), 0, 0, h + r);
        start(&R, dt);
        int qa = R.sys.qadr[ball], va = R.sys.vadr[ball], hit = -1;
        double vin = 0, vout = 0;
        for (int n = 0; n < 1000 && hit < 0; n++) {
            double before = R.v[va + 2];
            step(&R);
            if (tc_engine_ode.ncontact(R.st) > 0) {
                hit = n;
                vin = before;
                vout = R.v[va + 2];
            }
        }
        cr_assert_geq(hit, 0, "no contact in 1 s");
        double tc = hit * dt, closed = sqrt(2 * h / G);
        cr_expect_leq(fabs(tc - closed), dt, "stepper %d: contact at %g s, free fall %g s", stepper,
                      tc, closed);
        double m = R.scene.body[ball].mass, cfm = tc_params_get(&R.p, "cfm");
        cr_expect_leq(fabs(vout + e * vin), 2 * (1 + e) * fabs(vin) * m * cfm / dt,
                      "rebound %.17g for e v_in = %.17g", vout, -e * vin);
        cr_expect_leq(fabs(vout - e * sqrt(2 * G * h)), G * dt, "rebound %g vs e sqrt(2 g h) %g",
                      vout, e * sqrt(2 * G * h));
        cr_expect_gt(R.q[qa + 2], r - 0.01, "ball below the ground");
        tc_engine_ode.free(R.st);
    }
}

/* the force query on a box resting on the ground returns its weight, and the opposite on the
 * ground. The query's step solves (J M^-1 J^T + CFM/h) lambda = rhs: the CFM softens the
 * support by the relative m CFM / h (8e-7 for 8 kg at 1 ms; measured 4e-7 with both steppers,
 * QuickStep converging on the three corner rows), which bounds the weight's error and the
 * sideways force the corners' coupling leaves */
Test(engine_ode, force_query_returns_the_weight) {
    for (int stepper = 0; stepper < 2; stepper++) {
        init_run(&R);
        set_param(&R, "stepper", stepper);
        int ground = add_plane(&R);
        int box = add_free(&R, "box", tc_box(0.1, 0.2, 0.05), 0.3, -0.2, 0.05);
        start(&R, 0.001);
        double mg = R.scene.body[box].mass * G;
        tc_wrench w[2];
        cr_assert_eq(tc_engine_ode.force(R.st, R.q, NULL, w), TC_OK);
        double tol = R.scene.body[box].mass * tc_params_get(&R.p, "cfm") / 0.001;
        cr_expect_leq(fabs(w[box].f[2] - mg), tol * mg, "stepper %d: %g N for m g = %g N", stepper,
                      w[box].f[2], mg);
        for (int k = 0; k < 3; k++)
            cr_expect_leq(fabs(w[box].f[k] + w[ground].f[k]), 1e-12 * mg, "Newton 3, axis %d", k);
        cr_expect_leq(fabs(w[box].f[0]) + fabs(w[box].f[1]), tol * mg, "no friction at rest");
        /* the query is a function of the state: a second one gives the same */
        tc_wrench w2[2];
        cr_assert_eq(tc_engine_ode.force(R.st, R.q, NULL, w2), TC_OK);
        cr_expect_eq(memcmp(w, w2, sizeof w), 0);
        tc_engine_ode.free(R.st);
    }
}

/* a static penetration without gravity (E1's query): the query's step asks the contact row for
 * the velocity ERP d / h that removes ERP of the depth d in one step, so the force on the free
 * sphere is m ERP d / h^2 (the CFM softens it by m CFM / h, 5e-8 here): 262 N for the 0.524 kg
 * sphere pressed 1 cm at h = 2 ms, along the line of centres, balanced by the fixed sphere */
Test(engine_ode, static_penetration_force_closed_form) {
    init_run(&R);
    R.scene.gravity[2] = 0;
    tc_body_desc big = tc_default_body("big", tc_sphere(0.1));
    int b = add(&R, big, 0);
    int s = add_free(&R, "small", tc_sphere(0.05), 0, 0.14, 0);
    const double h = 0.002, d = 0.01;
    start(&R, h);
    tc_wrench w[2];
    cr_assert_eq(tc_engine_ode.force(R.st, R.q, NULL, w), TC_OK);
    double m = R.scene.body[s].mass, erp = tc_params_get(&R.p, "erp");
    double closed = m * erp * d / (h * h), cfm = tc_params_get(&R.p, "cfm");
    cr_expect_leq(fabs(w[s].f[1] - closed), 2 * m * cfm / h * closed + 1e-9 * closed,
                  "%.17g N, closed form m ERP d / h^2 = %.17g N", w[s].f[1], closed);
    cr_expect_leq(fabs(w[s].f[0]) + fabs(w[s].f[2]), 1e-9 * closed, "off the line of centres");
    for (int k = 0; k < 3; k++) {
        cr_expect_leq(fabs(w[s].f[k] + w[b].f[k]), 1e-12 * closed, "Newton 3, axis %d", k);
        cr_expect_leq(fabs(w[s].t[k]) + fabs(w[b].t[k]), 1e-9 * closed, "torque, axis %d", k);
    }
    tc_engine_ode.free(R.st);
}

/* a small pile: a box, a sphere and a compound dumbbell dropped on each other and the ground */
static void pile(run *r) {
    init_run(r);
    add_plane(r);
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.08, 0.06));
    b.joint = TC_JOINT_FREE;
    tc_v3_set(b.pos, 0, 0, 0.3);
    double q[4] = {cos(0.2), sin(0.2) * 0.6, 0, sin(0.2) * 0.8};
    memcpy(b.quat, q, sizeof q);
    add(r, b, 1000);
    add_free(r, "ball", tc_sphere(0.05), 0.03, 0.02, 0.6);
    tc_shape d = {.type = TC_SHAPE_COMPOUND, .npart = 2};
    d.part[0].type = d.part[1].type = TC_SHAPE_SPHERE;
    d.part[0].size[0] = d.part[1].size[0] = 0.04;
    d.part[0].pos[0] = 0.1;
    d.part[1].pos[0] = -0.1;
    add_free(r, "dumbbell", d, -0.02, 0.01, 0.9);
    start(r, 0.002);
}

/* 800 steps of the pile */
static void run_pile(run *r) {
    for (int n = 0; n < 800; n++)
        step(r);
}

/* two runs give bitwise the same state, whether they run one after the other or at once in
 * two threads (QuickStep's shuffling draws from ODE's process-wide dRand: each run keeps its
 * own seed and steps under a lock) */
Test(engine_ode, deterministic) {
    pile(&R);
    run_pile(&R);
    int nq = R.sys.nq, nv = R.sys.nv;
    cr_assert_gt(R.q[R.sys.qadr[1] + 2], 0.0, "the box stays above the ground");
    double q1[NQ], v1[NV];
    memcpy(q1, R.q, sizeof q1);
    memcpy(v1, R.v, sizeof v1);
    tc_engine_ode.free(R.st);
    pile(&R);
    pile(&S);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) run_pile(&R);
        if (omp_get_thread_num() == 1 || omp_get_num_threads() == 1) run_pile(&S);
    }
    cr_expect_eq(memcmp(q1, R.q, (size_t)nq * sizeof *q1), 0, "q differs");
    cr_expect_eq(memcmp(v1, R.v, (size_t)nv * sizeof *v1), 0, "v differs");
    cr_expect_eq(memcmp(q1, S.q, (size_t)nq * sizeof *q1), 0, "q differs (second thread)");
    cr_expect_eq(memcmp(v1, S.v, (size_t)nv * sizeof *v1), 0, "v differs (second thread)");
    tc_engine_ode.free(R.st);
    tc_engine_ode.free(S.st);
}

/* a shape ODE has no geom for is refused with a clear error */
Test(engine_ode, unsupported_shape) {
    init_run(&R);
    add_plane(&R);
    add_free(&R, "ell", tc_ellipsoid(0.1, 0.05, 0.04), 0, 0, 0.2);
    tc_system_init(&R.sys, &R.scene);
    tc_error err = {0};
    cr_assert_eq(tc_engine_ode.alloc(&R.st, &R.scene, &R.p, 0.001, &err), TC_EUNSUP);
    cr_expect_str_eq(err.param, "shape");
    cr_expect_str_eq(err.msg, "body 'ell': ODE adapter has no geom for shape type 4");
    cr_assert_null(R.st);
}

/* the scene checks ODE shares with Bullet: a step that is not > 0 s, a gravity that is not
 * finite */
Test(engine_ode, refuses_a_bad_step_or_gravity) {
    init_run(&R);
    add_plane(&R);
    tc_error err = {0};
    cr_assert_eq(tc_engine_ode.alloc(&R.st, &R.scene, &R.p, -0.5, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "dt");
    cr_expect_str_eq(err.msg, "must be > 0 s (got -0.5)");
    R.scene.gravity[2] = NAN;
    tc_error_clear(&err);
    cr_assert_eq(tc_engine_ode.alloc(&R.st, &R.scene, &R.p, 0.001, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "gravity");
    cr_assert_null(R.st);
}

/* E6's stack: two 0.5 m square prisms on planar joints, the bottom one shifted 2 cm. ODE
 * 0.16's convex-convex collider returns a zero normal for the exactly touching faces; the
 * adapter drops such contacts with a warning (a zero row made the step's solve NaN and ODE's
 * quaternion check raise an error). 1 s at 100 Hz: no error, the warning given, the top block
 * still on the bottom one (its centre above 0.7 m) */
Test(engine_ode, degenerate_convex_contacts_are_dropped) {
    init_run(&R);
    tc_error err = {0};
    cr_assert_eq(tc_scene_ground_2d(&R.scene, G, 0.5, &err), TC_OK, "%s", err.msg);
    double A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, b[4] = {0.25, 0.25, 0.25, 0.25};
    cr_assert_eq(tc_scene_add_polygon(&R.scene, "bottom", (const double(*)[2])A, b, 4, 0.05, 1,
                                      1.0 / 24, 0.02, 0.25, 0, &err),
                 TC_OK, "%s", err.msg);
    cr_assert_eq(tc_scene_add_polygon(&R.scene, "top", (const double(*)[2])A, b, 4, 0.05, 1,
                                      1.0 / 24, 0, 0.75, 0, &err),
                 TC_OK, "%s", err.msg);
    start(&R, 0.01);
    for (int n = 0; n < 100; n++)
        step(&R);
    char buf[1024];
    cr_expect_geq(tc_engine_ode.warnings(R.st, buf, (int)sizeof buf), 1);
    cr_expect(strstr(buf, "non-unit normal") && strstr(buf, "'bottom' and 'top'"), "%s", buf);
    double ytop = R.q[R.sys.qadr[2] + 1];
    cr_expect_gt(ytop, 0.7, "top block at y = %g m", ytop);
    tc_engine_ode.free(R.st);
}

/* ODE's messages land in warnings(), one line each, with ODE's number; none are printed */
Test(engine_ode, messages_are_captured) {
    init_run(&R);
    add_plane(&R);
    add_free(&R, "ball", tc_sphere(0.05), 0, 0, 0.2);
    start(&R, 0.001);
    char buf[512];
    cr_assert_eq(tc_engine_ode.warnings(R.st, buf, (int)sizeof buf), 0, "%s", buf);
    dMessage(7, "a message with %d in it", 42);
    cr_assert_eq(tc_engine_ode.warnings(R.st, buf, (int)sizeof buf), 1);
    cr_expect(strstr(buf, "a message with 42 in it") && strstr(buf, "ODE message 7"), "%s", buf);
    cr_assert_eq(tc_engine_ode.warnings(R.st, buf, (int)sizeof buf), 0, "drained: %s", buf);
    tc_engine_ode.free(R.st);
}

/* dError must not return: outside an adapter call (no trap) the handler aborts the process
 * with the message rather than letting ODE continue */
Test(engine_ode, untrapped_error_aborts, .signal = SIGABRT, .init = cr_redirect_stderr) {
    init_run(&R);
    add_plane(&R);
    start(&R, 0.001);
    dError(3, "an error outside any engine call");
}
