/* SPDX-License-Identifier: MIT */
/* libFuzzer: the command line's numbers (core/tc_args.h). The first byte picks the function
 * (its low two bits: tc_arg_ints, tc_arg_int, tc_arg_real, tc_arg_assign) and one of four ranges
 * or buffer sizes (the next two); the rest, 300 bytes at most and cut at the first NUL, is the
 * argument. What a function accepts must be what it promises (in range, whole, finite, fitting),
 * else fuzz_fail aborts. The functions' messages on refused arguments go to /dev/null: stderr is
 * pointed there (glibc's stderr is a variable; libFuzzer and the sanitizers write to fd 2, which
 * stays open, so their reports still reach the log) */
#include "core/tc_args.h"
#include "fuzz_common.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define MAXARG 300

/* whole-number ranges: a thread count, a small signed range, every int; and a list's length */
static const long int_lo[4] = {1, -5, 0, INT_MIN}, int_hi[4] = {1024, 5, INT_MAX, INT_MAX};
static const int int_max[4] = {16, 1, 4, 64};
/* real ranges: positive, [-1, 1], every finite double, one point */
static const double real_lo[4] = {0, -1, -1.7976931348623157e308, 1e-3};
static const double real_hi[4] = {1e6, 1, 1.7976931348623157e308, 1e-3};
/* assignment buffers: run's own (tc_override), small, and a NUL alone */
static const size_t target_n[4] = {80, 4, 1, 2}, param_n[4] = {64, 3, 2, 1};

/* the functions' messages, once, to /dev/null */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    FILE *null = fopen("/dev/null", "w");
    if (null) stderr = null;
    return 0;
}

/* a list accepted: 1 to max numbers, as many as the fields between commas, each in range and
 * its digits alone */
static void check_ints(const char *arg, int r) {
    int out[64], n = -1;
    if (!tc_arg_ints("fuzz", "--ints", arg, int_lo[r], int_hi[r], out, int_max[r], &n)) return;
    if (strspn(arg, "+-0123456789,") != strlen(arg))
        fuzz_fail("ints '%s' accepted with characters other than signs, digits and commas", arg);
    int fields = 1;
    for (const char *p = arg; *p; p++)
        fields += *p == ',';
    if (n < 1 || n > int_max[r] || n != fields)
        fuzz_fail("ints '%s': %d numbers of %d fields (at most %d)", arg, n, fields, int_max[r]);
    for (int i = 0; i < n; i++)
        if (out[i] < int_lo[r] || out[i] > int_hi[r])
            fuzz_fail("ints '%s': %d outside %ld .. %ld", arg, out[i], int_lo[r], int_hi[r]);
}

/* a number accepted: in range, and its digits alone (no white space, nothing after) */
static void check_int(const char *arg, int r) {
    int v;
    if (!tc_arg_int("fuzz", "--int", arg, int_lo[r], int_hi[r], &v)) return;
    if (v < int_lo[r] || v > int_hi[r])
        fuzz_fail("int '%s': %d outside %ld .. %ld", arg, v, int_lo[r], int_hi[r]);
    if (strspn(arg, "+-0123456789") != strlen(arg))
        fuzz_fail("int '%s' accepted with characters other than a sign and digits", arg);
}

/* a real accepted: finite and in range */
static void check_real(const char *arg, int r) {
    double v;
    if (!tc_arg_real("fuzz", "--real", arg, real_lo[r], real_hi[r], &v)) return;
    if (!isfinite(v) || v < real_lo[r] || v > real_hi[r])
        fuzz_fail("real '%s': %g outside %g .. %g", arg, v, real_lo[r], real_hi[r]);
}

/* an assignment accepted: TARGET.PARAM=VALUE with both names non-empty and fitting (buffers of
 * their exact sizes, so ASan sees a write past them), TARGET free of '.' and '=', PARAM of '=',
 * the value finite, and arg rebuilt from them */
static void check_assign(const char *arg, int r) {
    char *target = malloc(target_n[r]), *param = malloc(param_n[r]);
    double v = NAN;
    if (!target || !param) abort();
    if (tc_arg_assign("fuzz", "--set", arg, target, target_n[r], param, param_n[r], &v)) {
        size_t nt = strlen(target), np = strlen(param);
        if (!nt || !np || nt >= target_n[r] || np >= param_n[r])
            fuzz_fail("assign '%s': target '%s', param '%s'", arg, target, param);
        if (strpbrk(target, ".=") || strchr(param, '='))
            fuzz_fail("assign '%s': target '%s', param '%s' hold a separator", arg, target, param);
        if (!isfinite(v)) fuzz_fail("assign '%s': value %g", arg, v);
        if (strncmp(arg, target, nt) || arg[nt] != '.' || strncmp(arg + nt + 1, param, np) ||
            arg[nt + 1 + np] != '=')
            fuzz_fail("assign '%s' is not '%s.%s=...'", arg, target, param);
    } else if ((target_n[r] && target[0]) || (param_n[r] && param[0]))
        fuzz_fail("assign '%s' refused but left target '%s', param '%s'", arg, target, param);
    free(target);
    free(param);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    /* the argument: at most MAXARG bytes, up to a NUL */
    char arg[MAXARG + 1];
    size_t n = size - 1 < MAXARG ? size - 1 : MAXARG;
    memcpy(arg, data + 1, n);
    arg[n] = 0;
    int r = data[0] >> 2 & 3;
    switch (data[0] & 3) {
    case 0:
        check_ints(arg, r);
        break;
    case 1:
        check_int(arg, r);
        break;
    case 2:
        check_real(arg, r);
        break;
    default:
        check_assign(arg, r);
        break;
    }
    return 0;
}
