/* SPDX-License-Identifier: MIT */
/* Le Cleac'h et al. 2023 in the plane: each step one interior-point solve of the implicit
 * dynamics with every pair's collision KKT conditions (single-level, problem 20), or of the
 * dynamics alone with the collision problem solved inside every residual evaluation (bilevel).
 * The bilevel's defaults are the public code's baseline (a fixed, cold, capped lower-level solve
 * and finite-difference Jacobians); its parameters also give touche's stronger variant (the
 * lower level at the step's tolerance, warm, to convergence, derivatives by the implicit function
 * theorem) */
#include "solvers/tc_dcol2d.h"
#include "solvers/tc_ip.h"
#include "solvers/tc_solver.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tc_param_spec ip_params[] = {
    {"tol", 1e-6, 1e-14, 1, TC_PARAM_REAL, "1",
     "complementarity tolerance kappa: the solve ends on z s = kappa (the contact's relaxation; "
     "smaller is stiffer), within a residual tolerance of kappa / 10 on every row",
     "the paper: accurate contact at a relaxation of 1e-6"},
    {"max_iter", 30, 1, 1000, TC_PARAM_ITERS, "1",
     "Newton iterations per step; a step that reaches it counts as failed and keeps its last "
     "iterate",
     "the public code's cap, by which the paper counts failures"},
    {"warm_start", 0, 0, 1, TC_PARAM_BOOL, "1",
     "1: start each step from the last solution, its duals and slacks raised by backstep; 0: "
     "from duals and slacks of 1 (cold)",
     "the public code's polytope drop runs cold; warm starts jam at impacts here: 47 of 360 "
     "E5 drops failed warm, 5 cold (docs/solvers.md)"},
    {"backstep", 1e-2, 0, 1, TC_PARAM_REAL, "1",
     "added to every dual and slack of a warm start (keeps them off the cone's boundary)",
     "the public code's complementarity_backstep"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* the bilevel's: the single-level's, then its lower level and its Jacobian. Defaults: the public
 * code as it produced the paper's data (Silico.jl at fa70380, 2022-10-23, on Mehrotra.jl's main
 * branch of then, 1aecdfa): CollisionDetector builds its Mehrotra solver with max_iterations = 20,
 * warm_start = false, complementarity_tolerance = 1e-4 (fixed when the mechanism is built; the
 * benchmarks sweep only the outer solver's) and Mehrotra's default residual_tolerance 1e-5; the
 * bilevel mechanism uses method_type = :finite_difference (FiniteDiff's forward differences of
 * the whole residual, + 1e-3 on the primal diagonal, - 1e-3 on the duals') */
static const tc_param_spec bilevel_params[] = {
    {"tol", 1e-6, 1e-14, 1, TC_PARAM_REAL, "1",
     "complementarity tolerance kappa of the dynamics: the solve ends on z s = kappa, within a "
     "residual tolerance of kappa / 10 on every row",
     "the paper: accurate contact at a relaxation of 1e-6"},
    {"max_iter", 30, 1, 1000, TC_PARAM_ITERS, "1",
     "Newton iterations per step; a step that reaches it counts as failed and keeps its last "
     "iterate",
     "the public code's cap, by which the paper counts failures"},
    {"warm_start", 0, 0, 1, TC_PARAM_BOOL, "1",
     "1: start each step from the last solution, its duals and slacks raised by backstep; 0: "
     "from duals and slacks of 1 (cold)",
     "the public polytope-drop and stacking scripts run the bilevel cold"},
    {"backstep", 1e-2, 0, 1, TC_PARAM_REAL, "1",
     "added to every dual and slack of a warm start, the step's and (collision_warm) the "
     "collision problem's",
     "the public code's complementarity_backstep"},
    {"collision_tol", 1e-4, 0, 1, TC_PARAM_REAL, "1",
     "complementarity tolerance of the lower-level collision problem (problem 14); 0: the step's "
     "tol",
     "the public CollisionDetector's 1e-4, fixed whatever the step's tolerance"},
    {"collision_rtol", 1e-5, 0, 1, TC_PARAM_REAL, "1",
     "residual tolerance of the collision problem on |E|_inf and |lambda s - kappa|_inf; 0: "
     "its tolerance / 10",
     "Mehrotra.jl's default residual_tolerance, which the public CollisionDetector kept"},
    {"collision_max_iter", 20, 1, 1000, TC_PARAM_ITERS, "1",
     "interior-point iterations of each collision solve; a solve that reaches it hands on its "
     "last iterate (counted in the failure note)",
     "the public CollisionDetector's max_iterations"},
    {"collision_warm", 0, 0, 1, TC_PARAM_BOOL, "1",
     "1: each collision solve starts from the pair's last solution, duals and slacks raised by "
     "backstep; 0: from the cold start (p between the shapes, alpha = 1, duals and slacks 1)",
     "the public CollisionDetector sets warm_start = false"},
    {"fd_jacobian", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: the Newton matrix by forward differences of the whole residual (one more residual "
     "evaluation, every collision problem solved again, per unknown; steps sqrt(eps) max(|x|, "
     "1), in velocity for the poses); 0: exact, the collision unknowns' derivatives by the "
     "implicit function theorem",
     "the public benchmarks build the bilevel with method_type = :finite_difference"},
    {"fd_primal_reg", 1e-3, 0, 1e6, TC_PARAM_REAL, "kg",
     "with fd_jacobian: added to each body row's derivative in its velocity (mass units: m / h "
     "on q+), as the public code adds it to the primal diagonal",
     "Mehrotra.jl's finite-difference methods at the data's date (1aecdfa): 1e-3"},
    {"fd_dual_reg", 0, 0, 1e6, TC_PARAM_REAL, "1",
     "with fd_jacobian: subtracted from each contact row's derivative in its own dual (gamma, "
     "psi, beta; in that row's units per the dual's)",
     "Mehrotra.jl's finite-difference methods at the data's date (1aecdfa): 1e-3"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* a run's workspace, both formulations */
typedef struct ip_state {
    const tc_system *sys;
    int bilevel, nv;
    tc_dcol2d *dc;
    tc_ip_settings set, cset;
    tc_ip_workspace *ws, *wc;
    int warm, started;
    double backstep;
    /* bilevel: the lower level's start (1 warm), the Jacobian (1 finite differences) and its
     * regularisation (kg on the velocity diagonal, 1 on the duals'); scratch for a column */
    int cwarm, fd, exact;
    double fd_reg_p, fd_reg_d;
    double *xp, *rp, *cs;
    /* the solved problem: single-level x = [q+, pair blocks]; bilevel x = [q+, 8 per pair] */
    int n, ncone;
    int *zi, *si;
    int voff[TC_DCOL2D_MAXPAIR], eoff[TC_DCOL2D_MAXPAIR];
    double *x, *a;
    /* bilevel: each pair's collision unknowns (persistent: the warm start of the next solve),
     * the pair's collision problem, its IFT matrix and derivatives */
    int coff[TC_DCOL2D_MAXPAIR];
    double *col, *l, *Mcc, *X;
    size_t *perm;
    /* step_jacobian: the start state, the unconstrained acceleration's derivatives over q, v,
     * tau and ctrl (nv x nv each), a right-hand side (n) and the collision unknowns' copy */
    double *q0, *v0, *vd, *da, *rhs, *colsave, *dq0;
    long long iters, fails, cfails;
    char note[256];
} ip_state;

static void ip_free(void *state) {
    ip_state *s = state;
    if (!s) return;
    tc_dcol2d_free(s->dc);
    tc_ip_free(s->ws);
    tc_ip_free(s->wc);
    free(s->zi);
    free(s->si);
    free(s->x);
    free(s->a);
    free(s->col);
    free(s->l);
    free(s->Mcc);
    free(s->X);
    free(s->perm);
    free(s->xp);
    free(s->rp);
    free(s->cs);
    free(s->q0);
    free(s->v0);
    free(s->vd);
    free(s->da);
    free(s->rhs);
    free(s->colsave);
    free(s->dq0);
    free(s);
}

/* a planar body's mass along its coordinate c (x, y: m in kg; theta: I_zz in kg m^2) */
static double body_mass(const tc_system *sys, int i, int c) {
    return c < 2 ? sys->scene->body[i].mass : sys->izz[i];
}

/* body rows M ((q+ - q) / h - v - h a) at qp, and their diagonal */
static void body_rows(const ip_state *s, const double *qp, double *r, double *J, int n) {
    const tc_dcol2d *d = s->dc;
    for (int i = 0; i < s->sys->scene->nbody; i++) {
        int v = s->sys->vadr[i];
        if (v < 0) continue;
        for (int c = 0; c < 3; c++) {
            double m = body_mass(s->sys, i, c);
            r[v + c] = m * ((qp[v + c] - d->q[v + c]) / d->h - d->v[v + c] - d->h * d->a[v + c]);
            if (J) J[(size_t)(v + c) * (size_t)n + (size_t)(v + c)] = m / d->h;
        }
    }
}

/* pair k's q+ columns: a's three, then b's (-1 for a side without dofs) */
static void q_columns(const ip_state *s, int k, int col[6]) {
    for (int j = 0; j < 2; j++) {
        int v = s->sys->vadr[s->dc->pair[k].body[j]];
        for (int c = 0; c < 3; c++)
            col[3 * j + c] = v >= 0 ? v + c : -1;
    }
}

/* subtract the pair's wrenches from its bodies' rows; local unknown c of the pair goes to
 * column lcol[c] (-1: dropped) */
static void place_wrenches(const ip_state *s, int k, const int *lcol, double *r, double *J, int n) {
    const tc_dcol2d *d = s->dc;
    const tc_dcol2d_pair *pr = &d->pair[k];
    int qc[6];
    q_columns(s, k, qc);
    for (int j = 0; j < 2; j++) {
        int v = s->sys->vadr[pr->body[j]];
        if (v < 0) continue;
        for (int c = 0; c < 3; c++) {
            r[v + c] -= d->W[3 * j + c];
            if (!J) continue;
            double *row = J + (size_t)(v + c) * (size_t)n;
            const double *wl = d->dWdl + (size_t)(3 * j + c) * (size_t)pr->nl;
            for (int m = 0; m < pr->nl; m++)
                if (lcol[m] >= 0) row[lcol[m]] -= wl[m];
            for (int m = 0; m < 6; m++)
                if (qc[m] >= 0) row[qc[m]] -= d->dWdq[(3 * j + c) * 6 + m];
        }
    }
}

/* the single-level residual: body rows, then each pair's rows */
static tc_status single_f(void *ctx, const double *x, double *r, double *J) {
    ip_state *s = ctx;
    tc_dcol2d *d = s->dc;
    int n = s->n, lcol[2 * (2 * TC_CONVEX2D_MAXROW) + 11], qc[6];
    body_rows(s, x, r, J, n);
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        tc_dcol2d_pair_eval(d, k, x, x + s->voff[k], 0);
        q_columns(s, k, qc);
        for (int m = 0; m < pr->nl; m++)
            lcol[m] = s->voff[k] + m;
        for (int e = 0; e < pr->ne; e++) {
            r[s->eoff[k] + e] = d->E[e];
            if (!J) continue;
            double *row = J + (size_t)(s->eoff[k] + e) * (size_t)n;
            memcpy(row + s->voff[k], d->dEdl + (size_t)e * (size_t)pr->nl,
                   (size_t)pr->nl * sizeof *row);
            for (int m = 0; m < 6; m++)
                if (qc[m] >= 0) row[qc[m]] += d->dEdq[e * 6 + m];
        }
        place_wrenches(s, k, lcol, r, J, n);
    }
    return TC_OK;
}

/* bilevel: solve pair k's collision problem at q+ = qp, from its last solution raised by
 * backstep (collision_warm) or from the cold start at qp */
static tc_status detect(ip_state *s, int k, const double *qp) {
    const tc_dcol2d_pair *pr = &s->dc->pair[k];
    double *xc = s->col + s->coff[k];
    if (s->cwarm) {
        for (int i = 3; i < pr->ncol; i++)
            xc[i] += s->backstep;
    } else {
        tc_dcol2d_pair_start(s->dc, k, qp, s->cs);
        memcpy(xc, s->cs, (size_t)pr->ncol * sizeof *xc);
    }
    int ok;
    tc_status st = tc_dcol2d_detect(s->dc, s->wc, &s->cset, k, qp, xc, &ok);
    s->cfails += !ok;
    return st;
}

/* row[qc[c]] += sign dr . X[:, c] over the nc collision unknowns, for each coordinate c */
static void chain(const ip_state *s, double *row, const double *dr, int nc, const int qc[6],
                  double sign) {
    for (int c = 0; c < 6; c++) {
        if (qc[c] < 0) continue;
        double acc = 0;
        for (int i = 0; i < nc; i++)
            acc += dr[i] * s->X[(size_t)c * (size_t)nc + i];
        row[qc[c]] += sign * acc;
    }
}

/* the bilevel residual: the dynamics rows with every pair's collision solved at x's q+, and
 * their Jacobian through the implicit function theorem, dc/dq+ = -M_cc^-1 dE_c/dq+ */
static tc_status bilevel_exact(ip_state *s, const double *x, double *r, double *J) {
    tc_dcol2d *d = s->dc;
    int n = s->n, lcol[2 * (2 * TC_CONVEX2D_MAXROW) + 11], qc[6];
    body_rows(s, x, r, J, n);
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        int nc = pr->ncol, m = pr->ma + pr->mb, dv = s->voff[k];
        tc_status st = detect(s, k, x);
        if (st) return st;
        /* the full local unknowns: collision solution, then the step's contact unknowns */
        memcpy(s->l, s->col + s->coff[k], (size_t)nc * sizeof *s->l);
        memcpy(s->l + nc, x + dv, 8 * sizeof *s->l);
        tc_dcol2d_pair_eval(d, k, x, s->l, 0);
        q_columns(s, k, qc);
        for (int c = 0; c < pr->nl; c++)
            lcol[c] = c < nc ? -1 : dv + c - nc;
        /* the 4 contact rows: direct partials */
        for (int e = 0; e < 4; e++) {
            int le = pr->necol + e;
            r[s->eoff[k] + e] = d->E[le];
            if (!J) continue;
            double *row = J + (size_t)(s->eoff[k] + e) * (size_t)n;
            for (int c = nc; c < pr->nl; c++)
                row[dv + c - nc] += d->dEdl[le * pr->nl + c];
            for (int c = 0; c < 6; c++)
                if (qc[c] >= 0) row[qc[c]] += d->dEdq[le * 6 + c];
        }
        place_wrenches(s, k, lcol, r, J, n);
        if (!J) continue;
        /* M_cc: the collision rows over the collision unknowns, and the products lambda s */
        memset(s->Mcc, 0, (size_t)nc * (size_t)nc * sizeof *s->Mcc);
        for (int e = 0; e < pr->necol; e++)
            memcpy(s->Mcc + (size_t)e * (size_t)nc, d->dEdl + (size_t)e * (size_t)pr->nl,
                   (size_t)nc * sizeof *s->Mcc);
        for (int i = 0; i < m; i++) {
            double *row = s->Mcc + (size_t)(pr->necol + i) * (size_t)nc;
            row[3 + i] = s->l[3 + m + i];
            row[3 + m + i] = s->l[3 + i];
        }
        if ((st = tc_ip_lu(s->Mcc, s->perm, nc))) return st;
        /* X[:, c] = -M_cc^-1 dE_c/dq_c, for each of the 6 coordinates */
        for (int c = 0; c < 6; c++) {
            double *xcol = s->X + (size_t)c * (size_t)nc;
            for (int e = 0; e < nc; e++)
                xcol[e] = e < pr->necol ? -d->dEdq[e * 6 + c] : 0;
            if (qc[c] >= 0 && (st = tc_ip_lu_solve(s->Mcc, s->perm, nc, xcol))) return st;
        }
        /* chain rule: rows that see the collision unknowns get dR/dc X on the q+ columns (the
         * pair's contact rows; its bodies' rows hold minus the wrenches) */
        for (int e = 0; e < 4; e++)
            chain(s, J + (size_t)(s->eoff[k] + e) * (size_t)n,
                  d->dEdl + (size_t)(pr->necol + e) * (size_t)pr->nl, nc, qc, 1);
        for (int j = 0; j < 2; j++) {
            int v = s->sys->vadr[pr->body[j]];
            for (int w = 0; w < 3 && v >= 0; w++)
                chain(s, J + (size_t)(v + w) * (size_t)n,
                      d->dWdl + (size_t)(3 * j + w) * (size_t)pr->nl, nc, qc, -1);
        }
    }
    return TC_OK;
}

/* the bilevel residual's Newton matrix by forward differences, as the public code's
 * finite-difference methods build it: the residual at x, then per unknown j one more evaluation
 * (every pair's collision problem solved again) at x + delta e_j, delta = sqrt(eps) max(|x_j|, 1)
 * with the poses' steps taken in velocity (q+ = q + h v: delta = h sqrt(eps) max(|v_j|, 1)); then
 * + fd_primal_reg on each body row's velocity derivative and - fd_dual_reg on each contact row's
 * own dual. The rows of f only (the solver adds the complementarity products) */
static tc_status bilevel_fd(ip_state *s, const double *x, double *r, double *J) {
    const tc_dcol2d *d = s->dc;
    const int n = s->n, neq = s->n - s->ncone, nv = s->nv;
    const double rel = sqrt(DBL_EPSILON);
    tc_status st = bilevel_exact(s, x, r, NULL);
    if (st) return st;
    memcpy(s->xp, x, (size_t)n * sizeof *s->xp);
    for (int j = 0; j < n; j++) {
        double step = j < nv ? d->h * rel * fmax(fabs((x[j] - d->q[j]) / d->h), 1)
                             : rel * fmax(fabs(x[j]), 1);
        s->xp[j] = x[j] + step;
        step = s->xp[j] - x[j];
        if ((st = bilevel_exact(s, s->xp, s->rp, NULL))) return st;
        for (int i = 0; i < neq; i++)
            J[(size_t)i * (size_t)n + (size_t)j] = (s->rp[i] - r[i]) / step;
        s->xp[j] = x[j];
    }
    /* the regularisation: kg on dr/dv is kg / h on dr/dq+ */
    for (int i = 0; i < nv; i++)
        J[(size_t)i * (size_t)n + (size_t)i] += s->fd_reg_p / d->h;
    static const int dual[4] = {0, 2, 4, 5}; /* gamma, psi, beta1, beta2 of a pair's 8 */
    for (int k = 0; k < d->npair; k++)
        for (int e = 0; e < 4; e++)
            J[(size_t)(s->eoff[k] + e) * (size_t)n + (size_t)(s->voff[k] + dual[e])] -= s->fd_reg_d;
    /* a warm lower level goes on from the solution at x, not at the last column's point */
    return s->cwarm ? bilevel_exact(s, x, r, NULL) : TC_OK;
}

/* the bilevel residual, its Newton matrix exact or by finite differences */
static tc_status bilevel_f(void *ctx, const double *x, double *r, double *J) {
    ip_state *s = ctx;
    return J && s->fd && !s->exact ? bilevel_fd(s, x, r, J) : bilevel_exact(s, x, r, J);
}

/* the layout of x and its complementarity pairs */
static tc_status layout(ip_state *s) {
    tc_dcol2d *d = s->dc;
    int n = s->nv, e = s->nv, ncone = 0, nc = 0;
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        s->voff[k] = n;
        s->eoff[k] = e;
        s->coff[k] = nc;
        n += s->bilevel ? 8 : pr->nl;
        e += s->bilevel ? 4 : pr->ne;
        ncone += s->bilevel ? 4 : pr->ma + pr->mb + 4;
        nc += pr->ncol;
    }
    s->n = n;
    s->ncone = ncone;
    s->zi = calloc((size_t)ncone + 1, sizeof *s->zi);
    s->si = calloc((size_t)ncone + 1, sizeof *s->si);
    s->x = calloc((size_t)n + 1, sizeof *s->x);
    s->a = calloc((size_t)s->nv + 1, sizeof *s->a);
    s->col = calloc((size_t)nc + 1, sizeof *s->col);
    s->l = calloc((size_t)d->maxl + 1, sizeof *s->l);
    s->Mcc = calloc((size_t)d->maxl * (size_t)d->maxl + 1, sizeof *s->Mcc);
    s->X = calloc((size_t)d->maxl * 6 + 1, sizeof *s->X);
    s->perm = calloc((size_t)d->maxl + 1, sizeof *s->perm);
    s->xp = calloc((size_t)n + 1, sizeof *s->xp);
    s->rp = calloc((size_t)n + 1, sizeof *s->rp);
    s->cs = calloc((size_t)d->maxl + 1, sizeof *s->cs);
    size_t nv = (size_t)s->nv;
    s->q0 = calloc(nv + 1, sizeof *s->q0);
    s->v0 = calloc(nv + 1, sizeof *s->v0);
    s->vd = calloc(nv + 1, sizeof *s->vd);
    s->da = calloc(4 * nv * nv + 1, sizeof *s->da);
    s->rhs = calloc((size_t)n + 1, sizeof *s->rhs);
    s->colsave = calloc((size_t)nc + 1, sizeof *s->colsave);
    s->dq0 = calloc((size_t)n * 6 + 1, sizeof *s->dq0);
    if (!s->zi || !s->si || !s->x || !s->a || !s->col || !s->l || !s->Mcc || !s->X || !s->perm ||
        !s->xp || !s->rp || !s->cs || !s->q0 || !s->v0 || !s->vd || !s->da || !s->rhs ||
        !s->colsave || !s->dq0)
        return TC_ENOMEM;
    /* the pairs (z, s): collision duals and slacks (single-level), then gamma, psi, beta */
    int c = 0;
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        int m = pr->ma + pr->mb, o = s->voff[k] + (s->bilevel ? 0 : pr->ncol);
        for (int i = 0; i < m && !s->bilevel; i++, c++) {
            s->zi[c] = s->voff[k] + 3 + i;
            s->si[c] = s->voff[k] + 3 + m + i;
        }
        const int z[4] = {0, 2, 4, 5}, sl[4] = {1, 3, 6, 7};
        for (int i = 0; i < 4; i++, c++) {
            s->zi[c] = o + z[i];
            s->si[c] = o + sl[i];
        }
    }
    if (tc_ip_alloc(&s->ws, n)) return TC_ENOMEM;
    if (s->bilevel && tc_ip_alloc(&s->wc, d->maxl)) return TC_ENOMEM;
    return TC_OK;
}

static tc_status ip_alloc(void **state, const tc_system *sys, const tc_params *p, int bilevel,
                          tc_error *err) {
    *state = NULL;
    if (sys->nq != sys->nv)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "joint",
                            "the planar contact problem needs planar bodies only");
    ip_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->sys = sys;
    s->nv = sys->nv;
    s->bilevel = bilevel;
    tc_status st = tc_dcol2d_alloc(&s->dc, sys, sys->scene->friction, err);
    if (st) {
        ip_free(s);
        return st;
    }
    double kappa = tc_params_get(p, "tol");
    s->set = tc_ip_default_settings(kappa);
    s->set.max_iter = (int)tc_params_get(p, "max_iter");
    s->warm = tc_params_get(p, "warm_start") != 0;
    s->backstep = tc_params_get(p, "backstep");
    if (bilevel) {
        /* the lower level: its own tolerance (0: the step's), residual tolerance (0: a tenth of
         * it), cap and start; the Jacobian's kind and regularisation */
        double ck = tc_params_get(p, "collision_tol"), cr = tc_params_get(p, "collision_rtol");
        s->cset = tc_ip_default_settings(ck > 0 ? ck : kappa);
        if (cr > 0) s->cset.rtol = cr;
        s->cset.max_iter = (int)tc_params_get(p, "collision_max_iter");
        s->cwarm = tc_params_get(p, "collision_warm") != 0;
        s->fd = tc_params_get(p, "fd_jacobian") != 0;
        s->fd_reg_p = tc_params_get(p, "fd_primal_reg");
        s->fd_reg_d = tc_params_get(p, "fd_dual_reg");
    }
    if ((st = layout(s))) {
        ip_free(s);
        return st;
    }
    *state = s;
    return TC_OK;
}

