/* SPDX-License-Identifier: MIT */
/* geometry: AOPC sampling and the SSDF's convergence to the true signed distance */
#include <criterion/criterion.h>
#include <math.h>

#include "geom/tc_aopc.h"

Test(aopc, sphere_points_on_surface_with_radial_normals) {
    tc_shape s = tc_sphere(0.1);
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, 0.01, NULL), TC_OK);
    /* a cube-sphere: 6 m^2 points, m the smallest with 6 m^2 >= 4 pi r^2 / h^2 */
    int m = (int)ceil(sqrt(ceil(4 * M_PI * 0.01 / 1e-4) / 6));
    cr_expect_eq(c.n, 6 * m * m);
    cr_expect_geq(c.n, (int)ceil(4 * M_PI * 0.01 / 1e-4));
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < c.n; i++) {
        double p[3] = {c.px[i], c.py[i], c.pz[i]};
        cr_expect_float_eq(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 0.1, 1e-15);
        cr_expect_float_eq(c.nx[i] * 0.1, p[0], 1e-15);
        for (int k = 0; k < 3; k++)
            mean[k] += p[k] / c.n;
    }
    /* isotropy: the centroid of a uniform sampling is the centre (to O(1/n)) */
    for (int k = 0; k < 3; k++)
        cr_expect_lt(fabs(mean[k]), 0.1 * 2.0 / c.n);
    tc_aopc_free(&c);
}

/* the sphere's cloud has the cube's mirror symmetries: every point's mirror image in x, y and z
 * (and its normal's) is a point of the cloud, to rounding */
Test(aopc, sphere_cloud_is_mirror_symmetric) {
    const double hs[] = {0.1, 0.03, 0.011};
    for (size_t q = 0; q < sizeof hs / sizeof *hs; q++) {
        tc_shape s = tc_sphere(0.1);
        tc_aopc c;
        cr_assert_eq(tc_aopc_alloc(&c, &s, hs[q], NULL), TC_OK);
        for (int axis = 0; axis < 3; axis++)
            for (int i = 0; i < c.n; i++) {
                double p[3] = {c.px[i], c.py[i], c.pz[i]}, best = INFINITY;
                p[axis] = -p[axis];
                for (int j = 0; j < c.n; j++) {
                    double d = fabs(c.px[j] - p[0]) + fabs(c.py[j] - p[1]) + fabs(c.pz[j] - p[2]);
                    if (d < best) best = d;
                }
                cr_expect_leq(best, 1e-15,
                              "h %g: point %d mirrored in axis %d is %g from the cloud", hs[q], i,
                              axis, best);
            }
        tc_aopc_free(&c);
    }
}

Test(aopc, box_points_avoid_edges) {
    tc_shape s = tc_box(0.1, 0.05, 0.02);
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
            } else
                cr_expect_lt(fabs(p[k]), s.size[k] - 1e-9, "point on an edge");
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
    tc_shape s = tc_sphere(R);
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
    tc_shape s = tc_box(0.1, 0.1, 0.1);
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, 0.02, NULL), TC_OK);
    for (double d = -0.05; d <= 0.05; d += 0.01) {
        double p[3] = {0.003, -0.007, 0.1 + d};
        cr_expect_float_eq(tc_ssdf(&c, p, 1e-6), d, 1e-12);
    }
    tc_aopc_free(&c);
}

/* the E2 T: a 25 x 5 cm crossbar on a 5 x 15 cm stem, 5 cm thick */
static tc_shape tee(void) {
    tc_shape t = tc_box(0, 0, 0);
    t.type = TC_SHAPE_COMPOUND;
    t.npart = 2;
    t.part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.125, 0.025, 0.025}, {0, 0.075, 0}};
    t.part[1] = (tc_shape_part){TC_SHAPE_BOX, {0.025, 0.075, 0.025}, {0, -0.025, 0}};
    return t;
}

