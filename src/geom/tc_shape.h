/* SPDX-License-Identifier: MIT */
/* primitive shapes in their body frame, mass properties, and shape-type masks */
#ifndef TC_SHAPE_H
#define TC_SHAPE_H

#include "core/tc_status.h"

#include <stddef.h>

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* shape types; a model or engine declares which it handles with a mask of TC_SHAPE_BIT(type) */
typedef enum tc_shape_type {
    TC_SHAPE_SPHERE = 0, /* size[0] = radius (m), centred at the body origin */
    TC_SHAPE_BOX,        /* size[0..2] = half extents along body x, y, z (m) */
    TC_SHAPE_PLANE,      /* the body's z = 0 plane, outward normal +z; infinite, static only */
    TC_SHAPE_COMPOUND,   /* union of up to TC_SHAPE_MAXPART spheres and boxes (e.g. the T) */
    TC_SHAPE_ELLIPSOID,  /* size[0..2] = semi-axes a, b, c along body x, y, z (m), centred at the
                          * body origin */
    TC_SHAPE_CYLINDER,   /* size[0] = radius, size[1] = half length along body z (m), centred at
                          * the body origin */
    TC_SHAPE_POLYTOPE,   /* convex hull of up to TC_POLY_MAXVERT vertices (hull: build it with
                          * tc_polytope); body frame as given, COM at the origin after
                          * tc_shape_center (tc_scene_add calls it) */
    TC_SHAPE_COUNT
} tc_shape_type;

#define TC_SHAPE_BIT(t) (1u << (t))
/* not a shape: the bit tc_scene_shapes sets when a body moves on a free joint (in 3-D), which
 * methods with TC_CAP_PLANAR refuse and every other method accepts */
#define TC_SHAPE_SPATIAL TC_SHAPE_BIT(TC_SHAPE_COUNT)
#define TC_SHAPE_MAXPART 4

/* polytope bounds: 32 hull vertices, and by Euler's formula at most 2 V - 4 = 60 faces and
 * 3 V - 6 = 90 edges, so the faces' vertex loops hold at most 2 E = 180 indices */
#define TC_POLY_MAXVERT 32
#define TC_POLY_MAXFACE (2 * TC_POLY_MAXVERT - 4)
#define TC_POLY_MAXLOOP (6 * TC_POLY_MAXVERT - 12)

/* a convex polytope's hull: its vertices (m, body frame), its faces n . x = d (unit outward n,
 * d in m; coplanar hull facets merged, so a cube has 6), and each face's vertices as a loop
 * counter-clockwise seen from outside: fv[fofs[f] .. fofs[f] + fnv[f]) index vert. About 3 kB
 * (sizeof 3000 B: 768 B of vertices, 1920 B of planes, 300 B of loops).
 * A shape does not hold its hull but points to an immutable, shared copy (a flyweight):
 * tc_polytope and tc_shape_center intern each hull they make (tc_hull_intern), so shapes,
 * bodies and scenes stay small value types (a tc_scene is copied and kept on the stack) and
 * the same hull built in many runs exists once */
typedef struct tc_hull {
    int nvert, nface;
    double vert[TC_POLY_MAXVERT][3];
    double face[TC_POLY_MAXFACE][4];
    unsigned char fnv[TC_POLY_MAXFACE], fofs[TC_POLY_MAXFACE];
    unsigned char fv[TC_POLY_MAXLOOP];
} tc_hull;

/* the shared, immutable copy of hull h, keyed by its exact content (nvert, nface, the bits of
 * the used vertices and planes, the used loops): equal hulls give the same pointer, and h itself
 * is not kept. Thread-safe (one process-wide table behind a mutex); the copy lives until the
 * process exits (the table frees it then), so never free it. Results never depend on which
 * thread interned a hull first: only the pointer is shared, the content is the same. Returns
 * NULL when out of memory, or when nvert, nface or a loop is out of its array's bounds */
const tc_hull *tc_hull_intern(const tc_hull *h);

/* how many distinct hulls tc_hull_intern holds (memory grows with this, about 3 kB each) */
size_t tc_hull_count(void);

/* one part of a compound: a sphere or box, axis-aligned, centred at pos in the body frame */
typedef struct tc_shape_part {
    tc_shape_type type;
    double size[3]; /* m, as for the primitive */
    double pos[3];  /* m, body frame */
} tc_shape_part;

typedef struct tc_shape {
    tc_shape_type type;
    double size[3];                       /* m; meaning depends on type (see tc_shape_type) */
    int npart;                            /* compound only */
    tc_shape_part part[TC_SHAPE_MAXPART]; /* compound only */
    /* polytope only: the interned hull (tc_polytope, tc_hull_intern), NULL for other types.
     * Keeping it out of line keeps sizeof(tc_shape) at 272 B instead of 3264 B with the hull
     * inline, so a body is 944 B instead of 3936 B */
    const tc_hull *hull;
} tc_shape;

