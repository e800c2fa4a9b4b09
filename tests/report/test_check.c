/* SPDX-License-Identifier: MIT */
/* the reference check (src/report/check.c): tolerances, new, lost and skipped metrics and methods,
 * digests, updates, the history it appends to, timings apart, causes named, failed runs */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "report/tc_history.h"
#include "report/tc_metrics.h"
#include "report_fixtures.h"

/* ---------- the check ---------- */

/* out/<dir>/metrics.cfg for experiment e1, tier quick, metrics a and b */
static void write_run(const char *dir, double a, double b) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    /* the run's own tolerances are deliberately zero: the reference's must be used */
    tc_metrics_add(&ms, NULL, "a", a, "N", 0, 0, 0, "first");
    tc_metrics_add(&ms, NULL, "b.ratio", b, "1", 0, 0, 0, "second");
    char path[512];
    snprintf(path, sizeof path, "%s/out/%s/metrics.cfg", scratch, dir);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

/* ref/e1.quick.cfg: a = 2 within 0.25 + 0.125 * 2 = 0.5 (bounds 1.5 and 2.5, differences exact
 * in binary); b = 1 within 1e-12 */
static void write_ref(int with_b) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a", 2.0, "N", 0.25, 0.125, 0, "first");
    if (with_b) tc_metrics_add(&ms, NULL, "b.ratio", 1.0, "1", 1e-12, 0, 0, "second");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

/* run the check with options o (out_dir and ref_dir in the scratch directory); what it prints
 * goes to *text (malloc'd) */
static tc_status run_check_with(tc_check_opts o, char **text, tc_error *err) {
    char out[512], ref[512];
    snprintf(out, sizeof out, "%s/out", scratch);
    snprintf(ref, sizeof ref, "%s/ref", scratch);
    o.out_dir = out;
    o.ref_dir = ref;
    if (!o.history) o.history = "";
    if (!o.command) o.command = "touche run --tier quick e1";
    size_t len;
    FILE *f = open_memstream(text, &len);
    tc_error_clear(err);
    tc_status st = tc_check_run(&o, f, err);
    fclose(f);
    return st;
}

/* the check (or update) with the whole table printed */
static tc_status run_check(int update, const char *history, char **text, tc_error *err) {
    return run_check_with((tc_check_opts){.history = history, .update = update, .verbose = 1}, text,
                          err);
}

Test(check, passes_within_tolerance_from_the_reference) {
    make_scratch();
    write_ref(1);
    /* exactly on either bound passes */
    const double edge[] = {2.5, 1.5};
    for (int k = 0; k < 2; k++) {
        write_run("e1", edge[k], 1.0);
        char *text;
        tc_error err;
        cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
        cr_assert(strstr(text, "PASS"), "%s", text);
        cr_assert_null(strstr(text, "FAIL"), "%s", text);
        free(text);
    }
}

Test(check, fails_just_outside_tolerance) {
    make_scratch();
    write_ref(1);
    const double outside[] = {nextafter(2.5, INFINITY), nextafter(1.5, -INFINITY)};
    for (int k = 0; k < 2; k++) {
        write_run("e1", outside[k], 1.0);
        char *text;
        tc_error err;
        cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%.17g should fail:\n%s", outside[k],
                     text);
        cr_assert(strstr(text, "FAIL") && strstr(text, "outside tolerance"), "%s", text);
        free(text);
    }
}

Test(check, fails_for_nan) {
    make_scratch();
    write_ref(1);
    write_run("e1", 2.0, NAN);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(text, "not finite"), "%s", text);
    free(text);
}

Test(check, new_metrics_are_listed_not_failures_and_lost_ones_fail) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    char *text;
    tc_error err;

    /* no reference file at all: everything is new, which is not a regression */
    mkdir(in_scratch("ref"), 0755);
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s", err.msg);
    cr_assert(strstr(text, "NEW") && strstr(text, "no reference file"), "%s", text);
    cr_assert(strstr(text, "touche check --update-new"), "%s", text);
    free(text);

    /* a reference without metric b */
    write_ref(0);
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s", err.msg);
    cr_assert(strstr(text, "a metric the reference does not have"), "%s", text);
    free(text);

    /* a metric the run no longer produces */
    write_ref(1);
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a", 2.0, "N", 0, 0, 0, "first");
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    tc_metrics_free(&ms);
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(text, "missing from the run"), "%s", text);
    free(text);
}