Test(aopc, compound_keeps_only_the_union_surface) {
    tc_shape t = tee();
    double com[3];
    cr_assert_eq(tc_shape_center(&t, com, NULL), TC_OK);
    /* masses 25*5*5 and 5*15*5 cm^3 at y = 7.5 and -2.5 cm: COM at y = (625*7.5 - 375*2.5)/1000 */
    cr_expect_float_eq(com[1], (625 * 0.075 - 375 * 0.025) / 1000, 1e-15);
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &t, 0.005, NULL), TC_OK);
    for (int i = 0; i < c.n; i++) {
        double p[3] = {c.px[i], c.py[i], c.pz[i]}, n[3];
        /* on the surface of the union, outward normal agreeing with the nearest face */
        cr_expect_leq(fabs(tc_shape_distance(&t, p, n)), 1e-12, "point %d off the surface", i);
        double q[3] = {p[0] + 1e-4 * c.nx[i], p[1] + 1e-4 * c.ny[i], p[2] + 1e-4 * c.nz[i]};
        cr_expect_gt(tc_shape_distance(&t, q, n), 0.0, "normal %d points inwards", i);
    }
    /* the 5 x 5 cm joint between crossbar and stem is interior: 10 x 10 quads on each side go */
    tc_aopc a, b;
    tc_shape bar = tc_box(0.125, 0.025, 0.025), stem = tc_box(0.025, 0.075, 0.025);
    tc_aopc_alloc(&a, &bar, 0.005, NULL);
    tc_aopc_alloc(&b, &stem, 0.005, NULL);
    cr_expect_eq(c.n, a.n + b.n - 2 * 100);
    tc_aopc_free(&a);
    tc_aopc_free(&b);
    tc_aopc_free(&c);
}

Test(aopc, compound_mass_and_inertia_add_up) {
    tc_shape t = tee();
    double com[3], m, I[3];
    cr_assert_eq(tc_shape_center(&t, com, NULL), TC_OK);
    tc_shape_mass(&t, 1000, &m, I);
    cr_expect_float_eq(m, 1000 * (0.25 * 0.05 * 0.05 + 0.05 * 0.15 * 0.05), 1e-12);
    /* I_zz by hand: boxes about their centres plus m d^2 with d the offset from the COM */
    double m1 = 1000 * 0.25 * 0.05 * 0.05, m2 = 1000 * 0.05 * 0.15 * 0.05, y1 = 0.075 - com[1],
           y2 = -0.025 - com[1];
    double izz = m1 * (0.25 * 0.25 + 0.05 * 0.05) / 12 + m1 * y1 * y1 +
                 m2 * (0.05 * 0.05 + 0.15 * 0.15) / 12 + m2 * y2 * y2;
    cr_expect_float_eq(I[2], izz, 1e-12 * izz);
}

/* ellipsoid: points on the surface (implicit function to 1e-12), normals unit, outward and along
 * the implicit function's gradient; the count from Thomsen's area and the spacing */
Test(aopc, ellipsoid_points_on_surface_with_outward_normals) {
    const double a = 0.12, b = 0.05, c3 = 0.08, h = 0.01;
    tc_shape s = tc_ellipsoid(a, b, c3);
    cr_assert_eq(tc_shape_check(&s, NULL), TC_OK);
    tc_aopc c;
    cr_assert_eq(tc_aopc_alloc(&c, &s, h, NULL), TC_OK);
    const double pw = 1.6075;
    double area = 4 * M_PI * pow((pow(a * b, pw) + pow(a * c3, pw) + pow(b * c3, pw)) / 3, 1 / pw);
    int m = (int)ceil(sqrt(ceil(area / (h * h)) / 6));
    cr_expect_eq(c.n, 6 * m * m);
    cr_expect_float_eq(c.spacing, sqrt(area / c.n), 1e-15);
    double mean[3] = {0, 0, 0};
    for (int i = 0; i < c.n; i++) {
        double p[3] = {c.px[i], c.py[i], c.pz[i]}, n[3] = {c.nx[i], c.ny[i], c.nz[i]}, g[3], nd[3];
        double f = p[0] * p[0] / (a * a) + p[1] * p[1] / (b * b) + p[2] * p[2] / (c3 * c3) - 1;
        cr_expect_leq(fabs(f), 1e-12, "point %d off the surface (f = %g)", i, f);
        cr_expect_float_eq(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0, 1e-14);
        /* parallel to grad f = 2 (x / a^2, y / b^2, z / c^2), same sense */
        g[0] = p[0] / (a * a);
        g[1] = p[1] / (b * b);
        g[2] = p[2] / (c3 * c3);
        double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (int k = 0; k < 3; k++)
            cr_expect_float_eq(n[k], g[k] / gn, 1e-12);
        /* outward: a step along the normal leaves the ellipsoid, one against it enters it */
        double out[3], in[3];
        for (int k = 0; k < 3; k++) {
            out[k] = p[k] + 1e-4 * n[k];
            in[k] = p[k] - 1e-4 * n[k];
        }
        cr_expect_gt(tc_shape_distance(&s, out, nd), 0.0, "normal %d points inwards", i);
        cr_expect_lt(tc_shape_distance(&s, in, nd), 0.0);
        cr_expect_leq(fabs(tc_shape_distance(&s, p, nd)), 1e-12);
        for (int k = 0; k < 3; k++)
            mean[k] += p[k] / c.n;
    }
    cr_expect_lt(fabs(mean[0]) + fabs(mean[1]) + fabs(mean[2]), 3 * a * 2.0 / c.n);
    tc_aopc_free(&c);
}

