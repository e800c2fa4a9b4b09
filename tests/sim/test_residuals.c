/* SPDX-License-Identifier: MIT */
/* physical-consistency residuals (sim/tc_residual.h, docs/residuals.md): an exact solver at rest
 * has none, a penalty box sinks by the depth its gains predict, a frictionless method leaves the
 * friction's dissipation undone, MuJoCo's impulses carry the weight in touche's frame, the NCP
 * criterion tells an exact solver from a sliding penalty model, and tracking changes nothing */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <string.h>

#include "sim/tc_sim.h"
#include "tc_config.h"
#include "solvers/tc_contact_space.h"

#define DT 1e-3 /* s */
#define G  9.81 /* m/s^2 */

/* a cube of half side h (m) and 10 kg resting on the plane z = 0 (its bottom face 1e-12 m
 * into it, so that the contacts exist from the first step), sliding along x at v0 (m/s),
 * friction mu */
static tc_scene box_scene(double h, double mu, double v0) {
    tc_scene sc = tc_default_scene();
    sc.gravity[2] = -G;
    sc.friction = mu;
    tc_body_desc fl = tc_default_body("floor", tc_plane());
    tc_body_desc b = tc_default_body("block", tc_box(h, h, h));
    b.joint = TC_JOINT_FREE;
    b.pos[2] = h - 1e-12;
    b.vel[0] = v0;
    cr_assert_eq(tc_scene_add(&sc, &fl, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 10.0 / (8 * h * h * h), NULL), TC_OK);
    cr_assert_float_eq(sc.body[1].mass, 10.0, 1e-12);
    return sc;
}

static tc_method method(const char *spec) {
    tc_method m;
    tc_error err = {0};
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s: %s", spec, err.msg);
    return m;
}

/* run steps of the method on the scene with tracking on, the block pushed along x by push (N,
 * at its centre of mass); the summary into out */
static void run_pushed(const tc_scene *sc, const tc_method *m, double dt, int steps, double push,
                       tc_residual_summary *out) {
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, sc, m, dt, NULL), TC_OK, "%s", m->spec);
    tc_sim_xfrc(sim)[1].f[0] = push;
    cr_assert_eq(tc_sim_track_residuals(sim, 1), TC_OK);
    for (int i = 0; i < steps; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", m->spec, i);
    tc_sim_residuals(sim, out);
    tc_sim_free(sim);
}

static void run(const tc_scene *sc, const tc_method *m, double dt, int steps,
                tc_residual_summary *out) {
    run_pushed(sc, m, dt, steps, 0, out);
}

static void show(const char *what, const tc_residual_summary *s) {
    cr_log_info("%s: %lld steps, %lld contacts", what, s->steps, s->contacts);
    for (int k = 0; k < TC_RESID_N; k++)
        cr_log_info("  %-12s max %.3e mean %.3e above %.2f (%s)", tc_residual_names[k], s->max[k],
                    s->mean[k], s->frac[k], tc_residual_units[k]);
}

/* the LCP at rest: no Signorini, cone or dissipation residual, the NCP criterion at the
 * solver's tolerance */
Test(residuals, lcp_resting_box_has_no_signorini_or_cone_violation) {
    tc_scene sc = box_scene(0.5, 0.5, 0);
    tc_method m = method("rigid/lcp-lemke");
    tc_residual_summary s;
    run(&sc, &m, DT, 300, &s);
    show("rigid/lcp-lemke at rest", &s);
    cr_assert_eq(s.steps, 300);
    cr_assert_eq(s.impulses, 1);
    cr_assert_geq(s.contacts, 300 * 4, "%lld contacts", s.contacts);
    cr_assert_lt(s.max[TC_RESID_SIGNORINI], 1e-9, "signorini %g m", s.max[TC_RESID_SIGNORINI]);
    cr_assert_lt(s.max[TC_RESID_CONE], 1e-12, "cone %g", s.max[TC_RESID_CONE]);
    cr_assert_lt(s.max[TC_RESID_DISSIPATION], 1e-9, "dissipation %g J",
                 s.max[TC_RESID_DISSIPATION]);
    cr_assert_lt(s.max[TC_RESID_NCP], 1e-6, "ncp %g", s.max[TC_RESID_NCP]);
    cr_assert_lt(s.max[TC_RESID_PENETRATION], 1e-9, "penetration %g m",
                 s.max[TC_RESID_PENETRATION]);
    cr_assert_eq(s.frac[TC_RESID_SIGNORINI], 0.0);
}

