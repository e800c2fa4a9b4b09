/* SPDX-License-Identifier: MIT */
/* experiment scripts: libconfig files with tier overrides and located error messages */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exp/script_private.h"

tc_status tc_script_load(tc_script **out, const char *path, const char *tier, tc_error *err) {
    *out = NULL;
    tc_script *s = calloc(1, sizeof *s);
    if (!s) return tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory");
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(s->tier, sizeof s->tier, "%s", tier);
    config_init(&s->cfg);
    /* parse; libconfig reports the line of a syntax error */
    if (config_read_file(&s->cfg, path) != CONFIG_TRUE) {
        int line = config_error_line(&s->cfg);
        tc_status st = config_error_type(&s->cfg) == CONFIG_ERR_FILE_IO
                           ? tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the script")
                           : tc_error_set(err, TC_EPARSE, path, line, NULL, "syntax error: %s",
                                          config_error_text(&s->cfg));
        config_destroy(&s->cfg);
        free(s);
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
            /* the message is built before the tree it points into is freed */
            tc_status st = tc_error_set(err, TC_EINVAL, path, config_setting_source_line(tiers),
                                        "tier", "no tier '%s' in this script (it has: %s)", tier,
                                        names[0] ? names : "none");
            config_destroy(&s->cfg);
            free(s);
            return st;
        }
    }
    *out = s;
    return TC_OK;
}

void tc_script_free(tc_script *s) {
    if (!s) return;
    config_destroy(&s->cfg);
    free(s);
}

const char *tc_script_path(const tc_script *s) {
    return s->path;
}

const char *tc_script_tier(const tc_script *s) {
    return s->tier;
}

/* ---------- what the driver read: every other setting is a mistake ---------- */

/* hook marks: a setting read (its own value; a group's members still need reading one by one),
 * and a setting used whole (every member below it counts as read) */
static char mark_read, mark_whole;

static void mark(config_setting_t *v, char *m) {
    if (v && config_setting_get_hook(v) != &mark_whole) config_setting_set_hook(v, m);
}

void tc_script_use(const tc_setting *v) {
    mark(tc_cs(v), &mark_whole);
}

/* the setting at path in g (NULL: the selected tier, then the top level), marked as read */
static config_setting_t *lookup(const tc_script *s, const tc_setting *g, const char *path) {
    config_setting_t *v = NULL;
    if (!g && s->tier_group) v = config_setting_lookup(s->tier_group, path);
    if (!v)
        v = g ? config_setting_lookup(tc_cs(g), path) : config_lookup((config_t *)&s->cfg, path);
    mark(v, &mark_read);
    return v;
}

const tc_setting *tc_script_lookup(const tc_script *s, const tc_setting *g, const char *path) {
    return tc_st(lookup(s, g, path));
}

int tc_script_line(const tc_script *s, const tc_setting *g, const char *path) {
    return tc_setting_line(tc_script_lookup(s, g, path));
}

/* a setting holding other named settings (a group, or a list holding groups) */
static int is_container(const config_setting_t *v) {
    if (config_setting_is_group(v)) return 1;
    if (!config_setting_is_list(v)) return 0;
    for (int i = 0; i < config_setting_length(v); i++)
        if (config_setting_is_aggregate(config_setting_get_elem(v, (unsigned)i))) return 1;
    return 0;
}

/* 1 when v or a setting above it was used whole */
static int under_whole(const config_setting_t *v) {
    for (; v; v = config_setting_parent(v))
        if (config_setting_get_hook(v) == &mark_whole) return 1;
    return 0;
}

/* 1 when v, or anything below it, was read */
static int known(const config_setting_t *v) {
    if (config_setting_get_hook(v) || under_whole(v)) return 1;
    for (int i = 0; config_setting_is_aggregate(v) && i < config_setting_length(v); i++)
        if (known(config_setting_get_elem(v, (unsigned)i))) return 1;
    return 0;
}

