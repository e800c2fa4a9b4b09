/* SPDX-License-Identifier: MIT */
/* pressure field contact (hydroelastic): tractions on the equal-pressure surface of linear tet
 * fields */
#include "geom/tc_tetmesh.h"
#include "geom/tc_tetmesh_build.h"
#include "math/tc_vec.h"
#include "models/tc_model.h"
#include "models/tc_pfc.h"
#include "core/tc_arena.h"
#include "core/tc_parallel.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* a clipped polygon has at most 4 + 4 vertices (a tet's section cut by another tet's faces) */
#define PFC_MAXPOLY TC_PFC_MAXPOLY
/* nodes waiting in a tree traversal (slab candidates, soft-plane): each level adds at most one,
 * and trees over int-counted tets by median splits are at most 32 levels deep */
#define PFC_STACK 80
/* with threads != 1, the slab sweep runs over threads when the two meshes' tet counts multiply
 * to at least this (from E1's pair at level 3: 1280 x 1280); the sums are the same either way */
#define PFC_PARALLEL 1e6
/* coordinates of a candidate's bounding volume: u, v, w, v + w, v - w (an octagonal prism) */
#define PFC_K 5
/* tet pairs whose planes are computed together (tet_pairs) */
#define PFC_BATCH 16
/* a sorted candidate's record for the sweep: its volume's lower bounds and its negated upper
 * bounds (so one loop of <= compares two volumes), then the least and greatest p0 of its tet */
#define PFC_REC (2 * PFC_K + 2)
/* meshes with at most this many vertices find their extent along a direction by a plain loop,
 * larger ones by a descent of their tree (tree_max) */
#define PFC_FEWVERT 64

static const tc_param_spec pfc_params[] = {
    {"E", 1.0e5, 1, 1e12, TC_PARAM_REAL, "Pa", "hydroelastic modulus: p0 = E eps",
     "soft rubber; a 5 cm ball 1 cm into a plane feels about pi E d^2 = 31 N, the order of "
     "hunt-crossley's default"},
    {"resolution", 3, 0, 5, TC_PARAM_INT, "1",
     "icosphere subdivision level of sphere meshes (20 4^level tets), cylinder polygons of "
     "16 2^level sides; boxes always have 12 tets",
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
    {"plane_h", 0, 0, 10, TC_PARAM_REAL, "m",
     "thickness of a compliant layer on every plane: p0 = E depth / plane_h below its surface "
     "(linear, also below plane_h); 0: the plane is rigid",
     "rigid, as before; a layer of thickness h models a soft floor (E3's compliant layer, "
     "experiments/e3/README.md)"},
    {"threads", 1, 0, 256, TC_PARAM_INT, "1",
     "OpenMP threads of the slab sweep of two large meshes (0: what the caller may use now, "
     "inside a sweep its idle threads, tc_par_threads); the result is "
     "the same bits for any count",
     "one: experiments already run their queries in parallel, and on a busy machine a spinning "
     "team can stall an evaluation for a whole time slice"},
    {"rigid_fixed", 0, 0, 1, TC_PARAM_BOOL, "1",
     "1: fixed and kinematic bodies are rigid: their surface triangles inside a soft body carry "
     "its pressure (soft-rigid contact); 0: every body but a plane is soft",
     "off: the experiments so far compare soft bodies; on suits walls and pushers (E4)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* min and max without fmin's NaN rules (inputs are finite), so they compile to one instruction */
static inline double pfc_min(double a, double b) {
    return b < a ? b : a;
}
static inline double pfc_max(double a, double b) {
    return b > a ? b : a;
}

/* 1 when the n body-frame vertices idx[] of a tet or triangle reach into [lo, hi] along u */
static inline int spans_band(const double *vert, const int *idx, int n, const double u[3],
                             double lo, double hi) {
    double dmin = INFINITY, dmax = -INFINITY;
    for (int k = 0; k < n; k++) {
        double e = tc_v3_dot(u, vert + 3 * idx[k]);
        dmin = pfc_min(dmin, e);
        dmax = pfc_max(dmax, e);
    }
    return !(dmax < lo || dmin > hi);
}

/* one mesh (a body's, or one part of a compound's, in the body frame) and its world-frame copy,
 * refreshed on every evaluation */
typedef struct pfc_body {
    tc_tetmesh *mesh; /* NULL for a rigid half-space (plane) */
    double *x;        /* 3 * nvert world vertices */
    double *tx;       /* 12 * ntet: each tet's four world vertices, copied together (x's values) */
    double *g, *c;    /* 3 * ntet world gradients, ntet constants: p0(x) = g . x + c */
    double *lo, *hi;  /* 3 * ntet world AABBs */
    double *fp;       /* 16 * ntet: per tet, its four faces' world inward normals n and offsets
                       * o (inside: n . x >= o), by component: n_x[4], n_y[4], n_z[4], o[4] */
    double *bfp;      /* 16 * ntet: the same faces in the body frame, built once, by component as
                       * fp: n_x[4], n_y[4], n_z[4], n . a[4] (a: a vertex of the face) */
    int *cand;        /* ntet: candidate tets (brute force: those meeting the other body's
                       * AABB; slab: those meeting the overlap slab), capacity ntet */
    double *cpart;    /* 6 * ntet: per candidate of the slab sweep, the force on the other body
                       * and its moment from this candidate's tet pairs, summed in a fixed order */
    int *cact;        /* 2 * ntet: per candidate, polygons and narrow-phase pairs */
    double *tn;       /* 3 * ntri: per candidate surface triangle of a rigid mesh, its world unit
                       * outward normal (candidate arrays hold max(ntet, ntri) entries) */
    tc_tetbvh *bvh;   /* tree over the tets (body frame), built once */
    double *prange;   /* 2 * ntet: least and greatest p0 of each tet (its vertex values, Pa) */
    double *gnorm;    /* ntet: |grad p0| of each tet (Pa/m, the same in every frame) */
    int *vstamp,
        *tstamp;        /* nvert, ntet: evaluation whose world copy of a vertex / tet is current */
    double *clo, *chi;  /* 3 * ntet: world box of each candidate tet's part inside the overlap slab
                         * (by candidate index, for the body pair being processed) */
    int *sorted, *stmp; /* ntet: candidate indices sorted along the sweep axis, merge scratch */
    double *srec; /* PFC_REC * ntet: the sorted candidates' records (contiguous for the sweep) */
    int *scand;   /* ntet: the sorted candidates' tets */
    double blo[3], bhi[3]; /* world AABB of the whole mesh */
} pfc_body;

/* where tc_pfc_surface collects the polygons of one evaluation: poly[max], n found so far, and
 * the pair being evaluated */
typedef struct pfc_sink {
    tc_pfc_polygon *poly;
    int max, n, a, b;
} pfc_sink;

typedef struct pfc_state {
    const tc_scene *scene;
    pfc_sink *sink; /* NULL but inside tc_pfc_surface */
    double d, vs, mu;
    double E, plane_h; /* modulus (Pa) and compliant-layer thickness of planes (m; 0: rigid) */
    int use_bvh;       /* 1: tree traversal with world copies made on demand; 0: brute force */
    int threads;       /* team size of the slab sweep (0: OpenMP's default) */
    int stamp;         /* evaluation counter for vstamp / tstamp */
    int npair;
    int *pairs;     /* 2 * npair body indices */
    int *nmesh;     /* nbody: meshes of each body (0 for a plane, npart for a compound, else 1) */
    int *rigid;     /* nbody: 1 for a rigid body with meshes (rigid_fixed: fixed or kinematic) */
    pfc_body *body; /* nbody * TC_SHAPE_MAXPART: mesh k of body i at TC_SHAPE_MAXPART i + k */
    tc_arena arena; /* the block that holds the state, its arrays and the meshes' scratch */
} pfc_state;

/* mesh k of body i */
static inline pfc_body *pfc_mesh(const pfc_state *s, int i, int k) {
    return &s->body[TC_SHAPE_MAXPART * i + k];
}

/* the meshes and trees of n meshes */
static void free_meshes(pfc_body *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        tc_tetmesh_free(b[i].mesh);
        tc_tetbvh_free(b[i].bvh);
    }
}

static void pfc_free(void *state) {
    pfc_state *s = state;
    if (!s) return;
    if (s->body) free_meshes(s->body, TC_SHAPE_MAXPART * (size_t)s->scene->nbody);
    tc_arena_free(&s->arena);
}

static void tet_faces_body(pfc_body *b, int i);

/* the mesh of part k of shape sh (k = 0 but for a compound) in the body frame, and its tree:
 * an ellipsoid is the icosphere at the resolution level scaled by the semi-axes, a polytope its
 * hull fanned from the volume centroid (qhull) */
static tc_status mesh_part(pfc_body *b, const tc_shape *sh, int k, int level, int shells, double E,
                           tc_error *err) {
    tc_shape ps = *sh;
    const double *off = NULL;
    if (sh->type == TC_SHAPE_COMPOUND) {
        ps = tc_box(0, 0, 0);
        ps.type = sh->part[k].type;
        off = sh->part[k].pos;
        memcpy(ps.size, sh->part[k].size, sizeof ps.size);
    }
    tc_status st =
        ps.type == TC_SHAPE_SPHERE
            ? tc_tetmesh_sphere_shells_alloc(&b->mesh, ps.size[0], level, shells, E)
        : ps.type == TC_SHAPE_ELLIPSOID
            ? tc_tetmesh_ellipsoid_alloc(&b->mesh, ps.size, level, E, err)
        : ps.type == TC_SHAPE_POLYTOPE
            ? tc_tetmesh_hull_alloc(&b->mesh, &ps.hull->vert[0][0], ps.hull->nvert, E, err)
            : tc_tetmesh_shape_alloc(&b->mesh, &ps, level, E);
    /* a part's mesh moves to the part's place in the body frame; its fields follow */
    if (!st && off) {
        for (int v = 0; v < b->mesh->nvert; v++)
            tc_v3_add(b->mesh->vert + 3 * v, b->mesh->vert + 3 * v, off);
        tc_tetmesh_build_fields(b->mesh);
    }
    if (!st) st = tc_tetbvh_alloc(&b->bvh, b->mesh);
    if (!st && 2 * b->bvh->depth + 2 > PFC_STACK) st = TC_EUNSUP;
    return st;
}

/* every soft body's meshes and trees into mesh (TC_SHAPE_MAXPART slots per body): one per part
 * of a compound, in the order of the parts; none for a plane */
static tc_status mesh_bodies(pfc_body *mesh, const tc_scene *scene, const tc_params *p,
                             tc_error *err) {
    int level = (int)tc_params_get(p, "resolution"), shells = (int)tc_params_get(p, "shells");
    double E = tc_params_get(p, "E");
    for (int i = 0; i < scene->nbody; i++) {
        const tc_shape *sh = &scene->body[i].shape;
        if (sh->type == TC_SHAPE_PLANE) continue;
        int n = sh->type == TC_SHAPE_COMPOUND ? sh->npart : 1;
        for (int k = 0; k < n; k++) {
            tc_status st = mesh_part(&mesh[TC_SHAPE_MAXPART * i + k], sh, k, level, shells, E, err);
            if (st)
                return tc_error_set(err, st, NULL, 0, NULL, "pfc: cannot mesh body '%s'",
                                    scene->body[i].name);
        }
    }
    return TC_OK;
}

/* a mesh's world-frame scratch, carved from the state's block (b a probe while sizing); the
 * candidate lists hold tets or, for a rigid mesh, surface triangles */
static void carve_mesh(pfc_body *b, tc_arena *a, const tc_tetmesh *m) {
    size_t nv = (size_t)m->nvert, nt = (size_t)m->ntet, ntri = (size_t)m->ntri;
    size_t ncap = nt > ntri ? nt : ntri;
    b->x = tc_arena_alloc(a, 3 * nv, sizeof *b->x);
    b->tx = tc_arena_alloc(a, 12 * nt, sizeof *b->tx);
    b->g = tc_arena_alloc(a, 3 * nt, sizeof *b->g);
    b->c = tc_arena_alloc(a, nt, sizeof *b->c);
    b->lo = tc_arena_alloc(a, 3 * nt, sizeof *b->lo);
    b->hi = tc_arena_alloc(a, 3 * nt, sizeof *b->hi);
    b->cand = tc_arena_alloc(a, ncap, sizeof *b->cand);
    b->tn = tc_arena_alloc(a, 3 * (ntri ? ntri : 1), sizeof *b->tn);
    b->fp = tc_arena_alloc(a, 16 * nt, sizeof *b->fp);
    b->bfp = tc_arena_alloc(a, 16 * nt, sizeof *b->bfp);
    b->cpart = tc_arena_alloc(a, 6 * ncap, sizeof *b->cpart);
    b->cact = tc_arena_alloc(a, 2 * ncap, sizeof *b->cact);
    b->vstamp = tc_arena_alloc(a, nv, sizeof *b->vstamp);
    b->tstamp = tc_arena_alloc(a, nt, sizeof *b->tstamp);
    b->prange = tc_arena_alloc(a, 2 * nt, sizeof *b->prange);
    b->gnorm = tc_arena_alloc(a, nt, sizeof *b->gnorm);
    b->clo = tc_arena_alloc(a, PFC_K * ncap, sizeof *b->clo);
    b->chi = tc_arena_alloc(a, PFC_K * ncap, sizeof *b->chi);
    b->sorted = tc_arena_alloc(a, ncap, sizeof *b->sorted);
    b->stmp = tc_arena_alloc(a, ncap, sizeof *b->stmp);
    b->srec = tc_arena_alloc(a, PFC_REC * ncap, sizeof *b->srec);
    b->scand = tc_arena_alloc(a, ncap, sizeof *b->scand);
}

/* the state's arrays and every mesh's scratch (ctx: the meshes, by slot), carved from the
 * state's block (a probe while sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    pfc_state *s = state;
    const pfc_body *mesh = ctx;
    size_t nb = (size_t)(s->scene->nbody > 0 ? s->scene->nbody : 1);
    s->pairs = tc_arena_alloc(a, 2 * (size_t)s->npair + 2, sizeof *s->pairs);
    s->body = tc_arena_alloc(a, TC_SHAPE_MAXPART * nb, sizeof *s->body);
    s->nmesh = tc_arena_alloc(a, nb, sizeof *s->nmesh);
    s->rigid = tc_arena_alloc(a, nb, sizeof *s->rigid);
    for (size_t i = 0; i < TC_SHAPE_MAXPART * nb; i++) {
        pfc_body probe;
        if (mesh[i].mesh) carve_mesh(s->body ? &s->body[i] : &probe, a, mesh[i].mesh);
    }
}

/* a mesh's tables built once: its tets' face planes in the body frame, and the pressure range
 * and gradient norm of every tet (linear field: the extremes are at vertices) */
static void mesh_tables(pfc_body *b) {
    for (int t = 0; t < b->mesh->ntet; t++)
        tet_faces_body(b, t);
    for (int t = 0; t < b->mesh->ntet; t++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int v = 0; v < 4; v++) {
            double p0 = b->mesh->E * b->mesh->eps[b->mesh->tet[4 * t + v]];
            lo = pfc_min(lo, p0);
            hi = pfc_max(hi, p0);
        }
        b->prange[2 * t] = lo;
        b->prange[2 * t + 1] = hi;
        b->gnorm[t] = tc_v3_norm(b->mesh->grad + 3 * t);
    }
}

/* every pair: a soft body (sphere, box, ellipsoid, cylinder, polytope, compound) against a soft
 * or rigid body or a plane, never two planes */
static tc_status check_pairs(const tc_scene *scene, const int *pairs, int npair, tc_error *err) {
    for (int i = 0; i < npair; i++) {
        tc_shape_type a = scene->body[pairs[2 * i]].shape.type,
                      b = scene->body[pairs[2 * i + 1]].shape.type;
        if (a == TC_SHAPE_PLANE && b == TC_SHAPE_PLANE)
            return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL, "pfc: no %s-%s contact",
                                tc_shape_name(a), tc_shape_name(b));
    }
    return TC_OK;
}

