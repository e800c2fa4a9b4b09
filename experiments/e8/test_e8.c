/* SPDX-License-Identifier: MIT */
/* E8: the landscapes' initial states and their derivatives, and the smoothness measures telling
 * a continuous gradient from a jump and a flat one (and failing on the wrong one) */
#include <criterion/criterion.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#include "experiments/e8/e8.h"
#include "scenes/tc_scenes.h"

static const e8_box box = {0.1, 1.0, 9.81, 0.5, 0.05};

Test(e8, initial_states_touch_and_their_derivatives_match_differences) {
    const e8_sweep w = {0.7, 0.9, 1.0, 1.0, 1e-6};
    for (int sweep = 0; sweep < E8_NSWEEP; sweep++)
        for (double x0 = 0.7; x0 <= 0.9; x0 += 0.02) {
            double q[3], v[3], d[6], qp[3], qm[3], dd[6];
            e8_initial(&box, sweep, &w, x0, q, v, d);
            e8_initial(&box, sweep, &w, x0 + 1e-6, qp, v, dd);
            e8_initial(&box, sweep, &w, x0 - 1e-6, qm, v, dd);
            for (int i = 0; i < 3; i++)
                cr_expect_leq(fabs((qp[i] - qm[i]) / 2e-6 - d[i]), 1e-8, "sweep %d x0 %g q%d",
                              sweep, x0, i);
            /* the tip sweep stands the box on its corner: the lowest corner at the ground */
            if (sweep == E8_TIP) cr_expect_float_eq(q[1] - e8_lowest(0.1, x0), 0, 1e-15);
        }
    /* a square's corner sits sqrt(2) half below its centre at pi / 4, half when flat */
    cr_expect_float_eq(e8_lowest(0.1, M_PI / 4), 0.1 * sqrt(2), 1e-15);
    cr_expect_float_eq(e8_lowest(0.1, 0), 0.1, 1e-15);
}

Test(e8, smoothness_measures_tell_continuous_jumping_and_flat_gradients) {
    enum { N = 41 };
    double x[N], smooth[N], jump[N], flat[N];
    for (int i = 0; i < N; i++) {
        x[i] = -1 + 2.0 * i / (N - 1);
        smooth[i] = sin(2 * x[i]);
        jump[i] = x[i] < 0.013 ? 0 : 1; /* a step between samples */
        flat[i] = x[i] < 0 ? 0 : x[i];
    }
    /* the jump ratio: 2 for a continuous gradient, about 1 for a jump */
    cr_expect_float_eq(e8_grad_jump_ratio(x, smooth, N), 2, 0.1);
    cr_expect_float_eq(e8_grad_jump_ratio(x, jump, N), 1, 0.01);
    /* total variation: a unit step's is 1, sin(2x)'s on [-1, 1] 4 - 2 sin 2 (it turns at
     * +-pi / 4; the samples miss the peaks by 2e-3) */
    cr_expect_float_eq(e8_total_variation(jump, N), 1, 1e-15);
    cr_expect_float_eq(e8_total_variation(smooth, N), 4 - 2 * sin(2), 3e-3);
    /* the zero fraction counts exact zeros: 21 of 41 for the ramp (x = 0 too), one for the
     * sine's samples */
    cr_expect_float_eq(e8_zero_fraction(flat, N), 21.0 / N, 1e-15);
    cr_expect_float_eq(e8_zero_fraction(smooth, N), 1.0 / N, 1e-15); /* sin(0) at x = 0 */
}

/* (d): E2's T, a task on it (the finger's start from the scene) */
static e8_task plan_task(double seconds, int nway) {
    e8_task t = {.dt = 0.008, .seconds = seconds, .nway = nway, .length = 0.1, .reg = 1e-3};
    tc_t_pusher tp = tc_default_t_pusher();
    tc_t_pusher_start(&tp, t.start);
    t.goal[0] = 0.03;
    t.goal[1] = 0.06;
    t.goal[2] = 0.35;
    t.tol_pos = 0.01;
    t.tol_angle = 5 * M_PI / 180;
    return t;
}

