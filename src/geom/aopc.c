/* SPDX-License-Identifier: MIT */
/* AOPC sampling of sphere, box, ellipsoid, cylinder, polytope and plane (and the outline of a
 * 2-D box), transforms, and the SSDF, at a point or on a grid */
#include "geom/tc_aopc.h"
#include "math/tc_smooth.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

tc_status tc_aopc_alloc_n(tc_aopc *c, int n) {
    memset(c, 0, sizeof *c);
    double *buf = calloc((size_t)6 * (size_t)(n > 0 ? n : 1), sizeof *buf);
    if (!buf) return TC_ENOMEM;
    c->n = n;
    c->px = buf;
    c->py = buf + n;
    c->pz = buf + 2 * n;
    c->nx = buf + 3 * n;
    c->ny = buf + 4 * n;
    c->nz = buf + 5 * n;
    return TC_OK;
}

void tc_aopc_free(tc_aopc *c) {
    if (c) free(c->px);
    if (c) memset(c, 0, sizeof *c);
}

static void put(tc_aopc *c, int i, const double p[3], const double nrm[3]) {
    c->px[i] = p[0];
    c->py[i] = p[1];
    c->pz[i] = p[2];
    c->nx[i] = nrm[0];
    c->ny[i] = nrm[1];
    c->nz[i] = nrm[2];
}

/* the unit sphere as a cube-sphere: each face of the cube [-1, 1]^3 cut into m x m cells of
 * equal angle (tan), the cell centres projected onto the sphere; 6 m^2 points with every mirror
 * symmetry of the cube (x, y, z and the diagonal planes), as the paper's quad centres of a
 * quadrangulated mesh. m is the smallest with 6 m^2 >= n (and at least 2) */
static int cube_sphere_m(long n) {
    int m = (int)ceil(sqrt((double)n / 6.0));
    return m < 2 ? 2 : m;
}

/* point i of the m x m x 6 cube-sphere (unit vector u) */
static void cube_sphere_point(int m, int i, double u[3]) {
    int face = i / (m * m), j = i % (m * m), a = j / m, b = j % m;
    /* equal-angle cell centres across the face, symmetric about its middle */
    double s = tan(M_PI / 4 * ((2.0 * a + 1.0) / m - 1.0)),
           t = tan(M_PI / 4 * ((2.0 * b + 1.0) / m - 1.0));
    int axis = face / 2;
    double sign = face % 2 ? -1.0 : 1.0, v[3];
    v[axis] = sign;
    v[(axis + 1) % 3] = s;
    v[(axis + 2) % 3] = t;
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        u[k] = v[k] / l;
}

/* sphere: the cube-sphere scaled to radius r, normals radial */
static tc_status sample_sphere(tc_aopc *c, double r, double h) {
    double area = 4 * M_PI * r * r;
    int m = cube_sphere_m((long)ceil(area / (h * h))), n = 6 * m * m;
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    for (int i = 0; i < n; i++) {
        double u[3];
        cube_sphere_point(m, i, u);
        double p[3] = {r * u[0], r * u[1], r * u[2]};
        put(c, i, p, u);
    }
    c->spacing = sqrt(area / n);
    return TC_OK;
}

/* ellipsoid: the cube-sphere mapped by (a x, b y, c z); the normal at the image of the unit
 * point u is the implicit function's gradient direction (u_x / a, u_y / b, u_z / c) normalised.
 * The count comes from the surface area by Knud Thomsen's approximation
 * S ~ 4 pi ((a^p b^p + a^p c^p + b^p c^p) / 3)^(1/p), p = 1.6075 (relative error <= 1.061 %) and
 * the target spacing. The map stretches area by a b c |(u_x / a, u_y / b, u_z / c)| (b c at the
 * ends of the x axis, and so on), so the point density varies by up to the ratio of the longest to
 * the shortest semi-axis, densest at the ends of the longest axis; spacing is the mean,
 * sqrt(S / n). */
static tc_status sample_ellipsoid(tc_aopc *c, const double abc[3], double h) {
    const double a = abc[0], b = abc[1], cc = abc[2], pw = 1.6075;
    double area =
        4 * M_PI * pow((pow(a * b, pw) + pow(a * cc, pw) + pow(b * cc, pw)) / 3.0, 1.0 / pw);
    int m = cube_sphere_m((long)ceil(area / (h * h))), n = 6 * m * m;
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    for (int i = 0; i < n; i++) {
        double u[3];
        cube_sphere_point(m, i, u);
        double p[3] = {a * u[0], b * u[1], cc * u[2]}, g[3] = {u[0] / a, u[1] / b, u[2] / cc};
        double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        for (int k = 0; k < 3; k++)
            g[k] /= gn;
        put(c, i, p, g);
    }
    c->spacing = sqrt(area / n);
    return TC_OK;
}

