/* SPDX-License-Identifier: MIT */
/* dense LCPs by Siconos Numerics: lexicographic Lemke with its fallbacks, or projected
 * Gauss-Seidel; the solution accepted only when it meets the tolerance on the problem as given */
#include "solvers/tc_lcp.h"
#include "solvers/tc_siconos.h"

#include "dyn/tc_system.h"

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

struct tc_lcp_private {
    int id, fallbacks, max_iter;
    double tol;
    double *Ms;         /* what Siconos sees: M, or M rounded (first Lemke attempt) */
    NumericsMatrix *nm; /* dense view of Ms (size set per solve; the data stays ours) */
    SolverOptions *opt; /* the named solver */
    SolverOptions *fb;  /* Lemke's fallback: Fischer-Burmeister Newton */
    SolverOptions *nm2; /* Lemke's last fallback: Newton on min(z, w) with its FB line search */
    LinearComplementarityProblem lcp;
};

/* OpenBLAS (under Siconos' LU and products) splits work over its own threads, which changes
 * rounding with the core count and spins on small problems; when it is the BLAS linked, run it
 * on one thread (a weak reference: other BLAS builds lack the call) */
extern void openblas_set_num_threads(int n) __attribute__((weak));
extern char *openblas_get_corename(void) __attribute__((weak));

const char *tc_lcp_cpu_kind(void) {
    static char kind[64];
    if (!kind[0])
        snprintf(kind, sizeof kind, "OpenBLAS %s",
                 openblas_get_corename ? openblas_get_corename() : "(another BLAS)");
    return kind;
}

void tc_lcp_free(tc_lcp *l) {
    if (!l) return;
    tc_lcp_private *p = l->p;
    if (p) {
        if (p->nm) NM_free_not_dense(p->nm); /* frees the struct, not our data */
        tc_siconos_options_free(p->opt);
        tc_siconos_options_free(p->fb);
        tc_siconos_options_free(p->nm2);
        free(p->Ms);
        free(p);
    }
    free(l->M);
    free(l->q);
    free(l->z);
    free(l->w);
    free(l);
}

tc_status tc_lcp_alloc(tc_lcp **out, int nmax, int solver_id, int max_iter, double tol,
                       int fallbacks) {
    *out = NULL;
    if (nmax < 1) return TC_EINVAL;
    if (openblas_set_num_threads) openblas_set_num_threads(1);
    tc_lcp *l = calloc(1, sizeof *l);
    if (!l) return TC_ENOMEM;
    size_t n = (size_t)nmax;
    l->nmax = nmax;
    l->M = calloc(n * n, sizeof(double));
    l->q = calloc(n, sizeof(double));
    l->z = calloc(n, sizeof(double));
    l->w = calloc(n, sizeof(double));
    tc_lcp_private *p = l->p = calloc(1, sizeof *p);
    if (!l->M || !l->q || !l->z || !l->w || !p) {
        tc_lcp_free(l);
        return TC_ENOMEM;
    }
    p->id = solver_id;
    p->fallbacks = fallbacks && solver_id == SICONOS_LCP_LEMKE;
    p->max_iter = max_iter;
    p->tol = tol;
    p->Ms = calloc(n * n, sizeof(double));
    /* Siconos: a dense matrix over our buffer, and the solver's options */
    p->nm = NM_create_from_data(NM_DENSE, nmax, nmax, p->Ms);
    p->opt = solver_options_create(solver_id);
    p->fb = solver_options_create(SICONOS_LCP_NEWTON_FB_FBLSA);
    p->nm2 = solver_options_create(SICONOS_LCP_NEWTON_MIN_FBLSA);
    if (!p->Ms || !p->nm || !p->opt || !p->fb || !p->nm2) {
        tc_lcp_free(l);
        return TC_ENOMEM;
    }
    SolverOptions *all[] = {p->opt, p->fb, p->nm2};
    for (int i = 0; i < 3; i++) {
        all[i]->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
        all[i]->dparam[SICONOS_DPARAM_TOL] = tol;
    }
    p->lcp = (LinearComplementarityProblem){nmax, p->nm, l->q};
    *out = l;
    return TC_OK;
}

