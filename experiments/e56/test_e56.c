/* SPDX-License-Identifier: MIT */
/* E5 and E6: bad scripts refused with file, line and setting; the drops' initial conditions from
 * their seeds; the stacks at rest and touching; a tiny grid the same for 1 and 2 threads */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_scratch.h"
#include "test_tmp.h"
#include "experiments/e5/e5.h"
#include "experiments/e6/e6.h"

static const char *src(void) {
    return getenv("TOUCHE_SOURCE_DIR");
}

/* a built-in script's text */
static char *script_text(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/%s", src(), name);
    return text_of(path);
}

/* E5's setup from the script at path, quick tier */
static tc_status read5(const char *path, e5_setup *e, tc_error *err) {
    tc_script *s = NULL;
    tc_error_clear(err);
    tc_status st = tc_script_load(&s, path, "quick", err);
    if (st) return st;
    st = e5_read_setup(s, e, err);
    tc_script_free(s);
    return st;
}

static tc_status read6(const char *path, e6_setup *e, tc_error *err) {
    tc_script *s = NULL;
    tc_error_clear(err);
    tc_status st = tc_script_load(&s, path, "quick", err);
    if (st) return st;
    st = e6_read_setup(s, e, err);
    tc_script_free(s);
    return st;
}

Test(e56, bad_scripts_name_file_line_and_setting) {
    char dir[] = "/tmp/touche-e56-XXXXXX", path[128];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/bad.cfg", dir);
    char *t5 = script_text("e5/e5_polytopes.cfg"), *t6 = script_text("e6/e6_stacking.cfg");
    /* the error's line: the edited setting's, or A's for a polygon refused as a whole */
    const struct {
        const char *text, *from, *to, *param, *why;
        int e6;
        const char *at;
    } cases[] = {
        /* an empty interior: x <= 0.25 and x >= 0.3 */
        {t6, "b = [0.25, 0.25, 0.25, 0.25];", "b = [0.25, 0.25, -0.3, 0.25];", "block.A", "empty",
         1, "A = [1.0, 0.0"},
        /* unbounded: no row bounds -x */
        {t6, "A = [1.0, 0.0,  0.0, 1.0,  -1.0, 0.0,  0.0, -1.0];",
         "A = [1.0, 0.0,  0.0, 1.0,  1.0, 1.0,  0.0, -1.0];", "block.A", "unbounded", 1, NULL},
        /* a row too many, and a row that is no edge (redundant: b = 5 cuts nothing) */
        {t5, "A = [1.0, 0.2,  0.0, 1.0,  -1.0, -0.3,  0.0, -1.0,  0.8, -0.8];",
         "A = [1.0, 0.2,  0.0, 1.0,  -1.0, -0.3,  0.0, -1.0,  0.8, -0.8,  1.0, 1.0];\n"
         "  # a row too many for b",
         "polygon.A", "2 numbers per row", 0, NULL},
        {t5, "b = [0.4, 0.4, 0.4, 0.4, 0.4];", "b = [0.4, 0.4, 0.4, 0.4, 5.0];", "polygon.A",
         "no edge", 0, "A = [1.0, 0.2"},
        {t5, "tolerances = [1e-3, 1e-10];", "tolerances = [1e-3, 0.0];", "tolerances", "> 0", 0,
         NULL},
        {t5, "rates = [10.0, 30.0, 100.0];", "rates = [10.0, -30.0, 100.0];", "rates", "> 0", 0,
         NULL},
        {t6, "rates = [10.0];", "rates = [0.0];", "rates", "> 0", 1, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_edited(cases[i].text, cases[i].from, cases[i].to, path);
        tc_error err;
        e5_setup e5;
        e6_setup e6;
        tc_status st = cases[i].e6 ? read6(path, &e6, &err) : read5(path, &e5, &err);
        cr_expect_eq(st, TC_EINVAL, "case %zu: %s", i, err.msg);
        cr_expect_str_eq(err.file, path, "case %zu", i);
        cr_expect_str_eq(err.param, cases[i].param, "case %zu: %s", i, err.msg);
        cr_expect(strstr(err.msg, cases[i].why) != NULL, "case %zu: %s", i, err.msg);
        /* the line of the edited setting (the tier's, for rates and tolerances) */
        FILE *f = fopen(path, "r");
        char *text = calloc(1, 1 << 16);
        text[fread(text, 1, (1 << 16) - 1, f)] = 0;
        fclose(f);
        cr_expect_eq(err.line, line_of(text, cases[i].at ? cases[i].at : cases[i].to),
                     "case %zu: line %d", i, err.line);
        free(text);
    }
    unlink(path);
    rmdir(dir);
    free(t5);
    free(t6);
}

Test(e56, drops_from_their_seeds_start_above_the_ground) {
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/e5/e5_polytopes.cfg", src());
    e5_setup e;
    tc_error err;
    cr_assert_eq(read5(path, &e, &err), TC_OK, "%s", err.msg);
    tc_scene *sc = malloc(sizeof *sc);
    for (int d = 0; d < 20; d++) {
        double a[6], b[6], c[6];
        e5_initial(&e, d, a);
        e5_initial(&e, d, b);
        e5_initial(&e, d + 1, c);
        cr_expect_eq(memcmp(a, b, sizeof a), 0, "drop %d: the same draws from its seed", d);
        cr_expect_neq(memcmp(a, c, sizeof a), 0, "drops %d and %d differ", d, d + 1);
        for (int k = 0; k < 6; k++)
            cr_expect(a[k] >= e.lo[k] && a[k] <= e.hi[k], "drop %d ic %d", d, k);
        /* the polygon clear of the ground, A's origin where the draw put it */
        cr_assert_eq(e5_scene(&e, d, sc, &err), TC_OK, "%s", err.msg);
        tc_method m;
        tc_sim *sim = NULL;
        cr_assert_eq(tc_method_parse(&m, "rigid", NULL), TC_OK);
        cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.01, NULL), TC_OK);
        double y[2];
        e56_lowest_two(sim, 1, y);
        cr_expect_gt(y[0], 0, "drop %d starts above the ground (lowest vertex %g)", d, y[0]);
        const double *p = tc_sim_bodies(sim)[1].pos, th = a[2];
        double ox = p[0] - (cos(th) * e.poly.c[0] - sin(th) * e.poly.c[1]);
        double oy = p[1] - (sin(th) * e.poly.c[0] + cos(th) * e.poly.c[1]);
        cr_expect(fabs(ox - a[0]) < 1e-12 && fabs(oy - a[1]) < 1e-12, "drop %d: A's origin", d);
        tc_sim_free(sim);
    }
    free(sc);
}

