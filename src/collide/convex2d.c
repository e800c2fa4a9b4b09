/* SPDX-License-Identifier: MIT */
/* planar convex primitives from the scene's shapes: a prism's side faces as the rows A y <= b,
 * a plane as a half-space */
#include "collide/tc_convex2d.h"
#include "math/tc_vec.h"

#include <math.h>

/* faces closer than this to parallel or perpendicular to the plane count as such */
#define FLAT_TOL 1e-9

/* the body-frame direction (x, y, z) turned by quat into the world */
static void turn(const double quat[4], const double d[3], double out[3]) {
    double R[9];
    tc_quat_to_mat(R, quat);
    for (int i = 0; i < 3; i++)
        out[i] = R[3 * i] * d[0] + R[3 * i + 1] * d[1] + R[3 * i + 2] * d[2];
}

/* one row n . y <= d of a side face, its normal turned into the frame at angle 0 */
static tc_status add_row(tc_convex2d *c, const double quat[4], const double n[3], double d,
                         const char *what, tc_error *err) {
    double w[3];
    turn(quat, n, w);
    if (fabs(w[2]) > 1 - FLAT_TOL) return TC_OK; /* a cap */
    if (fabs(w[2]) > FLAT_TOL)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                            "'%s': a face is neither parallel nor perpendicular to the plane of "
                            "motion (only prisms standing on the plane are planar polygons)",
                            what);
    if (c->m == TC_CONVEX2D_MAXROW)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape", "'%s': more than %d sides", what,
                            TC_CONVEX2D_MAXROW);
    if (!(d > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "shape",
                            "'%s': its centre of mass is not inside the polygon", what);
    double l = hypot(w[0], w[1]);
    c->A[c->m][0] = w[0] / l;
    c->A[c->m][1] = w[1] / l;
    c->b[c->m] = d;
    c->m++;
    return TC_OK;
}

tc_status tc_convex2d_from_shape(tc_convex2d *c, const tc_shape *s, const double pos[3],
                                 const double quat[4], const char *what, tc_error *err) {
    *c = (tc_convex2d){0};
    tc_status st = TC_OK;
    switch (s->type) {
    case TC_SHAPE_PLANE: {
        /* the body's +z normal, which must lie in the plane of motion */
        double n[3];
        turn(quat, (const double[3]){0, 0, 1}, n);
        if (fabs(n[2]) > FLAT_TOL)
            return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                                "'%s': a plane whose normal leaves the plane of motion", what);
        double l = hypot(n[0], n[1]);
        c->kind = TC_CONVEX2D_HALFSPACE;
        c->m = 1;
        c->n[0] = n[0] / l;
        c->n[1] = n[1] / l;
        c->o[0] = pos[0];
        c->o[1] = pos[1];
        return TC_OK;
    }
    case TC_SHAPE_POLYTOPE:
        for (int f = 0; f < s->hull->nface && !st; f++)
            st = add_row(c, quat, s->hull->face[f], s->hull->face[f][3], what, err);
        break;
    default:
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                            "'%s': a %s is not a planar convex polygon or half-space", what,
                            tc_shape_name(s->type));
    }
    if (st) return st;
    if (c->m < 3)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                            "'%s': not a prism standing on the plane of motion", what);
    return TC_OK;
}

int tc_convex2d_contains(const tc_convex2d *c, const double y[2], double alpha, double tol) {
    for (int i = 0; i < c->m; i++)
        if (c->A[i][0] * y[0] + c->A[i][1] * y[1] > alpha * c->b[i] + tol) return 0;
    return 1;
}
