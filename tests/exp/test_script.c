/* SPDX-License-Identifier: MIT */
/* experiment scripts: bad input gets an error naming file, line and parameter; determinism */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stddef.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_tmp.h"
#include "core/tc_parallel.h"
#include "exp/exp_private.h" /* the sweeps of a bare experiment object */
#include "report/tc_progress.h"
#include "tc_config.h"

static const char good[] =
    "scene = { big_radius = 0.1; small_radius = 0.05; density = 1000.0; friction = 0.5; };\n"
    "sweep = { range = 0.2; gap = 0.005; };\n"
    "tiers = { quick = { n1d = 21; n2d = 5; params = { spacing = 0.03; }; }; };\n"
    "methods = (\n"
    "  { label = \"scm-a\"; method = \"scm\"; params = { k = 1309.0; }; },\n"
    "  { label = \"hc\"; method = \"hunt-crossley\"; }\n"
    ");\n"
    "driver = \"e1_sphere_profiles\";\n";

/* write text to a fresh script file, return its path */
static const char *script(const char *text) {
    static char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/touche-script-XXXXXX");
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/e1.cfg", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

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

/* plan and run E1 on a script into out/e1_script (a script of its own, not the built-in one);
 * returns the status and the error */
static tc_status run_e1_with(const char *path, const char *out, int threads, const char *methods,
                             tc_override *set, int nset, tc_error *err) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    tc_run_opts o = {.source_dir = src ? src : ".",
                     .out_root = out,
                     .tier = "quick",
                     .methods = methods,
                     .set = set,
                     .nset = nset,
                     .threads = threads};
    tc_exp *x = NULL;
    tc_error_clear(err);
    tc_status st = tc_exp_plan(&x, tc_experiment_find("e1"), path, "e1_script", &o, err);
    if (!st) st = tc_exp_execute(x, err);
    tc_exp_free(x);
    return st;
}