Test(e56, stacks_touch_at_rest) {
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/e6/e6_stacking.cfg", src());
    e6_setup e;
    tc_error err;
    cr_assert_eq(read6(path, &e, &err), TC_OK, "%s", err.msg);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e6_stack_scene(&e, 4, 0.06, sc, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(sc->nbody, 5);
    cr_expect(fabs(sc->body[1].pos[0] - 0.06) < 1e-15 && fabs(sc->body[1].pos[1] - 0.25) < 1e-15);
    for (int i = 2; i <= 4; i++)
        cr_expect(fabs(sc->body[i].pos[0]) < 1e-15 &&
                      fabs(sc->body[i].pos[1] - (0.5 * i - 0.25)) < 1e-12,
                  "block %d at (%g, %g)", i, sc->body[i].pos[0], sc->body[i].pos[1]);
    free(sc);
}

/* E5 on a tiny grid, the LCP's `tol` swept as a tolerance method, on `threads` threads; the
 * text of drops.csv */
static char *tiny_run(int threads) {
    char dir[] = "/tmp/touche-e56-XXXXXX", path[128], out[128];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/e5.cfg", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(
        "driver = \"e5_polytopes\";\n"
        "polygon = { A = [1.0, 0.2, 0.0, 1.0, -1.0, -0.3, 0.0, -1.0, 0.8, -0.8];\n"
        "            b = [0.4, 0.4, 0.4, 0.4, 0.4]; mass = 1.0; inertia = 0.2; };\n"
        "scene = { gravity = 9.81; friction = 0.2; thickness = 0.05; };\n"
        "seconds = 0.5; rates = [20.0, 50.0]; tolerances = [1e-3, 1e-8];\n"
        "tolerance_methods = [\"rigid\"];\n"
        "drops = { count = 5; seed = 3; y_lo = 0.75; y_hi = 1.5; theta_lo = 0.0; theta_hi = 6.28;\n"
        "          vx_lo = -1.0; vx_hi = 1.0; vy_lo = -2.0; vy_hi = 0.0; omega_lo = -1.0; omega_hi "
        "= 1.0; };\n"
        "rest = { speed = 0.05; spin = 0.05; level = 0.005; };\n"
        "methods = ( { label = \"rigid\"; method = \"rigid\"; } );\n",
        f);
    fclose(f);
    tc_run_opts o = {.source_dir = src(),
                     .out_root = out,
                     .tier = "quick",
                     .methods = "rigid,mujoco",
                     .threads = threads};
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_exp_plan(&x, tc_experiment_find("e5"), path, "e5", &o, &err), TC_OK, "%s",
                 err.msg);
    cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_exp_failed(x), 0);
    tc_exp_free(x);
    char csv[256];
    snprintf(csv, sizeof csv, "%s/e5/drops.csv", out);
    f = fopen(csv, "r");
    cr_assert_not_null(f, "%s", csv);
    char *res = calloc(1, 1 << 20);
    res[fread(res, 1, (1 << 20) - 1, f)] = 0;
    fclose(f);
    return res;
}

