/* SPDX-License-Identifier: MIT */
/* metrics an experiment emits, reference values with tolerances and provenance, and the check */
#ifndef TC_METRICS_H
#define TC_METRICS_H

#include <stdio.h>

#include "core/tc_status.h"

#define TC_METRICS_MAX 128

/* one scalar result with the tolerance that separates noise from a regression:
 * it passes when |value - ref| <= tol_abs + tol_rel * |ref| */
typedef struct tc_metric {
    char name[96];   /* e.g. "scm-smooth.jump_ratio_F" */
    double value;
    char unit[16];   /* "N", "1", ... */
    double tol_abs;  /* in unit */
    double tol_rel;  /* fraction of |ref| */
    char doc[160];   /* one line: what it measures */
} tc_metric;

typedef struct tc_metrics {
    char experiment[64];
    char tier[16];
    int n;
    tc_metric m[TC_METRICS_MAX];
    int dropped;     /* metrics added past TC_METRICS_MAX: an error when written */
} tc_metrics;

void tc_metrics_init(tc_metrics *ms, const char *experiment, const char *tier);

/* append one metric (silently ignored past TC_METRICS_MAX, reported by write) */
void tc_metrics_add(tc_metrics *ms, const char *name, double value, const char *unit,
                    double tol_abs, double tol_rel, const char *doc);

/* write as a libconfig file (atomically); the reference file adds a provenance group */
tc_status tc_metrics_write(const tc_metrics *ms, const char *path, tc_error *err);
tc_status tc_metrics_read(tc_metrics *ms, const char *path, tc_error *err);

/* the reference form: the same metrics plus provenance { generated; revision; host; command;
 * touche_version; note; }, command saying how the outputs were produced */
tc_status tc_metrics_write_reference(const tc_metrics *ms, const char *path, const char *command,
                                     tc_error *err);

/* index of the metric called name, or -1 */
int tc_metrics_find(const tc_metrics *ms, const char *name);

/* options of `touche check` */
typedef struct tc_check_opts {
    const char *out_dir;      /* run output root: <out_dir>/<experiment>/metrics.cfg */
    const char *ref_dir;      /* reference root: <ref_dir>/<experiment>.<tier>.cfg */
    const char *history;      /* TSV file to append one line per metric to ("" = none) */
    const char *command;      /* how the outputs were produced (provenance of an update) */
    int update;               /* 1: write the references from the outputs instead of checking */
} tc_check_opts;

/* compare every metrics.cfg under out_dir with its reference, print a table to report,
 * append history lines; returns TC_ECHECK when any metric regressed or has no reference */
tc_status tc_check_run(const tc_check_opts *o, FILE *report, tc_error *err);

#endif
