/* SPDX-License-Identifier: MIT */
/* the benchmark harness (exp/tc_bench.h): one column specification gives the CSV and the console
 * table, options parse to their values or exit 2, the timing counts its calls, a failed benchmark
 * writes nothing. touche bench all: every registered method (docs/adding-a-model.md's example
 * registered at run time included) has one row per scene in bench_all.csv, runs where its
 * capabilities fit and says why not where they do not; the CSV has its header and consistent
 * numbers; the Markdown table lists the model. Timings are not checked (never time inside tests): a
 * smoke run with a tiny
 * --seconds */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_tmp.h"
#include "cli/tc_cli.h"
#include "exp/tc_bench.h"
#include "sim/tc_sim.h"
#include "tc_config.h"

extern const tc_model_type tc_model_linear_spring;

static void register_model(void) {
    tc_error err;
    tc_error_clear(&err);
    if (!tc_model_find("linear-spring"))
        cr_assert_eq(tc_model_register(&tc_model_linear_spring, &err), TC_OK, "%s", err.msg);
}

TestSuite(bench_all, .init = register_model, .timeout = 300);

#define NCOL   14
#define MAXROW 256

/* one CSV row split at its commas (empty cells kept) */
typedef struct row {
    char buf[1024];
    char *col[NCOL];
} row;

static const char *const header =
    "scene,experiment,kind,bodies,dt_s,method,spec,status,calls,mean_us,best_us,mujoco_mean_us,"
    "ratio_to_mujoco,note";

/* run the bench with a tiny budget into a fresh directory; the rows of bench_all.csv */
static int run_bench(const char *o1, const char *v1, const char *o2, const char *v2, row *rows,
                     char *dir) {
    strcpy(dir, "/tmp/touche-benchall-XXXXXX");
    cr_assert_not_null(test_tmpdir(dir));
    char *argv[] = {"all",      "--seconds", "0.002",    "--out",    dir,
                    (char *)o1, (char *)v1,  (char *)o2, (char *)v2, NULL};
    int argc = o2 ? 9 : o1 ? 7 : 5;
    cr_assert_eq(tc_bench_all(argc, argv), 0);
    char path[1100];
    snprintf(path, sizeof path, "%s/bench_all.csv", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no %s", path);
    char line[1024];
    cr_assert_not_null(fgets(line, sizeof line, f));
    line[strcspn(line, "\n")] = 0;
    cr_assert_str_eq(line, header);
    int n = 0;
    while (n < MAXROW && fgets(rows[n].buf, sizeof rows[n].buf, f)) {
        row *r = &rows[n++];
        r->buf[strcspn(r->buf, "\n")] = 0;
        int k = 0;
        for (char *p = r->buf; k < NCOL; k++) {
            r->col[k] = p;
            char *c = strchr(p, ',');
            if (!c) {
                k++;
                break;
            }
            *c = 0;
            p = c + 1;
        }
        cr_assert_eq(k, NCOL, "row %d has %d cells, not %d", n, k, NCOL);
    }
    fclose(f);
    return n;
}

/* the row of scene s and method spec, or NULL */
static const row *find(const row *rows, int n, const char *s, const char *spec) {
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].col[0], s) && !strcmp(rows[i].col[5], spec)) return &rows[i];
    return NULL;
}