Test(e56, a_tiny_grid_is_the_same_for_one_and_two_threads) {
    char *a = tiny_run(1), *b = tiny_run(2);
    cr_expect_str_eq(a, b, "drops.csv differs between 1 and 2 threads");
    /* the LCP swept its tolerance: 2 rates x 2 tolerances x 5 drops, MuJoCo 2 rates x 5 */
    int rigid = 0, mujoco = 0;
    for (char *p = a; (p = strchr(p, '\n')) != NULL;) {
        p++;
        rigid += !strncmp(p, "rigid,", 6);
        mujoco += !strncmp(p, "mujoco,", 7);
    }
    cr_expect_eq(rigid, 20, "rigid rows %d", rigid);
    cr_expect_eq(mujoco, 10, "mujoco rows %d", mujoco);
    cr_expect(strstr(a, "rigid,20,1e-08,") != NULL, "a cell at 20 Hz, tol 1e-8");
    free(a);
    free(b);
}

/* velocity projection on every stack of E6's full tier: a planar body's contact whose normal
 * leaves the plane has a zero diagonal, on which Siconos' local solver aborted the whole run
 * (`compute_rho_split_spectral_norm` asserts it positive); vp drops such contacts, and the run
 * finishes with no experiment failure */
Test(e56, velocity_projection_runs_every_full_tier_stack, .timeout = 300) {
    char dir[] = "/tmp/touche-e56-XXXXXX", path[1200], out[128];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(path, sizeof path, "%s/experiments/e6/e6_stacking.cfg", src());
    tc_run_opts o = {
        .source_dir = src(), .out_root = out, .tier = "full", .methods = "points", .threads = 2};
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_exp_plan(&x, tc_experiment_find("e6"), path, "e6", &o, &err), TC_OK, "%s",
                 err.msg);
    cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s", err.msg);
    tc_exp_free(x);
}

/* ---------- the authors' stored results (data/silico/) ---------- */

#include "experiments/e56/e56_silico.h"

/* the authors' grid of one quantity from the source tree's copy */
static e56_silico_grid silico(const char *study, const char *quantity, const char *method) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/data/silico", src());
    e56_silico_grid g;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(e56_silico_load(dir, study, quantity, method, &g, &err), TC_OK, "%s", err.msg);
    return g;
}