Test(e8, plan_waypoints_interpolate_linearly_and_their_weights_are_the_derivative) {
    const e8_task t = plan_task(1.2, 3);
    const double p[6] = {0.1, 0.2, 0.3, -0.1, 0.5, 0.4};
    for (double time = 0; time <= 1.5; time += 0.05) {
        double w[4], sum = 0, target = 0;
        e8_plan_weights(&t, time, w);
        for (int i = 0; i < 4; i++) {
            cr_expect_geq(w[i], 0, "t %g w%d", time, i);
            sum += w[i];
        }
        cr_expect_float_eq(sum, 1, 1e-15, "t %g", time);
        /* the target's x: linear between the waypoints (at 0, 0.4, 0.8, 1.2 s), held after */
        target = w[0] * t.start[0];
        for (int i = 1; i < 4; i++)
            target += w[i] * p[2 * (i - 1)];
        const double knots[4] = {t.start[0], 0.1, 0.3, 0.5};
        int seg = time >= 1.2 ? 2 : (int)(time / 0.4);
        double f = time >= 1.2 ? 1 : time / 0.4 - seg;
        cr_expect_float_eq(target, (1 - f) * knots[seg] + f * knots[seg + 1], 1e-12, "t %g", time);
    }
    /* a waypoint moves the target only on its two legs: zero weight elsewhere */
    double w[4];
    e8_plan_weights(&t, 0.2, w);
    cr_expect_float_eq(w[0], 0.5, 1e-12);
    cr_expect_eq(w[2], 0);
    cr_expect_eq(w[3], 0);
}

Test(e8, plan_loss_gradient_matches_differences) {
    const e8_task t = plan_task(1.0, 2);
    double pose[3] = {0.01, 0.09, 0.2}, p[4] = {0.01, -0.1, 0.03, -0.05}, dl[3], dp[4];
    e8_plan_loss(&t, pose, p, dl, dp);
    /* the pose's 3 and the waypoints' 4 coordinates, one central difference each */
    double v[7];
    memcpy(v, pose, sizeof pose);
    memcpy(v + 3, p, sizeof p);
    for (int i = 0; i < 7; i++) {
        double a[7], b[7];
        memcpy(a, v, sizeof a);
        memcpy(b, v, sizeof b);
        a[i] += 1e-6;
        b[i] -= 1e-6;
        double d =
            (e8_plan_loss(&t, a, a + 3, NULL, NULL) - e8_plan_loss(&t, b, b + 3, NULL, NULL)) /
            2e-6;
        cr_expect_float_eq(i < 3 ? dl[i] : dp[i - 3], d, 1e-9,
                           "coordinate %d (pose 0-2, waypoints 3-6)", i);
    }
}

