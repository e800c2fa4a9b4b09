/* SPDX-License-Identifier: MIT */
/* the 3-D local friction-contact problem of one step: sparse assembly of W = H M^-1 H^T from
 * the contacts that share a body, its products, the natural-map residual and the checks of the
 * validating reader */
#include "solvers/tc_fc_problem.h"

#include "solvers/tc_contact_space.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void tc_fc_problem_free(tc_fc_problem *p) {
    if (!p) return;
    free(p->colptr);
    free(p->rowind);
    free(p->W);
    free(p->q);
    free(p);
}

tc_status tc_fc_problem_alloc(tc_fc_problem **out, int nc, long long nnz) {
    *out = NULL;
    if (nc < 1 || nc > INT_MAX / 3 || nnz < 0 || nnz > INT_MAX) return TC_EINVAL;
    tc_fc_problem *p = calloc(1, sizeof *p);
    if (!p) return TC_ENOMEM;
    p->nc = nc;
    p->n = 3 * nc;
    p->nnz = (int)nnz;
    size_t n = (size_t)p->n;
    p->colptr = calloc(n + 1, sizeof *p->colptr);
    p->rowind = calloc((size_t)nnz + 1, sizeof *p->rowind);
    p->W = calloc((size_t)nnz + 1, sizeof *p->W);
    /* q, r, u (n each) and mu (nc) in one block */
    p->q = calloc(3 * n + (size_t)nc, sizeof *p->q);
    if (!p->colptr || !p->rowind || !p->W || !p->q) {
        tc_fc_problem_free(p);
        return TC_ENOMEM;
    }
    p->r = p->q + n;
    p->u = p->r + n;
    p->mu = p->u + n;
    *out = p;
    return TC_OK;
}

/* the coupling of row a of contact i to a unit impulse on row b of contact j: the sides on one
 * body with dofs */
static double coupling(const tc_fc_contact *ci, int a, const tc_fc_contact *cj, int b) {
    double w = 0;
    for (int s = 0; s < 2; s++)
        for (int s2 = 0; s2 < 2; s2++) {
            const tc_fc_side *x = &ci->side[s], *y = &cj->side[s2];
            if (x->nd && x->body == y->body)
                for (int m = 0; m < x->nd; m++)
                    w += x->row[a][m] * y->mrow[b][m];
        }
    return w;
}

/* the contacts' neighbour lists: for each contact, the contacts that share a body with dofs
 * with it (itself included), increasing; nb[start[i] .. start[i + 1]) are contact i's.
 * Allocates *start_out (nc + 1) and *nb_out */
