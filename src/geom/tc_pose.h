/* SPDX-License-Identifier: MIT */
/* a posed shape's pose and twist: what the narrow phase and the force laws see of a body */
#ifndef TC_POSE_H
#define TC_POSE_H

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* world-frame pose and twist of one body (fixed and kinematic bodies too) */
typedef struct tc_body_state {
    double pos[3];   /* COM position (m) */
    double quat[4];  /* orientation (w, x, y, z) */
    double R[9];     /* rotation matrix body -> world, row-major */
    double vel[3];   /* COM velocity (m/s) */
    double omega[3]; /* angular velocity, world frame (rad/s) */
} tc_body_state;

#ifdef __cplusplus
}
#endif

#endif
