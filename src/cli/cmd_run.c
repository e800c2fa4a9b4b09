/* SPDX-License-Identifier: MIT */
/* touche run: experiments at a tier, outputs under --out, then the report */
#include "cli/tc_cli.h"
#include "exp/tc_experiment.h"
#include "core/tc_fs.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* run one experiment into out/<name>; returns its status */
static tc_status run_one(const tc_experiment_type *x, const tc_exp_ctx *base, const char *out) {
    char dir[1024], script[1024];
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_path_join(dir, sizeof dir, out, x->name);
    snprintf(script, sizeof script, "%s/experiments/%s", base->source_dir, x->script);
    tc_exp_ctx ctx = *base;
    ctx.out_dir = dir, ctx.script = script;
    double t0 = tc_wall_time();
    fprintf(stderr, "touche: %s (tier %s, %d threads)\n", x->name, ctx.tier, ctx.threads);
    if (!st) st = tc_mkdir_p(dir, &err);
    if (!st) st = x->run(&ctx, &err);
    /* the per-method digests of the results go into metrics.cfg */
    if (!st && x->results) {
        char path[1100];
        tc_metrics ms;
        tc_path_join(path, sizeof path, dir, "metrics.cfg");
        st = tc_metrics_read(&ms, path, &err);
        ms.filtered = ctx.methods && ctx.methods[0];
        if (!st) st = tc_results_hash(dir, x->results, &ms, &err);
        if (!st) st = tc_metrics_write(&ms, path, &err);
        tc_metrics_free(&ms);
    }
    if (st) tc_cli_error(&err, st);
    else fprintf(stderr, "touche: %s done in %.1f s -> %s\n", x->name, tc_wall_time() - t0, dir);
    return st;
}

int tc_cmd_run(int argc, char **argv) {
    static const struct option opts[] = {{"tier", required_argument, 0, 't'},
                                         {"methods", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"out", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    tc_exp_ctx ctx = {.source_dir = tc_cli_source_dir(), .tier = "quick",
                      .threads = omp_get_max_threads()};
    const char *out = "out";
    for (int c; (c = getopt_long(argc, argv, "t:m:j:o:h", opts, NULL)) != -1;) {
        switch (c) {
        case 't': ctx.tier = optarg; break;
        case 'm': ctx.methods = optarg; break;
        case 'o': out = optarg; break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 1024) {
                fprintf(stderr, "touche run: --threads must be a positive integer (got '%s')\n", optarg);
                return 2;
            }
            ctx.threads = (int)n;
            break;
        }
        case 'h':
            printf("usage: touche run NAME|all [--tier quick|full] [--methods a,b] [--threads N] "
                   "[--out DIR]\n");
            return 0;
        default: return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "touche run: name an experiment or 'all' (see touche list)\n");
        return 2;
    }
    if (strcmp(ctx.tier, "quick") && strcmp(ctx.tier, "full")) {
        fprintf(stderr, "touche run: --tier must be quick or full (got '%s')\n", ctx.tier);
        return 2;
    }
    /* which experiments: all, or the named ones (unknown names stop before anything runs) */
    const tc_experiment_type *todo[64];
    int n = 0;
    for (int i = optind; i < argc; i++) {
        if (!strcmp(argv[i], "all")) {
            for (int j = 0; tc_experiments[j] && n < 64; j++) todo[n++] = tc_experiments[j];
            continue;
        }
        const tc_experiment_type *x = tc_experiment_find(argv[i]);
        if (!x) {
            fprintf(stderr, "touche run: unknown experiment '%s' (see touche list)\n", argv[i]);
            return 2;
        }
        if (n < 64) todo[n++] = x;
    }
    /* a failing experiment is reported and the others still run */
    int failed = 0;
    const char *names[64];
    for (int i = 0; i < n; i++) {
        failed += run_one(todo[i], &ctx, out) != TC_OK;
        names[i] = todo[i]->name;
    }
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_report_write(out, names, n, &err);
    if (st) tc_cli_error(&err, st);
    fprintf(stderr, "touche: outputs in %s (report: %s/report.md)%s\n", out, out,
            failed ? "; some experiments FAILED" : "");
    return failed || st ? 1 : 0;
}

int tc_cmd_report(int argc, char **argv) {
    const char *out = "out";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else {
            fprintf(stderr, "usage: touche report [--out DIR]\n");
            return 2;
        }
    const char *names[64];
    int n = 0;
    for (int j = 0; tc_experiments[j] && n < 64; j++) names[n++] = tc_experiments[j]->name;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_report_write(out, names, n, &err);
    if (st) tc_cli_error(&err, st);
    return st ? 1 : 0;
}
