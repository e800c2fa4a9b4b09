/* SPDX-License-Identifier: MIT */
/* the sweeps: work items over OpenMP threads (and MPI ranks), timed and folded into their
 * runs in item order */
#include "exp/exp_private.h"

#include <math.h>
#include <stddef.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

/* an item's place in the start order: decreasing cost, then item order */
typedef struct {
    double cost;
    int item;
} start_slot;

static int by_cost(const void *a, const void *b) {
    const start_slot *p = a, *q = b;
    if (p->cost != q->cost) return p->cost < q->cost ? 1 : -1;
    return (p->item > q->item) - (p->item < q->item);
}

/* CPU time (s) of this process and of its finished children (E3's CalculiX runs) */
static double cpu_time(void) {
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    const struct timeval t[4] = {self.ru_utime, self.ru_stime, kids.ru_utime, kids.ru_stime};
    double s = 0;
    for (int k = 0; k < 4; k++)
        s += (double)t[k].tv_sec + 1e-6 * (double)t[k].tv_usec;
    return s;
}

tc_status tc_exp_sweep(tc_exp *x, int n, const int *item_run, tc_item_fn fn, void *ctx) {
    return tc_exp_sweep_split(x, n, item_run, NULL, fn, NULL, ctx);
}

tc_status tc_exp_sweep_costed(tc_exp *x, int n, const int *item_run, const double *cost,
                              tc_item_fn fn, void *ctx) {
    return tc_exp_sweep_split(x, n, item_run, cost, fn, NULL, ctx);
}

/* run the items whose flag in run[] is set, on the threads, in the start order, each writing
 * only its own slot and setting ran[i]; a thread with no item left to start lends itself to the
 * items still running (tc_par_threads). With a key (not 0) the ranks of this machine take the
 * items from one queue (the same run[] on each) and count them done together */
static void run_items(tc_exp *x, int n, const start_slot *order, const unsigned char *run,
                      const int *item_run, tc_item_fn fn, void *ctx, tc_item *it, double *wall,
                      tc_progress *prog, unsigned key, unsigned char *ran) {
    /* the items to run, in the start order */
    int *todo = malloc(((size_t)n + 1) * sizeof *todo), nt = 0, next = 0;
    if (!todo) {
        for (int i = 0; i < n; i++)
            if (run[i]) {
                it[i].status = TC_ENOMEM;
                snprintf(it[i].reason, sizeof it[i].reason, "out of memory");
            }
        return;
    }
    for (int k = 0; k < n; k++)
        if (run[order[k].item]) todo[nt++] = order[k].item;
    tc_par_sweep_begin(x->threads);
#pragma omp parallel num_threads(x->threads)
    for (;;) {
        long k = key ? tc_par_node_take(key) : -1;
        if (k < 0) {
#pragma omp atomic capture
            k = next++;
        }
        if (k >= nt) {
            tc_par_sweep_idle();
            break;
        }
        int i = todo[k];
        ran[i] = 1;
        it[i].run = item_run ? item_run[i] : i;
        if (tc_interrupted()) {
            it[i].status = TC_EINTR;
            continue;
        }
        tc_par_sweep_start_item();
        double t0 = tc_wall_time();
        /* --dump-problems names the run's files by experiment and run */
        char label[96];
        snprintf(label, sizeof label, "%s-run%04d", x->name, it[i].run);
        tc_sim_dump_label(label);
        fn(ctx, i, &it[i]);
        tc_sim_dump_label(NULL);
        wall[i] = tc_wall_time() - t0;
        tc_par_sweep_finish_item();
        long done = key ? tc_par_node_finish(key) : -1;
        if (done < 0)
            tc_progress_tick(prog);
        else
            tc_progress_to(prog, done + 1);
    }
    tc_par_sweep_end();
    free(todo);
}

/* a sweep's scratch, one block: per item its report, wall time (s), start slot, the rank that
 * ran it, and flags (this rank's, rerun by rank 0, ran here) */
typedef struct sweep_work {
    tc_item *it;
    double *wall;
    start_slot *order;
    int *by;
    unsigned char *mine, *redo, *ran;
} sweep_work;

/* the scratch for n items, zeroed; NULL pointers when out of memory */
static void *sweep_alloc(sweep_work *w, int n) {
    const size_t m = (size_t)n + 1;
    const size_t bytes =
        m * (sizeof *w->it + sizeof *w->wall + sizeof *w->order + sizeof *w->by + 3);
    char *p = calloc(1, bytes);
    if (!p) return NULL;
    /* the widest first, so each array stays aligned */
    w->it = (tc_item *)p;
    w->wall = (double *)(w->it + m);
    w->order = (start_slot *)(w->wall + m);
    w->by = (int *)(w->order + m);
    w->mine = (unsigned char *)(w->by + m);
    w->redo = w->mine + m;
    w->ran = w->redo + m;
    return p;
}

/* over several ranks a sweep with regions is split: in the start order, each item goes to the
 * machine with the least cost per rank so far (the lowest such machine; without costs 1 each), a
 * rule of the costs and the machines alone; the ranks of a machine take its items in the start
 * order from one queue, as threads do (each rank a machine of its own when they share no memory:
 * a fixed split). Marks this machine's items in mine; returns their count, -1 out of memory */
