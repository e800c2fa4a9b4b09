/* SPDX-License-Identifier: MIT */
/* explicit and semi-implicit (symplectic) Euler: the two first-order integrators */
#include "solvers/tc_solver.h"

#include <stdlib.h>

static const tc_param_spec no_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

typedef struct euler_state {
    int nv;
    double a[]; /* accelerations, nv */
} euler_state;

static tc_status euler_alloc(void **state, const tc_system *sys, const tc_params *p,
                             tc_error *err) {
    (void)p, (void)err;
    euler_state *s = calloc(1, sizeof *s + (size_t)(sys->nv + 1) * sizeof(double));
    if (!s) return TC_ENOMEM;
    s->nv = sys->nv;
    *state = s;
    return TC_OK;
}

/* one step; semi = 1 updates positions with the new velocities */
static tc_status step(euler_state *s, const tc_ode *ode, double t, double dt, double *q, double *v,
                      int semi) {
    tc_status st = ode->accel(ode->ctx, t, q, v, s->a);
    if (st) return st;
    if (!semi) tc_system_integrate_q(ode->sys, q, v, dt);
    for (int i = 0; i < s->nv; i++)
        v[i] += dt * s->a[i];
    if (semi) tc_system_integrate_q(ode->sys, q, v, dt);
    return TC_OK;
}

static tc_status euler_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                            double *v) {
    return step(state, ode, t, dt, q, v, 0);
}

static tc_status semi_euler_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                                 double *v) {
    return step(state, ode, t, dt, q, v, 1);
}

static void euler_free(void *state) {
    free(state);
}

const tc_solver_type tc_solver_euler = {
    .name = "euler",
    .summary = "explicit Euler: q += h v, v += h a(q, v)",
    .params = no_params,
    .caps = TC_CAP_DYNAMICS,
    .alloc = euler_alloc,
    .step = euler_step,
    .free = euler_free,
};

const tc_solver_type tc_solver_semi_euler = {
    .name = "semi-euler",
    .summary = "semi-implicit (symplectic) Euler: v += h a(q, v), then q += h v",
    .params = no_params,
    .caps = TC_CAP_DYNAMICS,
    .alloc = euler_alloc,
    .step = semi_euler_step,
    .free = euler_free,
};
