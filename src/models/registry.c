/* SPDX-License-Identifier: MIT */
/* the contact-model registry: add one line here for a new model */
#include "models/tc_model.h"

#include <string.h>

extern const tc_model_type tc_model_scm;
extern const tc_model_type tc_model_hunt_crossley;
extern const tc_model_type tc_model_pfc;
extern const tc_model_type tc_model_penalty_dp;
extern const tc_model_type tc_model_penalty_mp;

const tc_model_type *const tc_models[] = {
    &tc_model_scm,
    &tc_model_hunt_crossley,
    &tc_model_pfc,
    &tc_model_penalty_dp,
    &tc_model_penalty_mp,
    NULL,
};

const tc_model_type *tc_model_find(const char *name) {
    for (int i = 0; tc_models[i]; i++)
        if (strcmp(tc_models[i]->name, name) == 0) return tc_models[i];
    return NULL;
}
