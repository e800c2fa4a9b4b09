/* SPDX-License-Identifier: MIT */
/* metrics files (libconfig): write and read with doubles preserved bit for bit */
#include "report/tc_metrics.h"

#include <libconfig.h>
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"
#include "core/tc_provenance.h"

/* libconfig 1.5 writes floats with 15 significant digits and has no precision setting: a double
 * that 15 digits do not restore is stored a second time as NAME_exact = "%.17g", which the reader
 * prefers as long as NAME still reads as that number's 15-digit form (a hand edit of NAME wins) */
#define LC_DIGITS 15

/* ---------- building ---------- */

void tc_metrics_init(tc_metrics *ms, const char *experiment, const char *tier) {
    memset(ms, 0, sizeof *ms);
    snprintf(ms->experiment, sizeof ms->experiment, "%s", experiment ? experiment : "");
    snprintf(ms->tier, sizeof ms->tier, "%s", tier ? tier : "");
}

void tc_metrics_free(tc_metrics *ms) {
    free(ms->m);
    free(ms->methods);
    free(ms->hash);
    free(ms->setting);
    free(ms->by_name.slot);
    free(ms->by_label.slot);
    free(ms->by_digest.slot);
    memset(&ms->by_name, 0, sizeof ms->by_name);
    memset(&ms->by_label, 0, sizeof ms->by_label);
    memset(&ms->by_digest, 0, sizeof ms->by_digest);
    ms->m = NULL;
    ms->methods = NULL;
    ms->hash = NULL;
    ms->setting = NULL;
    ms->n = ms->cap = ms->nmethod = ms->capmethod = ms->nhash = ms->caphash = 0;
    ms->nsetting = ms->capsetting = 0;
}

/* ---------- the name indexes ---------- */

/* the name of entry i of an array of elements of size stride whose name is at offset off */
static const char *name_at(const void *arr, size_t stride, size_t off, int i) {
    return (const char *)arr + (size_t)i * stride + off;
}

/* FNV-1a of a name */
static size_t name_hash(const char *s) {
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

/* the first entry called name, or -1 */
static int index_find(const tc_metrics_index *x, const void *arr, size_t stride, size_t off,
                      const char *name) {
    if (!x->cap) return -1;
    for (size_t h = name_hash(name) & (size_t)(x->cap - 1);; h = (h + 1) & (size_t)(x->cap - 1)) {
        int i = x->slot[h] - 1;
        if (i < 0 || !strcmp(name_at(arr, stride, off, i), name)) return i;
    }
}

/* entry i into the index unless its name is there already */
static void index_put(tc_metrics_index *x, const void *arr, size_t stride, size_t off, int i) {
    const char *name = name_at(arr, stride, off, i);
    size_t h = name_hash(name) & (size_t)(x->cap - 1);
    for (; x->slot[h]; h = (h + 1) & (size_t)(x->cap - 1))
        if (!strcmp(name_at(arr, stride, off, x->slot[h] - 1), name)) return;
    x->slot[h] = i + 1;
}

/* the last of the n entries (its name final) into the index, which is rebuilt at twice the size
 * when it would be more than half full; oom set on failure */
static void index_add(tc_metrics *ms, tc_metrics_index *x, const void *arr, size_t stride,
                      size_t off, int n) {
    if (2 * n > x->cap) {
        int cap = x->cap ? 2 * x->cap : 64;
        int *slot = calloc((size_t)cap, sizeof *slot);
        if (!slot) {
            ms->oom = 1;
            return;
        }
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
        for (int i = 0; i < n - 1; i++)
            index_put(x, arr, stride, off, i);
    }
    index_put(x, arr, stride, off, n - 1);
}

/* room for one more element of an array that grows by doubling; NULL (and oom set) on failure */
static void *grow(tc_metrics *ms, void **arr, int *n, int *cap, size_t size) {
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        void *p = realloc(*arr, (size_t)c * size);
        if (!p) {
            ms->oom = 1;
            return NULL;
        }
        *arr = p;
        *cap = c;
    }
    char *slot = (char *)*arr + (size_t)(*n)++ * size;
    memset(slot, 0, size);
    return slot;
}

