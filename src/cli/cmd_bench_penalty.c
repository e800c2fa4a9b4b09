/* SPDX-License-Identifier: MIT */
/* touche bench penalty: multi-point penalty and LCP steps per second on piles of growing size,
 * side by side in one run (E4's scene and methods), written as CSV */
#include "cli/tc_cli.h"
#include "core/tc_fs.h"
#include "experiments/e4.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_bench_penalty(const char *out, const char *bodies, int steps) {
    char script[1024], path[1100];
    snprintf(script, sizeof script, "%s/experiments/e4_penalty.cfg", tc_cli_source_dir());
    tc_script s;
    e4_setup e;
    tc_error err;
    tc_error_clear(&err);
    tc_exp_method em[TC_EXP_MAXMETHOD];
    int nm = 0;
    tc_exp_ctx ctx = {.source_dir = tc_cli_source_dir(), .tier = "full",
                      .methods = "multi-point,lcp"};
    /* E4's own methods and setup (full tier), the pile sizes from --bodies */
    tc_status st = tc_script_load(&s, script, "full", &err);
    if (!st) {
        st = e4_read_setup(&s, &e, &err);
        if (!st) st = tc_exp_methods(&s, &ctx, TC_CAP_DYNAMICS, 0, em, &nm, &err);
        tc_script_free(&s);
    }
    if (st) return tc_cli_error(&err, st), 1;
    if (nm != 2) {
        fprintf(stderr, "touche bench penalty: e4_penalty.cfg must define 'multi-point' and 'lcp'\n");
        return 1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", bodies);
    e.d_n = 0;
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t && e.d_n < E4_MAXPILE; t = strtok_r(NULL, ",", &sv))
        if (atoi(t) > 0) e.d_sizes[e.d_n++] = atoi(t);
    e.d_steps = steps;
    tc_method ref;
    if ((st = tc_method_parse(&ref, "mujoco", &err))) return tc_cli_error(&err, st), 1;
    const tc_method *m[2] = {&em[0].m, &em[1].m};
    e4_speed_row rows[E4_MAXPILE];
    /* one thread: the timings compare the methods, not the machine's cores */
    omp_set_num_threads(1);
    if ((st = e4_speed(&e, &ref, m, 2, rows, &err))) return tc_cli_error(&err, st), 1;
    tc_outfile o;
    tc_path_join(path, sizeof path, out, "bench_penalty.csv");
    if (tc_outfile_open(&o, path, &err)) return tc_cli_error(&err, TC_EIO), 1;
    fprintf(o.f, "bodies,touching_pairs,penalty_contacts,penalty_steps_s,lcp_steps_s,ratio,"
                 "lcp_iters\n");
    printf("%7s %8s %9s %14s %12s %7s\n", "bodies", "pairs", "contacts", "penalty st/s",
           "LCP st/s", "ratio");
    for (int i = 0; i < e.d_n; i++) {
        const e4_speed_row *r = &rows[i];
        double ratio = r->steps_s[1] > 0 ? r->steps_s[0] / r->steps_s[1] : 0;
        fprintf(o.f, "%d,%d,%.4g,%.6g,%.6g,%.4g,%lld\n", r->bodies, r->pairs, r->contacts[0],
                r->steps_s[0], r->steps_s[1], ratio, r->iters[1]);
        printf("%7d %8d %9.1f %14.1f %12.1f %7.2f\n", r->bodies, r->pairs, r->contacts[0],
               r->steps_s[0], r->steps_s[1], ratio);
    }
    if (tc_outfile_commit(&o, &err)) return tc_cli_error(&err, TC_EIO), 1;
    printf("wrote %s\n", path);
    return 0;
}
