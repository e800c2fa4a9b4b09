/* SPDX-License-Identifier: MIT */
/* analytic narrow phase: sphere-sphere, sphere-plane, sphere-box, box-plane */
#include "collide/tc_collide.h"
#include "math/tc_vec.h"

#include <string.h>

/* sphere a against sphere b; concentric centres take +z as the normal (deterministic choice) */
static int sphere_sphere(double ra, const tc_body_state *A, double rb, const tc_body_state *B,
                         double margin, tc_contact *c) {
    double d[3];
    tc_v3_sub(d, B->pos, A->pos);
    double dist = tc_v3_normalize(d);
    if (dist == 0) tc_v3_set(d, 0, 0, 1);
    double depth = ra + rb - dist;
    if (-depth > margin) return 0;
    tc_v3_copy(c->normal, d);
    c->depth = depth;
    /* midway between the two surface points */
    for (int k = 0; k < 3; k++) c->pos[k] = A->pos[k] + d[k] * (ra - 0.5 * depth);
    return 1;
}

/* world point -> body frame of state S */
static void to_body(double r[3], const tc_body_state *S, const double p[3]) {
    double d[3];
    tc_v3_sub(d, p, S->pos);
    tc_m3_mulvt(r, S->R, d);
}

/* a sphere of radius r centred at world point x against any shape s posed by S: one contact,
 * normal from the shape to the sphere */
static int sphere_shape(double r, const double x[3], const tc_shape *s, const tc_body_state *S,
                        double margin, tc_contact *c) {
    double pl[3], nl[3];
    to_body(pl, S, x);
    double dist = tc_shape_distance(s, pl, nl);
    double depth = r - dist;
    if (-depth > margin) return 0;
    tc_m3_mulv(c->normal, S->R, nl);
    c->depth = depth;
    for (int k = 0; k < 3; k++) c->pos[k] = x[k] - c->normal[k] * (dist + 0.5 * depth);
    return 1;
}

/* box against plane: every vertex closer than margin is a contact, normal from plane to box */
static int box_plane(const tc_shape *box, const tc_body_state *B, const tc_body_state *P,
                     double margin, tc_contact *c) {
    double n[3] = {P->R[2], P->R[5], P->R[8]};
    int m = 0;
    for (int v = 0; v < 8; v++) {
        double loc[3] = {(v & 1 ? 1 : -1) * box->size[0], (v & 2 ? 1 : -1) * box->size[1],
                         (v & 4 ? 1 : -1) * box->size[2]},
               w[3], d[3];
        tc_m3_mulv(w, B->R, loc);
        tc_v3_add(w, w, B->pos);
        tc_v3_sub(d, w, P->pos);
        double h = tc_v3_dot(d, n);
        if (h > margin) continue;
        tc_v3_copy(c[m].normal, n);
        c[m].depth = -h;
        for (int k = 0; k < 3; k++) c[m].pos[k] = w[k] - 0.5 * h * n[k];
        m++;
    }
    return m;
}

/* a sphere against each part of a compound posed by C: one contact per part in reach */
static int sphere_compound(double r, const double x[3], const tc_shape *s, const tc_body_state *C,
                           double margin, tc_contact *c) {
    int m = 0;
    for (int i = 0; i < s->npart; i++) {
        const tc_shape_part *p = &s->part[i];
        tc_shape prim = p->type == TC_SHAPE_SPHERE ? tc_sphere(p->size[0])
                                                   : tc_box(p->size[0], p->size[1], p->size[2]);
        tc_body_state P = *C;
        double off[3];
        tc_m3_mulv(off, C->R, p->pos);
        tc_v3_add(P.pos, C->pos, off);
        m += sphere_shape(r, x, &prim, &P, margin, c + m);
    }
    return m;
}

int tc_collide_supported(tc_shape_type a, tc_shape_type b) {
    /* no analytic ellipsoid contact (its distance is approximate) and none for cylinders or
     * polytopes: refuse every such pair */
    if (a == TC_SHAPE_ELLIPSOID || b == TC_SHAPE_ELLIPSOID) return 0;
    if (a == TC_SHAPE_CYLINDER || b == TC_SHAPE_CYLINDER) return 0;
    if (a == TC_SHAPE_POLYTOPE || b == TC_SHAPE_POLYTOPE) return 0;
    if (a == TC_SHAPE_SPHERE || b == TC_SHAPE_SPHERE)
        return a != TC_SHAPE_PLANE || b != TC_SHAPE_PLANE;
    return (a == TC_SHAPE_BOX && b == TC_SHAPE_PLANE) || (a == TC_SHAPE_PLANE && b == TC_SHAPE_BOX);
}

/* flip contacts so normals point from the first argument to the second */
static int flipped(int m, tc_contact *c) {
    for (int i = 0; i < m; i++) tc_v3_scale(c[i].normal, c[i].normal, -1);
    return m;
}

int tc_collide(const tc_shape *a, const tc_body_state *A, const tc_shape *b,
               const tc_body_state *B, double margin, tc_contact *out) {
    if (a->type == TC_SHAPE_ELLIPSOID || b->type == TC_SHAPE_ELLIPSOID ||
        a->type == TC_SHAPE_CYLINDER || b->type == TC_SHAPE_CYLINDER ||
        a->type == TC_SHAPE_POLYTOPE || b->type == TC_SHAPE_POLYTOPE)
        return -1;
    if (a->type == TC_SHAPE_SPHERE && b->type == TC_SHAPE_SPHERE)
        return sphere_sphere(a->size[0], A, b->size[0], B, margin, out);
    if (b->type == TC_SHAPE_SPHERE && a->type == TC_SHAPE_COMPOUND)
        return sphere_compound(b->size[0], B->pos, a, A, margin, out);
    if (a->type == TC_SHAPE_SPHERE && b->type == TC_SHAPE_COMPOUND)
        return flipped(sphere_compound(a->size[0], A->pos, b, B, margin, out), out);
    /* sphere against anything: the normal comes out pointing from the other shape */
    if (b->type == TC_SHAPE_SPHERE) return sphere_shape(b->size[0], B->pos, a, A, margin, out);
    if (a->type == TC_SHAPE_SPHERE)
        return flipped(sphere_shape(a->size[0], A->pos, b, B, margin, out), out);
    if (a->type == TC_SHAPE_PLANE && b->type == TC_SHAPE_BOX)
        return box_plane(b, B, A, margin, out);
    if (a->type == TC_SHAPE_BOX && b->type == TC_SHAPE_PLANE)
        return flipped(box_plane(a, A, B, margin, out), out);
    return -1;
}
