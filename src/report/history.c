/* SPDX-License-Identifier: MIT */
/* `touche history`: the check's history file read and validated, each metric against the checks
 * as a table and a figure per experiment */
#include "report/tc_history.h"
#include "report/tc_metrics.h"
#include "core/tc_fs.h"
#include "report/tc_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const header = TC_HISTORY_HEADER;
static const char *const field_names[8] = {"time",   "revision", "experiment", "tier",
                                           "metric", "value",    "reference",  "status"};
static const char *const statuses[] = {"PASS",    "FAIL", "NEW",  "SKIP",   "CPU",
                                       "MISSING", "TIME", "SLOW", "UPDATE", NULL};

/* the rows' strings: blocks of text, each string once where a line repeats the one before */
#define TEXT_BLOCK 65536
struct tc_history_text {
    struct tc_history_text *next;
    size_t used;
    char buf[TEXT_BLOCK];
};

void tc_history_free(tc_history *h) {
    free(h->r);
    for (struct tc_history_text *t = h->text, *next; t; t = next) {
        next = t->next;
        free(t);
    }
    h->r = NULL;
    h->text = NULL;
    h->n = h->cap = h->nskipped = 0;
}

/* ---------- reading ---------- */

/* a number written whole by %.17g, or nan */
static int parse_num(const char *s, double *v) {
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0;
}

/* a copy of s in the history's storage (s is at most a line, shorter than a block); NULL when
 * out of memory */
static const char *keep(tc_history *h, const char *s) {
    size_t n = strlen(s) + 1;
    if (!h->text || h->text->used + n > TEXT_BLOCK) {
        struct tc_history_text *t = malloc(sizeof *t);
        if (!t) return NULL;
        t->next = h->text;
        t->used = 0;
        h->text = t;
    }
    char *p = h->text->buf + h->text->used;
    memcpy(p, s, n);
    h->text->used += n;
    return p;
}

/* field f of the row: the previous row's string when equal, else a copy; TC_EINVAL naming the
 * field when empty or longer than max characters */
static tc_status put_field(tc_history *h, const char *path, int line, int f, const char *s,
                           size_t max, const char **dst, const char *prev, tc_error *err) {
    if (!s[0] || strlen(s) > max)
        return tc_error_set(err, TC_EINVAL, path, line, field_names[f],
                            "%s (%zu characters at most)", s[0] ? "too long" : "empty", max);
    *dst = prev && !strcmp(prev, s) ? prev : keep(h, s);
    return *dst ? TC_OK : TC_ENOMEM;
}

/* the longest length of each text field, in file order */
static const size_t text_max[5] = {31, 47, 64, 15, 111};

