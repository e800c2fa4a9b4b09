/* SPDX-License-Identifier: MIT */
/* interned polytope hulls: one immutable copy per distinct content, shared process-wide */
#include "geom/tc_shape.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* an open-addressing table of hull pointers with their hashes, at most half full; the hulls are
 * allocated one by one, so their addresses survive the table's growth */
typedef struct hull_slot {
    uint64_t hash;
    tc_hull *hull; /* NULL: empty */
} hull_slot;

static pthread_mutex_t hull_lock = PTHREAD_MUTEX_INITIALIZER;
static hull_slot *hull_table;
static size_t hull_cap, hull_n;
static int hull_atexit;

/* the used part of h's fv: the end of its last face loop */
static int loop_len(const tc_hull *h) {
    int n = 0;
    for (int f = 0; f < h->nface; f++)
        if (h->fofs[f] + h->fnv[f] > n) n = h->fofs[f] + h->fnv[f];
    return n;
}

/* FNV-1a over n bytes */
static uint64_t fnv(uint64_t x, const void *p, size_t n) {
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        x = (x ^ c[i]) * 1099511628211u;
    return x;
}

/* the hash of h's content: the counts and the bits of its used entries */
static uint64_t hull_hash(const tc_hull *h) {
    uint64_t x = 14695981039346656037u;
    x = fnv(x, &h->nvert, sizeof h->nvert);
    x = fnv(x, &h->nface, sizeof h->nface);
    x = fnv(x, h->vert, (size_t)h->nvert * sizeof h->vert[0]);
    x = fnv(x, h->face, (size_t)h->nface * sizeof h->face[0]);
    x = fnv(x, h->fnv, (size_t)h->nface);
    x = fnv(x, h->fofs, (size_t)h->nface);
    return fnv(x, h->fv, (size_t)loop_len(h));
}

/* 1 when a and b have the same content, bit for bit (so 0.0 and -0.0 differ) */
static int hull_equal(const tc_hull *a, const tc_hull *b) {
    if (a->nvert != b->nvert || a->nface != b->nface) return 0;
    int na = loop_len(a);
    return na == loop_len(b) && !memcmp(a->vert, b->vert, (size_t)a->nvert * sizeof a->vert[0]) &&
           !memcmp(a->face, b->face, (size_t)a->nface * sizeof a->face[0]) &&
           !memcmp(a->fnv, b->fnv, (size_t)a->nface) &&
           !memcmp(a->fofs, b->fofs, (size_t)a->nface) && !memcmp(a->fv, b->fv, (size_t)na);
}

/* the slot of hash x in a table of cap slots (a power of two): the hull equal to h, else the
 * empty slot where it goes */
static hull_slot *hull_find(hull_slot *t, size_t cap, uint64_t x, const tc_hull *h) {
    for (size_t i = (size_t)x & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!t[i].hull || (t[i].hash == x && (!h || hull_equal(t[i].hull, h)))) return &t[i];
}

/* at exit: free every hull and the table (nothing runs on them after main returns) */
static void hull_free_all(void) {
    pthread_mutex_lock(&hull_lock);
    for (size_t i = 0; i < hull_cap; i++)
        free(hull_table[i].hull);
    free(hull_table);
    hull_table = NULL;
    hull_cap = hull_n = 0;
    pthread_mutex_unlock(&hull_lock);
}

/* double the table (or make the first one); 0 when out of memory */
static int hull_grow(void) {
    size_t cap = hull_cap ? 2 * hull_cap : 64;
    hull_slot *t = calloc(cap, sizeof *t);
    if (!t) return 0;
    for (size_t i = 0; i < hull_cap; i++)
        if (hull_table[i].hull) *hull_find(t, cap, hull_table[i].hash, NULL) = hull_table[i];
    free(hull_table);
    hull_table = t;
    hull_cap = cap;
    return 1;
}

const tc_hull *tc_hull_intern(const tc_hull *h) {
    if (h->nvert < 0 || h->nvert > TC_POLY_MAXVERT || h->nface < 0 || h->nface > TC_POLY_MAXFACE ||
        loop_len(h) > TC_POLY_MAXLOOP)
        return NULL;
    uint64_t x = hull_hash(h);
    const tc_hull *out = NULL;
    pthread_mutex_lock(&hull_lock);
    if (!hull_atexit) {
        hull_atexit = 1;
        atexit(hull_free_all);
    }
    if (2 * (hull_n + 1) > hull_cap && !hull_grow()) goto done;
    hull_slot *s = hull_find(hull_table, hull_cap, x, h);
    if (!s->hull) {
        /* a fresh copy with the unused entries zeroed, so it is the content and nothing else */
        tc_hull *c = calloc(1, sizeof *c);
        if (!c) goto done;
        c->nvert = h->nvert;
        c->nface = h->nface;
        memcpy(c->vert, h->vert, (size_t)h->nvert * sizeof h->vert[0]);
        memcpy(c->face, h->face, (size_t)h->nface * sizeof h->face[0]);
        memcpy(c->fnv, h->fnv, (size_t)h->nface);
        memcpy(c->fofs, h->fofs, (size_t)h->nface);
        memcpy(c->fv, h->fv, (size_t)loop_len(h));
        s->hash = x;
        s->hull = c;
        hull_n++;
    }
    out = s->hull;
done:
    pthread_mutex_unlock(&hull_lock);
    return out;
}

size_t tc_hull_count(void) {
    pthread_mutex_lock(&hull_lock);
    size_t n = hull_n;
    pthread_mutex_unlock(&hull_lock);
    return n;
}
