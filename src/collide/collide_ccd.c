/* SPDX-License-Identifier: MIT */
/* deepest point of two overlapping convex shapes: libccd's MPR for sphere, box, cylinder and
 * polytope pairs, the support point for a shape against a plane; body-frame support functions */
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <ccd/ccd.h>
#include <math.h>

/* the support code below passes doubles straight through ccd_vec3_t */
#ifndef CCD_DOUBLE
#error "libccd must be built in double precision (CCD_DOUBLE)"
#endif

/* MPR stops when the portal is within this of the Minkowski boundary (m); libccd's default 1e-4
 * is far too coarse for contact depths of millimetres */
#define MPR_TOLERANCE 1e-12
/* hard cap on MPR refinements (curved shapes converge linearly; boxes in a few steps) */
#define MPR_MAXITER 500

void tc_shape_support(const tc_shape *s, const double d[3], double out[3]) {
    switch (s->type) {
    case TC_SHAPE_SPHERE: {
        /* the radius along d; d = 0 takes +z (any point is a support point) */
        double n = tc_v3_norm(d), r = s->size[0];
        if (n > 0)
            tc_v3_scale(out, d, r / n);
        else
            tc_v3_set(out, 0, 0, r);
        return;
    }
    case TC_SHAPE_BOX:
        /* the corner in the octant of d (ties to +) */
        for (int i = 0; i < 3; i++)
            out[i] = d[i] >= 0 ? s->size[i] : -s->size[i];
        return;
    case TC_SHAPE_CYLINDER: {
        /* the rim point along d's radial part (the cap centre when d is axial), on the cap d
         * faces (ties to +z) */
        double rho = sqrt(d[0] * d[0] + d[1] * d[1]), r = s->size[0];
        out[0] = rho > 0 ? r * d[0] / rho : 0;
        out[1] = rho > 0 ? r * d[1] / rho : 0;
        out[2] = d[2] >= 0 ? s->size[1] : -s->size[1];
        return;
    }
    case TC_SHAPE_POLYTOPE: {
        /* the vertex of largest d . v (ties to the lowest index) */
        const tc_hull *h = s->hull;
        int best = 0;
        double bd = tc_v3_dot(d, h->vert[0]);
        for (int i = 1; i < h->nvert; i++) {
            double e = tc_v3_dot(d, h->vert[i]);
            if (e > bd) {
                bd = e;
                best = i;
            }
        }
        tc_v3_copy(out, h->vert[best]);
        return;
    }
    default:
        tc_v3_set(out, 0, 0, 0);
        return;
    }
}

/* a posed shape as libccd sees it */
typedef struct ccd_obj {
    const tc_shape *s;
    const tc_body_state *S;
} ccd_obj;

/* world support point: world direction -> body frame -> body support -> world */
static void ccd_support(const void *obj, const ccd_vec3_t *dir, ccd_vec3_t *vec) {
    const ccd_obj *o = obj;
    double d[3] = {dir->v[0], dir->v[1], dir->v[2]}, dl[3], sl[3], w[3];
    tc_m3_mulvt(dl, o->S->R, d);
    tc_shape_support(o->s, dl, sl);
    tc_m3_mulv(w, o->S->R, sl);
    for (int k = 0; k < 3; k++)
        vec->v[k] = w[k] + o->S->pos[k];
}

/* an interior point: the body origin (the centre of every supported primitive); a polytope's
 * vertex mean (always inside, even before tc_shape_center put the COM at the origin) */
static void ccd_center(const void *obj, ccd_vec3_t *c) {
    const ccd_obj *o = obj;
    double m[3] = {0, 0, 0}, w[3];
    if (o->s->type == TC_SHAPE_POLYTOPE) {
        const tc_hull *h = o->s->hull;
        for (int i = 0; i < h->nvert; i++)
            tc_v3_addscl(m, h->vert[i], 1.0 / h->nvert);
    }
    tc_m3_mulv(w, o->S->R, m);
    for (int k = 0; k < 3; k++)
        c->v[k] = o->S->pos[k] + w[k];
}

/* 1 for the shapes with a support function */
static int convex(tc_shape_type t) {
    return t == TC_SHAPE_SPHERE || t == TC_SHAPE_BOX || t == TC_SHAPE_CYLINDER ||
           t == TC_SHAPE_POLYTOPE;
}

/* shape s (posed by S) against the plane posed by P: the support point along -n is the deepest;
 * its depth below the plane, the point midway between it and the plane */
static int plane_shape(const tc_body_state *P, const tc_shape *s, const tc_body_state *S,
                       double *depth, double point[3]) {
    double n[3] = {P->R[2], P->R[5], P->R[8]}, m[3], dl[3], sl[3], w[3];
    tc_v3_scale(m, n, -1);
    tc_m3_mulvt(dl, S->R, m);
    tc_shape_support(s, dl, sl);
    tc_m3_mulv(w, S->R, sl);
    tc_v3_add(w, w, S->pos);
    double dep = tc_v3_dot(n, P->pos) - tc_v3_dot(n, w);
    if (!(dep > 0)) return 0;
    *depth = dep;
    for (int k = 0; k < 3; k++)
        point[k] = w[k] + 0.5 * dep * n[k];
    return 1;
}

