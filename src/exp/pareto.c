/* SPDX-License-Identifier: MIT */
/* a speed-accuracy figure: every method's wall time per step against one of its accuracy
 * metrics, with the methods no other beats on both (the Pareto front) joined */
#include "exp/exp_private.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"

/* a method's point: seconds per step over its finished runs, and its metric's magnitude */
typedef struct point {
    double cost, err;
    int method;
} point;

static int by_cost(const void *a, const void *b) {
    const point *p = a, *q = b;
    return (p->cost > q->cost) - (p->cost < q->cost);
}

/* every method's point (the ones with finished runs and a finite metric), sorted by cost */
static int points_of(const tc_exp *x, const char *fmt, const char *runs, point *pt) {
    int n = 0;
    for (int k = 0; k < x->nmethod; k++) {
        double wall = 0, steps = 0;
        for (int i = 0; i < x->nrun; i++)
            if (x->run[i].method == k && !x->run[i].status && x->run[i].steps > 0 &&
                (!runs || !strncmp(x->run[i].what, runs, strlen(runs)))) {
                wall += x->run[i].wall_s;
                steps += (double)x->run[i].steps;
            }
        char name[200];
        snprintf(name, sizeof name, fmt, x->method[k].label);
        int m = tc_metrics_find(&x->metrics, name);
        double v = m >= 0 ? fabs(x->metrics.m[m].value) : NAN;
        if (steps > 0 && wall > 0 && isfinite(v)) pt[n++] = (point){wall / steps, v, k};
    }
    qsort(pt, (size_t)n, sizeof *pt, by_cost);
    return n;
}

void tc_exp_pareto(tc_exp *x, const char *fmt, const char *runs, const char *what, const char *base,
                   const char *caption) {
    point *pt = calloc((size_t)x->nmethod + 1, sizeof *pt);
    if (!pt) return;
    const int n = points_of(x, fmt, runs, pt);
    char file[128], data[1200], labels[2048] = "";
    snprintf(file, sizeof file, "%s.csv", base);
    tc_outfile o;
    tc_error err;
    tc_error_clear(&err);
    if (n < 2 || tc_exp_open(x, file, &o, &err)) {
        if (n >= 2) tc_exp_warn(x, "figure %s not drawn: %s", base, err.msg);
        free(pt);
        return;
    }
    /* on the front when no cheaper method is as accurate (a zero error floored for the log axis) */
    fprintf(o.f, "method,step_s,error,front\n");
    double best = INFINITY;
    for (int i = 0; i < n; i++) {
        int front = pt[i].err < best;
        if (front) best = pt[i].err;
        fprintf(o.f, "%s,%.6g,%.6g,%d\n", x->method[pt[i].method].label, pt[i].cost,
                fmax(pt[i].err, 1e-12), front);
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", i ? " " : "",
                 x->method[pt[i].method].label);
    }
    /* the front again as a block of its own, for its line */
    fputs("\n\n", o.f);
    best = INFINITY;
    for (int i = 0; i < n; i++)
        if (pt[i].err < best) {
            best = pt[i].err;
            fprintf(o.f, "%s,%.6g,%.6g,1\n", x->method[pt[i].method].label, pt[i].cost,
                    fmax(pt[i].err, 1e-12));
        }
    free(pt);
    if (tc_outfile_commit(&o, &err)) {
        tc_exp_warn(x, "figure %s not drawn: %s", base, err.msg);
        return;
    }
    tc_exp_path(x, file, data, sizeof data);
    const tc_plot_var v[] = {{"datafile", data}, {"labels", labels}, {"what", what}};
    tc_exp_figure(x, "plots/pareto.gp", v, 3, base, caption);
}
