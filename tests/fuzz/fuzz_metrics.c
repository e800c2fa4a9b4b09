/* SPDX-License-Identifier: MIT */
/* libFuzzer: a metrics file, a run's or a reference (tc_metrics_read), freed even on error */
#include "report/tc_metrics.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tc_metrics ms;
    tc_error err;
    tc_error_clear(&err);
    tc_metrics_read(&ms, fuzz_input_file(data, size), &err);
    tc_metrics_free(&ms);
    return 0;
}
