/* SPDX-License-Identifier: MIT */
/* planning an experiment: its script, its driver's setup and needs, its methods; nothing is
 * written */
#include "exp/exp_private.h"

#include <math.h>
#include <stddef.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

/* ---------- planning ---------- */

void tc_exp_need(tc_exp *x, unsigned caps, unsigned shapes, const char *what) {
    if (x->nneed >= TC_EXP_MAXNEED) return;
    tc_need *n = &x->need[x->nneed++];
    n->caps = caps;
    n->shapes = shapes;
    snprintf(n->what, sizeof n->what, "%s", what ? what : "");
}

void tc_exp_refer(tc_exp *x, const char *setting, const char *label) {
    if (x->nref >= TC_EXP_MAXREF) return;
    int line = tc_script_line(x->script, NULL, setting);
    snprintf(x->ref[x->nref].setting, sizeof x->ref[0].setting, "%s", setting);
    snprintf(x->ref[x->nref].label, sizeof x->ref[0].label, "%s", label);
    x->ref[x->nref++].line = line;
}

void tc_exp_require(tc_exp *x, const char *label) {
    if (x->nreq < TC_EXP_MAXREQ) snprintf(x->req[x->nreq++], sizeof x->req[0], "%s", label);
}

int tc_exp_method_find(const tc_exp *x, const char *label) {
    for (int k = 0; k < x->nmethod; k++)
        if (!strcmp(x->method[k].label, label)) return k;
    return -1;
}

tc_status tc_exp_plan(tc_exp **out, const tc_experiment_type *t, const char *script,
                      const char *name, const tc_run_opts *o, tc_error *err) {
    *out = NULL;
    tc_exp *x = calloc(1, sizeof *x);
    if (!x) return TC_ENOMEM;
    x->type = t;
    x->opts = o;
    x->tier = o->tier;
    x->source_dir = o->source_dir;
    x->threads = o->threads > 0 ? o->threads : 1;
    x->rank = tc_ranks_rank();
    x->nrank = tc_ranks_size();
    /* the experiments in the order planned, the same on every rank (a sweep's queue key) */
    static unsigned planned;
    x->ordinal = planned++ & 0xffffu;
    snprintf(x->name, sizeof x->name, "%s", name);
    char why[200];
    tc_status st = TC_OK;
    if (!tc_label_ok(name, why, sizeof why))
        st = tc_error_set(err, TC_EINVAL, script, 0, NULL,
                          "the experiment's name '%s' (its output directory) %s", name, why);
    else if ((st = tc_script_load(&x->script, script, o->tier, err)) == TC_OK) {
        /* the script names its driver */
        const char *d = tc_script_driver(x->script);
        if (!d || strcmp(d, t->name))
            st = tc_error_set(err, TC_EINVAL, script, 0, "driver",
                              d ? "the script's driver is '%s', not '%s'"
                                : "the script must name its driver: driver = \"%s\";",
                              d ? d : t->name, t->name);
        else
            st = t->setup(x, &x->state, err);
    }
    if (!st) st = tc_exp_resolve(x, err);
    if (!st && t->check) st = t->check(x, x->state, err);
    /* a setting nobody read is a mistake in the script, not a default */
    if (!st) st = tc_script_check_read(x->script, err);
    /* a built-in experiment's name is the built-in script's: its outputs are judged against the
     * paper's claims and the committed references, so a changed script may not take it */
    const tc_experiment_type *named = tc_experiment_find(name);
    char builtin[1100] = "";
    if (named) tc_experiment_script(named, o->source_dir, builtin, sizeof builtin);
    if (!st && named && !strcmp(named->name, name) && tc_file_readable(builtin) &&
        !tc_files_equal(script, builtin))
        st = tc_error_set(err, TC_EINVAL, script, 0, NULL,
                          "a script named like the built-in experiment %s but not the same as %s: "
                          "its outputs would go to %s/ and be judged against the paper's claims "
                          "and the reference of the built-in; name the file differently",
                          name, builtin, name);
    if (st) {
        tc_exp_free(x);
        return st;
    }
    *out = x;
    return TC_OK;
}

int tc_bench_fail(const char *name, const tc_error *err) {
    char msg[1200];
    tc_error_format(err, msg, sizeof msg);
    fprintf(stderr, "touche bench %s: %s\n", name, msg);
    return 1;
}

tc_status tc_exp_plan_builtin(tc_exp **x, const char *name, const char *tier, tc_error *err) {
    static tc_run_opts o;
    const tc_experiment_type *t = tc_experiment_find(name);
    if (!t) return tc_error_set(err, TC_ENOTFOUND, NULL, 0, NULL, "no experiment '%s'", name);
    char script[1100];
    tc_experiment_script(t, tc_source_dir(), script, sizeof script);
    o = (tc_run_opts){.source_dir = tc_source_dir(), .out_root = "out", .tier = tier, .threads = 1};
    return tc_exp_plan(x, t, script, t->name, &o, err);
}

void tc_exp_free(tc_exp *x) {
    if (!x) return;
    if (x->state && x->type->free) x->type->free(x->state);
    tc_script_free(x->script);
    if (x->md) fclose(x->md);
    if (x->tex) fclose(x->tex);
    free(x->md_buf);
    free(x->tex_buf);
    tc_metrics_free(&x->metrics);
    free(x->method);
    free(x->skip);
    free(x->run);
    free(x);
}