void tc_metrics_add(tc_metrics *ms, const char *method, const char *name, double value,
                    const char *unit, double tol_abs, double tol_rel, unsigned flags,
                    const char *doc) {
    tc_metric *m = grow(ms, (void **)&ms->m, &ms->n, &ms->cap, sizeof *m);
    if (!m) return;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "");
    snprintf(m->method, sizeof m->method, "%s", method ? method : "");
    m->value = value;
    snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "");
    m->tol_abs = tol_abs;
    m->tol_rel = tol_rel;
    m->flags = flags;
    snprintf(m->doc, sizeof m->doc, "%s", doc ? doc : "");
    index_add(ms, &ms->by_name, ms->m, sizeof *ms->m, offsetof(tc_metric, name), ms->n);
}

void tc_metrics_ran(tc_metrics *ms, const char *label, const char *cpu, const char *cpu_kind) {
    tc_metrics_method *r = grow(ms, (void **)&ms->methods, &ms->nmethod, &ms->capmethod, sizeof *r);
    if (!r) return;
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
    snprintf(r->cpu, sizeof r->cpu, "%s", cpu ? cpu : "");
    snprintf(r->cpu_kind, sizeof r->cpu_kind, "%s", cpu_kind ? cpu_kind : "");
    r->runs = r->failed = -1;
    index_add(ms, &ms->by_label, ms->methods, sizeof *ms->methods,
              offsetof(tc_metrics_method, label), ms->nmethod);
}

void tc_metrics_method_info(tc_metrics *ms, const char *label, const char *spec, const char *params,
                            int runs, int failed, const char *reason) {
    int i = tc_metrics_find_method(ms, label ? label : "");
    if (i < 0) return;
    tc_metrics_method *r = &ms->methods[i];
    snprintf(r->spec, sizeof r->spec, "%s", spec ? spec : "");
    snprintf(r->params, sizeof r->params, "%s", params ? params : "");
    r->runs = runs;
    r->failed = failed;
    snprintf(r->failed_reason, sizeof r->failed_reason, "%s", reason ? reason : "");
}

void tc_metrics_setting_add(tc_metrics *ms, const char *key, const char *value) {
    tc_metrics_setting *e =
        grow(ms, (void **)&ms->setting, &ms->nsetting, &ms->capsetting, sizeof *e);
    if (!e) return;
    snprintf(e->key, sizeof e->key, "%s", key ? key : "");
    snprintf(e->value, sizeof e->value, "%s", value ? value : "");
}

void tc_metrics_set_hash(tc_metrics *ms, const char *method, const char *hash, const char *cpu,
                         const char *cpu_kind) {
    int i = tc_metrics_find_hash(ms, method ? method : "");
    tc_result_hash *h =
        i >= 0 ? &ms->hash[i] : grow(ms, (void **)&ms->hash, &ms->nhash, &ms->caphash, sizeof *h);
    if (!h) return;
    snprintf(h->method, sizeof h->method, "%s", method ? method : "");
    snprintf(h->hash, sizeof h->hash, "%s", hash ? hash : "");
    snprintf(h->cpu, sizeof h->cpu, "%s", cpu ? cpu : "");
    snprintf(h->cpu_kind, sizeof h->cpu_kind, "%s", cpu_kind ? cpu_kind : "");
    if (i < 0)
        index_add(ms, &ms->by_digest, ms->hash, sizeof *ms->hash, offsetof(tc_result_hash, method),
                  ms->nhash);
}

int tc_metrics_find(const tc_metrics *ms, const char *name) {
    return index_find(&ms->by_name, ms->m, sizeof *ms->m, offsetof(tc_metric, name), name);
}

int tc_metrics_find_method(const tc_metrics *ms, const char *label) {
    return index_find(&ms->by_label, ms->methods, sizeof *ms->methods,
                      offsetof(tc_metrics_method, label), label);
}

int tc_metrics_find_hash(const tc_metrics *ms, const char *method) {
    return index_find(&ms->by_digest, ms->hash, sizeof *ms->hash, offsetof(tc_result_hash, method),
                      method);
}

/* ---------- writing ---------- */

/* add a string setting */
static int add_string(config_setting_t *g, const char *key, const char *v) {
    config_setting_t *s = config_setting_add(g, key, CONFIG_TYPE_STRING);
    return s && config_setting_set_string(s, v) == CONFIG_TRUE;
}

/* add an int setting */
static int add_int(config_setting_t *g, const char *key, int v) {
    config_setting_t *s = config_setting_add(g, key, CONFIG_TYPE_INT);
    return s && config_setting_set_int(s, v) == CONFIG_TRUE;
}

