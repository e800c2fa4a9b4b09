/* SPDX-License-Identifier: MIT */
/* touche's contact solvers on a raw friction-contact problem: fc3d NSGS (velocity projection's
 * block solver) and the LCP step's pyramid through tc_lcp; Siconos' error measure */
#include "solvers/tc_fc_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "FrictionContactProblem.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "fc3d_compute_error.h"
#include "lcp_cst.h"
#include "solvers/tc_lcp.h"
#include "solvers/tc_siconos.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

tc_status tc_fc_dense(const tc_fc_problem *p, double *out) {
    if (p->n > TC_FC_DENSE_MAX) return TC_EINVAL;
    size_t n = (size_t)p->n;
    memset(out, 0, n * n * sizeof *out);
    for (int j = 0; j < p->n; j++)
        for (int k = p->colptr[j]; k < p->colptr[j + 1]; k++)
            out[(size_t)j * n + (size_t)p->rowind[k]] += p->W[k];
    return TC_OK;
}

/* Siconos' problem over a dense copy of W (freed by the caller: NM_free_not_dense, then free) */
static tc_status siconos_problem(const tc_fc_problem *p, double **W, NumericsMatrix **M,
                                 FrictionContactProblem *fc) {
    *M = NULL;
    *W = malloc((size_t)p->n * (size_t)p->n * sizeof **W);
    if (!*W) return TC_ENOMEM;
    tc_status st = tc_fc_dense(p, *W);
    if (!st) *M = NM_create_from_data(NM_DENSE, p->n, p->n, *W);
    if (!st && !*M) st = TC_ENOMEM;
    if (st) {
        free(*W);
        *W = NULL;
        return st;
    }
    *fc = (FrictionContactProblem){3, p->nc, *M, p->q, p->mu};
    return TC_OK;
}

static void siconos_release(double *W, NumericsMatrix *M) {
    if (M) NM_free_not_dense(M);
    free(W);
}

tc_status tc_fc_siconos_error(const tc_fc_problem *p, const double *r, double norm, double *error) {
    *error = NAN;
    if (p->n > TC_FC_DENSE_MAX) return TC_EINVAL;
    double *W = NULL, *w = malloc((size_t)p->n * sizeof *w), *z = malloc((size_t)p->n * sizeof *z);
    NumericsMatrix *M = NULL;
    FrictionContactProblem fc;
    tc_status st = w && z ? siconos_problem(p, &W, &M, &fc) : TC_ENOMEM;
    if (!st) {
        memcpy(z, r, (size_t)p->n * sizeof *z);
        /* norm = 0: a power of two at or above |u| and 1, divided out again */
        double scale = 1;
        if (!(norm > 0)) {
            tc_fc_problem_velocity(p, r, w);
            double un = 0;
            for (int i = 0; i < p->n; i++)
                un += w[i] * w[i];
            while (scale * scale < un)
                scale *= 2;
            norm = scale;
        }
        fc3d_compute_error(&fc, z, w, 0.0, NULL, norm, error);
        *error *= scale;
    }
    siconos_release(W, M);
    free(w);
    free(z);
    return st;
}

tc_status tc_fc_solve_nsgs(const tc_fc_problem *p, const double *r0, double tol, int max_iter,
                           double *r, double *u, tc_fc_result *res) {
    memset(res, 0, sizeof *res);
    double *W = NULL;
    NumericsMatrix *M = NULL;
    FrictionContactProblem fc;
    tc_status st = siconos_problem(p, &W, &M, &fc);
    if (st) return st;
    SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    if (!o) {
        siconos_release(W, M);
        return TC_ENOMEM;
    }
    o->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    o->dparam[SICONOS_DPARAM_TOL] = tol;
    /* Siconos' NSGS starts from the reaction it is given */
    if (r0)
        memcpy(r, r0, (size_t)p->n * sizeof *r);
    else
        memset(r, 0, (size_t)p->n * sizeof *r);
    memset(u, 0, (size_t)p->n * sizeof *u);
    double t0 = now();
    res->info = fc3d_driver(&fc, r, u, o);
    res->seconds = now() - t0;
    res->iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
    tc_siconos_options_free(o);
    siconos_release(W, M);
    tc_fc_problem_velocity(p, r, u);
    return TC_OK;
}

