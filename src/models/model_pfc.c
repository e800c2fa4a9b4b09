/* SPDX-License-Identifier: MIT */
/* pressure field contact (hydroelastic): tractions on the equal-pressure surface of linear tet fields */
#include "geom/tc_tetmesh.h"
#include "geom/tc_tetmesh_build.h"
#include "math/tc_vec.h"
#include "models/tc_model.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a clipped polygon has at most 4 + 4 vertices (a tet's section cut by another tet's faces) */
#define PFC_MAXPOLY 16
/* node pairs waiting in the two-tree traversal: each level of either tree adds at most one, and
 * trees over int-counted tets by median splits are at most 32 levels deep */
#define PFC_STACK 80

static const tc_param_spec pfc_params[] = {
    {"E", 1.0e5, 1, 1e12, TC_PARAM_REAL, "Pa", "hydroelastic modulus: p0 = E eps",
     "soft rubber; a 5 cm ball 1 cm into a plane feels about pi E d^2 = 31 N, the order of "
     "hunt-crossley's default"},
    {"resolution", 3, 0, 5, TC_PARAM_INT, "1",
     "icosphere subdivision level of sphere meshes (20 4^level tets); boxes always have 12",
     "level 3 gives 1280 tets per sphere, the ~1k of the PFC papers' benchmarks"},
    {"d", 0.5, 0, 100, TC_PARAM_REAL, "s/m", "Hunt–Crossley dissipation of the pressure",
     "as hunt-crossley: restitution about 0.7 at 1 m/s impacts"},
    {"vs", 0.01, 1e-9, 10, TC_PARAM_REAL, "m/s", "stiction velocity of the friction law",
     "1 cm/s: below the speeds of interest, large enough for explicit steps"},
    {"shells", 0, 0, 16, TC_PARAM_INT, "1",
     "interior shells of sphere meshes (20 4^level (1 + 3 shells) tets, compact near the "
     "surface); the pressure field is the same for any count",
     "none: shells split the contact surface into more polygons, which costs more than the "
     "pairs they save at level 3 (touche bench pfc), and keep the friction quadrature as before"},
    {"bvh", 1, 0, 1, TC_PARAM_BOOL, "1",
     "broad phase by bounding volume trees over tets (0: the brute-force box filter over all tet "
     "pairs)",
     "same result to rounding (tested to 1e-12), far fewer tet pairs"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* min and max without fmin's NaN rules (inputs are finite), so they compile to one instruction */
static inline double pfc_min(double a, double b) { return b < a ? b : a; }
static inline double pfc_max(double a, double b) { return b > a ? b : a; }

/* one mesh (a body's, or one part of a compound's, in the body frame) and its world-frame copy,
 * refreshed on every evaluation */
typedef struct pfc_body {
    tc_tetmesh *mesh; /* NULL for a rigid half-space (plane) */
    double *x;        /* 3 * nvert world vertices */
    double *g, *c;    /* 3 * ntet world gradients, ntet constants: p0(x) = g . x + c */
    double *lo, *hi;  /* 3 * ntet world AABBs */
    double *fp;       /* 16 * ntet: per tet, per face (poly_clip_tet's order) the world inward
                       * normal n and a threshold: a point x with n . x < thr lies outside the
                       * face by a margin far above rounding */
    double *bfp;      /* 24 * ntet: the same faces in the body frame, built once: n (3), n . a
                       * (a: a vertex of the face), margins m0 = 2e-9 |n|_1 (1 + |a|_1) and
                       * m1 = 2e-9 |n|_1 (per metre of |pos|_1) */
    int *cand;        /* ntet: tets that meet the other body's AABB (capacity ntet: cannot
                       * overflow; tet pairs are processed as found, never stored) */
    tc_tetbvh *bvh;   /* tree over the tets (body frame), built once */
    double *prange;   /* 2 * ntet: least and greatest p0 of each tet (its vertex values, Pa) */
    int *vstamp, *tstamp; /* nvert, ntet: evaluation whose world copy of a vertex / tet is current */
    double blo[3], bhi[3]; /* world AABB of the whole mesh */
} pfc_body;

typedef struct pfc_state {
    const tc_scene *scene;
    double d, vs, mu;
    int use_bvh; /* 1: tree traversal with world copies made on demand; 0: brute force */
    int stamp;   /* evaluation counter for vstamp / tstamp */
    int npair;
    int *pairs;     /* 2 * npair body indices */
    int *nmesh;     /* nbody: meshes of each body (0 for a plane, npart for a compound, else 1) */
    pfc_body *body; /* nbody * TC_SHAPE_MAXPART: mesh k of body i at TC_SHAPE_MAXPART i + k */
} pfc_state;

/* mesh k of body i */
static inline pfc_body *pfc_mesh(const pfc_state *s, int i, int k) { return &s->body[TC_SHAPE_MAXPART * i + k]; }

static void pfc_free(void *state) {
    pfc_state *s = state;
    if (!s) return;
    if (s->body)
        for (int i = 0; i < TC_SHAPE_MAXPART * s->scene->nbody; i++) {
            pfc_body *b = &s->body[i];
            tc_tetmesh_free(b->mesh);
            free(b->x), free(b->g), free(b->c), free(b->lo), free(b->hi), free(b->cand), free(b->fp), free(b->bfp);
            tc_tetbvh_free(b->bvh), free(b->vstamp), free(b->tstamp), free(b->prange);
        }
    free(s->body), free(s->nmesh), free(s->pairs), free(s);
}

static void tet_faces_body(pfc_body *b, int i);

static tc_status pfc_alloc(void **state, const tc_scene *scene, const tc_params *p,
                           tc_error *err) {
    int maxpair = scene->nbody * (scene->nbody - 1) / 2;
    pfc_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    s->pairs = malloc((size_t)(2 * maxpair + 2) * sizeof *s->pairs);
    size_t nb = (size_t)(scene->nbody > 0 ? scene->nbody : 1);
    s->body = calloc(TC_SHAPE_MAXPART * nb, sizeof *s->body);
    s->nmesh = calloc(nb, sizeof *s->nmesh);
    if (!s->pairs || !s->body || !s->nmesh) return pfc_free(s), TC_ENOMEM;
    s->npair = tc_scene_pairs(scene, s->pairs);
    s->d = tc_params_get(p, "d"), s->vs = tc_params_get(p, "vs"), s->mu = scene->friction;
    double E = tc_params_get(p, "E");
    int level = (int)tc_params_get(p, "resolution"), shells = (int)tc_params_get(p, "shells");
    s->use_bvh = (int)tc_params_get(p, "bvh");
    /* every pair: a soft body (sphere, box, ellipsoid, compound) against a soft body or a rigid plane */
    for (int i = 0; i < s->npair; i++) {
        tc_shape_type a = scene->body[s->pairs[2 * i]].shape.type,
                      b = scene->body[s->pairs[2 * i + 1]].shape.type;
        if (a == TC_SHAPE_PLANE && b == TC_SHAPE_PLANE) {
            pfc_free(s);
            return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL, "pfc: no %s-%s contact",
                                tc_shape_name(a), tc_shape_name(b));
        }
    }
    /* meshes and world-frame scratch for every soft body: one per part of a compound, in the
     * order of the parts */
    for (int i = 0; i < scene->nbody; i++) {
        const tc_shape *sh = &scene->body[i].shape;
        if (sh->type == TC_SHAPE_PLANE) continue;
        s->nmesh[i] = sh->type == TC_SHAPE_COMPOUND ? sh->npart : 1;
        for (int k = 0; k < s->nmesh[i]; k++) {
            pfc_body *b = pfc_mesh(s, i, k);
            tc_shape ps = *sh;
            const double *off = NULL;
            if (sh->type == TC_SHAPE_COMPOUND) {
                ps = tc_box(0, 0, 0), ps.type = sh->part[k].type, off = sh->part[k].pos;
                memcpy(ps.size, sh->part[k].size, sizeof ps.size);
            }
            /* an ellipsoid: the icosphere at the resolution level scaled by the semi-axes */
            tc_status st = ps.type == TC_SHAPE_SPHERE
                               ? tc_tetmesh_sphere_shells_alloc(&b->mesh, ps.size[0], level, shells, E)
                           : ps.type == TC_SHAPE_ELLIPSOID
                               ? tc_tetmesh_ellipsoid_alloc(&b->mesh, ps.size, level, E, err)
                               : tc_tetmesh_shape_alloc(&b->mesh, &ps, level, E);
            /* a part's mesh moves to the part's place in the body frame; its fields follow */
            if (!st && off) {
                for (int v = 0; v < b->mesh->nvert; v++) tc_v3_add(b->mesh->vert + 3 * v, b->mesh->vert + 3 * v, off);
                tc_tetmesh_build_fields(b->mesh);
            }
            if (!st) st = tc_tetbvh_alloc(&b->bvh, b->mesh);
            if (!st && 2 * b->bvh->depth + 2 > PFC_STACK) st = TC_EUNSUP;
            if (st) {
                pfc_free(s);
                return tc_error_set(err, st, NULL, 0, NULL, "pfc: cannot mesh body '%s'",
                                    scene->body[i].name);
            }
            size_t nv = (size_t)b->mesh->nvert, nt = (size_t)b->mesh->ntet;
            b->x = malloc(3 * nv * sizeof *b->x);
            b->g = malloc(3 * nt * sizeof *b->g);
            b->c = malloc(nt * sizeof *b->c);
            b->lo = malloc(3 * nt * sizeof *b->lo);
            b->hi = malloc(3 * nt * sizeof *b->hi);
            b->cand = malloc(nt * sizeof *b->cand);
            b->fp = malloc(16 * nt * sizeof *b->fp);
            b->bfp = malloc(24 * nt * sizeof *b->bfp);
            b->vstamp = calloc(nv, sizeof *b->vstamp);
            b->tstamp = calloc(nt, sizeof *b->tstamp);
            b->prange = malloc(2 * nt * sizeof *b->prange);
            if (!b->x || !b->g || !b->c || !b->lo || !b->hi || !b->cand || !b->fp || !b->bfp || !b->vstamp || !b->tstamp || !b->prange)
                return pfc_free(s), TC_ENOMEM;
            for (size_t t = 0; t < nt; t++) tet_faces_body(b, (int)t);
            /* the pressure range of every tet (linear field: the extremes are at vertices) */
            for (size_t t = 0; t < nt; t++) {
                double lo = INFINITY, hi = -INFINITY;
                for (int v = 0; v < 4; v++) {
                    double p0 = b->mesh->E * b->mesh->eps[b->mesh->tet[4 * t + v]];
                    lo = pfc_min(lo, p0), hi = pfc_max(hi, p0);
                }
                b->prange[2 * t] = lo, b->prange[2 * t + 1] = hi;
            }
        }
    }
    *state = s;
    return TC_OK;
}

static const int pfc_face[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};

/* the face planes of tet i in the body frame (for the separating-face test), built at alloc:
 * inward normals (towards the fourth vertex), offsets and rounding margins */
static void tet_faces_body(pfc_body *b, int i) {
    const int *t = b->mesh->tet + 4 * i;
    const double *v = b->mesh->vert;
    const double *x[4] = {v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], v + 3 * t[3]};
    double *fp = b->bfp + 24 * i;
    for (int f = 0; f < 4; f++) {
        const double *a = x[pfc_face[f][0]];
        double e1[3], e2[3], e3[3], nf[3];
        tc_v3_sub(e1, x[pfc_face[f][1]], a), tc_v3_sub(e2, x[pfc_face[f][2]], a);
        tc_v3_sub(e3, x[pfc_face[f][3]], a);
        tc_v3_cross(nf, e1, e2);
        if (tc_v3_dot(nf, e3) < 0) tc_v3_scale(nf, nf, -1);
        double n1 = fabs(nf[0]) + fabs(nf[1]) + fabs(nf[2]);
        tc_v3_copy(fp + 6 * f, nf);
        fp[6 * f + 3] = tc_v3_dot(nf, a);
        fp[6 * f + 4] = 2e-9 * n1 * (1 + fabs(a[0]) + fabs(a[1]) + fabs(a[2]));
        fp[6 * f + 5] = 2e-9 * n1;
    }
}

