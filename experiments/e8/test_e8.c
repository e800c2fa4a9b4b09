/* SPDX-License-Identifier: MIT */
/* E8: the landscapes' initial states and their derivatives, and the smoothness measures telling
 * a continuous gradient from a jump and a flat one (and failing on the wrong one) */
#include <criterion/criterion.h>
#include <math.h>

#include "experiments/e8/e8.h"

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
