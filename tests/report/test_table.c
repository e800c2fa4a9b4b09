/* SPDX-License-Identifier: MIT */
/* tables (src/report/table.c): LaTeX escaping, numeric cells, the machine behind a timing, the
 * Markdown and LaTeX files of a table, characters without a LaTeX form */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_machine.h"
#include "report/tc_table.h"
#include "test_scratch.h"

Test(table, latex_escaping) {
    char buf[256];
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "a_b 5% ±1"), TC_OK);
    cr_assert_str_eq(buf, "a\\_b 5\\% $\\pm$1");

    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "& # $ { } ~ ^ \\ < > 3 µs"), TC_OK);
    cr_assert_str_eq(buf, "\\& \\# \\$ \\{ \\} \\textasciitilde{} \\textasciicircum{} "
                          "\\textbackslash{} \\textless{} \\textgreater{} 3 $\\mu$s");

    /* the symbols touche's tables and sections write (E2's headers: "Δd (cm)", "Δθ (deg)") */
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "Δd Δθ λ ε η a—b 1–2"), TC_OK);
    cr_assert_str_eq(buf,
                     "$\\Delta$d $\\Delta$$\\theta$ $\\lambda$ $\\varepsilon$ $\\eta$ a---b 1--2");

    /* too small: an error, and never half an escape */
    cr_assert_eq(tc_latex_escape(buf, 4, "ab%c"), TC_EINVAL);
    cr_assert_str_eq(buf, "ab");
}

/* numeric cells: 3 significant digits, whole numbers when large, a floor for rounding noise */
Test(table, numeric_cells) {
    char c[64];
    const struct {
        double v;
        int digits;
        double below;
        const char *want;
    } cases[] = {
        {0.066149, 3, 0, "0.0661"},      {43270.0, 3, 0, "43300"},      {952.6, 3, 0, "953"},
        {-2.8e-17, 3, 1e-12, "< 1e-12"}, {0.0, 3, 1e-12, "0"},          {NAN, 3, 1e-12, "-"},
        {5.8e-29, 3, 0, "5.8e-29"},      {1.4e-9, 2, 1e-12, "1.4e-09"}, {123456.0, 4, 0, "123500"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tc_cell_num(c, sizeof c, cases[i].v, cases[i].digits, cases[i].below);
        cr_expect_str_eq(c, cases[i].want, "%g at %d digits, floor %g", cases[i].v, cases[i].digits,
                         cases[i].below);
    }
}

/* mean and spread: each in plain digits, never an exponent beside a plain number */
Test(table, mean_and_spread_cells) {
    char c[64];
    tc_cell_pm(c, sizeof c, 396.2, 301.0);
    cr_expect_str_eq(c, "396 \xc2\xb1 300");
    tc_cell_pm(c, sizeof c, 0.7941, 0.0532);
    cr_expect_str_eq(c, "0.794 \xc2\xb1 0.053");
    tc_cell_pm(c, sizeof c, 135.0, 140.0);
    cr_expect_str_eq(c, "135 \xc2\xb1 140");
}

/* the machine behind a timing: the CPU and the thread count, never empty */
Test(table, machine_description) {
    char m[300];
    tc_machine_describe(m, sizeof m, 1);
    cr_assert(strlen(m) > strlen(", 1 thread"));
    cr_assert_str_eq(m + strlen(m) - strlen(", 1 thread"), ", 1 thread");
    tc_machine_describe(m, sizeof m, 2);
    cr_assert_str_eq(m + strlen(m) - strlen(", 2 threads"), ", 2 threads");
}

Test(table, markdown_and_latex_files) {
    make_scratch();
    static const char *const head[] = {"method", "F (N)", "note"};
    static const char *const r1[] = {"scm_smooth", "1.25", "a|b"};
    static const char *const r2[] = {"hunt_crossley", "-0.5", "±2%"};
    tc_table *t = tc_table_alloc(3, head);
    cr_assert_not_null(t);
    cr_assert_eq(tc_table_add_row(t, r1), TC_OK);
    cr_assert_eq(tc_table_add_row(t, r2), TC_OK);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_table_write(t, in_scratch("tab"), "Forces at 1 cm", "tab:forces", &err), TC_OK,
                 "%s", err.msg);
    tc_table_free(t);

    /* Markdown: the caption, then 4 table lines of exactly ncol + 1 unescaped pipes */
    char *md = slurp(in_scratch("tab.md"));
    cr_assert_not_null(md);
    cr_assert_eq(strncmp(md, "Forces at 1 cm\n\n", 16), 0, "caption paragraph first:\n%s", md);
    int lines = 0;
    for (char *l = md; *l;) {
        char *nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        if (len && l[0] == '|') {
            int pipes = count_char(l, len, '|');
            for (size_t i = 1; i < len; i++)
                pipes -= l[i] == '|' && l[i - 1] == '\\';
            cr_assert_eq(pipes, 4, "line '%.*s' has %d pipes", (int)len, l, pipes);
            lines++;
        }
        l += len + (nl != NULL);
    }
    cr_assert_eq(lines, 4, "header, rule and two rows:\n%s", md);
    cr_assert(strstr(md, "a\\|b"), "a '|' in a cell is escaped");
    cr_assert(strstr(md, "-:"), "the numeric column is right-aligned");
    free(md);

    /* LaTeX: booktabs rules, escaped cells and caption, the label */
    char *tex = slurp(in_scratch("tab.tex"));
    cr_assert_not_null(tex);
    cr_assert(strstr(tex, "\\begin{tabular}{lrl}"), "%s", tex);
    cr_assert(strstr(tex, "\\toprule") && strstr(tex, "\\midrule") && strstr(tex, "\\bottomrule"));
    cr_assert(strstr(tex, "\\caption{Forces at 1 cm}"));
    cr_assert(strstr(tex, "\\label{tab:forces}"));
    cr_assert(strstr(tex, "scm\\_smooth & 1.25 & a|b \\\\"), "%s", tex);
    cr_assert(strstr(tex, "$\\pm$2\\%"), "%s", tex);
    free(tex);
}

