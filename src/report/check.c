/* SPDX-License-Identifier: MIT */
/* `touche check`: every run's metrics against its reference, the table, history and --update */
#include "report/tc_metrics.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/tc_fs.h"
#include "report/tc_report.h"

/* one line of the check table */
typedef struct row {
    const char *name; /* metric name (points into the run's or the reference's metrics) */
    const char *unit;
    double value, ref;  /* NAN when absent */
    double tol;         /* tol_abs + tol_rel * |ref| from the reference; NAN without one */
    const char *status; /* "PASS", "FAIL", "NEW" or "SKIP" (its method was left out of the run) */
    char note[96];      /* why it did not pass ("" when it did) */
} row;

/* running totals over all experiments */
typedef struct totals {
    int experiments, metrics, pass, fail, fresh, skipped, written, hashes, hash_pass, hash_fail,
        hash_new, hash_cpu;
} totals;

/* ---------- comparing ---------- */

/* 1 when the reference entry of method was left out of the run on purpose */
static int left_out(const tc_metrics *run, const char *method) {
    return run->filtered && method[0] && tc_metrics_find_method(run, method) < 0;
}

/* compare run against ref (NULL: no reference file); rows gets one entry per metric of either */
static int compare(const tc_metrics *run, const tc_metrics *ref, row *rows) {
    int n = 0;

    /* every metric of the run, in its order */
    for (int i = 0; i < run->n; i++) {
        const tc_metric *m = &run->m[i];
        row *r = &rows[n++];
        int j = ref ? tc_metrics_find(ref, m->name) : -1;
        *r = (row){m->name, m->unit, m->value, NAN, NAN, "NEW", ""};
        if (j < 0) {
            snprintf(r->note, sizeof r->note, "%s",
                     ref ? "not in the reference" : "no reference file");
            continue;
        }

        /* tolerances come from the reference, never from the run */
        const tc_metric *x = &ref->m[j];
        r->ref = x->value;
        r->tol = x->tol_abs + x->tol_rel * fabs(x->value);
        int pass = isfinite(m->value) && fabs(m->value - x->value) <= r->tol;
        r->status = pass ? "PASS" : "FAIL";
        if (!isfinite(m->value))
            snprintf(r->note, sizeof r->note, "not finite");
        else if (!pass)
            snprintf(r->note, sizeof r->note, "outside tolerance: off by %.3g",
                     fabs(m->value - x->value));
    }

    /* metrics the reference has and the run lost (or left out with its method) */
    for (int j = 0; ref && j < ref->n; j++) {
        const tc_metric *x = &ref->m[j];
        if (tc_metrics_find(run, x->name) >= 0) continue;
        int skip = left_out(run, x->method);
        rows[n++] = (row){x->name,
                          x->unit,
                          NAN,
                          x->value,
                          x->tol_abs + x->tol_rel * fabs(x->value),
                          skip ? "SKIP" : "FAIL",
                          ""};
        snprintf(rows[n - 1].note, sizeof rows[n - 1].note, "%s",
                 skip ? "method not run (--methods)" : "missing from the run");
    }
    return n;
}

/* one line of the digest table */
typedef struct hrow {
    const char *method, *hash, *ref;
    const char *status; /* PASS, FAIL, NEW, SKIP, or CPU (differs; the method's results depend on
                         * the CPU, so its metrics' tolerances decide) */
    char note[240];
} hrow;

static int compare_hashes(const tc_metrics *run, const tc_metrics *ref, hrow *rows) {
    int n = 0;
    for (int i = 0; i < run->nhash; i++) {
        const tc_result_hash *h = &run->hash[i];
        int j = ref ? tc_metrics_find_hash(ref, h->method) : -1;
        hrow *r = &rows[n++];
        *r = (hrow){h->method, h->hash, "-", "NEW", "no reference digest"};
        if (j < 0) continue;
        const tc_result_hash *x = &ref->hash[j];
        r->ref = x->hash;
        r->note[0] = 0;
        if (!strcmp(h->hash, x->hash)) {
            r->status = "PASS";
        } else if ((h->cpu[0] || x->cpu[0]) && strcmp(h->cpu_kind, x->cpu_kind)) {
            r->status = "CPU";
            snprintf(r->note, sizeof r->note, "results differ, on another CPU kind (%s, the "
                     "reference's %s) and they depend on it: its metrics' tolerances decide",
                     h->cpu_kind[0] ? h->cpu_kind : "?", x->cpu_kind[0] ? x->cpu_kind : "?");
        } else if (h->cpu[0] || x->cpu[0]) {
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note, "results changed on the same CPU kind (%s) as the "
                     "reference run", h->cpu_kind);
        } else {
            r->status = "FAIL";
            snprintf(r->note, sizeof r->note, "results changed (a result file or metric of this "
                     "method differs from the reference run)");
        }
    }
    for (int j = 0; ref && j < ref->nhash; j++) {
        const tc_result_hash *x = &ref->hash[j];
        if (tc_metrics_find_hash(run, x->method) >= 0) continue;
        int skip = left_out(run, x->method);
        rows[n++] = (hrow){x->method, "-", x->hash, skip ? "SKIP" : "FAIL", ""};
        snprintf(rows[n - 1].note, sizeof rows[n - 1].note, "%s",
                 skip ? "method not run (--methods)" : "missing from the run");
    }
    return n;
}

