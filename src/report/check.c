/* SPDX-License-Identifier: MIT */
/* `touche check`: every run's metrics against its reference, what matters first (failures with
 * their likely causes, new entries, one line per experiment), timings apart, the history, and
 * the updates that never record a failed run */
#include "report/tc_metrics.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/tc_fs.h"
#include "report/tc_history.h"
#include "report/tc_report.h"

/* one metric of the comparison */
typedef struct row {
    const char *name, *unit, *method; /* point into the run's or the reference's metrics */
    double value, ref;                /* NAN when absent */
    double tol;                       /* tol_abs + tol_rel * |ref| from the reference */
    unsigned flags;                   /* TC_METRIC_* */
    const char *status; /* PASS, FAIL, MISSING, NEW, SKIP (its method left out with --methods),
                         * TIME (a timing: information) or SLOW (a timing slower than its
                         * reference beyond its tolerance, a failure only under --timings) */
    char note[160];     /* why it did not pass ("" when it did) */
} row;

/* one method's digest of its results */
typedef struct hrow {
    const char *method, *hash, *ref;
    const char *status; /* PASS, FAIL, MISSING, NEW, SKIP, or CPU (differs; the method's results
                         * depend on the CPU and ran on another kind, so its metrics decide) */
    char note[240];
} hrow;

/* a parameter or setting that differs from the reference's */
typedef struct change {
    const char *method; /* the label it belongs to; "" for a script setting */
    char text[400];     /* "hunt-crossley.k changed from 100000 to 120000" */
} change;

/* one experiment's comparison */
typedef struct cmp {
    const tc_metrics *run, *ref; /* ref NULL: no reference file */
    row *rows;
    hrow *hrows;
    change *changes;
    int n, nh, nc, capc;
    int ref_has_params; /* the reference records what its methods ran with */
    int timings;        /* judge timings (--timings) */
} cmp;

/* what the output gathers before it is printed in order of importance */
enum { S_FAIL, S_NEW, S_CHANGED, S_LINES, S_TIMINGS, S_TABLES, S_UPDATE, S_COUNT };
typedef struct sections {
    FILE *f[S_COUNT];
    char *buf[S_COUNT];
    size_t len[S_COUNT];
} sections;

/* running totals over all experiments */
typedef struct totals {
    int experiments, metrics, pass, fail, missing, fresh, skipped, timings, slow, hashes, hash_pass,
        hash_fail, hash_new, hash_cpu, methods_failed, changed, written, refused;
} totals;

/* 1 for a timing the run measured (shown apart), 0 for an accuracy metric or a missing one */
static int is_timing(const row *r) {
    return (r->flags & TC_METRIC_TIMING) &&
           (!strcmp(r->status, "TIME") || !strcmp(r->status, "SLOW") || !strcmp(r->status, "NEW"));
}

/* 1 for a status that fails the check (SLOW only when timings are asked for) */
static int failing(const char *status, int timings) {
    return !strcmp(status, "FAIL") || !strcmp(status, "MISSING") ||
           (timings && !strcmp(status, "SLOW"));
}

/* ---------- what changed: parameters and settings ---------- */

static void add_change(cmp *c, const char *method, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_change(cmp *c, const char *method, const char *fmt, ...) {
    if (c->nc == c->capc) {
        int cap = c->capc ? 2 * c->capc : 16;
        change *p = realloc(c->changes, (size_t)cap * sizeof *p);
        if (!p) return;
        c->changes = p;
        c->capc = cap;
    }
    change *x = &c->changes[c->nc++];
    x->method = method;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->text, sizeof x->text, fmt, ap);
    va_end(ap);
}

