/* SPDX-License-Identifier: MIT */
/* the 3-D local friction-contact problem of one step, in FCLIB's convention (docs/fclib.md):
 * per contact the rows (n, t1, t2), n the unit normal from body a to body b and (t1, t2) an
 * orthonormal tangent pair; u = W r + q with W = H M^-1 H^T (m/s per N s) and q = H v* + bias
 * (m/s: the velocity of b's material point minus a's along the rows at the predictor v*, plus
 * what the bodies without dofs and a gap term add), r the impulses (N s: r_n >= 0,
 * |r_t| <= mu r_n). Velocity-level solvers describe their contacts (tc_fc_contact: each side's
 * rows over its body's dofs and M^-1 of them) and tc_fc_problem_build assembles the sparse W
 * from the contacts that share a body. Assembly allocates: it runs off the step loop, on the
 * steps `touche run --dump-problems` writes */
#ifndef TC_FC_PROBLEM_H
#define TC_FC_PROBLEM_H

#include "core/tc_status.h"

/* one side of a contact: its body's dofs (tc_system layout) and the contact's three rows on them
 * (-1 times the body's point Jacobian for side a, +1 for side b) and M^-1 of them */
typedef struct tc_fc_side {
    int body; /* scene body index */
    int nd;   /* dofs: 6 free, 3 planar, 0 none (a fixed or kinematic body: no rows) */
    int vadr; /* where its dofs are in v (-1 when nd = 0) */
    double row[3][6], mrow[3][6];
} tc_fc_side;

/* one contact: its two sides, q (m/s) and the solver's impulse r (N s), rows (n, t1, t2) */
typedef struct tc_fc_contact {
    tc_fc_side side[2];
    double q[3];
    double r[3];
    double mu; /* Coulomb coefficient, >= 0 */
} tc_fc_contact;

/* an assembled problem: W in compressed columns (FCLIB's and CSparse's layout, rows sorted in
 * each column), q, mu, and a solution (r, u = W r + q) */
typedef struct tc_fc_problem {
    int nc;           /* contacts */
    int n;            /* 3 nc */
    int nnz;          /* stored entries of W */
    int *colptr;      /* n + 1 */
    int *rowind;      /* nnz */
    double *W;        /* nnz, m/s per N s */
    double *q;        /* n, m/s */
    double *mu;       /* nc */
    double *r;        /* n, N s */
    double *u;        /* n, m/s */
    int has_solution; /* r and u hold a solution */
} tc_fc_problem;

/* an empty problem of nc >= 1 contacts with room for nnz entries of W (all zero, colptr 0);
 * TC_EINVAL for bad sizes (3 nc or nnz beyond INT_MAX), TC_ENOMEM */
tc_status tc_fc_problem_alloc(tc_fc_problem **out, int nc, long long nnz);
void tc_fc_problem_free(tc_fc_problem *p);

/* assemble the problem of nc contacts c[] (nc >= 1): W's entry (3 i + a, 3 j + b) is the sum,
 * over the sides of i and j on one body with dofs, of row_i[a] . mrow_j[b]; q, mu and r copied,
 * u = W r + q. The columns' rows in increasing order, so the result depends on c[] alone */
tc_status tc_fc_problem_build(tc_fc_problem **out, const tc_fc_contact *c, int nc);

/* the problem of a contact space's step (solvers/tc_contact_space.h, after tc_cspace_begin):
 * per contact the rows along its normal and its frame (t1, t2), over the dofs of each body,
 * and M^-1 of them at the step's poses; q = H vstar + bias (vstar: the predictor v*, nv), less
 * depth / gap_dt on the normal row of a separated contact (depth < 0) when gap_dt > 0 (the LCP's
 * gap term); r from the impulses recorded since tc_cspace_begin (normal, and the tangential
 * impulse on t1 and t2); mu for every contact. TC_EUNSUP when the step has no contact */
struct tc_cspace;
tc_status tc_fc_problem_from_cspace(tc_fc_problem **out, const struct tc_cspace *cs,
                                    const double *vstar, double mu, double gap_dt);

/* y = W x + y */
void tc_fc_problem_gemv(const tc_fc_problem *p, const double *x, double *y);

/* u = W r + q */
void tc_fc_problem_velocity(const tc_fc_problem *p, const double *r, double *u);

/* the unnormalised natural-map residual of (r, u = W r + q): sqrt(sum over contacts of
 * |r - P_C(r - (u + (mu |u_t|, 0, 0)))|^2), P_C the projection on the friction cone; FCLIB's
 * fclib_merit_local divides it by 1 + sqrt(|q|), Siconos' fc3d_compute_error by the norm it is
 * given (docs/fclib.md) */
double tc_fc_problem_residual(const tc_fc_problem *p, const double *r);

/* the checks the validating reader makes on a decoded problem (and a solution when sol):
 * n = 3 nc > 0, colptr from 0, non-decreasing, ending at nnz; row indices in [0, n), increasing
 * in each column; W, q, r, u finite; mu finite and >= 0. TC_EPARSE with the field and index in
 * err (its message prefixed with what, e.g. the file's name) */
tc_status tc_fc_problem_check(const tc_fc_problem *p, int sol, const char *what, tc_error *err);

#endif
