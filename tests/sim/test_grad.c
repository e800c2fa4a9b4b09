/* SPDX-License-Identifier: MIT */
/* one-step Jacobians (sim/tc_grad.h): the tangent retract and difference, the analytic
 * derivatives of semi-implicit Euler against closed forms and central differences, central
 * differences of real methods, errors */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_grad.h"
#include "sim/tc_sim.h"
#include "tc_config.h"

/* ---------- two test models with analytic force_jacobian ---------- */

/* the spring's constants: stiffness (N/m), damping (N s/m), the world anchor and the
 * body-fixed point it pulls (body frame, off the COM so that rotation matters) */
#define SPRING_K 40.0
#define SPRING_C 0.6
static const double anchor[3] = {0.2, -0.1, 0.3};
static const double offset[3] = {0.1, 0.05, -0.08};

static const tc_param_spec no_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

static tc_status test_alloc(void **state, const tc_scene *scene, const tc_params *p,
                            tc_error *err) {
    (void)p;
    (void)err;
    *state = (void *)scene;
    return TC_OK;
}

static void test_free(void *state) {
    (void)state;
}

/* [a]x */
static void skew(double m[9], const double a[3]) {
    const double k[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    memcpy(m, k, sizeof k);
}

static void mul3(double r[9], const double a[9], const double b[9]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* a linear spring-damper from each moving body's point offset to the anchor, and its
 * derivatives (dw may be NULL: the force alone) */
static tc_status spring(void *state, const tc_body_state *bs, tc_wrench *w, double *dw) {
    const tc_scene *sc = state;
    const int nb = sc->nbody, ld = 12 * nb;
    memset(w, 0, (size_t)nb * sizeof *w);
    if (dw) memset(dw, 0, (size_t)(6 * nb) * (size_t)ld * sizeof *dw);
    for (int i = 0; i < nb; i++) {
        if (sc->body[i].joint != TC_JOINT_FREE && sc->body[i].joint != TC_JOINT_PLANAR) continue;
        const tc_body_state *s = &bs[i];
        double r[3], p[3], vp[3], F[3], T[3];
        tc_m3_mulv(r, s->R, offset);
        tc_v3_add(p, s->pos, r);
        tc_body_point_velocity(s, p, vp);
        for (int k = 0; k < 3; k++)
            F[k] = -SPRING_K * (p[k] - anchor[k]) - SPRING_C * vp[k];
        tc_v3_cross(T, r, F);
        tc_v3_copy(w[i].f, F);
        tc_v3_copy(w[i].t, T);
        if (!dw) continue;
        /* dF/dpos = -k, dF/dth = k [r] + c [w][r], dF/dvel = -c, dF/dw = c [r]; dT = [r] dF,
         * plus [F][r] for the rotation */
        double Sr[9], Sw[9], SF[9], SwSr[9], dF[4][9], dT[4][9];
        skew(Sr, r);
        skew(Sw, s->omega);
        skew(SF, F);
        mul3(SwSr, Sw, Sr);
        for (int k = 0; k < 9; k++) {
            dF[0][k] = -SPRING_K * (k % 4 == 0);
            dF[1][k] = SPRING_K * Sr[k] + SPRING_C * SwSr[k];
            dF[2][k] = -SPRING_C * (k % 4 == 0);
            dF[3][k] = SPRING_C * Sr[k];
        }
        for (int g = 0; g < 4; g++)
            mul3(dT[g], Sr, dF[g]);
        double FR[9];
        mul3(FR, SF, Sr);
        for (int k = 0; k < 9; k++)
            dT[1][k] += FR[k];
        for (int g = 0; g < 4; g++)
            for (int a = 0; a < 3; a++)
                for (int c = 0; c < 3; c++) {
                    dw[(size_t)(6 * i + a) * ld + 12 * i + 3 * g + c] = dF[g][3 * a + c];
                    dw[(size_t)(6 * i + 3 + a) * ld + 12 * i + 3 * g + c] = dT[g][3 * a + c];
                }
    }
    return TC_OK;
}

static tc_status spring_force(void *state, const tc_body_state *bs, tc_wrench *w,
                              tc_contact_stats *st) {
    (void)st;
    return spring(state, bs, w, NULL);
}

static tc_status spring_jacobian(void *state, const tc_body_state *bs, tc_wrench *w, double *dw,
                                 tc_contact_stats *st) {
    (void)st;
    return spring(state, bs, w, dw);
}

/* no force at all: free flight */
static tc_status zero_force(void *state, const tc_body_state *bs, tc_wrench *w,
                            tc_contact_stats *st) {
    (void)bs;
    (void)st;
    memset(w, 0, (size_t)((const tc_scene *)state)->nbody * sizeof *w);
    return TC_OK;
}

static tc_status zero_jacobian(void *state, const tc_body_state *bs, tc_wrench *w, double *dw,
                               tc_contact_stats *st) {
    int nb = ((const tc_scene *)state)->nbody;
    memset(dw, 0, (size_t)(72 * nb * nb) * sizeof *dw);
    return zero_force(state, bs, w, st);
}

#define TEST_SHAPES                                                                                \
    (TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE))
#define TEST_CAPS (TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_SMOOTH | TC_CAP_GRADIENT)

static const tc_model_type grad_spring = {
    .name = "grad-test-spring",
    .summary = "test: a linear spring-damper from a body point to a world anchor",
    .reference = "tests/sim/test_grad.c",
    .params = no_params,
    .caps = TEST_CAPS,
    .shapes = TEST_SHAPES,
    .alloc = test_alloc,
    .force = spring_force,
    .free = test_free,
    .force_jacobian = spring_jacobian,
};

static const tc_model_type grad_free = {
    .name = "grad-test-free",
    .summary = "test: no force (free flight)",
    .reference = "tests/sim/test_grad.c",
    .params = no_params,
    .caps = TEST_CAPS,
    .shapes = TEST_SHAPES,
    .alloc = test_alloc,
    .force = zero_force,
    .free = test_free,
    .force_jacobian = zero_jacobian,
};

static void register_models(void) {
    if (!tc_model_find(grad_spring.name))
        cr_assert_eq(tc_model_register(&grad_spring, NULL), TC_OK);
    if (!tc_model_find(grad_free.name)) cr_assert_eq(tc_model_register(&grad_free, NULL), TC_OK);
}

TestSuite(grad, .init = register_models);

/* ---------- scenes ---------- */

/* a free box with distinct moments, turned, moving and (spin) spinning about a non-principal
 * axis, gravity along -z */
static void free_scene(tc_scene *sc, int spin) {
    tc_scene_init(sc);
    sc->gravity[2] = -9.81;
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.2, 0.3));
    b.joint = TC_JOINT_FREE;
    b.mass = 2.0;
    const double inertia[3] = {0.03, 0.05, 0.08};
    memcpy(b.inertia, inertia, sizeof inertia);
    tc_v3_set(b.pos, 0.3, -0.2, 1.5);
    tc_random_quat(7, b.quat);
    tc_v3_set(b.vel, 0.4, -0.3, 0.2);
    if (spin) tc_v3_set(b.omega, 1.3, -2.1, 0.7);
    cr_assert_eq(tc_scene_add(sc, &b, 0, NULL), TC_OK);
}

