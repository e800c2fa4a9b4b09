/* SPDX-License-Identifier: MIT */
/* LCP time stepping (lcp-lemke, lcp-pgs): Siconos solutions of random LCPs, a block resting and
 * sliding on a plane, the inner-solver counters */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

#include "math/tc_vec.h"
#include "solvers/tc_lcp.h"
#include "sim/tc_sim.h"
#include "test_box_plane.h"

/* ---------------------------------------------------------------------------------------------
 * random LCPs through Siconos */

/* solve LCP(q, M) (M column-major n x n) with a Siconos solver id; returns info, sets iters */
static int siconos_solve(int id, int n, double *M, double *q, double *z, double *w, int *iters,
                         int snap_bits) {
    if (snap_bits) {
        /* as solver_lcp.c: M rounded to the grid 2^-snap_bits of its largest entry */
        double mx = 0;
        for (int i = 0; i < n * n; i++)
            mx = fmax(mx, fabs(M[i]));
        int e;
        frexp(mx, &e);
        double h = ldexp(1.0, e - snap_bits);
        for (int i = 0; i < n * n; i++)
            M[i] = nearbyint(M[i] / h) * h;
    }
    NumericsMatrix *nm = NM_create_from_data(NM_DENSE, n, n, M);
    SolverOptions *opt = solver_options_create(id);
    opt->iparam[SICONOS_IPARAM_MAX_ITER] = 200000;
    opt->dparam[SICONOS_DPARAM_TOL] = 1e-10;
    LinearComplementarityProblem lcp = {n, nm, q};
    memset(z, 0, (size_t)n * sizeof *z);
    opt->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
    int info = linearComplementarity_driver(&lcp, z, w, opt);
    *iters = opt->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(opt);
    free(opt);
    NM_free_not_dense(nm);
    return info;
}

/* lcp-lemke's attempts, as the solvers make them (tc_lcp: Lemke on M rounded and as is, then
 * its Newton and regularised fallbacks) until z solves the unrounded LCP to 1e-10; returns the
 * attempt that did (1-based), 0 when none did */
static int lemke_ladder(int n, const double *M, const double *q, double *z, int *iters) {
    tc_lcp *l;
    cr_assert_eq(tc_lcp_alloc(&l, n, SICONOS_LCP_LEMKE, 200000, 1e-10, 1), TC_OK);
    memcpy(l->M, M, (size_t)n * n * sizeof *M);
    memcpy(l->q, q, (size_t)n * sizeof *q);
    tc_lcp_solve(l, n);
    memcpy(z, l->z, (size_t)n * sizeof *z);
    *iters = (int)l->iters;
    int found = l->attempt;
    tc_lcp_free(l);
    return found;
}

/* the worst violation of z >= 0, w >= 0 and min(z_i, w_i) = 0 with w = Mz + q recomputed here,
 * z taken to w's units by |M|_inf, all relative to |q|_inf (the data, so that a huge wrong z
 * cannot make its own errors look small) */
static double lcp_violation(int n, const double *M, const double *q, const double *z) {
    double mnorm = 0, qmax = 0, worst = 0;
    for (int i = 0; i < n; i++) {
        double row = 0;
        for (int j = 0; j < n; j++)
            row += fabs(M[(size_t)j * n + i]);
        mnorm = fmax(mnorm, row);
        qmax = fmax(qmax, fabs(q[i]));
    }
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++)
            w += M[(size_t)j * n + i] * z[j];
        double zs = z[i] * mnorm;
        if (!isfinite(zs) || !isfinite(w)) return INFINITY;
        worst = fmax(worst, fmax(fmax(-zs, -w), fmin(fabs(zs), fabs(w))) / qmax);
    }
    return worst;
}

#define LCP_TOL 1e-9 /* relative violation accepted (measured: see the logs, <= 1e-13) */

