/* SPDX-License-Identifier: MIT */
/* E3: the pressure-field force of a rigid sinusoid, quadrature against the closed form */
#include <criterion/criterion.h>
#include <math.h>

#include "experiments/e3.h"

Test(e3, pfc_force_matches_its_closed_form) {
    const double lambda = 2 * M_PI / 3;
    for (double eta = 0; eta < 0.35; eta += 0.0415)
        for (double d = 0.01; d <= 0.8; d += 0.0371) {
            double q = e3_pfc_force(eta, lambda, 2.5, d, 20000), x = e3_pfc_force_exact(eta, lambda, 2.5, d);
            cr_expect_leq(fabs(q - x), 1e-6 * x + 1e-12, "eta %g d %g: %g vs %g", eta, d, q, x);
        }
}

Test(e3, flat_layer_is_linear_and_sinusoid_touches_at_its_crest) {
    const double lambda = 2 * M_PI / 3;
    /* eta = 0: uniform pressure E d over the period */
    cr_expect_float_eq(e3_pfc_force_exact(0, lambda, 1, 0.4), 0.4 * lambda, 1e-15);
    /* just after first touch the contact patch is tiny: the force grows like d^(3/2) */
    double f1 = e3_pfc_force_exact(0.333, lambda, 1, 1e-4), f2 = e3_pfc_force_exact(0.333, lambda, 1, 4e-4);
    cr_expect_float_eq(f2 / f1, 8.0, 0.01);
    /* once the troughs touch, every extra depth adds E lambda */
    double g1 = e3_pfc_force_exact(0.2, lambda, 1, 0.5), g2 = e3_pfc_force_exact(0.2, lambda, 1, 0.6);
    cr_expect_float_eq(g2 - g1, 0.1 * lambda, 1e-12);
}
