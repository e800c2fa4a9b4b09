/* SPDX-License-Identifier: MIT */
/* the built-in experiments: add one line here for a new experiment (in report order); the
 * program hands this table to the runner (tc_experiment_catalog) */
#include "experiments/tc_experiments.h"

#include <stddef.h>

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