/* constructors: a sphere of radius r (m), a box of half extents (m), the z = 0 plane */
tc_shape tc_sphere(double r);
tc_shape tc_box(double hx, double hy, double hz);
tc_shape tc_plane(void);
/* an ellipsoid of semi-axes a, b, c (m) along the body x, y, z axes */
tc_shape tc_ellipsoid(double a, double b, double c);
/* a solid cylinder of radius r (m) and half length h (m) along the body z axis */
tc_shape tc_cylinder(double r, double h);

/* the convex polytope spanned by n points v (m, body frame): qhull's convex hull (coplanar
 * facets merged within qhull's roundoff, each face's plane refitted through its vertices),
 * keeping the hull vertices only (in input order), at most TC_POLY_MAXVERT of them. The body
 * origin stays where v puts it; tc_scene_add moves it to the COM (tc_shape_center). out->hull
 * is the interned hull (tc_hull_intern: the same points give the same pointer), NULL on error.
 * Errors (TC_EINVAL, parameter "vertices"): fewer than 4 points, a non-finite coordinate, all
 * points coplanar or coincident, more than TC_POLY_MAXVERT hull vertices; TC_ENOMEM. err may be
 * NULL */
tc_status tc_polytope(tc_shape *out, const double (*v)[3], int n, tc_error *err);

/* a polytope's bounding radius about its body origin: the largest vertex norm (m) */
double tc_polytope_radius(const tc_shape *s);

/* 1 when body-frame point q, taken on face f's plane, lies inside that face's polygon and
 * farther than margin (m) from each of its edges (margin 0: strictly inside), else 0 */
int tc_polytope_face_contains(const tc_shape *s, int f, const double q[3], double margin);

/* "sphere", "box", "plane", "compound", "ellipsoid", "cylinder", "polytope" */
const char *tc_shape_name(tc_shape_type t);

/* type from its name; returns TC_ENOTFOUND for an unknown name */
tc_status tc_shape_parse(const char *name, tc_shape_type *t);

/* check that sizes are finite and positive; err names the offending size. A polytope: a hull
 * (not NULL; any tc_hull, interned or not) with 4 to TC_POLY_MAXVERT finite vertices, 4 to
 * TC_POLY_MAXFACE finite unit face planes with consistent loops (>= 3 vertices each, on the plane)
 * and every vertex on or below every plane (within 1e-9 of the vertices' extent); errors name
 * "vertices" or "faces" */
tc_status tc_shape_check(const tc_shape *s, tc_error *err);

/* mass (kg) and principal inertia diag (kg m^2) about the body origin at uniform density
 * (kg/m^3); plane: 0. A compound's parts overlap nowhere (their volumes add). A polytope: by
 * tetrahedra fanned from the vertex mean over its faces' triangle fans (exact up to rounding);
 * the diagonal of the tensor about the origin (principal once tc_shape_center succeeded). */
void tc_shape_mass(const tc_shape *s, double density, double *mass, double inertia[3]);

/* compound: move the parts so the centre of mass is the body origin; com gets the old COM (m,
 * body frame). Fails when the inertia about the COM is not diagonal in the body axes. A
 * polytope likewise: its vertices and face planes move so the volume centroid is the origin, and
 * an off-diagonal product of inertia above 1e-9 of the trace is TC_EINVAL naming "vertices"
 * (give the vertices in principal axes); the moved hull is a new interned one that replaces
 * s->hull on success (s is unchanged on error). Other shapes: com = 0. */
tc_status tc_shape_center(tc_shape *s, double com[3], tc_error *err);

/* signed distance (m) of a body-frame point to the shape surface, and the outward normal of the
 * closest surface feature (exact for sphere, box, cylinder, plane and polytope).
 * Polytope: inside, max_f (n_f . p - d_f) with that face's normal (the lowest such face on
 * ties); outside, the Euclidean distance to the nearest face polygon (its interior, an edge or
 * a vertex, over the faces whose plane p is above) with the normal (p - closest point) / dist.
 * Ellipsoid: an approximation. With s = sqrt((x/a)^2 + (y/b)^2 + (z/c)^2) and g = s - 1, it
 * returns g / |grad g| and the normal grad g / |grad g| (the implicit function's gradient
 * direction). The sign is exact (0 exactly on the surface, < 0 inside), the value is exact to first
 * order in the distance near the surface and exact everywhere when a = b = c; away from the
 * surface of a non-spherical ellipsoid it is not the Euclidean distance (and the normal is that of
 * the level set through p, not of the closest surface point). At the centre: -min(a, b, c) with
 * the normal along the shortest axis (exact). */
double tc_shape_distance(const tc_shape *s, const double p[3], double normal[3]);

#ifdef __cplusplus
}
#endif

#endif
