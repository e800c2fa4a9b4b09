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
    printf("experiments (touche run NAME, or a script of your own with driver = \"NAME\";):\n");
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *x = tc_experiment_at(i);
        printf("  %-22s %s\n%-24s script experiments/%s; reproduces %s\n", x->name, x->title, "",
               x->script, x->paper);
        if (x->generate) printf("%-24s touche generate %s: %s\n", "", x->name, x->generate_doc);
        if (x->bench) printf("%-24s touche bench %s: %s\n", "", x->bench_name, x->bench_doc);
    }
    printf("\ncontact models (method \"model\" or \"model/solver\"):\n");
    for (int i = 0; tc_model_at(i); i++) {
        tc_caps_format(tc_model_at(i)->caps, caps, sizeof caps);
        printf("  %-14s %s\n      [%s] %s%s%s\n      parameter    default    unit     what\n",
               tc_model_at(i)->name, tc_model_at(i)->summary, caps, tc_model_at(i)->reference,
               tc_model_at(i)->solver ? "; default solver " : "",
               tc_model_at(i)->solver ? tc_model_at(i)->solver : "");
        print_params(tc_model_at(i)->params);
    }
    printf("\nsolvers:\n");
    for (int i = 0; tc_solver_at(i); i++) {
        printf("  %-14s %s%s\n", tc_solver_at(i)->name, tc_solver_at(i)->summary, i ? "" : " (default)");
        if (tc_solver_at(i)->cpu_dependent)
            printf("      results depend on the CPU: %s\n", tc_solver_at(i)->cpu_dependent);
        print_params(tc_solver_at(i)->params);
    }
    printf("\nengines (method \"engine\"):\n");
    for (int i = 0; tc_engine_at(i); i++) {
        tc_caps_format(tc_engine_at(i)->caps, caps, sizeof caps);
        printf("  %-14s %s (version %s) [%s]\n      parameter    default    unit     what\n",
               tc_engine_at(i)->name, tc_engine_at(i)->summary, tc_engine_at(i)->version, caps);
        print_params(tc_engine_at(i)->params);
    }
    return 0;
}
