/* SPDX-License-Identifier: MIT */
/* Le Cleac'h et al.'s planar contact: the interior-point method on problems with known answers,
 * the collision problem in closed form, the problem's derivatives against finite differences,
 * and the single-level and bilevel steps on a box at rest, dropped and sliding */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "solvers/tc_dcol2d.h"
#include "solvers/tc_ip.h"

#define G    9.81 /* m/s^2 */
#define HALF 0.25 /* m, the square's half side */

static const double square_A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
static const double square_b[4] = {HALF, HALF, HALF, HALF};

/* the ground and squares of 1 kg (inertia 0.2 kg m^2) with centres (x, y) turned by theta */
static tc_scene squares(int n, const double (*pose)[3], double mu) {
    tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_ground_2d(&sc, G, mu, &err), TC_OK, "%s", err.msg);
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "sq%d", i);
        cr_assert_eq(tc_scene_add_polygon(&sc, name, square_A, square_b, 4, 0.05, 1.0, 0.2,
                                          pose[i][0], pose[i][1], pose[i][2], &err),
                     TC_OK, "%s", err.msg);
    }
    return sc;
}

/* ---- the interior-point method on monotone LCPs: w = M z + q, z w = kappa ---- */

typedef struct lcp {
    int n;
    double M[8][8], q[8];
} lcp;

/* rows w - M z - q over x = [z, w] */
static tc_status lcp_f(void *ctx, const double *x, double *r, double *J) {
    const lcp *p = ctx;
    int n = p->n;
    for (int i = 0; i < n; i++) {
        r[i] = x[n + i] - p->q[i];
        for (int j = 0; j < n; j++)
            r[i] -= p->M[i][j] * x[j];
        if (J) {
            for (int j = 0; j < n; j++)
                J[i * 2 * n + j] = -p->M[i][j];
            J[i * 2 * n + n + i] = 1;
        }
    }
    return TC_OK;
}

Test(ip, solves_random_monotone_lcps_to_the_tolerance) {
    srand(7);
    tc_ip_workspace *w;
    cr_assert_eq(tc_ip_alloc(&w, 16), TC_OK);
    int zi[8], si[8], worst = 0;
    for (int trial = 0; trial < 200; trial++) {
        /* M = B B^T + I / 10 (positive definite), q of either sign: a unique solution */
        lcp p = {.n = 2 + trial % 7};
        double B[8][8];
        for (int i = 0; i < p.n; i++) {
            for (int j = 0; j < p.n; j++)
                B[i][j] = 2.0 * rand() / RAND_MAX - 1;
            p.q[i] = 4.0 * rand() / RAND_MAX - 2;
        }
        for (int i = 0; i < p.n; i++)
            for (int j = 0; j < p.n; j++) {
                p.M[i][j] = i == j ? 0.1 : 0;
                for (int k = 0; k < p.n; k++)
                    p.M[i][j] += B[i][k] * B[j][k];
            }
        for (int i = 0; i < p.n; i++) {
            zi[i] = i;
            si[i] = p.n + i;
        }
        double x[16] = {0};
        const double kappa = 1e-8;
        tc_ip_settings set = tc_ip_default_settings(kappa);
        tc_ip_problem prob = {2 * p.n, p.n, zi, si, lcp_f, &p};
        int ok;
        cr_assert_eq(tc_ip_solve(w, &prob, &set, x, &ok), TC_OK);
        cr_assert(ok, "trial %d (n = %d) did not converge in %d iterations", trial, p.n,
                  set.max_iter);
        if (tc_ip_iterations(w) > worst) worst = tc_ip_iterations(w);
        /* a solution of the relaxed problem: w = M z + q to rtol, z w = kappa to rtol */
        double r[8];
        lcp_f(&p, x, r, NULL);
        for (int i = 0; i < p.n; i++) {
            cr_assert_leq(fabs(r[i]), set.rtol);
            cr_assert(x[i] > 0 && x[p.n + i] > 0);
            cr_assert_leq(fabs(x[i] * x[p.n + i] - kappa), set.rtol);
        }
    }
    cr_log_info("200 monotone LCPs: at most %d iterations", worst);
    tc_ip_free(w);
}

