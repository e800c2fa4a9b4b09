/* SPDX-License-Identifier: MIT */
/* what drivers format: a metric whose name is printf-formatted, and text appended to a list */
#include "exp/tc_experiment.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tc_exp_metric(tc_exp *x, const char *label, double v, const char *unit, double abs_tol,
                   double rel_tol, unsigned flags, const char *doc, const char *fmt, ...) {
    char name[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    tc_metrics_add(tc_exp_metrics(x), label, name, v, unit, abs_tol, rel_tol, flags, doc);
}

void tc_append(char *buf, size_t n, const char *sep, const char *fmt, ...) {
    size_t l = strlen(buf);
    if (l) snprintf(buf + l, n - l, "%s", sep);
    l = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + l, n - l, fmt, ap);
    va_end(ap);
}