/* round x[n] to the binary grid 2^(e - bits), 2^e >= max |x| */
static void snap(double *x, size_t n, int bits) {
    double mx = 0;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(x[i]));
    if (mx == 0) return;
    int e;
    frexp(mx, &e);
    double h = ldexp(1.0, e - bits);
    for (size_t i = 0; i < n; i++)
        x[i] = nearbyint(x[i] / h) * h;
}

static int imin(int a, int b) {
    return a < b ? a : b;
}

/* Lemke's attempts, in order: Siconos' lexicographic Lemke on M rounded to the binary grid
 * 2^-bits of its largest entry (0: M as is); Siconos' Fischer-Burmeister Newton
 * (SICONOS_LCP_NEWTON_FB_FBLSA) from z = 0 on M; Lemke on M + eps I, eps = REG_REL of M's largest
 * entry (it lifts the zero diagonal of the friction rows that stalls Lemke on a degenerate
 * contact LCP); Newton on min(z, w) (SICONOS_LCP_NEWTON_MIN_FBLSA) on M. Later attempts run only
 * when every earlier one failed, so a problem solved early is solved the same way as before they
 * were added. PGS makes one attempt, on M as is */
enum { NATTEMPT = 9, ATT_FB = 6, ATT_REG = 7, ATT_MIN = 8 };
static const int attempt_bits[NATTEMPT] = {44, 0, 36, 48, 40, 30, 0, 0, 0};
#define REG_REL 1e-12

/* Siconos' Newton solver prints "NM_LU_factorize: ... failed" to stderr (a plain fprintf, no
 * verbosity switch) on every singular Newton matrix, which its line search then handles; a
 * failed solve is counted anyway. Run it with stderr pointed at /dev/null, serialised over
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

int tc_lcp_solve(tc_lcp *l, int n) {
    tc_lcp_private *p = l->p;
    size_t nn = (size_t)n * (size_t)n;
    p->lcp.size = n;
    p->nm->size0 = p->nm->size1 = n;
    int lemke = p->id == SICONOS_LCP_LEMKE, tries = p->fallbacks ? NATTEMPT : 1;
    int info = 0;
    l->attempt = 0;
    for (int a = 0; a < tries; a++) {
        int bits = lemke ? attempt_bits[a] : 0;
        SolverOptions *opt = a == ATT_FB ? p->fb : a == ATT_MIN ? p->nm2 : p->opt;
        memcpy(p->Ms, l->M, nn * sizeof(double));
        if (bits) snap(p->Ms, nn, bits);
        if (a == ATT_REG) {
            double mx = 0;
            for (size_t i = 0; i < nn; i++)
                mx = fmax(mx, fabs(l->M[i]));
            for (int r = 0; r < n; r++)
                p->Ms[(size_t)r * n + r] += REG_REL * mx;
        }
        /* a Lemke attempt that cycles is cut at 10 pivots per unknown (it needs about 1) */
        if (opt == p->opt && lemke)
            opt->iparam[SICONOS_IPARAM_MAX_ITER] = imin(p->max_iter, 10 * n);
        /* the dense driver skips the solver when q >= 0 and then leaves ITER_DONE alone */
        memset(l->z, 0, (size_t)n * sizeof(double));
        opt->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
        opt->dparam[SICONOS_DPARAM_RESIDU] = 0;
        info = opt != p->opt ? driver_quiet(&p->lcp, l->z, l->w, opt)
                             : linearComplementarity_driver(&p->lcp, l->z, l->w, opt);
        l->iters += opt->iparam[SICONOS_IPARAM_ITER_DONE];
        /* the residual on the unrounded problem decides: a rounded or lifted attempt must solve
         * the real one, and Lemke can stop on a secondary ray at a point that is a solution */
        if (bits || a == ATT_REG) memcpy(p->Ms, l->M, nn * sizeof(double));
        double err = INFINITY;
        if (!tc_nonfinite(l->z, n)) lcp_compute_error(&p->lcp, l->z, l->w, p->tol, &err);
        if (err <= p->tol) {
            /* Newton leaves -1e-17 where Lemke has exact zeros */
            for (int r = 0; r < n; r++)
                l->z[r] = fmax(l->z[r], 0.0);
            l->attempt = a + 1;
            return 0;
        }
        if (!info) info = 1;
    }
    return info;
}
