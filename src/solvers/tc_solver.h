/* SPDX-License-Identifier: MIT */
/* solver interface: advances (q, v) by one step given an acceleration function */
#ifndef TC_SOLVER_H
#define TC_SOLVER_H

#include "core/tc_caps.h"
#include "core/tc_param.h"
#include "core/tc_registry.h"
#include "dyn/tc_system.h"
#include "models/tc_model.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* the ODE a force-level method defines: vdot = accel(q, v) (GSL's gsl_odeiv2_system, for
 * second-order rigid-body states; q lives on SE(3) per body, integrated by tc_system_integrate_q)
 */
typedef struct tc_ode {
    const tc_system *sys;
    tc_status (*accel)(void *ctx, double t, const double *q, const double *v, double *vdot);
    /* the model's contact points at time t and configuration q into c[max] (count returned);
     * NULL when the model reports none (solvers that need them declare TC_CAP_CONTACTS) */
    int (*contacts)(void *ctx, double t, const double *q, tc_model_contact *c, int max);
    void *ctx;
    /* optional (NULL when the model has no force_jacobian, and until tc_grad_alloc sets it on
     * its scratch simulation: sim/sim_private.h's tc_sim_reserve_jacobian): vdot at (t, q, v) as
     * accel gives it and its derivatives, row-major nv x nv each: dq with respect to q's tangent
     * (v's layout: free bodies dpos (m) and a world-frame rotation (rad), planar dx, dy, dtheta),
     * dv with respect to v, dtau with respect to generalised forces added to the applied ones
     * (v's layout: N, N m) and dctrl with respect to the servo targets (q's coordinates) */
    tc_status (*accel_jacobian)(void *ctx, double t, const double *q, const double *v, double *vdot,
                                double *dq, double *dv, double *dtau, double *dctrl);
} tc_ode;

/* one contact's impulse in a step (bodies, point, normal, depth, normal and tangential impulse):
 * defined in solvers/tc_contact_space.h */
typedef struct tc_contact_impulse tc_contact_impulse;

/* a step's friction-contact problem: defined in solvers/tc_fc_problem.h */
struct tc_fc_problem;

/* a solver type: one const instance per file in src/solvers/ */
typedef struct tc_solver_type {
    const char *name; /* e.g. "euler", "semi-euler" */
    const char *summary;
    const tc_param_spec *params; /* NULL-terminated */
    unsigned caps;               /* TC_CAP_DYNAMICS */
    unsigned needs;              /* model capabilities it needs (lcp: TC_CAP_CONTACTS), or 0 */
    /* workspace sized for the system: step() must not allocate */
    tc_status (*alloc)(void **state, const tc_system *sys, const tc_params *p, tc_error *err);
    /* advance q, v from t by dt (s) */
    tc_status (*step)(void *state, const tc_ode *ode, double t, double dt, double *q, double *v);
    void (*free)(void *state);
    /* why its results may differ between CPUs (e.g. a BLAS that picks kernels per CPU), or NULL
     * when the same inputs give the same bits everywhere */
    const char *cpu_dependent;
    /* the kind of CPU this process's results belong to (e.g. "OpenBLAS Zen"): digests made on
     * the same kind compare exactly; NULL when cpu_dependent is NULL */
    const char *(*cpu_kind)(void);
    /* optional: work of an inner solver since alloc (e.g. LCP pivots or sweeps) and how many of
     * its solves failed (NULL when there is none) */
    void (*counters)(void *state, long long *iters, long long *fails);
    /* optional: the contact impulses the last step applied, one per contact it resolved (zero
     * impulses included), the first min(n, max) into out; returns n (NULL for solvers that
     * resolve no contacts) */
    int (*impulses)(void *state, tc_contact_impulse *out, int max);
    /* optional: the last inner solve that failed, in words with its residuals (e.g. "step at
     * t = 0.3 s hit the 30-iteration cap: |f| = ..."), or NULL when none has */
    const char *(*failure)(void *state);
    /* optional: take the step as step() does and give its Jacobians in tangent coordinates
     * (x = (q's tangent, v), 2 nv entries; sim/tc_grad.h): A[(2 nv) x (2 nv)] = dx+/dx and
     * B[(2 nv) x (2 nv)] = dx+/du, u = (generalised forces tau (N, N m), servo targets ctrl),
     * row-major; NULL when the solver has none (the method then gets central differences) */
    tc_status (*step_jacobian)(void *state, const tc_ode *ode, double t, double dt, double *q,
                               double *v, double *A, double *B);
    /* the model capabilities step_jacobian needs (semi-euler: TC_CAP_GRADIENT, i.e. the ode's
     * accel_jacobian; the interior-point solvers: 0) */
    unsigned jacobian_needs;
    /* optional: the 3-D friction-contact problem the last step solved, with its impulses
     * (solvers/tc_fc_problem.h, FCLIB's convention: docs/fclib.md), assembled into *out, which
     * the caller frees with tc_fc_problem_free; allocates (call it off the step loop). TC_EUNSUP
     * when the last step had no contact; NULL for solvers that pose no such problem */
    tc_status (*fc_problem)(void *state, struct tc_fc_problem **out);
} tc_solver_type;

/* the registry: tc_solvers[] is the built-in table (one line per file); tc_solver_at(i) walks it
 * and then the types registered at run time (NULL past the end); find by name */
extern const tc_solver_type *const tc_solvers[];
const tc_solver_type *tc_solver_at(int i);
const tc_solver_type *tc_solver_find(const char *name);

/* add a type at run time (a test's own solver, a program that embeds touche); its name must be
 * new. Not thread-safe: register before anything runs */
tc_status tc_solver_register(const tc_solver_type *t, tc_error *err);

#ifdef __cplusplus
}
#endif

#endif