/* the value of word name in a "name=value name=value" list, into buf; 0 when absent */
static int word_value(const char *list, const char *name, char *buf, size_t n) {
    size_t ln = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ' ');
        if (!end) end = p + strlen(p);
        if ((size_t)(end - p) > ln && !strncmp(p, name, ln) && p[ln] == '=') {
            snprintf(buf, n, "%.*s", (int)(end - p - ln - 1), p + ln + 1);
            return 1;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* each parameter of list a that b lacks or holds with another value (then b's own extras) */
static void diff_params(cmp *c, const char *label, const char *was, const char *now) {
    for (int pass = 0; pass < 2; pass++) {
        const char *list = pass ? was : now, *other = pass ? now : was;
        for (const char *p = list; *p;) {
            const char *end = strchr(p, ' '), *eq = strchr(p, '=');
            if (!end) end = p + strlen(p);
            char name[128], a[64], b[64];
            if (eq && eq < end) {
                snprintf(name, sizeof name, "%.*s", (int)(eq - p), p);
                snprintf(a, sizeof a, "%.*s", (int)(end - eq - 1), eq + 1);
                if (!word_value(other, name, b, sizeof b)) {
                    if (pass)
                        add_change(c, label, "%s.%s removed (was %s)", label, name, a);
                    else
                        add_change(c, label, "%s.%s added (= %s)", label, name, a);
                } else if (!pass && strcmp(a, b)) {
                    add_change(c, label, "%s.%s changed from %s to %s", label, name, b, a);
                }
            }
            p = *end ? end + 1 : end;
        }
    }
}

/* the index of setting key in ms, or -1 */
static int find_setting(const tc_metrics *ms, const char *key) {
    for (int i = 0; i < ms->nsetting; i++)
        if (!strcmp(ms->setting[i].key, key)) return i;
    return -1;
}

/* every method's spec and parameters, and every script setting, against the reference's */
static void diff_provenance(cmp *c) {
    const tc_metrics *run = c->run, *ref = c->ref;
    if (!ref) return;
    for (int i = 0; i < run->nmethod; i++) {
        const tc_metrics_method *m = &run->methods[i];
        int j = tc_metrics_find_method(ref, m->label);
        if (j < 0 || !ref->methods[j].spec[0] || !m->spec[0]) continue;
        c->ref_has_params = 1;
        const tc_metrics_method *r = &ref->methods[j];
        if (strcmp(m->spec, r->spec))
            add_change(c, m->label, "%s: method %s, the reference's %s", m->label, m->spec,
                       r->spec);
        else
            diff_params(c, m->label, r->params, m->params);
    }
    if (!ref->nsetting || !run->nsetting) return;
    for (int i = 0; i < run->nsetting; i++) {
        const tc_metrics_setting *s = &run->setting[i];
        int j = find_setting(ref, s->key);
        if (j < 0)
            add_change(c, "", "setting %s added (= %s)", s->key, s->value);
        else if (strcmp(s->value, ref->setting[j].value))
            add_change(c, "", "setting %s changed from %s to %s", s->key, ref->setting[j].value,
                       s->value);
    }
    for (int j = 0; j < ref->nsetting; j++)
        if (find_setting(run, ref->setting[j].key) < 0)
            add_change(c, "", "setting %s removed (was %s)", ref->setting[j].key,
                       ref->setting[j].value);
}

/* the likely causes of a change to method's results ("" : the experiment's own), one line */
static void print_causes(FILE *f, const cmp *c, const char *method) {
    int k = 0, shown = 0;
    char line[1200] = "";
    for (int i = 0; i < c->nc; i++) {
        const change *x = &c->changes[i];
        if (x->method[0] && method[0] && strcmp(x->method, method)) continue;
        if (shown < 3) {
            snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", shown ? "; " : "",
                     x->text);
            shown++;
        }
        k++;
    }
    if (k > shown)
        snprintf(line + strlen(line), sizeof line - strlen(line), "; %d more", k - shown);
    if (k) fprintf(f, "           likely cause: %s\n", line);
}

/* after an experiment's failures: why no cause was named, once */
static void print_no_cause(FILE *f, const cmp *c) {
    if (!c->ref) return;
    if (!c->ref_has_params)
        fprintf(f,
                "           (%s's reference records no parameters to compare: `touche check "
                "--update-new` adds them)\n",
                c->run->experiment);
    else if (!c->nc)
        fprintf(f,
                "           (no recorded parameter or setting of %s changed: the code, a "
                "library or the CPU did)\n",
                c->run->experiment);
}

/* ---------- comparing ---------- */

/* 1 when the reference entry of method was left out of the run on purpose */
static int left_out(const tc_metrics *run, const char *method) {
    return run->filtered && method[0] && tc_metrics_find_method(run, method) < 0;
}

/* a timing against its reference: TIME (information), or SLOW when timings are judged, with
 * the ratio in the note */
static void judge_timing(row *r, int timings) {
    double ratio = r->value / r->ref;
    int higher_faster = (r->flags & TC_METRIC_HIGHER_FASTER) != 0;
    int slower = higher_faster ? r->value < r->ref : r->value > r->ref;
    int beyond = fabs(r->value - r->ref) > r->tol;
    r->status = beyond && slower && timings ? "SLOW" : "TIME";
    snprintf(r->note, sizeof r->note, "%.3g times the reference: %s", ratio,
             !beyond  ? "within its tolerance"
             : slower ? "slower"
                      : "faster");
}

/* the failed runs a method's reference had (0 when it does not say or has no such method) */
static int ref_failed(const tc_metrics *ref, const char *label) {
    int j = ref ? tc_metrics_find_method(ref, label) : -1;
    return j >= 0 && ref->methods[j].runs >= 0 ? ref->methods[j].failed : 0;
}

/* 1 when a method's runs failed more often than in the reference: its results are suspect */
static int runs_regressed(const cmp *c, const tc_metrics_method *m) {
    return m->runs > 0 && m->failed > ref_failed(c->ref, m->label);
}

/* 1 when the run's method failed runs, and no more of them than the reference records */
static int known_failure(const cmp *c, const char *label) {
    int i = label[0] ? tc_metrics_find_method(c->run, label) : -1;
    return i >= 0 && c->run->methods[i].failed > 0 && !runs_regressed(c, &c->run->methods[i]);
}

/* every metric of the run and of the reference */
static void compare(cmp *c) {
    const tc_metrics *run = c->run, *ref = c->ref;
    for (int i = 0; i < run->n; i++) {
        const tc_metric *m = &run->m[i];
        row *r = &c->rows[c->n++];
        int j = ref ? tc_metrics_find(ref, m->name) : -1;
        *r = (row){m->name, m->unit, m->method, m->value, NAN, NAN, m->flags, "NEW", ""};
        /* a failed run's metric, where the reference records that method's failures */
        if (j < 0 && !isfinite(m->value) && known_failure(c, m->method)) {
            r->status = "SKIP";
            snprintf(r->note, sizeof r->note, "not finite: a failed run, as the reference records");
            continue;
        }
        if (j < 0) {
            snprintf(r->note, sizeof r->note, "%s",
                     !ref ? "no reference file"
                     : m->method[0] && tc_metrics_find_method(ref, m->method) < 0
                         ? "a method the reference does not have"
                         : "a metric the reference does not have");
            continue;
        }
        /* tolerances come from the reference, never from the run */
        const tc_metric *x = &ref->m[j];
        r->ref = x->value;
        r->tol = x->tol_abs + x->tol_rel * fabs(x->value);
        r->flags |= x->flags & TC_METRIC_TIMING;
        if (r->flags & TC_METRIC_TIMING) {
            if (isfinite(m->value))
                judge_timing(r, c->timings);
            else {
                r->status = "TIME";
                snprintf(r->note, sizeof r->note, "not finite");
            }
        } else if (!isfinite(m->value)) {
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note, "not finite");
        } else if (fabs(m->value - x->value) <= r->tol) {
            r->status = "PASS";
        } else {
            double off = fabs(m->value - x->value);
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note,
                     "outside tolerance: off by %.3g, %.3g times the "
                     "tolerance %.3g",
                     off, r->tol > 0 ? off / r->tol : INFINITY, r->tol);
        }
    }

    /* metrics the reference has and the run lost (or left out with its method) */
    for (int j = 0; ref && j < ref->n; j++) {
        const tc_metric *x = &ref->m[j];
        if (tc_metrics_find(run, x->name) >= 0) continue;
        int skip = left_out(run, x->method), ran = tc_metrics_find_method(run, x->method);
        row *r = &c->rows[c->n++];
        *r = (row){x->name,   x->unit,
                   x->method, NAN,
                   x->value,  x->tol_abs + x->tol_rel * fabs(x->value),
                   x->flags,  skip ? "SKIP" : "MISSING",
                   ""};
        snprintf(r->note, sizeof r->note, "%s",
                 skip                        ? "method not run (--methods)"
                 : !x->method[0] || ran >= 0 ? "missing from the run"
                                             : "its method did not run");
    }
}

