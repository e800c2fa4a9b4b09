/* SPDX-License-Identifier: MIT */
/* an experiment's methods: the script's list, every other registered method that meets a need
 * (the others skipped with the reason), the references kept, --methods and --set */
#include "exp/exp_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_label_ok(const char *s, char *why, size_t n) {
    size_t len = strlen(s);
    if (len == 0 || len > TC_LABEL_MAX) {
        snprintf(why, n, "must have 1 to %d characters (has %zu)", TC_LABEL_MAX, len);
        return 0;
    }
    /* the characters: the rule of every name that becomes part of a file name or a CSV field */
    return tc_metrics_name_ok(s, why, n);
}

/* apply every number of a params group to a method; errors keep the setting's line */
static tc_status apply_params(const tc_script *s, config_setting_t *params, tc_method *m,
                              int only_known, tc_error *err) {
    for (int i = 0; params && i < config_setting_length(params); i++) {
        config_setting_t *e = config_setting_get_elem(params, (unsigned)i);
        const char *nm = config_setting_name(e);
        int t = config_setting_type(e), line = (int)config_setting_source_line(e);
        if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            return tc_error_set(err, TC_EINVAL, s->path, line, nm, "must be a number");
        double v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e)
                                          : (double)config_setting_get_int64(e);
        /* the one route of a method parameter; m is unchanged when it fails */
        tc_error e2;
        tc_error_clear(&e2);
        tc_status st = tc_method_set(m, nm, v, &e2);
        if (st == TC_ENOTFOUND && only_known) continue;
        if (st) return tc_error_set(err, st, s->path, line, nm, "%s", e2.msg);
        /* a tier's parameter that no method takes is left unread: an error after planning */
        tc_script_use(tc_st(e));
    }
    return TC_OK;
}

/* the first need m meets, or -1 */
static int need_met(const tc_exp *x, const tc_method *m) {
    for (int i = 0; i < x->nneed; i++)
        if (tc_method_can_run(m, x->need[i].caps, x->need[i].shapes)) return i;
    return -1;
}

/* why m meets no need: the reason for each one */
static void why_not(const tc_exp *x, const tc_method *m, char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; i < x->nneed; i++) {
        char r[200];
        tc_method_why_not(m, x->need[i].caps, x->need[i].shapes, r, sizeof r);
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s%s%s", i ? "; " : "",
                 x->nneed > 1 ? x->need[i].what : "", x->nneed > 1 ? ": " : "", r);
    }
}

/* add a name to the list of what a filter may name */
static void know(tc_exp *x, const char *name) {
    if (tc_exp_knows(x, name)) return;
    size_t l = strlen(x->known);
    snprintf(x->known + l, sizeof x->known - l, "%s%s", l ? "," : "", name);
}

int tc_exp_knows(const tc_exp *x, const char *token) {
    size_t len = strlen(token);
    for (const char *p = x->known; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && !strncmp(p, token, len)) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

/* 1 when the comma-separated filter names the method by label, spec or model/engine name */
static int selected(const char *filter, const tc_exp_entry *em) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", filter);
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
        if (!strcmp(t, em->label) || !strcmp(t, em->m.spec) || !strcmp(t, tc_method_base(&em->m)))
            return 1;
    return 0;
}

/* a label must be valid and new; line 0: a registered method joining under its own name */
static tc_status check_label(const tc_exp *x, const char *label, int line, int n, tc_error *err) {
    char why[200];
    if (!tc_label_ok(label, why, sizeof why))
        return tc_error_set(err, TC_EINVAL, x->script->path, line, "label", "'%s' %s", label, why);
    for (int j = 0; j < n; j++)
        if (!strcmp(x->method[j].label, label))
            return tc_error_set(err, TC_EINVAL, x->script->path, line ? line : x->method[j].line,
                                "label",
                                line ? "'%s' is used twice (also on line %d)"
                                     : "'%s' is also the name of a registered method that joins "
                                       "on its own: give the script's method another label or "
                                       "list that method (line %d)",
                                label, x->method[j].line);
    return TC_OK;
}