/* split text at tabs into at most 9 fields; returns their count */
static int split_fields(char *text, char **f) {
    int nf = 0;
    for (char *p = text; nf < 9;) {
        f[nf++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0;
        p = tab + 1;
    }
    return nf;
}

/* the text fields 0 to 4 into r, each the previous row's string where they are equal */
static tc_status put_texts(tc_history *h, const char *path, int line, char **f, tc_history_row *r,
                           tc_error *err) {
    static const tc_history_row none = {0};
    const tc_history_row *prev = h->n ? &h->r[h->n - 1] : &none;
    const char **dst[5] = {&r->time, &r->revision, &r->experiment, &r->tier, &r->metric};
    /* the metric's name: always a copy of its own */
    const char *same[5] = {prev->time, prev->revision, prev->experiment, prev->tier, NULL};
    tc_status st = TC_OK;
    for (int k = 0; k < 5 && !st; k++)
        st = put_field(h, path, line, k, f[k], text_max[k], dst[k], same[k], err);
    return st;
}

/* the numbers (fields 5 and 6: the value and the reference), each written whole */
static tc_status put_numbers(const char *path, int line, char **f, tc_history_row *r,
                             tc_error *err) {
    double *dst[2] = {&r->value, &r->ref};
    for (int k = 5; k < 7; k++)
        if (!parse_num(f[k], dst[k - 5]))
            return tc_error_set(err, TC_EINVAL, path, line, field_names[k], "not a number: '%s'",
                                f[k]);
    return TC_OK;
}

/* the status (field 7), one of the known ones */
static tc_status put_status(const char *path, int line, const char *s, tc_history_row *r,
                            tc_error *err) {
    for (int k = 0; statuses[k] && !r->status; k++)
        if (!strcmp(statuses[k], s)) r->status = statuses[k];
    if (!r->status)
        return tc_error_set(err, TC_EINVAL, path, line, "status", "unknown status '%.20s'", s);
    return TC_OK;
}

/* one line of the file (its newline removed) into r; TC_EINVAL naming the field that is wrong */
static tc_status parse_line(tc_history *h, const char *path, int line, char *text,
                            tc_history_row *r, tc_error *err) {
    char *f[9];
    int nf = split_fields(text, f);
    if (nf != 8)
        return tc_error_set(err, TC_EINVAL, path, line, NULL,
                            "%d fields, expected 8 separated by tabs (%s)", nf, header);
    memset(r, 0, sizeof *r);
    r->line = line;
    /* the experiment and the tier name the figures' files: validated like the metrics' */
    for (int k = 2; k < 4; k++) {
        char why[160];
        if (f[k][0] && !tc_metrics_name_ok(f[k], why, sizeof why))
            return tc_error_set(err, TC_EINVAL, path, line, field_names[k], "'%s' %s", f[k], why);
    }
    tc_status st = put_texts(h, path, line, f, r, err);
    if (!st) st = put_numbers(path, line, f, r, err);
    if (!st) st = put_status(path, line, f[7], r, err);
    return st;
}

/* a malformed line left out: counted, and the first ones kept */
static void skip_line(tc_history *h, const tc_error *why) {
    if (h->nskipped < TC_HISTORY_SKIPS) h->skipped[h->nskipped] = *why;
    h->nskipped++;
}

/* the newline removed; a line too long for buf: the rest read, TC_EINVAL into why */
static tc_status end_line(FILE *f, char *buf, size_t size, const char *path, int line,
                          tc_error *why) {
    size_t len = strlen(buf);
    tc_status bad = TC_OK;
    if (len && buf[len - 1] != '\n' && !feof(f)) {
        bad = tc_error_set(why, TC_EINVAL, path, line, NULL, "line longer than %zu characters",
                           size - 2);
        int c;
        while ((c = getc(f)) != EOF && c != '\n') {
        }
    }
    buf[strcspn(buf, "\n")] = 0;
    return bad;
}

/* room for one more row; TC_ENOMEM when there is none */
static tc_status grow_rows(tc_history *h) {
    if (h->n < h->cap) return TC_OK;
    int cap = h->cap ? 2 * h->cap : 1024;
    void *p = cap > h->cap ? realloc(h->r, (size_t)cap * sizeof *h->r) : NULL;
    if (!p) return TC_ENOMEM;
    h->r = p;
    h->cap = cap;
    return TC_OK;
}

/* a line after the header: a row, or a malformed line left out (bad: it is already) */
static tc_status add_row(tc_history *h, const char *path, int line, char *buf, tc_status bad,
                         tc_error *why, tc_error *err) {
    if (!bad && grow_rows(h) != TC_OK)
        return tc_error_set(err, TC_ENOMEM, path, line, NULL, "out of memory");
    if (!bad) bad = parse_line(h, path, line, buf, &h->r[h->n], why);
    if (bad == TC_ENOMEM) return tc_error_set(err, TC_ENOMEM, path, line, NULL, "out of memory");
    if (bad)
        skip_line(h, why);
    else
        h->n++;
    return TC_OK;
}

tc_status tc_history_read(tc_history *h, const char *path, tc_error *err) {
    memset(h, 0, sizeof *h);
    if (!tc_file_readable(path))
        return tc_error_set(err, TC_EIO, path, 0, NULL,
                            "cannot read the history file (a regular "
                            "file `touche check` appends to)");
    FILE *f = fopen(path, "r");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the history file");
    char buf[1024];
    tc_status st = TC_OK;
    int line = 0;
    while (!st && fgets(buf, sizeof buf, f)) {
        line++;
        tc_error why;
        tc_error_clear(&why);
        /* a line too long for any valid one: the rest of it read and left out */
        tc_status bad = end_line(f, buf, sizeof buf, path, line, &why);
        if (line > 1)
            st = add_row(h, path, line, buf, bad, &why, err);
        else if (bad || strcmp(buf, header))
            st = tc_error_set(err, TC_EINVAL, path, 1, NULL,
                              "the first line must be the header '%s'", header);
    }
    if (!st && ferror(f)) st = tc_error_set(err, TC_EIO, path, line, NULL, "reading failed");
    if (!st && line == 0) st = tc_error_set(err, TC_EINVAL, path, 0, NULL, "empty: no header");
    fclose(f);
    if (st) tc_history_free(h);
    return st;
}

/* ---------- the report ---------- */

/* one metric of a series: its rows (file order) in the sorted index, what the table shows */
typedef struct metric_sum {
    const tc_history_row *first_row;
    int r0, r1;                 /* its rows: idx[r0..r1) */
    int nchecks;                /* checks with a value (not NaN) */
    double first, last, change; /* first and last finite value of a check (NAN: none) and the
                                 * relative change between them (0 when equal) */
    const char *status;         /* the last */
} metric_sum;

/* one experiment and tier: its checks (time + revision changes, in file order), its metrics */
typedef struct series {
    const tc_history_row *first; /* its first row in the file */
    int m0, nmetric;             /* its metrics: sum[m0..m0+nmetric) */
    int c0, ncheck;              /* its checks: the first row of each at checks[c0..c0+ncheck) */
} series;

/* the whole history grouped: rows sorted by experiment, tier, metric and line; the series in
 * order of first appearance, their metrics likewise */
typedef struct grouping {
    const tc_history_row **idx; /* n */
    int *check_of;              /* per row (in file order): its check within its series */
    metric_sum *sum;            /* per metric of each series */
    series *ser;
    int nser;
    const tc_history_row **checks; /* per series, the first row of each check */
} grouping;

static void grouping_free(grouping *g) {
    free(g->idx);
    free(g->check_of);
    free(g->sum);
    free(g->ser);
    free(g->checks);
}

static int by_series_metric(const void *a, const void *b) {
    const tc_history_row *x = *(const tc_history_row *const *)a,
                         *y = *(const tc_history_row *const *)b;
    int c = strcmp(x->experiment, y->experiment);
    if (!c) c = strcmp(x->tier, y->tier);
    if (!c) c = strcmp(x->metric, y->metric);
    return c ? c : (x > y) - (x < y);
}

/* series by their first row, metrics by theirs */
static int by_first_row(const void *a, const void *b) {
    const series *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

static int by_metric_first(const void *a, const void *b) {
    const tc_history_row *x = ((const metric_sum *)a)->first_row;
    const tc_history_row *y = ((const metric_sum *)b)->first_row;
    return (x > y) - (x < y);
}

static int same_series(const tc_history_row *a, const tc_history_row *b) {
    return !strcmp(a->experiment, b->experiment) && !strcmp(a->tier, b->tier);
}

/* the grouping's arrays and ser_of (each row's series), n entries each (at least one) */
static tc_status group_alloc(grouping *g, size_t n, int **ser_of) {
    size_t k = n ? n : 1;
    g->idx = malloc(k * sizeof *g->idx);
    g->check_of = malloc(k * sizeof *g->check_of);
    g->sum = malloc(k * sizeof *g->sum);
    g->ser = malloc(k * sizeof *g->ser);
    g->checks = malloc(k * sizeof *g->checks);
    *ser_of = malloc(k * sizeof **ser_of);
    return g->idx && g->check_of && g->sum && g->ser && g->checks && *ser_of ? TC_OK : TC_ENOMEM;
}

/* series and metrics: runs of the sorted rows; returns the number of metrics */
static int find_runs(const tc_history *h, grouping *g, int *ser_of) {
    int nsum = 0;
    for (size_t k = 0; k < (size_t)h->n; k++) {
        const tc_history_row *r = g->idx[k];
        int new_series = !k || !same_series(g->idx[k - 1], r);
        if (new_series) g->ser[g->nser++] = (series){.first = r, .m0 = nsum};
        series *s = &g->ser[g->nser - 1];
        if (new_series || strcmp(g->idx[k - 1]->metric, r->metric)) {
            g->sum[nsum++] = (metric_sum){.first_row = r, .r0 = (int)k};
            s->nmetric++;
        }
        g->sum[nsum - 1].r1 = (int)k + 1;
        if (r < s->first) s->first = r;
        ser_of[r - h->r] = g->nser - 1;
    }
    return nsum;
}

/* checks: in file order, a new one where a series' time or revision changes */
static tc_status find_checks(const tc_history *h, grouping *g, const int *ser_of) {
    int *last = malloc((size_t)(g->nser ? g->nser : 1) * sizeof *last);
    if (!last) return TC_ENOMEM;
    for (int s = 0; s < g->nser; s++)
        last[s] = -1;
    for (int i = 0; i < h->n; i++) {
        series *s = &g->ser[ser_of[i]];
        const tc_history_row *r = &h->r[i],
                             *l = last[ser_of[i]] >= 0 ? &h->r[last[ser_of[i]]] : NULL;
        if (!l || strcmp(l->time, r->time) || strcmp(l->revision, r->revision)) {
            s->ncheck++;
            last[ser_of[i]] = i;
        }
        g->check_of[i] = s->ncheck - 1;
    }
    for (int s = 0, c = 0; s < g->nser; s++) {
        g->ser[s].c0 = c;
        c += g->ser[s].ncheck;
    }
    for (int i = h->n; i-- > 0;) { /* backwards: the first row of each check stays */
        const series *s = &g->ser[ser_of[i]];
        g->checks[s->c0 + g->check_of[i]] = &h->r[i];
    }
    free(last);
    return TC_OK;
}

/* one metric's summary: first and last finite value, checks with a value, last status */
static void sum_metric(const tc_history *h, const grouping *g, metric_sum *x) {
    /* its value at each check is the last row of that check */
    double a = NAN, b = NAN;
    for (int k = x->r0; k < x->r1; k++) {
        const tc_history_row *r = g->idx[k];
        int c = g->check_of[r - h->r];
        if (k + 1 < x->r1 && g->check_of[g->idx[k + 1] - h->r] == c) continue;
        x->nchecks += !isnan(r->value);
        if (isfinite(r->value)) {
            if (isnan(a)) a = r->value;
            b = r->value;
        }
    }
    x->first = a;
    x->last = b;
    x->status = g->idx[x->r1 - 1]->status;
    x->change = isnan(a) ? NAN : a == b ? 0 : (b - a) / fmax(fabs(a), 1e-300);
}

/* the whole history grouped: series, their metrics and checks, each in order of appearance */
static tc_status group(const tc_history *h, grouping *g) {
    memset(g, 0, sizeof *g);
    size_t n = (size_t)h->n;
    int *ser_of = NULL;
    tc_status st = group_alloc(g, n, &ser_of);
    if (st == TC_OK) {
        for (size_t i = 0; i < n; i++)
            g->idx[i] = &h->r[i];
        qsort(g->idx, n, sizeof *g->idx, by_series_metric);
        int nsum = find_runs(h, g, ser_of);
        st = find_checks(h, g, ser_of);
        for (int m = 0; st == TC_OK && m < nsum; m++)
            sum_metric(h, g, &g->sum[m]);
    }
    free(ser_of);
    if (st != TC_OK) {
        grouping_free(g);
        return st;
    }
    /* the series in order of first appearance, each one's metrics likewise */
    qsort(g->ser, (size_t)g->nser, sizeof *g->ser, by_first_row);
    for (int s = 0; s < g->nser; s++)
        qsort(g->sum + g->ser[s].m0, (size_t)g->ser[s].nmetric, sizeof *g->sum, by_metric_first);
    return TC_OK;
}

/* the figure: up to 8 metrics that moved most, each over its first value, against the check */
static tc_status write_figure(const tc_history *h, const grouping *g, const series *s,
                              const char *out_dir, const char *source_dir, tc_error *err) {
    enum { NPICK = 8 };
    int pick[NPICK], np = 0;
    for (; np < NPICK; np++) {
        int best = -1;
        double bc = -1;
        for (int m = s->m0; m < s->m0 + s->nmetric; m++) {
            const metric_sum *x = &g->sum[m];
            double c = fabs(x->change);
            int used = 0;
            for (int k = 0; k < np && !used; k++)
                used = pick[k] == m;
            if (used || !strncmp(g->idx[x->r0]->metric, "digest:", 7) || isnan(c)) continue;
            if (c > bc) {
                bc = c;
                best = m;
            }
        }
        if (best < 0) break;
        pick[np] = best;
    }
    if (!np) return TC_OK;
    const tc_history_row *r0 = s->first;
    char base[1200], data[1300], labels[2048] = "", revs[4096] = "";
    snprintf(base, sizeof base, "%s/history_%s_%s", out_dir, r0->experiment, r0->tier);
    snprintf(data, sizeof data, "%s.csv", base);
    /* each picked metric's value at each check (the last row of a check), NAN where none */
    double *v = malloc((size_t)s->ncheck * sizeof *v);
    if (!v) return tc_error_set(err, TC_ENOMEM, data, 0, NULL, "out of memory");
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, data, err);
    if (st) {
        free(v);
        return st;
    }
    fprintf(o.f, "# check,value_over_first; one block per metric\n");
    for (int k = 0; k < np; k++) {
        const metric_sum *x = &g->sum[pick[k]];
        for (int c = 0; c < s->ncheck; c++)
            v[c] = NAN;
        for (int q = x->r0; q < x->r1; q++)
            v[g->check_of[g->idx[q] - h->r]] = g->idx[q]->value;
        for (int c = 0; c < s->ncheck; c++)
            fprintf(o.f, "%d,%.17g\n", c, x->first != 0 && isfinite(v[c]) ? v[c] / x->first : NAN);
        fprintf(o.f, "\n\n");
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", k ? " " : "",
                 g->idx[x->r0]->metric);
    }
    free(v);
    if ((st = tc_outfile_commit(&o, err)) || !source_dir) return st;
    for (int c = 0; c < s->ncheck; c++)
        snprintf(revs + strlen(revs), sizeof revs - strlen(revs), "%s%.12s", c ? " " : "",
                 g->checks[s->c0 + c]->revision);
    char tpl[1200], title[200];
    snprintf(tpl, sizeof tpl, "%s/plots/history.gp", source_dir);
    snprintf(title, sizeof title, "%s (%s): the metrics that moved most, over their first value",
             r0->experiment, r0->tier);
    tc_plot_var pv[] = {
        {"datafile", data}, {"labels", labels}, {"revisions", revs}, {"heading", title}};
    return tc_plot_render(tpl, pv, 4, base, err);
}