/* a planar box in the vertical x-y plane (gravity -y), with damping and position servos */
static void planar_scene(tc_scene *sc) {
    tc_scene_init(sc);
    sc->gravity[1] = -9.81;
    tc_body_desc b = tc_default_body("slider", tc_box(0.1, 0.2, 0.05));
    b.joint = TC_JOINT_PLANAR;
    b.mass = 1.5;
    const double inertia[3] = {0.02, 0.01, 0.04};
    memcpy(b.inertia, inertia, sizeof inertia);
    tc_v3_set(b.pos, 0.5, 0.7, 0.1);
    tc_v3_set(b.vel, -0.2, 0.3, 0);
    b.omega[2] = 0.9;
    const double damping[3] = {0.3, 0.5, 0.02}, kp[3] = {20, 0, 3};
    memcpy(b.damping, damping, sizeof damping);
    memcpy(b.kp, kp, sizeof kp);
    cr_assert_eq(tc_scene_add(sc, &b, 0, NULL), TC_OK);
}

/* a 5 cm sphere resting 1 mm into the ground */
static void sphere_on_plane(tc_scene *sc) {
    cr_assert_eq(tc_scene_ground(sc, 9.81, 0.5, NULL), TC_OK);
    const double pos[3] = {0, 0, 0.049};
    cr_assert_eq(tc_scene_add_free(sc, "ball", tc_sphere(0.05), pos, NULL, 1000, NULL), TC_OK);
}

/* ---------- helpers ---------- */

