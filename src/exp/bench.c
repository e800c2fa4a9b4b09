/* SPDX-License-Identifier: MIT */
/* the harness of `touche bench`: options, the table of results, timing, and the run of a
 * benchmark from its command line to its CSV */
#include "exp/tc_bench.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "report/tc_progress.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------- options ---------- */

/* the value in the usage line */
static const char *opt_arg(const tc_bench_opt *p) {
    static const char *const by_kind[] = {"X", "N", "a,b,...", "quick|full", "a,b"};
    return p->arg ? p->arg : by_kind[p->kind];
}

/* the words of text (split at the characters of sep) in lines of at most 96 characters, the
 * first after `col` characters already printed and the others indented to col */
static void wrap(FILE *f, int col, const char *text, const char *sep) {
    int at = col;
    for (const char *p = text + strspn(text, sep); *p;) {
        int n = (int)strcspn(p, sep);
        if (at > col && at + 1 + n > 96) {
            fprintf(f, "\n%*s", col, "");
            at = col;
        } else if (at > col) {
            fputc(' ', f);
            at++;
        }
        fprintf(f, "%.*s", n, p);
        at += n;
        p += n + strspn(p + n, sep);
    }
    fputc('\n', f);
}

void tc_bench_line(FILE *f, int width, const char *name, const char *text) {
    fprintf(f, "  %-*s  ", width, name);
    wrap(f, width + 4, text, " ");
}

void tc_bench_usage(FILE *f, const char *name, const char *doc, const tc_bench_opt *opts) {
    char help[512], line[1024] = "";
    int width = 5; /* --out */
    /* the synopsis, an option to a word */
    for (const tc_bench_opt *p = opts; p && p->name; p++) {
        width = (int)fmax(width, strlen(p->name));
        snprintf(line + strlen(line), sizeof line - strlen(line), "[%s %s]\n", p->name, opt_arg(p));
    }
    snprintf(line + strlen(line), sizeof line - strlen(line), "[--out DIR]");
    wrap(f, fprintf(f, "usage: touche bench %s ", name), line, "\n");
    if (doc) {
        fprintf(f, "  ");
        wrap(f, 2, doc, " ");
    }
    for (const tc_bench_opt *p = opts; p && p->name; p++) {
        snprintf(help, sizeof help, p->def ? "%s (default %s)" : "%s", p->help, p->def);
        tc_bench_line(f, width, p->name, help);
    }
    tc_bench_line(f, width, "--out", "output directory (default out/bench)");
}

/* text as the value of option p into *v; 0 after the message naming the option */
static int parse_value(const char *who, const tc_bench_opt *p, const char *text, tc_bench_val *v) {
    int max = p->max > 0 && p->max < TC_BENCH_MAXLIST ? p->max : TC_BENCH_MAXLIST, ok = 1, one;
    switch (p->kind) {
    case TC_BENCH_REAL:
        ok = tc_arg_real(who, p->name, text, p->lo, p->hi, &v->real);
        break;
    case TC_BENCH_INT:
        ok = tc_arg_int(who, p->name, text, (long)p->lo, (long)p->hi, &one);
        if (ok) {
            v->real = v->list[0] = one;
            v->n = 1;
        }
        break;
    case TC_BENCH_INTS:
        ok = tc_arg_ints(who, p->name, text, (long)p->lo, (long)p->hi, v->list, max, &v->n);
        break;
    case TC_BENCH_TIER:
        ok = !strcmp(text, "quick") || !strcmp(text, "full");
        if (!ok) fprintf(stderr, "%s: %s must be quick or full (got '%s')\n", who, p->name, text);
        break;
    default:
        ok = text[0] != 0;
        if (!ok) fprintf(stderr, "%s: %s: expected a value, got an empty one\n", who, p->name);
    }
    if (ok) v->text = text;
    return ok;
}

/* the option of opts called name, or NULL */
static const tc_bench_opt *find_opt(const tc_bench_opt *opts, const char *name, int *k) {
    for (*k = 0; opts && opts[*k].name; ++*k)
        if (!strcmp(opts[*k].name, name)) return &opts[*k];
    return NULL;
}

/* the options' defaults; 2 after a mistake of the table (a bad default, too many options) */
static int set_defaults(const tc_bench_opt *opts, tc_bench_opts *o) {
    for (int k = 0; opts && opts[k].name; k++) {
        if (k >= TC_BENCH_MAXOPT) {
            fprintf(stderr, "%s: more than %d options\n", o->who, TC_BENCH_MAXOPT);
            return 2;
        }
        o->v[k].real = NAN;
        if (opts[k].def && !parse_value(o->who, &opts[k], opts[k].def, &o->v[k])) return 2;
    }
    return -1;
}

