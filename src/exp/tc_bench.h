/* SPDX-License-Identifier: MIT */
/* the harness of `touche bench`: one parser for every benchmark's options (--out and the
 * benchmark's own table of options), the built-in experiment planned for an experiment's
 * benchmark, one timing primitive (warm-up, repeats, mean, best, median) and one table of results
 * whose columns (name and printf conversion) give both the CSV, written atomically, and the table
 * printed on the console, so the two cannot drift apart (docs/benchmarks.md) */
#ifndef TC_BENCH_H
#define TC_BENCH_H

#include "exp/tc_experiment.h"
#include "exp/tc_rows.h"

#include <stdio.h>

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_BENCH_MAXLIST 64 /* values of one list option */
#define TC_BENCH_MAXOPT  8  /* options of one benchmark besides --out and --help */

/* ---------- options ---------- */

/* what an option's value is */
typedef enum tc_bench_kind {
    TC_BENCH_REAL, /* a finite number in [lo, hi] */
    TC_BENCH_INT,  /* a whole number in [lo, hi] */
    TC_BENCH_INTS, /* comma-separated whole numbers in [lo, hi], at most max of them */
    TC_BENCH_TIER, /* quick or full */
    TC_BENCH_TEXT, /* any text but the empty one (the benchmark checks it) */
} tc_bench_kind;

/* one option of a benchmark: --name VALUE; a benchmark's options are a table of these ended by
 * an entry without a name */
typedef struct tc_bench_opt {
    const char *name; /* "--bodies" */
    tc_bench_kind kind;
    double lo, hi;    /* the range of each value (REAL, INT, INTS) */
    int max;          /* INTS: at most this many values (0: TC_BENCH_MAXLIST) */
    const char *def;  /* the default as it would be given ("100,300,1000"; NULL: none) */
    const char *arg;  /* the value in the usage line ("a,b,..."; NULL: from the kind) */
    const char *help; /* what it sets, one line for --help (the default is added) */
} tc_bench_opt;

/* the entries of an option table by kind: name, range of each value, at most max values (a
 * list), the default as it would be given (NULL: none), the value in the usage (NULL: from the
 * kind) and the line of help */
#define TC_BENCH_OPT_REAL(name, lo, hi, dflt, arg, help)                                           \
    { name, TC_BENCH_REAL, lo, hi, 0, dflt, arg, help }
#define TC_BENCH_OPT_INT(name, lo, hi, dflt, help)                                                 \
    { name, TC_BENCH_INT, lo, hi, 0, dflt, NULL, help }
#define TC_BENCH_OPT_INTS(name, lo, hi, max, dflt, help)                                           \
    { name, TC_BENCH_INTS, lo, hi, max, dflt, NULL, help }
#define TC_BENCH_OPT_TIER(dflt, help)                                                              \
    { "--tier", TC_BENCH_TIER, 0, 0, 0, dflt, NULL, help }
#define TC_BENCH_OPT_TEXT(name, dflt, arg, help)                                                   \
    { name, TC_BENCH_TEXT, 0, 0, 0, dflt, arg, help }
/* the time budget of the benchmarks that time calls for a while (s) */
#define TC_BENCH_OPT_SECONDS(dflt, help) TC_BENCH_OPT_REAL("--seconds", 1e-4, 3600, dflt, "S", help)

/* an option's value: as given, else its default */
typedef struct tc_bench_val {
    const char *text;              /* as given or the default; NULL: neither */
    int given;                     /* 1 when the command line gave it */
    double real;                   /* REAL and INT (NAN without a value) */
    int n, list[TC_BENCH_MAXLIST]; /* INTS; INT has its value as list[0] too */
} tc_bench_val;

/* a benchmark's command line, parsed */
typedef struct tc_bench_opts {
    const char *name;                /* the benchmark ("piles") */
    char who[80];                    /* "touche bench piles", the start of every message */
    const char *out;                 /* --out DIR (default out/bench) */
    double seconds;                  /* --seconds when the benchmark has it (s; else NAN) */
    const char *tier;                /* --tier when the benchmark has it, else NULL */
    tc_bench_val v[TC_BENCH_MAXOPT]; /* its options, in the order of its table */
} tc_bench_opts;

/* "  name text" on f, name padded to width, text wrapped under itself */
void tc_bench_line(FILE *f, int width, const char *name, const char *text);

/* the usage of benchmark `name` (doc: what it does, a paragraph; opts: its options) */
void tc_bench_usage(FILE *f, const char *name, const char *doc, const tc_bench_opt *opts);

/* parse argv[1..argc-1] (argv[0] is the benchmark's name) against opts into *o, defaults first:
 * -1 to go on, else the exit status: 0 after --help (the usage on stdout), 2 after a bad command
 * line ("touche bench NAME: --opt: ..." on stderr, naming the option) */
int tc_bench_parse(const char *name, const char *doc, const tc_bench_opt *opts, int argc,
                   char **argv, tc_bench_opts *o);

/* ---------- the table of results ---------- */

