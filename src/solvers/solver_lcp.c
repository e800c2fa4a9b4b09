/* SPDX-License-Identifier: MIT */
/* velocity-level LCP time stepping (Stewart-Trinkle / Anitescu-Potra, linearised friction cone),
 * solved by Siconos Numerics: lcp-lemke (lexicographic Lemke), lcp-pgs (projected Gauss-Seidel);
 * optional drift correction by post-stabilisation (Cline & Pai 2003): after the step, positions
 * move along M^-1 N^T to shrink each penetration, velocities untouched */
#include "solvers/tc_contact_space.h"
#include "solvers/tc_fc_problem.h"
#include "solvers/tc_lcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_cst.h"

/* parameters shared by both descriptors */
static const tc_param_spec lcp_params[] = {
    {"friction_dirs", 4, 3, 32, TC_PARAM_INT, "1",
     "k: tangent directions of the linearised friction cone per contact (a k-sided pyramid)",
     "the smallest pyramid holding +-t1 and +-t2: sliding along t1 or t2 sees exactly mu"},
    {"max_contacts", 128, 1, 4096, TC_PARAM_INT, "1",
     "contacts the LCP is sized for; beyond it the first max_contacts are kept and the step "
     "counts a failure",
     "32 boxes resting on 4 corners each; M and its rounded copy, (k + 2) max_contacts square, "
     "take 2 x 4.7 MB"},
    {"tol", 1e-10, 1e-16, 1e-2, TC_PARAM_REAL, "1",
     "Siconos tolerance on the relative natural residual |min(z, w)| / |q| (lcp_compute_error): "
     "PGS stops below it, and a solve counts only when its z meets it",
     "a 1 cm/s |q| is met to 1e-12 m/s: the resting block drifts 1e-12 m in 10 s under PGS, "
     "which needs 12 sweeps a step for it (1e-12 took up to max_iter)"},
    {"max_iter", 10000, 1, 1e7, TC_PARAM_ITERS, "1",
     "most PGS sweeps or Newton iterations per solve, and Lemke pivots per attempt (there also at "
     "most 10 per unknown) (Siconos iparam[SICONOS_IPARAM_MAX_ITER])",
     "Siconos' own default for both; the resting block takes 5 Lemke pivots or 12 PGS sweeps"},
    {"gap_term", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: a separated contact (depth < 0) may close its gap within the step, N v+ >= depth/dt; "
     "0: every reported contact is held at zero approach speed",
     "without it a falling body stops as soon as it is within the model's contact margin"},
    {"drift_rate", 0, 0, 1e6, TC_PARAM_REAL, "1/s",
     "drift correction: after each step the positions move by the smallest displacement in the "
     "kinetic metric, M^-1 N^T mu, that takes min(drift_rate dt, 1) of every contact's "
     "penetration out (a normal-row LCP; velocities untouched), so a penetration decays as "
     "exp(-drift_rate t); 0: none, a penetration stays as it is",
     "0 keeps the velocity-level LCP as Stewart and Trinkle pose it (rigid in E5-E7); E4's LCP "
     "sets its deepest-point penalty's k_p / k_v = 2 /s (docs/solvers.md)"},
    {"fallbacks", 1, 0, 1, TC_PARAM_BOOL, "1",
     "lcp-lemke only. 1: Lemke on M rounded to 44 bits, on M as is, rounded to 36, 48, 40, 30 "
     "bits, then Siconos' Fischer-Burmeister Newton, until z solves the unrounded LCP to tol; "
     "0: one Lemke on M as is",
     "Siconos 4.4's Lemke alone ends on a ray or cycles on degenerate contact LCPs: 4.6% of "
     "resting-block solves, 16% of random contact LCPs (docs/solvers.md)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* a run's workspace: every buffer sized for max_contacts */
typedef struct lcp_state {
    const tc_system *sys;
    int nv, k, maxc, gap;
    double drift; /* 1/s: drift_rate, 0 for none */
    double *dq;   /* nv: the step's drift correction (a displacement, m and rad) */
    double *vs;   /* nv: the last step's predictor v* (its friction-contact problem's q) */
    double dt;    /* s: the last step's */
    long long fails;
    tc_cspace *cs; /* contacts, islands, rows (J, M^-1 J^T, bias), impulses */
    tc_lcp *lcp;   /* M, q, z, w ((maxc (k + 2))^2 and maxc (k + 2)) and Siconos */
} lcp_state;

/* release the buffers and the Siconos structures */
static void lcp_free(void *state) {
    lcp_state *s = state;
    if (!s) return;
    tc_cspace_free(s->cs);
    tc_lcp_free(s->lcp);
    free(s->dq);
    free(s->vs);
    free(s);
}

/* everything a step needs, for one Siconos solver id */
static tc_status lcp_alloc_id(void **state, int id, const tc_system *sys, const tc_params *p,
                              tc_error *err) {
    (void)err;
    lcp_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->sys = sys;
    s->nv = sys->nv;
    s->k = (int)tc_params_get(p, "friction_dirs");
    s->maxc = (int)tc_params_get(p, "max_contacts");
    s->gap = tc_params_get(p, "gap_term") != 0;
    s->drift = tc_params_get(p, "drift_rate");
    int n = s->maxc * (s->k + 2);
    s->dq = calloc((size_t)s->nv + 1, sizeof *s->dq);
    s->vs = calloc((size_t)s->nv + 1, sizeof *s->vs);
    tc_status st = s->dq && s->vs ? tc_cspace_alloc(&s->cs, sys, s->maxc, s->k) : TC_ENOMEM;
    if (!st)
        st = tc_lcp_alloc(&s->lcp, n, id, (int)tc_params_get(p, "max_iter"),
                          tc_params_get(p, "tol"), tc_params_get(p, "fallbacks") != 0);
    if (st) {
        lcp_free(s);
        return st;
    }
    *state = s;
    return TC_OK;
}

static double dot(const double *a, const double *b, int n) {
    double r = 0;
    for (int i = 0; i < n; i++)
        r += a[i] * b[i];
    return r;
}

/* build the LCP of island isl's nc contacts (friction: the full (k + 2) nc problem, else the nc
 * normal rows alone) at velocity v*, and solve it; returns 0 when z solves it to tol, else
 * Siconos' info */
static int solve(lcp_state *s, int isl, int friction, double mu, const double *vs, double dt) {
    const tc_cspace *cs = s->cs;
    int nv = s->nv, k = s->k, nc = cs->island[isl + 1] - cs->island[isl];
    size_t r0 = tc_cspace_row0(cs, isl);
    const double *J = cs->J + r0 * (size_t)nv, *AJ = cs->AJ + r0 * (size_t)nv,
                 *bias = cs->bias + r0;
    const tc_model_contact *cc = cs->c + cs->island[isl];
    int m = friction ? nc * (k + 1) : nc, n = friction ? nc * (k + 2) : nc;
    size_t nn = (size_t)n * (size_t)n;
    double *M = s->lcp->M, *q = s->lcp->q;
    /* M: [[N A N^T, N A D^T, 0], [D A N^T, D A D^T, E], [mu I, -E^T, 0]], column-major; the
     * Jacobian block is symmetric by construction (upper triangle mirrored) */
    memset(M, 0, nn * sizeof(double));
    for (int r = 0; r < m; r++)
        for (int c = r; c < m; c++) {
            double g = dot(J + (size_t)r * nv, AJ + (size_t)c * nv, nv);
            M[(size_t)c * n + r] = g;
            M[(size_t)r * n + c] = g;
        }
    if (friction)
        for (int i = 0; i < nc; i++) {
            int gi = m + i;
            M[(size_t)i * n + gi] = mu;
            for (int j = 0; j < k; j++) {
                int bj = nc + i * k + j;
                M[(size_t)gi * n + bj] = 1.0;
                M[(size_t)bj * n + gi] = -1.0;
            }
        }
    /* q: [N v* (+ gap / dt), D v*, 0] */
    for (int r = 0; r < m; r++) {
        q[r] = dot(J + (size_t)r * nv, vs, nv) + bias[r];
        if (r < nc && s->gap && cc[r].c.depth < 0) q[r] -= cc[r].c.depth / dt;
    }
    for (int r = m; r < n; r++)
        q[r] = 0;
    int info = tc_lcp_solve(s->lcp, n);
    if (info) s->fails++;
    return info;
}

/* impulses of island isl (no dof shared with other islands) into v = v* */
static void island(lcp_state *s, int isl, double *v, double dt) {
    tc_cspace *cs = s->cs;
    int nc = cs->island[isl + 1] - cs->island[isl];
    double mu = s->sys->scene->friction;
    int friction = mu > 0;
    /* Jacobian rows: normals, then k tangent directions per contact; A J^T by M^-1 */
    tc_cspace_rows(cs, isl, friction);
    /* a failed friction solve falls back to the normal rows alone (frictionless step) */
    int info = solve(s, isl, friction, mu, v, dt);
    if (info && friction) {
        friction = 0;
        info = solve(s, isl, 0, mu, v, dt);
    }
    /* a failed normal solve keeps Siconos' last iterate, projected on z >= 0, if finite */
    if (info) {
        if (tc_nonfinite(s->lcp->z, nc)) memset(s->lcp->z, 0, (size_t)nc * sizeof(double));
        for (int r = 0; r < nc; r++)
            s->lcp->z[r] = fmax(s->lcp->z[r], 0.0);
    }
    /* v+ = v* + A (N^T lambda + D^T beta), recorded per contact */
    tc_cspace_apply(cs, isl, s->lcp->z, friction, v);
}

/* post-stabilisation of island isl after its impulses (v = v+): each contact's depth after the
 * step, linearised, d' = d - dt (N v+ + bias); the displacement dq = M^-1 N^T mu with
 * N dq >= c d' where d' > 0 (c = min(drift dt, 1)) and >= d' where d' <= 0 (a gap may close,
 * not be crossed), mu >= 0 complementary: the normal-row LCP (N M^-1 N^T mu - target) of the
 * same matrix as the impulses'. Added to s->dq; a failed solve adds nothing and counts */
static void stabilise(lcp_state *s, int isl, const double *v, double dt) {
    const tc_cspace *cs = s->cs;
    int nv = s->nv, nc = cs->island[isl + 1] - cs->island[isl];
    size_t r0 = tc_cspace_row0(cs, isl);
    const double *J = cs->J + r0 * (size_t)nv, *AJ = cs->AJ + r0 * (size_t)nv,
                 *bias = cs->bias + r0;
    const tc_model_contact *cc = cs->c + cs->island[isl];
    const double c = fmin(s->drift * dt, 1.0);
    double *M = s->lcp->M, *q = s->lcp->q;
    /* targets: nothing to do while no contact stays penetrating */
    int any = 0;
    for (int r = 0; r < nc; r++) {
        double d = cc[r].c.depth - dt * (dot(J + (size_t)r * nv, v, nv) + bias[r]);
        q[r] = d > 0 ? -c * d : -d;
        any |= d > 0;
    }
    if (!any) return;
    /* N M^-1 N^T, column-major, symmetric */
    for (int r = 0; r < nc; r++)
        for (int k = r; k < nc; k++) {
            double g = dot(J + (size_t)r * nv, AJ + (size_t)k * nv, nv);
            M[(size_t)k * nc + r] = g;
            M[(size_t)r * nc + k] = g;
        }
    if (tc_lcp_solve(s->lcp, nc)) {
        s->fails++;
        return;
    }
    for (int r = 0; r < nc; r++) {
        double mu = s->lcp->z[r];
        if (mu == 0) continue;
        for (int i = 0; i < nv; i++)
            s->dq[i] += mu * AJ[(size_t)r * nv + i];
    }
}

/* one step: contacts and v* = v + dt a at (t, q, v), LCP impulses per island, then q from v+,
 * then (drift_rate > 0) the post-stabilisation displacement */
static tc_status lcp_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                          double *v) {
    lcp_state *s = state;
    tc_status st = tc_cspace_begin(s->cs, ode, t, q, v);
    if (!st) st = tc_cspace_predict(s->cs, ode, t, dt, q, v);
    if (st) return st;
    /* v*, kept for the step's friction-contact problem */
    memcpy(s->vs, v, (size_t)s->nv * sizeof *v);
    s->dt = dt;
    /* each island's LCP alone: they share no dof, so v* of one is untouched by another */
    for (int i = 0; i < s->cs->nisland; i++)
        island(s, i, v, dt);
    tc_system_integrate_q(ode->sys, q, v, dt);
    if (s->drift > 0 && s->cs->nisland > 0) {
        memset(s->dq, 0, (size_t)s->nv * sizeof *s->dq);
        for (int i = 0; i < s->cs->nisland; i++)
            stabilise(s, i, v, dt);
        tc_system_integrate_q(ode->sys, q, s->dq, 1.0);
    }
    tc_system_normalize_q(ode->sys, q);
    return TC_OK;
}

static void lcp_counters(void *state, long long *iters, long long *fails) {
    const lcp_state *s = state;
    *iters = s->lcp->iters;
    *fails = s->fails + s->cs->overflows;
}

/* the contact impulses of the last step */
static int lcp_impulses(void *state, tc_contact_impulse *out, int max) {
    const lcp_state *s = state;
    return tc_cspace_impulses(s->cs, out, max);
}

/* the last step's contacts as the 3-D friction-contact problem (its pyramid's impulses as
 * vectors in the contact frames; the gap term in q as the step had it) */
static tc_status lcp_fc_problem(void *state, struct tc_fc_problem **out) {
    const lcp_state *s = state;
    return tc_fc_problem_from_cspace(out, s->cs, s->vs, s->sys->scene->friction,
                                     s->gap ? s->dt : 0);
}

/* the two descriptors: the same step, Siconos' Lemke or PGS */
static tc_status lemke_alloc(void **state, const tc_system *sys, const tc_params *p,
                             tc_error *err) {
    return lcp_alloc_id(state, SICONOS_LCP_LEMKE, sys, p, err);
}

static tc_status pgs_alloc(void **state, const tc_system *sys, const tc_params *p, tc_error *err) {
    return lcp_alloc_id(state, SICONOS_LCP_PGS, sys, p, err);
}

const tc_solver_type tc_solver_lcp_lemke = {
    .name = "lcp-lemke",
    .summary = "velocity-level LCP step, k-sided friction pyramid, Siconos lexicographic Lemke",
    .params = lcp_params,
    .caps = TC_CAP_DYNAMICS,
    .needs = TC_CAP_CONTACTS,
    .alloc = lemke_alloc,
    .step = lcp_step,
    .free = lcp_free,
    .counters = lcp_counters,
    .impulses = lcp_impulses,
    .fc_problem = lcp_fc_problem,
    .cpu_dependent = TC_LCP_CPU_NOTE,
    .cpu_kind = tc_lcp_cpu_kind,
};

const tc_solver_type tc_solver_lcp_pgs = {
    .name = "lcp-pgs",
    .summary = "velocity-level LCP step, Siconos projected Gauss-Seidel (frictionless in effect: "
               "PGS refuses the friction rows' zero diagonal)",
    .params = lcp_params,
    .caps = TC_CAP_DYNAMICS,
    .needs = TC_CAP_CONTACTS,
    .alloc = pgs_alloc,
    .step = lcp_step,
    .free = lcp_free,
    .counters = lcp_counters,
    .impulses = lcp_impulses,
    .fc_problem = lcp_fc_problem,
    .cpu_dependent = TC_LCP_CPU_NOTE,
    .cpu_kind = tc_lcp_cpu_kind,
};
