/* SPDX-License-Identifier: MIT */
/* penetration geometry (Drumwright 2008): surfaces, the bottom of the penetration volume, the
 * contact normal of eq. 4, and the deepest point against closed forms */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide/tc_penetration.h"
#include "math/tc_vec.h"
#include "test_pose.h"

#include <ccd/ccd.h>

/* body point -> world */
static void to_world(double w[3], const tc_body_state *S, const double p[3]) {
    tc_m3_mulv(w, S->R, p);
    tc_v3_add(w, w, S->pos);
}

static tc_surface surface(tc_shape sh, double h) {
    tc_surface s;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_surface_alloc(&s, &sh, h, &err), TC_OK, "%s", err.msg);
    return s;
}

/* ---- surfaces ---- */

/* a deterministic point on the true surface of sh from two numbers u, v in [0, 1) */
static void surface_sample(const tc_shape *sh, double u, double v, int part, double p[3]) {
    const double *a = sh->size;
    if (sh->type == TC_SHAPE_BOX) {
        /* part 0..5: face +-x, +-y, +-z */
        int c = part / 2, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
        p[c] = part % 2 ? -a[c] : a[c];
        p[c1] = a[c1] * (2 * u - 1);
        p[c2] = a[c2] * (2 * v - 1);
    } else if (sh->type == TC_SHAPE_SPHERE) {
        double z = 2 * u - 1, t = 2 * M_PI * v, rho = sqrt(1 - z * z);
        tc_v3_set(p, a[0] * rho * cos(t), a[0] * rho * sin(t), a[0] * z);
    } else {
        /* cylinder: part 0 the side, 1 and 2 the caps */
        double t = 2 * M_PI * v;
        if (part == 0)
            tc_v3_set(p, a[0] * cos(t), a[0] * sin(t), a[1] * (2 * u - 1));
        else
            tc_v3_set(p, a[0] * sqrt(u) * cos(t), a[0] * sqrt(u) * sin(t),
                      part == 1 ? a[1] : -a[1]);
    }
}

/* every point is on the surface (|distance| <= 1e-12 m) with unit normals along which it is a
 * support point (within 1e-12 m), one-normal points carry tc_shape_distance's normal (1e-12);
 * every face plane is a unit-normal supporting plane (all points below it within 1e-12 m); and
 * every point of the true surface has a sample within h / sqrt(2) (the spacing <= h: a grid or
 * triangulation of step h leaves no surface point farther than h / sqrt(2) from a sample) */
static void check_surface(tc_shape sh, double h) {
    tc_surface s = surface(sh, h);
    cr_assert_gt(s.npoint, 0);
    for (int i = 0; i < s.npoint; i++) {
        double nd[3], sp[3];
        double d = tc_shape_distance(&sh, s.p[i], nd);
        cr_assert_leq(fabs(d), 1e-12, "%s point %d off the surface by %g", tc_shape_name(sh.type),
                      i, d);
        cr_assert(s.nn[i] >= 1 && s.nn[i] <= TC_SURF_MAXNORMAL);
        for (int k = 0; k < s.nn[i]; k++) {
            cr_assert_float_eq(tc_v3_norm(s.n[i][k]), 1.0, 1e-12);
            tc_shape_support(&sh, s.n[i][k], sp);
            cr_assert_float_eq(tc_v3_dot(s.n[i][k], s.p[i]), tc_v3_dot(s.n[i][k], sp), 1e-12,
                               "%s point %d normal %d is not a supporting direction",
                               tc_shape_name(sh.type), i, k);
        }
        if (s.nn[i] == 1)
            for (int c = 0; c < 3; c++)
                cr_assert_float_eq(s.n[i][0][c], nd[c], 1e-12);
    }
    for (int f = 0; f < s.nface; f++) {
        cr_assert_float_eq(tc_v3_norm(s.face[f]), 1.0, 1e-12);
        for (int i = 0; i < s.npoint; i++)
            cr_assert_leq(tc_v3_dot(s.face[f], s.p[i]), s.face[f][3] + 1e-12);
    }
    int parts = sh.type == TC_SHAPE_BOX ? 6 : sh.type == TC_SHAPE_SPHERE ? 1 : 3;
    double worst = 0;
    for (int part = 0; part < parts; part++)
        for (int iu = 0; iu < 61; iu++)
            for (int iv = 0; iv < 67; iv++) {
                double x[3], best = INFINITY, d[3];
                surface_sample(&sh, (iu + 0.5) / 61, (iv + 0.25) / 67, part, x);
                for (int i = 0; i < s.npoint; i++) {
                    tc_v3_sub(d, x, s.p[i]);
                    double l = tc_v3_norm(d);
                    if (l < best) best = l;
                }
                if (best > worst) worst = best;
            }
    cr_assert_leq(worst, h / sqrt(2.0) + 1e-12,
                  "%s: a surface point is %g from every sample (h %g)", tc_shape_name(sh.type),
                  worst, h);
    tc_surface_free(&s);
}

Test(penetration, surfaces_lie_on_their_shapes) {
    for (int k = 0; k < 2; k++) {
        double h = k ? 0.037 : 0.01;
        check_surface(tc_box(0.2, 0.1, 0.05), h);
        check_surface(tc_sphere(0.05), h);
        check_surface(tc_cylinder(0.05, 0.1), h);
    }
}

/* box: the lattice of step <= h on the faces, corners with 3 normals, edges 2, faces 1 */
Test(penetration, box_surface_counts) {
    tc_surface s = surface(tc_box(0.2, 0.1, 0.05), 0.05);
    /* 8, 4 and 2 intervals: 9 * 5 * 3 lattice points minus the 7 * 3 * 1 inside */
    cr_assert_eq(s.npoint, 9 * 5 * 3 - 7 * 3 * 1);
    int count[4] = {0};
    for (int i = 0; i < s.npoint; i++)
        count[s.nn[i]]++;
    cr_expect_eq(count[3], 8);
    cr_expect_eq(count[2], 4 * (7 + 3 + 1));
    cr_expect_eq(s.nface, 6);
    cr_expect_float_eq(s.radius, sqrt(0.04 + 0.01 + 0.0025), 1e-15);
    tc_surface_free(&s);
}

/* the icosphere has the geodesic count 10 n^2 + 2 and its edges are <= h; the cylinder's rims
 * carry the side and the cap normal */
