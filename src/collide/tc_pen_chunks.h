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

/* tc_penetrate with the chunks CA of SA and CB of SB (either may be NULL: that surface is scanned
 * point by point): a chunk whose ball lies beyond the other shape (its bounding sphere, a box's
 * or cylinder's faces, a plane) by more than 1e-9 m plus 1e-9 of the poses' scale is skipped
 * whole, the other points take tc_penetrate's own tests in index order, so the result is bitwise
 * tc_penetrate's */
int tc_penetrate_chunked(const tc_shape *sa, const tc_surface *SA, const tc_pen_chunks *CA,
                         const tc_body_state *A, const tc_shape *sb, const tc_surface *SB,
                         const tc_pen_chunks *CB, const tc_body_state *B, tc_pen_work *w,
                         tc_penetration *out, tc_pen_point *pts, int max);

#endif
