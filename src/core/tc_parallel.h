/* SPDX-License-Identifier: MIT */
/* threads for kernels inside one run: the whole process outside a sweep, and inside a sweep the
 * run's own thread plus its share of the sweep's threads that have no item left to start */
#ifndef TC_PARALLEL_H
#define TC_PARALLEL_H

/* the team size an inner parallel region (a model's kernel) may ask for now: outside any parallel
 * region OpenMP's maximum (touche run's --threads); inside a sweep 1 + (the sweep's idle threads)
 * / (its running items), so the last long items of a sweep take over the threads that finished;
 * in any other parallel region 1. A kernel that asks must give the same bits for any team size
 * (the thread count never changes results) */
int tc_par_threads(void);

/* the sweep's bookkeeping, for the runner (src/exp/runner.c) only: begin before its parallel
 * region (allows one nested level), start / finish around each item, idle when a thread finds no
 * item left, end after the region (restores the nesting level) */
void tc_par_sweep_begin(void);
void tc_par_sweep_start_item(void);
void tc_par_sweep_finish_item(void);
void tc_par_sweep_idle(void);
void tc_par_sweep_end(void);

#endif