static int assign_machines(int n, const start_slot *order, int nmach, int here,
                           unsigned char *mine) {
    double *load = calloc((size_t)nmach, sizeof *load);
    if (!load) return -1;
    int count = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k].item, m = 0;
        for (int q = 1; q < nmach; q++)
            if (load[q] * tc_ranks_machine_size(m) < load[m] * tc_ranks_machine_size(q)) m = q;
        load[m] += order[k].cost > 0 && order[k].cost < HUGE_VAL ? order[k].cost : 1;
        count += mine[i] = m == here;
    }
    free(load);
    return count;
}

/* on rank 0 after the gather: who ran how many items, and the items no rank ran (a worker left
 * early), marked in redo; returns their count */
static int report_split(const tc_exp *x, int n, int nrank, const int *by, unsigned char *redo) {
    char line[512];
    int len = snprintf(line, sizeof line, "touche: %s: sweep %d split over %d ranks:", x->name,
                       x->nsweep + 1, nrank);
    int nredo = 0;
    for (int r = 0; r < nrank && len < (int)sizeof line - 16; r++) {
        int c = 0;
        for (int i = 0; i < n; i++)
            c += by[i] == r;
        len += snprintf(line + len, sizeof line - (size_t)len, "%s%d", r ? ", " : " ", c);
    }
    for (int i = 0; i < n; i++)
        nredo += redo[i] = by[i] < 0;
    if (nredo)
        snprintf(line + len, sizeof line - (size_t)len, " items, and rank 0 the %d no rank ran",
                 nredo);
    else
        snprintf(line + len, sizeof line - (size_t)len, " items");
    fprintf(stderr, "%s\n", line);
    return nredo;
}

tc_status tc_exp_sweep_split(tc_exp *x, int n, const int *item_run, const double *cost,
                             tc_item_fn fn, tc_item_regions_fn regions, void *ctx) {
    sweep_work w;
    void *block = sweep_alloc(&w, n);
    if (!block) return TC_ENOMEM;
    /* the start order: the costliest items first (NaN or no costs: item order) */
    for (int i = 0; i < n; i++)
        w.order[i] = (start_slot){cost && cost[i] == cost[i] ? cost[i] : 0, i};
    if (cost) qsort(w.order, (size_t)n, sizeof *w.order, by_cost);
    /* split over the ranks when the items' results are declared; else whole on every rank
     * (correct, not faster) */
    const int nrank = x->nrank > 1 ? x->nrank : 1, split = nrank > 1 && regions;
    if (nrank > 1 && !regions && x->rank == 0)
        fprintf(stderr,
                "touche: %s: sweep %d is not split over the %d ranks (its items' results "
                "are not declared, docs/mpi.md): every rank runs its %d items\n",
                x->name, x->nsweep + 1, nrank, n);
    const int nmach = split ? tc_ranks_machines() : 1,
              here = split ? tc_ranks_machine_of(x->rank) : 0;
    const int count = assign_machines(n, w.order, nmach, here, w.mine);
    if (count < 0) {
        free(block);
        return TC_ENOMEM;
    }
    /* one queue for the machine's ranks: this sweep's key, the same on each (0: none) */
    const unsigned key = split && tc_ranks_machine_size(here) > 1
                             ? (x->ordinal << 16 | ((unsigned)x->nsplit & 0xffffu)) + 1u
                             : 0;
    /* progress on rank 0 only, for its machine's items */
    tc_progress prog;
    const double cpu0 = cpu_time();
    tc_progress_start(&prog, x->name, count);
    if (x->rank > 0) prog.enabled = 0;
    /* every item of this rank in parallel; each writes only its own slot */
    run_items(x, n, w.order, w.mine, item_run, fn, ctx, w.it, w.wall, &prog, key, w.ran);
    /* the results meet on rank 0 (which runs those of a rank that left), then go to every rank */
    tc_status st = TC_OK;
    if (split) {
        tc_ranks_gather(x, n, w.ran, w.it, w.wall, regions, ctx, w.by);
        if (x->rank == 0 && report_split(x, n, nrank, w.by, w.redo))
            run_items(x, n, w.order, w.redo, item_run, fn, ctx, w.it, w.wall, &prog, 0, w.ran);
        st = tc_ranks_share(x, n, w.it, w.wall, regions, ctx);
        x->nsplit++;
    }
    x->nsweep++;
    tc_progress_end(&prog);
    /* how busy the threads were: the process's CPU time against the sweep's wall time (with the
     * idle threads lent to the last items, the items' own wall times no longer tell); over MPI
     * this rank's alone */
    x->sweep_wall_s += tc_wall_time() - prog.t0;
    x->sweep_items += n;
    x->sweep_cpu_s += cpu_time() - cpu0;
    /* fold the items into their runs in item order (so the first failure is the same for any
     * number of threads and ranks) */
    for (int i = 0; i < n && !st; i++) {
        tc_exp_record(x, w.it[i].run, w.it[i].status, w.it[i].reason, w.it[i].steps, w.wall[i]);
        tc_exp_record_residuals(x, w.it[i].run, &w.it[i].resid);
    }
    free(block);
    if (st) return st;
    return tc_interrupted() ? TC_EINTR : TC_OK;
}

int tc_exp_writer(const tc_exp *x) {
    return x->rank == 0;
}

int tc_series_regions(tc_series *s, tc_region *r) {
    int nr = 0;
    double *arr[3] = {s->ke, s->pen, s->mom};
    for (int k = 0; k < 3; k++)
        if (arr[k]) r[nr++] = (tc_region){arr[k], (size_t)s->n * sizeof(double)};
    /* the summary: every field from steps on (n and the pointers stay as they are) */
    r[nr++] = (tc_region){&s->steps, sizeof *s - offsetof(tc_series, steps)};
    return nr;
}