/* box: per face a grid of quad centres; axis k is the face normal, (i, j) span the face */
static tc_status sample_box(tc_aopc *c, const double half[3], double h) {
    int cells[3], n = 0;
    for (int k = 0; k < 3; k++)
        cells[k] = (int)ceil(2 * half[k] / h - 1e-9) > 0 ? (int)ceil(2 * half[k] / h - 1e-9) : 1;
    for (int k = 0; k < 3; k++)
        n += 2 * cells[(k + 1) % 3] * cells[(k + 2) % 3];
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    int m = 0;
    double area = 0;
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        for (int side = -1; side <= 1; side += 2)
            for (int a = 0; a < cells[i]; a++)
                for (int b = 0; b < cells[j]; b++) {
                    double p[3], nrm[3] = {0, 0, 0};
                    p[k] = side * half[k];
                    p[i] = -half[i] + (a + 0.5) * 2 * half[i] / cells[i];
                    p[j] = -half[j] + (b + 0.5) * 2 * half[j] / cells[j];
                    nrm[k] = side;
                    put(c, m++, p, nrm);
                }
        area += 2 * 4 * half[i] * half[j];
    }
    c->spacing = sqrt(area / n);
    return TC_OK;
}

/* 2-D box: per edge the centres of equal segments; axis k is the edge's normal, i runs along it */
tc_status tc_aopc_box2d(tc_aopc *c, const double half[2], double h) {
    int cells[2];
    for (int k = 0; k < 2; k++) {
        int m = (int)ceil(2 * half[k] / h - 1e-9);
        cells[k] = m > 0 ? m : 1;
    }
    int n = 2 * (cells[0] + cells[1]), m = 0;
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    for (int k = 0; k < 2; k++) {
        int i = 1 - k;
        for (int side = -1; side <= 1; side += 2)
            for (int a = 0; a < cells[i]; a++) {
                double p[3] = {0, 0, 0}, nrm[3] = {0, 0, 0};
                p[k] = side * half[k];
                p[i] = -half[i] + (a + 0.5) * 2 * half[i] / cells[i];
                nrm[k] = side;
                put(c, m++, p, nrm);
            }
    }
    c->spacing = 4 * (half[0] + half[1]) / n;
    return TC_OK;
}

/* cylinder: the side as rows of equally spaced points at row centres, each cap as concentric rings
 * at ring centres (no point on a rim, so each point keeps its face's normal) */
static tc_status sample_cylinder(tc_aopc *c, double r, double hl, double h) {
    int rows = (int)ceil(2 * hl / h - 1e-9), around = (int)ceil(2 * M_PI * r / h - 1e-9);
    int rings = (int)ceil(r / h - 1e-9);
    rows = rows > 0 ? rows : 1;
    around = around >= 3 ? around : 3;
    rings = rings > 0 ? rings : 1;
    int per_cap = 0;
    for (int j = 0; j < rings; j++) {
        int k = (int)ceil(2 * M_PI * (j + 0.5) * r / rings / h - 1e-9);
        per_cap += k > 0 ? k : 1;
    }
    int n = rows * around + 2 * per_cap, m = 0;
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    /* side */
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < around; k++) {
            double a = 2 * M_PI * (k + 0.5 * (i & 1)) / around;
            double u[3] = {cos(a), sin(a), 0},
                   p[3] = {r * u[0], r * u[1], -hl + (i + 0.5) * 2 * hl / rows};
            put(c, m++, p, u);
        }
    /* caps */
    for (int side = -1; side <= 1; side += 2)
        for (int j = 0; j < rings; j++) {
            double rho = (j + 0.5) * r / rings;
            int cnt = (int)ceil(2 * M_PI * rho / h - 1e-9);
            cnt = cnt > 0 ? cnt : 1;
            for (int k = 0; k < cnt; k++) {
                double a = 2 * M_PI * (k + 0.5 * (j & 1)) / cnt;
                double p[3] = {rho * cos(a), rho * sin(a), side * hl}, z[3] = {0, 0, side};
                put(c, m++, p, z);
            }
        }
    c->spacing = sqrt((2 * M_PI * r * 2 * hl + 2 * M_PI * r * r) / n);
    return TC_OK;
}

/* face f of a polytope: its first vertex o, the in-plane basis u (along the first edge) and
 * w = n x u, and the extent of its loop in that basis (lo, hi: u then w, m) */