Test(ip, the_iteration_cap_is_reported_not_hidden) {
    lcp p = {.n = 2, .M = {{2, 1}, {1, 2}}, .q = {-1, 1}};
    int zi[2] = {0, 1}, si[2] = {2, 3}, ok = 1;
    double x[4] = {0};
    tc_ip_workspace *w;
    cr_assert_eq(tc_ip_alloc(&w, 4), TC_OK);
    tc_ip_settings set = tc_ip_default_settings(1e-10);
    set.max_iter = 2;
    tc_ip_problem prob = {4, 2, zi, si, lcp_f, &p};
    cr_assert_eq(tc_ip_solve(w, &prob, &set, x, &ok), TC_OK);
    cr_assert_eq(ok, 0, "two iterations cannot reach 1e-11");
    cr_assert_eq(tc_ip_iterations(w), 2);
    double eq, comp;
    tc_ip_residuals(w, &eq, &comp);
    cr_assert(eq > set.rtol || comp > set.rtol);
    tc_ip_free(w);
}

Test(ip, a_dual_or_slack_used_twice_is_refused) {
    /* the condensed Newton system eliminates each slack through its own pair's row */
    lcp p = {.n = 2, .M = {{2, 1}, {1, 2}}, .q = {-1, 1}};
    double x[4] = {0};
    tc_ip_workspace *w;
    cr_assert_eq(tc_ip_alloc(&w, 4), TC_OK);
    tc_ip_settings set = tc_ip_default_settings(1e-6);
    int zi[3][2] = {{0, 1}, {0, 0}, {0, 2}}, si[3][2] = {{2, 2}, {2, 3}, {2, 3}};
    const char *what[3] = {"a slack twice", "a dual twice", "a slack that is a dual"};
    for (int c = 0; c < 3; c++) {
        tc_ip_problem prob = {4, 2, zi[c], si[c], lcp_f, &p};
        cr_expect_eq(tc_ip_init(w, &prob, &set, x), TC_EINVAL, "%s accepted", what[c]);
    }
    tc_ip_free(w);
}

/* ---- the collision problem (DCOL) alone, in closed form ---- */

/* solve pair k of the scene's problem at its initial pose; l holds p, alpha, ... */
static void detect(const tc_scene *sc, int k, double kappa, double *l, tc_dcol2d **out) {
    static tc_system sys;
    tc_system_init(&sys, sc);
    tc_error err;
    tc_error_clear(&err);
    tc_dcol2d *d;
    cr_assert_eq(tc_dcol2d_alloc(&d, &sys, sc->friction, &err), TC_OK, "%s", err.msg);
    double q[64] = {0}, v[64] = {0};
    tc_system_initial_state(&sys, q, v);
    tc_dcol2d_pair_start(d, k, q, l);
    tc_ip_workspace *w;
    cr_assert_eq(tc_ip_alloc(&w, d->maxl), TC_OK);
    tc_ip_settings set = tc_ip_default_settings(kappa);
    set.max_iter = 100;
    int ok;
    cr_assert_eq(tc_dcol2d_detect(d, w, &set, k, q, l, &ok), TC_OK);
    cr_assert(ok, "the collision problem did not converge");
    tc_ip_free(w);
    *out = d;
}

Test(ip, collision_of_a_square_corner_above_the_ground_is_closed_form) {
    /* a square turned 45 degrees, centre at height y: its corner touches the ground when the
     * square is scaled by alpha = y / (HALF sqrt 2), at p = (x, 0) */
    const double y = 0.6, x = 0.1;
    tc_scene sc = squares(1, (const double[][3]){{x, y, M_PI / 4}}, 0.5);
    double l[64];
    tc_dcol2d *d;
    detect(&sc, 0, 1e-12, l, &d);
    cr_expect_float_eq(l[2], y / (HALF * sqrt(2)), 1e-8, "alpha %.12f", l[2]);
    cr_expect_float_eq(l[0], x, 1e-8, "p_x %.12f", l[0]);
    cr_expect_leq(fabs(l[1]), 1e-8, "p_y %.3g", l[1]);
    tc_dcol2d_free(d);
}