/* 1 if libconfig's 15-digit float text reads back as exactly v (same bits, so -0.0 too) */
static int float_text_exact(double v) {
    char txt[64];
    snprintf(txt, sizeof txt, "%.*g", LC_DIGITS, v);
    double back = strtod(txt, NULL);
    return memcmp(&back, &v, sizeof v) == 0;
}

/* add a double: key = float when it is finite at 15 digits (libconfig cannot read nan or inf),
 * key_exact = "%.17g" when there is no float or the float is not exact */
static int add_double(config_setting_t *g, const char *key, double v) {
    char txt[64];
    snprintf(txt, sizeof txt, "%.*g", LC_DIGITS, v);
    int as_float = isfinite(strtod(txt, NULL));
    if (as_float) {
        config_setting_t *s = config_setting_add(g, key, CONFIG_TYPE_FLOAT);
        if (!s || config_setting_set_float(s, v) != CONFIG_TRUE) return 0;
        if (float_text_exact(v)) return 1;
    }
    char exact_key[64], exact[64];
    snprintf(exact_key, sizeof exact_key, "%s_exact", key);
    snprintf(exact, sizeof exact, "%.17g", v);
    return add_string(g, exact_key, exact);
}

/* how a field is written */
typedef enum out_kind { OUT_STRING, OUT_INT, OUT_DOUBLE } out_kind;

/* when a field is written */
typedef enum out_when {
    OUT_ALWAYS,
    OUT_TEXT,    /* when the string at `at` is not empty */
    OUT_COUNTED, /* when the int at `at` is >= 0 */
} out_when;

/* a struct's field written as a setting of a group; a table ends with a row whose name is NULL */
typedef struct out_field {
    const char *name;
    out_kind kind;
    size_t off; /* offsetof the field */
    out_when when;
    size_t at; /* offsetof what `when` looks at */
} out_field;

#define OUT(T, member, name, kind)                                                                 \
    { (name), (kind), offsetof(T, member), OUT_ALWAYS, 0 }
#define OUT_IF(T, member, name, kind, when, at)                                                    \
    { (name), (kind), offsetof(T, member), (when), offsetof(T, at) }
#define OUT_END                                                                                    \
    { NULL, OUT_STRING, 0, OUT_ALWAYS, 0 }

/* the fields of a method that ran */
static const out_field method_fields[] = {
    OUT(tc_metrics_method, label, "label", OUT_STRING),
    OUT_IF(tc_metrics_method, spec, "method", OUT_STRING, OUT_TEXT, spec),
    OUT_IF(tc_metrics_method, params, "params", OUT_STRING, OUT_TEXT, spec),
    OUT_IF(tc_metrics_method, runs, "runs", OUT_INT, OUT_COUNTED, runs),
    OUT_IF(tc_metrics_method, failed, "failed", OUT_INT, OUT_COUNTED, runs),
    OUT_IF(tc_metrics_method, failed_reason, "failed_reason", OUT_STRING, OUT_TEXT, failed_reason),
    OUT_IF(tc_metrics_method, cpu, "cpu", OUT_STRING, OUT_TEXT, cpu),
    OUT_IF(tc_metrics_method, cpu_kind, "cpu_kind", OUT_STRING, OUT_TEXT, cpu_kind),
    OUT_END};

/* the fields of a setting of the script */
static const out_field setting_fields[] = {OUT(tc_metrics_setting, key, "key", OUT_STRING),
                                           OUT(tc_metrics_setting, value, "value", OUT_STRING),
                                           OUT_END};

/* the fields of a metric (its timing flags: add_timing) */
static const out_field metric_fields[] = {
    OUT(tc_metric, name, "name", OUT_STRING),       OUT(tc_metric, method, "method", OUT_STRING),
    OUT(tc_metric, value, "value", OUT_DOUBLE),     OUT(tc_metric, unit, "unit", OUT_STRING),
    OUT(tc_metric, tol_abs, "tol_abs", OUT_DOUBLE), OUT(tc_metric, tol_rel, "tol_rel", OUT_DOUBLE),
    OUT(tc_metric, doc, "doc", OUT_STRING),         OUT_END};

/* the fields of a method's digest */
static const out_field hash_fields[] = {
    OUT(tc_result_hash, method, "method", OUT_STRING),
    OUT(tc_result_hash, hash, "hash", OUT_STRING),
    OUT_IF(tc_result_hash, cpu, "cpu", OUT_STRING, OUT_TEXT, cpu),
    OUT_IF(tc_result_hash, cpu_kind, "cpu_kind", OUT_STRING, OUT_TEXT, cpu_kind), OUT_END};

