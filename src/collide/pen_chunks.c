/* SPDX-License-Identifier: MIT */
/* surface points in Morton-ordered chunks with bounding balls (tc_pen_chunks.h) */
#include "collide/tc_pen_chunks.h"
#include "geom/tc_morton.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>

void tc_pen_chunks_free(tc_pen_chunks *c) {
    if (!c) return;
    free(c->idx);
    free(c->p);
    free(c->ball);
    c->idx = NULL;
    c->p = NULL;
    c->ball = NULL;
    c->npoint = c->nchunk = 0;
}

tc_status tc_pen_chunks_alloc(tc_pen_chunks *c, const tc_surface *S) {
    int n = S->npoint > 0 ? S->npoint : 0;
    c->npoint = n;
    c->nchunk = (n + TC_PEN_CHUNK - 1) / TC_PEN_CHUNK;
    c->idx = malloc((size_t)(n + 1) * sizeof *c->idx);
    c->p = malloc((size_t)(n + 1) * sizeof *c->p);
    c->ball = malloc((size_t)(c->nchunk + 1) * sizeof *c->ball);
    /* the points along a Morton curve over their bounding box */
    if (!c->idx || !c->p || !c->ball ||
        (n && tc_morton_order(n, &S->p[0][0], &S->p[0][1], &S->p[0][2], 3, c->idx))) {
        tc_pen_chunks_free(c);
        return TC_ENOMEM;
    }
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 3; k++)
            c->p[j][k] = S->p[c->idx[j]][k];
    /* each run's bounding-box centre and the farthest of its points from it */
    for (int ch = 0; ch < c->nchunk; ch++) {
        int j0 = ch * TC_PEN_CHUNK, j1 = j0 + TC_PEN_CHUNK < n ? j0 + TC_PEN_CHUNK : n;
        double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int j = j0; j < j1; j++)
            for (int k = 0; k < 3; k++) {
                clo[k] = fmin(clo[k], S->p[c->idx[j]][k]);
                chi[k] = fmax(chi[k], S->p[c->idx[j]][k]);
            }
        double *b = c->ball[ch], r = 0, e[3];
        for (int k = 0; k < 3; k++)
            b[k] = 0.5 * (clo[k] + chi[k]);
        for (int j = j0; j < j1; j++) {
            tc_v3_sub(e, S->p[c->idx[j]], b);
            r = fmax(r, tc_v3_norm(e));
        }
        b[3] = r;
    }
    return TC_OK;
}