static void poly_face_frame(const tc_shape *s, int f, double o[3], double u[3], double w[3],
                            double lo[2], double hi[2]) {
    const tc_hull *hull = s->hull;
    const unsigned char *lp = hull->fv + hull->fofs[f];
    tc_v3_copy(o, hull->vert[lp[0]]);
    tc_v3_sub(u, hull->vert[lp[1]], o);
    tc_v3_normalize(u);
    tc_v3_cross(w, hull->face[f], u);
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (int i = 0; i < hull->fnv[f]; i++) {
        double r[3];
        tc_v3_sub(r, hull->vert[lp[i]], o);
        double a = tc_v3_dot(r, u), b = tc_v3_dot(r, w);
        lo[0] = fmin(lo[0], a);
        hi[0] = fmax(hi[0], a);
        lo[1] = fmin(lo[1], b);
        hi[1] = fmax(hi[1], b);
    }
}

/* polytope: on each face the centres of a grid of cells of side <= h over the face's extent (u
 * along its first edge, w = n x u), kept when inside the face and farther than 1e-9 of the
 * polytope's size from its edges (no point on an edge, so each keeps its face's normal, as for
 * the box); a face that keeps none (a sliver) gets its vertex mean. One pass counts, one fills */
static tc_status sample_polytope(tc_aopc *c, const tc_shape *s, double h, tc_error *err) {
    const tc_hull *hull = s->hull;
    double margin = 1e-9 * tc_polytope_radius(s), area = 0;
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass && tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
        int m = 0;
        for (int f = 0; f < hull->nface; f++) {
            double o[3], u[3], w[3], lo[2], hi[2], p[3];
            poly_face_frame(s, f, o, u, w, lo, hi);
            double cu = fmax(1, ceil((hi[0] - lo[0]) / h - 1e-9));
            double cw = fmax(1, ceil((hi[1] - lo[1]) / h - 1e-9));
            if (cu * cw > 1e8)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "spacing",
                                    "too fine for the polytope: over 1e8 cells on a face (h %g m)",
                                    h);
            int nu = (int)cu, nw = (int)cw;
            int kept = 0;
            for (int i = 0; i < nu; i++)
                for (int j = 0; j < nw; j++) {
                    double a = lo[0] + (i + 0.5) * (hi[0] - lo[0]) / nu;
                    double b = lo[1] + (j + 0.5) * (hi[1] - lo[1]) / nw;
                    for (int k = 0; k < 3; k++)
                        p[k] = o[k] + a * u[k] + b * w[k];
                    if (!tc_polytope_face_contains(s, f, p, margin)) continue;
                    if (pass) put(c, m, p, hull->face[f]);
                    m++;
                    kept++;
                }
            if (!kept) {
                const unsigned char *lp = hull->fv + hull->fofs[f];
                for (int k = 0; k < 3; k++)
                    p[k] = 0;
                for (int i = 0; i < hull->fnv[f]; i++)
                    tc_v3_addscl(p, hull->vert[lp[i]], 1.0 / hull->fnv[f]);
                if (pass) put(c, m, p, hull->face[f]);
                m++;
            }
            /* the face's area by its triangle fan */
            if (pass)
                for (int i = 1; i + 1 < hull->fnv[f]; i++) {
                    const unsigned char *lp = hull->fv + hull->fofs[f];
                    double e1[3], e2[3], x[3];
                    tc_v3_sub(e1, hull->vert[lp[i]], hull->vert[lp[0]]);
                    tc_v3_sub(e2, hull->vert[lp[i + 1]], hull->vert[lp[0]]);
                    tc_v3_cross(x, e1, e2);
                    area += 0.5 * tc_v3_norm(x);
                }
        }
        n = m;
    }
    c->spacing = sqrt(area / n);
    return TC_OK;
}

/* part i of a compound as a primitive shape centred at its own origin */
static tc_shape part_of(const tc_shape *s, int i) {
    const tc_shape_part *p = &s->part[i];
    return p->type == TC_SHAPE_SPHERE ? tc_sphere(p->size[0])
                                      : tc_box(p->size[0], p->size[1], p->size[2]);
}

/* compound: every part's samples that lie on the union's surface (not inside or on another part) */
static tc_status sample_compound(tc_aopc *c, const tc_shape *s, double h, tc_error *err) {
    tc_aopc parts[TC_SHAPE_MAXPART];
    int n = 0, keep_n = 0;
    double area = 0;
    for (int i = 0; i < s->npart; i++) {
        tc_shape prim = part_of(s, i);
        tc_status st = tc_aopc_alloc(&parts[i], &prim, h, err);
        if (st) {
            while (i--)
                tc_aopc_free(&parts[i]);
            return st;
        }
        n += parts[i].n;
    }
    if (tc_aopc_alloc_n(c, n)) return TC_ENOMEM;
    for (int i = 0; i < s->npart; i++) {
        const double *o = s->part[i].pos;
        for (int j = 0; j < parts[i].n; j++) {
            double p[3] = {parts[i].px[j] + o[0], parts[i].py[j] + o[1], parts[i].pz[j] + o[2]};
            int inside = 0;
            for (int k = 0; k < s->npart && !inside; k++) {
                if (k == i) continue;
                tc_shape prim = part_of(s, k);
                double q[3] = {p[0] - s->part[k].pos[0], p[1] - s->part[k].pos[1],
                               p[2] - s->part[k].pos[2]},
                       nn[3];
                inside = tc_shape_distance(&prim, q, nn) <= 1e-9;
            }
            if (inside) continue;
            double nrm[3] = {parts[i].nx[j], parts[i].ny[j], parts[i].nz[j]};
            put(c, keep_n++, p, nrm);
        }
        area += parts[i].spacing * parts[i].spacing * parts[i].n;
        tc_aopc_free(&parts[i]);
    }
    c->n = keep_n;
    c->spacing = sqrt(area / n);
    return TC_OK;
}

