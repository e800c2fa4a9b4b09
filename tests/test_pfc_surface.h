/* SPDX-License-Identifier: MIT */
/* shared by the pressure-field surface tests: a fanned sphere mesh's field anywhere, from its
 * surface triangles alone, and the force of contact-surface polygons */
#ifndef TC_TEST_PFC_SURFACE_H
#define TC_TEST_PFC_SURFACE_H

#include <math.h>

#include "geom/tc_tetmesh.h"
#include "math/tc_vec.h"
#include "models/tc_pfc.h"

/* p0 (Pa) of the fanned sphere mesh m (tc_tetmesh_sphere_alloc: eps = 1 at the centre, 0 on
 * the surface, linear in each tet) centred at c, unrotated, at world x: in the tet of surface
 * triangle f, eps = 1 - n_f . (x - c) / a_f (n_f the unit outward normal, a_f the plane's
 * distance from the centre), and for a convex polyhedron the tet holding x has the largest
 * n_f . (x - c) / a_f (the polyhedron's gauge), so p0 = E (1 - gauge) with no tet search */
static inline double sphere_mesh_field(const tc_tetmesh *m, const double c[3], const double x[3]) {
    double y[3], g = -INFINITY;
    tc_v3_sub(y, x, c);
    for (int f = 0; f < m->ntri; f++) {
        const double *a = m->vert + 3 * m->tri[3 * f], *b = m->vert + 3 * m->tri[3 * f + 1],
                     *d = m->vert + 3 * m->tri[3 * f + 2];
        double e1[3], e2[3], n[3];
        tc_v3_sub(e1, b, a);
        tc_v3_sub(e2, d, a);
        tc_v3_cross(n, e1, e2);
        tc_v3_scale(n, n, 1 / tc_v3_norm(n));
        g = fmax(g, tc_v3_dot(n, y) / fabs(tc_v3_dot(n, a)));
    }
    return m->E * (1 - g);
}

/* the least distance (m) of the mesh's surface triangles' planes from its centre */
static inline double sphere_mesh_apothem(const tc_tetmesh *m) {
    double amin = INFINITY;
    for (int f = 0; f < m->ntri; f++) {
        const double *a = m->vert + 3 * m->tri[3 * f], *b = m->vert + 3 * m->tri[3 * f + 1],
                     *d = m->vert + 3 * m->tri[3 * f + 2];
        double e1[3], e2[3], n[3];
        tc_v3_sub(e1, b, a);
        tc_v3_sub(e2, d, a);
        tc_v3_cross(n, e1, e2);
        amin = fmin(amin, fabs(tc_v3_dot(n, a)) / tc_v3_norm(n));
    }
    return amin;
}

/* add the force (N) of polygon q's linear pressure, along its unit normal oriented towards u
 * (n . u > 0), to F: the fan from vertex 0, int p dA = area (p_0 + p_k + p_k+1) / 3 per
 * triangle; returns the polygon's area (m^2) */
static inline double polygon_force(const tc_pfc_polygon *q, const double u[3], double F[3]) {
    double S[3] = {0, 0, 0}, W = 0;
    for (int k = 1; k + 1 < q->n; k++) {
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, q->x[k], q->x[0]);
        tc_v3_sub(e2, q->x[k + 1], q->x[0]);
        tc_v3_cross(cr, e1, e2);
        tc_v3_addscl(S, cr, 0.5);
        W += 0.5 * tc_v3_norm(cr) * (q->p[0] + q->p[k] + q->p[k + 1]) / 3;
    }
    /* a plane polygon: every fan triangle has the same orientation, so |S| is its area */
    double A = tc_v3_norm(S);
    tc_v3_addscl(F, S, (tc_v3_dot(S, u) > 0 ? 1 : -1) * W / A);
    return A;
}

#endif