Test(e56, the_authors_grids_are_read_with_their_values_in_place) {
    /* every file of the copy passes the reader, each value where the authors' figure has it */
    static const char *const perf[] = {"failure_rate", "violation_rate", "iterations",
                                       "error_rate"};
    static const char *const mom[] = {"linear_momentum", "angular_momentum", "error_rate"};
    static const char *const meth[] = {"single_level", "bilevel"};
    for (int m = 0; m < 2; m++) {
        for (int q = 0; q < 4; q++)
            silico("performance", perf[q], meth[m]);
        for (int q = 0; q < 3; q++)
            silico("momentum", mom[q], meth[m]);
    }
    /* corners of fig. 9 and 10: the bilevel fails 90 % of the drops at 10 Hz and 1e-3, half at
     * 100 Hz and 1e-10; the single-level only at 10 Hz and 1e-3, once in 100 */
    e56_silico_grid f = silico("performance", "failure_rate", "bilevel");
    cr_expect_eq(f.v[0][0], 0.9);
    cr_expect_eq(f.v[5][5], 0.5);
    cr_expect_eq(f.v[2][1], 0.7, "30 Hz, 1e-4: %g", f.v[2][1]);
    e56_silico_grid s = silico("performance", "failure_rate", "single_level");
    double sum = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            sum += s.v[i][j];
    cr_expect_eq(s.v[0][0], 0.01);
    cr_expect_eq(sum, 0.01, "one failure in 3600 drops: %g", sum);
    e56_silico_grid l = silico("momentum", "linear_momentum", "bilevel");
    cr_expect_eq(l.v[0][0], 0.21847827239775047);
    cr_expect_eq(l.v[5][0], 0.0390398638386251, "100 Hz, 1e-3");
    cr_expect_eq(e56_silico_rate_index(70), 4);
    cr_expect_eq(e56_silico_tol_index(1e-8), 4);
    cr_expect_eq(e56_silico_rate_index(40), -1);
}

/* the copy of the authors' file with line `line` (1-based) replaced by `with` (NULL: dropped),
 * or a line appended when line is 0, read as method; the error */
static tc_error broken(const char *file, int offset, int line, const char *with, const char *path) {
    char in[1024];
    snprintf(in, sizeof in, "%s/data/silico/%s", src(), file);
    FILE *f = fopen(in, "r"), *o = fopen(path, "w");
    cr_assert(f && o);
    char buf[512];
    for (int n = 1; fgets(buf, sizeof buf, f); n++) {
        if (n != line)
            fputs(buf, o);
        else if (with)
            fputs(with, o);
    }
    if (!line) fputs(with, o);
    fclose(f);
    fclose(o);
    e56_silico_grid g;
    tc_error err;
    tc_error_clear(&err);
    cr_expect_neq(e56_silico_read(path, offset, &g, &err), TC_OK, "%s line %d: accepted", file,
                  line);
    return err;
}

