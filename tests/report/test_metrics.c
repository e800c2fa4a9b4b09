/* SPDX-License-Identifier: MIT */
/* metrics files (src/report/metrics.c): written and read back bit for bit, a hand edit, methods,
 * digests, parameters, runs and settings, a malformed file named by its line */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_metrics.h"
#include "report_fixtures.h"

Test(metrics, write_read_round_trips_bitwise) {
    make_scratch();
    const double v[] = {0.1,
                        1e-300,
                        1.0 / 3.0,
                        -0.0,
                        5e-324,
                        DBL_MAX,
                        -DBL_MIN,
                        123456789.123456789,
                        2.0 / 3.0 * 1e-7,
                        0.0};
    const int nv = (int)(sizeof v / sizeof v[0]);
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    for (int i = 0; i < nv; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d.value", i);
        tc_metrics_add(&ms, NULL, name, v[i], "N", fabs(v[nv - 1 - i]), 1.0 / 7.0, 0,
                       "doc with \"quotes\"");
    }
    tc_metrics_add(&ms, NULL, "not.a.number", NAN, "1", 0, 0, 0, "");
    tc_metrics_add(&ms, NULL, "infinite", -INFINITY, "1", 0, 0, 0, "");

    tc_error err;
    tc_error_clear(&err);
    const char *path = in_scratch("metrics.cfg");
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_metrics_read(&back, path, &err), TC_OK, "%s:%d: %s", err.file, err.line,
                 err.msg);

    cr_assert_str_eq(back.experiment, "e0_test");
    cr_assert_str_eq(back.tier, "quick");
    cr_assert_eq(back.n, nv + 2);
    for (int i = 0; i < nv; i++) {
        cr_assert_str_eq(back.m[i].name, ms.m[i].name);
        cr_assert_str_eq(back.m[i].unit, "N");
        cr_assert_str_eq(back.m[i].doc, "doc with \"quotes\"");
        cr_assert_eq(memcmp(&back.m[i].value, &v[i], sizeof(double)), 0, "value %d: %.17g != %.17g",
                     i, back.m[i].value, v[i]);
        double t = fabs(v[nv - 1 - i]);
        cr_assert_eq(memcmp(&back.m[i].tol_abs, &t, sizeof(double)), 0);
        cr_assert_eq(back.m[i].tol_rel, 1.0 / 7.0);
    }
    cr_assert(isnan(back.m[nv].value));
    cr_assert(isinf(back.m[nv + 1].value) && back.m[nv + 1].value < 0);
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, hand_edited_float_wins_over_stale_exact_text) {
    make_scratch();
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    tc_metrics_add(&ms, NULL, "third", 1.0 / 3.0, "1", 0, 0.01, 0, "");
    tc_error err;
    tc_error_clear(&err);
    const char *path = in_scratch("ref.cfg");
    cr_assert_eq(tc_metrics_write(&ms, path, &err), TC_OK, "%s", err.msg);

    /* replace the 15-digit float as a reviewer would; value_exact is left stale */
    char *s = slurp(path), *p = strstr(s, "0.333333333333333;");
    cr_assert_not_null(p, "%s", s);
    memcpy(p, "0.250000000000000;", 18);
    put_file(path, s);
    free(s);
    cr_assert_eq(tc_metrics_read(&back, path, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(back.m[0].value, 0.25);
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, many_metrics_methods_and_digests_round_trip) {
    make_scratch();
    tc_metrics ms, back;
    tc_metrics_init(&ms, "e0_test", "quick");
    ms.filtered = 1;
    tc_metrics_ran(&ms, "scm-a", NULL, NULL);
    tc_metrics_ran(&ms, "lcp", "OpenBLAS kernels per CPU", "OpenBLAS Zen");
    for (int i = 0; i < 1000; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%d", i);
        tc_metrics_add(&ms, i % 2 ? "scm-a" : NULL, name, i, "1", 0, 0,
                       i % 3 ? 0 : TC_METRIC_TIMING, "");
    }
    tc_metrics_set_hash(&ms, "scm-a", "fnv1a64:0123456789abcdef", NULL, NULL);
    tc_metrics_set_hash(&ms, "lcp", "fnv1a64:fedcba9876543210", "OpenBLAS kernels per CPU",
                        "OpenBLAS Zen");
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_metrics_read(&back, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_eq(back.n, 1000);
    cr_assert(back.filtered);
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(back.m[i].value, i);
        cr_assert_str_eq(back.m[i].method, i % 2 ? "scm-a" : "");
        cr_assert_eq(back.m[i].flags, i % 3 ? 0u : (unsigned)TC_METRIC_TIMING);
    }
    cr_assert_eq(back.nmethod, 2);
    cr_assert_str_eq(back.methods[1].label, "lcp");
    cr_assert_str_eq(back.methods[1].cpu, "OpenBLAS kernels per CPU");
    cr_assert_eq(back.nhash, 2);
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "lcp")].hash,
                     "fnv1a64:fedcba9876543210");
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "scm-a")].cpu, "");
    cr_assert_str_eq(back.hash[tc_metrics_find_hash(&back, "lcp")].cpu_kind, "OpenBLAS Zen");
    cr_assert_str_eq(back.methods[1].cpu_kind, "OpenBLAS Zen");
    tc_metrics_free(&ms);
    tc_metrics_free(&back);
}

Test(metrics, malformed_file_reports_line) {
    make_scratch();
    const char *path = in_scratch("bad.cfg");
    put_file(
        path,
        "experiment = \"e\";\ntier = \"quick\";\nmetrics = ( { name = \"a\"; value = ; } );\n");
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, path, &err), TC_EPARSE);
    cr_assert_eq(err.line, 3);
    cr_assert_str_eq(err.file, path);
}

Test(metrics, parameters_runs_and_settings_round_trip) {
    make_scratch();
    write_m("m.cfg", 1.0, 0.01, 5.0, "k=100000 n=1.5", "0.001", 1);
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("m.cfg"), &err), TC_OK, "%s", err.msg);
    cr_assert_str_eq(ms.methods[0].spec, "model/rk4");
    cr_assert_str_eq(ms.methods[0].params, "k=100000 n=1.5");
    cr_assert_eq(ms.methods[0].runs, 3);
    cr_assert_eq(ms.methods[0].failed, 1);
    cr_assert(strstr(ms.methods[0].failed_reason, "diverged"));
    cr_assert_eq(ms.nsetting, 1);
    cr_assert_str_eq(ms.setting[0].key, "scene.dt");
    cr_assert_str_eq(ms.setting[0].value, "0.001");
    cr_assert_eq(ms.m[tc_metrics_find(&ms, "m.speedup")].flags,
                 TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER);
    cr_assert_eq(ms.m[tc_metrics_find(&ms, "m.step_s")].flags, TC_METRIC_TIMING);
    tc_metrics_free(&ms);
    /* more failed runs than runs is an error naming the line */
    char *txt = slurp(in_scratch("m.cfg"));
    char *p = strstr(txt, "failed = 1;");
    cr_assert_not_null(p, "%s", txt);
    memcpy(p, "failed = 9;", 11);
    put_file(in_scratch("bad.cfg"), txt);
    free(txt);
    cr_assert_eq(tc_metrics_read(&ms, in_scratch("bad.cfg"), &err), TC_EPARSE);
    cr_assert(err.line > 0 && strstr(err.msg, "failed"), "%s", err.msg);
    tc_metrics_free(&ms);
}