/* ---------- the table ---------- */

/* a number for the table, "-" when absent */
static void fmt_num(char *buf, size_t n, double v, const char *prefix) {
    if (isnan(v))
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%s%.9g", prefix, v);
}

/* one experiment's block: a heading line, then aligned columns and the reason for any non-pass */
static void print_table(FILE *f, const tc_metrics *run, const char *ref_path, const row *rows,
                        int n) {
    /* cell texts, then the width of each column */
    enum { NCOL = 6 };
    static const char *const head[NCOL] = {"metric",    "value", "reference",
                                           "tolerance", "unit",  "status"};
    char(*cells)[NCOL][112] = malloc((size_t)n * sizeof *cells);
    if (!cells) return;
    int w[NCOL];
    for (int c = 0; c < NCOL; c++)
        w[c] = (int)strlen(head[c]);
    for (int i = 0; i < n; i++) {
        snprintf(cells[i][0], sizeof cells[i][0], "%s", rows[i].name);
        fmt_num(cells[i][1], sizeof cells[i][1], rows[i].value, "");
        fmt_num(cells[i][2], sizeof cells[i][2], rows[i].ref, "");
        fmt_num(cells[i][3], sizeof cells[i][3], rows[i].tol, "+-");
        snprintf(cells[i][4], sizeof cells[i][4], "%s", rows[i].unit);
        snprintf(cells[i][5], sizeof cells[i][5], "%s", rows[i].status);
        for (int c = 0; c < NCOL; c++)
            if ((int)strlen(cells[i][c]) > w[c]) w[c] = (int)strlen(cells[i][c]);
    }

    /* heading and column titles (text left-aligned, numbers right-aligned) */
    static const int right[NCOL] = {0, 1, 1, 1, 0, 0};
    fprintf(f, "\n%s (%s) against %s\n", run->experiment, run->tier, ref_path);
    for (int i = -1; i < n; i++) {
        fputs(" ", f);
        for (int c = 0; c < NCOL; c++) {
            const char *txt = i < 0 ? head[c] : cells[i][c];
            fprintf(f, right[c] ? " %*s" : " %-*s", c == NCOL - 1 ? 0 : w[c], txt);
        }
        if (i >= 0 && rows[i].note[0]) fprintf(f, "  (%s)", rows[i].note);
        fputs("\n", f);
    }
    free(cells);
}

/* the digests of the results, one line per method ("(shared)": the experiment's own) */
static void print_hashes(FILE *f, const hrow *rows, int n) {
    if (n == 0) return;
    int w = (int)strlen("(shared)");
    for (int i = 0; i < n; i++)
        if ((int)strlen(rows[i].method) > w) w = (int)strlen(rows[i].method);
    fprintf(f, "  results digest per method:\n");
    for (int i = 0; i < n; i++) {
        fprintf(f, "   %-*s %-24s %s", w, rows[i].method[0] ? rows[i].method : "(shared)",
                strcmp(rows[i].hash, "-") ? rows[i].hash : rows[i].ref, rows[i].status);
        if (rows[i].note[0]) fprintf(f, "  (%s)", rows[i].note);
        fputs("\n", f);
    }
}

/* ---------- the history file ---------- */

/* append one TSV line per row: time, revision, experiment, tier, metric, value, reference, status
 */
static tc_status append_history(const char *path, const tc_metrics *run, const row *rows, int n,
                                const hrow *hrows, int nh, int update, tc_error *err) {
    /* a new (or empty) file starts with the column names */
    struct stat st;
    int fresh = stat(path, &st) != 0 || st.st_size == 0;
    tc_status s = tc_mkdir_parent(path, err);
    if (s != TC_OK) return s;
    FILE *f = fopen(path, "a");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot append to %s", path);
    if (fresh) fputs("time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus\n", f);

    /* full precision so the history can be re-analysed; an update is marked as such */
    char date[64];
    tc_utc_now(date, sizeof date);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\t%s\t%s\t%s\t%s\t%.17g\t%.17g\t%s\n", date, tc_revision(), run->experiment,
                run->tier, rows[i].name, rows[i].value, rows[i].ref,
                update ? "UPDATE" : rows[i].status);
    for (int i = 0; i < nh; i++)
        fprintf(f, "%s\t%s\t%s\t%s\tdigest:%s\tnan\tnan\t%s\n", date, tc_revision(),
                run->experiment, run->tier, hrows[i].method[0] ? hrows[i].method : "(shared)",
                update ? "UPDATE" : hrows[i].status);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return tc_error_set(err, TC_EIO, path, 0, NULL, "writing %s failed", path);
    return TC_OK;
}

