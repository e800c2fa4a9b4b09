/* SPDX-License-Identifier: MIT */
/* the validating reader of touche's numeric data files (CSV and TSV): a fixed header, typed and
 * range-checked cells, every error naming the file, the line and the column */
#ifndef TC_CSV_H
#define TC_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "core/tc_status.h"

/* how a column's cells are read */
typedef enum tc_csv_kind {
    TC_CSV_INT,  /* a whole number (no fraction, no exponent) within [lo, hi] */
    TC_CSV_REAL, /* a finite decimal number within [lo, hi] */
} tc_csv_kind;

/* one column: its header cell (exact) and its cells' type and range */
typedef struct tc_csv_column {
    const char *name;
    tc_csv_kind kind;
    double lo, hi;
} tc_csv_column;

/* the longest line the reader accepts (bytes, newline included) */
#define TC_CSV_LINE 1024

/* a file being read; lines starting with '#' (provenance) and blank lines are skipped */
typedef struct tc_csv_reader {
    FILE *f;
    const char *path;                                /* for messages (not copied: keep it alive) */
    const tc_csv_column *col;                        /* ncol columns, in file order */
    int ncol, line;                                  /* line: the current line number (1-based) */
    char sep;                                        /* ',' or '\t' */
    char buf[TC_CSV_LINE + 2];                       /* the current line, newline stripped */
    void (*on_comment)(void *ctx, const char *line); /* called with each '#' line, or NULL */
    void *comment_ctx;
} tc_csv_reader;

/* open path and read its header, which must be the columns' names joined by sep, exactly;
 * on_comment (may be NULL) sees every '#' line (provenance) with ctx. TC_EIO when the file cannot
 * be opened, TC_EPARSE for a missing or different header */
tc_status tc_csv_open(tc_csv_reader *r, const char *path, char sep, const tc_csv_column *col,
                      int ncol, void (*on_comment)(void *ctx, const char *line), void *ctx,
                      tc_error *err);

/* the next data row's cells into v[ncol]; *got = 0 at the end of the file. TC_EPARSE (with
 * line and column) for a line too long, too few or too many cells, an empty cell, a cell that
 * is not entirely a number, a NaN or infinity, a fraction in an integer column, a value out of
 * range, or a NUL byte */
tc_status tc_csv_next(tc_csv_reader *r, double *v, int *got, tc_error *err);

void tc_csv_close(tc_csv_reader *r);

#endif
