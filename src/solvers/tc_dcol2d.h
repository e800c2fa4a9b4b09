/* SPDX-License-Identifier: MIT */
/* Le Cleac'h et al.'s planar contact problem: per pair of convex primitives the collision
 * problem (DCOL, problem 14: the smallest scaling alpha at which both share a point p) and the
 * contact dynamics (normal impulse complementary to phi = alpha - 1, friction by a 2-sided
 * linearised cone with maximum dissipation), with the bodies' implicit step q+ = q + h v+.
 *
 * Pair k's local unknowns l (in this order):
 *   p (2, m), alpha, lambda_a (m_a), lambda_b (m_b), s_a (m_a), s_b (m_b)   [collision]
 *   gamma, s_gamma, psi, s_psi, beta1, beta2, s_beta1, s_beta2             [contact, N s, m/s]
 * its rows E (in this order):
 *   stationarity in p (2), in alpha (1), s_a + g_a (m_a), s_b + g_b (m_b)  [collision]
 *   s_gamma - phi, s_psi - (mu gamma - beta1 - beta2), s_beta -+ v_t - psi  [contact]
 * and its complementarity pairs (lambda, s), (gamma, s_gamma), (psi, s_psi), (beta, s_beta).
 * The collision variables and rows lead, so that the collision problem alone is the leading
 * block (bilevel). Body i's rows: M_i ((q+_i - q_i) / h - v_i - h a_i) - (wrenches of its
 * pairs) = 0, wrench (F_x, F_y, tau_z) in N s */
#ifndef TC_DCOL2D_H
#define TC_DCOL2D_H

#include "collide/tc_convex2d.h"
#include "core/tc_arena.h"
#include "dyn/tc_system.h"
#include "solvers/tc_ip.h"

#define TC_DCOL2D_MAXPAIR 64

typedef struct tc_dcol2d_pair {
    int body[2];     /* a, b: scene body indices */
    int ma, mb;      /* rows of each side's primitive */
    int nl, ne;      /* local unknowns 2 (ma + mb) + 11, rows ma + mb + 7 */
    int ncol, necol; /* collision unknowns 3 + 2 (ma + mb), rows 3 + ma + mb */
} tc_dcol2d_pair;

/* the problem of a scene: planar bodies (every body with dofs on a planar joint), a primitive
 * per body, the pairs that can touch (at least one side with dofs, not two half-spaces) */
typedef struct tc_dcol2d {
    const tc_system *sys;
    int nv;             /* 3 per planar body */
    tc_convex2d *prim;  /* nbody: each body's primitive */
    double (*pose0)[3]; /* nbody: fixed bodies' (x, y, 0) */
    int npair;
    tc_dcol2d_pair pair[TC_DCOL2D_MAXPAIR];
    int maxl, maxe; /* the largest pair */
    double mu;      /* friction coefficient */
    /* the step: h (s), start q and v, unconstrained acceleration a (nv each) */
    double h;
    const double *q, *v, *a;
    /* scratch for one pair's evaluation */
    double *E, *dEdl, *dEdq; /* ne; ne x nl; ne x 6 (a's then b's q+) */
    double *dEdq0;           /* ne x 6: dE over the step's start poses q (the sliding velocity's) */
    double *W, *dWdl, *dWdq; /* 2 x 3 wrenches; 2 x 3 x nl; 2 x 3 x 6 */
    /* the collision problem being solved alone (tc_dcol2d_detect) */
    int ck, czi[2 * TC_CONVEX2D_MAXROW], csi[2 * TC_CONVEX2D_MAXROW];
    const double *cqp;
    double *cl;     /* maxl: its local unknowns */
    tc_arena arena; /* the block that holds the problem and its arrays */
} tc_dcol2d;

/* the problem of sys's scene: TC_EUNSUP naming the body for a body that is not planar, a shape
 * that is not a planar prism or half-space, a kinematic body in a pair; TC_EINVAL for more than
 * TC_DCOL2D_MAXPAIR pairs */
tc_status tc_dcol2d_alloc(tc_dcol2d **out, const tc_system *sys, double mu, tc_error *err);
void tc_dcol2d_free(tc_dcol2d *d);

/* pair k at body coordinates qp (nv: the candidate q+) and its local unknowns l: E, dE/dl,
 * dE/dq+ (of a's 3 then b's 3 coordinates; zero for a side without dofs), dE/dq (over the
 * start poses, the same columns: only the friction rows see them), and the wrench on
 * each side W[side][3] with its derivatives. With collision_only, only the collision rows and
 * their derivatives (no wrenches; dE/dq left as it was) */
void tc_dcol2d_pair_eval(tc_dcol2d *d, int k, const double *qp, const double *l,
                         int collision_only);

/* the pose (x, y, theta) of body i at coordinates qp: its q+ for a body with dofs, else its
 * scene pose */
void tc_dcol2d_pose(const tc_dcol2d *d, int i, const double *qp, double pose[3]);

/* a starting point for pair k's unknowns at q+ = qp: p between the two primitives (on the
 * half-space under the polygon's centre), alpha = 1, every dual and slack 1 */
void tc_dcol2d_pair_start(const tc_dcol2d *d, int k, const double *qp, double *l);

/* problem 14 alone for pair k at q+ = qp: its collision unknowns l[0 .. ncol) (p, alpha,
 * duals, slacks) solved in place by the interior-point method from their values in l, with
 * workspace w (at least maxl unknowns) and settings set; *converged as tc_ip_solve */
tc_status tc_dcol2d_detect(tc_dcol2d *d, tc_ip_workspace *w, const tc_ip_settings *set, int k,
                           const double *qp, double *l, int *converged);

#endif