/* the world face planes of tet i: n_w = R n, thr = n . a + n_w . pos - margin. The margin (in
 * metres, about 1e-9 (1 + |x|_1)) is far above the rounding of the world copy and of the clip,
 * so a pair rejected by the test has an empty clip */
static void tet_faces(pfc_body *b, const tc_body_state *bs, int i) {
    const double *bf = b->bfp + 24 * i;
    double *fp = b->fp + 16 * i, p1 = fabs(bs->pos[0]) + fabs(bs->pos[1]) + fabs(bs->pos[2]);
    for (int f = 0; f < 4; f++) {
        tc_m3_mulv(fp + 4 * f, bs->R, bf + 6 * f);
        fp[4 * f + 3] = bf[6 * f + 3] + tc_v3_dot(fp + 4 * f, bs->pos) - bf[6 * f + 4] - bf[6 * f + 5] * p1;
    }
}

/* 1 when a face of tet (planes fp) has all four points x strictly outside, by the margin */
static inline int faces_separate(const double *fp, const double *x[4]) {
    for (int f = 0; f < 4; f++) {
        const double *p = fp + 4 * f;
        if (tc_v3_dot(p, x[0]) < p[3] && tc_v3_dot(p, x[1]) < p[3] && tc_v3_dot(p, x[2]) < p[3] &&
            tc_v3_dot(p, x[3]) < p[3])
            return 1;
    }
    return 0;
}