static void compare_hashes(cmp *c) {
    const tc_metrics *run = c->run, *ref = c->ref;
    for (int i = 0; i < run->nhash; i++) {
        const tc_result_hash *h = &run->hash[i];
        int j = ref ? tc_metrics_find_hash(ref, h->method) : -1;
        hrow *r = &c->hrows[c->nh++];
        *r = (hrow){h->method, h->hash, "-", "NEW", "no reference digest"};
        if (j < 0) continue;
        const tc_result_hash *x = &ref->hash[j];
        r->ref = x->hash;
        r->note[0] = 0;
        if (!strcmp(h->hash, x->hash)) {
            r->status = "PASS";
        } else if ((h->cpu[0] || x->cpu[0]) && strcmp(h->cpu_kind, x->cpu_kind)) {
            r->status = "CPU";
            snprintf(r->note, sizeof r->note,
                     "results differ, on another CPU kind (%s, the "
                     "reference's %s) and they depend on it: its metrics' tolerances decide",
                     h->cpu_kind[0] ? h->cpu_kind : "?", x->cpu_kind[0] ? x->cpu_kind : "?");
        } else if (h->cpu[0] || x->cpu[0]) {
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note,
                     "results changed on the same CPU kind (%s) as the "
                     "reference run",
                     h->cpu_kind);
        } else {
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note,
                     "results changed (a result file or metric of this "
                     "method differs from the reference run)");
        }
    }
    for (int j = 0; ref && j < ref->nhash; j++) {
        const tc_result_hash *x = &ref->hash[j];
        if (tc_metrics_find_hash(run, x->method) >= 0) continue;
        int skip = left_out(run, x->method);
        hrow *r = &c->hrows[c->nh++];
        *r = (hrow){x->method, "-", x->hash, skip ? "SKIP" : "MISSING", ""};
        snprintf(r->note, sizeof r->note, "%s",
                 skip ? "method not run (--methods)" : "missing from the run");
    }
}

/* ---------- printing ---------- */

/* a number for the table, "-" when absent */
static void fmt_num(char *buf, size_t n, double v, const char *prefix) {
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%s%.9g", prefix, v);
}

/* the whole table of one experiment (--verbose): aligned columns, the reason for any non-pass */
static void print_table(FILE *f, const cmp *c, const char *ref_path) {
    enum { NCOL = 6 };
    static const char *const head[NCOL] = {"metric",    "value", "reference",
                                           "tolerance", "unit",  "status"};
    char(*cells)[NCOL][112] = malloc(((size_t)c->n + 1) * sizeof *cells);
    if (!cells) return;
    int w[NCOL];
    for (int k = 0; k < NCOL; k++)
        w[k] = (int)strlen(head[k]);
    for (int i = 0; i < c->n; i++) {
        const row *r = &c->rows[i];
        snprintf(cells[i][0], sizeof cells[i][0], "%s", r->name);
        fmt_num(cells[i][1], sizeof cells[i][1], r->value, "");
        fmt_num(cells[i][2], sizeof cells[i][2], r->ref, "");
        fmt_num(cells[i][3], sizeof cells[i][3], r->tol, "+-");
        snprintf(cells[i][4], sizeof cells[i][4], "%s", r->unit);
        snprintf(cells[i][5], sizeof cells[i][5], "%s", r->status);
        for (int k = 0; k < NCOL; k++)
            if ((int)strlen(cells[i][k]) > w[k]) w[k] = (int)strlen(cells[i][k]);
    }
    static const int right[NCOL] = {0, 1, 1, 1, 0, 0};
    fprintf(f, "\n%s (%s) against %s\n", c->run->experiment, c->run->tier, ref_path);
    for (int i = -1; i < c->n; i++) {
        fputs(" ", f);
        for (int k = 0; k < NCOL; k++) {
            const char *txt = i < 0 ? head[k] : cells[i][k];
            fprintf(f, right[k] ? " %*s" : " %-*s", k == NCOL - 1 ? 0 : w[k], txt);
        }
        if (i >= 0 && c->rows[i].note[0]) fprintf(f, "  (%s)", c->rows[i].note);
        fputs("\n", f);
    }
    free(cells);

    /* the digests, one line per method ("(shared)": the experiment's own) */
    int wm = (int)strlen("(shared)");
    for (int i = 0; i < c->nh; i++)
        if ((int)strlen(c->hrows[i].method) > wm) wm = (int)strlen(c->hrows[i].method);
    if (c->nh) fprintf(f, "  results digest per method:\n");
    for (int i = 0; i < c->nh; i++) {
        const hrow *r = &c->hrows[i];
        fprintf(f, "   %-*s %-24s %s", wm, r->method[0] ? r->method : "(shared)",
                strcmp(r->hash, "-") ? r->hash : r->ref, r->status);
        if (r->note[0]) fprintf(f, "  (%s)", r->note);
        fputs("\n", f);
    }
}

/* a value with its unit ("0.0123 m", "5.57") */
static void with_unit(char *buf, size_t n, double v, const char *unit) {
    snprintf(buf, n, "%.6g%s%s", v, unit[0] && strcmp(unit, "1") ? " " : "",
             unit[0] && strcmp(unit, "1") ? unit : "");
}

