/* SPDX-License-Identifier: MIT */
/* broad phase: planes against every body, sweep and prune over bounding spheres for the rest,
 * pairs sorted by merge sort in buffers sized once */
#include "collide/tc_broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tc_broadphase_free(tc_broadphase *bp) {
    if (!bp) return;
    free(bp->pair), free(bp->radius), free(bp->fixed), free(bp->plane), free(bp->finite);
    free(bp->order), free(bp->scratch), free(bp->lo), free(bp->hi), free(bp->key);
    free(bp->keytmp);
    free(bp);
}

tc_status tc_broadphase_alloc(tc_broadphase **out, int nbody, const double *radius,
                              const unsigned char *fixed, int per_body, double margin,
                              tc_error *err) {
    *out = NULL;
    if (nbody < 0) return tc_error_set(err, TC_EINVAL, "", 0, "radius", "%d bodies", nbody);
    if (per_body < 1)
        return tc_error_set(err, TC_EINVAL, "", 0, "per_body",
                            "pairs per body must be >= 1, got %d", per_body);
    if (!(margin >= 0) || !isfinite(margin))
        return tc_error_set(err, TC_EINVAL, "", 0, "margin",
                            "margin must be finite and >= 0 (m), got %g", margin);
    /* the bodies: planes apart, the finite ones checked */
    int nplane = 0;
    for (int i = 0; i < nbody; i++) {
        if (radius[i] == INFINITY) {
            nplane++;
            continue;
        }
        if (!(radius[i] >= 0) || !isfinite(radius[i]))
            return tc_error_set(err, TC_EINVAL, "", 0, "radius",
                                "body %d: bounding radius must be finite and >= 0 (m), got %g", i,
                                radius[i]);
    }
    int nfinite = nbody - nplane;
    long long cap = ((long long)per_body + nplane) * nfinite;
    if (cap > 1LL << 28)
        return tc_error_set(err, TC_EINVAL, "", 0, "per_body",
                            "%lld pairs is too many (%d pairs a body, %d bodies)", cap, per_body,
                            nbody);
    tc_broadphase *bp = calloc(1, sizeof *bp);
    if (!bp) return TC_ENOMEM;
    size_t nb = (size_t)nbody + 1, mp = (size_t)cap + 1;
    bp->nbody = nbody, bp->maxpair = (int)cap, bp->margin = margin;
    bp->nplane = nplane, bp->nfinite = nfinite;
    bp->pair = calloc(mp, sizeof *bp->pair);
    bp->radius = calloc(nb, sizeof *bp->radius);
    bp->fixed = calloc(nb, 1);
    bp->plane = calloc(nb, sizeof *bp->plane);
    bp->finite = calloc(nb, sizeof *bp->finite);
    bp->order = calloc(nb, sizeof *bp->order);
    bp->scratch = calloc(nb, sizeof *bp->scratch);
    bp->lo = calloc(nb, sizeof *bp->lo);
    bp->hi = calloc(nb, sizeof *bp->hi);
    bp->key = calloc(mp, sizeof *bp->key);
    bp->keytmp = calloc(mp, sizeof *bp->keytmp);
    if (!bp->pair || !bp->radius || !bp->fixed || !bp->plane || !bp->finite || !bp->order ||
        !bp->scratch || !bp->lo || !bp->hi || !bp->key || !bp->keytmp)
        return tc_broadphase_free(bp), TC_ENOMEM;
    /* the bodies' radii, flags and the two index lists */
    int p = 0, f = 0;
    for (int i = 0; i < nbody; i++) {
        bp->radius[i] = radius[i];
        bp->fixed[i] = fixed ? fixed[i] != 0 : 0;
        if (radius[i] == INFINITY) bp->plane[p++] = i;
        else bp->finite[f++] = i;
    }
    *out = bp;
    return TC_OK;
}

/* one candidate pair into the key buffer, or counted as lost when it is full */
static void emit(tc_broadphase *bp, int a, int b, int *nkey) {
    if (*nkey >= bp->maxpair) {
        bp->lost++;
        return;
    }
    int lo = a < b ? a : b, hi = a < b ? b : a;
    bp->key[(*nkey)++] = (unsigned long long)lo << 32 | (unsigned long long)hi;
}

