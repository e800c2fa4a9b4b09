/* SPDX-License-Identifier: MIT */
/* the convex polytope shape: hull, mass properties, distance, AOPC samples, penetration surface,
 * deepest point and bottom points against closed forms and against the box, MuJoCo vs penalty */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide/tc_collide.h"
#include "collide/tc_penetration.h"
#include "geom/tc_aopc.h"
#include "math/tc_vec.h"
#include "sim/tc_sim.h"
#include "test_pose.h"
#include "tc_config.h"

/* the polytope of n points; fails the test on error */
static tc_shape poly(const double (*v)[3], int n) {
    tc_shape s;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_polytope(&s, v, n, &err), TC_OK, "%s", err.msg);
    return s;
}

/* the 8 corners of a box of half extents a, b, c */
static void corners(double a, double b, double c, double (*v)[3]) {
    for (int i = 0; i < 8; i++)
        tc_v3_set(v[i], i & 1 ? a : -a, i & 2 ? b : -b, i & 4 ? c : -c);
}

/* the box's corners plus interior points and a point in the middle of the +x face */
static tc_shape cube_poly(double a, double b, double c) {
    double v[14][3];
    corners(a, b, c, v);
    tc_v3_set(v[8], 0, 0, 0);
    tc_v3_set(v[9], 0.3 * a, -0.2 * b, 0.1 * c);
    tc_v3_set(v[10], -0.5 * a, 0.5 * b, -0.5 * c);
    tc_v3_set(v[11], 0.9 * a, 0.9 * b, 0.9 * c);
    tc_v3_set(v[12], a, 0.2 * b, -0.1 * c);
    tc_v3_set(v[13], -0.99 * a, 0, 0.5 * c);
    return poly((const double(*)[3])v, 14);
}

/* a regular tetrahedron, vertices s (+-1, +-1, +-1) with an even number of minus signs */
static tc_shape tetra(double s) {
    const double v[4][3] = {{s, s, s}, {s, -s, -s}, {-s, s, -s}, {-s, -s, s}};
    return poly(v, 4);
}

/* a regular octahedron, vertices +-r on the axes */
static tc_shape octa(double r) {
    const double v[6][3] = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
    return poly(v, 6);
}

/* a deterministic pseudo-random number in [-1, 1) */
static double rnd(unsigned *st) {
    *st = *st * 1664525u + 1013904223u;
    return (double)(*st >> 8) / (double)(1u << 23) - 1;
}

/* ---- hull and mass properties ---- */

Test(polytope, cube_hull_has_8_vertices_6_faces_and_the_box_mass) {
    const double a = 0.2, b = 0.1, c = 0.05, rho = 1000;
    tc_shape p = cube_poly(a, b, c), bx = tc_box(a, b, c);
    cr_assert_eq(p.hull->nvert, 8);
    cr_assert_eq(p.hull->nface, 6);
    for (int f = 0; f < 6; f++)
        cr_assert_eq(p.hull->fnv[f], 4, "face %d has %d vertices", f, p.hull->fnv[f]);
    /* hull vertices in input order: the 8 corners */
    double v[8][3];
    corners(a, b, c, v);
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            cr_assert_eq(p.hull->vert[i][k], v[i][k]);
    double mp, Ip[3], mb, Ib[3];
    tc_shape_mass(&p, rho, &mp, Ip);
    tc_shape_mass(&bx, rho, &mb, Ib);
    cr_assert_float_eq(mp, mb, 1e-12 * mb);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(Ip[k], Ib[k], 1e-12 * Ib[k], "I%d", k);
    /* shifted by (1, 2, 3) cm: tc_shape_center finds the shift and restores the box's inertia */
    double w[8][3];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++)
            w[i][k] = v[i][k] + 0.01 * (k + 1);
    tc_shape q = poly((const double(*)[3])w, 8);
    double com[3];
    tc_error err;
    cr_assert_eq(tc_shape_center(&q, com, &err), TC_OK, "%s", err.msg);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(com[k], 0.01 * (k + 1), 1e-15);
    tc_shape_mass(&q, rho, &mp, Ip);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(Ip[k], Ib[k], 1e-12 * Ib[k], "I%d", k);
    cr_assert_eq(tc_shape_check(&q, &err), TC_OK, "%s", err.msg);
}

