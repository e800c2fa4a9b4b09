/* SPDX-License-Identifier: MIT */
/* E2 (planar T-pushing): setup, scene, finger trajectories and one rollout, shared by the driver,
 * the trajectory generator and the tests */
#ifndef TC_E2_H
#define TC_E2_H

#include "exp/tc_experiment.h"

#define E2_MAXWAY 64  /* waypoints per trajectory */
#define E2_MAXTRAJ 8
#define E2_MAXGRID 4

typedef struct e2_setup {
    /* scene (m, kg/m^3, N s/m, N m s/rad, N/m) */
    double bar_x, bar_y, stem_x, stem_y, thickness, density, damping_xy, damping_theta;
    double finger_radius, finger_mass, finger_kp, finger_kd, finger_spin_damping, friction;
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
} e2_setup;

/* a finger trajectory: target (x, y) at t = i * waypoint_dt, linear in between */
typedef struct e2_traj {
    int n;
    double x[E2_MAXWAY], y[E2_MAXWAY];
} e2_traj;

/* what one rollout produced */
typedef struct e2_result {
    double final[3];   /* T pose at the end: x, y (m), theta (rad) */
    double step_s;     /* wall time per step (s) */
    int contacts;      /* finger-T contact episodes begun (touch after no touch) */
    int breaks;        /* contact episodes ended (no touch after touch) */
    int steps;
    tc_status status;
    char reason[160];
} e2_result;

tc_status e2_read_setup(const tc_script *s, e2_setup *e, tc_error *err);

/* body 0: the T (planar, compound), body 1: the finger (planar sphere with x-y servos) */
tc_status e2_build_scene(const e2_setup *e, tc_scene *sc, tc_error *err);

/* the finger's start position (m), below the T's stem */
void e2_finger_start(const e2_setup *e, double xy[2]);

/* target of trajectory tr at time t (s) */
void e2_target(const e2_setup *e, const e2_traj *tr, double t, double xy[2]);

/* roll out trajectory tr with method m and step dt; path (may be NULL) gets npath samples of
 * (t, x, y, theta) of the T, evenly spaced in time */
void e2_rollout(const e2_setup *e, const tc_scene *sc, const tc_method *m, double dt,
                const e2_traj *tr, double *path, int npath, e2_result *r);

/* wall time per step (s) of `steps` steps along trajectory tr at dt: for method m with each of
 * the n AOPC spacings (points[i] gets the T's AOPC size, ms[i] the time), and for the reference
 * method ref (*ref_s); the scene and trajectory as in E2, run serially so timings are clean */
tc_status e2_step_times(const e2_setup *e, const tc_scene *sc, const tc_method *m,
                        const tc_method *ref, const e2_traj *tr, double dt, int steps,
                        const double *spacing, int n, int *points, double *step_s, double *ref_s,
                        tc_error *err);

/* trajectories file: CSV "traj,t_s,x_m,y_m" with '#' provenance lines */
tc_status e2_read_trajectories(const char *path, const e2_setup *e, e2_traj *tr, int *n,
                               tc_error *err);
tc_status e2_write_trajectories(const char *path, const e2_traj *tr, int n, const e2_setup *e,
                                const char *provenance, tc_error *err);

/* the generator: cross-entropy search over finger waypoints with method spec (normally
 * "mujoco" at 2 ms, MJX's default step) towards each goal; writes out_path with provenance */
tc_status e2_generate(const e2_setup *e, const char *spec, const char *out_path, int threads,
                      tc_error *err);

#endif
