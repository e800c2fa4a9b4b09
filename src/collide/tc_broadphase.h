/* SPDX-License-Identifier: MIT */
/* broad phase: the body pairs whose world bounding spheres overlap, from a uniform grid of cells
 * as wide as the largest sphere (hashed, so the bodies may spread anywhere), with infinite planes
 * and the few bodies far larger than the rest (walls) tested against every body; pairs sorted,
 * so the result depends on the poses alone */
#ifndef TC_BROADPHASE_H
#define TC_BROADPHASE_H

#include "core/tc_arena.h"
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
    long long tests;     /* sphere tests of the last query (the work the grid left) */
    double cell;         /* grid cell width (m): 2 r + margin over the gridded bodies' r */
    int nplane, nlarge, ngrid; /* planes, large bodies (tested against all), gridded bodies */
    /* private: the bodies and the grid's work buffers */
    double *radius;       /* nbody: bounding radius about the body origin (m); INFINITY: plane */
    unsigned char *fixed; /* nbody: 1 for a body that never moves */
    unsigned char *kind;  /* nbody: 1 for a large body, else 0 */
    double margin;        /* m */
    int *plane, *large, *grid; /* the three kinds' body indices, increasing */
    int *finite;               /* the large and gridded bodies, increasing (the large' partners) */
    int nhash;                 /* hash buckets, a power of two >= 2 ngrid */
    long long (*cellof)[3];    /* ngrid: each gridded body's cell */
    int *bucket;               /* ngrid: each gridded body's bucket */
    int *start;                /* nhash + 1: bucket b holds slot[start[b] .. start[b + 1]) */
    int *slot;                 /* ngrid: the gridded bodies (their positions in grid) by bucket */
    long long (*scell)[3];     /* ngrid: each slot's cell */
    double (*sbody)[4];        /* ngrid: each slot's centre (m) and radius (m) */
    unsigned long long *key, *keytmp; /* maxpair: pairs as a << 32 | b, and the sort's buffer */
    tc_arena arena;                   /* the block that holds the broad phase and its buffers */
} tc_broadphase;

/* a broad phase for nbody >= 0 bodies: radius[i] is body i's bounding radius about its origin
 * (the COM position of tc_body_state, m, finite and >= 0), or INFINITY for an infinite plane
 * (the body's z = 0 plane: normal the third column of its rotation, through its position); fixed
 * may be NULL (no fixed bodies), else fixed[i] = 1 marks a body that never moves (pairs of two
 * fixed bodies are skipped, as tc_scene_pairs does). A finite body whose radius exceeds 4 times
 * the median of the finite radii is "large" (a wall, a table): it is tested against every finite
 * body, so one cannot make the cells coarse; the others go in the grid. The capacity is
 * per_body >= 1 pairs for each finite body plus, for each plane and each large body, one pair
 * per finite body (they may touch them all): maxpair = (per_body + nplane + nlarge) nfinite.
 * margin >= 0 (m) widens every test. Errors: TC_EINVAL naming "radius", "per_body" or "margin";
 * TC_ENOMEM. err may be NULL */
tc_status tc_broadphase_alloc(tc_broadphase **out, int nbody, const double *radius,
                              const unsigned char *fixed, int per_body, double margin,
                              tc_error *err);
void tc_broadphase_free(tc_broadphase *bp);

/* the candidate pairs at poses bs[nbody] into bp->pair, returns their number. A pair (a, b),
 * a < b, not both fixed, is a candidate when
 *   two finite bodies: d . d <= (r_a + r_b + margin)^2 with d = pos_b - pos_a (componentwise
 *                      differences, summed x, y, z in that order);
 *   a plane p and a finite body q: n . (pos_q - pos_p) <= r_q + margin, n = p's normal
 *                      (summed x, y, z);
 *   two planes: never.
 * Planes and large bodies are tested against every finite body (O((nplane + nlarge) nbody)).
 * Each gridded body goes in the cell floor(pos / cell) of a uniform grid, cell = 2 r_max +
 * margin over the gridded radii, so a pair that can overlap lies in neighbouring cells; the cells
 * are hashed into nhash buckets (counting sort, O(nbody)), and each body is tested against the
 * later bodies of its cell and the bodies of the 13 cells that follow it among the 27 around it
 * (so each pair of neighbouring cells is visited once: O(nbody) for a pile of bounded density). The
 * pairs come out sorted by (a, b) whatever the order they were found in. When more than maxpair
 * pairs qualify, the plane pairs come first, then the large bodies', then the grid's in body order,
 * until the buffer is full; the rest are counted in bp->lost and the query in bp->overflows (the
 * result still sorted and the same for the same poses). A position that is not finite puts its
 * body in cell 0. Uses only the buffers of tc_broadphase_alloc; threads none */
int tc_broadphase_query(tc_broadphase *bp, const tc_body_state *bs);

#endif