/* the dotted path of v below group top ("scene.big_radius", "methods.[2].label") */
static void path_of(const config_setting_t *v, const config_setting_t *top, char *buf, size_t n) {
    const config_setting_t *chain[32];
    int k = 0;
    for (; v && v != top && k < 32; v = config_setting_parent(v))
        chain[k++] = v;
    buf[0] = 0;
    while (k-- > 0) {
        const char *nm = config_setting_name(chain[k]);
        size_t l = strlen(buf);
        if (nm)
            snprintf(buf + l, n - l, "%s%s", l ? "." : "", nm);
        else
            snprintf(buf + l, n - l, "%s[%d]", l ? "." : "", config_setting_index(chain[k]));
    }
}

/* the settings of v's group that were read, as a list for a message */
static void siblings(const config_setting_t *v, char *buf, size_t n) {
    const config_setting_t *g = config_setting_parent(v);
    buf[0] = 0;
    for (int i = 0; g && i < config_setting_length(g); i++) {
        const config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        if (e != v && config_setting_name(e) && known(e))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     config_setting_name(e));
    }
}

static tc_status unread(const tc_script *s, const config_setting_t *v, const config_setting_t *top,
                        const char *where, tc_error *err) {
    char path[256], near[300];
    (void)top;
    path_of(v, config_root_setting(&s->cfg), path, sizeof path);
    siblings(v, near, sizeof near);
    return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(v), path,
                        "unknown setting%s: the driver never reads it (misspelt?%s%s)", where,
                        near[0] ? " read here: " : "", near);
}

/* 1 when the top-level setting c is replaced by the selected tier's, which was read */
static int overridden(const tc_script *s, const config_setting_t *c, const config_setting_t *top) {
    if (!s->tier_group || top != config_root_setting(&s->cfg)) return 0;
    char rel[256];
    path_of(c, top, rel, sizeof rel);
    const config_setting_t *t = config_setting_lookup(s->tier_group, rel);
    return t && known(t);
}

/* every named setting below v (top: where paths start) was read; other: v is an unselected
 * tier, whose settings must exist in the selected tier or be read at the top level */
static tc_status check_read(const tc_script *s, const config_setting_t *v,
                            const config_setting_t *top, int other, tc_error *err) {
    for (int i = 0; i < config_setting_length(v); i++) {
        const config_setting_t *c = config_setting_get_elem(v, (unsigned)i);
        if (!config_setting_name(c)) {
            /* a list's element: its members are checked, scalars count with the list */
            if (config_setting_is_aggregate(c) && is_container(c)) {
                tc_status st = check_read(s, c, top, other, err);
                if (st) return st;
            }
            continue;
        }
        if (other) {
            char rel[256];
            path_of(c, top, rel, sizeof rel);
            const config_setting_t *mine =
                s->tier_group ? config_setting_lookup(s->tier_group, rel) : NULL;
            const config_setting_t *base = config_lookup((config_t *)&s->cfg, rel);
            if (mine || (base && known(base))) continue;
            if (is_container(c)) {
                tc_status st = check_read(s, c, top, other, err);
                if (st) return st;
                continue;
            }
            return unread(s, c, top, " in this tier", err);
        }
        if (under_whole(c) || overridden(s, c, top)) continue;
        if (!is_container(c)) {
            if (!config_setting_get_hook(c)) return unread(s, c, top, "", err);
            continue;
        }
        if (!known(c)) return unread(s, c, top, "", err);
        tc_status st = check_read(s, c, top, 0, err);
        if (st) return st;
    }
    return TC_OK;
}

tc_status tc_script_check_read(const tc_script *s, tc_error *err) {
    config_setting_t *root = config_root_setting(&s->cfg);
    /* read by touche itself: the driver's name, the papers' values (tables, after the run) */
    tc_script_use(tc_st(config_setting_get_member(root, "driver")));
    tc_script_use(tc_st(config_setting_get_member(root, "paper")));
    /* the tiers: the selected one like the top level, the others against it */
    config_setting_t *tiers = config_setting_get_member(root, "tiers");
    tc_status st = TC_OK;
    for (int i = 0; tiers && !st && i < config_setting_length(tiers); i++) {
        config_setting_t *t = config_setting_get_elem(tiers, (unsigned)i);
        st = check_read(s, t, t, t != s->tier_group, err);
    }
    tc_script_use(tc_st(tiers));
    return st ? st : check_read(s, root, root, 0, err);
}

