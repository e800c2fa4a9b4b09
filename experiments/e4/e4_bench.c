/* SPDX-License-Identifier: MIT */
/* touche bench penalty: the speed study's methods (E4's script: the LCP baseline, then the
 * multi-point penalty with RK4 and semi-implicit Euler) in steps per second on piles of growing
 * size, side by side in one run on one thread, written as CSV */
#include "experiments/e4/e4.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "report/tc_report.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int e4_bench(int argc, char **argv) {
    const char *out = "out/bench", *who = "touche bench penalty", *tier = "full";
    int steps = 200, sizes[E4_MAXPILE] = {2, 4, 8, 16, 24}, nsize = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--bodies") && i + 1 < argc) {
            if (!tc_arg_ints(who, "--bodies", argv[++i], 1, 1000, sizes, E4_MAXPILE, &nsize)) return 2;
        } else if (!strcmp(argv[i], "--steps") && i + 1 < argc) {
            if (!tc_arg_int(who, "--steps", argv[++i], 1, 10000000, &steps)) return 2;
        } else if (!strcmp(argv[i], "--tier") && i + 1 < argc) {
            tier = argv[++i];
            if (strcmp(tier, "quick") && strcmp(tier, "full")) {
                fprintf(stderr, "%s: --tier must be quick or full (got '%s')\n", who, tier);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: touche bench penalty [--bodies a,b,...] [--steps N] [--tier quick|full] "
                            "[--out DIR]\n");
            return 2;
        }
    }
    /* E4 planned at its tier (full unless --tier: the piles settle for its pile.seconds), the
     * speed study's methods with the script's parameters */
    char path[1200];
    const char *script = "experiments/e4/e4_penalty.cfg";
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    if (tc_exp_plan_builtin(&x, "e4_penalty", tier, &err))
        return tc_bench_fail("penalty", &err);
    e4_setup e;
    tc_status st = e4_read_setup(&x->script, &e, &err);
    const tc_method *m[E4_MAXSPEED];
    int settle = tc_exp_method_find(x, e.d_settle);
    for (int i = 0; !st && i < e.d_nlabel; i++) {
        int k = tc_exp_method_find(x, e.d_label[i]);
        if (k < 0 || settle < 0)
            st = tc_error_set(&err, TC_EINVAL, script, 0, "speed.methods",
                              "the script must list the method '%s'", k < 0 ? e.d_label[i] : e.d_settle);
        else
            m[i] = &x->method[k].m;
    }
    /* the pile sizes from --bodies */
    e.d_n = nsize;
    memcpy(e.d_sizes, sizes, sizeof sizes);
    e.d_steps = steps;
    e4_speed_row rows[E4_MAXPILE];
    /* one thread: the timings compare the methods, not the machine's cores */
    omp_set_num_threads(1);
    if (!st) st = e4_speed(&e, &x->method[settle].m, m, e.d_nlabel, rows, &err);
    tc_outfile f;
    if (!st) {
        tc_path_join(path, sizeof path, out, "bench_penalty.csv");
        st = tc_outfile_open(&f, path, &err);
    }
    if (st) {
        tc_exp_free(x);
        return tc_bench_fail("penalty", &err);
    }
    fprintf(f.f, "bodies,touching_pairs,baseline_contacts,penalty_contacts");
    printf("%6s %6s %8s %9s", "bodies", "pairs", "LCP cts", "pen. pts");
    for (int i = 0; i < e.d_nlabel; i++) fprintf(f.f, ",%s_steps_s", e.d_label[i]), printf(" %14.14s", e.d_label[i]);
    for (int i = 1; i < e.d_nlabel; i++) fprintf(f.f, ",%s_over_%s", e.d_label[i], e.d_label[0]), printf(" %8s", "ratio");
    fprintf(f.f, ",baseline_iters,baseline_failed\n");
    printf("\n");
    for (int r = 0; r < e.d_n; r++) {
        const e4_speed_row *w = &rows[r];
        fprintf(f.f, "%d,%d,%d,%.4g", w->bodies, w->pairs, w->lcp_contacts, w->contacts[1]);
        printf("%6d %6d %8d %9.1f", w->bodies, w->pairs, w->lcp_contacts, w->contacts[1]);
        for (int i = 0; i < e.d_nlabel; i++) fprintf(f.f, ",%.6g", w->steps_s[i]), printf(" %14.1f", w->steps_s[i]);
        for (int i = 1; i < e.d_nlabel; i++) {
            double ratio = w->steps_s[0] > 0 ? w->steps_s[i] / w->steps_s[0] : 0;
            fprintf(f.f, ",%.4g", ratio), printf(" %8.2f", ratio);
        }
        fprintf(f.f, ",%lld,%d\n", w->iters[0], w->failed[0]);
        printf("\n");
    }
    tc_exp_free(x);
    if (tc_outfile_commit(&f, &err)) return tc_bench_fail("penalty", &err);
    printf("wrote %s\n", path);
    return 0;
}
