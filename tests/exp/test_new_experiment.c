/* SPDX-License-Identifier: MIT */
/* an experiment added the documented way: docs/adding-an-experiment.md's driver and script,
 * compiled as written, registered at run time, planned and run with every method that can */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/tc_experiment.h"
#include "tc_config.h"

extern const tc_experiment_type tc_experiment_e99;

Test(new_experiment, the_documented_example_runs_with_every_method_it_can,
     .disabled = !TC_HAVE_MUJOCO) {
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_experiment_register(&tc_experiment_e99, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_experiment_find("e99"), &tc_experiment_e99, "found by its prefix");
    char out[64] = "/tmp/touche-e99-XXXXXX";
    cr_assert_not_null(mkdtemp(out));
    tc_run_opts o = {
        .source_dir = getenv("TOUCHE_SOURCE_DIR"), .out_root = out, .tier = "quick", .threads = 2};
    tc_exp *x = NULL;
    /* the script extracted from the documentation sits beside the test (build/tests) */
    cr_assert_eq(
        tc_exp_plan(&x, &tc_experiment_e99, "e99_ball_drop.cfg", "e99_ball_drop", &o, &err), TC_OK,
        "%s", err.msg);
    cr_expect_geq(tc_exp_nmethod(x), 4, "mujoco and the registered dynamic models on a ball");
    cr_expect_eq(tc_exp_entry_at(x, 0)->line > 0, 1, "the script's method first");
    cr_redirect_stderr();
    cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_exp_failed(x), 0);
    /* every method's rebound is a height below the drop (no energy gained) */
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        char name[96];
        snprintf(name, sizeof name, "%s.rebound", tc_exp_label(x, k));
        int i = tc_metrics_find(tc_exp_metrics(x), name);
        cr_assert_geq(i, 0, "%s", name);
        cr_expect(tc_exp_metrics(x)->m[i].value >= 0 && tc_exp_metrics(x)->m[i].value < 0.3,
                  "%s: %g", name, tc_exp_metrics(x)->m[i].value);
        /* the shared loop tracked its physical residuals (docs/residuals.md): penetration for
         * every method, the contact ones for a method that reports impulses (MuJoCo's hook) */
        snprintf(name, sizeof name, "residuals.%s.penetration_max", tc_exp_label(x, k));
        cr_expect_geq(tc_metrics_find(tc_exp_metrics(x), name), 0, "%s", name);
        if (!strcmp(tc_exp_entry_at(x, k)->m.spec, "mujoco")) {
            snprintf(name, sizeof name, "residuals.%s.ncp_mean", tc_exp_label(x, k));
            cr_expect_geq(tc_metrics_find(tc_exp_metrics(x), name), 0, "%s", name);
        }
    }
    tc_exp_free(x);
    /* its outputs and its section in the report */
    char path[256];
    snprintf(path, sizeof path, "%s/e99_ball_drop/rebound.md", out);
    cr_expect_eq(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/e99_ball_drop/residuals.md", out);
    cr_expect_eq(access(path, R_OK), 0, "the section's residual table");
    snprintf(path, sizeof path, "%s/e99_ball_drop/runs.csv", out);
    FILE *rf = fopen(path, "r");
    cr_assert_not_null(rf);
    char head[1024] = "";
    cr_assert_not_null(fgets(head, sizeof head, rf));
    fclose(rf);
    cr_expect_not_null(strstr(head, ",resid_steps,resid_contacts,penetration_max,"), "%s", head);
    cr_expect_eq(tc_exp_report(out, &err), TC_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/report.md", out);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    cr_expect_not_null(strstr(text, "## Ball drop (E99)"), "%s", text);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", out);
    cr_expect_eq(system(cmd), 0);
}
