/* SPDX-License-Identifier: MIT */
/* points: Kaufman, Edmunds & Pai 2005's multi-point contacts. Every body is a set of surface
 * points; at the poses the solver asks about (its half step), each point of body A inside body B
 * (B's signed distance g(x) < 0) is a contact with B's outward normal there. No force law: a
 * solver that resolves contacts (velocity projection) does the rest. Candidate pairs come from a
 * uniform-grid broad phase (collide/tc_broadphase.h), so a pile's cost grows with its bodies, not
 * their square */
#include "geom/tc_morton.h"
#include "models/tc_model_points.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tc_param_spec points_params[] = {
    {"spacing_rel", 0.25, 1e-3, 10, TC_PARAM_REAL, "1",
     "surface sample spacing over the body's bounding radius (neighbouring samples at most this "
     "far apart on every face; box and polytope vertices always included)",
     "rigid's and the penalty models' default: a cube gets a 6 x 6 lattice a face (152 points), "
     "a sphere 362"},
    {"margin", 0, 0, 1, TC_PARAM_REAL, "m",
     "points up to this far outside the other body are contacts too (depth >= -margin); 0: only "
     "penetrating points (g < 0)",
     "Kaufman et al.'s contact set is the points inside the other body at the half step"},
    {"pair_cap", 32, 1, 4096, TC_PARAM_INT, "1",
     "broad-phase capacity: candidate pairs a body, besides one per plane (pairs beyond it are "
     "dropped and counted)",
     "cubes packed face to face: a cube's bounding sphere meets 26 neighbours' (13 pairs a body); "
     "room for mixed sizes"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* the shapes points samples */
#define POINTS_SHAPES                                                                              \
    (TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE) |   \
     TC_SHAPE_BIT(TC_SHAPE_CYLINDER) | TC_SHAPE_BIT(TC_SHAPE_POLYTOPE) |                           \
     TC_SHAPE_BIT(TC_SHAPE_COMPOUND))

/* one body: its samples, its curved parts, and for a compound its parts as shapes */
typedef struct pts_body {
    const tc_shape *shape;
    int plane;     /* an infinite plane: no samples */
    int off, np;   /* samples sample[off .. off + np), body frame */
    int c0, nc;    /* chunk[c0 .. c0 + nc): CHUNK consecutive samples each (the last fewer) */
    double radius; /* bounding radius about the body origin (m) */
    int nsph;      /* spheres whose deepest point is also a sample */
    double sph[TC_SHAPE_MAXPART][4];  /* their centres (m, body frame) and radii (m) */
    int sphpart[TC_SHAPE_MAXPART];    /* a compound's: which part each is */
    int cyl;                          /* a cylinder: its support point against a plane too */
    int npart;                        /* compound: parts for the signed distance */
    int part0;                        /* its parts are part[part0 .. part0 + npart) */
    double ppos[TC_SHAPE_MAXPART][3]; /* their centres (m, body frame) */
} pts_body;

typedef struct points_state {
    int nbody;
    pts_body *body;
    double (*sample)[3]; /* every body's samples, one after another */
    int nsample, capsample;
    tc_shape *part; /* the compounds' parts as spheres and boxes */
    int npart;
    double (*chunk)[4]; /* every body's chunks: centre (m, body frame) and radius (m) */
    int nchunk;
    double margin; /* m */
    tc_broadphase *bp;
} points_state;

void tc_points_free(void *state) {
    points_state *s = state;
    if (!s) return;
    free(s->body);
    free(s->sample);
    free(s->part);
    free(s->chunk);
    tc_broadphase_free(s->bp);
    free(s);
}

