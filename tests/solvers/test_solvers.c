/* SPDX-License-Identifier: MIT */
/* integrators: measured order, conservation, tolerances, stiff stability, divergence reports */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math/tc_vec.h"
#include "sim/tc_sim.h"

/* a method "hunt-crossley/<solver>" with optional solver parameters (NULL-terminated names) */
static tc_method method(const char *solver, const char *const *names, const double *values) {
    tc_method m;
    char spec[64];
    snprintf(spec, sizeof spec, "hunt-crossley/%s", solver);
    cr_assert_eq(tc_method_parse(&m, spec, NULL), TC_OK, "%s", spec);
    for (int i = 0; names && names[i]; i++)
        cr_assert_eq(tc_method_set(&m, names[i], values[i], NULL), TC_OK, "%s", names[i]);
    return m;
}

/* a lone planar puck (no contact pairs): servo kp and damping c on x, target set by the caller */
static tc_scene puck(double kp, double c) {
    tc_scene sc = tc_default_scene();
    tc_body_desc b = tc_default_body("puck", tc_sphere(0.05));
    b.joint = TC_JOINT_PLANAR;
    b.kp[0] = kp;
    b.damping[0] = c;
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, NULL), TC_OK);
    return sc;
}

/* the damped oscillator m x'' = -c x' + kp (X - x), x(0) = x'(0) = 0: closed form at t */
static void oscillator(double m, double kp, double c, double X, double t, double *x, double *v) {
    double a = c / (2 * m), w0 = sqrt(kp / m), wd = sqrt(w0 * w0 - a * a), e = exp(-a * t);
    *x = X - X * e * (cos(wd * t) + a / wd * sin(wd * t));
    *v = X * e * (w0 * w0 / wd) * sin(wd * t);
}

/* oscillator test case: about 4 rad/s, lightly damped, 10 cm step of the target */
#define OSC_KP 8.0
#define OSC_C  0.2
#define OSC_X  0.1

/* integrate the oscillator to t = 1 s with n steps; error sqrt(ex^2 + (ev / w0)^2) in m */
static double oscillator_error(const tc_method *m, int n) {
    tc_scene sc = puck(OSC_KP, OSC_C);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, m, 1.0 / n, NULL), TC_OK);
    /* no contacting pairs: the model contributes nothing */
    tc_wrench w[1];
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), tc_sim_v(sim), w), TC_OK);
    for (int k = 0; k < 3; k++)
        cr_assert(w[0].f[k] == 0 && w[0].t[k] == 0, "force must be zero");
    tc_sim_ctrl(sim)[0] = OSC_X;
    for (int i = 0; i < n; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", m->spec, i);
    double mass = sc.body[0].mass, x, v;
    oscillator(mass, OSC_KP, OSC_C, OSC_X, 1.0, &x, &v);
    double ex = tc_sim_q(sim)[0] - x, ev = (tc_sim_v(sim)[0] - v) / sqrt(OSC_KP / mass);
    tc_sim_free(sim);
    return sqrt(ex * ex + ev * ev);
}

/* least-squares slope of log(error) against log(dt) over dt = 1/50 ... 1/400 */
static double measured_order(const char *solver) {
    static const int n[4] = {50, 100, 200, 400};
    tc_method m = method(solver, NULL, NULL);
    double lx[4], ly[4], mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = 0; i < 4; i++) {
        double e = oscillator_error(&m, n[i]);
        cr_assert(e > 0 && isfinite(e), "%s: error %g at dt = 1/%d", solver, e, n[i]);
        lx[i] = log(1.0 / n[i]);
        ly[i] = log(e);
        mx += lx[i] / 4;
        my += ly[i] / 4;
        cr_log_info("%s: dt = 1/%d, error %.3e m", solver, n[i], e);
    }
    for (int i = 0; i < 4; i++) {
        sxy += (lx[i] - mx) * (ly[i] - my);
        sxx += (lx[i] - mx) * (lx[i] - mx);
    }
    return sxy / sxx;
}

