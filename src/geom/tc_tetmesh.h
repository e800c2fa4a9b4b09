/* SPDX-License-Identifier: MIT */
/* tetrahedral meshes carrying a piecewise-linear pressure field p0 = E eps for pressure field
 * contact */
#ifndef TC_TETMESH_H
#define TC_TETMESH_H

#include "core/tc_arena.h"
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
    tc_arena arena; /* the block that holds the mesh and its arrays (tri apart: a builder may
                     * replace it) */
} tc_tetmesh;

/* a sphere of radius r (m): an icosphere subdivided level times (20 4^level surface triangles),
 * one tet per triangle fanned from the centre; eps = 0 on the surface, 1 at the centre. The
 * vertices lie on the sphere of radius r k, k = (4 pi / (3 V1))^(1/3) with V1 the unit
 * icosphere's volume, so the polyhedron's volume is the ball's (k = 1.0029 at level 3) */
tc_status tc_tetmesh_sphere_alloc(tc_tetmesh **m, double r, int level, double E);

/* a sphere of radius r (m) with `shells` interior shells: the volume-matched icosphere at level
 * (radius r' = r k as above) scaled to radii r' (1 - j t), j = 1..shells, t = min(edge,
 * 1 / (shells + 1)) with edge the surface edge length over r'; the layer between neighbouring
 * shells is cut into prisms of three tets each (diagonals by vertex index, so faces conform), the
 * core is fanned from the centre. eps = 1 - |x| / r' at every vertex, so the field is the fanned
 * mesh's exactly: 20 4^level (1 + 3 shells) tets; shells = 0 is tc_tetmesh_sphere_alloc */
tc_status tc_tetmesh_sphere_shells_alloc(tc_tetmesh **m, double r, int level, int shells, double E);

/* a box of half extents h (m): 12 tets (two per face) sharing the centre; eps = 0 on the
 * surface, 1 at the centre */
tc_status tc_tetmesh_box_alloc(tc_tetmesh **m, const double h[3], double E);

/* a cylinder of radius r (m) and half length hl (m) along z: the regular polygon of n = 16 2^level
 * sides inscribed in the circle (apothem a = r cos(pi / n)), extruded; eps = depth / min(a, hl),
 * depth the distance to the nearest face, exact in every tet: the core (eps = 1) is the axis
 * segment |z| <= hl - a when hl > a (5n tets: a pyramid per cap sector, three per side wedge),
 * the centre when hl = a (4n) or the disc z = 0 of apothem a - hl when hl < a (9n: three per cap
 * frustum sector and per side prism); 4n surface triangles */
tc_status tc_tetmesh_cylinder_alloc(tc_tetmesh **m, double r, double hl, int level, double E);

/* the mesh of a sphere (at level), box or cylinder (at level) shape; TC_EUNSUP for other shapes */
tc_status tc_tetmesh_shape_alloc(tc_tetmesh **m, const tc_shape *s, int level, double E);

/* release a mesh made by one of the builders (NULL is allowed) */
/* a mesh with uninitialised arrays for nvert vertices, ntet tets and ntri surface triangles */
tc_status tc_tetmesh_alloc(tc_tetmesh **out, int nvert, int ntet, int ntri, double E);

/* orient every tet positively, then each tet's field gradient and constant (p0 = E eps, linear),
 * AABB and bounding ball, from the vertices and eps */
void tc_tetmesh_build_fields(tc_tetmesh *m);

void tc_tetmesh_free(tc_tetmesh *m);

/* signed volume (m^3) of tet i (positive for every tet a builder makes) */
double tc_tetmesh_tet_volume(const tc_tetmesh *m, int i);

/* the most tets in a leaf of a tc_tetbvh */
#define TC_TETBVH_LEAF 4

/* one node of a tc_tetbvh: a box (centre, half extents; body frame) and either two children
 * (count = 0) or count tets order[first .. first + count - 1] */
typedef struct tc_tetbvh_node {
    double c[3], e[3];
    int left, right;  /* children (inner nodes) */
    int first, count; /* tets (leaves) */
} tc_tetbvh_node;

/* a bounding volume hierarchy (binary AABB tree) over a mesh's tets in its body frame, built by
 * median splits of the tet centres along the longest axis; node 0 is the root */
typedef struct tc_tetbvh {
    int nnode, depth;     /* node count, levels below the root of the deepest leaf */
    tc_tetbvh_node *node; /* nnode */
    int *order;           /* ntet tet indices in leaf order */
} tc_tetbvh;

/* the tree of mesh m (TC_ENOMEM when memory runs out) */
tc_status tc_tetbvh_alloc(tc_tetbvh **bvh, const tc_tetmesh *m);

/* release a tree (NULL is allowed) */
void tc_tetbvh_free(tc_tetbvh *bvh);

#endif
