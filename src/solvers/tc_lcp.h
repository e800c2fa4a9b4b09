/* SPDX-License-Identifier: MIT */
/* dense linear complementarity problems w = M z + q, z >= 0, w >= 0, z . w = 0 by Siconos
 * Numerics, with the attempts that make its Lemke reliable on degenerate contact LCPs (M rounded
 * to a binary grid, then Fischer-Burmeister Newton); shared by the LCP step and velocity
 * projection. Buffers sized once by tc_lcp_alloc; a solve allocates nothing of ours */
#ifndef TC_LCP_H
#define TC_LCP_H

#include "core/tc_status.h"

typedef struct tc_lcp_private tc_lcp_private;

/* a solver for problems of at most nmax unknowns: the caller fills M (column-major, leading
 * dimension n of the solve) and q, tc_lcp_solve leaves the solution in z and w */
typedef struct tc_lcp {
    int nmax;
    double *M;       /* nmax^2 */
    double *q;       /* nmax */
    double *z, *w;   /* nmax */
    long long iters; /* Siconos' pivots or sweeps over every solve since alloc */
    int attempt;     /* which attempt solved the last problem (1-based, see lcp.c), 0: none */
    tc_lcp_private *p;
} tc_lcp;

/* the Siconos solver id (SICONOS_LCP_LEMKE or SICONOS_LCP_PGS), its iteration cap (Lemke:
 * pivots, also at most 10 per unknown; PGS: sweeps), the tolerance on Siconos' relative natural
 * residual |min(z, w)| / |q| a solution must meet, and fallbacks (Lemke only: 1 tries M rounded
 * to 44 bits, M as is, rounded to 36, 48, 40, 30 bits, then Fischer-Burmeister Newton, Lemke on
 * M + 1e-12 max|M| I, Newton on min(z, w); 0: one attempt). TC_EINVAL for nmax < 1, TC_ENOMEM */
tc_status tc_lcp_alloc(tc_lcp **out, int nmax, int solver_id, int max_iter, double tol,
                       int fallbacks);
void tc_lcp_free(tc_lcp *l);

/* solve the n x n problem in M, q (n <= nmax; M left as given): 0 when z (clamped to >= 0)
 * solves it to the tolerance, else Siconos' last info (non-zero), z its last iterate */
int tc_lcp_solve(tc_lcp *l, int n);

/* the kind of CPU the results belong to: OpenBLAS picks its kernels (under Siconos' products
 * and residuals) per CPU, e.g. "OpenBLAS Haswell" */
const char *tc_lcp_cpu_kind(void);

/* the OpenBLAS kernels the touche program pins itself to on x86-64 (unless OPENBLAS_CORETYPE is
 * set): SSE3, which every x86-64 CPU runs, so LCP results are the same bits on every machine */
#define TC_BLAS_CORETYPE "Prescott"

/* why LCP results may differ between CPUs, for tc_solver_type.cpu_dependent */
#define TC_LCP_CPU_NOTE                                                                            \
    "Siconos calls OpenBLAS, whose kernels (chosen per CPU) round differently; the touche "        \
    "program "                                                                                     \
    "pins them (OPENBLAS_CORETYPE=" TC_BLAS_CORETYPE ") unless the caller chose others"

#endif
