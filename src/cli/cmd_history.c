/* SPDX-License-Identifier: MIT */
/* touche history: each metric against the `touche check` runs of a history file */
#include "cli/tc_cli.h"
#include "report/tc_history.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

int tc_cmd_history(int argc, char **argv) {
    static const struct option opts[] = {{"file", required_argument, 0, 'f'},
                                         {"out", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *file = "out/history.tsv", *out = NULL;
    char dflt[1100];
    for (int c; (c = getopt_long(argc, argv, "f:o:h", opts, NULL)) != -1;) {
        switch (c) {
        case 'f':
            file = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 'h':
            printf("usage: touche history [--file FILE] [--out DIR]\n"
                   "  every metric of FILE (default out/history.tsv, appended by each `touche "
                   "check`)\n"
                   "  against the checks: DIR/history.md (first and last value, relative change,\n"
                   "  last status) and a figure per experiment and tier of the metrics that moved\n"
                   "  most (default DIR: the history file's directory, under history/)\n");
            return 0;
        default:
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "touche history: unexpected argument '%s' (see --help)\n", argv[optind]);
        return 2;
    }
    if (!out) {
        const char *slash = strrchr(file, '/');
        snprintf(dflt, sizeof dflt, "%.*s%shistory", slash ? (int)(slash - file) : 0, file,
                 slash ? "/" : "");
        out = dflt;
    }
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_history_read(&h, file, &err);
    int moved = 0;
    /* malformed lines (a cut line, a hand edit) are left out, each named */
    for (int k = 0; !st && k < h.nskipped && k < TC_HISTORY_SKIPS; k++) {
        char why[1200];
        tc_error_format(&h.skipped[k], why, sizeof why);
        fprintf(stderr, "touche history: warning: left out %s\n", why);
    }
    if (!st && h.nskipped > TC_HISTORY_SKIPS)
        fprintf(stderr, "touche history: warning: left out %d more malformed lines\n",
                h.nskipped - TC_HISTORY_SKIPS);
    if (!st) st = tc_history_report(&h, out, tc_source_dir(), &moved, &err);
    if (!st)
        printf("touche history: %d lines%s; %d metrics moved between their first and last check; "
               "wrote %s/history.md\n",
               h.n, h.nskipped ? " (and malformed ones left out: see above)" : "", moved, out);
    tc_history_free(&h);
    if (st) tc_cli_error(&err, st);
    return st == TC_EINVAL ? 2 : st ? 1 : 0;
}
