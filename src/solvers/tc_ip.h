/* SPDX-License-Identifier: MIT */
/* a primal-dual interior-point method for nonlinear complementarity problems (Mehrotra's
 * predictor-corrector, as Le Cleac'h et al.'s Mehrotra.jl solves problem 20):
 *
 *     find x   such that   f(x) = 0   and   z_k s_k = kappa,  z_k, s_k >= 0 for every pair k,
 *
 * where z_k = x[zi[k]] and s_k = x[si[k]] are entries of x (duals and slacks), f has n - npair
 * rows and kappa is the complementarity tolerance (the relaxation of the contact problem).
 * Split as GSL's iterative solvers: tc_ip_init, then tc_ip_iterate until tc_ip_test says done,
 * so that residuals and iterations can be logged; all memory is sized by tc_ip_alloc. Each
 * Newton system is condensed (every slack's step eliminated through its pair's row, leaving
 * n - npair unknowns) and solved by GSL's LU (the same bits on every CPU) */
#ifndef TC_IP_H
#define TC_IP_H

#include "core/tc_status.h"

/* the problem: f's rows and, when J is not NULL, its Jacobian ((n - npair) x n, row-major,
 * zeroed by the caller of the callback: the solver) at x; the duals and slacks must be distinct
 * unknowns (tc_ip_init returns TC_EINVAL otherwise); a status other than TC_OK stops the
 * solve with that status */
typedef struct tc_ip_problem {
    int n, npair;
    const int *zi, *si; /* npair each: the dual and the slack of each pair */
    tc_status (*f)(void *ctx, const double *x, double *r, double *J);
    void *ctx;
} tc_ip_problem;

/* the settings (defaults: tc_ip_default_settings) */
typedef struct tc_ip_settings {
    double kappa;      /* complementarity tolerance: the central path the solve ends on (1) */
    double rtol;       /* residual tolerance on |f|_inf and |z s - kappa|_inf (1) */
    int max_iter;      /* Newton iterations before the solve counts as failed */
    double ls_factor;  /* step shrink per line-search try */
    int ls_tries;      /* line-search tries per iteration */
    double boundary;   /* fraction to the boundary of z, s >= 0 kept per step */
    double correction; /* weight of Mehrotra's second-order term dz_aff ds_aff */
    double recentre;   /* a corrector step shorter than this is replaced by a centring step */
} tc_ip_settings;

/* the public code's settings: 30 iterations, rtol = kappa / 10, line search 0.5 x 25,
 * fraction to the boundary 0.95, correction 0.5 */
tc_ip_settings tc_ip_default_settings(double kappa);

typedef struct tc_ip_workspace tc_ip_workspace;

/* a workspace for problems of at most nmax unknowns */
tc_status tc_ip_alloc(tc_ip_workspace **w, int nmax);
void tc_ip_free(tc_ip_workspace *w);

/* start a solve of p from x[n] (z, s > 0: entries <= 0 are set to 1), evaluating f there */
tc_status tc_ip_init(tc_ip_workspace *w, const tc_ip_problem *p, const tc_ip_settings *set,
                     double *x);

/* one predictor-corrector iteration with line search, x updated in place; TC_EDIVERGED for a
 * singular Newton matrix or a non-finite step */
tc_status tc_ip_iterate(tc_ip_workspace *w);

/* 1 when |f|_inf and |z s - kappa|_inf are both within rtol, else 0 */
int tc_ip_test(const tc_ip_workspace *w);

/* init, then iterate until the test passes (*converged = 1) or max_iter iterations have been
 * taken (*converged = 0, x holds the last iterate); a failing status stops it */
tc_status tc_ip_solve(tc_ip_workspace *w, const tc_ip_problem *p, const tc_ip_settings *set,
                      double *x, int *converged);

/* the implicit function theorem at the solve's last iterate x: f's Jacobian evaluated there,
 * condensed and factorised as an iteration does (each pair's row z ds + s dz exact), so that
 * tc_ip_newton_solve solves with the full Newton matrix at x */
tc_status tc_ip_refactor(tc_ip_workspace *w);

/* d[n] <- K^-1 d with K the full Newton matrix last factorised (f's rows, then the pairs' rows
 * s dz + z ds): back-substitution only. dx/dp = K^-1 [-df/dp; 0] for a parameter p that enters
 * f alone */
tc_status tc_ip_newton_solve(tc_ip_workspace *w, double *d);

/* the current residuals (|f|_inf, |z s - kappa|_inf) and the iterations of this solve */
void tc_ip_residuals(const tc_ip_workspace *w, double *eq, double *comp);
int tc_ip_iterations(const tc_ip_workspace *w);

/* the last Newton matrix factorised (n x n, LU in place) and its permutation, to solve more
 * right-hand sides with it (bilevel's implicit-function derivatives): b[n] <- J^-1 b */
tc_status tc_ip_lu_solve(const double *lu, const size_t *perm, int n, double *b);

/* factorise a (n x n, row-major, in place) with partial pivoting into perm; TC_EDIVERGED when
 * singular */
tc_status tc_ip_lu(double *a, size_t *perm, int n);

#endif
