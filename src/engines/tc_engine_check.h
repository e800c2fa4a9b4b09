/* SPDX-License-Identifier: MIT */
/* the scene checks the ODE and Bullet adapters share before they build a world */
#ifndef TC_ENGINE_CHECK_H
#define TC_ENGINE_CHECK_H

#include "core/tc_status.h"
#include "dyn/tc_scene.h"

/* the step dt (s) finite and > 0, the gravity (m/s^2) finite, then body by body a known joint
 * and a shape type in shapes (the adapter's TC_SHAPE_BIT mask); stops at the first failure.
 * Returns TC_EINVAL (dt, gravity) or TC_EUNSUP (joint) set in err, else TC_OK with *unsup the
 * first body whose shape is outside shapes (-1: none), which the adapter refuses in its own
 * words (TC_EUNSUP on "shape") */
tc_status tc_engine_check_scene(const tc_scene *sc, double dt, unsigned shapes, int *unsup,
                                tc_error *err);

#endif
