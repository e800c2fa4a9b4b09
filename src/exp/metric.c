/* SPDX-License-Identifier: MIT */
/* a metric of the experiment whose name is formatted (a label, a column, a sweep point in it) */
#include "exp/tc_experiment.h"

#include <stdarg.h>
#include <stdio.h>

void tc_exp_metric(tc_exp *x, const char *label, double v, const char *unit, double tol_abs,
                   double tol_rel, unsigned flags, const char *doc, const char *fmt, ...) {
    char name[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    tc_metrics_add(tc_exp_metrics(x), label, name, v, unit, tol_abs, tol_rel, flags, doc);
}