Test(solvers, semi_euler_stays_the_default) {
    cr_assert_str_eq(tc_solvers[0]->name, "semi-euler");
    const char *want[] = {"euler", "rk4", "rkf45", "rk8pd", "rk4imp"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(tc_solver_find(want[i]) != NULL, "%s is not registered", want[i]);
}

Test(solvers, every_parameter_has_unit_doc_reason_and_a_valid_default) {
    for (int j = 0; tc_solvers[j]; j++)
        for (const tc_param_spec *p = tc_solvers[j]->params; p && p->name; p++) {
            cr_expect(p->unit && p->unit[0] && p->doc && p->doc[0] && p->reason && p->reason[0],
                      "%s.%s", tc_solvers[j]->name, p->name);
            cr_expect(p->lo > p->hi || (p->def >= p->lo && p->def <= p->hi), "%s.%s default",
                      tc_solvers[j]->name, p->name);
        }
}

Test(solvers, measured_order_of_accuracy) {
    double rk4 = measured_order("rk4"), eu = measured_order("euler"),
           se = measured_order("semi-euler");
    cr_log_info("measured slopes: rk4 %.3f, euler %.3f, semi-euler %.3f", rk4, eu, se);
    cr_expect(rk4 >= 3.7 && rk4 <= 4.3, "rk4 slope %.3f not in [3.7, 4.3]", rk4);
    cr_expect(eu >= 0.85 && eu <= 1.15, "euler slope %.3f not in [0.85, 1.15]", eu);
    cr_expect(se >= 0.85 && se <= 1.15, "semi-euler slope %.3f not in [0.85, 1.15]", se);
}

Test(solvers, adaptive_steppers_reach_their_tolerance) {
    /* rkf45 at rtol 1e-8 with 20 ms touche steps (adaptive substeps inside) */
    const char *names[] = {"rtol", NULL};
    const double vals[] = {1e-8};
    tc_method m = method("rkf45", names, vals);
    double e = oscillator_error(&m, 50);
    cr_log_info("rkf45 at rtol 1e-8, dt = 20 ms: error %.3e m against the closed form", e);
    cr_expect_leq(e, 1e-6, "rkf45 error %g m", e);
    /* rk8pd and rk4imp meet it too */
    tc_method m8 = method("rk8pd", names, vals), mi = method("rk4imp", names, vals);
    double e8 = oscillator_error(&m8, 50), ei = oscillator_error(&mi, 50);
    cr_log_info("rk8pd error %.3e m, rk4imp error %.3e m", e8, ei);
    cr_expect_leq(e8, 1e-6, "rk8pd error %g m", e8);
    cr_expect_leq(ei, 1e-6, "rk4imp error %g m", ei);
}

/* an asymmetric box spinning about a non-principal axis, drifting, no gravity, no contact */
static tc_scene spinning_box(void) {
    tc_scene sc = tc_default_scene();
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.05, 0.02));
    b.joint = TC_JOINT_FREE;
    double q[4] = {0.9, 0.2, -0.3, 0.1};
    tc_quat_normalize(q);
    memcpy(b.quat, q, sizeof q);
    tc_v3_set(b.omega, 2.0, 5.0, -1.5);
    tc_v3_set(b.vel, 0.3, -0.2, 0.1);
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, NULL), TC_OK);
    return sc;
}

/* relative drift of energy, angular momentum and linear momentum after t = n dt */
static void spin_drift(const tc_method *m, double dt, int n, double *de, double *dl, double *dp) {
    tc_scene sc = spinning_box();
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, m, dt, NULL), TC_OK);
    const tc_system *sys = tc_sim_system(sim);
    tc_body_state bs[1];
    double e0, l0[3], p0[3], e1, l1[3], p1[3], d[3];
    tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
    e0 = tc_system_energy(sys, bs);
    tc_system_momentum(sys, bs, p0, l0);
    for (int i = 0; i < n; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", m->spec, i);
    tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
    e1 = tc_system_energy(sys, bs);
    tc_system_momentum(sys, bs, p1, l1);
    /* angular momentum about the world origin: the COM term r x p is conserved too */
    *de = fabs(e1 - e0) / e0;
    tc_v3_sub(d, l1, l0);
    *dl = tc_v3_norm(d) / tc_v3_norm(l0);
    tc_v3_sub(d, p1, p0);
    *dp = tc_v3_norm(d) / tc_v3_norm(p0);
    tc_sim_free(sim);
}

