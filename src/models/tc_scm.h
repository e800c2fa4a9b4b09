/* SPDX-License-Identifier: MIT */
/* SCM's private parts shared by its force (model_scm.c) and its derivatives (scm_jacobian.c) */
#ifndef TC_SCM_H
#define TC_SCM_H

#include "core/tc_arena.h"
#include "geom/tc_aopc.h"
#include "math/tc_smooth.h"
#include "models/tc_model.h"
#include "models/tc_scm_gather.h"

#include <math.h>

/* per-point outputs of one query: SSDF value, the wrenches on both bodies, and the nearest squared
 * distance to the other cloud (14 doubles) */
#define BLK TC_SCM_BLK
enum { CHUNK = 256 }; /* pairs per elementwise block (fixed: results never depend on threads) */
/* gathered indices kept per query point between phases A and C (most points gather a few) */
enum { KEEP = 8 };
enum { OUT_PHI = 0, OUT_FQ = 1, OUT_TQ = 4, OUT_FS = 7, OUT_TS = 10, OUT_DMIN = 13, OUT_N = 14 };
/* one pair's wrench derivatives: 12 wrench entries (first body, then second) by 24 columns */
enum { TC_SCM_DPW = 12 * 24 };

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
    double **blk;  /* per body: bounding spheres of BLK consecutive points, 4 per block
                    * (centre x y z in the body frame, radius) */
    double **blkw; /* per body: the same centres in the world frame (scratch), 3 per block */
    size_t qcap;   /* query points of the largest pair (+1): the size of one scratch set */
    double *out;   /* per scratch set, per query point of a pair: OUT_N values */
    int *kidx,
        *kn;      /* per scratch set, per query point: phase A's gathered indices when at most
                   * KEEP (kn[j] of them, KEEP slots each), else kn[j] = -1; phase C reuses them */
    double *pw;   /* per pair: wrench on its first body, then on its second (12 values) */
    double *dpw;  /* per pair: its TC_SCM_DPW wrench derivatives (scm_jacobian.c, scratch) */
    double *dsep; /* per pair: its separation and the 24 derivatives (scm_jacobian.c, scratch) */
    unsigned char *one_pass; /* per pruned pair: over 30 % of its points weighed at its last
                              * force, so the next runs in one pass (speed alone: same bits) */
    int by_pair; /* pairs are balanced enough to run on threads one pair each (see scm_force) */
    int prune;   /* skip pairs and points whose weights are below e^-CUT */
    int ngather; /* one gather buffer per thread */
    tc_scm_gather *gather;
    double *gbuf;
    int *gidx;      /* per thread: gathered indices, then candidate blocks */
    tc_arena arena; /* the block that holds the state and its arrays */
} scm_state;

/* below this many pairs the two-phase pruning costs more than it saves (measured on E2's T) */
#define PRUNE_MIN_PAIRS 20000

/* whether a pair of a's na and b's nb query points against clouds of an and bn points is pruned
 * (phase A, then forces only where the separation weight is above e^-CUT) */
static inline int tc_scm_pruned(const scm_state *s, int na, int an, int nb, int bn) {
    return s->prune && (long long)na * bn + (long long)nb * an > PRUNE_MIN_PAIRS;
}

/* threads for a kernel region: what the caller may use now (a sweep's idle threads join its last
 * items), at most one per gather buffer */
int tc_scm_threads(const scm_state *s);

/* dissipation factor d(u) of eq. 18, u = v_n / v_d: 1 - u approaching, (u-2)^2/4 separating */
static inline double tc_scm_damping(double u) {
    double sep = u <= 2 ? 0.25 * (u - 2) * (u - 2) : 0.0;
    return u <= 0 ? 1 - u : sep;
}

/* its slope d'(u) on each piece: -1, (u - 2) / 2, 0 (continuous: d is C1) */
static inline double tc_scm_damping_slope(double u) {
    double sep = u <= 2 ? 0.5 * (u - 2) : 0.0;
    return u <= 0 ? -1.0 : sep;
}

/* the point-plane force law of one gathered point (eq. 17-20): plane distance phi (m), plane
 * normal n, relative velocity v of the query point against the plane point; the intermediates
 * are kept for the derivatives. k, eps3, 1 / v_d, v_s^2 and mu as scm_state's */
typedef struct tc_scm_law {
    double vn, vt[3]; /* normal and tangential relative velocity (m/s) */
    double ksp, dmp;  /* k softplus(-phi, eps3) (N) and d(v_n / v_d) */
    double lnd, s;    /* normal force magnitude (N), sqrt(v_s^2 + |vt|^2) (m/s) */
    double ft, l[3];  /* friction factor -mu lnd / s (N s/m), the force (N) */
} tc_scm_law;

static inline __attribute__((always_inline)) void
tc_scm_law_eval(double phi, double nx, double ny, double nz, double v0, double v1, double v2,
                double k, double eps3, double inv_vd, double vs2, double mu, tc_scm_law *o) {
    double vn = v0 * nx + v1 * ny + v2 * nz;
    double vt0 = v0 - vn * nx, vt1 = v1 - vn * ny, vt2 = v2 - vn * nz;
    double ksp = k * tc_softplus(-phi, eps3), dmp = tc_scm_damping(vn * inv_vd);
    double lnd = ksp * dmp;
    double s = sqrt(vs2 + vt0 * vt0 + vt1 * vt1 + vt2 * vt2);
    double ft = -mu * lnd / s;
    o->vn = vn;
    o->vt[0] = vt0;
    o->vt[1] = vt1;
    o->vt[2] = vt2;
    o->ksp = ksp;
    o->dmp = dmp;
    o->lnd = lnd;
    o->s = s;
    o->ft = ft;
    o->l[0] = lnd * nx + ft * vt0;
    o->l[1] = lnd * ny + ft * vt1;
    o->l[2] = lnd * nz + ft * vt2;
}

/* the model (model_scm.c) and its force_jacobian hook (scm_jacobian.c) */
extern const tc_model_type tc_model_scm;
tc_status tc_scm_force_jacobian(void *state, const tc_body_state *bs, tc_wrench *w, double *dw,
                                tc_contact_stats *st);

/* the checked second-derivative option: each pair's smooth separation distance, the softmin
 * pmin - eps2 log sum_f exp((pmin - phi_f) / eps2) (m) of its query points' SSDF values, and its
 * 24 derivatives (the pair's first body's columns as force_jacobian's, then the second's) into
 * sep[25 npair]; w gets force()'s wrenches. Its Hessian is the difference of these gradients */
tc_status tc_scm_separation(void *state, const tc_body_state *bs, tc_wrench *w, double *sep);

#endif