/* symmetric positive definite M = B^T B / n + 0.1 I (plus a skew part when skew): P-matrices */
static void random_pd(gsl_rng *r, int n, int skew, double *M) {
    double *B = malloc((size_t)n * n * sizeof *B);
    for (int i = 0; i < n * n; i++)
        B[i] = gsl_ran_gaussian(r, 1.0);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += B[k * n + i] * B[k * n + j];
            M[(size_t)j * n + i] = s / n + (i == j ? 0.1 : 0);
        }
    if (skew)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double a = gsl_ran_gaussian(r, 1.0) / sqrt(n);
                M[(size_t)j * n + i] += a;
                M[(size_t)i * n + j] -= a;
            }
    free(B);
}

Test(lcp, siconos_solves_random_positive_definite_lcps) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20260522);
    static const int sizes[] = {5, 12, 25, 40, 60};
    double worst[2] = {0, 0}, worst_skew = 0;
    long long it[2] = {0, 0};
    for (int si = 0; si < 5; si++)
        for (int rep = 0; rep < 4; rep++) {
            int n = sizes[si];
            double *M = malloc((size_t)n * n * sizeof *M), *M2 = malloc((size_t)n * n * sizeof *M),
                   *q = malloc((size_t)n * sizeof *q), *z = malloc((size_t)n * sizeof *z),
                   *w = malloc((size_t)n * sizeof *w);
            /* symmetric: both Lemke and PGS apply */
            random_pd(r, n, 0, M);
            for (int i = 0; i < n; i++)
                q[i] = gsl_ran_gaussian(r, 1.0);
            static const int ids[2] = {SICONOS_LCP_LEMKE, SICONOS_LCP_PGS};
            for (int s = 0; s < 2; s++) {
                int iters;
                memcpy(M2, M, (size_t)n * n * sizeof *M);
                cr_assert_eq(siconos_solve(ids[s], n, M2, q, z, w, &iters, 0), 0, "solver %d, n %d",
                             ids[s], n);
                cr_assert_gt(iters, 0);
                it[s] += iters;
                double v = lcp_violation(n, M, q, z);
                worst[s] = fmax(worst[s], v);
                cr_assert_lt(v, LCP_TOL, "solver %d, n %d: violation %g", ids[s], n, v);
            }
            /* non-symmetric positive definite (a P-matrix): Lemke */
            random_pd(r, n, 1, M);
            for (int i = 0; i < n; i++)
                q[i] = gsl_ran_gaussian(r, 1.0);
            int iters;
            cr_assert_eq(siconos_solve(SICONOS_LCP_LEMKE, n, M, q, z, w, &iters, 0), 0);
            double v = lcp_violation(n, M, q, z);
            worst_skew = fmax(worst_skew, v);
            cr_assert_lt(v, LCP_TOL, "lemke, skew, n %d: violation %g", n, v);
            free(M);
            free(M2);
            free(q);
            free(z);
            free(w);
        }
    cr_log_info("random PD LCPs: worst violation lemke %.2g, pgs %.2g, lemke non-symmetric %.2g; "
                "iterations lemke %lld, pgs %lld over 20 each",
                worst[0], worst[1], worst_skew, it[0], it[1]);
    gsl_rng_free(r);
}

/* unit quaternion, uniformly random */
static void random_quat(gsl_rng *r, double q[4]) {
    double l = 0;
    for (int i = 0; i < 4; i++) {
        q[i] = gsl_ran_gaussian(r, 1.0);
        l += q[i] * q[i];
    }
    for (int i = 0; i < 4; i++)
        q[i] /= sqrt(l);
}

/* the contact LCP of docs/solvers.md built independently from a random configuration: free boxes
 * of random size, density and orientation, random contacts (points, normals, body pairs) */
