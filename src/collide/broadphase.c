/* SPDX-License-Identifier: MIT */
/* broad phase: planes and large bodies against every body, a hashed uniform grid for the rest,
 * pairs sorted by merge sort in buffers sized once */
#include "collide/tc_broadphase.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tc_broadphase_free(tc_broadphase *bp) {
    if (bp) tc_arena_free(&bp->arena);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the median of the finite radii (0 when there are none) */
static tc_status median_radius(int nbody, const double *radius, double *med) {
    int n = 0;
    double *r = calloc((size_t)nbody + 1, sizeof *r);
    if (!r) return TC_ENOMEM;
    for (int i = 0; i < nbody; i++)
        if (radius[i] != INFINITY) r[n++] = radius[i];
    qsort(r, (size_t)n, sizeof *r, cmp_double);
    *med = n ? (n % 2 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2])) : 0;
    free(r);
    return TC_OK;
}

/* the arguments: counts, radii, capacity and margin */
static tc_status check_args(int nbody, const double *radius, int per_body, double margin,
                            tc_error *err) {
    if (nbody < 0) return tc_error_set(err, TC_EINVAL, "", 0, "radius", "%d bodies", nbody);
    if (per_body < 1)
        return tc_error_set(err, TC_EINVAL, "", 0, "per_body",
                            "pairs per body must be >= 1, got %d", per_body);
    if (!(margin >= 0) || !isfinite(margin))
        return tc_error_set(err, TC_EINVAL, "", 0, "margin",
                            "margin must be finite and >= 0 (m), got %g", margin);
    for (int i = 0; i < nbody; i++)
        if (radius[i] != INFINITY && (!(radius[i] >= 0) || !isfinite(radius[i])))
            return tc_error_set(err, TC_EINVAL, "", 0, "radius",
                                "body %d: bounding radius must be finite and >= 0 (m), got %g", i,
                                radius[i]);
    return TC_OK;
}

/* the buffers, carved from the broad phase's block (a probe while sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    (void)ctx;
    tc_broadphase *bp = state;
    size_t nb = (size_t)bp->nbody + 1, mp = (size_t)bp->maxpair + 1;
    bp->pair = tc_arena_alloc(a, mp, sizeof *bp->pair);
    bp->radius = tc_arena_alloc(a, nb, sizeof *bp->radius);
    bp->fixed = tc_arena_alloc(a, nb, 1);
    bp->kind = tc_arena_alloc(a, nb, 1);
    bp->plane = tc_arena_alloc(a, nb, sizeof *bp->plane);
    bp->large = tc_arena_alloc(a, nb, sizeof *bp->large);
    bp->grid = tc_arena_alloc(a, nb, sizeof *bp->grid);
    bp->finite = tc_arena_alloc(a, nb, sizeof *bp->finite);
    bp->cellof = tc_arena_alloc(a, nb, sizeof *bp->cellof);
    bp->bucket = tc_arena_alloc(a, nb, sizeof *bp->bucket);
    bp->start = tc_arena_alloc(a, (size_t)bp->nhash + 1, sizeof *bp->start);
    bp->slot = tc_arena_alloc(a, nb, sizeof *bp->slot);
    bp->scell = tc_arena_alloc(a, nb, sizeof *bp->scell);
    bp->sbody = tc_arena_alloc(a, nb, sizeof *bp->sbody);
    bp->key = tc_arena_alloc(a, mp, sizeof *bp->key);
    bp->keytmp = tc_arena_alloc(a, mp, sizeof *bp->keytmp);
}

/* the bodies' radii, flags and index lists; the cell as wide as two gridded radii */
static void sort_bodies(tc_broadphase *bp, const double *radius, const unsigned char *fixed,
                        double med) {
    int p = 0, l = 0, g = 0, f = 0;
    double rmax = 0;
    for (int i = 0; i < bp->nbody; i++) {
        bp->radius[i] = radius[i];
        bp->fixed[i] = fixed ? fixed[i] != 0 : 0;
        if (radius[i] == INFINITY) {
            bp->plane[p++] = i;
            continue;
        }
        bp->finite[f++] = i;
        if (radius[i] > 4 * med) {
            bp->large[l++] = i;
            bp->kind[i] = 1;
        } else {
            bp->grid[g++] = i;
            rmax = fmax(rmax, radius[i]);
        }
    }
    bp->cell = 2 * rmax + bp->margin > 0 ? 2 * rmax + bp->margin : 1;
}

