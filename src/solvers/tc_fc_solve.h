/* SPDX-License-Identifier: MIT */
/* touche's contact solvers on a raw 3-D friction-contact problem (W, q, mu; solvers/
 * tc_fc_problem.h), for `touche solve` (docs/fclib.md): velocity projection's cone solver
 * (Siconos' fc3d NSGS, as solver_vp.c calls it on each body's block) on the whole problem, and
 * the LCP step's pyramid (k = 4, the LCP of solver_lcp.c, by tc_lcp's Lemke with its fallbacks);
 * and Siconos' own error measure. W goes to Siconos dense: problems of at most TC_FC_DENSE_MAX
 * rows (pyramid: 2 TC_FC_DENSE_MAX unknowns) */
#ifndef TC_FC_SOLVE_H
#define TC_FC_SOLVE_H

#include "solvers/tc_fc_problem.h"

#define TC_FC_DENSE_MAX 3000

/* what a solve did */
typedef struct tc_fc_result {
    int info;        /* 0: the solver met its tolerance; else the solver's failure code */
    long long iters; /* NSGS sweeps, or Lemke pivots over its attempts */
    double seconds;  /* wall time of the solve (s) */
} tc_fc_result;

/* W dense, column-major, into out[n * n] (n = p->n); TC_EINVAL beyond TC_FC_DENSE_MAX rows */
tc_status tc_fc_dense(const tc_fc_problem *p, double *out);

/* Siconos' fc3d_compute_error of impulses r (u = W r + q recomputed by Siconos) into *error.
 * Siconos 4.4 divides the natural-map residual by max(norm, |u|) (measured: docs/fclib.md), so
 * norm > 0 gives the relative error its solvers stop on (touche solve passes |q|), and norm = 0
 * the residual itself (norm set to a power of two above |u|, the quotient multiplied back:
 * exact). TC_EINVAL beyond TC_FC_DENSE_MAX rows, TC_ENOMEM */
tc_status tc_fc_siconos_error(const tc_fc_problem *p, const double *r, double norm, double *error);

/* fc3d NSGS (Siconos' default local solver, as velocity projection's blocks) from r0 (NULL:
 * r = 0) to the relative error tol or max_iter sweeps: impulses into r[n], u = W r + q into u[n] */
tc_status tc_fc_solve_nsgs(const tc_fc_problem *p, const double *r0, double tol, int max_iter,
                           double *r, double *u, tc_fc_result *res);

/* the LCP step's pyramid: friction along +-t1, +-t2 (k = 4) bounded by mu r_n, as the LCP of
 * solver_lcp.c over (r_n, beta, gamma), by tc_lcp (Lemke, fallbacks) to its relative natural
 * residual tol; r[n] the impulses (beta summed on t1, t2), u = W r + q */
tc_status tc_fc_solve_pyramid(const tc_fc_problem *p, double tol, int max_iter, double *r,
                              double *u, tc_fc_result *res);

#endif