/* a shape's bounding radius about its origin (m); INFINITY for a plane */
static double bound_radius(const tc_shape *sh) {
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        return sh->size[0];
    case TC_SHAPE_BOX:
        return tc_v3_norm(sh->size);
    case TC_SHAPE_CYLINDER:
        return hypot(sh->size[0], sh->size[1]);
    case TC_SHAPE_POLYTOPE:
        return tc_polytope_radius(sh);
    case TC_SHAPE_COMPOUND: {
        double r = 0;
        for (int k = 0; k < sh->npart; k++) {
            const tc_shape_part *p = &sh->part[k];
            double rp = p->type == TC_SHAPE_SPHERE ? p->size[0] : tc_v3_norm(p->size);
            r = fmax(r, tc_v3_norm(p->pos) + rp);
        }
        return r;
    }
    default:
        return INFINITY;
    }
}

/* append one sample to the state's array, growing it (alloc time only) */
static tc_status push_sample(points_state *s, const double p[3]) {
    if (s->nsample == s->capsample) {
        int cap = s->capsample ? 2 * s->capsample : 1024;
        void *q = realloc(s->sample, (size_t)cap * sizeof *s->sample);
        if (!q) return TC_ENOMEM;
        s->sample = q;
        s->capsample = cap;
    }
    tc_v3_copy(s->sample[s->nsample++], p);
    return TC_OK;
}

/* signed distance (m) of body-frame point y to body b's surface and its outward normal there
 * (body frame): tc_shape_distance, for a compound the least over its parts (that part's normal) */
static double body_distance(const points_state *s, const pts_body *b, const double y[3],
                            double n[3]) {
    if (!b->npart) return tc_shape_distance(b->shape, y, n);
    double best = INFINITY, q[3], nk[3];
    for (int k = 0; k < b->npart; k++) {
        tc_v3_sub(q, y, b->ppos[k]);
        double d = tc_shape_distance(&s->part[b->part0 + k], q, nk);
        if (d < best) {
            best = d;
            tc_v3_copy(n, nk);
        }
    }
    return best;
}

/* a lower bound on body b's signed distance at body-frame point y that costs little: for a
 * polytope the largest of its face planes' distances (tc_shape_distance's own first pass, so
 * equal to it inside and below it outside), for other shapes -INFINITY (no bound) */
static double distance_bound(const pts_body *b, const double y[3]) {
    const tc_shape *sh = b->shape;
    if (sh->type != TC_SHAPE_POLYTOPE) return -INFINITY;
    const tc_hull *h = sh->hull;
    double best = -INFINITY;
    for (int f = 0; f < h->nface; f++) {
        double e = tc_v3_dot(h->face[f], y) - h->face[f][3];
        best = e > best ? e : best;
    }
    return best;
}

/* signed distance of body-frame point y to compound b's parts other than k, the least */
static double other_parts(const points_state *s, const pts_body *b, int k, const double y[3]) {
    double best = INFINITY, q[3], n[3];
    for (int j = 0; j < b->npart; j++) {
        if (j == k) continue;
        tc_v3_sub(q, y, b->ppos[j]);
        best = fmin(best, tc_shape_distance(&s->part[b->part0 + j], q, n));
    }
    return best;
}

/* a compound's samples: each part's surface, less the points inside another part and the points
 * on the faces two parts share (every outward normal of the point leads into another part), and
 * less a point that a lower part already gave (the rims of shared faces) */
