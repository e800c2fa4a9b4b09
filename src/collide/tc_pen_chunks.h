/* SPDX-License-Identifier: MIT */
/* surface points in compact chunks, each with a bounding ball, so the penetration query skips
 * whole patches that cannot reach the other shape (internal: contact sets use it) */
#ifndef TC_PEN_CHUNKS_H
#define TC_PEN_CHUNKS_H

#include "collide/tc_penetration.h"
#include "core/tc_status.h"

#define TC_PEN_CHUNK 8 /* points a chunk holds (the last one fewer) */

/* a surface's points in chunks: chunk k holds the points idx[TC_PEN_CHUNK k ..] (at most
 * TC_PEN_CHUNK, consecutive along a Morton curve over the surface's bounding box, so each chunk
 * is a compact patch) within ball[k] (centre, m, body frame; radius, m) */
typedef struct tc_pen_chunks {
    int npoint, nchunk;
    int *idx;          /* npoint point indices, chunk after chunk */
    double (*p)[3];    /* npoint: the points in that order (m, body frame), read in sequence */
    double (*ball)[4]; /* nchunk: centre and radius */
} tc_pen_chunks;

/* the chunks of surface S (S must outlive nothing: they copy what they need); TC_ENOMEM */
tc_status tc_pen_chunks_alloc(tc_pen_chunks *c, const tc_surface *S);
void tc_pen_chunks_free(tc_pen_chunks *c);

/* the points of one surface near another body at one relative pose, kept so that later queries
 * at nearby poses (a step's integrator stages, the next steps of a resting pile) test those points
 * alone: the chunk positions of the points whose signed distance to the other shape was below
 * reach, each with a lower bound on that distance. Owned by the caller (one per pair and
 * direction); the query records and uses it itself, so the results are those without it */
typedef struct tc_pen_near {
    int n;              /* points listed; -1: nothing recorded yet */
    int cap;            /* room: at least the surface's point count, or the list is not used */
    int *j;             /* cap: the listed points' positions in the chunks' order */
    double *gap;        /* cap: lower bounds on their signed distances at the record (m) */
    double Rr[9], t[3]; /* the relative pose recorded: a point p is at Rr p + t in the other
                         * body's frame (m) */
    double reach;       /* m: every point not listed was at least this far outside */
    long records, uses; /* how often the list was recorded and used (for benchmarks) */
} tc_pen_near;

/* the share of a surface's bounding radius a list reaches (TC_PEN_REACH S.radius): a query uses
 * the list while no point of the surface has moved that far relative to the other body since the
 * record, and records it anew otherwise */
#define TC_PEN_REACH 0.1

/* one side of a penetration query: its shape, surface, chunks (NULL: scanned point by point),
 * pose and near list (NULL: none; used only with chunks) */
typedef struct tc_pen_side {
    const tc_shape *shape;
    const tc_surface *surf;
    const tc_pen_chunks *chunks;
    const tc_body_state *pose;
    tc_pen_near *near;
} tc_pen_side;

/* tc_penetrate of sides a and b: with chunks, a chunk whose ball lies beyond the other shape (its
 * bounding sphere, a box's or cylinder's faces, a plane) by more than 1e-9 m plus 1e-9 of the
 * poses' scale is skipped whole; with a near list whose record is within reach, only the listed
 * points that may have moved inside are tested (the others stayed outside by more than the same
 * margin). The points tested take tc_penetrate's own tests, so the result is bitwise
 * tc_penetrate's */
int tc_penetrate_sides(const tc_pen_side *a, const tc_pen_side *b, tc_pen_work *w,
                       tc_penetration *out, tc_pen_point *pts, int max);

/* tc_penetrate with the chunks CA of SA and CB of SB (either may be NULL: that surface is scanned
 * point by point): a chunk whose ball lies beyond the other shape (its bounding sphere, a box's
 * or cylinder's faces, a plane) by more than 1e-9 m plus 1e-9 of the poses' scale is skipped
 * whole, the other points take tc_penetrate's own tests in index order, so the result is bitwise
 * tc_penetrate's (tc_penetrate_sides without near lists) */
int tc_penetrate_chunked(const tc_shape *sa, const tc_surface *SA, const tc_pen_chunks *CA,
                         const tc_body_state *A, const tc_shape *sb, const tc_surface *SB,
                         const tc_pen_chunks *CB, const tc_body_state *B, tc_pen_work *w,
                         tc_penetration *out, tc_pen_point *pts, int max);

#endif