/* line of a setting, or of its group when it is missing */
static int line_of(const tc_script *s, const tc_setting *g) {
    return g ? (int)config_setting_source_line(tc_cs(g))
             : (int)config_setting_source_line(config_root_setting(&s->cfg));
}

tc_status tc_script_real(const tc_script *s, const tc_setting *g, const char *name, double lo,
                         double hi, double *out, tc_error *err) {
    config_setting_t *v = lookup(s, g, name);
    if (!v)
        return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name,
                            "missing (a number is required)");
    int t = config_setting_type(v), line = (int)config_setting_source_line(v);
    if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must be a number");
    double x = config_setting_get_float(v);
    if (t != CONFIG_TYPE_FLOAT) x = (double)config_setting_get_int64(v);
    if (!isfinite(x) || x < lo || x > hi)
        return tc_error_set(err, TC_EINVAL, s->path, line, name, "must lie in [%g, %g] (got %g)",
                            lo, hi, x);
    *out = x;
    return TC_OK;
}

tc_status tc_script_int(const tc_script *s, const tc_setting *g, const char *name, int lo, int hi,
                        int *out, tc_error *err) {
    config_setting_t *v = lookup(s, g, name);
    if (!v)
        return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name,
                            "missing (an integer is required)");
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

tc_status tc_script_string(const tc_script *s, const tc_setting *g, const char *name,
                           const char **out, tc_error *err) {
    config_setting_t *v = lookup(s, g, name);
    if (!v)
        return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name,
                            "missing (a string is required)");
    if (config_setting_type(v) != CONFIG_TYPE_STRING)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(v), name,
                            "must be a string in double quotes");
    *out = config_setting_get_string(v);
    return TC_OK;
}

tc_status tc_script_reals(const tc_script *s, const tc_setting *g, const char *name, double lo,
                          double hi, double *out, int max, int *n, tc_error *err) {
    config_setting_t *v = lookup(s, g, name);
    if (!v)
        return tc_error_set(err, TC_EINVAL, s->path, line_of(s, g), name,
                            "missing (a list of numbers is required)");
    int line = (int)config_setting_source_line(v), len = config_setting_length(v);
    if (!config_setting_is_aggregate(v) || len < 1 || len > max)
        return tc_error_set(err, TC_EINVAL, s->path, line, name,
                            "must be a list of 1 to %d numbers", max);
    for (int i = 0; i < len; i++) {
        config_setting_t *e = config_setting_get_elem(v, (unsigned)i);
        int t = config_setting_type(e);
        if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
            return tc_error_set(err, TC_EINVAL, s->path, line, name, "element %d must be a number",
                                i + 1);
        double x = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(e)
                                          : (double)config_setting_get_int64(e);
        if (!isfinite(x) || x < lo || x > hi)
            return tc_error_set(err, TC_EINVAL, s->path, line, name,
                                "element %d must lie in [%g, %g] (got %g)", i + 1, lo, hi, x);
        out[i] = x;
    }
    *n = len;
    return TC_OK;
}

tc_status tc_script_allowed(const tc_script *s, const tc_setting *g, const char *const *names,
                            tc_error *err) {
    for (int i = 0; g && i < config_setting_length(tc_cs(g)); i++) {
        config_setting_t *e = config_setting_get_elem(tc_cs(g), (unsigned)i);
        const char *nm = config_setting_name(e);
        int ok = 0;
        for (int j = 0; names[j] && !ok; j++)
            ok = strcmp(nm, names[j]) == 0;
        if (!ok) {
            char list[256] = "";
            for (int j = 0; names[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         names[j]);
            return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(e), nm,
                                "unknown setting here (allowed: %s)", list);
        }
    }
    return TC_OK;
}