static tc_status sample_compound(points_state *s, pts_body *b, double h, tc_error *err) {
    const tc_shape *sh = b->shape;
    double tol = 1e-9 * b->radius, eps = 1e-6 * b->radius;
    int first[TC_SHAPE_MAXPART + 1];
    for (int k = 0; k < sh->npart; k++) {
        first[k] = s->nsample;
        tc_surface S;
        tc_status st = tc_surface_alloc(&S, &s->part[b->part0 + k], h, err);
        if (st) return st;
        for (int i = 0; i < S.npoint && !st; i++) {
            double p[3], q[3], n[3];
            tc_v3_add(p, S.p[i], b->ppos[k]);
            /* inside another part: not on the union's surface */
            if (other_parts(s, b, k, p) < -tol) continue;
            /* on a shared face: every face direction at the point is covered by another part */
            int open = 0;
            for (int m = 0; m < S.nn[i] && !open; m++) {
                tc_v3_copy(q, p);
                tc_v3_addscl(q, S.n[i][m], eps);
                open = !(other_parts(s, b, k, q) < -0.5 * eps);
            }
            if (!open) continue;
            /* already given by a lower part whose surface it lies on */
            int dup = 0;
            for (int j = 0; j < k && !dup; j++) {
                tc_v3_sub(q, p, b->ppos[j]);
                if (fabs(tc_shape_distance(&s->part[b->part0 + j], q, n)) > tol) continue;
                for (int t = first[j]; t < first[j + 1] && !dup; t++) {
                    tc_v3_sub(q, p, s->sample[t]);
                    dup = tc_v3_dot(q, q) <= tol * tol;
                }
            }
            if (!dup) st = push_sample(s, p);
        }
        tc_surface_free(&S);
        if (st) return st;
        first[k + 1] = s->nsample;
    }
    return TC_OK;
}

/* body i: bounding radius, samples (tc_surface's points at spacing h = spacing_rel radius), the
 * spheres and cylinders whose deepest points are added at query time, a compound's parts */
static tc_status prepare_body(points_state *s, int i, const tc_shape *sh, double spacing_rel,
                              tc_error *err) {
    pts_body *b = &s->body[i];
    b->shape = sh;
    b->off = s->nsample;
    b->radius = bound_radius(sh);
    if (!(TC_SHAPE_BIT(sh->type) & POINTS_SHAPES))
        return tc_error_set(err, TC_EUNSUP, "", 0, "",
                            "points: no surface samples for shape '%s' of body %d (sphere, box, "
                            "plane, cylinder, polytope, compound)",
                            tc_shape_name(sh->type), i);
    tc_status st = tc_shape_check(sh, err);
    if (st) return st;
    if (sh->type == TC_SHAPE_PLANE) {
        b->plane = 1;
        return TC_OK;
    }
    double h = spacing_rel * b->radius;
    if (sh->type == TC_SHAPE_COMPOUND) {
        /* the parts as shapes, then their samples */
        b->npart = sh->npart;
        b->part0 = s->npart;
        for (int k = 0; k < sh->npart; k++) {
            const tc_shape_part *p = &sh->part[k];
            s->part[s->npart++] = p->type == TC_SHAPE_SPHERE
                                      ? tc_sphere(p->size[0])
                                      : tc_box(p->size[0], p->size[1], p->size[2]);
            tc_v3_copy(b->ppos[k], p->pos);
            if (p->type == TC_SHAPE_SPHERE) {
                tc_v3_copy(b->sph[b->nsph], p->pos);
                b->sph[b->nsph][3] = p->size[0];
                b->sphpart[b->nsph++] = k;
            }
        }
        st = sample_compound(s, b, h, err);
    } else {
        /* a convex shape's surface points, as the penalty models sample them */
        tc_surface S;
        st = tc_surface_alloc(&S, sh, h, err);
        if (st) return st;
        for (int k = 0; k < S.npoint && !st; k++)
            st = push_sample(s, S.p[k]);
        tc_surface_free(&S);
        if (sh->type == TC_SHAPE_SPHERE) {
            b->nsph = 1;
            b->sph[0][3] = sh->size[0];
        }
        b->cyl = sh->type == TC_SHAPE_CYLINDER;
    }
    b->np = s->nsample - b->off;
    return st;
}

/* samples a chunk holds: a bounding sphere and one distance evaluation skip them together */
#define CHUNK 16

/* body b's samples along a Morton curve (runs of CHUNK are compact patches), then its chunks:
 * each run's bounding-box centre and the largest distance of its samples from it */
