/* SPDX-License-Identifier: MIT */
/* touche generate: regenerate an experiment's input data in data/ (its generate hook) */
#include "cli/tc_cli.h"
#include "core/tc_args.h"
#include "exp/tc_experiment.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the experiments that have a generator, and what each makes */
static void list_generators(FILE *f) {
    for (int i = 0; tc_experiment_at(i); i++)
        if (tc_experiment_at(i)->generate)
            fprintf(f, "  %-22s %s\n", tc_experiment_at(i)->name,
                    tc_experiment_at(i)->generate_doc);
}

int tc_cmd_generate(int argc, char **argv) {
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"method", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    tc_gen_opts o = {.source_dir = tc_source_dir(), .threads = omp_get_max_threads()};
    for (int c; (c = getopt_long(argc, argv, "o:m:j:h", opts, NULL)) != -1;) {
        switch (c) {
        case 'o':
            o.out = optarg;
            break;
        case 'm':
            o.method = optarg;
            break;
        case 'j':
            /* as touche run: 1 to 1024 (libgomp aborts on a count it cannot make) */
            if (!tc_arg_int("touche generate", "--threads", optarg, 1, 1024, &o.threads)) return 2;
            break;
        case 'h':
            printf(
                "usage: touche generate NAME [--out FILE] [--method SPEC] [--threads N]\n"
                "regenerates an experiment's input data in the source tree's data/ (or --out):\n");
            list_generators(stdout);
            return 0;
        default:
            return 2;
        }
    }
    const tc_experiment_type *x = optind < argc ? tc_experiment_find(argv[optind]) : NULL;
    if (!x || !x->generate) {
        fprintf(stderr, "touche generate: name what to generate:\n");
        list_generators(stderr);
        return 2;
    }
    tc_error err;
    tc_error_clear(&err);
    tc_status st = x->generate(&o, &err);
    if (st) {
        tc_cli_error(&err, st);
        return 1;
    }
    return 0;
}