/* the state, its meshes (moved in from mesh) and their tables; each body's mesh count and
 * whether it is rigid (rigid_fixed: fixed and kinematic bodies) */
static void fill(pfc_state *s, const pfc_body *mesh, const int *pairs, int rigid_fixed) {
    const tc_scene *scene = s->scene;
    memcpy(s->pairs, pairs, 2 * (size_t)s->npair * sizeof *pairs);
    for (int i = 0; i < scene->nbody; i++) {
        const tc_shape *sh = &scene->body[i].shape;
        if (sh->type == TC_SHAPE_PLANE) continue;
        s->nmesh[i] = sh->type == TC_SHAPE_COMPOUND ? sh->npart : 1;
        s->rigid[i] = rigid_fixed && (scene->body[i].joint == TC_JOINT_FIXED ||
                                      scene->body[i].joint == TC_JOINT_KINEMATIC);
        for (int k = 0; k < s->nmesh[i]; k++) {
            pfc_body *b = pfc_mesh(s, i, k);
            b->mesh = mesh[TC_SHAPE_MAXPART * i + k].mesh;
            b->bvh = mesh[TC_SHAPE_MAXPART * i + k].bvh;
            mesh_tables(b);
        }
    }
}

/* the pairs and meshes first (in scratch arrays), then one block for the state, its arrays and
 * every mesh's scratch, into which the pairs and meshes move */
static tc_status pfc_alloc(void **state, const tc_scene *scene, const tc_params *p, tc_error *err) {
    size_t nb = (size_t)(scene->nbody > 0 ? scene->nbody : 1);
    pfc_state probe = {.scene = scene,
                       .d = tc_params_get(p, "d"),
                       .vs = tc_params_get(p, "vs"),
                       .mu = scene->friction,
                       .E = tc_params_get(p, "E"),
                       .plane_h = tc_params_get(p, "plane_h"),
                       .use_bvh = (int)tc_params_get(p, "bvh"),
                       .threads = (int)tc_params_get(p, "threads")};
    int *pairs = malloc((nb * (nb - 1) + 2) * sizeof *pairs);
    pfc_body *mesh = calloc(TC_SHAPE_MAXPART * nb, sizeof *mesh);
    if (!pairs || !mesh) {
        free(pairs);
        free(mesh);
        return TC_ENOMEM;
    }
    probe.npair = tc_scene_pairs(scene, pairs);
    tc_status st = check_pairs(scene, pairs, probe.npair, err);
    if (!st) st = mesh_bodies(mesh, scene, p, err);
    pfc_state *s =
        st ? NULL : tc_arena_make(&probe, sizeof probe, offsetof(pfc_state, arena), carve, mesh);
    if (!st && !s) st = TC_ENOMEM;
    if (s) {
        fill(s, mesh, pairs, (int)tc_params_get(p, "rigid_fixed"));
        *state = s;
    } else {
        free_meshes(mesh, TC_SHAPE_MAXPART * nb);
    }
    free(pairs);
    free(mesh);
    return st;
}

static const int pfc_face[4][4] = {{1, 2, 3, 0}, {0, 2, 3, 1}, {0, 1, 3, 2}, {0, 1, 2, 3}};