static tc_status chunk_body(points_state *s, pts_body *b) {
    double(*P)[3] = s->sample + b->off;
    int *order = malloc((size_t)(b->np + 1) * sizeof *order);
    double(*tmp)[3] = malloc((size_t)(b->np + 1) * sizeof *tmp);
    if (!order || !tmp || tc_morton_order(b->np, &P[0][0], &P[0][1], &P[0][2], 3, order)) {
        free(order);
        free(tmp);
        return TC_ENOMEM;
    }
    for (int j = 0; j < b->np; j++)
        tc_v3_copy(tmp[j], P[order[j]]);
    memcpy(P, tmp, (size_t)b->np * sizeof *P);
    free(order);
    free(tmp);
    /* the chunks' bounding spheres */
    b->c0 = s->nchunk;
    b->nc = (b->np + CHUNK - 1) / CHUNK;
    for (int c = 0; c < b->nc; c++) {
        int i0 = c * CHUNK, i1 = i0 + CHUNK < b->np ? i0 + CHUNK : b->np;
        double clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int i = i0; i < i1; i++)
            for (int k = 0; k < 3; k++) {
                clo[k] = fmin(clo[k], P[i][k]);
                chi[k] = fmax(chi[k], P[i][k]);
            }
        double *ch = s->chunk[s->nchunk++], r = 0, e[3];
        for (int k = 0; k < 3; k++)
            ch[k] = 0.5 * (clo[k] + chi[k]);
        for (int i = i0; i < i1; i++) {
            tc_v3_sub(e, P[i], ch);
            r = fmax(r, tc_v3_norm(e));
        }
        ch[3] = r;
    }
    return TC_OK;
}

tc_status tc_points_alloc(void **state, int nbody, const tc_shape *const *shape,
                          const unsigned char *fixed, const tc_params *p, tc_error *err) {
    *state = NULL;
    points_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->nbody = nbody;
    s->margin = tc_params_get(p, "margin");
    int nparts = 0;
    for (int i = 0; i < nbody; i++)
        if (shape[i]->type == TC_SHAPE_COMPOUND) nparts += shape[i]->npart;
    s->body = calloc((size_t)nbody + 1, sizeof *s->body);
    s->part = calloc((size_t)nparts + 1, sizeof *s->part);
    double *radius = calloc((size_t)nbody + 1, sizeof *radius);
    if (!s->body || !s->part || !radius) {
        free(radius);
        tc_points_free(s);
        return TC_ENOMEM;
    }
    /* every body's samples, then the broad phase over their bounding spheres */
    tc_status st = TC_OK;
    double spacing = tc_params_get(p, "spacing_rel");
    for (int i = 0; i < nbody && !st; i++) {
        st = prepare_body(s, i, shape[i], spacing, err);
        radius[i] = s->body[i].radius;
    }
    /* the chunks: one array sized for every body's */
    int nch = 0;
    for (int i = 0; i < nbody && !st; i++)
        nch += (s->body[i].np + CHUNK - 1) / CHUNK;
    if (!st && !(s->chunk = calloc((size_t)nch + 1, sizeof *s->chunk))) st = TC_ENOMEM;
    for (int i = 0; i < nbody && !st; i++)
        st = chunk_body(s, &s->body[i]);
    if (!st)
        st = tc_broadphase_alloc(&s->bp, nbody, radius, fixed, (int)tc_params_get(p, "pair_cap"),
                                 s->margin, err);
    free(radius);
    if (st) {
        tc_points_free(s);
        return st;
    }
    *state = s;
    return TC_OK;
}

static tc_status points_alloc(void **state, const tc_scene *scene, const tc_params *p,
                              tc_error *err) {
    const tc_shape *shape[TC_SCENE_MAXBODY];
    unsigned char fixed[TC_SCENE_MAXBODY];
    for (int i = 0; i < scene->nbody; i++) {
        shape[i] = &scene->body[i].shape;
        fixed[i] = scene->body[i].joint == TC_JOINT_FIXED;
    }
    return tc_points_alloc(state, scene->nbody, shape, fixed, p, err);
}