/* the script's methods, in order */
static tc_status script_methods(tc_exp *x, config_setting_t *tier_params, int *n, tc_error *err) {
    static const char *const keys[] = {"label", "method", "params", NULL};
    const tc_script *s = x->script;
    config_setting_t *list = config_lookup((config_t *)&s->cfg, "methods");
    /* entries are checked here: their keys (tc_script_allowed), methods and parameters */
    tc_script_use(tc_st(list));
    if (list && x->nneed == 0)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(list),
                            "methods", "this experiment (driver %s) runs no registered methods",
                            x->type->name);
    if (list && !config_setting_is_list(list))
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(list),
                            "methods", "must be a list ( {...}, {...} ) of methods");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        int line = (int)config_setting_source_line(e);
        const char *spec = NULL, *label = NULL;
        tc_status st;
        if (!config_setting_is_group(e))
            return tc_error_set(err, TC_EINVAL, s->path, line, "methods",
                                "entry %d must be a group { label = ...; method = ...; }", i + 1);
        if ((st = tc_script_allowed(s, tc_st(e), keys, err)) ||
            (st = tc_script_string(s, tc_st(e), "method", &spec, err)))
            return st;
        if (config_setting_lookup(e, "label") &&
            (st = tc_script_string(s, tc_st(e), "label", &label, err)))
            return st;
        tc_exp_entry *em = &x->method[*n];
        memset(em, 0, sizeof *em);
        tc_error e2;
        tc_error_clear(&e2);
        st = tc_method_parse(&em->m, spec, &e2);
        /* an engine this build left out: skipped with the reason, its label still known */
        if (st && tc_method_left_out(spec)) {
            tc_exp_skip *sk = &x->skip[x->nskip++];
            snprintf(sk->name, sizeof sk->name, "%s", label ? label : spec);
            snprintf(sk->reason, sizeof sk->reason, "%s", e2.msg);
            know(x, label ? label : spec);
            know(x, spec);
            continue;
        }
        if (st) return tc_error_set(err, st, s->path, line, "method", "%s", e2.msg);
        if (need_met(x, &em->m) < 0) {
            char why[400];
            why_not(x, &em->m, why, sizeof why);
            return tc_error_set(err, TC_EINVAL, s->path, line, "method",
                                "'%s' cannot run this experiment: %s", spec, why);
        }
        if ((st = check_label(x, label ? label : spec, line, *n, err))) return st;
        snprintf(em->label, sizeof em->label, "%s", label ? label : spec);
        em->line = line;
        if ((st = apply_params(s, tier_params, &em->m, 1, err)) ||
            (st = apply_params(s, config_setting_lookup(e, "params"), &em->m, 0, err)))
            return st;
        know(x, em->label);
        know(x, em->m.spec);
        know(x, tc_method_base(&em->m));
        (*n)++;
    }
    return TC_OK;
}

/* every other registered method: joins under its own name, or is skipped with the reason */
static tc_status registry_methods(tc_exp *x, config_setting_t *tier_params, int *n, tc_error *err) {
    int total = tc_method_count();
    tc_method *all = calloc((size_t)total + 1, sizeof *all);
    if (!all) return TC_ENOMEM;
    int na = tc_method_enumerate(all, total);
    tc_status st = TC_OK;
    for (int i = 0; i < na && !st; i++) {
        const char *base = tc_method_base(&all[i]);
        know(x, base);
        know(x, all[i].spec);
        int listed = 0;
        for (int j = 0; j < *n && !listed; j++)
            listed = !strcmp(tc_method_base(&x->method[j].m), base);
        if (listed || x->nneed == 0) continue;
        if (need_met(x, &all[i]) < 0) {
            tc_exp_skip *sk = &x->skip[x->nskip++];
            snprintf(sk->name, sizeof sk->name, "%s", base);
            why_not(x, &all[i], sk->reason, sizeof sk->reason);
            continue;
        }
        if ((st = check_label(x, base, 0, *n, err))) break;
        tc_exp_entry *em = &x->method[*n];
        memset(em, 0, sizeof *em);
        em->m = all[i];
        snprintf(em->label, sizeof em->label, "%s", base);
        if (!(st = apply_params(x->script, tier_params, &em->m, 1, err))) (*n)++;
    }
    free(all);
    return st;
}

