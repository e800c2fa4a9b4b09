/* SPDX-License-Identifier: MIT */
/* tetrahedral meshes of spheres and boxes with the linear pressure field p0 = E eps per tet */
#include "geom/tc_tetmesh.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the vertex and tet arrays, carved from the mesh's block (a probe while sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    (void)ctx;
    tc_tetmesh *m = state;
    size_t nv = (size_t)(m->nvert > 0 ? m->nvert : 1), nt = (size_t)(m->ntet > 0 ? m->ntet : 1);
    m->vert = tc_arena_alloc(a, 3 * nv, sizeof *m->vert);
    m->eps = tc_arena_alloc(a, nv, sizeof *m->eps);
    m->tet = tc_arena_alloc(a, 4 * nt, sizeof *m->tet);
    m->grad = tc_arena_alloc(a, 3 * nt, sizeof *m->grad);
    m->c = tc_arena_alloc(a, nt, sizeof *m->c);
    m->lo = tc_arena_alloc(a, 3 * nt, sizeof *m->lo);
    m->hi = tc_arena_alloc(a, 3 * nt, sizeof *m->hi);
    m->centre = tc_arena_alloc(a, 3 * nt, sizeof *m->centre);
    m->radius = tc_arena_alloc(a, nt, sizeof *m->radius);
}

tc_status tc_tetmesh_alloc(tc_tetmesh **out, int nvert, int ntet, int ntri, double E) {
    tc_tetmesh probe = {.nvert = nvert, .ntet = ntet, .ntri = ntri, .E = E};
    tc_tetmesh *m = tc_arena_make(&probe, sizeof probe, offsetof(tc_tetmesh, arena), carve, NULL);
    if (!m) return TC_ENOMEM;
    /* the surface on its own: tc_tetmesh_build_surface replaces it */
    m->tri = malloc(3 * (size_t)(ntri > 0 ? ntri : 1) * sizeof *m->tri);
    if (!m->tri) {
        tc_arena_free(&m->arena);
        return TC_ENOMEM;
    }
    *out = m;
    return TC_OK;
}

void tc_tetmesh_free(tc_tetmesh *m) {
    if (!m) return;
    free(m->tri);
    tc_arena_free(&m->arena);
}

double tc_tetmesh_tet_volume(const tc_tetmesh *m, int i) {
    const int *t = m->tet + 4 * i;
    double e1[3], e2[3], e3[3], x[3];
    tc_v3_sub(e1, m->vert + 3 * t[1], m->vert + 3 * t[0]);
    tc_v3_sub(e2, m->vert + 3 * t[2], m->vert + 3 * t[0]);
    tc_v3_sub(e3, m->vert + 3 * t[3], m->vert + 3 * t[0]);
    tc_v3_cross(x, e2, e3);
    return tc_v3_dot(e1, x) / 6;
}

/* orient surface triangles outward (meshes are star-shaped about the origin), then the fields */
static void mesh_finish(tc_tetmesh *m) {
    for (int i = 0; i < m->ntri; i++) {
        int *t = m->tri + 3 * i;
        double e1[3], e2[3], n[3];
        tc_v3_sub(e1, m->vert + 3 * t[1], m->vert + 3 * t[0]);
        tc_v3_sub(e2, m->vert + 3 * t[2], m->vert + 3 * t[0]);
        tc_v3_cross(n, e1, e2);
        if (tc_v3_dot(n, m->vert + 3 * t[0]) < 0) {
            int k = t[1];
            t[1] = t[2];
            t[2] = k;
        }
    }
    tc_tetmesh_build_fields(m);
}