tc_status tc_script_peek_driver(const char *path, char *buf, size_t n, tc_error *err) {
    config_t cfg;
    config_init(&cfg);
    tc_status st = TC_OK;
    const char *d = NULL;
    if (config_read_file(&cfg, path) != CONFIG_TRUE)
        st = config_error_type(&cfg) == CONFIG_ERR_FILE_IO
                 ? tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the script")
                 : tc_error_set(err, TC_EPARSE, path, config_error_line(&cfg), NULL,
                                "syntax error: %s", config_error_text(&cfg));
    else if (config_lookup_string(&cfg, "driver", &d) != CONFIG_TRUE)
        st = tc_error_set(err, TC_EINVAL, path, 0, "driver",
                          "the script must name the experiment driver it uses, e.g. "
                          "driver = \"e1_sphere_profiles\"; (see touche list)");
    else
        snprintf(buf, n, "%s", d);
    config_destroy(&cfg);
    return st;
}

const char *tc_script_driver(const tc_script *s) {
    const char *d = NULL;
    return config_lookup_string(&s->cfg, "driver", &d) == CONFIG_TRUE ? d : NULL;
}

const char *tc_script_method_spec(const tc_script *s, const char *label) {
    const config_setting_t *ml = config_lookup((config_t *)&s->cfg, "methods");
    const char *spec = NULL;
    for (int i = 0; ml && i < config_setting_length(ml); i++) {
        const char *l = NULL, *m = NULL;
        const config_setting_t *me = config_setting_get_elem(ml, (unsigned)i);
        if (config_setting_lookup_string(me, "label", &l) && !strcmp(l, label) &&
            config_setting_lookup_string(me, "method", &m))
            spec = m;
    }
    return spec;
}

double tc_script_paper(const tc_script *s, const char *match_key, const char *match,
                       const char *key) {
    config_setting_t *list = config_lookup((config_t *)&s->cfg, "paper");
    double v = NAN;
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        const char *m = NULL;
        if (config_setting_lookup_string(e, match_key, &m) && !strcmp(m, match)) {
            config_setting_t *x = config_setting_get_member(e, key);
            if (x && (config_setting_type(x) == CONFIG_TYPE_FLOAT ||
                      config_setting_type(x) == CONFIG_TYPE_INT ||
                      config_setting_type(x) == CONFIG_TYPE_INT64))
                v = config_setting_type(x) == CONFIG_TYPE_FLOAT
                        ? config_setting_get_float(x)
                        : (double)config_setting_get_int64(x);
        }
    }
    return v;
}

/* ---------- the settings as the driver sees them ---------- */

