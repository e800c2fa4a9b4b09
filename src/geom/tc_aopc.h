/* SPDX-License-Identifier: MIT */
/* oriented point clouds (AOPCs): surface samples with outward normals, and the SSDF over them */
#ifndef TC_AOPC_H
#define TC_AOPC_H

#include "core/tc_status.h"
#include "geom/tc_shape.h"

/* an oriented point cloud, structure of arrays; body frame or world frame depending on use */
typedef struct tc_aopc {
    int n;                   /* number of points */
    double *px, *py, *pz;    /* point positions (m) */
    double *nx, *ny, *nz;    /* outward unit normals */
    double spacing;          /* mean distance between neighbouring points (m); 0 for a plane */
} tc_aopc;

/* sample the surface of a shape with target spacing h (m):
 * sphere: Fibonacci lattice with N = ceil(4 pi r^2 / h^2) points (>= 12), normals radial;
 * box: each face cut into a grid of near-square quads of side <= h, one point at each quad centre
 *      with the face normal (no point on an edge or corner, so each face keeps its own normal);
 * cylinder: side rows and cap rings of spacing <= h at row / ring centres (no rim points);
 * polytope: on each face the centres of a grid of cells of side <= h (axes along the face's first
 *      edge and across it) that lie inside the face, off its edges, with the face normal (a face
 *      too small for any gets its vertex mean);
 * plane: one point at the origin with normal +z (h ignored) */
tc_status tc_aopc_alloc(tc_aopc *c, const tc_shape *s, double h, tc_error *err);

/* an empty cloud of n points (for world-frame scratch copies) */
tc_status tc_aopc_alloc_n(tc_aopc *c, int n);

void tc_aopc_free(tc_aopc *c);

/* dst = R src + x  (points rotated and shifted, normals rotated); dst sized like src */
void tc_aopc_transform(tc_aopc *dst, const tc_aopc *src, const double R[9], const double x[3]);

/* smooth signed distance (SSDF, m) of point p to cloud c with softmax width eps1 (m^2):
 * phi(p) = sum_i softmax(-|p - p_i|^2 / eps1)_i n_i . (p - p_i) */
double tc_ssdf(const tc_aopc *c, const double p[3], double eps1);

#endif
