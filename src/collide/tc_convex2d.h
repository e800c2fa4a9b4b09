/* SPDX-License-Identifier: MIT */
/* planar convex primitives for optimisation-based collision detection (DCOL, Tracy et al. 2022,
 * as Le Cleac'h et al. 2023 use it): a polygon {p : A R(theta)^T (p - x) <= alpha b} scaled by
 * alpha about its body origin, or a fixed half-space {p : n . (p - o) <= 0} */
#ifndef TC_CONVEX2D_H
#define TC_CONVEX2D_H

#include "core/tc_status.h"
#include "geom/tc_shape.h"

#define TC_CONVEX2D_MAXROW 16

typedef enum tc_convex2d_kind { TC_CONVEX2D_POLYGON = 0, TC_CONVEX2D_HALFSPACE } tc_convex2d_kind;

/* one primitive in the plane z = const.
 * Polygon: m rows A[i] . y <= b[i] (b > 0: the body origin, its centre of mass, is inside) in
 * the frame the body has at planar angle 0 (its scene orientation), y = R(theta)^T (p - x) for a
 * body at (x, theta).
 * Half-space: world outward normal n (unit) and a point o on its boundary (m); the solid is
 * n . (p - o) <= 0 and does not scale with alpha (it has no centre) */
typedef struct tc_convex2d {
    tc_convex2d_kind kind;
    int m;                           /* rows: polygon 3 .. TC_CONVEX2D_MAXROW, half-space 1 */
    double A[TC_CONVEX2D_MAXROW][2]; /* unit outward row normals (polygon) */
    double b[TC_CONVEX2D_MAXROW];    /* m, > 0 (polygon) */
    double n[2], o[2];               /* half-space normal and point (world, m) */
} tc_convex2d;

/* the primitive of a shape posed by quat (w x y z) at pos (m): a polytope whose faces are
 * either parallel to the plane (the prism's caps, dropped) or perpendicular to it (the rows),
 * turned about z only; a plane whose normal lies in the plane z = const. Anything else (a
 * sphere, a tilted prism, a plane facing z) is TC_EUNSUP naming `what` (e.g. the body's name) */
tc_status tc_convex2d_from_shape(tc_convex2d *out, const tc_shape *s, const double pos[3],
                                 const double quat[4], const char *what, tc_error *err);

/* 1 when polygon point y (its frame, m) lies in the polygon scaled by alpha, within tol (m) */
int tc_convex2d_contains(const tc_convex2d *c, const double y[2], double alpha, double tol);

#endif
