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
    double *out;    /* per query point of the largest pair: OUT_N values */
} scm_state;

static void scm_free(void *state) {
    scm_state *s = state;
    if (!s) return;
    for (int i = 0; s->body && i < s->scene->nbody; i++) {
        tc_aopc_free(&s->body[i]);
        tc_aopc_free(&s->world[i]);
    }
    free(s->body), free(s->world), free(s->eps1), free(s->out), free(s->pairs);
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
    if (!s->body || !s->world || !s->eps1 || !s->pairs) return scm_free(s), TC_ENOMEM;
    /* sample every body once; world copies are the per-evaluation scratch */
    double h = tc_params_get(p, "spacing"), rel = tc_params_get(p, "eps1_rel");
    for (int i = 0; i < nb; i++) {
        tc_status st = tc_aopc_alloc(&s->body[i], &scene->body[i].shape, h, err);
        if (!st) st = tc_aopc_alloc_n(&s->world[i], s->body[i].n);
        if (st) return scm_free(s), st;
        double hi = s->body[i].spacing > 0 ? s->body[i].spacing : h;
        s->eps1[i] = rel * hi * hi;
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

/* force of every point of cloud Q (on body bq) against the SSDF of cloud S (on body bs_):
 * per point the SSDF value and the softmax(eps1)-weighted point-plane forces (eq. 21-22).
 * dynamic = 0 skips velocities (static queries); the compiler specialises both variants. */
static inline void query(const scm_state *s, const tc_aopc *Q, const tc_body_state *qb,
                         const tc_aopc *S, const tc_body_state *sb, double eps1, int dynamic,
                         double *out) {
    const double k = s->k, eps3 = s->eps3, inv_vd = 1.0 / s->vd, vs2 = s->vs * s->vs;
    const double mu = s->mu, inv_eps1 = 1.0 / eps1;
    const double *px = S->px, *py = S->py, *pz = S->pz, *nx = S->nx, *ny = S->ny, *nz = S->nz;
    const double cx = sb->pos[0], cy = sb->pos[1], cz = sb->pos[2];
    const double wx = sb->omega[0], wy = sb->omega[1], wz = sb->omega[2];
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
        /* pass 2, in fixed chunks: transcendental work elementwise (vectorises), then sums */
        double sw = 0, sphi = 0, f0 = 0, f1 = 0, f2 = 0, t0 = 0, t1 = 0, t2 = 0;
        double wb[CHUNK], phib[CHUNK], lnb[CHUNK];
        for (int i0 = 0; i0 < n; i0 += CHUNK) {
            const int m = n - i0 < CHUNK ? n - i0 : CHUNK;
#pragma omp simd
            for (int t = 0; t < m; t++) {
                const int i = i0 + t;
                double dx = p[0] - px[i], dy = p[1] - py[i], dz = p[2] - pz[i];
                wb[t] = tc_exp_neg((dmin - (dx * dx + dy * dy + dz * dz)) * inv_eps1);
                phib[t] = nx[i] * dx + ny[i] * dy + nz[i] * dz;
                lnb[t] = k * tc_softplus(-phib[t], eps3);
            }
            for (int t = 0; t < m; t++) {
                const int i = i0 + t;
                const double w = wb[t], ln = lnb[t];
                double l0 = ln * nx[i], l1 = ln * ny[i], l2 = ln * nz[i];
                double rx = px[i] - cx, ry = py[i] - cy, rz = pz[i] - cz;
                if (dynamic) {
                    /* relative velocity of the point against the plane point, eq. 17-20 */
                    double v0 = vq[0] - (sb->vel[0] + wy * rz - wz * ry);
                    double v1 = vq[1] - (sb->vel[1] + wz * rx - wx * rz);
                    double v2 = vq[2] - (sb->vel[2] + wx * ry - wy * rx);
                    double vn = v0 * nx[i] + v1 * ny[i] + v2 * nz[i];
                    double vt0 = v0 - vn * nx[i], vt1 = v1 - vn * ny[i], vt2 = v2 - vn * nz[i];
                    double lnd = ln * damping(vn * inv_vd);
                    double ft = -mu * lnd / sqrt(vs2 + vt0 * vt0 + vt1 * vt1 + vt2 * vt2);
                    l0 = lnd * nx[i] + ft * vt0, l1 = lnd * ny[i] + ft * vt1;
                    l2 = lnd * nz[i] + ft * vt2;
                }
                sw += w, sphi += w * phib[t];
                f0 += w * l0, f1 += w * l1, f2 += w * l2;
                /* paper form: the reaction -lambda acts at p_i; accumulate r_i x lambda */
                if (paper) {
                    t0 += w * (ry * l2 - rz * l1), t1 += w * (rz * l0 - rx * l2);
                    t2 += w * (rx * l1 - ry * l0);
                }
            }
        }
        /* normalise and express the wrenches on both bodies */
        double *o = out + (size_t)j * OUT_N, inv = 1.0 / sw;
        double F[3] = {f0 * inv, f1 * inv, f2 * inv}, r[3];
        o[OUT_PHI] = sphi * inv;
        tc_v3_copy(o + OUT_FQ, F);
        tc_v3_sub(r, p, qb->pos);
        tc_v3_cross(o + OUT_TQ, r, F);
        tc_v3_scale(o + OUT_FS, F, -1);
        if (paper) {
            o[OUT_TS] = -t0 * inv, o[OUT_TS + 1] = -t1 * inv, o[OUT_TS + 2] = -t2 * inv;
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
    if (na) {
        if (dynamic) query(s, A, &bs[a], B, &bs[b], s->eps1[b], 1, oa);
        else query(s, A, &bs[a], B, &bs[b], s->eps1[b], 0, oa);
    }
    if (nb) {
        if (dynamic) query(s, B, &bs[b], A, &bs[a], s->eps1[a], 1, ob);
        else query(s, B, &bs[b], A, &bs[a], s->eps1[a], 0, ob);
    }
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
    /* clouds into the world frame */
    for (int i = 0; i < nb; i++) tc_aopc_transform(&s->world[i], &s->body[i], bs[i].R, bs[i].pos);
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
              TC_SHAPE_BIT(TC_SHAPE_PLANE),
    .alloc = scm_alloc,
    .force = scm_force,
    .free = scm_free,
};
