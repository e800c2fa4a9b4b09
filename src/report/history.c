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

static const char *const header =
    "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus";
static const char *const field_names[8] = {"time",   "revision", "experiment", "tier",
                                           "metric", "value",    "reference",  "status"};
static const char *const statuses[] = {"PASS",    "FAIL", "NEW",  "SKIP",   "CPU",
                                       "MISSING", "TIME", "SLOW", "UPDATE", NULL};

void tc_history_free(tc_history *h) {
    free(h->r);
    h->r = NULL, h->n = h->cap = 0;
}

/* ---------- reading ---------- */

/* a number written whole by %.17g, or nan */
static int parse_num(const char *s, double *v) {
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0;
}

/* field f of line `line` into buf (n bytes); TC_EINVAL naming it when empty or too long */
static tc_status put_field(const char *path, int line, int f, const char *s, char *buf, size_t n,
                           tc_error *err) {
    if (!s[0] || strlen(s) >= n)
        return tc_error_set(err, TC_EINVAL, path, line, field_names[f],
                            "%s (%zu characters at most)", s[0] ? "too long" : "empty", n - 1);
    snprintf(buf, n, "%s", s);
    return TC_OK;
}

static tc_status parse_line(const char *path, int line, char *text, tc_history_row *r,
                            tc_error *err) {
    char *f[9];
    int nf = 0;
    for (char *p = text; nf < 9;) {
        f[nf++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0, p = tab + 1;
    }
    if (nf != 8)
        return tc_error_set(err, TC_EINVAL, path, line, NULL,
                            "%d fields, expected 8 separated by tabs (%s)", nf, header);
    memset(r, 0, sizeof *r);
    r->line = line;
    tc_status st = put_field(path, line, 0, f[0], r->time, sizeof r->time, err);
    if (!st) st = put_field(path, line, 1, f[1], r->revision, sizeof r->revision, err);
    if (!st) st = put_field(path, line, 2, f[2], r->experiment, sizeof r->experiment, err);
    if (!st) st = put_field(path, line, 3, f[3], r->tier, sizeof r->tier, err);
    /* the experiment and the tier name the figures' files: validated like the metrics' */
    for (int k = 2; !st && k < 4; k++) {
        char why[160];
        if (!tc_metrics_name_ok(k == 2 ? r->experiment : r->tier, why, sizeof why))
            st = tc_error_set(err, TC_EINVAL, path, line, field_names[k], "'%s' %s", f[k], why);
    }
    if (!st) st = put_field(path, line, 4, f[4], r->metric, sizeof r->metric, err);
    if (!st && !parse_num(f[5], &r->value))
        st = tc_error_set(err, TC_EINVAL, path, line, "value", "not a number: '%s'", f[5]);
    if (!st && !parse_num(f[6], &r->ref))
        st = tc_error_set(err, TC_EINVAL, path, line, "reference", "not a number: '%s'", f[6]);
    if (!st) st = put_field(path, line, 7, f[7], r->status, sizeof r->status, err);
    int known = 0;
    for (int k = 0; !st && statuses[k] && !known; k++)
        known = !strcmp(statuses[k], r->status);
    if (!st && !known)
        st = tc_error_set(err, TC_EINVAL, path, line, "status", "unknown status '%s'", r->status);
    return st;
}

tc_status tc_history_read(tc_history *h, const char *path, tc_error *err) {
    h->n = h->cap = 0, h->r = NULL;
    FILE *f = fopen(path, "r");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot read the history file");
    char buf[1024];
    tc_status st = TC_OK;
    int line = 0;
    while (!st && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len && buf[len - 1] != '\n' && !feof(f)) {
            st = tc_error_set(err, TC_EINVAL, path, line, NULL, "line longer than %zu characters",
                              sizeof buf - 2);
            break;
        }
        buf[strcspn(buf, "\n")] = 0;
        if (line == 1) {
            if (strcmp(buf, header))
                st = tc_error_set(err, TC_EINVAL, path, 1, NULL,
                                  "the first line must be the header '%s'", header);
            continue;
        }
        if (h->n == h->cap) {
            int cap = h->cap ? 2 * h->cap : 1024;
            void *p = realloc(h->r, (size_t)cap * sizeof *h->r);
            if (!p) {
                st = TC_ENOMEM;
                break;
            }
            h->r = p, h->cap = cap;
        }
        st = parse_line(path, line, buf, &h->r[h->n], err);
        if (!st) h->n++;
    }
    if (!st && ferror(f)) st = tc_error_set(err, TC_EIO, path, line, NULL, "reading failed");
    if (!st && line == 0) st = tc_error_set(err, TC_EINVAL, path, 0, NULL, "empty: no header");
    fclose(f);
    if (st) tc_history_free(h);
    return st;
}

