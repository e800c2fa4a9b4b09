/* SPDX-License-Identifier: MIT */
/* gradients through contact: the one-step map x+ = Phi(x, u) of a simulation and its Jacobians
 * A = dx+/dx and B = dx+/du, for every method (analytic where the method declares it, central
 * differences otherwise) */
#ifndef TC_GRAD_H
#define TC_GRAD_H

#include "sim/tc_sim.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* coordinates. x = (dq, v) has 2 nv entries: dq is q's tangent (tc_system_retract: free bodies
 * dpos (m) and a world-frame rotation (rad), never raw quaternion components; planar bodies dx,
 * dy (m), dtheta (rad)), then v (m/s, rad/s). u = (tau, ctrl) has 2 nv entries: generalised
 * forces added to the applied wrenches over the step (v's layout: N, N m; free bodies' torque
 * about the COM, world frame), then the position-servo targets (tc_sim_ctrl; columns of dofs
 * without a servo are zero). A is (2 nv) x (2 nv), B is (2 nv) x (2 nv), both row-major */

/* how the Jacobians are obtained */
typedef enum tc_grad_mode {
    TC_GRAD_AUTO,     /* analytic when the method has them (tc_method_gradient), else FD */
    TC_GRAD_ANALYTIC, /* the method's own (an error for a method without them) */
    TC_GRAD_FD,       /* central differences of tc_sim_step, whatever the method has */
} tc_grad_mode;

/* the settings (defaults: tc_default_grad_settings) */
typedef struct tc_grad_settings {
    tc_grad_mode mode;
    double fd_step; /* central-difference step h in tangent units (m, rad, m/s, rad/s, N, N m),
                     * scaled per coordinate by max(1, |value|); > 0 (1e-6) */
    int richardson; /* 1: also step h/2 and extrapolate (4 D(h/2) - D(h)) / 3, the error
                     * estimate being |D(h/2) - D(h)| plus a rounding bound 8 eps max(1, |x+|) /
                     * (h/2) (costs twice the steps); 0: one step h, no estimate (NAN) (1) */
} tc_grad_settings;

tc_grad_settings tc_default_grad_settings(void);

/* how a method's Jacobians are obtained under TC_GRAD_AUTO, in words: "analytic (force
 * derivatives)", "analytic (implicit function theorem)", "engine (mjd_transitionFD)" or
 * "central differences"; and 1 when they are analytic: the engine has a jacobian hook, or the
 * solver has step_jacobian, the model every capability in its jacobian_needs (TC_CAP_GRADIENT:
 * a force_jacobian) and no memory (step_begin; those models get central differences) */
const char *tc_method_gradient(const tc_method *m);
int tc_method_has_gradient(const tc_method *m);

typedef struct tc_grad tc_grad;

/* a workspace for sim's Jacobians (all memory up front, a scratch simulation for the
 * perturbed steps included); errors name the setting (an FD step <= 0, analytic asked of a
 * method without them); set may be NULL (tc_default_grad_settings) */
tc_status tc_grad_alloc(tc_grad **g, tc_sim *sim, const tc_grad_settings *set, tc_error *err);
void tc_grad_free(tc_grad *g);

/* 2 nv: the length of x and of u */
int tc_grad_nx(const tc_grad *g);

/* A and B at sim's current state, time, servo targets and applied wrenches; sim itself is not
 * changed (every step, analytic or perturbed, is taken on the workspace's scratch simulation
 * after tc_sim_copy_state and a copy of the applied wrenches). err_est (may be NULL) gets the
 * estimated absolute error of each entry of A then B (2 x (2 nv)^2; zero for analytic
 * Jacobians, the Richardson estimate for FD). A non-unit quaternion in sim's state is an error
 * (TC_EINVAL naming the body: | |q| - 1 | <= 1e-9); the step's own failure (divergence) is
 * returned as the step returns it.
 * FD columns: x's dq by tc_system_retract, v added, u's tau added to the body's applied wrench
 * (tc_sim_xfrc: free bodies force then torque, planar bodies f_x, f_y, torque z), ctrl added to
 * the servo target; step h scaled by max(1, |value|) (positions, velocities, the wrench and
 * target; a free body's rotation by 1); the ends differenced by tc_system_difference. ctrl
 * columns of dofs without a servo (free bodies, kp = 0) are zero without a step.
 * What the scratch simulation does not copy: a model's memory (step_begin: penalty-dp and
 * penalty-mp's integral terms and contact phases) is made anew (the model's alloc) before each
 * step, so for those models the Jacobian is that of the first step of a simulation started at
 * x, not of sim's next step with its memory (a contact present at x is new to it: an approach
 * faster than impact_speed gets an impulse); this allocates. A solver's warm start and an
 * engine's internal state (contact caches, its own clock for kinematic bodies) are the scratch
 * simulation's, carried from one perturbed step to the next */
tc_status tc_grad_step(tc_grad *g, double *A, double *B, double *err_est, tc_error *err);

/* how many simulation steps the last tc_grad_step took: 1 for analytic (an engine's own
 * differences count as its one step), for FD 1 + 2 n, times 2 with Richardson (1 + 4 n), n the
 * columns perturbed (4 nv less the ctrl columns without a servo) */
long long tc_grad_steps_taken(const tc_grad *g);

#ifdef __cplusplus
}
#endif

#endif