Test(penetration, sphere_and_cylinder_surfaces) {
    tc_surface s = surface(tc_sphere(0.05), 0.01);
    int n = (int)lround(sqrt((s.npoint - 2) / 10.0));
    cr_assert_eq(s.npoint, 10 * n * n + 2);
    cr_expect_eq(s.nface, 20 * n * n);
    tc_surface_free(&s);
    s = surface(tc_cylinder(0.05, 0.1), 0.01);
    int rim = 0;
    for (int i = 0; i < s.npoint; i++)
        if (s.nn[i] == 2) {
            rim++;
            cr_expect_float_eq(fabs(s.p[i][2]), 0.1, 1e-15);
        }
    /* 2 r sin(pi / m) <= h: m = 32 points per rim for r = 5 cm, h = 1 cm */
    cr_expect_eq(rim, 2 * 32);
    tc_surface_free(&s);
}

Test(penetration, plane_and_unsupported_surfaces) {
    tc_surface s = surface(tc_plane(), 0.01);
    cr_expect_eq(s.npoint, 0);
    cr_assert_eq(s.nface, 1);
    cr_expect(s.face[0][2] == 1 && s.face[0][3] == 0);
    cr_expect(isinf(s.radius));
    tc_surface_free(&s);
    tc_error err;
    tc_error_clear(&err);
    tc_shape e = tc_ellipsoid(0.1, 0.2, 0.3), b = tc_box(0.1, 0.1, 0.1);
    cr_expect_eq(tc_surface_alloc(&s, &e, 0.01, &err), TC_EUNSUP);
    cr_expect_neq(strstr(err.msg, "ellipsoid"), NULL);
    cr_expect_eq(tc_surface_alloc(&s, &b, 0, &err), TC_EINVAL);
    cr_expect_eq(tc_surface_alloc(&s, &b, NAN, &err), TC_EINVAL);
}

/* ---- the bottom of the penetration volume ---- */

/* a box of half extents 20 x 10 x 2 cm rotated 20 degrees about x and lowered so its lowest edge
 * is 5 cm below the plane z = 0 (deeper than the box is thick across, so part of its top face
 * is inside too), spacing 2.5 cm (3 to 17 points along a face's sides). Expected
 * bottom, computed here from the points' coordinates: a point below z = 0 (no point is within
 * 1e-9 m of it, so "inside" is unambiguous) on some face (|p_c| = a_c) whose world normal has a
 * z component <= 0. The +-x faces have world normals with z exactly 0 and count (the paper's
 * "non-positive"). Normal +z exactly (1e-15), plane_d 0, depths -z (1e-12 m). */
