/* SPDX-License-Identifier: MIT */
/* libFuzzer: the check's history file read (tc_history_read) and used as data: grouped into
 * series, checks and metrics, the table and each figure's data written (tc_history_report without
 * the figures' rendering) into this process's scratch folder; freed even on error */
#include "report/tc_history.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char out[4200];
    if (!out[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(out, sizeof out, "%s/touche-fuzz-history-%ld", dir && *dir ? dir : "/tmp",
                 (long)getpid());
    }
    tc_history h;
    tc_error err;
    tc_error_clear(&err);
    if (tc_history_read(&h, fuzz_input_file(data, size), &err) == TC_OK) {
        int moved = -1;
        tc_error_clear(&err);
        tc_history_report(&h, out, NULL, &moved, &err);
    }
    tc_history_free(&h);
    return 0;
}
