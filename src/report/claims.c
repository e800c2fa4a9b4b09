/* SPDX-License-Identifier: MIT */
/* the papers' claims: loaded from each experiment's claims.cfg, judged from a run's metrics,
 * written as each section's verdicts and as the report's table of every claim */
#include "report/tc_claims.h"
#include "report/tc_table.h"
#include "core/tc_fs.h"

#include <dirent.h>
#include <libconfig.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const verdict_names[] = {"reproduced",
                                            "partly reproduced",
                                            "not reproduced",
                                            "not run",
                                            "not testable at this tier",
                                            "not yet implemented",
                                            "figure only",
                                            "its runs failed"};

const char *tc_verdict_str(tc_verdict v) {
    return (unsigned)v < sizeof verdict_names / sizeof *verdict_names ? verdict_names[v] : "?";
}

void tc_claims_free(tc_claims *c) {
    free(c->c);
    c->c = NULL;
    c->n = 0;
}

/* ---------- loading ---------- */

/* a string key into buf (required or not); TC_EINVAL naming the line and key when it is not a
 * string, does not fit, or holds a character the PDF cannot typeset */
static tc_status get_str(const char *path, config_setting_t *g, const char *key, int required,
                         char *buf, size_t n, tc_error *err) {
    config_setting_t *s = config_setting_get_member(g, key);
    int line = config_setting_source_line(s ? s : g);
    buf[0] = 0;
    if (!s) {
        if (!required) return TC_OK;
        return tc_error_set(err, TC_EINVAL, path, line, key, "a claim needs '%s'", key);
    }
    const char *v = config_setting_get_string(s);
    if (!v) return tc_error_set(err, TC_EINVAL, path, line, key, "must be a string");
    if (strlen(v) >= n)
        return tc_error_set(err, TC_EINVAL, path, line, key, "longer than %zu characters", n - 1);
    /* asked of the characters alone: a note of 300 backslashes escapes to 4.8 kB and is fine */
    if (!tc_latex_mappable(v))
        return tc_error_set(err, TC_EINVAL, path, line, key,
                            "has a character without a LaTeX form (src/report/table.c latex_map)");
    snprintf(buf, n, "%s", v);
    return TC_OK;
}

/* a range [lo, hi] of two numbers, lo <= hi; absent: NAN, NAN */
static tc_status get_range(const char *path, config_setting_t *g, const char *key, double *lo,
                           double *hi, tc_error *err) {
    config_setting_t *s = config_setting_get_member(g, key);
    *lo = *hi = NAN;
    if (!s) return TC_OK;
    int line = config_setting_source_line(s);
    if (config_setting_length(s) != 2 || !config_setting_is_aggregate(s))
        return tc_error_set(err, TC_EINVAL, path, line, key, "must be [lo, hi]");
    *lo = config_setting_get_float_elem(s, 0);
    *hi = config_setting_get_float_elem(s, 1);
    config_setting_t *e0 = config_setting_get_elem(s, 0), *e1 = config_setting_get_elem(s, 1);
    if (config_setting_type(e0) != CONFIG_TYPE_FLOAT ||
        config_setting_type(e1) != CONFIG_TYPE_FLOAT || !isfinite(*lo) || !isfinite(*hi) ||
        *lo > *hi)
        return tc_error_set(err, TC_EINVAL, path, line, key,
                            "must be [lo, hi] with finite lo <= hi, written as reals (1.0, not 1)");
    return TC_OK;
}

/* a real number (absent: NAN) */
static tc_status get_real(const char *path, config_setting_t *g, const char *key, double *v,
                          tc_error *err) {
    config_setting_t *s = config_setting_get_member(g, key);
    *v = NAN;
    if (!s) return TC_OK;
    int t = config_setting_type(s);
    if (t != CONFIG_TYPE_FLOAT && t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
        return tc_error_set(err, TC_EINVAL, path, config_setting_source_line(s), key,
                            "must be a number");
    *v = t == CONFIG_TYPE_FLOAT ? config_setting_get_float(s) : (double)config_setting_get_int64(s);
    if (!isfinite(*v))
        return tc_error_set(err, TC_EINVAL, path, config_setting_source_line(s), key,
                            "must be finite");
    return TC_OK;
}

/* the tiers that can test a claim: a list of "quick" and "full", kept space-separated */
static tc_status get_tiers(const char *path, config_setting_t *g, char *buf, size_t n,
                           tc_error *err) {
    config_setting_t *s = config_setting_get_member(g, "tiers");
    buf[0] = 0;
    if (!s) return TC_OK;
    int line = config_setting_source_line(s);
    if (!config_setting_is_array(s) || config_setting_length(s) < 1)
        return tc_error_set(err, TC_EINVAL, path, line, "tiers",
                            "must be [\"quick\"], [\"full\"] or both");
    for (int i = 0; i < config_setting_length(s); i++) {
        const char *t = config_setting_get_string_elem(s, i);
        if (!t || (strcmp(t, "quick") && strcmp(t, "full")))
            return tc_error_set(err, TC_EINVAL, path, line, "tiers",
                                "element %d must be \"quick\" or \"full\"", i + 1);
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? " " : "", t);
    }
    return TC_OK;
}