/* the failures of one experiment, each with its reason and likely cause */
static void print_failures(FILE *f, const cmp *c, int timings) {
    const char *e = c->run->experiment;
    int any = 0;
    for (int i = 0; i < c->run->nmethod; i++) {
        const tc_metrics_method *m = &c->run->methods[i];
        if (!runs_regressed(c, m)) continue;
        fprintf(f, "  FAIL     %s  runs of %s: %d of %d failed (first: %s); the reference had %d\n",
                e, m->label, m->failed, m->runs, m->failed_reason[0] ? m->failed_reason : "?",
                ref_failed(c->ref, m->label));
        print_causes(f, c, m->label);
        any = 1;
    }
    for (int i = 0; i < c->n; i++) {
        const row *r = &c->rows[i];
        if (!failing(r->status, timings)) continue;
        char v[64], ref[64];
        with_unit(v, sizeof v, r->value, r->unit);
        with_unit(ref, sizeof ref, r->ref, r->unit);
        if (!strcmp(r->status, "MISSING"))
            fprintf(f, "  MISSING  %s  %s (reference %s): %s\n", e, r->name, ref, r->note);
        else if (!strcmp(r->status, "SLOW"))
            fprintf(f, "  SLOW     %s  %s = %s, reference %s: %s (timing, failed by --timings)\n",
                    e, r->name, v, ref, r->note);
        else
            fprintf(f, "  %-7s  %s  %s = %s, reference %s +- %.3g: %s\n", r->status, e, r->name, v,
                    ref, r->tol, r->note);
        print_causes(f, c, r->method);
        any = 1;
    }
    for (int i = 0; i < c->nh; i++) {
        const hrow *r = &c->hrows[i];
        if (!failing(r->status, timings)) continue;
        fprintf(f, "  %-7s  %s  digest of %s: %s\n", r->status, e,
                r->method[0] ? r->method : "(shared)", r->note);
        print_causes(f, c, r->method);
        any = 1;
    }
    if (any) print_no_cause(f, c);
}

/* what the reference does not have yet: a new method's entries in one line, others one by one */
static void print_new(FILE *f, const cmp *c) {
    const char *e = c->run->experiment;
    if (!c->ref) {
        fprintf(f, "  NEW      %s  no reference file: %d metrics, %d digests\n", e, c->run->n,
                c->run->nhash);
        return;
    }
    for (int i = 0; i < c->run->nmethod; i++) {
        const char *label = c->run->methods[i].label;
        if (tc_metrics_find_method(c->ref, label) >= 0) continue;
        int nm = 0, nh = 0;
        for (int k = 0; k < c->n; k++)
            nm += !strcmp(c->rows[k].status, "NEW") && !strcmp(c->rows[k].method, label);
        for (int k = 0; k < c->nh; k++)
            nh += !strcmp(c->hrows[k].status, "NEW") && !strcmp(c->hrows[k].method, label);
        fprintf(f, "  NEW      %s  method %s: %d metrics, %d digest%s (not in the reference)\n", e,
                label, nm, nh, nh == 1 ? "" : "s");
    }
    for (int k = 0; k < c->n; k++) {
        const row *r = &c->rows[k];
        if (strcmp(r->status, "NEW") || (r->flags & TC_METRIC_TIMING) ||
            (r->method[0] && tc_metrics_find_method(c->ref, r->method) < 0))
            continue;
        char v[64];
        with_unit(v, sizeof v, r->value, r->unit);
        fprintf(f, "  NEW      %s  %s = %s (%s)\n", e, r->name, v, r->note);
    }
    for (int k = 0; k < c->nh; k++) {
        const hrow *r = &c->hrows[k];
        if (strcmp(r->status, "NEW") ||
            (r->method[0] && tc_metrics_find_method(c->ref, r->method) < 0))
            continue;
        fprintf(f, "  NEW      %s  digest of %s (%s)\n", e, r->method[0] ? r->method : "(shared)",
                r->note);
    }
}

/* the experiment in one line: metrics, digests, runs, timings */
static void print_line(FILE *f, const cmp *c, int timings) {
    int pass = 0, fail = 0, fresh = 0, skip = 0, tim = 0, hp = 0, hf = 0, hn = 0, hc = 0, runs = 0,
        failed = 0;
    char cpu[256] = "";
    for (int i = 0; i < c->n; i++) {
        const char *s = c->rows[i].status;
        if (is_timing(&c->rows[i]))
            tim++;
        else if (failing(s, timings))
            fail++;
        else {
            pass += !strcmp(s, "PASS");
            fresh += !strcmp(s, "NEW");
            skip += !strcmp(s, "SKIP");
        }
    }
    for (int i = 0; i < c->nh; i++) {
        const char *s = c->hrows[i].status;
        hp += !strcmp(s, "PASS");
        hn += !strcmp(s, "NEW");
        hf += failing(s, timings);
        if (!strcmp(s, "CPU"))
            snprintf(cpu + strlen(cpu), sizeof cpu - strlen(cpu), "%s%s", hc++ ? ", " : "",
                     c->hrows[i].method);
    }
    int worse = 0, recorded = 0;
    for (int i = 0; i < c->run->nmethod; i++) {
        recorded |= c->run->methods[i].runs >= 0;
        if (c->run->methods[i].runs > 0) {
            runs += c->run->methods[i].runs;
            failed += c->run->methods[i].failed;
            worse += runs_regressed(c, &c->run->methods[i]);
        }
    }
    for (int i = 0; timings && i < c->n; i++)
        fail += !strcmp(c->rows[i].status, "SLOW");
    fprintf(f, "  %-20s %-6s %s  metrics: %d pass", c->run->experiment, c->run->tier,
            fail || hf || worse ? "FAIL" : "ok  ", pass);
    if (fail) fprintf(f, ", %d FAIL", fail);
    if (fresh) fprintf(f, ", %d new", fresh);
    if (skip) fprintf(f, ", %d not run", skip);
    fprintf(f, "; digests: %d equal", hp);
    if (hf) fprintf(f, ", %d FAIL", hf);
    if (hn) fprintf(f, ", %d new", hn);
    if (hc) fprintf(f, ", %d on another CPU kind (%s: metrics decide)", hc, cpu);
    if (recorded) fprintf(f, "; runs: %d", runs);
    if (failed)
        fprintf(f, ", %d failed%s", failed, worse ? "" : " (no more than the reference records)");
    if (tim) fprintf(f, "; %d timing%s", tim, tim == 1 ? "" : "s");
    fputs("\n", f);
}