/* ---------- the report ---------- */

/* one experiment and tier: its checks (time + revision), its metrics, values[metric][check] */
typedef struct series {
    const char *experiment, *tier;
    int ncheck, nmetric;
    const tc_history_row **check; /* the first row of each check */
    const char **metric;
    double *value;                 /* nmetric x ncheck, NAN where a check lacks the metric */
    const char **status;           /* the last status of each metric */
    double *first, *last, *change; /* per metric: first and last finite value (NAN: none) and
                                    * the relative change between them (0 when equal) */
} series;

static void series_free(series *s) {
    free(s->check), free(s->metric), free(s->value), free(s->status);
    free(s->first), free(s->last), free(s->change);
}

/* the series of rows matching r0's experiment and tier */
static tc_status build_series(const tc_history *h, const tc_history_row *r0, series *s) {
    memset(s, 0, sizeof *s);
    s->experiment = r0->experiment, s->tier = r0->tier;
    s->check = calloc((size_t)h->n, sizeof *s->check),
    s->metric = calloc((size_t)h->n, sizeof *s->metric);
    s->status = calloc((size_t)h->n, sizeof *s->status);
    if (!s->check || !s->metric || !s->status) return TC_ENOMEM;
    for (int i = 0; i < h->n; i++) {
        const tc_history_row *r = &h->r[i];
        if (strcmp(r->experiment, s->experiment) || strcmp(r->tier, s->tier)) continue;
        const tc_history_row *last = s->ncheck ? s->check[s->ncheck - 1] : NULL;
        if (!last || strcmp(last->time, r->time) || strcmp(last->revision, r->revision))
            s->check[s->ncheck++] = r;
        int m = 0;
        while (m < s->nmetric && strcmp(s->metric[m], r->metric))
            m++;
        if (m == s->nmetric) s->metric[s->nmetric++] = r->metric;
    }
    s->value = malloc((size_t)s->nmetric * (size_t)s->ncheck * sizeof *s->value);
    if (!s->value) return TC_ENOMEM;
    for (size_t k = 0; k < (size_t)s->nmetric * (size_t)s->ncheck; k++)
        s->value[k] = NAN;
    int c = -1;
    for (int i = 0; i < h->n; i++) {
        const tc_history_row *r = &h->r[i];
        if (strcmp(r->experiment, s->experiment) || strcmp(r->tier, s->tier)) continue;
        while (c + 1 < s->ncheck && s->check[c + 1] <= r)
            c++;
        for (int m = 0; m < s->nmetric; m++)
            if (!strcmp(s->metric[m], r->metric)) {
                s->value[(size_t)m * (size_t)s->ncheck + (size_t)c] = r->value;
                s->status[m] = r->status;
            }
    }
    /* each metric's first and last finite value and the relative change between them */
    s->first = malloc((size_t)s->nmetric * sizeof *s->first);
    s->last = malloc((size_t)s->nmetric * sizeof *s->last);
    s->change = malloc((size_t)s->nmetric * sizeof *s->change);
    if (!s->first || !s->last || !s->change) return TC_ENOMEM;
    for (int m = 0; m < s->nmetric; m++) {
        double a = NAN, b = NAN;
        for (int k = 0; k < s->ncheck; k++) {
            double v = s->value[(size_t)m * (size_t)s->ncheck + (size_t)k];
            if (!isfinite(v)) continue;
            if (isnan(a)) a = v;
            b = v;
        }
        s->first[m] = a, s->last[m] = b;
        s->change[m] = isnan(a) ? NAN : a == b ? 0 : (b - a) / fmax(fabs(a), 1e-300);
    }
    return TC_OK;
}

