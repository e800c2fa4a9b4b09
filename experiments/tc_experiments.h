/* SPDX-License-Identifier: MIT */
/* the experiments library (libtouche_experiments): the built-in experiments' table, which a
 * program hands to the runner once at start with tc_experiment_catalog(tc_experiments) */
#ifndef TC_EXPERIMENTS_H
#define TC_EXPERIMENTS_H

#include "exp/tc_experiment.h"

/* the built-in experiments in report order, NULL-terminated (experiments/registry.c) */
extern const tc_experiment_type *const tc_experiments[];

#endif
