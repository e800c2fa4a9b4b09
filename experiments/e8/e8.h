/* SPDX-License-Identifier: MIT */
/* E8 (gradients through contact): the scene, the landscapes' initial states and the measures the
 * verdicts rest on, for the driver and the tests */
#ifndef TC_E8_H
#define TC_E8_H

#include "exp/tc_experiment.h"

#define E8_NX 6 /* the box's tangent state: dx, dy, dtheta, vx, vy, omega */

/* the two landscapes: the drop height through contact onset, the corner angle across an edge */
enum { E8_DROP, E8_TIP, E8_NSWEEP };

/* one landscape's settings (the script's drop and tip groups) */
typedef struct e8_sweep {
    double lo, hi;  /* m (drop: the bottom's height) or rad (tip: the turn from lying flat) */
    double vx;      /* m/s, the drop's sideways throw (tip: 0) */
    double seconds; /* the rollout */
    double fd_step; /* central-difference step of the rollout (m or rad) */
} e8_sweep;

/* the box and its world */
typedef struct e8_box {
    double half, mass;                   /* m, kg */
    double gravity, friction, thickness; /* m/s^2, 1, m */
} e8_box;

/* the 2-D world: the ground (body 0) and the square box (body 1, planar) lying flat at the
 * origin; the sweeps set its state */
tc_status e8_scene(const e8_box *b, tc_scene *sc, tc_error *err);

/* the script's box and scene groups into b (its units) */
tc_status e8_read_box(const tc_script *sc, e8_box *b, tc_error *err);

/* one rollout of landscape sweep (settings w) from sweep point x0, method m at step dt on the
 * scene sc of box b: the loss (the box's x at the end, m) and, when dl is not NULL, its
 * derivative with respect to x0 by the chain of the method's analytic one-step Jacobians
 * (dx <- A dx); the steps taken are added to *steps, the inner solves that hit their cap to
 * *fails. An error (the method cannot run, a step fails) names the simulation's first warning */
tc_status e8_rollout(const tc_scene *sc, const e8_box *b, double dt, int sweep, const e8_sweep *w,
                     const tc_method *m, double x0, double *loss, double *dl, long long *steps,
                     long long *fails, tc_error *err);

/* the box's planar state (x, y, theta; vx, vy, omega) at sweep point x0 of landscape sweep, and
 * its derivative with respect to x0 in tangent coordinates (dq, dv: 6 entries) */
void e8_initial(const e8_box *b, int sweep, const e8_sweep *w, double x0, double q[3], double v[3],
                double dx0[6]);

/* the height of the square's lowest corner below its centre when turned by theta (rad), a
 * (|cos theta| + |sin theta|) */
double e8_lowest(double half, double theta);

/* the smoothness of a gradient profile g[n] sampled at even spacing: the sum of |g[i+1] - g[i]|
 * (total variation, in g's unit), the fraction of points where g is exactly zero (the flat
 * regions rigid contact gives), and the jump ratio of g (tc_jump_ratio on the even points
 * against all: 2 when g is continuous, about 1 when it jumps; NaN when g is flat) */
double e8_total_variation(const double *g, int n);
double e8_zero_fraction(const double *g, int n);
double e8_grad_jump_ratio(const double *x, const double *g, int n);

/* ---------- (d) planning with gradients (e8_plan.c) ---------- */

#define E8_PLAN_MAXWAY 8 /* waypoints of a finger path */

/* the planning task: E2's T pushed by its finger, whose x-y servo targets move linearly in time
 * from its start through nway waypoints, waypoint i reached at i seconds / nway */
typedef struct e8_task {
    double dt, seconds;        /* s: the step and the rollout */
    int nway;                  /* waypoints after the finger's start */
    double start[2];           /* the finger's start (m) */
    double goal[3];            /* the T's goal pose: x, y (m), theta (rad) */
    double length;             /* m: the angle's scale in the loss */
    double reg;                /* weight of the regulariser on the path's legs (1) */
    double tol_pos, tol_angle; /* success: within tol_pos (m) and tol_angle (rad) of the goal */
} e8_task;

/* the weights of the finger's start (w[0]) and of waypoints 1..nway (w[1..nway]) in the servo
 * target at time t (s): the derivative of the target with respect to each waypoint */
void e8_plan_weights(const e8_task *t, double time, double *w);

