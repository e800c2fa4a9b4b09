/* SPDX-License-Identifier: MIT */
/* the scene checks the ODE and Bullet adapters share (tc_scene_add already checked planes,
 * masses and servos) */
#include "engines/tc_engine_check.h"

#include <math.h>

tc_status tc_engine_check_scene(const tc_scene *sc, double dt, unsigned shapes, int *unsup,
                                tc_error *err) {
    *unsup = -1;
    /* the step and the gravity */
    if (!(isfinite(dt) && dt > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "dt", "must be > 0 s (got %g)", dt);
    for (int k = 0; k < 3; k++)
        if (!isfinite(sc->gravity[k]))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "gravity", "must be finite");
    /* body by body: a joint the adapters know, a shape the adapter can express */
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if ((unsigned)b->joint >= TC_JOINT_COUNT)
            return tc_error_set(err, TC_EUNSUP, NULL, 0, "joint",
                                "body '%s': unknown joint type %d", b->name, (int)b->joint);
        if ((unsigned)b->shape.type >= TC_SHAPE_COUNT || !(shapes & TC_SHAPE_BIT(b->shape.type))) {
            *unsup = i;
            return TC_OK;
        }
    }
    return TC_OK;
}
