/* SPDX-License-Identifier: MIT */
/* touche list: experiments, then every method with its parameters; or one of them by name (an
 * experiment with the methods it runs, a model, solver, engine or model/solver method) */
#include "cli/tc_cli.h"
#include "exp/tc_experiment.h"

#include <stdio.h>
#include <string.h>

static const char list_usage[] =
    "usage: touche list [NAME] [--tier quick|full]\n"
    "  without NAME: every experiment, then every contact model, solver and engine with its\n"
    "  parameters (unit, default and why)\n"
    "  NAME an experiment (its name or a prefix: e1, e4_pen): the experiment and the methods its\n"
    "       script runs at the tier (default quick), each with its parameters as run, and the\n"
    "       registered methods it skips with the reason\n"
    "  NAME a contact model, solver or engine (scm, rk4, mujoco), or a method model/solver\n"
    "       (scm/rk4): that one with its parameters\n"
    "  exit status: 0 ok; 2 NAME names nothing (the names that exist are listed) or a bad\n"
    "  option; 1 an experiment's script could not be read\n";

/* one parameter table, indented */
static void print_params(const tc_param_spec *p) {
    for (int i = 0; p && p[i].name; i++)
        printf("      %-12s %-10g %-8s %s\n%-38s(default: %s)\n", p[i].name, p[i].def, p[i].unit,
               p[i].doc, "", p[i].reason);
}

/* an experiment's lines of the full list */
static void print_experiment(const tc_experiment_type *x) {
    printf("  %-22s %s\n%-24s script experiments/%s; reproduces %s\n", x->name, x->title, "",
           x->script, x->paper && x->paper[0] ? x->paper : "none");
    if (x->generate) printf("%-24s touche generate %s: %s\n", "", x->name, x->generate_doc);
    if (x->bench) printf("%-24s touche bench %s: %s\n", "", x->bench_name, x->bench_doc);
}

/* a model with its capabilities and parameters */
static void print_model(const tc_model_type *t) {
    char caps[128];
    tc_caps_format(t->caps, caps, sizeof caps);
    printf("  %-14s %s\n      [%s] %s%s%s\n      parameter    default    unit     what\n", t->name,
           t->summary, caps, t->reference, t->solver ? "; default solver " : "",
           t->solver ? t->solver : "");
    print_params(t->params);
}

/* a solver (the first registered is the default) */
static void print_solver(const tc_solver_type *t) {
    printf("  %-14s %s%s\n", t->name, t->summary, t == tc_solver_at(0) ? " (default)" : "");
    if (t->cpu_dependent) printf("      results depend on the CPU: %s\n", t->cpu_dependent);
    print_params(t->params);
}

/* an engine with its version, capabilities and parameters */
static void print_engine(const tc_engine_type *t) {
    char caps[128];
    tc_caps_format(t->caps, caps, sizeof caps);
    printf("  %-14s %s (version %s) [%s]\n      parameter    default    unit     what\n", t->name,
           t->summary, t->version, caps);
    print_params(t->params);
}

/* the whole list */
static void print_all(void) {
    printf("experiments (touche run NAME, or a script of your own with driver = \"NAME\";):\n");
    for (int i = 0; tc_experiment_at(i); i++)
        print_experiment(tc_experiment_at(i));
    printf("\ncontact models (method \"model\" or \"model/solver\"):\n");
    for (int i = 0; tc_model_at(i); i++)
        print_model(tc_model_at(i));
    printf("\nsolvers:\n");
    for (int i = 0; tc_solver_at(i); i++)
        print_solver(tc_solver_at(i));
    printf("\nengines (method \"engine\"):\n");
    for (int i = 0; tc_engine_at(i); i++)
        print_engine(tc_engine_at(i));
}

/* an experiment by its name, the prefix before '_' (tc_experiment_find) or any prefix that only
 * one experiment's name starts with */
static const tc_experiment_type *find_experiment(const char *name) {
    const tc_experiment_type *t = tc_experiment_find(name), *hit = NULL;
    if (t) return t;
    size_t n = strlen(name);
    for (int i = 0; n && tc_experiment_at(i); i++)
        if (!strncmp(tc_experiment_at(i)->name, name, n)) {
            if (hit) return NULL;
            hit = tc_experiment_at(i);
        }
    return hit;
}

/* one method's parameters as run: "name=value unit", the model's, solver's, then engine's */
static void print_values(const tc_method *m) {
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    int col = 0;
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < sets[s]->n; i++) {
            const tc_param_spec *p = &sets[s]->spec[i];
            char v[96];
            int u = p->unit && strcmp(p->unit, "1");
            int len = snprintf(v, sizeof v, "%s=%.6g%s%s", p->name, sets[s]->v[i], u ? " " : "",
                               u ? p->unit : "");
            if (col && col + len + 2 > 96) {
                printf("\n");
                col = 0;
            }
            col += printf("%s%s", col ? ", " : "      ", v);
        }
    if (col) printf("\n");
}