void tc_tetmesh_build_fields(tc_tetmesh *m) {
    for (int i = 0; i < m->ntet; i++) {
        int *t = m->tet + 4 * i;
        if (tc_tetmesh_tet_volume(m, i) < 0) {
            int k = t[2];
            t[2] = t[3];
            t[3] = k;
        }
        /* grad from the edge vectors: g = sum_k dp_k (e_{k+1} x e_{k+2}) / det */
        const double *x0 = m->vert + 3 * t[0];
        double e[3][3], dp[3], g[3] = {0, 0, 0}, cr[3];
        for (int k = 0; k < 3; k++) {
            tc_v3_sub(e[k], m->vert + 3 * t[k + 1], x0);
            dp[k] = m->E * (m->eps[t[k + 1]] - m->eps[t[0]]);
        }
        tc_v3_cross(cr, e[1], e[2]);
        double det = tc_v3_dot(e[0], cr);
        for (int k = 0; k < 3; k++) {
            tc_v3_cross(cr, e[(k + 1) % 3], e[(k + 2) % 3]);
            tc_v3_addscl(g, cr, dp[k] / det);
        }
        tc_v3_copy(m->grad + 3 * i, g);
        m->c[i] = m->E * m->eps[t[0]] - tc_v3_dot(g, x0);
        /* AABB, vertex average and the radius of the ball around it */
        double *lo = m->lo + 3 * i, *hi = m->hi + 3 * i, *ce = m->centre + 3 * i;
        tc_v3_copy(lo, x0);
        tc_v3_copy(hi, x0);
        tc_v3_set(ce, 0, 0, 0);
        for (int k = 0; k < 4; k++) {
            const double *x = m->vert + 3 * t[k];
            for (int j = 0; j < 3; j++) {
                lo[j] = fmin(lo[j], x[j]);
                hi[j] = fmax(hi[j], x[j]);
            }
            tc_v3_addscl(ce, x, 0.25);
        }
        double r = 0;
        for (int k = 0; k < 4; k++) {
            double d[3];
            tc_v3_sub(d, m->vert + 3 * t[k], ce);
            r = fmax(r, tc_v3_norm(d));
        }
        m->radius[i] = r;
    }
}

/* midpoint of edge (a, b) on the unit sphere, created once through an open-addressing table */
static int edge_mid(double *vert, int *nv, long long *key, int *val, int cap, int a, int b) {
    long long k = a < b ? (long long)a * 1000003LL + b : (long long)b * 1000003LL + a;
    unsigned long long h = (unsigned long long)k * 11400714819323198485ull;
    int s = (int)(h >> 40) & (cap - 1);
    while (key[s] >= 0 && key[s] != k)
        s = (s + 1) & (cap - 1);
    if (key[s] == k) return val[s];
    double *x = vert + 3 * *nv;
    tc_v3_add(x, vert + 3 * a, vert + 3 * b);
    tc_v3_normalize(x);
    key[s] = k;
    val[s] = *nv;
    return (*nv)++;
}

tc_status tc_tetmesh_sphere_alloc(tc_tetmesh **out, double r, int level, double E) {
    return tc_tetmesh_sphere_shells_alloc(out, r, level, 0, E);
}

/* the three tets of the prism between triangle (a, b, c) of shell k0 and the same triangle of
 * shell k1 (vertex v of shell k is k * nv + v): with x < y < z, the quad over edge (p, q), p < q,
 * is cut from p on shell k0 to q on shell k1, so neighbouring prisms share their diagonals */
static void prism_tets(int *t, const int *tri, int nv, int k0, int k1) {
    int s[3] = {tri[0], tri[1], tri[2]};
    tc_sort_int(s, 3);
    const int x = s[0], y = s[1], z = s[2];
    const int o = k0 * nv, i = k1 * nv;
    const int q[12] = {o + x, o + y, o + z, i + z, o + x, o + y,
                       i + y, i + z, o + x, i + x, i + y, i + z};
    memcpy(t, q, sizeof q);
}

