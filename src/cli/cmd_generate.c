/* SPDX-License-Identifier: MIT */
/* touche generate: regenerate the input data of an experiment (E2's finger trajectories) */
#include "cli/tc_cli.h"
#include "experiments/e2.h"
#include "experiments/e3.h"

#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_cmd_generate(int argc, char **argv) {
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"method", required_argument, 0, 'm'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *out = NULL, *method = "mujoco";
    int threads = omp_get_max_threads();
    for (int c; (c = getopt_long(argc, argv, "o:m:j:h", opts, NULL)) != -1;) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'm': method = optarg; break;
        case 'j': threads = atoi(optarg) > 0 ? atoi(optarg) : threads; break;
        case 'h':
            printf("usage: touche generate e2|e3 [--out FILE] [--method SPEC] [--threads N]\n"
                   "  e2: E2's finger trajectories (default: data/e2_trajectories.csv in the source tree)\n"
                   "      by cross-entropy search in MuJoCo; settings: experiments/e2_t_pushing.cfg\n"
                   "  e3: E3's FEM curves (default: data/e3_fem.csv) with CalculiX (needs ccx)\n");
            return 0;
        default: return 2;
        }
    }
    if (optind < argc && !strcmp(argv[optind], "e3")) {
        tc_error err3;
        tc_error_clear(&err3);
        tc_status st3 = e3_generate(tc_cli_source_dir(), out, &err3);
        if (st3) return tc_cli_error(&err3, st3), 1;
        printf("wrote the E3 FEM cache\n");
        return 0;
    }
    if (optind >= argc || strcmp(argv[optind], "e2")) {
        fprintf(stderr, "touche generate: name what to generate (available: e2, e3)\n");
        return 2;
    }
    /* the script gives the scene and the search settings */
    char script[1024], path[1024];
    const char *src = tc_cli_source_dir();
    snprintf(script, sizeof script, "%s/experiments/e2_t_pushing.cfg", src);
    tc_script s;
    e2_setup e;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_script_load(&s, script, "quick", &err);
    if (!st) {
        st = e2_read_setup(&s, &e, &err);
        tc_script_free(&s);
    }
    if (!st) {
        snprintf(path, sizeof path, "%s/%s", src, e.trajectories);
        st = e2_generate(&e, method, out ? out : path, threads, &err);
    }
    if (st) return tc_cli_error(&err, st), 1;
    printf("wrote %s\n", out ? out : path);
    return 0;
}