Test(ip, collision_of_two_squares_at_a_known_separation_is_closed_form) {
    /* side by side at centre distance D: scaled by alpha they touch at D = 2 HALF alpha, at
     * the midpoint (face to face: the relaxed problem's point is the face's centre) */
    const double D = 0.8;
    tc_scene sc = squares(2, (const double[][3]){{0, 1, 0}, {D, 1, 0}}, 0.5);
    tc_dcol2d *d;
    double l[64];
    /* the pair of the two squares (after the two square-ground pairs) */
    tc_system sys;
    tc_system_init(&sys, &sc);
    tc_dcol2d *probe;
    cr_assert_eq(tc_dcol2d_alloc(&probe, &sys, 0.5, NULL), TC_OK);
    int k = -1;
    for (int i = 0; i < probe->npair; i++)
        if (probe->prim[probe->pair[i].body[1]].kind == TC_CONVEX2D_POLYGON) k = i;
    tc_dcol2d_free(probe);
    cr_assert_geq(k, 0);
    detect(&sc, k, 1e-12, l, &d);
    cr_expect_float_eq(l[2], D / (2 * HALF), 1e-8, "alpha %.12f", l[2]);
    cr_expect_float_eq(l[0], D / 2, 1e-8, "p_x %.12f", l[0]);
    cr_expect_float_eq(l[1], 1.0, 1e-6, "p_y %.12f (the shared face's centre)", l[1]);
    tc_dcol2d_free(d);
}

Test(ip, face_contact_picks_a_point_on_the_shared_face) {
    /* a flat square resting on the ground: any point of its bottom face is a solution */
    tc_scene sc = squares(1, (const double[][3]){{0.3, HALF, 0}}, 0.5);
    tc_dcol2d *d;
    double l[64];
    detect(&sc, 0, 1e-10, l, &d);
    cr_expect_float_eq(l[2], 1.0, 1e-8, "alpha %.12f: touching", l[2]);
    cr_expect_leq(fabs(l[1]), 1e-8, "p on the ground: %.3g", l[1]);
    cr_expect(l[0] >= 0.3 - HALF - 1e-8 && l[0] <= 0.3 + HALF + 1e-8, "p_x %.6f on the face", l[0]);
    tc_dcol2d_free(d);
}

/* ---- the problem's derivatives ---- */

