/* SPDX-License-Identifier: MIT */
/* idle sweep threads lent to the items still running (docs/architecture.md, parallel sweeps) */
#include "core/tc_parallel.h"

#include <omp.h>

/* the sweep in progress: whether one is, its running items, its threads with nothing to start */
static int sweep_on, sweep_running, sweep_idle, saved_levels;

int tc_par_threads(void) {
    /* the level, not omp_in_parallel: a sweep on one thread is an inactive region, still a sweep */
    if (omp_get_level() == 0) return omp_get_max_threads();
    int on, running, idle;
#pragma omp atomic read
    on = sweep_on;
    if (!on || omp_get_level() != 1) return 1;
#pragma omp atomic read
    running = sweep_running;
#pragma omp atomic read
    idle = sweep_idle;
    return running > 0 ? 1 + idle / running : 1;
}

void tc_par_sweep_begin(void) {
    saved_levels = omp_get_max_active_levels();
    if (saved_levels < 2) omp_set_max_active_levels(2);
    sweep_running = sweep_idle = 0;
#pragma omp atomic write
    sweep_on = 1;
}

void tc_par_sweep_start_item(void) {
#pragma omp atomic
    sweep_running++;
}

void tc_par_sweep_finish_item(void) {
#pragma omp atomic
    sweep_running--;
}

void tc_par_sweep_idle(void) {
#pragma omp atomic
    sweep_idle++;
}

void tc_par_sweep_end(void) {
#pragma omp atomic write
    sweep_on = 0;
    omp_set_max_active_levels(saved_levels);
}
