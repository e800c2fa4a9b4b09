/* SPDX-License-Identifier: MIT */
/* shape names, checks, mass properties and signed distances (exact except the ellipsoid's) */
#include "geom/tc_shape.h"
#include "math/tc_vec.h"

#include <math.h>
#include <string.h>

static const char *const shape_names[TC_SHAPE_COUNT] = {
    "sphere", "box", "plane", "compound", "ellipsoid", "cylinder", "polytope"};

tc_shape tc_sphere(double r) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_SPHERE;
    s.size[0] = r;
    return s;
}

tc_shape tc_box(double hx, double hy, double hz) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_BOX;
    s.size[0] = hx;
    s.size[1] = hy;
    s.size[2] = hz;
    return s;
}

tc_shape tc_plane(void) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_PLANE;
    return s;
}

tc_shape tc_ellipsoid(double a, double b, double c) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_ELLIPSOID;
    s.size[0] = a;
    s.size[1] = b;
    s.size[2] = c;
    return s;
}

tc_shape tc_cylinder(double r, double h) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_CYLINDER;
    s.size[0] = r;
    s.size[1] = h;
    return s;
}

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

/* a polytope's largest vertex coordinate magnitude (m): the scale of its tolerances */
static double poly_extent(const tc_hull *h) {
    double e = 0;
    for (int i = 0; i < h->nvert; i++)
        for (int k = 0; k < 3; k++)
            e = fmax(e, fabs(h->vert[i][k]));
    return e;
}

double tc_polytope_radius(const tc_shape *s) {
    const tc_hull *h = s->hull;
    double r = 0;
    for (int i = 0; i < h->nvert; i++)
        r = fmax(r, tc_v3_norm(h->vert[i]));
    return r;
}

int tc_polytope_face_contains(const tc_shape *s, int f, const double q[3], double margin) {
    /* the loop is counter-clockwise about n: q is inside when it is left of every edge, i.e.
     * (b - a) x (q - a) . n > margin |b - a| */
    const tc_hull *h = s->hull;
    const double *n = h->face[f];
    int o = h->fofs[f], k = h->fnv[f];
    for (int i = 0; i < k; i++) {
        const double *a = h->vert[h->fv[o + i]], *b = h->vert[h->fv[o + (i + 1) % k]];
        double e[3], r[3], c[3];
        tc_v3_sub(e, b, a);
        tc_v3_sub(r, q, a);
        tc_v3_cross(c, e, r);
        if (!(tc_v3_dot(c, n) > margin * tc_v3_norm(e))) return 0;
    }
    return 1;
}

/* volume (m^3), first moment (m^4) and second moment, the integral of x x^T (m^5, row-major),
 * about the body origin of a polytope: tetrahedra (o, v0, vi, vi+1) fanned from the vertex mean
 * o over each face's triangle fan; a tetrahedron of volume V and corners p_j contributes
 * V sum_j p_j / 4 and V / 20 (sum_j p_j p_j^T + S S^T), S = sum_j p_j */
static void poly_moments(const tc_hull *h, double *vol, double m1[3], double m2[9]) {
    double o[3] = {0, 0, 0};
    for (int i = 0; i < h->nvert; i++)
        tc_v3_addscl(o, h->vert[i], 1.0 / h->nvert);
    *vol = 0;
    for (int k = 0; k < 3; k++)
        m1[k] = 0;
    for (int k = 0; k < 9; k++)
        m2[k] = 0;
    for (int f = 0; f < h->nface; f++) {
        const unsigned char *lp = h->fv + h->fofs[f];
        for (int i = 1; i + 1 < h->fnv[f]; i++) {
            const double *p[4] = {o, h->vert[lp[0]], h->vert[lp[i]], h->vert[lp[i + 1]]};
            double e1[3], e2[3], e3[3], c[3], S[3] = {0, 0, 0};
            tc_v3_sub(e1, p[1], o);
            tc_v3_sub(e2, p[2], o);
            tc_v3_sub(e3, p[3], o);
            tc_v3_cross(c, e2, e3);
            double V = tc_v3_dot(e1, c) / 6;
            for (int j = 0; j < 4; j++)
                tc_v3_add(S, S, p[j]);
            *vol += V;
            tc_v3_addscl(m1, S, V / 4);
            for (int r = 0; r < 3; r++)
                for (int cc = 0; cc < 3; cc++) {
                    double q = S[r] * S[cc];
                    for (int j = 0; j < 4; j++)
                        q += p[j][r] * p[j][cc];
                    m2[3 * r + cc] += V / 20 * q;
                }
        }
    }
}

