/* SPDX-License-Identifier: MIT */
/* command-line values checked whole and in range */
#include "core/tc_args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the whole of s (no white space before it, no junk after it) as a long in [lo, hi] */
static int whole(const char *s, size_t n, long lo, long hi, long *v) {
    char buf[32], *end;
    if (n == 0 || n >= sizeof buf) return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    *v = strtol(buf, &end, 10);
    return end != buf && !*end && !errno && !isspace((unsigned char)buf[0]) && *v >= lo && *v <= hi;
}

int tc_arg_ints(const char *who, const char *opt, const char *arg, long lo, long hi, int *out,
                int max, int *n) {
    *n = 0;
    for (const char *p = arg;; p++) {
        const char *q = strchr(p, ',');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        long v;
        if (*n >= max || !whole(p, len, lo, hi, &v)) {
            fprintf(stderr,
                    "%s: %s: expected 1 to %d whole numbers in %ld .. %ld, comma-separated "
                    "(got '%s')\n",
                    who, opt, max, lo, hi, arg);
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
        fprintf(stderr, "%s: %s: expected a number in %g .. %g (got '%s')\n", who, opt, lo, hi,
                arg);
        return 0;
    }
    *out = v;
    return 1;
}

int tc_arg_assign(const char *who, const char *opt, const char *arg, char *target, size_t ntarget,
                  char *param, size_t nparam, double *value) {
    if (ntarget) target[0] = 0;
    if (nparam) param[0] = 0;
    /* the shape: a non-empty target before the first '.', a non-empty parameter before the '=' */
    const char *dot = strchr(arg, '.'), *eq = strchr(arg, '=');
    if (!dot || !eq || eq < dot || dot == arg || eq == dot + 1) {
        fprintf(stderr,
                "%s: %s '%s': write it as LABEL.PARAMETER=VALUE, e.g. "
                "%s scm-medium.eps2=0.003 (LABEL: a method label or a model or engine "
                "name)\n",
                who, opt, arg, opt);
        return 0;
    }
    /* each part whole in its buffer, or refused */
    size_t nt = (size_t)(dot - arg), np = (size_t)(eq - dot - 1);
    if (nt >= ntarget || np >= nparam) {
        size_t cap = nt >= ntarget ? ntarget : nparam;
        fprintf(stderr, "%s: %s '%s': the %s is longer than %zu characters\n", who, opt, arg,
                nt >= ntarget ? "label" : "parameter", cap ? cap - 1 : 0);
        return 0;
    }
    /* the value: the whole rest, a finite number */
    char *end;
    double v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end || !isfinite(v)) {
        fprintf(stderr, "%s: %s '%s': the value must be a finite number (got '%s')\n", who, opt,
                arg, eq + 1);
        return 0;
    }
    memcpy(target, arg, nt);
    target[nt] = 0;
    memcpy(param, dot + 1, np);
    param[np] = 0;
    *value = v;
    return 1;
}