/* out/e1/metrics.cfg with methods a and b (b's metric and digest given), filtered or not */
static void write_methods_run(int with_b, int filtered, const char *hash_a) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    ms.filtered = filtered;
    tc_metrics_ran(&ms, "a", NULL, NULL);
    tc_metrics_add(&ms, "a", "a.F", 1.0, "N", 0.1, 0, 0, "");
    tc_metrics_set_hash(&ms, "a", hash_a, NULL, NULL);
    if (with_b) {
        tc_metrics_ran(&ms, "b", "a BLAS", "BLAS Haswell");
        tc_metrics_add(&ms, "b", "b.F", 2.0, "N", 0.1, 0, 0, "");
        tc_metrics_set_hash(&ms, "b", "fnv1a64:000000000000000b", "a BLAS", "BLAS Haswell");
    }
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_free(&ms);
}

/* the run's digest of b changed, on a CPU of the given kind */
static void set_b_digest(const char *kind) {
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_set_hash(&ms, "b", "fnv1a64:00000000000000bb", "a BLAS", kind);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK, "%s",
                 err.msg);
    tc_metrics_free(&ms);
}

/* the reference from a run with methods a and b */
static void write_methods_ref(void) {
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s", err.msg);
    free(text);
}

Test(check, methods_left_out_by_a_filter_are_not_run_not_missing) {
    make_scratch();
    write_methods_ref();
    char *text;
    tc_error err;
    /* b left out on purpose: SKIP; without the filter flag: missing */
    write_methods_run(0, 1, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "SKIP") && strstr(text, "method not run"), "%s", text);
    free(text);
    write_methods_run(0, 0, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    free(text);
    /* --update refuses a filtered run (it would drop b's references) */
    write_methods_run(0, 1, "fnv1a64:000000000000000a");
    cr_assert_eq(run_check(1, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "refused") && strstr(text, "--methods"), "%s", text);
    free(text);
}

Test(check, a_changed_digest_fails_unless_the_method_depends_on_the_cpu) {
    make_scratch();
    write_methods_ref();
    char *text;
    tc_error err;
    write_methods_run(1, 0, "fnv1a64:00000000000000aa");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "results changed"), "%s", text);
    free(text);
    /* b's digest differs and b depends on the CPU: on another CPU kind its metrics decide, on
     * the same kind as the reference run it is a change like any other */
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    set_b_digest("BLAS Prescott");
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "CPU") && strstr(text, "BLAS Prescott") && strstr(text, "BLAS Haswell"),
              "%s", text);
    free(text);
    set_b_digest("BLAS Haswell");
    cr_assert_eq(run_check(0, "", &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "same CPU kind"), "%s", text);
    free(text);
}

Test(check, update_new_adds_only_what_the_reference_lacks) {
    make_scratch();
    write_methods_run(0, 0, "fnv1a64:000000000000000a");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s", err.msg);
    free(text);
    /* the run now has method b, and a's metric moved: update-new adds b, keeps a's reference */
    write_methods_run(1, 0, "fnv1a64:000000000000000a");
    tc_metrics ms;
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    ms.m[tc_metrics_find(&ms, "a.F")].value = 1.05;
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_OK);
    tc_metrics_free(&ms);
    tc_check_opts o = {.out_dir = in_scratch("out"),
                       .ref_dir = in_scratch("ref"),
                       .history = "",
                       .command = "test",
                       .update_new = 1};
    tc_error_clear(&err);
    cr_assert_eq(tc_check_run(&o, NULL, &err), TC_OK, "%s", err.msg);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "a.F")].value, 1.0, "existing entries stay");
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "b.F")].value, 2.0, "new ones are added");
    cr_assert_geq(tc_metrics_find_hash(&ref, "b"), 0);
    cr_assert_geq(tc_metrics_find_method(&ref, "b"), 0);
    tc_metrics_free(&ref);
}

