/* SPDX-License-Identifier: MIT */
/* broad phase: the body pairs whose world bounding spheres overlap, by sweep and prune along the
 * axis of the centres' largest spread, with infinite planes paired with every body that reaches
 * them; pairs sorted, so the result depends on the poses alone */
#ifndef TC_BROADPHASE_H
#define TC_BROADPHASE_H

#include "core/tc_status.h"
#include "geom/tc_pose.h"

/* a broad phase over nbody bodies; every buffer sized in tc_broadphase_alloc. The fields are
 * read-only for callers */
typedef struct tc_broadphase {
    int nbody;
    int maxpair;         /* pairs the buffers hold */
    int npair;           /* pairs of the last query */
    int (*pair)[2];      /* maxpair: the last query's pairs (a, b), a < b, sorted by a then b */
    long long queries;   /* queries so far */
    long long overflows; /* queries that found more than maxpair pairs */
    long long lost;      /* pairs those queries dropped, in all */
    int axis;            /* the last query's sweep axis (0 x, 1 y, 2 z) */
    /* private: the bodies and the sweep's work buffers */
    double *radius;          /* nbody: bounding radius about the body origin (m); INFINITY: plane */
    unsigned char *fixed;    /* nbody: 1 for a body that never moves */
    double margin;           /* m */
    int nplane, nfinite;
    int *plane, *finite;     /* the planes' and the other bodies' indices, increasing */
    int *order, *scratch;    /* nfinite: the sweep order and the merge sort's buffer */
    double *lo, *hi;         /* nbody: each body's interval on the sweep axis (m) */
    unsigned long long *key, *keytmp; /* maxpair: pairs as a << 32 | b, and the sort's buffer */
} tc_broadphase;

/* a broad phase for nbody >= 0 bodies: radius[i] is body i's bounding radius about its origin
 * (the COM position of tc_body_state, m, finite and >= 0), or INFINITY for an infinite plane
 * (the body's z = 0 plane: normal the third column of its rotation, through its position); fixed
 * may be NULL (no fixed bodies), else fixed[i] = 1 marks a body that never moves (pairs of two
 * fixed bodies are skipped, as tc_scene_pairs does). The capacity is per_body >= 1 pairs for each
 * finite body plus, for each plane, one pair per finite body (a plane may touch them all):
 * maxpair = (per_body + nplane) nfinite. margin >= 0 (m) widens every test.
 * Errors: TC_EINVAL naming "radius", "per_body" or "margin"; TC_ENOMEM. err may be NULL */
tc_status tc_broadphase_alloc(tc_broadphase **out, int nbody, const double *radius,
                              const unsigned char *fixed, int per_body, double margin,
                              tc_error *err);
void tc_broadphase_free(tc_broadphase *bp);

/* the candidate pairs at poses bs[nbody] into bp->pair, returns their number. A pair (a, b),
 * a < b, not both fixed, is a candidate when
 *   two finite bodies: d . d <= (r_a + r_b + margin)^2 with d = pos_b - pos_a (componentwise
 *                      differences, summed x, y, z in that order);
 *   a plane p and a finite body q: n . (pos_q - pos_p) <= r_q + margin, n = p's normal;
 *   two planes: never.
 * Plane pairs are found plane by plane, body by body (O(nplane nbody)); the others by sorting the
 * finite bodies' intervals [c - r - margin / 2, c + r + margin / 2] along the axis where the
 * centres spread most (the largest variance, ties to the lower axis; the intervals are widened by
 * 1e-12 of their size so rounding cannot drop a pair the sphere test keeps) and sweeping them in
 * that order (O(n log n + pairs along the axis)). The pairs come out sorted by (a, b) whatever
 * the order they were found in. When more than maxpair pairs qualify, the plane pairs come first,
 * then the sweep's in its order, until the buffer is full; the rest are counted in bp->lost and
 * the query in bp->overflows (the result still sorted and the same for the same poses). Uses only
 * the buffers of tc_broadphase_alloc; threads none */
int tc_broadphase_query(tc_broadphase *bp, const tc_body_state *bs);

#endif
