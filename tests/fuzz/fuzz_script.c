/* SPDX-License-Identifier: MIT */
/* libFuzzer: a user's script planned as `touche run FILE` plans it (the loader, the tiers, the
 * driver's setup reader, the methods), never run. The driver is the one the script names when
 * that is registered, else the one the input's first byte picks, so every setup reader is
 * reached; an odd-sized input is planned at the full tier, an even-sized one at quick */
#include "exp/tc_experiment.h"
#include "report/tc_report.h"
#include "fuzz_common.h"

#include <string.h>

static int ntype;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    while (tc_experiment_at(ntype))
        ntype++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *path = fuzz_input_file(data, size);
    tc_error err;
    tc_error_clear(&err);
    /* the driver the script names, as the CLI looks it up, else one by the first byte */
    const tc_experiment_type *t = tc_experiment_at(size ? data[0] % ntype : 0);
    char driver[128];
    if (tc_script_peek_driver(path, driver, sizeof driver, &err) == TC_OK) {
        const tc_experiment_type *d = tc_experiment_find(driver);
        if (d && !strcmp(d->name, driver)) t = d;
    }
    /* plan only: nothing is written under out_root, nothing runs */
    tc_run_opts o = {.source_dir = tc_source_dir(),
                     .out_root = "fuzz-out",
                     .tier = size % 2 ? "full" : "quick",
                     .threads = 1};
    tc_exp *x = NULL;
    tc_error_clear(&err);
    if (tc_exp_plan(&x, t, path, "fuzz", &o, &err) == TC_OK) tc_exp_free(x);
    return 0;
}
