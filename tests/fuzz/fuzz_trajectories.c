/* SPDX-License-Identifier: MIT */
/* libFuzzer: E2's finger trajectories file (e2_read_trajectories) against the setup of the
 * built-in E2 script at the quick tier */
#include "experiments/e2/e2.h"
#include "report/tc_report.h"
#include "fuzz_common.h"

static e2_setup setup;

/* the setup, once: the built-in script loaded and read as the driver reads it */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    const tc_experiment_type *t = tc_experiment_find("e2");
    char path[1100];
    tc_script *s = NULL;
    tc_error err;
    tc_error_clear(&err);
    snprintf(path, sizeof path, "%s/experiments/%s", tc_source_dir(), t ? t->script : "?");
    tc_status st = tc_script_load(&s, path, "quick", &err);
    if (!st) {
        st = e2_read_setup(s, &setup, &err);
        tc_script_free(s);
    }
    if (st) {
        fprintf(stderr, "fuzz_trajectories: %s: %s\n", path, err.msg);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static e2_traj tr[E2_MAXTRAJ];
    int n = 0;
    tc_error err;
    tc_error_clear(&err);
    e2_read_trajectories(fuzz_input_file(data, size), &setup, tr, &n, &err);
    return 0;
}
