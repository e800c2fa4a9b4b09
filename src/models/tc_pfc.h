/* SPDX-License-Identifier: MIT */
/* pressure field contact's contact surface: the equal-pressure polygons the registered model
 * (tc_model_pfc) integrates, with their pressure, for figures and tests */
#ifndef TC_PFC_H
#define TC_PFC_H

#include "models/tc_model.h"

extern const tc_model_type tc_model_pfc;

/* the most vertices of one polygon (a tet's section clipped by another tet's faces) */
#define TC_PFC_MAXPOLY 16

/* one polygon of the contact surface between bodies a and b (a pair of the scene) */
typedef struct tc_pfc_polygon {
    int a, b;                    /* the pair's bodies (scene indices) */
    int n;                       /* vertices, 3 .. TC_PFC_MAXPOLY, in order around the polygon */
    double x[TC_PFC_MAXPOLY][3]; /* vertices (m, world frame) */
    double p[TC_PFC_MAXPOLY];    /* p0 at each vertex (Pa): the field of the tet the polygon lies
                                  * in, equal to the other body's there */
} tc_pfc_polygon;

/* the contact surface of a pfc state (made by tc_model_pfc.alloc) at poses bs[nbody]: every
 * polygon of positive area the force evaluation integrates, in its order, into poly[max] (the
 * first max when there are more). The sweep runs on one thread whatever `threads` says. Returns
 * the number of polygons (more than max when they did not all fit), or -1 when the evaluation
 * failed (non-finite wrenches, no memory) */
int tc_pfc_surface(void *state, const tc_body_state *bs, tc_pfc_polygon *poly, int max);

#endif
