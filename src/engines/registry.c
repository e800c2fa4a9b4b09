/* SPDX-License-Identifier: MIT */
/* the engine registry: add one line here for a new engine adapter (and, for one that is
 * optional at build time, its TC_HAVE_ macro: meson.build, meson_options.txt) */
#include "engines/tc_engine.h"
#include "tc_config.h"

#include <stddef.h>

extern const tc_engine_type tc_engine_mujoco;
extern const tc_engine_type tc_engine_ode;
extern const tc_engine_type tc_engine_bullet;

/* the adapters this build has, in order */
const tc_engine_type *const tc_engines[] = {
#if TC_HAVE_MUJOCO
    &tc_engine_mujoco,
#endif
#if TC_HAVE_ODE
    &tc_engine_ode,
#endif
#if TC_HAVE_BULLET
    &tc_engine_bullet,
#endif
    NULL,
};

/* and those it left out */
const char *const tc_engines_left_out[] = {
#if !TC_HAVE_MUJOCO
    "mujoco",
#endif
#if !TC_HAVE_ODE
    "ode",
#endif
#if !TC_HAVE_BULLET
    "bullet",
#endif
    NULL,
};

static tc_registry registry = {
    (const void *const *)tc_engines, offsetof(tc_engine_type, name), "engine", {NULL}, 0};

const tc_engine_type *tc_engine_at(int i) {
    return tc_registry_at(&registry, i);
}
const tc_engine_type *tc_engine_find(const char *name) {
    return tc_registry_find(&registry, name);
}
tc_status tc_engine_register(const tc_engine_type *t, tc_error *err) {
    return tc_registry_add(&registry, t, err);
}