Test(penetration, tilted_box_on_plane_bottom) {
    const double a[3] = {0.2, 0.1, 0.02}, th = 20 * M_PI / 180;
    tc_shape box = tc_box(a[0], a[1], a[2]), pl = tc_plane();
    double low = a[1] * sin(th) + a[2] * cos(th);
    tc_body_state A = pose(0.3, -0.2, low - 0.05, 1, 0, 0, th), B = pose(0, 0, 0, 1, 0, 0, 0);
    tc_surface SA = surface(box, 0.025), SB = surface(pl, 0.025);
    tc_pen_work *w = tc_pen_work_alloc(SA.npoint);
    cr_assert_not_null(w);
    tc_pen_point *pts = malloc((size_t)SA.npoint * sizeof *pts);
    tc_penetration out;
    int n = tc_penetrate(&box, &SA, &A, &pl, &SB, &B, w, &out, pts, SA.npoint);

    /* the expected set, from coordinates */
    int *expect = calloc((size_t)SA.npoint, sizeof *expect), nexp = 0, below = 0;
    for (int i = 0; i < SA.npoint; i++) {
        double x[3];
        to_world(x, &A, SA.p[i]);
        cr_assert_gt(fabs(x[2]), 1e-9, "point %d is on the plane", i);
        if (x[2] >= 0) continue;
        below++;
        for (int c = 0; c < 3; c++)
            if (fabs(SA.p[i][c]) == a[c] && (SA.p[i][c] > 0 ? 1 : -1) * A.R[6 + c] <= 0)
                expect[i] = 1;
        nexp += expect[i];
    }
    cr_assert_gt(nexp, 0);
    cr_assert_lt(nexp, below, "the test must exclude some inside points");
    cr_assert_eq(n, nexp);
    cr_expect_eq(out.n, n);
    cr_expect_eq(out.on_b, 0);
    cr_expect_float_eq(out.normal[0], 0.0, 1e-15);
    cr_expect_float_eq(out.normal[1], 0.0, 1e-15);
    cr_expect_float_eq(out.normal[2], 1.0, 1e-15);
    cr_expect_float_eq(out.plane_d, 0.0, 1e-15);
    /* each output point is one expected point, none twice */
    int *seen = calloc((size_t)SA.npoint, sizeof *seen);
    double deepest = 0;
    for (int k = 0; k < n; k++) {
        int hit = -1;
        for (int i = 0; i < SA.npoint; i++) {
            double x[3], d[3];
            to_world(x, &A, SA.p[i]);
            tc_v3_sub(d, x, pts[k].p);
            if (tc_v3_norm(d) <= 1e-12) hit = i;
        }
        cr_assert_geq(hit, 0, "output point %d is not a surface point", k);
        cr_expect(expect[hit], "point %d is not on the bottom", hit);
        cr_expect_eq(seen[hit], 0);
        seen[hit] = 1;
        cr_expect_float_eq(pts[k].depth, -pts[k].p[2], 1e-12);
        if (pts[k].depth > deepest) deepest = pts[k].depth;
    }
    cr_expect_float_eq(out.depth, deepest, 0);
    cr_expect_float_eq(out.depth, 0.05, 1e-12, "the lowest edge is sampled");

    /* the same pair the other way round: the plane's face now belongs to b's partner, the
     * normal points from the box to the plane, the points are the same */
    tc_penetration rev;
    tc_pen_point *pr = malloc((size_t)SA.npoint * sizeof *pr);
    int nr = tc_penetrate(&pl, &SB, &B, &box, &SA, &A, w, &rev, pr, SA.npoint);
    cr_assert_eq(nr, n);
    cr_expect_eq(rev.on_b, 1);
    cr_expect_float_eq(rev.normal[2], -1.0, 1e-15);
    for (int k = 0; k < n; k++) {
        for (int c = 0; c < 3; c++)
            cr_expect_float_eq(pr[k].p[c], pts[k].p[c], 0);
        cr_expect_float_eq(pr[k].depth, tc_v3_dot(rev.normal, pr[k].p) - rev.plane_d, 1e-15);
    }
    free(pr);
    free(seen);
    free(expect);
    free(pts);
    tc_pen_work_free(w);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* the trapezoid of fig. 4 as a hand-built point set: the cross-section in x-z has half widths
 * wb (bottom) and wt (top) and height 0.3, extruded over y in [-0.2, 0.2], its bottom 0.1 below
 * the ground z = 0. Points: a grid on the parts of the bottom face, the two slanted faces and the
 * two end caps below the ground, each with the outward normals of the faces it lies on (edges 2,
 * corners 3). Contact normal +z (the ground's face). Expected, by face labels: wide bottom (wb >
 * wt, slanted normals tilted up) -> the points on the bottom face or an end cap (end caps have
 * normals perpendicular to +z: non-positive counts), not the points on a slanted face only; wide
 * top (wb < wt, slanted normals tilted down) -> every point. */
enum { ON_BOTTOM = 1, ON_SLANT = 2, ON_CAP = 4 };
static void trapezoid(double wb, double wt) {
    const double H = 0.3;
    double nrm[200][TC_SURF_MAXNORMAL][3];
    unsigned char nn[200];
    int label[200], np = 0, keep[200];
    /* slanted face normals (outward): right face through (wb, z0) and (wt, z0 + H) */
    double sr[3] = {H, 0, wb - wt}, sl[3] = {-H, 0, wb - wt};
    tc_v3_normalize(sr);
    tc_v3_normalize(sl);
    const int nx = 6, ny = 4, nz = 3;
    for (int iy = 0; iy <= ny; iy++) {
        int cap = iy == 0 || iy == ny;
        double capn[3] = {0, iy == 0 ? -1 : 1, 0};
        /* the bottom face, its long edges on the slanted faces */
        for (int ix = 0; ix <= nx; ix++) {
            int k = np++;
            nn[k] = 0;
            label[k] = ON_BOTTOM;
            double bn[3] = {0, 0, -1};
            tc_v3_copy(nrm[k][nn[k]++], bn);
            if (ix == 0) {
                tc_v3_copy(nrm[k][nn[k]++], sl);
                label[k] |= ON_SLANT;
            }
            if (ix == nx) {
                tc_v3_copy(nrm[k][nn[k]++], sr);
                label[k] |= ON_SLANT;
            }
            if (cap) {
                tc_v3_copy(nrm[k][nn[k]++], capn);
                label[k] |= ON_CAP;
            }
        }
        /* the slanted faces above the bottom edge and below the ground (z0 < z < 0) */
        for (int iz = 1; iz < nz; iz++)
            for (int side = 0; side < 2; side++) {
                int k = np++;
                nn[k] = 0;
                label[k] = ON_SLANT;
                tc_v3_copy(nrm[k][nn[k]++], side ? sr : sl);
                if (cap) {
                    tc_v3_copy(nrm[k][nn[k]++], capn);
                    label[k] |= ON_CAP;
                }
            }
        /* the end caps' interiors below the ground */
        if (cap)
            for (int iz = 1; iz < nz; iz++)
                for (int ix = 1; ix < nx; ix++) {
                    int k = np++;
                    nn[k] = 1;
                    label[k] = ON_CAP;
                    tc_v3_copy(nrm[k][0], capn);
                }
    }
    const double up[3] = {0, 0, 1};
    int m = tc_pen_bottom(np, (const double(*)[TC_SURF_MAXNORMAL][3])nrm, nn, up, keep);
    int expect[200], ne = 0;
    for (int k = 0; k < np; k++) {
        expect[k] = wb > wt ? (label[k] & (ON_BOTTOM | ON_CAP)) != 0 : 1;
        ne += expect[k];
    }
    cr_assert_eq(m, ne, "wb %g wt %g: %d bottom points, expected %d of %d", wb, wt, m, ne, np);
    for (int j = 0; j < m; j++) {
        cr_expect(expect[keep[j]], "point %d (label %d) is not on the bottom", keep[j],
                  label[keep[j]]);
        if (j) cr_expect_gt(keep[j], keep[j - 1], "increasing indices");
    }
    if (wb > wt) cr_expect_lt(ne, np, "the slanted faces are excluded");
}

Test(penetration, trapezoid_bottom_of_fig4) {
    trapezoid(0.3, 0.15); /* wide bottom */
    trapezoid(0.15, 0.3); /* wide top */
}

/* a 10 cm box a pushed 1 cm into the top face of a 1 m box b, overhanging its +x edge by 5 cm:
 * some of a's inside points are nearer the side face x = 0.5 than the top face, but eq. 4 picks
 * the top face (largest distance 1 cm against 7.5 cm for the side). Normal +z from b (big) to a
 * (small) within 1e-12, plane_d 0.5 m, depths 0.5 - z (1e-12 m), deepest 1 cm. The tie between
 * b's top face and a's bottom face (both 1 cm, equal up to rounding) goes to b's face in both
 * orders (on_b = 0). Swapping the roles flips the normal. */
Test(penetration, eq4_picks_the_face_of_least_translation) {
    tc_shape small = tc_box(0.05, 0.05, 0.05), big = tc_box(0.5, 0.5, 0.5);
    tc_body_state A = pose(0.475, 0.0, 0.54, 1, 0, 0, 0), B = pose(0, 0, 0, 1, 0, 0, 0);
    tc_surface SA = surface(small, 0.008), SB = surface(big, 0.05);
    int cap = SA.npoint > SB.npoint ? SA.npoint : SB.npoint;
    tc_pen_work *w = tc_pen_work_alloc(cap);
    tc_pen_point *pts = malloc((size_t)cap * sizeof *pts);
    tc_penetration out;
    int n = tc_penetrate(&small, &SA, &A, &big, &SB, &B, w, &out, pts, cap);
    cr_assert_gt(n, 0);
    cr_expect_eq(out.on_b, 0);
    cr_expect_float_eq(out.normal[0], 0.0, 1e-12);
    cr_expect_float_eq(out.normal[1], 0.0, 1e-12);
    cr_expect_float_eq(out.normal[2], 1.0, 1e-12);
    cr_expect_float_eq(out.plane_d, 0.5, 1e-12);
    cr_expect_float_eq(out.depth, 0.01, 1e-12);
    int nearer_side = 0;
    for (int k = 0; k < n; k++) {
        cr_expect_lt(pts[k].p[0], 0.5);
        cr_expect_lt(pts[k].p[2], 0.5);
        cr_expect_float_eq(pts[k].depth, 0.5 - pts[k].p[2], 1e-12);
        nearer_side += 0.5 - pts[k].p[0] < pts[k].depth;
    }
    cr_expect_gt(nearer_side, 0, "some bottom points are nearer the side face");

    /* roles swapped: the normal points from the small box (now b) to the big one */
    n = tc_penetrate(&big, &SB, &B, &small, &SA, &A, w, &out, pts, cap);
    cr_assert_gt(n, 0);
    cr_expect_eq(out.on_b, 0, "the 1 cm tie goes to b's face (now the small box's bottom)");
    cr_expect_float_eq(out.normal[2], -1.0, 1e-12);
    cr_expect_float_eq(out.depth, 0.01, 1e-12);
    for (int k = 0; k < n; k++) {
        double d = out.on_b ? tc_v3_dot(out.normal, pts[k].p) - out.plane_d
                            : out.plane_d - tc_v3_dot(out.normal, pts[k].p);
        cr_expect_float_eq(pts[k].depth, d, 1e-12);
    }
    free(pts);
    tc_pen_work_free(w);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* a sphere (r 5 cm, spacing 3 cm) 0.1 mm into a plane, turned so that no sample is below the
 * plane: the fallback returns tc_deepest's point, the sphere's lowest point, depth 1e-4 m
 * (1e-12), normal +z (1e-12) */
Test(penetration, fallback_to_the_deepest_point_between_samples) {
    tc_shape sph = tc_sphere(0.05), pl = tc_plane();
    tc_body_state A = pose(0.1, 0.2, 0.05 - 1e-4, 0.3, 0.2, 1, 0.4), B = pose(0, 0, 0, 1, 0, 0, 0);
    tc_surface SA = surface(sph, 0.03), SB = surface(pl, 0.03);
    for (int i = 0; i < SA.npoint; i++) {
        double x[3];
        to_world(x, &A, SA.p[i]);
        cr_assert_gt(x[2], 0.0, "precondition: no sample below the plane");
    }
    tc_pen_work *w = tc_pen_work_alloc(SA.npoint);
    tc_pen_point pts[4];
    tc_penetration out;
    cr_assert_eq(tc_penetrate(&sph, &SA, &A, &pl, &SB, &B, w, &out, pts, 4), 1);
    cr_expect_float_eq(out.normal[2], 1.0, 1e-12);
    cr_expect_float_eq(pts[0].depth, 1e-4, 1e-12);
    cr_expect_float_eq(out.depth, 1e-4, 1e-12);
    cr_expect_float_eq(pts[0].p[0], 0.1, 1e-12);
    cr_expect_float_eq(pts[0].p[1], 0.2, 1e-12);
    cr_expect_float_eq(pts[0].p[2], -1e-4, 1e-12);
    cr_expect_float_eq(out.plane_d - tc_v3_dot(out.normal, pts[0].p), pts[0].depth, 1e-15);
    /* lifted 0.2 mm it touches nothing */
    A.pos[2] += 2e-4;
    cr_expect_eq(tc_penetrate(&sph, &SA, &A, &pl, &SB, &B, w, &out, pts, 4), 0);
    tc_pen_work_free(w);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* a sphere 1 cm into a plane: every sample below the plane is on the bottom (its radial normal
 * points down), depths -z (1e-12 m) */
Test(penetration, sphere_on_plane_bottom) {
    tc_shape sph = tc_sphere(0.05), pl = tc_plane();
    tc_body_state A = pose(0, 0, 0.04, 1, 2, 3, 0.3), B = pose(0, 0, 0, 1, 0, 0, 0);
    tc_surface SA = surface(sph, 0.005), SB = surface(pl, 0.005);
    int below = 0;
    for (int i = 0; i < SA.npoint; i++) {
        double x[3];
        to_world(x, &A, SA.p[i]);
        below += x[2] < 0;
    }
    tc_pen_work *w = tc_pen_work_alloc(SA.npoint);
    tc_pen_point *pts = malloc((size_t)SA.npoint * sizeof *pts);
    tc_penetration out;
    int n = tc_penetrate(&sph, &SA, &A, &pl, &SB, &B, w, &out, pts, SA.npoint);
    cr_expect_gt(below, 3);
    cr_expect_eq(n, below);
    for (int k = 0; k < n; k++)
        cr_expect_float_eq(pts[k].depth, -pts[k].p[2], 1e-12);
    cr_expect_leq(out.depth, 0.01);
    free(pts);
    tc_pen_work_free(w);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* two spheres (r 5 cm and 8 cm, spacing 5 mm) 5 mm deep along a generic direction u: the contact
 * normal is a tangent-plane face normal of one icosphere, so it is within a facet's angular
 * radius h / (sqrt 3 r) of u, r = 5 cm (measured 0.007 rad); the deepest bottom point is within
 * h^2 / r = 5e-4 m of the true 5 mm (measured 4.2e-5 m short); every depth is >= 0 */
Test(penetration, sphere_pair_normal_along_the_centres) {
    tc_shape s1 = tc_sphere(0.05), s2 = tc_sphere(0.08);
    double u[3] = {0.2, -0.7, 0.5};
    tc_v3_normalize(u);
    tc_body_state B = pose(0.1, 0.0, -0.2, 1, 1, 0, 0.3), A = B;
    for (int k = 0; k < 3; k++)
        A.pos[k] = B.pos[k] + 0.125 * u[k];
    A = pose(A.pos[0], A.pos[1], A.pos[2], 0, 1, 2, 1.1);
    tc_surface S1 = surface(s1, 0.005), S2 = surface(s2, 0.005);
    int cap = S2.npoint;
    tc_pen_work *w = tc_pen_work_alloc(cap);
    tc_pen_point *pts = malloc((size_t)cap * sizeof *pts);
    tc_penetration out;
    int n = tc_penetrate(&s1, &S1, &A, &s2, &S2, &B, w, &out, pts, cap);
    cr_assert_gt(n, 3);
    double ang = acos(fmin(1.0, tc_v3_dot(out.normal, u)));
    cr_expect_leq(ang, 0.005 / (sqrt(3.0) * 0.05), "normal %g rad off the centre line", ang);
    cr_expect_float_eq(out.depth, 0.005, 5e-4);
    for (int k = 0; k < n; k++)
        cr_expect_geq(pts[k].depth, 0.0);
    free(pts);
    tc_pen_work_free(w);
    tc_surface_free(&S1);
    tc_surface_free(&S2);
}

/* two rotated boxes overlapping: the same result bit for bit from a reused and a fresh work
 * area; with max below the count, the written points are the deepest of the full set (ties by
 * index) in point order; an undersized work area is refused (-1); far apart gives 0 */
Test(penetration, deterministic_and_truncates_to_the_deepest) {
    tc_shape sa = tc_box(0.1, 0.06, 0.04), sb = tc_box(0.12, 0.1, 0.05);
    tc_body_state A = pose(0.02, 0.01, 0.1, 1, 2, 0.5, 0.5), B = pose(0, 0, 0, 0.2, -1, 0.3, 0.2);
    tc_surface SA = surface(sa, 0.01), SB = surface(sb, 0.01);
    int cap = SA.npoint > SB.npoint ? SA.npoint : SB.npoint;
    tc_pen_work *w1 = tc_pen_work_alloc(cap), *w2 = tc_pen_work_alloc(cap);
    tc_pen_point *p1 = calloc((size_t)cap, sizeof *p1), *p2 = calloc((size_t)cap, sizeof *p2);
    tc_penetration o1, o2;
    int n1 = tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w1, &o1, p1, cap);
    tc_penetrate(&sb, &SB, &B, &sa, &SA, &A, w1, &o2, p2, cap); /* dirty w1 */
    memset(p2, 0, (size_t)cap * sizeof *p2);
    int n2 = tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w2, &o2, p2, cap);
    cr_assert_gt(n1, 10);
    cr_assert_eq(n1, n2);
    cr_expect_eq(memcmp(&o1, &o2, sizeof o1), 0);
    cr_expect_eq(memcmp(p1, p2, (size_t)n1 * sizeof *p1), 0);
    n2 = tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w1, &o2, p2, cap);
    cr_expect_eq(memcmp(p1, p2, (size_t)n1 * sizeof *p1), 0);

    /* truncation: the k deepest, k = n1 / 3 */
    int k = n1 / 3;
    int nk = tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w2, &o2, p2, k);
    cr_assert_eq(nk, k);
    cr_expect_eq(o2.n, k);
    double kth = INFINITY; /* the shallowest written */
    for (int j = 0; j < k; j++)
        if (p2[j].depth < kth) kth = p2[j].depth;
    int deeper = 0, written = 0;
    for (int j = 0; j < n1; j++) {
        deeper += p1[j].depth > kth;
        for (int q = 0; q < k; q++)
            written += memcmp(&p1[j], &p2[q], sizeof *p1) == 0;
    }
    cr_expect_eq(written, k, "the written points are points of the full set");
    cr_expect_leq(deeper, k, "no unwritten point is deeper than a written one");
    /* in point order: positions appear in the same relative order as in the full output */
    int last = -1;
    for (int q = 0; q < k; q++)
        for (int j = 0; j < n1; j++)
            if (memcmp(&p1[j], &p2[q], sizeof *p1) == 0) {
                cr_expect_gt(j, last);
                last = j;
            }

    tc_pen_work *small = tc_pen_work_alloc(10);
    cr_expect_eq(tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, small, &o2, p2, cap), -1);
    A.pos[0] += 1.0;
    cr_expect_eq(tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w1, &o2, p2, cap), 0);
    cr_expect_eq(o2.n, 0);
    tc_pen_work_free(small);
    free(p1);
    free(p2);
    tc_pen_work_free(w1);
    tc_pen_work_free(w2);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* two rotated boxes (a 20 x 12 x 8 cm above b 24 x 20 x 10 cm) overlapping ever deeper, down to
 * a's centre 2 cm above b's: the contact normal keeps pointing from b toward a (positive along
 * c_a - c_b: the face restriction drops a's top face, which b's corner reaches but b could never
 * leave through), there are bottom points, and each depth equals its distance to the contact
 * plane (1e-12 m) and is at most out.depth */