Test(ip, pair_derivatives_match_central_differences) {
    const double A[5][2] = {{1, 0.2}, {0, 1}, {-1, -0.3}, {0, -1}, {0.8, -0.8}};
    const double b[5] = {0.4, 0.4, 0.4, 0.4, 0.4};
    tc_scene sc;
    cr_assert_eq(tc_scene_ground_2d(&sc, G, 0.3, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_polygon(&sc, "p1", A, b, 5, 0.05, 1, 0.2, 0, 0.5, 0.3, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_polygon(&sc, "p2", A, b, 5, 0.05, 1, 0.2, 0.2, 1.2, 1.0, NULL),
                 TC_OK);
    tc_system sys;
    tc_system_init(&sys, &sc);
    tc_dcol2d *d;
    cr_assert_eq(tc_dcol2d_alloc(&d, &sys, 0.3, NULL), TC_OK);
    double q[6] = {0, 0.5, 0.3, 0.2, 1.2, 1.0}, v[6] = {0.1, -0.2, 0.3, -0.1, 0.2, -0.5};
    double a[6] = {0, -G, 0, 0, -G, 0}, qp[6] = {0.01, 0.49, 0.31, 0.19, 1.21, 0.97};
    d->h = 0.01;
    d->q = q;
    d->v = v;
    d->a = a;
    srand(3);
    cr_assert_eq(d->npair, 3, "both polygons on the ground, and with each other");
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        int L = pr->nl, E = pr->ne;
        double l[80], dEdl[40 * 80], dEdq[40 * 6], dWdl[6 * 80], dWdq[36], worst = 0;
        for (int i = 0; i < L; i++)
            l[i] = 0.2 + (double)rand() / RAND_MAX;
        l[0] = 0.1;
        l[1] = 0.8;
        tc_dcol2d_pair_eval(d, k, qp, l, 0);
        memcpy(dEdl, d->dEdl, sizeof(double) * (size_t)(E * L));
        memcpy(dEdq, d->dEdq, sizeof(double) * (size_t)(E * 6));
        memcpy(dWdl, d->dWdl, sizeof(double) * (size_t)(6 * L));
        memcpy(dWdq, d->dWdq, sizeof dWdq);
        /* every local unknown and each side's three coordinates */
        for (int c = 0; c < L + 6; c++) {
            int qi = c - L, body = qi >= 0 ? pr->body[qi / 3] : -1;
            if (qi >= 0 && sys.vadr[body] < 0) continue;
            double Ep[40], Em[40], Wp[6], Wm[6], h = 1e-6,
                                                 *x = c < L ? &l[c] : &qp[sys.vadr[body] + qi % 3];
            double keep = *x;
            *x = keep + h;
            tc_dcol2d_pair_eval(d, k, qp, l, 0);
            memcpy(Ep, d->E, sizeof(double) * (size_t)E);
            memcpy(Wp, d->W, sizeof Wp);
            *x = keep - h;
            tc_dcol2d_pair_eval(d, k, qp, l, 0);
            memcpy(Em, d->E, sizeof(double) * (size_t)E);
            memcpy(Wm, d->W, sizeof Wm);
            *x = keep;
            for (int r = 0; r < E + 6; r++) {
                double fd = r < E ? (Ep[r] - Em[r]) / (2 * h) : (Wp[r - E] - Wm[r - E]) / (2 * h);
                double an = r < E ? (c < L ? dEdl[r * L + c] : dEdq[r * 6 + qi])
                                  : (c < L ? dWdl[(r - E) * L + c] : dWdq[(r - E) * 6 + qi]);
                worst = fmax(worst, fabs(fd - an) / (1 + fabs(fd)));
            }
        }
        cr_log_info("pair %d: worst relative derivative error %.2e", k, worst);
        cr_expect_leq(worst, 1e-7, "pair %d's derivatives differ from central differences by %g", k,
                      worst);
    }
    tc_dcol2d_free(d);
}

/* ---- steps ---- */

static tc_sim *sim_of(const tc_scene *sc, const char *spec, double dt, double tol) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "tol", tol, &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, dt, &err), TC_OK, "%s", err.msg);
    return sim;
}

/* touche's stronger bilevel: the lower level at the step's tolerance, warm, up to 100
 * iterations, exact derivatives (E5's and E6's bilevel-touche) */
static const char *const strong_names[] = {"collision_tol",  "collision_rtol", "collision_max_iter",
                                           "collision_warm", "fd_jacobian",    NULL};
static const double strong_values[] = {0, 0, 100, 1, 0};

/* sim_of with parameters names[i] = values[i] set after tol */
static tc_sim *sim_with(const tc_scene *sc, const char *spec, double dt, double tol,
                        const char *const *names, const double *values) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "tol", tol, &err), TC_OK, "%s", err.msg);
    for (int i = 0; names && names[i]; i++)
        cr_assert_eq(tc_method_set(&m, names[i], values[i], &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, dt, &err), TC_OK, "%s", err.msg);
    return sim;
}

/* 100 steps of a body meant to rest: |p| after the first step (it settles into the relaxed
 * contact's gap) and the largest |p| + |L| after it */
static void rest_for_a_second(tc_sim *sim, double *first, double *drift) {
    *first = 0;
    *drift = 0;
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        double lin[3], ang[3];
        tc_sim_momentum(sim, lin, ang);
        if (i == 0)
            *first = hypot(lin[0], lin[1]);
        else
            *drift = fmax(*drift, hypot(lin[0], lin[1]) + fabs(ang[2]));
    }
}

