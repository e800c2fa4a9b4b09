/* SPDX-License-Identifier: MIT */
/* touche bench e2: the timed method's Euler step on E2's T against AOPC points, beside the
 * reference engine's, in one run (the harness writes bench_e2.csv) */
#include "experiments/e2/e2.h"
#include "exp/tc_bench.h"
#include "report/tc_report.h"

#include <math.h>
#include <string.h>

/* E2 planned at its full tier: its timed method and reference with the script's parameters */
static tc_status e2_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    static const double spacings[] = {0.08, 0.04, 0.02, 0.01, 0.0047};
    enum { N = sizeof spacings / sizeof spacings[0] };
    e2_setup e;
    tc_scene sc;
    e2_traj tr[E2_MAXTRAJ];
    int ntr, points[N], timed = -1, ref = -1, g = 0;
    double ms[N], ref_s;
    tc_method a, b;
    char path[1200];
    tc_status st = e2_read_setup(tc_exp_script(x), &e, err);
    if (!st) {
        timed = tc_exp_method_find(x, e.timing);
        ref = tc_exp_method_find(x, e.reference);
        while (g < e.ninteg && strcmp(e.integ[g].name, e.timing_integ))
            g++;
        if (timed < 0 || ref < 0)
            st = tc_error_set(err, TC_EINVAL, "experiments/e2/e2_t_pushing.cfg", 0, "compare",
                              "the script must list the methods '%s' and '%s'", e.timing,
                              e.reference);
    }
    if (!st) st = tc_scene_t_pusher(&sc, &e.scene, err);
    if (!st) snprintf(path, sizeof path, "%s/%s", tc_source_dir(), e.trajectories);
    if (!st) st = e2_read_trajectories(path, &e, tr, &ntr, err);
    if (!st) st = e2_configure(tc_exp_method(x, timed), &e, g, -1, &a, err);
    if (!st) st = e2_configure(tc_exp_method(x, ref), &e, g, -1, &b, err);
    /* the whole trajectory, as E2's own timing (the contact phase costs more than the approach);
     * --seconds limits the simulated time */
    if (st) return st;
    int steps = (int)lround(fmin(e.duration, o->seconds) / 0.002);
    if ((st = e2_step_times(&e, &sc, &a, &b, &tr[0], 0.002, steps, spacings, N, points, ms, &ref_s,
                            err)))
        return st;
    /* the columns name the methods' specs */
    tc_bench_column(t, "%.0f", "points");
    tc_bench_column(t, "%.4f", "%s_us", a.spec);
    tc_bench_column(t, "%.4f", "%s_us", b.spec);
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
