/* SPDX-License-Identifier: MIT */
/* tetrahedral meshes carrying a piecewise-linear pressure field p0 = E eps for pressure field contact */
#ifndef TC_TETMESH_H
#define TC_TETMESH_H

#include "core/tc_status.h"
#include "geom/tc_shape.h"

/* a tetrahedral mesh in its body frame with the strain measure eps per vertex (0 on the surface,
 * 1 at the core) and, per tet, the linear field p0(x) = grad . x + c (Pa) of p0 = E eps */
typedef struct tc_tetmesh {
    int nvert, ntet, ntri;
    double E;       /* hydroelastic modulus (Pa) */
    double *vert;   /* 3 * nvert positions (m, body frame) */
    double *eps;    /* nvert strain measure (1) */
    int *tet;       /* 4 * ntet vertex indices, positive orientation */
    int *tri;       /* 3 * ntri surface triangles, counter-clockwise seen from outside */
    double *grad;   /* 3 * ntet gradient of p0 (Pa/m, body frame) */
    double *c;      /* ntet constant term of p0 (Pa) */
    double *lo;     /* 3 * ntet AABB lower corner (m, body frame) */
    double *hi;     /* 3 * ntet AABB upper corner (m, body frame) */
    double *centre; /* 3 * ntet vertex average (m, body frame) */
    double *radius; /* ntet largest distance of a vertex from centre (m) */
} tc_tetmesh;

/* a sphere of radius r (m): an icosphere subdivided level times (20 4^level surface triangles),
 * one tet per triangle fanned from the centre; eps = 0 on the surface, 1 at the centre */
tc_status tc_tetmesh_sphere_alloc(tc_tetmesh **m, double r, int level, double E);

/* a box of half extents h (m): 12 tets (two per face) sharing the centre; eps = 0 on the
 * surface, 1 at the centre */
tc_status tc_tetmesh_box_alloc(tc_tetmesh **m, const double h[3], double E);

/* the mesh of a sphere (at level) or box shape; TC_EUNSUP for other shapes */
tc_status tc_tetmesh_shape_alloc(tc_tetmesh **m, const tc_shape *s, int level, double E);

/* release a mesh made by one of the builders (NULL is allowed) */
void tc_tetmesh_free(tc_tetmesh *m);

/* signed volume (m^3) of tet i (positive for every tet a builder makes) */
double tc_tetmesh_tet_volume(const tc_tetmesh *m, int i);

#endif