/* the face planes of tet i in the body frame (for the clip), built at alloc: inward normals
 * (towards the fourth vertex) and offsets */
static void tet_faces_body(pfc_body *b, int i) {
    const int *t = b->mesh->tet + 4 * i;
    const double *v = b->mesh->vert;
    const double *x[4] = {v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], v + 3 * t[3]};
    double *fp = b->bfp + 16 * i;
    for (int f = 0; f < 4; f++) {
        const double *a = x[pfc_face[f][0]];
        double e1[3], e2[3], e3[3], nf[3];
        tc_v3_sub(e1, x[pfc_face[f][1]], a);
        tc_v3_sub(e2, x[pfc_face[f][2]], a);
        tc_v3_sub(e3, x[pfc_face[f][3]], a);
        tc_v3_cross(nf, e1, e2);
        if (tc_v3_dot(nf, e3) < 0) tc_v3_scale(nf, nf, -1);
        fp[f] = nf[0];
        fp[4 + f] = nf[1];
        fp[8 + f] = nf[2];
        fp[12 + f] = tc_v3_dot(nf, a);
    }
}

/* the world face planes of tet i: n_w = R n, o = n . a + n_w . pos (four faces at once) */
static void tet_faces(pfc_body *b, const tc_body_state *bs, int i) {
    const double *restrict bf = b->bfp + 16 * i;
    double *restrict fp = b->fp + 16 * i;
    double R[9], p[3];
    memcpy(R, bs->R, sizeof R);
    memcpy(p, bs->pos, sizeof p);
    for (int f = 0; f < 4; f++) {
        double x = R[0] * bf[f] + R[1] * bf[4 + f] + R[2] * bf[8 + f];
        double y = R[3] * bf[f] + R[4] * bf[4 + f] + R[5] * bf[8 + f];
        double z = R[6] * bf[f] + R[7] * bf[4 + f] + R[8] * bf[8 + f];
        fp[f] = x;
        fp[4 + f] = y;
        fp[8 + f] = z;
        fp[12 + f] = bf[12 + f] + (x * p[0] + y * p[1] + z * p[2]);
    }
}

/* move a body's vertices, fields and AABBs into the world frame */
static void body_update(pfc_body *b, const tc_body_state *bs) {
    const tc_tetmesh *m = b->mesh;
    for (int i = 0; i < m->nvert; i++) {
        tc_m3_mulv(b->x + 3 * i, bs->R, m->vert + 3 * i);
        tc_v3_add(b->x + 3 * i, b->x + 3 * i, bs->pos);
    }
    for (int k = 0; k < 3; k++) {
        b->blo[k] = INFINITY;
        b->bhi[k] = -INFINITY;
    }
    for (int i = 0; i < m->ntet; i++) {
        double *g = b->g + 3 * i, *lo = b->lo + 3 * i, *hi = b->hi + 3 * i;
        tc_m3_mulv(g, bs->R, m->grad + 3 * i);
        b->c[i] = m->c[i] - tc_v3_dot(g, bs->pos);
        tc_v3_copy(lo, b->x + 3 * m->tet[4 * i]);
        tc_v3_copy(hi, lo);
        for (int v = 1; v < 4; v++) {
            const double *x = b->x + 3 * m->tet[4 * i + v];
            for (int k = 0; k < 3; k++) {
                lo[k] = pfc_min(lo[k], x[k]);
                hi[k] = pfc_max(hi[k], x[k]);
            }
        }
        for (int k = 0; k < 3; k++) {
            b->blo[k] = pfc_min(b->blo[k], lo[k]);
            b->bhi[k] = pfc_max(b->bhi[k], hi[k]);
        }
        for (int v = 0; v < 4; v++)
            tc_v3_copy(b->tx + 12 * i + 3 * v, b->x + 3 * m->tet[4 * i + v]);
        tet_faces(b, bs, i);
    }
}

/* tet i of a body in the world frame (its vertices, field and face planes, as body_update
 * computes them; not its AABB, which only the brute force uses), made once per evaluation stamp */
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
    for (int v = 0; v < 4; v++)
        tc_v3_copy(b->tx + 12 * i + 3 * v, b->x + 3 * t[v]);
    double *g = b->g + 3 * i;
    tc_m3_mulv(g, bs->R, m->grad + 3 * i);
    b->c[i] = m->c[i] - tc_v3_dot(g, bs->pos);
    tet_faces(b, bs, i);
}

/* 1 when boxes [lo1, hi1] and [lo2, hi2] overlap */
static int aabb_overlap(const double *lo1, const double *hi1, const double *lo2,
                        const double *hi2) {
    return lo1[0] <= hi2[0] && lo2[0] <= hi1[0] && lo1[1] <= hi2[1] && lo2[1] <= hi1[1] &&
           lo1[2] <= hi2[2] && lo2[2] <= hi1[2];
}

/* the polygon where the plane {s = 0} cuts a tet whose vertices x[4] have signed distances
 * s[4] of both signs (3 or 4 vertices, in order around the polygon); returns the count */
static int poly_plane_tet(double (*P)[3], const double *x[4], const double s[4]) {
    int pos[4], neg[4], np = 0, nn = 0, n = 0;
    for (int k = 0; k < 4; k++) {
        if (s[k] >= 0)
            pos[np++] = k;
        else
            neg[nn++] = k;
    }
    /* the crossing edges in cyclic order: (i,k) (i,l) (j,l) (j,k) for a 2-2 split */
    int e[4][2], ne = 0;
    if (np == 1 || nn == 1) {
        int a = np == 1 ? pos[0] : neg[0], *o = np == 1 ? neg : pos;
        for (int k = 0; k < 3; k++) {
            e[ne][0] = a;
            e[ne++][1] = o[k];
        }
    } else {
        int q[4][2] = {{pos[0], neg[0]}, {pos[0], neg[1]}, {pos[1], neg[1]}, {pos[1], neg[0]}};
        memcpy(e, q, sizeof q);
        ne = 4;
    }
    for (int k = 0; k < ne; k++) {
        const double *xi = x[e[k][0]], *xo = x[e[k][1]];
        double t = s[e[k][0]] / (s[e[k][0]] - s[e[k][1]]);
        for (int j = 0; j < 3; j++)
            P[n][j] = xi[j] + t * (xo[j] - xi[j]);
        n++;
    }
    return n;
}

/* Sutherland–Hodgman: keep the part of polygon P (n vertices) inside the tet with world face
 * planes fp (tet_faces: inward normal n and offset o per face, inside where n . x >= o), with
 * Q (PFC_MAXPOLY rows) as the second buffer; *res points to the result (P or Q: no copy back);
 * returns its vertex count.
 * Every vertex's signed distances to the four faces are computed once (a crossing point's when
 * it is made): a face with every vertex outside empties the polygon at once, and a face with
 * none outside is skipped */
static int poly_clip_tet(double (*P)[3], double (*Q)[3], int n, const double *fp,
                         double (**res)[3]) {
    double D0[PFC_MAXPOLY][4], D1[PFC_MAXPOLY][4], mn[4], mx[4];
    double(*src)[3] = P, (*dst)[3] = Q, (*ds)[4] = D0, (*dd)[4] = D1;
    int nout[4] = {0, 0, 0, 0}, clipped = 0;
    *res = P;
    /* the distances and their least and greatest value per face (four faces at once): every
     * vertex outside one face empties the polygon, none outside skips the face */
    for (int f = 0; f < 4; f++) {
        mn[f] = INFINITY;
        mx[f] = -INFINITY;
    }
    for (int k = 0; k < n; k++) {
        const double x = P[k][0], y = P[k][1], z = P[k][2];
        for (int f = 0; f < 4; f++) {
            ds[k][f] = fp[f] * x + fp[4 + f] * y + fp[8 + f] * z - fp[12 + f];
            mn[f] = pfc_min(mn[f], ds[k][f]);
            mx[f] = pfc_max(mx[f], ds[k][f]);
        }
    }
    if ((mx[0] < 0) | (mx[1] < 0) | (mx[2] < 0) | (mx[3] < 0)) return 0;
    /* the faces in order; after the first cut, the counts of the new vertices outside */
    for (int f = 0; f < 4 && n > 0; f++) {
        if (clipped ? !nout[f] : mn[f] >= 0) continue;
        clipped = 1;
        int m = 0, pp = n - 1;
        nout[1] = f < 1 ? 0 : nout[1];
        nout[2] = f < 2 ? 0 : nout[2];
        nout[3] = f < 3 ? 0 : nout[3];
        for (int k = 0; k < n; k++) {
            double sp = ds[pp][f], sk = ds[k][f];
            /* an edge crossing the face adds its crossing point */
            if ((sp >= 0) != (sk >= 0) && m < PFC_MAXPOLY) {
                double t = sp / (sp - sk);
                for (int j = 0; j < 3; j++)
                    dst[m][j] = src[pp][j] + t * (src[k][j] - src[pp][j]);
                for (int f2 = f + 1; f2 < 4; f2++) {
                    dd[m][f2] = fp[f2] * dst[m][0] + fp[4 + f2] * dst[m][1] +
                                fp[8 + f2] * dst[m][2] - fp[12 + f2];
                    nout[f2] += dd[m][f2] < 0;
                }
                m++;
            }
            if (sk >= 0 && m < PFC_MAXPOLY) {
                tc_v3_copy(dst[m], src[k]);
                for (int f2 = f + 1; f2 < 4; f2++) {
                    dd[m][f2] = ds[k][f2];
                    nout[f2] += ds[k][f2] < 0;
                }
                m++;
            }
            pp = k;
        }
        double(*t)[3] = src, (*td)[4] = ds;
        src = dst;
        dst = t;
        ds = dd;
        dd = td;
        n = m;
        for (int f2 = f + 1; f2 < 4; f2++)
            if (nout[f2] == n) return 0;
    }
    *res = src;
    return n;
}