static tc_sim *make_sim(const tc_scene *sc, const char *spec, double dt) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s: %s", spec, err.msg);
    tc_sim *s;
    cr_assert_eq(tc_sim_alloc(&s, sc, &m, dt, &err), TC_OK, "%s: %s", spec, err.msg);
    return s;
}

/* the steps the last jacobians() took */
static long long last_steps;

/* the Jacobians of sim in a mode, fd_step h; A, B and err_est allocated here (free them) */
static void jacobians(tc_sim *sim, tc_grad_mode mode, double h, double **A, double **B,
                      double **E) {
    tc_grad_settings set = tc_default_grad_settings();
    set.mode = mode;
    set.fd_step = h;
    tc_grad *g;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_grad_alloc(&g, sim, &set, &err), TC_OK, "%s", err.msg);
    int nx = tc_grad_nx(g);
    size_t nn = (size_t)nx * (size_t)nx;
    *A = calloc(nn, sizeof **A);
    *B = calloc(nn, sizeof **B);
    *E = calloc(2 * nn, sizeof **E);
    cr_assert_eq(tc_grad_step(g, *A, *B, *E, &err), TC_OK, "%s", err.msg);
    last_steps = tc_grad_steps_taken(g);
    tc_grad_free(g);
}

/* largest |x - y| over max(1, |y|) */
static double rel_err(const double *x, const double *y, int n) {
    double e = 0;
    for (int i = 0; i < n; i++)
        e = fmax(e, fabs(x[i] - y[i]) / fmax(1, fabs(y[i])));
    return e;
}

/* ---------- (c) retract and difference ---------- */

/* a free and a planar body, random states and tangents: exact inverses, unit quaternions */
Test(grad, retract_and_difference_are_inverse) {
    static tc_scene sc;
    free_scene(&sc, 1);
    tc_body_desc p = tc_default_body("slider", tc_box(0.1, 0.1, 0.1));
    p.joint = TC_JOINT_PLANAR;
    p.mass = 1;
    p.inertia[0] = p.inertia[1] = p.inertia[2] = 0.01;
    cr_assert_eq(tc_scene_add(&sc, &p, 0, NULL), TC_OK);
    tc_system sys;
    tc_system_init(&sys, &sc);
    cr_assert_eq(sys.nv, 9);
    srand(3);
    double worst_dq = 0, worst_q = 0, worst_norm = 0;
    for (int trial = 0; trial < 200; trial++) {
        double q0[10], q1[10], q2[10], dq[9], back[9];
        for (int k = 0; k < 10; k++)
            q0[k] = 2.0 * rand() / RAND_MAX - 1;
        tc_random_quat((unsigned long)trial + 1, q0 + 3);
        /* tangents up to 3 rad (below pi: the difference takes the short way) */
        for (int k = 0; k < 9; k++)
            dq[k] = (2.0 * rand() / RAND_MAX - 1) * (k >= 3 && k < 6 ? 1.7 : 1);
        memcpy(q1, q0, sizeof q0);
        tc_system_retract(&sys, q1, dq, 1);
        tc_system_difference(&sys, q1, q0, back);
        worst_dq = fmax(worst_dq, rel_err(back, dq, 9));
        worst_norm =
            fmax(worst_norm,
                 fabs(sqrt(q1[3] * q1[3] + q1[4] * q1[4] + q1[5] * q1[5] + q1[6] * q1[6]) - 1));
        /* and the other way: q0 [+] (q1 [-] q0) = q1 */
        memcpy(q2, q0, sizeof q0);
        tc_system_retract(&sys, q2, back, 1);
        worst_q = fmax(worst_q, rel_err(q2, q1, 10));
        /* a tiny tangent, as the central differences take */
        double tiny[9] = {0, 0, 0, 1e-7, -2e-7, 3e-7, 0, 0, 1e-7};
        memcpy(q1, q0, sizeof q0);
        tc_system_retract(&sys, q1, tiny, 1);
        tc_system_difference(&sys, q1, q0, back);
        for (int k = 0; k < 9; k++)
            worst_dq = fmax(worst_dq, fabs(back[k] - tiny[k]));
    }
    cr_log_info("retract/difference: |dq error| %.3g, |q error| %.3g, | |quat| - 1 | %.3g",
                worst_dq, worst_q, worst_norm);
    cr_expect_leq(worst_dq, 1e-14);
    cr_expect_leq(worst_q, 1e-14);
    cr_expect_leq(worst_norm, 1e-15);
}