/* the most rows of a field table (the writer's tables are also the keys the reader allows) */
#define MAXFIELD 16

/* the names of table f's rows, NULL-terminated: the keys a group written by it may hold */
static void field_names(const out_field *f, const char *keys[MAXFIELD + 1]) {
    int k = 0;
    for (; f->name && k < MAXFIELD; f++)
        keys[k++] = f->name;
    keys[k] = NULL;
}

/* 1 when row f is written for the struct at src */
static int out_wanted(const out_field *f, const char *src) {
    if (f->when == OUT_TEXT) return src[f->at] != 0;
    if (f->when == OUT_COUNTED) return *(const int *)(const void *)(src + f->at) >= 0;
    return 1;
}

/* the rows of table f that the struct at src wants, added to group g in order */
static int add_fields(config_setting_t *g, const out_field *f, const void *src) {
    for (; f->name; f++) {
        const void *v = (const char *)src + f->off;
        if (!out_wanted(f, src)) continue;
        int ok;
        switch (f->kind) {
        case OUT_INT:
            ok = add_int(g, f->name, *(const int *)v);
            break;
        case OUT_DOUBLE:
            ok = add_double(g, f->name, *(const double *)v);
            break;
        default:
            ok = add_string(g, f->name, v);
        }
        if (!ok) return 0;
    }
    return 1;
}

/* a list key under root of a group per element of arr, written by table f, then by more */
static int add_groups(config_setting_t *root, const char *key, const out_field *f, const void *arr,
                      size_t stride, int n, int (*more)(config_setting_t *, const void *)) {
    config_setting_t *list = config_setting_add(root, key, CONFIG_TYPE_LIST);
    if (!list) return 0;
    for (int i = 0; i < n; i++) {
        const void *e = (const char *)arr + (size_t)i * stride;
        config_setting_t *g = config_setting_add(list, NULL, CONFIG_TYPE_GROUP);
        if (!g || !add_fields(g, f, e) || (more && !more(g, e))) return 0;
    }
    return 1;
}

/* a timing metric's timing = true and which way is faster */
static int add_timing(config_setting_t *g, const void *e) {
    const tc_metric *m = e;
    if (!(m->flags & TC_METRIC_TIMING)) return 1;
    config_setting_t *t = config_setting_add(g, "timing", CONFIG_TYPE_BOOL);
    return t && config_setting_set_bool(t, 1) == CONFIG_TRUE &&
           add_string(g, "faster", m->flags & TC_METRIC_HIGHER_FASTER ? "higher" : "lower");
}

/* where a reference came from: the provenance group */
static int add_provenance(config_setting_t *root, const char *command) {
    char date[64], host[320];
    tc_utc_now(date, sizeof date);
    tc_host_desc(host, sizeof host);
    config_setting_t *p = config_setting_add(root, "provenance", CONFIG_TYPE_GROUP);
    return p && add_string(p, "generated", date) && add_string(p, "revision", tc_revision()) &&
           add_string(p, "host", host) && add_string(p, "command", command) &&
           add_string(p, "touche_version", tc_version()) &&
           add_string(p, "note",
                      "regenerated by `touche check --update` (or --update-new); "
                      "review the diff before committing");
}

/* experiment, tier, the methods that ran, the metrics list, the digests, and the provenance
 * group when command is not NULL */
static int build_config(config_t *cfg, const tc_metrics *ms, const char *command) {
    config_setting_t *root = config_root_setting(cfg);
    if (!add_string(root, "experiment", ms->experiment) || !add_string(root, "tier", ms->tier))
        return 0;
    /* the methods that ran, and whether others were left out on purpose */
    config_setting_t *f = config_setting_add(root, "filtered", CONFIG_TYPE_BOOL);
    if (!f || config_setting_set_bool(f, ms->filtered) != CONFIG_TRUE ||
        !add_groups(root, "methods", method_fields, ms->methods, sizeof *ms->methods, ms->nmethod,
                    NULL))
        return 0;
    /* the script's settings at the run's tier, one group each (a line each in a diff) */
    if (ms->nsetting && !add_groups(root, "settings", setting_fields, ms->setting,
                                    sizeof *ms->setting, ms->nsetting, NULL))
        return 0;
    /* one group per metric, in the order they were added; the digests of the results, per method */
    if (!add_groups(root, "metrics", metric_fields, ms->m, sizeof *ms->m, ms->n, add_timing) ||
        !add_groups(root, "hashes", hash_fields, ms->hash, sizeof *ms->hash, ms->nhash, NULL))
        return 0;
    return !command || add_provenance(root, command);
}

