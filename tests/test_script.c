/* SPDX-License-Identifier: MIT */
/* experiment scripts: bad input gets an error naming file, line and parameter; determinism */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/tc_experiment.h"

static const char good[] =
    "scene = { big_radius = 0.1; small_radius = 0.05; density = 1000.0; friction = 0.5; };\n"
    "sweep = { range = 0.2; gap = 0.005; };\n"
    "tiers = { quick = { n1d = 21; n2d = 5; params = { spacing = 0.03; }; }; };\n"
    "methods = (\n"
    "  { label = \"scm-a\"; method = \"scm\"; params = { k = 1309.0; }; },\n"
    "  { label = \"hc\"; method = \"hunt-crossley\"; }\n"
    ");\n";

/* write text to a fresh script file, return its path */
static const char *script(const char *text) {
    static char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/touche-script-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/e1.cfg", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* run E1 on a script into out (made here); returns the status and the error */
static tc_status run_e1(const char *path, const char *out, int threads, tc_error *err) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    tc_exp_ctx ctx = {.source_dir = src ? src : ".", .script = path, .out_dir = out,
                      .tier = "quick", .methods = NULL, .threads = threads};
    tc_error_clear(err);
    return tc_experiment_find("e1")->run(&ctx, err);
}

/* replace the first occurrence of `from` in good with `to`, then run and expect an error */
static void expect_error(const char *from, const char *to, int line, const char *param,
                         const char *words) {
    char text[2048];
    const char *at = strstr(good, from);
    cr_assert_not_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    const char *path = script(text);
    char out[160];
    snprintf(out, sizeof out, "%.*s/out", (int)(strrchr(path, '/') - path), path);
    tc_error err;
    cr_expect_neq(run_e1(path, out, 1, &err), TC_OK);
    cr_expect_str_eq(err.file, path);
    cr_expect_eq(err.line, line, "line %d, expected %d (%s)", err.line, line, err.msg);
    if (param) cr_expect_str_eq(err.param, param);
    cr_expect_not_null(strstr(err.msg, words), "message '%s' lacks '%s'", err.msg, words);
    cr_expect_neq(access(out, F_OK), 0, "nothing may be written");
}

Test(script, syntax_error_names_the_line) { expect_error("gap = 0.005;", "gap = = 0.005;", 2, NULL, "syntax"); }
Test(script, unknown_method) { expect_error("\"hunt-crossley\"", "\"hunt-crosley\"", 6, "method", "unknown method"); }
Test(script, unknown_parameter) { expect_error("k = 1309.0", "kk = 1309.0", 5, "kk", "no such parameter"); }
Test(script, impossible_value) { expect_error("big_radius = 0.1", "big_radius = -0.1", 1, "big_radius", "must lie"); }
Test(script, out_of_range_parameter) { expect_error("k = 1309.0", "k = -5.0", 5, "k", "must lie"); }
Test(script, nan_is_rejected) { expect_error("friction = 0.5", "friction = nan", 1, NULL, "syntax"); }
Test(script, unknown_setting) { expect_error("gap = 0.005;", "gap = 0.005; gapp = 1.0;", 2, "gapp", "unknown setting"); }

/* read a whole file */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "missing %s", path);
    static char buf[2][1 << 20];
    static int which;
    char *b = buf[which++ % 2];
    size_t n = fread(b, 1, sizeof buf[0] - 1, f);
    b[n] = 0;
    fclose(f);
    return b;
}

Test(script, results_are_bitwise_identical_for_1_and_2_threads) {
    const char *path = script(good);
    char o1[64] = "/tmp/touche-det1-XXXXXX", o2[64] = "/tmp/touche-det2-XXXXXX";
    cr_assert_not_null(mkdtemp(o1));
    cr_assert_not_null(mkdtemp(o2));
    tc_error err;
    cr_assert_eq(run_e1(path, o1, 1, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(run_e1(path, o2, 2, &err), TC_OK, "%s", err.msg);
    static const char *const files[] = {"profile_1d.csv", "field_scm-a.csv", "field_hc.csv",
                                        "field_mujoco.csv", "metrics.cfg"};
    for (int i = 0; i < 5; i++) {
        char a[128], b[128];
        snprintf(a, sizeof a, "%s/%s", o1, files[i]);
        snprintf(b, sizeof b, "%s/%s", o2, files[i]);
        cr_expect_str_eq(slurp(a), slurp(b), "%s differs between 1 and 2 threads", files[i]);
    }
}
