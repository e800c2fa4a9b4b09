/* SPDX-License-Identifier: MIT */
/* experiments: scripts (libconfig), method lists, run context, and the experiment registry */
#ifndef TC_EXPERIMENT_H
#define TC_EXPERIMENT_H

#include <libconfig.h>

#include "report/tc_metrics.h"
#include "sim/tc_sim.h"

#define TC_EXP_MAXMETHOD 32

/* what `touche run` hands an experiment */
typedef struct tc_exp_ctx {
    const char *source_dir; /* holds experiments/, plots/, data/ */
    const char *script;     /* path of the experiment script */
    const char *out_dir;    /* this experiment's output directory (created by the runner) */
    const char *tier;       /* "quick" or "full" */
    const char *methods;    /* comma-separated labels or method names to keep, or NULL for all */
    int threads;            /* OpenMP threads for the sweep */
} tc_exp_ctx;

typedef struct tc_experiment_type {
    const char *name;    /* e.g. "e1_sphere_profiles" */
    const char *title;   /* one line */
    const char *script;  /* file name under experiments/ */
    tc_status (*run)(const tc_exp_ctx *ctx, tc_error *err);
    /* the result files whose content is digested per method (tc_results_hash) */
    const tc_results_file *results;
} tc_experiment_type;

extern const tc_experiment_type *const tc_experiments[];
const tc_experiment_type *tc_experiment_find(const char *name);

/* a parsed script; errors name the file, line and setting */
typedef struct tc_script {
    config_t cfg;
    char path[1024];
    const char *tier;             /* selected tier */
    config_setting_t *tier_group; /* tiers.<tier>, or NULL */
} tc_script;

tc_status tc_script_load(tc_script *s, const char *path, const char *tier, tc_error *err);
void tc_script_free(tc_script *s);

/* a setting by dotted path in group g (NULL = root), looked up in tiers.<tier> first */
config_setting_t *tc_script_lookup(const tc_script *s, config_setting_t *g, const char *path);

/* numbers and strings; a missing required setting, a wrong type or a value outside [lo, hi]
 * is an error naming file, line and setting */
tc_status tc_script_real(const tc_script *s, config_setting_t *g, const char *name, double lo,
                         double hi, double *out, tc_error *err);
tc_status tc_script_int(const tc_script *s, config_setting_t *g, const char *name, int lo, int hi,
                        int *out, tc_error *err);
tc_status tc_script_string(const tc_script *s, config_setting_t *g, const char *name,
                           const char **out, tc_error *err);

/* an array or list of numbers (each in [lo, hi]) into out[max]; *n gets the count */
tc_status tc_script_reals(const tc_script *s, config_setting_t *g, const char *name, double lo,
                          double hi, double *out, int max, int *n, tc_error *err);

/* every setting of group g must be one of the NULL-terminated names */
tc_status tc_script_allowed(const tc_script *s, config_setting_t *g, const char *const *names,
                            tc_error *err);

/* one method of an experiment: a label and a configured method */
typedef struct tc_exp_method {
    char label[48];
    tc_method m;
} tc_exp_method;

/* the script's `methods` list (label, method, params), with tiers.<tier>.params applied to every
 * method that has such a parameter, then every other registered method with the capabilities
 * caps and shape types shapes under its own name (so a new model joins with no script change);
 * a script method lacking caps/shapes is an error; ctx->methods filters the result */
tc_status tc_exp_methods(const tc_script *s, const tc_exp_ctx *ctx, unsigned caps,
                         unsigned shapes, tc_exp_method *out, int *n, tc_error *err);

#endif
