/* SPDX-License-Identifier: MIT */
/* the solver registry: add one line here for a new solver (the first is the default) */
#include "solvers/tc_solver.h"

#include <string.h>

extern const tc_solver_type tc_solver_euler;
extern const tc_solver_type tc_solver_semi_euler;
extern const tc_solver_type tc_solver_rk4;
extern const tc_solver_type tc_solver_rkf45;
extern const tc_solver_type tc_solver_rk8pd;
extern const tc_solver_type tc_solver_rk4imp;
extern const tc_solver_type tc_solver_lcp_lemke;
extern const tc_solver_type tc_solver_lcp_pgs;

const tc_solver_type *const tc_solvers[] = {
    &tc_solver_semi_euler,
    &tc_solver_euler,
    &tc_solver_rk4,
    &tc_solver_rkf45,
    &tc_solver_rk8pd,
    &tc_solver_rk4imp,
    &tc_solver_lcp_lemke,
    &tc_solver_lcp_pgs,
    NULL,
};

const tc_solver_type *tc_solver_find(const char *name) {
    for (int i = 0; tc_solvers[i]; i++)
        if (strcmp(tc_solvers[i]->name, name) == 0) return tc_solvers[i];
    return NULL;
}