Test(e8, plan_chain_gradient_of_scm_matches_rollout_differences) {
    /* SCM as E2 runs it, a 0.4 s push whose finger reaches the stem after about 0.15 s */
    const e8_task t = plan_task(0.4, 2);
    tc_t_pusher tp = tc_default_t_pusher();
    tc_scene sc;
    tc_method m;
    tc_error err = {0};
    cr_assert_eq(tc_scene_t_pusher(&sc, &tp, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_parse(&m, "scm", &err), TC_OK, "%s", err.msg);
    const char *name[] = {"k", "eps1_rel", "eps2", "eps3", "spacing"};
    const double value[] = {208, 0.1, 0.002, 0.001, 0.08};
    for (int i = 0; i < 5; i++)
        cr_assert_eq(tc_method_set(&m, name[i], value[i], &err), TC_OK, "%s", err.msg);
    const double p[4] = {t.start[0] + 0.01, t.start[1] + 0.07, t.start[0] + 0.015,
                         t.start[1] + 0.14};
    double pose[3], dpose[12];
    long long steps = 0;
    cr_assert_eq(e8_plan_rollout(&t, &sc, &m, p, pose, dpose, NULL, 0, &steps, &err), TC_OK, "%s",
                 err.msg);
    /* pushed: the T moved up and turned, so the chain ran through contact */
    cr_expect_gt(pose[1], 0.005, "y %g", pose[1]);
    cr_expect_gt(fabs(pose[2]), 1e-3, "theta %g", pose[2]);
    /* every step counted twice: the step and its analytic Jacobian */
    cr_expect_eq(steps, 2 * 50);
    /* Richardson central differences of the rollout (h = 1e-6 and h / 2): the contact's
     * curvature makes plain differences' error h^2 bound (2.4e-2 of the largest entry at 1e-5,
     * 2.4e-4 at 1e-6: the chain is their limit) */
    double scale = 0, worst = 0;
    for (int j = 0; j < 4; j++) {
        double d[2][3];
        for (int k = 0; k < 2; k++) {
            double a[4], b[4], pa[3], pb[3], h = 1e-6 / (1 + k);
            memcpy(a, p, sizeof a);
            memcpy(b, p, sizeof b);
            a[j] += h;
            b[j] -= h;
            cr_assert_eq(e8_plan_rollout(&t, &sc, &m, a, pa, NULL, NULL, 0, &steps, &err), TC_OK);
            cr_assert_eq(e8_plan_rollout(&t, &sc, &m, b, pb, NULL, NULL, 0, &steps, &err), TC_OK);
            for (int r = 0; r < 3; r++)
                d[k][r] = (pa[r] - pb[r]) / (2 * h);
        }
        for (int r = 0; r < 3; r++) {
            double rich = (4 * d[1][r] - d[0][r]) / 3;
            scale = fmax(scale, fabs(rich));
            worst = fmax(worst, fabs(rich - dpose[r * 4 + j]));
        }
    }
    /* the extrapolation's own error: rounding, about 1e-16 / 5e-7 of the pose, 1e-10 */
    cr_expect_gt(scale, 0.1, "the pose does not depend on the waypoints (%g)", scale);
    cr_expect_leq(worst / scale, 1e-7, "chain against differences: %g of %g", worst, scale);
}

/* a toy objective: a quadratic bowl centred at (0.3, -0.2, 0.1) */
static double bowl(void *ctx, const double *z, int *stop) {
    int *calls = ctx;
    ++*calls;
    *stop = 0;
    return (z[0] - 0.3) * (z[0] - 0.3) + 4 * (z[1] + 0.2) * (z[1] + 0.2) +
           (z[2] - 0.1) * (z[2] - 0.1);
}

Test(e8, cem_converges_on_a_quadratic_and_is_seeded) {
    double mean[3] = {0, 0, 0}, sd[3] = {0.5, 0.5, 0.5}, again[3] = {0, 0, 0},
           sd2[3] = {0.5, 0.5, 0.5};
    int calls = 0;
    cr_expect_eq(e8_cem(bowl, &calls, 3, mean, sd, 40, 10, 1e-4, 7, 60), 60);
    cr_expect_eq(calls, 60 * 40);
    cr_expect_float_eq(mean[0], 0.3, 1e-3);
    cr_expect_float_eq(mean[1], -0.2, 1e-3);
    cr_expect_float_eq(mean[2], 0.1, 1e-3);
    /* the same seed, the same bits */
    e8_cem(bowl, &calls, 3, again, sd2, 40, 10, 1e-4, 7, 60);
    cr_expect(!memcmp(mean, again, sizeof mean));
}

/* (c) on a closed-form toy, the unit step L = H(x) smoothed by w ~ N(0, sigma^2): F(x) =
 * Phi(x / sigma), so F'(x) = phi_sigma(x). Its exact gradient is 0 wherever it exists, so the
 * first-order estimate is 0 and its bias is phi_sigma(x) whatever the samples; the zeroth-order
 * one is unbiased */
static double phi_sigma(double x, double sigma) {
    return exp(-0.5 * x * x / (sigma * sigma)) / (sigma * sqrt(2 * M_PI));
}

Test(e8, reference_quadrature_of_a_step_and_a_parabola) {
    enum { N = 129 };
    const double sigma = 0.01, span = 4;
    double l[N], q[N], err, qerr;
    for (double x = -0.015; x <= 0.015; x += 0.005) {
        for (int k = 0; k < N; k++) {
            double w = e8_quad_node(k, N, span, sigma);
            l[k] = x + w > 0;
            q[k] = (x + w) * (x + w); /* F = x^2 + sigma^2: F' = 2 x */
        }
        cr_expect_eq(e8_quad_node(N / 2, N, span, sigma), 0.0);
        double f = e8_smoothed_grad(l, N, span, sigma, &err);
        /* the error estimate covers the true error, and both are small against F' (40 at 0) */
        cr_expect_leq(fabs(f - phi_sigma(x, sigma)), err, "x %g: %g vs %g (err %g)", x, f,
                      phi_sigma(x, sigma), err);
        cr_expect_leq(err, 0.05 * phi_sigma(0, sigma), "x %g: err %g", x, err);
        /* smooth: the rule is exact but for the tails beyond 4 sigma (2 x times 1.1e-3), which
         * the estimate covers */
        double fq = e8_smoothed_grad(q, N, span, sigma, &qerr);
        cr_expect_leq(fabs(fq - 2 * x), qerr, "x %g: %g (err %g)", x, fq, qerr);
        cr_expect_leq(qerr, 0.01 * sigma, "x %g", x);
    }
}

Test(e8, step_function_zeroth_order_unbiased_first_order_biased_by_phi) {
    enum { R = 400, M = 16 };
    const double sigma = 0.5, x = 0.3, ref = phi_sigma(x, sigma);
    double fe[R], ze[R], w[M], l[M], g[M], bias, std;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    for (int r = 0; r < R; r++) {
        for (int i = 0; i < M; i++) {
            w[i] = gsl_ran_gaussian(rng, sigma);
            l[i] = x + w[i] > 0;
            g[i] = 0; /* H' where it exists */
        }
        fe[r] = e8_first_order(g, M);
        ze[r] = e8_zeroth_order(w, l, M, 1.0, sigma); /* the baseline L(x) = H(0.3) = 1 */
    }
    gsl_rng_free(rng);
    /* first-order: all zero, biased by F' itself, no spread */
    e8_bias_std(fe, R, ref, &bias, &std);
    cr_expect_float_eq(bias, ref, 1e-15);
    cr_expect_eq(std, 0.0);
    /* zeroth-order: the bias within 4 standard errors of the mean, the spread that of one
     * sample over sqrt(M): one sample's variance is E[(H - 1)^2 w^2] / sigma^4 - F'^2 */
    e8_bias_std(ze, R, ref, &bias, &std);
    cr_expect_leq(bias, 4 * std / sqrt(R), "bias %g std %g", bias, std);
    cr_expect_gt(std, 0.0);
    /* E[H(-x - w) w^2] = sigma^2 (Phi(-x / sigma) + (x / sigma) phi(x / sigma)): w < -x */
    double z = x / sigma, tail = 0.5 * erfc(z / sqrt(2)) + z * exp(-0.5 * z * z) / sqrt(2 * M_PI);
    double sd = sqrt((tail / (sigma * sigma) - ref * ref) / M);
    cr_expect_float_eq(std, sd, 0.15 * sd, "std %g, theory %g", std, sd);
    /* a sign error or a missing 1 / sigma^2 would fail: the estimate of a single sample */
    double w1 = -0.4, l1 = 0;
    cr_expect_float_eq(e8_zeroth_order(&w1, &l1, 1, 1.0, sigma), 0.4 / (sigma * sigma), 1e-12);
}
