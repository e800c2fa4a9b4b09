/* SPDX-License-Identifier: MIT */
/* the experiment object as drivers, the CLI and tests see it: read-only views of the runner's own
 * fields */
#include "exp/exp_private.h"

/* its methods */
int tc_exp_nmethod(const tc_exp *x) {
    return x->nmethod;
}

const tc_exp_entry *tc_exp_entry_at(const tc_exp *x, int i) {
    return i >= 0 && i < x->nmethod ? &x->method[i] : NULL;
}

const tc_method *tc_exp_method(const tc_exp *x, int i) {
    return i >= 0 && i < x->nmethod ? &x->method[i].m : NULL;
}

const char *tc_exp_label(const tc_exp *x, int i) {
    return i >= 0 && i < x->nmethod ? x->method[i].label : NULL;
}

/* what it was planned with */
const tc_script *tc_exp_script(const tc_exp *x) {
    return x->script;
}

tc_metrics *tc_exp_metrics(tc_exp *x) {
    return &x->metrics;
}

int tc_exp_threads(const tc_exp *x) {
    return x->threads;
}

const char *tc_exp_tier(const tc_exp *x) {
    return x->tier;
}

const char *tc_exp_source_dir(const tc_exp *x) {
    return x->source_dir;
}

const char *tc_exp_name(const tc_exp *x) {
    return x->name;
}

/* what planning decided */
int tc_exp_nskip(const tc_exp *x) {
    return x->nskip;
}

const tc_exp_skip *tc_exp_skip_at(const tc_exp *x, int i) {
    return i >= 0 && i < x->nskip ? &x->skip[i] : NULL;
}

int tc_exp_nneed(const tc_exp *x) {
    return x->nneed;
}

int tc_exp_nrun(const tc_exp *x) {
    return x->nrun;
}