Test(ip, a_box_at_rest_stays_at_rest_with_the_point_below_its_centre) {
    /* the shifted stacks of E6 start from this: a flat square touching the ground; the
     * single-level method and touche's stronger bilevel (the public code's is below) */
    tc_scene sc = squares(1, (const double[][3]){{0.2, HALF, 0}}, 0.5);
    const char *specs[] = {"convex/single-level", "convex/bilevel"};
    for (int s = 0; s < 2; s++) {
        tc_sim *sim = sim_with(&sc, specs[s], 0.01, 1e-8, s ? strong_names : NULL, strong_values);
        /* the first step settles into the relaxed contact's gap phi = kappa / gamma (gamma = m g
         * h: 1e-7 of the half side, 2.5e-8 m); from then on the momentum must stay 0 */
        double first, drift;
        rest_for_a_second(sim, &first, &drift);
        const double *q = tc_sim_q(sim);
        cr_log_info("%s: 1 s at rest: moved (%.2e, %.2e) m, turned %.2e rad, |p| %.2e after the "
                    "first step, then |p| + |L| <= %.2e",
                    specs[s], q[0] - 0.2, q[1] - HALF, q[2], first, drift);
        cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
        /* the relaxed contact settles by phi = kappa / gamma; nothing else moves */
        cr_expect_leq(fabs(q[0] - 0.2), 1e-9, "%s slid", specs[s]);
        cr_expect_leq(fabs(q[2]), 1e-9, "%s turned", specs[s]);
        cr_expect_leq(fabs(q[1] - HALF), 5e-8, "%s sank", specs[s]);
        cr_expect_leq(first, 5e-6, "%s settling", specs[s]);
        cr_expect_leq(drift, 1e-9, "%s momentum drift %g", specs[s], drift);
        tc_sim_free(sim);
    }
}

Test(ip, the_public_bilevel_holds_a_box_at_rest_to_its_collision_tolerance) {
    /* the public code's bilevel (the defaults): its lower level stops at a residual of 1e-5 and a
     * relaxation of 1e-4 whatever the step's tolerance, so the contact point it hands up is only
     * that good; the box still must not slide, turn or sink beyond that scale, and every step
     * must converge (the Newton matrix by finite differences) */
    tc_scene sc = squares(1, (const double[][3]){{0.2, HALF, 0}}, 0.5);
    tc_sim *sim = sim_with(&sc, "convex/bilevel", 0.01, 1e-8, NULL, NULL);
    double first, drift;
    rest_for_a_second(sim, &first, &drift);
    const double *q = tc_sim_q(sim);
    cr_log_info(
        "public bilevel: 1 s at rest: moved (%.2e, %.2e) m, turned %.2e rad, |p| %.2e after "
        "the first step, then |p| + |L| <= %.2e, %lld failed steps",
        q[0] - 0.2, q[1] - HALF, q[2], first, drift, tc_sim_get_stats(sim)->solver_fails);
    cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
    /* the first step settles by the lower level's relaxation (1e-4 of alpha: 2.5e-5 of the half
     * side, twice that measured), then the momentum stays within what the lower level's
     * residual of 1e-5 leaves (3e-7 measured; touche's stronger bilevel above: 1.3e-10) */
    cr_expect_leq(fabs(q[0] - 0.2), 1e-9, "slid %g", q[0] - 0.2);
    cr_expect_leq(fabs(q[2]), 1e-9, "turned %g", q[2]);
    cr_expect_leq(fabs(q[1] - HALF), 1e-4, "sank %g", q[1] - HALF);
    cr_expect_leq(first, 1e-2, "settling %g", first);
    cr_expect_leq(drift, 1e-6, "momentum drift %g", drift);
    tc_sim_free(sim);
}