Test(polytope, regular_tetrahedron_and_octahedron_closed_forms) {
    const double s = 0.03, r = 0.05, rho = 2000;
    tc_shape t = tetra(s), o = octa(r);
    cr_assert_eq(t.hull->nvert, 4);
    cr_assert_eq(t.hull->nface, 4);
    cr_assert_eq(o.hull->nvert, 6);
    cr_assert_eq(o.hull->nface, 8);
    /* tetrahedron: edge e = 2 sqrt(2) s, V = e^3 / (6 sqrt 2) = 8 s^3 / 3, I = m e^2 / 20 */
    double m, I[3], e = 2 * sqrt(2) * s;
    tc_shape_mass(&t, rho, &m, I);
    double mt = rho * 8 * s * s * s / 3;
    cr_assert_float_eq(m, mt, 1e-12 * mt);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(I[k], mt * e * e / 20, 1e-12 * mt * e * e);
    /* octahedron: V = 4 r^3 / 3, I = m r^2 / 5 */
    tc_shape_mass(&o, rho, &m, I);
    double mo = rho * 4 * r * r * r / 3;
    cr_assert_float_eq(m, mo, 1e-12 * mo);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(I[k], mo * r * r / 5, 1e-12 * mo * r * r);
    /* both already have their COM at the origin and isotropic inertia */
    double com[3];
    tc_error err;
    cr_assert_eq(tc_shape_center(&t, com, &err), TC_OK, "%s", err.msg);
    cr_assert_leq(tc_v3_norm(com), 1e-17);
}