/* ---------- (a) free flight: closed forms ---------- */

/* the closed form of semi-implicit Euler for a free body at rest in rotation with no torque:
 * A = [I h I; 0 I], B = [h^2 M^-1 0; h M^-1 0] (M^-1: 1/m and the world inverse inertia) */
static void free_closed_form(const tc_scene *sc, const double *q, double h, double *A, double *B) {
    const tc_body_desc *b = &sc->body[0];
    memset(A, 0, 144 * sizeof *A);
    memset(B, 0, 144 * sizeof *B);
    double R[9], Ii[9];
    tc_quat_to_mat(R, q + 3);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            Ii[3 * i + j] = 0;
            for (int k = 0; k < 3; k++)
                Ii[3 * i + j] += R[3 * i + k] * R[3 * j + k] / b->inertia[k];
        }
    for (int k = 0; k < 12; k++)
        A[13 * k] = 1;
    for (int k = 0; k < 6; k++)
        A[12 * k + 6 + k] = h;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double minv = i < 3 ? (i == j) / b->mass : (j >= 3 ? Ii[3 * (i - 3) + j - 3] : 0);
            if (i < 3 && j >= 3) minv = 0;
            B[12 * i + j] = h * h * minv;
            B[12 * (6 + i) + j] = h * minv;
        }
}

/* the closed form for the planar body: a = (tau - c v + kp (ctrl - q)) / m + g */
static void planar_closed_form(const tc_scene *sc, const tc_system *sys, double h, double *A,
                               double *B) {
    const tc_body_desc *b = &sc->body[0];
    const double m[3] = {b->mass, b->mass, sys->izz[0]};
    memset(A, 0, 36 * sizeof *A);
    memset(B, 0, 36 * sizeof *B);
    for (int k = 0; k < 3; k++) {
        double dvq = -h * b->kp[k] / m[k], dvv = 1 - h * b->damping[k] / m[k];
        double dvt = h / m[k], dvc = h * b->kp[k] / m[k];
        A[6 * (3 + k) + k] = dvq;
        A[6 * (3 + k) + 3 + k] = dvv;
        A[6 * k + k] = 1 + h * dvq;
        A[6 * k + 3 + k] = h * dvv;
        B[6 * (3 + k) + k] = dvt;
        B[6 * (3 + k) + 3 + k] = dvc;
        B[6 * k + k] = h * dvt;
        B[6 * k + 3 + k] = h * dvc;
    }
}

/* entries of x off y by more than e (or, e NULL, than tol), the worst into *worst */
static int outside(const double *x, const double *y, const double *e, double tol, int n,
                   double *worst) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double d = fabs(x[i] - y[i]);
        *worst = fmax(*worst, d);
        if (d > (e ? e[i] : tol)) bad++;
    }
    return bad;
}

Test(grad, free_flight_matches_the_closed_form) {
    static tc_scene sc;
    free_scene(&sc, 0);
    const double h = 0.01;
    tc_sim *sim = make_sim(&sc, "grad-test-free/semi-euler", h);
    double Ac[144], Bc[144], *A, *B, *E;
    free_closed_form(&sc, tc_sim_q(sim), h, Ac, Bc);
    jacobians(sim, TC_GRAD_ANALYTIC, 1e-6, &A, &B, &E);
    double wa = 0, wb = 0;
    cr_expect_eq(outside(A, Ac, NULL, 1e-12, 144, &wa), 0, "A off the closed form by %g", wa);
    cr_expect_eq(outside(B, Bc, NULL, 1e-12, 144, &wb), 0, "B off the closed form by %g", wb);
    cr_log_info("free flight, analytic: |A - closed| %.3g, |B - closed| %.3g", wa, wb);
    free(A);
    free(B);
    free(E);
    /* central differences: within their own error estimate */
    jacobians(sim, TC_GRAD_FD, 1e-6, &A, &B, &E);
    double fa = 0, fb = 0, emax = 0;
    cr_expect_eq(outside(A, Ac, E, 0, 144, &fa), 0, "FD A off the closed form by %g", fa);
    cr_expect_eq(outside(B, Bc, E + 144, 0, 144, &fb), 0, "FD B off the closed form by %g", fb);
    for (int i = 0; i < 288; i++)
        emax = fmax(emax, E[i]);
    cr_log_info("free flight, FD: |A - closed| %.3g, |B - closed| %.3g, largest estimate %.3g", fa,
                fb, emax);
    free(A);
    free(B);
    free(E);
    tc_sim_free(sim);
}

