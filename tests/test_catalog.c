/* SPDX-License-Identifier: MIT */
/* every test program offers the built-in experiments to the runner, as the CLI's main does */
#include "experiments/tc_experiments.h"

__attribute__((constructor)) static void test_catalog(void) {
    tc_experiment_catalog(tc_experiments);
}
