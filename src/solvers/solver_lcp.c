/* SPDX-License-Identifier: MIT */
/* velocity-level LCP time stepping (Stewart-Trinkle / Anitescu-Potra, linearised friction cone),
 * solved by Siconos Numerics: lcp-lemke (lexicographic Lemke), lcp-pgs (projected Gauss-Seidel) */
#include "solvers/tc_contact_space.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
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
    {"max_iter", 10000, 1, 1e7, TC_PARAM_INT, "1",
     "most PGS sweeps or Newton iterations per solve, and Lemke pivots per attempt (there also at "
     "most 10 per unknown) (Siconos iparam[SICONOS_IPARAM_MAX_ITER])",
     "Siconos' own default for both; the resting block takes 5 Lemke pivots or 12 PGS sweeps"},
    {"gap_term", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: a separated contact (depth < 0) may close its gap within the step, N v+ >= depth/dt; "
     "0: every reported contact is held at zero approach speed",
     "without it a falling body stops as soon as it is within the model's contact margin"},
    {"fallbacks", 1, 0, 1, TC_PARAM_BOOL, "1",
     "lcp-lemke only. 1: Lemke on M rounded to 44 bits, on M as is, rounded to 36, 48, 40, 30 "
     "bits, then Siconos' Fischer-Burmeister Newton, until z solves the unrounded LCP to tol; "
     "0: one Lemke on M as is",
     "Siconos 4.4's Lemke alone ends on a ray or cycles on degenerate contact LCPs: 4.6% of "
     "resting-block solves, 16% of random contact LCPs (docs/solvers.md)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* a run's workspace: every buffer sized for max_contacts, the Siconos structures reused */
typedef struct lcp_state {
    const tc_system *sys;
    int id, nv, k, maxc, gap, fallbacks, max_iter;
    double tol;
    long long iters, fails;
    tc_cspace *cs;       /* contacts, islands, rows (J, M^-1 J^T, bias), impulses */
    double *M0;          /* (maxc (k + 2))^2, column-major with leading dimension n */
    double *M;           /* what Siconos sees: M0, or M0 rounded (first Lemke attempt) */
    double *q, *z, *w;   /* maxc (k + 2) */
    NumericsMatrix *nm;  /* dense view of M (size set per solve; the data stays ours) */
    SolverOptions *opt; /* the named solver */
    SolverOptions *fb;  /* lcp-lemke's last fallback: Fischer-Burmeister Newton */
    LinearComplementarityProblem lcp;
} lcp_state;

/* release the buffers and the Siconos structures */
static void lcp_free(void *state) {
    lcp_state *s = state;
    if (!s) return;
    if (s->nm) NM_free_not_dense(s->nm); /* frees the struct, not our data */
    /* solver_options_delete releases the contents only */
    if (s->opt) solver_options_delete(s->opt), free(s->opt);
    if (s->fb) solver_options_delete(s->fb), free(s->fb);
    tc_cspace_free(s->cs);
    free(s->M0), free(s->M);
    free(s->q), free(s->z), free(s->w);
    free(s);
}

/* OpenBLAS (under Siconos' LU and products) splits work over its own threads, which changes
 * rounding with the core count and spins on small problems; when it is the BLAS linked, run it
 * on one thread (a weak reference: other BLAS builds lack the call) */
extern void openblas_set_num_threads(int n) __attribute__((weak));
extern char *openblas_get_corename(void) __attribute__((weak));

/* which kernels OpenBLAS picked for this CPU (its core name), the kind the results belong to */
static const char *lcp_cpu_kind(void) {
    static char kind[64];
    if (!kind[0])
        snprintf(kind, sizeof kind, "OpenBLAS %s",
                 openblas_get_corename ? openblas_get_corename() : "(another BLAS)");
    return kind;
}

/* everything a step needs, for one Siconos solver id */
static tc_status lcp_alloc_id(void **state, int id, const tc_system *sys, const tc_params *p,
                              tc_error *err) {
    (void)err;
    if (openblas_set_num_threads) openblas_set_num_threads(1);
    lcp_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->sys = sys, s->nv = sys->nv;
    s->k = (int)tc_params_get(p, "friction_dirs");
    s->maxc = (int)tc_params_get(p, "max_contacts");
    s->gap = tc_params_get(p, "gap_term") != 0;
    s->fallbacks = tc_params_get(p, "fallbacks") != 0;
    s->max_iter = (int)tc_params_get(p, "max_iter");
    s->id = id;
    s->tol = tc_params_get(p, "tol");
    size_t n = (size_t)s->maxc * (size_t)(s->k + 2);
    tc_status st = tc_cspace_alloc(&s->cs, sys, s->maxc, s->k);
    if (st) return lcp_free(s), st;
    s->M0 = calloc(n * n, sizeof(double));
    s->M = calloc(n * n, sizeof(double));
    s->q = calloc(n, sizeof(double));
    s->z = calloc(n, sizeof(double));
    s->w = calloc(n, sizeof(double));
    if (!s->M0 || !s->M || !s->q || !s->z || !s->w)
        return lcp_free(s), TC_ENOMEM;
    /* Siconos: a dense matrix over our buffer, and the solver's options */
    s->nm = NM_create_from_data(NM_DENSE, (int)n, (int)n, s->M);
    s->opt = solver_options_create(id);
    s->fb = solver_options_create(SICONOS_LCP_NEWTON_FB_FBLSA);
    if (!s->nm || !s->opt || !s->fb) return lcp_free(s), TC_ENOMEM;
    for (SolverOptions *o = s->opt; o; o = o == s->opt ? s->fb : NULL) {
        o->iparam[SICONOS_IPARAM_MAX_ITER] = (int)tc_params_get(p, "max_iter");
        o->dparam[SICONOS_DPARAM_TOL] = s->tol;
    }
    s->lcp = (LinearComplementarityProblem){(int)n, s->nm, s->q};
    *state = s;
    return TC_OK;
}

/* round x[n] to the binary grid 2^(e - bits), 2^e >= max |x| */
static void snap(double *x, size_t n, int bits) {
    double mx = 0;
    for (size_t i = 0; i < n; i++) mx = fmax(mx, fabs(x[i]));
    if (mx == 0) return;
    int e;
    frexp(mx, &e);
    double h = ldexp(1.0, e - bits);
    for (size_t i = 0; i < n; i++) x[i] = nearbyint(x[i] / h) * h;
}

static int imin(int a, int b) { return a < b ? a : b; }

static double dot(const double *a, const double *b, int n) {
    double r = 0;
    for (int i = 0; i < n; i++) r += a[i] * b[i];
    return r;
}

/* lcp-lemke's attempts, in order: Siconos' lexicographic Lemke on M rounded to the binary grid
 * 2^-bits of its largest entry (0: M as is), then Siconos' Fischer-Burmeister Newton
 * (SICONOS_LCP_NEWTON_FB_FBLSA) from z = 0 on M; lcp-pgs makes one attempt, PGS on M as is */
enum { NATTEMPT = 7 };
static const int attempt_bits[NATTEMPT] = {44, 0, 36, 48, 40, 30, 0};

/* Siconos' Newton solver prints "NM_LU_factorize: ... failed" to stderr (a plain fprintf, no
 * verbosity switch) on every singular Newton matrix, which its line search then handles; a
 * failed solve is counted here anyway. Run it with stderr pointed at /dev/null, serialised over
 * threads (the redirect is process-wide; other threads' lines in that window are dropped) */
static int driver_quiet(LinearComplementarityProblem *lcp, double *z, double *w,
                        SolverOptions *opt) {
    int info;
#pragma omp critical(tc_siconos_stderr)
    {
        fflush(stderr);
        int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
        if (saved >= 0 && null >= 0) dup2(null, STDERR_FILENO);
        info = linearComplementarity_driver(lcp, z, w, opt);
        fflush(stderr);
        if (saved >= 0 && null >= 0) dup2(saved, STDERR_FILENO);
        if (saved >= 0) close(saved);
        if (null >= 0) close(null);
    }
    return info;
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
    /* M: [[N A N^T, N A D^T, 0], [D A N^T, D A D^T, E], [mu I, -E^T, 0]], column-major; the
     * Jacobian block is symmetric by construction (upper triangle mirrored) */
    memset(s->M0, 0, nn * sizeof(double));
    for (int r = 0; r < m; r++)
        for (int c = r; c < m; c++) {
            double g = dot(J + (size_t)r * nv, AJ + (size_t)c * nv, nv);
            s->M0[(size_t)c * n + r] = g, s->M0[(size_t)r * n + c] = g;
        }
    if (friction)
        for (int i = 0; i < nc; i++) {
            int gi = m + i;
            s->M0[(size_t)i * n + gi] = mu;
            for (int j = 0; j < k; j++) {
                int bj = nc + i * k + j;
                s->M0[(size_t)gi * n + bj] = 1.0;
                s->M0[(size_t)bj * n + gi] = -1.0;
            }
        }
    /* q: [N v* (+ gap / dt), D v*, 0] */
    for (int r = 0; r < m; r++) {
        s->q[r] = dot(J + (size_t)r * nv, vs, nv) + bias[r];
        if (r < nc && s->gap && cc[r].c.depth < 0) s->q[r] -= cc[r].c.depth / dt;
    }
    for (int r = m; r < n; r++) s->q[r] = 0;
    s->lcp.size = n;
    s->nm->size0 = s->nm->size1 = n;
    int lemke = s->id == SICONOS_LCP_LEMKE, tries = lemke ? (s->fallbacks ? NATTEMPT : 1) : 1;
    int info = 0;
    for (int a = 0; a < tries; a++) {
        int bits = lemke ? attempt_bits[a] : 0;
        SolverOptions *opt = a == NATTEMPT - 1 ? s->fb : s->opt;
        memcpy(s->M, s->M0, nn * sizeof(double));
        if (bits) snap(s->M, nn, bits);
        /* a Lemke attempt that cycles is cut at 10 pivots per unknown (it needs about 1) */
        if (opt == s->opt && lemke)
            opt->iparam[SICONOS_IPARAM_MAX_ITER] = imin(s->max_iter, 10 * n);
        /* the dense driver skips the solver when q >= 0 and then leaves ITER_DONE alone */
        memset(s->z, 0, (size_t)n * sizeof(double));
        opt->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
        opt->dparam[SICONOS_DPARAM_RESIDU] = 0;
        info = opt == s->fb ? driver_quiet(&s->lcp, s->z, s->w, opt)
                            : linearComplementarity_driver(&s->lcp, s->z, s->w, opt);
        s->iters += opt->iparam[SICONOS_IPARAM_ITER_DONE];
        /* the residual on the unrounded problem decides: a rounded attempt must solve the real
         * one, and Lemke can stop on a secondary ray at a point that is a solution */
        if (bits) memcpy(s->M, s->M0, nn * sizeof(double));
        double err = INFINITY;
        if (!tc_nonfinite(s->z, n)) lcp_compute_error(&s->lcp, s->z, s->w, s->tol, &err);
        if (err <= s->tol) {
            /* Newton leaves -1e-17 where Lemke has exact zeros */
            for (int r = 0; r < n; r++) s->z[r] = fmax(s->z[r], 0.0);
            return 0;
        }
        if (!info) info = 1;
    }
    s->fails++;
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
    if (info && friction) friction = 0, info = solve(s, isl, 0, mu, v, dt);
    /* a failed normal solve keeps Siconos' last iterate, projected on z >= 0, if finite */
    if (info) {
        if (tc_nonfinite(s->z, nc)) memset(s->z, 0, (size_t)nc * sizeof(double));
        for (int r = 0; r < nc; r++) s->z[r] = fmax(s->z[r], 0.0);
    }
    /* v+ = v* + A (N^T lambda + D^T beta), recorded per contact */
    tc_cspace_apply(cs, isl, s->z, friction, v);
}

/* one step: contacts and v* = v + dt a at (t, q, v), LCP impulses per island, then q from v+ */
static tc_status lcp_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                          double *v) {
    lcp_state *s = state;
    tc_status st = tc_cspace_begin(s->cs, ode, t, q, v);
    if (!st) st = tc_cspace_predict(s->cs, ode, t, dt, q, v);
    if (st) return st;
    /* each island's LCP alone: they share no dof, so v* of one is untouched by another */
    for (int i = 0; i < s->cs->nisland; i++) island(s, i, v, dt);
    tc_system_integrate_q(ode->sys, q, v, dt);
    tc_system_normalize_q(ode->sys, q);
    return TC_OK;
}

static void lcp_counters(void *state, long long *iters, long long *fails) {
    const lcp_state *s = state;
    *iters = s->iters, *fails = s->fails + s->cs->overflows;
}

/* the contact impulses of the last step */
static int lcp_impulses(void *state, tc_contact_impulse *out, int max) {
    const lcp_state *s = state;
    return tc_cspace_impulses(s->cs, out, max);
}

/* Siconos' dense products and residuals run in OpenBLAS, which picks its kernels per CPU:
 * OPENBLAS_CORETYPE=Prescott changes E4 (a)'s LCP run from step 301 on (docs/solvers.md) */
#define LCP_CPU_NOTE                                                                              \
    "Siconos calls OpenBLAS, whose kernels (chosen per CPU) round differently; "                \
    "OPENBLAS_CORETYPE=Prescott changes E4 (a) from step 301"

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
    .cpu_dependent = LCP_CPU_NOTE,
    .cpu_kind = lcp_cpu_kind,
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
    .cpu_dependent = LCP_CPU_NOTE,
    .cpu_kind = lcp_cpu_kind,
};
