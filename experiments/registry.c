/* SPDX-License-Identifier: MIT */
/* the experiment registry: add one line here for a new experiment */
#include "exp/tc_experiment.h"

#include <string.h>

extern const tc_experiment_type tc_experiment_e1;
extern const tc_experiment_type tc_experiment_e2;
extern const tc_experiment_type tc_experiment_e3;
extern const tc_experiment_type tc_experiment_e4;

const tc_experiment_type *const tc_experiments[] = {
    &tc_experiment_e1,
    &tc_experiment_e2,
    &tc_experiment_e3,
    &tc_experiment_e4,
    NULL,
};

const tc_experiment_type *tc_experiment_find(const char *name) {
    for (int i = 0; tc_experiments[i]; i++)
        if (strcmp(tc_experiments[i]->name, name) == 0) return tc_experiments[i];
    /* "e1" is short for "e1_sphere_profiles" */
    size_t n = strlen(name);
    for (int i = 0; tc_experiments[i]; i++)
        if (n && strncmp(tc_experiments[i]->name, name, n) == 0 && tc_experiments[i]->name[n] == '_')
            return tc_experiments[i];
    return NULL;
}
