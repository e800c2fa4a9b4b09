/* SPDX-License-Identifier: MIT */
/* narrow phase: contact points, normals and depths between posed shapes (analytic pairs) */
#ifndef TC_COLLIDE_H
#define TC_COLLIDE_H

#include "geom/tc_pose.h"
#include "geom/tc_shape.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_COLLIDE_MAX 8 /* most contacts one pair returns (box on plane: 8 vertices) */

/* one contact between shapes a and b */
typedef struct tc_contact {
    double pos[3];    /* contact point (m), world: midway between the two surfaces */
    double normal[3]; /* unit normal pointing from a to b */
    double depth;     /* penetration (m): > 0 overlapping, < 0 separated by -depth */
} tc_contact;

/* one contact point between two bodies, for velocity-level solvers (models with
 * TC_CAP_CONTACTS report these; contact sets build them) */
typedef struct tc_model_contact {
    int a, b; /* body indices */
    tc_contact
        c; /* world point (m), unit normal pointing from a to b, depth (m, > 0 overlapping) */
} tc_model_contact;

/* 1 if the pair of shape types has an analytic routine here */
int tc_collide_supported(tc_shape_type a, tc_shape_type b);

/* contacts between a (posed by A) and b (posed by B) that are closer than margin (m);
 * returns their number (0..TC_COLLIDE_MAX), or -1 when the pair is unsupported */
int tc_collide(const tc_shape *a, const tc_body_state *A, const tc_shape *b, const tc_body_state *B,
               double margin, tc_contact *out);

#ifdef __cplusplus
}
#endif

#endif