/* move a body's vertices, fields and AABBs into the world frame */
static void body_update(pfc_body *b, const tc_body_state *bs) {
    const tc_tetmesh *m = b->mesh;
    for (int i = 0; i < m->nvert; i++) {
        tc_m3_mulv(b->x + 3 * i, bs->R, m->vert + 3 * i);
        tc_v3_add(b->x + 3 * i, b->x + 3 * i, bs->pos);
    }
    for (int k = 0; k < 3; k++) b->blo[k] = INFINITY, b->bhi[k] = -INFINITY;
    for (int i = 0; i < m->ntet; i++) {
        double *g = b->g + 3 * i, *lo = b->lo + 3 * i, *hi = b->hi + 3 * i;
        tc_m3_mulv(g, bs->R, m->grad + 3 * i);
        b->c[i] = m->c[i] - tc_v3_dot(g, bs->pos);
        tc_v3_copy(lo, b->x + 3 * m->tet[4 * i]), tc_v3_copy(hi, lo);
        for (int v = 1; v < 4; v++) {
            const double *x = b->x + 3 * m->tet[4 * i + v];
            for (int k = 0; k < 3; k++) lo[k] = pfc_min(lo[k], x[k]), hi[k] = pfc_max(hi[k], x[k]);
        }
        for (int k = 0; k < 3; k++) b->blo[k] = pfc_min(b->blo[k], lo[k]), b->bhi[k] = pfc_max(b->bhi[k], hi[k]);
        tet_faces(b, bs, i);
    }
}

/* tet i of a body in the world frame (its vertices, field and AABB, as body_update computes
 * them), made once per evaluation stamp */
