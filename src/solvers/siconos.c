/* SPDX-License-Identifier: MIT */
/* Siconos Numerics: releasing solver options completely */
#include "solvers/tc_siconos.h"

#include <stdlib.h>

void tc_siconos_options_free(SolverOptions *o) {
    if (!o) return;
    /* the internal solvers' structs outlive solver_options_delete: keep them to free after */
    enum { MAXIN = 16 };
    SolverOptions *in[MAXIN];
    int n = o->internalSolvers ? o->numberOfInternalSolvers : 0;
    if (n > MAXIN) n = MAXIN;
    for (int i = 0; i < n; i++)
        in[i] = o->internalSolvers[i];
    solver_options_delete(o);
    free(o);
    for (int i = 0; i < n; i++)
        free(in[i]);
}