/* the checks of tc_shape_check for a polytope */
static tc_status poly_check(const tc_shape *s, tc_error *err) {
    const tc_hull *h = s->hull;
    if (!h)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                            "a polytope needs its hull; build it with tc_polytope");
    if (h->nvert < 4 || h->nvert > TC_POLY_MAXVERT)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                            "a polytope has 4 to %d hull vertices (got %d)", TC_POLY_MAXVERT,
                            h->nvert);
    for (int i = 0; i < h->nvert; i++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(h->vert[i][k]))
                return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                                    "polytope vertex %d is not finite", i);
    if (h->nface < 4 || h->nface > TC_POLY_MAXFACE)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "faces",
                            "a polytope has 4 to %d faces (got %d); build it with tc_polytope",
                            TC_POLY_MAXFACE, h->nface);
    double tol = 1e-9 * poly_extent(h);
    for (int f = 0; f < h->nface; f++) {
        const double *pl = h->face[f];
        if (!(isfinite(pl[0]) && isfinite(pl[1]) && isfinite(pl[2]) && isfinite(pl[3]) &&
              fabs(tc_v3_norm(pl) - 1) <= 1e-9))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "faces",
                                "polytope face %d: the plane must be finite with a unit normal", f);
        if (h->fnv[f] < 3 || h->fofs[f] + h->fnv[f] > TC_POLY_MAXLOOP)
            return tc_error_set(err, TC_EINVAL, NULL, 0, "faces",
                                "polytope face %d: its loop must have 3 or more vertices", f);
        for (int i = 0; i < h->fnv[f]; i++) {
            int v = h->fv[h->fofs[f] + i];
            if (v >= h->nvert || fabs(tc_v3_dot(pl, h->vert[v]) - pl[3]) > tol)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "faces",
                                    "polytope face %d: loop vertex %d is not on its plane", f, v);
        }
        for (int v = 0; v < h->nvert; v++)
            if (tc_v3_dot(pl, h->vert[v]) > pl[3] + tol)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "faces",
                                    "polytope vertex %d is above face %d: not convex", v, f);
    }
    double vol, m1[3], m2[9];
    poly_moments(h, &vol, m1, m2);
    if (!(vol > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices", "the polytope has no volume");
    return TC_OK;
}

/* polytope distance: inside, the largest n . p - d (exact); outside, the nearest point of the
 * faces p is above (the polygon's interior, else its nearest edge point) */
static double poly_distance(const tc_shape *s, const double p[3], double normal[3]) {
    const tc_hull *h = s->hull;
    double best = -INFINITY;
    int fb = 0;
    for (int f = 0; f < h->nface; f++) {
        double e = tc_v3_dot(h->face[f], p) - h->face[f][3];
        if (e > best) {
            best = e;
            fb = f;
        }
    }
    if (!(best > 0)) {
        tc_v3_copy(normal, h->face[fb]);
        return best;
    }
    double d2 = INFINITY, x[3] = {0, 0, 0};
    int ff = -1;
    for (int f = 0; f < h->nface; f++) {
        const double *n = h->face[f];
        double e = tc_v3_dot(n, p) - n[3], q[3];
        if (!(e > 0)) continue;
        /* the projection inside the polygon: the plane distance */
        for (int k = 0; k < 3; k++)
            q[k] = p[k] - e * n[k];
        if (tc_polytope_face_contains(s, f, q, 0)) {
            if (e * e < d2) {
                d2 = e * e;
                ff = f;
                tc_v3_copy(x, q);
            }
            continue;
        }
        /* else the nearest point of its edges */
        int o = h->fofs[f], k = h->fnv[f];
        for (int i = 0; i < k; i++) {
            const double *a = h->vert[h->fv[o + i]], *b = h->vert[h->fv[o + (i + 1) % k]];
            double ab[3], ap[3], c[3], r[3];
            tc_v3_sub(ab, b, a);
            tc_v3_sub(ap, p, a);
            double t = tc_v3_dot(ap, ab) / tc_v3_dot(ab, ab);
            t = t < 0 ? 0 : (t > 1 ? 1 : t);
            for (int j = 0; j < 3; j++)
                c[j] = a[j] + t * ab[j];
            tc_v3_sub(r, p, c);
            double q2 = tc_v3_dot(r, r);
            if (q2 < d2) {
                d2 = q2;
                ff = -1;
                tc_v3_copy(x, c);
            }
        }
    }
    double d = sqrt(d2);
    if (ff >= 0) {
        tc_v3_copy(normal, h->face[ff]);
    } else {
        for (int k = 0; k < 3; k++)
            normal[k] = (p[k] - x[k]) / d;
    }
    return d;
}

/* a compound's part as a primitive shape, */
static tc_shape part_shape(const tc_shape_part *p) {
    return p->type == TC_SHAPE_SPHERE ? tc_sphere(p->size[0])
                                      : tc_box(p->size[0], p->size[1], p->size[2]);
}

tc_status tc_shape_check(const tc_shape *s, tc_error *err) {
    static const char *const axis[3] = {"half_x", "half_y", "half_z"};
    static const char *const semi[3] = {"semi_a", "semi_b", "semi_c"};
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
    case TC_SHAPE_ELLIPSOID:
        for (int i = 0; i < 3; i++)
            if (!(isfinite(s->size[i]) && s->size[i] > 0))
                return tc_error_set(err, TC_EINVAL, NULL, 0, semi[i], "must be > 0 m (got %g)",
                                    s->size[i]);
        return TC_OK;
    case TC_SHAPE_CYLINDER:
        if (!(isfinite(s->size[0]) && s->size[0] > 0))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "radius", "must be > 0 m (got %g)",
                                s->size[0]);
        if (!(isfinite(s->size[1]) && s->size[1] > 0))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "half_length", "must be > 0 m (got %g)",
                                s->size[1]);
        return TC_OK;
    case TC_SHAPE_PLANE:
        return TC_OK;
    case TC_SHAPE_POLYTOPE:
        return poly_check(s, err);
    case TC_SHAPE_COMPOUND:
        if (s->npart < 1 || s->npart > TC_SHAPE_MAXPART)
            return tc_error_set(err, TC_EINVAL, NULL, 0, "parts",
                                "a compound has 1 to %d parts (got %d)", TC_SHAPE_MAXPART,
                                s->npart);
        for (int i = 0; i < s->npart; i++) {
            const tc_shape_part *p = &s->part[i];
            if (p->type != TC_SHAPE_SPHERE && p->type != TC_SHAPE_BOX)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "parts",
                                    "compound parts are spheres or boxes");
            tc_shape prim = part_shape(p);
            tc_status st = tc_shape_check(&prim, err);
            if (st) return st;
            for (int k = 0; k < 3; k++)
                if (!isfinite(p->pos[k]))
                    return tc_error_set(err, TC_EINVAL, NULL, 0, "pos",
                                        "part %d: position must be finite", i);
        }
        return TC_OK;
    default:
        return tc_error_set(err, TC_EINVAL, NULL, 0, "shape", "unknown shape type");
    }
}

