/* SPDX-License-Identifier: MIT */
/* classical 4-stage Runge–Kutta with configuration stages on the manifold (exponential map) */
#include "math/tc_vec.h"
#include "solvers/tc_solver.h"

#include <stdlib.h>
#include <string.h>

static const tc_param_spec no_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* workspace: every buffer of one step, sized in alloc */
typedef struct rk4_state {
    int nq, nv;
    double *q0;   /* configuration at the start of the step, nq */
    double *v0;   /* velocity at the start of the step, nv */
    double *qs;   /* stage configuration, nq */
    double *vs;   /* stage velocity, nv */
    double *as;   /* stage acceleration, nv */
    double *kv;   /* stage configuration slope (velocity, corrected on rotations), nv */
    double *ksum; /* weighted sum of the configuration slopes, nv */
    double *asum; /* weighted sum of the accelerations, nv */
} rk4_state;

/* the state and its one block of buffers */
static void rk4_free(void *state) {
    rk4_state *s = state;
    if (!s) return;
    free(s->q0);
    free(s);
}

/* every stage buffer up front: step() allocates nothing */
static tc_status rk4_alloc(void **state, const tc_system *sys, const tc_params *p, tc_error *err) {
    (void)p, (void)err;
    rk4_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->nq = sys->nq;
    s->nv = sys->nv;
    /* one block: 2 nq + 6 nv doubles */
    size_t nq = (size_t)sys->nq + 1, nv = (size_t)sys->nv + 1;
    s->q0 = calloc(2 * nq + 6 * nv, sizeof(double));
    if (!s->q0) {
        rk4_free(s);
        return TC_ENOMEM;
    }
    s->qs = s->q0 + nq;
    s->v0 = s->qs + nq;
    s->vs = s->v0 + nv;
    s->as = s->vs + nv;
    s->kv = s->as + nv;
    s->ksum = s->kv + nv;
    s->asum = s->ksum + nv;
    *state = s;
    return TC_OK;
}

/* rotation slopes of free bodies: omega -> dexp^-1_theta(omega) = omega - theta x omega / 2 +
 * theta x (theta x omega) / 12, with theta = h * kprev (the stage's rotation vector); this makes
 * the orientation fourth order too (Munthe-Kaas); positions and planar states are untouched */
static void dexpinv(const tc_system *sys, double *k, const double *kprev, double h) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->vadr[i] < 0 || sys->scene->body[i].joint != TC_JOINT_FREE) continue;
        double *w = k + sys->vadr[i] + 3, th[3], c1[3], c2[3];
        tc_v3_scale(th, kprev + sys->vadr[i] + 3, h);
        tc_v3_cross(c1, th, w);
        tc_v3_cross(c2, th, c1);
        for (int j = 0; j < 3; j++)
            w[j] += -0.5 * c1[j] + c2[j] / 12;
    }
}

/* one step: four stages, configurations by the exponential map from q0 */
static tc_status rk4_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                          double *v) {
    rk4_state *s = state;
    const tc_system *sys = ode->sys;
    static const double c[4] = {0, 0.5, 0.5, 1}, b[4] = {1, 2, 2, 1};
    size_t qb = (size_t)s->nq * sizeof(double), vb = (size_t)s->nv * sizeof(double);
    memcpy(s->q0, q, qb);
    memcpy(s->v0, v, vb);
    memset(s->ksum, 0, vb);
    memset(s->asum, 0, vb);
    /* stage s: Q_s = exp(c_s dt K_{s-1}) q0, V_s = v0 + c_s dt A_{s-1}, A_s = accel(Q_s, V_s) */
    for (int st = 0; st < 4; st++) {
        double h = c[st] * dt;
        memcpy(s->qs, s->q0, qb);
        if (st) tc_system_integrate_q(sys, s->qs, s->kv, h);
        for (int i = 0; i < s->nv; i++)
            s->vs[i] = st ? s->v0[i] + h * s->as[i] : s->v0[i];
        tc_status e = ode->accel(ode->ctx, t + h, s->qs, s->vs, s->as);
        if (e) return e;
        /* configuration slope K_s: the stage velocity seen from q0's chart */
        if (st) dexpinv(sys, s->vs, s->kv, h);
        memcpy(s->kv, s->vs, vb);
        for (int i = 0; i < s->nv; i++) {
            s->ksum[i] += b[st] * s->kv[i];
            s->asum[i] += b[st] * s->as[i];
        }
    }
    /* combine: v1 = v0 + dt sum b A / 6, q1 = exp(dt sum b K / 6) q0 */
    for (int i = 0; i < s->nv; i++) {
        v[i] = s->v0[i] + dt * s->asum[i] / 6;
        s->ksum[i] /= 6;
    }
    memcpy(q, s->q0, qb);
    tc_system_integrate_q(sys, q, s->ksum, dt);
    return TC_OK;
}

const tc_solver_type tc_solver_rk4 = {
    .name = "rk4",
    .summary = "classical Runge–Kutta 4, stages on the manifold: q_s = exp(c_s h K) q0",
    .params = no_params,
    .caps = TC_CAP_DYNAMICS,
    .alloc = rk4_alloc,
    .step = rk4_step,
    .free = rk4_free,
};