Test(penetration, deep_overlap_normal_points_from_b_to_a) {
    tc_shape sa = tc_box(0.1, 0.06, 0.04), sb = tc_box(0.12, 0.1, 0.05);
    tc_surface SA = surface(sa, 0.01), SB = surface(sb, 0.01);
    int cap = SA.npoint > SB.npoint ? SA.npoint : SB.npoint;
    tc_pen_work *w = tc_pen_work_alloc(cap);
    tc_pen_point *pts = malloc((size_t)cap * sizeof *pts);
    tc_body_state B = pose(0, 0, 0, 0.2, -1, 0.3, 0.2);
    for (double z = 0.1; z > 0.015; z -= 0.02) {
        tc_body_state A = pose(0.02, 0.01, z, 1, 2, 0.5, 0.5);
        tc_penetration out;
        int n = tc_penetrate(&sa, &SA, &A, &sb, &SB, &B, w, &out, pts, cap);
        cr_assert_gt(n, 1, "z %g", z);
        double c[3];
        tc_v3_sub(c, A.pos, B.pos);
        cr_expect_gt(tc_v3_dot(out.normal, c), 0.0, "z %g: normal points from a to b", z);
        cr_expect_float_eq(tc_v3_norm(out.normal), 1.0, 1e-12);
        for (int k = 0; k < n; k++) {
            double d = out.on_b ? tc_v3_dot(out.normal, pts[k].p) - out.plane_d
                                : out.plane_d - tc_v3_dot(out.normal, pts[k].p);
            cr_expect_float_eq(pts[k].depth, d, 1e-12);
            cr_expect_leq(pts[k].depth, out.depth);
        }
    }
    free(pts);
    tc_pen_work_free(w);
    tc_surface_free(&SA);
    tc_surface_free(&SB);
}