tc_status tc_broadphase_alloc(tc_broadphase **out, int nbody, const double *radius,
                              const unsigned char *fixed, int per_body, double margin,
                              tc_error *err) {
    *out = NULL;
    tc_status st = check_args(nbody, radius, per_body, margin, err);
    if (st) return st;
    /* the three kinds: planes, large bodies (over 4 median radii), gridded bodies */
    double med;
    if (median_radius(nbody, radius, &med)) return TC_ENOMEM;
    int nplane = 0, nlarge = 0;
    for (int i = 0; i < nbody; i++) {
        nplane += radius[i] == INFINITY;
        nlarge += radius[i] != INFINITY && radius[i] > 4 * med;
    }
    int nfinite = nbody - nplane, ngrid = nfinite - nlarge;
    long long cap = ((long long)per_body + nplane + nlarge) * nfinite;
    if (cap > 1LL << 28)
        return tc_error_set(err, TC_EINVAL, "", 0, "per_body",
                            "%lld pairs is too many (%d pairs a body, %d bodies)", cap, per_body,
                            nbody);
    int nhash = 1;
    while (nhash < 2 * ngrid)
        nhash *= 2;
    /* the counts, then every buffer in one block */
    tc_broadphase probe = {.nbody = nbody,
                           .maxpair = (int)cap,
                           .margin = margin,
                           .nhash = nhash,
                           .nplane = nplane,
                           .nlarge = nlarge,
                           .ngrid = ngrid};
    tc_broadphase *bp =
        tc_arena_make(&probe, sizeof probe, offsetof(tc_broadphase, arena), carve, NULL);
    if (!bp) return TC_ENOMEM;
    sort_bodies(bp, radius, fixed, med);
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

/* the sphere test of finite bodies a < b (the header's formula) */
static int spheres_meet(tc_broadphase *bp, const tc_body_state *bs, int a, int b) {
    bp->tests++;
    double dx = bs[b].pos[0] - bs[a].pos[0], dy = bs[b].pos[1] - bs[a].pos[1],
           dz = bs[b].pos[2] - bs[a].pos[2], r = bp->radius[a] + bp->radius[b] + bp->margin;
    return dx * dx + dy * dy + dz * dz <= r * r;
}

/* bottom-up merge sort of n keys, using tmp */
static void sort_keys(unsigned long long *key, unsigned long long *tmp, int n) {
    unsigned long long *src = key, *dst = tmp;
    for (int w = 1; w < n; w *= 2) {
        for (int s = 0; s < n; s += 2 * w) {
            int m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            int i = s, j = m, k = s;
            while (i < m && j < e)
                dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < m)
                dst[k++] = src[i++];
            while (j < e)
                dst[k++] = src[j++];
        }
        unsigned long long *t = src;
        src = dst;
        dst = t;
    }
    if (src != key) memcpy(key, src, (size_t)n * sizeof *key);
}

/* a coordinate's cell index, clamped far out (and 0 when it is not finite) */
static long long cell_index(double x, double cell) {
    double c = floor(x / cell);
    if (!(c == c)) return 0;
    return c > 0x1p62 ? 1LL << 62 : c < -0x1p62 ? -(1LL << 62) : (long long)c;
}

/* a cell's hash bucket (a multiplicative mix of its indices) */
static int cell_bucket(const long long c[3], int nhash) {
    unsigned long long h = (unsigned long long)c[0] * 0x9E3779B97F4A7C15ULL ^
                           (unsigned long long)c[1] * 0xC2B2AE3D27D4EB4FULL ^
                           (unsigned long long)c[2] * 0x165667B19E3779F9ULL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return (int)(h & (unsigned long long)(nhash - 1));
}

