/* SPDX-License-Identifier: MIT */
/* the one interface experiments use: methods (model/solver or engine) and simulations */
#ifndef TC_SIM_H
#define TC_SIM_H

#include "engines/tc_engine.h"
#include "models/tc_model.h"
#include "sim/tc_residual.h"
#include "solvers/tc_solver.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* a method: "model" or "model/solver" (force-level model + integrator) or "engine" */
typedef struct tc_method {
    char spec[64];                /* canonical name, e.g. "scm/semi-euler", "mujoco" */
    const tc_model_type *model;   /* NULL for engines */
    const tc_solver_type *solver; /* NULL for engines */
    const tc_engine_type *engine; /* NULL for model/solver methods */
    tc_params mparams, sparams, eparams;
    unsigned caps, shapes;
} tc_method;

/* parse a spec; a bare model name takes the first registered solver (semi-euler) */
tc_status tc_method_parse(tc_method *m, const char *spec, tc_error *err);

/* 1 when spec ("mujoco", "ode/...") names a built-in engine this build left out (meson
 * -Dmujoco=disabled, or its package missing): an experiment skips such a method of its script
 * with the reason instead of refusing the script */
int tc_method_left_out(const char *spec);

/* set a parameter: the one route every method parameter takes (a script's and a tier's params,
 * --set, an experiment's own axes such as E2's spacing and E5/E6's tolerance). The name goes to
 * whichever of the model, solver or engine has it (searched in that order) and the value is
 * checked there (kind, range, finiteness); on error m is unchanged and err names the parameter
 * (an unknown name lists the method's parameters) */
tc_status tc_method_set(tc_method *m, const char *name, double value, tc_error *err);

/* 1 when the model, solver or engine has a parameter of that name */
int tc_method_has(const tc_method *m, const char *name);

/* 1 when the method's solver counts inner iterations (tc_sim_stats.solver_iters): an iteration
 * count of 0 then means none was needed, else the count does not apply (engines, explicit
 * integrators) */
int tc_method_counts_iterations(const tc_method *m);

/* how a method resolves contact, for grouping methods in figures (plots/methods.gp names them):
 * its solver computes the impulses from contact points or geometry (LCP, velocity projection,
 * interior point), its model's force law is integrated in time (penalty, compliant, SCM, PFC),
 * or an engine does both */
typedef enum tc_method_family {
    TC_FAMILY_CONSTRAINT = 1,
    TC_FAMILY_FORCE_LAW = 2,
    TC_FAMILY_ENGINE = 3
} tc_method_family;
tc_method_family tc_method_family_of(const tc_method *m);

/* a parameter's value, found as tc_method_set finds it (the name must exist: a typo is a
 * programming error and aborts, as in tc_params_get) */
double tc_method_get(const tc_method *m, const char *name);

/* the name of the method's first parameter of a kind (model, solver, engine in that order), NULL
 * when it has none: TC_PARAM_SPACING finds a point-sampled model's sample spacing */
const char *tc_method_param_of_kind(const tc_method *m, tc_param_kind kind);

/* m with another solver (a registered name) into out (out may be m): the same model with its
 * parameters as m has them; the new solver's defaults, except the solver parameters m set away
 * from its old solver's defaults, which carry over by name. Errors (out unchanged): an engine
 * (it brings its own solver), an unknown solver, a pair tc_method_parse refuses, a solver
 * parameter m set that the new solver lacks or whose value it refuses */
tc_status tc_method_with_solver(const tc_method *m, const char *solver, tc_method *out,
                                tc_error *err);

/* 1 if the method has every capability in caps and handles every shape type in shapes */
int tc_method_can_run(const tc_method *m, unsigned caps, unsigned shapes);

/* how much longer a step may take than at the parameters' defaults: the product over its
 * iteration caps (TC_PARAM_ITERS) of value over default, at least 1 (the work estimates' factor:
 * a worst case, since a solver that converges stops before its cap) */
double tc_method_work_factor(const tc_method *m);

/* why not, in words ("lacks force-query; cannot handle shapes: compound") into buf */
void tc_method_why_not(const tc_method *m, unsigned caps, unsigned shapes, char *buf, size_t n);

/* the model's or engine's name */
const char *tc_method_base(const tc_method *m);

/* every parameter name of the method, comma-separated, into buf */
void tc_method_param_names(const tc_method *m, char *buf, size_t n);

/* why the method's results may differ on another CPU (its solver's note), or NULL */
const char *tc_method_cpu(const tc_method *m);

/* the kind of CPU the method's results belong to in this process (e.g. "OpenBLAS Zen"), NULL
 * when they do not depend on it */
const char *tc_method_cpu_kind(const tc_method *m);

/* every registered model (with its default solver) and every engine, in registry order, into
 * out (at most max written); returns how many there are (tc_method_count sizes out) */
int tc_method_enumerate(tc_method *out, int max);
int tc_method_count(void);

/* what a simulation has done so far */
typedef struct tc_sim_stats {
    long long steps;
    long long force_evals;
    long long pair_evals;   /* model kernel evaluations (e.g. SCM point pairs) */
    int ncontact;           /* active contacts at the last evaluation */
    long long solver_iters; /* inner-solver work (LCP pivots or sweeps), when the solver has one */
    long long solver_fails; /* inner solves that did not converge */
} tc_sim_stats;

typedef struct tc_sim tc_sim;

/* a simulation of the scene with one method and step dt (s); all memory up front. The scene is
 * not copied: it must outlive the simulation and stay unchanged while it lives */
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
#define TC_SIM_MAX_SPIN  1e4 /* rad/s */

/* failed inner solves a simulation describes in its warnings (the rest are only counted) */
#define TC_SIM_FAILURE_NOTES 5

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

