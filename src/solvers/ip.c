/* SPDX-License-Identifier: MIT */
/* Mehrotra's predictor-corrector interior-point method for nonlinear complementarity problems,
 * split into init / iterate / test; dense Newton systems by GSL's LU */
#include "solvers/tc_ip.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

struct tc_ip_workspace {
    int nmax;
    tc_ip_problem p;
    tc_ip_settings set;
    double *x;        /* the caller's iterate */
    double *r, *J;    /* residual (n) and Newton matrix (n x n) */
    double *Jr, *rr;  /* the condensed Newton matrix (neq x neq, then its LU) and rhs */
    double *rc;       /* the pairs' rows of a right-hand side over z (npair) */
    int *col;         /* each unknown's column in the condensed system, -1 for a slack */
    int *keep;        /* the unknown of each condensed column (neq) */
    double *sz;       /* s / z of each pair at x (npair) */
    double *daff, *d; /* predictor and corrector directions */
    double *rhs, *xc; /* right-hand side, line-search candidate */
    size_t *perm;
    double eq, comp; /* residual norms at x */
    int iter;
};

tc_ip_settings tc_ip_default_settings(double kappa) {
    return (tc_ip_settings){.kappa = kappa,
                            .rtol = kappa / 10,
                            .max_iter = 30,
                            .ls_factor = 0.5,
                            .ls_tries = 25,
                            .boundary = 0.95,
                            .correction = 0.5,
                            .recentre = 0.1};
}

void tc_ip_free(tc_ip_workspace *w) {
    if (!w) return;
    free(w->r);
    free(w->J);
    free(w->Jr);
    free(w->rr);
    free(w->rc);
    free(w->col);
    free(w->keep);
    free(w->sz);
    free(w->daff);
    free(w->d);
    free(w->rhs);
    free(w->xc);
    free(w->perm);
    free(w);
}

tc_status tc_ip_alloc(tc_ip_workspace **out, int nmax) {
    *out = NULL;
    if (nmax < 1) return TC_EINVAL;
    /* GSL reports a singular matrix through its error handler, which aborts by default; the
     * factorisation below checks pivots itself */
    gsl_set_error_handler_off();
    tc_ip_workspace *w = calloc(1, sizeof *w);
    if (!w) return TC_ENOMEM;
    size_t n = (size_t)nmax;
    w->nmax = nmax;
    w->r = calloc(n, sizeof *w->r);
    w->J = calloc(n * n, sizeof *w->J);
    w->Jr = calloc(n * n, sizeof *w->Jr);
    w->rr = calloc(n, sizeof *w->rr);
    w->rc = calloc(n, sizeof *w->rc);
    w->col = calloc(n, sizeof *w->col);
    w->keep = calloc(n, sizeof *w->keep);
    w->sz = calloc(n, sizeof *w->sz);
    w->daff = calloc(n, sizeof *w->daff);
    w->d = calloc(n, sizeof *w->d);
    w->rhs = calloc(n, sizeof *w->rhs);
    w->xc = calloc(n, sizeof *w->xc);
    w->perm = calloc(n, sizeof *w->perm);
    if (!w->r || !w->J || !w->Jr || !w->rr || !w->rc || !w->col || !w->keep || !w->sz || !w->daff ||
        !w->d || !w->rhs || !w->xc || !w->perm) {
        tc_ip_free(w);
        return TC_ENOMEM;
    }
    *out = w;
    return TC_OK;
}

tc_status tc_ip_lu(double *a, size_t *perm, int n) {
    gsl_matrix_view m = gsl_matrix_view_array(a, (size_t)n, (size_t)n);
    gsl_permutation p = {(size_t)n, perm};
    int sign;
    if (gsl_linalg_LU_decomp(&m.matrix, &p, &sign)) return TC_EDIVERGED;
    /* a zero or non-finite pivot: singular */
    for (int i = 0; i < n; i++) {
        double u = a[(size_t)i * (size_t)n + (size_t)i];
        if (u == 0 || !isfinite(u)) return TC_EDIVERGED;
    }
    return TC_OK;
}

tc_status tc_ip_lu_solve(const double *lu, const size_t *perm, int n, double *b) {
    gsl_matrix_const_view m = gsl_matrix_const_view_array(lu, (size_t)n, (size_t)n);
    gsl_permutation p = {(size_t)n, (size_t *)perm};
    gsl_vector_view v = gsl_vector_view_array(b, (size_t)n);
    return gsl_linalg_LU_svx(&m.matrix, &p, &v.vector) ? TC_EDIVERGED : TC_OK;
}

/* f's rows at x into r (and its Jacobian J when asked), then the products z s - target below
 * them (their Jacobian, diag(s) and diag(z), is used by condense without being stored) */