int tc_broadphase_query(tc_broadphase *bp, const tc_body_state *bs) {
    int nkey = 0;
    long long lost0 = bp->lost;
    bp->queries++;
    bp->tests = 0;
    int nfinite = bp->nlarge + bp->ngrid;
    /* planes against every finite body that reaches them, plane by plane, body by body */
    for (int i = 0; i < bp->nplane; i++) {
        int p = bp->plane[i];
        const double *R = bs[p].R, n[3] = {R[2], R[5], R[8]};
        for (int k = 0; k < nfinite; k++) {
            int q = bp->finite[k];
            if (bp->fixed[p] && bp->fixed[q]) continue;
            double h = n[0] * (bs[q].pos[0] - bs[p].pos[0]) + n[1] * (bs[q].pos[1] - bs[p].pos[1]) +
                       n[2] * (bs[q].pos[2] - bs[p].pos[2]);
            if (h <= bp->radius[q] + bp->margin) emit(bp, p, q, &nkey);
        }
    }
    /* large bodies against every finite body (two large ones by the lower index's loop) */
    for (int i = 0; i < bp->nlarge; i++) {
        int L = bp->large[i];
        for (int k = 0; k < nfinite; k++) {
            int q = bp->finite[k], a = L < q ? L : q, b = L < q ? q : L;
            if (q == L || (bp->kind[q] && q < L) || (bp->fixed[L] && bp->fixed[q])) continue;
            if (spheres_meet(bp, bs, a, b)) emit(bp, a, b, &nkey);
        }
    }
    /* the gridded bodies' cells and buckets, then the bodies by bucket (a counting sort) */
    int ng = bp->ngrid, nh = bp->nhash;
    memset(bp->start, 0, ((size_t)nh + 1) * sizeof *bp->start);
    for (int k = 0; k < ng; k++) {
        const double *x = bs[bp->grid[k]].pos;
        for (int c = 0; c < 3; c++)
            bp->cellof[k][c] = cell_index(x[c], bp->cell);
        bp->bucket[k] = cell_bucket(bp->cellof[k], nh);
        bp->start[bp->bucket[k] + 1]++;
    }
    for (int b = 0; b < nh; b++)
        bp->start[b + 1] += bp->start[b];
    for (int k = 0; k < ng; k++)
        bp->slot[bp->start[bp->bucket[k]]++] = k;
    for (int b = nh; b > 0; b--)
        bp->start[b] = bp->start[b - 1];
    bp->start[0] = 0;
    /* each slot's cell, centre and radius side by side, so a bucket is read in one sweep */
    for (int t = 0; t < ng; t++) {
        int m = bp->slot[t], i = bp->grid[m];
        memcpy(bp->scell[t], bp->cellof[m], sizeof bp->scell[t]);
        for (int c = 0; c < 3; c++)
            bp->sbody[t][c] = bs[i].pos[c];
        bp->sbody[t][3] = bp->radius[i];
    }
    /* each gridded body against the later ones in its own cell and every one in the 13 cells
     * after it (a cell's neighbours d = 14 .. 26 in the 3 x 3 x 3 block: each pair of cells
     * once) */
    const double mg = bp->margin;
    for (int k = 0; k < ng; k++) {
        int i = bp->grid[k];
        const double *xi = bs[i].pos, ri = bp->radius[i];
        for (int d = 13; d < 27; d++) {
            long long nc[3] = {bp->cellof[k][0] + d % 3 - 1, bp->cellof[k][1] + d / 3 % 3 - 1,
                               bp->cellof[k][2] + d / 9 - 1};
            int b = cell_bucket(nc, nh);
            for (int t = bp->start[b]; t < bp->start[b + 1]; t++) {
                if (bp->scell[t][0] != nc[0] || bp->scell[t][1] != nc[1] ||
                    bp->scell[t][2] != nc[2])
                    continue;
                int m = bp->slot[t], j = bp->grid[m];
                if ((d == 13 && m <= k) || (bp->fixed[i] && bp->fixed[j])) continue;
                /* the sphere test, d = pos_b - pos_a for a < b (the header's formula) */
                const double *xj = bp->sbody[t], sg = i < j ? 1 : -1, r = ri + xj[3] + mg;
                double dx = sg * (xj[0] - xi[0]), dy = sg * (xj[1] - xi[1]),
                       dz = sg * (xj[2] - xi[2]);
                bp->tests++;
                if (dx * dx + dy * dy + dz * dz <= r * r) emit(bp, i, j, &nkey);
            }
        }
    }
    /* sorted by (a, b), overflow counted */
    sort_keys(bp->key, bp->keytmp, nkey);
    for (int k = 0; k < nkey; k++) {
        bp->pair[k][0] = (int)(bp->key[k] >> 32);
        bp->pair[k][1] = (int)(bp->key[k] & 0xffffffffu);
    }
    if (bp->lost > lost0) bp->overflows++;
    return bp->npair = nkey;
}