/* how a claim's key is read */
typedef enum claim_kind {
    CLAIM_STR,   /* a string into char[size] (get_str) */
    CLAIM_RANGE, /* [lo, hi] into two doubles, hi at off2 (get_range) */
    CLAIM_REAL,  /* a number into a double (get_real) */
    CLAIM_TIERS, /* the tiers into char[size] (get_tiers) */
} claim_kind;

/* a key a claim may have: where and how it is read */
typedef struct claim_key {
    const char *name;
    claim_kind kind;
    size_t off, off2; /* offsetof the tc_claim member(s) it fills */
    size_t size;      /* a string's array size */
    int required;
} claim_key;

#define CLAIM_S(member, name, required)                                                            \
    {                                                                                              \
        (name), CLAIM_STR, offsetof(tc_claim, member), 0, sizeof(((tc_claim *)0)->member),         \
            (required)                                                                             \
    }

/* every key a claim may have, in the order they are read (the first error wins) */
static const claim_key claim_keys[] = {
    CLAIM_S(id, "id", 1),
    CLAIM_S(experiment, "experiment", 1),
    CLAIM_S(paper, "paper", 1),
    CLAIM_S(text, "claim", 1),
    CLAIM_S(paper_value, "paper_value", 1),
    CLAIM_S(metric, "metric", 0),
    CLAIM_S(over, "over", 0),
    CLAIM_S(figure, "figure", 0),
    CLAIM_S(note, "note", 1),
    {"reproduced", CLAIM_RANGE, offsetof(tc_claim, lo), offsetof(tc_claim, hi), 0, 0},
    {"partly", CLAIM_RANGE, offsetof(tc_claim, plo), offsetof(tc_claim, phi), 0, 0},
    CLAIM_S(measure, "measure", 0),
    {"null", CLAIM_REAL, offsetof(tc_claim, null_value), 0, 0, 0},
    CLAIM_S(null_is, "null_is", 0),
    {"tiers", CLAIM_TIERS, offsetof(tc_claim, tiers), 0, sizeof(((tc_claim *)0)->tiers), 0},
    CLAIM_S(trials, "trials", 0),
    {NULL, CLAIM_STR, 0, 0, 0, 0}};

/* one key of a claim read into k as its row says */
static tc_status get_key(const char *path, config_setting_t *g, const claim_key *r, tc_claim *k,
                         tc_error *err) {
    char *at = (char *)k + r->off;
    switch (r->kind) {
    case CLAIM_RANGE:
        return get_range(path, g, r->name, (void *)at, (void *)((char *)k + r->off2), err);
    case CLAIM_REAL:
        return get_real(path, g, r->name, (void *)at, err);
    case CLAIM_TIERS:
        return get_tiers(path, g, at, r->size, err);
    default:
        return get_str(path, g, r->name, r->required, at, r->size, err);
    }
}

/* TC_EINVAL naming the first member of group g that is not a claim's key: typos, not silence */
static tc_status known_keys(const char *path, config_setting_t *g, tc_error *err) {
    for (int m = 0; m < config_setting_length(g); m++) {
        config_setting_t *s = config_setting_get_elem(g, (unsigned)m);
        int known = 0;
        for (int q = 0; claim_keys[q].name && !known; q++)
            known = !strcmp(claim_keys[q].name, config_setting_name(s));
        if (!known)
            return tc_error_set(err, TC_EINVAL, path, config_setting_source_line(s),
                                config_setting_name(s), "unknown key of a claim");
    }
    return TC_OK;
}