int tc_bench_parse(const char *name, const char *doc, const tc_bench_opt *opts, int argc,
                   char **argv, tc_bench_opts *o) {
    memset(o, 0, sizeof *o);
    o->name = name;
    o->out = "out/bench";
    snprintf(o->who, sizeof o->who, "touche bench %s", name);
    int rc = set_defaults(opts, o), k;
    for (int i = 1; i < argc && rc < 0; i++) {
        const char *a = argv[i];
        const tc_bench_opt *p = find_opt(opts, a, &k);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            tc_bench_usage(stdout, name, doc, opts);
            return 0;
        }
        if (!p && strcmp(a, "--out")) {
            fprintf(stderr, "%s: unknown option '%s'\n", o->who, a);
            tc_bench_usage(stderr, name, doc, opts);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", o->who, a);
            return 2;
        }
        if (!p)
            o->out = argv[++i];
        else if (!parse_value(o->who, p, argv[++i], &o->v[k]))
            rc = 2;
        else
            o->v[k].given = 1;
    }
    if (rc >= 0) return rc;
    if (!o->out[0]) {
        fprintf(stderr, "%s: --out: expected a directory\n", o->who);
        return 2;
    }
    o->seconds = find_opt(opts, "--seconds", &k) ? o->v[k].real : NAN;
    o->tier = find_opt(opts, "--tier", &k) ? o->v[k].text : NULL;
    return -1;
}

/* ---------- the table ---------- */

/* a column as the table keeps it: its name, its number format (NULL: text), its quoting */
typedef struct bench_col {
    char *name, *fmt;
    int quote;
} bench_col;

struct tc_bench_table {
    int ncol, capcol;
    bench_col *col;
    int ncell, capcell;
    char **cell; /* row after row, as in the CSV */
    char *notes; /* lines below the console table */
    size_t nnotes;
    tc_status status; /* the first error of the columns or cells, and what it was */
    tc_error error;
};

tc_status tc_bench_table_alloc(tc_bench_table **t) {
    *t = calloc(1, sizeof **t);
    return *t ? TC_OK : TC_ENOMEM;
}

void tc_bench_table_free(tc_bench_table *t) {
    if (!t) return;
    for (int i = 0; i < t->ncol; i++) {
        free(t->col[i].name);
        free(t->col[i].fmt);
    }
    for (int i = 0; i < t->ncell; i++)
        free(t->cell[i]);
    free(t->col);
    free(t->cell);
    free(t->notes);
    free(t);
}

/* keep the table's first error */
static void table_error(tc_bench_table *t, tc_status st, const char *what, const char *name) {
    if (!t->status) t->status = tc_error_set(&t->error, st, NULL, 0, name, "%s", what);
}

/* 1 when fmt holds one conversion, of a double (with any text and "%%" around it) */
static int number_format(const char *fmt) {
    int n = 0;
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p, '%')) {
        if (p[1] == '%') {
            p += 2;
            continue;
        }
        p += 1 + strspn(p + 1, "-+ #0123456789.");
        if (n++ || !*p || !strchr("feEgG", *p)) return 0;
    }
    return n == 1;
}

/* room for one more of n items of size sz in *v (capacity *cap); 0 without memory */
static int grow(void **v, int n, int *cap, size_t sz) {
    if (n < *cap) return 1;
    int c = *cap ? 2 * *cap : 16;
    void *p = realloc(*v, (size_t)c * sz);
    if (!p) return 0;
    *v = p;
    *cap = c;
    return 1;
}

/* one column, its name and format copied */
static void add_column(tc_bench_table *t, const char *name, const char *fmt, int quote) {
    if (fmt && !number_format(fmt))
        return table_error(t, TC_EINVAL, "a number format is not one conversion of a double", name);
    if (t->ncell) return table_error(t, TC_EINVAL, "a column added after the first cell", name);
    if (!grow((void **)&t->col, t->ncol, &t->capcol, sizeof *t->col))
        return table_error(t, TC_ENOMEM, "out of memory", name);
    bench_col *c = &t->col[t->ncol];
    *c = (bench_col){.name = strdup(name), .fmt = fmt ? strdup(fmt) : NULL, .quote = quote};
    if (!c->name || (fmt && !c->fmt)) {
        free(c->name);
        free(c->fmt);
        return table_error(t, TC_ENOMEM, "out of memory", name);
    }
    t->ncol++;
}