static tc_status run_e1(const char *path, const char *out, int threads, tc_error *err) {
    return run_e1_with(path, out, threads, NULL, NULL, 0, err);
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

/* the script, with `from` replaced, must fail to plan with words in the message */
static void expect_plan_error(const char *from, const char *to, int line, const char *words) {
    char text[2048];
    const char *at = strstr(good, from);
    cr_assert_not_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
    const char *path = script(text);
    tc_error err;
    cr_expect_neq(run_e1(path, "/tmp/touche-never-written", 1, &err), TC_OK, "%s", text);
    cr_expect_str_eq(err.file, path);
    if (line) cr_expect_eq(err.line, line, "line %d, expected %d (%s)", err.line, line, err.msg);
    cr_expect_not_null(strstr(err.msg, words), "message '%s' lacks '%s'", err.msg, words);
    cr_expect_neq(access("/tmp/touche-never-written", F_OK), 0, "nothing may be written");
}

Test(script, syntax_error_names_the_line) {
    expect_error("gap = 0.005;", "gap = = 0.005;", 2, NULL, "syntax");
}
Test(script, unknown_method) {
    expect_error("\"hunt-crossley\"", "\"hunt-crosley\"", 6, "method", "unknown method");
}
Test(script, unknown_parameter) {
    expect_error("k = 1309.0", "kk = 1309.0", 5, "kk", "no such parameter");
}
Test(script, impossible_value) {
    expect_error("big_radius = 0.1", "big_radius = -0.1", 1, "big_radius", "must lie");
}
Test(script, out_of_range_parameter) {
    expect_error("k = 1309.0", "k = -5.0", 5, "k", "must lie");
}
Test(script, nan_is_rejected) {
    expect_error("friction = 0.5", "friction = nan", 1, NULL, "syntax");
}
Test(script, unknown_setting) {
    expect_error("gap = 0.005;", "gap = 0.005; gapp = 1.0;", 2, "gapp", "unknown setting");
}
/* every setting the script holds must be read: a group, a tier's key, a parameter nobody takes */
Test(script, unknown_top_level_group) {
    expect_error("driver =", "bogus = { x = 1; };\ndriver =", 8, "bogus", "never reads it");
}
Test(script, unknown_key_in_the_selected_tier) {
    expect_error("n2d = 5;", "n2d = 5; n2dd = 7;", 3, "tiers.quick.n2dd", "never reads it");
}
Test(script, unknown_key_in_another_tier) {
    expect_error("tiers = { quick", "tiers = { full = { n1d = 31; n1dx = 3; }; quick", 3,
                 "tiers.full.n1dx", "in this tier");
}
Test(script, tier_parameter_no_method_takes) {
    expect_error("spacing = 0.03;", "spacing = 0.03; spacingg = 1;", 3,
                 "tiers.quick.params.spacingg", "never reads it");
}
Test(script, string_where_methods_belong) {
    expect_error(
        "methods = (\n  { label = \"scm-a\"; method = \"scm\"; params = { k = 1309.0; }; },\n"
        "  { label = \"hc\"; method = \"hunt-crossley\"; }\n);",
        "methods = \"scm\";", 4, "methods", "must be a list");
}

/* labels become file names and CSV fields: a safe alphabet, unique, at most TC_LABEL_MAX */
Test(script, label_with_a_slash_is_refused) {
    expect_plan_error("\"scm-a\"", "\"../scm\"", 5, "letters, digits");
}
Test(script, label_with_dots_is_refused) {
    expect_plan_error("\"scm-a\"", "\"a..b\"", 5, "'.' is not allowed");
}
Test(script, label_with_a_comma_is_refused) {
    expect_plan_error("\"scm-a\"", "\"scm,a\"", 5, "',' is not allowed");
}
Test(script, label_with_a_newline_is_refused) {
    expect_plan_error("\"scm-a\"", "\"scm\\na\"", 5, "not allowed");
}
Test(script, label_too_long_is_refused) {
    expect_plan_error("\"scm-a\"", "\"a0123456789012345678901234567890123456789\"", 5,
                      "1 to 40 characters");
}
Test(script, duplicate_label_is_refused) {
    expect_plan_error("\"hc\"", "\"scm-a\"", 6, "used twice");
}
Test(script, a_label_taking_a_registered_name_is_refused) {
    expect_plan_error("\"scm-a\"", "\"pfc\"", 5, "registered method");
}

/* a script without the tier asked for: a clear error (and no use after free, under ASan) */
Test(script, missing_tier_is_a_clear_error) {
    expect_plan_error("tiers = { quick =", "tiers = { fast =", 3,
                      "no tier 'quick' in this script (it has: fast)");
}

/* a script must name its driver, and the right one */
Test(script, driver_is_required) {
    expect_plan_error("driver = \"e1_sphere_profiles\";", "", 0, "must name its driver");
    expect_plan_error("driver = \"e1_sphere_profiles\";", "driver = \"e4_penalty\";", 0,
                      "driver is 'e4_penalty'");
}

/* --set: by label or model name, checked like a script value, recorded in runs.csv */
Test(script, overrides_are_applied_checked_and_recorded) {
    const char *path = script(good);
    char out[160];
    snprintf(out, sizeof out, "%.*s/out", (int)(strrchr(path, '/') - path), path);
    tc_override set[2] = {
        {.target = "scm-a", .param = "eps2", .value = 0.003, .text = "scm-a.eps2=0.003"},
        {.target = "hunt-crossley", .param = "k", .value = 2e4, .text = "hunt-crossley.k=2e4"}};
    tc_error err;
    cr_assert_eq(run_e1_with(path, out, 2, "scm-a,hc", set, 2, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(set[0].used, 1);
    cr_expect_eq(set[1].used, 1);
    char csv[256];
    snprintf(csv, sizeof csv, "%s/e1_script/runs.csv", out);
    const char *runs = slurp(csv);
    cr_expect_not_null(strstr(runs, "eps2=0.003"), "%s", runs);
    cr_expect_not_null(strstr(runs, "\"eps2=0.003\""), "the set column: %s", runs);
    cr_expect_not_null(strstr(runs, "k=20000"), "%s", runs);
    /* an unknown parameter lists the method's; a value out of range names the range */
    tc_override bad = {
        .target = "scm-a", .param = "epsilon2", .value = 1, .text = "scm-a.epsilon2=1"};
    cr_expect_eq(run_e1_with(path, out, 1, NULL, &bad, 1, &err), TC_ENOTFOUND);
    cr_expect_not_null(strstr(err.msg, "no such parameter (it has: k, spacing"), "%s", err.msg);
    tc_override range = {.target = "hc", .param = "n", .value = 7, .text = "hc.n=7"};
    cr_expect_eq(run_e1_with(path, out, 1, NULL, &range, 1, &err), TC_EINVAL);
    cr_expect_not_null(strstr(err.msg, "must lie in [1, 3]"), "%s", err.msg);
}

Test(script, results_are_bitwise_identical_for_1_and_2_threads) {
    const char *path = script(good);
    char o1[64] = "/tmp/touche-det1-XXXXXX", o2[64] = "/tmp/touche-det2-XXXXXX";
    cr_assert_not_null(test_tmpdir(o1));
    cr_assert_not_null(test_tmpdir(o2));
    tc_error err;
    cr_assert_eq(run_e1(path, o1, 1, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(run_e1(path, o2, 2, &err), TC_OK, "%s", err.msg);
    static const char *const files[] = {"profile_1d.csv", "field_scm-a.csv", "field_hc.csv",
                                        "field_mujoco.csv", "metrics.cfg"};
    for (int i = 0; i < 5; i++) {
        char a[128], b[128];
        /* MuJoCo joins E1 when the build has it */
        if (!TC_HAVE_MUJOCO && strstr(files[i], "mujoco")) continue;
        snprintf(a, sizeof a, "%s/e1_script/%s", o1, files[i]);
        snprintf(b, sizeof b, "%s/e1_script/%s", o2, files[i]);
        cr_expect_str_eq(slurp(a), slurp(b), "%s differs between 1 and 2 threads", files[i]);
    }
}

/* the costed sweep: every item once, the costliest started first, results in item order */
typedef struct {
    int started[16], nstarted;
    double out[16];
} sweep_log;

static void log_item(void *ctx, int i, tc_item *it) {
    sweep_log *l = ctx;
    l->started[__atomic_fetch_add(&l->nstarted, 1, __ATOMIC_RELAXED)] = i;
    l->out[i] = 3.0 * i + 1;
    it->steps = i + 1;
}

Test(script, the_costed_sweep_starts_the_costliest_items_first) {
    const double cost[10] = {1, 5, 2, 5, 9, 0, 3, NAN, 2, 7};
    const int want[10] = {4, 9, 1, 3, 6,
                          2, 8, 0, 5, 7}; /* by cost, ties (and NaN as 0) in item order */
    for (int threads = 1; threads <= 2; threads++) {
        tc_exp x = {.threads = threads};
        snprintf(x.name, sizeof x.name, "costed");
        sweep_log l = {.nstarted = 0};
        cr_redirect_stderr();
        cr_assert_eq(tc_exp_sweep_costed(&x, 10, NULL, cost, log_item, &l), TC_OK);
        cr_assert_eq(l.nstarted, 10);
        int seen[10] = {0};
        for (int k = 0; k < 10; k++)
            seen[l.started[k]]++;
        for (int i = 0; i < 10; i++) {
            cr_expect_eq(seen[i], 1, "item %d ran %d times", i, seen[i]);
            cr_expect_eq(l.out[i], 3.0 * i + 1);
            if (threads == 1)
                cr_expect_eq(l.started[i], want[i], "start %d: item %d", i, l.started[i]);
        }
    }
}

/* idle threads lent to the last item: on 2 threads, item 0 returns at once; item 1 (started first,
 * the costlier) waits up to 10 s for tc_par_threads to offer it the thread item 0 freed, and a
 * team of that size really runs; on 1 thread nothing is ever lent */
static void lend_item(void *ctx, int i, tc_item *it) {
    int *seen = ctx; /* {offered, team, sweep threads} */
    if (i == 0) return;
    int t = tc_par_threads();
    const double t0 = tc_wall_time();
    while (t < seen[2] && tc_wall_time() - t0 < 10) {
        usleep(1000);
        t = tc_par_threads();
    }
    int team = 0;
#pragma omp parallel num_threads(t)
#pragma omp atomic
    team++;
    seen[0] = t;
    seen[1] = team;
    it->steps = 1;
}

Test(script, idle_sweep_threads_join_the_last_item) {
    const double cost[2] = {1, 2};
    for (int threads = 1; threads <= 2; threads++) {
        tc_exp x = {.threads = threads};
        snprintf(x.name, sizeof x.name, "lend");
        int seen[3] = {0, 0, threads};
        cr_redirect_stderr();
        cr_assert_eq(tc_exp_sweep_costed(&x, 2, NULL, cost, lend_item, seen), TC_OK);
        cr_expect_eq(seen[0], threads, "%d sweep threads: item 1 was offered %d", threads, seen[0]);
        cr_expect_eq(seen[1], threads, "%d sweep threads: its team had %d", threads, seen[1]);
        cr_expect_eq(tc_par_threads(), omp_get_max_threads(), "outside a sweep: OpenMP's maximum");
    }
}

/* threads other ranks lend while they wait (docs/mpi.md): a 1-thread sweep's only item is offered
 * the threads a waiting rank of the same machine lends, shared out among the ranks still working
 * and capped by the CPUs this process may use; nothing once that rank works again */
static void node_item(void *ctx, int i, tc_item *it) {
    (void)i;
    int *seen = ctx;
    seen[0] = tc_par_threads();
    int team = 0;
#pragma omp parallel num_threads(seen[0])
#pragma omp atomic
    team++;
    seen[1] = team;
    it->steps = 1;
}

Test(script, waiting_ranks_lend_their_threads) {
    tc_par_node node = {.idle = 0, .active = 2};
    tc_par_node_share(&node);
    tc_exp x = {.threads = 1};
    snprintf(x.name, sizeof x.name, "node");
    const int cap = omp_get_num_procs() - 1;
    /* {idle threads, active ranks} after the other rank's wait, and the threads offered */
    const struct {
        int waiting_threads, others_active, want;
    } cases[] = {
        {3, 0,
         1 + (3 < cap ? 3
                      : cap)}, /* one rank of 3 threads waits: all its threads, up to the CPUs */
        {3, 1, 1 + (1 < cap ? 1 : cap)}, /* shared with one other working rank: 3 / 2 */
        {0, 1, 1},                       /* nobody waits */
    };
    tc_par_node_lent_max(1);
    int most = 0;
    for (int c = 0; c < 3; c++) {
        /* this rank works; another rank of cases[c].waiting_threads waits (or works) */
        node.idle = 0;
        node.active = 2 + cases[c].others_active;
        if (cases[c].waiting_threads) tc_par_node_wait(cases[c].waiting_threads);
        cr_assert_eq(node.idle, cases[c].waiting_threads);
        int seen[2] = {0, 0};
        cr_redirect_stderr();
        cr_assert_eq(tc_exp_sweep(&x, 1, NULL, node_item, seen), TC_OK);
        cr_expect_eq(seen[0], cases[c].want, "case %d: offered %d threads, want %d", c, seen[0],
                     cases[c].want);
        cr_expect_eq(seen[1], seen[0], "case %d: a team of %d", c, seen[1]);
        if (seen[0] - 1 > most) most = seen[0] - 1;
        if (cases[c].waiting_threads) tc_par_node_resume(cases[c].waiting_threads);
        cr_expect_eq(node.idle, 0, "resumed: nothing lent");
        cr_expect_eq(node.active, 2 + cases[c].others_active, "resumed: active again");
    }
    cr_expect_eq(tc_par_node_lent_max(1), most, "the most lent is recorded");
    cr_expect_eq(tc_par_node_lent_max(0), 0, "and reset");
    /* outside a sweep a process keeps its own threads */
    node.idle = 8;
    node.active = 1;
    cr_expect_eq(tc_par_threads(), omp_get_max_threads());
    tc_par_node_share(NULL);
}

/* the queue the ranks of a machine share: every take of one sweep's key gets its own number, from
 * 0, also from threads at once; a new key starts again at 0 without a reset; taken and finished
 * count apart; without a node there is no queue (-1) */
Test(script, machine_queue_hands_out_each_item_once) {
    cr_expect_eq(tc_par_node_take(1), -1, "no node, no queue");
    tc_par_node node = {.active = 2};
    tc_par_node_share(&node);
    enum { N = 4000 };
    static unsigned char got[N];
    memset(got, 0, sizeof got);
    int bad = 0;
#pragma omp parallel for num_threads(4) reduction(+ : bad)
    for (int k = 0; k < N; k++) {
        long t = tc_par_node_take(7);
        if (t < 0 || t >= N || __atomic_fetch_add(&got[t], 1, __ATOMIC_RELAXED)) bad++;
    }
    cr_expect_eq(bad, 0, "%d takes out of range or twice", bad);
    cr_expect_eq(tc_par_node_take(7), N, "the next after %d takes", N);
    cr_expect_eq(tc_par_node_finish(7), 0, "finished counts apart from taken");
    cr_expect_eq(tc_par_node_take(8), 0, "a new sweep starts at 0");
    cr_expect_eq(tc_par_node_take(8), 1);
    cr_expect_eq(tc_par_node_finish(8), 0, "and so does its finished count");
    tc_par_node_share(NULL);
}

/* ---------- a table of settings (tc_script_read) ---------- */

typedef struct table_dst {
    double r;
    int i;
    char s[8];
    double v[3];
    int nv;
    double opt;
} table_dst;

static const tc_field table_rows[] = {
    TC_FIELD_R(table_dst, r, "r", 0, 10),
    TC_FIELD_I(table_dst, i, "i", 1, 5),
    TC_FIELD_S(table_dst, s, "s"),
    TC_FIELD_RS(table_dst, v, nv, "v", -1, 1),
    {"opt", TC_FIELD_REAL, offsetof(table_dst, opt), 0, 100, 0, 0, 1},
    TC_FIELD_END,
};

/* read the group g of text into d; the error's message (if any) into err */
static tc_status read_table(const char *text, table_dst *d, tc_error *err) {
    tc_script *s = NULL;
    tc_status st = tc_script_load(&s, script(text), "quick", err);
    cr_assert_eq(st, TC_OK, "%s", err->msg);
    st = tc_script_read(s, "g", table_rows, d, err);
    tc_script_free(s);
    return st;
}

Test(script, a_table_of_settings_reads_every_row) {
    table_dst d = {.opt = 7};
    tc_error err = {0};
    cr_assert_eq(
        read_table("g = { r = 2.5; i = 3; s = \"ab\"; v = [0.5, -1.0, 1.0]; };\n", &d, &err), TC_OK,
        "%s", err.msg);
    cr_expect_eq(d.r, 2.5);
    cr_expect_eq(d.i, 3);
    cr_expect_str_eq(d.s, "ab");
    cr_expect_eq(d.nv, 3);
    cr_expect_eq(d.v[1], -1);
    cr_expect_eq(d.opt, 7, "an optional row that is missing keeps its default");
    cr_assert_eq(read_table("g = { r = 1; i = 1; s = \"\"; v = [0]; opt = 50; };\n", &d, &err),
                 TC_OK, "%s", err.msg);
    cr_expect_eq(d.opt, 50);
}

Test(script, a_table_of_settings_names_the_line_of_each_mistake) {
    static const struct {
        const char *text, *param, *msg;
        int line;
    } bad[] = {
        {"x = 1;\n", "g", "missing group", 0},
        {"g = 3;\n", "g", "must be a group", 1},
        {"g = { r = 11; i = 1; s = \"a\"; v = [0]; };\n", "r", "[0, 10]", 1},
        {"g = { r = 1;\n i = 1; s = \"a\"; v = [0];\n rr = 2; };\n", "rr", "allowed: r, i", 3},
        {"g = { r = 1; i = 1; s = \"abcdefgh\"; v = [0]; };\n", "s", "at most 7", 1},
        {"g = { r = 1; i = 1; s = \"a\"; v = [0, 0, 0, 0]; };\n", "v", "1 to 3", 1},
        {"g = {\n r = 1; s = \"a\"; v = [0]; };\n", "i", "missing", 1},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        table_dst d = {0};
        tc_error err = {0};
        cr_expect_eq(read_table(bad[k].text, &d, &err), TC_EINVAL, "case %zu", k);
        cr_expect_str_eq(err.param, bad[k].param, "case %zu", k);
        cr_expect(strstr(err.msg, bad[k].msg), "case %zu: %s", k, err.msg);
        if (bad[k].line) cr_expect_eq(err.line, bad[k].line, "case %zu: line %d", k, err.line);
    }
}

Test(script, a_failure_at_a_path_names_the_tiers_line_first) {
    tc_script *s = NULL;
    tc_error err = {0};
    const char *text = "g = { a = 1;\n b = 2; };\ntiers = { quick = {\n\n g = { b = 3; }; }; };\n";
    const char *path = script(text);
    cr_assert_eq(tc_script_load(&s, path, "quick", &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_script_fail_at(s, "g.b", &err, "too big (%d)", 3), TC_EINVAL);
    cr_expect_eq(err.line, 5, "the tier's setting (line %d)", err.line);
    cr_expect_str_eq(err.param, "g.b");
    cr_expect(strstr(err.msg, "too big (3)"), "%s", err.msg);
    cr_expect(strstr(err.file, "e1.cfg"), "%s", err.file);
    tc_error_clear(&err);
    cr_expect_eq(tc_script_fail_at(s, "g.a", &err, "x"), TC_EINVAL);
    cr_expect_eq(err.line, 1, "the top level's setting (line %d)", err.line);
    tc_script_free(s);
}

Test(script, a_list_of_groups_is_checked_for_kind_and_length) {
    tc_script *s = NULL;
    tc_error err = {0};
    const char *text = "two = ( { a = 1; }, { a = 2; } );\nnum = 3;\nnone = ();\n";
    cr_assert_eq(tc_script_load(&s, script(text), "quick", &err), TC_OK, "%s", err.msg);
    const tc_setting *l = NULL;
    int n = -1;
    cr_expect_eq(tc_script_list(s, "two", 1, 2, "groups", &l, &n, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(n, 2);
    cr_expect_eq(tc_setting_length(l), 2);
    cr_expect_eq(tc_script_list(s, "missing", 0, 4, "groups", &l, &n, &err), TC_OK);
    cr_expect_eq(n, 0, "a missing list with lo = 0 is empty");
    cr_expect_null(l);
    static const struct {
        const char *path, *msg;
        int lo, hi, line;
    } bad[] = {
        {"two", "of 1 to 1 groups", 1, 1, 1},     {"two", "of at most 1 groups", 0, 1, 1},
        {"num", "of 1 to 4 groups", 1, 4, 2},     {"none", "of 1 to 4 groups", 1, 4, 3},
        {"missing", "of 1 to 4 groups", 1, 4, 0},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        tc_error_clear(&err);
        n = -1;
        cr_expect_eq(tc_script_list(s, bad[k].path, bad[k].lo, bad[k].hi, "groups", NULL, &n, &err),
                     TC_EINVAL, "case %zu", k);
        cr_expect_eq(n, 0, "case %zu", k);
        cr_expect_str_eq(err.param, bad[k].path, "case %zu", k);
        cr_expect(strstr(err.msg, bad[k].msg), "case %zu: %s", k, err.msg);
        cr_expect_eq(err.line, bad[k].line, "case %zu: line %d", k, err.line);
    }
    tc_script_free(s);
}

Test(script, settings_are_walked_through_the_opaque_type) {
    tc_script *s = NULL;
    tc_error err = {0};
    cr_assert_eq(
        tc_script_load(&s, script("l = ( { a = \"x\"; }, [1.5, 2.0] );\nn = 4;\n"), "quick", &err),
        TC_OK, "%s", err.msg);
    const tc_setting *l = tc_script_lookup(s, NULL, "l");
    cr_expect_eq(tc_setting_type(l), TC_SETTING_LIST);
    cr_expect_eq(tc_setting_length(l), 2);
    cr_expect_eq(tc_setting_type(tc_setting_at(l, 0)), TC_SETTING_GROUP);
    cr_expect_str_eq(tc_setting_string(tc_script_lookup(s, tc_setting_at(l, 0), "a")), "x");
    cr_expect_eq(tc_setting_number(tc_setting_at(tc_setting_at(l, 1), 0)), 1.5);
    cr_expect_null(tc_setting_at(l, 2));
    cr_expect_eq(tc_setting_number(tc_script_lookup(s, NULL, "n")), 4);
    cr_expect_eq(tc_script_line(s, NULL, "n"), 2);
    cr_expect_eq(tc_script_line(s, NULL, "none"), 0);
    cr_expect(isnan(tc_setting_number(l)));
    cr_expect_eq(tc_setting_type(NULL), TC_SETTING_NONE);
    cr_expect_eq(tc_script_fail(s, l, "l", &err, "bad %d", 3), TC_EINVAL);
    cr_expect_eq(err.line, 1);
    cr_expect_str_eq(err.msg, "bad 3");
    tc_script_free(s);
}

/* ---------- documented choices (tc_script_choices) ---------- */

typedef struct seen_choices {
    int n, line[8];
    char setting[8][64], text[8][256];
} seen_choices;

static void keep_choice(void *ctx, int line, const char *setting, const char *text) {
    seen_choices *s = ctx;
    if (s->n >= 8) return;
    s->line[s->n] = line;
    snprintf(s->setting[s->n], sizeof s->setting[0], "%s", setting);
    snprintf(s->text[s->n], sizeof s->text[0], "%s", text);
    s->n++;
}

/* a trailing comment, its aligned continuation, a block above a setting, a list entry by its
 * label, the convention's own sentence (not a choice) and a comment without the word */
Test(script, documented_choices_are_found_with_their_settings) {
    const char *path = script("# Choices the paper does not give are marked \"choice\".\n"
                              "\n"
                              "scene = {\n"
                              "  friction = 0.5;   # choice: the paper gives no\n"
                              "                    # coefficient\n"
                              "  # the step (choice: 1 ms,\n"
                              "  # as E7)\n"
                              "  dt = 0.001;\n"
                              "  mass = 1.0;       # kg, as the paper\n"
                              "};\n"
                              "methods = (\n"
                              "  # Choices for scm: 5 cm points\n"
                              "  { label = \"scm\"; method = \"scm\"; },\n"
                              "  { label = \"hc\"; method = \"hunt-crossley\"; } # no choice here? "
                              "yes, a choice\n"
                              ");\n");
    seen_choices s = {0};
    cr_assert_eq(tc_script_choices(path, keep_choice, &s), 4);
    cr_assert_eq(s.n, 4);
    cr_assert_eq(s.line[0], 4);
    cr_assert_str_eq(s.setting[0], "scene.friction");
    cr_assert_str_eq(s.text[0], "choice: the paper gives no coefficient");
    cr_assert_eq(s.line[1], 6);
    cr_assert_str_eq(s.setting[1], "scene.dt");
    cr_assert_str_eq(s.text[1], "the step (choice: 1 ms, as E7)");
    cr_assert_str_eq(s.setting[2], "methods[scm]");
    cr_assert_str_eq(s.setting[3], "methods[hc]");
    cr_assert_eq(tc_script_choices("/nonexistent/touche.cfg", keep_choice, &s), -1);
}