tc_status tc_fc_solve_pyramid(const tc_fc_problem *p, double tol, int max_iter, double *r,
                              double *u, tc_fc_result *res) {
    memset(res, 0, sizeof *res);
    int nc = p->nc, m = 5 * nc, n = 6 * nc;
    if (p->n > TC_FC_DENSE_MAX) return TC_EINVAL;
    /* the pyramid's directions on (t1, t2): +t1, +t2, -t1, -t2 */
    static const double dc[4] = {1, 0, -1, 0}, ds[4] = {0, 1, 0, -1};
    double *W = malloc((size_t)p->n * (size_t)p->n * sizeof *W);
    tc_lcp *l = NULL;
    tc_status st = W ? tc_fc_dense(p, W) : TC_ENOMEM;
    if (!st) st = tc_lcp_alloc(&l, n, SICONOS_LCP_LEMKE, max_iter, tol, 1);
    if (st) {
        free(W);
        return st;
    }
    /* row k of T (m x 3 nc): the normal of contact k (k < nc), else direction j of contact i
     * (k = nc + 4 i + j); the LCP step's M = [[T W T^T, E-block], [mu, -E^T, 0]] */
    size_t N3 = (size_t)p->n;
#define TROW(k, c3) /* T[k][c3] */                                                                 \
    ((k) < nc ? ((c3) == 3 * (k) ? 1.0 : 0.0)                                                      \
              : ((c3) / 3 != ((k)-nc) / 4 ? 0.0                                                    \
                                          : ((c3) % 3 == 1   ? dc[((k)-nc) % 4]                    \
                                             : (c3) % 3 == 2 ? ds[((k)-nc) % 4]                    \
                                                             : 0.0)))
    /* the row's contact and its nonzero columns: T is one contact's 3 columns per row */
    memset(l->M, 0, (size_t)n * (size_t)n * sizeof *l->M);
    for (int a = 0; a < m; a++) {
        int ca = a < nc ? a : (a - nc) / 4;
        for (int b = 0; b < m; b++) {
            int cb = b < nc ? b : (b - nc) / 4;
            double g = 0;
            for (int x = 0; x < 3; x++) {
                double ta = TROW(a, 3 * ca + x);
                if (ta == 0) continue;
                for (int y = 0; y < 3; y++) {
                    double tb = TROW(b, 3 * cb + y);
                    if (tb != 0) g += ta * W[(size_t)(3 * cb + y) * N3 + (size_t)(3 * ca + x)] * tb;
                }
            }
            l->M[(size_t)b * (size_t)n + (size_t)a] = g;
        }
    }
    for (int i = 0; i < nc; i++) {
        int gi = m + i;
        l->M[(size_t)i * (size_t)n + (size_t)gi] = p->mu[i];
        for (int j = 0; j < 4; j++) {
            int bj = nc + 4 * i + j;
            l->M[(size_t)gi * (size_t)n + (size_t)bj] = 1.0;
            l->M[(size_t)bj * (size_t)n + (size_t)gi] = -1.0;
        }
    }
    for (int a = 0; a < m; a++) {
        int ca = a < nc ? a : (a - nc) / 4;
        double q = 0;
        for (int x = 0; x < 3; x++)
            q += TROW(a, 3 * ca + x) * p->q[3 * ca + x];
        l->q[a] = q;
    }
#undef TROW
    for (int a = m; a < n; a++)
        l->q[a] = 0;
    double t0 = now();
    res->info = tc_lcp_solve(l, n);
    res->seconds = now() - t0;
    res->iters = l->iters;
    /* the impulses in the contact frames */
    for (int i = 0; i < nc; i++) {
        r[3 * i] = l->z[i];
        r[3 * i + 1] = r[3 * i + 2] = 0;
        for (int j = 0; j < 4; j++) {
            r[3 * i + 1] += dc[j] * l->z[nc + 4 * i + j];
            r[3 * i + 2] += ds[j] * l->z[nc + 4 * i + j];
        }
    }
    tc_lcp_free(l);
    free(W);
    tc_fc_problem_velocity(p, r, u);
    return TC_OK;
}
