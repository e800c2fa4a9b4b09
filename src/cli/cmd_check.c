/* SPDX-License-Identifier: MIT */
/* touche check: metrics against data/reference/, history, and --update to regenerate */
#include "cli/tc_cli.h"
#include "report/tc_metrics.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

int tc_cmd_check(int argc, char **argv) {
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"ref", required_argument, 0, 'r'},
                                         {"history", required_argument, 0, 'y'},
                                         {"update", no_argument, 0, 'u'},
                                         {"update-new", no_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    char ref[1024], hist[1024] = "", cmd[1024] = "";
    snprintf(ref, sizeof ref, "%s/data/reference", tc_cli_source_dir());
    tc_check_opts o = {.out_dir = "out", .ref_dir = ref, .history = NULL, .command = cmd};
    for (int i = 0; i < argc; i++)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%s%s", i ? " " : "touche ", argv[i]);
    for (int c; (c = getopt_long(argc, argv, "o:r:y:unh", opts, NULL)) != -1;) {
        switch (c) {
        case 'o': o.out_dir = optarg; break;
        case 'r': o.ref_dir = optarg; break;
        case 'y': o.history = optarg; break;
        case 'u': o.update = 1; break;
        case 'n': o.update_new = 1; break;
        case 'h':
            printf("usage: touche check [--out DIR] [--ref DIR] [--history FILE] [--update | "
                   "--update-new]\n"
                   "  compares every OUT/<experiment>/metrics.cfg with REF/<experiment>.<tier>.cfg:\n"
                   "  metrics within their tolerance, result digests equal; exit 1 when one\n"
                   "  changed or went missing (new ones are listed, not failures)\n"
                   "  --update      replace the references with this run's values\n"
                   "  --update-new  add only what the references lack (new methods, metrics,\n"
                   "                digests); existing entries stay as they are\n");
            return 0;
        default: return 2;
        }
    }
    if (o.update && o.update_new) {
        fprintf(stderr, "touche check: --update and --update-new exclude each other\n");
        return 2;
    }
    if (!o.history) {
        snprintf(hist, sizeof hist, "%s/history.tsv", o.out_dir);
        o.history = hist;
    }
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_check_run(&o, stdout, &err);
    /* an update records the new values: differences from the old reference are its purpose */
    if ((o.update || o.update_new) && st == TC_ECHECK) st = TC_OK;

    if (st && st != TC_ECHECK) tc_cli_error(&err, st);
    if (st == TC_ECHECK) fprintf(stderr, "touche check: REGRESSION (see the table above)\n");
    return st ? 1 : 0;
}
