/* SPDX-License-Identifier: MIT */
/* E5 and E6 beside the authors' own results: Silico.jl's stored per-cell grids (data/silico/,
 * provenance in its README), read by a validating reader, and our grid compared with theirs cell
 * by cell (mean and worst |difference|, correlation), with a figure of both and their difference */
#ifndef TC_E56_SILICO_H
#define TC_E56_SILICO_H

#include "experiments/e56/e56.h"

#define E56_SILICO_N 6 /* rates and tolerances of the authors' grid */

/* the authors' grid: rates (Hz) x complementarity tolerances, value v[rate][tol] */
typedef struct e56_silico_grid {
    double rate[E56_SILICO_N], tol[E56_SILICO_N];
    double v[E56_SILICO_N][E56_SILICO_N];
} e56_silico_grid;

/* the authors' rates (10 .. 100 Hz) and tolerances (1e-3 .. 1e-10), in their files' order */
extern const double e56_silico_rates[E56_SILICO_N], e56_silico_tols[E56_SILICO_N];

/* one file: pgfplots patches, four corner lines `x y value` per cell in the order (x-, y-),
 * (x-, y+), (x+, y+), (x+, y-) around the centre (i + offset, j), corners at +-0.5, the four values
 * equal; i the rate index 0..5, j the tolerance index 0..5, each cell once, cells in the order
 * the authors wrote them (rate-major). offset: 0 for single-level files, 7 for bilevel ones.
 * TC_EIO for an unreadable file, TC_EPARSE naming file, line and field (x, y, value, cell) */
tc_status e56_silico_read(const char *path, int offset, e56_silico_grid *g, tc_error *err);

/* dir/<study>_data__<quantity>_<method>.dat: study "performance" (E5) or "momentum" (E6),
 * method "single_level" (offset 0) or "bilevel" (offset 7) */
tc_status e56_silico_load(const char *dir, const char *study, const char *quantity,
                          const char *method, e56_silico_grid *g, tc_error *err);

/* the authors' cell of a rate (Hz) and tolerance: their indices, or -1 when theirs has none */
int e56_silico_rate_index(double rate);
int e56_silico_tol_index(double tol);

/* a per-cell comparison: n cells, mean and largest |ours - theirs| (on log10 of both when the
 * quantity is compared in decades), the worst cell's indices and values, Pearson's correlation
 * (NAN under 3 cells or without variance on either side) */
typedef struct e56_silico_cmp {
    int n;
    double mean_abs, worst_abs, corr;
    int worst_rate, worst_tol;
    double worst_ours, worst_theirs;
} e56_silico_cmp;

/* compare n pairs (ours[i], theirs[i]) at the authors' cells (ri[i], ti[i]); log10: in decades
 * (values below floor taken as floor) */
e56_silico_cmp e56_silico_compare(int n, const double *ours, const double *theirs, const int *ri,
                                  const int *ti, int log10_scale, double floor);

/* what E5 or E6 compares: the script's group `silico` (dir, labels and the authors' method of
 * each), and per quantity our grid.csv column, the authors' file name and how it is compared */
typedef struct e56_silico_quantity {
    const char *name; /* the metric's and figure's name, e.g. "fail_rate" */
    const char *file; /* the authors' quantity, e.g. "failure_rate" */
    const char *unit, *doc;
    int log10_scale; /* compared in decades */
    double floor;    /* the smallest value kept on a log scale */
    double tol_abs;  /* the metrics' tolerances for `touche check` */
    /* our cell's value (the public code's measure): its grid.csv column, or when that is NULL
     * what ours gives */
    const char *column;
    double (*ours)(const e56_cell *c, int nscene);
} e56_silico_quantity;

#define E56_SILICO_MAXLABEL 4

/* the script's group `silico`: dir (the authors' files, from the source tree), labels (ours)
 * and methods (the authors' method each is compared with: "single_level" or "bilevel") */
typedef struct e56_silico_spec {
    char
        dir[1100]; /* the folder: an absolute path as given, a relative one under the source tree */
    const char *study;            /* "performance" (E5) or "momentum" (E6) */
    const e56_silico_quantity *q; /* the quantities compared, nq of them */
    int nq;
    int n;
    char label[E56_SILICO_MAXLABEL][TC_LABEL_MAX + 1];
    char method[E56_SILICO_MAXLABEL][16];
} e56_silico_spec;

/* read the group and every authors' file of study's nq quantities q (at setup, so a wrong folder
 * or a bad file stops the run before it starts: its labels must name methods); a script without
 * it compares nothing (n = 0); errors name file, line and setting */
tc_status e56_silico_setup(tc_exp *x, e56_silico_spec *sp, const char *study,
                           const e56_silico_quantity *q, int nq, tc_error *err);

/* compare every cell of sw over grid g with the authors' grids of the setup's study: per quantity a
 * CSV (silico_<quantity>.csv: label, rate, tolerance, the authors' indices, ours, theirs,
 * difference; every authors' cell, ours empty where our grid has none), the metrics
 * silico.<label>.<quantity>.{mean_abs_diff,worst_abs_diff,corr}, a table and a figure
 * (experiments/e56/e56_silico.gp: ours, theirs and the difference per label). A label that did not
 * run is left out. Errors: an authors' file that fails validation */
tc_status e56_silico_section(tc_exp *x, const e56_silico_spec *sp, const e56_grid *g,
                             const e56_sweep *sw, tc_error *err);

#endif
