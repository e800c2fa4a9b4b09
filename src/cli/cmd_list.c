/* SPDX-License-Identifier: MIT */
/* touche list: experiments, then every method with its parameters */
#include "cli/tc_cli.h"
#include "exp/tc_experiment.h"

#include <stdio.h>

/* one parameter table, indented */
static void print_params(const tc_param_spec *p) {
    for (int i = 0; p && p[i].name; i++)
        printf("      %-12s %-10g %-8s %s\n%-38s(default: %s)\n", p[i].name, p[i].def, p[i].unit,
               p[i].doc, "", p[i].reason);
}

int tc_cmd_list(int argc, char **argv) {
    (void)argc, (void)argv;
    char caps[128];
    printf("experiments (touche run NAME):\n");
    for (int i = 0; tc_experiments[i]; i++)
        printf("  %-22s %s\n", tc_experiments[i]->name, tc_experiments[i]->title);
    printf("\ncontact models (method \"model\" or \"model/solver\"):\n");
    for (int i = 0; tc_models[i]; i++) {
        tc_caps_format(tc_models[i]->caps, caps, sizeof caps);
        printf("  %-14s %s\n      [%s] %s\n      parameter    default    unit     what\n",
               tc_models[i]->name, tc_models[i]->summary, caps, tc_models[i]->reference);
        print_params(tc_models[i]->params);
    }
    printf("\nsolvers:\n");
    for (int i = 0; tc_solvers[i]; i++) {
        printf("  %-14s %s%s\n", tc_solvers[i]->name, tc_solvers[i]->summary, i ? "" : " (default)");
        print_params(tc_solvers[i]->params);
    }
    printf("\nengines (method \"engine\"):\n");
    for (int i = 0; tc_engines[i]; i++) {
        tc_caps_format(tc_engines[i]->caps, caps, sizeof caps);
        printf("  %-14s %s (version %s) [%s]\n      parameter    default    unit     what\n",
               tc_engines[i]->name, tc_engines[i]->summary, tc_engines[i]->version, caps);
        print_params(tc_engines[i]->params);
    }
    return 0;
}
