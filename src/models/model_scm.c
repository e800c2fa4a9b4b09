/* SPDX-License-Identifier: MIT */
/* SCM: the soft-minimum contact model over SSDFs of oriented point clouds (Beker et al. 2025) */
#include "core/tc_arena.h"
#include "core/tc_parallel.h"
#include "geom/tc_aopc.h"
#include "math/tc_smooth.h"
#include "math/tc_vec.h"
#include "geom/tc_morton.h"
#include "models/tc_model.h"
#include "models/tc_scm.h"
#include "models/tc_scm_gather.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* parameters: the paper publishes none; every default says why (docs/models/scm.md) */
static const tc_param_spec scm_params[] = {
    {"k", 1000.0, 0, 1e12, TC_PARAM_REAL, "N/m", "point-plane stiffness",
     "order of MuJoCo's static stiffness m/0.02^2 for a 0.4 kg body; experiments match it"},
    {"spacing", 0.01, 1e-5, 10, TC_PARAM_SPACING, "m", "target AOPC point spacing",
     "1 cm: about 1250 points on a 10 cm sphere, 26-4000 points on the paper's shapes"},
    {"eps1_rel", 1.0, 1e-3, 1e3, TC_PARAM_REAL, "1", "SSDF softmax width eps1 / spacing^2",
     "eps1 = spacing^2 blends the ~3 nearest points, so the SSDF is smooth between samples"},
    {"eps2", 0.002, 1e-7, 1, TC_PARAM_REAL, "m", "softmin width over the separation field",
     "2 mm: near the spacing^2/(2R) depth step between neighbouring points of 1 cm clouds"},
    {"eps3", 0.001, 1e-7, 1, TC_PARAM_REAL, "m", "softplus width of the point-plane force",
     "1 mm: force at a distance decays over 1 mm, below the penetrations of interest"},
    {"vd", 0.5, 1e-6, 100, TC_PARAM_REAL, "m/s", "dissipation velocity v_d",
     "approach at 0.5 m/s doubles the force; separation above 1 m/s removes it"},
    {"vs", 0.01, 1e-9, 10, TC_PARAM_REAL, "m/s", "stiction velocity v_s of the friction law",
     "1 cm/s: below the T-pushing speeds, large enough for 2-16 ms explicit steps"},
    {"consistent", 0, 0, 1, TC_PARAM_BOOL, "1",
     "reaction through the plane body at p (1) or at p_i (0)",
     "0 is the paper's eq. 21; 1 conserves angular momentum exactly"},
    {"prune", 1, 0, 1, TC_PARAM_BOOL, "1",
     "skip pairs and points whose softmax weight is below 1e-20",
     "changes no result by more than 1e-12 relative (tested), makes large clouds far cheaper"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

static void scm_free(void *state) {
    scm_state *s = state;
    if (!s) return;
    for (int i = 0; s->body && i < s->scene->nbody; i++)
        tc_aopc_free(&s->body[i]);
    tc_arena_free(&s->arena);
}

/* reorder a cloud along a Morton curve, so runs of BLK consecutive samples are compact patches
 * (the samplers order spheres by height and boxes by rows) and their bounding spheres prune well */
static tc_status morton_order(tc_aopc *c) {
    int *order = malloc((size_t)(c->n + 1) * sizeof *order);
    tc_aopc tmp;
    if (!order || tc_morton_order(c->n, c->px, c->py, c->pz, 1, order)) {
        free(order);
        return TC_ENOMEM;
    }
    if (tc_aopc_alloc_n(&tmp, c->n)) {
        free(order);
        return TC_ENOMEM;
    }
    for (int j = 0; j < c->n; j++) {
        int i = order[j];
        tmp.px[j] = c->px[i];
        tmp.py[j] = c->py[i];
        tmp.pz[j] = c->pz[i];
        tmp.nx[j] = c->nx[i];
        tmp.ny[j] = c->ny[i];
        tmp.nz[j] = c->nz[i];
    }
    /* array by array: a compound's arrays are spaced by its pre-filter size, not by n */
    const size_t sz = (size_t)c->n * sizeof(double);
    memcpy(c->px, tmp.px, sz);
    memcpy(c->py, tmp.py, sz);
    memcpy(c->pz, tmp.pz, sz);
    memcpy(c->nx, tmp.nx, sz);
    memcpy(c->ny, tmp.ny, sz);
    memcpy(c->nz, tmp.nz, sz);
    tc_aopc_free(&tmp);
    free(order);
    return TC_OK;
}

/* the clouds of every body, each sampled once and ordered along a Morton curve */
static tc_status sample_clouds(tc_aopc *cloud, const tc_scene *scene, double h, tc_error *err) {
    for (int i = 0; i < scene->nbody; i++) {
        tc_status st = tc_aopc_alloc(&cloud[i], &scene->body[i].shape, h, err);
        if (!st) st = morton_order(&cloud[i]);
        if (st) return st;
    }
    return TC_OK;
}

/* what the arrays are sized by besides the state's counts: the clouds, the largest one rounded
 * up to 16 points */
typedef struct scm_sizes {
    const tc_aopc *cloud;
    int maxn;
} scm_sizes;

/* body i's moments, block spheres and world cloud of n points (stored unless sizing) */
static void carve_body(scm_state *s, tc_arena *a, int i, int n) {
    size_t nblk = ((size_t)n + BLK - 1) / BLK;
    double *mom = tc_arena_alloc(a, 3 * (size_t)n + 1, sizeof *mom);
    double *momw = tc_arena_alloc(a, 3 * (size_t)n + 1, sizeof *momw);
    double *blk = tc_arena_alloc(a, 4 * nblk + 1, sizeof *blk);
    double *blkw = tc_arena_alloc(a, 3 * nblk + 1, sizeof *blkw);
    double *w = tc_arena_alloc(a, 6 * (size_t)(n > 0 ? n : 1), sizeof *w);
    if (!s->mom) return;
    s->mom[i] = mom;
    s->momw[i] = momw;
    s->blk[i] = blk;
    s->blkw[i] = blkw;
    s->world[i] = (tc_aopc){.n = n,
                            .px = w,
                            .py = w + n,
                            .pz = w + 2 * n,
                            .nx = w + 3 * n,
                            .ny = w + 4 * n,
                            .nz = w + 5 * n};
}

/* the arrays, carved from the state's block (a probe while sizing). The threads' scratch sits on
 * cache lines of its own (64-byte aligned, sizes rounded up to whole lines): threads' slices cut
 * at multiples of 64 bytes share no line */
static void carve(void *state, tc_arena *a, const void *ctx) {
    scm_state *s = state;
    const scm_sizes *z = ctx;
    size_t nb = (size_t)s->scene->nbody, np = (size_t)s->npair, ng = (size_t)s->ngather;
    s->body = tc_arena_alloc(a, nb, sizeof *s->body);
    s->world = tc_arena_alloc(a, nb, sizeof *s->world);
    s->eps1 = tc_arena_alloc(a, nb, sizeof *s->eps1);
    s->pairs = tc_arena_alloc(a, 2 * np + 2, sizeof *s->pairs);
    s->mom = tc_arena_alloc(a, nb, sizeof *s->mom);
    s->momw = tc_arena_alloc(a, nb, sizeof *s->momw);
    s->blk = tc_arena_alloc(a, nb, sizeof *s->blk);
    s->blkw = tc_arena_alloc(a, nb, sizeof *s->blkw);
    for (size_t i = 0; i < nb; i++)
        carve_body(s, a, (int)i, z->cloud[i].n);
    s->out = tc_arena_alloc_aligned(a, s->qcap * OUT_N * ng, sizeof *s->out, 64);
    s->kidx = tc_arena_alloc_aligned(a, s->qcap * KEEP * ng, sizeof *s->kidx, 64);
    s->kn = tc_arena_alloc_aligned(a, s->qcap * ng, sizeof *s->kn, 64);
    s->pw = tc_arena_alloc(a, np * 12 + 1, sizeof *s->pw);
    s->dpw = tc_arena_alloc(a, np * TC_SCM_DPW + 1, sizeof *s->dpw);
    s->dsep = tc_arena_alloc(a, np * 25 + 1, sizeof *s->dsep);
    s->one_pass = tc_arena_alloc(a, np + 1, 1);
    s->gather = tc_arena_alloc_aligned(a, ng, sizeof *s->gather, 64);
    s->gbuf = tc_arena_alloc_aligned(a, ng * 2 * (size_t)z->maxn, sizeof *s->gbuf, 64);
    s->gidx = tc_arena_alloc_aligned(a, ng * 2 * (size_t)z->maxn, sizeof *s->gidx, 64);
}

/* body i's SSDF width, its moments p x n about the body origin (the COM: the paper-form
 * reaction torque per unit normal force, rotated with the body at each evaluation) and the
 * bounding spheres of each block of BLK consecutive samples (neighbours on a face) */
static void body_tables(scm_state *s, int i, double h, double rel) {
    const tc_aopc *c = &s->body[i];
    double hi = c->spacing > 0 ? c->spacing : h;
    s->eps1[i] = rel * hi * hi;
    for (int j = 0; j < c->n; j++) {
        double pj[3] = {c->px[j], c->py[j], c->pz[j]}, nj[3] = {c->nx[j], c->ny[j], c->nz[j]};
        double mj[3];
        tc_v3_cross(mj, pj, nj);
        s->mom[i][j] = mj[0];
        s->mom[i][c->n + j] = mj[1];
        s->mom[i][2 * c->n + j] = mj[2];
    }
    const int nblk = (c->n + BLK - 1) / BLK;
    for (int b = 0; b < nblk; b++) {
        int j0 = b * BLK, j1 = j0 + BLK < c->n ? j0 + BLK : c->n;
        double ctr[3] = {0, 0, 0}, r = 0;
        for (int j = j0; j < j1; j++) {
            ctr[0] += c->px[j] / (j1 - j0);
            ctr[1] += c->py[j] / (j1 - j0);
            ctr[2] += c->pz[j] / (j1 - j0);
        }
        for (int j = j0; j < j1; j++) {
            double d[3] = {c->px[j] - ctr[0], c->py[j] - ctr[1], c->pz[j] - ctr[2]};
            r = fmax(r, tc_v3_norm(d));
        }
        double *bk = s->blk[i] + 4 * b;
        bk[0] = ctr[0];
        bk[1] = ctr[1];
        bk[2] = ctr[2];
        bk[3] = r * (1 + 1e-12) + 1e-15;
    }
}

/* the sizes of the pair scratch (the pair with the most query points, whole cache lines) and of
 * the gather buffers (the largest cloud), one of each for every thread a force may run on */
static void scratch_sizes(scm_state *s, const tc_aopc *cloud, const int *pairs, int *maxn) {
    int maxq = 0;
    for (int i = 0; i < s->npair; i++) {
        int q = cloud[pairs[2 * i]].n + cloud[pairs[2 * i + 1]].n;
        maxq = q > maxq ? q : maxq;
    }
    s->ngather =
        omp_get_max_threads() > omp_get_num_procs() ? omp_get_max_threads() : omp_get_num_procs();
    /* each thread's slices start on a cache line of their own (qcap a multiple of 16) */
    s->qcap = ((size_t)maxq + 16) / 16 * 16;
    *maxn = 1;
    for (int i = 0; i < s->scene->nbody; i++)
        *maxn = cloud[i].n > *maxn ? cloud[i].n : *maxn;
    *maxn = (*maxn + 15) / 16 * 16;
}

/* pairs go on threads one each when no pair holds more than a tenth of the work (query points
 * times cloud points); otherwise the threads share each large pair's query blocks */
static int balanced(const scm_state *s) {
    double total = 0, largest = 0;
    for (int i = 0; i < s->npair; i++) {
        double w = (double)s->body[s->pairs[2 * i]].n * s->body[s->pairs[2 * i + 1]].n;
        total += w;
        largest = w > largest ? w : largest;
    }
    return s->npair >= 4 && largest <= 0.1 * total;
}

/* each thread's gather buffer: distances, block bounds, indices and candidates */
static void gather_buffers(scm_state *s, int maxn) {
    for (int t = 0; t < s->ngather; t++) {
        double *b = s->gbuf + (size_t)t * 2 * maxn;
        tc_scm_gather *g = &s->gather[t];
        g->idx = s->gidx + (size_t)t * 2 * maxn;
        g->cand = g->idx + maxn;
        g->dist = b;
        g->lb = b + maxn;
    }
}

/* the state: the clouds and pairs first (in scratch arrays), then one block for the state and
 * every array, into which the clouds and pairs move */
static tc_status scm_alloc(void **state, const tc_scene *scene, const tc_params *p, tc_error *err) {
    size_t nb = (size_t)scene->nbody;
    scm_state probe = {.scene = scene,
                       .prune = (int)tc_params_get(p, "prune"),
                       .k = tc_params_get(p, "k"),
                       .eps2 = tc_params_get(p, "eps2"),
                       .eps3 = tc_params_get(p, "eps3"),
                       .vd = tc_params_get(p, "vd"),
                       .vs = tc_params_get(p, "vs"),
                       .consistent = (int)tc_params_get(p, "consistent"),
                       .mu = scene->friction};
    double h = tc_params_get(p, "spacing"), rel = tc_params_get(p, "eps1_rel");
    tc_aopc *cloud = calloc(nb + 1, sizeof *cloud);
    int *pairs = calloc(nb * nb + 2, sizeof *pairs);
    tc_status st = cloud && pairs ? sample_clouds(cloud, scene, h, err) : TC_ENOMEM;
    scm_sizes z = {cloud, 1};
    scm_state *s = NULL;
    if (!st) {
        probe.npair = tc_scene_pairs(scene, pairs);
        scratch_sizes(&probe, cloud, pairs, &z.maxn);
        s = tc_arena_make(&probe, sizeof probe, offsetof(scm_state, arena), carve, &z);
        st = s ? TC_OK : TC_ENOMEM;
    }
    for (size_t i = 0; st && cloud && i < nb; i++)
        tc_aopc_free(&cloud[i]);
    if (s) {
        memcpy(s->body, cloud, nb * sizeof *cloud);
        memcpy(s->pairs, pairs, 2 * (size_t)s->npair * sizeof *pairs);
        for (int i = 0; i < scene->nbody; i++)
            body_tables(s, i, h, rel);
        s->by_pair = balanced(s);
        gather_buffers(s, z.maxn);
        *state = s;
    }
    free(cloud);
    free(pairs);
    return st;
}

/* pruning: weights below e^-CUT (1e-20) are left out, at both softmax levels; they change no sum
 * by more than 1e-20 of its largest term (the largest weight is 1) */
#define CUT TC_SCM_CUT
/* elementwise over one chunk of gathered points, read from the cloud through their indices
 * (vectorises, with gathered loads; every clone computes the same IEEE operations, without
 * contraction, so all give the same bits): softmax weight and plane distance */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_eval(int m, const int *restrict idx, const double *restrict px, const double *restrict py,
           const double *restrict pz, const double *restrict nx, const double *restrict ny,
           const double *restrict nz, const double p[3], double dmin, double inv_eps1,
           double *restrict wb, double *restrict phib) {
    for (int t = 0; t < m; t++) {
        const int i = idx[t];
        double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
        wb[t] = tc_exp_neg((dmin - (dx * dx + dy * dy + dz * dz)) * inv_eps1);
        phib[t] = nx[i] * dx + ny[i] * dy + nz[i] * dz;
    }
}

/* the point-plane force lambda and r x lambda (r = p_i - c) per pair into l0..t2; without
 * velocities lambda = ln n and r x lambda = ln (r x n) from the stored moments */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_force_static(int m, const int *restrict idx, const double *restrict nx,
                   const double *restrict ny, const double *restrict nz, const double *restrict mx,
                   const double *restrict my, const double *restrict mz,
                   const double *restrict phib, double k, double eps3, double *restrict l0,
                   double *restrict l1, double *restrict l2, double *restrict t0,
                   double *restrict t1, double *restrict t2) {
    for (int t = 0; t < m; t++) {
        const int i = idx[t];
        const double ln = k * tc_softplus(-phib[t], eps3);
        l0[t] = ln * nx[i];
        l1[t] = ln * ny[i];
        l2[t] = ln * nz[i];
        t0[t] = ln * mx[i];
        t1[t] = ln * my[i];
        t2[t] = ln * mz[i];
    }
}

/* with velocities: dissipation d(v_n / v_d) and regularised friction (eq. 17-20); v is the query
 * point's velocity, V and W the plane body's linear and angular velocity, c its COM */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void chunk_force_dynamic(
    int m, const int *restrict idx, const double *restrict px, const double *restrict py,
    const double *restrict pz, const double *restrict nx, const double *restrict ny,
    const double *restrict nz, const double *restrict phib, double k, double eps3,
    const double v[3], const double V[3], const double W[3], const double c[3], double inv_vd,
    double vs2, double mu, double *restrict l0, double *restrict l1, double *restrict l2,
    double *restrict t0, double *restrict t1, double *restrict t2) {
    const double v0_ = v[0] - V[0], v1_ = v[1] - V[1], v2_ = v[2] - V[2];
    const double w0 = W[0], w1 = W[1], w2 = W[2], c0 = c[0], c1 = c[1], c2 = c[2];
    for (int t = 0; t < m; t++) {
        const int i = idx[t];
        double rx = px[i] - c0, ry = py[i] - c1, rz = pz[i] - c2;
        /* relative velocity of the point against the plane point */
        double v0 = v0_ - (w1 * rz - w2 * ry);
        double v1 = v1_ - (w2 * rx - w0 * rz);
        double v2 = v2_ - (w0 * ry - w1 * rx);
        tc_scm_law o;
        tc_scm_law_eval(phib[t], nx[i], ny[i], nz[i], v0, v1, v2, k, eps3, inv_vd, vs2, mu, &o);
        const double a = o.l[0], b = o.l[1], e = o.l[2];
        l0[t] = a;
        l1[t] = b;
        l2[t] = e;
        t0[t] = ry * e - rz * b;
        t1[t] = rz * a - rx * e;
        t2[t] = rx * b - ry * a;
    }
}

/* sums of w, w phi and w x[0..5] over one chunk, in LANES interleaved accumulators whose order the
 * source fixes (vectorises on any ISA with the same bits); chunk_sum_phi: w and w phi only */
enum { LANES = 4, NSUM = 8 };
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_sum(int m, const double *restrict wb, const double *restrict phib, const double *restrict x0,
          const double *restrict x1, const double *restrict x2, const double *restrict x3,
          const double *restrict x4, const double *restrict x5, double acc[NSUM][LANES]) {
    int t = 0;
    for (; t + LANES <= m; t += LANES)
        for (int l = 0; l < LANES; l++) {
            const double w = wb[t + l];
            acc[0][l] += w;
            acc[1][l] += w * phib[t + l];
            acc[2][l] += w * x0[t + l];
            acc[3][l] += w * x1[t + l];
            acc[4][l] += w * x2[t + l];
            acc[5][l] += w * x3[t + l];
            acc[6][l] += w * x4[t + l];
            acc[7][l] += w * x5[t + l];
        }
    for (int l = 0; t < m; t++, l++) {
        const double w = wb[t];
        acc[0][l] += w;
        acc[1][l] += w * phib[t];
        acc[2][l] += w * x0[t];
        acc[3][l] += w * x1[t];
        acc[4][l] += w * x2[t];
        acc[5][l] += w * x3[t];
        acc[6][l] += w * x4[t];
        acc[7][l] += w * x5[t];
    }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_sum_phi(int m, const double *restrict wb, const double *restrict phib,
              double acc[NSUM][LANES]) {
    int t = 0;
    for (; t + LANES <= m; t += LANES)
        for (int l = 0; l < LANES; l++) {
            acc[0][l] += wb[t + l];
            acc[1][l] += wb[t + l] * phib[t + l];
        }
    for (int l = 0; t < m; t++, l++) {
        acc[0][l] += wb[t];
        acc[1][l] += wb[t] * phib[t];
    }
}

/* the per-query-point work: the SSDF value (forces = 0) or also the softmax-weighted point-plane
 * wrenches (forces = 1) of query point p against the points of cloud c gathered in g; sum[NSUM]
 * gets the totals */
static void point_sums(const scm_state *s, const tc_scm_cloud *c, const tc_scm_gather *g,
                       const double p[3], double dmin, double inv_eps1, int forces, int dynamic,
                       const double vq[3], const tc_body_state *sb, double sum[NSUM]) {
    double acc[NSUM][LANES] = {{0}}, wb[CHUNK], phib[CHUNK], l[6][CHUNK];
    const tc_aopc *S = c->S;
    const double *px = S->px, *py = S->py, *pz = S->pz, *nx = S->nx, *ny = S->ny, *nz = S->nz;
    for (int i0 = 0; i0 < g->n; i0 += CHUNK) {
        const int m = g->n - i0 < CHUNK ? g->n - i0 : CHUNK, *idx = g->idx + i0;
        chunk_eval(m, idx, px, py, pz, nx, ny, nz, p, dmin, inv_eps1, wb, phib);
        if (!forces) {
            chunk_sum_phi(m, wb, phib, acc);
            continue;
        }
        if (dynamic)
            chunk_force_dynamic(m, idx, px, py, pz, nx, ny, nz, phib, s->k, s->eps3, vq, sb->vel,
                                sb->omega, sb->pos, 1.0 / s->vd, s->vs * s->vs, s->mu, l[0], l[1],
                                l[2], l[3], l[4], l[5]);
        else
            chunk_force_static(m, idx, nx, ny, nz, c->mom, c->mom + S->n, c->mom + 2 * S->n, phib,
                               s->k, s->eps3, l[0], l[1], l[2], l[3], l[4], l[5]);
        chunk_sum(m, wb, phib, l[0], l[1], l[2], l[3], l[4], l[5], acc);
    }
    for (int k = 0; k < NSUM; k++)
        sum[k] = (acc[k][0] + acc[k][1]) + (acc[k][2] + acc[k][3]);
}

int tc_scm_threads(const scm_state *s) {
    int t = tc_par_threads();
    return t < s->ngather ? t : s->ngather;
}

/* query blocks of Q (the blocks of body qbody's Morton-ordered cloud), for parallel loops */
static int qblocks(const tc_aopc *Q) {
    return (Q->n + BLK - 1) / BLK;
}

/* the candidate source blocks of query block qb of body qbody against body sbody into g */
static void block_candidates(const scm_state *s, int qbody, int qb, int sbody, int ns, double eps1,
                             tc_scm_gather *g) {
    tc_scm_candidates(s->blkw[qbody] + 3 * qb, s->blk[qbody][4 * qb + 3], s->blk[sbody],
                      s->blkw[sbody], (ns + BLK - 1) / BLK, eps1, s->prune, g);
}

/* work above which a kernel region runs on threads (query points times candidate-free bound) */
static int parallel_worth(const tc_aopc *Q, const tc_aopc *S) {
    return (long long)Q->n * S->n > 200000;
}

/* one thread's scratch for a pair: its outputs, kept indices, and the first gather buffer its
 * kernel regions use (region thread t takes g0 + t) */
typedef struct {
    double *out;
    int *kidx, *kn;
    tc_scm_gather *g0;
} scm_scratch;

/* scratch set t (t = 0 when the pairs run one after the other) */
static scm_scratch scratch(const scm_state *s, int t) {
    return (scm_scratch){s->out + s->qcap * OUT_N * t, s->kidx + s->qcap * KEEP * t,
                         s->kn + s->qcap * t, s->gather + t};
}

/* body sbody's cloud with its block data, for the neighbour search */
static tc_scm_cloud cloud(const scm_state *s, const tc_aopc *S, int sbody) {
    return (tc_scm_cloud){S, s->momw[sbody], s->blk[sbody], s->blkw[sbody]};
}

/* phase A's gathered indices of query point f (of the pair's I1 + I2) kept for phase C */
static void keep_gathered(const scm_scratch *sc, const tc_scm_gather *g, int f) {
    sc->kn[f] = g->n <= KEEP ? g->n : -1;
    for (int k = 0; k < g->n && k < KEEP; k++)
        sc->kidx[(size_t)f * KEEP + k] = g->idx[k];
}

/* phase A: the SSDF value of every point of Q (body qbody) against S (body sbody), into
 * out[.][OUT_PHI], its nearest squared distance into out[.][OUT_DMIN] and its gathered indices
 * (keep_gathered, Q's first point being the pair's point base) (eq. 8-9); one query
 * block per iteration, each writing only its own rows (results do not depend on threads) */
static void query_phi(const scm_state *s, const scm_scratch *sc, const tc_aopc *Q, int qbody,
                      const tc_aopc *S, int sbody, double eps1, int base, double *out) {
    const tc_scm_cloud c = cloud(s, S, sbody);
#pragma omp parallel for schedule(dynamic, 2)                                                      \
    num_threads(tc_scm_threads(s)) if (parallel_worth(Q, S))
    for (int qb = 0; qb < qblocks(Q); qb++) {
        tc_scm_gather *g = sc->g0 + omp_get_thread_num();
        block_candidates(s, qbody, qb, sbody, S->n, eps1, g);
        for (int j = qb * BLK; j < Q->n && j < (qb + 1) * BLK; j++) {
            const double p[3] = {Q->px[j], Q->py[j], Q->pz[j]};
            double sum[NSUM], dmin = tc_scm_gather_point(&c, p, eps1, s->prune, NAN, g);
            out[(size_t)j * OUT_N + OUT_DMIN] = dmin;
            keep_gathered(sc, g, base + j);
            point_sums(s, &c, g, p, dmin, 1.0 / eps1, 0, 0, NULL, NULL, sum);
            out[(size_t)j * OUT_N + OUT_PHI] = sum[1] / sum[0];
        }
    }
}

/* where phase C's SSDF values come from: phase A (PHI_KNOWN), or this pass, as the small pairs'
 * single pass has always written them (PHI_SET: sum[1] times 1 / sum[0]) or as phase A writes
 * them (PHI_SET_AS_A: the quotient, so a pruned pair run in one pass keeps two passes' bits) */
enum { PHI_KNOWN, PHI_SET, PHI_SET_AS_A };

/* phase C: wrenches on both bodies for every point of Q whose separation weight is above the
 * cutoff (phi < phi_cut); the others get zero (their eps2 weight is below 1e-20) (eq. 21-22).
 * Query blocks with no such point are skipped whole; the nearest distances, and the gathered
 * points where at most KEEP, come from phase A (Q's first point is the pair's point base).
 * With set_phi (PHI_SET, PHI_SET_AS_A) the SSDF values are written here too (single pass,
 * nothing cut). */
static void query_force(const scm_state *s, const scm_scratch *sc, const tc_aopc *Q, int qbody,
                        const tc_body_state *qs, const tc_aopc *S, int sbody,
                        const tc_body_state *sb, double eps1, int dynamic, double phi_cut,
                        int set_phi, int base, double *out) {
    const tc_scm_cloud c = cloud(s, S, sbody);
    const int paper = !s->consistent;
#pragma omp parallel for schedule(dynamic, 1)                                                      \
    num_threads(tc_scm_threads(s)) if (parallel_worth(Q, S))
    for (int qb = 0; qb < qblocks(Q); qb++) {
        const int j0 = qb * BLK, j1 = j0 + BLK < Q->n ? j0 + BLK : Q->n;
        /* outputs zeroed; a block none of whose points weighs is done */
        int any = set_phi;
        for (int j = j0; j < j1; j++) {
            double *o = out + (size_t)j * OUT_N;
            memset(o + OUT_FQ, 0, (OUT_DMIN - OUT_FQ) * sizeof *o);
            any |= o[OUT_PHI] <= phi_cut;
        }
        if (!any) continue;
        tc_scm_gather *g = sc->g0 + omp_get_thread_num();
        block_candidates(s, qbody, qb, sbody, S->n, eps1, g);
        for (int j = j0; j < j1; j++) {
            double *o = out + (size_t)j * OUT_N;
            if (!set_phi && !(o[OUT_PHI] <= phi_cut)) continue;
            const double p[3] = {Q->px[j], Q->py[j], Q->pz[j]};
            double vq[3] = {0, 0, 0}, sum[NSUM];
            if (dynamic) tc_body_point_velocity(qs, p, vq);
            double dmin;
            if (!set_phi && sc->kn[base + j] >= 0) {
                dmin = o[OUT_DMIN];
                tc_scm_gather_indices(sc->kidx + (size_t)(base + j) * KEEP, sc->kn[base + j], g);
            } else
                dmin = tc_scm_gather_point(&c, p, eps1, s->prune, set_phi ? NAN : o[OUT_DMIN], g);
            point_sums(s, &c, g, p, dmin, 1.0 / eps1, 1, dynamic, vq, sb, sum);
            /* normalise and express the wrenches on both bodies */
            double inv = 1.0 / sum[0], F[3] = {sum[2] * inv, sum[3] * inv, sum[4] * inv}, r[3];
            if (set_phi) o[OUT_PHI] = set_phi == PHI_SET ? sum[1] * inv : sum[1] / sum[0];
            tc_v3_copy(o + OUT_FQ, F);
            tc_v3_sub(r, p, qs->pos);
            tc_v3_cross(o + OUT_TQ, r, F);
            tc_v3_scale(o + OUT_FS, F, -1);
            if (paper) {
                o[OUT_TS] = -sum[5] * inv;
                o[OUT_TS + 1] = -sum[6] * inv;
                o[OUT_TS + 2] = -sum[7] * inv;
            } else {
                tc_v3_sub(r, p, sb->pos);
                tc_v3_cross(o + OUT_TS, r, o + OUT_FS);
            }
        }
    }
}

/* one body pair: SSDF values of both clouds, the softmin(eps2) over all I1 + I2 points, then the
 * forces of the points that weigh (eq. 23), into pw: the wrench on a, then on b. A plane is never
 * a query point: its one sample marks no surface location. *one_pass: see scm_state. */
static void pair_force(const scm_state *s, const scm_scratch *sc, int a, int b,
                       const tc_body_state *bs, unsigned char *one_pass, double pw[12]) {
    const tc_aopc *A = &s->world[a], *B = &s->world[b];
    const int na = s->scene->body[a].shape.type != TC_SHAPE_PLANE ? A->n : 0;
    const int nb = s->scene->body[b].shape.type != TC_SHAPE_PLANE ? B->n : 0;
    int dynamic = 0;
    for (int k = 0; k < 3; k++)
        dynamic |=
            bs[a].vel[k] != 0 || bs[a].omega[k] != 0 || bs[b].vel[k] != 0 || bs[b].omega[k] != 0;
    /* points of a against b's SSDF, then points of b against a's */
    double *oa = sc->out, *ob = sc->out + (size_t)na * OUT_N;
    tc_aopc Qa = *A, Qb = *B;
    Qa.n = na;
    Qb.n = nb;
    const int nq = na + nb;
    const int pruned = tc_scm_pruned(s, na, A->n, nb, B->n);
    /* the SSDF values: phase A first for a pruned pair, unless over 30 % of its points weighed
     * last time (phase A would cost more than it saves); else in one pass with every point's
     * force */
    const int two_pass = pruned && !*one_pass;
    if (two_pass) {
        query_phi(s, sc, &Qa, a, B, b, s->eps1[b], 0, oa);
        query_phi(s, sc, &Qb, b, A, a, s->eps1[a], na, ob);
    } else {
        const int how = pruned ? PHI_SET_AS_A : PHI_SET;
        query_force(s, sc, &Qa, a, &bs[a], B, b, &bs[b], s->eps1[b], dynamic, INFINITY, how, 0, oa);
        query_force(s, sc, &Qb, b, &bs[b], A, a, &bs[a], s->eps1[a], dynamic, INFINITY, how, na,
                    ob);
    }
    double pmin = INFINITY;
    for (int f = 0; f < nq; f++)
        pmin = fmin(pmin, sc->out[(size_t)f * OUT_N + OUT_PHI]);
    if (pruned) {
        /* forces only where the separation weight is above e^-CUT: phase C, or the one pass's
         * other forces zeroed as phase C leaves them (the same bits as two passes) */
        const double cut = pmin + CUT * s->eps2;
        if (two_pass) {
            query_force(s, sc, &Qa, a, &bs[a], B, b, &bs[b], s->eps1[b], dynamic, cut, PHI_KNOWN, 0,
                        oa);
            query_force(s, sc, &Qb, b, &bs[b], A, a, &bs[a], s->eps1[a], dynamic, cut, PHI_KNOWN,
                        na, ob);
        }
        /* the points that weigh, counted for the next force's choice */
        int nw = 0;
        for (int f = 0; f < nq; f++) {
            double *o = sc->out + (size_t)f * OUT_N;
            if (o[OUT_PHI] <= cut)
                nw++;
            else if (!two_pass)
                memset(o + OUT_FQ, 0, (OUT_DMIN - OUT_FQ) * sizeof *o);
        }
        *one_pass = 10 * nw > 3 * nq;
    }
    /* points of a carry (wrench on a, wrench on b); points of b carry (on b, on a) */
    double sw = 0, ga[12] = {0}, gb[12] = {0};
    for (int f = 0; f < nq; f++) {
        const double *o = sc->out + (size_t)f * OUT_N;
        double wf = tc_exp_neg((pmin - o[OUT_PHI]) / s->eps2), *g = f < na ? ga : gb;
        sw += wf;
        for (int k = 0; k < 12; k++)
            g[k] += wf * o[OUT_FQ + k];
    }
    for (int k = 0; k < 6; k++) {
        pw[k] = (ga[k] + gb[6 + k]) / sw;
        pw[6 + k] = (gb[k] + ga[6 + k]) / sw;
    }
}

static tc_status scm_force(void *state, const tc_body_state *bs, tc_wrench *w,
                           tc_contact_stats *st) {
    scm_state *s = state;
    const int nb = s->scene->nbody;
    memset(w, 0, (size_t)nb * sizeof *w);
    /* clouds and their moments into the world frame */
    for (int i = 0; i < nb; i++) {
        const int n = s->body[i].n;
        const double *R = bs[i].R, *mb = s->mom[i];
        double *mw = s->momw[i];
        tc_aopc_transform(&s->world[i], &s->body[i], R, bs[i].pos);
        for (int j = 0; j < n; j++) {
            double m0 = mb[j], m1 = mb[n + j], m2 = mb[2 * n + j];
            mw[j] = R[0] * m0 + R[1] * m1 + R[2] * m2;
            mw[n + j] = R[3] * m0 + R[4] * m1 + R[5] * m2;
            mw[2 * n + j] = R[6] * m0 + R[7] * m1 + R[8] * m2;
        }
        for (int b = 0; b < (n + BLK - 1) / BLK; b++) {
            const double *c = s->blk[i] + 4 * b;
            tc_m3_mulv(s->blkw[i] + 3 * b, R, c);
            tc_v3_add(s->blkw[i] + 3 * b, s->blkw[i] + 3 * b, bs[i].pos);
        }
    }
    /* every pair's wrenches: over threads one pair each when the pairs are balanced (each thread
     * its own scratch), else one after the other with the threads inside each large pair */
    const int nth = tc_scm_threads(s), np = s->npair;
    if (s->by_pair && nth > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nth)
        for (int i = 0; i < np; i++) {
            const scm_scratch sc = scratch(s, omp_get_thread_num());
            pair_force(s, &sc, s->pairs[2 * i], s->pairs[2 * i + 1], bs, s->one_pass + i,
                       s->pw + 12 * i);
        }
    } else {
        const scm_scratch sc = scratch(s, 0);
        for (int i = 0; i < np; i++)
            pair_force(s, &sc, s->pairs[2 * i], s->pairs[2 * i + 1], bs, s->one_pass + i,
                       s->pw + 12 * i);
    }
    /* summed in pair order: the same bits for any thread count */
    long long evals = 0;
    for (int i = 0; i < s->npair; i++) {
        int a = s->pairs[2 * i], b = s->pairs[2 * i + 1];
        const double *pw = s->pw + 12 * i;
        for (int k = 0; k < 3; k++) {
            w[a].f[k] += pw[k];
            w[a].t[k] += pw[3 + k];
            w[b].f[k] += pw[6 + k];
            w[b].t[k] += pw[9 + k];
        }
        /* pair evaluations as the brute-force kernel counts them (pruned or not) */
        int qa = s->scene->body[a].shape.type != TC_SHAPE_PLANE,
            qb = s->scene->body[b].shape.type != TC_SHAPE_PLANE;
        evals += (long long)(qa ? s->world[a].n : 0) * s->world[b].n +
                 (long long)(qb ? s->world[b].n : 0) * s->world[a].n;
    }
    if (st) {
        st->pair_evals += evals;
        st->ncontact = s->npair;
    }
    return TC_OK;
}

const tc_model_type tc_model_scm = {
    .name = "scm",
    .summary = "soft-minimum contact model over SSDFs of oriented point clouds",
    .reference = "Beker et al. 2025, eq. 8-23; docs/models/scm.md",
    .params = scm_params,
    .caps =
        TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_SMOOTH | TC_CAP_GRADIENT,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND) |
              TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID) | TC_SHAPE_BIT(TC_SHAPE_CYLINDER) |
              TC_SHAPE_BIT(TC_SHAPE_POLYTOPE),
    .alloc = scm_alloc,
    .force = scm_force,
    .free = scm_free,
    .force_jacobian = tc_scm_force_jacobian,
};