static void tet_world(pfc_body *b, const tc_body_state *bs, int i, int stamp) {
    if (b->tstamp[i] == stamp) return;
    b->tstamp[i] = stamp;
    const tc_tetmesh *m = b->mesh;
    const int *t = m->tet + 4 * i;
    for (int v = 0; v < 4; v++) {
        if (b->vstamp[t[v]] == stamp) continue;
        b->vstamp[t[v]] = stamp;
        tc_m3_mulv(b->x + 3 * t[v], bs->R, m->vert + 3 * t[v]);
        tc_v3_add(b->x + 3 * t[v], b->x + 3 * t[v], bs->pos);
    }
    double *g = b->g + 3 * i, *lo = b->lo + 3 * i, *hi = b->hi + 3 * i;
    tc_m3_mulv(g, bs->R, m->grad + 3 * i);
    b->c[i] = m->c[i] - tc_v3_dot(g, bs->pos);
    tc_v3_copy(lo, b->x + 3 * t[0]), tc_v3_copy(hi, lo);
    for (int v = 1; v < 4; v++) {
        const double *x = b->x + 3 * t[v];
        for (int k = 0; k < 3; k++) lo[k] = pfc_min(lo[k], x[k]), hi[k] = pfc_max(hi[k], x[k]);
    }
    tet_faces(b, bs, i);
}

/* 1 when boxes [lo1, hi1] and [lo2, hi2] overlap */
static int aabb_overlap(const double *lo1, const double *hi1, const double *lo2, const double *hi2) {
    return lo1[0] <= hi2[0] && lo2[0] <= hi1[0] && lo1[1] <= hi2[1] && lo2[1] <= hi1[1] &&
           lo1[2] <= hi2[2] && lo2[2] <= hi1[2];
}

/* the polygon where the plane {s = 0} cuts a tet whose vertices x[4] have signed distances
 * s[4] of both signs (3 or 4 vertices, in order around the polygon); returns the count */
static int poly_plane_tet(double (*P)[3], const double *x[4], const double s[4]) {
    int pos[4], neg[4], np = 0, nn = 0, n = 0;
    for (int k = 0; k < 4; k++) {
        if (s[k] >= 0) pos[np++] = k;
        else neg[nn++] = k;
    }
    /* the crossing edges in cyclic order: (i,k) (i,l) (j,l) (j,k) for a 2-2 split */
    int e[4][2], ne = 0;
    if (np == 1 || nn == 1) {
        int a = np == 1 ? pos[0] : neg[0], *o = np == 1 ? neg : pos;
        for (int k = 0; k < 3; k++) e[ne][0] = a, e[ne++][1] = o[k];
    } else {
        int q[4][2] = {{pos[0], neg[0]}, {pos[0], neg[1]}, {pos[1], neg[1]}, {pos[1], neg[0]}};
        memcpy(e, q, sizeof q), ne = 4;
    }
    for (int k = 0; k < ne; k++) {
        const double *xi = x[e[k][0]], *xo = x[e[k][1]];
        double t = s[e[k][0]] / (s[e[k][0]] - s[e[k][1]]);
        for (int j = 0; j < 3; j++) P[n][j] = xi[j] + t * (xo[j] - xi[j]);
        n++;
    }
    return n;
}

/* Sutherland–Hodgman: keep the part of polygon P (n vertices) inside the tet with world
 * vertices x[4]; the result replaces P; returns its vertex count */
static int poly_clip_tet(double (*P)[3], int n, const double *x[4]) {
    static const int face[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};
    double Q[PFC_MAXPOLY][3];
    for (int f = 0; f < 4 && n > 0; f++) {
        /* the face through three vertices, oriented towards the fourth */
        const double *a = x[face[f][0]];
        double e1[3], e2[3], nf[3], e3[3];
        tc_v3_sub(e1, x[face[f][1]], a), tc_v3_sub(e2, x[face[f][2]], a);
        tc_v3_sub(e3, x[face[f][3]], a);
        tc_v3_cross(nf, e1, e2);
        if (tc_v3_dot(nf, e3) < 0) tc_v3_scale(nf, nf, -1);
        int m = 0;
        double dp[3];
        tc_v3_sub(dp, P[n - 1], a);
        double sp = tc_v3_dot(nf, dp);
        for (int k = 0; k < n; k++) {
            const double *pp = P[(k + n - 1) % n], *pk = P[k];
            double dk[3];
            tc_v3_sub(dk, pk, a);
            double sk = tc_v3_dot(nf, dk);
            /* an edge crossing the face adds its crossing point */
            if ((sp >= 0) != (sk >= 0) && m < PFC_MAXPOLY) {
                double t = sp / (sp - sk);
                for (int j = 0; j < 3; j++) Q[m][j] = pp[j] + t * (pk[j] - pp[j]);
                m++;
            }
            if (sk >= 0 && m < PFC_MAXPOLY) tc_v3_copy(Q[m++], pk);
            sp = sk;
        }
        memcpy(P, Q, (size_t)m * sizeof *Q);
        n = m;
    }
    return n;
}