Test(check, update_then_check_passes_with_provenance) {
    make_scratch();
    write_run("e1", 1.0 / 3.0, 1e-300);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(1, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    free(text);

    /* the reference holds the same values and says where it came from */
    char *ref = slurp(in_scratch("ref/e1.quick.cfg"));
    cr_assert_not_null(ref);
    cr_assert(strstr(ref, "provenance"), "%s", ref);
    cr_assert(strstr(ref, "touche run --tier quick e1"), "%s", ref);
    cr_assert(strstr(ref, "revision") && strstr(ref, "host") && strstr(ref, "generated"));
    cr_assert(strstr(ref, "touche_version = \"0.1.0\""), "%s", ref);
    free(ref);
    tc_metrics back;
    cr_assert_eq(tc_metrics_read(&back, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s",
                 err.msg);
    cr_assert_eq(back.m[0].value, 1.0 / 3.0);
    cr_assert_eq(back.m[1].value, 1e-300);
    tc_metrics_free(&back);

    /* and the same outputs now pass, even with zero tolerance */
    cr_assert_eq(run_check(0, "", &text, &err), TC_OK, "%s\n%s", err.msg, text);
    free(text);
}

Test(check, update_refuses_non_finite_values) {
    make_scratch();
    write_run("e1", NAN, 1.0);
    char *text;
    tc_error err;
    /* the refusal reaches the user as a failure of the command (it once ended silently with
     * exit 0); the finite metric is recorded, the other is not */
    cr_assert_eq(run_check(1, "", &text, &err), TC_ECHECK);
    cr_assert(strstr(err.msg, "refused"), "%s", err.msg);
    cr_assert(strstr(text, "refused") && strstr(text, "a is not finite"), "%s", text);
    free(text);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_lt(tc_metrics_find(&ref, "a"), 0);
    cr_assert_geq(tc_metrics_find(&ref, "b.ratio"), 0);
    tc_metrics_free(&ref);
}

Test(check, history_gets_one_line_per_metric) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    write_ref(1);
    const char *hist = in_scratch("hist/history.tsv");
    char *text;
    tc_error err;
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(run_check(0, hist, &text, &err), TC_OK, "%s", err.msg);
        free(text);
    }

    /* a header, then 2 runs x 2 metrics, 8 tab-separated fields each */
    char *s = slurp(hist);
    cr_assert_not_null(s);
    cr_assert_eq(
        strncmp(s, "time\trevision\texperiment\ttier\tmetric\tvalue\treference\tstatus\n", 60), 0,
        "%s", s);
    int lines = 0;
    for (char *l = s; *l; lines++) {
        char *nl = strchr(l, '\n');
        cr_assert_not_null(nl);
        cr_assert_eq(count_char(l, (size_t)(nl - l), '\t'), 7, "%.*s", (int)(nl - l), l);
        if (lines > 0) cr_assert(strstr(l, "\te1\tquick\t") && strstr(l, "\tPASS"));
        l = nl + 1;
    }
    cr_assert_eq(lines, 1 + 2 * 2, "%s", s);
    free(s);
}

/* out/e1/metrics.cfg and ref/e1.quick.cfg with n metrics m0..m<n-1> = 1 (tolerance 0.5), written
 * as text in the format tc_metrics_write writes (docs/report.md): libconfig's writer grows a list
 * 16 entries at a time, which under AddressSanitizer (a realloc always copies) took 140 s of this
 * test for 200,000 entries; the reader and the check are what this test times */
static void write_many(int n) {
    for (int k = 0; k < 2; k++) {
        const char *path = in_scratch(k ? "ref/e1.quick.cfg" : "out/e1/metrics.cfg");
        tc_error err;
        cr_assert_eq(tc_mkdir_parent(path, &err), TC_OK, "%s", err.msg);
        FILE *f = fopen(path, "w");
        cr_assert(f);
        fprintf(f, "experiment = \"e1\";\ntier = \"quick\";\nmetrics = (\n");
        for (int i = 0; i < n; i++)
            fprintf(
                f,
                "%s  { name = \"m%d\"; method = \"\"; value = 1.0; unit = \"1\"; tol_abs = 0.5; "
                "tol_rel = 0.0; doc = \"one of many\"; }",
                i ? ",\n" : "", i);
        fprintf(f, "\n);\n");
        cr_assert_eq(fclose(f), 0);
    }
}

/* four checks at once append to one history, five times each: every line whole, none lost (issue
 * 33, finding 8: lines written a buffer at a time tore where two checks met). No .timeout here
 * or on the other long tests of this file: two Criterion timeouts running at once leak 48 bytes
 * in libcriterion, which LeakSanitizer reports (meson's timeout still applies) */