/* the ellipsoid's approximate distance: exact for a sphere, exact at the centre and on the axes'
 * far sides near the tips, first-order accurate near the surface, sign exact */
Test(aopc, ellipsoid_distance) {
    tc_shape e = tc_ellipsoid(0.1, 0.1, 0.1), s = tc_sphere(0.1), el = tc_ellipsoid(0.2, 0.05, 0.1);
    double n1[3], n2[3];
    for (int i = 0; i < 50; i++) {
        double p[3] = {0.3 * sin(1.3 * i), 0.2 * cos(0.7 * i) - 0.05, 0.01 * i - 0.25};
        cr_expect_float_eq(tc_shape_distance(&e, p, n1), tc_shape_distance(&s, p, n2), 1e-15);
        for (int k = 0; k < 3; k++)
            cr_expect_float_eq(n1[k], n2[k], 1e-14);
    }
    double o[3] = {0, 0, 0}, n[3];
    cr_expect_float_eq(tc_shape_distance(&el, o, n), -0.05, 1e-15);
    cr_expect_eq(n[1], 1.0);
    /* along an axis the level-set estimate is exact: (s - 1) s / |k| = x - a */
    for (double d = -0.03; d <= 0.03; d += 0.01) {
        double p[3] = {0.2 + d, 0, 0};
        cr_expect_float_eq(tc_shape_distance(&el, p, n), d, 1e-15);
        cr_expect_float_eq(n[0], 1.0, 1e-15);
    }
    /* near a generic surface point: the estimate is the distance to first order, O(d^2) error */
    double u[3] = {0.6, 0.48, 0.64}, q[3] = {0.2 * u[0], 0.05 * u[1], 0.1 * u[2]}, g[3];
    tc_shape_distance(&el, q, g);
    for (int j = 1; j <= 3; j++) {
        double d = 1e-3 * j, p[3] = {q[0] + d * g[0], q[1] + d * g[1], q[2] + d * g[2]};
        cr_expect_leq(fabs(tc_shape_distance(&el, p, n) - d), 200 * d * d, "d = %g", d);
        double pi[3] = {q[0] - d * g[0], q[1] - d * g[1], q[2] - d * g[2]};
        cr_expect_lt(tc_shape_distance(&el, pi, n), 0.0);
    }
}