/* the timings of one experiment against the reference's: information, apart from accuracy */
static void print_timings(FILE *f, const cmp *c) {
    for (int i = 0; i < c->n; i++) {
        const row *r = &c->rows[i];
        if (!(r->flags & TC_METRIC_TIMING) || isnan(r->value)) continue;
        char v[64], ref[64];
        with_unit(v, sizeof v, r->value, r->unit);
        with_unit(ref, sizeof ref, r->ref, r->unit);
        fprintf(f, "  %-4s  %-14s %-40s %14s", r->status, c->run->experiment, r->name, v);
        if (isnan(r->ref))
            fprintf(f, " (no reference)\n");
        else
            fprintf(f, ", reference %s: %s\n", ref, r->note);
    }
}

/* ---------- the history file ---------- */

/* append one TSV line per row: time, revision, experiment, tier, metric, value, reference,
 * status; the lines of one check go in as one piece (tc_file_append_whole: concurrent checks
 * never interleave, a full disk leaves no cut line). Every field is a validated name, a number
 * or a fixed word: nothing in it can hold a tab or a newline */
static tc_status append_history(const char *path, const cmp *c, int update, tc_error *err) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory");
    /* full precision so the history can be re-analysed; an update is marked as such */
    char date[64];
    tc_utc_now(date, sizeof date);
    const tc_metrics *run = c->run;
    for (int i = 0; i < c->n; i++)
        fprintf(f, "%s\t%s\t%s\t%s\t%s\t%.17g\t%.17g\t%s\n", date, tc_revision(), run->experiment,
                run->tier, c->rows[i].name, c->rows[i].value, c->rows[i].ref,
                update ? "UPDATE" : c->rows[i].status);
    for (int i = 0; i < c->nh; i++)
        fprintf(f, "%s\t%s\t%s\t%s\tdigest:%s\tnan\tnan\t%s\n", date, tc_revision(),
                run->experiment, run->tier, c->hrows[i].method[0] ? c->hrows[i].method : "(shared)",
                update ? "UPDATE" : c->hrows[i].status);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory");
    }
    tc_status st = tc_file_append_whole(path, TC_HISTORY_HEADER "\n", buf, len, err);
    free(buf);
    return st;
}

/* ---------- updates: nothing broken becomes the truth ---------- */

/* 1 when the run's method label had failed runs */
static int method_failed(const tc_metrics *run, const char *label) {
    int i = label[0] ? tc_metrics_find_method(run, label) : -1;
    return i >= 0 && run->methods[i].failed > 0;
}

/* 1 when the run's method label may not be recorded: its runs failed (unless accepted) */
static int refused_method(const tc_metrics *run, const char *label, int accept) {
    return !accept && method_failed(run, label);
}

/* 1 when the run's method has failed runs that --accept-failed lets an update record: its
 * non-finite metrics (a failed run's) are left out of the reference, not kept at an old value */
static int accepted_failure(const tc_metrics *run, const char *label, int accept) {
    return accept && method_failed(run, label);
}

/* name every entry an update may not record, and warn about accepted failed runs */
static int list_refused(const tc_metrics *run, int accept, FILE *f) {
    int n = 0;
    for (int i = 0; i < run->nmethod; i++) {
        const tc_metrics_method *m = &run->methods[i];
        if (m->failed <= 0) continue;
        fprintf(f,
                accept ? "  WARNING  %s: recording method %s although %d of %d runs failed "
                         "(first: %s), as --accept-failed asks\n"
                       : "  refused  %s: method %s: %d of %d runs failed (first: %s); none of "
                         "its metrics and digests is recorded\n",
                run->experiment, m->label, m->failed, m->runs,
                m->failed_reason[0] ? m->failed_reason : "?");
        n += !accept;
    }
    for (int i = 0; i < run->n; i++) {
        if (isfinite(run->m[i].value) || refused_method(run, run->m[i].method, accept)) continue;
        if (accepted_failure(run, run->m[i].method, accept))
            fprintf(f, "  left out %s: %s is not finite (%g): a failed run of %s, accepted\n",
                    run->experiment, run->m[i].name, run->m[i].value, run->m[i].method);
        else {
            fprintf(f, "  refused  %s: %s is not finite (%g)\n", run->experiment, run->m[i].name,
                    run->m[i].value);
            n++;
        }
    }
    return n;
}

/* --update: the run's entries, but those of a refused method and a non-finite metric keep the
 * old reference's, if any; a non-finite metric of an accepted failed method is left out */
static void build_update(tc_metrics *out, const tc_metrics *run, const tc_metrics *ref,
                         int accept) {
    tc_metrics_init(out, run->experiment, run->tier);
    for (int i = 0; i < run->nsetting; i++)
        tc_metrics_setting_add(out, run->setting[i].key, run->setting[i].value);
    for (int i = 0; i < run->nmethod; i++) {
        const char *label = run->methods[i].label;
        const tc_metrics *from = refused_method(run, label, accept) ? ref : run;
        int j = from ? tc_metrics_find_method(from, label) : -1;
        if (j < 0) continue;
        const tc_metrics_method *m = &from->methods[j];
        tc_metrics_ran(out, m->label, m->cpu, m->cpu_kind);
        if (m->runs >= 0 || m->spec[0])
            tc_metrics_method_info(out, m->label, m->spec, m->params, m->runs, m->failed,
                                   m->failed_reason);
    }
    for (int k = 0; k < run->n; k++) {
        const tc_metric *m = &run->m[k];
        if (!isfinite(m->value) && accepted_failure(run, m->method, accept)) continue;
        if (refused_method(run, m->method, accept) || !isfinite(m->value)) {
            int j = ref ? tc_metrics_find(ref, m->name) : -1;
            if (j < 0) continue;
            m = &ref->m[j];
        }
        tc_metrics_add(out, m->method, m->name, m->value, m->unit, m->tol_abs, m->tol_rel, m->flags,
                       m->doc);
    }
    for (int k = 0; k < run->nhash; k++) {
        const tc_result_hash *h = &run->hash[k];
        if (refused_method(run, h->method, accept)) {
            int j = ref ? tc_metrics_find_hash(ref, h->method) : -1;
            if (j < 0) continue;
            h = &ref->hash[j];
        }
        tc_metrics_set_hash(out, h->method, h->hash, h->cpu, h->cpu_kind);
    }
}