/* integrate the tractions over polygon P (n vertices) with unit normal nrm pointing from body a
 * to body b and pressure field p0 = g . x + c: adds the force on b to F and its moment about b's
 * COM to M; returns 1 when the polygon has positive area */
static int poly_integrate(const pfc_state *s, double (*P)[3], int n, const double nrm[3],
                          const double g[3], double c, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3]) {
    if (n < 3) return 0;
    /* area centroid: continuous in the polygon, so the fan below appears with zero area */
    double A = 0, C[3] = {0, 0, 0};
    for (int k = 1; k + 1 < n; k++) {
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, P[k], P[0]), tc_v3_sub(e2, P[k + 1], P[0]);
        tc_v3_cross(cr, e1, e2);
        double a = 0.5 * tc_v3_dot(cr, nrm);
        A += a;
        for (int j = 0; j < 3; j++) C[j] += a * (P[0][j] + P[k][j] + P[k + 1][j]) / 3;
    }
    if (A == 0) return 0;
    tc_v3_scale(C, C, 1 / A);
    /* fan from the centroid; the edge-midpoint rule is exact for the quadratic integrands. Fan
     * triangle k (C, P_k, P_k+1) of weight w_k (area / 3) uses the midpoints of C P_k, P_k P_k+1
     * and C P_k+1: each point once, the spoke midpoint m_k with weight w_k-1 + w_k */
    double wt[PFC_MAXPOLY];
    for (int k = 0; k < n; k++) {
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, P[k], C), tc_v3_sub(e2, P[(k + 1) % n], C);
        tc_v3_cross(cr, e1, e2);
        wt[k] = fabs(tc_v3_dot(cr, nrm)) / 6;
    }
    double dv[3];
    tc_v3_sub(dv, sb->vel, sa->vel);
    /* both bodies at rest: v_r = 0 at every point, so p = p0 and no friction; the same sums as
     * the general loop below (its velocity terms are exact zeros there), with fewer operations */
    if (dv[0] == 0 && dv[1] == 0 && dv[2] == 0 && sa->omega[0] == 0 && sa->omega[1] == 0 &&
        sa->omega[2] == 0 && sb->omega[0] == 0 && sb->omega[1] == 0 && sb->omega[2] == 0) {
        for (int k = 0; k < 2 * n; k++) {
            int i = k / 2;
            double w = k & 1 ? wt[i] : wt[(i + n - 1) % n] + wt[i];
            if (w == 0) continue;
            const double *q = k & 1 ? P[(i + 1) % n] : C;
            double x[3], rb[3], f[3], t[3];
            for (int j = 0; j < 3; j++) x[j] = 0.5 * (P[i][j] + q[j]);
            double pr = tc_v3_dot(g, x) + c;
            if (!(pr > 0)) continue;
            tc_v3_sub(rb, x, sb->pos);
            tc_v3_scale(f, nrm, pr * w);
            tc_v3_add(F, F, f);
            tc_v3_cross(t, rb, f);
            tc_v3_add(M, M, t);
        }
        return 1;
    }
    for (int k = 0; k < 2 * n; k++) {
        /* even k: spoke midpoint of P_k/2; odd k: edge midpoint of P_k/2 P_k/2+1 */
        int i = k / 2;
        double w = k & 1 ? wt[i] : wt[(i + n - 1) % n] + wt[i];
        if (w == 0) continue;
        const double *q = k & 1 ? P[(i + 1) % n] : C;
        double x[3], ra[3], rb[3], vr[3], f[3], t[3], ca[3], cb[3];
        for (int j = 0; j < 3; j++) x[j] = 0.5 * (P[i][j] + q[j]);
        /* Hunt–Crossley pressure from the separation speed along the normal */
        tc_v3_sub(ra, x, sa->pos), tc_v3_sub(rb, x, sb->pos);
        tc_v3_cross(ca, sa->omega, ra), tc_v3_cross(cb, sb->omega, rb);
        for (int j = 0; j < 3; j++) vr[j] = dv[j] + cb[j] - ca[j];
        double vn = tc_v3_dot(vr, nrm);
        double pr = (tc_v3_dot(g, x) + c) * (1 - s->d * vn);
        if (!(pr > 0)) continue;
        tc_v3_scale(f, nrm, pr * w);
        /* regularised Coulomb friction against the tangential slip */
        tc_v3_addscl(vr, nrm, -vn);
        double vt = tc_v3_norm(vr);
        if (vt > 0) tc_v3_addscl(f, vr, -s->mu * pr * w * (2 / M_PI) * atan(vt / s->vs) / vt);
        tc_v3_add(F, F, f);
        tc_v3_cross(t, rb, f);
        tc_v3_add(M, M, t);
    }
    return 1;
}

/* the narrow phase of tet i of a against tet j of b (world copies current): their AABBs, the
 * equal-pressure plane, the section of the smaller tet clipped by the other; returns 1 for a
 * polygon of positive area */
