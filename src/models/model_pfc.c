/* SPDX-License-Identifier: MIT */
/* pressure field contact (hydroelastic): tractions on the equal-pressure surface of linear tet fields */
#include "geom/tc_tetmesh.h"
#include "math/tc_vec.h"
#include "models/tc_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a clipped polygon has at most 4 + 4 vertices (a tet's section cut by another tet's faces) */
#define PFC_MAXPOLY 16

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
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* one body's mesh and its world-frame copy, refreshed on every evaluation */
typedef struct pfc_body {
    tc_tetmesh *mesh; /* NULL for a rigid half-space (plane) */
    double *x;        /* 3 * nvert world vertices */
    double *g, *c;    /* 3 * ntet world gradients, ntet constants: p0(x) = g . x + c */
    double *lo, *hi;  /* 3 * ntet world AABBs */
    int *cand;        /* ntet: tets that meet the other body's AABB (capacity ntet: cannot
                       * overflow; tet pairs are processed as found, never stored) */
    double blo[3], bhi[3]; /* world AABB of the whole mesh */
} pfc_body;

typedef struct pfc_state {
    const tc_scene *scene;
    double d, vs, mu;
    int npair;
    int *pairs;     /* 2 * npair body indices */
    pfc_body *body; /* nbody */
} pfc_state;

static void pfc_free(void *state) {
    pfc_state *s = state;
    if (!s) return;
    if (s->body)
        for (int i = 0; i < s->scene->nbody; i++) {
            pfc_body *b = &s->body[i];
            tc_tetmesh_free(b->mesh);
            free(b->x), free(b->g), free(b->c), free(b->lo), free(b->hi), free(b->cand);
        }
    free(s->body), free(s->pairs), free(s);
}

static tc_status pfc_alloc(void **state, const tc_scene *scene, const tc_params *p,
                           tc_error *err) {
    int maxpair = scene->nbody * (scene->nbody - 1) / 2;
    pfc_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    s->pairs = malloc((size_t)(2 * maxpair + 2) * sizeof *s->pairs);
    s->body = calloc((size_t)(scene->nbody > 0 ? scene->nbody : 1), sizeof *s->body);
    if (!s->pairs || !s->body) return pfc_free(s), TC_ENOMEM;
    s->npair = tc_scene_pairs(scene, s->pairs);
    s->d = tc_params_get(p, "d"), s->vs = tc_params_get(p, "vs"), s->mu = scene->friction;
    double E = tc_params_get(p, "E");
    int level = (int)tc_params_get(p, "resolution");
    /* every pair: a soft body (sphere, box) against a soft body or a rigid plane */
    for (int i = 0; i < s->npair; i++) {
        tc_shape_type a = scene->body[s->pairs[2 * i]].shape.type,
                      b = scene->body[s->pairs[2 * i + 1]].shape.type;
        int sa = a == TC_SHAPE_SPHERE || a == TC_SHAPE_BOX, sb = b == TC_SHAPE_SPHERE || b == TC_SHAPE_BOX;
        if (!(sa && sb) && !(sa && b == TC_SHAPE_PLANE) && !(sb && a == TC_SHAPE_PLANE)) {
            pfc_free(s);
            return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL, "pfc: no %s-%s contact",
                                tc_shape_name(a), tc_shape_name(b));
        }
    }
    /* meshes and world-frame scratch for every soft body */
    for (int i = 0; i < scene->nbody; i++) {
        tc_shape_type t = scene->body[i].shape.type;
        if (t != TC_SHAPE_SPHERE && t != TC_SHAPE_BOX) continue;
        pfc_body *b = &s->body[i];
        tc_status st = tc_tetmesh_shape_alloc(&b->mesh, &scene->body[i].shape, level, E);
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
        if (!b->x || !b->g || !b->c || !b->lo || !b->hi || !b->cand) return pfc_free(s), TC_ENOMEM;
    }
    *state = s;
    return TC_OK;
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
            for (int k = 0; k < 3; k++) lo[k] = fmin(lo[k], x[k]), hi[k] = fmax(hi[k], x[k]);
        }
        for (int k = 0; k < 3; k++) b->blo[k] = fmin(b->blo[k], lo[k]), b->bhi[k] = fmax(b->bhi[k], hi[k]);
    }
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
    /* fan from the centroid; the edge-midpoint rule is exact for the quadratic integrands */
    for (int k = 0; k < n; k++) {
        const double *p1 = P[k], *p2 = P[(k + 1) % n];
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, p1, C), tc_v3_sub(e2, p2, C);
        tc_v3_cross(cr, e1, e2);
        double w = fabs(tc_v3_dot(cr, nrm)) / 6; /* area / 3 */
        if (w == 0) continue;
        const double *q1[3] = {C, p1, p2}, *q2[3] = {p1, p2, C};
        for (int i = 0; i < 3; i++) {
            double x[3], va[3], vb[3], vr[3], f[3], r[3], t[3];
            for (int j = 0; j < 3; j++) x[j] = 0.5 * (q1[i][j] + q2[i][j]);
            /* Hunt–Crossley pressure from the separation speed along the normal */
            tc_body_point_velocity(sa, x, va);
            tc_body_point_velocity(sb, x, vb);
            tc_v3_sub(vr, vb, va);
            double vn = tc_v3_dot(vr, nrm);
            double pr = (tc_v3_dot(g, x) + c) * (1 - s->d * vn);
            if (!(pr > 0)) continue;
            tc_v3_scale(f, nrm, pr * w);
            /* regularised Coulomb friction against the tangential slip */
            tc_v3_addscl(vr, nrm, -vn);
            double vt = tc_v3_norm(vr);
            if (vt > 0) tc_v3_addscl(f, vr, -s->mu * pr * w * (2 / M_PI) * atan(vt / s->vs) / vt);
            tc_v3_add(F, F, f);
            tc_v3_sub(r, x, sb->pos);
            tc_v3_cross(t, r, f);
            tc_v3_add(M, M, t);
        }
    }
    return 1;
}

