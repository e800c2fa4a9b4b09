/* SPDX-License-Identifier: MIT */
/* threads for kernels inside one run: the whole process outside a sweep, and inside a sweep the
 * run's own thread plus its share of the sweep's threads that have no item left to start and of
 * the threads other MPI ranks on the same machine lend while they wait */
#ifndef TC_PARALLEL_H
#define TC_PARALLEL_H

/* the team size an inner parallel region (a model's kernel) may ask for now: outside any parallel
 * region OpenMP's maximum (touche run's --threads); inside a sweep 1 + (the sweep's idle threads)
 * / (its running items), so the last long items of a sweep take over the threads that finished;
 * in any other parallel region 1. Over MPI ranks, the threads that ranks on this machine lend while
 * they wait (tc_par_node_wait) join the idle ones, shared out among the ranks still working and
 * only onto CPUs this process may use beyond its own threads. A kernel that asks must give the
 * same bits for any team size (the thread count never changes results) */
int tc_par_threads(void);

/* the sweep's bookkeeping, for the runner (src/exp/runner.c) only: begin before its parallel
 * region of `threads` threads (allows one nested level), start / finish around each item, idle when
 * a thread finds no item left, end after the region (restores the nesting level) */
void tc_par_sweep_begin(int threads);
void tc_par_sweep_start_item(void);
void tc_par_sweep_finish_item(void);
void tc_par_sweep_idle(void);
void tc_par_sweep_end(void);

/* the ranks of one machine (MPI, src/exp/runner_mpi.c): counters in memory they all map */
typedef struct tc_par_node {
    int idle;   /* threads of this machine's ranks that wait for a message (lent) */
    int active; /* this machine's ranks that do not wait */
    /* a split sweep's items on this machine, taken by its ranks in turn and finished: each a
     * sweep's key (high 32 bits) and its count (low 32), so a new sweep needs no reset */
    unsigned long long taken, finished;
} tc_par_node;

/* this process's machine's counters (NULL: no lending, the default); set once after MPI starts */
void tc_par_node_share(tc_par_node *shared);

/* this rank waits for a message (its threads lent) / works again (its threads taken back);
 * threads: the rank's own (--threads) */
void tc_par_node_wait(int threads);
void tc_par_node_resume(int threads);

/* sweep `key`'s count of items taken (tc_par_node_take) or finished (tc_par_node_finish) on
 * this machine before this call, and one more; a key other than the last one counts from 0 (every
 * rank of the machine must be done with a sweep before any starts the next); -1 without a node */
long tc_par_node_take(unsigned key);
long tc_par_node_finish(unsigned key);

/* the most threads other ranks lent this process since the last reset (reset: clear it); note
 * adds a count seen elsewhere (rank 0: a worker's, at the end of an experiment) */
int tc_par_node_lent_max(int reset);
void tc_par_node_lent_note(int lent);

#endif