tc_status tc_history_report(const tc_history *h, const char *out_dir, const char *source_dir,
                            int *moved, tc_error *err) {
    if (moved) *moved = 0;
    tc_status st = tc_mkdir_p(out_dir, err);
    if (st) return st;
    grouping g;
    if (group(h, &g)) return tc_error_set(err, TC_ENOMEM, out_dir, 0, NULL, "out of memory");
    char path[1200];
    snprintf(path, sizeof path, "%s/history.md", out_dir);
    tc_outfile o;
    if ((st = tc_outfile_open(&o, path, err))) {
        grouping_free(&g);
        return st;
    }
    fprintf(o.f, "# touche: metrics over the checks\n\nEach metric of each experiment and tier "
                 "against the `touche check` runs recorded in the history file, first and last "
                 "value and the relative change; a figure per experiment shows the metrics that "
                 "moved most.\n");
    /* the lines left out, first: what the table does not show */
    if (h->nskipped) {
        fprintf(o.f,
                "\n**%d malformed line%s of the history file left out** (a line cut by a full "
                "disk or edited by hand; `touche check` never writes one):\n\n",
                h->nskipped, h->nskipped > 1 ? "s" : "");
        for (int k = 0; k < h->nskipped && k < TC_HISTORY_SKIPS; k++) {
            char why[1200];
            tc_error_format(&h->skipped[k], why, sizeof why);
            fprintf(o.f, "- %s\n", why);
        }
        if (h->nskipped > TC_HISTORY_SKIPS)
            fprintf(o.f, "- and %d more\n", h->nskipped - TC_HISTORY_SKIPS);
    }
    for (int i = 0; i < g.nser && !st; i++) {
        const series *s = &g.ser[i];
        const char *e = s->first->experiment, *t = s->first->tier;
        fprintf(o.f, "\n## %s (%s): %d checks, %s to %s\n\n", e, t, s->ncheck,
                g.checks[s->c0]->revision, g.checks[s->c0 + s->ncheck - 1]->revision);
        fprintf(o.f, "![%s](history_%s_%s.png)\n\n", e, e, t);
        fprintf(o.f, "| metric | checks | first | last | change | last status |\n"
                     "| --- | ---: | ---: | ---: | ---: | --- |\n");
        for (int m = s->m0; m < s->m0 + s->nmetric; m++) {
            const metric_sum *x = &g.sum[m];
            const char *name = g.idx[x->r0]->metric;
            if (!strncmp(name, "digest:", 7)) {
                fprintf(o.f, "| %s | - | - | - | - | %s |\n", name, x->status);
                continue;
            }
            if (moved && isfinite(x->change) && x->change != 0) (*moved)++;
            fprintf(o.f, "| %s | %d | %.6g | %.6g | %+.3g | %s |\n", name, x->nchecks, x->first,
                    x->last, x->change, x->status);
        }
        st = write_figure(h, &g, s, out_dir, source_dir, err);
    }
    grouping_free(&g);
    if (st) {
        tc_outfile_abort(&o);
        return st;
    }
    return tc_outfile_commit(&o, err);
}
