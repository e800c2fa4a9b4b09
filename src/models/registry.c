/* SPDX-License-Identifier: MIT */
/* the contact-model registry: add one line here for a new model */
#include "models/tc_model.h"

#include <stddef.h>

extern const tc_model_type tc_model_scm;
extern const tc_model_type tc_model_hunt_crossley;
extern const tc_model_type tc_model_pfc;
extern const tc_model_type tc_model_penalty_dp;
extern const tc_model_type tc_model_penalty_mp;
extern const tc_model_type tc_model_rigid;
extern const tc_model_type tc_model_convex;
extern const tc_model_type tc_model_points;

const tc_model_type *const tc_models[] = {
    &tc_model_scm,        &tc_model_hunt_crossley, &tc_model_pfc,
    &tc_model_penalty_dp, &tc_model_penalty_mp,    &tc_model_rigid,
    &tc_model_convex,     &tc_model_points,        NULL,
};

static tc_registry registry = {
    (const void *const *)tc_models, offsetof(tc_model_type, name), "model", {NULL}, 0};

const tc_model_type *tc_model_at(int i) {
    return tc_registry_at(&registry, i);
}
const tc_model_type *tc_model_find(const char *name) {
    return tc_registry_find(&registry, name);
}
tc_status tc_model_register(const tc_model_type *t, tc_error *err) {
    return tc_registry_add(&registry, t, err);
}