Test(check, concurrent_checks_append_whole_lines) {
    make_scratch();
    write_many(400);
    const char *hist = in_scratch("history.tsv");
    pid_t kid[4];
    for (int p = 0; p < 4; p++) {
        kid[p] = fork();
        cr_assert_geq(kid[p], 0);
        if (kid[p] == 0) {
            for (int k = 0; k < 5; k++) {
                char *text;
                tc_error err;
                if (run_check(0, hist, &text, &err) != TC_OK) _exit(1);
                free(text);
            }
            _exit(0);
        }
    }
    for (int p = 0; p < 4; p++) {
        int ws;
        cr_assert_eq(waitpid(kid[p], &ws, 0), kid[p]);
        cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "check %d failed", p);
    }
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_history_read(&h, hist, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(h.nskipped, 0, "%d lines torn, first: %s", h.nskipped, h.skipped[0].msg);
    cr_expect_eq(h.n, 4 * 5 * 400, "%d lines", h.n);
    tc_history_free(&h);
}

/* a full disk while the history is appended to: the file stays as it was, and the check says so
 * (issue 33, finding 8: a cut line was left, and every later `touche history` refused the file).
 * The disk fills at 2 kB beyond the file's size: a file-size limit, with SIGXFSZ ignored */
Test(check, a_full_disk_leaves_the_history_as_it_was) {
    make_scratch();
    write_many(400);
    const char *hist = in_scratch("history.tsv");
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, hist, &text, &err), TC_OK, "%s", err.msg);
    free(text);
    char *before = slurp(hist);
    cr_assert_not_null(before);
    pid_t kid = fork();
    cr_assert_geq(kid, 0);
    if (kid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {(rlim_t)strlen(before) + 2048, (rlim_t)strlen(before) + 2048};
        setrlimit(RLIMIT_FSIZE, &lim);
        tc_status st = run_check(0, hist, &text, &err);
        _exit(st == TC_EIO && strstr(err.msg, "the file is as it was") ? 0 : 1);
    }
    int ws;
    cr_assert_eq(waitpid(kid, &ws, 0), kid);
    cr_expect(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "the check did not report the failed append");
    char *after = slurp(hist);
    cr_assert_not_null(after);
    cr_expect_str_eq(after, before, "the history changed");
    free(before);
    free(after);
}

/* metric names that would forge a history row (a tab or a newline) are refused, read or written
 * (issue 33, finding 8) */
Test(check, metric_names_that_would_forge_history_rows_are_refused) {
    make_scratch();
    put_file(in_scratch("m.cfg"), "experiment = \"e1\";\ntier = \"quick\";\nmetrics = (\n"
                                  "  { name = \"a\"; value = 1.0; },\n"
                                  "  { name = \"b\\tquick\\tforged\"; value = 2.0; }\n);\n");
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_EPARSE);
    cr_expect_eq(err.line, 5, "%s", err.msg);
    cr_expect(strstr(err.msg, "may hold only"), "%s", err.msg);
    tc_metrics_free(&ms);
    /* a name given twice would be judged against one reference value */
    put_file(in_scratch("m.cfg"),
             "experiment = \"e1\";\ntier = \"quick\";\nmetrics = (\n"
             "  { name = \"a\"; value = 1.0; },\n  { name = \"a\"; value = 2.0; }\n);\n");
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_EPARSE);
    cr_expect(strstr(err.msg, "a second metric of this name"), "%s", err.msg);
    tc_metrics_free(&ms);
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_add(&ms, NULL, "a\nb", 1.0, "1", 0, 0, 0, "forged");
    tc_error_clear(&err);
    cr_expect_eq(tc_metrics_write(&ms, in_scratch("w.cfg"), &err), TC_EINVAL);
    cr_expect_not(tc_file_readable(in_scratch("w.cfg")));
    tc_metrics_free(&ms);
}

/* a run with 100,000 metrics checked against its reference: every one found (the lookup is by
 * name, not a scan: 60,000 took 24 s before, issue 33 finding 8). Under AddressSanitizer 10,000:
 * libconfig grows a list 16 entries at a time and the sanitizer's realloc always copies, so
 * reading 100,000 there is quadratic in libconfig alone (about 40 s of a 2-core CI run) */