static tc_status neighbours(const tc_fc_contact *c, int nc, int **start_out, int **nb_out) {
    *start_out = *nb_out = NULL;
    int maxb = 0;
    for (int i = 0; i < nc; i++)
        for (int s = 0; s < 2; s++)
            if (c[i].side[s].nd && c[i].side[s].body + 1 > maxb) maxb = c[i].side[s].body + 1;
    /* scratch: the bodies' contact lists (counting sort on body index) and marks */
    int *bstart = calloc((size_t)maxb + 1, sizeof *bstart);
    int *pos = calloc((size_t)maxb + 1, sizeof *pos);
    int *blist = calloc(2 * (size_t)nc + 1, sizeof *blist);
    int *mark = calloc((size_t)nc + 1, sizeof *mark);
    int *start = calloc((size_t)nc + 1, sizeof *start);
    int *nb = NULL;
    tc_status st = TC_ENOMEM;
    if (!bstart || !pos || !blist || !mark || !start) goto done;
    for (int i = 0; i < nc; i++)
        for (int s = 0; s < 2; s++)
            if (c[i].side[s].nd) bstart[c[i].side[s].body + 1]++;
    for (int b = 0; b < maxb; b++)
        bstart[b + 1] += bstart[b];
    memcpy(pos, bstart, (size_t)maxb * sizeof *pos);
    for (int i = 0; i < nc; i++)
        for (int s = 0; s < 2; s++)
            if (c[i].side[s].nd) blist[pos[c[i].side[s].body]++] = i;
    /* each contact's neighbours: counted (pass 0), then listed (pass 1); a mark per contact and
     * pass keeps a neighbour on both bodies from counting twice */
    for (int i = 0; i < nc; i++)
        mark[i] = -1;
    long long total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nc; i++) {
            int cnt = 0, base = pass ? start[i] : 0;
            for (int s = 0; s < 2; s++) {
                const tc_fc_side *x = &c[i].side[s];
                if (!x->nd) continue;
                for (int e = bstart[x->body]; e < bstart[x->body + 1]; e++) {
                    int j = blist[e];
                    if (mark[j] == 2 * i + pass) continue;
                    mark[j] = 2 * i + pass;
                    if (pass) nb[base + cnt] = j;
                    cnt++;
                }
            }
            if (!pass) {
                start[i] = (int)total;
                total += cnt;
                continue;
            }
            /* increasing: an insertion sort of the few neighbours */
            for (int a = base + 1; a < base + cnt; a++)
                for (int b = a; b > base && nb[b - 1] > nb[b]; b--) {
                    int t = nb[b];
                    nb[b] = nb[b - 1];
                    nb[b - 1] = t;
                }
        }
        if (pass) break;
        start[nc] = (int)total;
        st = TC_EINVAL;
        if (total > INT_MAX / 9) goto done;
        st = TC_ENOMEM;
        nb = malloc(((size_t)total + 1) * sizeof *nb);
        if (!nb) goto done;
    }
    st = TC_OK;
    *start_out = start;
    *nb_out = nb;
    start = nb = NULL;
done:
    free(bstart);
    free(pos);
    free(blist);
    free(mark);
    free(start);
    free(nb);
    return st;
}

tc_status tc_fc_problem_build(tc_fc_problem **out, const tc_fc_contact *c, int nc) {
    *out = NULL;
    if (nc < 1) return TC_EINVAL;
    int *start = NULL, *nb = NULL;
    tc_status st = neighbours(c, nc, &start, &nb);
    if (st) return st;
    /* column 3 j + b holds rows 3 i + a of every neighbour i of j */
    long long nnz = 9LL * start[nc];
    tc_fc_problem *p = NULL;
    st = tc_fc_problem_alloc(&p, nc, nnz);
    if (st) {
        free(start);
        free(nb);
        return st;
    }
    int k = 0;
    for (int j = 0; j < nc; j++)
        for (int b = 0; b < 3; b++) {
            p->colptr[3 * j + b] = k;
            for (int e = start[j]; e < start[j + 1]; e++) {
                int i = nb[e];
                for (int a = 0; a < 3; a++) {
                    p->rowind[k] = 3 * i + a;
                    p->W[k] = coupling(&c[i], a, &c[j], b);
                    k++;
                }
            }
        }
    p->colptr[p->n] = k;
    free(start);
    free(nb);
    /* q, mu, r, and u = W r + q */
    for (int i = 0; i < nc; i++) {
        memcpy(p->q + 3 * i, c[i].q, sizeof c[i].q);
        memcpy(p->r + 3 * i, c[i].r, sizeof c[i].r);
        p->mu[i] = c[i].mu;
    }
    tc_fc_problem_velocity(p, p->r, p->u);
    p->has_solution = 1;
    *out = p;
    return TC_OK;
}