/* record polygon P (n vertices, field p0 = g . x + c) when a surface is being collected */
static void sink_add(const pfc_state *s, double (*P)[3], int n, const double g[3], double c) {
    pfc_sink *k = s->sink;
    if (!k) return;
    if (k->n < k->max) {
        tc_pfc_polygon *q = &k->poly[k->n];
        q->a = k->a;
        q->b = k->b;
        q->n = n;
        for (int v = 0; v < n; v++) {
            tc_v3_copy(q->x[v], P[v]);
            q->p[v] = tc_v3_dot(g, P[v]) + c;
        }
    }
    k->n++;
}

/* integrate the tractions over polygon P (n vertices) with unit normal nrm pointing from body a
 * to body b and pressure field p0 = g . x + c: adds the force on b to F and its moment about b's
 * COM to M; returns 1 when the polygon has positive area */
static int poly_integrate(const pfc_state *s, double (*P)[3], int n, const double nrm[3],
                          const double g[3], double c, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3]) {
    if (n < 3) return 0;
    double dv[3];
    tc_v3_sub(dv, sb->vel, sa->vel);
    /* both bodies at rest: v_r = 0 at every point, so p = p0 (linear) and no friction. The force
     * n int p dA and the moment (int p (x - pos_b) dA) x n in closed form over the fan from P_0:
     * on a triangle of area a, int f h dA = a/12 (sum f_i h_i + sum f_i sum h_i) for linear f, h */
    if (dv[0] == 0 && dv[1] == 0 && dv[2] == 0 && sa->omega[0] == 0 && sa->omega[1] == 0 &&
        sa->omega[2] == 0 && sb->omega[0] == 0 && sb->omega[1] == 0 && sb->omega[2] == 0) {
        double pv[PFC_MAXPOLY], r[PFC_MAXPOLY][3], ar[PFC_MAXPOLY], A = 0, W = 0, X[3] = {0, 0, 0},
                                                                    t[3];
        /* the fan triangles' areas first: a polygon of zero area ends here */
        for (int k = 1; k + 1 < n; k++) {
            double e1[3], e2[3], cr[3];
            tc_v3_sub(e1, P[k], P[0]);
            tc_v3_sub(e2, P[k + 1], P[0]);
            tc_v3_cross(cr, e1, e2);
            ar[k] = 0.5 * tc_v3_dot(cr, nrm);
            A += ar[k];
        }
        if (A == 0) return 0;
        sink_add(s, P, n, g, c);
        for (int k = 0; k < n; k++) {
            pv[k] = tc_v3_dot(g, P[k]) + c;
            tc_v3_sub(r[k], P[k], sb->pos);
        }
        for (int k = 1; k + 1 < n; k++) {
            double a = ar[k], ps = pv[0] + pv[k] + pv[k + 1];
            W += a * ps / 3;
            for (int j = 0; j < 3; j++)
                X[j] += a / 12 *
                        (pv[0] * r[0][j] + pv[k] * r[k][j] + pv[k + 1] * r[k + 1][j] +
                         ps * (r[0][j] + r[k][j] + r[k + 1][j]));
        }
        /* the polygon's orientation about nrm */
        if (A < 0) {
            W = -W;
            tc_v3_scale(X, X, -1);
        }
        tc_v3_addscl(F, nrm, W);
        tc_v3_cross(t, X, nrm);
        tc_v3_add(M, M, t);
        return 1;
    }
    /* area centroid: continuous in the polygon, so the fan below appears with zero area */
    double A = 0, C[3] = {0, 0, 0};
    for (int k = 1; k + 1 < n; k++) {
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, P[k], P[0]);
        tc_v3_sub(e2, P[k + 1], P[0]);
        tc_v3_cross(cr, e1, e2);
        double a = 0.5 * tc_v3_dot(cr, nrm);
        A += a;
        for (int j = 0; j < 3; j++)
            C[j] += a * (P[0][j] + P[k][j] + P[k + 1][j]) / 3;
    }
    if (A == 0) return 0;
    sink_add(s, P, n, g, c);
    tc_v3_scale(C, C, 1 / A);
    /* fan from the centroid; the edge-midpoint rule is exact for the quadratic integrands. Fan
     * triangle k (C, P_k, P_k+1) of weight w_k (area / 3) uses the midpoints of C P_k, P_k P_k+1
     * and C P_k+1: each point once, the spoke midpoint m_k with weight w_k-1 + w_k */
    double wt[PFC_MAXPOLY];
    for (int k = 0; k < n; k++) {
        double e1[3], e2[3], cr[3];
        tc_v3_sub(e1, P[k], C);
        tc_v3_sub(e2, P[(k + 1) % n], C);
        tc_v3_cross(cr, e1, e2);
        wt[k] = fabs(tc_v3_dot(cr, nrm)) / 6;
    }
    for (int k = 0; k < 2 * n; k++) {
        /* even k: spoke midpoint of P_k/2; odd k: edge midpoint of P_k/2 P_k/2+1 */
        int i = k / 2;
        double w = k & 1 ? wt[i] : wt[i ? i - 1 : n - 1] + wt[i];
        if (w == 0) continue;
        const double *q = k & 1 ? P[i + 1 < n ? i + 1 : 0] : C;
        double x[3], ra[3], rb[3], vr[3], f[3], t[3], ca[3], cb[3];
        for (int j = 0; j < 3; j++)
            x[j] = 0.5 * (P[i][j] + q[j]);
        /* Hunt–Crossley pressure from the separation speed along the normal */
        tc_v3_sub(ra, x, sa->pos);
        tc_v3_sub(rb, x, sb->pos);
        tc_v3_cross(ca, sa->omega, ra);
        tc_v3_cross(cb, sb->omega, rb);
        for (int j = 0; j < 3; j++)
            vr[j] = dv[j] + cb[j] - ca[j];
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

/* the narrow phase of tet i of a against tet j of b past the equal-pressure plane n . x = h (n
 * the unit vector along grad p0_b - grad p0_a, a to b; world copies current): both tets must
 * straddle the plane, and the section of the smaller tet is clipped by the other's faces; adds
 * the force on b and its moment to F, M; returns 1 for a polygon of positive area */
static int tet_pair_plane(const pfc_state *s, const pfc_body *A, const pfc_body *B, int i, int j,
                          const double n[3], double h, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3]) {
    const double *wa = A->tx + 12 * i, *wb = B->tx + 12 * j;
    const double *xa[4] = {wa, wa + 3, wa + 6, wa + 9}, *ga = A->g + 3 * i;
    const double *xb[4] = {wb, wb + 3, wb + 6, wb + 9};
    /* both tets must straddle the plane */
    double da[4], db[4], amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
    for (int k = 0; k < 4; k++) {
        da[k] = tc_v3_dot(n, xa[k]) - h;
        amin = pfc_min(amin, da[k]);
        amax = pfc_max(amax, da[k]);
    }
    if (amin >= 0 || amax <= 0) return 0;
    for (int k = 0; k < 4; k++) {
        db[k] = tc_v3_dot(n, xb[k]) - h;
        bmin = pfc_min(bmin, db[k]);
        bmax = pfc_max(bmax, db[k]);
    }
    if (bmin >= 0 || bmax <= 0) return 0;
    /* the plane inside the smaller tet, clipped by the other */
    int small = A->mesh->radius[i] <= B->mesh->radius[j];
    double P[PFC_MAXPOLY][3], Q[PFC_MAXPOLY][3], (*R)[3];
    int np = poly_plane_tet(P, small ? xa : xb, small ? da : db);
    np = poly_clip_tet(P, Q, np, small ? B->fp + 16 * j : A->fp + 16 * i, &R);
    return poly_integrate(s, R, np, n, ga, A->c[i], sa, sb, F, M);
}

/* the narrow phase of tet i of a against tet j of b (the broad phase has passed the pair): the
 * equal-pressure plane (none where the gradients are equal), then tet_pair_plane */
static int tet_pair(const pfc_state *s, const pfc_body *A, const pfc_body *B, int i, int j,
                    const tc_body_state *sa, const tc_body_state *sb, double F[3], double M[3],
                    long long *evals) {
    (*evals)++;
    double n[3];
    tc_v3_sub(n, B->g + 3 * j, A->g + 3 * i);
    double gn = tc_v3_norm(n);
    if (!(gn > 1e-12 * (A->gnorm[i] + B->gnorm[j]))) return 0;
    tc_v3_scale(n, n, 1 / gn);
    return tet_pair_plane(s, A, B, i, j, n, (A->c[i] - B->c[j]) / gn, sa, sb, F, M);
}

/* tet i of a against tets jb[0 .. m - 1] of b as tet_pair does, the planes computed together
 * first (the square roots and divisions of one pair need not wait for the previous pair's
 * clip); adds to F, M and returns the polygons */
