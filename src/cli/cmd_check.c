/* SPDX-License-Identifier: MIT */
/* touche check: metrics against each experiment's reference, history, and --update to
 * regenerate */
#include "cli/tc_cli.h"
#include "exp/tc_experiment.h"
#include "report/tc_metrics.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: touche check [--out DIR] [--ref DIR] [--history FILE] [--verbose] [--timings]\n"
    "                    [--update | --update-new] [--accept-failed]\n"
    "  compares every OUT/<experiment>/metrics.cfg with its reference (a built-in experiment's\n"
    "  experiments/<folder>/reference.<tier>.cfg, or REF/<experiment>.<tier>.cfg) and prints\n"
    "  what matters first: failures (an accuracy metric outside its tolerance or not finite, a\n"
    "  result digest changed, a metric or digest missing, more failed runs than the reference),\n"
    "  each with its reason and the parameters or script settings that changed as the likely\n"
    "  cause; then new entries, every changed parameter, one line per experiment, and the\n"
    "  timings apart: machine-dependent, compared with the reference's for information only.\n"
    "  --out DIR       the run's output root (default ./out)\n"
    "  --ref DIR       one folder of references instead (e.g. another machine's), each\n"
    "                  <experiment>.<tier>.cfg (default: each experiment's own folder)\n"
    "  --history FILE  append one line per metric and digest (default OUT/history.tsv)\n"
    "  --verbose       also every experiment's whole table (metric, value, reference, tolerance)\n"
    "  --timings       a timing slower than its reference beyond its tolerance fails the check\n"
    "                  (for one machine's own history; references come from another machine)\n"
    "  --update        replace the references with this run's values\n"
    "  --update-new    add only what the references lack (new methods, metrics, digests, and\n"
    "                  the parameters an older reference does not record)\n"
    "  --accept-failed let an update record methods whose runs failed (loudly); without it\n"
    "                  their metrics and digests, and non-finite values, are never recorded\n"
    "  exit status: 0 nothing failed (new entries and timings do not fail); 1 a failure, an\n"
    "  update that refused entries, or an error (unreadable file, no outputs); 2 bad options\n";

/* the options into o: -1 to go on, else the exit status (2 bad options, 0 after --help) */
static int parse_options(int argc, char **argv, tc_check_opts *o) {
    static const struct option opts[] = {
        {"out", required_argument, 0, 'o'},     {"ref", required_argument, 0, 'r'},
        {"history", required_argument, 0, 'y'}, {"update", no_argument, 0, 'u'},
        {"update-new", no_argument, 0, 'n'},    {"accept-failed", no_argument, 0, 'a'},
        {"timings", no_argument, 0, 't'},       {"verbose", no_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    for (int c; (c = getopt_long(argc, argv, "o:r:y:unatvh", opts, NULL)) != -1;) {
        switch (c) {
        case 'o':
            o->out_dir = optarg;
            break;
        case 'r':
            o->ref_dir = optarg;
            break;
        case 'y':
            o->history = optarg;
            break;
        case 'u':
            o->update = 1;
            break;
        case 'n':
            o->update_new = 1;
            break;
        case 'a':
            o->accept_failed = 1;
            break;
        case 't':
            o->timings = 1;
            break;
        case 'v':
            o->verbose = 1;
            break;
        case 'h':
            fputs(help, stdout);
            return 0;
        default:
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "touche check: unexpected argument '%s' (see touche check --help)\n",
                argv[optind]);
        return 2;
    }
    if (o->update && o->update_new) {
        fprintf(stderr, "touche check: --update and --update-new exclude each other\n");
        return 2;
    }
    if (o->accept_failed && !o->update && !o->update_new) {
        fprintf(stderr, "touche check: --accept-failed only applies to --update or --update-new\n");
        return 2;
    }
    return -1;
}

int tc_cmd_check(int argc, char **argv) {
    char hist[1024] = "", cmd[1024] = "";
    tc_check_opts o = {.out_dir = "out",
                       .ref_dir = NULL,
                       .ref_path = tc_experiment_reference,
                       .history = NULL,
                       .command = cmd};
    for (int i = 0; i < argc; i++)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%s%s", i ? " " : "touche ", argv[i]);
    const int parsed = parse_options(argc, argv, &o);
    if (parsed >= 0) return parsed;
    if (!o.history) {
        snprintf(hist, sizeof hist, "%s/history.tsv", o.out_dir);
        o.history = hist;
    }
    tc_error err;
    tc_error_clear(&err);
    fflush(stdout);
    tc_status st = tc_check_run(&o, stdout, &err);
    fflush(stdout);
    if (st && st != TC_ECHECK) tc_cli_error(&err, st);
    if (st == TC_ECHECK)
        fprintf(stderr, "touche check: %s: %s\n", o.update || o.update_new ? "REFUSED" : "FAILED",
                err.msg);
    return st ? 1 : 0;
}