/* stable bottom-up merge sort of n body indices by (lo[i], i), using scratch */
static void sort_bodies(int *idx, int *scratch, int n, const double *lo) {
    int *src = idx, *dst = scratch;
    for (int w = 1; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            int i = s, j = m, k = s;
            while (i < m && j < e) {
                int a = src[i], b = src[j];
                int take_b = lo[b] < lo[a] || (lo[b] == lo[a] && b < a);
                dst[k++] = take_b ? src[j++] : src[i++];
            }
            while (i < m) dst[k++] = src[i++];
            while (j < e) dst[k++] = src[j++];
        }
        int *t = src;
        src = dst, dst = t;
    }
    if (src != idx) memcpy(idx, src, (size_t)n * sizeof *idx);
}

/* bottom-up merge sort of n keys, using tmp */
static void sort_keys(unsigned long long *key, unsigned long long *tmp, int n) {
    unsigned long long *src = key, *dst = tmp;
    for (int w = 1; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            int i = s, j = m, k = s;
            while (i < m && j < e) dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < m) dst[k++] = src[i++];
            while (j < e) dst[k++] = src[j++];
        }
        unsigned long long *t = src;
        src = dst, dst = t;
    }
    if (src != key) memcpy(key, src, (size_t)n * sizeof *key);
}

/* the axis along which the finite bodies' centres spread most (two passes: mean, variance) */
static int sweep_axis(const tc_broadphase *bp, const tc_body_state *bs) {
    int n = bp->nfinite, best = 0;
    if (n < 2) return 0;
    double mean[3] = {0, 0, 0}, var[3] = {0, 0, 0};
    for (int k = 0; k < n; k++)
        for (int c = 0; c < 3; c++) mean[c] += bs[bp->finite[k]].pos[c];
    for (int c = 0; c < 3; c++) mean[c] /= n;
    for (int k = 0; k < n; k++)
        for (int c = 0; c < 3; c++) {
            double d = bs[bp->finite[k]].pos[c] - mean[c];
            var[c] += d * d;
        }
    for (int c = 1; c < 3; c++)
        if (var[c] > var[best]) best = c;
    return best;
}

int tc_broadphase_query(tc_broadphase *bp, const tc_body_state *bs) {
    int nkey = 0;
    long long lost0 = bp->lost;
    bp->queries++;
    const double m = bp->margin;
    /* planes against every finite body that reaches them, plane by plane, body by body */
    for (int i = 0; i < bp->nplane; i++) {
        int p = bp->plane[i];
        const double *R = bs[p].R, n[3] = {R[2], R[5], R[8]};
        for (int k = 0; k < bp->nfinite; k++) {
            int q = bp->finite[k];
            if (bp->fixed[p] && bp->fixed[q]) continue;
            double h = n[0] * (bs[q].pos[0] - bs[p].pos[0]) + n[1] * (bs[q].pos[1] - bs[p].pos[1]) +
                       n[2] * (bs[q].pos[2] - bs[p].pos[2]);
            if (h <= bp->radius[q] + m) emit(bp, p, q, &nkey);
        }
    }
    /* the finite bodies' intervals on the axis of largest spread, sorted by their low ends */
    int ax = bp->axis = sweep_axis(bp, bs), n = bp->nfinite;
    for (int k = 0; k < n; k++) {
        int i = bp->finite[k];
        double c = bs[i].pos[ax], e = bp->radius[i] + 0.5 * m, tol = 1e-12 * (fabs(c) + e);
        bp->lo[i] = c - e - tol, bp->hi[i] = c + e + tol;
        bp->order[k] = i;
    }
    sort_bodies(bp->order, bp->scratch, n, bp->lo);
    /* sweep: each body against those starting before it ends, then the sphere test */
    for (int k = 0; k < n; k++) {
        int i = bp->order[k];
        for (int l = k + 1; l < n && bp->lo[bp->order[l]] <= bp->hi[i]; l++) {
            int j = bp->order[l];
            if (bp->fixed[i] && bp->fixed[j]) continue;
            int a = i < j ? i : j, b = i < j ? j : i;
            double dx = bs[b].pos[0] - bs[a].pos[0], dy = bs[b].pos[1] - bs[a].pos[1],
                   dz = bs[b].pos[2] - bs[a].pos[2], r = bp->radius[a] + bp->radius[b] + m;
            if (dx * dx + dy * dy + dz * dz <= r * r) emit(bp, a, b, &nkey);
        }
    }
    /* sorted by (a, b), overflow counted */
    sort_keys(bp->key, bp->keytmp, nkey);
    for (int k = 0; k < nkey; k++)
        bp->pair[k][0] = (int)(bp->key[k] >> 32), bp->pair[k][1] = (int)(bp->key[k] & 0xffffffffu);
    if (bp->lost > lost0) bp->overflows++;
    return bp->npair = nkey;
}