static int tet_pairs(const pfc_state *s, const pfc_body *A, const pfc_body *B, int i, const int *jb,
                     int m, const tc_body_state *sa, const tc_body_state *sb, double F[3],
                     double M[3]) {
    double nx[PFC_BATCH], ny[PFC_BATCH], nz[PFC_BATCH], cb[PFC_BATCH], gb[PFC_BATCH], gn[PFC_BATCH],
        h[PFC_BATCH];
    const double *ga = A->g + 3 * i, ca = A->c[i], gna = A->gnorm[i];
    for (int q = 0; q < m; q++) {
        const double *g = B->g + 3 * jb[q];
        nx[q] = g[0] - ga[0];
        ny[q] = g[1] - ga[1];
        nz[q] = g[2] - ga[2];
        cb[q] = B->c[jb[q]];
        gb[q] = B->gnorm[jb[q]];
    }
    for (int q = 0; q < m; q++)
        gn[q] = sqrt(nx[q] * nx[q] + ny[q] * ny[q] + nz[q] * nz[q]);
    for (int q = 0; q < m; q++) {
        double r = 1 / gn[q];
        nx[q] *= r;
        ny[q] *= r;
        nz[q] *= r;
        h[q] = (ca - cb[q]) / gn[q];
    }
    int act = 0;
    for (int q = 0; q < m; q++) {
        if (!(gn[q] > 1e-12 * (gna + gb[q]))) continue;
        const double n[3] = {nx[q], ny[q], nz[q]};
        act += tet_pair_plane(s, A, B, i, jb[q], n, h[q], sa, sb, F, M);
    }
    return act;
}

/* two soft bodies, brute force: the tets of each body inside the common box of the bodies'
 * AABBs, every pair of them through tet_pair */
static int pair_soft_soft(const pfc_state *s, pfc_body *A, pfc_body *B, const tc_body_state *sa,
                          const tc_body_state *sb, double F[3], double M[3], long long *evals) {
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = pfc_max(A->blo[k], B->blo[k]);
        hi[k] = pfc_min(A->bhi[k], B->bhi[k]);
    }
    if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) return 0;
    /* broad phase: the tets of each body inside the common box, then tet AABB pairs */
    int na = 0, nb = 0, active = 0;
    for (int i = 0; i < A->mesh->ntet; i++)
        if (aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, lo, hi)) A->cand[na++] = i;
    for (int i = 0; i < B->mesh->ntet; i++)
        if (aabb_overlap(B->lo + 3 * i, B->hi + 3 * i, lo, hi)) B->cand[nb++] = i;
    for (int ia = 0; ia < na; ia++)
        for (int ib = 0; ib < nb; ib++) {
            int i = A->cand[ia], j = B->cand[ib];
            if (aabb_overlap(A->lo + 3 * i, A->hi + 3 * i, B->lo + 3 * j, B->hi + 3 * j))
                active += tet_pair(s, A, B, i, j, sa, sb, F, M, evals);
        }
    return active;
}

/* 1 when the candidate volumes [lo1, hi1] and [lo2, hi2] (PFC_K coordinates) overlap */
static inline int kdop_overlap(const double *lo1, const double *hi1, const double *lo2,
                               const double *hi2) {
    int ok = 1;
    for (int k = 0; k < PFC_K; k++)
        ok &= (lo1[k] <= hi2[k]) & (lo2[k] <= hi1[k]);
    return ok;
}

/* the world copy of vertex v, made once per evaluation stamp */
static inline void vert_world(pfc_body *b, const tc_body_state *bs, int v, int stamp) {
    if (b->vstamp[v] == stamp) return;
    b->vstamp[v] = stamp;
    tc_m3_mulv(b->x + 3 * v, bs->R, b->mesh->vert + 3 * v);
    tc_v3_add(b->x + 3 * v, b->x + 3 * v, bs->pos);
}

/* the greatest d . x over the vertices of mesh S (body frame): the tree's nodes whose boxes can
 * exceed the best value so far, the more promising child first; exactly the maximum over all
 * vertices (the leaves left out hold no greater vertex); a mesh of at most PFC_FEWVERT vertices
 * loops over them all */
static double tree_max(const pfc_body *S, const double d[3]) {
    const tc_tetbvh_node *nd = S->bvh->node;
    const double *v = S->mesh->vert;
    double best = -INFINITY;
    /* a small mesh: every vertex (cheaper than the descent) */
    if (S->mesh->nvert <= PFC_FEWVERT) {
        for (int k = 0; k < S->mesh->nvert; k++)
            best = pfc_max(best, tc_v3_dot(d, v + 3 * k));
        return best;
    }
    int stack[PFC_STACK], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const tc_tetbvh_node *b = &nd[stack[--top]];
        if (tc_v3_dot(d, b->c) + fabs(d[0]) * b->e[0] + fabs(d[1]) * b->e[1] +
                fabs(d[2]) * b->e[2] <=
            best)
            continue;
        if (b->count) {
            for (int p = b->first; p < b->first + b->count; p++) {
                const int *t = S->mesh->tet + 4 * S->bvh->order[p];
                for (int k = 0; k < 4; k++)
                    best = pfc_max(best, tc_v3_dot(d, v + 3 * t[k]));
            }
            continue;
        }
        const tc_tetbvh_node *l = &nd[b->left], *r = &nd[b->right];
        int lfirst =
            tc_v3_dot(d, l->c) + fabs(d[0]) * l->e[0] + fabs(d[1]) * l->e[1] +
                fabs(d[2]) * l->e[2] >
            tc_v3_dot(d, r->c) + fabs(d[0]) * r->e[0] + fabs(d[1]) * r->e[1] + fabs(d[2]) * r->e[2];
        stack[top++] = lfirst ? b->right : b->left;
        stack[top++] = lfirst ? b->left : b->right;
    }
    return best;
}

/* the overlap slab of meshes A and B: A ∩ B lies in {lo <= u . x <= hi}, u the unit vector from
 * A's tree centre to B's, lo the least u . x over B's vertices and hi the greatest over A's (both
 * widened by the margin tol, m); (u, v, w) an orthonormal frame. Returns 0 when the slab is empty
 */
static int slab_setup(const pfc_body *A, const pfc_body *B, const tc_body_state *sa,
                      const tc_body_state *sb, double uvw[3][3], double *lo, double *hi,
                      double *tol) {
    const tc_tetbvh_node *ra = &A->bvh->node[0], *rb = &B->bvh->node[0];
    double ca[3], cb[3];
    tc_m3_mulv(ca, sa->R, ra->c);
    tc_v3_add(ca, ca, sa->pos);
    tc_m3_mulv(cb, sb->R, rb->c);
    tc_v3_add(cb, cb, sb->pos);
    double *u = uvw[0], *v = uvw[1], *w = uvw[2];
    tc_v3_sub(u, cb, ca);
    double un = tc_v3_norm(u);
    if (un > 0)
        tc_v3_scale(u, u, 1 / un);
    else {
        u[0] = 1;
        u[1] = u[2] = 0;
    }
    /* v, w: perpendicular to u, v across the world axis least aligned with u */
    int least = fabs(u[0]) <= fabs(u[1]) && fabs(u[0]) <= fabs(u[2]) ? 0
                : fabs(u[1]) <= fabs(u[2])                           ? 1
                                                                     : 2;
    double e[3] = {0, 0, 0};
    e[least] = 1;
    tc_v3_cross(v, u, e);
    tc_v3_scale(v, v, 1 / tc_v3_norm(v));
    tc_v3_cross(w, u, v);
    /* a margin far above rounding (m): the bodies' sizes and distances from the origin */
    double t = 1e-12 * (1 + fabs(sa->pos[0]) + fabs(sa->pos[1]) + fabs(sa->pos[2]) +
                        fabs(sb->pos[0]) + fabs(sb->pos[1]) + fabs(sb->pos[2]));
    for (int k = 0; k < 3; k++)
        t += 1e-12 * (ra->e[k] + rb->e[k] + fabs(ra->c[k]) + fabs(rb->c[k]));
    /* the greatest u . x over A's vertices, the least over B's (body frames) */
    double ua[3], ub[3], h = -INFINITY, l = INFINITY;
    for (int k = 0; k < 3; k++) {
        ua[k] = sa->R[k] * u[0] + sa->R[3 + k] * u[1] + sa->R[6 + k] * u[2];
        ub[k] = sb->R[k] * u[0] + sb->R[3 + k] * u[1] + sb->R[6 + k] * u[2];
    }
    h = tree_max(A, ua);
    ub[0] = -ub[0];
    ub[1] = -ub[1];
    ub[2] = -ub[2];
    l = -tree_max(B, ub);
    *hi = h + tc_v3_dot(u, sa->pos) + t;
    *lo = l + tc_v3_dot(u, sb->pos) - t;
    *tol = t;
    return *lo <= *hi;
}

/* the candidate volume of the simplex x[0 .. nv - 1] (a tet, nv = 4, or a triangle, nv = 3; world)
 * inside the slab: the bounds in (u, v, w, v + w, v - w) of its vertices in the slab and of its
 * edges' crossings of the two planes, widened by the margin; returns 0 when it misses the slab */