Test(ip, the_finite_difference_newton_matrix_reaches_the_exact_ones_solution) {
    /* the same residual, two Newton matrices: exact (implicit function theorem) and forward
     * differences (without regularisation, and with the public code's 1e-3 kg on the velocity
     * diagonal); where both converge they end on the same q+ to the step's tolerance. A square
     * landing on a corner, 1 cm above the ground, at 100 Hz */
    tc_scene sc = squares(1, (const double[][3]){{0, HALF * sqrt(2) + 0.01, 0.3}}, 0.5);
    const char *names[] = {"fd_jacobian", "fd_primal_reg", NULL};
    const double variant[3][2] = {{0, 0}, {1, 0}, {1, 1e-3}};
    double q[3][3][20];
    long long fails[3], iters[3];
    for (int v = 0; v < 3; v++) {
        tc_sim *sim = sim_with(&sc, "convex/bilevel", 0.01, 1e-6, names, variant[v]);
        tc_sim_v(sim)[1] = -0.5;
        for (int i = 0; i < 20; i++) {
            cr_assert_eq(tc_sim_step(sim), TC_OK);
            for (int c = 0; c < 3; c++)
                q[v][c][i] = tc_sim_q(sim)[c];
        }
        fails[v] = tc_sim_get_stats(sim)->solver_fails;
        iters[v] = tc_sim_get_stats(sim)->solver_iters;
        tc_sim_free(sim);
    }
    double worst[3] = {0, 0, 0};
    for (int v = 1; v < 3; v++)
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 20; i++)
                worst[v] = fmax(worst[v], fabs(q[v][c][i] - q[0][c][i]));
    cr_log_info("finite differences against exact over 20 steps: %.2e (unregularised), %.2e (+1e-3 "
                "kg); failed steps %lld, %lld, %lld; iterations %lld, %lld, %lld",
                worst[1], worst[2], fails[0], fails[1], fails[2], iters[0], iters[1], iters[2]);
    /* the differences are the Newton matrix itself (to about 1e-5, the lower level's residual):
     * Newton's iterations are the exact matrix's; a wrong matrix would still end on the same q+,
     * only slower */
    cr_expect_leq(llabs(iters[1] - iters[0]), iters[0] / 20, "iterations %lld against %lld",
                  iters[1], iters[0]);
    for (int v = 0; v < 3; v++)
        cr_expect_eq(fails[v], 0, "variant %d failed %lld steps", v, fails[v]);
    cr_expect_leq(worst[1], 1e-6, "unregularised differences moved q+ by %g", worst[1]);
    cr_expect_leq(worst[2], 1e-6, "regularised differences moved q+ by %g", worst[2]);
    /* and it did land: after 0.2 s the ground holds it well above where free fall would put it
     * (implicit Euler: y0 - 0.5 t - g h^2 n (n + 1) / 2) */
    const double fall = 0.5 * 0.2 + G * 0.01 * 0.01 * 20 * 21 / 2;
    cr_expect_geq(q[0][1][19], HALF * sqrt(2) + 0.01 - fall + 0.05, "y = %g: not landed",
                  q[0][1][19]);
}

Test(ip, a_dual_regularisation_stalls_the_finite_difference_newton_in_free_fall) {
    /* why fd_dual_reg is 0 by default (docs/solvers.md): in free fall the relaxed friction
     * complementarity has psi s_psi = kappa with psi large and s_psi tiny, whose condensed
     * derivative kappa / psi^2 (1e-12 at kappa = 1e-10) a subtracted 1e-3 swamps: psi then
     * creeps by |r| / 1e-3 an iteration and the step hits its cap at |f| about 2e-10. Without
     * it every step converges */
    tc_scene sc = squares(1, (const double[][3]){{0, 1.0, 0.2}}, 0.2);
    const char *names[] = {"fd_dual_reg", NULL};
    long long fails[2];
    for (int v = 0; v < 2; v++) {
        const double reg = v ? 1e-3 : 0;
        tc_sim *sim = sim_with(&sc, "convex/bilevel", 0.01, 1e-10, names, &reg);
        for (int i = 0; i < 5; i++)
            tc_sim_step(sim);
        fails[v] = tc_sim_get_stats(sim)->solver_fails;
        tc_sim_free(sim);
    }
    cr_log_info("5 free-fall steps at kappa = 1e-10: %lld failed without the dual regularisation, "
                "%lld with 1e-3",
                fails[0], fails[1]);
    cr_expect_eq(fails[0], 0);
    cr_expect_eq(fails[1], 5);
}

