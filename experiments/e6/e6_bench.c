/* SPDX-License-Identifier: MIT */
/* touche bench contact-ip: E6's falling block, the time of every step of every method that can
 * run it (single-level and bilevel beside the others), one after the other on one thread in one
 * run (the harness writes bench_contact_ip.csv), with the ratio of the script's speed.ratio_num
 * over speed.ratio_den */
#include "experiments/e6/e6.h"
#include "exp/tc_bench.h"

#include <math.h>
#include <stdlib.h>

enum { E6_BENCH_STEPS, E6_BENCH_RATE };

static const tc_col e6_bench_cols[] = {
    {.csv = "label"},
    {.csv = "spec"},
    {.csv = "steps", .fmt = "%.0f"},
    {.csv = "failed", .fmt = "%.0f"},
    {.csv = "mean_s", .fmt = "%.6g"},
    {.csv = "median_s", .fmt = "%.6g"},
    {.csv = "p90_s", .fmt = "%.6g"},
    {.csv = "iters_per_step", .fmt = "%.6g"},
    {.csv = "rate_hz", .fmt = "%g"},
};

/* the rows, why each failed method's times are no timing of it, and the ratio */
static void e6_bench_table(const tc_exp *x, const e6_setup *e, const e6_speed_row *rows,
                           tc_bench_table *t) {
    tc_bench_columns(t, e6_bench_cols, sizeof e6_bench_cols / sizeof e6_bench_cols[0]);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const e6_speed_row *r = &rows[k];
        tc_bench_put(t, (tc_cell[]){TC_TEXT(tc_exp_label(x, k)), TC_TEXT(tc_exp_method(x, k)->spec),
                                    TC_NUM(r->steps), TC_NUM(r->failed), TC_NUM(r->mean_s),
                                    TC_NUM(r->median_s), TC_NUM(r->p90_s),
                                    TC_NUM(r->iters_per_step), TC_NUM(e->speed_rate)});
        if (r->failed) tc_bench_note(t, "%s failed: %s", tc_exp_label(x, k), r->reason);
    }
    const double ratio = e6_speed_ratio(x, e, rows);
    if (!isnan(ratio))
        tc_bench_note(t, "%s / %s median step time: %.3g (paper: about 30)", e->ratio_num,
                      e->ratio_den, ratio);
    else
        tc_bench_note(t, "%s / %s: needs both methods in the script, run to a sound outcome",
                      e->ratio_num, e->ratio_den);
}

/* E6 planned at its full tier: every method that can run it, with the script's parameters */
static tc_status e6_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    e6_setup e;
    tc_status st = e6_read_setup(tc_exp_script(x), &e, err);
    e.speed_steps = o->v[E6_BENCH_STEPS].list[0];
    if (o->v[E6_BENCH_RATE].text) e.speed_rate = o->v[E6_BENCH_RATE].real;
    e6_speed_row *rows = calloc((size_t)tc_exp_nmethod(x) + 1, sizeof *rows);
    if (!st && !rows) st = TC_ENOMEM;
    if (!st) st = e6_speed(&e, x, rows, err);
    if (!st) e6_bench_table(x, &e, rows, t);
    free(rows);
    return st;
}

static const tc_bench_opt e6_bench_opts[] = {
    [E6_BENCH_STEPS] = TC_BENCH_OPT_INT("--steps", 1, 10000000, "20000", "steps timed per method"),
    [E6_BENCH_RATE] = TC_BENCH_OPT_REAL("--rate", 1e-3, 1e6, NULL, "HZ",
                                        "steps per second (default: the script's speed.rate)"),
    {0},
};

const tc_bench_def e6_bench = {.tier = "full",
                               .csv = "bench_contact_ip.csv",
                               .opts = e6_bench_opts,
                               .threads = 1,
                               .run = e6_bench_run};