Test(bench_all, every_method_on_every_scene_with_its_capabilities, .disabled = !TC_HAVE_MUJOCO) {
    static row rows[MAXROW];
    char dir[64];
    int n = run_bench(NULL, NULL, NULL, NULL, rows, dir);
    int nm = tc_method_count();
    tc_method *all = calloc((size_t)nm, sizeof *all);
    cr_assert_not_null(all);
    tc_method_enumerate(all, nm);
    /* the scenes, in order of first appearance */
    const char *scene[16];
    int ns = 0;
    for (int i = 0; i < n; i++)
        if (!ns || strcmp(scene[ns - 1], rows[i].col[0])) scene[ns++] = rows[i].col[0];
    cr_expect_geq(ns, 7, "%d scenes", ns);
    cr_expect_eq(n, ns * nm, "%d rows for %d scenes x %d methods", n, ns, nm);
    int spring_ok = 0;
    for (int s = 0; s < ns; s++)
        for (int k = 0; k < nm; k++) {
            const row *r = find(rows, n, scene[s], all[k].spec);
            cr_assert_not_null(r, "%s has no row on %s", all[k].spec, scene[s]);
            const char *kind = r->col[2], *status = r->col[7], *note = r->col[13];
            unsigned need = !strcmp(kind, "step") ? TC_CAP_DYNAMICS : TC_CAP_FORCE_QUERY;
            cr_expect(!strcmp(kind, "step") || !strcmp(kind, "query"), "kind %s", kind);
            /* a method without the capability is marked "-" with the reason; one with it ran or
             * says why it failed */
            if ((all[k].caps & need) != need) {
                cr_expect_str_eq(status, "-", "%s on %s", all[k].spec, scene[s]);
                cr_expect_not_null(strstr(note, "lacks"), "%s on %s: %s", all[k].spec, scene[s],
                                   note);
            } else if (!strcmp(status, "-")) {
                cr_expect_not_null(strstr(note, "cannot handle shapes"), "%s on %s: %s",
                                   all[k].spec, scene[s], note);
            } else if (!strcmp(status, "failed")) {
                cr_expect_gt(strlen(note), 5, "%s on %s fails without a reason", all[k].spec,
                             scene[s]);
            } else {
                cr_assert_str_eq(status, "ok", "%s on %s", all[k].spec, scene[s]);
                double mean = atof(r->col[9]), best = atof(r->col[10]), mj = atof(r->col[11]);
                cr_expect_geq(atol(r->col[8]), 1);
                cr_expect(mean > 0 && best > 0 && best <= mean * (1 + 1e-6),
                          "%s on %s: mean %g best %g", all[k].spec, scene[s], mean, best);
                /* the ratio is the mean over MuJoCo's mean on the same scene */
                cr_expect_float_eq(atof(r->col[12]), mean / mj, 1e-3 * mean / mj, "%s on %s",
                                   all[k].spec, scene[s]);
                if (!strcmp(all[k].spec, "mujoco")) cr_expect_str_eq(r->col[12], "1");
                spring_ok += !strcmp(all[k].spec, "linear-spring/semi-euler");
            }
        }
    /* the example model runs where its shapes fit: E1's spheres, E3's sphere, E4's pile */
    cr_expect_str_eq(find(rows, n, "e1-spheres", "linear-spring/semi-euler")->col[7], "ok");
    cr_expect_str_eq(find(rows, n, "e3-sphere", "linear-spring/semi-euler")->col[7], "ok");
    cr_expect_geq(spring_ok, 3);
    /* and has its row in the Markdown table */
    char path[1100], md[65536];
    snprintf(path, sizeof path, "%s/bench_all.md", dir);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t len = fread(md, 1, sizeof md - 1, f);
    md[len] = 0;
    fclose(f);
    cr_expect_not_null(strstr(md, "| `linear-spring/semi-euler` |"));
    cr_expect_not_null(strstr(md, "thread"));
    free(all);
}

Test(bench_all, filters_keep_the_named_methods_and_the_reference, .disabled = !TC_HAVE_MUJOCO) {
    static row rows[MAXROW];
    char dir[64];
    /* one method on two scenes: its rows and MuJoCo's (the reference), nothing else */
    int n = run_bench("--scenes", "e1-spheres,e3-sphere", "--methods", "linear-spring", rows, dir);
    cr_expect_eq(n, 4);
    for (int i = 0; i < n; i++) {
        cr_expect(!strcmp(rows[i].col[0], "e1-spheres") || !strcmp(rows[i].col[0], "e3-sphere"),
                  "%s", rows[i].col[0]);
        cr_expect(!strcmp(rows[i].col[5], "linear-spring/semi-euler") ||
                      !strcmp(rows[i].col[5], "mujoco"),
                  "%s", rows[i].col[5]);
    }
}

Test(bench_all, bad_options_exit_2) {
    char *a[] = {"all", "--methods", "nope", NULL}, *b[] = {"all", "--scenes", "e99", NULL},
         *c[] = {"all", "--seconds", "-1", NULL}, *d[] = {"all", "--bogus", NULL};
    cr_expect_eq(tc_bench_all(3, a), 2);
    cr_expect_eq(tc_bench_all(3, b), 2);
    cr_expect_eq(tc_bench_all(3, c), 2);
    cr_expect_eq(tc_bench_all(2, d), 2);
}

/* ---------- the harness ---------- */

/* the whole of what f (a memory stream) holds, closed */
static char *stream_text(FILE *f, char **buf) {
    fclose(f);
    return *buf;
}

/* the table of a hook: fixed columns, a column named at run time, a quoted note, two rows */
static void fill_table(tc_bench_table *t) {
    static const tc_col cols[] = {{.csv = "bodies", .fmt = "%.0f"}, {.csv = "label"}};
    tc_bench_columns(t, cols, 2);
    tc_bench_column(t, "%.4f", "%s_us", "scm/euler");
    tc_bench_columns(t, &(tc_col){.csv = "note", .quote = TC_COL_QUOTED}, 1);
    tc_bench_put(
        t, (tc_cell[]){TC_NUM(8), TC_TEXT("points"), TC_NUM(12.5), TC_TEXT("a \"quoted\" word")});
    tc_bench_put(t, (tc_cell[]){TC_NUM(1000), TC_TEXT("mujoco"), TC_NUM(NAN), TC_TEXT("")});
    tc_bench_note(t, "slope %g", 1.0);
}