/* mass and inertia against a midpoint-rule volume integral; the sphere as the special case */
Test(aopc, ellipsoid_mass_and_inertia) {
    const double ax[3] = {0.12, 0.05, 0.08}, rho = 800;
    tc_shape e = tc_ellipsoid(ax[0], ax[1], ax[2]);
    double m, I[3];
    tc_shape_mass(&e, rho, &m, I);
    cr_expect_float_eq(m, rho * 4.0 / 3.0 * M_PI * ax[0] * ax[1] * ax[2], 1e-15);
    const int N = 160;
    double mq = 0, Iq[3] = {0, 0, 0};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                double x = ax[0] * (-1 + (2 * i + 1.0) / N), y = ax[1] * (-1 + (2 * j + 1.0) / N),
                       z = ax[2] * (-1 + (2 * k + 1.0) / N);
                if (x * x / (ax[0] * ax[0]) + y * y / (ax[1] * ax[1]) + z * z / (ax[2] * ax[2]) > 1)
                    continue;
                double dm = rho * 8 * ax[0] * ax[1] * ax[2] / ((double)N * N * N);
                mq += dm;
                Iq[0] += dm * (y * y + z * z);
                Iq[1] += dm * (x * x + z * z);
                Iq[2] += dm * (x * x + y * y);
            }
    cr_expect_float_eq(mq, m, 2e-3 * m);
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(Iq[k], I[k], 3e-3 * I[k], "axis %d", k);
    double ms, Is[3];
    tc_shape sp = tc_sphere(0.07), es = tc_ellipsoid(0.07, 0.07, 0.07);
    tc_shape_mass(&sp, rho, &ms, Is);
    tc_shape_mass(&es, rho, &m, I);
    cr_expect_float_eq(m, ms, 1e-15 * ms);
    for (int k = 0; k < 3; k++)
        cr_expect_float_eq(I[k], Is[k], 1e-15 * Is[k]);
}

/* the names table still matches the enum after the ellipsoid; checks reject bad semi-axes */
Test(aopc, ellipsoid_name_and_check) {
    static const char *const names[] = {"sphere",    "box",      "plane",   "compound",
                                        "ellipsoid", "cylinder", "polytope"};
    cr_assert_eq(TC_SHAPE_COUNT, 7);
    for (int t = 0; t < TC_SHAPE_COUNT; t++) {
        tc_shape_type back;
        cr_expect_str_eq(tc_shape_name((tc_shape_type)t), names[t]);
        cr_expect_eq(tc_shape_parse(names[t], &back), TC_OK);
        cr_expect_eq((int)back, t);
    }
    const double bad[] = {0, -0.1, NAN, INFINITY};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++) {
            tc_shape e = tc_ellipsoid(0.1, 0.1, 0.1);
            e.size[k] = bad[i];
            tc_error err;
            tc_error_clear(&err);
            cr_expect_eq(tc_shape_check(&e, &err), TC_EINVAL, "axis %d value %g", k, bad[i]);
        }
}

/* the cylinder: exact signed distance at hand-computed points, mass properties in closed form,
 * and every AOPC sample on the surface with the distance's normal */
Test(aopc, cylinder_distance_mass_and_samples) {
    tc_shape c = tc_cylinder(0.1, 0.2);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_check(&c, &err), TC_OK);
    c.size[1] = -1;
    cr_expect_eq(tc_shape_check(&c, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "half_length");
    c = tc_cylinder(0.1, 0.2);
    /* beside the side, above a cap, beyond the rim, inside nearer the side, inside nearer a cap */
    static const struct {
        double p[3], d, n[3];
    } pts[] = {
        {{0.3, 0, 0.1}, 0.2, {1, 0, 0}},        {{0, 0.05, -0.5}, 0.3, {0, 0, -1}},
        {{0, 0.13, 0.24}, 0.05, {0, 0.6, 0.8}}, {{0.08, 0, 0}, -0.02, {1, 0, 0}},
        {{0, 0, 0.19}, -0.01, {0, 0, 1}},
    };
    for (size_t i = 0; i < sizeof pts / sizeof *pts; i++) {
        double n[3], d = tc_shape_distance(&c, pts[i].p, n);
        cr_expect(fabs(d - pts[i].d) < 1e-15, "point %zu: %g vs %g", i, d, pts[i].d);
        for (int k = 0; k < 3; k++)
            cr_expect(fabs(n[k] - pts[i].n[k]) < 1e-15, "point %zu normal", i);
    }
    double m, I[3];
    tc_shape_mass(&c, 1000, &m, I);
    double mm = 1000 * M_PI * 0.01 * 0.4;
    cr_expect(fabs(m - mm) < 1e-12 * mm);
    cr_expect(fabs(I[0] - mm * (3 * 0.01 + 0.16) / 12) < 1e-12 * mm);
    cr_expect(fabs(I[2] - mm * 0.01 / 2) < 1e-12 * mm);
    tc_aopc a;
    cr_assert_eq(tc_aopc_alloc(&a, &c, 0.02, &err), TC_OK);
    cr_expect_gt(a.n, 300);
    for (int i = 0; i < a.n; i++) {
        double p[3] = {a.px[i], a.py[i], a.pz[i]}, n[3];
        double d = tc_shape_distance(&c, p, n);
        cr_expect(fabs(d) < 1e-14, "sample %d off the surface by %g", i, d);
        cr_expect(fabs(n[0] - a.nx[i]) + fabs(n[1] - a.ny[i]) + fabs(n[2] - a.nz[i]) < 1e-12,
                  "sample %d normal", i);
    }
    /* the mean spacing is at most the target */
    cr_expect_leq(a.spacing, 0.02);
    tc_aopc_free(&a);
}