Test(lcp, lemke_solves_random_contact_lcps_and_pgs_refuses_them) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    const int k = 4, nbox = 3;
    double worst = 0;
    long long pivots = 0;
    int raw_fails = 0, attempts[9] = {0};
    for (int rep = 0; rep < 200; rep++) {
        tc_scene sc = tc_default_scene();
        tc_body_desc fl = tc_default_body("floor", tc_plane());
        cr_assert_eq(tc_scene_add(&sc, &fl, 0, NULL), TC_OK);
        for (int b = 0; b < nbox; b++) {
            char name[16];
            snprintf(name, sizeof name, "box%d", b);
            tc_body_desc bx = tc_default_body(name, tc_box(0.05 + 0.5 * gsl_rng_uniform(r),
                                                           0.05 + 0.5 * gsl_rng_uniform(r),
                                                           0.05 + 0.5 * gsl_rng_uniform(r)));
            bx.joint = TC_JOINT_FREE;
            for (int i = 0; i < 3; i++)
                bx.pos[i] = gsl_ran_flat(r, -1, 1);
            random_quat(r, bx.quat);
            cr_assert_eq(tc_scene_add(&sc, &bx, gsl_ran_flat(r, 100, 3000), NULL), TC_OK);
        }
        tc_system sys;
        tc_system_init(&sys, &sc);
        int nv = sys.nv;
        double q0[64], v0[64];
        tc_system_initial_state(&sys, q0, v0);
        tc_body_state bs[8];
        tc_system_kinematics(&sys, 0, q0, NULL, bs);
        int nc = 1 + (int)gsl_rng_uniform_int(r, 10), m = nc * (k + 1), n = nc * (k + 2);
        double mu = gsl_ran_flat(r, 0.1, 1.0);
        double *J = calloc((size_t)m * nv, sizeof *J), *AJ = calloc((size_t)m * nv, sizeof *AJ),
               *M = calloc((size_t)n * n, sizeof *M), *M2 = calloc((size_t)n * n, sizeof *M),
               *qv = calloc((size_t)n, sizeof *qv), *z = calloc((size_t)n, sizeof *z),
               *w = calloc((size_t)n, sizeof *w), vs[64];
        for (int i = 0; i < nv; i++)
            vs[i] = gsl_ran_gaussian(r, 1.0);
        for (int i = 0; i < nc; i++) {
            /* a pair (a, b), a != b, at least one of them a box; the floor (0) has no dofs */
            int a = (int)gsl_rng_uniform_int(r, nbox + 1), b;
            do
                b = 1 + (int)gsl_rng_uniform_int(r, nbox);
            while (b == a);
            double p[3], nrm[3], t1[3], t2[3];
            for (int j = 0; j < 3; j++)
                p[j] = gsl_ran_flat(r, -1, 1);
            gsl_ran_dir_3d(r, &nrm[0], &nrm[1], &nrm[2]);
            /* any orthonormal tangent pair */
            double e[3] = {1, 0, 0};
            if (fabs(nrm[0]) > 0.6) {
                e[0] = 0;
                e[1] = 1;
            }
            tc_v3_cross(t1, nrm, e);
            tc_v3_scale(t1, t1, 1 / tc_v3_norm(t1));
            tc_v3_cross(t2, nrm, t1);
            tc_system_point_jacobian(&sys, bs, b, p, nrm, 1, J + (size_t)i * nv);
            tc_system_point_jacobian(&sys, bs, a, p, nrm, -1, J + (size_t)i * nv);
            for (int j = 0; j < k; j++) {
                double th = 2 * M_PI * j / k, d[3];
                for (int x = 0; x < 3; x++)
                    d[x] = cos(th) * t1[x] + sin(th) * t2[x];
                double *row = J + (size_t)(nc + i * k + j) * nv;
                tc_system_point_jacobian(&sys, bs, b, p, d, 1, row);
                tc_system_point_jacobian(&sys, bs, a, p, d, -1, row);
            }
        }
        for (int i = 0; i < m; i++) {
            memcpy(AJ + (size_t)i * nv, J + (size_t)i * nv, (size_t)nv * sizeof *J);
            tc_system_minv(&sys, bs, AJ + (size_t)i * nv);
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                double s = 0;
                for (int x = 0; x < nv; x++)
                    s += J[(size_t)i * nv + x] * AJ[(size_t)j * nv + x];
                M[(size_t)j * n + i] = s;
            }
            for (int x = 0; x < nv; x++)
                qv[i] += J[(size_t)i * nv + x] * vs[x];
        }
        for (int i = 0; i < nc; i++) {
            M[(size_t)i * n + m + i] = mu;
            for (int j = 0; j < k; j++) {
                M[(size_t)(m + i) * n + nc + i * k + j] = 1;
                M[(size_t)(nc + i * k + j) * n + m + i] = -1;
            }
        }
        int iters, nonneg = 1;
        for (int i = 0; i < n; i++)
            nonneg &= qv[i] >= 0;
        /* unrounded, once (counted only); then as the solver does it */
        memcpy(M2, M, (size_t)n * n * sizeof *M);
        if (siconos_solve(SICONOS_LCP_LEMKE, n, M2, qv, z, w, &iters, 0) ||
            !(lcp_violation(n, M, qv, z) < LCP_TOL))
            raw_fails++;
        int att = lemke_ladder(n, M, qv, z, &iters);
        cr_assert_gt(att, 0, "rep %d (n %d): no attempt solved it", rep, n);
        attempts[att - 1]++;
        pivots += iters;
        double v = lcp_violation(n, M, qv, z);
        worst = fmax(worst, v);
        cr_assert_lt(v, LCP_TOL, "rep %d (n %d): violation %g", rep, n, v);
        /* PGS stops at the zero diagonal of the gamma rows (info 2, "vanishing diagonal") */
        if (!nonneg) {
            memcpy(M2, M, (size_t)n * n * sizeof *M);
            cr_assert_eq(siconos_solve(SICONOS_LCP_PGS, n, M2, qv, z, w, &iters, 0), 2);
        }
        free(J);
        free(AJ);
        free(M);
        free(M2);
        free(qv);
        free(z);
        free(w);
    }
    cr_log_info(
        "random contact LCPs: worst violation %.2g, %lld Lemke pivots over 200; solved at "
        "attempt 1..9: %d %d %d %d %d %d %d %d %d; a single unrounded Lemke failed %d of 200",
        worst, pivots, attempts[0], attempts[1], attempts[2], attempts[3], attempts[4], attempts[5],
        attempts[6], attempts[7], attempts[8], raw_fails);
    gsl_rng_free(r);
}

