/* SPDX-License-Identifier: MIT */
/* tetrahedral mesh builders with pressure fields: ellipsoid, hull, tetgen + Laplace, slab */
#ifndef TC_TETMESH_BUILD_H
#define TC_TETMESH_BUILD_H

#include "core/tc_status.h"
#include "geom/tc_tetmesh.h"

/* what a surface triangle (input of the Laplace builder) or a vertex (of a solve) imposes on eps:
 * FREE: nothing (a natural, zero-flux boundary for faces; an unknown for vertices),
 * ZERO: eps = 0 (the contact surface), CORE: eps = 1 (a rigid core) */
typedef enum tc_eps_role { TC_EPS_FREE = 0, TC_EPS_ZERO = 1, TC_EPS_CORE = 2 } tc_eps_role;

/* options of the tetgen + Laplace builder; tc_tetmesh_laplace_defaults() fills them */
typedef struct tc_tetmesh_laplace_opts {
    double max_volume;  /* tetgen -a: largest tet volume (m^3); <= 0: no bound */
    double radius_edge; /* tetgen -q: largest radius-edge ratio (>= 1.1; tetgen's own default 2) */
    double core_fraction;   /* vertices at least this fraction of the deepest vertex's distance from
                             * the ZERO surface become core (eps = 1); <= 0: no such core */
    const double *core_pts; /* 3 * ncore_pts interior points inserted into the mesh (tetgen -i) as
                             * core vertices; NULL for none */
    int ncore_pts;
    double tol;         /* relative residual of the linear solve (|A x - b| <= tol |b|) */
    int max_iter;       /* GMRES restart cycles at most */
    const char *tetgen; /* program name or path ("tetgen", searched in PATH) */
} tc_tetmesh_laplace_opts;

/* what a Laplace solve did; role is malloc'ed by the builder (nvert entries of tc_eps_role) */
typedef struct tc_tetmesh_laplace_info {
    int nfree, nzero, ncore; /* vertex counts by role */
    int cycles;              /* GMRES restart cycles used */
    double residual;         /* |A x - b| / |b| of the assembled reduced system (0 if no unknown) */
    signed char *role;       /* per-vertex role (only the builder fills it; NULL otherwise) */
} tc_tetmesh_laplace_info;

/* defaults: no volume bound, radius-edge 1.4, core fraction 0.8, no core points, tol 1e-12,
 * 2000 cycles, "tetgen" */
tc_tetmesh_laplace_opts tc_tetmesh_laplace_defaults(void);

/* release info->role (info may be NULL) */
void tc_tetmesh_laplace_info_free(tc_tetmesh_laplace_info *info);

/* an ellipsoid of semi-axes abc (m): an icosphere at level (0..6) scaled by abc, one tet per
 * surface triangle fanned from the centre; eps = 0 on the surface, 1 at the centre */
tc_status tc_tetmesh_ellipsoid_alloc(tc_tetmesh **m, const double abc[3], int level, double E,
                                     tc_error *err);

/* the convex hull of n points (3 n coordinates, m) by qhull ("Qt": triangulated facets), one tet
 * per hull triangle fanned from the hull's volume centroid; eps = 0 on the hull, 1 at the
 * centroid (the last vertex). Degenerate input (fewer than 4 points, coplanar) is TC_EINVAL */
tc_status tc_tetmesh_hull_alloc(tc_tetmesh **m, const double *pts, int n, double E, tc_error *err);

/* a compliant layer [-size0/2, size0/2] x [-size1/2, size1/2] x [-h, 0] (m) on an n[0] x n[1] x
 * n[2] grid of cubes split into 6 tets each; eps = depth / h = -z / h (0 on top, 1 at the bottom)
 */
tc_status tc_tetmesh_slab_alloc(tc_tetmesh **m, const double size[2], double h, const int n[3],
                                double E, tc_error *err);

/* a closed, outward-oriented triangle surface (nv vertices, nt triangles, role per triangle or
 * NULL for all ZERO) meshed by the tetgen program, then eps from Laplace's equation (linear finite
 * elements, GSL GMRES) with eps = 0 on ZERO faces, 1 on CORE faces and core vertices, zero flux on
 * FREE faces. tetgen missing: TC_EIO; tetgen failing: TC_EENGINE; info may be NULL */
tc_status tc_tetmesh_laplace_alloc(tc_tetmesh **m, const double *vert, int nv, const int *tri,
                                   int nt, const signed char *role, double E,
                                   const tc_tetmesh_laplace_opts *o, tc_tetmesh_laplace_info *info,
                                   tc_error *err);

/* read tetgen's zero-based output (-z) in folder dir, as the Laplace builder does after running
 * it (public for tests and fuzzing): in.1.node (vertices, m), in.1.ele (4-node tets, indices into
 * the nodes) and in.1.face (boundary faces marked role + 1: a vertex takes the role of its faces,
 * ZERO before CORE before FREE; FREE when on none) into a new mesh of modulus E (Pa) whose eps,
 * per-tet fields and surface triangles are not yet set (ntri = 0). On success *out (freed with
 * tc_tetmesh_free) and *rolep (nvert tc_eps_role values, freed with free) are the caller's; a
 * missing or malformed file is TC_EENGINE naming it, with the last line of dir/tetgen.log when
 * there is one, and allocates nothing */
tc_status tc_tetmesh_read_tetgen(const char *dir, double E, tc_tetmesh **out, signed char **rolep,
                                 tc_error *err);

/* solve Laplace's equation for m->eps on m's tets with eps fixed at ZERO (0) and CORE (1)
 * vertices, then refresh the per-tet fields; info (may be NULL) gets counts and residual */
tc_status tc_tetmesh_laplace_solve(tc_tetmesh *m, const signed char *role, double tol, int max_iter,
                                   tc_tetmesh_laplace_info *info, tc_error *err);

/* recompute the surface triangles (faces of one tet, outward) of m; tets are made positive */
tc_status tc_tetmesh_build_surface(tc_tetmesh *m);

#endif