static int tet_pair(const pfc_state *s, const pfc_body *A, const pfc_body *B, int i, int j,
                    const tc_body_state *sa, const tc_body_state *sb, double F[3], double M[3],
                    long long *evals) {
    if (!aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, B->lo + 3 * j, B->hi + 3 * j)) return 0;
    (*evals)++;
    const int *ta = A->mesh->tet + 4 * i;
    const double *xa[4] = {A->x + 3 * ta[0], A->x + 3 * ta[1], A->x + 3 * ta[2], A->x + 3 * ta[3]};
    const double *ga = A->g + 3 * i, *gb = B->g + 3 * j;
    const int *tb = B->mesh->tet + 4 * j;
    const double *xb[4] = {B->x + 3 * tb[0], B->x + 3 * tb[1], B->x + 3 * tb[2], B->x + 3 * tb[3]};
    /* separating faces: disjoint tets (by the margin) give an empty clip */
    if (faces_separate(A->fp + 16 * i, xb) || faces_separate(B->fp + 16 * j, xa)) return 0;
    /* quick rejection without roots: p0_a - p0_b must change sign over each tet's vertices */
    double Ea = A->mesh->E, Eb = B->mesh->E;
    int sa_pos = 0, sa_neg = 0, sb_pos = 0, sb_neg = 0;
    for (int k = 0; k < 4; k++) {
        double f = Ea * A->mesh->eps[ta[k]] - (tc_v3_dot(gb, xa[k]) + B->c[j]);
        sa_pos |= f > 0, sa_neg |= f < 0;
    }
    if (!sa_pos || !sa_neg) return 0;
    for (int k = 0; k < 4; k++) {
        double f = tc_v3_dot(ga, xb[k]) + A->c[i] - Eb * B->mesh->eps[tb[k]];
        sb_pos |= f > 0, sb_neg |= f < 0;
    }
    if (!sb_pos || !sb_neg) return 0;
    /* the equal-pressure plane n . x = h, n along grad p0_b - grad p0_a (a to b) */
    double n[3];
    tc_v3_sub(n, gb, ga);
    double gn = tc_v3_norm(n);
    if (!(gn > 1e-12 * (tc_v3_norm(ga) + tc_v3_norm(gb)))) return 0;
    tc_v3_scale(n, n, 1 / gn);
    double h = (A->c[i] - B->c[j]) / gn;
    /* both tets must straddle the plane */
    double da[4], db[4], amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    for (int k = 0; k < 4; k++) {
        da[k] = tc_v3_dot(n, xa[k]) - h, db[k] = tc_v3_dot(n, xb[k]) - h;
        amin = pfc_min(amin, da[k]), amax = pfc_max(amax, da[k]);
        bmin = pfc_min(bmin, db[k]), bmax = pfc_max(bmax, db[k]);
    }
    if (amin >= 0 || amax <= 0 || bmin >= 0 || bmax <= 0) return 0;
    /* the plane inside the smaller tet, clipped by the other */
    int small = A->mesh->radius[i] <= B->mesh->radius[j];
    double P[PFC_MAXPOLY][3];
    int np = poly_plane_tet(P, small ? xa : xb, small ? da : db);
    const double *olo = small ? B->lo + 3 * j : A->lo + 3 * i, *ohi = small ? B->hi + 3 * j : A->hi + 3 * i;
    double plo[3], phi[3];
    tc_v3_copy(plo, P[0]), tc_v3_copy(phi, P[0]);
    for (int k = 1; k < np; k++)
        for (int m = 0; m < 3; m++) plo[m] = pfc_min(plo[m], P[k][m]), phi[m] = pfc_max(phi[m], P[k][m]);
    if (!aabb_overlap(plo, phi, olo, ohi)) return 0;
    np = poly_clip_tet(P, np, small ? xb : xa);
    return poly_integrate(s, P, np, n, ga, A->c[i], sa, sb, F, M);
}

/* two soft bodies, brute force: the tets of each body inside the common box of the bodies'
 * AABBs, every pair of them through tet_pair */
static int pair_soft_soft(const pfc_state *s, pfc_body *A, pfc_body *B, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3], long long *evals) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) lo[k] = pfc_max(A->blo[k], B->blo[k]), hi[k] = pfc_min(A->bhi[k], B->bhi[k]);
    if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) return 0;
    /* broad phase: the tets of each body inside the common box, then tet AABB pairs */
    int na = 0, nb = 0, active = 0;
    for (int i = 0; i < A->mesh->ntet; i++)
        if (aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, lo, hi)) A->cand[na++] = i;
    for (int i = 0; i < B->mesh->ntet; i++)
        if (aabb_overlap(B->lo + 3 * i, B->hi + 3 * i, lo, hi)) B->cand[nb++] = i;
    for (int ia = 0; ia < na; ia++)
        for (int ib = 0; ib < nb; ib++) active += tet_pair(s, A, B, A->cand[ia], B->cand[ib], sa, sb, F, M, evals);
    return active;
}

/* two soft bodies through their trees: b's nodes are moved into a's body frame (the box of the
 * rotated box) and tested against a's; depth first, a fixed order, so the sums are reproducible;
 * leaf pairs go through tet_pair with world copies made on demand */
