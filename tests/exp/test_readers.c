/* SPDX-License-Identifier: MIT */
/* the data-file readers against hostile input: every malformed file is an error naming its line
 * and column, and a well-formed one reads back exactly (tc_csv, E2's trajectories, the FEM cache);
 * the command line's numbers and assignments, whole and fitting or refused (core/tc_args.h) */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tc_csv.h"
#include "experiments/e2/e2.h"
#include "fem/tc_fem.h"
#include "tc_config.h"

/* text into a fresh file under the test's scratch directory; its path in path */
static void put(char *path, size_t n, const char *name, const char *text, size_t len) {
    snprintf(path, n, "readers-%ld-%s", (long)getpid(), name);
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* ---------- the generic reader ---------- */

static const tc_csv_column cols[] = {{"id", TC_CSV_INT, 0, 9}, {"t_s", TC_CSV_REAL, 0, 100}};

/* read every row of text; the status, the rows read, and the message */
static tc_status read_all(const char *text, size_t len, int *rows, tc_error *err) {
    char path[256];
    put(path, sizeof path, "csv", text, len);
    tc_csv_reader r;
    tc_error_clear(err);
    *rows = 0;
    tc_status st = tc_csv_open(&r, path, ',', cols, 2, NULL, NULL, err);
    double v[2];
    int got = 1;
    while (!st && got && !(st = tc_csv_next(&r, v, &got, err)))
        *rows += got;
    if (!st || r.f) tc_csv_close(&r);
    unlink(path);
    return st;
}

Test(csv, good_file_with_provenance_and_blank_lines) {
    const char *t = "# made by a test\nid,t_s\n0,0.5\n\n1,1e1\n# trailing note\n2,100\n";
    int rows;
    tc_error err;
    cr_assert_eq(read_all(t, strlen(t), &rows, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(rows, 3);
}

/* each hostile file: the error, its line, and a phrase of the message */
Test(csv, hostile_inputs_are_located_errors) {
    static const struct {
        const char *name, *text;
        int line;
        const char *says;
    } cases[] = {
        {"empty file", "", 0, "expected the header"},
        {"only comments", "# nothing\n", 1, "expected the header"},
        {"wrong header", "id,time\n0,1\n", 1, "expected the header 'id,t_s'"},
        {"header with spaces", "id, t_s\n0,1\n", 1, "expected the header"},
        {"extra header column", "id,t_s,x\n0,1,2\n", 1, "expected the header"},
        /* any readable file: its first line is not quoted unless it reads as column names
         * (issue 33, finding 14: a script naming /etc/shadow printed its first 60 bytes) */
        {"not a data file", "root:$6$sEcReT0:19000:0:99999:7:::\n", 1,
         "not a header of column names"},
        {"too few cells", "id,t_s\n0\n", 2, "1 cells, expected 2"},
        {"too many cells", "id,t_s\n0,1,2\n", 2, "more than the 2 cells"},
        {"trailing comma", "id,t_s\n0,1,\n", 2, "more than the 2 cells"},
        {"empty cell", "id,t_s\n,1\n", 2, "empty cell"},
        {"nan", "id,t_s\n0,nan\n", 2, "not finite"},
        {"infinity", "id,t_s\n0,inf\n", 2, "not finite"},
        {"overflow", "id,t_s\n0,1e999\n", 2, "not finite"},
        {"trailing junk", "id,t_s\n0,1x\n", 2, "'1x' is not a number"},
        {"unit in the cell", "id,t_s\n0,1 s\n", 2, "is not a number"},
        {"leading space", "id,t_s\n0, 1\n", 2, "is not a number"},
        {"fraction in an integer", "id,t_s\n4.9,1\n", 2, "not a whole number"},
        {"negative id", "id,t_s\n-1,1\n", 2, "outside [0, 9]"},
        {"id out of range", "id,t_s\n10,1\n", 2, "outside [0, 9]"},
        {"time out of range", "id,t_s\n0,101\n", 2, "outside [0, 100]"},
        {"hex number", "id,t_s\n0,0x10\n", 2, "not a decimal number"},
        {"semicolons", "id,t_s\n0;1\n", 2, "1 cells, expected 2"},
        {"error after good rows", "id,t_s\n0,1\n1,2\n2,abc\n", 4, "'abc' is not a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rows;
        tc_error err;
        tc_status st = read_all(cases[i].text, strlen(cases[i].text), &rows, &err);
        cr_expect_eq(st, TC_EPARSE, "%s: status %d", cases[i].name, st);
        cr_expect_null(strstr(err.msg, "sEcReT"), "%s: %s", cases[i].name, err.msg);
        cr_expect_eq(err.line, cases[i].line, "%s: line %d (%s)", cases[i].name, err.line, err.msg);
        cr_expect(strstr(err.msg, cases[i].says), "%s: '%s' lacks '%s'", cases[i].name, err.msg,
                  cases[i].says);
    }
}

Test(csv, nul_byte_and_long_line_are_errors) {
    int rows;
    tc_error err;
    const char nul[] = "id,t_s\n0,1\0junk\n";
    cr_assert_eq(read_all(nul, sizeof nul - 1, &rows, &err), TC_EPARSE);
    cr_assert(strstr(err.msg, "NUL"), "%s", err.msg);
    char *longline = malloc(4 * TC_CSV_LINE);
    strcpy(longline, "id,t_s\n0,");
    memset(longline + strlen(longline), '1', 2 * TC_CSV_LINE);
    longline[9 + 2 * TC_CSV_LINE] = 0;
    cr_assert_eq(read_all(longline, strlen(longline), &rows, &err), TC_EPARSE);
    cr_assert(strstr(err.msg, "longer than"), "%s", err.msg);
    free(longline);
}

/* a device or a folder is not a data file: refused at once, never read (issue 33, finding 11:
 * trajectories = "/dev/zero" grew to 2.1 GB before failing with the wrong message) */
Test(csv, a_device_or_folder_is_refused_unread) {
    static const char *const path[] = {"/dev/zero", "/tmp"};
    for (int k = 0; k < 2; k++) {
        tc_csv_reader r;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_csv_open(&r, path[k], ',', cols, 2, NULL, NULL, &err), TC_EIO, "%s",
                     path[k]);
        cr_expect(strstr(err.msg, "not a regular file"), "%s: %s", path[k], err.msg);
    }
}

Test(csv, missing_file_is_an_io_error) {
    tc_csv_reader r;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_csv_open(&r, "readers-no-such-file.csv", ',', cols, 2, NULL, NULL, &err),
                 TC_EIO);
}

/* ---------- E2's trajectories ---------- */

/* the quick E2 setup with a 0.8 s rollout of 0.4 s waypoints: three waypoints a trajectory */
static void e2_small(e2_setup *e) {
    memset(e, 0, sizeof *e);
    e->duration = 0.8;
    e->waypoint_dt = 0.4;
}

Test(trajectories, hostile_inputs_are_located_errors) {
    static const struct {
        const char *name, *text;
        int line;
        const char *says;
    } cases[] = {
        {"the audit's 3,0,3,0", "traj,t_s,x_m,y_m\n3,0,3,0\n", 2, "expected trajectory 0 at t = 0"},
        {"nan time", "traj,t_s,x_m,y_m\n0,nan,0,0\n", 2, "not finite"},
        {"missing waypoint", "traj,t_s,x_m,y_m\n0,0,0,0\n0,0.8,0,0\n", 3,
         "expected trajectory 0 at t = 0.4"},
        {"duplicate waypoint", "traj,t_s,x_m,y_m\n0,0,0,0\n0,0,0,0\n", 3, "every waypoint once"},
        {"unsorted", "traj,t_s,x_m,y_m\n0,0.4,0,0\n0,0,0,0\n", 2, "expected trajectory 0 at t = 0"},
        {"short trajectory", "traj,t_s,x_m,y_m\n0,0,0,0\n0,0.4,0,0\n1,0,0,0\n", 4,
         "stops at 2 waypoints"},
        {"last one short", "traj,t_s,x_m,y_m\n0,0,0,0\n0,0.4,0,0\n", 3, "stops at 2 waypoints"},
        {"skipped trajectory", "traj,t_s,x_m,y_m\n0,0,0,0\n0,0.4,0,0\n0,0.8,0,0\n2,0,0,0\n", 5,
         "or the next one"},
        {"time off the grid", "traj,t_s,x_m,y_m\n0,0.1,0,0\n", 2, "not a multiple of waypoint_dt"},
        {"time past the rollout", "traj,t_s,x_m,y_m\n0,1.2,0,0\n", 2, "outside"},
        {"extra column", "traj,t_s,x_m,y_m\n0,0,0,0,7\n", 2, "more than the 4 cells"},
        {"trailing junk", "traj,t_s,x_m,y_m\n0,0,0,0junk\n", 2, "is not a number"},
        {"finger 50 m away", "traj,t_s,x_m,y_m\n0,0,50,0\n", 2, "outside [-10, 10]"},
        {"no rows", "traj,t_s,x_m,y_m\n", 1, "no trajectories"},
        {"too many trajectories", "traj,t_s,x_m,y_m\n9,0,0,0\n", 2, "outside [0, 7]"},
    };
    e2_setup e;
    e2_small(&e);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[256];
        put(path, sizeof path, "traj.csv", cases[i].text, strlen(cases[i].text));
        e2_traj tr[E2_MAXTRAJ];
        int n = -1;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = e2_read_trajectories(path, &e, tr, &n, &err);
        unlink(path);
        cr_expect_eq(st, TC_EPARSE, "%s: status %d", cases[i].name, st);
        cr_expect_eq(n, -1, "%s: the count was set", cases[i].name);
        cr_expect_eq(err.line, cases[i].line, "%s: line %d (%s)", cases[i].name, err.line, err.msg);
        cr_expect(strstr(err.msg, cases[i].says), "%s: '%s' lacks '%s'", cases[i].name, err.msg,
                  cases[i].says);
    }
}

Test(trajectories, a_complete_file_reads_back) {
    const char *t =
        "# provenance\ntraj,t_s,x_m,y_m\n0,0,0.1,0.2\n0,0.4,0.3,0.4\n0,0.800000,0.5,0.6\n"
        "1,0,-0.1,-0.2\n1,0.4,0,0\n1,0.8,0.01,0.02\n";
    e2_setup e;
    e2_small(&e);
    char path[256];
    put(path, sizeof path, "traj.csv", t, strlen(t));
    e2_traj tr[E2_MAXTRAJ];
    int n = 0;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(e2_read_trajectories(path, &e, tr, &n, &err), TC_OK, "%s", err.msg);
    unlink(path);
    cr_assert_eq(n, 2);
    cr_assert_eq(tr[0].n, 3);
    cr_assert_eq(tr[1].n, 3);
    cr_assert_eq(tr[0].x[2], 0.5);
    cr_assert_eq(tr[1].y[0], -0.2);
}

/* ---------- the FEM cache ---------- */

Test(fem_cache, hostile_inputs_are_located_errors) {
    static const struct {
        const char *name, *text;
        int line;
        const char *says;
    } cases[] = {
        {"no header", "0.1,0.01,0.5\n", 1, "expected the header"},
        {"nan force", "eta,depth,force\n0.1,0.01,nan\n", 2, "not finite"},
        {"depth going back", "eta,depth,force\n0.1,0.02,1\n0.1,0.01,1\n", 3, "depths increase"},
        {"repeated depth", "eta,depth,force\n0.1,0.02,1\n0.1,0.02,1\n", 3, "depths increase"},
        {"eta going back", "eta,depth,force\n0.2,0.01,1\n0.1,0.01,1\n", 3, "increasing eta"},
        {"negative depth", "eta,depth,force\n0.1,-0.01,1\n", 2, "outside"},
        {"extra cell", "eta,depth,force\n0.1,0.01,1,2\n", 2, "more than the 3 cells"},
        {"no rows", "# ccx\neta,depth,force\n", 2, "no data rows"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[256];
        put(path, sizeof path, "fem.csv", cases[i].text, strlen(cases[i].text));
        static tc_fem_curve c[4];
        double eta[4];
        int n = -1;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_fem_read_cache(path, c, eta, 4, &n, &err);
        unlink(path);
        cr_expect_eq(st, TC_EPARSE, "%s: status %d", cases[i].name, st);
        cr_expect_eq(n, 0, "%s: %d curves kept", cases[i].name, n);
        cr_expect_eq(err.line, cases[i].line, "%s: line %d (%s)", cases[i].name, err.line, err.msg);
        cr_expect(strstr(err.msg, cases[i].says), "%s: '%s' lacks '%s'", cases[i].name, err.msg,
                  cases[i].says);
    }
}

/* ---------- the metrics files (runs' and references) ---------- */

#include "report/tc_metrics.h"

/* a misspelt key would drop a tolerance to 0 or a metric's unit silently: each is an error */
Test(metrics_file, unknown_keys_are_located_errors) {
    static const struct {
        const char *name, *text, *key;
        int line;
    } cases[] = {
        {"misspelt tolerance",
         "experiment = \"e\";\ntier = \"quick\";\nmetrics = ( { name = \"a\"; value = 1.0;\n"
         "  tol_abss = 0.1; } );\n",
         "tol_abss", 4},
        {"unknown top-level key", "experiment = \"e\";\ntiers = \"quick\";\nmetrics = ( );\n",
         "tiers", 2},
        {"unknown key of a digest",
         "experiment = \"e\";\nmetrics = ( );\nhashes = ( { method = \"m\"; hash = \"x\"; cpus = "
         "1; } );\n",
         "cpus", 3},
        {"unknown key of a method that ran",
         "experiment = \"e\";\nmetrics = ( );\nmethods = ( { label = \"m\"; threads = 2; } );\n",
         "threads", 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[256];
        put(path, sizeof path, "metrics.cfg", cases[i].text, strlen(cases[i].text));
        tc_metrics ms;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_metrics_read(&ms, path, &err);
        tc_metrics_free(&ms);
        unlink(path);
        cr_expect_eq(st, TC_EPARSE, "%s: status %d (%s)", cases[i].name, st, err.msg);
        cr_expect_str_eq(err.param, cases[i].key, "%s: %s", cases[i].name, err.msg);
        cr_expect_eq(err.line, cases[i].line, "%s: line %d", cases[i].name, err.line);
    }
}

/* ---------- work estimates before a run ---------- */

#include "exp/tc_experiment.h"

/* every built-in experiment states its work at both tiers, within the limits */
Test(work, every_experiment_estimates_its_work_within_the_limits, .disabled = !TC_HAVE_MUJOCO) {
    const char *tiers[] = {"quick", "full"};
    for (int i = 0; tc_experiment_at(i); i++)
        for (int t = 0; t < 2; t++) {
            const tc_experiment_type *type = tc_experiment_at(i);
            tc_exp *x = NULL;
            tc_error err;
            tc_error_clear(&err);
            cr_assert_eq(tc_exp_plan_builtin(&x, type->name, tiers[t], &err), TC_OK, "%s: %s",
                         type->name, err.msg);
            tc_work w;
            cr_expect_eq(tc_exp_work_check(x, 0, &w, &err), TC_OK, "%s %s: %s", type->name,
                         tiers[t], err.msg);
            cr_expect(w.steps > 0 && w.seconds > 0 && w.bytes > 0, "%s %s: no estimate", type->name,
                      tiers[t]);
            /* the full tier is the bigger run */
            tc_exp_free(x);
        }
}

/* an iteration cap raised is part of the estimate: MuJoCo at 1e6 iterations a step (10,000
 * times its default) may take 10,000 times as long, and the estimate says so (issue 33, finding
 * 12: "about 1 s", still running at 120 s); each experiment planned with MuJoCo alone */
Test(work, iteration_caps_raise_the_estimate, .disabled = !TC_HAVE_MUJOCO) {
    int checked = 0;
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *type = tc_experiment_at(i);
        tc_work w[2];
        int used = 0;
        for (int k = 0; k < 2; k++) {
            tc_override set = {.target = "mujoco", .param = "iterations", .value = 1e6};
            tc_run_opts o = {.source_dir = getenv("TOUCHE_SOURCE_DIR"),
                             .out_root = "never",
                             .tier = "quick",
                             .methods = "mujoco",
                             .threads = 1,
                             .set = k ? &set : NULL,
                             .nset = k};
            char path[1200];
            snprintf(path, sizeof path, "%s/experiments/%s", o.source_dir, type->script);
            tc_exp *x = NULL;
            tc_error err;
            tc_error_clear(&err);
            cr_assert_eq(tc_exp_plan(&x, type, path, type->name, &o, &err), TC_OK, "%s: %s",
                         type->name, err.msg);
            tc_exp_work_check(x, 1, &w[k], &err);
            used = set.used;
            tc_exp_free(x);
        }
        if (!used) continue;
        cr_expect_geq(w[1].seconds, 100 * w[0].seconds, "%s: %g s, %g s at default caps",
                      type->name, w[1].seconds, w[0].seconds);
        cr_expect_eq(w[1].steps, w[0].steps, "%s: the steps are the same", type->name);
        cr_expect_eq(w[0].factor, 1, "%s", type->name);
        cr_expect_eq(w[1].factor, 1e4, "%s: factor %g", type->name, w[1].factor);
        char text[300];
        tc_work_describe(&w[1], 1, text, sizeof text);
        cr_expect(strstr(text, "up to") && strstr(text, "iteration caps (1e+04 times"), "%s", text);
        checked++;
    }
    cr_expect_geq(checked, 5, "experiments with MuJoCo: %d", checked);
}

/* the points of a point-cloud method come from its parameter of kind TC_PARAM_SPACING (m), not
 * from a name: SCM's `spacing`, and a model of its own with another name the same way */
Test(work, a_point_sampled_model_is_estimated_by_its_spacing_kind, .disabled = !TC_HAVE_MUJOCO) {
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "spacing", 0.1, NULL), TC_OK);
    cr_expect_float_eq(tc_work_points(&m, 2.0), 200, 1e-12);
    cr_expect_eq(tc_work_points(&m, 0.01), 12, "at least 12 points");
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_expect_eq(tc_work_points(&m, 2.0), 0, "an engine samples no points");
    static const tc_param_spec pitch[] = {
        {"pitch", 0.5, 1e-3, 1, TC_PARAM_SPACING, "m", "sample pitch", "a test's"},
        {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};
    static const tc_model_type sampled = {.name = "sampled", .params = pitch};
    tc_method s = {.model = &sampled};
    tc_params_default(&s.mparams, pitch);
    cr_expect_eq(tc_method_set(&s, "pitch", 0.25, NULL), TC_OK, "a real, not an integer");
    cr_expect_float_eq(tc_work_points(&s, 2.0), 32, 1e-12);
}

/* a script named like a built-in experiment must be the built-in script: a changed one would
 * write to its folder and get the paper's verdicts and its reference (issue 33, finding 13:
 * identity was the file name only); an unchanged copy plans as the built-in */
Test(work, a_changed_script_may_not_take_a_built_in_name, .disabled = !TC_HAVE_MUJOCO) {
    char text[1 << 16], path[256];
    const char *src = getenv("TOUCHE_SOURCE_DIR") ? getenv("TOUCHE_SOURCE_DIR") : ".";
    snprintf(path, sizeof path, "%s/experiments/e4/e4_penalty.cfg", src);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    tc_run_opts o = {.source_dir = src, .out_root = "never", .tier = "quick", .threads = 1};
    for (int changed = 0; changed < 2; changed++) {
        if (changed) {
            text[n - 1] = '\n';
            memcpy(text + n, "# mine\n", 8);
            n += 7;
        }
        put(path, sizeof path, "e4_penalty.cfg", text, n);
        tc_exp *x = NULL;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_exp_plan(&x, tc_experiment_find("e4"), path, "e4_penalty", &o, &err);
        if (changed) {
            cr_expect_eq(st, TC_EINVAL);
            cr_expect(strstr(err.msg, "named like the built-in experiment e4_penalty"), "%s",
                      err.msg);
            cr_expect_str_eq(err.file, path);
        } else {
            cr_expect_eq(st, TC_OK, "%s", err.msg);
        }
        tc_exp_free(x);
        unlink(path);
    }
}

/* the same check refuses a run past the limit, and --force lets it through */
Test(work, a_run_past_the_limit_is_refused_unless_forced, .disabled = !TC_HAVE_MUJOCO) {
    char text[1 << 16], path[256];
    snprintf(path, sizeof path, "%s/experiments/e4/e4_penalty.cfg",
             getenv("TOUCHE_SOURCE_DIR") ? getenv("TOUCHE_SOURCE_DIR") : ".");
    FILE *f = fopen(path, "r");
    cr_assert(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    /* a pile simulated for 999 s at 1 us steps: 1e9 steps a method */
    char *dt = strstr(text, "dt       = 0.001;"), *sec = strstr(text, "seconds = 1.5;");
    cr_assert(dt && sec);
    memcpy(dt, "dt       = 1e-6; ", strlen("dt       = 0.001;"));
    memcpy(sec, "seconds = 999;", strlen("seconds = 1.5;"));
    put(path, sizeof path, "e4_tiny_dt.cfg", text, n);
    tc_run_opts o = {.source_dir = getenv("TOUCHE_SOURCE_DIR"),
                     .out_root = "never",
                     .tier = "quick",
                     .threads = 1};
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_exp_plan(&x, tc_experiment_find("e4"), path, "e4_tiny_dt", &o, &err), TC_OK,
                 "%s", err.msg);
    tc_work w;
    cr_expect_eq(tc_exp_work_check(x, 0, &w, &err), TC_EINVAL);
    cr_expect(strstr(err.msg, "--force"), "%s", err.msg);
    cr_expect(w.steps > TC_WORK_MAX_STEPS, "%g steps", w.steps);
    cr_expect_eq(tc_exp_work_check(x, 1, &w, &err), TC_OK);
    tc_exp_free(x);
    unlink(path);
}

/* ---------- command-line values ---------- */

#include "core/tc_args.h"

/* LABEL.PARAM=VALUE (run --set) read whole: the label up to the first '.', the parameter up to
 * the '=' (it may hold a '.'), a finite value; names that just fit their buffers */
Test(args, an_assignment_reads_whole) {
    char target[80], param[64], t4[4], p3[3];
    double v = 0;
    cr_redirect_stderr();
    cr_assert(tc_arg_assign("t", "--set", "scm-medium.eps2=0.003", target, sizeof target, param,
                            sizeof param, &v));
    cr_expect_str_eq(target, "scm-medium");
    cr_expect_str_eq(param, "eps2");
    cr_expect_eq(v, 0.003);
    cr_assert(
        tc_arg_assign("t", "--set", "a.b.c=-2", target, sizeof target, param, sizeof param, &v));
    cr_expect(!strcmp(target, "a") && !strcmp(param, "b.c") && v == -2, "%s %s %g", target, param,
              v);
    cr_assert(tc_arg_assign("t", "--set", "abc.de=1e3", t4, sizeof t4, p3, sizeof p3, &v));
    cr_expect(!strcmp(t4, "abc") && !strcmp(p3, "de") && v == 1e3);
}

/* a label or parameter longer than its buffer is refused, never cut (run --set cut them
 * silently: an 80-character label became another, shorter one); malformed ones are refused too,
 * and a refusal leaves both names empty */
Test(args, an_assignment_that_does_not_fit_is_refused) {
    char target[80], param[64], t4[4], p3[3], label[100];
    double v = 7;
    cr_redirect_stderr();
    cr_expect(!tc_arg_assign("t", "--set", "abcd.de=1", t4, sizeof t4, p3, sizeof p3, &v));
    cr_expect(!tc_arg_assign("t", "--set", "abc.def=1", t4, sizeof t4, p3, sizeof p3, &v));
    cr_expect(!t4[0] && !p3[0] && v == 7, "'%s' '%s' %g", t4, p3, v);
    /* 79 characters fit run's label, 80 do not */
    for (int n = 79; n <= 80; n++) {
        snprintf(label, sizeof label, "%0*d.k=1", n, 0);
        cr_expect_eq(
            tc_arg_assign("t", "--set", label, target, sizeof target, param, sizeof param, &v),
            n == 79, "a label of %d characters", n);
    }
    static const char *const bad[] = {
        "eps2=0.1", ".k=1", "a.=1", "a.k=", "a.k=nan", "a.k=1e999", "a=b.c", "a.k=1x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_expect(
            !tc_arg_assign("t", "--set", bad[i], target, sizeof target, param, sizeof param, &v),
            "'%s' accepted", bad[i]);
        cr_expect(!target[0] && !param[0], "'%s' left '%s' '%s'", bad[i], target, param);
    }
}

/* whole numbers (run and generate --threads, the benchmarks' lists): digits alone, in range;
 * white space before them is refused as a space always was */
Test(args, whole_numbers_are_whole_and_in_range) {
    int v = 0, out[4], n = 0;
    cr_redirect_stderr();
    cr_expect(tc_arg_int("t", "--threads", "4", 1, 1024, &v) && v == 4);
    static const char *const bad[] = {"99999999999", "4x", "", " 4", "\t4", "\n4", "0", "1025"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect(!tc_arg_int("t", "--threads", bad[i], 1, 1024, &v), "'%s' accepted", bad[i]);
    cr_expect(tc_arg_ints("t", "--bodies", "1,2,3", 1, 9, out, 4, &n) && n == 3 && out[2] == 3);
    cr_expect(!tc_arg_ints("t", "--bodies", "1,2,3,4,5", 1, 9, out, 4, &n));
    cr_expect(!tc_arg_ints("t", "--bodies", "1,\t2", 1, 9, out, 4, &n));
}