Test(solvers, torque_free_spin_conserves_energy_and_momentum) {
    double de, dl, dp;
    const char *names[] = {"rtol", "atol", NULL};
    const double vals[] = {1e-10, 1e-12};
    tc_method m8 = method("rk8pd", names, vals), m4 = method("rk4", NULL, NULL);
    spin_drift(&m8, 1e-3, 2000, &de, &dl, &dp);
    cr_log_info("rk8pd rtol 1e-10, 2 s: energy %.2e, angular momentum %.2e relative", de, dl);
    cr_expect_leq(de, 1e-8, "rk8pd energy drift %g", de);
    cr_expect_leq(dl, 1e-8, "rk8pd angular momentum drift %g", dl);
    spin_drift(&m4, 1e-3, 2000, &de, &dl, &dp);
    cr_log_info("rk4 dt 1 ms, 2 s: energy %.2e, angular momentum %.2e relative", de, dl);
    cr_expect_leq(de, 1e-6, "rk4 energy drift %g", de);
    cr_expect_leq(dl, 1e-6, "rk4 angular momentum drift %g", dl);
}

Test(solvers, force_free_motion_keeps_linear_momentum_exactly) {
    for (int j = 0; tc_solvers[j]; j++) {
        /* velocity-level solvers need a model with contact points or shapes (test_lcp.c and
         * test_ip.c cover them) */
        if (tc_solvers[j]->needs) continue;
        tc_method m = method(tc_solvers[j]->name, NULL, NULL);
        double de, dl, dp;
        spin_drift(&m, 1e-3, 200, &de, &dl, &dp);
        cr_log_info("%s: linear momentum drift %.2e relative", tc_solvers[j]->name, dp);
        cr_expect_leq(dp, 4 * DBL_EPSILON, "%s: linear momentum drift %g", m.spec, dp);
    }
}

/* the stiff servo: overdamped, eigenvalues about -c/m = -9500 /s and -kp/c = -100 /s */
#define STIFF_KP 5e5
#define STIFF_C  5000.0

/* run the stiff servo for 0.5 s at dt = 1 ms; returns the first failing status, *x the end x */
static tc_status stiff_run(const tc_method *m, double *x, char *warn, int nwarn) {
    tc_scene sc = puck(STIFF_KP, STIFF_C);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, m, 1e-3, NULL), TC_OK);
    tc_sim_ctrl(sim)[0] = OSC_X;
    tc_status st = TC_OK;
    for (int i = 0; i < 500 && !st; i++)
        st = tc_sim_step(sim);
    *x = tc_sim_q(sim)[0];
    if (warn) tc_sim_warnings(sim, warn, nwarn);
    tc_sim_free(sim);
    return st;
}

Test(solvers, implicit_stepper_is_stable_where_euler_diverges) {
    double xe, xi;
    tc_method me = method("euler", NULL, NULL), mi = method("rk4imp", NULL, NULL);
    tc_status se = stiff_run(&me, &xe, NULL, 0), si = stiff_run(&mi, &xi, NULL, 0);
    cr_log_info("stiff servo, dt 1 ms: euler status %s (x = %g), rk4imp x = %.12f",
                tc_status_str(se), xe, xi);
    cr_expect(se != TC_OK || !isfinite(xe) || fabs(xe) > 1e3, "euler should blow up (x = %g)", xe);
    cr_expect_eq(si, TC_OK, "rk4imp failed: %s", tc_status_str(si));
    cr_expect_leq(fabs(xi - OSC_X), 1e-6, "rk4imp should settle on the target (x = %.12f)", xi);
}