/* ---------------------------------------------------------------------------------------------
 * the block on a plane under the test-local box-plane model (tests/solvers/test_box_plane.h) */

/* the largest |entry| of x[n] */
static double maxabs(const double *x, int n) {
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

/* run the block for steps; returns the largest position drift and speed seen at any step */
static void rest(const char *solver, double mu, int steps, double *drift, double *speed,
                 tc_sim_stats *stats) {
    tc_scene sc = block_scene(mu, 0);
    tc_method m = method(solver);
    tc_sim *sim;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, &err), TC_OK, "%s", err.msg);
    double q0[7];
    memcpy(q0, tc_sim_q(sim), sizeof q0);
    *drift = *speed = 0;
    for (int i = 0; i < steps; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", solver, i);
        const double *q = tc_sim_q(sim);
        for (int j = 0; j < 7; j++)
            *drift = fmax(*drift, fabs(q[j] - q0[j]));
        *speed = fmax(*speed, maxabs(tc_sim_v(sim), 6));
    }
    *stats = *tc_sim_get_stats(sim);
    tc_sim_free(sim);
}

/* 10 s at 1 ms: the resting block neither sinks nor creeps. Lemke with friction 0.5, PGS
 * frictionless (mu = 0: the normal rows only, which PGS solves) */
Test(lcp, block_at_rest_does_not_drift_over_10_s) {
    static const struct {
        const char *solver;
        double mu;
    } cases[] = {{"lcp-lemke", 0.5}, {"lcp-lemke", 0.0}, {"lcp-pgs", 0.0}};
    for (int c = 0; c < 3; c++) {
        double drift, speed;
        tc_sim_stats st;
        rest(cases[c].solver, cases[c].mu, 10000, &drift, &speed, &st);
        cr_log_info("%s mu %g: drift %.3g m, speed %.3g, %lld iterations in %lld steps, %lld fails",
                    cases[c].solver, cases[c].mu, drift, speed, st.solver_iters, st.steps,
                    st.solver_fails);
        cr_assert_lt(drift, 1e-9, "%s: drift %g m", cases[c].solver, drift);
        cr_assert_lt(speed, 1e-9, "%s: speed %g", cases[c].solver, speed);
        /* every step solves a non-trivial LCP (gravity pushes into the plane): >= 1 iteration */
        cr_assert_geq(st.solver_iters, st.steps, "%s", cases[c].solver);
        cr_assert_eq(st.solver_fails, 0, "%s", cases[c].solver);
    }
}

