/* SPDX-License-Identifier: MIT */
/* shared by the geometry tests: a body state from a position and an axis-angle rotation */
#ifndef TC_TEST_POSE_H
#define TC_TEST_POSE_H

#include <math.h>
#include <string.h>

#include "dyn/tc_system.h"
#include "math/tc_vec.h"

/* pose at (x, y, z) (m), turned by ang (rad) about the axis (ax, ay, az); at rest */
static inline tc_body_state pose(double x, double y, double z, double ax, double ay, double az,
                                 double ang) {
    tc_body_state s;
    memset(&s, 0, sizeof s);
    tc_v3_set(s.pos, x, y, z);
    double n = sqrt(ax * ax + ay * ay + az * az);
    s.quat[0] = cos(ang / 2);
    s.quat[1] = ax / n * sin(ang / 2);
    s.quat[2] = ay / n * sin(ang / 2);
    s.quat[3] = az / n * sin(ang / 2);
    tc_quat_to_mat(s.R, s.quat);
    return s;
}

#endif