/* two soft bodies: the plane {p0_a = p0_b} of every overlapping tet pair, clipped by both tets */
static int pair_soft_soft(const pfc_state *s, pfc_body *A, pfc_body *B, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3], long long *evals) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) lo[k] = fmax(A->blo[k], B->blo[k]), hi[k] = fmin(A->bhi[k], B->bhi[k]);
    if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) return 0;
    /* broad phase: the tets of each body inside the common box, then tet AABB pairs */
    int na = 0, nb = 0, active = 0;
    for (int i = 0; i < A->mesh->ntet; i++)
        if (aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, lo, hi)) A->cand[na++] = i;
    for (int i = 0; i < B->mesh->ntet; i++)
        if (aabb_overlap(B->lo + 3 * i, B->hi + 3 * i, lo, hi)) B->cand[nb++] = i;
    for (int ia = 0; ia < na; ia++) {
        int i = A->cand[ia];
        const int *ta = A->mesh->tet + 4 * i;
        const double *xa[4] = {A->x + 3 * ta[0], A->x + 3 * ta[1], A->x + 3 * ta[2], A->x + 3 * ta[3]};
        const double *ga = A->g + 3 * i;
        for (int ib = 0; ib < nb; ib++) {
            int j = B->cand[ib];
            if (!aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, B->lo + 3 * j, B->hi + 3 * j)) continue;
            (*evals)++;
            /* the equal-pressure plane n . x = h, n along grad p0_b - grad p0_a (a to b) */
            const double *gb = B->g + 3 * j;
            double n[3];
            tc_v3_sub(n, gb, ga);
            double gn = tc_v3_norm(n);
            if (!(gn > 1e-12 * (tc_v3_norm(ga) + tc_v3_norm(gb)))) continue;
            tc_v3_scale(n, n, 1 / gn);
            double h = (A->c[i] - B->c[j]) / gn;
            const int *tb = B->mesh->tet + 4 * j;
            const double *xb[4] = {B->x + 3 * tb[0], B->x + 3 * tb[1], B->x + 3 * tb[2], B->x + 3 * tb[3]};
            /* both tets must straddle the plane */
            double da[4], db[4], amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
            for (int k = 0; k < 4; k++) {
                da[k] = tc_v3_dot(n, xa[k]) - h, db[k] = tc_v3_dot(n, xb[k]) - h;
                amin = fmin(amin, da[k]), amax = fmax(amax, da[k]);
                bmin = fmin(bmin, db[k]), bmax = fmax(bmax, db[k]);
            }
            if (amin >= 0 || amax <= 0 || bmin >= 0 || bmax <= 0) continue;
            /* the plane inside the smaller tet, clipped by the other */
            int small = A->mesh->radius[i] <= B->mesh->radius[j];
            double P[PFC_MAXPOLY][3];
            int np = poly_plane_tet(P, small ? xa : xb, small ? da : db);
            const double *olo = small ? B->lo + 3 * j : A->lo + 3 * i, *ohi = small ? B->hi + 3 * j : A->hi + 3 * i;
            double plo[3], phi[3];
            tc_v3_copy(plo, P[0]), tc_v3_copy(phi, P[0]);
            for (int k = 1; k < np; k++)
                for (int m = 0; m < 3; m++) plo[m] = fmin(plo[m], P[k][m]), phi[m] = fmax(phi[m], P[k][m]);
            if (!aabb_overlap(plo, phi, olo, ohi)) continue;
            np = poly_clip_tet(P, np, small ? xb : xa);
            active += poly_integrate(s, P, np, n, ga, A->c[i], sa, sb, F, M);
        }
    }
    return active;
}