/* ---- the deepest point ---- */

/* tc_deepest against a closed form: return 1, depth (tol m), normal (tol) */
static void deep_is(tc_shape sa, tc_body_state A, tc_shape sb, tc_body_state B, double depth,
                    const double normal[3], double tol) {
    double d, n[3], p[3];
    cr_assert_eq(tc_deepest(&sa, &A, &sb, &B, &d, n, p), 1, "%s-%s", tc_shape_name(sa.type),
                 tc_shape_name(sb.type));
    cr_expect_float_eq(d, depth, tol, "%s-%s depth %.17g expected %.17g", tc_shape_name(sa.type),
                       tc_shape_name(sb.type), d, depth);
    for (int c = 0; c < 3; c++)
        cr_expect_float_eq(n[c], normal[c], tol, "%s-%s normal[%d] %.17g expected %.17g",
                           tc_shape_name(sa.type), tc_shape_name(sb.type), c, n[c], normal[c]);
}

/* MPR tolerance 1e-12 m: depths and normals to 1e-9 (measured error below 1e-13); planes exact
 * to 1e-12 */
Test(penetration, deepest_matches_closed_forms) {
    /* sphere-sphere: depth r1 + r2 - d along the centres, point midway between the surfaces */
    double u[3] = {0.3, -0.5, 0.8};
    tc_v3_normalize(u);
    tc_body_state B = pose(0.1, 0.2, 0.3, 1, 0, 0, 0.2);
    tc_body_state A = pose(0.1 + 0.25 * u[0], 0.2 + 0.25 * u[1], 0.3 + 0.25 * u[2], 0, 1, 1, 0.7);
    deep_is(tc_sphere(0.1), A, tc_sphere(0.2), B, 0.05, u, 1e-9);
    {
        double d, n[3], p[3];
        tc_shape s1 = tc_sphere(0.1), s2 = tc_sphere(0.2);
        tc_deepest(&s1, &A, &s2, &B, &d, n, p);
        for (int c = 0; c < 3; c++)
            cr_expect_float_eq(p[c], B.pos[c] + 0.175 * u[c], 1e-9);
    }
    /* sphere on a tilted plane: depth r - height of the centre, normal the plane's */
    tc_body_state P = pose(0.0, 0.0, 0.1, 1, 1, 0, 0.3);
    double pn[3] = {P.R[2], P.R[5], P.R[8]}, c[3];
    for (int k = 0; k < 3; k++)
        c[k] = P.pos[k] + 0.3 * pn[k] + 0.04 * (k == 0);
    /* the centre 4 cm along x from a point 0.3 m above: height 0.3 + 0.04 n_x */
    double hgt = 0.3 + 0.04 * pn[0];
    deep_is(tc_sphere(0.32), pose(c[0], c[1], c[2], 1, 0, 0, 0), tc_plane(), P, 0.32 - hgt, pn,
            1e-12);
    double mpn[3] = {-pn[0], -pn[1], -pn[2]};
    deep_is(tc_plane(), P, tc_sphere(0.32), pose(c[0], c[1], c[2], 1, 0, 0, 0), 0.32 - hgt, mpn,
            1e-12);
    /* box on the ground, generic orientation: the lowest corner */
    tc_shape box = tc_box(0.2, 0.1, 0.05);
    tc_body_state Bx = pose(0.3, 0.4, 0.1, 1, -2, 0.5, 0.9), G = pose(0, 0, 0, 1, 0, 0, 0);
    double lowest = INFINITY;
    for (int v = 0; v < 8; v++) {
        double cl[3] = {v & 1 ? 0.2 : -0.2, v & 2 ? 0.1 : -0.1, v & 4 ? 0.05 : -0.05}, x[3];
        to_world(x, &Bx, cl);
        if (x[2] < lowest) lowest = x[2];
    }
    const double up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    cr_assert_lt(lowest, 0.0);
    deep_is(box, Bx, tc_plane(), G, -lowest, up, 1e-12);
    /* box on a big box, faces parallel, 1 cm overlap, offset sideways */
    deep_is(tc_box(0.05, 0.05, 0.05), pose(0.2, 0.1, 0.54, 1, 0, 0, 0), tc_box(0.5, 0.5, 0.5),
            pose(0, 0, 0, 1, 0, 0, 0), 0.01, up, 1e-9);
    deep_is(tc_box(0.5, 0.5, 0.5), pose(0, 0, 0, 1, 0, 0, 0), tc_box(0.05, 0.05, 0.05),
            pose(0.2, 0.1, 0.54, 1, 0, 0, 0), 0.01, down, 1e-9);
    /* cylinder (r 5 cm, half length 10 cm) on the ground: lying on its side and standing */
    tc_shape cyl = tc_cylinder(0.05, 0.1);
    deep_is(cyl, pose(0.1, 0.1, 0.047, 1, 0, 0, M_PI / 2), tc_plane(), G, 0.003, up, 1e-12);
    deep_is(cyl, pose(0.1, 0.1, 0.096, 0, 1, 0, 0.0), tc_plane(), G, 0.004, up, 1e-12);
    /* tilted 30 degrees about x: the lowest rim point, r sin 30 + h cos 30 below the centre */
    double tz = 0.05 * sin(M_PI / 6) + 0.1 * cos(M_PI / 6);
    deep_is(cyl, pose(0, 0, tz - 0.002, 1, 0, 0, M_PI / 6), tc_plane(), G, 0.002, up, 1e-12);
    /* cylinder standing on and lying on a big box (MPR with the cylinder's support) */
    deep_is(cyl, pose(0.1, 0.1, 0.597, 1, 0, 0, 0), tc_box(0.5, 0.5, 0.5),
            pose(0, 0, 0, 1, 0, 0, 0), 0.003, up, 1e-9);
    deep_is(cyl, pose(0.1, 0.1, 0.547, 0, 1, 0, M_PI / 2), tc_box(0.5, 0.5, 0.5),
            pose(0, 0, 0, 1, 0, 0, 0), 0.003, up, 1e-9);
    /* sphere on a box face */
    deep_is(tc_sphere(0.05), pose(0.1, 0.2, 0.546, 1, 0, 0, 0), tc_box(0.5, 0.5, 0.5),
            pose(0, 0, 0, 1, 0, 0, 0), 0.004, up, 1e-9);
}