/* the starting point: the last solution, duals and slacks raised by backstep (warm), or duals
 * and slacks of 1 (cold); q+ = q + h v either way */
static void start(ip_state *s, const double *q, const double *v, double h) {
    tc_dcol2d *d = s->dc;
    for (int i = 0; i < s->nv; i++)
        s->x[i] = q[i] + h * v[i];
    if (s->warm && s->started) {
        for (int c = 0; c < s->ncone; c++) {
            s->x[s->zi[c]] += s->backstep;
            s->x[s->si[c]] += s->backstep;
        }
        return;
    }
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        tc_dcol2d_pair_start(d, k, s->x, s->l);
        if (s->bilevel) {
            memcpy(s->col + s->coff[k], s->l, (size_t)pr->ncol * sizeof *s->l);
            memcpy(s->x + s->voff[k], s->l + pr->ncol, 8 * sizeof *s->l);
        } else {
            memcpy(s->x + s->voff[k], s->l, (size_t)pr->nl * sizeof *s->l);
        }
    }
}

/* one step from (q0, v0): the unconstrained acceleration at the start, one interior-point solve
 * for q+, then v+ = (q+ - q0) / h into (q, v) (which may be q0 and v0 themselves) */
static tc_status advance(ip_state *s, const tc_ode *ode, double t, double dt, const double *q0,
                         const double *v0, double *q, double *v) {
    tc_dcol2d *d = s->dc;
    tc_status st = ode->accel(ode->ctx, t, q0, v0, s->a);
    if (st) return st;
    d->h = dt;
    d->q = q0;
    d->v = v0;
    d->a = s->a;
    start(s, q0, v0, dt);
    tc_ip_problem p = {s->n, s->ncone, s->zi, s->si, s->bilevel ? bilevel_f : single_f, s};
    int ok;
    st = tc_ip_solve(s->ws, &p, &s->set, s->x, &ok);
    s->iters += tc_ip_iterations(s->ws);
    if (st) return st;
    if (!ok) {
        double eq, comp;
        tc_ip_residuals(s->ws, &eq, &comp);
        s->fails++;
        int l = snprintf(s->note, sizeof s->note,
                         "step at t = %.6g s hit the %d-iteration cap: |f| = %.3g, |z s - kappa| "
                         "= %.3g (tolerance %.3g)",
                         t, s->set.max_iter, eq, comp, s->set.rtol);
        if (s->bilevel && l > 0 && (size_t)l < sizeof s->note)
            snprintf(s->note + l, sizeof s->note - (size_t)l,
                     "; %lld collision solves so far hit their %d-iteration cap", s->cfails,
                     s->cset.max_iter);
    }
    s->started = 1;
    /* the new state (the last iterate after a failed solve) */
    for (int i = 0; i < s->nv; i++) {
        double qn = s->x[i];
        if (!isfinite(qn)) return TC_EDIVERGED;
        v[i] = (qn - q0[i]) / dt;
        q[i] = qn;
    }
    return TC_OK;
}