Test(e56, broken_copies_of_the_authors_grids_are_refused_naming_file_line_and_field) {
    char dir[] = "/tmp/touche-silico-XXXXXX", path[128];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/copy.dat", dir);
    const char *fb = "performance_data__failure_rate_bilevel.dat";
    const char *fs = "momentum_data__linear_momentum_single_level.dat";
    /* its first lines: 6.5 -0.5 0.9 / 6.5 0.5 0.9 / 7.5 0.5 0.9 / 7.5 -0.5 0.9, then 6.5 0.5 0.87
     */
    const struct {
        const char *file;
        int offset, line;
        const char *with, *field;
        int at;
        const char *why;
    } cases[] = {
        {fb, 7, 2, "6.5  0.5\n", "value", 2, "missing"},
        {fb, 7, 2, "6.5  zero  0.9\n", "y", 2, "missing"},
        {fb, 7, 3, "7.5  0.5  0.9 extra\n", "value", 3, "text after"},
        {fb, 7, 3, "7.5  0.5  nan\n", "value", 3, "missing"},
        {fb, 7, 3, "7.0  0.5  0.9\n", "x", 3, "corner 3"},
        {fb, 7, 4, "7.5  0.5  0.9\n", "y", 4, "corner 4"},
        {fb, 7, 4, "7.5  -0.5  0.8\n", "value", 4, "its first corner"},
        {fb, 7, 5, "6.5  -0.5  0.87\n", "cell", 5, "again"},
        {fb, 7, 5, "13.5  0.5  0.87\n", "x", 5, "rate index"},
        {fb, 7, 5, "6.5  5.5  0.87\n", "y", 5, "tolerance index"},
        {fb, 7, 5, "6.7  0.5  0.87\n", "x", 5, "rate index"},
        {fb, 7, 144, NULL, "cell", 143, "3 of its 4"},
        /* the last cell gone: 35 of 36 */
        {fs, 0, 0, "", "cell", 145, "35 of 36"},
        /* a single-level file read as a bilevel one: its x is 7 short */
        {fs, 7, 1, "-0.5  -0.5  0.0009097826249343888\n", "x", 1, "rate index"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tc_error err;
        if (cases[i].line == 0) {
            /* drop the last four lines: write the first 140 */
            char in[1024], buf[512];
            snprintf(in, sizeof in, "%s/data/silico/%s", src(), cases[i].file);
            FILE *f = fopen(in, "r"), *o = fopen(path, "w");
            for (int n = 1; fgets(buf, sizeof buf, f); n++)
                if (n <= 140) fputs(buf, o);
            fclose(f);
            fclose(o);
            e56_silico_grid g;
            tc_error_clear(&err);
            cr_expect_eq(e56_silico_read(path, cases[i].offset, &g, &err), TC_EPARSE);
            cr_expect_eq(err.line, 141, "case %zu: line %d", i, err.line);
        } else {
            err = broken(cases[i].file, cases[i].offset, cases[i].line, cases[i].with, path);
            cr_expect_eq(err.line, cases[i].at, "case %zu: line %d (%s)", i, err.line, err.msg);
        }
        cr_expect_str_eq(err.file, path, "case %zu", i);
        cr_expect_str_eq(err.param, cases[i].field, "case %zu: %s (%s)", i, err.param, err.msg);
        cr_expect(strstr(err.msg, cases[i].why) != NULL, "case %zu: %s", i, err.msg);
    }
    /* unreadable */
    e56_silico_grid g;
    tc_error err;
    tc_error_clear(&err);
    snprintf(path, sizeof path, "%s/none.dat", dir);
    cr_expect_eq(e56_silico_read(path, 0, &g, &err), TC_EIO);
    cr_expect_str_eq(err.file, path);
    snprintf(path, sizeof path, "%s/copy.dat", dir);
    unlink(path);
    rmdir(dir);
}

/* E5's and E6's scripts with `from` replaced by `to`, planned: each refused with TC_EINVAL at the
 * line of `from`, naming param, the message holding `says` */
static void expect_plan_refused(const char *from, const char *to, const char *param,
                                const char *says) {
    const char *name[2] = {"e5/e5_polytopes.cfg", "e6/e6_stacking.cfg"}, *type[2] = {"e5", "e6"};
    for (int k = 0; k < 2; k++) {
        char *text = script_text(name[k]);
        char path[256];
        snprintf(path, sizeof path, "/tmp/touche-e56-plan-%ld.cfg", (long)getpid());
        write_edited(text, from, to, path);
        tc_run_opts o = {.source_dir = src(), .out_root = "never", .tier = "quick", .threads = 1};
        tc_exp *x = NULL;
        tc_error err;
        tc_error_clear(&err);
        cr_expect_eq(tc_exp_plan(&x, tc_experiment_find(type[k]), path, "plan_test", &o, &err),
                     TC_EINVAL, "%s", name[k]);
        cr_expect_str_eq(err.param, param, "%s: %s", name[k], err.msg);
        cr_expect_eq(err.line, line_of(text, from), "%s: %s", name[k], err.msg);
        cr_expect(strstr(err.msg, says), "%s", err.msg);
        tc_exp_free(x);
        unlink(path);
        free(text);
    }
}

/* the authors' files are read when the run is planned: a wrong folder stops E5 and E6 before
 * their sweeps, naming the script's line (issue 33, finding 14: it failed after the whole sweep,
 * exit 1) */
Test(e56, a_wrong_authors_folder_is_a_planning_error) {
    expect_plan_refused("dir = \"data/silico\";", "dir = \"data/nope\";", "silico.dir",
                        "lacks the authors' file");
}

/* a tolerance sweep over a method without `tol` is refused when the run is planned (the
 * driver's check, once the methods are known), naming the line: it failed when the sweep was
 * declared, exit 1 and the report rewritten (issue 33, finding 14) */
Test(e56, a_tolerance_method_without_tol_is_a_planning_error) {
    expect_plan_refused("tolerance_methods = [", "tolerance_methods = [\"mujoco\", ",
                        "tolerance_methods", "'mujoco' (mujoco) has no parameter tol");
}

/* a tolerance the swept solver refuses is refused when the run is planned too, naming the
 * tier's tolerances: the sweep sets every tolerance as the check does (it ran with the solver's
 * own tolerance, labelled with the refused one) */
Test(e56, a_tolerance_the_solver_refuses_is_a_planning_error) {
    expect_plan_refused("    tolerances = [1e-3, ", "    tolerances = [1e-3, 2.0, ", "tolerances",
                        "cannot take tol = 2");
}

Test(e56, the_per_cell_comparison_gives_mean_worst_and_correlation) {
    const double ours[4] = {0.1, 0.5, 0.9, 0.4}, theirs[4] = {0.2, 0.5, 0.6, 0.4};
    const int ri[4] = {0, 1, 2, 3}, ti[4] = {5, 4, 3, 2};
    e56_silico_cmp c = e56_silico_compare(4, ours, theirs, ri, ti, 0, 0);
    cr_expect_eq(c.n, 4);
    cr_expect_float_eq(c.mean_abs, 0.1, 1e-15);
    cr_expect_float_eq(c.worst_abs, 0.3, 1e-15);
    cr_expect(c.worst_rate == 2 && c.worst_tol == 3 && c.worst_ours == 0.9 &&
              c.worst_theirs == 0.6);
    /* Pearson's r by hand: centred sums 0.1625 / sqrt(0.3275 * 0.0875) */
    cr_expect_float_eq(c.corr, 0.1625 / sqrt(0.3275 * 0.0875), 1e-12, "r = %.15g", c.corr);
    /* in decades, with a floor under zeros; the copied reference agrees exactly */
    const double a[3] = {1e-3, 1e-6, 0}, b[3] = {1e-2, 1e-6, 1e-12};
    c = e56_silico_compare(3, a, b, ri, ti, 1, 1e-12);
    cr_expect_float_eq(c.mean_abs, 1.0 / 3, 1e-12);
    c = e56_silico_compare(3, b, b, ri, ti, 1, 1e-12);
    cr_expect(c.mean_abs == 0 && c.worst_abs == 0 && fabs(c.corr - 1) < 1e-12);
    /* under 3 cells, or a side without variance: no correlation */
    c = e56_silico_compare(2, ours, theirs, ri, ti, 0, 0);
    cr_expect(isnan(c.corr));
    const double zero[4] = {0, 0, 0, 0};
    c = e56_silico_compare(4, zero, theirs, ri, ti, 0, 0);
    cr_expect(isnan(c.corr) && c.n == 4);
}

Test(e56, the_ground_violation_is_the_closed_form_beside_the_geometry) {
    /* drop 3 of E5, its polygon lowered into the ground by 5 cm: the closed form's penetration is
     * libccd's depth, and the pseudo distance is that depth over the height of A's origin above
     * the lowest vertex (alpha = y_o / (y_o - y_low)) */
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/e5/e5_polytopes.cfg", src());
    e5_setup e;
    tc_error err;
    cr_assert_eq(read5(path, &e, &err), TC_OK, "%s", err.msg);
    e56_study st = e5_study(&e);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e5_scene(&e, 3, sc, &err), TC_OK, "%s", err.msg);
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "rigid", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.01, NULL), TC_OK);
    double y[2], pen, psdf, ic[6];
    e56_lowest_two(sim, 1, y);
    tc_sim_q(sim)[tc_sim_system(sim)->qadr[1] + 1] -= y[0] + 0.05;
    e56_ground_violation(&st, sim, &pen, &psdf);
    cr_expect_float_eq(pen, 0.05, 1e-12, "closed form %g", pen);
    cr_expect_float_eq(tc_sim_penetration(sim, NULL), 0.05, 1e-9, "libccd %g",
                       tc_sim_penetration(sim, NULL));
    /* A's origin: where the drop's draw put it, lowered with the body */
    e5_initial(&e, 3, ic);
    const double oy = ic[1] - (y[0] + 0.05), th = ic[2];
    double low = INFINITY;
    for (int k = 0; k < e.poly.nv; k++)
        low = fmin(low, oy + sin(th) * e.poly.v[k][0] + cos(th) * e.poly.v[k][1]);
    cr_expect_float_eq(low, -0.05, 1e-12);
    cr_expect_float_eq(psdf, 0.05 / (oy - low), 1e-12, "psdf %g, closed form %g", psdf,
                       0.05 / (oy - low));
    /* above the ground: no violation */
    tc_sim_q(sim)[tc_sim_system(sim)->qadr[1] + 1] += 0.1;
    e56_ground_violation(&st, sim, &pen, &psdf);
    cr_expect(pen == 0 && psdf == 0);
    tc_sim_free(sim);
    free(sc);
}