tc_status tc_aopc_alloc(tc_aopc *c, const tc_shape *s, double h, tc_error *err) {
    if (!(isfinite(h) && h > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "spacing", "must be > 0 m (got %g)", h);
    /* a round shape's count from its size: refused before it overflows or fills the memory */
    if ((s->type == TC_SHAPE_SPHERE || s->type == TC_SHAPE_ELLIPSOID) &&
        4 * M_PI * s->size[0] * fmax(s->size[0], fmax(s->size[1], s->size[2])) / (h * h) > 1e8)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "spacing",
                            "too fine for the shape: over 1e8 points (h %g m)", h);
    switch (s->type) {
    case TC_SHAPE_COMPOUND:
        return sample_compound(c, s, h, err);
    case TC_SHAPE_SPHERE:
        return sample_sphere(c, s->size[0], h);
    case TC_SHAPE_BOX:
        return sample_box(c, s->size, h);
    case TC_SHAPE_ELLIPSOID:
        return sample_ellipsoid(c, s->size, h);
    case TC_SHAPE_CYLINDER:
        return sample_cylinder(c, s->size[0], s->size[1], h);
    case TC_SHAPE_POLYTOPE:
        return sample_polytope(c, s, h, err);
    case TC_SHAPE_PLANE: {
        if (tc_aopc_alloc_n(c, 1)) return TC_ENOMEM;
        double o[3] = {0, 0, 0}, z[3] = {0, 0, 1};
        put(c, 0, o, z);
        return TC_OK;
    }
    default:
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape", "no AOPC sampler for this shape");
    }
}

void tc_aopc_transform(tc_aopc *dst, const tc_aopc *src, const double R[9], const double x[3]) {
    for (int i = 0; i < src->n; i++) {
        double p[3] = {src->px[i], src->py[i], src->pz[i]};
        double nn[3] = {src->nx[i], src->ny[i], src->nz[i]};
        dst->px[i] = R[0] * p[0] + R[1] * p[1] + R[2] * p[2] + x[0];
        dst->py[i] = R[3] * p[0] + R[4] * p[1] + R[5] * p[2] + x[1];
        dst->pz[i] = R[6] * p[0] + R[7] * p[1] + R[8] * p[2] + x[2];
        dst->nx[i] = R[0] * nn[0] + R[1] * nn[1] + R[2] * nn[2];
        dst->ny[i] = R[3] * nn[0] + R[4] * nn[1] + R[5] * nn[2];
        dst->nz[i] = R[6] * nn[0] + R[7] * nn[1] + R[8] * nn[2];
    }
    dst->n = src->n;
    dst->spacing = src->spacing;
}

double tc_ssdf(const tc_aopc *c, const double p[3], double eps1) {
    /* softmin over squared distances: subtract the smallest so the top weight is 1 */
    double dmin = INFINITY;
    for (int i = 0; i < c->n; i++) {
        double dx = p[0] - c->px[i], dy = p[1] - c->py[i], dz = p[2] - c->pz[i];
        double d = dx * dx + dy * dy + dz * dz;
        dmin = d < dmin ? d : dmin;
    }
    double sw = 0, swphi = 0;
    for (int i = 0; i < c->n; i++) {
        double dx = p[0] - c->px[i], dy = p[1] - c->py[i], dz = p[2] - c->pz[i];
        double w = tc_exp_neg(-(dx * dx + dy * dy + dz * dz - dmin) / eps1);
        sw += w;
        swphi += w * (c->nx[i] * dx + c->ny[i] * dy + c->nz[i] * dz);
    }
    return swphi / sw;
}

/* the SSDF on a grid of the z = 0 plane, row by row, x fastest */
void tc_ssdf_grid(const tc_aopc *c, double eps1, const double lo[2], const double hi[2], int nx,
                  int ny, double *phi) {
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            double p[3] = {lo[0] + i * (hi[0] - lo[0]) / (nx - 1),
                           lo[1] + j * (hi[1] - lo[1]) / (ny - 1), 0};
            phi[(size_t)j * (size_t)nx + (size_t)i] = tc_ssdf(c, p, eps1);
        }
}