/* moving a by the depth along the normal separates it (with 1e-9 m to spare), moving it halfway
 * leaves half the depth (within 1e-6 of it: exact for planes, boxes and two spheres; for two
 * curved surfaces MPR's normal is that of the boundary point on the ray between the centres, so
 * the remaining depth is measured along a slightly different direction), moving it against the
 * normal deepens it: libccd's direction is used with the right sign for every pair kind */
static void sign_case(tc_shape sa, tc_body_state A, tc_shape sb, tc_body_state B) {
    double d, n[3], p[3], d2, n2[3];
    cr_assert_eq(tc_deepest(&sa, &A, &sb, &B, &d, n, p), 1);
    cr_assert_gt(d, 0);
    cr_expect_float_eq(tc_v3_norm(n), 1.0, 1e-12);
    tc_body_state M = A;
    for (int k = 0; k < 3; k++)
        M.pos[k] = A.pos[k] + (d + 1e-9) * n[k];
    cr_expect_eq(tc_deepest(&sa, &M, &sb, &B, &d2, n2, p), 0, "%s-%s still overlaps",
                 tc_shape_name(sa.type), tc_shape_name(sb.type));
    for (int k = 0; k < 3; k++)
        M.pos[k] = A.pos[k] + 0.5 * d * n[k];
    cr_assert_eq(tc_deepest(&sa, &M, &sb, &B, &d2, n2, p), 1);
    cr_expect_float_eq(d2, 0.5 * d, 1e-6 * d, "%s-%s: %.17g of %.17g", tc_shape_name(sa.type),
                       tc_shape_name(sb.type), d2, d);
    for (int k = 0; k < 3; k++)
        M.pos[k] = A.pos[k] - 0.5 * d * n[k];
    cr_assert_eq(tc_deepest(&sa, &M, &sb, &B, &d2, n2, p), 1);
    cr_expect_gt(d2, d);
}