/* a scalar's text: numbers in the shortest form that reads back exactly, strings quoted */
static void scalar_text(const config_setting_t *v, char *buf, size_t n) {
    switch (config_setting_type(v)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(buf, n, "%lld", config_setting_get_int64(v));
        break;
    case CONFIG_TYPE_FLOAT: {
        double x = config_setting_get_float(v);
        for (int d = 15; d <= 17; d++) {
            snprintf(buf, n, "%.*g", d, x);
            if (strtod(buf, NULL) == x) break;
        }
        break;
    }
    case CONFIG_TYPE_BOOL:
        snprintf(buf, n, "%s", config_setting_get_bool(v) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        snprintf(buf, n, "\"%s\"", config_setting_get_string(v));
        break;
    default:
        snprintf(buf, n, "?");
    }
}

/* v's value (an array of scalars as "[a, b]"), or its members one by one; path is v's */
static void visit_setting(const config_setting_t *v, const config_setting_t *tier, const char *path,
                          tc_script_visit visit, void *ctx) {
    /* a tier's setting that is not a group replaces the top-level one whole */
    if (tier && !config_setting_is_group(tier)) {
        v = tier;
        tier = NULL;
    }
    if (!v) {
        v = tier;
        tier = NULL;
    }
    if (!config_setting_is_aggregate(v)) {
        char txt[256];
        scalar_text(v, txt, sizeof txt);
        visit(ctx, path, txt);
        return;
    }
    if (config_setting_is_array(v)) {
        char txt[256] = "[";
        for (int i = 0; i < config_setting_length(v); i++) {
            char e[64];
            scalar_text(config_setting_get_elem(v, (unsigned)i), e, sizeof e);
            snprintf(txt + strlen(txt), sizeof txt - strlen(txt), "%s%s", i ? ", " : "", e);
        }
        snprintf(txt + strlen(txt), sizeof txt - strlen(txt), "]");
        visit(ctx, path, txt);
        return;
    }
    /* a group's members (and then the tier's own), or a list's elements by index */
    for (int pass = 0; pass < 2; pass++) {
        const config_setting_t *g = pass ? tier : v;
        for (int i = 0; g && i < config_setting_length(g); i++) {
            const config_setting_t *c = config_setting_get_elem(g, (unsigned)i);
            const char *nm = config_setting_name(c);
            if (pass && config_setting_get_member(v, nm)) continue;
            char sub[256];
            if (nm)
                snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", nm);
            else
                snprintf(sub, sizeof sub, "%s.[%d]", path, i);
            const config_setting_t *t =
                !pass && tier && nm ? config_setting_get_member(tier, nm) : NULL;
            visit_setting(c, t, sub, visit, ctx);
        }
    }
}

void tc_script_settings(const tc_script *s, tc_script_visit visit, void *ctx) {
    static const char *const skip[] = {"driver", "tiers", "methods", "paper", NULL};
    const config_setting_t *root = config_root_setting(&s->cfg);
    for (int pass = 0; pass < 2; pass++) {
        const config_setting_t *g = pass ? s->tier_group : root;
        for (int i = 0; g && i < config_setting_length(g); i++) {
            const config_setting_t *c = config_setting_get_elem(g, (unsigned)i);
            const char *nm = config_setting_name(c);
            int skipped = 0;
            for (int k = 0; skip[k] && !skipped; k++)
                skipped = !strcmp(nm, skip[k]);
            if (skipped || (pass && config_setting_get_member(root, nm))) continue;
            const config_setting_t *t =
                !pass && s->tier_group ? config_setting_get_member(s->tier_group, nm) : NULL;
            visit_setting(c, t, nm, visit, ctx);
        }
    }
}

/* ---------- errors, tables of settings, a setting's shape ---------- */

/* the error of tc_script_fail with its message's arguments in ap */
__attribute__((format(printf, 5, 0))) static tc_status fail_v(const tc_script *s,
                                                              const tc_setting *v,
                                                              const char *param, tc_error *err,
                                                              const char *fmt, va_list ap) {
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return tc_error_set(err, TC_EINVAL, s->path, tc_setting_line(v), param, "%s", msg);
}

tc_status tc_script_fail(const tc_script *s, const tc_setting *v, const char *param, tc_error *err,
                         const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tc_status st = fail_v(s, v, param, err, fmt, ap);
    va_end(ap);
    return st;
}

tc_status tc_script_fail_at(const tc_script *s, const char *path, tc_error *err, const char *fmt,
                            ...) {
    va_list ap;
    va_start(ap, fmt);
    tc_status st = fail_v(s, tc_script_lookup(s, NULL, path), path, err, fmt, ap);
    va_end(ap);
    return st;
}

tc_status tc_script_list(const tc_script *s, const char *path, int lo, int hi, const char *what,
                         const tc_setting **l, int *n, tc_error *err) {
    const tc_setting *v = tc_script_lookup(s, NULL, path);
    const int len = tc_setting_length(v);
    if (l) *l = v;
    *n = 0;
    if (!v && lo == 0) return TC_OK;
    if (tc_setting_type(v) == TC_SETTING_LIST && len >= lo && len <= hi) {
        *n = len;
        return TC_OK;
    }
    if (lo == 0)
        return tc_script_fail(s, v, path, err, "a list ( {...}, ... ) of at most %d %s", hi, what);
    return tc_script_fail(s, v, path, err, "a list ( {...}, ... ) of %d to %d %s", lo, hi, what);
}

/* one row of a table into dst */
static tc_status read_field(const tc_script *s, const tc_setting *g, const tc_field *f, char *dst,
                            tc_error *err) {
    if (f->optional && !tc_script_lookup(s, g, f->name)) return TC_OK;
    switch (f->kind) {
    case TC_FIELD_REAL:
        return tc_script_real(s, g, f->name, f->lo, f->hi, (double *)(dst + f->offset), err);
    case TC_FIELD_INT:
        return tc_script_int(s, g, f->name, (int)f->lo, (int)f->hi, (int *)(dst + f->offset), err);
    case TC_FIELD_REALS:
        return tc_script_reals(s, g, f->name, f->lo, f->hi, (double *)(dst + f->offset), f->max,
                               (int *)(dst + f->count), err);
    case TC_FIELD_STRING: {
        const char *v;
        tc_status st = tc_script_string(s, g, f->name, &v, err);
        if (st) return st;
        if (strlen(v) >= (size_t)f->max)
            return tc_script_fail(s, tc_script_lookup(s, g, f->name), f->name, err,
                                  "at most %d characters", f->max - 1);
        snprintf(dst + f->offset, (size_t)f->max, "%s", v);
        return TC_OK;
    }
    }
    return TC_OK;
}

tc_status tc_script_read(const tc_script *s, const char *path, const tc_field *f, void *dst,
                         tc_error *err) {
    const tc_setting *g = path ? tc_script_lookup(s, NULL, path) : NULL;
    if (path && tc_setting_type(g) != TC_SETTING_GROUP)
        return tc_error_set(err, TC_EINVAL, s->path, tc_setting_line(g), path,
                            g ? "must be a group { ... }" : "missing group");
    /* the group holds only the table's settings */
    const char *names[64];
    int n = 0;
    for (; f[n].name && n < 63; n++)
        names[n] = f[n].name;
    names[n] = NULL;
    tc_status st = path ? tc_script_allowed(s, g, names, err) : TC_OK;
    for (int i = 0; !st && f[i].name; i++)
        st = read_field(s, g, &f[i], dst, err);
    return st;
}

tc_setting_kind tc_setting_type(const tc_setting *v) {
    if (!v) return TC_SETTING_NONE;
    switch (config_setting_type(tc_cs(v))) {
    case CONFIG_TYPE_GROUP:
        return TC_SETTING_GROUP;
    case CONFIG_TYPE_LIST:
        return TC_SETTING_LIST;
    case CONFIG_TYPE_ARRAY:
        return TC_SETTING_ARRAY;
    case CONFIG_TYPE_STRING:
        return TC_SETTING_STRING;
    case CONFIG_TYPE_BOOL:
        return TC_SETTING_BOOL;
    default:
        return TC_SETTING_NUMBER;
    }
}

int tc_setting_line(const tc_setting *v) {
    return v ? (int)config_setting_source_line(tc_cs(v)) : 0;
}

const char *tc_setting_name(const tc_setting *v) {
    return v ? config_setting_name(tc_cs(v)) : NULL;
}

int tc_setting_length(const tc_setting *v) {
    return v ? config_setting_length(tc_cs(v)) : 0;
}

const tc_setting *tc_setting_at(const tc_setting *v, int i) {
    return v && i >= 0 ? tc_st(config_setting_get_elem(tc_cs(v), (unsigned)i)) : NULL;
}

const char *tc_setting_string(const tc_setting *v) {
    return tc_setting_type(v) == TC_SETTING_STRING ? config_setting_get_string(tc_cs(v)) : NULL;
}

double tc_setting_number(const tc_setting *v) {
    if (tc_setting_type(v) != TC_SETTING_NUMBER) return NAN;
    config_setting_t *c = tc_cs(v);
    return config_setting_type(c) == CONFIG_TYPE_FLOAT ? config_setting_get_float(c)
                                                       : (double)config_setting_get_int64(c);
}
