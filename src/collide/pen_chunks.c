/* SPDX-License-Identifier: MIT */
/* surface points in Morton-ordered chunks with bounding balls (tc_pen_chunks.h) */
#include "collide/tc_pen_chunks.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>

/* Morton (Z-order) key of a point quantised to a 2^10 grid over the cube [lo, lo + ext] */
static unsigned long long morton(const double p[3], const double lo[3], double ext) {
    unsigned long long key = 0;
    unsigned c[3];
    for (int k = 0; k < 3; k++) {
        double u = ext > 0 ? (p[k] - lo[k]) / ext : 0;
        c[k] = (unsigned)(u <= 0 ? 0 : u >= 1 ? 1023 : u * 1023);
    }
    for (int b = 9; b >= 0; b--)
        for (int k = 0; k < 3; k++) key = (key << 1) | ((c[k] >> b) & 1u);
    return key;
}

typedef struct keyed {
    unsigned long long key;
    int i;
} keyed;

/* by key, then by index: a total order, so the chunks do not depend on qsort */
static int by_key(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : x->i - y->i;
}

void tc_pen_chunks_free(tc_pen_chunks *c) {
    if (!c) return;
    free(c->idx), free(c->ball);
    c->idx = NULL, c->ball = NULL, c->npoint = c->nchunk = 0;
}

tc_status tc_pen_chunks_alloc(tc_pen_chunks *c, const tc_surface *S) {
    int n = S->npoint > 0 ? S->npoint : 0;
    c->npoint = n, c->nchunk = (n + TC_PEN_CHUNK - 1) / TC_PEN_CHUNK;
    c->idx = malloc((size_t)(n + 1) * sizeof *c->idx);
    c->ball = malloc((size_t)(c->nchunk + 1) * sizeof *c->ball);
    keyed *kv = malloc((size_t)(n + 1) * sizeof *kv);
    if (!c->idx || !c->ball || !kv) return free(kv), tc_pen_chunks_free(c), TC_ENOMEM;
    /* the points along a Morton curve over their bounding box */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], S->p[i][k]), hi[k] = fmax(hi[k], S->p[i][k]);
    double ext = n ? fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2])) : 0;
    for (int i = 0; i < n; i++) kv[i].key = morton(S->p[i], lo, ext), kv[i].i = i;
    qsort(kv, (size_t)n, sizeof *kv, by_key);
    for (int j = 0; j < n; j++) c->idx[j] = kv[j].i;
    free(kv);
    /* each run's bounding-box centre and the farthest of its points from it */
    for (int ch = 0; ch < c->nchunk; ch++) {
        int j0 = ch * TC_PEN_CHUNK, j1 = j0 + TC_PEN_CHUNK < n ? j0 + TC_PEN_CHUNK : n;
        double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int j = j0; j < j1; j++)
            for (int k = 0; k < 3; k++)
                clo[k] = fmin(clo[k], S->p[c->idx[j]][k]), chi[k] = fmax(chi[k], S->p[c->idx[j]][k]);
        double *b = c->ball[ch], r = 0, e[3];
        for (int k = 0; k < 3; k++) b[k] = 0.5 * (clo[k] + chi[k]);
        for (int j = j0; j < j1; j++) tc_v3_sub(e, S->p[c->idx[j]], b), r = fmax(r, tc_v3_norm(e));
        b[3] = r;
    }
    return TC_OK;
}
