/* SPDX-License-Identifier: MIT */
/* geometry: AOPC sampling and the SSDF's convergence to the true signed distance */
#include <criterion/criterion.h>
#include <math.h>

#include "geom/tc_aopc.h"

Test(aopc, sphere_points_on_surface_with_radial_normals) {
    tc_shape s = {TC_SHAPE_SPHERE, {0.1, 0, 0}};
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, 0.01, NULL), TC_OK);
    cr_expect_eq(c.n, (int)ceil(4 * M_PI * 0.01 / 1e-4));
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < c.n; i++) {
        double p[3] = {c.px[i], c.py[i], c.pz[i]};
        cr_expect_float_eq(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 0.1, 1e-15);
        cr_expect_float_eq(c.nx[i] * 0.1, p[0], 1e-15);
        for (int k = 0; k < 3; k++) mean[k] += p[k] / c.n;
    }
    /* isotropy: the centroid of a uniform sampling is the centre (to O(1/n)) */
    for (int k = 0; k < 3; k++) cr_expect_lt(fabs(mean[k]), 0.1 * 2.0 / c.n);
    tc_aopc_free(&c);
}

Test(aopc, box_points_avoid_edges) {
    tc_shape s = {TC_SHAPE_BOX, {0.1, 0.05, 0.02}};
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, 0.02, NULL), TC_OK);
    /* 10x5 cells on the z faces, 10x2 on y, 5x2 on x, twice each */
    cr_expect_eq(c.n, 2 * (10 * 5 + 10 * 2 + 5 * 2));
    for (int i = 0; i < c.n; i++) {
        double p[3] = {c.px[i], c.py[i], c.pz[i]}, n[3] = {c.nx[i], c.ny[i], c.nz[i]};
        int on = 0;
        for (int k = 0; k < 3; k++) {
            if (fabs(n[k]) == 1) {
                on++;
                cr_expect_float_eq(p[k], n[k] * s.size[k], 1e-15);
            }
            else cr_expect_lt(fabs(p[k]), s.size[k] - 1e-9, "point on an edge");
        }
        cr_expect_eq(on, 1);
    }
    tc_aopc_free(&c);
}

/* largest |SSDF - true distance| over points at heights -4 cm .. +4 cm around a sphere */
static double sphere_error(const tc_aopc *c, double R, double eps1) {
    double worst = 0;
    for (int i = 0; i < 200; i++) {
        double z = 1 - (2 * i + 1) / 200.0, a = 2.4 * i, rho = sqrt(1 - z * z);
        double u[3] = {rho * cos(a), rho * sin(a), z}, delta = -0.04 + 0.08 * (i % 9) / 8.0;
        double p[3] = {(R + delta) * u[0], (R + delta) * u[1], (R + delta) * u[2]};
        worst = fmax(worst, fabs(tc_ssdf(c, p, eps1) - delta));
    }
    return worst;
}

Test(aopc, ssdf_converges_to_signed_distance) {
    const double R = 0.1, h = 0.01;
    tc_shape s = {TC_SHAPE_SPHERE, {R, 0, 0}};
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, h, NULL), TC_OK);
    /* eps1 -> 0 picks the nearest point's tangent plane: error <= (R + |delta|) theta^2 / 2 with
     * theta the angular covering radius, bounded here by h / R */
    double bound = (R + 0.04) * (h / R) * (h / R) / 2;
    double prev = INFINITY;
    const double rel[] = {4.0, 1.0, 0.25, 0.05, 0.01};
    for (int i = 0; i < 5; i++) {
        double e = sphere_error(&c, R, rel[i] * h * h);
        cr_expect_leq(e, prev * 1.0001, "error must not grow as eps1 shrinks (%g > %g)", e, prev);
        prev = e;
    }
    cr_expect_leq(prev, bound, "SSDF error %g above the spacing bound %g", prev, bound);
    tc_aopc_free(&c);
}

Test(aopc, ssdf_of_box_face_is_exact_for_small_eps) {
    tc_shape s = {TC_SHAPE_BOX, {0.1, 0.1, 0.1}};
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, 0.02, NULL), TC_OK);
    for (double d = -0.05; d <= 0.05; d += 0.01) {
        double p[3] = {0.003, -0.007, 0.1 + d};
        cr_expect_float_eq(tc_ssdf(&c, p, 1e-6), d, 1e-12);
    }
    tc_aopc_free(&c);
}
