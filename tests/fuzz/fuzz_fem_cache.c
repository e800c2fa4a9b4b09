/* SPDX-License-Identifier: MIT */
/* libFuzzer: E3's FEM cache (tc_fem_read_cache), as many curves as E3 reads */
#include "fem/tc_fem.h"
#include "fuzz_common.h"

#define MAXCURVE 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static tc_fem_curve curves[MAXCURVE];
    double etas[MAXCURVE];
    int n = 0;
    tc_error err;
    tc_error_clear(&err);
    tc_fem_read_cache(fuzz_input_file(data, size), curves, etas, MAXCURVE, &n, &err);
    return 0;
}