/* PGS cannot take the friction rows (zero diagonal): each step counts a failure and falls back
 * to the frictionless normal rows, so the block still rests, and slides on without slowing */
Test(lcp, pgs_counts_a_failure_per_friction_solve_and_falls_back) {
    double drift, speed;
    tc_sim_stats st;
    rest("lcp-pgs", 0.5, 1000, &drift, &speed, &st);
    cr_assert_lt(drift, 1e-9);
    cr_assert_lt(speed, 1e-9);
    cr_assert_eq(st.solver_fails, st.steps);
    tc_scene sc = block_scene(0.5, 1.0);
    tc_method m = method("lcp-pgs");
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
    for (int i = 0; i < 300; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    cr_assert_float_eq(tc_sim_v(sim)[0], 1.0, 1e-12);
    cr_assert_eq(tc_sim_get_stats(sim)->solver_fails, 300);
    tc_sim_free(sim);
}

/* sliding along x = t1, a vertex direction of the k = 4 pyramid (the opposing direction -t1 is
 * one of the D columns), where the linearised cone is exact: the discrete velocity is
 * v_n = max(v0 - n mu g dt, 0) and the position x_n = sum of dt v_i, to rounding */
Test(lcp, sliding_block_decelerates_at_mu_g_and_stops) {
    const double mu = 0.5, g = 9.81, v0 = 1.0;
    tc_scene sc = block_scene(mu, v0);
    tc_method m = method("lcp-lemke");
    tc_sim *sim;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, &err), TC_OK, "%s", err.msg);
    double x0 = tc_sim_q(sim)[0], x = x0, verr = 0, xerr = 0, other = 0;
    int nstop = -1;
    for (int i = 1; i <= 1000; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        const double *q = tc_sim_q(sim), *v = tc_sim_v(sim);
        double vc = fmax(v0 - i * mu * g * DT, 0.0);
        x += DT * vc;
        verr = fmax(verr, fabs(v[0] - vc));
        xerr = fmax(xerr, fabs(q[0] - x));
        /* no lift, no sideways motion, no rotation */
        other = fmax(other, fmax(fabs(q[2] - 0.5), maxabs(v + 1, 5)));
        if (nstop < 0 && fabs(v[0]) < 1e-12) nstop = i;
    }
    int ncl = (int)ceil(v0 / (mu * g * DT));
    cr_log_info("sliding: |v - closed form| %.3g m/s, |x - closed form| %.3g m, other %.3g, "
                "stopped at step %d (closed form %d), stop distance %.6f m (continuous %.6f)",
                verr, xerr, other, nstop, ncl, tc_sim_q(sim)[0] - x0, v0 * v0 / (2 * mu * g));
    cr_assert_lt(verr, 1e-12, "velocity off the mu g line by %g", verr);
    cr_assert_lt(xerr, 1e-12, "position off the closed form by %g", xerr);
    cr_assert_lt(other, 1e-12, "lift, sideways speed or spin %g", other);
    cr_assert_eq(nstop, ncl);
    /* the stop distance: the continuous v0^2 / (2 mu g) within one step's travel */
    cr_assert_lt(fabs(tc_sim_q(sim)[0] - x0 - v0 * v0 / (2 * mu * g)), v0 * DT);
    const tc_sim_stats *st = tc_sim_get_stats(sim);
    cr_assert_gt(st->solver_iters, 0);
    cr_assert_eq(st->solver_fails, 0, "%lld failures", st->solver_fails);
    tc_sim_free(sim);
}