static tc_status ip_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                         double *v) {
    return advance(state, ode, t, dt, q, v, q, v);
}

/* the unconstrained acceleration's derivatives at the start (q0, v0) into da: over q, v, tau
 * and ctrl, nv x nv each. The ode's accel_jacobian when it has one; otherwise the planar
 * system's own terms (tc_system_accel: (f + tau - damping v + kp (ctrl - q)) / m + g), exact for
 * a model without a force law (convex, the only one with the shapes these solvers need) */
static tc_status accel_derivatives(ip_state *s, const tc_ode *ode, double t) {
    const int nv = s->nv;
    const size_t nn = (size_t)nv * (size_t)nv;
    double *dq = s->da, *dv = dq + nn, *dtau = dv + nn, *dctrl = dtau + nn;
    if (ode->accel_jacobian)
        return ode->accel_jacobian(ode->ctx, t, s->q0, s->v0, s->vd, dq, dv, dtau, dctrl);
    memset(s->da, 0, 4 * nn * sizeof *s->da);
    const tc_scene *sc = s->sys->scene;
    for (int i = 0; i < sc->nbody; i++) {
        int v = s->sys->vadr[i];
        if (v < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        for (int c = 0; c < 3; c++) {
            size_t at = (size_t)(v + c) * (size_t)nv + (size_t)(v + c);
            double m = body_mass(s->sys, i, c);
            dq[at] = -b->kp[c] / m;
            dv[at] = -b->damping[c] / m;
            dtau[at] = 1 / m;
            dctrl[at] = b->kp[c] / m;
        }
    }
    return TC_OK;
}

/* the step as ip_step takes it, then its Jacobians by the implicit function theorem on the
 * relaxed system it solved, F(y; q, v, tau, ctrl) = 0: the full Newton matrix K at the final
 * iterate (refactorised there, the pairs' rows z ds + s dz exact; the bilevel's exact matrix
 * whatever its fd_jacobian) and dy/dp = -K^-1 dF/dp, one back-substitution per parameter. q and
 * v enter the body rows M ((q+ - q) / h - v - h a) and, through the sliding velocity, the
 * friction rows; tau and ctrl enter through a alone. Planar bodies: the tangent is (x, y, theta)
 * itself, and v+ = (q+ - q) / h */
static tc_status ip_step_jacobian(void *state, const tc_ode *ode, double t, double dt, double *q,
                                  double *v, double *A, double *B) {
    ip_state *s = state;
    tc_dcol2d *d = s->dc;
    const int nv = s->nv, n = s->n, N = 2 * nv;
    const size_t nn = (size_t)nv * (size_t)nv;
    memcpy(s->q0, q, (size_t)nv * sizeof *q);
    memcpy(s->v0, v, (size_t)nv * sizeof *v);
    tc_status st = advance(s, ode, t, dt, s->q0, s->v0, q, v);
    if (!st) st = accel_derivatives(s, ode, t);
    if (st) return st;
    /* the bilevel: its exact matrix, and the collision unknowns (a warm start) kept as they are */
    int nc = 0;
    for (int k = 0; k < d->npair && s->bilevel; k++)
        nc += d->pair[k].ncol;
    memcpy(s->colsave, s->col, (size_t)nc * sizeof *s->col);
    s->exact = 1;
    st = tc_ip_refactor(s->ws);
    s->exact = 0;
    if (st) {
        memcpy(s->col, s->colsave, (size_t)nc * sizeof *s->col);
        return st;
    }
    /* the pairs' rows' derivatives over the start poses at the final iterate (the bilevel's with
     * its collision unknowns as the refactorisation solved them), 6 per row from the pair's
     * first row on */
    for (int k = 0; k < d->npair; k++) {
        const tc_dcol2d_pair *pr = &d->pair[k];
        int e0 = s->bilevel ? pr->necol : 0, ne = s->bilevel ? 4 : pr->ne;
        if (s->bilevel) {
            memcpy(s->l, s->col + s->coff[k], (size_t)pr->ncol * sizeof *s->l);
            memcpy(s->l + pr->ncol, s->x + s->voff[k], 8 * sizeof *s->l);
            tc_dcol2d_pair_eval(d, k, s->x, s->l, 0);
        } else {
            tc_dcol2d_pair_eval(d, k, s->x, s->x + s->voff[k], 0);
        }
        memcpy(s->dq0 + (size_t)s->eoff[k] * 6, d->dEdq0 + (size_t)e0 * 6,
               (size_t)ne * 6 * sizeof *s->dq0);
    }
    for (int j = 0; j < 4 * nv && !st; j++) {
        /* parameter j: q (0 .. nv), v, tau, ctrl; column c of its block */
        int blk = j / nv, c = j % nv;
        const double *dab = s->da + (size_t)blk * nn;
        memset(s->rhs, 0, (size_t)n * sizeof *s->rhs);
        for (int i = 0; i < s->sys->scene->nbody; i++) {
            int vi = s->sys->vadr[i];
            for (int k = 0; k < 3 && vi >= 0; k++) {
                int r = vi + k;
                double m = body_mass(s->sys, i, k), g = -m * dt * dab[(size_t)r * (size_t)nv + c];
                if (blk == 0 && r == c) g -= m / dt;
                if (blk == 1 && r == c) g -= m;
                s->rhs[r] = -g;
            }
        }
        if (blk == 0) {
            for (int k = 0; k < d->npair; k++) {
                const tc_dcol2d_pair *pr = &d->pair[k];
                int qc[6], ne = s->bilevel ? 4 : pr->ne;
                q_columns(s, k, qc);
                for (int m = 0; m < 6; m++)
                    for (int e = 0; e < ne && qc[m] == c; e++)
                        s->rhs[s->eoff[k] + e] = -s->dq0[(size_t)(s->eoff[k] + e) * 6 + m];
            }
        }
        st = tc_ip_newton_solve(s->ws, s->rhs);
        /* dq+/dp is the first nv entries; v+ = (q+ - q) / h */
        double *M = j < N ? A : B;
        int col = j < N ? j : j - N;
        for (int r = 0; r < nv && !st; r++) {
            double dqp = s->rhs[r];
            M[(size_t)r * (size_t)N + (size_t)col] = dqp;
            M[(size_t)(nv + r) * (size_t)N + (size_t)col] =
                (dqp - (blk == 0 && r == c ? 1 : 0)) / dt;
        }
    }
    memcpy(s->col, s->colsave, (size_t)nc * sizeof *s->col);
    return st;
}

static void ip_counters(void *state, long long *iters, long long *fails) {
    const ip_state *s = state;
    *iters = s->iters;
    *fails = s->fails;
}

static const char *ip_failure(void *state) {
    const ip_state *s = state;
    return s->note[0] ? s->note : NULL;
}

static tc_status single_alloc(void **state, const tc_system *sys, const tc_params *p,
                              tc_error *err) {
    return ip_alloc(state, sys, p, 0, err);
}

static tc_status bilevel_alloc(void **state, const tc_system *sys, const tc_params *p,
                               tc_error *err) {
    return ip_alloc(state, sys, p, 1, err);
}

const tc_solver_type tc_solver_single_level = {
    .name = "single-level",
    .summary = "Le Cleac'h et al. 2023: implicit step and collision KKT conditions in one "
               "interior-point solve (planar convex polygons and half-spaces)",
    .params = ip_params,
    .caps = TC_CAP_DYNAMICS,
    .needs = TC_CAP_GEOMETRY,
    .alloc = single_alloc,
    .step = ip_step,
    .free = ip_free,
    .counters = ip_counters,
    .failure = ip_failure,
    .step_jacobian = ip_step_jacobian,
    .jacobian_needs = 0,
};

const tc_solver_type tc_solver_bilevel = {
    .name = "bilevel",
    .summary = "the bilevel baseline of Le Cleac'h et al.: collision detection solved inside "
               "every residual evaluation (defaults: the public code's, a fixed cold lower level "
               "and finite-difference Jacobians)",
    .params = bilevel_params,
    .caps = TC_CAP_DYNAMICS,
    .needs = TC_CAP_GEOMETRY,
    .alloc = bilevel_alloc,
    .step = ip_step,
    .free = ip_free,
    .counters = ip_counters,
    .failure = ip_failure,
    .step_jacobian = ip_step_jacobian,
    .jacobian_needs = 0,
};