static int slab_clip(const double *const *x, int nv, const double uvw[3][3], double lo, double hi,
                     double tol, double *cl, double *ch) {
    static const int edge[6][2] = {{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}};
    double du[4], dv[4], dw[4], dmin = INFINITY, dmax = -INFINITY;
    for (int k = 0; k < nv; k++) {
        du[k] = tc_v3_dot(uvw[0], x[k]);
        dv[k] = tc_v3_dot(uvw[1], x[k]);
        dw[k] = tc_v3_dot(uvw[2], x[k]);
        dmin = pfc_min(dmin, du[k]);
        dmax = pfc_max(dmax, du[k]);
    }
    if (dmax < lo || dmin > hi) return 0;
    /* the bounds in locals (registers), stored once */
    double l[PFC_K], g[PFC_K];
    for (int a = 0; a < PFC_K; a++) {
        l[a] = INFINITY;
        g[a] = -INFINITY;
    }
    /* the vertices inside the slab, then the crossings of its two planes (3 edges of a triangle) */
    for (int k = 0; k < nv; k++)
        if (du[k] >= lo && du[k] <= hi) {
            const double c[PFC_K] = {du[k], dv[k], dw[k], dv[k] + dw[k], dv[k] - dw[k]};
            for (int a = 0; a < PFC_K; a++) {
                l[a] = pfc_min(l[a], c[a]);
                g[a] = pfc_max(g[a], c[a]);
            }
        }
    for (int e = 0; e < (nv == 4 ? 6 : 3); e++) {
        const int e0 = edge[e][0], e1 = edge[e][1];
        for (int side = 0; side < 2; side++) {
            double h = side ? hi : lo;
            if ((du[e0] < h) == (du[e1] < h) || du[e0] == h || du[e1] == h) continue;
            double f = (h - du[e0]) / (du[e1] - du[e0]);
            double c1 = dv[e0] + f * (dv[e1] - dv[e0]), c2 = dw[e0] + f * (dw[e1] - dw[e0]);
            const double c[PFC_K] = {h, c1, c2, c1 + c2, c1 - c2};
            for (int a = 0; a < PFC_K; a++) {
                l[a] = pfc_min(l[a], c[a]);
                g[a] = pfc_max(g[a], c[a]);
            }
        }
    }
    for (int a = 0; a < PFC_K; a++) {
        cl[a] = l[a] - 2 * tol;
        ch[a] = g[a] + 2 * tol;
    }
    return 1;
}

/* the candidate tets of mesh S (pose bs) for the slab: the tree's nodes whose boxes reach into
 * the slab, in tree order; each leaf tet that meets the slab gets its world copy and its
 * candidate volume (S->clo / S->chi); returns the count */
static int slab_candidates(pfc_body *S, const tc_body_state *bs, const double uvw[3][3], double lo,
                           double hi, double tol, int stamp) {
    const double *u = uvw[0];
    /* the slab in the body frame: ub . x in [lo - u . pos, hi - u . pos] */
    double ub[3], up = tc_v3_dot(u, bs->pos);
    for (int k = 0; k < 3; k++)
        ub[k] = bs->R[k] * u[0] + bs->R[3 + k] * u[1] + bs->R[6 + k] * u[2];
    double blo = lo - up - tol, bhi = hi - up + tol;
    const tc_tetbvh_node *nd = S->bvh->node;
    int stack[PFC_STACK], top = 0, n = 0;
    stack[top++] = 0;
    while (top > 0) {
        const tc_tetbvh_node *b = &nd[stack[--top]];
        double dc = tc_v3_dot(ub, b->c),
               r = fabs(ub[0]) * b->e[0] + fabs(ub[1]) * b->e[1] + fabs(ub[2]) * b->e[2];
        if (dc + r < blo || dc - r > bhi) continue;
        if (!b->count) {
            stack[top++] = b->right;
            stack[top++] = b->left;
            continue;
        }
        for (int p = b->first; p < b->first + b->count; p++) {
            int i = S->bvh->order[p];
            const int *t = S->mesh->tet + 4 * i;
            /* a quick test on the body-frame vertices before the world copy */
            if (!spans_band(S->mesh->vert, t, 4, ub, blo, bhi)) continue;
            tet_world(S, bs, i, stamp);
            const double *x[4] = {S->x + 3 * t[0], S->x + 3 * t[1], S->x + 3 * t[2],
                                  S->x + 3 * t[3]};
            if (slab_clip(x, 4, uvw, lo, hi, tol, S->clo + PFC_K * n, S->chi + PFC_K * n))
                S->cand[n++] = i;
        }
    }
    return n;
}

/* the candidate surface triangles of rigid mesh S (pose bs) for the slab, in mesh order: world
 * copies of their vertices, their world unit normals (outward, S->tn) and candidate volumes;
 * returns the count */
static int slab_tri_candidates(pfc_body *S, const tc_body_state *bs, const double uvw[3][3],
                               double lo, double hi, double tol, int stamp) {
    const double *u = uvw[0];
    double ub[3], up = tc_v3_dot(u, bs->pos);
    for (int k = 0; k < 3; k++)
        ub[k] = bs->R[k] * u[0] + bs->R[3 + k] * u[1] + bs->R[6 + k] * u[2];
    double blo = lo - up - tol, bhi = hi - up + tol;
    int n = 0;
    for (int i = 0; i < S->mesh->ntri; i++) {
        const int *t = S->mesh->tri + 3 * i;
        if (!spans_band(S->mesh->vert, t, 3, ub, blo, bhi)) continue;
        for (int k = 0; k < 3; k++)
            vert_world(S, bs, t[k], stamp);
        const double *x[3] = {S->x + 3 * t[0], S->x + 3 * t[1], S->x + 3 * t[2]};
        if (!slab_clip(x, 3, uvw, lo, hi, tol, S->clo + PFC_K * n, S->chi + PFC_K * n)) continue;
        double e1[3], e2[3], *nt = S->tn + 3 * n;
        tc_v3_sub(e1, x[1], x[0]);
        tc_v3_sub(e2, x[2], x[0]);
        tc_v3_cross(nt, e1, e2);
        double nn = tc_v3_norm(nt);
        if (!(nn > 0)) continue;
        tc_v3_scale(nt, nt, 1 / nn);
        S->cand[n++] = i;
    }
    return n;
}

/* S->sorted: S's candidates among 0 .. n - 1 whose volumes meet the common box [cl, ch] (the
 * others meet none of the other mesh's), in increasing S->clo[PFC_K c + k], ties in candidate
 * order (bottom-up merge sort on copied keys: deterministic, no allocation), and their records
 * S->srec, S->scand in that order; returns their count */
static int cand_sort(pfc_body *S, int n, int k, const double *cl, const double *ch) {
    int *a = S->sorted, *b = S->stmp, m = 0;
    double *ka = S->srec, *kb = S->srec + n;
    for (int c = 0; c < n; c++)
        if (kdop_overlap(S->clo + PFC_K * c, S->chi + PFC_K * c, cl, ch)) {
            a[m] = c;
            ka[m] = S->clo[PFC_K * c + k];
            m++;
        }
    for (int w = 1; w < m; w *= 2) {
        for (int lo = 0; lo < m; lo += 2 * w) {
            int mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m, i = lo,
                j = mid, o = lo;
            while (i < mid && j < hi) {
                int tj = ka[j] < ka[i];
                b[o] = tj ? a[j] : a[i];
                kb[o++] = tj ? ka[j++] : ka[i++];
            }
            while (i < mid) {
                b[o] = a[i];
                kb[o++] = ka[i++];
            }
            while (j < hi) {
                b[o] = a[j];
                kb[o++] = ka[j++];
            }
        }
        int *t = a;
        double *tk = ka;
        a = b;
        b = t;
        ka = kb;
        kb = tk;
    }
    if (a != S->sorted) memcpy(S->sorted, a, (size_t)m * sizeof *a);
    /* the records in sorted order */
    for (int q = 0; q < m; q++) {
        int c = S->sorted[q], i = S->cand[c];
        double *r = S->srec + PFC_REC * q;
        memcpy(r, S->clo + PFC_K * c, PFC_K * sizeof *r);
        for (int j = 0; j < PFC_K; j++)
            r[PFC_K + j] = -S->chi[PFC_K * c + j];
        r[2 * PFC_K] = S->prange[2 * i];
        r[2 * PFC_K + 1] = S->prange[2 * i + 1];
        S->scand[q] = i;
    }
    return m;
}

/* rigid triangle ci (candidate index) of R against soft tet j of S (world copies current): the
 * triangle clipped by the tet, with the tet's pressure and the triangle's outward normal; adds
 * the force on S's body and its moment to F, M; returns 1 for a polygon of positive area */
static int tri_tet(const pfc_state *s, const pfc_body *R, const pfc_body *S, int ci, int j,
                   const tc_body_state *sr, const tc_body_state *ss, double F[3], double M[3],
                   long long *evals) {
    const int *t = R->mesh->tri + 3 * R->cand[ci];
    double P[PFC_MAXPOLY][3], Q[PFC_MAXPOLY][3], (*res)[3];
    for (int k = 0; k < 3; k++)
        tc_v3_copy(P[k], R->x + 3 * t[k]);
    (*evals)++;
    int np = poly_clip_tet(P, Q, 3, S->fp + 16 * j, &res);
    return poly_integrate(s, res, np, R->tn + 3 * ci, S->g + 3 * j, S->c[j], sr, ss, F, M);
}

/* the common box of the two candidate sets (PFC_K coordinates) into cl, ch, and the sweep axis
 * (the widest of u, v, w); returns -1 when the sets' boxes miss each other */
static int slab_common(const pfc_body *A, int na, const pfc_body *B, int nb, double *cl,
                       double *ch) {
    double ula[PFC_K], uha[PFC_K], ulb[PFC_K], uhb[PFC_K];
    for (int k = 0; k < PFC_K; k++) {
        ula[k] = ulb[k] = INFINITY;
        uha[k] = uhb[k] = -INFINITY;
    }
    for (int c = 0; c < na; c++)
        for (int k = 0; k < PFC_K; k++) {
            ula[k] = pfc_min(ula[k], A->clo[PFC_K * c + k]);
            uha[k] = pfc_max(uha[k], A->chi[PFC_K * c + k]);
        }
    for (int c = 0; c < nb; c++)
        for (int k = 0; k < PFC_K; k++) {
            ulb[k] = pfc_min(ulb[k], B->clo[PFC_K * c + k]);
            uhb[k] = pfc_max(uhb[k], B->chi[PFC_K * c + k]);
        }
    int ax = 0;
    for (int k = 0; k < PFC_K; k++) {
        cl[k] = pfc_max(ula[k], ulb[k]);
        ch[k] = pfc_min(uha[k], uhb[k]);
        if (cl[k] > ch[k]) return -1;
        if (k < 3 && ch[k] - cl[k] > ch[ax] - cl[ax]) ax = k;
    }
    return ax;
}

