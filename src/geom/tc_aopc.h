/* SPDX-License-Identifier: MIT */
/* oriented point clouds (AOPCs): surface samples with outward normals, and the SSDF over them */
#ifndef TC_AOPC_H
#define TC_AOPC_H

#include "core/tc_status.h"
#include "geom/tc_shape.h"

/* an oriented point cloud, structure of arrays; body frame or world frame depending on use */
typedef struct tc_aopc {
    int n;                /* number of points */
    double *px, *py, *pz; /* point positions (m) */
    double *nx, *ny, *nz; /* outward unit normals */
    double spacing;       /* mean distance between neighbouring points (m); 0 for a plane */
} tc_aopc;

/* sample the surface of a shape with target spacing h (m):
 * sphere: cube-sphere, the centres of m x m equal-angle cells on each cube face projected onto
 *      the sphere: 6 m^2 points, m the smallest with 6 m^2 >= 4 pi r^2 / h^2 (>= 2), normals
 *      radial, every mirror symmetry of the cube; over 1e8 points is TC_EINVAL;
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

/* a 2-D box: the outline of the rectangle |x| <= half[0], |y| <= half[1] (m) in the z = 0 plane,
 * each edge cut into ceil(length / h) equal segments with one point at each segment centre and
 * the edge's outward in-plane normal (no point on a corner, as for the 3-D box);
 * spacing = perimeter / n (m) */
tc_status tc_aopc_box2d(tc_aopc *c, const double half[2], double h);

void tc_aopc_free(tc_aopc *c);

/* dst = R src + x  (points rotated and shifted, normals rotated); dst sized like src */
void tc_aopc_transform(tc_aopc *dst, const tc_aopc *src, const double R[9], const double x[3]);

/* smooth signed distance (SSDF, m) of point p to cloud c with softmax width eps1 (m^2):
 * phi(p) = sum_i softmax(-|p - p_i|^2 / eps1)_i n_i . (p - p_i) */
double tc_ssdf(const tc_aopc *c, const double p[3], double eps1);

/* the SSDF (m) on an nx x ny grid of the z = 0 plane spanning [lo[0], hi[0]] x [lo[1], hi[1]]
 * (m), nx, ny >= 2: phi[j nx + i] = tc_ssdf(c, (x_i, y_j, 0), eps1) with
 * x_i = lo[0] + i (hi[0] - lo[0]) / (nx - 1), y_j likewise (x fastest); phi holds nx ny values */
void tc_ssdf_grid(const tc_aopc *c, double eps1, const double lo[2], const double hi[2], int nx,
                  int ny, double *phi);

#endif
