/* SPDX-License-Identifier: MIT */
/* a driver's outputs through the runner: a CSV and its table from one column specification
 * (tc_rows), a table alone, a failed row's text in a number column, a metric by a formatted
 * name (tc_exp_metric) and a list of words (tc_words_add) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/tc_experiment.h"
#include "exp/tc_rows.h"

/* the driver: one result with a CSV and a table, one table alone, one metric */
static tc_status rows_setup(tc_exp *x, void **state, tc_error *err) {
    (void)x;
    (void)err;
    *state = NULL;
    return TC_OK;
}

static tc_status rows_run(tc_exp *x, void *state, tc_error *err) {
    static const tc_col both[] = {{.csv = "label", .head = "method"},
                                  {.csv = "v", .head = "v", .fmt = "%.3f", .tfmt = "%.1f"},
                                  TC_COL_CSV("note", NULL)};
    static const tc_col alone[] = {TC_COL_TAB("what", NULL), TC_COL_TAB("value", "%.2f")};
    (void)state;
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "both.csv", both, 3, err);
    if (st) return st;
    tc_rows_put(w, (const tc_cell[]){TC_TEXT("a"), TC_NUM(1.25), TC_TEXT("csv only")});
    tc_rows_put(w, (const tc_cell[]){TC_TEXT("b"), TC_TEXT("-"), TC_TEXT("failed")});
    if ((st = tc_rows_close(w, "both", "a CSV and its table", err))) return st;
    if ((st = tc_rows_open(&w, x, NULL, alone, 2, err))) return st;
    tc_rows_put(w, (const tc_cell[]){TC_TEXT("number"), TC_NUM(2.5)});
    tc_rows_put(w, (const tc_cell[]){TC_TEXT("nan"), TC_NUM(NAN)});
    tc_rows_put(w, (const tc_cell[]){TC_TEXT("text"), TC_TEXT("n/a")});
    tc_exp_metric(x, NULL, 3, "1", 0, 0, 0, "a metric named by a format", "rows.value.%d", 7);
    return tc_rows_close(w, "alone", "a table alone", err);
}

static void rows_free(void *state) {
    (void)state;
}

static const tc_experiment_type rows_demo = {.name = "rows_demo",
                                             .title = "rows through the runner",
                                             .heading = "Rows (test)",
                                             .paper = "none: a test",
                                             .setup = rows_setup,
                                             .run = rows_run,
                                             .free = rows_free};

/* the text of file dir/name into buf (empty when it cannot be read) */
static void slurp(const char *dir, const char *name, char *buf, size_t n) {
    char path[256];
    snprintf(path, sizeof path, "%s/rows_demo/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t got = f ? fread(buf, 1, n - 1, f) : 0;
    buf[got] = 0;
    if (f) fclose(f);
}

Test(rows, a_csv_with_its_table_and_a_table_alone) {
    tc_error err;
    tc_error_clear(&err);
    char out[64] = "/tmp/touche-rows-XXXXXX", script[128], text[4096];
    cr_assert_not_null(mkdtemp(out));
    snprintf(script, sizeof script, "%s/rows_demo.cfg", out);
    FILE *f = fopen(script, "w");
    cr_assert_not_null(f);
    fputs("driver = \"rows_demo\";\n", f);
    fclose(f);
    cr_assert_eq(tc_experiment_register(&rows_demo, &err), TC_OK, "%s", err.msg);
    tc_run_opts o = {.out_root = out, .tier = "quick", .threads = 1};
    tc_exp *x = NULL;
    cr_assert_eq(tc_exp_plan(&x, &rows_demo, script, "rows_demo", &o, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s", err.msg);
    int i = tc_metrics_find(tc_exp_metrics(x), "rows.value.7");
    cr_assert_geq(i, 0, "the metric's name is formatted");
    cr_expect_eq(tc_exp_metrics(x)->m[i].value, 3);
    tc_exp_free(x);
    /* the CSV: its columns' own formats, a text cell in a number column as it is */
    slurp(out, "both.csv", text, sizeof text);
    cr_expect_str_eq(text, "label,v,note\na,1.250,csv only\nb,-,failed\n");
    /* its table: the columns with a heading, the table's formats */
    slurp(out, "both.md", text, sizeof text);
    cr_expect_not_null(strstr(text, "| a      | 1.2 |"), "%s", text);
    cr_expect_null(strstr(text, "csv only"), "%s", text);
    /* the table alone: no CSV; NaN as "-", text as it is */
    slurp(out, "alone.md", text, sizeof text);
    cr_expect_not_null(strstr(text, "2.50"), "%s", text);
    cr_expect_not_null(strstr(text, "| nan    | -     |"), "%s", text);
    cr_expect_not_null(strstr(text, "| text   | n/a   |"), "%s", text);
    char path[256];
    snprintf(path, sizeof path, "%s/rows_demo/alone.csv", out);
    cr_expect_neq(access(path, F_OK), 0, "a table alone writes no CSV");
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", out);
    cr_expect_eq(system(cmd), 0);
}

Test(rows, words_make_a_list_cut_to_fit) {
    char b[16] = "";
    tc_words_add(b, sizeof b, ", ", "%s", "a");
    tc_words_add(b, sizeof b, ", ", "%d", 22);
    cr_expect_str_eq(b, "a, 22");
    char s[8] = " ";
    tc_words_add(s, sizeof s, "", "%s ", "x");
    cr_expect_str_eq(s, " x ");
    tc_words_add(s, sizeof s, "", "%s ", "long");
    cr_expect_str_eq(s, " x long", "cut to fit, terminated");
}