/* --update-new: what the reference lacks, never a refused method's nor a non-finite value; an
 * older reference's methods get the parameters and run counts they ran with, and the script's
 * settings, where nothing of the experiment failed in this comparison */
static int add_new(tc_metrics *ref, const cmp *c, int accept, int timings) {
    const tc_metrics *run = c->run;
    int added = 0;
    if (!ref->experiment[0]) {
        snprintf(ref->experiment, sizeof ref->experiment, "%s", run->experiment);
        snprintf(ref->tier, sizeof ref->tier, "%s", run->tier);
    }
    int clean = 1;
    for (int i = 0; i < c->n; i++)
        clean &= !failing(c->rows[i].status, timings);
    for (int i = 0; i < c->nh; i++)
        clean &= !failing(c->hrows[i].status, timings);
    for (int i = 0; i < run->nmethod; i++) {
        const tc_metrics_method *m = &run->methods[i];
        if (refused_method(run, m->label, accept)) continue;
        int j = tc_metrics_find_method(ref, m->label);
        if (j < 0) {
            tc_metrics_ran(ref, m->label, m->cpu, m->cpu_kind);
            j = ref->nmethod - 1;
            added++;
        } else if (ref->methods[j].spec[0] || !clean) {
            continue;
        }
        if (!ref->oom && (m->runs >= 0 || m->spec[0])) {
            tc_metrics_method_info(ref, m->label, m->spec, m->params, m->runs, m->failed,
                                   m->failed_reason);
            added++;
        }
    }
    for (int k = 0; k < run->n; k++) {
        const tc_metric *m = &run->m[k];
        if (refused_method(run, m->method, accept) || !isfinite(m->value) ||
            tc_metrics_find(ref, m->name) >= 0)
            continue;
        tc_metrics_add(ref, m->method, m->name, m->value, m->unit, m->tol_abs, m->tol_rel, m->flags,
                       m->doc);
        added++;
    }
    for (int k = 0; k < run->nhash; k++) {
        const tc_result_hash *h = &run->hash[k];
        if (refused_method(run, h->method, accept) || tc_metrics_find_hash(ref, h->method) >= 0)
            continue;
        tc_metrics_set_hash(ref, h->method, h->hash, h->cpu, h->cpu_kind);
        added++;
    }
    if (!ref->nsetting && clean) {
        for (int i = 0; i < run->nsetting; i++)
            tc_metrics_setting_add(ref, run->setting[i].key, run->setting[i].value);
        added += run->nsetting > 0;
    }
    return added;
}

/* ---------- one experiment ---------- */

/* where run's reference lies: in the one folder of references, or where the experiment keeps
 * its own ("" for an experiment that has no place for one) */
static tc_status reference_path(const tc_check_opts *o, const tc_metrics *run, char *buf, size_t n,
                                tc_error *err) {
    buf[0] = 0;
    if (!o->ref_dir) {
        if (!o->ref_path || !o->ref_path(o->ref_ctx, run->experiment, run->tier, buf, n))
            buf[0] = 0;
        if (!buf[0] && (o->update || o->update_new))
            return tc_error_set(err, TC_EINVAL, run->experiment, 0, NULL,
                                "not a built-in experiment, so it has no folder for its "
                                "reference: name one with --ref DIR");
        return TC_OK;
    }
    char file[96];
    snprintf(file, sizeof file, "%s.%s.cfg", run->experiment, run->tier);
    if (tc_path_join(buf, n, o->ref_dir, file) != TC_OK)
        return tc_error_set(err, TC_EINVAL, o->ref_dir, 0, NULL, "path too long for %s", file);
    return TC_OK;
}

/* the run's metrics from path, its experiment (else the folder's name) and tier named well */
static tc_status read_run(tc_metrics *run, const char *path, const char *name, tc_error *err) {
    tc_status st = tc_metrics_read(run, path, err);
    if (!run->experiment[0])
        snprintf(run->experiment, sizeof run->experiment, "%.*s", (int)sizeof run->experiment - 1,
                 name);
    /* both name the reference's file: the folder's name where the file gives none, and a tier */
    char why[160];
    if (st == TC_OK && !tc_metrics_name_ok(run->experiment, why, sizeof why))
        st = tc_error_set(err, TC_EINVAL, path, 0, "experiment", "'%s' %s", run->experiment, why);
    if (st == TC_OK && !run->tier[0])
        st = tc_error_set(err, TC_EINVAL, path, 0, "tier", "the file names no tier");
    return st;
}

/* the reference at ref_path into ref if there is one (*have then 1); a malformed one is an error */
static tc_status read_reference(const char *ref_path, tc_metrics *ref, int *have, tc_error *err) {
    *have = ref_path[0] && tc_file_readable(ref_path);
    /* a reference that is there but cannot be read (a dangling link, no permission) is an
     * error, not an experiment without a reference */
    struct stat lsb;
    if (!*have && ref_path[0] && lstat(ref_path, &lsb) == 0)
        return tc_error_set(err, TC_EIO, ref_path, 0, NULL,
                            "the reference is there but cannot be read%s",
                            S_ISLNK(lsb.st_mode) ? " (a link to a missing file?)" : "");
    if (!*have) return TC_OK;
    tc_metrics_free(ref);
    return tc_metrics_read(ref, ref_path, err);
}