/* a soft body against a rigid half-space: the plane inside each tet it crosses */
static int pair_soft_plane(const pfc_state *s, pfc_body *S, const tc_body_state *ss,
                           const tc_body_state *sp, double F[3], double M[3], long long *evals) {
    /* the plane's outward normal is its body z axis: from the plane (a) to the soft body (b) */
    const double n[3] = {sp->R[2], sp->R[5], sp->R[8]};
    const double h = tc_v3_dot(n, sp->pos);
    int active = 0;
    for (int i = 0; i < S->mesh->ntet; i++) {
        const int *t = S->mesh->tet + 4 * i;
        const double *x[4] = {S->x + 3 * t[0], S->x + 3 * t[1], S->x + 3 * t[2], S->x + 3 * t[3]};
        double d[4], dmin = INFINITY, dmax = -INFINITY;
        for (int k = 0; k < 4; k++) {
            d[k] = tc_v3_dot(n, x[k]) - h;
            dmin = fmin(dmin, d[k]), dmax = fmax(dmax, d[k]);
        }
        if (dmin >= 0 || dmax <= 0) continue;
        (*evals)++;
        double P[PFC_MAXPOLY][3];
        int np = poly_plane_tet(P, x, d);
        active += poly_integrate(s, P, np, n, S->g + 3 * i, S->c[i], sp, ss, F, M);
    }
    return active;
}

static tc_status pfc_force(void *state, const tc_body_state *bs, tc_wrench *w,
                           tc_contact_stats *st) {
    pfc_state *s = state;
    const tc_scene *sc = s->scene;
    memset(w, 0, (size_t)sc->nbody * sizeof *w);
    /* every soft body into the world frame once */
    for (int i = 0; i < sc->nbody; i++)
        if (s->body[i].mesh) body_update(&s->body[i], &bs[i]);
    int active = 0;
    long long evals = 0;
    for (int i = 0; i < s->npair; i++) {
        int a = s->pairs[2 * i], b = s->pairs[2 * i + 1];
        /* force on b and its moment about b's COM */
        double F[3] = {0, 0, 0}, M[3] = {0, 0, 0};
        if (s->body[a].mesh && s->body[b].mesh)
            active += pair_soft_soft(s, &s->body[a], &s->body[b], &bs[a], &bs[b], F, M, &evals);
        else if (s->body[b].mesh)
            active += pair_soft_plane(s, &s->body[b], &bs[b], &bs[a], F, M, &evals);
        else {
            /* the soft body is a: the force on b (the plane) is the reaction */
            active += pair_soft_plane(s, &s->body[a], &bs[a], &bs[b], F, M, &evals);
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
              TC_SHAPE_BIT(TC_SHAPE_PLANE),
    .alloc = pfc_alloc,
    .force = pfc_force,
    .free = pfc_free,
};
