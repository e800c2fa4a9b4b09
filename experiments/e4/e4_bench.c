/* SPDX-License-Identifier: MIT */
/* touche bench penalty: the speed study's methods (E4's script: the LCP baseline, then the
 * multi-point penalty with RK4 and semi-implicit Euler) in steps per second on piles of growing
 * size, side by side in one run on one thread (the harness writes bench_penalty.csv) */
#include "experiments/e4/e4.h"
#include "exp/tc_bench.h"

#include <string.h>

enum { E4_BENCH_BODIES, E4_BENCH_STEPS };

/* E4 planned at its tier (full unless --tier: the piles settle for its pile.seconds), the speed
 * study's methods with the script's parameters, on the piles of --bodies */
static tc_status e4_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    e4_setup e;
    const tc_method *ref, *m[E4_MAXSPEED];
    int idx[E4_MAXSPEED];
    tc_status st = e4_read_setup(tc_exp_script(x), &e, err);
    const char *missing = st ? NULL : e4_speed_methods(x, &e, &ref, m, idx);
    if (missing)
        st = tc_error_set(err, TC_EINVAL, tc_script_path(tc_exp_script(x)), 0, "speed.methods",
                          "the script must list the method '%s'", missing);
    if (st) return st;
    const tc_bench_val *bodies = &o->v[E4_BENCH_BODIES];
    e.d_n = bodies->n;
    e.d_steps = o->v[E4_BENCH_STEPS].list[0];
    memcpy(e.d_sizes, bodies->list, (size_t)bodies->n * sizeof *e.d_sizes);
    e4_speed_row rows[E4_MAXPILE];
    if ((st = e4_speed(&e, ref, m, e.d_nlabel, rows, err))) return st;
    /* a column of steps/s per method, then each one's ratio to the baseline (the first) */
    static const tc_col head[] = {{.csv = "bodies", .fmt = "%.0f"},
                                  {.csv = "touching_pairs", .fmt = "%.0f"},
                                  {.csv = "baseline_contacts", .fmt = "%.0f"},
                                  {.csv = "penalty_contacts", .fmt = "%.4g"}};
    tc_bench_columns(t, head, 4);
    for (int i = 0; i < e.d_nlabel; i++)
        tc_bench_column(t, "%.6g", "%s_steps_s", e.d_label[i]);
    for (int i = 1; i < e.d_nlabel; i++)
        tc_bench_column(t, "%.4g", "%s_over_%s", e.d_label[i], e.d_label[0]);
    tc_bench_column(t, "%.0f", "baseline_iters");
    tc_bench_column(t, "%.0f", "baseline_failed");
    for (int r = 0; r < e.d_n; r++) {
        const e4_speed_row *w = &rows[r];
        tc_cell c[6 + 2 * E4_MAXSPEED] = {TC_NUM(w->bodies), TC_NUM(w->pairs),
                                          TC_NUM(w->lcp_contacts), TC_NUM(w->contacts[1])};
        int n = 4;
        for (int i = 0; i < e.d_nlabel; i++)
            c[n++] = TC_NUM(w->steps_s[i]);
        for (int i = 1; i < e.d_nlabel; i++)
            c[n++] = TC_NUM(w->steps_s[0] > 0 ? w->steps_s[i] / w->steps_s[0] : 0);
        c[n++] = TC_NUM(w->iters[0]);
        c[n++] = TC_NUM(w->failed[0]);
        tc_bench_put(t, c);
    }
    return TC_OK;
}

static const tc_bench_opt e4_bench_opts[] = {
    [E4_BENCH_BODIES] =
        TC_BENCH_OPT_INTS("--bodies", 1, 1000, E4_MAXPILE, "2,4,8,16,24", "pile sizes"),
    [E4_BENCH_STEPS] =
        TC_BENCH_OPT_INT("--steps", 1, 10000000, "200", "steps timed per method and pile"),
    TC_BENCH_OPT_TIER("full", "E4's tier: its methods' parameters and how long a pile settles"),
    {0},
};

const tc_bench_def e4_bench = {.tier = "full",
                               .csv = "bench_penalty.csv",
                               .opts = e4_bench_opts,
                               .threads = 1,
                               .run = e4_bench_run};