#ifdef __SANITIZE_ADDRESS__
#define MANY_METRICS 10000
#else
#define MANY_METRICS 100000
#endif
Test(check, a_hundred_thousand_metrics_all_found) {
    make_scratch();
    write_many(MANY_METRICS);
    char *text;
    tc_error err;
    cr_assert_eq(run_check_with((tc_check_opts){.history = ""}, &text, &err), TC_OK, "%s", err.msg);
    char want[64];
    snprintf(want, sizeof want, "metrics: %d pass", MANY_METRICS);
    cr_expect(strstr(text, want), "%.2000s", text);
    free(text);
}

Test(check, nothing_to_check_is_not_found) {
    make_scratch();
    cr_assert_eq(mkdir(in_scratch("out"), 0755), 0);
    char *text;
    tc_error err;
    cr_assert_eq(run_check(0, "", &text, &err), TC_ENOTFOUND);
    free(text);
}

/* a run's metrics.cfg whose experiment or tier would lead an update's reference file out of its
 * folder is refused when read, naming the file, line and key, and nothing is written (issue 33,
 * finding 2: `check --update` wrote <ref>/<experiment>.<tier>.cfg from a downloaded folder) */
Test(check, names_from_a_metrics_file_never_become_paths_outside) {
    make_scratch();
    mkdir(in_scratch("out"), 0755);
    mkdir(in_scratch("out/e1"), 0755);
    mkdir(in_scratch("ref"), 0755);
    static const char *const bad[][2] = {
        {"../../touche-i33-evil", "quick"}, {"e1", "quick/../../touche-i33-x"}, {"-e", "quick"}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[256];
        snprintf(text, sizeof text, "experiment = \"%s\";\ntier = \"%s\";\nmetrics = ();\n",
                 bad[i][0], bad[i][1]);
        put_file(in_scratch("out/e1/metrics.cfg"), text);
        tc_metrics ms;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_metrics_read(&ms, in_scratch("out/e1/metrics.cfg"), &err), TC_EINVAL,
                     "case %zu", i);
        cr_expect_str_eq(
            err.param,
            bad[i][0][0] && bad[i][0][0] != '-' && !strchr(bad[i][0], '.') ? "tier" : "experiment",
            "case %zu: %s", i, err.msg);
        cr_expect_gt(err.line, 0, "case %zu: %s", i, err.msg);
        tc_metrics_free(&ms);
        char *out = NULL;
        cr_expect_neq(run_check(1, "", &out, &err), TC_OK, "case %zu: the update is refused", i);
        free(out);
        /* where the reference would have gone: beside the scratch folder */
        char esc[600];
        snprintf(esc, sizeof esc, "%s/../touche-i33-evil.quick.cfg", scratch);
        cr_expect_neq(access(esc, F_OK), 0, "case %zu: %s written", i, esc);
        snprintf(esc, sizeof esc, "%s/../touche-i33-x.cfg", scratch);
        cr_expect_neq(access(esc, F_OK), 0, "case %zu: %s written", i, esc);
    }
    /* a file that names no tier names no reference either */
    put_file(in_scratch("out/e1/metrics.cfg"), "experiment = \"e1\";\nmetrics = ();\n");
    char *out = NULL;
    tc_error err;
    cr_expect_eq(run_check(1, "", &out, &err), TC_EINVAL, "%s", out);
    cr_expect_str_eq(err.param, "tier", "%s", err.msg);
    free(out);
}

/* a check that cannot check fails: no reference folder, a reference that is there but cannot be
 * read, a tolerance that would pass anything (issue 33, finding 9: each of these passed) */
