/* SPDX-License-Identifier: MIT */
/* experiment scripts: libconfig files with tier overrides and located error messages */
#include "exp/tc_experiment.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

tc_status tc_script_load(tc_script *s, const char *path, const char *tier, tc_error *err) {
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->tier = tier;
    config_init(&s->cfg);
    /* parse; libconfig reports the line of a syntax error */
    if (config_read_file(&s->cfg, path) != CONFIG_TRUE) {
        int line = config_error_line(&s->cfg);
        tc_status st = config_error_type(&s->cfg) == CONFIG_ERR_FILE_IO
                           ? tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the script")
                           : tc_error_set(err, TC_EPARSE, path, line, NULL, "syntax error: %s",
                                          config_error_text(&s->cfg));
        config_destroy(&s->cfg);
        return st;
    }
    /* select the tier's override group */
    config_setting_t *tiers = config_lookup(&s->cfg, "tiers");
    if (tiers) {
        s->tier_group = config_setting_get_member(tiers, tier);
        if (!s->tier_group) {
            char names[256] = "";
            for (int i = 0; i < config_setting_length(tiers); i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         config_setting_name(config_setting_get_elem(tiers, (unsigned)i)));
            config_destroy(&s->cfg);
            return tc_error_set(err, TC_EINVAL, path, config_setting_source_line(tiers), "tier",
                                "no tier '%s' in this script (it has: %s)", tier, names);
        }
    }
    return TC_OK;
}

void tc_script_free(tc_script *s) { config_destroy(&s->cfg); }

config_setting_t *tc_script_lookup(const tc_script *s, config_setting_t *g, const char *path) {
    if (!g && s->tier_group) {
        config_setting_t *t = config_setting_lookup(s->tier_group, path);
        if (t) return t;
    }
    return g ? config_setting_lookup(g, path) : config_lookup((config_t *)&s->cfg, path);
}

/* line of a setting, or of its group when it is missing */
static int line_of(const tc_script *s, config_setting_t *g) {
    return g ? (int)config_setting_source_line(g) : (int)config_setting_source_line(config_root_setting(&s->cfg));
}

tc_status tc_script_real(const tc_script *s, config_setting_t *g, const char *name, double lo,
                         double hi, double *out, tc_error *err) {
    config_setting_t *v = tc_script_lookup(s, g, name);
    if (!v) return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name, "missing (a number is required)");
    int t = config_setting_type(v), line = (int)config_setting_source_line(v);
    if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must be a number");
    double x = config_setting_get_float(v);
    if (t != CONFIG_TYPE_FLOAT) x = (double)config_setting_get_int64(v);
    if (!isfinite(x) || x < lo || x > hi)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must lie in [%g, %g] (got %g)", lo,
                            hi, x);
    *out = x;
    return TC_OK;
}

tc_status tc_script_int(const tc_script *s, config_setting_t *g, const char *name, int lo, int hi,
                        int *out, tc_error *err) {
    config_setting_t *v = tc_script_lookup(s, g, name);
    if (!v) return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name, "missing (an integer is required)");
    int t = config_setting_type(v), line = (int)config_setting_source_line(v);
    if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must be an integer");
    long long x = config_setting_get_int64(v);
    if (x < lo || x > hi)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must lie in [%d, %d] (got %lld)",
                            lo, hi, x);
    *out = (int)x;
    return TC_OK;
}

tc_status tc_script_string(const tc_script *s, config_setting_t *g, const char *name,
                           const char **out, tc_error *err) {
    config_setting_t *v = tc_script_lookup(s, g, name);
    if (!v) return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name, "missing (a string is required)");
    if (config_setting_type(v) != CONFIG_TYPE_STRING)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(v), name,
                            "must be a string in double quotes");
    *out = config_setting_get_string(v);
    return TC_OK;
}

tc_status tc_script_reals(const tc_script *s, config_setting_t *g, const char *name, double lo,
                          double hi, double *out, int max, int *n, tc_error *err) {
    config_setting_t *v = tc_script_lookup(s, g, name);
    if (!v) return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name, "missing (a list of numbers is required)");
    int line = (int)config_setting_source_line(v), len = config_setting_length(v);
    if (!config_setting_is_aggregate(v) || len < 1 || len > max)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must be a list of 1 to %d numbers", max);
    for (int i = 0; i < len; i++) {
        config_setting_t *e = config_setting_get_elem(v, (unsigned)i);
        int t = config_setting_type(e);
        if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            return tc_error_set(err, TC_EINVAL, s->path, line, name, "element %d must be a number", i + 1);
        double x = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e) : (double)config_setting_get_int64(e);
        if (!isfinite(x) || x < lo || x > hi)
            return tc_error_set(err, TC_EINVAL, s->path, line, name,
                                "element %d must lie in [%g, %g] (got %g)", i + 1, lo, hi, x);
        out[i] = x;
    }
    *n = len;
    return TC_OK;
}

