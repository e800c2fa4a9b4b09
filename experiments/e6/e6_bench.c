/* SPDX-License-Identifier: MIT */
/* touche bench contact-ip: E6's falling block, the time of every step of every method that can
 * run it (single-level and bilevel beside the others), one after the other on one thread in one
 * run, written as CSV with the ratio of the script's speed.ratio_num over speed.ratio_den */
#include "experiments/e6/e6.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int e6_bench(int argc, char **argv) {
    const char *out = "out/bench";
    const char *who = "touche bench contact-ip";
    int steps = 20000;
    double rate = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            if (!tc_arg_int(who, "--steps", argv[++i], 1, 10000000, &steps)) return 2;
        } else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
            if (!tc_arg_real(who, "--rate", argv[++i], 1e-3, 1e6, &rate)) return 2;
        } else {
            fprintf(stderr, "usage: touche bench contact-ip [--steps N] [--rate HZ] [--out DIR]\n");
            return 2;
        }
    }
    /* E6 planned at its full tier: every method that can run it, with the script's parameters */
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    if (tc_exp_plan_builtin(&x, "e6_stacking", "full", &err))
        return tc_bench_fail("contact-ip", &err);
    e6_setup e;
    tc_status st = e6_read_setup(&x->script, &e, &err);
    e.speed_steps = (int)steps;
    if (rate > 0) e.speed_rate = rate;
    const tc_method **m = calloc((size_t)x->nmethod + 1, sizeof *m);
    e6_speed_row *rows = calloc((size_t)x->nmethod + 1, sizeof *rows);
    if (!m || !rows) st = TC_ENOMEM;
    for (int k = 0; !st && k < x->nmethod; k++) m[k] = &x->method[k].m;
    /* one thread: the timings compare the methods, not the machine's cores */
    omp_set_num_threads(1);
    if (!st) st = e6_speed(&e, m, x->nmethod, rows, &err);
    char path[1200];
    tc_outfile f;
    if (!st) {
        tc_path_join(path, sizeof path, out, "bench_contact_ip.csv");
        st = tc_outfile_open(&f, path, &err);
    }
    if (st) {
        free(m), free(rows), tc_exp_free(x);
        return tc_bench_fail("contact-ip", &err);
    }
    int num = tc_exp_method_find(x, e.ratio_num), den = tc_exp_method_find(x, e.ratio_den);
    fprintf(f.f, "label,spec,steps,failed,mean_s,median_s,p90_s,iters_per_step,rate_hz\n");
    printf("%-14s %8s %12s %12s %12s %10s\n", "method", "steps", "mean (us)", "median (us)",
           "90 % (us)", "iters/step");
    for (int k = 0; k < x->nmethod; k++) {
        const e6_speed_row *r = &rows[k];
        fprintf(f.f, "%s,%s,%ld,%d,%.6g,%.6g,%.6g,%.6g,%g\n", x->method[k].label,
                x->method[k].m.spec, r->steps, r->failed, r->mean_s, r->median_s, r->p90_s,
                r->iters_per_step, e.speed_rate);
        printf("%-14s %8ld %12.3g %12.3g %12.3g %10.3g%s\n", x->method[k].label, r->steps,
               1e6 * r->mean_s, 1e6 * r->median_s, 1e6 * r->p90_s, r->iters_per_step,
               r->failed ? "  (failed: below)" : "");
    }
    /* why each failed method's times are no timing of it */
    for (int k = 0; k < x->nmethod; k++)
        if (rows[k].failed) printf("%s failed: %s\n", x->method[k].label, rows[k].reason);
    if (num >= 0 && den >= 0 && !rows[num].failed && !rows[den].failed)
        printf("%s / %s median step time: %.3g (paper: about 30)\n", e.ratio_num, e.ratio_den,
               rows[num].median_s / rows[den].median_s);
    else
        printf("%s / %s: needs both methods in the script, run to a sound outcome\n", e.ratio_num,
               e.ratio_den);
    free(m), free(rows), tc_exp_free(x);
    if (tc_outfile_commit(&f, &err)) return tc_bench_fail("contact-ip", &err);
    printf("wrote %s\n", path);
    return 0;
}