/* write ms (with provenance when command is not NULL) to path atomically */
static tc_status write_metrics(const tc_metrics *ms, const char *path, const char *command,
                               tc_error *err) {
    if (ms->oom)
        return tc_error_set(err, TC_ENOMEM, path, 0, NULL, "%s: out of memory collecting metrics",
                            ms->experiment);
    for (int i = 0; i < ms->n; i++) {
        char why[200];
        if (!tc_metrics_metric_name_ok(ms->m[i].name, why, sizeof why))
            return tc_error_set(err, TC_EINVAL, path, 0, NULL, "%s: metric %d '%s' %s",
                                ms->experiment, i + 1, ms->m[i].name, why);
        if (tc_metrics_find(ms, ms->m[i].name) != i)
            return tc_error_set(err, TC_EINVAL, path, 0, NULL,
                                "%s: metric %d '%s' has the name of metric %d", ms->experiment,
                                i + 1, ms->m[i].name, tc_metrics_find(ms, ms->m[i].name) + 1);
    }

    /* build the tree, then serialize it into the temp file */
    config_t cfg;
    config_init(&cfg);
    tc_status st;
    if (!build_config(&cfg, ms, command)) {
        st = tc_error_set(err, TC_ENOMEM, path, 0, NULL, "cannot build the metrics of %s",
                          ms->experiment);
    } else {
        tc_outfile o;
        st = tc_outfile_open(&o, path, err);
        if (st == TC_OK) {
            config_write(&cfg, o.f);
            st = tc_outfile_commit(&o, err);
        }
    }
    config_destroy(&cfg);
    return st;
}

tc_status tc_metrics_write(const tc_metrics *ms, const char *path, tc_error *err) {
    return write_metrics(ms, path, NULL, err);
}

tc_status tc_metrics_write_reference(const tc_metrics *ms, const char *path, const char *command,
                                     tc_error *err) {
    return write_metrics(ms, path, command ? command : "", err);
}

/* ---------- reading ---------- */

/* a numeric setting (int or float) as a double; 0 if absent or not a number */
static int get_number(const config_setting_t *g, const char *key, double *v) {
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s) return 0;
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
        *v = config_setting_get_int(s);
        return 1;
    case CONFIG_TYPE_INT64:
        *v = (double)config_setting_get_int64(s);
        return 1;
    case CONFIG_TYPE_FLOAT:
        *v = config_setting_get_float(s);
        return 1;
    default:
        return 0;
    }
}

/* key as a double refined by key_exact (see the top of this file); 1 found, 0 absent, -1 bad */
static int get_double(const config_setting_t *g, const char *key, double *v) {
    double f = 0;
    int have_float = get_number(g, key, &f);
    const config_setting_t *x = config_setting_get_member(g, key);
    if (x && !have_float) return -1;

    /* the exact text, if any, parsed completely */
    char exact_key[64];
    snprintf(exact_key, sizeof exact_key, "%s_exact", key);
    const char *txt = NULL;
    if (!config_setting_lookup_string(g, exact_key, &txt)) {
        if (have_float) *v = f;
        return have_float;
    }
    char *end;
    double e = strtod(txt, &end);
    if (end == txt || *end) return -1;

    /* the exact value stands unless the float was edited away from its 15-digit form */
    char ef[64], ff[64];
    snprintf(ef, sizeof ef, "%.*g", LC_DIGITS, e);
    snprintf(ff, sizeof ff, "%.*g", LC_DIGITS, f);
    *v = (!have_float || strcmp(ef, ff) == 0) ? e : f;
    return 1;
}

/* a string member copied into dst ("" if absent) */
static void get_string(const config_setting_t *g, const char *key, char *dst, size_t n) {
    const char *s = NULL;
    snprintf(dst, n, "%s", config_setting_lookup_string(g, key, &s) ? s : "");
}

/* a boolean member (0 when absent) */
static int get_bool(const config_setting_t *g, const char *key) {
    int b = 0;
    return config_setting_lookup_bool(g, key, &b) == CONFIG_TRUE && b;
}

/* every member of group g is one of keys (NULL-terminated): a misspelt key in a reference file
 * would otherwise be dropped silently (a tolerance read as 0) */