/* the keys of claim k that go together: null with null_is, metric with experiment, figure */
static tc_status check_together(const char *path, const tc_claim *k, tc_error *err) {
    /* a null outcome is a value and what it stands for, together */
    if (isnan(k->null_value) != !k->null_is[0])
        return tc_error_set(err, TC_EINVAL, path, k->line,
                            isnan(k->null_value) ? "null" : "null_is",
                            "claim %s: 'null' (the metric's value for the null outcome) and "
                            "'null_is' (what that outcome is) go together",
                            k->id);
    if (!k->metric[0] && (k->measure[0] || !isnan(k->null_value) || k->trials[0]))
        return tc_error_set(err, TC_EINVAL, path, k->line, "metric",
                            "claim %s has measure, null or trials but no metric", k->id);
    /* a measured claim needs its experiment and its range; an unmeasured one neither */
    if (k->metric[0] && (!k->experiment[0] || isnan(k->lo)))
        return tc_error_set(err, TC_EINVAL, path, k->line,
                            k->metric[0] && !k->experiment[0] ? "experiment" : "reproduced",
                            "claim %s has a metric, so it needs an experiment and a range", k->id);
    if (!k->metric[0] && (k->over[0] || !isnan(k->lo) || !isnan(k->plo)))
        return tc_error_set(err, TC_EINVAL, path, k->line, "metric",
                            "claim %s has ranges or 'over' but no metric", k->id);
    /* a figure stands in for a metric: it needs the experiment that draws it */
    if (k->figure[0] && (k->metric[0] || !k->experiment[0]))
        return tc_error_set(err, TC_EINVAL, path, k->line, "figure",
                            "claim %s: a figure is for a claim without a metric, and needs the "
                            "experiment that draws it",
                            k->id);
    return TC_OK;
}

/* claim i of the file, group g, read into c->c[i] and checked (its id unlike claims 0..i-1) */
static tc_status read_claim(const char *path, config_setting_t *g, tc_claims *c, int i,
                            tc_error *err) {
    tc_claim *k = &c->c[i];
    k->line = config_setting_source_line(g);
    if (!config_setting_is_group(g))
        return tc_error_set(err, TC_EINVAL, path, k->line, NULL, "a claim is a group { ... }");
    tc_status st = known_keys(path, g, err);
    for (int q = 0; claim_keys[q].name && !st; q++)
        st = get_key(path, g, &claim_keys[q], k, err);
    if (!st) st = check_together(path, k, err);
    for (int j = 0; j < i && !st; j++)
        if (!strcmp(c->c[j].id, k->id))
            st = tc_error_set(err, TC_EINVAL, path, k->line, "id", "'%s' again (line %d)", k->id,
                              c->c[j].line);
    return st;
}

tc_status tc_claims_load(tc_claims *c, const char *path, tc_error *err) {
    c->n = 0;
    c->c = NULL;
    config_t cfg;
    config_init(&cfg);
    if (config_read_file(&cfg, path) != CONFIG_TRUE) {
        tc_status st = config_error_type(&cfg) == CONFIG_ERR_FILE_IO
                           ? tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the claims file")
                           : tc_error_set(err, TC_EINVAL, path, config_error_line(&cfg), NULL, "%s",
                                          config_error_text(&cfg));
        config_destroy(&cfg);
        return st;
    }
    tc_status st = TC_OK;
    config_setting_t *list = config_lookup(&cfg, "claims");
    if (!list || !config_setting_is_list(list))
        st = tc_error_set(err, TC_EINVAL, path, 0, "claims", "needs a list 'claims = ( ... );'");
    int n = st ? 0 : config_setting_length(list);
    if (!st && !(c->c = calloc((size_t)n + 1, sizeof *c->c))) st = TC_ENOMEM;
    for (int i = 0; i < n && !st; i++)
        st = read_claim(path, config_setting_get_elem(list, (unsigned)i), c, i, err);
    config_destroy(&cfg);
    if (st) {
        tc_claims_free(c);
        return st;
    }
    c->n = n;
    return TC_OK;
}

/* a file's claims appended to c (moved: from is emptied); a claim id that c already has is an
 * error naming the file and line */