/* the 2-D box of E1's fig_ssdf: a 0.2 m x 0.1 m rectangle in z = 0 sampled every 1 cm */
static const double box2d_half[2] = {0.1, 0.05}, box2d_h = 0.01;

/* the 2-D box: 20 + 10 segment centres per edge pair, on the outline, none on a corner, normals
 * in-plane, unit and outward */
Test(aopc, box2d_points_on_edges_with_outward_normals) {
    tc_aopc c;
    cr_assert_eq(tc_aopc_box2d(&c, box2d_half, box2d_h), TC_OK);
    cr_expect_eq(c.n, 2 * (20 + 10));
    cr_expect_float_eq(c.spacing, box2d_h, 1e-15);
    for (int i = 0; i < c.n; i++) {
        double p[2] = {c.px[i], c.py[i]}, n[2] = {c.nx[i], c.ny[i]};
        cr_expect_eq(c.pz[i], 0.0);
        cr_expect_eq(c.nz[i], 0.0);
        int k = fabs(n[0]) == 1 ? 0 : 1;
        cr_expect_eq(fabs(n[k]), 1.0, "normal %d not along an axis", i);
        cr_expect_eq(n[1 - k], 0.0);
        cr_expect_float_eq(p[k], n[k] * box2d_half[k], 1e-15, "point %d off its edge", i);
        /* off the corners by half a segment */
        cr_expect_leq(fabs(p[1 - k]), box2d_half[1 - k] - box2d_h / 2 + 1e-12,
                      "point %d on a corner", i);
    }
    tc_aopc_free(&c);
}

/* the SSDF of the 2-D box at x, y (m) with eps1 = rel h^2 */
static double box2d_ssdf(const tc_aopc *c, double x, double y, double rel) {
    const double p[3] = {x, y, 0};
    return tc_ssdf(c, p, rel * box2d_h * box2d_h);
}

/* the sharpest width of fig_ssdf (0.25 h^2, scm-sharp's): the zero level is the outline within
 * h / 10 everywhere on it, corners included, and a few mm off a face centre phi is the distance
 * to the face; at 1 h^2 the outline is already off by more, so the bound is not loose */
Test(aopc, box2d_ssdf_sharp_zero_level_is_the_outline) {
    tc_aopc c;
    cr_assert_eq(tc_aopc_box2d(&c, box2d_half, box2d_h), TC_OK);
    const double hx = box2d_half[0], hy = box2d_half[1], tol = box2d_h / 10;
    /* the outline, every mm along each edge (by symmetry one quarter suffices, all four run) */
    double worst_sharp = 0, worst_medium = 0;
    for (int i = 0; i <= 200; i++)
        for (int s = -1; s <= 1; s += 2) {
            double x = -hx + i * 1e-3, y = -hy + i * 0.5e-3;
            worst_sharp = fmax(worst_sharp, fabs(box2d_ssdf(&c, x, s * hy, 0.25)));
            worst_sharp = fmax(worst_sharp, fabs(box2d_ssdf(&c, s * hx, y, 0.25)));
            worst_medium = fmax(worst_medium, fabs(box2d_ssdf(&c, x, s * hy, 1.0)));
        }
    cr_expect_lt(worst_sharp, tol, "|phi| on the outline up to %g m at 0.25 h^2", worst_sharp);
    cr_expect_gt(worst_medium, tol, "|phi| on the outline only %g m at 1 h^2", worst_medium);
    /* face centres: on the face, and 3 mm outside and inside (the signed distance) */
    const double face[4][4] = {{hx, 0, 1, 0}, {-hx, 0, -1, 0}, {0, hy, 0, 1}, {0, -hy, 0, -1}};
    for (int f = 0; f < 4; f++)
        for (int k = -1; k <= 1; k++) {
            double d = 0.003 * k;
            double x = face[f][0] + d * face[f][2], y = face[f][1] + d * face[f][3];
            double phi = box2d_ssdf(&c, x, y, 0.25);
            cr_expect_float_eq(phi, d, 1e-6, "face %d at %g m: phi %g", f, d, phi);
        }
    /* a sharp corner: 3 mm out along the diagonal phi is the distance to either face (3 mm), not
     * to the corner (4.2 mm) */
    cr_expect_float_eq(box2d_ssdf(&c, hx + 0.003, hy + 0.003, 0.25), 0.003, 1e-6);
    cr_expect_lt(fabs(box2d_ssdf(&c, hx, hy, 0.25)), 1e-9);
    tc_aopc_free(&c);
}