/* ---------- one experiment ---------- */

/* the reference with what it lacks from run added (methods, metrics, digests); non-finite
 * metrics are not stored. Returns how many entries were added */
static int add_new(tc_metrics *ref, const tc_metrics *run, FILE *report) {
    int added = 0;
    if (!ref->experiment[0]) {
        snprintf(ref->experiment, sizeof ref->experiment, "%s", run->experiment);
        snprintf(ref->tier, sizeof ref->tier, "%s", run->tier);
    }
    for (int i = 0; i < run->nmethod; i++)
        if (tc_metrics_find_method(ref, run->methods[i].label) < 0)
            tc_metrics_ran(ref, run->methods[i].label, run->methods[i].cpu,
                           run->methods[i].cpu_kind),
                added++;
    for (int i = 0; i < run->n; i++) {
        const tc_metric *m = &run->m[i];
        if (tc_metrics_find(ref, m->name) >= 0) continue;
        if (!isfinite(m->value)) {
            if (report) fprintf(report, "  not recorded: %s is not finite\n", m->name);
            continue;
        }
        tc_metrics_add(ref, m->method, m->name, m->value, m->unit, m->tol_abs, m->tol_rel,
                       m->flags, m->doc);
        added++;
    }
    for (int i = 0; i < run->nhash; i++)
        if (tc_metrics_find_hash(ref, run->hash[i].method) < 0)
            tc_metrics_set_hash(ref, run->hash[i].method, run->hash[i].hash, run->hash[i].cpu,
                                run->hash[i].cpu_kind),
                added++;
    return added;
}

/* check (or update) the metrics.cfg of run directory name under out_dir */
static tc_status check_one(const tc_check_opts *o, const char *name, FILE *report, totals *t,
                           tc_error *err) {
    /* the run's metrics; the file, not the directory name, says experiment and tier */
    char dir[1024], path[1280], ref_path[1280];
    if (tc_path_join(dir, sizeof dir, o->out_dir, name) != TC_OK ||
        tc_path_join(path, sizeof path, dir, "metrics.cfg") != TC_OK)
        return tc_error_set(err, TC_EINVAL, o->out_dir, 0, NULL, "path too long for %s", name);
    tc_metrics run, ref;
    tc_metrics_init(&ref, "", "");
    tc_status st = tc_metrics_read(&run, path, err);
    if (!run.experiment[0])
        snprintf(run.experiment, sizeof run.experiment, "%.*s", (int)sizeof run.experiment - 1,
                 name);
    char file[96];
    snprintf(file, sizeof file, "%s.%s.cfg", run.experiment, run.tier);
    if (st == TC_OK && tc_path_join(ref_path, sizeof ref_path, o->ref_dir, file) != TC_OK)
        st = tc_error_set(err, TC_EINVAL, o->ref_dir, 0, NULL, "path too long for %s", file);

    /* the reference, if there is one (a malformed one is an error, not a missing one) */
    int have_ref = st == TC_OK && tc_file_readable(ref_path);
    if (have_ref) {
        tc_metrics_free(&ref);
        st = tc_metrics_read(&ref, ref_path, err);
    }
    row *rows = malloc(((size_t)run.n + (size_t)ref.n + 1) * sizeof *rows);
    hrow *hrows = malloc(((size_t)run.nhash + (size_t)ref.nhash + 1) * sizeof *hrows);
    if (st == TC_OK && (!rows || !hrows))
        st = tc_error_set(err, TC_ENOMEM, path, 0, NULL, "out of memory");
    if (st != TC_OK) {
        free(rows), free(hrows), tc_metrics_free(&run), tc_metrics_free(&ref);
        return st;
    }

    /* compare and show */
    int n = compare(&run, have_ref ? &ref : NULL, rows);
    int nh = compare_hashes(&run, have_ref ? &ref : NULL, hrows);
    if (report) print_table(report, &run, ref_path, rows, n), print_hashes(report, hrows, nh);
    t->experiments++;
    for (int i = 0; i < n; i++) {
        t->metrics++;
        t->pass += rows[i].status[0] == 'P';
        t->fail += rows[i].status[0] == 'F';
        t->fresh += rows[i].status[0] == 'N';
        t->skipped += rows[i].status[0] == 'S';
    }
    for (int i = 0; i < nh; i++) {
        t->hashes++;
        t->hash_pass += hrows[i].status[0] == 'P';
        t->hash_fail += hrows[i].status[0] == 'F';
        t->hash_new += hrows[i].status[0] == 'N';
        t->hash_cpu += hrows[i].status[0] == 'C';
    }

    /* record, then (with an update) replace or extend the reference */
    if (o->history && o->history[0])
        st = append_history(o->history, &run, rows, n, hrows, nh, o->update || o->update_new, err);
    if (st == TC_OK && o->update) {
        int finite = 1;
        for (int i = 0; i < run.n; i++)
            finite &= isfinite(run.m[i].value) != 0;
        if (!finite)
            st = tc_error_set(err, TC_EINVAL, path, 0, NULL,
                              "%s has non-finite metrics; not storing them as a reference", path);
        else if (run.filtered)
            st = tc_error_set(err, TC_EINVAL, path, 0, NULL,
                              "the run left methods out (touche run --methods): replacing the "
                              "reference would drop theirs; use --update-new, or run them all");
        else if ((st = tc_metrics_write_reference(&run, ref_path, o->command, err)) == TC_OK) {
            t->written++;
            if (report) fprintf(report, "  wrote %s\n", ref_path);
        }
    } else if (st == TC_OK && o->update_new) {
        int added = add_new(&ref, &run, report);
        if (ref.oom) st = tc_error_set(err, TC_ENOMEM, ref_path, 0, NULL, "out of memory");
        else if (added && (st = tc_metrics_write_reference(&ref, ref_path, o->command, err)) == TC_OK) {
            t->written++;
            if (report) fprintf(report, "  added %d new entries to %s\n", added, ref_path);
        }
    }
    free(rows), free(hrows), tc_metrics_free(&run), tc_metrics_free(&ref);
    return st;
}

