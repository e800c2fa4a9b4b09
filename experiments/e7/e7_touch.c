/* SPDX-License-Identifier: MIT */
/* E7's contact count, the same for every method: pairs of convex parts closer than a margin, of
 * the body pairs the library's broad phase finds (bounding spheres on a hashed grid), by libccd
 * on the grown parts */
#include "experiments/e7/e7.h"
#include "collide/tc_broadphase.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>

struct e7_touch {
    const tc_scene *sc;
    double margin;  /* m */
    int per_body;   /* the broad phase's pairs per body */
    double *radius; /* per body: its parts' bounding radius about its COM (m); INFINITY: plane */
    unsigned char *fixed; /* per body: 1 when it never moves */
    tc_broadphase *bp;
};

/* the parts of a shape: a compound's, else the shape itself */
static int nparts(const tc_shape *s) {
    return s->type == TC_SHAPE_COMPOUND ? s->npart : 1;
}

/* a part in the world: its shape grown by the half margin, its centre with its body's
 * orientation, and its bounding box (the ungrown part's, widened by the half margin) */
typedef struct posed {
    tc_shape s;
    tc_body_state st;
    double lo[3], hi[3];
} posed;

/* part k of shape s posed by its body's state b, grown by g (m); a plane as it is */
static void pose(const tc_shape *s, int k, const tc_body_state *b, double g, posed *p) {
    const int c = s->type == TC_SHAPE_COMPOUND;
    const tc_shape_type type = c ? s->part[k].type : s->type;
    const double *sz = c ? s->part[k].size : s->size, zero[3] = {0, 0, 0};
    const int ball = type == TC_SHAPE_SPHERE;
    double r[3], e[3];
    p->st = *b;
    if (type == TC_SHAPE_PLANE) {
        p->s = *s;
        return;
    }
    tc_m3_mulv(r, b->R, c ? s->part[k].pos : zero);
    tc_v3_add(p->st.pos, b->pos, r);
    /* half extents of the box of a turned box: |R| h; of a sphere: r; a cylinder: its box */
    double h[3] = {sz[0], ball ? sz[0] : sz[1], ball ? sz[0] : sz[2]};
    if (type == TC_SHAPE_CYLINDER) {
        h[0] = h[1] = sz[0];
        h[2] = sz[1];
    }
    for (int i = 0; i < 3; i++) {
        e[i] = ball ? h[0]
                    : fabs(b->R[3 * i]) * h[0] + fabs(b->R[3 * i + 1]) * h[1] +
                          fabs(b->R[3 * i + 2]) * h[2];
        p->lo[i] = p->st.pos[i] - e[i] - g;
        p->hi[i] = p->st.pos[i] + e[i] + g;
    }
    p->s = type == TC_SHAPE_BOX        ? tc_box(sz[0] + g, sz[1] + g, sz[2] + g)
           : type == TC_SHAPE_CYLINDER ? tc_cylinder(sz[0] + g, sz[1] + g)
                                       : tc_sphere(sz[0] + g);
}

/* the radius about its COM of the sphere holding a body's parts (m), INFINITY for a plane */
static double body_radius(const tc_shape *s) {
    if (s->type == TC_SHAPE_PLANE) return INFINITY;
    double r = 0;
    for (int k = 0; k < nparts(s); k++) {
        const int c = s->type == TC_SHAPE_COMPOUND;
        const tc_shape_type type = c ? s->part[k].type : s->type;
        const double *h = c ? s->part[k].size : s->size, *p = c ? s->part[k].pos : NULL;
        const double rp = type == TC_SHAPE_BOX        ? tc_v3_norm(h)
                          : type == TC_SHAPE_CYLINDER ? hypot(h[0], h[1])
                                                      : h[0];
        r = fmax(r, rp + (p ? tc_v3_norm(p) : 0));
    }
    return r;
}

/* the broad phase for w's margin with per_body pairs a body */
static tc_status grow(e7_touch *w) {
    tc_broadphase_free(w->bp);
    w->bp = NULL;
    return tc_broadphase_alloc(&w->bp, w->sc->nbody, w->radius, w->fixed, w->per_body, w->margin,
                               NULL);
}

e7_touch *e7_touch_alloc(const tc_scene *sc, double margin) {
    e7_touch *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    *w = (e7_touch){.sc = sc, .margin = margin, .per_body = 16};
    w->radius = calloc((size_t)sc->nbody + 1, sizeof *w->radius);
    w->fixed = calloc((size_t)sc->nbody + 1, sizeof *w->fixed);
    for (int i = 0; w->radius && w->fixed && i < sc->nbody; i++) {
        w->radius[i] = body_radius(&sc->body[i].shape);
        w->fixed[i] = sc->body[i].joint == TC_JOINT_FIXED;
    }
    if (!w->radius || !w->fixed || grow(w)) {
        e7_touch_free(w);
        return NULL;
    }
    return w;
}

void e7_touch_free(e7_touch *w) {
    if (!w) return;
    tc_broadphase_free(w->bp);
    free(w->radius);
    free(w->fixed);
    free(w);
}

int e7_touching(e7_touch *w, const tc_body_state *bs) {
    const double g = w->margin / 2;
    const tc_body_desc *body = w->sc->body;
    /* the candidate pairs of bodies, the broad phase grown until they all fit */
    int np = tc_broadphase_query(w->bp, bs);
    while (w->bp->lost) {
        w->per_body *= 2;
        if (grow(w)) return -1;
        np = tc_broadphase_query(w->bp, bs);
    }
    int count = 0;
    /* each pair of their parts that touch: a plane first; two parts whose boxes overlap, the one
     * whose box starts lower in x first (the first body's on a tie) */
    for (int i = 0; i < np; i++) {
        const int plane = body[w->bp->pair[i][1]].shape.type == TC_SHAPE_PLANE;
        const int a = w->bp->pair[i][plane], b = w->bp->pair[i][!plane];
        const tc_shape *sa = &body[a].shape, *sb = &body[b].shape;
        const int boxes = sa->type != TC_SHAPE_PLANE;
        for (int ka = 0; ka < nparts(sa); ka++)
            for (int kb = 0; kb < nparts(sb); kb++) {
                posed pa, pb;
                double d, n[3], x[3];
                pose(sa, ka, &bs[a], g, &pa);
                pose(sb, kb, &bs[b], g, &pb);
                if (boxes && (pa.lo[0] > pb.hi[0] || pb.lo[0] > pa.hi[0] || pa.lo[1] > pb.hi[1] ||
                              pb.lo[1] > pa.hi[1] || pa.lo[2] > pb.hi[2] || pb.lo[2] > pa.hi[2]))
                    continue;
                const posed *p = boxes && pb.lo[0] < pa.lo[0] ? &pb : &pa,
                            *q = p == &pa ? &pb : &pa;
                count += tc_deepest(&p->s, &p->st, &q->s, &q->st, &d, n, x) == 1;
            }
    }
    return count;
}
