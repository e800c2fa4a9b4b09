/* SPDX-License-Identifier: MIT */
/* E7's contact count, the same for every method: pairs of convex parts closer than a margin,
 * found by a sweep along x over the parts' bounding boxes, then libccd on the grown parts */
#include "experiments/e7/e7.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* one convex part in the world */
typedef struct part {
    tc_shape_type type;
    double size[3]; /* m, body frame */
    double off[3];  /* its centre from the body's COM (m, body frame) */
    int body, fixed;
    double lo[3], hi[3]; /* world bounding box (m), grown by the margin */
    tc_body_state st;    /* its centre and the body's orientation */
} part;

struct e7_touch {
    int n, nplane;
    part *p;
    int *order; /* parts sorted by lo[0] */
    int *plane; /* bodies that are planes */
};

e7_touch *e7_touch_alloc(const tc_scene *sc) {
    e7_touch *w = calloc(1, sizeof *w);
    int cap = sc->nbody * TC_SHAPE_MAXPART + 1;
    if (!w || !(w->p = calloc((size_t)cap, sizeof *w->p)) ||
        !(w->order = calloc((size_t)cap, sizeof *w->order)) ||
        !(w->plane = calloc((size_t)sc->nbody + 1, sizeof *w->plane))) {
        e7_touch_free(w);
        return NULL;
    }
    for (int i = 0; i < cap; i++)
        w->order[i] = i;
    /* the parts: a compound's, or the body's own shape; planes apart */
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        const tc_shape *s = &b->shape;
        if (s->type == TC_SHAPE_PLANE) {
            w->plane[w->nplane++] = i;
            continue;
        }
        int np = s->type == TC_SHAPE_COMPOUND ? s->npart : 1;
        for (int k = 0; k < np; k++) {
            part *q = &w->p[w->n++];
            q->body = i;
            q->fixed = b->joint == TC_JOINT_FIXED;
            if (s->type == TC_SHAPE_COMPOUND) {
                q->type = s->part[k].type;
                memcpy(q->size, s->part[k].size, sizeof q->size);
                memcpy(q->off, s->part[k].pos, sizeof q->off);
            } else {
                q->type = s->type;
                memcpy(q->size, s->size, sizeof q->size);
            }
        }
    }
    return w;
}

void e7_touch_free(e7_touch *w) {
    if (!w) return;
    free(w->p);
    free(w->order);
    free(w->plane);
    free(w);
}

/* the part's shape grown by g (m): what libccd compares */
static tc_shape grown(const part *q, double g) {
    if (q->type == TC_SHAPE_SPHERE) return tc_sphere(q->size[0] + g);
    if (q->type == TC_SHAPE_BOX) return tc_box(q->size[0] + g, q->size[1] + g, q->size[2] + g);
    if (q->type == TC_SHAPE_CYLINDER) return tc_cylinder(q->size[0] + g, q->size[1] + g);
    return tc_sphere(q->size[0] + g); /* not reached: E7's scenes hold spheres, boxes, compounds */
}

/* a before b: the lower low x of their boxes, ties by index (the same order on every run) */
static int before(const part *p, int a, int b) {
    return p[a].lo[0] < p[b].lo[0] || (p[a].lo[0] == p[b].lo[0] && a < b);
}

int e7_touching(e7_touch *w, const tc_scene *sc, const tc_body_state *bs, double margin) {
    const double g = margin / 2;
    /* each part's centre and bounding box this time */
    for (int i = 0; i < w->n; i++) {
        part *q = &w->p[i];
        const tc_body_state *b = &bs[q->body];
        double r[3], e[3];
        tc_m3_mulv(r, b->R, q->off);
        q->st = *b;
        tc_v3_add(q->st.pos, b->pos, r);
        /* half extents of the box of a turned box: |R| h; of a sphere: r; a cylinder: its box */
        double h[3] = {q->size[0], q->type == TC_SHAPE_SPHERE ? q->size[0] : q->size[1],
                       q->type == TC_SHAPE_SPHERE ? q->size[0] : q->size[2]};
        if (q->type == TC_SHAPE_CYLINDER) {
            h[0] = h[1] = q->size[0];
            h[2] = q->size[1];
        }
        for (int k = 0; k < 3; k++)
            e[k] = q->type == TC_SHAPE_SPHERE
                       ? h[0]
                       : fabs(b->R[3 * k]) * h[0] + fabs(b->R[3 * k + 1]) * h[1] +
                             fabs(b->R[3 * k + 2]) * h[2];
        for (int k = 0; k < 3; k++) {
            q->lo[k] = q->st.pos[k] - e[k] - g;
            q->hi[k] = q->st.pos[k] + e[k] + g;
        }
    }
    /* insertion sort from the last call's order: the parts move little between samples */
    for (int i = 1; i < w->n; i++) {
        int v = w->order[i], j = i;
        for (; j > 0 && before(w->p, v, w->order[j - 1]); j--)
            w->order[j] = w->order[j - 1];
        w->order[j] = v;
    }
    int count = 0;
    /* pairs whose boxes overlap, of two bodies, not both fixed */
    for (int a = 0; a < w->n; a++) {
        const part *p = &w->p[w->order[a]];
        for (int c = a + 1; c < w->n; c++) {
            const part *q = &w->p[w->order[c]];
            if (q->lo[0] > p->hi[0]) break;
            if (q->body == p->body || (p->fixed && q->fixed)) continue;
            if (q->lo[1] > p->hi[1] || p->lo[1] > q->hi[1] || q->lo[2] > p->hi[2] ||
                p->lo[2] > q->hi[2])
                continue;
            tc_shape sp = grown(p, g), sq = grown(q, g);
            double d, n[3], x[3];
            count += tc_deepest(&sp, &p->st, &sq, &q->st, &d, n, x) == 1;
        }
    }
    /* moving parts against the planes */
    for (int k = 0; k < w->nplane; k++) {
        const tc_shape pl = sc->body[w->plane[k]].shape;
        const tc_body_state *B = &bs[w->plane[k]];
        for (int i = 0; i < w->n; i++) {
            const part *q = &w->p[i];
            if (q->fixed) continue;
            tc_shape sq = grown(q, g);
            double d, n[3], x[3];
            count += tc_deepest(&pl, B, &sq, &q->st, &d, n, x) == 1;
        }
    }
    return count;
}