static tc_status evaluate(tc_ip_workspace *w, const double *x, double *r, double *J,
                          double target) {
    const tc_ip_problem *p = &w->p;
    int neq = p->n - p->npair;
    if (J) memset(J, 0, (size_t)neq * (size_t)p->n * sizeof *J);
    tc_status st = p->f(p->ctx, x, r, J);
    if (st) return st;
    for (int k = 0; k < p->npair; k++)
        r[neq + k] = x[p->zi[k]] * x[p->si[k]] - target;
    return TC_OK;
}

/* the violations: |f|_inf and |z s - kappa|_inf from a residual made with target kappa */
static void violations(const tc_ip_workspace *w, const double *r, double *eq, double *comp) {
    int neq = w->p.n - w->p.npair;
    *eq = 0;
    *comp = 0;
    for (int i = 0; i < neq; i++)
        *eq = fmax(*eq, fabs(r[i]));
    for (int i = neq; i < w->p.n; i++)
        *comp = fmax(*comp, fabs(r[i]));
    if (!isfinite(*eq + *comp)) *eq = *comp = INFINITY;
}

tc_status tc_ip_init(tc_ip_workspace *w, const tc_ip_problem *p, const tc_ip_settings *set,
                     double *x) {
    if (p->n > w->nmax || p->npair > p->n) return TC_EINVAL;
    w->p = *p;
    w->set = *set;
    w->x = x;
    w->iter = 0;
    /* the condensed system's columns: every unknown but the slacks, in order; a dual or slack
     * used twice, or a slack that is also a dual, cannot be eliminated */
    for (int i = 0; i < p->n; i++)
        w->col[i] = 0;
    for (int k = 0; k < p->npair; k++) {
        int zi = p->zi[k], si = p->si[k];
        if (zi < 0 || si < 0 || zi >= p->n || si >= p->n || zi == si || w->col[zi] || w->col[si])
            return TC_EINVAL;
        w->col[zi] = 1;
        w->col[si] = -1;
    }
    for (int i = 0, c = 0; i < p->n; i++)
        if ((w->col[i] = w->col[i] < 0 ? -1 : c) >= 0) w->keep[c++] = i;
    /* duals and slacks strictly inside the cone */
    for (int k = 0; k < p->npair; k++) {
        if (!(x[p->zi[k]] > 0)) x[p->zi[k]] = 1;
        if (!(x[p->si[k]] > 0)) x[p->si[k]] = 1;
    }
    tc_status st = evaluate(w, x, w->r, NULL, set->kappa);
    if (st) return st;
    violations(w, w->r, &w->eq, &w->comp);
    return TC_OK;
}

/* condense the Newton matrix J at x: each pair's row s dz + z ds = c gives ds = (c - s dz) / z,
 * which folds the slack's column into the dual's, leaving the n - npair rows of f over the
 * n - npair other unknowns (a quarter of the factorisation's work for E5's polygon); then LU */
static tc_status condense(tc_ip_workspace *w) {
    const tc_ip_problem *p = &w->p;
    int n = p->n, neq = n - p->npair;
    const double *x = w->x;
    for (int k = 0; k < p->npair; k++)
        w->sz[k] = x[p->si[k]] / x[p->zi[k]];
    for (int i = 0; i < neq; i++) {
        const double *row = w->J + (size_t)i * (size_t)n;
        double *out = w->Jr + (size_t)i * (size_t)neq;
        for (int c = 0; c < neq; c++)
            out[c] = row[w->keep[c]];
        for (int k = 0; k < p->npair; k++)
            out[w->col[p->zi[k]]] -= row[p->si[k]] * w->sz[k];
    }
    return tc_ip_lu(w->Jr, w->perm, neq);
}

/* the Newton direction for the right-hand side d (f's rows, then the pairs' rows), in place */
static tc_status newton(tc_ip_workspace *w, double *d) {
    const tc_ip_problem *p = &w->p;
    int n = p->n, neq = n - p->npair;
    const double *x = w->x;
    /* the slacks' share of each f row moves to the right-hand side */
    for (int k = 0; k < p->npair; k++)
        w->rc[k] = d[neq + k] / x[p->zi[k]];
    for (int i = 0; i < neq; i++) {
        const double *row = w->J + (size_t)i * (size_t)n;
        w->rr[i] = d[i];
        for (int k = 0; k < p->npair; k++)
            w->rr[i] -= row[p->si[k]] * w->rc[k];
    }
    tc_status st = tc_ip_lu_solve(w->Jr, w->perm, neq, w->rr);
    if (st) return st;
    /* back out the slacks' steps from the duals' */
    for (int k = 0; k < p->npair; k++)
        d[p->si[k]] = w->rc[k] - w->sz[k] * w->rr[w->col[p->zi[k]]];
    for (int c = 0; c < neq; c++)
        d[w->keep[c]] = w->rr[c];
    return TC_OK;
}