/* the widest width of fig_ssdf (100 h^2): a blob around the box, the corners and face centres
 * inside it by more than h, and its zero level on the diagonal beyond the corner (rounded, not
 * through it) */
Test(aopc, box2d_ssdf_wide_encloses_the_corners) {
    tc_aopc c;
    cr_assert_eq(tc_aopc_box2d(&c, box2d_half, box2d_h), TC_OK);
    const double hx = box2d_half[0], hy = box2d_half[1];
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2) {
            double phi = box2d_ssdf(&c, sx * hx, sy * hy, 100);
            cr_expect_lt(phi, -box2d_h, "corner (%d, %d) at phi %g m, not well inside", sx, sy,
                         phi);
        }
    cr_expect_lt(box2d_ssdf(&c, hx, 0, 100), -box2d_h);
    cr_expect_lt(box2d_ssdf(&c, 0, hy, 100), -box2d_h);
    /* along the diagonal: still inside 1 cm beyond the corner, outside 4 cm beyond it */
    double u = 1 / hypot(hx, hy);
    cr_expect_lt(box2d_ssdf(&c, hx + 0.01 * hx * u, hy + 0.01 * hy * u, 100), 0);
    cr_expect_gt(box2d_ssdf(&c, hx + 0.04 * hx * u, hy + 0.04 * hy * u, 100), 0);
    /* the smoothing grows the surface monotonically at the corner: phi falls with eps1 */
    double prev = INFINITY;
    const double rel[] = {4, 25, 100};
    for (int i = 0; i < 3; i++) {
        double phi = box2d_ssdf(&c, hx, hy, rel[i]);
        cr_expect_lt(phi, prev, "corner phi %g at %g h^2 not below %g", phi, rel[i], prev);
        prev = phi;
    }
    tc_aopc_free(&c);
}

/* the grid: every node is tc_ssdf at its point, x fastest, ends included (nx != ny catches a
 * transposed layout) */
Test(aopc, ssdf_grid_matches_pointwise) {
    tc_aopc c;
    cr_assert_eq(tc_aopc_box2d(&c, box2d_half, box2d_h), TC_OK);
    enum { NX = 7, NY = 4 };
    const double lo[2] = {-0.16, -0.12}, hi[2] = {0.16, 0.12}, eps1 = 4 * box2d_h * box2d_h;
    double phi[NX * NY + 1];
    phi[NX * NY] = 12345; /* a guard past the end */
    tc_ssdf_grid(&c, eps1, lo, hi, NX, NY, phi);
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double p[3] = {lo[0] + i * (hi[0] - lo[0]) / (NX - 1),
                           lo[1] + j * (hi[1] - lo[1]) / (NY - 1), 0};
            cr_expect_eq(phi[j * NX + i], tc_ssdf(&c, p, eps1), "node (%d, %d)", i, j);
        }
    /* the last node is the far corner (0.16, 0.12): a blend of its distances to the two faces */
    cr_expect_gt(phi[NX * NY - 1], 0.06);
    cr_expect_lt(phi[NX * NY - 1], 0.07);
    cr_expect_eq(phi[NX * NY], 12345);
    tc_aopc_free(&c);
}