static tc_status only_keys(const config_setting_t *g, const char *const *keys, const char *path,
                           tc_error *err) {
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
        const char *nm = config_setting_name(e);
        int ok = 0;
        for (int k = 0; keys[k] && !ok; k++)
            ok = nm && !strcmp(nm, keys[k]);
        if (!ok)
            return tc_error_set(err, TC_EPARSE, path, (int)config_setting_source_line(e), nm,
                                "unknown key in a metrics file");
    }
    return TC_OK;
}

/* one metric group; the error names the file, line and metric */
static tc_status read_metric(const config_setting_t *g, tc_metric *m, const char *path,
                             tc_error *err) {
    static const char *const keys[] = {
        "name",    "method",        "value", "value_exact", "unit",   "tol_abs", "tol_abs_exact",
        "tol_rel", "tol_rel_exact", "doc",   "timing",      "faster", NULL};
    int line = (int)config_setting_source_line(g);
    tc_status st = only_keys(g, keys, path, err);
    if (st) return st;
    get_string(g, "name", m->name, sizeof m->name);
    get_string(g, "method", m->method, sizeof m->method);
    get_string(g, "unit", m->unit, sizeof m->unit);
    get_string(g, "doc", m->doc, sizeof m->doc);
    m->flags = get_bool(g, "timing") ? TC_METRIC_TIMING : 0;
    /* the name whole (a longer one would be cut to another metric's name) */
    const char *raw = "";
    config_setting_lookup_string(g, "name", &raw);
    char why[200];
    if (!tc_metrics_metric_name_ok(raw, why, sizeof why))
        return tc_error_set(err, TC_EPARSE, path, line, "name", "metric '%.95s' %s", raw, why);
    char faster[16];
    get_string(g, "faster", faster, sizeof faster);
    if (faster[0] && strcmp(faster, "higher") && strcmp(faster, "lower"))
        return tc_error_set(err, TC_EPARSE, path, line, m->name,
                            "faster must be \"higher\" or \"lower\", not \"%s\"", faster);
    if (!strcmp(faster, "higher")) m->flags |= TC_METRIC_HIGHER_FASTER;

    /* value is required; tolerances default to 0 (exact match) */
    if (get_double(g, "value", &m->value) != 1)
        return tc_error_set(err, TC_EPARSE, path, line, m->name, "missing or malformed value");
    if (get_double(g, "tol_abs", &m->tol_abs) < 0 || get_double(g, "tol_rel", &m->tol_rel) < 0)
        return tc_error_set(err, TC_EPARSE, path, line, m->name, "malformed tolerance");
    /* a tolerance that is infinite, NaN or negative would pass anything or nothing */
    if (!(isfinite(m->tol_abs) && m->tol_abs >= 0 && isfinite(m->tol_rel) && m->tol_rel >= 0))
        return tc_error_set(err, TC_EPARSE, path, line, m->name,
                            "tolerances must be finite and >= 0 (tol_abs %g, tol_rel %g)",
                            m->tol_abs, m->tol_rel);
    return TC_OK;
}

/* what a method ran with and how its runs went (runs = -1 when the file does not say) */
static tc_status read_runs(const config_setting_t *g, tc_metrics_method *r, const char *path,
                           tc_error *err) {
    get_string(g, "method", r->spec, sizeof r->spec);
    get_string(g, "params", r->params, sizeof r->params);
    get_string(g, "failed_reason", r->failed_reason, sizeof r->failed_reason);
    int line = (int)config_setting_source_line(g);
    int have_runs = config_setting_lookup_int(g, "runs", &r->runs) == CONFIG_TRUE;
    int have_failed = config_setting_lookup_int(g, "failed", &r->failed) == CONFIG_TRUE;
    if (!have_runs && !have_failed) {
        r->runs = r->failed = -1;
        return TC_OK;
    }
    if (!have_runs || !have_failed || r->runs < 0 || r->failed < 0 || r->failed > r->runs)
        return tc_error_set(err, TC_EPARSE, path, line, r->label,
                            "runs and failed must both be integers with 0 <= failed <= runs");
    return TC_OK;
}