tc_status tc_fc_problem_from_cspace(tc_fc_problem **out, const tc_cspace *cs, const double *vstar,
                                    double mu, double gap_dt) {
    *out = NULL;
    if (cs->nc < 1) return TC_EUNSUP;
    const tc_system *sys = cs->sys;
    const tc_scene *sc = sys->scene;
    int nv = cs->nv;
    tc_fc_contact *c = calloc((size_t)cs->nc, sizeof *c);
    double *row = calloc(2 * (size_t)nv + 2, sizeof *row), *mrow = row + nv + 1;
    if (!c || !row) {
        free(c);
        free(row);
        return TC_ENOMEM;
    }
    for (int i = 0; i < cs->nc; i++) {
        const tc_model_contact *mc = &cs->c[i];
        const tc_contact_impulse *im = &cs->imp[i];
        const double *dir[3] = {mc->c.normal, cs->frame[i][0], cs->frame[i][1]};
        tc_fc_contact *f = &c[i];
        int body[2] = {mc->a, mc->b};
        for (int s = 0; s < 2; s++) {
            int b = body[s], o = sys->vadr[b];
            f->side[s].body = b;
            f->side[s].vadr = o;
            f->side[s].nd = o < 0 ? 0 : sc->body[b].joint == TC_JOINT_FREE ? 6 : 3;
        }
        for (int a = 0; a < 3; a++) {
            /* the row along dir[a] (b's point minus a's) and M^-1 of it */
            memset(row, 0, (size_t)nv * sizeof *row);
            tc_system_point_jacobian(sys, cs->bs, mc->b, mc->c.pos, dir[a], 1.0, row);
            tc_system_point_jacobian(sys, cs->bs, mc->a, mc->c.pos, dir[a], -1.0, row);
            memcpy(mrow, row, (size_t)nv * sizeof *row);
            tc_system_minv(sys, cs->bs, mrow);
            double q = 0;
            for (int m = 0; m < nv; m++)
                q += row[m] * vstar[m];
            /* bodies without dofs: their own velocity at the point (kinematic paths) */
            for (int s = 0; s < 2; s++) {
                tc_fc_side *x = &f->side[s];
                if (x->nd) {
                    memcpy(x->row[a], row + x->vadr, (size_t)x->nd * sizeof *row);
                    memcpy(x->mrow[a], mrow + x->vadr, (size_t)x->nd * sizeof *row);
                    continue;
                }
                double v[3];
                tc_body_point_velocity(&cs->bs[x->body], mc->c.pos, v);
                q += (s ? 1.0 : -1.0) * (v[0] * dir[a][0] + v[1] * dir[a][1] + v[2] * dir[a][2]);
            }
            if (a == 0 && gap_dt > 0 && mc->c.depth < 0) q -= mc->c.depth / gap_dt;
            f->q[a] = q;
        }
        f->r[0] = im->normal_impulse;
        for (int a = 1; a < 3; a++)
            f->r[a] = im->tangent_impulse[0] * dir[a][0] + im->tangent_impulse[1] * dir[a][1] +
                      im->tangent_impulse[2] * dir[a][2];
        f->mu = mu;
    }
    tc_status st = tc_fc_problem_build(out, c, cs->nc);
    free(c);
    free(row);
    return st;
}

void tc_fc_problem_gemv(const tc_fc_problem *p, const double *x, double *y) {
    for (int j = 0; j < p->n; j++) {
        double xj = x[j];
        if (xj == 0) continue;
        for (int k = p->colptr[j]; k < p->colptr[j + 1]; k++)
            y[p->rowind[k]] += p->W[k] * xj;
    }
}

void tc_fc_problem_velocity(const tc_fc_problem *p, const double *r, double *u) {
    memcpy(u, p->q, (size_t)p->n * sizeof *u);
    tc_fc_problem_gemv(p, r, u);
}

/* the projection on the cone |x_t| <= mu x_n (FCLIB's and Siconos' projectionOnCone) */
static void project(double x[3], double mu) {
    double nt = hypot(x[1], x[2]);
    if (mu * nt <= -x[0]) {
        x[0] = x[1] = x[2] = 0;
    } else if (nt > mu * x[0]) {
        double xn = (mu * nt + x[0]) / (mu * mu + 1.0);
        x[1] = mu * xn * x[1] / nt;
        x[2] = mu * xn * x[2] / nt;
        x[0] = xn;
    }
}