/* an experiment, planned at the tier: what it runs and with which parameters, what it skips */
static int show_experiment(const tc_experiment_type *t, const char *tier) {
    tc_error err;
    tc_error_clear(&err);
    tc_exp *x = NULL;
    tc_status st = tc_exp_plan_builtin(&x, t->name, tier, &err);
    if (st) {
        fprintf(stderr, "touche list: %s: ", t->name);
        tc_cli_error(&err, st);
        return 1;
    }
    printf("experiment (touche run %s):\n", t->name);
    print_experiment(t);
    printf("\nmethods it runs at tier %s (label, method, where from; then the parameters as run);\n"
           "--methods LABEL,... runs a subset, --set LABEL.PARAM=VALUE changes a value:\n",
           tier);
    if (!tc_exp_nmethod(x)) printf("  none: the experiment runs its own solvers\n");
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const tc_exp_entry *em = tc_exp_entry_at(x, k);
        char where[1100] = "joined: a registered method that meets a need";
        if (em->line > 0) snprintf(where, sizeof where, "experiments/%s:%d", t->script, em->line);
        printf("  %-18s %-26s %s\n", em->label, em->m.spec, where);
        print_values(&em->m);
    }
    if (tc_exp_nskip(x)) printf("\nregistered methods it skips:\n");
    for (int k = 0; k < tc_exp_nskip(x); k++)
        printf("  %-18s %s\n", tc_exp_skip_at(x, k)->name, tc_exp_skip_at(x, k)->reason);
    tc_exp_free(x);
    return 0;
}

/* every name `touche list NAME` takes, on stderr */
static void print_names(void) {
    fprintf(stderr, "  experiments:");
    for (int i = 0; tc_experiment_at(i); i++)
        fprintf(stderr, " %s", tc_experiment_at(i)->name);
    fprintf(stderr, "\n  contact models:");
    for (int i = 0; tc_model_at(i); i++)
        fprintf(stderr, " %s", tc_model_at(i)->name);
    fprintf(stderr, "\n  solvers:");
    for (int i = 0; tc_solver_at(i); i++)
        fprintf(stderr, " %s", tc_solver_at(i)->name);
    fprintf(stderr, "\n  engines:");
    for (int i = 0; tc_engine_at(i); i++)
        fprintf(stderr, " %s", tc_engine_at(i)->name);
    fprintf(stderr, "\n  or a method model/solver (scm/rk4)\n");
}

/* whatever `name` names: an experiment, a model, solver or engine, or a model/solver method */
static int show(const char *name, const char *tier) {
    const tc_experiment_type *x = find_experiment(name);
    if (x) return show_experiment(x, tier);
    int found = 0;
    if (tc_model_find(name)) {
        printf("%scontact model:\n", found++ ? "\n" : "");
        print_model(tc_model_find(name));
    }
    if (tc_solver_find(name)) {
        printf("%ssolver:\n", found++ ? "\n" : "");
        print_solver(tc_solver_find(name));
    }
    if (tc_engine_find(name)) {
        printf("%sengine:\n", found++ ? "\n" : "");
        print_engine(tc_engine_find(name));
    }
    tc_method m;
    if (!found && strchr(name, '/') && tc_method_parse(&m, name, NULL) == TC_OK && m.model) {
        printf("method %s: contact model:\n", m.spec);
        print_model(m.model);
        printf("\nsolver:\n");
        print_solver(m.solver);
        found = 1;
    }
    if (found) return 0;
    size_t n = strlen(name), several = 0;
    for (int i = 0; n && tc_experiment_at(i); i++)
        several += !strncmp(tc_experiment_at(i)->name, name, n);
    fprintf(stderr, "touche list: '%s' %s; these exist:\n", name,
            several > 1 ? "starts the names of several experiments: write more of one"
                        : "is not an experiment, contact model, solver, engine or method");
    print_names();
    return 2;
}

int tc_cmd_list(int argc, char **argv) {
    const char *name = NULL, *tier = "quick";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(list_usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--tier") && i + 1 < argc) {
            tier = argv[++i];
            if (strcmp(tier, "quick") && strcmp(tier, "full")) {
                fprintf(stderr, "touche list: --tier must be quick or full (got '%s')\n", tier);
                return 2;
            }
        } else if (argv[i][0] != '-' && !name) {
            name = argv[i];
        } else {
            fprintf(stderr, "touche list: unexpected argument '%s'\n%s", argv[i], list_usage);
            return 2;
        }
    }
    if (!name) {
        print_all();
        return 0;
    }
    return show(name, tier);
}