/* more contacts than max_contacts: the first ones are used and the step counts a failure */
Test(lcp, contact_overflow_counts_a_failure) {
    tc_scene sc = block_scene(0.5, 0);
    tc_method m = method("lcp-lemke");
    cr_assert_eq(tc_params_set(&m.sparams, "max_contacts", 3, NULL), TC_OK);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
    for (int i = 0; i < 10; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    cr_assert_eq(tc_sim_get_stats(sim)->solver_fails, 10);
    /* three corners still hold the block up */
    cr_assert_lt(fabs(tc_sim_q(sim)[2] - 0.5), 1e-9);
    tc_sim_free(sim);
}

/* the specs parse through the registry: a model without contacts is refused */
Test(lcp, solvers_are_registered_and_need_contacts) {
    cr_assert_not_null(tc_solver_find("lcp-lemke"));
    cr_assert_not_null(tc_solver_find("lcp-pgs"));
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley/lcp-lemke", NULL), TC_EUNSUP);
}

/* a block dropped from 2 cm: with the gap term it lands exactly on the plane (no penetration at
 * any step, at rest after) since a contact inside the margin may close its gap within one step;
 * without it the block stops where its corners first came within the 1 mm margin */
Test(lcp, dropped_block_lands_on_the_plane_with_the_gap_term) {
    for (int gap = 1; gap >= 0; gap--) {
        tc_scene sc = block_scene(0.5, 0);
        sc.body[1].pos[2] = 0.52;
        tc_method m = method("lcp-lemke");
        cr_assert_eq(tc_params_set(&m.sparams, "gap_term", gap, NULL), TC_OK);
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
        double zmin = INFINITY;
        for (int i = 0; i < 500; i++) {
            cr_assert_eq(tc_sim_step(sim), TC_OK);
            zmin = fmin(zmin, tc_sim_q(sim)[2]);
        }
        double h = tc_sim_q(sim)[2] - 0.5, speed = maxabs(tc_sim_v(sim), 6);
        cr_log_info("drop, gap term %d: rests %.3g m above the plane (lowest %.3g), speed %.3g",
                    gap, h, zmin - 0.5, speed);
        cr_assert_lt(speed, 1e-9);
        cr_assert_geq(zmin - 0.5, -1e-12, "penetrated by %g m", 0.5 - zmin);
        if (gap)
            cr_assert_lt(fabs(h), 1e-12);
        else
            cr_assert(h > 0 && h <= MARGIN, "stopped at %g m", h);
        cr_assert_eq(tc_sim_get_stats(sim)->solver_fails, 0);
        tc_sim_free(sim);
    }
}

/* the same run twice gives the same bits (no threads, fixed Siconos attempts) */
Test(lcp, runs_are_bitwise_repeatable) {
    double out[2][13];
    for (int r = 0; r < 2; r++) {
        tc_scene sc = block_scene(0.3, 0.7);
        sc.body[1].omega[2] = 0.5;
        tc_method m = method("lcp-lemke");
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
        for (int i = 0; i < 400; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK);
        memcpy(out[r], tc_sim_q(sim), 7 * sizeof(double));
        memcpy(out[r] + 7, tc_sim_v(sim), 6 * sizeof(double));
        const tc_sim_stats *st = tc_sim_get_stats(sim);
        cr_log_info("sliding and spinning block: %lld pivots in 400 steps, %lld failures",
                    st->solver_iters, st->solver_fails);
        tc_sim_free(sim);
    }
    double diff = 0;
    for (int i = 0; i < 13; i++)
        diff = fmax(diff, fabs(out[0][i] - out[1][i]));
    cr_log_info("sliding block, drift_rate 0 and 2: largest difference %.2g", diff);
    cr_assert_lt(diff, 1e-14);
}

/* drift correction (drift_rate, post-stabilisation): a cube started d0 = 1 mm and 1 cm inside
 * the plane. Without it (0, the default) the LCP holds it at zero approach speed and the depth
 * stays d0 to rounding; with it each step takes min(drift_rate dt, 1) of the linearised depth
 * out along M^-1 N^T, which for a flat cube is a pure lift: d_k = d0 (1 - c)^k exactly, the
 * velocities untouched (no separating speed, so no popping); drift_rate 1e6 (c = 1) takes it
 * all out in one step and never lifts it off the plane */
Test(lcp, drift_rate_takes_a_penetration_out_at_its_rate) {
    static const double d0[2] = {1e-3, 1e-2}, rate[3] = {0.0, 2.0, 1e6};
    for (int i = 0; i < 2; i++)
        for (int r = 0; r < 3; r++) {
            tc_scene sc = block_scene(0.5, 0);
            sc.body[1].pos[2] = 0.5 - d0[i];
            tc_method m = method("lcp-lemke");
            cr_assert_eq(tc_params_set(&m.sparams, "drift_rate", rate[r], NULL), TC_OK);
            tc_sim *sim;
            cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
            const double c = fmin(rate[r] * DT, 1.0);
            double worst = 0, speed = 0, lowest = INFINITY;
            for (int k = 1; k <= 3000; k++) {
                cr_assert_eq(tc_sim_step(sim), TC_OK);
                double d = 0.5 - tc_sim_q(sim)[2], want = d0[i] * pow(1 - c, k);
                worst = fmax(worst, fabs(d - want));
                lowest = fmin(lowest, d);
                speed = fmax(speed, maxabs(tc_sim_v(sim), 6));
            }
            double d = 0.5 - tc_sim_q(sim)[2];
            cr_log_info("started %g m deep, drift_rate %g /s: %.4g m after 3 s (closed form "
                        "%.4g), worst gap to it %.2g m, speed %.2g m/s",
                        d0[i], rate[r], d, d0[i] * pow(1 - c, 3000), worst, speed);
            cr_expect_lt(worst, 1e-12 + 1e-9 * d0[i], "off d0 (1 - c)^k by %g m", worst);
            cr_expect_lt(speed, 1e-9, "post-stabilisation gave a speed of %g m/s", speed);
            cr_expect_geq(lowest, -1e-12, "lifted %g m off the plane", -lowest);
            if (rate[r] == 0)
                cr_expect(fabs(d - d0[i]) < 1e-12, "no correction: stays %g", d);
            else
                cr_expect_lt(d, 0.01 * d0[i], "comes out: %g m left of %g", d, d0[i]);
            cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
            tc_sim_free(sim);
        }
}

/* the drift correction leaves a block that does not penetrate as it was: the sliding block of
 * sliding_block_decelerates_at_mu_g_and_stops, its corners exactly on the plane, moves with
 * drift_rate 2 as without, to rounding (a corner's linearised depth after a step may be a
 * rounding error above 0, and a correction of that size is made) */
Test(lcp, drift_rate_changes_nothing_without_penetration) {
    double out[2][13];
    for (int r = 0; r < 2; r++) {
        tc_scene sc = block_scene(0.5, 1.0);
        tc_method m = method("lcp-lemke");
        cr_assert_eq(tc_params_set(&m.sparams, "drift_rate", 2.0 * r, NULL), TC_OK);
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
        for (int i = 0; i < 300; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK);
        memcpy(out[r], tc_sim_q(sim), 7 * sizeof(double));
        memcpy(out[r] + 7, tc_sim_v(sim), 6 * sizeof(double));
        tc_sim_free(sim);
    }
    double diff = 0;
    for (int i = 0; i < 13; i++)
        diff = fmax(diff, fabs(out[0][i] - out[1][i]));
    cr_log_info("sliding block, drift_rate 0 and 2: largest difference %.2g", diff);
    cr_assert_lt(diff, 1e-14);
}