/* candidate c of A against B's candidates sorted along axis ax (lower ends from al[ax] - wmax
 * up to ah[ax]): pairs whose volumes overlap go through tet_pair (rigid = 0) or tri_tet (rigid =
 * 1: A's triangle c against B's tet); the force on B's body and its moment go to A->cpart[6 c],
 * the polygons and narrow-phase pairs to A->cact[2 c] */
static void slab_candidate_pairs(const pfc_state *s, pfc_body *A, int c, const pfc_body *B, int nb,
                                 int rigid, int ax, double wmax, const double *cl, const double *ch,
                                 const tc_body_state *sa, const tc_body_state *sb) {
    const double *al = A->clo + PFC_K * c, *ah = A->chi + PFC_K * c;
    /* the sums on the stack (no cache line shared with other threads' candidates) */
    double part[6] = {0, 0, 0, 0, 0, 0};
    long long ev = 0;
    int act = 0, i = A->cand[c];
    if (kdop_overlap(al, ah, cl, ch)) {
        /* the first of B's candidates that can reach al[ax]: its lower end is at least al - wmax */
        const double *rec = B->srec;
        double from = al[ax] - wmax, to = ah[ax], plo = rigid ? 0 : A->prange[2 * i],
               phi = rigid ? 0 : A->prange[2 * i + 1];
        int l = 0, r = nb;
        while (l < r) {
            int m = (l + r) / 2;
            if (rec[PFC_REC * m + ax] < from)
                l = m + 1;
            else
                r = m;
        }
        /* the query: A's upper bounds and negated lower bounds against the records */
        double qa[2 * PFC_K];
        for (int k = 0; k < PFC_K; k++) {
            qa[k] = ah[k];
            qa[PFC_K + k] = -al[k];
        }
        int jb[PFC_BATCH], m = 0;
        for (int q = l; q < nb && rec[PFC_REC * q + ax] <= to; q++) {
            const double *rq = rec + PFC_REC * q;
            /* along the sweep axis first, then the whole volumes: v, v + w, v - w, w, and u last
             * (the most selective first; inside the slab u seldom separates) */
            if (rq[PFC_K + ax] > qa[PFC_K + ax]) continue;
            if (!(rq[1] <= qa[1] && rq[PFC_K + 1] <= qa[PFC_K + 1] && rq[3] <= qa[3] &&
                  rq[PFC_K + 3] <= qa[PFC_K + 3] && rq[4] <= qa[4] &&
                  rq[PFC_K + 4] <= qa[PFC_K + 4] && rq[2] <= qa[2] &&
                  rq[PFC_K + 2] <= qa[PFC_K + 2] && rq[0] <= qa[0] && rq[PFC_K] <= qa[PFC_K]))
                continue;
            int j = B->scand[q];
            if (rigid) {
                act += tri_tet(s, A, B, c, j, sa, sb, part, part + 3, &ev);
                continue;
            }
            /* disjoint pressure ranges: p0_a = p0_b nowhere in the tets' overlap */
            if (phi < rq[2 * PFC_K] || rq[2 * PFC_K + 1] < plo) continue;
            /* the pairs in batches, in scan order */
            jb[m++] = j;
            ev++;
            if (m == PFC_BATCH) {
                act += tet_pairs(s, A, B, i, jb, m, sa, sb, part, part + 3);
                m = 0;
            }
        }
        if (m) act += tet_pairs(s, A, B, i, jb, m, sa, sb, part, part + 3);
    }
    memcpy(A->cpart + 6 * c, part, sizeof part);
    A->cact[2 * c] = act;
    A->cact[2 * c + 1] = (int)ev;
}

/* mesh A against mesh B through the overlap slab: the tets of each mesh that meet it (found
 * through its tree; for a rigid A, rigid = 1, its surface triangles) with their candidate volumes,
 * then each of A's candidates (in their order) against B's sorted along the widest axis of the
 * common box. With threads != 1 and large meshes (ntet_a ntet_b >= PFC_PARALLEL) one thread
 * region runs the two candidate searches side by side and the candidates' pairs over the team; each
 * A candidate sums its own pairs and the candidates are summed in order, so the bits do not depend
 * on the thread count. Adds the force on B's body and its moment about B's COM to F, M */
static int slab_pair(const pfc_state *s, pfc_body *A, pfc_body *B, int rigid,
                     const tc_body_state *sa, const tc_body_state *sb, double F[3], double M[3],
                     long long *evals) {
    double uvw[3][3], lo, hi, tol, cl[PFC_K], ch[PFC_K], wmax = 0;
    if (!slab_setup(A, B, sa, sb, uvw, &lo, &hi, &tol)) return 0;
    const double(*frame)[3] = (const double(*)[3])uvw;
    int na = 0, nb = 0, ax = -1;
    int nth = s->threads > 0 ? s->threads : tc_par_threads();
    if (nth > 1 && (double)A->mesh->ntet * B->mesh->ntet >= PFC_PARALLEL) {
        /* a team: the two candidate searches side by side, then the candidates over the team */
#pragma omp parallel num_threads(nth)
        {
#pragma omp sections
            {
#pragma omp section
                na = rigid ? slab_tri_candidates(A, sa, frame, lo, hi, tol, s->stamp)
                           : slab_candidates(A, sa, frame, lo, hi, tol, s->stamp);
#pragma omp section
                nb = slab_candidates(B, sb, frame, lo, hi, tol, s->stamp);
            }
            /* the common box, B's candidates sorted along its widest axis, their widest extent */
#pragma omp single
            if (na && nb && (ax = slab_common(A, na, B, nb, cl, ch)) >= 0) {
                nb = cand_sort(B, nb, ax, cl, ch);
                for (int q = 0; q < nb; q++)
                    wmax = pfc_max(wmax,
                                   -B->srec[PFC_REC * q + PFC_K + ax] - B->srec[PFC_REC * q + ax]);
            }
            if (ax >= 0) {
#pragma omp for schedule(dynamic, 4) nowait
                for (int c = 0; c < na; c++)
                    slab_candidate_pairs(s, A, c, B, nb, rigid, ax, wmax, cl, ch, sa, sb);
            }
        }
    } else {
        /* the same steps on the caller's thread, with no thread region at all */
        na = rigid ? slab_tri_candidates(A, sa, frame, lo, hi, tol, s->stamp)
                   : slab_candidates(A, sa, frame, lo, hi, tol, s->stamp);
        nb = na ? slab_candidates(B, sb, frame, lo, hi, tol, s->stamp) : 0;
        if (na && nb && (ax = slab_common(A, na, B, nb, cl, ch)) >= 0) {
            nb = cand_sort(B, nb, ax, cl, ch);
            for (int q = 0; q < nb; q++)
                wmax =
                    pfc_max(wmax, -B->srec[PFC_REC * q + PFC_K + ax] - B->srec[PFC_REC * q + ax]);
            for (int c = 0; c < na; c++)
                slab_candidate_pairs(s, A, c, B, nb, rigid, ax, wmax, cl, ch, sa, sb);
        }
    }
    if (ax < 0) return 0;
    /* the candidates' sums in candidate order */
    int active = 0;
    for (int c = 0; c < na; c++) {
        tc_v3_add(F, F, A->cpart + 6 * c);
        tc_v3_add(M, M, A->cpart + 6 * c + 3);
        active += A->cact[2 * c];
        *evals += A->cact[2 * c + 1];
    }
    return active;
}

/* two soft bodies through the overlap slab; adds the force on B's body */
static int pair_soft_soft_slab(const pfc_state *s, pfc_body *A, pfc_body *B,
                               const tc_body_state *sa, const tc_body_state *sb, double F[3],
                               double M[3], long long *evals) {
    return slab_pair(s, A, B, 0, sa, sb, F, M, evals);
}

/* a rigid body's mesh R against a soft mesh S (Elandt et al.'s soft-rigid contact): R's surface
 * triangles inside S, each clipped by S's tets, under S's pressure along the triangle's outward
 * normal; adds the force on S's body and its moment about S's COM to F, M */
static int pair_rigid_soft(const pfc_state *s, pfc_body *R, pfc_body *S, const tc_body_state *sr,
                           const tc_body_state *ss, double F[3], double M[3], long long *evals) {
    return slab_pair(s, R, S, 1, sr, ss, F, M, evals);
}

/* tet i of a soft body against the half-space {n . x < h}. A rigid plane: its section by the
 * plane. A compliant layer (plane_h > 0, p0_plane = E (h - n . x) / plane_h): the equal-pressure
 * plane of the two linear fields inside the tet (where p0 of the tet is >= 0, so is the layer's:
 * the polygon lies below the surface), normal along grad p0_tet - grad p0_plane */