/* one contact: a's outward normal n (world) at world point x of b, depth (m) */
static void put(tc_model_contact *c, int a, int b, const double x[3], const double n[3],
                double depth) {
    c->a = a;
    c->b = b;
    tc_v3_copy(c->c.pos, x);
    tc_v3_copy(c->c.normal, n);
    c->c.depth = depth;
}

/* 1 when world point x is within tol of one of the contacts c[from .. to) */
static int seen(const tc_model_contact *c, int from, int to, const double x[3], double tol) {
    for (int k = from; k < to; k++) {
        double d[3];
        tc_v3_sub(d, c[k].c.pos, x);
        if (tc_v3_dot(d, d) <= tol * tol) return 1;
    }
    return 0;
}

/* the points of body ia inside body ib at poses bs, appended to c[nc .. max) as contacts
 * (a = ib, b = ia, ib's outward normal, depth -g); returns the new count */
static int inside(const points_state *s, int ia, int ib, const tc_body_state *bs,
                  tc_model_contact *c, int nc, int max) {
    const pts_body *A = &s->body[ia], *B = &s->body[ib];
    if (A->plane || nc >= max) return nc;
    const double *RA = bs[ia].R, *RB = bs[ib].R, mg = s->margin;
    /* A's frame to B's: y = M p + t, M = RB^T RA, t = RB^T (cA - cB) */
    double M[9], t[3], d[3], x[3], y[3], nl[3], nw[3];
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 3; k++)
            M[3 * r + k] = RB[r] * RA[k] + RB[3 + r] * RA[3 + k] + RB[6 + r] * RA[6 + k];
    tc_v3_sub(d, bs[ia].pos, bs[ib].pos);
    tc_m3_mulvt(t, RB, d);
    const int start = nc;
    const double(*P)[3] = (const double(*)[3])s->sample + A->off;
    /* a chunk whose centre is farther outside B than its radius (and the margin, and a slack
     * for rounding) holds no contact: the signed distance changes no faster than the point */
    const double slack = 1e-9 * A->radius, rr = (B->radius + mg) * (B->radius + mg);
    double cb[3], e[3];
    tc_v3_scale(e, d, -1);
    tc_m3_mulvt(cb, RA, e);
    for (int ch = 0; ch < A->nc; ch++) {
        const double *cc = s->chunk[A->c0 + ch];
        int i0 = ch * CHUNK, i1 = i0 + CHUNK < A->np ? i0 + CHUNK : A->np;
        if (B->plane) {
            /* against a plane: the height over it, y[2], and its normal */
            if (M[6] * cc[0] + M[7] * cc[1] + M[8] * cc[2] + t[2] > cc[3] + mg + slack) continue;
            tc_v3_set(nw, RB[2], RB[5], RB[8]);
            for (int i = i0; i < i1; i++) {
                double g = M[6] * P[i][0] + M[7] * P[i][1] + M[8] * P[i][2] + t[2];
                if (!(g < mg)) continue;
                tc_m3_mulv(x, RA, P[i]);
                tc_v3_add(x, x, bs[ia].pos);
                put(&c[nc++], ib, ia, x, nw, -g);
                if (nc == max) return nc;
            }
            continue;
        }
        /* B's bounding sphere, then its signed distance at the chunk's centre */
        tc_v3_sub(e, cc, cb);
        double rc = B->radius + mg + cc[3];
        if (tc_v3_dot(e, e) > rc * rc) continue;
        tc_m3_mulv(y, M, cc);
        tc_v3_add(y, y, t);
        if (distance_bound(B, y) > cc[3] + mg + slack ||
            body_distance(s, B, y, nl) > cc[3] + mg + slack)
            continue;
        for (int i = i0; i < i1; i++) {
            /* samples farther from B's centre than its bounding radius cannot be inside it */
            tc_v3_sub(e, P[i], cb);
            if (tc_v3_dot(e, e) > rr) continue;
            tc_m3_mulv(y, M, P[i]);
            tc_v3_add(y, y, t);
            if (!(distance_bound(B, y) < mg)) continue;
            double g = body_distance(s, B, y, nl);
            if (!(g < mg)) continue;
            tc_m3_mulv(nw, RB, nl);
            tc_m3_mulv(x, RA, P[i]);
            tc_v3_add(x, x, bs[ia].pos);
            put(&c[nc++], ib, ia, x, nw, -g);
            if (nc == max) return nc;
        }
    }
    /* curved surfaces: a sphere's point deepest toward B (its centre less r along B's normal at
     * the centre) and a cylinder's support point against a plane, unless a sample gave it */
    double tol = 1e-9 * A->radius;
    for (int k = 0; k < A->nsph; k++) {
        double cw[3];
        tc_m3_mulv(cw, RA, A->sph[k]);
        tc_v3_add(cw, cw, bs[ia].pos);
        tc_v3_sub(d, cw, bs[ib].pos);
        tc_m3_mulvt(y, RB, d);
        body_distance(s, B, y, nl);
        tc_m3_mulv(nw, RB, nl);
        tc_v3_copy(x, cw);
        tc_v3_addscl(x, nw, -A->sph[k][3]);
        /* a compound's sphere part: its deepest point must not lie inside another part */
        if (A->npart) {
            double pa[3];
            tc_v3_sub(d, x, bs[ia].pos);
            tc_m3_mulvt(pa, RA, d);
            if (other_parts(s, A, A->sphpart[k], pa) < -tol) continue;
        }
        tc_v3_sub(d, x, bs[ib].pos);
        tc_m3_mulvt(y, RB, d);
        double g = body_distance(s, B, y, nl);
        if (!(g < mg) || seen(c, start, nc, x, tol)) continue;
        tc_m3_mulv(nw, RB, nl);
        put(&c[nc++], ib, ia, x, nw, -g);
        if (nc == max) return nc;
    }
    if (A->cyl && B->plane) {
        double down[3] = {-M[6], -M[7], -M[8]}, sp[3];
        tc_shape_support(A->shape, down, sp);
        double g = M[6] * sp[0] + M[7] * sp[1] + M[8] * sp[2] + t[2];
        tc_m3_mulv(x, RA, sp);
        tc_v3_add(x, x, bs[ia].pos);
        if (g < mg && !seen(c, start, nc, x, tol)) {
            tc_v3_set(nw, RB[2], RB[5], RB[8]);
            put(&c[nc++], ib, ia, x, nw, -g);
        }
    }
    return nc;
}

