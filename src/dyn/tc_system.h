/* SPDX-License-Identifier: MIT */
/* the rigid-body system: state layout, kinematics, Newton–Euler accelerations, energy, momentum */
#ifndef TC_SYSTEM_H
#define TC_SYSTEM_H

#include "dyn/tc_scene.h"
#include "geom/tc_pose.h"
#include "math/tc_vec.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* force (N) and torque about the body's COM (N m), world frame */
typedef struct tc_wrench {
    double f[3], t[3];
} tc_wrench;

/* state layout: a free body owns q = (pos[3], quat[4]) and v = (vel[3], omega_world[3]);
 * a planar body owns q = (x, y, theta) and v = (xdot, ydot, thetadot); fixed and kinematic
 * bodies own nothing (their poses depend only on the time) */
typedef struct tc_system {
    const tc_scene *scene;        /* not owned; must outlive the system */
    int nq, nv;                   /* sizes of q and v */
    int qadr[TC_SCENE_MAXBODY];   /* offset of the body's q, -1 for fixed and kinematic bodies */
    int vadr[TC_SCENE_MAXBODY];   /* offset of the body's v, -1 for fixed and kinematic bodies */
    double izz[TC_SCENE_MAXBODY]; /* planar bodies: moment of inertia about the world z axis */
} tc_system;

void tc_system_init(tc_system *sys, const tc_scene *scene);

/* the scene's initial q and v */
void tc_system_initial_state(const tc_system *sys, double *q, double *v);

/* per-body world poses and twists at time t (s) from q and v; kinematic bodies take their path
 * at t (tc_body_path). v may be NULL: every twist zero, kinematic bodies' too (a static query) */
void tc_system_kinematics(const tc_system *sys, double t, const double *q, const double *v,
                          tc_body_state *bs);

/* vdot from Newton–Euler: gravity, gyroscopic torque, applied wrenches w (may be NULL), joint
 * damping, and position servos towards ctrl[nv] (targets in q's coordinates; may be NULL) */
void tc_system_accel(const tc_system *sys, const tc_body_state *bs, const tc_wrench *w,
                     const double *q, const double *v, const double *ctrl, double *vdot);

/* row[nv] += scale * J, where J v is the velocity along the world direction d of body i's
 * material point at world p (the point Jacobian projected on d); bodies without degrees of
 * freedom (fixed, kinematic) add nothing */
void tc_system_point_jacobian(const tc_system *sys, const tc_body_state *bs, int i,
                              const double p[3], const double d[3], double scale, double *row);

/* x[nv] <- M^-1 x with the generalised mass matrix at poses bs (block diagonal: free bodies
 * m I and the world inertia R diag(I) R^T, planar bodies m, m, I_zz) */
void tc_system_minv(const tc_system *sys, const tc_body_state *bs, double *x);

/* dq/dt for v (free bodies: quat' = [0, omega] (x) quat / 2), for ODE solvers working on a flat
 * state; after such a step call tc_system_normalize_q */
void tc_system_qdot(const tc_system *sys, const double *q, const double *v, double *qdot);

/* renormalise the quaternions of free bodies */
void tc_system_normalize_q(const tc_system *sys, double *q);

/* q <- q + dt * qdot(v): positions by Euler, orientations by the exact exponential map */
void tc_system_integrate_q(const tc_system *sys, double *q, const double *v, double dt);

/* tangent coordinates of q (nv entries, v's layout): free bodies dpos[3] (m) and a world-frame
 * rotation dtheta[3] (rad: R' = exp([dtheta]x) R), planar bodies dx, dy (m), dtheta (rad).
 * q <- q [+] scale * dq (retract), and dq <- q1 [-] q0 (the inverse: retract(q0, dq) = q1) */
void tc_system_retract(const tc_system *sys, double *q, const double *dq, double scale);
void tc_system_difference(const tc_system *sys, const double *q1, const double *q0, double *dq);

/* kinetic energy (J) of the bodies with degrees of freedom: 1/2 m v.v + 1/2 sum_k I_k w_k^2,
 * w the body-frame angular velocity */
double tc_system_kinetic(const tc_system *sys, const tc_body_state *bs);

/* kinetic plus gravitational potential energy (J) of the bodies with degrees of freedom */
double tc_system_energy(const tc_system *sys, const tc_body_state *bs);

/* total linear momentum (kg m/s) and angular momentum about the world origin (kg m^2/s) of the
 * bodies with degrees of freedom (kinematic bodies are external agents and do not count) */
void tc_system_momentum(const tc_system *sys, const tc_body_state *bs, double lin[3],
                        double ang[3]);

/* velocity (m/s) of the body-fixed material point at world position p (m); inline: the
 * force laws call it per contact point */
static inline void tc_body_point_velocity(const tc_body_state *s, const double p[3], double v[3]) {
    double r[3];
    tc_v3_sub(r, p, s->pos);
    tc_v3_cross(v, s->omega, r);
    tc_v3_add(v, v, s->vel);
}

/* w += sign * (f, (x - org) x f): the force f (N) acting at world point x (m) added to a wrench
 * whose torque (N m) is taken about world point org (m); sign is 1 or -1. The one place this
 * arithmetic is written: the engines' contact wrenches and the force laws all add through it */
static inline void tc_wrench_add_at(tc_wrench *w, const double org[3], const double x[3],
                                    const double f[3], double sign) {
    double r[3], t[3];
    tc_v3_sub(r, x, org);
    tc_v3_cross(t, r, f);
    tc_v3_addscl(w->f, f, sign);
    tc_v3_addscl(w->t, t, sign);
}

/* w += (sign * f applied at world point p), torque taken about the body's COM */
static inline void tc_wrench_apply(tc_wrench *w, const tc_body_state *s, const double p[3],
                                   const double f[3], double sign) {
    tc_wrench_add_at(w, s->pos, p, f, sign);
}

/* 0 when every entry of x[n] is finite */
int tc_nonfinite(const double *x, int n);

#ifdef __cplusplus
}
#endif

#endif