Test(bench_harness, one_column_specification_gives_the_csv_and_the_console_table) {
    tc_bench_table *t = NULL;
    cr_assert_eq(tc_bench_table_alloc(&t), TC_OK);
    fill_table(t);
    char *csv = NULL, *con = NULL;
    size_t n1, n2;
    FILE *f = open_memstream(&csv, &n1), *g = open_memstream(&con, &n2);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_bench_table_csv(t, f, &err), TC_OK, "%s", err.msg);
    tc_bench_table_print(t, g);
    cr_expect_str_eq(stream_text(f, &csv), "bodies,label,scm/euler_us,note\n"
                                           "8,points,12.5000,\"a \"\"quoted\"\" word\"\n"
                                           "1000,mujoco,nan,\"\"\n");
    /* the console: the same names and cells, aligned, then the notes */
    cr_expect_str_eq(stream_text(g, &con),
                     "bodies  label   scm/euler_us  note\n"
                     "     8  points       12.5000  \"a \"\"quoted\"\" word\"\n"
                     "  1000  mujoco           nan  \"\"\n"
                     "slope 1\n");
    free(csv);
    free(con);
    tc_bench_table_free(t);
}

Test(bench_harness, a_wrong_column_or_row_is_an_error_when_written) {
    static const tc_col bad[] = {{.csv = "n", .fmt = "%d"}}, num[] = {{.csv = "x", .fmt = "%g"}};
    tc_bench_table *t[3];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(tc_bench_table_alloc(&t[i]), TC_OK);
    tc_bench_columns(t[0], bad, 1); /* a format of no double */
    tc_bench_columns(t[1], num, 1);
    tc_bench_put(t[1], (tc_cell[]){TC_NUM(1)});
    tc_bench_columns(t[1], num, 1);             /* a column after a row */
    tc_bench_put(t[2], (tc_cell[]){TC_NUM(1)}); /* a row before the columns */
    for (int i = 0; i < 3; i++) {
        tc_error err;
        tc_error_clear(&err);
        FILE *f = fopen("/dev/null", "w");
        cr_expect_eq(tc_bench_table_csv(t[i], f, &err), TC_EINVAL, "table %d", i);
        cr_expect_gt(strlen(err.msg), 5, "table %d", i);
        fclose(f);
        tc_bench_table_free(t[i]);
    }
}

enum { OPT_BODIES, OPT_STEPS, OPT_TIER, OPT_SECONDS };
static const tc_bench_opt opts[] = {
    [OPT_BODIES] = TC_BENCH_OPT_INTS("--bodies", 1, 100, 3, "2,4", "piles"),
    [OPT_STEPS] = TC_BENCH_OPT_INT("--steps", 1, 10, "5", "steps"),
    [OPT_TIER] = TC_BENCH_OPT_TIER("full", "tier"),
    [OPT_SECONDS] = TC_BENCH_OPT_SECONDS(NULL, "budget"),
    {0},
};

/* usages and messages kept off the test's output */
static void quiet(void) {
    cr_redirect_stdout();
    cr_redirect_stderr();
}

/* parse the arguments after the name */
static int parse(tc_bench_opts *o, int argc, char **argv) {
    return tc_bench_parse("test", "what it does", opts, argc, argv, o);
}

