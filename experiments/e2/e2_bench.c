/* SPDX-License-Identifier: MIT */
/* touche bench e2: the timed method's Euler step on E2's T against AOPC points, beside the
 * reference engine's, in one run (the harness writes bench_e2.csv) */
#include "experiments/e2/e2.h"
#include "exp/tc_bench.h"
#include "report/tc_report.h"

#include <math.h>

/* E2 planned at its full tier: its timed method and reference with the script's parameters */
static tc_status e2_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    static const double spacings[] = {0.08, 0.04, 0.02, 0.01, 0.0047};
    enum { N = sizeof spacings / sizeof spacings[0] };
    e2_setup e;
    tc_scene sc;
    e2_traj tr[E2_MAXTRAJ];
    int ntr, points[N];
    double ms[N], ref_s;
    tc_method m[2];
    tc_status st = e2_load(tc_exp_script(x), tc_source_dir(), &e, &sc, tr, &ntr, err);
    if (st) return st;
    /* the whole trajectory, as E2's own timing (the contact phase costs more than the approach);
     * --seconds limits the simulated time */
    int steps = (int)lround(fmin(e.duration, o->seconds) / 0.002);
    if ((st = e2_step_times(x, &e, &sc, &tr[0], steps, spacings, N, points, ms, &ref_s, m, err)))
        return st;
    /* the columns name the methods' specs */
    tc_bench_column(t, "%.0f", "points");
    tc_bench_column(t, "%.4f", "%s_us", m[0].spec);
    tc_bench_column(t, "%.4f", "%s_us", m[1].spec);
    tc_bench_column(t, "%.4g", "ratio");
    for (int i = 0; i < N; i++)
        tc_bench_put(t, (tc_cell[]){TC_NUM(points[i]), TC_NUM(1e6 * ms[i]), TC_NUM(1e6 * ref_s),
                                    TC_NUM(ms[i] / ref_s)});
    return TC_OK;
}

static const tc_bench_opt e2_bench_opts[] = {
    TC_BENCH_OPT_REAL("--seconds", 1e-3, 1e9, NULL, "S",
                      "simulated seconds of trajectory 0 timed (default: the whole trajectory)"),
    {0},
};

const tc_bench_def e2_bench = {
    .tier = "full", .csv = "bench_e2.csv", .opts = e2_bench_opts, .run = e2_bench_run};
