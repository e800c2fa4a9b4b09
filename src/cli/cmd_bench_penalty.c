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
    static const char *const labels[3] = {"lcp", "multi-point", "multi-point-se"};
    char script[1024], path[1100];
    snprintf(script, sizeof script, "%s/experiments/e4_penalty.cfg", tc_cli_source_dir());
    tc_script s;
    e4_setup e;
    tc_error err;
    tc_error_clear(&err);
    tc_exp_method em[TC_EXP_MAXMETHOD];
    int nm = 0;
    tc_exp_ctx ctx = {.source_dir = tc_cli_source_dir(), .tier = "full",
                      .methods = "lcp,multi-point,multi-point-se"};
    /* E4's own methods and setup (full tier), the pile sizes from --bodies */
    tc_status st = tc_script_load(&s, script, "full", &err);
    if (!st) {
        st = e4_read_setup(&s, &e, &err);
        if (!st) st = tc_exp_methods(&s, &ctx, TC_CAP_DYNAMICS, 0, em, &nm, &err);
        tc_script_free(&s);
    }
    if (st) return tc_cli_error(&err, st), 1;
    const tc_method *m[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < nm; k++)
            if (!strcmp(em[k].label, labels[i])) m[i] = &em[k].m;
    if (!m[0] || !m[1] || !m[2]) {
        fprintf(stderr, "touche bench penalty: e4_penalty.cfg must define the methods 'lcp', "
                        "'multi-point' and 'multi-point-se'\n");
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
    e4_speed_row rows[E4_MAXPILE];
    /* one thread: the timings compare the methods, not the machine's cores */
    omp_set_num_threads(1);
    if ((st = e4_speed(&e, &ref, m, 3, rows, &err))) return tc_cli_error(&err, st), 1;
    tc_outfile o;
    tc_path_join(path, sizeof path, out, "bench_penalty.csv");
    if (tc_outfile_open(&o, path, &err)) return tc_cli_error(&err, TC_EIO), 1;
    fprintf(o.f, "bodies,touching_pairs,lcp_contacts,penalty_contacts,lcp_steps_s,rk4_steps_s,"
                 "semi_euler_steps_s,rk4_over_lcp,semi_euler_over_lcp,lcp_iters,lcp_fails\n");
    printf("%6s %6s %8s %9s %10s %10s %10s %8s %8s\n", "bodies", "pairs", "LCP cts", "pen. pts",
           "LCP st/s", "RK4 st/s", "SE st/s", "RK4/LCP", "SE/LCP");
    for (int i = 0; i < e.d_n; i++) {
        const e4_speed_row *r = &rows[i];
        double a = r->steps_s[0] > 0 ? r->steps_s[1] / r->steps_s[0] : 0;
        double b = r->steps_s[0] > 0 ? r->steps_s[2] / r->steps_s[0] : 0;
        fprintf(o.f, "%d,%d,%d,%.4g,%.6g,%.6g,%.6g,%.4g,%.4g,%lld,%d\n", r->bodies, r->pairs,
                r->lcp_contacts, r->contacts[1], r->steps_s[0], r->steps_s[1], r->steps_s[2], a, b,
                r->iters[0], r->failed[0]);
        printf("%6d %6d %8d %9.1f %10.1f %10.1f %10.1f %8.2f %8.2f\n", r->bodies, r->pairs,
               r->lcp_contacts, r->contacts[1], r->steps_s[0], r->steps_s[1], r->steps_s[2], a, b);
    }
    if (tc_outfile_commit(&o, &err)) return tc_cli_error(&err, TC_EIO), 1;
    printf("wrote %s\n", path);
    return 0;
}