void tc_bench_columns(tc_bench_table *t, const tc_col *c, int n) {
    for (int i = 0; i < n; i++)
        add_column(t, c[i].csv, c[i].fmt, c[i].quote);
}

void tc_bench_column(tc_bench_table *t, const char *fmt, const char *name, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, name);
    vsnprintf(buf, sizeof buf, name, ap);
    va_end(ap);
    add_column(t, buf, fmt ? fmt : "%g", TC_COL_RAW);
}

/* the next cell of column c, as the CSV holds it */
static void add_cell(tc_bench_table *t, const bench_col *c, const tc_cell *v) {
    char buf[1024];
    if (c->fmt)
        snprintf(buf, sizeof buf, c->fmt, v->v);
    else if (c->quote == TC_COL_QUOTED)
        tc_csv_field(buf, sizeof buf, v->s);
    else
        snprintf(buf, sizeof buf, "%s", v->s ? v->s : "");
    char *s = strdup(buf);
    if (!s || !grow((void **)&t->cell, t->ncell, &t->capcell, sizeof *t->cell)) {
        free(s);
        return table_error(t, TC_ENOMEM, "out of memory", c->name);
    }
    t->cell[t->ncell++] = s;
}

void tc_bench_put(tc_bench_table *t, const tc_cell *cells) {
    if (!t->ncol) return table_error(t, TC_EINVAL, "a row before the columns", "");
    for (int c = 0; c < t->ncol && !t->status; c++)
        add_cell(t, &t->col[c], &cells[c]);
}

void tc_bench_note(tc_bench_table *t, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    n = n < 0 ? 0 : n >= (int)sizeof buf - 1 ? (int)sizeof buf - 2 : n;
    buf[n++] = '\n';
    buf[n] = 0;
    char *p = realloc(t->notes, t->nnotes + (size_t)n + 1);
    if (!p) return table_error(t, TC_ENOMEM, "out of memory", "note");
    memcpy(p + t->nnotes, buf, (size_t)n + 1);
    t->notes = p;
    t->nnotes += (size_t)n;
}

tc_status tc_bench_table_csv(const tc_bench_table *t, FILE *f, tc_error *err) {
    if (t->status) {
        *err = t->error;
        return t->status;
    }
    if (!t->ncol) return tc_error_set(err, TC_EINVAL, NULL, 0, NULL, "the table has no columns");
    for (int i = 0; i < t->ncol; i++)
        fprintf(f, "%s%s", i ? "," : "", t->col[i].name);
    for (int i = 0; i < t->ncell; i++)
        fprintf(f, "%s%s", i % t->ncol ? "," : "\n", t->cell[i]);
    fprintf(f, "\n");
    return TC_OK;
}

void tc_bench_table_print(const tc_bench_table *t, FILE *f) {
    int *w = calloc((size_t)t->ncol + 1, sizeof *w);
    if (!w) return;
    /* each column as wide as its name and its widest cell */
    for (int i = 0; i < t->ncol; i++)
        w[i] = (int)strlen(t->col[i].name);
    for (int i = 0; i < t->ncell; i++) {
        int k = i % t->ncol, n = (int)strlen(t->cell[i]);
        w[k] = n > w[k] ? n : w[k];
    }
    /* text left, numbers right; the last column's text unpadded */
    for (int i = 0; i < t->ncol; i++)
        w[i] = t->col[i].fmt ? w[i] : i < t->ncol - 1 ? -w[i] : 0;
    for (int i = 0; i < t->ncol; i++)
        fprintf(f, "%s%*s", i ? "  " : "", w[i], t->col[i].name);
    for (int i = 0; i < t->ncell; i++)
        fprintf(f, "%s%*s", i % t->ncol ? "  " : "\n", w[i % t->ncol], t->cell[i]);
    fprintf(f, "\n%s", t->notes ? t->notes : "");
    free(w);
}

/* ---------- timing ---------- */

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* one sample of batch calls: its wall time and thread CPU time per call */
static tc_status sample(const tc_bench_timer *tm, int batch, double *wall, double *cpu) {
    double w0 = tc_wall_time(), c0 = tm->cpu ? tc_thread_cpu_time() : 0;
    tc_status st = TC_OK;
    for (int i = 0; i < batch && !st; i++)
        st = tm->call(tm->ctx);
    if (tm->cpu) *cpu = (tc_thread_cpu_time() - c0) / batch;
    *wall = (tc_wall_time() - w0) / batch;
    return st;
}