tc_status tc_tetmesh_sphere_shells_alloc(tc_tetmesh **out, double r, int level, int shells,
                                         double E) {
    if (!(r > 0) || level < 0 || level > 6 || shells < 0 || shells > 64 || !(E > 0))
        return TC_EINVAL;
    int nf = 20, nvs = 12;
    for (int l = 0; l < level; l++) {
        nf *= 4;
        nvs = nvs + 3 * (nf / 4) / 2;
    }
    /* surface vertices 0..nvs-1 on the unit sphere, the centre last */
    double *vert = malloc(3 * (size_t)(nvs + 1) * sizeof *vert);
    int *tri = malloc(3 * (size_t)nf * sizeof *tri), *tmp = malloc(3 * (size_t)nf * sizeof *tmp);
    int cap = 1;
    while (cap < 4 * nf)
        cap *= 2;
    long long *key = malloc((size_t)cap * sizeof *key);
    int *val = malloc((size_t)cap * sizeof *val);
    tc_status st = TC_ENOMEM;
    if (!vert || !tri || !tmp || !key || !val) goto done;
    /* the icosahedron */
    const double p = (1 + sqrt(5.0)) / 2;
    const double iv[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0},
                              {0, -1, p}, {0, 1, p}, {0, -1, -p}, {0, 1, -p},
                              {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
    const int it[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                           {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                           {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                           {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int i = 0; i < 12; i++) {
        tc_v3_copy(vert + 3 * i, iv[i]);
        tc_v3_normalize(vert + 3 * i);
    }
    memcpy(tri, it, sizeof it);
    int nv = 12, ntri = 20;
    /* subdivide each triangle into four, sharing edge midpoints */
    for (int l = 0; l < level; l++) {
        for (int s = 0; s < cap; s++)
            key[s] = -1;
        for (int f = 0; f < ntri; f++) {
            int a = tri[3 * f], b = tri[3 * f + 1], c = tri[3 * f + 2];
            int ab = edge_mid(vert, &nv, key, val, cap, a, b);
            int bc = edge_mid(vert, &nv, key, val, cap, b, c);
            int ca = edge_mid(vert, &nv, key, val, cap, c, a);
            int q[12] = {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca};
            memcpy(tmp + 12 * f, q, sizeof q);
        }
        ntri *= 4;
        memcpy(tri, tmp, 3 * (size_t)ntri * sizeof *tri);
    }
    /* the radial scale that gives the polyhedron the ball's volume: the fan's tets from the
     * centre over the unit icosphere's triangles enclose V1 < 4 pi / 3 (inscribed), so every
     * vertex goes out to radius r (4 pi / (3 V1))^(1/3) */
    double V1 = 0;
    for (int f = 0; f < ntri; f++) {
        const double *a = vert + 3 * tri[3 * f], *b = vert + 3 * tri[3 * f + 1],
                     *c = vert + 3 * tri[3 * f + 2];
        double bc[3];
        tc_v3_cross(bc, b, c);
        V1 += tc_v3_dot(a, bc) / 6;
    }
    r *= cbrt(4 * M_PI / (3 * V1));
    /* shell spacing: the mean surface edge (unit sphere), at most 1 / (shells + 1) */
    double edge = 0;
    for (int f = 0; f < ntri; f++)
        for (int k = 0; k < 3; k++) {
            double d[3];
            tc_v3_sub(d, vert + 3 * tri[3 * f + k], vert + 3 * tri[3 * f + (k + 1) % 3]);
            edge += tc_v3_norm(d) / (3.0 * ntri);
        }
    const double dt = fmin(edge, 1.0 / (shells + 1));
    /* vertices: the surface, then shell k at radius r (1 - k dt) with eps = k dt, the centre last
     */
    tc_tetmesh *m;
    if ((st = tc_tetmesh_alloc(&m, (shells + 1) * nv + 1, ntri * (1 + 3 * shells), ntri, E)))
        goto done;
    for (int k = 0; k <= shells; k++)
        for (int i = 0; i < nv; i++) {
            tc_v3_scale(m->vert + 3 * (k * nv + i), vert + 3 * i, r * (1 - k * dt));
            m->eps[k * nv + i] = k * dt;
        }
    const int ctr = (shells + 1) * nv;
    tc_v3_set(m->vert + 3 * ctr, 0, 0, 0);
    m->eps[ctr] = 1;
    memcpy(m->tri, tri, 3 * (size_t)ntri * sizeof *tri);
    /* per surface triangle: its prisms from the surface inwards, then the core tet on the centre */
    int nt = 0;
    for (int f = 0; f < ntri; f++) {
        for (int k = 0; k < shells; k++, nt += 3)
            prism_tets(m->tet + 4 * nt, tri + 3 * f, nv, k, k + 1);
        int *t = m->tet + 4 * nt++;
        t[0] = ctr;
        t[1] = tri[3 * f] + shells * nv;
        t[2] = tri[3 * f + 1] + shells * nv;
        t[3] = tri[3 * f + 2] + shells * nv;
    }
    mesh_finish(m);
    *out = m;
done:
    free(vert);
    free(tri);
    free(tmp);
    free(key);
    free(val);
    return st;
}

tc_status tc_tetmesh_box_alloc(tc_tetmesh **out, const double h[3], double E) {
    if (!(h[0] > 0) || !(h[1] > 0) || !(h[2] > 0) || !(E > 0)) return TC_EINVAL;
    tc_tetmesh *m;
    tc_status st = tc_tetmesh_alloc(&m, 9, 12, 12, E);
    if (st) return st;
    /* corners: bit k of i selects +h[k]; the centre is vertex 8 */
    for (int i = 0; i < 8; i++) {
        for (int k = 0; k < 3; k++)
            m->vert[3 * i + k] = (i >> k & 1) ? h[k] : -h[k];
        m->eps[i] = 0;
    }
    tc_v3_set(m->vert + 24, 0, 0, 0);
    m->eps[8] = 1;
    /* faces as quads counter-clockwise from outside, two triangles each */
    static const int quad[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                   {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
    for (int f = 0; f < 6; f++) {
        int t0[3] = {quad[f][0], quad[f][1], quad[f][2]},
            t1[3] = {quad[f][0], quad[f][2], quad[f][3]};
        memcpy(m->tri + 6 * f, t0, sizeof t0);
        memcpy(m->tri + 6 * f + 3, t1, sizeof t1);
    }
    for (int i = 0; i < 12; i++) {
        int *t = m->tet + 4 * i;
        t[0] = 8;
        t[1] = m->tri[3 * i];
        t[2] = m->tri[3 * i + 1];
        t[3] = m->tri[3 * i + 2];
    }
    mesh_finish(m);
    *out = m;
    return TC_OK;
}

/* the three tets of the prism with triangles (p0, p1, p2) and (p3, p4, p5), p3 over p0 and so
 * on (Dompierre et al. 1999): turned so the smallest index comes first, each quad face is cut from
 * its smallest vertex, so prisms sharing a quad share its diagonal */
static void prism3(int *t, const int p[6]) {
    int m = 0;
    for (int k = 1; k < 6; k++)
        if (p[k] < p[m]) m = k;
    int v[6], base = m < 3 ? 0 : 3, r = m % 3;
    for (int k = 0; k < 3; k++) {
        v[k] = p[base + (r + k) % 3];
        v[3 + k] = p[3 - base + (r + k) % 3];
    }
    /* v0 the smallest; the quad (v1, v2, v5, v4) from its smallest vertex */
    int a = v[1] < v[5] ? v[1] : v[5], b = v[2] < v[4] ? v[2] : v[4];
    const int q1[12] = {v[0], v[1], v[2], v[5], v[0], v[1], v[5], v[4], v[0], v[4], v[5], v[3]};
    const int q2[12] = {v[0], v[1], v[2], v[4], v[0], v[4], v[2], v[5], v[0], v[4], v[5], v[3]};
    memcpy(t, a < b ? q1 : q2, sizeof q1);
}

tc_status tc_tetmesh_cylinder_alloc(tc_tetmesh **out, double r, double hl, int level, double E) {
    if (!(r > 0) || !(hl > 0) || level < 0 || level > 8 || !(E > 0)) return TC_EINVAL;
    const int n = 16 << level;
    const double a = r * cos(M_PI / n), tiny = 1e-9 * fmax(a, hl);
    /* the core (eps = 1): the axis segment |z| <= hl - a (long), the centre (hl = a) or the
     * disc z = 0 of apothem a - hl (flat) */
    int kind = hl - a > tiny ? 0 : a - hl > tiny ? 2 : 1;
    int nv = kind == 0 ? 2 * n + 4 : kind == 1 ? 2 * n + 3 : 3 * n + 3;
    int nt = kind == 0 ? 5 * n : kind == 1 ? 4 * n : 9 * n;
    tc_tetmesh *m;
    tc_status st = tc_tetmesh_alloc(&m, nv, nt, 4 * n, E);
    if (st) return st;
    /* rim vertices k (top, z = hl) and n + k (bottom), cap centres 2n (top) and 2n + 1 */
    for (int k = 0; k < n; k++) {
        double th = 2 * M_PI * k / n, c = r * cos(th), s = r * sin(th);
        tc_v3_set(m->vert + 3 * k, c, s, hl);
        tc_v3_set(m->vert + 3 * (n + k), c, s, -hl);
        m->eps[k] = m->eps[n + k] = 0;
        if (kind == 2) {
            tc_v3_set(m->vert + 3 * (2 * n + 3 + k), c * (a - hl) / a, s * (a - hl) / a, 0);
            m->eps[2 * n + 3 + k] = 1;
        }
    }
    const int ct = 2 * n, cb = 2 * n + 1, c0 = 2 * n + 2;
    tc_v3_set(m->vert + 3 * ct, 0, 0, hl);
    tc_v3_set(m->vert + 3 * cb, 0, 0, -hl);
    m->eps[ct] = m->eps[cb] = 0;
    tc_v3_set(m->vert + 3 * c0, 0, 0, kind == 0 ? hl - a : 0);
    m->eps[c0] = 1;
    if (kind == 0) {
        tc_v3_set(m->vert + 3 * (c0 + 1), 0, 0, a - hl);
        m->eps[c0 + 1] = 1;
    }
    /* surface: cap fans and side quads */
    for (int k = 0; k < n; k++) {
        int k1 = (k + 1) % n, *t = m->tri + 12 * k;
        const int q[12] = {ct, k, k1, cb, n + k1, n + k, k, n + k, n + k1, k, n + k1, k1};
        memcpy(t, q, sizeof q);
    }
    /* tets, sector by sector: eps = depth / min(a, hl) in each */
    int *t = m->tet;
    for (int k = 0; k < n; k++) {
        int k1 = (k + 1) % n;
        if (kind == 0) {
            /* cap pyramids on the segment's ends, the wedge between the segment and side k */
            const int c[8] = {c0, ct, k, k1, c0 + 1, cb, n + k, n + k1};
            memcpy(t, c, sizeof c);
            t += 8;
            const int w[6] = {c0, k, k1, c0 + 1, n + k, n + k1};
            prism3(t, w);
            t += 12;
        } else if (kind == 1) {
            /* cap pyramids and the side pyramid, all on the centre */
            const int c[16] = {c0, ct, k,  k1,     c0, cb, n + k,  n + k1,
                               c0, k,  k1, n + k1, c0, k,  n + k1, n + k};
            memcpy(t, c, sizeof c);
            t += 16;
        } else {
            /* cap frusta over the core disc's sector, the prism between core edge k and side k */
            int d = 2 * n + 3;
            const int pt[6] = {c0, d + k, d + k1, ct, k, k1},
                      pb[6] = {c0, d + k, d + k1, cb, n + k, n + k1};
            const int ps[6] = {d + k, k, n + k, d + k1, k1, n + k1};
            prism3(t, pt);
            t += 12;
            prism3(t, pb);
            t += 12;
            prism3(t, ps);
            t += 12;
        }
    }
    mesh_finish(m);
    *out = m;
    return TC_OK;
}

tc_status tc_tetmesh_shape_alloc(tc_tetmesh **m, const tc_shape *s, int level, double E) {
    switch (s->type) {
    case TC_SHAPE_SPHERE:
        return tc_tetmesh_sphere_alloc(m, s->size[0], level, E);
    case TC_SHAPE_BOX:
        return tc_tetmesh_box_alloc(m, s->size, E);
    case TC_SHAPE_CYLINDER:
        return tc_tetmesh_cylinder_alloc(m, s->size[0], s->size[1], level, E);
    default:
        return TC_EUNSUP;
    }
}

/* tet order entries sorted by one coordinate of the tet centre (ties by index: deterministic) */
typedef struct bvh_key {
    double k;
    int i;
} bvh_key;

static int bvh_key_cmp(const void *a, const void *b) {
    const bvh_key *x = a, *y = b;
    if (x->k != y->k) return x->k < y->k ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* the subtree over order[first .. first + n - 1] at level depth; returns its node index */
static int bvh_build(tc_tetbvh *b, const tc_tetmesh *m, bvh_key *key, int first, int n, int depth) {
    int id = b->nnode++;
    tc_tetbvh_node *nd = &b->node[id];
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
    /* the box of the tets' boxes and the box of their centres */
    for (int k = first; k < first + n; k++) {
        int t = b->order[k];
        for (int j = 0; j < 3; j++) {
            lo[j] = fmin(lo[j], m->lo[3 * t + j]);
            hi[j] = fmax(hi[j], m->hi[3 * t + j]);
            clo[j] = fmin(clo[j], m->centre[3 * t + j]);
            chi[j] = fmax(chi[j], m->centre[3 * t + j]);
        }
    }
    for (int j = 0; j < 3; j++) {
        nd->c[j] = 0.5 * (lo[j] + hi[j]);
        nd->e[j] = 0.5 * (hi[j] - lo[j]);
    }
    if (depth > b->depth) b->depth = depth;
    if (n <= TC_TETBVH_LEAF) {
        nd->first = first;
        nd->count = n;
        nd->left = nd->right = -1;
        return id;
    }
    /* median split along the longest axis of the centres */
    int ax = 0;
    for (int j = 1; j < 3; j++)
        if (chi[j] - clo[j] > chi[ax] - clo[ax]) ax = j;
    for (int k = 0; k < n; k++) {
        key[k].i = b->order[first + k];
        key[k].k = m->centre[3 * key[k].i + ax];
    }
    qsort(key, (size_t)n, sizeof *key, bvh_key_cmp);
    for (int k = 0; k < n; k++)
        b->order[first + k] = key[k].i;
    nd->first = first;
    nd->count = 0;
    int half = n / 2;
    int l = bvh_build(b, m, key, first, half, depth + 1);
    int r = bvh_build(b, m, key, first + half, n - half, depth + 1);
    b->node[id].left = l;
    b->node[id].right = r;
    return id;
}

tc_status tc_tetbvh_alloc(tc_tetbvh **out, const tc_tetmesh *m) {
    if (m->ntet < 1) return TC_EINVAL;
    tc_tetbvh *b = calloc(1, sizeof *b);
    bvh_key *key = malloc((size_t)m->ntet * sizeof *key);
    if (b) {
        b->node = malloc(2 * (size_t)m->ntet * sizeof *b->node);
        b->order = malloc((size_t)m->ntet * sizeof *b->order);
    }
    if (!b || !key || !b->node || !b->order) {
        free(key);
        tc_tetbvh_free(b);
        return TC_ENOMEM;
    }
    for (int i = 0; i < m->ntet; i++)
        b->order[i] = i;
    bvh_build(b, m, key, 0, m->ntet, 0);
    free(key);
    *out = b;
    return TC_OK;
}

void tc_tetbvh_free(tc_tetbvh *b) {
    if (!b) return;
    free(b->node);
    free(b->order);
    free(b);
}
