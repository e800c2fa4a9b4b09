/* SPDX-License-Identifier: MIT */
/* surfaces of convex shapes for penetration queries: points at most h apart with the outward
 * normals of the faces meeting there, and face planes (box grid, geodesic icosphere, cylinder
 * rings, polytope vertices, edges and face grids, plane) */
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* more points than this is surely a unit mistake (h in mm instead of m) */
#define SURF_MAXPOINT 4000000

/* allocate the arrays of s for np points and nf faces */
static tc_status surf_arrays(tc_surface *s, long np, long nf, tc_error *err) {
    if (np > SURF_MAXPOINT || nf > 8L * SURF_MAXPOINT)
        return tc_error_set(err, TC_EINVAL, "", 0, "spacing",
                            "surface spacing too fine: %ld points (at most %d)", np, SURF_MAXPOINT);
    s->npoint = (int)np;
    s->nface = (int)nf;
    s->p = np ? malloc((size_t)np * sizeof *s->p) : NULL;
    s->n = np ? malloc((size_t)np * sizeof *s->n) : NULL;
    s->nn = np ? calloc((size_t)np, 1) : NULL;
    s->face = nf ? malloc((size_t)nf * sizeof *s->face) : NULL;
    if ((np && (!s->p || !s->n || !s->nn)) || (nf && !s->face)) {
        tc_surface_free(s);
        return tc_error_set(err, TC_ENOMEM, "", 0, "", "out of memory for a surface of %ld points",
                            np);
    }
    if (np) memset(s->n, 0, (size_t)np * sizeof *s->n);
    return TC_OK;
}

/* append normal (x, y, z) to point i */
static void add_normal(tc_surface *s, int i, double x, double y, double z) {
    int k = s->nn[i]++;
    s->n[i][k][0] = x;
    s->n[i][k][1] = y;
    s->n[i][k][2] = z;
}

/* intervals of at most h over a length L (at least 1) */
static long intervals(double L, double h) {
    double m = ceil(L / h);
    return m < 1 ? 1 : (long)m;
}

/* box: the lattice x_i = a_i (2 k_i - n_i) / n_i on the surface; one normal per axis where k_i is
 * 0 or n_i (faces 1, edges 2, corners 3) */
static tc_status surf_box(tc_surface *s, const double a[3], double h, tc_error *err) {
    long n[3], np = 0;
    for (int i = 0; i < 3; i++)
        n[i] = intervals(2 * a[i], h);
    np = (n[0] + 1) * (n[1] + 1) * (n[2] + 1) - (n[0] - 1) * (n[1] - 1) * (n[2] - 1);
    tc_status st = surf_arrays(s, np, 6, err);
    if (st) return st;
    int m = 0;
    for (long i = 0; i <= n[0]; i++)
        for (long j = 0; j <= n[1]; j++)
            for (long k = 0; k <= n[2]; k++) {
                long idx[3] = {i, j, k};
                int on = 0;
                for (int c = 0; c < 3; c++)
                    on |= idx[c] == 0 || idx[c] == n[c];
                if (!on) continue;
                for (int c = 0; c < 3; c++) {
                    s->p[m][c] = a[c] * (double)(2 * idx[c] - n[c]) / (double)n[c];
                    if (idx[c] == 0 || idx[c] == n[c]) {
                        double nv[3] = {0, 0, 0};
                        nv[c] = idx[c] == 0 ? -1 : 1;
                        add_normal(s, m, nv[0], nv[1], nv[2]);
                    }
                }
                m++;
            }
    /* the six face planes: +x, -x, +y, -y, +z, -z */
    for (int f = 0; f < 6; f++) {
        memset(s->face[f], 0, sizeof s->face[f]);
        s->face[f][f / 2] = f % 2 ? -1 : 1;
        s->face[f][3] = a[f / 2];
    }
    s->radius = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    return TC_OK;
}