Test(grad, planar_free_flight_matches_the_closed_form) {
    static tc_scene sc;
    planar_scene(&sc);
    const double h = 0.01;
    tc_sim *sim = make_sim(&sc, "grad-test-free/semi-euler", h);
    /* servo targets away from the state, an applied wrench */
    tc_sim_ctrl(sim)[0] = 0.6;
    tc_sim_ctrl(sim)[2] = -0.4;
    tc_sim_xfrc(sim)[0].f[0] = 0.7;
    tc_sim_xfrc(sim)[0].t[2] = -0.2;
    double Ac[36], Bc[36], *A, *B, *E;
    planar_closed_form(&sc, tc_sim_system(sim), h, Ac, Bc);
    jacobians(sim, TC_GRAD_AUTO, 1e-6, &A, &B, &E);
    double wa = 0, wb = 0;
    cr_expect_eq(outside(A, Ac, NULL, 1e-12, 36, &wa), 0, "A off the closed form by %g", wa);
    cr_expect_eq(outside(B, Bc, NULL, 1e-12, 36, &wb), 0, "B off the closed form by %g", wb);
    free(A);
    free(B);
    free(E);
    cr_expect_eq(last_steps, 1);
    jacobians(sim, TC_GRAD_FD, 1e-6, &A, &B, &E);
    /* 1 + 4 n steps: 12 columns less the y servo's (kp = 0) */
    cr_expect_eq(last_steps, 1 + 4 * 11);
    double fa = 0, fb = 0;
    cr_expect_eq(outside(A, Ac, E, 0, 36, &fa), 0, "FD A off the closed form by %g", fa);
    cr_expect_eq(outside(B, Bc, E + 36, 0, 36, &fb), 0, "FD B off the closed form by %g", fb);
    cr_log_info("planar free flight: analytic |A - closed| %.3g |B - closed| %.3g; FD %.3g %.3g",
                wa, wb, fa, fb);
    free(A);
    free(B);
    free(E);
    tc_sim_free(sim);
}

/* the spinning body (gyroscopic torque, non-principal axis) against tight central differences */
Test(grad, spinning_free_body_matches_central_differences) {
    static tc_scene sc;
    free_scene(&sc, 1);
    tc_sim *sim = make_sim(&sc, "grad-test-free/semi-euler", 0.01);
    tc_sim_xfrc(sim)[0].t[1] = 0.05;
    double *A, *B, *E, *Af, *Bf, *Ef;
    jacobians(sim, TC_GRAD_ANALYTIC, 1e-6, &A, &B, &E);
    jacobians(sim, TC_GRAD_FD, 1e-4, &Af, &Bf, &Ef);
    double ea = rel_err(A, Af, 144), eb = rel_err(B, Bf, 144), emax = 0;
    for (int i = 0; i < 288; i++)
        emax = fmax(emax, Ef[i]);
    cr_log_info("spinning free body: analytic vs FD (h 1e-4, Richardson) A %.3g B %.3g, FD "
                "estimate <= %.3g",
                ea, eb, emax);
    cr_expect_leq(ea, 1e-8);
    cr_expect_leq(eb, 1e-8);
    free(A);
    free(B);
    free(E);
    free(Af);
    free(Bf);
    free(Ef);
    tc_sim_free(sim);
}

/* ---------- (b) the spring model: analytic against central differences ---------- */

static void spring_check(tc_scene *sc, const char *spec, const char *what) {
    tc_sim *sim = make_sim(sc, spec, 0.005);
    double *A, *B, *E, *Af, *Bf, *Ef;
    jacobians(sim, TC_GRAD_ANALYTIC, 1e-6, &A, &B, &E);
    jacobians(sim, TC_GRAD_FD, 1e-5, &Af, &Bf, &Ef);
    const tc_system *sys = tc_sim_system(sim);
    int n = 4 * sys->nv * sys->nv;
    double ea = rel_err(A, Af, n), eb = rel_err(B, Bf, n), emax = 0;
    for (int i = 0; i < 2 * n; i++)
        emax = fmax(emax, Ef[i]);
    cr_log_info("spring, %s (%s): analytic vs FD A %.3g B %.3g; FD estimate <= %.3g", what, spec,
                ea, eb, emax);
    cr_expect_leq(ea, 1e-6, "%s: A %g", what, ea);
    cr_expect_leq(eb, 1e-6, "%s: B %g", what, eb);
    /* the spring does matter: A is not the free-flight one */
    free(A);
    free(B);
    free(E);
    free(Af);
    free(Bf);
    free(Ef);
    tc_sim_free(sim);
}