Test(bench_harness, options_parse_to_their_values_or_exit_2, .init = quiet) {
    tc_bench_opts o;
    char *dflt[] = {"test"};
    cr_assert_eq(parse(&o, 1, dflt), -1);
    cr_expect_str_eq(o.out, "out/bench");
    cr_expect_eq(o.v[OPT_BODIES].n, 2);
    cr_expect_eq(o.v[OPT_BODIES].list[1], 4);
    cr_expect_eq(o.v[OPT_STEPS].list[0], 5);
    cr_expect_str_eq(o.tier, "full");
    cr_expect(isnan(o.seconds) && !o.v[OPT_SECONDS].text, "no --seconds: NaN");
    char *given[] = {"test",      "--bodies", "7,8,9", "--tier", "quick",
                     "--seconds", "0.25",     "--out", "d"};
    cr_assert_eq(parse(&o, 9, given), -1);
    cr_expect_eq(o.v[OPT_BODIES].n, 3);
    cr_expect(o.v[OPT_BODIES].given && !o.v[OPT_STEPS].given);
    cr_expect_str_eq(o.tier, "quick");
    cr_expect_float_eq(o.seconds, 0.25, 1e-12);
    cr_expect_str_eq(o.out, "d");
    /* bad values, unknown options, a missing value: exit 2; --help: 0 */
    char *bad[][3] = {{"test", "--bodies", "1,2,3,4"}, {"test", "--steps", "11"},
                      {"test", "--tier", "huge"},      {"test", "--seconds", "nan"},
                      {"test", "--bogus", "1"},        {"test", "--out", ""}};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(parse(&o, 3, bad[i]), 2, "%s %s", bad[i][1], bad[i][2]);
    char *novalue[] = {"test", "--steps"}, *help[] = {"test", "--help"};
    cr_expect_eq(parse(&o, 2, novalue), 2);
    cr_expect_eq(parse(&o, 2, help), 0);
}

/* a call that counts itself and fails at call `fail` (0: never) */
typedef struct counter {
    long n, fail;
} counter;

static tc_status count_call(void *ctx) {
    counter *c = ctx;
    return ++c->n == c->fail ? TC_EDIVERGED : TC_OK;
}

Test(bench_harness, the_timing_counts_its_calls) {
    counter c = {0, 0};
    tc_bench_timing r;
    /* five batches of 3 after one untimed call, CPU times kept */
    tc_bench_timer tm = {.call = count_call,
                         .ctx = &c,
                         .seconds = 1e9,
                         .max_samples = 5,
                         .batch = 3,
                         .warmup = TC_BENCH_WARMUP_ONE,
                         .cpu = 1};
    cr_assert_eq(tc_bench_time(&tm, &r), TC_OK);
    cr_expect_eq(c.n, 16);
    cr_expect_eq(r.samples, 5);
    cr_expect_eq(r.calls, 15);
    cr_expect(r.status == TC_OK && r.best_s <= r.mean_s && isfinite(r.cpu_median_s));
    /* no budget: the slow warm-up is the one sample; the plain one leaves none */
    c.n = 0;
    tm = (tc_bench_timer){.call = count_call, .ctx = &c, .warmup = TC_BENCH_WARMUP_SLOW};
    tc_bench_time(&tm, &r);
    cr_expect(c.n == 1 && r.samples == 1 && r.calls == 1 && isfinite(r.mean_s));
    c.n = 0;
    tm.warmup = TC_BENCH_WARMUP_ONE;
    tc_bench_time(&tm, &r);
    cr_expect(c.n == 1 && r.samples == 0 && isnan(r.mean_s));
    /* a failed call ends it with its status; the calls before it count */
    c = (counter){0, 4};
    tm = (tc_bench_timer){.call = count_call, .ctx = &c, .seconds = 1e9};
    tc_bench_time(&tm, &r);
    cr_expect(r.status == TC_EDIVERGED && r.calls == 3 && c.n == 4);
}

/* the benchmark of the next test: a row, or a failure after it */
static tc_status toy_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    cr_expect_null(x);
    tc_bench_columns(t, &(tc_col){.csv = "steps", .fmt = "%.0f"}, 1);
    tc_bench_put(t, (tc_cell[]){TC_NUM(o->v[OPT_STEPS].list[0])});
    return o->v[OPT_STEPS].list[0] == 9 ? tc_error_set(err, TC_EIO, NULL, 0, NULL, "it failed")
                                        : TC_OK;
}

Test(bench_harness, a_benchmark_writes_its_csv_or_nothing, .init = quiet) {
    char dir[64] = "/tmp/touche-harness-XXXXXX", path[128];
    cr_assert_not_null(test_tmpdir(dir));
    const tc_bench_def d = {.name = "toy", .csv = "bench_toy.csv", .opts = opts, .run = toy_run};
    char *ok[] = {"toy", "--steps", "7", "--out", dir},
         *fail[] = {"toy", "--steps", "9", "--out", dir};
    snprintf(path, sizeof path, "%s/bench_toy.csv", dir);
    cr_expect_eq(tc_bench_main(&d, 5, fail), 1);
    cr_expect_neq(access(path, F_OK), 0, "a failed benchmark wrote %s", path);
    cr_assert_eq(tc_bench_main(&d, 5, ok), 0);
    FILE *f = fopen(path, "r");
    char buf[64] = "";
    cr_assert_not_null(f);
    cr_expect_eq(fread(buf, 1, sizeof buf - 1, f), 8);
    cr_expect_str_eq(buf, "steps\n7\n");
    fclose(f);
}
