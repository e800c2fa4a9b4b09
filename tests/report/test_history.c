/* SPDX-License-Identifier: MIT */
/* the history of checks (src/report/history.c): a drift in the table and figure, bad and
 * malformed lines named and left out, memory that grows with the lines */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "report/tc_history.h"
#include "test_scratch.h"

#define HIST_HEAD "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus\n"

/* three checks of one experiment: a metric that drifts 20 %, one that stays, a digest; the table
 * gives first, last and change, and the figure is drawn */
Test(history, a_drift_shows_in_the_table_and_figure) {
    make_scratch();
    put_file(in_scratch("h.tsv"),
             HIST_HEAD "2026-01-01T00:00:00Z\tr1\te\tquick\ta.x\t1\t1\tPASS\n"
                       "2026-01-01T00:00:00Z\tr1\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-01T00:00:00Z\tr1\te\tquick\tdigest:a\tnan\tnan\tPASS\n"
                       "2026-01-02T00:00:00Z\tr2\te\tquick\ta.x\t1.1\t1\tPASS\n"
                       "2026-01-02T00:00:00Z\tr2\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\ta.x\t1.2\t1\tFAIL\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\tb.y\t5\t5\tPASS\n"
                       "2026-01-03T00:00:00Z\tr3\te\tquick\tdigest:a\tnan\tnan\tFAIL\n");
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("h.tsv"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(h.n, 8);
    int moved = -1;
    cr_redirect_stderr();
    cr_assert_eq(
        tc_history_report(&h, in_scratch("hist"), getenv("TOUCHE_SOURCE_DIR"), &moved, &err), TC_OK,
        "%s", err.msg);
    cr_expect_eq(moved, 1);
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "## e (quick): 3 checks, r1 to r3"), "%s", md);
    cr_expect(strstr(md, "| a.x | 3 | 1 | 1.2 | +0.2 | FAIL |"), "%s", md);
    cr_expect(strstr(md, "| b.y | 3 | 5 | 5 | +0 | PASS |"), "%s", md);
    cr_expect(strstr(md, "| digest:a | - | - | - | - | FAIL |"), "%s", md);
    free(md);
    cr_expect(tc_file_readable(in_scratch("hist/history_e_quick.png")));
    tc_history_free(&h);
}

/* a history file that is not what `touche check` writes: the line and field named */
Test(history, bad_files_name_the_line_and_field) {
    make_scratch();
    static const struct {
        const char *text, *field;
        int line;
    } bad[] = {
        {"time\tvalue\n", "", 1},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\n", "", 2},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\tPASS\nt\tr\te\tquick\ta.x\t1.5x\t1\tPASS\n", "value",
         3},
        {HIST_HEAD "t\tr\te\tquick\ta.x\t1\t1\tGOOD\n", "status", 2},
        {HIST_HEAD "t\tr\t\tquick\ta.x\t1\t1\tPASS\n", "experiment", 2},
        /* names that become the figures' file names (issue 33, finding 2: a crafted file wrote
         * /tmp/X_quick.png) */
        {HIST_HEAD "t\tr\t../../../tmp/X\tquick\ta.x\t1\t1\tPASS\n", "experiment", 2},
        {HIST_HEAD "t\tr\te\tq/../../y\ta.x\t1\t1\tPASS\n", "tier", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        put_file(in_scratch("b.tsv"), bad[i].text);
        tc_history h;
        tc_error err;
        tc_error_clear(&err);
        if (bad[i].line == 1) {
            /* no header: not a history file */
            cr_expect_eq(tc_history_read(&h, in_scratch("b.tsv"), &err), TC_EINVAL, "case %zu", i);
            cr_expect_eq(err.line, 1, "case %zu: %s", i, err.msg);
            cr_expect_eq(h.n, 0);
        } else {
            /* a bad line is left out and named; the good ones are read (issue 33, finding 8: one
             * cut line made every later `touche history` exit 2) */
            cr_expect_eq(tc_history_read(&h, in_scratch("b.tsv"), &err), TC_OK, "case %zu: %s", i,
                         err.msg);
            cr_expect_eq(h.nskipped, 1, "case %zu", i);
            cr_expect_eq(h.skipped[0].line, bad[i].line, "case %zu: %s", i, h.skipped[0].msg);
            cr_expect_str_eq(h.skipped[0].param, bad[i].field, "case %zu: %s", i, h.skipped[0].msg);
            cr_expect_eq(h.n, bad[i].line - 2, "case %zu", i);
        }
        tc_history_free(&h);
    }
}