Test(grad, spring_analytic_matches_central_differences) {
    static tc_scene sc;
    free_scene(&sc, 1);
    spring_check(&sc, "grad-test-spring/semi-euler", "free body");
    spring_check(&sc, "grad-test-spring/euler", "free body");
    planar_scene(&sc);
    spring_check(&sc, "grad-test-spring/semi-euler", "planar body");
    spring_check(&sc, "grad-test-spring/euler", "planar body");
}

/* the analytic path's description and the sim left as it was */
Test(grad, analytic_leaves_the_simulation_unchanged) {
    static tc_scene sc;
    free_scene(&sc, 1);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "grad-test-spring", NULL), TC_OK);
    cr_expect(tc_method_has_gradient(&m));
    cr_expect_str_eq(tc_method_gradient(&m), "analytic (force derivatives)");
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley", NULL), TC_OK);
    cr_expect_not(tc_method_has_gradient(&m));
    cr_expect_str_eq(tc_method_gradient(&m), "central differences");
    tc_sim *sim = make_sim(&sc, "grad-test-spring/semi-euler", 0.005);
    double q[7], v[6];
    memcpy(q, tc_sim_q(sim), sizeof q);
    memcpy(v, tc_sim_v(sim), sizeof v);
    double *A, *B, *E;
    jacobians(sim, TC_GRAD_AUTO, 1e-6, &A, &B, &E);
    cr_expect_eq(memcmp(q, tc_sim_q(sim), sizeof q), 0);
    cr_expect_eq(memcmp(v, tc_sim_v(sim), sizeof v), 0);
    cr_expect_eq(tc_sim_time(sim), 0);
    free(A);
    free(B);
    free(E);
    tc_sim_free(sim);
}

/* ---------- (d) the same bits for any thread count ---------- */

Test(grad, fd_is_bitwise_identical_for_1_and_2_threads) {
    static tc_scene sc;
    sphere_on_plane(&sc);
    double *A[2], *B[2], *E[2];
    for (int t = 0; t < 2; t++) {
        omp_set_num_threads(t + 1);
        tc_sim *sim = make_sim(&sc, "hunt-crossley", 0.001);
        jacobians(sim, TC_GRAD_FD, 1e-6, &A[t], &B[t], &E[t]);
        tc_sim_free(sim);
    }
    cr_expect_eq(memcmp(A[0], A[1], 144 * sizeof *A[0]), 0);
    cr_expect_eq(memcmp(B[0], B[1], 144 * sizeof *B[0]), 0);
    /* resting on the ground: the height is pulled back (dvz+/dz < 0) */
    cr_expect_lt(A[0][12 * 8 + 2], 0, "dvz+/dz = %g", A[0][12 * 8 + 2]);
    for (int t = 0; t < 2; t++) {
        free(A[t]);
        free(B[t]);
        free(E[t]);
    }
    omp_set_num_threads(2);
}

/* ---------- (e) errors ---------- */

static void expect_error(tc_sim *sim, tc_grad_settings set, tc_status want, const char *param) {
    tc_grad *g = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_grad_alloc(&g, sim, &set, &err), want, "%s", err.msg);
    cr_expect_null(g);
    cr_expect_str_eq(err.param, param, "%s", err.msg);
    cr_expect(strstr(err.msg, param) || !strcmp(param, "mode"), "%s", err.msg);
}