/* a list of groups under key (absent: an empty list); each entry must be a group */
static tc_status group_list(const config_setting_t *root, const char *key, const char *path,
                            const config_setting_t **out, int *n, tc_error *err) {
    const config_setting_t *l = config_setting_get_member(root, key);
    *out = l;
    *n = 0;
    if (!l) return TC_OK;
    if (!(config_setting_is_list(l) || config_setting_is_array(l)))
        return tc_error_set(err, TC_EPARSE, path, (int)config_setting_source_line(l), key,
                            "must be a list of groups");
    *n = config_setting_length(l);
    for (int i = 0; i < *n; i++)
        if (!config_setting_is_group(config_setting_get_elem(l, (unsigned)i)))
            return tc_error_set(
                err, TC_EPARSE, path,
                (int)config_setting_source_line(config_setting_get_elem(l, (unsigned)i)), key,
                "entry %d is not a group", i + 1);
    return TC_OK;
}

/* the script's settings, a list of { key; value; } groups */
static tc_status read_settings(const config_setting_t *root, tc_metrics *ms, const char *path,
                               tc_error *err) {
    static const char *const keys[] = {"key", "value", NULL};
    const config_setting_t *l;
    int n = 0;
    tc_status st = group_list(root, "settings", path, &l, &n, err);
    for (int i = 0; !st && i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(l, (unsigned)i);
        const char *key = NULL, *value = NULL;
        if ((st = only_keys(g, keys, path, err))) break;
        if (!config_setting_lookup_string(g, "key", &key) || !key[0] ||
            !config_setting_lookup_string(g, "value", &value))
            return tc_error_set(err, TC_EPARSE, path, (int)config_setting_source_line(g),
                                "settings", "entry %d needs a key and a value (strings)", i + 1);
        tc_metrics_setting_add(ms, key, value);
    }
    return st;
}

int tc_metrics_name_ok(const char *s, char *why, size_t n) {
    size_t len = strlen(s);
    if (len == 0 || len > 64) {
        snprintf(why, n, "must have 1 to 64 characters (has %zu)", len);
        return 0;
    }
    if (s[0] == '-') {
        snprintf(why, n, "must not start with '-'");
        return 0;
    }
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '_')) {
            snprintf(why, n,
                     "may hold only letters, digits, '-' and '_' (it becomes part "
                     "of file names and CSV fields); '%c' is not allowed",
                     isprint((unsigned char)*p) ? *p : '?');
            return 0;
        }
    return 1;
}

int tc_metrics_metric_name_ok(const char *s, char *why, size_t n) {
    size_t len = strlen(s);
    if (len == 0 || len > 95) {
        snprintf(why, n, "must have 1 to 95 characters (has %zu)", len);
        return 0;
    }
    for (const char *p = s; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-+", *p))) {
            snprintf(why, n,
                     "may hold only letters, digits, '.', '_', '-' and '+' (it "
                     "becomes a field of history.tsv and a table cell); '%c' is not "
                     "allowed",
                     isprint((unsigned char)*p) ? *p : '?');
            return 0;
        }
    return 1;
}

/* the experiment's and the tier's names, which become file names: validated */
static tc_status check_names(const config_setting_t *root, const tc_metrics *ms, const char *path,
                             tc_error *err) {
    const char *key[2] = {"experiment", "tier"}, *val[2] = {ms->experiment, ms->tier};
    for (int k = 0; k < 2; k++) {
        char why[160];
        /* absent: a file that names no experiment names no path either (the check refuses it) */
        if (!val[k][0] || tc_metrics_name_ok(val[k], why, sizeof why)) continue;
        const config_setting_t *g = config_setting_get_member(root, key[k]);
        return tc_error_set(err, TC_EINVAL, path, g ? (int)config_setting_source_line(g) : 0,
                            key[k], "'%s' %s", val[k], why);
    }
    return TC_OK;
}

/* the methods that ran: n groups of list l, each added to ms with its runs */
static tc_status read_methods(const config_setting_t *l, int n, tc_metrics *ms, const char *path,
                              tc_error *err) {
    const char *keys[MAXFIELD + 1];
    field_names(method_fields, keys);
    tc_status st = TC_OK;
    for (int i = 0; st == TC_OK && i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(l, (unsigned)i);
        if ((st = only_keys(g, keys, path, err))) break;
        char label[TC_LABEL_MAX + 1], cpu[200], kind[64];
        get_string(g, "label", label, sizeof label);
        get_string(g, "cpu", cpu, sizeof cpu);
        get_string(g, "cpu_kind", kind, sizeof kind);
        tc_metrics_ran(ms, label, cpu, kind);
        if (ms->oom) break;
        st = read_runs(g, &ms->methods[ms->nmethod - 1], path, err);
    }
    return st;
}

