/* SPDX-License-Identifier: MIT */
/* libFuzzer: the check's history file (tc_history_read), freed even on error */
#include "report/tc_history.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    tc_history_read(&h, fuzz_input_file(data, size), &err);
    tc_history_free(&h);
    return 0;
}
