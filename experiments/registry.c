/* SPDX-License-Identifier: MIT */
/* the experiment registry: add one line here for a new experiment (in report order) */
#include "exp/tc_experiment.h"

#include <stddef.h>
#include <string.h>

extern const tc_experiment_type tc_experiment_e1;
extern const tc_experiment_type tc_experiment_e2;
extern const tc_experiment_type tc_experiment_e3;
extern const tc_experiment_type tc_experiment_e4;
extern const tc_experiment_type tc_experiment_e5;
extern const tc_experiment_type tc_experiment_e6;
extern const tc_experiment_type tc_experiment_e7;

const tc_experiment_type *const tc_experiments[] = {
    &tc_experiment_e1,
    &tc_experiment_e2,
    &tc_experiment_e3,
    &tc_experiment_e4,
    &tc_experiment_e5,
    &tc_experiment_e6,
    &tc_experiment_e7,
    NULL,
};

static tc_registry registry = {(const void *const *)tc_experiments,
                               offsetof(tc_experiment_type, name), "experiment", {NULL}, 0};

const tc_experiment_type *tc_experiment_at(int i) { return tc_registry_at(&registry, i); }

tc_status tc_experiment_register(const tc_experiment_type *t, tc_error *err) {
    return tc_registry_add(&registry, t, err);
}

const tc_experiment_type *tc_experiment_find(const char *name) {
    const tc_experiment_type *t = tc_registry_find(&registry, name);
    if (t) return t;
    /* "e1" is short for "e1_sphere_profiles" */
    size_t n = strlen(name);
    for (int i = 0; n && tc_experiment_at(i); i++)
        if (!strncmp(tc_experiment_at(i)->name, name, n) && tc_experiment_at(i)->name[n] == '_')
            return tc_experiment_at(i);
    return NULL;
}
