/* SPDX-License-Identifier: MIT */
/* E2 (planar T-pushing): setup, finger trajectories and one rollout, shared by the driver, its
 * generator, its benchmark and the tests */
#ifndef TC_E2_H
#define TC_E2_H

#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"

#define E2_MAXWAY 64                        /* waypoints per trajectory */
enum { E2_BODY_T = 0, E2_BODY_FINGER = 1 }; /* the scene's bodies: the T, the finger */
#define E2_MAXTRAJ  8
#define E2_MAXGRID  4
#define E2_MAXINTEG 4

/* an integrator of the grid: a model's solver, or the engine parameters that select it */
typedef struct e2_integ {
    char name[16];   /* "RK4", as in the paper's column names */
    char solver[32]; /* the solver a model method runs with */
    int nset;        /* engine parameters set where the engine has them */
    char set_name[4][32];
    double set_value[4];
} e2_integ;

typedef struct e2_setup {
    tc_t_pusher scene; /* the T and the finger (SI units) */
    /* rollout (s) */
    double duration, waypoint_dt;
    char trajectories[512];
    /* generator */
    int ngoal;
    double goal[E2_MAXTRAJ][3];
    int population, elites, iterations, seed;
    double sigma;
    /* tier grid */
    int ndt, nspacing, rollouts;
    double dt[E2_MAXGRID], spacing[E2_MAXGRID];
    int ninteg;
    e2_integ integ[E2_MAXINTEG];
    /* what the table compares against, and the method timed against its point count */
    char reference[TC_LABEL_MAX + 1], timing[TC_LABEL_MAX + 1], timing_integ[16];
    char reference_spec[64]; /* the method the reference's script entry names */
} e2_setup;

/* a finger trajectory: target (x, y) at t = i * waypoint_dt, linear in between */
typedef struct e2_traj {
    int n;
    double x[E2_MAXWAY], y[E2_MAXWAY];
} e2_traj;

/* what one rollout produced */
typedef struct e2_result {
    double final[3]; /* T pose at the end: x, y (m), theta (rad) */
    double step_s;   /* wall time per step (s) */
    int contacts;    /* finger-T contact episodes begun (touch after no touch) */
    int breaks;      /* contact episodes ended (no touch after touch) */
    int steps;
    tc_status status;
    char reason[256];
    tc_residual_summary resid; /* the rollout's physical residuals (docs/residuals.md) */
} e2_result;

tc_status e2_read_setup(const tc_script *s, e2_setup *e, tc_error *err);

/* the method of one grid cell: a model method with integrator g's solver (tc_method_with_solver:
 * its parameters kept) and the grid's spacing sp >= 0, or an engine with those of g's
 * parameters it has */
tc_status e2_configure(const tc_method *m, const e2_setup *e, int g, int sp, tc_method *out,
                       tc_error *err);

/* set the method's sample spacing (m: its parameter of kind TC_PARAM_SPACING, SCM's AOPC
 * `spacing`); an error when it samples no points */
tc_status e2_set_spacing(tc_method *m, double spacing, tc_error *err);

/* roll out trajectory tr with method m and step dt; path (may be NULL) gets npath samples of
 * (t, x, y, theta) of the T, evenly spaced in time */
void e2_rollout(const e2_setup *e, const tc_scene *sc, const tc_method *m, double dt,
                const e2_traj *tr, double *path, int npath, e2_result *r);

/* how many points SCM's AOPC puts on the T (body 0 of sc) at a spacing (m): the paper labels its
 * columns by it; 0 when the cloud cannot be built */
int e2_points(const tc_scene *sc, double spacing);

/* wall time per step (s) of `steps` steps at 2 ms along trajectory tr, serially, the fastest of
 * three runs: x's method labelled compare.timing with the timing integrator at each of the n
 * AOPC spacings (points[i] gets the T's AOPC size, step_s[i] the time) and the reference with it
 * (*ref_s); m[0] and m[1] get the two methods as timed. An error when x lacks either */
tc_status e2_step_times(const tc_exp *x, const e2_setup *e, const tc_scene *sc, const e2_traj *tr,
                        int steps, const double *spacing, int n, int *points, double *step_s,
                        double *ref_s, tc_method m[2], tc_error *err);

/* the setup, its scene and the trajectories it names (a path relative to source_dir, or
 * absolute), at least one per rollout */
tc_status e2_load(const tc_script *s, const char *source_dir, e2_setup *e, tc_scene *sc,
                  e2_traj *tr, int *ntr, tc_error *err);

/* trajectories file: CSV "traj,t_s,x_m,y_m" with '#' provenance lines */
tc_status e2_read_trajectories(const char *path, const e2_setup *e, e2_traj *tr, int *n,
                               tc_error *err);
tc_status e2_write_trajectories(const char *path, const e2_traj *tr, int n, const e2_setup *e,
                                const char *provenance, tc_error *err);

/* `touche generate e2` and `touche bench e2` */
tc_status e2_generate_hook(const tc_gen_opts *o, tc_error *err);
extern const struct tc_bench_def e2_bench; /* exp/tc_bench.h */

#endif