/* the largest step in (0, 1] keeping every z and s at least (1 - boundary) of the way to 0 */
static double to_boundary(const tc_ip_workspace *w, const double *x, const double *d) {
    double a = 1;
    for (int k = 0; k < w->p.npair; k++)
        for (int j = 0; j < 2; j++) {
            int i = j ? w->p.si[k] : w->p.zi[k];
            if (d[i] < 0) a = fmin(a, -w->set.boundary * x[i] / d[i]);
        }
    return a;
}

tc_status tc_ip_iterate(tc_ip_workspace *w) {
    const tc_ip_problem *p = &w->p;
    int n = p->n, neq = n - p->npair;
    double *x = w->x;
    /* Newton matrix at x, factorised once for both directions */
    tc_status st = evaluate(w, x, w->r, w->J, w->set.kappa);
    if (!st) st = condense(w);
    if (st) return st;
    /* predictor: towards the tolerance's central path z s = kappa */
    for (int i = 0; i < n; i++)
        w->daff[i] = -w->r[i];
    if ((st = newton(w, w->daff))) return st;
    double aaff = to_boundary(w, x, w->daff);
    /* centering: sigma = (mu_aff / mu)^3, the target no lower than kappa */
    double mu = 0, muaff = 0;
    for (int k = 0; k < p->npair; k++) {
        int zi = p->zi[k], si = p->si[k];
        mu += x[zi] * x[si];
        muaff += (x[zi] + aaff * w->daff[zi]) * (x[si] + aaff * w->daff[si]);
    }
    double sigma = mu > 0 ? pow(fmin(fmax(muaff / mu, 0), 1), 3) : 0;
    double target = fmax(sigma * mu / (p->npair ? p->npair : 1), w->set.kappa);
    /* corrector: the target central path plus Mehrotra's second-order term */
    for (int i = 0; i < neq; i++)
        w->d[i] = -w->r[i];
    for (int k = 0; k < p->npair; k++) {
        int zi = p->zi[k], si = p->si[k];
        w->d[neq + k] = -(x[zi] * x[si] - target + w->set.correction * w->daff[zi] * w->daff[si]);
    }
    if ((st = newton(w, w->d))) return st;
    double a = to_boundary(w, x, w->d);
    /* a short step means the direction runs into the cone's boundary: centre instead (the
     * current average product as target, no second-order term) */
    if (a < w->set.recentre) {
        double mu_now = mu / (p->npair ? p->npair : 1);
        for (int i = 0; i < neq; i++)
            w->d[i] = -w->r[i];
        for (int k = 0; k < p->npair; k++) {
            int zi = p->zi[k], si = p->si[k];
            w->d[neq + k] = -(x[zi] * x[si] - fmax(mu_now, w->set.kappa));
        }
        if ((st = newton(w, w->d))) return st;
        a = to_boundary(w, x, w->d);
    }
    /* line search: the first step that lowers either violation; when the corrector finds none,
     * the predictor (plain Newton towards z s = kappa, a descent direction for both) is searched
     * too, and after that the shortest step is taken anyway */
    double eq = w->eq, comp = w->comp;
    int found = 0;
    for (int dir = 0; dir < 2 && !found; dir++) {
        const double *dd = dir ? w->daff : w->d;
        double step = dir ? aaff : a;
        for (int t = 0; t < w->set.ls_tries; t++) {
            for (int i = 0; i < n; i++)
                w->xc[i] = x[i] + step * dd[i];
            if ((st = evaluate(w, w->xc, w->rhs, NULL, w->set.kappa))) return st;
            violations(w, w->rhs, &eq, &comp);
            if ((found = eq < w->eq || comp < w->comp)) break;
            step *= w->set.ls_factor;
        }
        a = step;
    }
    if (!isfinite(eq + comp)) return TC_EDIVERGED;
    memcpy(x, w->xc, (size_t)n * sizeof *x);
    w->eq = eq;
    w->comp = comp;
    w->iter++;
    return TC_OK;
}

tc_status tc_ip_refactor(tc_ip_workspace *w) {
    tc_status st = evaluate(w, w->x, w->r, w->J, w->set.kappa);
    return st ? st : condense(w);
}

tc_status tc_ip_newton_solve(tc_ip_workspace *w, double *d) {
    return newton(w, d);
}

int tc_ip_test(const tc_ip_workspace *w) {
    return w->eq <= w->set.rtol && w->comp <= w->set.rtol;
}

tc_status tc_ip_solve(tc_ip_workspace *w, const tc_ip_problem *p, const tc_ip_settings *set,
                      double *x, int *converged) {
    *converged = 0;
    tc_status st = tc_ip_init(w, p, set, x);
    while (!st && !(*converged = tc_ip_test(w)) && w->iter < set->max_iter)
        st = tc_ip_iterate(w);
    return st;
}

void tc_ip_residuals(const tc_ip_workspace *w, double *eq, double *comp) {
    *eq = w->eq;
    *comp = w->comp;
}

int tc_ip_iterations(const tc_ip_workspace *w) {
    return w->iter;
}
