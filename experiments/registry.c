/* SPDX-License-Identifier: MIT */
/* the built-in experiments' table, generated from the list in experiments/meson.build (one name
 * per folder, in report order; folder eN exports tc_experiment_eN); the program hands it to the
 * runner (tc_experiment_catalog) */
#include "experiments/tc_experiments.h"

#include <stddef.h>

#include "experiments/tc_experiment_list.h"

/* each folder's experiment */
#define TC_EXPERIMENT(name) extern const tc_experiment_type tc_experiment_##name;
TC_EXPERIMENT_LIST
#undef TC_EXPERIMENT

/* the table */
#define TC_EXPERIMENT(name) &tc_experiment_##name,
const tc_experiment_type *const tc_experiments[] = {TC_EXPERIMENT_LIST NULL};
#undef TC_EXPERIMENT