/* the multi-point penalty at rest: every pushing point has the pair's depth d, eq. 3's forces
 * divided by their number r sum to kp d + ki I with kp, ki per kg of the pair's moving mass m,
 * and the integral settles at I = d / (1 - forget); so m g = m (kp + ki / (1 - forget)) d,
 * d = g / (kp + ki / (1 - forget)) = 0.866 mm at the defaults, whatever the points' count */
Test(residuals, penalty_resting_box_sinks_by_g_over_its_gains) {
    tc_scene sc = box_scene(0.5, 0.5, 0);
    tc_method m = method("penalty-mp/semi-euler");
    const double kp = tc_method_get(&m, "kp"), ki = tc_method_get(&m, "ki"),
                 lam = tc_method_get(&m, "forget");
    cr_assert_eq(tc_method_get(&m, "divide_by_r"), 1.0);
    const double d = G / (kp + ki / (1 - lam));
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
    cr_assert_eq(tc_sim_track_residuals(sim, 1), TC_OK);
    /* settle 1.5 s, then the last 0.5 s alone */
    for (int i = 0; i < 1500; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    cr_assert_eq(tc_sim_track_residuals(sim, 1), TC_OK);
    for (int i = 0; i < 500; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    tc_residual_summary s;
    tc_sim_residuals(sim, &s);
    show("penalty-mp at rest (last 0.5 s)", &s);
    /* the impulses carry the weight over the step */
    tc_contact_impulse im[64];
    int n = tc_sim_impulses(sim, im, 64);
    cr_assert(n > 0 && n <= 64, "%d impulses", n);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        /* the impulse on the block, whichever side of the pair it is */
        const double sign = im[i].b == 1 ? 1 : -1;
        cr_assert(im[i].a + im[i].b == 1, "bodies %d %d", im[i].a, im[i].b);
        cr_assert_float_eq(sign * im[i].normal[2], 1.0, 1e-9);
        sum += im[i].normal_impulse;
    }
    tc_sim_free(sim);
    cr_log_info("predicted d = %.6g m; measured penetration %.6g m, signorini %.6g m; "
                "impulses %.6g of m g dt",
                d, s.mean[TC_RESID_PENETRATION], s.mean[TC_RESID_SIGNORINI], sum / (10 * G * DT));
    cr_assert_float_eq(s.mean[TC_RESID_PENETRATION], d, 1e-3 * d);
    cr_assert_float_eq(s.max[TC_RESID_PENETRATION], d, 1e-3 * d);
    /* the points' gaps where they push: the same depth */
    cr_assert_float_eq(s.mean[TC_RESID_SIGNORINI], d, 1e-3 * d);
    cr_assert_float_eq(sum, 10 * G * DT, 1e-3 * 10 * G * DT);
    /* at rest nothing moves: the velocity-level NCP criterion holds (the overlap is signorini's) */
    cr_assert_lt(s.max[TC_RESID_NCP], 1e-9, "ncp %g", s.max[TC_RESID_NCP]);
}

/* a frictionless method (PGS drops the friction rows) on a sliding box: no friction impulse, so
 * the dissipation gap is the work friction would have done: mu m g dt |v| per step */
Test(residuals, frictionless_dissipation_gap_is_the_omitted_friction) {
    const double mu = 0.5, v0 = 1.0;
    tc_scene sc = box_scene(0.5, mu, v0);
    tc_method m = method("rigid/lcp-pgs");
    tc_residual_summary s;
    run(&sc, &m, DT, 200, &s);
    show("rigid/lcp-pgs sliding", &s);
    const double want = mu * 10 * G * DT * v0;
    cr_assert_float_eq(s.mean[TC_RESID_DISSIPATION], want, 1e-4 * want, "%g J vs %g J",
                       s.mean[TC_RESID_DISSIPATION], want);
    cr_assert_float_eq(s.max[TC_RESID_DISSIPATION], want, 1e-4 * want);
    cr_assert_eq(s.frac[TC_RESID_DISSIPATION], 1.0);
    cr_assert_lt(s.max[TC_RESID_CONE], 1e-12);
    /* and the exact solver with friction leaves none undone while it slides */
    tc_method lm = method("rigid/lcp-lemke");
    tc_residual_summary e;
    run(&sc, &lm, DT, 50, &e);
    show("rigid/lcp-lemke sliding", &e);
    cr_assert_lt(e.max[TC_RESID_DISSIPATION], 1e-4 * want, "%g J", e.max[TC_RESID_DISSIPATION]);
}

/* the NCP criterion: ~0 for the exact LCP holding a box under a push of half the friction limit,
 * clearly > 0 for a penalty model under the same push, whose regularised friction lets the box
 * creep (slip with an impulse inside the cone: the criterion's tangential part) */
Test(residuals, ncp_criterion_separates_exact_from_penalty) {
    const double mu = 0.3, push = 0.5 * mu * 10 * G;
    tc_scene rest = box_scene(0.5, mu, 0);
    tc_residual_summary e, p;
    tc_method lm = method("rigid/lcp-lemke"), pm = method("penalty-mp/semi-euler");
    run_pushed(&rest, &lm, DT, 200, push, &e);
    run_pushed(&rest, &pm, DT, 200, push, &p);
    show("rigid/lcp-lemke pushed", &e);
    show("penalty-mp pushed", &p);
    cr_assert_lt(e.max[TC_RESID_NCP], 1e-6, "lcp ncp %g", e.max[TC_RESID_NCP]);
    cr_assert_gt(p.mean[TC_RESID_NCP], 1e-3, "penalty ncp %g", p.mean[TC_RESID_NCP]);
    cr_assert_gt(p.frac[TC_RESID_NCP], 0.9, "penalty ncp above 1e-4 on %g of its steps",
                 p.frac[TC_RESID_NCP]);
}

/* tracking reads the state and changes none of it: the same bits with it on and off */
Test(residuals, tracking_leaves_the_trajectory_bitwise_unchanged) {
    const char *specs[] = {"penalty-mp/rk4", "hunt-crossley/semi-euler", "rigid/lcp-lemke"};
    tc_scene sc = box_scene(0.05, 0.5, 0.3);
    sc.body[1].pos[2] += 0.01;
    for (int k = 0; k < 3; k++) {
        tc_method m = method(specs[k]);
        tc_sim *a, *b;
        cr_assert_eq(tc_sim_alloc(&a, &sc, &m, DT, NULL), TC_OK);
        cr_assert_eq(tc_sim_alloc(&b, &sc, &m, DT, NULL), TC_OK);
        cr_assert_eq(tc_sim_track_residuals(b, 1), TC_OK);
        for (int i = 0; i < 200; i++) {
            cr_assert_eq(tc_sim_step(a), TC_OK);
            cr_assert_eq(tc_sim_step(b), TC_OK);
        }
        const tc_system *sys = tc_sim_system(a);
        cr_assert_eq(memcmp(tc_sim_q(a), tc_sim_q(b), (size_t)sys->nq * sizeof(double)), 0, "%s",
                     specs[k]);
        cr_assert_eq(memcmp(tc_sim_v(a), tc_sim_v(b), (size_t)sys->nv * sizeof(double)), 0, "%s",
                     specs[k]);
        tc_residual_summary s;
        tc_sim_residuals(b, &s);
        cr_assert_eq(s.steps, 200);
        cr_assert_gt(s.contacts, 0, "%s: no contacts tracked", specs[k]);
        tc_sim_free(a);
        tc_sim_free(b);
    }
}

/* a method without impulses has its contact residuals unknown (NAN), penetration known; never
 * tracked: zero steps */
Test(residuals, summary_marks_unknown_residuals) {
    tc_residual_summary s;
    tc_residual_clear(&s, 0);
    tc_residual_step r = {.r = {1e-3, 1, 1, 1, 1, 1}, .work = -1, .ncontact = 2};
    tc_residual_add(&s, &r);
    r.r[TC_RESID_PENETRATION] = 3e-3;
    tc_residual_add(&s, &r);
    tc_residual_finish(&s);
    cr_assert_float_eq(s.max[TC_RESID_PENETRATION], 3e-3, 1e-15);
    cr_assert_float_eq(s.mean[TC_RESID_PENETRATION], 2e-3, 1e-15);
    cr_assert_float_eq(s.frac[TC_RESID_PENETRATION], 0.5, 1e-15);
    cr_assert(isnan(s.max[TC_RESID_NCP]) && isnan(s.mean[TC_RESID_CONE]));
    cr_assert_float_eq(s.work_net, -2.0, 1e-15);
}

/* an engine's box at rest (a 20 cm cube of 10 kg, left 1 s to settle), over the next 0.2 s:
 * its contact impulses on the block, whichever side of each contact the block is, balance its
 * momentum (sum J = m dv + m g T e_z, to 1e-6 of m g T: the impulses are the applied ones, in
 * the world frame, with their sign), and each step's sum is m g dt within tol (MuJoCo holds it
 * exactly; ODE's box loses two of its corners every 60 steps or so and is kicked back); the
 * normals point from a to b. Checks each engine hook's frame and sign */
static void engine_rest(const char *spec, const char *param, double value, double tol) {
    tc_scene sc = box_scene(0.1, 0.5, 0);
    tc_method m = method(spec);
    if (param) cr_assert_eq(tc_method_set(&m, param, value, NULL), TC_OK);
    const double dt = 2e-3, mass = 10, mgdt = mass * G * dt;
    const int settle = 500, window = 100;
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, dt, NULL), TC_OK, "%s", spec);
    cr_assert_eq(tc_sim_track_residuals(sim, 1), TC_OK);
    double worst = 0, Js[3] = {0, 0, 0}, v0[3] = {0, 0, 0};
    int most = 0;
    for (int i = 0; i < settle + window; i++) {
        if (i == settle) memcpy(v0, tc_sim_v(sim), sizeof v0);
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        tc_contact_impulse im[64];
        int n = tc_sim_impulses(sim, im, 64);
        cr_assert(n >= 0 && n <= 64, "%s: %d impulses", spec, n);
        most = n > most ? n : most;
        if (i < settle) continue;
        double J[3] = {0, 0, 0};
        for (int c = 0; c < n; c++) {
            cr_assert(im[c].a + im[c].b == 1, "%s: bodies %d %d", spec, im[c].a, im[c].b);
            const double sign = im[c].b == 1 ? 1 : -1;
            /* the normal from a to b: up when the block is b */
            cr_assert_gt(sign * im[c].normal[2], 0.99, "%s: normal z %g", spec, im[c].normal[2]);
            cr_assert_geq(im[c].normal_impulse, -1e-12 * mgdt);
            for (int k = 0; k < 3; k++)
                J[k] += sign * (im[c].normal_impulse * im[c].normal[k] + im[c].tangent_impulse[k]);
        }
        for (int k = 0; k < 3; k++)
            Js[k] += J[k];
        worst = fmax(worst, fmax(fabs(J[2] - mgdt), hypot(J[0], J[1])) / mgdt);
    }
    /* momentum balance over the window */
    double off = 0;
    for (int k = 0; k < 3; k++) {
        const double want = mass * (tc_sim_v(sim)[k] - v0[k]) + (k == 2 ? window * mgdt : 0);
        off = fmax(off, fabs(Js[k] - want) / (window * mgdt));
    }
    tc_residual_summary s;
    tc_sim_residuals(sim, &s);
    tc_sim_free(sim);
    show(spec, &s);
    cr_log_info("%s%s%s (%g): up to %d contacts, a step's impulse off m g dt by %.3g relative, "
                "momentum balance off by %.3g",
                spec, param ? " " : "", param ? param : "", value, most, worst, off);
    cr_assert_gt(most, 0, "%s reported no impulses", spec);
    cr_assert_eq(s.impulses, 1);
    cr_assert_lt(off, 1e-6, "%s: impulses do not balance the momentum (%g)", spec, off);
    cr_assert_lt(worst, tol, "%s: impulses off m g dt by %g relative", spec, worst);
}