Test(ip, a_box_dropped_flat_does_not_bounce) {
    /* 10 cm above the ground: it lands at 1.4 m/s and stays down (inelastic contact) */
    tc_scene sc = squares(1, (const double[][3]){{0, HALF + 0.1, 0}}, 0.5);
    tc_sim *sim = sim_of(&sc, "convex/single-level", 0.01, 1e-8);
    int landed = 0;
    double highest = 0;
    for (int i = 0; i < 100; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        double y = tc_sim_q(sim)[1] - HALF;
        if (y < 1e-6) landed = 1;
        if (landed) highest = fmax(highest, y);
    }
    cr_expect(landed);
    cr_expect_leq(highest, 1e-6, "bounced to %g m", highest);
    cr_expect_leq(fabs(tc_sim_v(sim)[1]), 1e-6);
    cr_expect_leq(tc_sim_penetration(sim, NULL), 1e-6);
    tc_sim_free(sim);
}

Test(ip, a_sliding_box_decelerates_at_mu_g_until_it_stops) {
    const double mu = 0.5, v0 = 2.0, dt = 0.01;
    tc_scene sc = squares(1, (const double[][3]){{0, HALF, 0}}, mu);
    tc_sim *sim = sim_of(&sc, "convex/single-level", dt, 1e-10);
    tc_sim_v(sim)[0] = v0;
    /* v(t) = v0 - mu g t until t* = v0 / (mu g) = 0.41 s, then at rest after x* = v0^2/(2 mu g) */
    double worst = 0;
    for (int i = 1; i <= 100; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        double t = i * dt, v = fmax(v0 - mu * G * t, 0);
        worst = fmax(worst, fabs(tc_sim_v(sim)[0] - v));
    }
    double x = tc_sim_q(sim)[0], xstar = v0 * v0 / (2 * mu * G);
    cr_log_info("sliding: |v - (v0 - mu g t)| <= %.2e m/s; stopped at %.4f m (closed form %.4f, "
                "implicit Euler's h v0 / 2 = %.4f shorter)",
                worst, x, xstar, dt * v0 / 2);
    cr_expect_leq(worst, 1e-6, "velocity off mu g deceleration by %g", worst);
    cr_expect_leq(fabs(tc_sim_v(sim)[0]), 1e-9, "not stopped");
    cr_expect_leq(fabs(x - (xstar - dt * v0 / 2)), dt * v0, "stopped at %g", x);
    cr_expect_leq(fabs(tc_sim_q(sim)[2]), 1e-6, "tipped %g rad", tc_sim_q(sim)[2]);
    tc_sim_free(sim);
}

Test(ip, a_failed_step_is_counted_and_described) {
    /* one iteration a step cannot reach 1e-10: every step fails, with its residuals */
    tc_scene sc = squares(1, (const double[][3]){{0, HALF + 0.05, 0.1}}, 0.5);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "convex/single-level", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "tol", 1e-10, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "max_iter", 1, NULL), TC_OK);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.01, NULL), TC_OK);
    for (int i = 0; i < 3; i++)
        tc_sim_step(sim);
    cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 3);
    char w[4096];
    cr_expect_geq(tc_sim_warnings(sim, w, sizeof w), 3);
    cr_expect(strstr(w, "hit the 1-iteration cap: |f| = ") != NULL, "%s", w);
    tc_sim_free(sim);
}

Test(ip, planar_only_methods_skip_3d_scenes_with_a_reason) {
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "convex", NULL), TC_OK);
    cr_assert_str_eq(m.spec, "convex/single-level");
    tc_scene sc;
    const double h[3] = {0.1, 0.1, 0.1}, pos[3] = {0, 0, 0.1};
    cr_assert_eq(tc_scene_ground(&sc, G, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_box(&sc, "cube", h, 1, pos, NULL, NULL), TC_OK);
    cr_expect_not(tc_method_can_run(&m, TC_CAP_DYNAMICS, tc_scene_shapes(&sc)));
    char why[256];
    tc_method_why_not(&m, TC_CAP_DYNAMICS, tc_scene_shapes(&sc), why, sizeof why);
    cr_expect(strstr(why, "bodies moving in 3-D") != NULL, "%s", why);
    /* and an integrator cannot take a model without forces */
    cr_expect_eq(tc_method_parse(&m, "convex/rk4", NULL), TC_EUNSUP);
}