Test(solvers, divergence_is_reported_not_crashed) {
    double x;
    char warn[1024] = "";
    tc_method me = method("euler", NULL, NULL);
    tc_status st = stiff_run(&me, &x, warn, (int)sizeof warn);
    cr_expect_eq(st, TC_EDIVERGED, "got %s", tc_status_str(st));
    cr_expect(strstr(warn, "diverged") != NULL, "warnings: '%s'", warn);
    /* a GSL failure (too many substeps) is a status too, never an abort */
    const char *names[] = {"max_substeps", NULL};
    const double vals[] = {1};
    tc_method mf = method("rkf45", names, vals);
    st = stiff_run(&mf, &x, NULL, 0);
    cr_expect_eq(st, TC_EDIVERGED, "rkf45 with one substep: got %s", tc_status_str(st));
}

Test(solvers, adaptive_runs_are_deterministic) {
    const char *names[] = {"rtol", NULL};
    const double vals[] = {1e-6};
    static const char *solvers[] = {"rkf45", "rk4imp"};
    for (int k = 0; k < 2; k++) {
        tc_method m = method(solvers[k], names, vals);
        double q[2][7], v[2][6];
        for (int r = 0; r < 2; r++) {
            tc_scene sc = spinning_box();
            tc_sim *sim;
            cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 1e-2, NULL), TC_OK);
            for (int i = 0; i < 50; i++)
                cr_assert_eq(tc_sim_step(sim), TC_OK);
            memcpy(q[r], tc_sim_q(sim), sizeof q[r]);
            memcpy(v[r], tc_sim_v(sim), sizeof v[r]);
            tc_sim_free(sim);
        }
        cr_expect_eq(memcmp(q[0], q[1], sizeof q[0]), 0, "%s: q differs between runs", solvers[k]);
        cr_expect_eq(memcmp(v[0], v[1], sizeof v[0]), 0, "%s: v differs between runs", solvers[k]);
    }
}

/* orientation and angular velocity of the spinning box at t = 1 s against a tight rk8pd run */
static double spin_error(const tc_method *m, int n, const double *qref, const double *vref) {
    tc_scene sc = spinning_box();
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, m, 1.0 / n, NULL), TC_OK);
    for (int i = 0; i < n; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    double e = 0;
    for (int k = 0; k < 7; k++)
        e = fmax(e, fabs(tc_sim_q(sim)[k] - qref[k]));
    for (int k = 0; k < 6; k++)
        e = fmax(e, fabs(tc_sim_v(sim)[k] - vref[k]) / 5);
    tc_sim_free(sim);
    return e;
}

Test(solvers, rk4_is_fourth_order_on_rotations) {
    const char *names[] = {"rtol", "atol", NULL};
    const double vals[] = {1e-13, 1e-15};
    tc_method mr = method("rk8pd", names, vals), m4 = method("rk4", NULL, NULL);
    tc_scene sc = spinning_box();
    tc_sim *ref;
    cr_assert_eq(tc_sim_alloc(&ref, &sc, &mr, 0.01, NULL), TC_OK);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(tc_sim_step(ref), TC_OK);
    static const int n[4] = {50, 100, 200, 400};
    double e[4];
    for (int i = 0; i < 4; i++) {
        e[i] = spin_error(&m4, n[i], tc_sim_q(ref), tc_sim_v(ref));
        cr_log_info("rk4 spin: dt = 1/%d, error %.3e", n[i], e[i]);
    }
    double slope = log(e[0] / e[3]) / log(8.0);
    cr_log_info("rk4 slope on the torque-free spin: %.3f", slope);
    cr_expect(slope >= 3.7 && slope <= 4.3, "rk4 rotation slope %.3f", slope);
    tc_sim_free(ref);
}
