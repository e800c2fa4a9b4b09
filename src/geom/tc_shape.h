/* SPDX-License-Identifier: MIT */
/* primitive shapes in their body frame, mass properties, and shape-type masks */
#ifndef TC_SHAPE_H
#define TC_SHAPE_H

#include "core/tc_status.h"

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
    TC_SHAPE_COUNT
} tc_shape_type;

#define TC_SHAPE_BIT(t) (1u << (t))
#define TC_SHAPE_MAXPART 4

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
} tc_shape;

/* constructors: a sphere of radius r (m), a box of half extents (m), the z = 0 plane */
tc_shape tc_sphere(double r);
tc_shape tc_box(double hx, double hy, double hz);
tc_shape tc_plane(void);
/* an ellipsoid of semi-axes a, b, c (m) along the body x, y, z axes */
tc_shape tc_ellipsoid(double a, double b, double c);
/* a solid cylinder of radius r (m) and half length h (m) along the body z axis */
tc_shape tc_cylinder(double r, double h);

/* "sphere", "box", "plane", "compound", "ellipsoid", "cylinder" */
const char *tc_shape_name(tc_shape_type t);

/* type from its name; returns TC_ENOTFOUND for an unknown name */
tc_status tc_shape_parse(const char *name, tc_shape_type *t);

/* check that sizes are finite and positive; err names the offending size */
tc_status tc_shape_check(const tc_shape *s, tc_error *err);

/* mass (kg) and principal inertia diag (kg m^2) about the body origin at uniform density
 * (kg/m^3); plane: 0. A compound's parts overlap nowhere (their volumes add). */
void tc_shape_mass(const tc_shape *s, double density, double *mass, double inertia[3]);

/* compound: move the parts so the centre of mass is the body origin; com gets the old COM (m,
 * body frame). Fails when the inertia about the COM is not diagonal in the body axes. Other
 * shapes: com = 0. */
tc_status tc_shape_center(tc_shape *s, double com[3], tc_error *err);

/* signed distance (m) of a body-frame point to the shape surface, and the outward normal of the
 * closest surface feature (exact for sphere, box, cylinder and plane).
 * Ellipsoid: an approximation. With s = sqrt((x/a)^2 + (y/b)^2 + (z/c)^2) and g = s - 1, it
 * returns g / |grad g| and the normal grad g / |grad g| (the implicit function's gradient
 * direction). The sign is exact (0 exactly on the surface, < 0 inside), the value is exact to first
 * order in the distance near the surface and exact everywhere when a = b = c; away from the
 * surface of a non-spherical ellipsoid it is not the Euclidean distance (and the normal is that of
 * the level set through p, not of the closest surface point). At the centre: -min(a, b, c) with
 * the normal along the shortest axis (exact). */
double tc_shape_distance(const tc_shape *s, const double p[3], double normal[3]);

#endif