Test(check, a_check_that_cannot_check_fails) {
    make_scratch();
    write_run("e1", 2.0, 1.0);
    char *text = NULL;
    tc_error err;
    /* no ref/ at all */
    cr_expect_eq(run_check(0, "", &text, &err), TC_ENOTFOUND, "%s", text);
    cr_expect(strstr(err.msg, "no reference folder"), "%s", err.msg);
    free(text);
    /* a dangling link where the reference should be */
    mkdir(in_scratch("ref"), 0755);
    cr_assert_eq(symlink(in_scratch("nowhere.cfg"), in_scratch("ref/e1.quick.cfg")), 0);
    cr_expect_eq(run_check(0, "", &text, &err), TC_EIO, "%s", text);
    cr_expect(strstr(err.msg, "cannot be read"), "%s", err.msg);
    free(text);
    unlink(in_scratch("ref/e1.quick.cfg"));
    /* tolerances that pass anything or nothing are refused when read, naming the metric */
    static const char *const tol[] = {"tol_abs_exact = \"inf\";", "tol_abs = 0.5; tol_rel = -1.0;",
                                      "tol_rel_exact = \"nan\";"};
    for (size_t i = 0; i < sizeof tol / sizeof *tol; i++) {
        char cfg[400];
        snprintf(cfg, sizeof cfg,
                 "experiment = \"e1\";\ntier = \"quick\";\nmetrics = ( { name = \"a\"; "
                 "value = 2.0; %s } );\n",
                 tol[i]);
        put_file(in_scratch("ref/e1.quick.cfg"), cfg);
        cr_expect_eq(run_check(0, "", &text, &err), TC_EPARSE, "case %zu: %s %s", i, err.msg, text);
        cr_expect(strstr(err.msg, "tolerance"), "case %zu: %s", i, err.msg);
        cr_expect_str_eq(err.param, "a", "case %zu", i);
        free(text);
    }
}

/* ---------- the check: timings apart, failures first, causes, failed runs ---------- */

/* the first line of text that starts with two spaces (the first reported entry) */
static const char *first_entry(const char *text) {
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, "  ", 2)) return l;
    return "";
}

Test(check, timings_never_fail_and_failures_come_first) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    char *text;
    tc_error err;
    /* timings 10x off either way (slower and faster) pass and are listed apart */
    const double step[] = {0.1, 0.001}, up[] = {0.25, 50.0};
    for (int k = 0; k < 2; k++) {
        write_m("out/e1/metrics.cfg", 1.0, step[k], up[k], "k=1", "0.001", 0);
        cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s\n%s", err.msg,
                     text);
        const char *tim = strstr(text, "\ntimings");
        cr_assert_not_null(tim, "%s", text);
        cr_assert(strstr(tim, "m.step_s") && strstr(tim, "m.speedup") && strstr(tim, "TIME"), "%s",
                  text);
        cr_assert(strstr(tim, k ? "faster" : "slower"), "%s", text);
        cr_assert_null(strstr(text, "FAIL"), "%s", text);
        cr_assert_null(strstr(text, "SLOW"), "%s", text);
        free(text);
    }
    /* the same timings with one accuracy metric outside its tolerance: that line comes first */
    write_m("out/e1/metrics.cfg", 1.05, 0.1, 0.25, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    const char *first = first_entry(text);
    cr_assert(!strncmp(first, "  FAIL", 6) && strstr(first, "m.acc") < strchr(first, '\n'),
              "first entry is not the failure:\n%s", text);
    cr_assert_lt(strstr(text, "m.acc"), strstr(text, "per experiment"), "%s", text);
    cr_assert_lt(strstr(text, "per experiment"), strstr(text, "m.step_s"), "%s", text);
    free(text);
    /* --timings: a slowdown beyond tolerance fails (either sense), a speed-up does not */
    write_m("out/e1/metrics.cfg", 1.0, 0.1, 5.0, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "SLOW") && strstr(first_entry(text), "m.step_s"), "%s",
              text);
    free(text);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 0.25, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "m.speedup"), "%s", text);
    free(text);
    write_m("out/e1/metrics.cfg", 1.0, 0.001, 50.0, "k=1", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){.timings = 1}, &text, &err), TC_OK, "%s", text);
    free(text);
}

Test(check, a_changed_parameter_is_named_as_the_likely_cause) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=100000 n=1.5", "0.001", 0);
    char *text;
    tc_error err;
    /* one parameter default changed, and the results with it */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=120000 n=1.5", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "likely cause: m.k changed from 100000 to 120000"), "%s", text);
    cr_assert_null(strstr(text, "m.n "), "an unchanged parameter is not named:\n%s", text);
    free(text);
    /* a script setting too */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=100000 n=1.5", "0.002", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(text, "setting scene.dt changed from 0.001 to 0.002"), "%s", text);
    free(text);
    /* nothing recorded changed: the check says so instead of guessing */
    write_m("out/e1/metrics.cfg", 1.2, 0.01, 5.0, "k=100000 n=1.5", "0.001", 0);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert_null(strstr(text, "likely cause"), "%s", text);
    cr_assert(strstr(text, "no recorded parameter or setting of e1 changed"), "%s", text);
    free(text);
}