/* compare the run with its reference, then sort what that found into the sections */
static void compare_into(const tc_check_opts *o, cmp *c, sections *out, const char *ref_path) {
    compare(c);
    compare_hashes(c);
    diff_provenance(c);
    print_failures(out->f[S_FAIL], c, o->timings);
    print_new(out->f[S_NEW], c);
    for (int i = 0; i < c->nc; i++)
        fprintf(out->f[S_CHANGED], "  %s  %s\n", c->run->experiment, c->changes[i].text);
    print_line(out->f[S_LINES], c, o->timings);
    print_timings(out->f[S_TIMINGS], c);
    if (o->verbose) print_table(out->f[S_TABLES], c, ref_path);
}

/* one experiment's comparison added to the totals */
static void add_totals(totals *t, const cmp *c) {
    t->experiments++;
    t->changed += c->nc;
    for (int i = 0; i < c->n; i++) {
        const char *s = c->rows[i].status;
        t->metrics++;
        if (is_timing(&c->rows[i])) {
            t->timings++;
            t->slow += !strcmp(s, "SLOW");
            continue;
        }
        t->pass += !strcmp(s, "PASS");
        t->fail += !strcmp(s, "FAIL");
        t->missing += !strcmp(s, "MISSING");
        t->fresh += !strcmp(s, "NEW");
        t->skipped += !strcmp(s, "SKIP");
    }
    for (int i = 0; i < c->nh; i++) {
        const char *s = c->hrows[i].status;
        t->hashes++;
        t->hash_pass += !strcmp(s, "PASS");
        t->hash_fail += failing(s, 0);
        t->hash_new += !strcmp(s, "NEW");
        t->hash_cpu += !strcmp(s, "CPU");
    }
    for (int i = 0; i < c->run->nmethod; i++)
        t->methods_failed += runs_regressed(c, &c->run->methods[i]);
}

/* --update or --update-new: the reference at ref_path replaced or extended (ref is taken) */
static tc_status update_reference(const tc_check_opts *o, const cmp *c, tc_metrics *ref,
                                  int have_ref, const char *ref_path, FILE *u, totals *t,
                                  tc_error *err) {
    const tc_metrics *run = c->run;
    int refused = list_refused(run, o->accept_failed, u);
    t->refused += refused;
    tc_metrics next;
    int write = 1;
    if (o->update && run->filtered) {
        fprintf(u,
                "  refused  %s: the run left methods out (touche run --methods): replacing "
                "the reference would drop theirs; use --update-new, or run them all\n",
                run->experiment);
        t->refused++;
        write = 0;
        tc_metrics_init(&next, "", "");
    } else if (o->update) {
        build_update(&next, run, have_ref ? ref : NULL, o->accept_failed);
    } else {
        next = *ref;
        tc_metrics_init(ref, "", "");
        write = add_new(&next, c, o->accept_failed, o->timings) > 0;
    }
    tc_status st = TC_OK;
    if (next.oom)
        st = tc_error_set(err, TC_ENOMEM, ref_path, 0, NULL, "out of memory");
    else if (write &&
             (st = tc_metrics_write_reference(&next, ref_path, o->command, err)) == TC_OK) {
        t->written++;
        fprintf(u, "  wrote    %s\n", ref_path);
    }
    tc_metrics_free(&next);
    return st;
}

/* check (or update) the metrics.cfg of run directory name under out_dir */
static tc_status check_one(const tc_check_opts *o, const char *name, sections *out, totals *t,
                           tc_error *err) {
    /* the run's metrics; the file, not the directory name, says experiment and tier */
    char dir[1024], path[1280], ref_path[1280];
    if (tc_path_join(dir, sizeof dir, o->out_dir, name) != TC_OK ||
        tc_path_join(path, sizeof path, dir, "metrics.cfg") != TC_OK)
        return tc_error_set(err, TC_EINVAL, o->out_dir, 0, NULL, "path too long for %s", name);
    tc_metrics run, ref;
    tc_metrics_init(&ref, "", "");
    tc_status st = read_run(&run, path, name, err);
    if (st == TC_OK) st = reference_path(o, &run, ref_path, sizeof ref_path, err);
    int have_ref = 0;
    if (st == TC_OK) st = read_reference(ref_path, &ref, &have_ref, err);
    cmp c = {.run = &run, .ref = have_ref ? &ref : NULL, .timings = o->timings};
    c.rows = malloc(((size_t)run.n + (size_t)ref.n + 1) * sizeof *c.rows);
    c.hrows = malloc(((size_t)run.nhash + (size_t)ref.nhash + 1) * sizeof *c.hrows);
    if (st == TC_OK && (!c.rows || !c.hrows))
        st = tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory");
    if (st == TC_OK) {
        compare_into(o, &c, out, ref_path);
        add_totals(t, &c);
        /* record, then (with an update) replace or extend the reference */
        if (o->history && o->history[0])
            st = append_history(o->history, &c, o->update || o->update_new, err);
        if (st == TC_OK && (o->update || o->update_new))
            st = update_reference(o, &c, &ref, have_ref, ref_path, out->f[S_UPDATE], t, err);
    }
    free(c.rows);
    free(c.hrows);
    free(c.changes);
    tc_metrics_free(&run);
    tc_metrics_free(&ref);
    return st;
}

/* ---------- all experiments ---------- */

/* scandir filter: skip dot entries */
static int not_hidden(const struct dirent *d) {
    return d->d_name[0] != '.';
}