tc_status tc_script_allowed(const tc_script *s, config_setting_t *g, const char *const *names,
                            tc_error *err) {
    for (int i = 0; g && i < config_setting_length(g); i++) {
        config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        const char *nm = config_setting_name(e);
        int ok = 0;
        for (int j = 0; names[j] && !ok; j++) ok = strcmp(nm, names[j]) == 0;
        if (!ok) {
            char list[256] = "";
            for (int j = 0; names[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", names[j]);
            return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(e), nm,
                                "unknown setting here (allowed: %s)", list);
        }
    }
    return TC_OK;
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
        double x = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e)
                                          : (double)config_setting_get_int64(e);
        tc_method probe = *m;
        tc_error e2;
        tc_error_clear(&e2);
        tc_status st = tc_method_set(&probe, nm, x, &e2);
        if (st == TC_ENOTFOUND && only_known) continue;
        if (st) return tc_error_set(err, st, s->path, line, nm, "%s", e2.msg);
        *m = probe;
    }
    return TC_OK;
}

/* keep a method when no filter is given or its label, spec or model/engine name is listed */
static int selected(const char *filter, const tc_exp_method *em) {
    if (!filter || !*filter) return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", filter);
    const char *base = em->m.model ? em->m.model->name : em->m.engine->name;
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv))
        if (!strcmp(t, em->label) || !strcmp(t, em->m.spec) || !strcmp(t, base)) return 1;
    return 0;
}

tc_status tc_exp_methods(const tc_script *s, const tc_exp_ctx *ctx, unsigned caps,
                         unsigned shapes, tc_exp_method *out, int *n, tc_error *err) {
    static const char *const keys[] = {"label", "method", "params", NULL};
    config_setting_t *list = config_lookup((config_t *)&s->cfg, "methods");
    config_setting_t *tier_params = s->tier_group ? config_setting_lookup(s->tier_group, "params") : NULL;
    int m = 0;
    tc_status st;
    /* the script's methods, in order */
    for (int i = 0; list && i < config_setting_length(list) && m < TC_EXP_MAXMETHOD; i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        int line = (int)config_setting_source_line(e);
        const char *spec = NULL, *label = NULL;
        if ((st = tc_script_allowed(s, e, keys, err))) return st;
        if ((st = tc_script_string(s, e, "method", &spec, err))) return st;
        if (config_setting_lookup(e, "label") && (st = tc_script_string(s, e, "label", &label, err)))
            return st;
        tc_exp_method *em = &out[m];
        tc_error e2;
        tc_error_clear(&e2);
        if ((st = tc_method_parse(&em->m, spec, &e2)))
            return tc_error_set(err, st, s->path, line, "method", "%s", e2.msg);
        if (!tc_method_can_run(&em->m, caps, shapes))
            return tc_error_set(err, TC_EUNSUP, s->path, line, "method",
                                "'%s' lacks what this experiment needs", spec);
        snprintf(em->label, sizeof em->label, "%s", label ? label : spec);
        if ((st = apply_params(s, tier_params, &em->m, 1, err))) return st;
        if ((st = apply_params(s, config_setting_lookup(e, "params"), &em->m, 0, err))) return st;
        m++;
    }
    /* every other capable registered method, under its own name */
    tc_method all[TC_EXP_MAXMETHOD];
    int na = tc_method_enumerate(all, TC_EXP_MAXMETHOD);
    for (int i = 0; i < na && m < TC_EXP_MAXMETHOD; i++) {
        if (!tc_method_can_run(&all[i], caps, shapes)) continue;
        const char *base = all[i].model ? all[i].model->name : all[i].engine->name;
        int listed = 0;
        for (int j = 0; j < m && !listed; j++)
            listed = (out[j].m.model && out[j].m.model->name == base) ||
                     (out[j].m.engine && out[j].m.engine->name == base);
        if (listed) continue;
        out[m].m = all[i];
        snprintf(out[m].label, sizeof out[m].label, "%s", base);
        if ((st = apply_params(s, tier_params, &out[m].m, 1, err))) return st;
        m++;
    }
    /* the user's --methods filter */
    int k = 0;
    for (int i = 0; i < m; i++)
        if (selected(ctx->methods, &out[i])) out[k++] = out[i];
    if (k == 0)
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, "methods",
                            "no method of this experiment matches '%s'", ctx->methods);
    *n = k;
    return TC_OK;
}