Test(polytope, prism_com_and_refused_tilted_box) {
    /* isosceles triangular prism: base 2a on z = 0, apex height h, length 2L along y: COM at
     * z = h / 3; about the COM Ixx = m (h^2 / 18 + L^2 / 3), Izz = m (a^2 / 6 + L^2 / 3) */
    const double a = 0.06, h = 0.05, L = 0.04;
    const double v[6][3] = {{-a, -L, 0}, {a, -L, 0}, {0, -L, h}, {-a, L, 0}, {a, L, 0}, {0, L, h}};
    tc_shape p = poly(v, 6);
    cr_assert_eq(p.hull->nface, 5);
    double com[3], m, I[3];
    tc_error err;
    cr_assert_eq(tc_shape_center(&p, com, &err), TC_OK, "%s", err.msg);
    cr_assert_float_eq(com[2], h / 3, 1e-15);
    cr_assert_float_eq(com[0], 0, 1e-15);
    tc_shape_mass(&p, 1000, &m, I);
    cr_assert_float_eq(m, 1000 * a * h * 2 * L, 1e-12 * m);
    cr_assert_float_eq(I[0], m * (h * h / 18 + L * L / 3), 1e-12 * I[0]);
    cr_assert_float_eq(I[1], m * (a * a / 6 + h * h / 18), 1e-12 * I[1]);
    cr_assert_float_eq(I[2], m * (a * a / 6 + L * L / 3), 1e-12 * I[2]);
    /* a 4 x 2 x 1 box turned 30 degrees about z: products of inertia, refused naming the shape */
    double w[8][3], R[9], q[4] = {cos(M_PI / 12), 0, 0, sin(M_PI / 12)};
    corners(0.2, 0.1, 0.05, w);
    tc_quat_to_mat(R, q);
    for (int i = 0; i < 8; i++) {
        double x[3];
        tc_m3_mulv(x, R, w[i]);
        tc_v3_copy(w[i], x);
    }
    tc_shape t = poly((const double(*)[3])w, 8);
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_center(&t, com, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    cr_assert(strstr(err.msg, "polytope") && strstr(err.msg, "diagonal"), "%s", err.msg);
}

Test(polytope, errors_name_the_parameter) {
    tc_shape s;
    tc_error err;
    /* fewer than 4 points */
    const double three[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    tc_error_clear(&err);
    cr_assert_eq(tc_polytope(&s, three, 3, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    /* coplanar */
    const double flat[5][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.2, 0}};
    tc_error_clear(&err);
    cr_assert_eq(tc_polytope(&s, flat, 5, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    cr_assert(strstr(err.msg, "coplanar"), "%s", err.msg);
    /* not finite */
    double bad[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}};
    tc_error_clear(&err);
    cr_assert_eq(tc_polytope(&s, (const double(*)[3])bad, 4, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    cr_assert(strstr(err.msg, "point 3"), "%s", err.msg);
    /* 40 points on a sphere: 40 hull vertices, more than TC_POLY_MAXVERT */
    double sp[40][3];
    for (int i = 0; i < 40; i++) {
        double z = 1 - (2.0 * i + 1) / 40, rho = sqrt(1 - z * z), t = 2.39996 * i;
        tc_v3_set(sp[i], rho * cos(t), rho * sin(t), z);
    }
    tc_error_clear(&err);
    cr_assert_eq(tc_polytope(&s, (const double(*)[3])sp, 40, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    cr_assert(strstr(err.msg, "40 vertices"), "%s", err.msg);
    /* tc_shape_check on damaged structs */
    tc_shape o = octa(0.05), d = o;
    tc_hull hd = *o.hull; /* a damaged copy of the shared hull, which stays intact */
    d.hull = &hd;
    cr_assert_eq(tc_shape_check(&o, &err), TC_OK, "%s", err.msg);
    hd.nvert = TC_POLY_MAXVERT + 1;
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_check(&d, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    hd = *o.hull;
    hd.vert[2][1] = INFINITY;
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_check(&d, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    d.hull = NULL; /* no hull */
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_check(&d, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "vertices");
    d.hull = &hd;
    hd = *o.hull;
    hd.face[3][3] -= 0.01; /* a vertex above face 3: not convex */
    tc_error_clear(&err);
    cr_assert_eq(tc_shape_check(&d, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "faces");
    cr_assert_str_eq(tc_shape_name(TC_SHAPE_POLYTOPE), "polytope");
    tc_shape_type ty;
    cr_assert_eq(tc_shape_parse("polytope", &ty), TC_OK);
    cr_assert_eq(ty, TC_SHAPE_POLYTOPE);
}

/* ---- the shared hull ---- */

/* a prism: the isosceles triangle (-2a, 0), (2a, 0), (0, 3a) in x-y, z in [0, a] (m), in
 * principal axes with its COM at (0, a, a / 2), so centring it makes a new hull */
static void prism(double a, double (*v)[3]) {
    const double t[3][2] = {{-2 * a, 0}, {2 * a, 0}, {0, 3 * a}};
    for (int i = 0; i < 6; i++)
        tc_v3_set(v[i], t[i % 3][0], t[i % 3][1], i < 3 ? 0 : a);
}

Test(polytope, equal_hulls_are_shared_and_different_ones_are_not) {
    size_t n0 = tc_hull_count();
    tc_shape a = cube_poly(0.123, 0.0456, 0.0789), b = cube_poly(0.123, 0.0456, 0.0789);
    cr_assert_eq(a.hull, b.hull, "the same points: one hull");
    cr_assert_eq(tc_hull_count(), n0 + 1);
    tc_shape c = cube_poly(0.123, 0.0456, 0.079);
    cr_assert_neq(c.hull, a.hull, "other points: another hull");
    cr_assert_eq(tc_hull_count(), n0 + 2);
    /* the key is the exact content: a copy interns to the shared hull, a copy with one
     * coordinate's sign bit flipped (0.0 to -0.0) does not */
    tc_hull h = *a.hull;
    cr_assert_eq(tc_hull_intern(&h), a.hull);
    double v[6][3];
    prism(0.0321, v);
    tc_shape p = poly((const double(*)[3])v, 6);
    cr_assert_eq(p.hull->vert[0][1], 0.0);
    h = *p.hull;
    h.vert[0][1] = -0.0;
    const tc_hull *hz = tc_hull_intern(&h);
    cr_assert(hz && hz != p.hull && hz != &h);
    cr_assert_eq(tc_hull_intern(&h), hz);
    /* centring gives a new shared hull and leaves the first one as it was */
    tc_shape p2 = p, p3 = p;
    double com2[3], com3[3];
    tc_error err;
    cr_assert_eq(tc_shape_center(&p2, com2, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_shape_center(&p3, com3, &err), TC_OK, "%s", err.msg);
    cr_assert_neq(p2.hull, p.hull);
    cr_assert_eq(p2.hull, p3.hull);
    cr_assert_eq(p.hull->vert[0][1], 0.0, "the shared hull is not moved");
    cr_assert_float_eq(com2[1], 0.0321, 1e-15);
    cr_assert_float_eq(p2.hull->vert[0][1], -0.0321, 1e-15);
    /* two bodies of one polytope in a scene share the centred hull */
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_not_null(sc);
    *sc = tc_default_scene();
    for (int i = 0; i < 2; i++) {
        tc_body_desc bd = tc_default_body(i ? "b" : "a", p);
        bd.joint = TC_JOINT_FREE;
        cr_assert_eq(tc_scene_add(sc, &bd, 1000, &err), TC_OK, "%s", err.msg);
    }
    cr_assert_eq(sc->body[0].shape.hull, p2.hull);
    cr_assert_eq(sc->body[1].shape.hull, p2.hull);
    free(sc);
    /* out of bounds: refused, nothing interned */
    size_t n1 = tc_hull_count();
    h = *a.hull;
    h.nvert = TC_POLY_MAXVERT + 1;
    cr_assert_null(tc_hull_intern(&h));
    h = *a.hull;
    h.fofs[0] = TC_POLY_MAXLOOP;
    cr_assert_null(tc_hull_intern(&h));
    cr_assert_eq(tc_hull_count(), n1);
}

Test(polytope, hulls_built_from_openmp_threads_are_shared_and_identical) {
    /* K prisms (new to this process), each built and centred 16 times from 4 threads */
    enum { K = 4, N = 16 * K };
    size_t n0 = tc_hull_count();
    const tc_hull *raw[N], *centred[N];
    int fails = 0;
#pragma omp parallel for schedule(dynamic) num_threads(4) reduction(+ : fails)
    for (int i = 0; i < N; i++) {
        double v[6][3], com[3];
        prism(0.05 + 0.001 * (i % K), v);
        tc_shape s;
        fails += tc_polytope(&s, (const double(*)[3])v, 6, NULL) != TC_OK;
        raw[i] = s.hull;
        fails += tc_shape_center(&s, com, NULL) != TC_OK;
        centred[i] = s.hull;
    }
    cr_assert_eq(fails, 0);
    cr_assert_eq(tc_hull_count(), n0 + 2 * K, "one raw and one centred hull per prism");
    for (int i = 0; i < N; i++) {
        cr_assert_eq(raw[i], raw[i % K], "build %d", i);
        cr_assert_eq(centred[i], centred[i % K], "build %d", i);
        cr_assert_neq(raw[i], centred[i]);
    }
    /* the same as built on one thread, bit for bit */
    for (int k = 0; k < K; k++) {
        double v[6][3], com[3];
        prism(0.05 + 0.001 * k, v);
        tc_shape s = poly((const double(*)[3])v, 6);
        cr_assert_eq(s.hull, raw[k]);
        cr_assert_eq(tc_shape_center(&s, com, NULL), TC_OK);
        cr_assert_eq(s.hull, centred[k]);
        cr_assert_eq(memcmp(s.hull->vert, centred[k]->vert, sizeof s.hull->vert), 0);
    }
}

/* ---- distance ---- */

Test(polytope, distance_matches_closed_forms) {
    /* the cube-as-polytope against the box's exact distance, inside and outside */
    const double a = 0.2, b = 0.1, c = 0.05;
    tc_shape p = cube_poly(a, b, c), bx = tc_box(a, b, c);
    unsigned st = 7;
    int nin = 0, nout = 0;
    for (int i = 0; i < 4000; i++) {
        double x[3] = {0.4 * rnd(&st), 0.2 * rnd(&st), 0.1 * rnd(&st)}, np[3], nb[3];
        double dp = tc_shape_distance(&p, x, np), db = tc_shape_distance(&bx, x, nb);
        cr_assert_float_eq(dp, db, 1e-12, "at (%g %g %g): %.17g vs %.17g", x[0], x[1], x[2], dp,
                           db);
        for (int k = 0; k < 3; k++)
            cr_assert_float_eq(np[k], nb[k], 1e-12);
        dp < 0 ? nin++ : nout++;
    }
    cr_assert(nin > 100 && nout > 100);
    /* the tetrahedron: inradius s / sqrt 3 at the centre; beyond a vertex, the distance to it;
     * above a face's centre, the height over it */
    const double s = 0.03;
    tc_shape t = tetra(s);
    double o[3] = {0, 0, 0}, n[3];
    cr_assert_float_eq(tc_shape_distance(&t, o, n), -s / sqrt(3), 1e-15);
    double q[3] = {2 * s, 2 * s, 2 * s};
    cr_assert_float_eq(tc_shape_distance(&t, q, n), s * sqrt(3), 1e-15);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(n[k], 1 / sqrt(3), 1e-15);
    /* the face opposite (s, s, s) has outward normal -(1, 1, 1)/sqrt 3 and centre -(s/3)(1,1,1) */
    double fc[3] = {-s / 3 - 0.01 / sqrt(3), -s / 3 - 0.01 / sqrt(3), -s / 3 - 0.01 / sqrt(3)};
    cr_assert_float_eq(tc_shape_distance(&t, fc, n), 0.01, 1e-15);
    /* the sign: inside exactly when below every face plane (random points) */
    for (int i = 0; i < 4000; i++) {
        double x[3] = {0.06 * rnd(&st), 0.06 * rnd(&st), 0.06 * rnd(&st)};
        int inside = 1;
        for (int f = 0; f < t.hull->nface; f++)
            inside &= tc_v3_dot(t.hull->face[f], x) < t.hull->face[f][3];
        double d = tc_shape_distance(&t, x, n);
        cr_assert_eq(d < 0, inside);
        cr_assert_float_eq(tc_v3_norm(n), 1, 1e-12);
    }
}

/* ---- SCM samples ---- */

Test(polytope, aopc_samples_lie_on_faces_with_their_normals) {
    const double h = 0.013;
    tc_shape shapes[3] = {tetra(0.03), octa(0.05), cube_poly(0.2, 0.1, 0.05)};
    tc_error err;
    for (int s = 0; s < 3; s++) {
        tc_aopc c;
        cr_assert_eq(tc_aopc_alloc(&c, &shapes[s], h, &err), TC_OK, "%s", err.msg);
        int per_face[TC_POLY_MAXFACE] = {0};
        for (int i = 0; i < c.n; i++) {
            double p[3] = {c.px[i], c.py[i], c.pz[i]}, nrm[3] = {c.nx[i], c.ny[i], c.nz[i]}, dn[3];
            cr_assert_float_eq(tc_shape_distance(&shapes[s], p, dn), 0, 1e-12);
            /* the normal is that of the face the point is on, and the point is off its edges */
            int f = 0;
            while (f < shapes[s].hull->nface && tc_v3_dot(nrm, shapes[s].hull->face[f]) < 1 - 1e-15)
                f++;
            cr_assert_lt(f, shapes[s].hull->nface, "shape %d point %d: normal of no face", s, i);
            cr_assert_float_eq(tc_v3_dot(shapes[s].hull->face[f], p), shapes[s].hull->face[f][3],
                               1e-12);
            cr_assert(tc_polytope_face_contains(&shapes[s], f, p, 1e-10));
            per_face[f]++;
        }
        for (int f = 0; f < shapes[s].hull->nface; f++)
            cr_assert_gt(per_face[f], 0, "face %d", f);
        tc_aopc_free(&c);
    }
    /* the cube's samples are the box sampler's, as a set */
    tc_shape bx = tc_box(0.2, 0.1, 0.05);
    tc_aopc cp, cb;
    cr_assert_eq(tc_aopc_alloc(&cp, &shapes[2], h, &err), TC_OK);
    cr_assert_eq(tc_aopc_alloc(&cb, &bx, h, &err), TC_OK);
    cr_assert_eq(cp.n, cb.n);
    cr_assert_float_eq(cp.spacing, cb.spacing, 1e-12);
    for (int i = 0; i < cp.n; i++) {
        int found = 0;
        for (int j = 0; j < cb.n && !found; j++)
            found = fabs(cp.px[i] - cb.px[j]) < 1e-12 && fabs(cp.py[i] - cb.py[j]) < 1e-12 &&
                    fabs(cp.pz[i] - cb.pz[j]) < 1e-12 && cp.nx[i] == cb.nx[j] &&
                    cp.ny[i] == cb.ny[j] && cp.nz[i] == cb.nz[j];
        cr_assert(found, "polytope sample %d is no box sample", i);
    }
    tc_aopc_free(&cp);
    tc_aopc_free(&cb);
}

/* ---- penetration surface ---- */

Test(polytope, surface_points_normals_and_faces) {
    tc_shape shapes[2] = {octa(0.05), cube_poly(0.2, 0.1, 0.05)};
    tc_error err;
    for (int s = 0; s < 2; s++) {
        tc_surface S;
        cr_assert_eq(tc_surface_alloc(&S, &shapes[s], 0.011, &err), TC_OK, "%s", err.msg);
        cr_assert_eq(S.nface, shapes[s].hull->nface);
        cr_assert_float_eq(S.radius, tc_polytope_radius(&shapes[s]), 0);
        for (int i = 0; i < S.npoint; i++) {
            double dn[3];
            cr_assert_float_eq(tc_shape_distance(&shapes[s], S.p[i], dn), 0, 1e-12);
            cr_assert(S.nn[i] >= 1 && S.nn[i] <= TC_SURF_MAXNORMAL);
            /* each normal is a face's along which the point is a support point */
            for (int k = 0; k < S.nn[i]; k++) {
                double sp[3];
                cr_assert_float_eq(tc_v3_norm(S.n[i][k]), 1, 1e-15);
                tc_shape_support(&shapes[s], S.n[i][k], sp);
                cr_assert_float_eq(tc_v3_dot(S.n[i][k], S.p[i]), tc_v3_dot(S.n[i][k], sp), 1e-12);
            }
            for (int f = 0; f < S.nface; f++)
                cr_assert_leq(tc_v3_dot(S.face[f], S.p[i]), S.face[f][3] + 1e-12);
        }
        /* vertices first: an octahedron's 4 faces per vertex keep 3 normals, a cube corner 3 */
        for (int v = 0; v < shapes[s].hull->nvert; v++)
            cr_assert_eq(S.nn[v], 3);
        tc_surface_free(&S);
    }
    /* the octahedron vertex (0, 0, -r) keeps 3 of its 4 faces: two opposite ones first */
    tc_surface S;
    cr_assert_eq(tc_surface_alloc(&S, &shapes[0], 0.011, &err), TC_OK);
    cr_assert_lt(tc_v3_dot(S.n[5][0], S.n[5][1]), -0.3);
    tc_surface_free(&S);
    /* the support point: the vertex of largest d . v, ties to the lowest index (the cube's
     * corner 4, (-a, -b, c), along +z; corner 7 along (1, 1, 1)) */
    double d[3] = {0, 0, 1}, sp[3];
    tc_shape_support(&shapes[1], d, sp);
    cr_assert(sp[0] == -0.2 && sp[1] == -0.1 && sp[2] == 0.05);
    tc_v3_set(d, 1, 1, 1);
    tc_shape_support(&shapes[1], d, sp);
    cr_assert(sp[0] == 0.2 && sp[1] == 0.1 && sp[2] == 0.05);
    /* the cube has as many points as the box lattice */
    tc_surface A, B;
    tc_shape bx = tc_box(0.2, 0.1, 0.05);
    cr_assert_eq(tc_surface_alloc(&A, &shapes[1], 0.011, &err), TC_OK);
    cr_assert_eq(tc_surface_alloc(&B, &bx, 0.011, &err), TC_OK);
    cr_assert_eq(A.npoint, B.npoint);
    tc_surface_free(&A);
    tc_surface_free(&B);
}

/* ---- deepest point ---- */

Test(polytope, deepest_tetrahedron_vertex_down_and_octahedron_on_a_box) {
    const double s = 0.03, dep = 0.004;
    tc_shape t = tetra(s), pl = tc_plane();
    /* turn (1, 1, 1) to -z: about the axis (1, -1, 0) by pi - acos(1 / sqrt 3) */
    double ang = M_PI - acos(1 / sqrt(3));
    tc_body_state T = pose(0.01, -0.02, s * sqrt(3) - dep, 1, -1, 0, ang),
                  P = pose(0, 0, 0, 1, 0, 0, 0);
    double d, n[3], x[3];
    cr_assert_eq(tc_deepest(&t, &T, &pl, &P, &d, n, x), 1);
    cr_assert_float_eq(d, dep, 1e-12);
    cr_assert_float_eq(n[2], 1, 1e-15);
    cr_assert_float_eq(x[2], -dep / 2, 1e-12);
    cr_assert_float_eq(x[0], 0.01, 1e-12);
    cr_assert_eq(tc_deepest(&pl, &P, &t, &T, &d, n, x), 1);
    cr_assert_float_eq(d, dep, 1e-12);
    cr_assert_float_eq(n[2], -1, 1e-15);
    /* lifted by 2 dep: apart */
    T.pos[2] += 2 * dep;
    cr_assert_eq(tc_deepest(&t, &T, &pl, &P, &d, n, x), 0);
    /* an octahedron (r 5 cm) vertex-down 3 mm into the top of a 40 x 40 x 20 cm box, offset
     * sideways: depth 3 mm along +z (MPR, 1e-9), both orders */
    tc_shape o = octa(0.05), bx = tc_box(0.2, 0.2, 0.1);
    tc_body_state O = pose(0.03, -0.02, 0.1 + 0.05 - 0.003, 0, 0, 1, 0.3),
                  B = pose(0, 0, 0, 0, 0, 1, 0);
    cr_assert_eq(tc_deepest(&o, &O, &bx, &B, &d, n, x), 1);
    cr_assert_float_eq(d, 0.003, 1e-9);
    cr_assert_float_eq(n[2], 1, 1e-9);
    cr_assert_eq(tc_deepest(&bx, &B, &o, &O, &d, n, x), 1);
    cr_assert_float_eq(d, 0.003, 1e-9);
    cr_assert_float_eq(n[2], -1, 1e-9);
    /* polytope-polytope: the cube-as-polytope face down 2 mm on another, as two boxes */
    tc_shape c1 = cube_poly(0.05, 0.05, 0.05), b1 = tc_box(0.05, 0.05, 0.05);
    tc_body_state U = pose(0.01, 0.02, 0.098, 0, 0, 1, 0), L = pose(0, 0, 0, 0, 0, 1, 0);
    double db, nb[3], xb[3];
    cr_assert_eq(tc_deepest(&c1, &U, &c1, &L, &d, n, x), 1);
    cr_assert_eq(tc_deepest(&b1, &U, &b1, &L, &db, nb, xb), 1);
    cr_assert_float_eq(d, 0.002, 1e-9);
    cr_assert_float_eq(d, db, 1e-9);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(n[k], nb[k], 1e-9);
    /* polytope-sphere: a 2 cm sphere 1 mm into the cube's +z face */
    tc_shape sp = tc_sphere(0.02);
    tc_body_state S = pose(0.01, 0, 0.05 + 0.02 - 0.001, 0, 0, 1, 0);
    cr_assert_eq(tc_deepest(&sp, &S, &c1, &L, &d, n, x), 1);
    cr_assert_float_eq(d, 0.001, 1e-9);
    cr_assert_float_eq(n[2], 1, 1e-9);
    /* polytope-cylinder: the octahedron vertex-down 2 mm on a standing cylinder's cap */
    tc_shape cy = tc_cylinder(0.1, 0.05);
    O = pose(0.02, 0, 0.05 + 0.05 - 0.002, 0, 0, 1, 0);
    cr_assert_eq(tc_deepest(&o, &O, &cy, &L, &d, n, x), 1);
    cr_assert_float_eq(d, 0.002, 1e-9);
    cr_assert_float_eq(n[2], 1, 1e-9);
}

/* ---- bottom points ---- */

/* 1 when the two outputs hold the same points and depths as sets (1e-12 m) */
static int same_points(const tc_pen_point *a, int na, const tc_pen_point *b, int nb) {
    if (na != nb) return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb && !found; j++) {
            double d[3];
            tc_v3_sub(d, a[i].p, b[j].p);
            found = tc_v3_norm(d) < 1e-12 && fabs(a[i].depth - b[j].depth) < 1e-12;
        }
        if (!found) return 0;
    }
    return 1;
}

Test(polytope, penetrate_cube_polytope_equals_box) {
    const double h = 0.025;
    tc_shape cp = cube_poly(0.2, 0.1, 0.02), bx = tc_box(0.2, 0.1, 0.02), pl = tc_plane();
    tc_surface SP, SB, SL;
    tc_error err;
    cr_assert_eq(tc_surface_alloc(&SP, &cp, h, &err), TC_OK);
    cr_assert_eq(tc_surface_alloc(&SB, &bx, h, &err), TC_OK);
    cr_assert_eq(tc_surface_alloc(&SL, &pl, h, &err), TC_OK);
    tc_pen_work *w = tc_pen_work_alloc(SP.npoint > SB.npoint ? SP.npoint : SB.npoint);
    static tc_pen_point p1[4096], p2[4096];
    tc_penetration o1, o2;
    /* tilted 20 degrees about x, lowest edge 5 cm deep, on the ground, both orders */
    double ang = 20 * M_PI / 180, zc = 0.1 * sin(ang) + 0.02 * cos(ang) - 0.05;
    tc_body_state A = pose(0.01, 0.02, zc, 1, 0, 0, ang), G = pose(0, 0, 0, 1, 0, 0, 0);
    int n1 = tc_penetrate(&cp, &SP, &A, &pl, &SL, &G, w, &o1, p1, 4096);
    int n2 = tc_penetrate(&bx, &SB, &A, &pl, &SL, &G, w, &o2, p2, 4096);
    cr_assert_gt(n1, 10);
    cr_assert(same_points(p1, n1, p2, n2), "%d vs %d points", n1, n2);
    cr_assert_float_eq(o1.depth, 0.05, 1e-12);
    cr_assert_float_eq(o1.normal[2], 1, 1e-15);
    n1 = tc_penetrate(&pl, &SL, &G, &cp, &SP, &A, w, &o1, p1, 4096);
    n2 = tc_penetrate(&pl, &SL, &G, &bx, &SB, &A, w, &o2, p2, 4096);
    cr_assert(same_points(p1, n1, p2, n2), "swapped: %d vs %d points", n1, n2);
    cr_assert_eq(o1.on_b, 1);
    /* on a fixed box instead of the plane, turned about z and overhanging: box-on-box's set */
    tc_shape big = tc_box(0.5, 0.5, 0.1);
    tc_surface SG;
    cr_assert_eq(tc_surface_alloc(&SG, &big, h, &err), TC_OK);
    tc_pen_work *w2 = tc_pen_work_alloc(SG.npoint);
    tc_body_state C = pose(0.4, 0.1, 0.1 + 0.02 - 0.004, 0, 0, 1, 0.4),
                  F = pose(0, 0, 0, 0, 0, 1, 0);
    n1 = tc_penetrate(&cp, &SP, &C, &big, &SG, &F, w2, &o1, p1, 4096);
    n2 = tc_penetrate(&bx, &SB, &C, &big, &SG, &F, w2, &o2, p2, 4096);
    cr_assert_gt(n1, 10);
    cr_assert(same_points(p1, n1, p2, n2), "on a box: %d vs %d points", n1, n2);
    cr_assert_float_eq(o1.depth, 0.004, 1e-12);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(o1.normal[k], o2.normal[k], 1e-15);
    /* two polytopes: the octahedron vertex-down 3 mm into the cube's top face, between the
     * cube's lattice points (25 mm apart; none lies in the 3 mm pyramid), so only the vertex is
     * inside: the top face, depth 3 mm at the vertex. (Were a cube point inside the octahedron,
     * eq. 4 would pick the octahedron's face nearer to it, as it should) */
    tc_shape oc = octa(0.05);
    tc_surface SO;
    cr_assert_eq(tc_surface_alloc(&SO, &oc, 0.01, &err), TC_OK);
    tc_body_state O = pose(0.0625, 0.0125, 0.02 + 0.05 - 0.003, 0, 0, 1, 0.2);
    tc_penetration o3;
    int n3 = tc_penetrate(&oc, &SO, &O, &cp, &SP, &F, w2, &o3, p1, 4096);
    cr_assert_eq(n3, 1);
    cr_assert_float_eq(p1[0].p[0], 0.0625, 1e-15);
    cr_assert_float_eq(o3.normal[2], 1, 1e-15);
    cr_assert_float_eq(o3.depth, 0.003, 1e-12);
    for (int i = 0; i < n3; i++)
        cr_assert_float_eq(p1[i].depth, 0.02 - p1[i].p[2], 1e-12);
    tc_surface_free(&SO);
    tc_pen_work_free(w);
    tc_pen_work_free(w2);
    tc_surface_free(&SP);
    tc_surface_free(&SB);
    tc_surface_free(&SL);
    tc_surface_free(&SG);
}

Test(polytope, hunt_crossley_refuses_polytopes) {
    tc_shape o = octa(0.05), pl = tc_plane(), sp = tc_sphere(0.05);
    tc_body_state A = pose(0, 0, 0.04, 0, 0, 1, 0), B = pose(0, 0, 0, 0, 0, 1, 0);
    tc_contact c[TC_COLLIDE_MAX];
    cr_assert_eq(tc_collide_supported(TC_SHAPE_POLYTOPE, TC_SHAPE_PLANE), 0);
    cr_assert_eq(tc_collide_supported(TC_SHAPE_SPHERE, TC_SHAPE_POLYTOPE), 0);
    cr_assert_eq(tc_collide(&o, &A, &pl, &B, 0, c), -1);
    cr_assert_eq(tc_collide(&sp, &A, &o, &B, 0, c), -1);
}

/* ---- dynamics: MuJoCo and the penalty model agree on the rest height ---- */

/* the COM height (m) after 1.5 s of body sh dropped 1 cm onto the ground from rest at height z0
 * (m) with orientation q, by method spec */
static double rest_height(const char *spec, tc_shape sh, double z0, const double q[4]) {
    tc_scene sc = tc_default_scene();
    sc.gravity[2] = -9.81;
    tc_body_desc fl = tc_default_body("floor", tc_plane());
    tc_body_desc b = tc_default_body("body", sh);
    b.joint = TC_JOINT_FREE;
    b.pos[2] = z0;
    for (int k = 0; k < 4; k++)
        b.quat[k] = q[k];
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_add(&sc, &fl, 0, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_scene_add(&sc, &b, 1000, &err), TC_OK, "%s", err.msg);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, &err), TC_OK, "%s: %s", spec, err.msg);
    for (int i = 0; i < 1500; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", spec, i);
    double z = tc_sim_q(sim)[2], v = tc_v3_norm(tc_sim_v(sim));
    cr_assert_lt(v, 1e-2, "%s: not at rest (|v| %g m/s)", spec, v);
    tc_sim_free(sim);
    return z;
}

Test(polytope, mujoco_and_penalty_rest_at_the_same_height, .disabled = !TC_HAVE_MUJOCO) {
    /* the triangular prism on its base: the COM rests h / 3 above the ground. Its body frame
     * is centred by tc_scene_add (COM 1.67 cm above the base), so MuJoCo's mesh frame and
     * touche's must agree for the heights to */
    const double a = 0.06, h = 0.05, L = 0.04, up[4] = {1, 0, 0, 0};
    const double v[6][3] = {{-a, -L, 0}, {a, -L, 0}, {0, -L, h}, {-a, L, 0}, {a, L, 0}, {0, L, h}};
    tc_shape prism = poly(v, 6);
    double zm = rest_height("mujoco", prism, h / 3 + 0.01, up);
    double zp = rest_height("penalty-mp", prism, h / 3 + 0.01, up);
    cr_log_info("prism rest COM height: mujoco %.6f m, penalty-mp %.6f m, closed form %.6f m", zm,
                zp, h / 3);
    cr_assert_float_eq(zm, h / 3, 3e-3);
    cr_assert_float_eq(zp, h / 3, 3e-3);
    cr_assert_float_eq(zm, zp, 3e-3);
    /* turned 90 degrees about x: it stands on a triangular end cap, COM L above the ground */
    const double cap[4] = {cos(M_PI / 4), sin(M_PI / 4), 0, 0};
    zm = rest_height("mujoco", prism, L + 0.01, cap);
    zp = rest_height("penalty-mp", prism, L + 0.01, cap);
    cr_log_info("prism on its end cap: mujoco %.6f m, penalty-mp %.6f m, closed form %.6f m", zm,
                zp, L);
    cr_assert_float_eq(zm, L, 3e-3);
    cr_assert_float_eq(zp, L, 3e-3);
    /* the octahedron on a face: inradius r / sqrt 3 */
    const double r = 0.05;
    double axis[3] = {1, -1, 0}, t = acos(1 / sqrt(3));
    tc_v3_normalize(axis);
    const double face_down[4] = {cos(t / 2), axis[0] * sin(t / 2), axis[1] * sin(t / 2), 0};
    zm = rest_height("mujoco", octa(r), r / sqrt(3) + 0.01, face_down);
    zp = rest_height("penalty-mp", octa(r), r / sqrt(3) + 0.01, face_down);
    cr_log_info("octahedron on a face: mujoco %.6f m, penalty-mp %.6f m, closed form %.6f m", zm,
                zp, r / sqrt(3));
    cr_assert_float_eq(zm, r / sqrt(3), 3e-3);
    cr_assert_float_eq(zp, r / sqrt(3), 3e-3);
    cr_assert_float_eq(zm, zp, 3e-3);
}
