/* SPDX-License-Identifier: MIT */
/* the solver registry: add one line here for a new solver (the first is the default) */
#include "solvers/tc_solver.h"

#include <stddef.h>

extern const tc_solver_type tc_solver_euler;
extern const tc_solver_type tc_solver_semi_euler;
extern const tc_solver_type tc_solver_rk4;
extern const tc_solver_type tc_solver_rkf45;
extern const tc_solver_type tc_solver_rk8pd;
extern const tc_solver_type tc_solver_rk4imp;
extern const tc_solver_type tc_solver_lcp_lemke;
extern const tc_solver_type tc_solver_lcp_pgs;
extern const tc_solver_type tc_solver_single_level;
extern const tc_solver_type tc_solver_bilevel;
extern const tc_solver_type tc_solver_vp;

const tc_solver_type *const tc_solvers[] = {
    &tc_solver_semi_euler,   &tc_solver_euler,   &tc_solver_rk4,       &tc_solver_rkf45,
    &tc_solver_rk8pd,        &tc_solver_rk4imp,  &tc_solver_lcp_lemke, &tc_solver_lcp_pgs,
    &tc_solver_single_level, &tc_solver_bilevel, &tc_solver_vp,        NULL,
};

static tc_registry registry = {
    (const void *const *)tc_solvers, offsetof(tc_solver_type, name), "solver", {NULL}, 0};

const tc_solver_type *tc_solver_at(int i) {
    return tc_registry_at(&registry, i);
}
const tc_solver_type *tc_solver_find(const char *name) {
    return tc_registry_find(&registry, name);
}
tc_status tc_solver_register(const tc_solver_type *t, tc_error *err) {
    return tc_registry_add(&registry, t, err);
}