static int tet_plane(const pfc_state *s, const pfc_body *S, int i, const double n[3], double h,
                     const tc_body_state *ss, const tc_body_state *sp, double F[3], double M[3],
                     long long *evals) {
    const int *t = S->mesh->tet + 4 * i;
    const double *x[4] = {S->x + 3 * t[0], S->x + 3 * t[1], S->x + 3 * t[2], S->x + 3 * t[3]};
    double d[4], dmin = INFINITY, dmax = -INFINITY;
    for (int k = 0; k < 4; k++) {
        d[k] = tc_v3_dot(n, x[k]) - h;
        dmin = pfc_min(dmin, d[k]);
        dmax = pfc_max(dmax, d[k]);
    }
    double P[PFC_MAXPOLY][3];
    if (s->plane_h > 0) {
        if (dmin >= 0) return 0;
        const double kp = s->E / s->plane_h, *gb = S->g + 3 * i;
        double ne[3], de[4], emin = INFINITY, emax = -INFINITY;
        for (int k = 0; k < 3; k++)
            ne[k] = gb[k] + kp * n[k];
        double gn = tc_v3_norm(ne);
        if (!(gn > 1e-12 * (S->gnorm[i] + kp))) return 0;
        tc_v3_scale(ne, ne, 1 / gn);
        double he = (kp * h - S->c[i]) / gn;
        for (int k = 0; k < 4; k++) {
            de[k] = tc_v3_dot(ne, x[k]) - he;
            emin = pfc_min(emin, de[k]);
            emax = pfc_max(emax, de[k]);
        }
        if (emin >= 0 || emax < 0) return 0;
        (*evals)++;
        int np = poly_plane_tet(P, x, de);
        return poly_integrate(s, P, np, ne, gb, S->c[i], sp, ss, F, M);
    }
    /* half open (a vertex on the plane counts above it): a tet face lying in the plane is cut
     * once, by the tet below it */
    if (dmin >= 0 || dmax < 0) return 0;
    (*evals)++;
    int np = poly_plane_tet(P, x, d);
    return poly_integrate(s, P, np, n, S->g + 3 * i, S->c[i], sp, ss, F, M);
}

/* tet i's world vertices, gradient and constant as tet_world makes them, without the face
 * planes and the tet's vertex copy (a half-space needs neither); leaves the tet's stamp alone */
static void tet_world_field(pfc_body *b, const tc_body_state *bs, int i, int stamp) {
    if (b->tstamp[i] == stamp) return;
    const int *t = b->mesh->tet + 4 * i;
    for (int v = 0; v < 4; v++)
        vert_world(b, bs, t[v], stamp);
    double *g = b->g + 3 * i;
    tc_m3_mulv(g, bs->R, b->mesh->grad + 3 * i);
    b->c[i] = b->mesh->c[i] - tc_v3_dot(g, bs->pos);
}

/* a soft body against a half-space: each tet the plane crosses (a rigid plane) or that reaches
 * below it (a compliant layer), among all tets or the leaves of the tree whose boxes qualify, in
 * tree order */
static int pair_soft_plane(const pfc_state *s, pfc_body *S, const tc_body_state *ss,
                           const tc_body_state *sp, double F[3], double M[3], long long *evals) {
    /* the plane's outward normal is its body z axis: from the plane (a) to the soft body (b) */
    const double n[3] = {sp->R[2], sp->R[5], sp->R[8]};
    const double h = tc_v3_dot(n, sp->pos);
    int active = 0;
    if (!s->use_bvh) {
        for (int i = 0; i < S->mesh->ntet; i++)
            active += tet_plane(s, S, i, n, h, ss, sp, F, M, evals);
        return active;
    }
    /* the plane in the soft body's frame: nb . x = hb */
    double nb[3], hb = h - tc_v3_dot(n, ss->pos);
    for (int k = 0; k < 3; k++)
        nb[k] = ss->R[k] * n[0] + ss->R[3 + k] * n[1] + ss->R[6 + k] * n[2];
    const tc_tetbvh_node *nd = S->bvh->node;
    double tol = 1e-12 * (1 + fabs(hb) + nd[0].e[0] + nd[0].e[1] + nd[0].e[2]);
    int stack[PFC_STACK], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const tc_tetbvh_node *b = &nd[stack[--top]];
        double dc = tc_v3_dot(nb, b->c) - hb,
               r = fabs(nb[0]) * b->e[0] + fabs(nb[1]) * b->e[1] + fabs(nb[2]) * b->e[2] + tol;
        if (dc - r > 0 || (s->plane_h == 0 && dc + r < 0)) continue;
        if (!b->count) {
            stack[top++] = b->right;
            stack[top++] = b->left;
            continue;
        }
        for (int p = b->first; p < b->first + b->count; p++) {
            int i = S->bvh->order[p];
            tet_world_field(S, ss, i, s->stamp);
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
    /* a new stamp for world copies made on demand (the stamps restart before the counter
     * overflows); the brute force also moves every soft mesh into the world frame at once */
    if (++s->stamp == INT_MAX) {
        for (int i = 0; i < sc->nbody; i++)
            for (int k = 0; k < s->nmesh[i]; k++) {
                pfc_body *m = pfc_mesh(s, i, k);
                memset(m->vstamp, 0, (size_t)m->mesh->nvert * sizeof(int));
                memset(m->tstamp, 0, (size_t)m->mesh->ntet * sizeof(int));
            }
        s->stamp = 1;
    }
    if (!s->use_bvh)
        for (int i = 0; i < sc->nbody; i++)
            for (int k = 0; k < s->nmesh[i] && !s->rigid[i]; k++)
                body_update(pfc_mesh(s, i, k), &bs[i]);
    int active = 0;
    long long evals = 0;
    for (int i = 0; i < s->npair; i++) {
        int a = s->pairs[2 * i], b = s->pairs[2 * i + 1];
        if (s->sink) {
            s->sink->a = a;
            s->sink->b = b;
        }
        /* two rigid bodies (or a rigid body and the plane): no contact */
        int ra = s->rigid[a] || !s->nmesh[a], rb = s->rigid[b] || !s->nmesh[b];
        if (ra && rb) continue;
        /* force on b and its moment about b's COM, summed over the meshes (parts) of both in
         * the parts' order */
        double F[3] = {0, 0, 0}, M[3] = {0, 0, 0};
        if (!ra && !rb) {
            for (int ka = 0; ka < s->nmesh[a]; ka++)
                for (int kb = 0; kb < s->nmesh[b]; kb++)
                    active += (s->use_bvh ? pair_soft_soft_slab : pair_soft_soft)(
                        s, pfc_mesh(s, a, ka), pfc_mesh(s, b, kb), &bs[a], &bs[b], F, M, &evals);
        } else if (ra && s->nmesh[a]) {
            /* a rigid, b soft */
            for (int ka = 0; ka < s->nmesh[a]; ka++)
                for (int kb = 0; kb < s->nmesh[b]; kb++)
                    active += pair_rigid_soft(s, pfc_mesh(s, a, ka), pfc_mesh(s, b, kb), &bs[a],
                                              &bs[b], F, M, &evals);
        } else if (ra) {
            for (int kb = 0; kb < s->nmesh[b]; kb++)
                active += pair_soft_plane(s, pfc_mesh(s, b, kb), &bs[b], &bs[a], F, M, &evals);
        } else {
            /* the soft body is a (against the rigid body or plane b): the force on b is the
             * reaction */
            for (int ka = 0; ka < s->nmesh[a]; ka++) {
                if (s->nmesh[b])
                    for (int kb = 0; kb < s->nmesh[b]; kb++)
                        active += pair_rigid_soft(s, pfc_mesh(s, b, kb), pfc_mesh(s, a, ka), &bs[b],
                                                  &bs[a], F, M, &evals);
                else
                    active += pair_soft_plane(s, pfc_mesh(s, a, ka), &bs[a], &bs[b], F, M, &evals);
            }
            double r[3], t[3];
            tc_v3_sub(r, bs[a].pos, bs[b].pos);
            tc_v3_cross(t, r, F);
            tc_v3_add(M, M, t);
            tc_v3_scale(F, F, -1);
            tc_v3_scale(M, M, -1);
        }
        if (tc_nonfinite(F, 3) || tc_nonfinite(M, 3)) return TC_EDIVERGED;
        /* b gets F and M; a the opposite force with its moment about a's COM */
        double r[3], t[3];
        tc_v3_sub(r, bs[b].pos, bs[a].pos);
        tc_v3_cross(t, r, F);
        tc_v3_add(t, t, M);
        tc_v3_add(w[b].f, w[b].f, F);
        tc_v3_add(w[b].t, w[b].t, M);
        tc_v3_sub(w[a].f, w[a].f, F);
        tc_v3_sub(w[a].t, w[a].t, t);
    }
    if (st) {
        st->ncontact = active;
        st->pair_evals += evals;
    }
    return TC_OK;
}

int tc_pfc_surface(void *state, const tc_body_state *bs, tc_pfc_polygon *poly, int max) {
    pfc_state *s = state;
    tc_wrench *w = malloc((size_t)(s->scene->nbody > 0 ? s->scene->nbody : 1) * sizeof *w);
    if (!w) return -1;
    /* one evaluation on one thread (the sink is filled in evaluation order) */
    pfc_sink k = {poly, max > 0 ? max : 0, 0, -1, -1};
    int threads = s->threads;
    s->sink = &k;
    s->threads = 1;
    tc_status st = pfc_force(s, bs, w, NULL);
    s->sink = NULL;
    s->threads = threads;
    free(w);
    return st ? -1 : k.n;
}

const tc_model_type tc_model_pfc = {
    .name = "pfc",
    .summary = "pressure field (hydroelastic) contact on linear tet fields, Hunt–Crossley "
               "dissipation and regularised Coulomb friction",
    .reference = "Elandt, Drumwright, Sherman & Ruina 2019; docs/models/pfc.md",
    .params = pfc_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_SMOOTH,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND) |
              TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID) | TC_SHAPE_BIT(TC_SHAPE_CYLINDER) |
              TC_SHAPE_BIT(TC_SHAPE_POLYTOPE),
    .alloc = pfc_alloc,
    .force = pfc_force,
    .free = pfc_free,
};