double tc_fc_problem_residual(const tc_fc_problem *p, const double *r) {
    double *u = malloc((size_t)p->n * sizeof *u);
    if (!u) return NAN;
    tc_fc_problem_velocity(p, r, u);
    double e = 0;
    for (int i = 0; i < p->nc; i++) {
        const double *z = r + 3 * i, *w = u + 3 * i;
        double x[3] = {z[0] - (w[0] + p->mu[i] * hypot(w[1], w[2])), z[1] - w[1], z[2] - w[2]};
        project(x, p->mu[i]);
        for (int a = 0; a < 3; a++)
            e += (z[a] - x[a]) * (z[a] - x[a]);
    }
    free(u);
    return sqrt(e);
}

/* the first non-finite entry of x[n], or -1 */
static int nonfinite_at(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return i;
    return -1;
}

tc_status tc_fc_problem_check(const tc_fc_problem *p, int sol, const char *what, tc_error *err) {
    const char *w = what ? what : "";
    if (p->nc < 1 || p->n != 3 * p->nc)
        return tc_error_set(err, TC_EPARSE, w, 0, "W",
                            "%d rows for %d contacts (need 3 per contact)", p->n, p->nc);
    if (p->colptr[0] != 0 || p->colptr[p->n] != p->nnz)
        return tc_error_set(err, TC_EPARSE, w, 0, "W/p",
                            "column pointers run from %d to %d, not from 0 to nnz = %d",
                            p->colptr[0], p->colptr[p->n], p->nnz);
    /* every pointer first (non-decreasing, so within [0, nnz]), then the entries they bound
     * (a pointer past nnz in the middle was read from before: found by fuzz_fclib) */
    for (int j = 0; j < p->n; j++)
        if (p->colptr[j + 1] < p->colptr[j])
            return tc_error_set(err, TC_EPARSE, w, 0, "W/p",
                                "column pointer %d (%d) below the one before (%d)", j + 1,
                                p->colptr[j + 1], p->colptr[j]);
    for (int j = 0; j < p->n; j++) {
        for (int k = p->colptr[j]; k < p->colptr[j + 1]; k++) {
            int i = p->rowind[k];
            if (i < 0 || i >= p->n)
                return tc_error_set(err, TC_EPARSE, w, 0, "W/i",
                                    "row index %d of entry %d outside [0, %d)", i, k, p->n);
            if (k > p->colptr[j] && i <= p->rowind[k - 1])
                return tc_error_set(err, TC_EPARSE, w, 0, "W/i",
                                    "row indices of column %d not increasing at entry %d", j, k);
        }
    }
    int at = nonfinite_at(p->W, p->nnz);
    if (at >= 0)
        return tc_error_set(err, TC_EPARSE, w, 0, "W/x", "entry %d is not finite (%g)", at,
                            p->W[at]);
    if ((at = nonfinite_at(p->q, p->n)) >= 0)
        return tc_error_set(err, TC_EPARSE, w, 0, "q", "entry %d is not finite (%g)", at, p->q[at]);
    for (int i = 0; i < p->nc; i++)
        if (!(p->mu[i] >= 0) || !isfinite(p->mu[i]))
            return tc_error_set(err, TC_EPARSE, w, 0, "mu",
                                "contact %d's friction coefficient %g is not finite and >= 0", i,
                                p->mu[i]);
    if (!sol) return TC_OK;
    if ((at = nonfinite_at(p->r, p->n)) >= 0)
        return tc_error_set(err, TC_EPARSE, w, 0, "solution/r", "entry %d is not finite (%g)", at,
                            p->r[at]);
    if ((at = nonfinite_at(p->u, p->n)) >= 0)
        return tc_error_set(err, TC_EPARSE, w, 0, "solution/u", "entry %d is not finite (%g)", at,
                            p->u[at]);
    return TC_OK;
}