/* the scene */
const tc_scene *tc_sim_scene(const tc_sim *sim);

/* every body's world pose and twist at the current state and time (bodies[nbody]; valid until
 * the next call on this simulation) */
const tc_body_state *tc_sim_bodies(tc_sim *sim);

/* a body's coordinates in q (free: pos[3], quat[4] w x y z; planar: x, y (m), theta (rad,
 * as integrated, not wrapped)) into out[7]; returns how many (0: a body without dofs) */
int tc_sim_body_q(const tc_sim *sim, int body, double *out);

/* move a body (free: its COM to pos; planar: x, y from pos) without touching its velocity;
 * TC_EINVAL for a body without dofs */
tc_status tc_sim_set_position(tc_sim *sim, int body, const double pos[3]);

/* the position-servo target of a planar body's dof (0 x, 1 y (m), 2 theta (rad)), held over
 * the next steps; TC_EINVAL for a bad body or dof */
tc_status tc_sim_set_target(tc_sim *sim, int body, int dof, double value);

/* dst's state (q, v, servo targets, time) from src; both must simulate the same scene layout
 * (TC_EINVAL otherwise) */
tc_status tc_sim_copy_state(tc_sim *dst, const tc_sim *src);

/* kinetic energy (J), kinetic plus gravitational energy (J), and linear (kg m/s) and angular
 * momentum about the origin (kg m^2/s) of the bodies with dofs, at the current state */
double tc_sim_kinetic_energy(tc_sim *sim);
double tc_sim_energy(tc_sim *sim);
void tc_sim_momentum(tc_sim *sim, double lin[3], double ang[3]);

/* the largest penetration (m) between the shapes of any pair with a moving body, measured from
 * the geometry alone (libccd; the method's own contact model plays no part), and in *pairs (may
 * be NULL) how many pairs overlap */
double tc_sim_penetration(tc_sim *sim, int *pairs);

/* the loop's measures from one evaluation of the poses: kinetic energy (J), the largest
 * penetration (m) and the linear momentum (kg m/s), each skipped when its pointer is NULL */
void tc_sim_measure(tc_sim *sim, double *ke, double *pen, double lin[3]);

/* the gap (m) between bodies a and b: for a sphere against any shape the exact distance of its
 * centre to the other surface less its radius (< 0 overlapping); for other convex pairs minus
 * the libccd depth when they overlap and 0 when apart; NAN when the pair has no distance */
double tc_sim_gap(tc_sim *sim, int a, int b);

/* warnings raised so far (engine messages, divergence reasons), one per line; returns count */
int tc_sim_warnings(tc_sim *sim, char *buf, int n);

/* the contact impulses of the last step (tc_contact_impulse, solvers/tc_contact_space.h: bodies,
 * point, normal from a to b, depth, normal and tangential impulse in N s), the first
 * min(n, max) into out (out may be NULL); returns n. Sources, first that applies
 * (docs/residuals.md): an engine's impulses hook (MuJoCo: mj_contactForce x dt; ODE and Bullet
 * have none yet: 0); a velocity-level solver's impulses, one per contact it resolved; a
 * force-level model's contact_forces at the current state x dt (the force at the step's end
 * held over the step: penalty, hunt-crossley, one per pushing point); any other force-level
 * model (SCM, PFC) one effective contact per overlapping body pair, its impulse the wrench of
 * the pair's body that touches nothing else, x dt, acting at the wrench's central axis where it
 * crosses the contact plane through the pair's deepest point (scenes of at most
 * TC_SIM_PAIR_BODIES bodies; larger scenes 0). Sizes its buffers on the first call, so call it
 * (or tc_sim_track_residuals) once before a loop that must not allocate */
int tc_sim_impulses(tc_sim *sim, tc_contact_impulse *out, int max);

/* --dump-problems (docs/fclib.md): from now on every simulation made of a solver that poses a
 * friction-contact problem (tc_solver_type.fc_problem: the LCP steps, velocity projection)
 * writes the problems of its steps k = every, 2 every, ... that have contacts, at most max per
 * simulation, as FCLIB files dir/LABEL-METHOD-simK-stepN.hdf5 (LABEL: the thread's run label,
 * METHOD: the spec with '/' as '_', K: the simulations made under the label so far, N: the
 * step, 1-based). dir is made when missing and probed for writing (TC_EIO naming it); NULL turns
 * it off. Set it before anything runs (not thread-safe). A failed write fails the step */
tc_status tc_sim_dump_problems(const char *dir, long every, int max, tc_error *err);

/* the label of the simulations this thread makes next (the runner: "EXPERIMENT-runN"); the
 * count K starts again at 0 */
void tc_sim_dump_label(const char *label);

/* bodies up to which force-level models without contact_forces are reported per pair */
#define TC_SIM_PAIR_BODIES 64

/* contacts the impulse buffers of a simulation hold: 256 + 16 per body */
#define TC_SIM_IMPULSE_CAP(nbody) (256 + 16 * (nbody))

/* turn residual tracking on (1: the summary cleared, buffers sized now) or off (0): while on,
 * every tc_sim_step that succeeds adds its residuals (sim/tc_residual.h) to the run's summary,
 * allocating nothing. Tracking changes no state: a tracked run's trajectory is bitwise the
 * untracked one's. TC_ENOMEM */
tc_status tc_sim_track_residuals(tc_sim *sim, int on);

/* the residual summary of the steps tracked so far (means and fractions up to date; zero steps
 * when tracking was never on) */
void tc_sim_residuals(const tc_sim *sim, tc_residual_summary *out);

#ifdef __cplusplus
}
#endif

#endif
