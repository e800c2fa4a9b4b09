/* SPDX-License-Identifier: MIT */
/* shape names, checks, mass properties and exact signed distances */
#include "geom/tc_shape.h"

#include <math.h>
#include <string.h>

static const char *const shape_names[TC_SHAPE_COUNT] = {"sphere", "box", "plane"};

const char *tc_shape_name(tc_shape_type t) {
    return (unsigned)t < TC_SHAPE_COUNT ? shape_names[t] : "?";
}

tc_status tc_shape_parse(const char *name, tc_shape_type *t) {
    for (int i = 0; i < TC_SHAPE_COUNT; i++)
        if (strcmp(name, shape_names[i]) == 0) {
            *t = (tc_shape_type)i;
            return TC_OK;
        }
    return TC_ENOTFOUND;
}

tc_status tc_shape_check(const tc_shape *s, tc_error *err) {
    static const char *const axis[3] = {"half_x", "half_y", "half_z"};
    switch (s->type) {
    case TC_SHAPE_SPHERE:
        if (!(isfinite(s->size[0]) && s->size[0] > 0))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "radius", "must be > 0 m (got %g)",
                                s->size[0]);
        return TC_OK;
    case TC_SHAPE_BOX:
        for (int i = 0; i < 3; i++)
            if (!(isfinite(s->size[i]) && s->size[i] > 0))
                return tc_error_set(err, TC_EINVAL, NULL, 0, axis[i], "must be > 0 m (got %g)",
                                    s->size[i]);
        return TC_OK;
    case TC_SHAPE_PLANE: return TC_OK;
    default: return tc_error_set(err, TC_EINVAL, NULL, 0, "shape", "unknown shape type");
    }
}

void tc_shape_mass(const tc_shape *s, double density, double *mass, double inertia[3]) {
    double m = 0, I[3] = {0, 0, 0};
    if (s->type == TC_SHAPE_SPHERE) {
        double r = s->size[0];
        m = density * 4.0 / 3.0 * M_PI * r * r * r;
        I[0] = I[1] = I[2] = 0.4 * m * r * r;
    } else if (s->type == TC_SHAPE_BOX) {
        double a = 2 * s->size[0], b = 2 * s->size[1], c = 2 * s->size[2];
        m = density * a * b * c;
        I[0] = m * (b * b + c * c) / 12, I[1] = m * (a * a + c * c) / 12;
        I[2] = m * (a * a + b * b) / 12;
    }
    *mass = m;
    for (int i = 0; i < 3; i++) inertia[i] = I[i];
}

double tc_shape_distance(const tc_shape *s, const double p[3], double normal[3]) {
    switch (s->type) {
    case TC_SHAPE_SPHERE: {
        double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        /* the centre has no normal: choose +z so the answer is deterministic */
        if (r > 0)
            for (int i = 0; i < 3; i++) normal[i] = p[i] / r;
        else
            normal[0] = normal[1] = 0, normal[2] = 1;
        return r - s->size[0];
    }
    case TC_SHAPE_BOX: {
        double q[3], outside = 0, inside = -INFINITY;
        int k = 0;
        for (int i = 0; i < 3; i++) {
            q[i] = fabs(p[i]) - s->size[i];
            if (q[i] > 0) outside += q[i] * q[i];
            if (q[i] > inside) inside = q[i], k = i;
        }
        if (outside > 0) {
            double d = sqrt(outside);
            for (int i = 0; i < 3; i++) normal[i] = q[i] > 0 ? copysign(q[i], p[i]) / d : 0;
            return d;
        }
        normal[0] = normal[1] = normal[2] = 0;
        normal[k] = p[k] >= 0 ? 1 : -1;
        return inside;
    }
    case TC_SHAPE_PLANE:
        normal[0] = normal[1] = 0, normal[2] = 1;
        return p[2];
    default: normal[0] = normal[1] = 0, normal[2] = 1; return INFINITY;
    }
}