tc_status tc_bench_time(const tc_bench_timer *tm, tc_bench_timing *r) {
    const int batch = tm->batch > 0 ? tm->batch : 1;
    /* the CPU times need room for every sample: at most max_samples (at least 1) then */
    const long max = tm->max_samples > 0 ? tm->max_samples : tm->cpu ? 1 : 0;
    double *cpu = tm->cpu ? malloc((size_t)max * sizeof *cpu) : NULL;
    *r = (tc_bench_timing){.mean_s = NAN, .best_s = NAN, .cpu_median_s = NAN};
    if (tm->cpu && !cpu) return TC_ENOMEM;
    const double start = tc_wall_time();
    double sum = 0, best = INFINITY, wall, one;
    tc_status st = TC_OK;
    /* the warm-up: untimed, unless a slow first call is all the budget allows */
    if (tm->warmup) {
        st = sample(tm, 1, &wall, &one);
        if (!st && tm->warmup == TC_BENCH_WARMUP_SLOW && wall >= tm->seconds) {
            sum = best = wall;
            r->samples = r->calls = 1;
        }
    }
    while (!st && sum < tm->seconds && (!max || r->samples < max) &&
           (tm->wall_max <= 0 || tc_wall_time() - start < tm->wall_max)) {
        if (tm->before && (st = tm->before(tm->ctx))) break;
        if ((st = sample(tm, batch, &wall, tm->cpu ? &cpu[r->samples] : &one))) break;
        sum += wall * batch;
        best = fmin(best, wall);
        r->samples++;
        r->calls += batch;
    }
    r->status = st;
    if (r->samples) {
        r->mean_s = sum / (double)r->calls;
        r->best_s = best;
    }
    if (cpu && r->samples) {
        qsort(cpu, (size_t)r->samples, sizeof *cpu, by_value);
        r->cpu_median_s = cpu[r->samples / 2];
    }
    free(cpu);
    return TC_OK;
}

/* ---------- a benchmark ---------- */

/* plan d's experiment (when it has one), run d into t; errors into err */
static tc_status bench_run(const tc_bench_def *d, const tc_bench_opts *o, tc_bench_table *t,
                           tc_error *err) {
    tc_exp *x = NULL;
    tc_status st = TC_OK;
    if (d->experiment)
        st = tc_exp_plan_builtin(&x, d->experiment, o->tier ? o->tier : d->tier, err);
    /* the timings compare the methods, not the machine's cores, where threads is 1 */
    int threads = omp_get_max_threads();
    if (d->threads > 0) omp_set_num_threads(d->threads);
    if (!st) st = d->run(x, o, t, err);
    omp_set_num_threads(threads);
    tc_exp_free(x);
    if (st && !err->msg[0]) tc_error_set(err, st, NULL, 0, NULL, "%s", tc_status_str(st));
    return st;
}

int tc_bench_main(const tc_bench_def *d, int argc, char **argv) {
    tc_bench_opts o;
    int rc = tc_bench_parse(d->name, d->doc, d->opts, argc, argv, &o);
    if (rc >= 0) return rc;
    tc_error err;
    tc_error_clear(&err);
    char path[1100];
    tc_outfile f;
    tc_bench_table *t = NULL;
    /* the output file opened first: a bad --out fails before anything is timed */
    tc_status st = tc_path_join(path, sizeof path, o.out, d->csv)
                       ? tc_error_set(&err, TC_EINVAL, NULL, 0, "--out", "path too long")
                       : tc_outfile_open(&f, path, &err);
    if (st) return tc_bench_fail(d->name, &err);
    st = tc_bench_table_alloc(&t) ? tc_error_set(&err, TC_ENOMEM, NULL, 0, NULL, "out of memory")
                                  : bench_run(d, &o, t, &err);
    if (!st) st = tc_bench_table_csv(t, f.f, &err);
    if (st) {
        tc_outfile_abort(&f);
        tc_bench_table_free(t);
        return tc_bench_fail(d->name, &err);
    }
    tc_bench_table_print(t, stdout);
    tc_bench_table_free(t);
    if (tc_outfile_commit(&f, &err)) return tc_bench_fail(d->name, &err);
    printf("wrote %s\n", path);
    return 0;
}