/* the columns are tc_col, the column specification of tc_rows (exp/tc_rows.h): csv names the
 * column in the CSV header and the console table's, fmt is the printf format of a number in both
 * (one conversion of a double: "%.4f", "%.6g", "%.0f" for a count; NULL: a text column) and quote
 * says how a text cell is written in the CSV (TC_COL_QUOTED: always quoted). The fields of the
 * report's table (head, digits, ...) are not used: the console shows what the CSV holds */
typedef struct tc_bench_table tc_bench_table;

tc_status tc_bench_table_alloc(tc_bench_table **t);
void tc_bench_table_free(tc_bench_table *t);

/* append n columns (copied), or a number column whose name is printf-formatted (a method's spec
 * in it); errors (a format not of one number, no memory) are kept and reported when the table is
 * written, as are those of the cells */
void tc_bench_columns(tc_bench_table *t, const tc_col *c, int n);
void tc_bench_column(tc_bench_table *t, const char *fmt, const char *name, ...)
    __attribute__((format(printf, 3, 4)));

/* one row: a cell per column in column order (TC_NUM for a number column, TC_TEXT for text), as
 * tc_rows_put takes it */
void tc_bench_put(tc_bench_table *t, const tc_cell *cells);

/* a line printed below the console table (not in the CSV) */
void tc_bench_note(tc_bench_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* the header and rows as CSV into f; TC_EINVAL (what was wrong) after an error of the columns,
 * or without a column */
tc_status tc_bench_table_csv(const tc_bench_table *t, FILE *f, tc_error *err);

/* the same table on f with aligned columns (text left, numbers right), then the notes */
void tc_bench_table_print(const tc_bench_table *t, FILE *f);

/* ---------- timing ---------- */

/* how a call is timed: samples of `batch` calls each, while their times sum to less than
 * `seconds` (and at most max_samples of them, and no longer than wall_max since the start) */
typedef struct tc_bench_timer {
    tc_status (*call)(void *ctx);   /* one call (a force query, a step); a failure stops it */
    tc_status (*before)(void *ctx); /* optional, untimed before each sample (bench all restarts a
                                     * run at the experiment's horizon); a failure stops it */
    void *ctx;
    double seconds;   /* the budget (s) */
    double wall_max;  /* 0, or stop once this much wall time has passed (s) */
    long max_samples; /* 0: no limit; with cpu, at most this many (needed then) */
    int batch;        /* calls a sample (0 for 1); the times are per call */
    int warmup;       /* TC_BENCH_WARMUP_* */
    int cpu;          /* 1: each sample's thread CPU time too, for their median */
} tc_bench_timer;

enum {
    TC_BENCH_WARMUP_NONE = 0,
    TC_BENCH_WARMUP_ONE = 1,  /* one untimed call first */
    TC_BENCH_WARMUP_SLOW = 2, /* one call first, untimed unless it alone takes the budget: then
                               * it is the only sample (a call slower than the budget is timed
                               * once) */
};

/* what the timing gave: per call (s; NAN without a sample) */
typedef struct tc_bench_timing {
    long calls, samples;   /* timed */
    double mean_s, best_s; /* the mean, and the least sample (the one least disturbed by other
                            * processes on a shared machine) */
    double cpu_median_s;   /* the median sample's thread CPU time (with cpu) */
    tc_status status;      /* the failure that stopped it (TC_OK: the budget did) */
} tc_bench_timing;

/* time tm->call; TC_ENOMEM (nothing timed) when the CPU times find no memory. A failed call is
 * no error of the timing: it ends it, with its status in r->status */
tc_status tc_bench_time(const tc_bench_timer *tm, tc_bench_timing *r);

/* ---------- a benchmark ---------- */

/* a benchmark: what `touche bench NAME` runs. An experiment's (tc_experiment_type.bench) leaves
 * name, doc and experiment NULL: they come from its descriptor (bench_name, bench_doc, name) */
typedef struct tc_bench_def {
    const char *name;         /* "scm" */
    const char *doc;          /* what it does (the usage's paragraph) */
    const char *experiment;   /* the experiment it plans with its built-in script (or NULL) */
    const char *tier;         /* the tier it is planned at (a --tier option overrides) */
    const char *csv;          /* the file it writes under --out ("bench_piles.csv") */
    const tc_bench_opt *opts; /* its options besides --out and --help (NULL: none) */
    int threads;              /* OpenMP threads while it runs (0: as they are) */
    /* what it times, into the table t: x is the experiment planned (NULL without one), o the
     * options; an error stops the benchmark and nothing is written */
    tc_status (*run)(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err);
} tc_bench_def;

/* `touche bench NAME ...` (argv[0] is NAME, or anything when no name was given): parse, plan the
 * experiment, run, write d->csv under --out atomically, print the table and "wrote PATH".
 * Returns the exit status: 0, 1 (the benchmark failed: "touche bench NAME: ..." on stderr, and
 * nothing written) or 2 (a bad command line) */
int tc_bench_main(const tc_bench_def *d, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
