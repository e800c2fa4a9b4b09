/* SPDX-License-Identifier: MIT */
/* the engine registry: add one line here for a new engine adapter */
#include "engines/tc_engine.h"

#include <stddef.h>

extern const tc_engine_type tc_engine_mujoco;
extern const tc_engine_type tc_engine_ode;
extern const tc_engine_type tc_engine_bullet;

const tc_engine_type *const tc_engines[] = {
    &tc_engine_mujoco,
    &tc_engine_ode,
    &tc_engine_bullet,
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