/* scandir filter: skip dot entries */
static int not_hidden(const struct dirent *d) {
    return d->d_name[0] != '.';
}

tc_status tc_check_run(const tc_check_opts *o, FILE *report, tc_error *err) {
    /* run directories in name order, so the table and history are reproducible */
    struct dirent **ents;
    int ne = scandir(o->out_dir, &ents, not_hidden, alphasort);
    if (ne < 0) return tc_error_set(err, TC_EIO, o->out_dir, 0, NULL, "cannot list %s", o->out_dir);

    /* each directory holding a metrics.cfg; the first hard error stops the loop */
    totals t = {0};
    tc_status st = TC_OK;
    for (int i = 0; i < ne; i++) {
        char dir[1024], path[1280];
        int usable = tc_path_join(dir, sizeof dir, o->out_dir, ents[i]->d_name) == TC_OK &&
                     tc_path_join(path, sizeof path, dir, "metrics.cfg") == TC_OK &&
                     tc_file_readable(path);
        if (usable && st == TC_OK) st = check_one(o, ents[i]->d_name, report, &t, err);
        free(ents[i]);
    }
    free(ents);
    if (st != TC_OK) return st;
    if (t.experiments == 0)
        return tc_error_set(err, TC_ENOTFOUND, o->out_dir, 0, NULL,
                            "no <experiment>/metrics.cfg under %s: run the experiments first",
                            o->out_dir);

    /* summary and what to do about failures */
    if (report) {
        fprintf(report,
                "\n%d metrics in %d experiment(s): %d passed, %d failed, %d new, %d not run\n"
                "%d result digests: %d equal, %d changed, %d new, %d differ on a CPU-dependent "
                "method\n",
                t.metrics, t.experiments, t.pass, t.fail, t.fresh, t.skipped, t.hashes,
                t.hash_pass, t.hash_fail, t.hash_new, t.hash_cpu);
        if (o->update || o->update_new)
            fprintf(report,
                    "wrote %d reference file(s) under %s; review the diff before "
                    "committing\n",
                    t.written, o->ref_dir);
        else if (t.fresh || t.hash_new)
            fprintf(report, "new metrics or digests have no reference: review the outputs, then "
                            "run `touche check --update-new` to record only those\n");
    }
    if (o->update || o->update_new || (t.fail == 0 && t.hash_fail == 0)) return TC_OK;
    return tc_error_set(err, TC_ECHECK, NULL, 0, NULL,
                        "%d of %d metrics and %d of %d result digests failed (changed or missing)",
                        t.fail, t.metrics, t.hash_fail, t.hashes);
}