/* the icosahedron: 12 vertices (0, +-1, +-phi) cyclically, 20 faces */
static const int ico_face[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                    {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                    {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                    {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};

static void ico_vertex(int v, double out[3]) {
    const double f = 0.5 * (1 + sqrt(5.0));
    const double raw[12][3] = {{-1, f, 0}, {1, f, 0}, {-1, -f, 0}, {1, -f, 0},
                               {0, -1, f}, {0, 1, f}, {0, -1, -f}, {0, 1, -f},
                               {f, 0, -1}, {f, 0, 1}, {-f, 0, -1}, {-f, 0, 1}};
    tc_v3_copy(out, raw[v]);
    tc_v3_normalize(out);
}

/* unit point (i, j) of face f at frequency n: weights n-i-j, i, j on the face's vertices, summed
 * in increasing vertex index (zero weights skipped) so that a point shared by two faces gets the
 * same bits from both */
static void ico_point(int f, int n, int i, int j, double out[3]) {
    int v[3] = {ico_face[f][0], ico_face[f][1], ico_face[f][2]};
    int w[3] = {n - i - j, i, j};
    /* sort the (vertex, weight) pairs by vertex index */
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (v[b] < v[a]) {
                int t = v[a];
                v[a] = v[b];
                v[b] = t;
                t = w[a];
                w[a] = w[b];
                w[b] = t;
            }
    double x[3] = {0, 0, 0}, V[3];
    for (int a = 0; a < 3; a++) {
        if (!w[a]) continue;
        ico_vertex(v[a], V);
        for (int c = 0; c < 3; c++)
            x[c] += (double)w[a] * V[c];
    }
    tc_v3_normalize(x);
    tc_v3_copy(out, x);
}

/* the three unit corners of a sub-triangle of face f at frequency n: upward (i, j), (i+1, j),
 * (i, j+1), or downward (i+1, j), (i+1, j+1), (i, j+1) */
static void ico_tri(int f, int n, int i, int j, int down, double c[3][3]) {
    if (!down) {
        ico_point(f, n, i, j, c[0]);
        ico_point(f, n, i + 1, j, c[1]);
        ico_point(f, n, i, j + 1, c[2]);
    } else {
        ico_point(f, n, i + 1, j, c[0]);
        ico_point(f, n, i + 1, j + 1, c[1]);
        ico_point(f, n, i, j + 1, c[2]);
    }
}

/* every sub-triangle of the frequency-n subdivision, in a fixed order: fn(ctx, corners) */
static void ico_each(int n, void (*fn)(void *ctx, double c[3][3]), void *ctx) {
    double c[3][3];
    for (int f = 0; f < 20; f++)
        for (int i = 0; i < n; i++)
            for (int j = 0; i + j < n; j++)
                for (int down = 0; down < 2; down++) {
                    if (down && i + j + 2 > n) continue;
                    ico_tri(f, n, i, j, down, c);
                    fn(ctx, c);
                }
}

/* the longest edge of a triangle into *(double *)ctx */
static void tri_max_edge(void *ctx, double c[3][3]) {
    double *e = ctx, d[3];
    for (int k = 0; k < 3; k++) {
        tc_v3_sub(d, c[k], c[(k + 1) % 3]);
        double l = tc_v3_norm(d);
        if (l > *e) *e = l;
    }
}

/* longest edge (unit sphere) of the geodesic subdivision at frequency n */
static double ico_max_edge(int n) {
    double e = 0;
    ico_each(n, tri_max_edge, &e);
    return e;
}

/* the next face of a sphere surface: the tangent plane at a sub-triangle's outward unit normal */
typedef struct sphere_faces {
    tc_surface *s;
    double r;
    long q;
} sphere_faces;

static void tri_face(void *ctx, double c[3][3]) {
    sphere_faces *sf = ctx;
    double e1[3], e2[3], nv[3];
    tc_v3_sub(e1, c[1], c[0]);
    tc_v3_sub(e2, c[2], c[0]);
    tc_v3_cross(nv, e1, e2);
    tc_v3_normalize(nv);
    if (tc_v3_dot(nv, c[0]) < 0) tc_v3_scale(nv, nv, -1);
    tc_v3_copy(sf->s->face[sf->q], nv);
    sf->s->face[sf->q][3] = sf->r;
    sf->q++;
}

/* lexicographic order of points, for removing the duplicates on shared edges */
static int cmp_point(const void *pa, const void *pb) {
    const double *a = pa, *b = pb;
    for (int c = 0; c < 3; c++)
        if (a[c] != b[c]) return a[c] < b[c] ? -1 : 1;
    return 0;
}

/* sphere: the geodesic icosphere of the lowest frequency n whose edges are <= h; points radial,
 * faces the tangent planes at the sub-triangles' normals (every point inside the sphere is below
 * all of them, so depths below a face are >= 0) */
static tc_status surf_sphere(tc_surface *s, double r, double h, tc_error *err) {
    /* the n sub-edges along an icosahedron edge (chord 1.0515) add up to at least that chord, so
     * the longest is >= 1.05 / n: start there */
    double n0 = floor(1.05 * r / h);
    int n = n0 > 1 ? (n0 < 1000 ? (int)n0 : 1000) : 1;
    while (r * ico_max_edge(n) > h) {
        n++;
        if (10L * n * n + 2 > SURF_MAXPOINT) break;
    }
    long np = 10L * n * n + 2, nf = 20L * n * n, nraw = 20L * (n + 1) * (n + 2) / 2;
    tc_status st = surf_arrays(s, np, nf, err);
    if (st) return st;
    /* every face's points, sorted, duplicates dropped */
    double(*raw)[3] = malloc((size_t)nraw * sizeof *raw);
    if (!raw) {
        tc_surface_free(s);
        return tc_error_set(err, TC_ENOMEM, "", 0, "", "out of memory for an icosphere");
    }
    long m = 0;
    for (int f = 0; f < 20; f++)
        for (int i = 0; i <= n; i++)
            for (int j = 0; i + j <= n; j++)
                ico_point(f, n, i, j, raw[m++]);
    qsort(raw, (size_t)nraw, sizeof *raw, cmp_point);
    long u = 0;
    for (long k = 0; k < nraw; k++)
        if (u == 0 || cmp_point(raw[k], raw[u - 1]) != 0) tc_v3_copy(raw[u++], raw[k]);
    if (u != np) {
        free(raw);
        tc_surface_free(s);
        return tc_error_set(err, TC_EINVAL, "", 0, "", "icosphere: %ld points, expected %ld", u,
                            np);
    }
    for (long k = 0; k < np; k++) {
        tc_v3_scale(s->p[k], raw[k], r);
        add_normal(s, (int)k, raw[k][0], raw[k][1], raw[k][2]);
    }
    free(raw);
    /* faces: the tangent plane at each sub-triangle's unit normal */
    sphere_faces sf = {s, r, 0};
    ico_each(n, tri_face, &sf);
    s->radius = r;
    return TC_OK;
}

/* points around a ring of radius rho so that neighbours are at most h apart (at least mmin) */
static long ring_count(double rho, double h, long mmin) {
    long m = mmin;
    while (2 * rho * sin(M_PI / (double)m) > h)
        m++;
    return m;
}

/* cylinder: side rings at z levels <= h apart (the two rims carry the side and the cap normal),
 * caps as concentric rings <= h apart plus the centre; faces the two caps and the side's tangent
 * planes at the side rings' angles */
static tc_status surf_cylinder(tc_surface *s, double r, double hl, double h, tc_error *err) {
    long m = ring_count(r, h, 8), nz = intervals(2 * hl, h), nr = intervals(r, h);
    long np = m * (nz + 1);
    for (long i = 1; i < nr; i++)
        np += 2 * ring_count(r * (double)i / (double)nr, h, 3);
    np += 2;
    tc_status st = surf_arrays(s, np, m + 2, err);
    if (st) return st;
    int q = 0;
    /* the side, rims included */
    for (long k = 0; k <= nz; k++) {
        double z = hl * (double)(2 * k - nz) / (double)nz;
        for (long j = 0; j < m; j++) {
            double t = 2 * M_PI * (double)j / (double)m, c = cos(t), sn = sin(t);
            tc_v3_set(s->p[q], r * c, r * sn, z);
            add_normal(s, q, c, sn, 0);
            if (k == 0) add_normal(s, q, 0, 0, -1);
            if (k == nz) add_normal(s, q, 0, 0, 1);
            q++;
        }
    }
    /* the caps: inner rings and the centres */
    for (int side = -1; side <= 1; side += 2) {
        for (long i = 1; i < nr; i++) {
            double rho = r * (double)i / (double)nr;
            long mi = ring_count(rho, h, 3);
            for (long j = 0; j < mi; j++) {
                double t = 2 * M_PI * (double)j / (double)mi;
                tc_v3_set(s->p[q], rho * cos(t), rho * sin(t), side * hl);
                add_normal(s, q, 0, 0, side);
                q++;
            }
        }
        tc_v3_set(s->p[q], 0, 0, side * hl);
        add_normal(s, q, 0, 0, side);
        q++;
    }
    /* faces: the caps, then the side's tangent planes */
    s->face[0][0] = 0;
    s->face[0][1] = 0;
    s->face[0][2] = 1;
    s->face[0][3] = hl;
    s->face[1][0] = 0;
    s->face[1][1] = 0;
    s->face[1][2] = -1;
    s->face[1][3] = hl;
    for (long j = 0; j < m; j++) {
        double t = 2 * M_PI * (double)j / (double)m;
        s->face[2 + j][0] = cos(t);
        s->face[2 + j][1] = sin(t);
        s->face[2 + j][2] = 0;
        s->face[2 + j][3] = r;
    }
    s->radius = sqrt(r * r + hl * hl);
    return TC_OK;
}

/* 1 when face f of polytope sh has the directed edge a -> b in its loop */
static int loop_has_edge(const tc_shape *sh, int f, int a, int b) {
    const tc_hull *hull = sh->hull;
    const unsigned char *lp = hull->fv + hull->fofs[f];
    for (int i = 0; i < hull->fnv[f]; i++)
        if (lp[i] == a && lp[(i + 1) % hull->fnv[f]] == b) return 1;
    return 0;
}

/* the faces of polytope sh meeting at vertex v, at most TC_SURF_MAXNORMAL of them: the lowest
 * index first, then each time the face whose normal has the least largest dot product with
 * those already taken (the most different; ties to the lower index); returns their count */
static int vertex_faces(const tc_shape *sh, int v, int *out) {
    const tc_hull *hull = sh->hull;
    int all[TC_POLY_MAXFACE], na = 0;
    for (int f = 0; f < hull->nface; f++)
        for (int i = 0; i < hull->fnv[f]; i++)
            if (hull->fv[hull->fofs[f] + i] == v) {
                all[na++] = f;
                break;
            }
    if (na <= TC_SURF_MAXNORMAL) {
        memcpy(out, all, (size_t)na * sizeof *all);
        return na;
    }
    int m = 0, used[TC_POLY_MAXFACE] = {0};
    out[m++] = all[0];
    used[0] = 1;
    while (m < TC_SURF_MAXNORMAL) {
        int best = -1;
        double bd = INFINITY;
        for (int j = 0; j < na; j++) {
            if (used[j]) continue;
            double worst = -INFINITY;
            for (int k = 0; k < m; k++)
                worst = fmax(worst, tc_v3_dot(hull->face[all[j]], hull->face[out[k]]));
            if (worst < bd) {
                bd = worst;
                best = j;
            }
        }
        out[m++] = all[best];
        used[best] = 1;
    }
    return m;
}

/* polytope: its vertices (the normals of up to TC_SURF_MAXNORMAL of their faces, see
 * vertex_faces), the points dividing each edge into intervals <= h (the two faces' normals), and
 * on each face the lattice o + (lo_u + i E_u / n_u) u + (lo_w + j E_w / n_w) w, n = ceil(E / h),
 * over the face's extent E in its frame (u along the first edge, w = n x u), kept when inside
 * the face and 1e-9 of the radius off its edges (the face normal); a cube thus gets the box's
 * lattice. Faces: the hull planes. One pass counts, one fills */
static tc_status surf_polytope(tc_surface *s, const tc_shape *sh, double h, tc_error *err) {
    const tc_hull *hull = sh->hull;
    double margin = 1e-9 * tc_polytope_radius(sh);
    long np = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            tc_status st = surf_arrays(s, np, hull->nface, err);
            if (st) return st;
        }
        long q = 0;
        /* vertices */
        for (int v = 0; v < hull->nvert; v++, q++) {
            if (!pass) continue;
            int fs[TC_SURF_MAXNORMAL], nf = vertex_faces(sh, v, fs);
            tc_v3_copy(s->p[q], hull->vert[v]);
            for (int k = 0; k < nf; k++)
                add_normal(s, (int)q, hull->face[fs[k]][0], hull->face[fs[k]][1],
                           hull->face[fs[k]][2]);
        }
        /* edges, each once (as a -> b with a < b in some face's loop) */
        for (int f = 0; f < hull->nface; f++) {
            const unsigned char *lp = hull->fv + hull->fofs[f];
            for (int i = 0; i < hull->fnv[f]; i++) {
                int a = lp[i], b = lp[(i + 1) % hull->fnv[f]];
                if (a > b) continue;
                double e[3];
                tc_v3_sub(e, hull->vert[b], hull->vert[a]);
                long m = intervals(tc_v3_norm(e), h);
                if (!pass) {
                    np += m - 1;
                    continue;
                }
                int g = 0;
                while (g < hull->nface && (g == f || !loop_has_edge(sh, g, b, a)))
                    g++;
                for (long k = 1; k < m; k++, q++) {
                    for (int c = 0; c < 3; c++)
                        s->p[q][c] = hull->vert[a][c] + e[c] * (double)k / (double)m;
                    add_normal(s, (int)q, hull->face[f][0], hull->face[f][1], hull->face[f][2]);
                    if (g < hull->nface)
                        add_normal(s, (int)q, hull->face[g][0], hull->face[g][1], hull->face[g][2]);
                }
            }
        }
        /* face lattices, inside only */
        for (int f = 0; f < hull->nface; f++) {
            const unsigned char *lp = hull->fv + hull->fofs[f];
            double o[3], u[3], w[3], lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            tc_v3_copy(o, hull->vert[lp[0]]);
            tc_v3_sub(u, hull->vert[lp[1]], o);
            tc_v3_normalize(u);
            tc_v3_cross(w, hull->face[f], u);
            for (int i = 0; i < hull->fnv[f]; i++) {
                double r[3];
                tc_v3_sub(r, hull->vert[lp[i]], o);
                double x = tc_v3_dot(r, u), y = tc_v3_dot(r, w);
                lo[0] = fmin(lo[0], x);
                hi[0] = fmax(hi[0], x);
                lo[1] = fmin(lo[1], y);
                hi[1] = fmax(hi[1], y);
            }
            long nu = intervals(hi[0] - lo[0], h), nw = intervals(hi[1] - lo[1], h);
            if ((double)nu * (double)nw > SURF_MAXPOINT)
                return tc_error_set(err, TC_EINVAL, "", 0, "spacing",
                                    "surface spacing too fine: over %d points on a face",
                                    SURF_MAXPOINT);
            for (long i = 1; i < nu; i++)
                for (long j = 1; j < nw; j++) {
                    double x = lo[0] + (hi[0] - lo[0]) * (double)i / (double)nu;
                    double y = lo[1] + (hi[1] - lo[1]) * (double)j / (double)nw, p[3];
                    for (int c = 0; c < 3; c++)
                        p[c] = o[c] + x * u[c] + y * w[c];
                    if (!tc_polytope_face_contains(sh, f, p, margin)) continue;
                    if (!pass) {
                        np++;
                        continue;
                    }
                    tc_v3_copy(s->p[q], p);
                    add_normal(s, (int)q, hull->face[f][0], hull->face[f][1], hull->face[f][2]);
                    q++;
                }
        }
        if (!pass) np += hull->nvert;
    }
    for (int f = 0; f < hull->nface; f++)
        memcpy(s->face[f], hull->face[f], sizeof s->face[f]);
    s->radius = tc_polytope_radius(sh);
    return TC_OK;
}

/* the face groups of a surface with many faces (a sphere's tangent planes, a cylinder's side):
 * each group's normals lie in a cone about their mean (its half angle widened by 1e-9 rad), so
 * eq. 4 can bound the score of a whole group (tc_penetrate) */
static tc_status face_groups(tc_surface *s, tc_error *err) {
    if (s->nface <= 2 * TC_SURF_FGROUP) return TC_OK;
    s->nfgroup = (s->nface + TC_SURF_FGROUP - 1) / TC_SURF_FGROUP;
    s->fgroup = malloc((size_t)s->nfgroup * sizeof *s->fgroup);
    if (!s->fgroup) {
        tc_surface_free(s);
        return tc_error_set(err, TC_ENOMEM, "", 0, "", "out of memory for a surface's faces");
    }
    for (int g = 0; g < s->nfgroup; g++) {
        int f0 = g * TC_SURF_FGROUP,
            f1 = f0 + TC_SURF_FGROUP < s->nface ? f0 + TC_SURF_FGROUP : s->nface;
        double *G = s->fgroup[g], a[3] = {0, 0, 0}, c = 1, d0 = INFINITY, d1 = -INFINITY;
        for (int f = f0; f < f1; f++)
            tc_v3_add(a, a, s->face[f]);
        /* normals that cancel (no cone narrower than a half sphere): the whole sphere */
        if (!(tc_v3_normalize(a) > 1e-6)) {
            tc_v3_set(a, 0, 0, 1);
            c = -1;
        }
        for (int f = f0; f < f1; f++) {
            c = fmin(c, tc_v3_dot(a, s->face[f]));
            d0 = fmin(d0, s->face[f][3]);
            d1 = fmax(d1, s->face[f][3]);
        }
        double th = acos(fmax(-1, fmin(1, c))) + 1e-9;
        tc_v3_copy(G, a);
        G[3] = th >= M_PI ? -1 : cos(th);
        G[4] = th >= M_PI ? 0 : sin(th);
        G[5] = d0;
        G[6] = d1;
    }
    return TC_OK;
}

/* the points and faces of each shape */
static tc_status surface_build(tc_surface *s, const tc_shape *sh, double h, tc_error *err) {
    memset(s, 0, sizeof *s);
    if (!(h > 0) || !isfinite(h))
        return tc_error_set(err, TC_EINVAL, "", 0, "spacing",
                            "surface spacing must be finite and > 0 (m), got %g", h);
    tc_status st = tc_shape_check(sh, err);
    if (st) return st;
    switch (sh->type) {
    case TC_SHAPE_BOX:
        return surf_box(s, sh->size, h, err);
    case TC_SHAPE_SPHERE:
        return surf_sphere(s, sh->size[0], h, err);
    case TC_SHAPE_CYLINDER:
        return surf_cylinder(s, sh->size[0], sh->size[1], h, err);
    case TC_SHAPE_POLYTOPE:
        return surf_polytope(s, sh, h, err);
    case TC_SHAPE_PLANE:
        st = surf_arrays(s, 0, 1, err);
        if (st) return st;
        s->face[0][0] = 0;
        s->face[0][1] = 0;
        s->face[0][2] = 1;
        s->face[0][3] = 0;
        s->radius = INFINITY;
        return TC_OK;
    default:
        return tc_error_set(err, TC_EUNSUP, "", 0, "",
                            "no penetration surface for shape '%s' (box, sphere, cylinder, "
                            "polytope, plane)",
                            tc_shape_name(sh->type));
    }
}

tc_status tc_surface_alloc(tc_surface *s, const tc_shape *sh, double h, tc_error *err) {
    tc_status st = surface_build(s, sh, h, err);
    return st ? st : face_groups(s, err);
}

void tc_surface_free(tc_surface *s) {
    if (!s) return;
    free(s->p);
    free(s->n);
    free(s->nn);
    free(s->face);
    free(s->fgroup);
    memset(s, 0, sizeof *s);
}