Test(grad, errors_name_the_setting) {
    static tc_scene sc;
    sphere_on_plane(&sc);
    tc_sim *sim = make_sim(&sc, "hunt-crossley", 0.001);
    tc_grad_settings set = tc_default_grad_settings();
    set.fd_step = 0;
    expect_error(sim, set, TC_EINVAL, "fd_step");
    set.fd_step = -1;
    expect_error(sim, set, TC_EINVAL, "fd_step");
    set = tc_default_grad_settings();
    set.mode = TC_GRAD_ANALYTIC;
    tc_grad *g = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_grad_alloc(&g, sim, &set, &err), TC_EUNSUP);
    cr_expect_str_eq(err.param, "mode");
    cr_expect(strstr(err.msg, "TC_GRAD_ANALYTIC") && strstr(err.msg, "hunt-crossley"), "%s",
              err.msg);
    /* a non-unit quaternion in the state, the body named */
    set = tc_default_grad_settings();
    cr_assert_eq(tc_grad_alloc(&g, sim, &set, &err), TC_OK);
    double A[144], B[144];
    tc_sim_q(sim)[3] += 1e-6; /* the ball's w: |q| = 1 + 1e-6 */
    tc_error_clear(&err);
    cr_expect_eq(tc_grad_step(g, A, B, NULL, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "ball");
    cr_expect(strstr(err.msg, "ball") && strstr(err.msg, "quaternion"), "%s", err.msg);
    tc_grad_free(g);
    tc_sim_free(sim);
}

/* ---------- (f) central differences of an engine and of a velocity-level method ---------- */

static void fd_leaves_sim_unchanged(const char *spec) {
    static tc_scene sc;
    sphere_on_plane(&sc);
    tc_sim *sim = make_sim(&sc, spec, 0.001);
    /* a few steps first: a state of the simulation's own */
    for (int i = 0; i < 5; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    double q[7], v[6], t = tc_sim_time(sim);
    memcpy(q, tc_sim_q(sim), sizeof q);
    memcpy(v, tc_sim_v(sim), sizeof v);
    double *A, *B, *E;
    jacobians(sim, TC_GRAD_AUTO, 1e-6, &A, &B, &E);
    int finite = 1;
    for (int i = 0; i < 144; i++)
        finite &= isfinite(A[i]) && isfinite(B[i]);
    cr_expect(finite, "%s: non-finite Jacobian", spec);
    cr_expect_eq(memcmp(q, tc_sim_q(sim), sizeof q), 0, "%s: q changed", spec);
    cr_expect_eq(memcmp(v, tc_sim_v(sim), sizeof v), 0, "%s: v changed", spec);
    cr_expect_eq(memcmp(&t, &(double){tc_sim_time(sim)}, sizeof t), 0, "%s: time changed", spec);
    /* a free body's position carries through: dz+/dz near 1 */
    cr_expect(fabs(A[2 * 12 + 2] - 1) < 0.5, "%s: dz+/dz = %g", spec, A[2 * 12 + 2]);
    cr_log_info("%s: dz+/dz %.6g, dvz+/dz %.6g, dvz+/dvz %.6g", spec, A[2 * 12 + 2], A[8 * 12 + 2],
                A[8 * 12 + 8]);
    free(A);
    free(B);
    free(E);
    tc_sim_free(sim);
}

Test(grad, fd_of_an_engine, .disabled = !TC_HAVE_ODE) {
    fd_leaves_sim_unchanged("ode");
}

Test(grad, fd_of_a_velocity_level_method) {
    fd_leaves_sim_unchanged("rigid/lcp-lemke");
}

/* a model with memory (penalty-mp: integral terms, contact phases) made anew before each step:
 * the same bits from one call to the next, and the sim (memory included) left as it was */
Test(grad, fd_of_a_model_with_memory_repeats) {
    fd_leaves_sim_unchanged("penalty-mp");
    static tc_scene sc;
    sphere_on_plane(&sc);
    tc_sim *sim = make_sim(&sc, "penalty-mp", 0.001);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    tc_grad *g;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_grad_alloc(&g, sim, NULL, &err), TC_OK, "%s", err.msg);
    static double A[2][144], B[2][144];
    for (int k = 0; k < 2; k++)
        cr_assert_eq(tc_grad_step(g, A[k], B[k], NULL, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(memcmp(A[0], A[1], sizeof A[0]), 0);
    cr_expect_eq(memcmp(B[0], B[1], sizeof B[0]), 0);
    tc_grad_free(g);
    /* the simulation goes on as a twin that never had its Jacobians taken */
    tc_sim *twin = make_sim(&sc, "penalty-mp", 0.001);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(tc_sim_step(twin), TC_OK);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        cr_assert_eq(tc_sim_step(twin), TC_OK);
    }
    cr_expect_eq(memcmp(tc_sim_q(sim), tc_sim_q(twin), 7 * sizeof(double)), 0);
    cr_expect_eq(memcmp(tc_sim_v(sim), tc_sim_v(twin), 6 * sizeof(double)), 0);
    tc_sim_free(twin);
    tc_sim_free(sim);
}
