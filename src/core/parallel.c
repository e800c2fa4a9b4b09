/* SPDX-License-Identifier: MIT */
/* idle sweep threads lent to the items still running (docs/architecture.md, parallel sweeps), and
 * the threads of other MPI ranks on this machine while they wait (docs/mpi.md) */
#include "core/tc_parallel.h"

#include <omp.h>

/* the sweep in progress: whether one is, its running items, its threads with nothing to start */
static int sweep_on, sweep_running, sweep_idle, saved_levels;
/* this machine's ranks (memory they share; NULL without), the most threads they may lend this
 * process in the sweep now running, and the most it took in this experiment */
static tc_par_node *node;
static int node_cap, node_lent_max;

/* the threads the waiting ranks lend this process now (0 without ranks or spare CPUs) */
static int node_lent(void) {
    if (!node || node_cap <= 0) return 0;
    int idle = __atomic_load_n(&node->idle, __ATOMIC_RELAXED);
    int active = __atomic_load_n(&node->active, __ATOMIC_RELAXED);
    /* shared out among the ranks still working (this one among them) */
    int lent = active > 1 ? idle / active : idle;
    return lent < node_cap ? lent : node_cap;
}

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
    if (running <= 0) return 1;
    /* the sweep's own idle threads, then those other ranks lend */
    int lent = node_lent();
    tc_par_node_lent_note(lent);
    return 1 + (idle + lent) / running;
}

void tc_par_sweep_begin(int threads) {
    saved_levels = omp_get_max_active_levels();
    if (saved_levels < 2) omp_set_max_active_levels(2);
    sweep_running = sweep_idle = 0;
    /* lent threads only onto CPUs this process may use beyond its own threads (none when the
     * launcher bound it to as many cores as it has threads) */
    node_cap = omp_get_num_procs() - threads;
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

void tc_par_node_share(tc_par_node *shared) {
    node = shared;
}

void tc_par_node_wait(int threads) {
    if (!node) return;
    __atomic_add_fetch(&node->idle, threads, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&node->active, 1, __ATOMIC_RELAXED);
}

void tc_par_node_resume(int threads) {
    if (!node) return;
    __atomic_add_fetch(&node->active, 1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&node->idle, threads, __ATOMIC_RELAXED);
}

/* the count of sweep key in the tagged counter *c, moved on by one */
static long tagged_next(unsigned long long *c, unsigned key) {
    unsigned long long v = __atomic_load_n(c, __ATOMIC_RELAXED), nv;
    long k;
    do {
        k = (unsigned)(v >> 32) == key ? (long)(v & 0xffffffffu) : 0;
        nv = (unsigned long long)key << 32 | (unsigned long long)(k + 1);
    } while (!__atomic_compare_exchange_n(c, &v, nv, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED));
    return k;
}

long tc_par_node_take(unsigned key) {
    return node ? tagged_next(&node->taken, key) : -1;
}
long tc_par_node_finish(unsigned key) {
    return node ? tagged_next(&node->finished, key) : -1;
}

void tc_par_node_lent_note(int lent) {
    int seen = __atomic_load_n(&node_lent_max, __ATOMIC_RELAXED);
    while (lent > seen && !__atomic_compare_exchange_n(&node_lent_max, &seen, lent, 0,
                                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

int tc_par_node_lent_max(int reset) {
    int m = __atomic_load_n(&node_lent_max, __ATOMIC_RELAXED);
    if (reset) __atomic_store_n(&node_lent_max, 0, __ATOMIC_RELAXED);
    return m;
}
