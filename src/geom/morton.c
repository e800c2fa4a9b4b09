/* SPDX-License-Identifier: MIT */
/* points along a Morton curve (tc_morton.h) */
#include "geom/tc_morton.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* the Morton key of a point quantised to a 2^10 grid over the cube [lo, lo + ext] */
static uint64_t morton_key(const double p[3], const double lo[3], double ext) {
    uint64_t key = 0;
    unsigned c[3];
    for (int k = 0; k < 3; k++) {
        double u = ext > 0 ? (p[k] - lo[k]) / ext : 0;
        c[k] = (unsigned)(u <= 0 ? 0 : u >= 1 ? 1023 : u * 1023);
    }
    for (int b = 9; b >= 0; b--)
        for (int k = 0; k < 3; k++)
            key = (key << 1) | ((c[k] >> b) & 1u);
    return key;
}

typedef struct keyed {
    uint64_t key;
    int i;
} keyed;

/* by key, then by index: a total order */
static int by_key(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : x->i - y->i;
}

tc_status tc_morton_order(int n, const double *x, const double *y, const double *z, size_t stride,
                          int *order) {
    if (n <= 0) return TC_OK;
    keyed *kv = malloc((size_t)n * sizeof *kv);
    if (!kv) return TC_ENOMEM;
    /* the bounding cube: the box's corner and its longest side */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        const double p[3] = {x[i * stride], y[i * stride], z[i * stride]};
        for (int k = 0; k < 3; k++) {
            lo[k] = fmin(lo[k], p[k]);
            hi[k] = fmax(hi[k], p[k]);
        }
    }
    const double ext = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    /* the keys, sorted */
    for (int i = 0; i < n; i++) {
        const double p[3] = {x[i * stride], y[i * stride], z[i * stride]};
        kv[i].key = morton_key(p, lo, ext);
        kv[i].i = i;
    }
    qsort(kv, (size_t)n, sizeof *kv, by_key);
    for (int j = 0; j < n; j++)
        order[j] = kv[j].i;
    free(kv);
    return TC_OK;
}