/* a line too long for any valid one, and a cut last line, are left out; the figure's data and
 * the table keep the rest, and the table says what was left out */
Test(history, malformed_lines_are_left_out_and_listed) {
    make_scratch();
    char *text = malloc(6000);
    cr_assert_not_null(text);
    snprintf(text, 6000, HIST_HEAD "t1\tr1\te\tquick\ta.x\t1\t1\tPASS\n");
    size_t len = strlen(text);
    memset(text + len, 'x', 3000);
    snprintf(text + len + 3000, 6000 - len - 3000,
             "\nt2\tr2\te\tquick\ta.x\t2\t1\tFAIL\nt3\tr3\te\tqu");
    put_file(in_scratch("h.tsv"), text);
    free(text);
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("h.tsv"), &err), TC_OK, "%s", err.msg);
    cr_expect_eq(h.n, 2);
    cr_expect_eq(h.nskipped, 2);
    cr_expect_eq(h.skipped[0].line, 3, "%s", h.skipped[0].msg);
    cr_expect(strstr(h.skipped[0].msg, "longer than"), "%s", h.skipped[0].msg);
    cr_expect_eq(h.skipped[1].line, 5, "%s", h.skipped[1].msg);
    int moved = -1;
    cr_assert_eq(tc_history_report(&h, in_scratch("hist"), NULL, &moved, &err), TC_OK, "%s",
                 err.msg);
    cr_expect_eq(moved, 1);
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "2 malformed lines of the history file left out"), "%s", md);
    cr_expect(strstr(md, "| a.x | 2 | 1 | 2 | +1 | FAIL |"), "%s", md);
    free(md);
    tc_history_free(&h);
}

/* 20,000 checks of 20,000 different metrics: memory grows with the lines, not with metrics times
 * checks (3.2 GB before, issue 33 finding 8); under a limit of 1 GiB more address space than now
 * (not under ASan, whose shadow needs the address space) */
Test(history, memory_grows_with_the_lines) {
    make_scratch();
    enum { N = 20000 };
    FILE *f = fopen(in_scratch("big.tsv"), "w");
    cr_assert_not_null(f);
    fputs(HIST_HEAD, f);
    for (int i = 0; i < N; i++)
        fprintf(f, "t%d\tr%d\te\tquick\tm%d\t%d\t1\tPASS\n", i, i, i, i + 1);
    fclose(f);
#ifndef __SANITIZE_ADDRESS__
    struct rlimit lim;
    getrlimit(RLIMIT_AS, &lim);
    FILE *st_f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (st_f && fscanf(st_f, "%lu", &pages) == 1) {
        lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)1 << 30);
        setrlimit(RLIMIT_AS, &lim);
    }
    if (st_f) fclose(st_f);
#endif
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, in_scratch("big.tsv"), &err), TC_OK, "%s", err.msg);
    int moved = -1;
    cr_assert_eq(tc_history_report(&h, in_scratch("hist"), NULL, &moved, &err), TC_OK, "%s",
                 err.msg);
    cr_expect_eq(moved, 0); /* each metric has one check: nothing moved */
    char *md = slurp(in_scratch("hist/history.md"));
    cr_assert_not_null(md);
    cr_expect(strstr(md, "## e (quick): 20000 checks, r0 to r19999"), "%.300s", md);
    cr_expect(strstr(md, "| m19999 | 1 | 20000 | 20000 | +0 | PASS |"));
    free(md);
    tc_history_free(&h);
}