/* the metrics: n groups of list l, each added to ms; a name twice is an error */
static tc_status read_metrics(const config_setting_t *l, int n, tc_metrics *ms, const char *path,
                              tc_error *err) {
    tc_status st = TC_OK;
    for (int i = 0; st == TC_OK && i < n; i++) {
        tc_metric m;
        memset(&m, 0, sizeof m);
        const config_setting_t *g = config_setting_get_elem(l, (unsigned)i);
        st = read_metric(g, &m, path, err);
        if (st == TC_OK && tc_metrics_find(ms, m.name) >= 0)
            st = tc_error_set(err, TC_EPARSE, path, (int)config_setting_source_line(g), m.name,
                              "a second metric of this name (the first is entry %d)",
                              tc_metrics_find(ms, m.name) + 1);
        if (st == TC_OK)
            tc_metrics_add(ms, m.method, m.name, m.value, m.unit, m.tol_abs, m.tol_rel, m.flags,
                           m.doc);
    }
    return st;
}

/* the digests: n groups of list l, each added to ms; one without a hash is an error */
static tc_status read_hashes(const config_setting_t *l, int n, tc_metrics *ms, const char *path,
                             tc_error *err) {
    const char *keys[MAXFIELD + 1];
    field_names(hash_fields, keys);
    tc_status st = TC_OK;
    for (int i = 0; st == TC_OK && i < n; i++) {
        const config_setting_t *g = config_setting_get_elem(l, (unsigned)i);
        if ((st = only_keys(g, keys, path, err))) break;
        char method[TC_LABEL_MAX + 1], hash[32], cpu[200], kind[64];
        get_string(g, "method", method, sizeof method);
        get_string(g, "hash", hash, sizeof hash);
        get_string(g, "cpu", cpu, sizeof cpu);
        get_string(g, "cpu_kind", kind, sizeof kind);
        if (!hash[0])
            st = tc_error_set(err, TC_EPARSE, path, (int)config_setting_source_line(g), "hashes",
                              "entry %d has no hash", i + 1);
        else
            tc_metrics_set_hash(ms, method, hash, cpu, kind);
    }
    return st;
}

/* a parsed file's header, methods that ran, settings, metrics and digests into ms; nothing else */
static tc_status read_root(const config_setting_t *root, tc_metrics *ms, const char *path,
                           tc_error *err) {
    static const char *const top[] = {"experiment", "tier",     "filtered",   "methods", "metrics",
                                      "hashes",     "settings", "provenance", NULL};
    tc_status st = only_keys(root, top, path, err);
    get_string(root, "experiment", ms->experiment, sizeof ms->experiment);
    get_string(root, "tier", ms->tier, sizeof ms->tier);
    ms->filtered = get_bool(root, "filtered");
    const config_setting_t *list = config_setting_get_member(root, "metrics");
    if (!st && (!list || !(config_setting_is_list(list) || config_setting_is_array(list))))
        st = tc_error_set(err, TC_EPARSE, path, 0, "metrics", "missing the metrics list");
    const config_setting_t *ran = NULL, *hashes = NULL;
    int nran = 0, nhash = 0, n = 0;
    if (st == TC_OK) st = group_list(root, "methods", path, &ran, &nran, err);
    if (st == TC_OK) st = group_list(root, "hashes", path, &hashes, &nhash, err);
    if (st == TC_OK) st = group_list(root, "metrics", path, &list, &n, err);
    if (st == TC_OK) st = read_methods(ran, nran, ms, path, err);
    if (st == TC_OK) st = read_settings(root, ms, path, err);
    if (st == TC_OK) st = read_metrics(list, n, ms, path, err);
    if (st == TC_OK) st = read_hashes(hashes, nhash, ms, path, err);
    if (st == TC_OK && ms->oom)
        st = tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory reading %s", path);
    if (st == TC_OK) st = check_names(root, ms, path, err);
    return st;
}

tc_status tc_metrics_read(tc_metrics *ms, const char *path, tc_error *err) {
    tc_metrics_init(ms, "", "");
    if (!tc_file_readable(path))
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read %s", path);

    /* parse */
    config_t cfg;
    config_init(&cfg);
    tc_status st = TC_OK;
    if (!config_read_file(&cfg, path)) {
        st = tc_error_set(err, TC_EPARSE, path, config_error_line(&cfg), NULL, "%s",
                          config_error_text(&cfg));
        config_destroy(&cfg);
        return st;
    }
    st = read_root(config_root_setting(&cfg), ms, path, err);
    config_destroy(&cfg);
    return st;
}
