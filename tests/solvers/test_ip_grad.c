/* SPDX-License-Identifier: MIT */
/* the single-level and bilevel steps' Jacobians by the implicit function theorem (step_jacobian)
 * against central differences of the solvers' own steps, the closed form of the implicit step in
 * free flight, their continuity in the relaxation, the ode's acceleration Jacobian when it has one,
 * and their thread-count independence */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "solvers/tc_solver.h"

#define G    9.81 /* m/s^2 */
#define HALF 0.25 /* m, the square's half side */
#define DT   0.01 /* s */
#define NV   3    /* one planar square */
#define NX   (2 * NV)
#define FAR  100.0 /* m: a height at which the relaxed contact pulls with kappa / 400 */

static const double square_A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
static const double square_b[4] = {HALF, HALF, HALF, HALF};

/* the ground and a square of 1 kg (inertia 0.2 kg m^2) at (0.1, y) unturned (the state's theta
 * turns it: planar theta is measured from the scene's orientation), with a servo of gain kp on
 * x and theta and damping c on every coordinate (0: none) */
static tc_scene square(double y, double mu, double kp, double c) {
    tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_ground_2d(&sc, G, mu, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(
        tc_scene_add_polygon(&sc, "sq", square_A, square_b, 4, 0.05, 1.0, 0.2, 0.1, y, 0, &err),
        TC_OK, "%s", err.msg);
    tc_body_desc *b = &sc.body[sc.nbody - 1];
    b->kp[0] = kp;
    b->kp[2] = kp;
    for (int k = 0; k < 3; k++)
        b->damping[k] = c;
    return sc;
}

/* the ode of touche's simulations without a force law (sim.c's model_accel for the convex
 * model): gravity, the generalised forces tau as applied forces, damping and servos to ctrl */
typedef struct world {
    tc_system sys;
    tc_body_state bs[4];
    tc_wrench w[4];
    double tau[NV], ctrl[NV];
    double k; /* a force law the solver cannot know: f_x += k theta, torque += k v_x (0: none) */
} world;

static tc_status world_accel(void *ctx, double t, const double *q, const double *v, double *vdot) {
    world *W = ctx;
    tc_system_kinematics(&W->sys, t, q, v, W->bs);
    memset(W->w, 0, sizeof W->w);
    for (int i = 0; i < W->sys.scene->nbody; i++) {
        int a = W->sys.vadr[i];
        if (a < 0) continue;
        W->w[i].f[0] = W->tau[a];
        W->w[i].f[1] = W->tau[a + 1];
        W->w[i].t[2] = W->tau[a + 2];
        W->w[i].f[0] += W->k * q[a + 2];
        W->w[i].t[2] += W->k * v[a];
    }
    tc_system_accel(&W->sys, W->bs, W->w, q, v, W->ctrl, vdot);
    return TC_OK;
}

/* its derivatives, as a model's force_jacobian would give them (one planar body) */
static tc_status world_accel_jacobian(void *ctx, double t, const double *q, const double *v,
                                      double *vdot, double *dq, double *dv, double *dtau,
                                      double *dctrl) {
    world *W = ctx;
    world_accel(ctx, t, q, v, vdot);
    memset(dq, 0, NV * NV * sizeof *dq);
    memset(dv, 0, NV * NV * sizeof *dv);
    memset(dtau, 0, NV * NV * sizeof *dtau);
    memset(dctrl, 0, NV * NV * sizeof *dctrl);
    const tc_body_desc *b = &W->sys.scene->body[W->sys.scene->nbody - 1];
    const double m[NV] = {b->mass, b->mass, W->sys.izz[W->sys.scene->nbody - 1]};
    for (int i = 0; i < NV; i++) {
        dq[i * NV + i] = -b->kp[i] / m[i];
        dv[i * NV + i] = -b->damping[i] / m[i];
        dtau[i * NV + i] = 1 / m[i];
        dctrl[i * NV + i] = b->kp[i] / m[i];
    }
    dq[0 * NV + 2] += W->k / m[0];
    dv[2 * NV + 0] += W->k / m[2];
    return TC_OK;
}

/* a solver of the given type on sc at relaxation kappa (more settings as name, value pairs) */
typedef struct rig {
    const tc_solver_type *type;
    void *state;
    world W;
    tc_ode ode;
    double q[NV], v[NV];
} rig;

static void rig_open(rig *r, const tc_scene *sc, const char *solver, double kappa,
                     const char *const *names, const double *values, int nset) {
    tc_error err;
    tc_error_clear(&err);
    memset(r, 0, sizeof *r);
    r->type = tc_solver_find(solver);
    cr_assert_not_null(r->type, "%s", solver);
    cr_assert_not_null(r->type->step_jacobian, "%s has no step_jacobian", solver);
    cr_assert_eq(r->type->jacobian_needs, 0u);
    tc_system_init(&r->W.sys, sc);
    cr_assert_eq(r->W.sys.nv, NV);
    tc_params p;
    tc_params_default(&p, r->type->params);
    cr_assert_eq(tc_params_set(&p, "tol", kappa, &err), TC_OK, "%s", err.msg);
    for (int i = 0; i < nset; i++)
        cr_assert_eq(tc_params_set(&p, names[i], values[i], &err), TC_OK, "%s", err.msg);
    cr_assert_eq(r->type->alloc(&r->state, &r->W.sys, &p, &err), TC_OK, "%s", err.msg);
    r->ode = (tc_ode){.sys = &r->W.sys, .accel = world_accel, .ctx = &r->W};
    tc_system_initial_state(&r->W.sys, r->q, r->v);
    for (int k = 0; k < NV; k++)
        r->W.ctrl[k] = r->q[k];
}

static void rig_close(rig *r) {
    r->type->free(r->state);
}

/* x+ = (q+, v+) of one step from the rig's state with input u = (tau, ctrl) */
static void step_at(rig *r, const double x[NX], const double u[NX], double xp[NX]) {
    double q[NV], v[NV];
    memcpy(q, x, sizeof q);
    memcpy(v, x + NV, sizeof v);
    memcpy(r->W.tau, u, sizeof r->W.tau);
    memcpy(r->W.ctrl, u + NV, sizeof r->W.ctrl);
    cr_assert_eq(r->type->step(r->state, &r->ode, 0, DT, q, v), TC_OK);
    memcpy(xp, q, sizeof q);
    memcpy(xp + NV, v, sizeof v);
}

/* the IFT Jacobians at (x, u), and the step it takes (the same x+ as step's, bit for bit) */
static void jacobian_at(rig *r, const double x[NX], const double u[NX], double *A, double *B) {
    double q[NV], v[NV], xp[NX];
    memcpy(q, x, sizeof q);
    memcpy(v, x + NV, sizeof v);
    memcpy(r->W.tau, u, sizeof r->W.tau);
    memcpy(r->W.ctrl, u + NV, sizeof r->W.ctrl);
    cr_assert_eq(r->type->step_jacobian(r->state, &r->ode, 0, DT, q, v, A, B), TC_OK);
    step_at(r, x, u, xp);
    cr_assert_eq(memcmp(q, xp, sizeof q), 0, "step_jacobian's q+ differs from step's");
    cr_assert_eq(memcmp(v, xp + NV, sizeof v), 0, "step_jacobian's v+ differs from step's");
}

/* central differences of the step with step h in every entry of x and u */
static void central_at(rig *r, const double x[NX], const double u[NX], double h, double *A,
                       double *B) {
    for (int j = 0; j < 2 * NX; j++) {
        double xs[NX], us[NX], fp[NX], fm[NX];
        double *e = j < NX ? xs + j : us + j - NX;
        memcpy(xs, x, sizeof xs);
        memcpy(us, u, sizeof us);
        *e += h;
        step_at(r, xs, us, fp);
        *e -= 2 * h;
        step_at(r, xs, us, fm);
        double *M = j < NX ? A : B;
        for (int i = 0; i < NX; i++)
            M[i * NX + j % NX] = (fp[i] - fm[i]) / (2 * h);
    }
}

/* the largest entry-wise difference of two (NX x NX) matrices, and the largest entry */
static double max_diff(const double *a, const double *b, double *scale) {
    double d = 0, s = 0;
    for (int i = 0; i < NX * NX; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    if (scale) *scale = s;
    return d;
}

/* the IFT Jacobians against central differences at (x, u): the worst error over A and B */
static double against_fd(rig *r, const double x[NX], const double u[NX], double h,
                         const char *what) {
    double A[NX * NX], B[NX * NX], Af[NX * NX], Bf[NX * NX], sa, sb;
    jacobian_at(r, x, u, A, B);
    central_at(r, x, u, h, Af, Bf);
    double ea = max_diff(A, Af, &sa), eb = max_diff(B, Bf, &sb);
    cr_log_info("%s: |A - A_fd| = %.3g (|A| %.3g), |B - B_fd| = %.3g (|B| %.3g)", what, ea, sa, eb,
                sb);
    return fmax(ea, eb);
}

/* the state and input of a square at (0.1, y, theta) with velocity v, tau and ctrl at rest */
static void state(double y, double theta, const double v[NV], double x[NX], double u[NX]) {
    double x0[NX] = {0.1, y, theta, v[0], v[1], v[2]}, u0[NX] = {0, 0, 0, 0.1, y, theta};
    memcpy(x, x0, sizeof x0);
    memcpy(u, u0, sizeof u0);
}

/* the solver's failed solves so far */
static long long fails(const rig *r) {
    long long it, fl;
    r->type->counters(r->state, &it, &fl);
    return fl;
}

/* the cases: a square resting on the ground, sliding on it at 1 m/s (friction 0.5), turned by
 * 45 degrees onto a corner 1 mm above the ground and moving down into it, and in flight 1 m up */
typedef struct grad_case {
    const char *what;
    double y, theta, v[NV], bound;
} grad_case;

/* relaxation 1e-6, the paper's. The FD's own error: each step's solution is accurate to the
 * solver's residual tolerance rtol = kappa / 10 = 1e-7 on the body rows (kg m/s, mass 1 kg), so
 * q+ to rtol h / m = 1e-9 m and v+ = (q+ - q) / h to 1e-7 m/s; central differences of step 1e-5
 * turn that into at most 1e-7 / 1e-5 = 1e-2 on the v+ rows (1e-4 on q+'s), against entries up to
 * 1 / h = 100, plus the truncation error away from the contact's switching. Measured (printed):
 * 5.5e-3 resting, 4e-4 sliding, 1e-5 on the corner, 6.4e-7 in flight (servos and damping on, so
 * every column of A and B is exercised) */
Test(ip_grad, single_level_matches_central_differences_resting_sliding_and_in_flight) {
    const double kappa = 1e-6, h = 1e-5;
    const grad_case cases[] = {
        {"resting", HALF, 0, {0, 0, 0}, 1e-2},
        {"sliding", HALF, 0, {1, 0, 0}, 1e-2},
        {"corner", HALF * sqrt(2) + 1e-3, M_PI / 4, {0.3, -0.5, 0}, 1e-2},
        {"flight", 1.0, 0.3, {0.5, 1, -2}, 1e-5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        tc_scene sc = square(cases[c].y, 0.5, 10, 0.3);
        rig r;
        rig_open(&r, &sc, "single-level", kappa, NULL, NULL, 0);
        double x[NX], u[NX];
        state(cases[c].y, cases[c].theta, cases[c].v, x, u);
        double e = against_fd(&r, x, u, h, cases[c].what);
        cr_expect_leq(e, cases[c].bound, "%s: IFT against FD %g", cases[c].what, e);
        cr_expect_eq(fails(&r), 0, "%s: a step failed", cases[c].what);
        rig_close(&r);
    }
}

/* the bilevel's outer problem is the single-level's dynamics with the collision problem solved
 * inside (here at the step's tolerance, to convergence, cold: touche's stronger bilevel, with
 * the public code's finite-difference Newton matrix for the steps, which the IFT does not use).
 * Central differences of step 1e-6: at 1e-5 a resting square's turned steps stall at the
 * 30-iteration cap (the collision point runs to a corner of the face). Both levels' residual
 * tolerances (1e-7) then bound the FD's error by about 2 x 1e-7 / 1e-6 = 0.2 on the v+ rows;
 * measured 0.14 resting, 1.5e-3 sliding, 2.5e-6 on the corner */
Test(ip_grad, bilevel_matches_central_differences) {
    const char *const names[] = {"collision_tol", "collision_rtol", "collision_max_iter"};
    const double values[] = {0, 0, 200};
    const grad_case cases[] = {
        {"bilevel resting", HALF, 0, {0, 0, 0}, 0.2},
        {"bilevel sliding", HALF, 0, {1, 0, 0}, 0.2},
        {"bilevel corner", HALF * sqrt(2) + 1e-3, M_PI / 4, {0.3, -0.5, 0}, 0.2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        tc_scene sc = square(cases[c].y, 0.5, 10, 0.3);
        rig r;
        rig_open(&r, &sc, "bilevel", 1e-6, names, values, 3);
        double x[NX], u[NX];
        state(cases[c].y, cases[c].theta, cases[c].v, x, u);
        double e = against_fd(&r, x, u, 1e-6, cases[c].what);
        cr_expect_leq(e, cases[c].bound, "%s: IFT against FD %g", cases[c].what, e);
        cr_expect_eq(fails(&r), 0, "%s: a step failed", cases[c].what);
        rig_close(&r);
    }
}

/* the closed form of the implicit step: q+ = q + h v+, v+ = v + h M^-1 (f + tau) with f = m g -
 * c v + kp (ctrl - q) evaluated at the step's start */
static void closed_form(const double kps[NV], double c, double *Ac, double *Bc) {
    const double m[NV] = {1, 1, 0.2};
    memset(Ac, 0, NX * NX * sizeof *Ac);
    memset(Bc, 0, NX * NX * sizeof *Bc);
    for (int i = 0; i < NV; i++) {
        /* dv+/dq = -h kp / m, dv+/dv = 1 - h c / m, dv+/dtau = h / m, dv+/dctrl = h kp / m */
        double dvq = -DT * kps[i] / m[i], dvv = 1 - DT * c / m[i], dvt = DT / m[i],
               dvc = DT * kps[i] / m[i];
        Ac[(NV + i) * NX + i] = dvq;
        Ac[(NV + i) * NX + NV + i] = dvv;
        Bc[(NV + i) * NX + i] = dvt;
        Bc[(NV + i) * NX + NV + i] = dvc;
        Ac[i * NX + i] = 1 + DT * dvq;
        Ac[i * NX + NV + i] = DT * dvv;
        Bc[i * NX + i] = DT * dvt;
        Bc[i * NX + NV + i] = DT * dvc;
    }
}

/* free flight with no contact pair (the square alone under gravity, servos on x and theta,
 * damping): the IFT Jacobian is the implicit step's closed form to 1e-10 (the single-level: the
 * bilevel cannot be built without a pair, its collision workspace having no size). Over a ground 1
 * m below, the relaxed contact acts at any distance: its normal impulse kappa / phi acts at a point
 * whose lever grows with the gap, so dv_theta+/dtheta moves by O(kappa / I_zz) (1.6e-6 at 1e-6),
 * bounded here by 1e-5 */
Test(ip_grad, free_flight_is_the_implicit_steps_closed_form) {
    const double kp = 40, c = 0.7, kps[NV] = {kp, 0, kp};
    const char *const solvers[] = {"single-level", "bilevel"};
    for (int s = 0; s < 2; s++)
        for (int ground = s; ground < 2; ground++) {
            tc_scene sc = square(1.0, 0.5, kp, c);
            if (!ground) {
                /* the square alone: no pair */
                sc.body[0] = sc.body[1];
                sc.nbody = 1;
            }
            rig r;
            rig_open(&r, &sc, solvers[s], 1e-6, NULL, NULL, 0);
            double x[NX], u[NX], A[NX * NX], B[NX * NX], Ac[NX * NX], Bc[NX * NX];
            state(1.0, 0.3, (const double[NV]){0.5, 1, -2}, x, u);
            jacobian_at(&r, x, u, A, B);
            closed_form(kps, c, Ac, Bc);
            double ea = max_diff(A, Ac, NULL), eb = max_diff(B, Bc, NULL);
            double bound = ground ? 1e-5 : 1e-10;
            cr_log_info("%s free flight %s: |A - A_closed| = %.3g, |B - B_closed| = %.3g",
                        solvers[s], ground ? "1 m over the ground" : "alone", ea, eb);
            cr_expect_leq(ea, bound, "%s: A off the closed form by %g", solvers[s], ea);
            cr_expect_leq(eb, bound, "%s: B off the closed form by %g", solvers[s], eb);
            cr_expect_eq(fails(&r), 0);
            rig_close(&r);
        }
}

/* dv_y+/dy of an unturned square at rest at heights HALF + gap[i] */
static void sweep(double kappa, int n, const double *gap, double *dvy) {
    for (int i = 0; i < n; i++) {
        tc_scene sc = square(HALF + gap[i], 0.5, 0, 0);
        rig r;
        rig_open(&r, &sc, "single-level", kappa, NULL, NULL, 0);
        double x[NX], u[NX], A[NX * NX], B[NX * NX];
        state(HALF + gap[i], 0, (const double[NV]){0, 0, 0}, x, u);
        jacobian_at(&r, x, u, A, B);
        dvy[i] = A[(NV + 1) * NX + 1];
        cr_expect_eq(fails(&r), 0, "kappa %g, gap %g: the step failed", kappa, gap[i]);
        rig_close(&r);
    }
}

/* the relaxation smooths the contact over gaps of about sqrt(h kappa / 4 m) at the step's end
 * (gamma = kappa / phi with phi = 4 gap for the square): 5 mm at 1e-2, 50 um at 1e-6. So over
 * gaps 0.1 mm apart the Jacobian of a square let go at rest varies continuously at 1e-2 and
 * switches between rest (dv_y+/dy = -1/h) and free fall (0) at 1e-6; at a 2 mm gap (the step
 * falls 1 mm) the contact acts at 1e-2 (a quarter of rest's -1/h) and all but vanishes at 1e-6
 * (0.24: the relaxed impulse kappa / phi still pulls, by (width / gap)^2 of rest's) */
Test(ip_grad, a_larger_relaxation_smooths_the_jacobian_across_contact) {
    enum { N = 41, AT = 30 };
    double gap[N], d6[N], d4[N], d2[N];
    for (int i = 0; i < N; i++)
        gap[i] = -1e-3 + 1e-4 * i;
    sweep(1e-6, N, gap, d6);
    sweep(1e-4, N, gap, d4);
    sweep(1e-2, N, gap, d2);
    double j6 = 0, j4 = 0, j2 = 0, r6 = 0, r2 = 0;
    for (int i = 1; i < N; i++) {
        j6 = fmax(j6, fabs(d6[i] - d6[i - 1]));
        j4 = fmax(j4, fabs(d4[i] - d4[i - 1]));
        j2 = fmax(j2, fabs(d2[i] - d2[i - 1]));
    }
    for (int i = 0; i < N; i++) {
        r6 = fmax(r6, fabs(d6[i]));
        r2 = fmax(r2, fabs(d2[i]));
    }
    cr_log_info("dv_y+/dy at a 2 mm gap: %.4g (1e-2), %.4g (1e-4), %.4g (1e-6); largest change "
                "between gaps 0.1 mm apart: %.4g (1e-2), %.4g (1e-4), %.4g (1e-6) of %.4g",
                d2[AT], d4[AT], d6[AT], j2, j4, j6, r6);
    cr_expect_gt(fabs(d2[AT]), 0.1 * r2, "1e-2: the contact should act at a 2 mm gap");
    cr_expect_leq(fabs(d6[AT]), 0.01 * r6, "1e-6: all but free fall at a 2 mm gap");
    cr_expect_geq(j6, 0.25 * r6, "1e-6: the Jacobian should switch between neighbouring gaps");
    cr_expect_leq(j2, 0.02 * r2, "1e-2: the Jacobian should vary continuously");
    cr_expect_leq(j2, j4, "the larger relaxation should be the smoother");
    cr_expect_leq(j4, j6, "the larger relaxation should be the smoother");
}

/* a force law the solver cannot see (coupling x to theta and the torque to v_x): the ode's
 * accel_jacobian carries it into the Jacobians (against central differences as above), and
 * without it the solver's own planar terms miss it */
Test(ip_grad, the_odes_acceleration_jacobian_is_used_when_given) {
    const grad_case cases[] = {
        {"coupled sliding", HALF, 0, {1, 0, 0}, 1e-2},
        {"coupled flight", 1.0, 0.3, {0.5, 1, -2}, 1e-5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        tc_scene sc = square(cases[c].y, 0.5, 10, 0.3);
        rig r;
        rig_open(&r, &sc, "single-level", 1e-6, NULL, NULL, 0);
        r.W.k = 5;
        r.ode.accel_jacobian = world_accel_jacobian;
        double x[NX], u[NX], A[NX * NX], B[NX * NX], A0[NX * NX], B0[NX * NX];
        state(cases[c].y, cases[c].theta, cases[c].v, x, u);
        double e = against_fd(&r, x, u, 1e-5, cases[c].what);
        cr_expect_leq(e, cases[c].bound, "%s: IFT against FD %g", cases[c].what, e);
        jacobian_at(&r, x, u, A, B);
        r.ode.accel_jacobian = NULL;
        jacobian_at(&r, x, u, A0, B0);
        double miss = max_diff(A, A0, NULL);
        cr_log_info("%s: without accel_jacobian A moves by %.3g", cases[c].what, miss);
        cr_expect_geq(miss, 1e-3, "%s: the coupling should show in A (%g)", cases[c].what, miss);
        rig_close(&r);
    }
}

/* the same bits for one thread and two (the solver starts no threads; the hook must not) */
Test(ip_grad, the_same_bits_for_one_and_two_threads) {
    double A[2][NX * NX], B[2][NX * NX];
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        tc_scene sc = square(HALF, 0.5, 10, 0.1);
        rig r;
        rig_open(&r, &sc, "single-level", 1e-6, NULL, NULL, 0);
        double x[NX], u[NX];
        state(HALF, 0.01, (const double[NV]){1, 0, 0.2}, x, u);
        jacobian_at(&r, x, u, A[t], B[t]);
        rig_close(&r);
    }
    cr_expect_eq(memcmp(A[0], A[1], sizeof A[0]), 0);
    cr_expect_eq(memcmp(B[0], B[1], sizeof B[0]), 0);
}
