/* SPDX-License-Identifier: MIT */
/* the one interface experiments use: methods (model/solver or engine) and simulations */
#ifndef TC_SIM_H
#define TC_SIM_H

#include "engines/tc_engine.h"
#include "models/tc_model.h"
#include "solvers/tc_solver.h"

/* a method: "model" or "model/solver" (force-level model + integrator) or "engine" */
typedef struct tc_method {
    char spec[64];                 /* canonical name, e.g. "scm/semi-euler", "mujoco" */
    const tc_model_type *model;    /* NULL for engines */
    const tc_solver_type *solver;  /* NULL for engines */
    const tc_engine_type *engine;  /* NULL for model/solver methods */
    tc_params mparams, sparams, eparams;
    unsigned caps, shapes;
} tc_method;

/* parse a spec; a bare model name takes the first registered solver (semi-euler) */
tc_status tc_method_parse(tc_method *m, const char *spec, tc_error *err);

/* set a parameter of the model, solver or engine (searched in that order) */
tc_status tc_method_set(tc_method *m, const char *name, double value, tc_error *err);

/* 1 if the method has every capability in caps and handles every shape type in shapes */
int tc_method_can_run(const tc_method *m, unsigned caps, unsigned shapes);

/* why the method's results may differ on another CPU (its solver's note), or NULL */
const char *tc_method_cpu(const tc_method *m);

/* every registered model (with the default solver) and every engine, in registry order;
 * returns the count written (at most max) */
int tc_method_enumerate(tc_method *out, int max);

/* what a simulation has done so far */
typedef struct tc_sim_stats {
    long long steps;
    long long force_evals;
    long long pair_evals;  /* model kernel evaluations (e.g. SCM point pairs) */
    int ncontact;          /* active contacts at the last evaluation */
    long long solver_iters; /* inner-solver work (LCP pivots or sweeps), when the solver has one */
    long long solver_fails; /* inner solves that did not converge */
} tc_sim_stats;

typedef struct tc_sim tc_sim;

/* a simulation of a copy of the scene with one method and step dt (s); all memory up front */
tc_status tc_sim_alloc(tc_sim **sim, const tc_scene *scene, const tc_method *m, double dt,
                       tc_error *err);
void tc_sim_free(tc_sim *sim);

/* contact wrenches on every body (w[nbody]) at state (q, v) and the simulation's current time
 * (tc_sim_time: where kinematic bodies are on their paths); v may be NULL (everything at rest,
 * kinematic bodies too). Does not change the simulation's own state. */
tc_status tc_sim_force(tc_sim *sim, const double *q, const double *v, tc_wrench *w);

/* the model's contact points (TC_CAP_CONTACTS models) at the simulation's current state into
 * c[max]; returns how many, 0 for other methods */
int tc_sim_contacts(tc_sim *sim, tc_model_contact *c, int max);

/* a run has diverged when its state is not finite or a body moves faster than these */
#define TC_SIM_MAX_SPEED 1e3 /* m/s */
#define TC_SIM_MAX_SPIN 1e4  /* rad/s */

/* advance the simulation's state by dt; TC_EDIVERGED (reason in the warnings) on divergence */
tc_status tc_sim_step(tc_sim *sim);

/* state access: q[nq], v[nv] in the tc_system layout; the system and the scene copy */
double *tc_sim_q(tc_sim *sim);
double *tc_sim_v(tc_sim *sim);
/* position-servo targets ctrl[nv] (per planar dof: x, y, theta), held constant over each step;
 * they start at the initial configuration */
double *tc_sim_ctrl(tc_sim *sim);
/* external wrenches xfrc[nbody] (world frame: force N, torque N m about the COM), held constant
 * over each step; they start at zero */
tc_wrench *tc_sim_xfrc(tc_sim *sim);
double tc_sim_time(const tc_sim *sim);
const tc_system *tc_sim_system(const tc_sim *sim);
const tc_sim_stats *tc_sim_get_stats(const tc_sim *sim);

/* warnings raised so far (engine messages, divergence reasons), one per line; returns count */
int tc_sim_warnings(tc_sim *sim, char *buf, int n);

#endif
