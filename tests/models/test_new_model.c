/* SPDX-License-Identifier: MIT */
/* a model added the documented way joins every experiment it can run, is listed as skipped with
 * the reason where it cannot, and the reference check treats its results as new, not as a
 * regression. The model is docs/adding-a-model.md's example, compiled only into the tests. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/tc_experiment.h"
#include "tc_config.h"

extern const tc_model_type tc_model_linear_spring;

/* registered at run time, unless a user has added the same example to the registry */
static void register_model(void) {
    tc_error err;
    tc_error_clear(&err);
    if (!tc_model_find("linear-spring"))
        cr_assert_eq(tc_model_register(&tc_model_linear_spring, &err), TC_OK, "%s", err.msg);
}

TestSuite(new_model, .init = register_model);

/* registering twice, or a nameless model, is refused */
Test(new_model, a_name_registers_once) {
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_model_register(&tc_model_linear_spring, &err), TC_EINVAL);
    cr_expect_not_null(strstr(err.msg, "exists already"), "%s", err.msg);
    cr_expect_not_null(tc_model_find("linear-spring"));
    tc_method m;
    cr_expect_eq(tc_method_parse(&m, "linear-spring", NULL), TC_OK);
    cr_expect_str_eq(m.spec, "linear-spring/semi-euler");
}

/* the index of the skip record of name in x, or -1 */
static int skipped(const tc_exp *x, const char *name) {
    for (int k = 0; k < tc_exp_nskip(x); k++)
        if (!strcmp(tc_exp_skip_at(x, k)->name, name)) return k;
    return -1;
}

Test(new_model, joins_every_experiment_it_can_run_and_its_results_are_new,
     .disabled = !TC_HAVE_MUJOCO) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char out[64] = "/tmp/touche-newmodel-XXXXXX";
    cr_assert_not_null(mkdtemp(out));
    tc_run_opts o = {.source_dir = src,
                     .out_root = out,
                     .tier = "quick",
                     .methods = "linear-spring",
                     .threads = 2};
    int joined = 0, absurd = 0;
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *t = tc_experiment_at(i);
        char script[1100];
        snprintf(script, sizeof script, "%s/experiments/%s", src, t->script);
        tc_exp *x = NULL;
        tc_error err;
        tc_error_clear(&err);
        cr_assert_eq(tc_exp_plan(&x, t, script, t->name, &o, &err), TC_OK, "%s: %s", t->name,
                     err.msg);
        int in = tc_exp_method_find(x, "linear-spring") >= 0, out_k = skipped(x, "linear-spring");
        /* joined, or skipped with a reason, or an experiment that runs no registered method */
        if (tc_exp_nneed(x) == 0) {
            cr_expect(!in && out_k < 0, "%s runs no registered methods", t->name);
        } else {
            cr_expect(in != (out_k >= 0), "%s: joined or skipped, one of the two", t->name);
            if (out_k >= 0)
                cr_expect(tc_exp_skip_at(x, out_k)->reason[0], "%s: a skip says why", t->name);
        }
        cr_log_info("%s: %s%s", t->name,
                    in           ? "joined"
                    : out_k >= 0 ? "skipped: "
                                 : "no methods",
                    out_k >= 0 ? tc_exp_skip_at(x, out_k)->reason : "");
        /* the example handles E1's spheres and E4's boxes, not E2's compound T */
        if (!strcmp(t->name, "e1_sphere_profiles") || !strcmp(t->name, "e4_penalty"))
            cr_expect(in, "%s should take the model", t->name);
        if (!strcmp(t->name, "e2_t_pushing"))
            cr_expect(out_k >= 0 && strstr(tc_exp_skip_at(x, out_k)->reason, "compound"), "%s",
                      t->name);
        /* run the experiments it joined (itself and any reference the experiment keeps) */
        if (in) {
            joined++;
            cr_redirect_stderr();
            cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s: %s", t->name, err.msg);
            /* an undamped explicit spring gains energy at E5's and E6's rates (10-100 Hz): those
             * runs fail as physically absurd, with the reason; elsewhere no run fails */
            int low_rate = !strcmp(t->name, "e5_polytopes") || !strcmp(t->name, "e6_stacking");
            if (!low_rate) cr_expect_eq(tc_exp_failed(x), 0, "%s: no failed runs", t->name);
            for (int r = 0; r < tc_exp_nrun(x); r++) {
                const tc_run_record *rec = tc_exp_run_record(x, r);
                if (rec->status)
                    cr_expect(low_rate && strstr(rec->reason, "physically absurd"),
                              "%s: a failed run: %s", t->name, rec->reason);
            }
            absurd += low_rate && tc_exp_failed(x) > 0;
        }
        tc_exp_free(x);
    }
    cr_expect_geq(joined, 2);
    /* the check: its metrics and digests are new, other methods are "not run"; what fails is
     * the new method's failed runs alone, each named with its first reason (recorded as known
     * only by a reviewed `touche check --update-new --accept-failed`) */
    char *text = NULL;
    size_t len = 0;
    tc_check_opts c = {.out_dir = out,
                       .ref_path = tc_experiment_reference,
                       .history = "",
                       .command = "test",
                       .verbose = 1};
    FILE *f = open_memstream(&text, &len);
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_check_run(&c, f, &err);
    fclose(f);
    cr_expect_eq(st, absurd ? TC_ECHECK : TC_OK, "%s\n%s", err.msg, text);
    cr_expect_not_null(strstr(text, "linear-spring.F_1cm"), "%s", text);
    cr_expect_not_null(strstr(text, "NEW"), "%s", text);
    cr_expect_not_null(strstr(text, "method linear-spring: "), "one line for the new method: %s",
                       text);
    cr_expect_not_null(strstr(text, "SKIP"), "the methods left out are not run, not lost: %s",
                       text);
    for (const char *p = text; (p = strstr(p, "\n  FAIL     ")); p++)
        cr_expect(!strncmp(p + 1, "  FAIL     e5_polytopes  runs of linear-spring: ", 48) ||
                      !strncmp(p + 1, "  FAIL     e6_stacking  runs of linear-spring: ", 47),
                  "only the new method's failed runs fail: %.200s", p + 1);
    free(text);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", out);
    cr_expect_eq(system(cmd), 0);
}
