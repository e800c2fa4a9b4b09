/* SPDX-License-Identifier: MIT */
/* analytic narrow phase: sphere-sphere, sphere-plane, sphere-box, sphere-compound, box-plane,
 * dispatched by one table of shape pairs */
#include "collide/tc_collide.h"
#include "math/tc_vec.h"

#include <string.h>

/* a pair routine: contacts of shape a (posed by A) with shape b (posed by B) closer than margin
 * (m) into c, normals from a to b; returns their number */
typedef int (*collider)(const tc_shape *a, const tc_body_state *A, const tc_shape *b,
                        const tc_body_state *B, double margin, tc_contact *c);

/* sphere a against sphere b; concentric centres take +z as the normal (deterministic choice) */
static int sphere_sphere(const tc_shape *a, const tc_body_state *A, const tc_shape *b,
                         const tc_body_state *B, double margin, tc_contact *c) {
    double ra = a->size[0], rb = b->size[0];
    double d[3];
    tc_v3_sub(d, B->pos, A->pos);
    double dist = tc_v3_normalize(d);
    if (dist == 0) tc_v3_set(d, 0, 0, 1);
    double depth = ra + rb - dist;
    if (-depth > margin) return 0;
    tc_v3_copy(c->normal, d);
    c->depth = depth;
    /* midway between the two surface points */
    for (int k = 0; k < 3; k++)
        c->pos[k] = A->pos[k] + d[k] * (ra - 0.5 * depth);
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
    for (int k = 0; k < 3; k++)
        c->pos[k] = x[k] - c->normal[k] * (dist + 0.5 * depth);
    return 1;
}

/* any shape a (box, plane) against sphere b: sphere_shape, normal from a to b */
static int shape_sphere(const tc_shape *a, const tc_body_state *A, const tc_shape *b,
                        const tc_body_state *B, double margin, tc_contact *c) {
    return sphere_shape(b->size[0], B->pos, a, A, margin, c);
}

/* plane against box: every vertex closer than margin is a contact, normal from plane to box
 * (the plane is P's z = 0: its shape holds nothing to read) */
static int plane_box(const tc_shape *plane, const tc_body_state *P, const tc_shape *box,
                     const tc_body_state *B, double margin, tc_contact *c) {
    (void)plane;
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
        for (int k = 0; k < 3; k++)
            c[m].pos[k] = w[k] - 0.5 * h * n[k];
        m++;
    }
    return m;
}

/* compound s (posed by C) against sphere b: one contact per part in reach, normal from the part
 * to the sphere */
static int compound_sphere(const tc_shape *s, const tc_body_state *C, const tc_shape *b,
                           const tc_body_state *B, double margin, tc_contact *c) {
    double r = b->size[0];
    const double *x = B->pos;
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

/* the pair table, indexed by (a's type, b's type): the routine, and whether it runs on (b, a)
 * with its normals flipped; no entry: no analytic routine (ellipsoids, whose distance is
 * approximate, cylinders, polytopes, and box-box, compound-box, compound-plane, plane-plane,
 * compound-compound) */
static const struct {
    collider fn;
    int flip;
} pairs[TC_SHAPE_COUNT][TC_SHAPE_COUNT] = {
    [TC_SHAPE_SPHERE] = {[TC_SHAPE_SPHERE] = {sphere_sphere, 0},
                         [TC_SHAPE_BOX] = {shape_sphere, 1},
                         [TC_SHAPE_PLANE] = {shape_sphere, 1},
                         [TC_SHAPE_COMPOUND] = {compound_sphere, 1}},
    [TC_SHAPE_BOX] = {[TC_SHAPE_SPHERE] = {shape_sphere, 0}, [TC_SHAPE_PLANE] = {plane_box, 1}},
    [TC_SHAPE_PLANE] = {[TC_SHAPE_SPHERE] = {shape_sphere, 0}, [TC_SHAPE_BOX] = {plane_box, 0}},
    [TC_SHAPE_COMPOUND] = {[TC_SHAPE_SPHERE] = {compound_sphere, 0}},
};

int tc_collide_supported(tc_shape_type a, tc_shape_type b) {
    return (unsigned)a < TC_SHAPE_COUNT && (unsigned)b < TC_SHAPE_COUNT && pairs[a][b].fn;
}

/* flip contacts so normals point from the first argument to the second */
static int flipped(int m, tc_contact *c) {
    for (int i = 0; i < m; i++)
        tc_v3_scale(c[i].normal, c[i].normal, -1);
    return m;
}

int tc_collide(const tc_shape *a, const tc_body_state *A, const tc_shape *b, const tc_body_state *B,
               double margin, tc_contact *out) {
    if (!tc_collide_supported(a->type, b->type)) return -1;
    if (pairs[a->type][b->type].flip)
        return flipped(pairs[a->type][b->type].fn(b, B, a, A, margin, out), out);
    return pairs[a->type][b->type].fn(a, A, b, B, margin, out);
}