static tc_status append(tc_claims *c, tc_claims *from, const char *path, tc_error *err) {
    for (int i = 0; i < from->n; i++)
        for (int j = 0; j < c->n; j++)
            if (!strcmp(c->c[j].id, from->c[i].id))
                return tc_error_set(err, TC_EINVAL, path, from->c[i].line, "id",
                                    "'%s' is a claim of another experiment's file too",
                                    from->c[i].id);
    tc_claim *all = realloc(c->c, (size_t)(c->n + from->n + 1) * sizeof *all);
    if (!all) return TC_ENOMEM;
    memcpy(all + c->n, from->c, (size_t)from->n * sizeof *all);
    c->c = all;
    c->n += from->n;
    tc_claims_free(from);
    return TC_OK;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

tc_status tc_claims_load_all(tc_claims *c, const char *source_dir, tc_error *err) {
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/experiments", source_dir);
    c->n = 0;
    c->c = NULL;
    struct dirent **ents;
    /* a source tree without experiments (a stripped copy) has no claims */
    int ne = scandir(dir, &ents, NULL, by_name);
    if (ne < 0) return TC_OK;
    tc_status st = TC_OK;
    /* each folder's claims.cfg, in folder order (e1 ... e7, then a user's) */
    for (int i = 0; i < ne; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s/claims.cfg", dir, ents[i]->d_name);
        tc_claims one;
        if (!st && ents[i]->d_name[0] != '.' && tc_file_readable(path)) {
            st = tc_claims_load(&one, path, err);
            if (!st) st = append(c, &one, path, err);
            tc_claims_free(&one);
        }
        free(ents[i]);
    }
    free(ents);
    if (st) tc_claims_free(c);
    return st;
}

/* ---------- judging ---------- */

/* 1 when tier is one of the claim's tiers (or it has none) */
static int testable_at(const tc_claim *c, const char *tier) {
    if (!c->tiers[0] || !tier || !tier[0]) return 1;
    size_t n = strlen(tier);
    for (const char *p = c->tiers; (p = strstr(p, tier)); p += n)
        if ((p == c->tiers || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return 1;
    return 0;
}

/* where interval [a, b] lies against range [lo, hi]: 1 inside, 0 outside, -1 across an edge */
static int inside(double a, double b, double lo, double hi) {
    if (a >= lo && b <= hi) return 1;
    if (b < lo || a > hi) return 0;
    return -1;
}

/* the verdict of value (or of the interval [a, b] of a rate) against the claim's ranges */
static tc_verdict verdict_of(const tc_claim *c, double a, double b) {
    int r = inside(a, b, c->lo, c->hi);
    if (r > 0) return TC_VERDICT_REPRODUCED;
    int p = isnan(c->plo) ? 0 : inside(a, b, c->plo, c->phi);
    if (r == 0 && p > 0) return TC_VERDICT_PARTLY;
    if (r == 0 && p == 0) return TC_VERDICT_NOT;
    return TC_VERDICT_UNTESTABLE;
}

/* Wilson's 95 % score interval of k successes in n trials */
static void wilson(double rate, double n, double *lo, double *hi) {
    const double z = 1.959963984540054, z2 = z * z;
    double centre = (rate + z2 / (2 * n)) / (1 + z2 / n);
    double half = z / (1 + z2 / n) * sqrt(rate * (1 - rate) / n + z2 / (4 * n * n));
    *lo = rate <= 0 ? 0 : fmax(0, centre - half);
    *hi = rate >= 1 ? 1 : fmin(1, centre + half);
}

tc_judgement tc_claim_judgement(const tc_claim *c, const tc_metrics *ms) {
    tc_judgement j = {TC_VERDICT_NOT_RUN, NAN, NAN, NAN, NAN};
    if (!c->metric[0] && c->figure[0]) {
        j.verdict = ms ? TC_VERDICT_FIGURE : TC_VERDICT_NOT_RUN;
        return j;
    }
    if (!c->metric[0]) {
        j.verdict = TC_VERDICT_MISSING;
        return j;
    }
    if (ms && !testable_at(c, ms->tier)) {
        j.verdict = TC_VERDICT_UNTESTABLE;
        return j;
    }
    int i = ms ? tc_metrics_find(ms, c->metric) : -1;
    int k = ms && c->over[0] ? tc_metrics_find(ms, c->over) : -1;
    int t = ms && c->trials[0] ? tc_metrics_find(ms, c->trials) : -1;
    if (i < 0 || (c->over[0] && k < 0) || (c->trials[0] && t < 0)) return j;
    double v = ms->m[i].value;
    if (c->over[0]) v /= ms->m[k].value;
    j.value = v;
    /* the method ran and its runs failed (a diverging run's metric is NaN): not "not run" */
    if (!isfinite(v)) {
        j.verdict = TC_VERDICT_FAILED;
        return j;
    }
    if (t < 0) {
        j.verdict = verdict_of(c, v, v);
        return j;
    }
    /* a rate: its interval decides */
    j.n = ms->m[t].value;
    if (!(j.n >= 1) || v < 0 || v > 1) return j;
    wilson(v, j.n, &j.ci_lo, &j.ci_hi);
    j.verdict = verdict_of(c, j.ci_lo, j.ci_hi);
    return j;
}

tc_verdict tc_claim_judge(const tc_claim *c, const tc_metrics *ms, double *value) {
    tc_judgement j = tc_claim_judgement(c, ms);
    *value = j.value;
    return j.verdict;
}

tc_verdict tc_claim_judge_null(const tc_claim *c) {
    if (!c->metric[0] || isnan(c->null_value)) return TC_VERDICT_COUNT;
    return verdict_of(c, c->null_value, c->null_value);
}

/* ---------- writing ---------- */

/* s escaped for LaTeX (claims.cfg's strings were checked at load; a value of ours is not) */
static void tex_put(FILE *f, const char *s) {
    tc_latex_put(f, s);
}

/* what we measured: the value with its unit (a ratio of two metrics has none), a rate's 95 %
 * interval and trials, what it measures; or why there is none */
static void ours(char *buf, size_t n, const tc_claim *c, const tc_metrics *ms,
                 const tc_judgement *j) {
    buf[0] = 0;
    if (j->verdict == TC_VERDICT_FIGURE) {
        snprintf(buf, n, "%s", c->figure);
        return;
    }
    if (j->verdict == TC_VERDICT_FAILED) {
        snprintf(buf, n, "%g: the runs behind %s failed (runs.csv says why)", j->value, c->metric);
        return;
    }
    if (isnan(j->value)) {
        if (j->verdict == TC_VERDICT_UNTESTABLE)
            snprintf(buf, n, "- (tiers: %s)", c->tiers);
        else
            snprintf(buf, n, "-");
        return;
    }
    int i = tc_metrics_find(ms, c->metric);
    const char *unit = c->over[0] || !strcmp(ms->m[i].unit, "1") ? "" : ms->m[i].unit;
    snprintf(buf, n, "%.3g%s%s%s", j->value, c->over[0] ? " (ratio)" : "", unit[0] ? " " : "",
             unit);
    if (!isnan(j->n))
        snprintf(buf + strlen(buf), n - strlen(buf), " (95 %% interval %.2g-%.2g, %.0f trials)",
                 j->ci_lo, j->ci_hi, j->n);
    if (ms->m[i].flags & TC_METRIC_TIMING)
        snprintf(buf + strlen(buf), n - strlen(buf), " (timing)");
    if (c->measure[0]) snprintf(buf + strlen(buf), n - strlen(buf), ": %s", c->measure);
}

/* what counts: the reproduced range, and the partly one */
static void accepted(char *buf, size_t n, const tc_claim *c) {
    buf[0] = 0;
    if (!c->metric[0]) return;
    snprintf(buf, n, "[%g, %g]", c->lo, c->hi);
    if (!isnan(c->plo))
        snprintf(buf + strlen(buf), n - strlen(buf), "; partly [%g, %g]", c->plo, c->phi);
}

/* the claim's words and its paper, then sep and the paper's value, in LaTeX */
static void tex_claim(FILE *tex, const tc_claim *q, const char *sep) {
    tex_put(tex, q->text);
    fputs(" (", tex);
    tex_put(tex, q->paper);
    fputs(sep, tex);
    tex_put(tex, q->paper_value);
}

int tc_claims_section(const tc_claims *c, const char *name, const tc_metrics *ms, FILE *md,
                      FILE *tex) {
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        const tc_claim *q = &c->c[i];
        if (strcmp(q->experiment, name)) continue;
        tc_judgement j = tc_claim_judgement(q, ms);
        char got[600], acc[160];
        ours(got, sizeof got, q, ms, &j);
        accepted(acc, sizeof acc, q);
        if (!k++) {
            fprintf(md,
                    "**Verdicts** (the paper's claims judged from this run's metrics at the "
                    "%s tier; the report's first table lists every claim):\n\n",
                    ms && ms->tier[0] ? ms->tier : "this");
            fputs(
                "\\paragraph{Verdicts} (the paper's claims judged from this run's metrics at the ",
                tex);
            tex_put(tex, ms && ms->tier[0] ? ms->tier : "this");
            fputs(" tier; the first table lists every claim)\n\\begin{itemize}\n", tex);
        }
        /* the note as a sentence of its own */
        char note[sizeof q->note];
        snprintf(note, sizeof note, "%s", q->note);
        if (note[0] >= 'a' && note[0] <= 'z') note[0] = (char)(note[0] - 'a' + 'A');
        fprintf(md, "- **%s** %s: %s (%s). Paper: %s; ours: %s%s%s%s%s%s. %s.\n",
                tc_verdict_str(j.verdict), q->id, q->text, q->paper, q->paper_value, got,
                q->metric[0] ? " from `" : "", q->metric[0] ? q->metric : "",
                q->metric[0] ? "`" : "", acc[0] ? "; reproduced in " : "", acc, note);
        fputs("\\item \\textbf{", tex);
        tex_put(tex, tc_verdict_str(j.verdict));
        fprintf(tex, "} %s: ", q->id);
        tex_claim(tex, q, "). Paper: ");
        fputs("; ours: ", tex);
        tex_put(tex, got);
        if (q->metric[0]) {
            fputs(" from \\texttt{", tex);
            tex_put(tex, q->metric);
            fputs("}", tex);
        }
        if (acc[0]) {
            fputs("; reproduced in ", tex);
            tex_put(tex, acc);
        }
        fputs(". ", tex);
        tex_put(tex, note);
        fputs(".\n", tex);
    }
    if (k) {
        fputs("\n", md);
        fputs("\\end{itemize}\n\n", tex);
    }
    return k;
}

/* a Markdown table cell's text, its '|' escaped */
static void md_put(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
}

void tc_claims_table(const tc_claims *c, const tc_metrics *(*metrics_of)(const char *, void *),
                     void *ctx, FILE *md, FILE *tex, int count[TC_VERDICT_COUNT]) {
    if (count) memset(count, 0, TC_VERDICT_COUNT * sizeof *count);
    fputs(
        "| claim | paper | what the paper says | paper | ours | reproduced in | tier | verdict |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n",
        md);
    static const char head[] =
        "claim & what the paper says & paper & ours & reproduced in & tier & "
        "verdict\\\\\n";
    fputs(
        "{\\footnotesize\n\\begin{longtable}{@{}l>{\\raggedright\\arraybackslash}p{0.24\\linewidth}"
        ">{\\raggedright\\arraybackslash}p{0.11\\linewidth}>{\\raggedright\\arraybackslash}"
        "p{0.21\\linewidth}>{\\raggedright\\arraybackslash}p{0.11\\linewidth}l"
        ">{\\raggedright\\arraybackslash}p{0.09\\linewidth}@{}}\n\\caption{Every claim of the five "
        "papers and its verdict in this run: ours with its unit and meaning, the range that "
        "counts as reproduced (and as partly reproduced), the tier it was judged at (metrics, "
        "ranges and reasons in each experiment's \\texttt{claims.cfg} and section).}"
        "\\label{tab:claims}\\\\\n\\toprule\n",
        tex);
    fprintf(tex, "%s\\midrule\n\\endfirsthead\n\\toprule\n%s\\midrule\n\\endhead\n", head, head);
    for (int i = 0; i < c->n; i++) {
        const tc_claim *q = &c->c[i];
        const tc_metrics *ms = q->experiment[0] ? metrics_of(q->experiment, ctx) : NULL;
        tc_judgement j = tc_claim_judgement(q, ms);
        if (count) count[j.verdict]++;
        char got[600], acc[160];
        ours(got, sizeof got, q, ms, &j);
        accepted(acc, sizeof acc, q);
        const char *tier = ms && ms->tier[0] ? ms->tier : "-";
        const char *cell[8] = {q->id, q->paper,           q->text, q->paper_value,
                               got,   acc[0] ? acc : "-", tier,    tc_verdict_str(j.verdict)};
        for (int k = 0; k < 8; k++) {
            fputs("| ", md);
            md_put(md, cell[k]);
            fputs(" ", md);
        }
        fputs("|\n", md);
        fprintf(tex, "%s & ", q->id);
        tex_claim(tex, q, ") & ");
        for (int k = 4; k < 8; k++) {
            fputs(" & ", tex);
            tex_put(tex, cell[k]);
        }
        fputs("\\\\\n", tex);
    }
    fputs("\n", md);
    fputs("\\bottomrule\n\\end{longtable}}\n", tex);
}