Test(check, more_failed_runs_than_the_reference_fail) {
    make_scratch();
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 2);
    char *text;
    tc_error err;
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_ECHECK, "%s", text);
    cr_assert(strstr(first_entry(text), "runs of m: 2 of 3 failed (first: diverged"), "%s", text);
    free(text);
    /* a reference that had as many failed runs: no failure */
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 2);
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s", text);
    free(text);
}

Test(check, an_update_never_records_a_method_whose_runs_failed) {
    make_scratch();
    char *text;
    tc_error err;
    /* a new method whose runs failed, one of its metrics not finite: nothing of it is recorded,
     * the update says why and fails */
    write_m("out/e1/metrics.cfg", NAN, 0.01, 5.0, "k=1", "0.001", 3);
    cr_assert_eq(run_check_with((tc_check_opts){.update_new = 1}, &text, &err), TC_ECHECK, "%s",
                 text);
    cr_assert(strstr(text, "refused") && strstr(text, "method m: 3 of 3 runs failed (first: "
                                                      "diverged"),
              "%s", text);
    tc_metrics ref;
    if (tc_file_readable(in_scratch("ref/e1.quick.cfg"))) {
        cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s",
                     err.msg);
        cr_assert_lt(tc_metrics_find_method(&ref, "m"), 0);
        cr_assert_eq(ref.n, 0);
        cr_assert_lt(tc_metrics_find_hash(&ref, "m"), 0);
        tc_metrics_free(&ref);
    }
    free(text);
    /* --update keeps the old reference's entries of such a method */
    write_m("ref/e1.quick.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    write_m("out/e1/metrics.cfg", 7.0, 0.01, 5.0, "k=1", "0.001", 3);
    cr_assert_eq(run_check_with((tc_check_opts){.update = 1}, &text, &err), TC_ECHECK, "%s", text);
    free(text);
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 1.0);
    cr_assert_str_eq(ref.hash[tc_metrics_find_hash(&ref, "m")].hash, "fnv1a64:0000000000000001");
    cr_assert_eq(ref.methods[tc_metrics_find_method(&ref, "m")].failed, 0);
    tc_metrics_free(&ref);
    /* an explicit override records it, loudly, and succeeds */
    cr_assert_eq(run_check_with((tc_check_opts){.update = 1, .accept_failed = 1}, &text, &err),
                 TC_OK, "%s\n%s", err.msg, text);
    cr_assert(strstr(text, "WARNING") && strstr(text, "3 of 3 runs failed"), "%s", text);
    free(text);
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 7.0);
    tc_metrics_free(&ref);
}

Test(check, update_new_adds_the_parameters_an_older_reference_lacks) {
    make_scratch();
    /* an older reference: the method without parameters, run counts or settings */
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_ran(&ms, "m", NULL, NULL);
    tc_metrics_add(&ms, "m", "m.acc", 1.0, "m", 0, 0.01, 0, "");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
    write_m("out/e1/metrics.cfg", 1.0, 0.01, 5.0, "k=1", "0.001", 0);
    char *text;
    cr_assert_eq(run_check_with((tc_check_opts){0}, &text, &err), TC_OK, "%s", text);
    free(text);
    cr_assert_eq(run_check_with((tc_check_opts){.update_new = 1}, &text, &err), TC_OK, "%s", text);
    free(text);
    tc_metrics ref;
    cr_assert_eq(tc_metrics_read(&ref, in_scratch("ref/e1.quick.cfg"), &err), TC_OK, "%s", err.msg);
    const tc_metrics_method *m = &ref.methods[tc_metrics_find_method(&ref, "m")];
    cr_assert_str_eq(m->spec, "model/rk4");
    cr_assert_str_eq(m->params, "k=1");
    cr_assert_eq(m->runs, 3);
    cr_assert_eq(ref.nsetting, 1);
    cr_assert_eq(ref.m[tc_metrics_find(&ref, "m.acc")].value, 1.0);
    tc_metrics_free(&ref);
}