/* the sections in order of importance, each under its heading when it has anything */
static void print_sections(FILE *f, sections *s, const tc_check_opts *o) {
    static const char *const head[S_COUNT] = {
        "failed (outside tolerance, changed, missing, or more failed runs than the reference)",
        "new (not in the reference: not failures; `touche check --update-new` records them)",
        "parameters and settings that differ from the reference's",
        "per experiment",
        ("timings (machine-dependent: compared with the reference's for information, never a "
         "pass or fail%s)"),
        "every metric (--verbose)",
        "updates"};
    for (int k = 0; k < S_COUNT; k++) {
        fflush(s->f[k]);
        if (!s->len[k]) continue;
        fputs("\n", f);
        fprintf(f, head[k],
                o->timings ? "; with --timings a slowdown beyond its tolerance, SLOW, "
                             "fails"
                           : "; `--timings` fails a slowdown beyond tolerance");
        fprintf(f, "%s\n", k == S_TABLES ? "" : ":");
        fwrite(s->buf[k], 1, s->len[k], f);
    }
}

/* the reference folder named with --ref is there, unless an update is to create it */
static tc_status check_ref_dir(const tc_check_opts *o, tc_error *err) {
    /* a reference folder that is not there cannot check anything: every entry would read "new" */
    /* (an update writes the folder) */
    struct stat rsb;
    if (o->ref_dir && !o->update && !o->update_new &&
        (stat(o->ref_dir, &rsb) != 0 || !S_ISDIR(rsb.st_mode)))
        return tc_error_set(err, TC_ENOTFOUND, o->ref_dir, 0, NULL,
                            "no reference folder %s (--ref names the folder of "
                            "<experiment>.<tier>.cfg; an update creates it)",
                            o->ref_dir);
    return TC_OK;
}

/* an in-memory stream for each section; TC_ENOMEM when one cannot be opened */
static tc_status open_sections(sections *s, tc_error *err) {
    memset(s, 0, sizeof *s);
    tc_status st = TC_OK;
    for (int k = 0; k < S_COUNT && !st; k++)
        if (!(s->f[k] = open_memstream(&s->buf[k], &s->len[k])))
            st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    return st;
}

/* the sections' streams closed and their text freed */
static void close_sections(sections *s) {
    for (int k = 0; k < S_COUNT; k++)
        if (s->f[k]) {
            fclose(s->f[k]);
            free(s->buf[k]);
        }
}

/* 1 when run directory name under out_dir holds a readable metrics.cfg */
static int has_metrics(const tc_check_opts *o, const char *name) {
    char dir[1024], path[1280];
    return tc_path_join(dir, sizeof dir, o->out_dir, name) == TC_OK &&
           tc_path_join(path, sizeof path, dir, "metrics.cfg") == TC_OK && tc_file_readable(path);
}

/* the report: what matters first, then the totals and what to do */
static void print_report(FILE *report, const tc_check_opts *o, sections *s, const totals *t) {
    const char *refs = o->ref_dir ? o->ref_dir : "each experiment's reference.<tier>.cfg";
    fprintf(report, "touche check: %d experiment(s) under %s against %s\n", t->experiments,
            o->out_dir, refs);
    print_sections(report, s, o);
    fprintf(report,
            "\n%d accuracy metrics: %d passed, %d failed, %d missing, %d new, %d not run; "
            "%d result digests: %d equal, %d failed, %d new, %d on another CPU kind; "
            "%d method(s) with more failed runs than the reference; %d timing(s)%s\n",
            t->metrics - t->timings, t->pass, t->fail, t->missing, t->fresh, t->skipped, t->hashes,
            t->hash_pass, t->hash_fail, t->hash_new, t->hash_cpu, t->methods_failed, t->timings,
            o->timings ? "" : " (information)");
    if (o->timings && t->slow) fprintf(report, "%d timing(s) slower than the reference\n", t->slow);
    if (o->update || o->update_new)
        fprintf(report,
                "wrote %d reference file(s) under %s%s; review the diff before "
                "committing\n",
                t->written, refs, t->refused ? ", refused the entries named above" : "");
    else if (t->fresh || t->hash_new)
        fprintf(report, "new metrics or digests have no reference: review the outputs, then "
                        "run `touche check --update-new` to record only those\n");
}

/* the outcome: TC_ECHECK naming the failures, or what an update refused */
static tc_status verdict(const tc_check_opts *o, const totals *t, tc_error *err) {
    /* an update's differences from the old reference are its purpose; what it refused is not */
    if (o->update || o->update_new)
        return t->refused ? tc_error_set(err, TC_ECHECK, NULL, 0, NULL,
                                         "the update refused %d entr%s (named above)", t->refused,
                                         t->refused == 1 ? "y" : "ies")
                          : TC_OK;
    int failed =
        t->fail + t->missing + t->hash_fail + t->methods_failed + (o->timings ? t->slow : 0);
    if (!failed) return TC_OK;
    return tc_error_set(err, TC_ECHECK, NULL, 0, NULL,
                        "%d failure(s): %d metrics, %d missing, %d digests, %d methods' runs%s",
                        failed, t->fail, t->missing, t->hash_fail, t->methods_failed,
                        o->timings && t->slow ? ", and slower timings" : "");
}

tc_status tc_check_run(const tc_check_opts *o, FILE *report, tc_error *err) {
    tc_status st = check_ref_dir(o, err);
    if (st != TC_OK) return st;
    /* run directories in name order, so the output and history are reproducible */
    struct dirent **ents;
    int ne = scandir(o->out_dir, &ents, not_hidden, alphasort);
    if (ne < 0) return tc_error_set(err, TC_EIO, o->out_dir, 0, NULL, "cannot list %s", o->out_dir);
    sections s;
    st = open_sections(&s, err);

    /* each directory holding a metrics.cfg; the first hard error stops the loop */
    totals t = {0};
    for (int i = 0; i < ne; i++) {
        if (st == TC_OK && has_metrics(o, ents[i]->d_name))
            st = check_one(o, ents[i]->d_name, &s, &t, err);
        free(ents[i]);
    }
    free(ents);
    if (st == TC_OK && t.experiments == 0)
        st = tc_error_set(err, TC_ENOTFOUND, o->out_dir, 0, NULL,
                          "no <experiment>/metrics.cfg under %s: run the experiments first",
                          o->out_dir);
    if (st == TC_OK && report) print_report(report, o, &s, &t);
    close_sections(&s);
    if (st != TC_OK) return st;
    return verdict(o, &t, err);
}