Test(residuals, mujoco_resting_box_impulses_carry_m_g_dt, .disabled = !TC_HAVE_MUJOCO) {
    engine_rest("mujoco", "cone", 0, 1e-6);
    engine_rest("mujoco", "cone", 1, 1e-6);
}

Test(residuals, ode_and_bullet_resting_box_impulses_carry_m_g_dt,
     .disabled = !(TC_HAVE_ODE && TC_HAVE_BULLET)) {
    engine_rest("ode", NULL, 0, 1);
    engine_rest("bullet", NULL, 0, 1e-3);
}

/* models reported per body pair (SCM, PFC: no contact points) and per point (hunt-crossley): a
 * 20 cm box of 10 kg resting on the plane, after 1 s; the impulses on the block sum to m g dt
 * within 1 %, and a pair's effective contact acts under the centre of mass, on the plane the
 * pair's deepest point sets (within 1 mm) */
Test(residuals, per_pair_and_per_point_models_carry_m_g_dt) {
    const char *specs[] = {"scm/semi-euler", "pfc/semi-euler", "hunt-crossley/semi-euler"};
    tc_scene sc = box_scene(0.1, 0.5, 0);
    for (int k = 0; k < 3; k++) {
        tc_method m = method(specs[k]);
        /* stiff enough that the box sits within a few millimetres */
        if (k == 0) cr_assert_eq(tc_method_set(&m, "k", 2e4, NULL), TC_OK);
        if (k == 1) cr_assert_eq(tc_method_set(&m, "E", 1e6, NULL), TC_OK);
        if (k == 1) cr_assert_eq(tc_method_set(&m, "d", 20, NULL), TC_OK);
        if (k == 2) cr_assert_eq(tc_method_set(&m, "k", 1e6, NULL), TC_OK);
        if (k == 2) cr_assert_eq(tc_method_set(&m, "d", 50, NULL), TC_OK);
        const double dt = 1e-3, mgdt = 10 * G * dt;
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, dt, NULL), TC_OK, "%s", specs[k]);
        cr_assert_eq(tc_sim_track_residuals(sim, 1), TC_OK);
        for (int i = 0; i < 1000; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK, "%s", specs[k]);
        tc_contact_impulse im[64];
        int n = tc_sim_impulses(sim, im, 64);
        cr_assert(n > 0 && n <= 64, "%s: %d impulses", specs[k], n);
        double Jz = 0;
        for (int c = 0; c < n; c++) {
            const double sign = im[c].b == 1 ? 1 : -1;
            Jz += sign * (im[c].normal_impulse * im[c].normal[2] + im[c].tangent_impulse[2]);
        }
        const double *q = tc_sim_q(sim);
        tc_residual_summary s;
        tc_sim_residuals(sim, &s);
        show(specs[k], &s);
        cr_log_info("%s: %d contacts, sum %.6g of m g dt; first at (%.4g %.4g %.4g), box at "
                    "(%.4g %.4g %.4g)",
                    specs[k], n, Jz / mgdt, im[0].pos[0], im[0].pos[1], im[0].pos[2], q[0], q[1],
                    q[2]);
        cr_assert_float_eq(Jz, mgdt, 1e-2 * mgdt, "%s: %g of m g dt", specs[k], Jz / mgdt);
        if (k < 2) {
            cr_assert_eq(n, 1, "%s: one effective contact per pair", specs[k]);
            cr_assert_float_eq(im[0].pos[0], q[0], 1e-3);
            cr_assert_float_eq(im[0].pos[1], q[1], 1e-3);
            cr_assert_lt(fabs(im[0].pos[2]), 1e-2, "%s: contact at z %g", specs[k], im[0].pos[2]);
        }
        cr_assert_eq(s.unassigned, 0);
        tc_sim_free(sim);
    }
}
