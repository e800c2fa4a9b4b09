/* SPDX-License-Identifier: MIT */
/* a result written row by row from one column specification: a CSV file in the experiment's
 * folder and the Markdown/LaTeX table of the same rows, so a CSV header and a table heading can
 * never drift apart from the values under them */
#ifndef TC_ROWS_H
#define TC_ROWS_H

#include "exp/tc_experiment.h"

#ifdef __cplusplus
extern "C" {
#endif

/* how a column writes a text cell in the CSV */
enum {
    TC_COL_RAW = 0,    /* as it is (labels, specs, words without commas) */
    TC_COL_QUOTED = 1, /* made safe for one field (tc_csv_field: quoted, inner quotes doubled) */
};

/* one column: where it goes and how a value is written there. A number column has fmt (the
 * CSV's), digits or tfmt (the table's); a text column has none of them. The table writes a number
 * as tc_cell_num(scale x value, digits, below) when digits > 0, else with tfmt (scale x value; NaN
 * as "-") */
typedef struct tc_col {
    const char *csv;  /* CSV header ("stop_time_s"); NULL: the column is the table's only */
    const char *head; /* table heading ("stopping time (s)"); NULL: the column is the CSV's only */
    const char *fmt;  /* CSV printf format of a number ("%.9g"); NULL: a text column */
    int digits;       /* table: significant digits of tc_cell_num; 0: tfmt */
    double below;     /* table: tc_cell_num's bound (0: none) */
    const char *tfmt; /* table: printf format when digits is 0 (NULL: "%g") */
    double scale;     /* table: the value shown is scale x value (100: a percentage; 0 means 1) */
    int quote;        /* text columns: TC_COL_RAW or TC_COL_QUOTED */
} tc_col;

typedef struct tc_rows tc_rows;

/* open x->dir/csv (a temp file until tc_rows_close; NULL: no CSV, the table only) for the ncol
 * columns cols (kept, not copied: a static table) and a table of those with a heading */
tc_status tc_rows_open(tc_rows **r, tc_exp *x, const char *csv, const tc_col *cols, int ncol,
                       tc_error *err);

/* one cell of a row: text for a text column, v for a number column */
typedef struct tc_cell {
    const char *s;
    double v;
} tc_cell;
#define TC_NUM(x)  ((tc_cell){NULL, (double)(x)})
#define TC_TEXT(x) ((tc_cell){(x), 0})

/* one row: a cell per column, in column order (its CSV line and its table row) */
void tc_rows_put(tc_rows *r, const tc_cell *cells);

/* commit the CSV and write the table as base.md and base.tex in the section (tc_exp_table,
 * base NULL: no table); frees r whatever happens */
tc_status tc_rows_close(tc_rows *r, const char *base, const char *caption, tc_error *err);

/* throw the CSV away and free r (after an error elsewhere) */
void tc_rows_abort(tc_rows *r);

#ifdef __cplusplus
}
#endif

#endif