Test(penetration, deepest_sign_convention) {
    tc_body_state O = pose(0, 0, 0, 1, 0, 0, 0);
    sign_case(tc_sphere(0.1), pose(0.05, 0.1, 0.2, 1, 0, 0, 0), tc_sphere(0.2), O);
    sign_case(tc_box(0.1, 0.2, 0.05), pose(0.1, 0.2, 0.22, 1, 1, 0, 0.1), tc_box(0.3, 0.3, 0.2),
              pose(0, 0, 0, 0, 0, 1, 0.05));
    sign_case(tc_cylinder(0.05, 0.1), pose(0.1, -0.05, 0.2, 1, 0, 0, 0.3), tc_sphere(0.15), O);
    sign_case(tc_sphere(0.05), pose(0.5, 0.1, 0.03, 1, 0, 0, 0), tc_plane(), O);
    sign_case(tc_plane(), O, tc_box(0.1, 0.1, 0.1), pose(0.1, 0, 0.05, 1, 1, 1, 0.4));
    sign_case(tc_sphere(0.1), pose(0.0, 0.0, 0.28, 1, 0, 0, 0), tc_cylinder(0.1, 0.2), O);
}

/* separated or touching pairs return 0; unsupported pairs -1 */
Test(penetration, deepest_separated_and_unsupported) {
    double d = -1, n[3], p[3];
    tc_body_state O = pose(0, 0, 0, 1, 0, 0, 0);
    tc_shape s1 = tc_sphere(0.1), s2 = tc_sphere(0.2), bx = tc_box(0.1, 0.1, 0.1), pl = tc_plane(),
             cy = tc_cylinder(0.05, 0.1), el = tc_ellipsoid(0.1, 0.2, 0.3);
    tc_body_state A = pose(0.301, 0, 0, 1, 0, 0, 0);
    cr_expect_eq(tc_deepest(&s1, &A, &s2, &O, &d, n, p), 0);
    A = pose(0.0, 0.201, 0.0, 0, 0, 1, 0.0);
    cr_expect_eq(tc_deepest(&bx, &A, &bx, &O, &d, n, p), 0);
    A = pose(0, 0, 0.1, 1, 0, 0, 0);
    cr_expect_eq(tc_deepest(&s1, &A, &pl, &O, &d, n, p), 0, "touching is not overlapping");
    A = pose(0, 0, 0.3, 1, 0, 0, 0);
    cr_expect_eq(tc_deepest(&cy, &A, &bx, &O, &d, n, p), 0);
    cr_expect_eq(tc_deepest(&pl, &O, &pl, &O, &d, n, p), -1);
    cr_expect_eq(tc_deepest(&el, &O, &s1, &O, &d, n, p), -1);
    cr_expect_eq(tc_deepest(&s1, &O, &el, &O, &d, n, p), -1);
}

/* ---- the separating-axis test ahead of MPR ---- */

/* a posed shape for libccd's GJK, the independent judge below */
typedef struct gjk_obj {
    const tc_shape *s;
    const tc_body_state *S;
} gjk_obj;
static void gjk_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *vec) {
    const gjk_obj *o = obj;
    double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, dl[3], sl[3], w[3];
    tc_m3_mulvt(dl, o->S->R, d);
    tc_shape_support(o->s, dl, sl);
    to_world(w, o->S, sl);
    for (int k = 0; k < 3; k++)
        vec->v[k] = w[k];
}
static int gjk_intersect(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
                         const tc_body_state *B) {
    gjk_obj oa = {sa, A}, ob = {sb, B};
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = gjk_support;
    ccd.support2 = gjk_support;
    ccd.max_iterations = 1000;
    return ccdGJKIntersect(&oa, &ob, &ccd);
}

/* a random unit quaternion's pose at p */
static tc_body_state random_posed(const double p[3]) {
    double ax = 2.0 * rand() / RAND_MAX - 1, ay = 2.0 * rand() / RAND_MAX - 1,
           az = 2.0 * rand() / RAND_MAX - 1 + 1e-3;
    return pose(p[0], p[1], p[2], ax, ay, az, 6.283185307179586 * rand() / RAND_MAX);
}

/* tc_shape_separated claims a gap only where there is one: never for a pair that GJK finds
 * intersecting, at random poses and at poses bisected to first contact (1e-9 m inside and
 * outside it); it proves most of the clearly separated pairs of random poses apart; and a pair it
 * proves apart has no surface point inside the other and tc_deepest finds it apart */
