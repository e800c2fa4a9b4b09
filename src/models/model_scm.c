/* SPDX-License-Identifier: MIT */
/* SCM: the soft-minimum contact model over SSDFs of oriented point clouds (Beker et al. 2025) */
#include "geom/tc_aopc.h"
#include "math/tc_smooth.h"
#include "math/tc_vec.h"
#include "models/tc_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* parameters: the paper publishes none; every default says why (docs/models/scm.md) */
static const tc_param_spec scm_params[] = {
    {"k", 1000.0, 0, 1e12, TC_PARAM_REAL, "N/m", "point-plane stiffness",
     "order of MuJoCo's static stiffness m/0.02^2 for a 0.4 kg body; experiments match it"},
    {"spacing", 0.01, 1e-5, 10, TC_PARAM_REAL, "m", "target AOPC point spacing",
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
    {"consistent", 0, 0, 1, TC_PARAM_BOOL, "1", "reaction through the plane body at p (1) or at p_i (0)",
     "0 is the paper's eq. 21; 1 conserves angular momentum exactly"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* per-point outputs of one query: SSDF value and the wrenches on both bodies (13 doubles) */
enum { CHUNK = 256 }; /* pairs per elementwise block (fixed: results never depend on threads) */
enum { OUT_PHI = 0, OUT_FQ = 1, OUT_TQ = 4, OUT_FS = 7, OUT_TS = 10, OUT_N = 13 };

typedef struct scm_state {
    const tc_scene *scene;
    double k, eps2, eps3, vd, vs, mu;
    int consistent;
    int npair, *pairs;
    tc_aopc *body;  /* per body: cloud in the body frame */
    tc_aopc *world; /* per body: cloud in the world frame (scratch) */
    double *eps1;   /* per body: SSDF width of its cloud (m^2) */
    double **mom;   /* per body: 3n moments (p - c) x n, body frame then world (scratch) */
    double **momw;
    double *out;    /* per query point of the largest pair: OUT_N values */
} scm_state;

static void scm_free(void *state) {
    scm_state *s = state;
    if (!s) return;
    for (int i = 0; s->body && i < s->scene->nbody; i++) {
        tc_aopc_free(&s->body[i]);
        tc_aopc_free(&s->world[i]);
        if (s->mom) free(s->mom[i]), free(s->momw[i]);
    }
    free(s->body), free(s->world), free(s->eps1), free(s->out), free(s->pairs);
    free(s->mom), free(s->momw);
    free(s);
}

static tc_status scm_alloc(void **state, const tc_scene *scene, const tc_params *p,
                           tc_error *err) {
    scm_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    int nb = scene->nbody;
    s->body = calloc((size_t)nb, sizeof *s->body);
    s->world = calloc((size_t)nb, sizeof *s->world);
    s->eps1 = calloc((size_t)nb, sizeof *s->eps1);
    s->pairs = calloc((size_t)(nb * nb + 2), sizeof *s->pairs);
    s->mom = calloc((size_t)nb, sizeof *s->mom);
    s->momw = calloc((size_t)nb, sizeof *s->momw);
    if (!s->body || !s->world || !s->eps1 || !s->pairs || !s->mom || !s->momw)
        return scm_free(s), TC_ENOMEM;
    /* sample every body once; world copies are the per-evaluation scratch */
    double h = tc_params_get(p, "spacing"), rel = tc_params_get(p, "eps1_rel");
    for (int i = 0; i < nb; i++) {
        tc_status st = tc_aopc_alloc(&s->body[i], &scene->body[i].shape, h, err);
        if (!st) st = tc_aopc_alloc_n(&s->world[i], s->body[i].n);
        if (st) return scm_free(s), st;
        double hi = s->body[i].spacing > 0 ? s->body[i].spacing : h;
        s->eps1[i] = rel * hi * hi;
        /* moments p x n about the body origin (the COM): the paper-form reaction torque per unit
         * normal force, rotated with the body at each evaluation */
        const tc_aopc *c = &s->body[i];
        s->mom[i] = calloc((size_t)(3 * c->n + 1), sizeof(double));
        s->momw[i] = calloc((size_t)(3 * c->n + 1), sizeof(double));
        if (!s->mom[i] || !s->momw[i]) return scm_free(s), TC_ENOMEM;
        for (int j = 0; j < c->n; j++) {
            double pj[3] = {c->px[j], c->py[j], c->pz[j]}, nj[3] = {c->nx[j], c->ny[j], c->nz[j]};
            double mj[3];
            tc_v3_cross(mj, pj, nj);
            s->mom[i][j] = mj[0], s->mom[i][c->n + j] = mj[1], s->mom[i][2 * c->n + j] = mj[2];
        }
    }
    s->npair = tc_scene_pairs(scene, s->pairs);
    int maxq = 0;
    for (int i = 0; i < s->npair; i++) {
        int q = s->body[s->pairs[2 * i]].n + s->body[s->pairs[2 * i + 1]].n;
        maxq = q > maxq ? q : maxq;
    }
    s->out = calloc((size_t)(maxq + 1) * OUT_N, sizeof *s->out);
    if (!s->out) return scm_free(s), TC_ENOMEM;
    s->k = tc_params_get(p, "k"), s->eps2 = tc_params_get(p, "eps2");
    s->eps3 = tc_params_get(p, "eps3"), s->vd = tc_params_get(p, "vd");
    s->vs = tc_params_get(p, "vs"), s->consistent = (int)tc_params_get(p, "consistent");
    s->mu = scene->friction;
    *state = s;
    return TC_OK;
}

/* dissipation factor d(u) of eq. 18, u = v_n / v_d: 1 - u approaching, (u-2)^2/4 separating */
static inline double damping(double u) {
    double sep = u <= 2 ? 0.25 * (u - 2) * (u - 2) : 0.0;
    return u <= 0 ? 1 - u : sep;
}

/* stage A, elementwise over one chunk of plane points (vectorises; every clone computes the same
 * IEEE operations, without contraction, so all give the same bits): softmax weight, plane distance
 * and point-plane normal force magnitude */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_eval(const tc_aopc *S, int i0, int m, const double p[3], double dmin, double inv_eps1,
           double k, double eps3, double *restrict wb, double *restrict phib,
           double *restrict lnb) {
    const double *px = S->px + i0, *py = S->py + i0, *pz = S->pz + i0;
    const double *nx = S->nx + i0, *ny = S->ny + i0, *nz = S->nz + i0;
    for (int t = 0; t < m; t++) {
        double dx = p[0] - px[t], dy = p[1] - py[t], dz = p[2] - pz[t];
        wb[t] = tc_exp_neg((dmin - (dx * dx + dy * dy + dz * dz)) * inv_eps1);
        phib[t] = nx[t] * dx + ny[t] * dy + nz[t] * dz;
        lnb[t] = k * tc_softplus(-phib[t], eps3);
    }
}

/* stage B, elementwise: the point-plane force lambda and r x lambda (r = p_i - c) per pair into
 * lam[0..5]. Static queries: lambda = ln n, r x lambda = ln (r x n) from the stored moments. */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_force_static(const tc_aopc *S, const double *mom, int i0, int m, const double *restrict lnb,
                   double *restrict lam[6]) {
    const int n = S->n;
    const double *nx = S->nx + i0, *ny = S->ny + i0, *nz = S->nz + i0;
    const double *mx = mom + i0, *my = mom + n + i0, *mz = mom + 2 * n + i0;
    double *l0 = lam[0], *l1 = lam[1], *l2 = lam[2], *t0 = lam[3], *t1 = lam[4], *t2 = lam[5];
    for (int t = 0; t < m; t++) {
        const double ln = lnb[t];
        l0[t] = ln * nx[t], l1[t] = ln * ny[t], l2[t] = ln * nz[t];
        t0[t] = ln * mx[t], t1[t] = ln * my[t], t2[t] = ln * mz[t];
    }
}

/* with velocities: dissipation d(v_n / v_d) and regularised friction (eq. 17-20); v is the query
 * point's velocity, V and W the plane body's linear and angular velocity, c its COM */
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_force_dynamic(const tc_aopc *S, int i0, int m, const double v[3], const double V[3],
                    const double W[3], const double c[3], double inv_vd, double vs2, double mu,
                    const double *restrict lnb, double *restrict lam[6]) {
    const double *px = S->px + i0, *py = S->py + i0, *pz = S->pz + i0;
    const double *nx = S->nx + i0, *ny = S->ny + i0, *nz = S->nz + i0;
    double *l0 = lam[0], *l1 = lam[1], *l2 = lam[2], *t0 = lam[3], *t1 = lam[4], *t2 = lam[5];
    for (int t = 0; t < m; t++) {
        double rx = px[t] - c[0], ry = py[t] - c[1], rz = pz[t] - c[2];
        /* relative velocity of the point against the plane point */
        double v0 = v[0] - (V[0] + W[1] * rz - W[2] * ry);
        double v1 = v[1] - (V[1] + W[2] * rx - W[0] * rz);
        double v2 = v[2] - (V[2] + W[0] * ry - W[1] * rx);
        double vn = v0 * nx[t] + v1 * ny[t] + v2 * nz[t];
        double vt0 = v0 - vn * nx[t], vt1 = v1 - vn * ny[t], vt2 = v2 - vn * nz[t];
        double lnd = lnb[t] * damping(vn * inv_vd);
        double ft = -mu * lnd / sqrt(vs2 + vt0 * vt0 + vt1 * vt1 + vt2 * vt2);
        double a = lnd * nx[t] + ft * vt0, b = lnd * ny[t] + ft * vt1, e = lnd * nz[t] + ft * vt2;
        l0[t] = a, l1[t] = b, l2[t] = e;
        t0[t] = ry * e - rz * b, t1[t] = rz * a - rx * e, t2[t] = rx * b - ry * a;
    }
}

/* stage C: sums of w, w phi and w lam[0..5] over one chunk, in LANES interleaved accumulators
 * whose order the source fixes (vectorises on any ISA with the same bits) */
enum { LANES = 4, NSUM = 8 };
__attribute__((target_clones("avx512f", "avx2", "default"))) static void
chunk_sum(int m, const double *restrict wb, const double *restrict phib,
          double *const restrict lam[6], double acc[NSUM][LANES]) {
    const double *l0 = lam[0], *l1 = lam[1], *l2 = lam[2], *t0 = lam[3], *t1 = lam[4], *t2 = lam[5];
    int t = 0;
    for (; t + LANES <= m; t += LANES)
        for (int l = 0; l < LANES; l++) {
            const double w = wb[t + l];
            acc[0][l] += w, acc[1][l] += w * phib[t + l];
            acc[2][l] += w * l0[t + l], acc[3][l] += w * l1[t + l], acc[4][l] += w * l2[t + l];
            acc[5][l] += w * t0[t + l], acc[6][l] += w * t1[t + l], acc[7][l] += w * t2[t + l];
        }
    for (int l = 0; t < m; t++, l++) {
        const double w = wb[t];
        acc[0][l] += w, acc[1][l] += w * phib[t];
        acc[2][l] += w * l0[t], acc[3][l] += w * l1[t], acc[4][l] += w * l2[t];
        acc[5][l] += w * t0[t], acc[6][l] += w * t1[t], acc[7][l] += w * t2[t];
    }
}

/* force of every point of cloud Q (on body qb) against the SSDF of cloud S (on body sb), with mom
 * the world moments of S: per point the SSDF value and the softmax(eps1)-weighted point-plane
 * forces (eq. 21-22), as wrenches on both bodies */
static void query(const scm_state *s, const tc_aopc *Q, const tc_body_state *qb, const tc_aopc *S,
                  const double *mom, const tc_body_state *sb, double eps1, int dynamic,
                  double *out) {
    const double inv_eps1 = 1.0 / eps1, inv_vd = 1.0 / s->vd, vs2 = s->vs * s->vs;
    const double *px = S->px, *py = S->py, *pz = S->pz;
    const int n = S->n, paper = !s->consistent;
    /* query points are independent: fixed work per point, so any thread split gives equal bits */
#pragma omp parallel for schedule(static) if (Q->n * n > 200000)
    for (int j = 0; j < Q->n; j++) {
        const double p[3] = {Q->px[j], Q->py[j], Q->pz[j]};
        double vq[3] = {0, 0, 0};
        if (dynamic) tc_body_point_velocity(qb, p, vq);
        /* pass 1: nearest squared distance, so the largest softmax weight is exp(0) */
        double dmin = INFINITY;
#pragma omp simd reduction(min : dmin)
        for (int i = 0; i < n; i++) {
            double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
            double d = dx * dx + dy * dy + dz * dz;
            dmin = d < dmin ? d : dmin;
        }
        /* pass 2 in fixed chunks: weights and forces elementwise, then the sums */
        double acc[NSUM][LANES] = {{0}}, wb[CHUNK], phib[CHUNK], lnb[CHUNK], lbuf[6][CHUNK];
        double *lam[6] = {lbuf[0], lbuf[1], lbuf[2], lbuf[3], lbuf[4], lbuf[5]};
        for (int i0 = 0; i0 < n; i0 += CHUNK) {
            const int m = n - i0 < CHUNK ? n - i0 : CHUNK;
            chunk_eval(S, i0, m, p, dmin, inv_eps1, s->k, s->eps3, wb, phib, lnb);
            if (dynamic)
                chunk_force_dynamic(S, i0, m, vq, sb->vel, sb->omega, sb->pos, inv_vd, vs2, s->mu,
                                    lnb, lam);
            else
                chunk_force_static(S, mom, i0, m, lnb, lam);
            chunk_sum(m, wb, phib, lam, acc);
        }
        /* normalise and express the wrenches on both bodies */
        double sum[NSUM];
        for (int k = 0; k < NSUM; k++) sum[k] = (acc[k][0] + acc[k][1]) + (acc[k][2] + acc[k][3]);
        double *o = out + (size_t)j * OUT_N, inv = 1.0 / sum[0];
        double F[3] = {sum[2] * inv, sum[3] * inv, sum[4] * inv}, r[3];
        o[OUT_PHI] = sum[1] * inv;
        tc_v3_copy(o + OUT_FQ, F);
        tc_v3_sub(r, p, qb->pos);
        tc_v3_cross(o + OUT_TQ, r, F);
        tc_v3_scale(o + OUT_FS, F, -1);
        if (paper) {
            o[OUT_TS] = -sum[5] * inv, o[OUT_TS + 1] = -sum[6] * inv, o[OUT_TS + 2] = -sum[7] * inv;
        } else {
            tc_v3_sub(r, p, sb->pos);
            tc_v3_cross(o + OUT_TS, r, o + OUT_FS);
        }
    }
}

/* one body pair: both query directions, then the softmin(eps2) over all I1 + I2 points (eq. 23).
 * A plane is never a query point: its one sample marks no surface location. */
static long long pair_force(scm_state *s, int a, int b, const tc_body_state *bs, tc_wrench *w) {
    const tc_aopc *A = &s->world[a], *B = &s->world[b];
    const int qa = s->scene->body[a].shape.type != TC_SHAPE_PLANE;
    const int qb = s->scene->body[b].shape.type != TC_SHAPE_PLANE;
    const int na = qa ? A->n : 0, nb = qb ? B->n : 0;
    int dynamic = 0;
    for (int k = 0; k < 3; k++)
        dynamic |= bs[a].vel[k] != 0 || bs[a].omega[k] != 0 || bs[b].vel[k] != 0 ||
                   bs[b].omega[k] != 0;
    /* points of a against b's SSDF, then points of b against a's */
    double *oa = s->out, *ob = s->out + (size_t)na * OUT_N;
    if (na) query(s, A, &bs[a], B, s->momw[b], &bs[b], s->eps1[b], dynamic, oa);
    if (nb) query(s, B, &bs[b], A, s->momw[a], &bs[a], s->eps1[a], dynamic, ob);
    /* separation distribution: softmin of the SSDF values, in a fixed sequential order */
    const int nq = na + nb;
    double pmin = INFINITY;
    for (int f = 0; f < nq; f++) pmin = fmin(pmin, s->out[(size_t)f * OUT_N + OUT_PHI]);
    /* points of a carry (wrench on a, wrench on b); points of b carry (on b, on a) */
    double sw = 0, ga[12] = {0}, gb[12] = {0}, wa[6], wb[6];
    for (int f = 0; f < nq; f++) {
        const double *o = s->out + (size_t)f * OUT_N;
        double wf = tc_exp_neg((pmin - o[OUT_PHI]) / s->eps2), *g = f < na ? ga : gb;
        sw += wf;
        for (int k = 0; k < 12; k++) g[k] += wf * o[OUT_FQ + k];
    }
    for (int k = 0; k < 6; k++) {
        wa[k] = (ga[k] + gb[6 + k]) / sw;
        wb[k] = (gb[k] + ga[6 + k]) / sw;
    }
    for (int k = 0; k < 3; k++) {
        w[a].f[k] += wa[k], w[a].t[k] += wa[3 + k];
        w[b].f[k] += wb[k], w[b].t[k] += wb[3 + k];
    }
    return (long long)na * B->n + (long long)nb * A->n;
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
    }
    long long evals = 0;
    for (int i = 0; i < s->npair; i++) evals += pair_force(s, s->pairs[2 * i], s->pairs[2 * i + 1], bs, w);
    if (st) st->pair_evals += evals, st->ncontact = s->npair;
    return TC_OK;
}

const tc_model_type tc_model_scm = {
    .name = "scm",
    .summary = "soft-minimum contact model over SSDFs of oriented point clouds",
    .reference = "Beker et al. 2025, eq. 8-23; MODELS.md section 1",
    .params = scm_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_SMOOTH,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND),
    .alloc = scm_alloc,
    .force = scm_force,
    .free = scm_free,
};