static int pair_soft_soft_bvh(const pfc_state *s, pfc_body *A, pfc_body *B, const tc_body_state *sa,
                              const tc_body_state *sb, double F[3], double M[3], long long *evals) {
    /* x_a = Rab x_b + tab, |Rab| for the half extents */
    double Rab[9], Rabs[9], tab[3], d[3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            Rab[3 * r + c] = sa->R[r] * sb->R[c] + sa->R[3 + r] * sb->R[3 + c] + sa->R[6 + r] * sb->R[6 + c];
            Rabs[3 * r + c] = fabs(Rab[3 * r + c]);
        }
    tc_v3_sub(d, sb->pos, sa->pos);
    for (int r = 0; r < 3; r++) tab[r] = sa->R[r] * d[0] + sa->R[3 + r] * d[1] + sa->R[6 + r] * d[2];
    /* a margin far above rounding keeps the test conservative */
    const tc_tetbvh_node *na = A->bvh->node, *nb = B->bvh->node;
    double tol = 1e-12 * (1 + fabs(tab[0]) + fabs(tab[1]) + fabs(tab[2]));
    for (int k = 0; k < 3; k++) tol += 1e-12 * (na[0].e[k] + nb[0].e[k] + fabs(na[0].c[k]) + fabs(nb[0].c[k]));
    int stack[PFC_STACK][2], top = 0, active = 0;
    stack[top][0] = 0, stack[top++][1] = 0;
    while (top > 0) {
        top--;
        const tc_tetbvh_node *a = &na[stack[top][0]], *b = &nb[stack[top][1]];
        int ia = stack[top][0], ib = stack[top][1], miss = 0;
        /* b's box in a's frame against a's box */
        for (int r = 0; r < 3 && !miss; r++) {
            double c = Rab[3 * r] * b->c[0] + Rab[3 * r + 1] * b->c[1] + Rab[3 * r + 2] * b->c[2] + tab[r];
            double e = Rabs[3 * r] * b->e[0] + Rabs[3 * r + 1] * b->e[1] + Rabs[3 * r + 2] * b->e[2];
            miss = fabs(c - a->c[r]) > a->e[r] + e + tol;
        }
        if (miss) continue;
        /* two leaves: their tet pairs in leaf order */
        if (a->count && b->count) {
            for (int p = a->first; p < a->first + a->count; p++) {
                int i = A->bvh->order[p];
                tet_world(A, sa, i, s->stamp);
                for (int q = b->first; q < b->first + b->count; q++) {
                    int j = B->bvh->order[q];
                    /* disjoint pressure ranges: p0_a = p0_b nowhere in the tets' overlap */
                    if (A->prange[2 * i + 1] < B->prange[2 * j] || B->prange[2 * j + 1] < A->prange[2 * i]) continue;
                    tet_world(B, sb, j, s->stamp);
                    active += tet_pair(s, A, B, i, j, sa, sb, F, M, evals);
                }
            }
            continue;
        }
        /* descend the larger box (a leaf never): the left child is popped first */
        int down_a = b->count || (!a->count && a->e[0] + a->e[1] + a->e[2] >= b->e[0] + b->e[1] + b->e[2]);
        if (down_a) {
            stack[top][0] = a->right, stack[top++][1] = ib;
            stack[top][0] = a->left, stack[top++][1] = ib;
        } else {
            stack[top][0] = ia, stack[top++][1] = b->right;
            stack[top][0] = ia, stack[top++][1] = b->left;
        }
    }
    return active;
}

/* tet i of a soft body against the half-space {n . x < h}: its section by the plane */
static int tet_plane(const pfc_state *s, const pfc_body *S, int i, const double n[3], double h,
                     const tc_body_state *ss, const tc_body_state *sp, double F[3], double M[3],
                     long long *evals) {
    const int *t = S->mesh->tet + 4 * i;
    const double *x[4] = {S->x + 3 * t[0], S->x + 3 * t[1], S->x + 3 * t[2], S->x + 3 * t[3]};
    double d[4], dmin = INFINITY, dmax = -INFINITY;
    for (int k = 0; k < 4; k++) {
        d[k] = tc_v3_dot(n, x[k]) - h;
        dmin = pfc_min(dmin, d[k]), dmax = pfc_max(dmax, d[k]);
    }
    if (dmin >= 0 || dmax <= 0) return 0;
    (*evals)++;
    double P[PFC_MAXPOLY][3];
    int np = poly_plane_tet(P, x, d);
    return poly_integrate(s, P, np, n, S->g + 3 * i, S->c[i], sp, ss, F, M);
}

/* a soft body against a rigid half-space: the plane inside each tet it crosses (all tets, or
 * the leaves of the tree whose boxes the plane cuts, in tree order) */
