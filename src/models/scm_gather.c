/* SPDX-License-Identifier: MIT */
/* SCM's neighbour search: candidate blocks per query block (a dual bounding-sphere cull), then
 * the exact nearest distance and the points within the softmax cutoff per query point */
#include "models/tc_scm_gather.h"

#include <math.h>

void tc_scm_candidates(const double cq[3], double rq, const double *blk, const double *blkw,
                       int nblk, double eps1, int prune, tc_scm_gather *g) {
    double *lo = g->lb, up = INFINITY;
    g->flat = nblk <= TC_SCM_FLAT_BLOCKS;
    if (g->flat) return;
    /* per source block: the smallest and largest distance any query point of the block can have
     * to any of its points; the smallest largest bounds every query point's nearest distance */
    for (int b = 0; b < nblk; b++) {
        const double *c = blkw + 3 * b;
        double dx = cq[0] - c[0], dy = cq[1] - c[1], dz = cq[2] - c[2];
        double d = sqrt(dx * dx + dy * dy + dz * dz), r = rq + blk[4 * b + 3];
        double l = d - r;
        lo[b] = l > 0 ? l * l : 0;
        up = fmin(up, d + r);
    }
    /* blocks whose nearest possible point lies beyond every query point's cutoff cannot be
     * gathered (margin 1e-9 relative over rounding); without pruning every block counts */
    const double limit = prune ? (up * up + TC_SCM_CUT * eps1) * (1 + 1e-9) : INFINITY;
    int m = 0;
    for (int b = 0; b < nblk; b++) {
        g->cand[m] = b;
        m += lo[b] <= limit;
    }
    g->ncand = m;
}

/* the indices i0..i1-1 (at most 64) whose distances are within limit, appended in ascending order
 * at idx + m through a bit mask (no branch per sample: which samples are in reach follows no
 * pattern a branch predictor learns); returns the new count */
static inline __attribute__((always_inline)) int in_reach(const double *dist, int i0, int i1,
                                                          double limit, int *idx, int m) {
    unsigned long long mask = 0;
    for (int i = i0; i < i1; i++)
        mask |= (unsigned long long)(dist[i] <= limit) << (i - i0);
    for (; mask; mask &= mask - 1)
        idx[m++] = i0 + __builtin_ctzll(mask);
    return m;
}

void tc_scm_gather_indices(const int *idx, int m, tc_scm_gather *g) {
    for (int k = 0; k < m; k++)
        g->idx[k] = idx[k];
    g->n = m;
}

/* a small source scanned whole: every squared distance (vectorised), the minimum, and the
 * indices within the cutoff in ascending order (the same set and order as the block search) */
__attribute__((target_clones("avx512f", "avx2", "default"))) static double
gather_flat(const tc_scm_cloud *c, const double p[3], double eps1, int prune, double dmin_known,
            tc_scm_gather *g) {
    const tc_aopc *S = c->S;
    const int n = S->n;
    const double *px = S->px, *py = S->py, *pz = S->pz;
    double *dist = g->dist, dm = INFINITY;
#pragma omp simd reduction(min : dm)
    for (int i = 0; i < n; i++) {
        double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
        double d = dx * dx + dy * dy + dz * dz;
        dist[i] = d;
        dm = d < dm ? d : dm;
    }
    const double dmin = isnan(dmin_known) ? dm : dmin_known;
    const double limit = prune ? dmin + TC_SCM_CUT * eps1 : INFINITY;
    /* the indices in reach, 64 at a time */
    int m = 0;
    for (int i0 = 0; i0 < n; i0 += 64)
        m = in_reach(dist, i0, i0 + 64 < n ? i0 + 64 : n, limit, g->idx, m);
    g->n = m;
    return dmin;
}

/* the search, one clone per ISA (static: clang resolves clones only within their own file) */
__attribute__((target_clones("avx512f", "avx2", "default"))) static double
gather_point(const tc_scm_cloud *c, const double p[3], double eps1, int prune, double dmin_known,
             tc_scm_gather *g) {
    const tc_aopc *S = c->S;
    const double *blk = c->blk, *blkw = c->blkw;
    const int n = S->n, nc = g->ncand, *cand = g->cand, BLK = TC_SCM_BLK;
    const double *px = S->px, *py = S->py, *pz = S->pz;
    double dmin = INFINITY, *dist = g->dist, *lb = g->lb;
    if (g->flat) return gather_flat(c, p, eps1, prune, dmin_known, g);
    /* lower bounds of the candidate blocks (vectorised), and the nearest by its bound */
    for (int k = 0; k < nc; k++) {
        const int b = cand[k];
        const double *ctr = blkw + 3 * b;
        double dx = p[0] - ctr[0], dy = p[1] - ctr[1], dz = p[2] - ctr[2];
        double l = sqrt(dx * dx + dy * dy + dz * dz) - blk[4 * b + 3];
        lb[b] = l > 0 ? l * l : 0;
    }
    int first = 0;
    for (int k = 1; k < nc; k++)
        first = lb[cand[k]] < lb[cand[first]] ? k : first;
    const int search = isnan(dmin_known);
    if (!search) dmin = dmin_known;
    /* the nearest distance: the block nearest by its bound first, so the minimum tightens early
     * and far blocks skip; their distances are marked unknown */
    for (int k = 0; search && k < nc; k++) {
        const int b = cand[k == 0 ? first : k <= first ? k - 1 : k];
        const int i0 = b * BLK, i1 = i0 + BLK < n ? i0 + BLK : n;
        if (lb[b] >= dmin) {
            dist[i0] = INFINITY;
            continue;
        }
        double dm = dmin;
#pragma omp simd reduction(min : dm)
        for (int i = i0; i < i1; i++) {
            double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
            double d = dx * dx + dy * dy + dz * dz;
            dist[i] = d;
            dm = d < dm ? d : dm;
        }
        dmin = dm;
    }
    const double limit = prune ? dmin + TC_SCM_CUT * eps1 : INFINITY;
    /* the indices in reach, block by block through a bit mask of its samples within the limit;
     * blocks without distances get them now (vectorised) */
    int m = 0, *idx = g->idx;
    for (int k = 0; k < nc; k++) {
        const int b = cand[k];
        const int i0 = b * BLK, i1 = i0 + BLK < n ? i0 + BLK : n;
        if (lb[b] > limit) continue;
        if (!search || dist[i0] == INFINITY)
#pragma omp simd
            for (int i = i0; i < i1; i++) {
                double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
                dist[i] = dx * dx + dy * dy + dz * dz;
            }
        m = in_reach(dist, i0, i1, limit, idx, m);
    }
    g->n = m;
    return dmin;
}

double tc_scm_gather_point(const tc_scm_cloud *c, const double p[3], double eps1, int prune,
                           double dmin_known, tc_scm_gather *g) {
    return gather_point(c, p, eps1, prune, dmin_known, g);
}
