/* SPDX-License-Identifier: MIT */
/* shared by the report layer's tests of the check and of metrics files: a metrics file of one
 * method with parameters, settings, timings and failed runs (tests/test_scratch.h for the rest) */
#ifndef TC_REPORT_FIXTURES_H
#define TC_REPORT_FIXTURES_H

#include <criterion/criterion.h>

#include "report/tc_metrics.h"
#include "test_scratch.h"

/* out/e1/metrics.cfg (or ref/e1.quick.cfg): method m with accuracy metric m.acc, timings m.step_s
 * (a larger value is slower) and m.speedup (a larger value is faster), a digest, the parameters
 * params, the setting scene.dt = dt, and runs with `failed` of them failed */
static inline void write_m(const char *where, double acc, double step_s, double speedup,
                           const char *params, const char *dt, int failed) {
    tc_metrics ms;
    tc_metrics_init(&ms, "e1", "quick");
    tc_metrics_ran(&ms, "m", NULL, NULL);
    tc_metrics_method_info(&ms, "m", "model/rk4", params, 3, failed,
                           failed ? "diverged: body 'block' at 2e+07 m/s" : "");
    tc_metrics_setting_add(&ms, "scene.dt", dt);
    tc_metrics_add(&ms, "m", "m.acc", acc, "m", 0, 0.01, 0, "an accuracy metric");
    tc_metrics_add(&ms, "m", "m.step_s", step_s, "s", 0, 0.9, TC_METRIC_TIMING, "a step time");
    tc_metrics_add(&ms, "m", "m.speedup", speedup, "1", 0, 0.9,
                   TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER, "a speed-up");
    tc_metrics_set_hash(
        &ms, "m", acc == 1.0 ? "fnv1a64:0000000000000001" : "fnv1a64:0000000000000002", NULL, NULL);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_metrics_write(&ms, in_scratch(where), &err), TC_OK, "%s", err.msg);
    tc_metrics_free(&ms);
}

#endif
