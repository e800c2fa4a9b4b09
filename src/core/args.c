/* SPDX-License-Identifier: MIT */
/* command-line values checked whole and in range */
#include "core/tc_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the whole of s (no sign of junk after it) as a long in [lo, hi] */
static int whole(const char *s, size_t n, long lo, long hi, long *v) {
    char buf[32], *end;
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    *v = strtol(buf, &end, 10);
    return end != buf && !*end && !errno && buf[0] != ' ' && *v >= lo && *v <= hi;
}

int tc_arg_ints(const char *who, const char *opt, const char *arg, long lo, long hi, int *out,
                int max, int *n) {
    *n = 0;
    for (const char *p = arg;; p++) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        long v;
        if (*n >= max || !whole(p, len, lo, hi, &v)) {
            fprintf(stderr, "%s: %s: expected 1 to %d whole numbers in %ld .. %ld, comma-separated "
                            "(got '%s')\n", who, opt, max, lo, hi, arg);
            return 0;
        }
        out[(*n)++] = (int)v;
        if (!q) return 1;
        p = q;
    }
}

int tc_arg_int(const char *who, const char *opt, const char *arg, long lo, long hi, int *out) {
    long v;
    if (!whole(arg, strlen(arg), lo, hi, &v)) {
        fprintf(stderr, "%s: %s: expected a whole number in %ld .. %ld (got '%s')\n", who, opt, lo,
                hi, arg);
        return 0;
    }
    *out = (int)v;
    return 1;
}

int tc_arg_real(const char *who, const char *opt, const char *arg, double lo, double hi,
                double *out) {
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (end == arg || *end || errno || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "%s: %s: expected a number in %g .. %g (got '%s')\n", who, opt, lo, hi, arg);
        return 0;
    }
    *out = v;
    return 1;
}