/* full inertia tensor (row-major) of a compound about point o, and its mass and COM */
static void compound_inertia(const tc_shape *s, double density, const double o[3], double *mass,
                             double com[3], double I[9]) {
    *mass = 0;
    for (int k = 0; k < 3; k++)
        com[k] = 0;
    for (int k = 0; k < 9; k++)
        I[k] = 0;
    for (int i = 0; i < s->npart; i++) {
        tc_shape prim = part_shape(&s->part[i]);
        double m, d[3], Ic[3];
        tc_shape_mass(&prim, density, &m, Ic);
        /* parallel axis: I += Ic + m (|d|^2 1 - d d^T) */
        for (int k = 0; k < 3; k++) {
            d[k] = s->part[i].pos[k] - o[k];
            com[k] += m * s->part[i].pos[k];
        }
        double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                I[3 * r + c] += (r == c ? Ic[r] + m * dd : 0) - m * d[r] * d[c];
        *mass += m;
    }
    for (int k = 0; k < 3; k++)
        com[k] = *mass > 0 ? com[k] / *mass : 0;
}

/* a polytope: vertices and planes moved by -COM into a new hull, then the products of inertia
 * checked; on success the new hull, interned, replaces s->hull */
static tc_status poly_center(tc_shape *s, double com[3], tc_error *err) {
    if (!s->hull)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                            "a polytope needs its hull; build it with tc_polytope");
    tc_hull hc = *s->hull, *h = &hc;
    double vol, m2[9];
    poly_moments(h, &vol, com, m2);
    if (!(vol > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices", "the polytope has no volume");
    tc_v3_scale(com, com, 1 / vol);
    for (int i = 0; i < h->nvert; i++)
        tc_v3_sub(h->vert[i], h->vert[i], com);
    for (int f = 0; f < h->nface; f++)
        h->face[f][3] -= tc_v3_dot(h->face[f], com);
    double m1[3];
    poly_moments(h, &vol, m1, m2);
    /* I = tr(m2) 1 - m2: off-diagonals -m2_rc, trace 2 tr(m2) */
    double tr = 2 * (m2[0] + m2[4] + m2[8]);
    if (fabs(m2[1]) > 1e-9 * tr || fabs(m2[2]) > 1e-9 * tr || fabs(m2[5]) > 1e-9 * tr)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                            "polytope: the inertia about the COM is not diagonal in the body axes "
                            "(give the vertices in principal axes)");
    const tc_hull *in = tc_hull_intern(h);
    if (!in) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    s->hull = in;
    return TC_OK;
}

