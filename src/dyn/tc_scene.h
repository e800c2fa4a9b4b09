/* SPDX-License-Identifier: MIT */
/* scene description: bodies (shape, mass, joint, initial state), gravity, friction */
#ifndef TC_SCENE_H
#define TC_SCENE_H

#include "core/tc_status.h"
#include "geom/tc_shape.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* bodies in a scene: 1,000-body piles plus the ground and walls. A tc_scene is a value type
 * (copied, kept on the stack, also in OpenMP worker threads), so its size matters: a body is
 * 944 B (a polytope's hull is shared, not inline: tc_hull), a scene 0.97 MB (966,696 B; with
 * the hull inline it was 3,936 B a body and 0.50 MB at 128 bodies, 4.0 MB at 1024). Arrays per
 * body elsewhere (tc_system 16 kB, the adapters' maps) stay small or live on the heap */
#define TC_SCENE_MAXBODY 1024
#define TC_PATH_MAX      16 /* waypoints of a kinematic body's path */

/* how a body moves */
typedef enum tc_joint_type {
    TC_JOINT_FIXED = 0, /* welded to the world: no degrees of freedom */
    TC_JOINT_FREE,      /* 6 DOF: position + orientation */
    TC_JOINT_PLANAR,    /* 3 DOF: x, y and a rotation theta about the world z axis; the height and
                         * the tilt stay as given in pos and quat */
    TC_JOINT_KINEMATIC, /* no DOF: the COM follows the prescribed path (path_n, path_dt, path),
                         * orientation fixed at quat; an external agent, not part of the state */
    TC_JOINT_COUNT
} tc_joint_type;

/* one rigid body; pose and twist are the initial state, in the world frame */
typedef struct tc_body_desc {
    char name[32];
    tc_shape shape;
    tc_joint_type joint;
    double mass;       /* kg (ignored for fixed bodies) */
    double inertia[3]; /* principal moments about the body axes at the COM (kg m^2) */
    double pos[3];     /* COM position (m) */
    double quat[4];    /* orientation, unit quaternion (w, x, y, z) */
    double vel[3];     /* COM velocity (m/s) */
    double omega[3];   /* angular velocity (rad/s), world frame */
    /* per degree of freedom, in the order of the body's v (free: vel x y z, omega x y z; planar:
     * x, y, theta): viscous damping (N s/m or N m s/rad), and the gain of a position servo
     * kp (q_target - q) (N/m or N m/rad; planar joints only, 0 = none; targets: tc_sim_ctrl) */
    double damping[6];
    double kp[6];
    /* kinematic bodies: COM waypoints path[i] (m) at times i * path_dt (s), i < path_n, joined by
     * straight lines; the last point is held after the end (and the first before t = 0).
     * tc_scene_add sets pos and vel to the path at t = 0 and omega to 0 */
    int path_n;
    double path_dt;
    double path[TC_PATH_MAX][3];
} tc_body_desc;

typedef struct tc_scene {
    int nbody;
    tc_body_desc body[TC_SCENE_MAXBODY];
    double gravity[3]; /* m/s^2 */
    double friction;   /* Coulomb coefficient for every pair (1) */
} tc_scene;

/* an empty scene: no bodies, zero gravity, friction 0.5. Fine to initialise a new scene
 * (tc_scene s = tc_default_scene()); to reset an existing one (*s = ..., r->scene = ...) use
 * tc_scene_init, since an assignment makes a scene-sized temporary on the stack */
tc_scene tc_default_scene(void);

/* the same empty scene written in place into s */
void tc_scene_init(tc_scene *s);

/* a body of the given shape at the origin, identity orientation, at rest, fixed */
tc_body_desc tc_default_body(const char *name, tc_shape shape);

/* append a body; sets mass and inertia from density (kg/m^3) when density > 0. A kinematic
 * body needs path_n in [1, TC_PATH_MAX], path_dt > 0 when path_n > 1, finite waypoints, and no
 * servos or damping; it needs no mass */
tc_status tc_scene_add(tc_scene *s, const tc_body_desc *b, double density, tc_error *err);

/* COM position (m) and velocity (m/s) of a kinematic body's path at time t (s): linear between
 * waypoints, velocity the slope of the segment [i path_dt, (i + 1) path_dt) that holds t; before
 * t = 0 the first point and after the end the last point, at rest. vel may be NULL */
void tc_body_path(const tc_body_desc *b, double t, double pos[3], double vel[3]);

/* index of a body by name, or -1 */
int tc_scene_find(const tc_scene *s, const char *name);

/* body pairs that can touch (not both fixed; kinematic bodies move, so they pair with fixed and
 * kinematic bodies too), in a fixed order; returns their number.
 * pairs must hold 2 * nbody * (nbody - 1) / 2 ints (about 1M, 4 MB, for 1024 bodies: allocate
 * it, never on the stack) */
int tc_scene_pairs(const tc_scene *s, int *pairs);

/* mask of the shape types used in the scene */
unsigned tc_scene_shapes(const tc_scene *s);

#ifdef __cplusplus
}
#endif

#endif
