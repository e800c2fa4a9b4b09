/* SPDX-License-Identifier: MIT */
/* math layer: the branch-free exp and log1p, softplus, softmax, logsumexp */
#include <criterion/criterion.h>
#include <math.h>

#include "math/tc_smooth.h"
#include "math/tc_vec.h"

Test(math, exp_neg_matches_libm) {
    double worst = 0;
    for (int i = 0; i <= 200000; i++) {
        double x = -680.0 * i / 200000.0, e = exp(x);
        worst = fmax(worst, fabs(tc_exp_neg(x) - e) / e);
    }
    cr_expect_lt(worst, 5e-16, "relative error %g", worst);
    cr_expect_eq(tc_exp_neg(0.0), 1.0);
    cr_expect_eq(tc_exp_neg(-680.5), 0.0, "exactly zero below -680: no subnormals downstream");
    cr_expect_eq(tc_exp_neg(-1e6), 0.0);
}

Test(math, log1p_unit_is_relatively_accurate) {
    double worst = 0;
    for (int i = 0; i <= 100000; i++) {
        double e = pow(10.0, -30.0 + 30.0 * i / 100000.0);
        worst = fmax(worst, fabs(tc_log1p_unit(e) - log1p(e)) / log1p(e));
    }
    cr_expect_lt(worst, 1e-15, "relative error %g", worst);
}

Test(math, softplus_limits_and_derivative) {
    /* against the direct formula where it is safe, relu as eps -> 0, sigmoid as its slope */
    for (double x = -0.05; x <= 0.05; x += 0.001) {
        double ref = 0.01 * log1p(exp(x / 0.01));
        cr_expect_leq(fabs(tc_softplus(x, 0.01) - ref), 1e-15 * fmax(ref, 1e-300) + 1e-18);
        cr_expect_leq(fabs(tc_softplus(x, 1e-6) - fmax(x, 0)), 1e-6);
        double h = 1e-7, d = (tc_softplus(x + h, 0.01) - tc_softplus(x - h, 0.01)) / (2 * h);
        cr_expect_leq(fabs(d - tc_sigmoid(x, 0.01)), 1e-7);
    }
    cr_expect_eq(tc_softplus(1e3, 1e-3), 1e3);
    cr_expect_gt(tc_softplus(-0.01, 0.001), 0.0, "force at a distance stays positive");
}

Test(math, softmax_and_logsumexp) {
    double x[5] = {1, 2, 3, 1000, -1000}, w[5], s = 0;
    double lse = tc_softmax(w, x, 5, 1.0);
    for (int i = 0; i < 5; i++)
        s += w[i];
    cr_expect_float_eq(s, 1.0, 1e-15);
    cr_expect_float_eq(w[3], 1.0, 1e-15);
    cr_expect_float_eq(lse, tc_logsumexp(x, 5, 1.0), 1e-12);
    cr_expect_geq(tc_logsumexp(x, 3, 0.5), 3.0);
    cr_expect_float_eq(tc_logsumexp(x, 3, 1e-4), 3.0, 1e-9);
}

/* every order of three values, with ties, comes out ascending and a permutation of the input */
Test(math, sort_int_orders_every_permutation_of_three) {
    static const int sets[][3] = {{1, 2, 3}, {4, 4, 7}, {-2, 5, 5}, {9, 9, 9}};
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int s = 0; s < 4; s++)
        for (int p = 0; p < 6; p++) {
            int v[3] = {sets[s][perm[p][0]], sets[s][perm[p][1]], sets[s][perm[p][2]]};
            tc_sort_int(v, 3);
            for (int k = 0; k < 3; k++)
                cr_expect_eq(v[k], sets[s][k], "set %d, order %d, entry %d", s, p, k);
        }
}