tc_status tc_shape_center(tc_shape *s, double com[3], tc_error *err) {
    com[0] = com[1] = com[2] = 0;
    if (s->type == TC_SHAPE_POLYTOPE) return poly_center(s, com, err);
    if (s->type != TC_SHAPE_COMPOUND) return TC_OK;
    double m, I[9], o[3] = {0, 0, 0};
    compound_inertia(s, 1.0, o, &m, com, I);
    for (int i = 0; i < s->npart; i++)
        for (int k = 0; k < 3; k++)
            s->part[i].pos[k] -= com[k];
    compound_inertia(s, 1.0, o, &m, o, I);
    double tr = I[0] + I[4] + I[8];
    if (fabs(I[1]) > 1e-9 * tr || fabs(I[2]) > 1e-9 * tr || fabs(I[5]) > 1e-9 * tr)
        return tc_error_set(
            err, TC_EINVAL, NULL, 0, "parts",
            "arrange the parts so the inertia about the COM is diagonal in the body axes");
    return TC_OK;
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
        I[0] = m * (b * b + c * c) / 12;
        I[1] = m * (a * a + c * c) / 12;
        I[2] = m * (a * a + b * b) / 12;
    } else if (s->type == TC_SHAPE_ELLIPSOID) {
        double a = s->size[0], b = s->size[1], c = s->size[2];
        m = density * 4.0 / 3.0 * M_PI * a * b * c;
        I[0] = 0.2 * m * (b * b + c * c);
        I[1] = 0.2 * m * (a * a + c * c);
        I[2] = 0.2 * m * (a * a + b * b);
    } else if (s->type == TC_SHAPE_CYLINDER) {
        double r = s->size[0], l = 2 * s->size[1];
        m = density * M_PI * r * r * l;
        I[0] = I[1] = m * (3 * r * r + l * l) / 12;
        I[2] = 0.5 * m * r * r;
    } else if (s->type == TC_SHAPE_POLYTOPE && s->hull) {
        double vol, m1[3], m2[9];
        poly_moments(s->hull, &vol, m1, m2);
        double tr = m2[0] + m2[4] + m2[8];
        m = density * vol;
        for (int k = 0; k < 3; k++)
            I[k] = density * (tr - m2[4 * k]);
    } else if (s->type == TC_SHAPE_COMPOUND) {
        double o[3] = {0, 0, 0}, com[3], T[9];
        compound_inertia(s, density, o, &m, com, T);
        I[0] = T[0];
        I[1] = T[4];
        I[2] = T[8];
    }
    *mass = m;
    for (int i = 0; i < 3; i++)
        inertia[i] = I[i];
}

