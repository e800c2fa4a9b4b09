/* SPDX-License-Identifier: MIT */
/* touche bench e2: the timed method's Euler step on E2's T against AOPC points, beside the
 * reference engine's, in one run, written as CSV */
#include "experiments/e2/e2.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "report/tc_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int e2_bench(int argc, char **argv) {
    static const double spacings[] = {0.08, 0.04, 0.02, 0.01, 0.0047};
    const char *out = "out/bench";
    double seconds = 1e9;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            if (!tc_arg_real("touche bench e2", "--seconds", argv[++i], 1e-3, 1e9, &seconds)) return 2;
        } else {
            fprintf(stderr, "usage: touche bench e2 [--seconds S] [--out DIR]\n");
            return 2;
        }
    }
    /* E2 planned at its full tier: its timed method and reference with the script's parameters */
    char path[1200];
    const char *script = "experiments/e2/e2_t_pushing.cfg";
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_exp_plan_builtin(&x, "e2_t_pushing", "full", &err);
    if (st) return tc_bench_fail("e2", &err);
    e2_setup e;
    tc_scene sc;
    e2_traj tr[E2_MAXTRAJ];
    int ntr, points[5];
    double ms[5], ref_s;
    tc_method a, b;
    int timed = -1, ref = -1, g = 0;
    st = e2_read_setup(&x->script, &e, &err);
    if (!st) {
        timed = tc_exp_method_find(x, e.timing), ref = tc_exp_method_find(x, e.reference);
        while (g < e.ninteg && strcmp(e.integ[g].name, e.timing_integ)) g++;
        if (timed < 0 || ref < 0)
            st = tc_error_set(&err, TC_EINVAL, script, 0, "compare",
                              "the script must list the methods '%s' and '%s'", e.timing, e.reference);
    }
    snprintf(path, sizeof path, "%s/%s", tc_source_dir(), e.trajectories);
    if (!st) st = tc_scene_t_pusher(&sc, &e.scene, &err);
    if (!st) st = e2_read_trajectories(path, &e, tr, &ntr, &err);
    if (!st) st = e2_configure(&x->method[timed].m, &e, g, -1, &a, &err);
    if (!st) st = e2_configure(&x->method[ref].m, &e, g, -1, &b, &err);
    /* the whole trajectory, as E2's own timing (the contact phase costs more than the approach);
     * --seconds limits the simulated time */
    int steps = (int)lround(fmin(e.duration, seconds) / 0.002);
    if (!st) st = e2_step_times(&e, &sc, &a, &b, &tr[0], 0.002, steps, spacings, 5, points, ms, &ref_s, &err);
    tc_outfile f;
    if (!st) {
        tc_path_join(path, sizeof path, out, "bench_e2.csv");
        st = tc_outfile_open(&f, path, &err);
    }
    if (st) {
        tc_exp_free(x);
        return tc_bench_fail("e2", &err);
    }
    fprintf(f.f, "points,%s_us,%s_us,ratio\n", a.spec, b.spec);
    printf("%8s %18s %18s %8s\n", "points", a.spec, b.spec, "ratio");
    for (int i = 0; i < 5; i++) {
        fprintf(f.f, "%d,%.4f,%.4f,%.4g\n", points[i], 1e6 * ms[i], 1e6 * ref_s, ms[i] / ref_s);
        printf("%8d %15.2f us %15.2f us %8.3g\n", points[i], 1e6 * ms[i], 1e6 * ref_s, ms[i] / ref_s);
    }
    tc_exp_free(x);
    if (tc_outfile_commit(&f, &err)) return fprintf(stderr, "touche bench e2: %s\n", err.msg), 1;
    printf("wrote %s\n", path);
    return 0;
}