/* a character without a LaTeX form (✓, U+2713) in a label: a clear error naming the character
 * and the table, and neither file written, instead of a PDF that does not build */
Test(table, an_unmappable_character_is_an_error) {
    make_scratch();
    static const char *const head[] = {"method", "ok"};
    static const char *const r1[] = {"scm\xe2\x9c\x93", "1"};
    tc_table *t = tc_table_alloc(2, head);
    cr_assert_not_null(t);
    cr_assert_eq(tc_table_add_row(t, r1), TC_OK);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_table_write(t, in_scratch("bad"), "caption", "tab:bad", &err), TC_EINVAL);
    cr_assert(strstr(err.msg, "U+2713") && strstr(err.msg, "no LaTeX form"), "%s", err.msg);
    cr_assert(strstr(err.file, "bad"), "names the table: %s", err.file);
    cr_assert_null(slurp(in_scratch("bad.md")), "nothing written");
    cr_assert_null(slurp(in_scratch("bad.tex")), "nothing written");
    tc_table_free(t);
    char buf[64];
    memset(buf, 'x', sizeof buf);
    cr_assert_eq(tc_latex_escape(buf, sizeof buf, "a\xe2\x9c\x93"), TC_EINVAL);
    cr_assert_str_empty(buf, "a refused string leaves the buffer empty, not undefined");
}

/* text streamed into a section or the report never fails: a character without a LaTeX form (a
 * data path under /tmp/dé, a TMPDIR quoted in a warning, a check mark) is written as its code
 * point, a malformed byte as U+FFFD, and every mapped character as before (issue 33, finding 1:
 * the section's escaping wrote an uninitialised buffer) */
Test(table, streamed_latex_writes_every_character) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    tc_latex_put(f, "/tmp/d\xc3\xa9/traj_1.csv \xe2\x9c\x93 5% \xff!");
    fclose(f);
    cr_assert_str_eq(text, "/tmp/d\\texttt{U+00E9}/traj\\_1.csv \\texttt{U+2713} 5\\% "
                           "\\texttt{U+FFFD}!");
    free(text);
}

/* a column empty ("-") in most of its rows is folded into a note under the table, each value
 * named by its row; a column with values in most rows stays */
Test(table, a_mostly_empty_column_is_folded_into_a_note) {
    make_scratch();
    static const char *const head[] = {"column", "ours", "paper"};
    tc_table *t = tc_table_alloc(3, head);
    cr_assert_not_null(t);
    static const char *const rows[5][3] = {{"2-RK4", "1.2", "1.3"},
                                           {"8-RK4", "2.4", "-"},
                                           {"8-Euler", "3.1", "-"},
                                           {"16-Euler", "4.0", "-"},
                                           {"16-RK4", "5.5", "-"}};
    for (int i = 0; i < 5; i++)
        tc_table_add_row(t, rows[i]);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_table_write(t, in_scratch("fold"), "caption", "tab:fold", &err), TC_OK, "%s",
                 err.msg);
    char *md = slurp(in_scratch("fold.md")), *tex = slurp(in_scratch("fold.tex"));
    cr_assert_not_null(md);
    cr_assert_not_null(tex);
    cr_assert(strstr(md, "column |") && strstr(md, "ours") && !strstr(md, "paper |"), "%s", md);
    cr_assert(strstr(md, "their values: paper: 2-RK4 1.3."), "%s", md);
    cr_assert(strstr(tex, "their values: paper: 2-RK4 1.3."), "%s", tex);
    cr_assert(strstr(md, "16-RK4 |") && strstr(md, "5.5"), "every row stays: %s", md);
    free(md);
    free(tex);
    tc_table_free(t);
}
