/* SPDX-License-Identifier: MIT */
/* E5 (dropped polytopes): setup, the seeded drops and their scenes, shared by the driver and
 * the tests */
#ifndef TC_E5_H
#define TC_E5_H

#include "experiments/e56/e56.h"

typedef struct e5_setup {
    e56_polygon poly;
    e56_grid grid;
    double gravity, friction; /* m/s^2, Coulomb coefficient */
    double thickness;         /* half thickness of the prism along z (m) */
    int ndrop, seed;          /* drops; drop i draws from seed + i */
    /* initial conditions of A's origin, U[lo, hi] each: x (m, lo = hi = 0), y (m), theta (rad),
     * vx, vy (m/s), omega (rad/s) */
    double lo[6], hi[6];
    /* at rest face down: speed (m/s), spin (rad/s), the lowest two vertices' height gap (m) */
    double rest_speed, rest_spin, rest_level;
    /* the angle (rad) by which the scene turns A's frame into the body's principal axes */
    double phi;
} e5_setup;

tc_status e5_read_setup(const tc_script *s, e5_setup *e, tc_error *err);

/* drop i's initial conditions (x, y, theta, vx, vy, omega) from its own seed */
void e5_initial(const e5_setup *e, int drop, double ic[6]);

/* drop i's scene: the 2-D ground and the polygon with A's origin at (x, y), turned by theta */
tc_status e5_scene(const e5_setup *e, int drop, tc_scene *sc, tc_error *err);

/* the study the sweep runs: ndrop scenes, their velocities, the rest check */
e56_study e5_study(const e5_setup *e);

#endif