static int pair_soft_plane(const pfc_state *s, pfc_body *S, const tc_body_state *ss,
                           const tc_body_state *sp, double F[3], double M[3], long long *evals) {
    /* the plane's outward normal is its body z axis: from the plane (a) to the soft body (b) */
    const double n[3] = {sp->R[2], sp->R[5], sp->R[8]};
    const double h = tc_v3_dot(n, sp->pos);
    int active = 0;
    if (!s->use_bvh) {
        for (int i = 0; i < S->mesh->ntet; i++) active += tet_plane(s, S, i, n, h, ss, sp, F, M, evals);
        return active;
    }
    /* the plane in the soft body's frame: nb . x = hb */
    double nb[3], hb = h - tc_v3_dot(n, ss->pos);
    for (int k = 0; k < 3; k++) nb[k] = ss->R[k] * n[0] + ss->R[3 + k] * n[1] + ss->R[6 + k] * n[2];
    const tc_tetbvh_node *nd = S->bvh->node;
    double tol = 1e-12 * (1 + fabs(hb) + nd[0].e[0] + nd[0].e[1] + nd[0].e[2]);
    int stack[PFC_STACK], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const tc_tetbvh_node *b = &nd[stack[--top]];
        double dc = tc_v3_dot(nb, b->c) - hb;
        if (fabs(dc) > fabs(nb[0]) * b->e[0] + fabs(nb[1]) * b->e[1] + fabs(nb[2]) * b->e[2] + tol) continue;
        if (!b->count) {
            stack[top++] = b->right, stack[top++] = b->left;
            continue;
        }
        for (int p = b->first; p < b->first + b->count; p++) {
            int i = S->bvh->order[p];
            tet_world(S, ss, i, s->stamp);
            active += tet_plane(s, S, i, n, h, ss, sp, F, M, evals);
        }
    }
    return active;
}

static tc_status pfc_force(void *state, const tc_body_state *bs, tc_wrench *w,
                           tc_contact_stats *st) {
    pfc_state *s = state;
    const tc_scene *sc = s->scene;
    memset(w, 0, (size_t)sc->nbody * sizeof *w);
    /* every soft body into the world frame once (brute force), or a new stamp for world copies
     * made on demand (trees; the stamps restart before the counter overflows) */
    if (!s->use_bvh) {
        for (int i = 0; i < sc->nbody; i++)
            for (int k = 0; k < s->nmesh[i]; k++) body_update(pfc_mesh(s, i, k), &bs[i]);
    } else if (++s->stamp == INT_MAX) {
        for (int i = 0; i < sc->nbody; i++)
            for (int k = 0; k < s->nmesh[i]; k++) {
                pfc_body *m = pfc_mesh(s, i, k);
                memset(m->vstamp, 0, (size_t)m->mesh->nvert * sizeof(int));
                memset(m->tstamp, 0, (size_t)m->mesh->ntet * sizeof(int));
            }
        s->stamp = 1;
    }
    int active = 0;
    long long evals = 0;
    for (int i = 0; i < s->npair; i++) {
        int a = s->pairs[2 * i], b = s->pairs[2 * i + 1];
        /* force on b and its moment about b's COM, summed over the meshes (parts) of both in
         * the parts' order */
        double F[3] = {0, 0, 0}, M[3] = {0, 0, 0};
        if (s->nmesh[a] && s->nmesh[b]) {
            for (int ka = 0; ka < s->nmesh[a]; ka++)
                for (int kb = 0; kb < s->nmesh[b]; kb++)
                    active += (s->use_bvh ? pair_soft_soft_bvh : pair_soft_soft)(
                        s, pfc_mesh(s, a, ka), pfc_mesh(s, b, kb), &bs[a], &bs[b], F, M, &evals);
        } else if (s->nmesh[b]) {
            for (int kb = 0; kb < s->nmesh[b]; kb++)
                active += pair_soft_plane(s, pfc_mesh(s, b, kb), &bs[b], &bs[a], F, M, &evals);
        } else {
            /* the soft body is a: the force on b (the plane) is the reaction */
            for (int ka = 0; ka < s->nmesh[a]; ka++)
                active += pair_soft_plane(s, pfc_mesh(s, a, ka), &bs[a], &bs[b], F, M, &evals);
            double r[3], t[3];
            tc_v3_sub(r, bs[a].pos, bs[b].pos);
            tc_v3_cross(t, r, F);
            tc_v3_add(M, M, t);
            tc_v3_scale(F, F, -1), tc_v3_scale(M, M, -1);
        }
        if (tc_nonfinite(F, 3) || tc_nonfinite(M, 3)) return TC_EDIVERGED;
        /* b gets F and M; a the opposite force with its moment about a's COM */
        double r[3], t[3];
        tc_v3_sub(r, bs[b].pos, bs[a].pos);
        tc_v3_cross(t, r, F);
        tc_v3_add(t, t, M);
        tc_v3_add(w[b].f, w[b].f, F), tc_v3_add(w[b].t, w[b].t, M);
        tc_v3_sub(w[a].f, w[a].f, F), tc_v3_sub(w[a].t, w[a].t, t);
    }
    if (st) st->ncontact = active, st->pair_evals += evals;
    return TC_OK;
}

const tc_model_type tc_model_pfc = {
    .name = "pfc",
    .summary = "pressure field (hydroelastic) contact on linear tet fields, Hunt–Crossley "
               "dissipation and regularised Coulomb friction",
    .reference = "Elandt, Drumwright, Sherman & Ruina 2019; MODELS.md section 2",
    .params = pfc_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_SMOOTH,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND) |
              TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID),
    .alloc = pfc_alloc,
    .force = pfc_force,
    .free = pfc_free,
};