/* the figure: up to 8 metrics that moved most, each over its first value, against the check */
static tc_status write_figure(const series *s, const char *out_dir, const char *source_dir,
                              tc_error *err) {
    int pick[8], np = 0;
    char used[4096] = {0};
    for (; np < 8; np++) {
        int best = -1;
        double bc = -1;
        for (int m = 0; m < s->nmetric && m < (int)sizeof used; m++) {
            double c = fabs(s->change[m]);
            if (used[m] || !strncmp(s->metric[m], "digest:", 7) || isnan(c)) continue;
            if (c > bc) bc = c, best = m;
        }
        if (best < 0) break;
        used[best] = 1, pick[np] = best;
    }
    if (!np) return TC_OK;
    char base[1200], data[1300], labels[2048] = "", revs[4096] = "";
    snprintf(base, sizeof base, "%s/history_%s_%s", out_dir, s->experiment, s->tier);
    snprintf(data, sizeof data, "%s.csv", base);
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, data, err);
    if (st) return st;
    fprintf(o.f, "# check,value_over_first; one block per metric\n");
    for (int k = 0; k < np; k++) {
        double first = s->first[pick[k]];
        for (int c = 0; c < s->ncheck; c++) {
            double v = s->value[(size_t)pick[k] * (size_t)s->ncheck + (size_t)c];
            fprintf(o.f, "%d,%.17g\n", c, first != 0 && isfinite(v) ? v / first : NAN);
        }
        fprintf(o.f, "\n\n");
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", k ? " " : "",
                 s->metric[pick[k]]);
    }
    if ((st = tc_outfile_commit(&o, err))) return st;
    for (int c = 0; c < s->ncheck; c++)
        snprintf(revs + strlen(revs), sizeof revs - strlen(revs), "%s%.12s", c ? " " : "",
                 s->check[c]->revision);
    char tpl[1200], title[200];
    snprintf(tpl, sizeof tpl, "%s/plots/history.gp", source_dir);
    snprintf(title, sizeof title, "%s (%s): the metrics that moved most, over their first value",
             s->experiment, s->tier);
    tc_plot_var v[] = {
        {"datafile", data}, {"labels", labels}, {"revisions", revs}, {"heading", title}};
    return tc_plot_render(tpl, v, 4, base, err);
}

tc_status tc_history_report(const tc_history *h, const char *out_dir, const char *source_dir,
                            int *moved, tc_error *err) {
    if (moved) *moved = 0;
    tc_status st = tc_mkdir_p(out_dir, err);
    if (st) return st;
    char path[1200];
    snprintf(path, sizeof path, "%s/history.md", out_dir);
    tc_outfile o;
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "# touche: metrics over the checks\n\nEach metric of each experiment and tier "
                 "against the `touche check` runs recorded in the history file, first and last "
                 "value and the relative change; a figure per experiment shows the metrics that "
                 "moved most.\n");
    for (int i = 0; i < h->n && !st; i++) {
        /* each experiment and tier once, in order of first appearance */
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(h->r[j].experiment, h->r[i].experiment) &&
                   !strcmp(h->r[j].tier, h->r[i].tier);
        if (seen) continue;
        series s;
        st = build_series(h, &h->r[i], &s);
        if (!st) {
            fprintf(o.f, "\n## %s (%s): %d checks, %s to %s\n\n", s.experiment, s.tier, s.ncheck,
                    s.check[0]->revision, s.check[s.ncheck - 1]->revision);
            fprintf(o.f, "![%s](history_%s_%s.png)\n\n", s.experiment, s.experiment, s.tier);
            fprintf(o.f, "| metric | checks | first | last | change | last status |\n"
                         "| --- | ---: | ---: | ---: | ---: | --- |\n");
            for (int m = 0; m < s.nmetric; m++) {
                double a = s.first[m], b = s.last[m], c = s.change[m];
                int n = 0;
                for (int k = 0; k < s.ncheck; k++)
                    n += !isnan(s.value[(size_t)m * (size_t)s.ncheck + (size_t)k]);
                if (!strncmp(s.metric[m], "digest:", 7)) {
                    fprintf(o.f, "| %s | - | - | - | - | %s |\n", s.metric[m], s.status[m]);
                    continue;
                }
                if (moved && isfinite(c) && c != 0) (*moved)++;
                fprintf(o.f, "| %s | %d | %.6g | %.6g | %+.3g | %s |\n", s.metric[m], n, a, b, c,
                        s.status[m]);
            }
            st = write_figure(&s, out_dir, source_dir, err);
        }
        series_free(&s);
    }
    if (st) {
        tc_outfile_abort(&o);
        return st;
    }
    return tc_outfile_commit(&o, err);
}