Test(penetration, separated_only_when_apart) {
    tc_shape sh[3] = {tc_sphere(0.12), tc_box(0.2, 0.1, 0.15), tc_cylinder(0.1, 0.2)};
    tc_surface su[3];
    for (int k = 0; k < 3; k++)
        su[k] = surface(sh[k], 0.02);
    srand(5);
    int apart = 0, proved = 0, grazing = 0;
    for (int t = 0; t < 6000; t++) {
        int ka = rand() % 3, kb = rand() % 3;
        double p[3], o[3] = {0, 0, 0}, dir[3];
        for (int k = 0; k < 3; k++)
            dir[k] = 2.0 * rand() / RAND_MAX - 1;
        tc_v3_normalize(dir);
        tc_body_state B = random_posed(o), A;
        if (t % 2) {
            /* a random pose within reach */
            for (int k = 0; k < 3; k++)
                p[k] = 0.7 * dir[k] * rand() / RAND_MAX;
            A = random_posed(p);
        } else {
            /* first contact along dir: bisect the distance GJK sees them touch at */
            A = random_posed(o);
            double lo = 0, hi = 1.0;
            for (int it = 0; it < 60; it++) {
                double mid = 0.5 * (lo + hi);
                tc_v3_scale(A.pos, dir, mid);
                if (gjk_intersect(&sh[ka], &A, &sh[kb], &B))
                    lo = mid;
                else
                    hi = mid;
            }
            double s = t % 4 ? lo - 1e-9 : hi + 1e-9;
            tc_v3_scale(A.pos, dir, s);
            grazing++;
        }
        double gap;
        int sep = tc_shape_separated(&sh[ka], &A, &sh[kb], &B, t % 8, &gap);
        cr_assert(sep >= 0 && sep <= 7);
        int hit = gjk_intersect(&sh[ka], &A, &sh[kb], &B);
        cr_assert(!(sep && hit), "trial %d: shapes %d and %d intersect but were called apart", t,
                  ka, kb);
        if (!hit && t % 2) {
            apart++;
            proved += sep;
        }
        if (!sep) continue;
        /* proved apart: no sample inside the other shape, and no deepest point */
        for (int side = 0; side < 2; side++) {
            const tc_surface *S = side ? &su[kb] : &su[ka];
            const tc_body_state *P = side ? &B : &A, *O = side ? &A : &B;
            const tc_shape *so = side ? &sh[ka] : &sh[kb];
            for (int i = 0; i < S->npoint; i++) {
                double w[3], d[3], y[3];
                to_world(w, P, S->p[i]);
                tc_v3_sub(d, w, O->pos);
                tc_m3_mulvt(y, O->R, d);
                cr_assert(!tc_pen_inside(so, y), "trial %d: a sample inside", t);
            }
        }
        double depth, n[3], q[3];
        cr_assert_eq(tc_deepest(&sh[ka], &A, &sh[kb], &B, &depth, n, q), 0);
    }
    cr_expect(grazing > 2000 && apart > 1000, "%d grazing, %d apart", grazing, apart);
    cr_expect(proved > apart / 2, "the axes proved %d of %d separated pairs apart", proved, apart);
    for (int k = 0; k < 3; k++)
        tc_surface_free(&su[k]);
}

/* the gap tc_shape_separated reports is a clearance: with a moved toward b along the line of
 * centres by half of it and b turned about its centre so that its points move by up to the other
 * half (r |R' - R|_F, r its bounding radius), the two never intersect and tc_deepest finds them
 * apart; moved by twice the gap instead, some do meet (the gap is not a loose bound) */
Test(penetration, separated_gap_is_a_clearance) {
    tc_shape sh[3] = {tc_sphere(0.12), tc_box(0.2, 0.1, 0.15), tc_cylinder(0.1, 0.2)};
    const double radius[3] = {0.12, sqrt(0.2 * 0.2 + 0.1 * 0.1 + 0.15 * 0.15), hypot(0.1, 0.2)};
    srand(11);
    int checked = 0, met_at_twice = 0;
    for (int t = 0; t < 6000; t++) {
        int ka = rand() % 3, kb = rand() % 3;
        double p[3], o[3] = {0, 0, 0}, c[3];
        for (int k = 0; k < 3; k++)
            p[k] = 0.8 * (2.0 * rand() / RAND_MAX - 1);
        tc_body_state A = random_posed(p), B = random_posed(o);
        double gap = -1;
        int sep = tc_shape_separated(&sh[ka], &A, &sh[kb], &B, t % 8, &gap);
        if (!sep) {
            cr_assert_eq(gap, 0, "trial %d: a gap without an axis", t);
            continue;
        }
        cr_assert(gap > 0 && isfinite(gap), "trial %d: axis %d with gap %g", t, sep, gap);
        checked++;
        tc_v3_sub(c, B.pos, A.pos);
        tc_v3_normalize(c);
        for (int twice = 0; twice < 2; twice++) {
            /* a moves by s along c, b turns by the angle whose |R' - R|_F r is s as well */
            const double s = twice ? 2 * gap : 0.499 * gap;
            tc_body_state A2 = A, B2 = B;
            tc_v3_addscl(A2.pos, c, s);
            double ang = 2 * asin(fmin(1, s / (2 * sqrt(2.0) * radius[kb]))), q[4], qb[4];
            tc_body_state turn = random_posed(o);
            double ax[3] = {turn.quat[1], turn.quat[2], turn.quat[3]};
            tc_v3_normalize(ax);
            q[0] = cos(ang / 2);
            for (int k = 0; k < 3; k++)
                q[1 + k] = ax[k] * sin(ang / 2);
            tc_quat_mul(qb, q, B.quat);
            memcpy(B2.quat, qb, sizeof qb);
            tc_quat_to_mat(B2.R, B2.quat);
            if (!twice) {
                double dR = 0;
                for (int k = 0; k < 9; k++)
                    dR += (B2.R[k] - B.R[k]) * (B2.R[k] - B.R[k]);
                cr_assert(radius[kb] * sqrt(dR) <= 0.5 * gap, "trial %d: turned too far", t);
                cr_assert(!gjk_intersect(&sh[ka], &A2, &sh[kb], &B2),
                          "trial %d: moved less than the gap %g, yet they meet", t, gap);
                double depth, n[3], x[3];
                cr_assert_eq(tc_deepest(&sh[ka], &A2, &sh[kb], &B2, &depth, n, x), 0);
            } else {
                met_at_twice += gjk_intersect(&sh[ka], &A2, &sh[kb], &B2);
            }
        }
    }
    cr_expect(checked > 1000, "only %d pairs proved apart", checked);
    cr_expect(met_at_twice > checked / 4, "moved by twice the gap, only %d of %d met", met_at_twice,
              checked);
}