/* how far convex shape s (posed by S) reaches from its origin along world direction u of
 * length nu (m |u|): its support function max over the shape of u . (x - origin), in closed form
 * (a sphere needs no rotation) */
static double reach(const tc_shape *s, const tc_body_state *S, const double u[3], double nu) {
    if (s->type == TC_SHAPE_SPHERE) return s->size[0] * nu;
    double d[3];
    tc_m3_mulvt(d, S->R, u);
    switch (s->type) {
    case TC_SHAPE_BOX:
        return s->size[0] * fabs(d[0]) + s->size[1] * fabs(d[1]) + s->size[2] * fabs(d[2]);
    case TC_SHAPE_CYLINDER:
        return s->size[0] * sqrt(d[0] * d[0] + d[1] * d[1]) + s->size[1] * fabs(d[2]);
    default: {
        double p[3];
        tc_shape_support(s, d, p);
        return tc_v3_dot(d, p);
    }
    }
}

/* nu times the gap (m) between a's reach along world direction u (of length nu) and b's reach
 * along -u, less the rounding allowance (1e-9 m plus 1e-6 of the two reaches), c the line of
 * centres B - A: when positive every point of a is below every point of b along u by that much
 * more, so the two do not overlap and MPR finds them apart too */
static double gap_along(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
                        const tc_body_state *B, const double c[3], const double u[3], double nu) {
    double m[3];
    double ea = reach(sa, A, u, nu);
    tc_v3_scale(m, u, -1);
    double eb = reach(sb, B, m, nu);
    /* x - t > 0 exactly when x > t (IEEE subtraction rounds to zero only for equal operands) */
    return (tc_v3_dot(u, c) - ea - eb) - (1e-6 * (fabs(ea) + fabs(eb)) + 1e-9 * nu);
}

/* axis k of tc_shape_separated (1: the line of centres c; 2-4: a's frame axes; 5-7: b's),
 * turned toward b */
static void separating_axis(int k, const tc_body_state *A, const tc_body_state *B,
                            const double c[3], double u[3]) {
    if (k == 1) {
        tc_v3_copy(u, c);
        return;
    }
    const double *R = k <= 4 ? A->R : B->R;
    int col = (k - 2) % 3;
    tc_v3_set(u, R[col], R[3 + col], R[6 + col]);
    if (tc_v3_dot(u, c) < 0) tc_v3_scale(u, u, -1);
}

int tc_shape_separated(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
                       const tc_body_state *B, int first, double *gap) {
    if (gap) *gap = 0;
    if (!convex(sa->type) || !convex(sb->type)) return 0;
    /* the axis asked for first, then the line of centres (two spheres: exact) and the frame
     * axes (boxes' faces) */
    double c[3], u[3];
    tc_v3_sub(c, B->pos, A->pos);
    for (int q = first >= 1 && first <= 7 ? 0 : 1; q <= 7; q++) {
        int k = q == 0 ? first : q;
        if (q == first) continue;
        separating_axis(k, A, B, c, u);
        const double nu = k == 1 ? tc_v3_norm(c) : 1, g = gap_along(sa, A, sb, B, c, u, nu);
        if (g > 0) {
            if (gap) *gap = g / nu;
            return k;
        }
    }
    return 0;
}

int tc_deepest(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
               const tc_body_state *B, double *depth, double normal[3], double point[3]) {
    int pa = sa->type == TC_SHAPE_PLANE, pb = sb->type == TC_SHAPE_PLANE;
    if ((pa && pb) || (!pa && !convex(sa->type)) || (!pb && !convex(sb->type))) return -1;
    /* a shape on plane b: the plane's normal points from b to a */
    if (pb) {
        if (!plane_shape(B, sa, A, depth, point)) return 0;
        tc_v3_set(normal, B->R[2], B->R[5], B->R[8]);
        return 1;
    }
    /* plane a on shape b: a separates by moving against its own normal */
    if (pa) {
        if (!plane_shape(A, sb, B, depth, point)) return 0;
        tc_v3_set(normal, -A->R[2], -A->R[5], -A->R[8]);
        return 1;
    }
    /* a convex pair that a separating axis shows apart: no MPR */
    if (tc_shape_separated(sa, A, sb, B, 0, NULL)) return 0;
    /* convex pair by MPR with obj1 = b, obj2 = a: libccd's dir is the direction in which obj2
     * (= a) moves by depth to touch, i.e. from b toward a, and pos is midway between the two
     * surfaces (verified in tests/collide/test_penetration.c, deepest_sign_convention) */
    ccd_obj oa = {sa, A}, ob = {sb, B};
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = ccd_support;
    ccd.support2 = ccd_support;
    ccd.center1 = ccd_center;
    ccd.center2 = ccd_center;
    ccd.mpr_tolerance = MPR_TOLERANCE;
    ccd.max_iterations = MPR_MAXITER;
    ccd_real_t dep;
    ccd_vec3_t dir, pos;
    if (ccdMPRPenetration(&ob, &oa, &ccd, &dep, &dir, &pos) != 0 || !(dep > 0)) return 0;
    *depth = dep;
    for (int k = 0; k < 3; k++) {
        normal[k] = dir.v[k];
        point[k] = pos.v[k];
    }
    tc_v3_normalize(normal);
    return 1;
}