int tc_points_contacts(void *state, const tc_body_state *bs, tc_model_contact *c, int max) {
    points_state *s = state;
    int np = tc_broadphase_query(s->bp, bs), nc = 0;
    /* each candidate pair in the broad phase's order: a's points inside b, then b's inside a */
    for (int k = 0; k < np && nc < max; k++) {
        int a = s->bp->pair[k][0], b = s->bp->pair[k][1];
        nc = inside(s, a, b, bs, c, nc, max);
        nc = inside(s, b, a, bs, c, nc, max);
    }
    return nc;
}

int tc_points_samples(const void *state, int i, const double (**p)[3]) {
    const points_state *s = state;
    *p = (const double(*)[3])s->sample + s->body[i].off;
    return s->body[i].np;
}

const tc_broadphase *tc_points_broadphase(const void *state) {
    return ((const points_state *)state)->bp;
}

const tc_model_type tc_model_points = {
    .name = "points",
    .summary = "multi-point contacts: every surface point of one body inside another, with that "
               "body's normal, for velocity projection (no force law)",
    .reference = "Kaufman, Edmunds & Pai 2005 (fast frictional dynamics)",
    .params = points_params,
    .caps = TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTACTS,
    .shapes = POINTS_SHAPES,
    .solver = "vp",
    .alloc = points_alloc,
    .force = NULL,
    .free = tc_points_free,
    .contacts = tc_points_contacts,
};