/* the loss of the T's final pose (x, y, theta) after waypoints p[2 nway] (x, y each): |xy -
 * goal|^2 + (length dtheta)^2 + reg sum over legs |p_i - p_(i-1)|^2 (m^2), and its gradient with
 * respect to the pose (dl_pose[3], may be NULL) and the waypoints (dl_p[2 nway], may be NULL) */
double e8_plan_loss(const e8_task *t, const double pose[3], const double *p, double dl_pose[3],
                    double *dl_p);

/* 1 when the pose is within the task's tolerances of its goal */
int e8_plan_success(const e8_task *t, const double pose[3]);

/* one rollout of waypoints p with method m on the T scene sc (tc_scene_t_pusher): the T's final
 * pose; where dpose is not NULL, its derivative with respect to p (3 x 2 nway, row-major) by the
 * chain of the method's analytic one-step Jacobians (an error for a method without them); path
 * (may be NULL) gets npath samples (t, x, y, theta) of the T evenly in time; *steps grows by the
 * steps taken, the Jacobians' included (tc_grad_steps_taken) */
tc_status e8_plan_rollout(const e8_task *t, const tc_scene *sc, const tc_method *m, const double *p,
                          double pose[3], double *dpose, double *path, int npath, long long *steps,
                          tc_error *err);

/* the cross-entropy method on f over n coordinates from mean and sd (updated in place: the last
 * distribution), population samples a round drawn from GSL's MT19937 seeded with seed, the
 * elites' mean and deviation (at least sd_min) the next round's; stops when f sets *stop or after
 * max_iter rounds; returns the rounds done */
typedef double (*e8_objective)(void *ctx, const double *z, int *stop);
int e8_cem(e8_objective f, void *ctx, int n, double *mean, double *sd, int population, int elites,
           double sd_min, unsigned long seed, int max_iter);

/* (d) in the driver: reads the script's plan groups (setup), its share of the estimate, the
 * searches, replays and outputs (run, after the landscapes) */
typedef struct e8_plan e8_plan;
tc_status e8_plan_setup(tc_exp *x, e8_plan **pl, tc_error *err);
void e8_plan_estimate(const tc_exp *x, const e8_plan *pl, tc_work *w);
tc_status e8_plan_run(tc_exp *x, e8_plan *pl, tc_error *err);
void e8_plan_free(e8_plan *pl);
/* (c) bias and variance (e8_bias.c): the estimates of F'(x), F(x) = E[L(x + w)] with w ~ N(0,
 * sigma^2), from m samples: first-order, the mean of the exact gradients g[i] at x + w[i];
 * zeroth-order, the score function with the baseline l0 = L(x), the mean of (l[i] - l0) w[i] /
 * sigma^2 */
double e8_first_order(const double *g, int m);
double e8_zeroth_order(const double *w, const double *l, int m, double l0, double sigma);

/* the reference F'(x): node k of n (odd) evenly over [-span sigma, span sigma] (the middle one
 * exactly 0), and the trapezoid rule of the integral of (L(x + w) - L(x)) w phi(w) / sigma^2
 * over the nodes' losses l[n] (l[(n - 1) / 2] = L(x)); *err (may be NULL) gets its estimated
 * error: the rule over every other node against all, plus the tails beyond the span with |L -
 * L(x)| at most its largest over the nodes */
double e8_quad_node(int k, int n, double span, double sigma);
double e8_smoothed_grad(const double *l, int n, double span, double sigma, double *err);

/* the bias |mean - ref| and the standard deviation (n - 1) of r estimates est[r] */
void e8_bias_std(const double *est, int r, double ref, double *bias, double *std);

/* the study, for the driver: its settings (the script's bias group, the labels of bias.methods
 * checked), its steps for the estimate, the run (its own sweep, CSV, table, metrics and
 * figures) and the end */
typedef struct e8_bias e8_bias;
tc_status e8_bias_setup(tc_exp *x, e8_bias **b, tc_error *err);
double e8_bias_steps(const tc_exp *x, const e8_bias *b, const e8_sweep *sweep, double dt);
tc_status e8_bias_run(tc_exp *x, e8_bias *b, const tc_scene *sc, const e8_box *box, double dt,
                      const e8_sweep *sweep, tc_error *err);
void e8_bias_free(e8_bias *b);

/* touche bench gradients (e8_bench.c) */
extern const struct tc_bench_def e8_bench; /* exp/tc_bench.h */

#endif
