/* SPDX-License-Identifier: MIT */
/* touche bench all: every registered method (docs/adding-a-model.md's example registered at run
 * time included) has one row per scene in bench_all.csv, runs where its capabilities fit and says
 * why not where they do not; the CSV has its header and consistent numbers; the Markdown table
 * lists the model. Timings are not checked (never time inside tests): a smoke run with a tiny
 * --seconds */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_tmp.h"
#include "cli/tc_cli.h"
#include "sim/tc_sim.h"

extern const tc_model_type tc_model_linear_spring;

static void register_model(void) {
    tc_error err;
    tc_error_clear(&err);
    if (!tc_model_find("linear-spring"))
        cr_assert_eq(tc_model_register(&tc_model_linear_spring, &err), TC_OK, "%s", err.msg);
}

TestSuite(bench_all, .init = register_model, .timeout = 300);

#define NCOL 14
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
static int run_bench(const char *o1, const char *v1, const char *o2, const char *v2, row *rows, char *dir) {
    strcpy(dir, "/tmp/touche-benchall-XXXXXX");
    cr_assert_not_null(test_tmpdir(dir));
    char *argv[] = {"all", "--seconds", "0.002", "--out", dir, (char *)o1, (char *)v1, (char *)o2, (char *)v2,
                    NULL};
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
            *c = 0, p = c + 1;
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

Test(bench_all, every_method_on_every_scene_with_its_capabilities) {
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
                cr_expect_not_null(strstr(note, "lacks"), "%s on %s: %s", all[k].spec, scene[s], note);
            } else if (!strcmp(status, "-")) {
                cr_expect_not_null(strstr(note, "cannot handle shapes"), "%s on %s: %s", all[k].spec, scene[s],
                                   note);
            } else if (!strcmp(status, "failed")) {
                cr_expect_gt(strlen(note), 5, "%s on %s fails without a reason", all[k].spec, scene[s]);
            } else {
                cr_assert_str_eq(status, "ok", "%s on %s", all[k].spec, scene[s]);
                double mean = atof(r->col[9]), best = atof(r->col[10]), mj = atof(r->col[11]);
                cr_expect_geq(atol(r->col[8]), 1);
                cr_expect(mean > 0 && best > 0 && best <= mean * (1 + 1e-6), "%s on %s: mean %g best %g",
                          all[k].spec, scene[s], mean, best);
                /* the ratio is the mean over MuJoCo's mean on the same scene */
                cr_expect_float_eq(atof(r->col[12]), mean / mj, 1e-3 * mean / mj, "%s on %s", all[k].spec,
                                   scene[s]);
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

Test(bench_all, filters_keep_the_named_methods_and_the_reference) {
    static row rows[MAXROW];
    char dir[64];
    /* one method on two scenes: its rows and MuJoCo's (the reference), nothing else */
    int n = run_bench("--scenes", "e1-spheres,e3-sphere", "--methods", "linear-spring", rows, dir);
    cr_expect_eq(n, 4);
    for (int i = 0; i < n; i++) {
        cr_expect(!strcmp(rows[i].col[0], "e1-spheres") || !strcmp(rows[i].col[0], "e3-sphere"), "%s",
                  rows[i].col[0]);
        cr_expect(!strcmp(rows[i].col[5], "linear-spring/semi-euler") || !strcmp(rows[i].col[5], "mujoco"), "%s",
                  rows[i].col[5]);
    }
}

Test(bench_all, bad_options_exit_2) {
    char *a[] = {"all", "--methods", "nope", NULL}, *b[] = {"all", "--scenes", "e9", NULL},
         *c[] = {"all", "--seconds", "-1", NULL}, *d[] = {"all", "--bogus", NULL};
    cr_expect_eq(tc_bench_all(3, a), 2);
    cr_expect_eq(tc_bench_all(3, b), 2);
    cr_expect_eq(tc_bench_all(3, c), 2);
    cr_expect_eq(tc_bench_all(2, d), 2);
}