double tc_shape_distance(const tc_shape *s, const double p[3], double normal[3]) {
    switch (s->type) {
    case TC_SHAPE_SPHERE: {
        double r = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        /* the centre has no normal: choose +z so the answer is deterministic */
        if (r > 0)
            for (int i = 0; i < 3; i++)
                normal[i] = p[i] / r;
        else {
            normal[0] = normal[1] = 0;
            normal[2] = 1;
        }
        return r - s->size[0];
    }
    case TC_SHAPE_BOX: {
        double q[3], outside = 0, inside = -INFINITY;
        int k = 0;
        for (int i = 0; i < 3; i++) {
            q[i] = fabs(p[i]) - s->size[i];
            if (q[i] > 0) outside += q[i] * q[i];
            if (q[i] > inside) {
                inside = q[i];
                k = i;
            }
        }
        if (outside > 0) {
            double d = sqrt(outside);
            for (int i = 0; i < 3; i++)
                normal[i] = q[i] > 0 ? copysign(q[i], p[i]) / d : 0;
            return d;
        }
        normal[0] = normal[1] = normal[2] = 0;
        normal[k] = p[k] >= 0 ? 1 : -1;
        return inside;
    }
    case TC_SHAPE_PLANE:
        normal[0] = normal[1] = 0;
        normal[2] = 1;
        return p[2];
    case TC_SHAPE_CYLINDER: {
        /* a 2-D box in (radial distance, |z|): outside the corner ring, beside the side, above a
         * cap, or inside (the nearer of side and cap) */
        double rho = sqrt(p[0] * p[0] + p[1] * p[1]), u[2] = {1, 0};
        if (rho > 0) {
            u[0] = p[0] / rho;
            u[1] = p[1] / rho;
        }
        double dr = rho - s->size[0], dz = fabs(p[2]) - s->size[1], sz = p[2] >= 0 ? 1 : -1;
        if (dr > 0 && dz > 0) {
            double d = sqrt(dr * dr + dz * dz);
            normal[0] = u[0] * dr / d;
            normal[1] = u[1] * dr / d;
            normal[2] = sz * dz / d;
            return d;
        }
        if (dr > dz) {
            normal[0] = u[0];
            normal[1] = u[1];
            normal[2] = 0;
            return dr;
        }
        normal[0] = normal[1] = 0;
        normal[2] = sz;
        return dz;
    }
    case TC_SHAPE_ELLIPSOID: {
        /* g = s - 1 with s^2 = sum (p_i / a_i)^2; grad g = k / s with k_i = p_i / a_i^2, so
         * g / |grad g| = (s - 1) s / |k| (exact for a sphere; see the header) */
        const double *ax = s->size;
        double q = 0, k[3];
        for (int i = 0; i < 3; i++) {
            q += (p[i] / ax[i]) * (p[i] / ax[i]);
            k[i] = p[i] / (ax[i] * ax[i]);
        }
        double kn = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
        if (!(kn > 0)) {
            int j = 0;
            for (int i = 1; i < 3; i++)
                if (ax[i] < ax[j]) j = i;
            normal[0] = normal[1] = normal[2] = 0;
            normal[j] = 1;
            return -ax[j];
        }
        for (int i = 0; i < 3; i++)
            normal[i] = k[i] / kn;
        double sq = sqrt(q);
        return (sq - 1) * sq / kn;
    }
    case TC_SHAPE_POLYTOPE:
        return poly_distance(s, p, normal);
    case TC_SHAPE_COMPOUND: {
        /* union: the nearest part (exact outside; inside, the least deep part) */
        double best = INFINITY;
        for (int i = 0; i < s->npart; i++) {
            tc_shape prim = part_shape(&s->part[i]);
            double q[3] = {p[0] - s->part[i].pos[0], p[1] - s->part[i].pos[1],
                           p[2] - s->part[i].pos[2]},
                   n[3];
            double d = tc_shape_distance(&prim, q, n);
            if (d < best) {
                best = d;
                normal[0] = n[0];
                normal[1] = n[1];
                normal[2] = n[2];
            }
        }
        return best;
    }
    default:
        normal[0] = normal[1] = 0;
        normal[2] = 1;
        return INFINITY;
    }
}