/* --methods: keep the selected and the required; note the rest */
static void filter(tc_exp *x, int *n) {
    const char *f = x->opts->methods;
    if (!f || !f[0]) return;
    int k = 0;
    for (int i = 0; i < *n; i++) {
        int keep = selected(f, &x->method[i]);
        x->nselected += keep;
        for (int r = 0; r < x->nreq && !keep; r++)
            keep = !strcmp(x->req[r], x->method[i].label);
        if (keep) {
            x->method[k++] = x->method[i];
            continue;
        }
        size_t l = strlen(x->left);
        snprintf(x->left + l, sizeof x->left - l, "%s%s", l ? ", " : "", x->method[i].label);
        x->nleft++;
    }
    *n = k;
}

/* --set: each override on every method it names */
static tc_status overrides(tc_exp *x, int n, tc_error *err) {
    for (int k = 0; k < x->opts->nset; k++) {
        tc_override *o = &x->opts->set[k];
        for (int i = 0; i < n; i++) {
            tc_exp_entry *em = &x->method[i];
            if (strcmp(o->target, em->label) && strcmp(o->target, em->m.spec) &&
                strcmp(o->target, tc_method_base(&em->m)))
                continue;
            /* the same route as the script's parameters */
            tc_error e2;
            tc_error_clear(&e2);
            tc_status st = tc_method_set(&em->m, o->param, o->value, &e2);
            if (st)
                return tc_error_set(err, st, NULL, 0, o->param, "--set %s: %s (method '%s' in %s)",
                                    o->text, e2.msg, em->label, x->name);
            o->used++;
            size_t l = strlen(em->set);
            snprintf(em->set + l, sizeof em->set - l, "%s%s=%.9g", l ? " " : "", o->param,
                     o->value);
        }
    }
    return TC_OK;
}

tc_status tc_exp_resolve(tc_exp *x, tc_error *err) {
    const tc_script *s = x->script;
    int cap = tc_method_count() + 64;
    config_setting_t *list = config_lookup((config_t *)&s->cfg, "methods");
    if (list && config_setting_is_list(list)) cap += config_setting_length(list);
    x->method = calloc((size_t)cap, sizeof *x->method);
    x->skip = calloc((size_t)cap, sizeof *x->skip);
    if (!x->method || !x->skip) return TC_ENOMEM;
    config_setting_t *tier_params =
        s->tier_group ? config_setting_lookup(s->tier_group, "params") : NULL;
    int n = 0;
    tc_status st = script_methods(x, tier_params, &n, err);
    if (!st) st = registry_methods(x, tier_params, &n, err);
    /* the references the driver compares against must be there */
    for (int r = 0; r < x->nreq && !st; r++) {
        int found = 0;
        for (int i = 0; i < n && !found; i++)
            found = !strcmp(x->method[i].label, x->req[r]);
        config_setting_t *ml = config_lookup((config_t *)&s->cfg, "methods");
        int line = ml ? (int)config_setting_source_line(ml) : 0;
        /* listed, but its engine left out of this build: nothing to compare against */
        for (int k = 0; k < x->nskip && !found && !st; k++)
            if (!strcmp(x->skip[k].name, x->req[r]))
                st = tc_error_set(err, TC_EUNSUP, s->path, line, "methods",
                                  "this experiment compares against '%s', which it cannot run: "
                                  "%s",
                                  x->req[r], x->skip[k].reason);
        if (!found && !st)
            st = tc_error_set(err, TC_EINVAL, s->path, line, "methods",
                              "this experiment compares against '%s': the script must list a "
                              "method labelled so",
                              x->req[r]);
    }
    if (st) return st;
    for (int i = 0; i < n; i++)
        snprintf(x->labels + strlen(x->labels), sizeof x->labels - strlen(x->labels), "%s%s",
                 i ? ", " : "", x->method[i].label);
    /* the labels the driver's settings name must name a method */
    for (int r = 0; r < x->nref; r++)
        if (!tc_exp_knows(x, x->ref[r].label))
            return tc_error_set(err, TC_EINVAL, s->path, x->ref[r].line, x->ref[r].setting,
                                "'%s' names no method of this experiment (labels: %s)",
                                x->ref[r].label, x->labels);
    filter(x, &n);
    x->nmethod = n;
    return overrides(x, n, err);
}
