/* SPDX-License-Identifier: MIT */
/* a CSV file and its table written row by row from one column specification */
#include "exp/tc_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"

#define TC_ROWS_MAXCOL 32
#define TC_ROWS_CELL   320

struct tc_rows {
    tc_exp *x;
    const tc_col *col;
    int ncol;
    tc_outfile out;
    tc_table *tab;
    int tcol[TC_ROWS_MAXCOL]; /* the table's columns, as indices into col */
    int ntcol;
    char cell[TC_ROWS_MAXCOL][TC_ROWS_CELL]; /* the current row's table cells */
    int csv_cells;                           /* CSV cells written on the current line */
};

tc_status tc_rows_open(tc_rows **out, tc_exp *x, const char *csv, const tc_col *cols, int ncol,
                       tc_error *err) {
    *out = NULL;
    if (ncol < 1 || ncol > TC_ROWS_MAXCOL)
        return tc_error_set(err, TC_EINVAL, csv, 0, NULL, "a result has 1 to %d columns (got %d)",
                            TC_ROWS_MAXCOL, ncol);
    tc_rows *r = calloc(1, sizeof *r);
    if (!r) return TC_ENOMEM;
    r->x = x;
    r->col = cols;
    r->ncol = ncol;
    /* the table's headings, in column order */
    const char *head[TC_ROWS_MAXCOL];
    for (int c = 0; c < ncol; c++) {
        if (!cols[c].head) continue;
        head[r->ntcol] = cols[c].head;
        r->tcol[r->ntcol++] = c;
    }
    tc_status st = r->ntcol && !(r->tab = tc_table_alloc(r->ntcol, head)) ? TC_ENOMEM : TC_OK;
    if (!st && csv) st = tc_exp_open(x, csv, &r->out, err);
    if (st) {
        tc_table_free(r->tab);
        free(r);
        return st;
    }
    /* the CSV header */
    for (int c = 0, n = 0; csv && c < ncol; c++)
        if (cols[c].csv) fprintf(r->out.f, "%s%s", n++ ? "," : "", cols[c].csv);
    if (csv) fputc('\n', r->out.f);
    *out = r;
    return TC_OK;
}

/* the CSV's separator before the next cell of the line */
static void csv_sep(tc_rows *r) {
    if (r->csv_cells++) fputc(',', r->out.f);
}

/* a number cell of column c */
static void put_num(tc_rows *r, int c, double v) {
    const tc_col *col = &r->col[c];
    if (col->csv && r->out.f) {
        csv_sep(r);
        fprintf(r->out.f, col->fmt ? col->fmt : "%g", v);
    }
    if (!col->head) return;
    double s = (col->scale != 0 ? col->scale : 1) * v;
    char *cell = r->cell[c];
    if (col->digits > 0)
        tc_cell_num(cell, TC_ROWS_CELL, s, col->digits, col->below);
    else if (isnan(s))
        snprintf(cell, TC_ROWS_CELL, "-");
    else
        snprintf(cell, TC_ROWS_CELL, col->tfmt ? col->tfmt : "%g", s);
}

/* a text cell of column c */
static void put_text(tc_rows *r, int c, const char *s) {
    const tc_col *col = &r->col[c];
    if (!s) s = "";
    if (col->csv && r->out.f) {
        csv_sep(r);
        if (col->quote == TC_COL_QUOTED) {
            char q[1024];
            tc_csv_field(q, sizeof q, s);
            fputs(q, r->out.f);
        } else {
            fputs(s, r->out.f);
        }
    }
    if (col->head) snprintf(r->cell[c], TC_ROWS_CELL, "%s", s);
}

void tc_rows_put(tc_rows *r, const tc_cell *cells) {
    for (int c = 0; c < r->ncol; c++) {
        if (r->col[c].fmt || r->col[c].digits > 0 || r->col[c].tfmt)
            put_num(r, c, cells[c].v);
        else
            put_text(r, c, cells[c].s);
    }
    if (r->out.f) fputc('\n', r->out.f);
    if (r->tab) {
        const char *row[TC_ROWS_MAXCOL];
        for (int k = 0; k < r->ntcol; k++)
            row[k] = r->cell[r->tcol[k]];
        tc_table_add_row(r->tab, row);
    }
    r->csv_cells = 0;
}

tc_status tc_rows_close(tc_rows *r, const char *base, const char *caption, tc_error *err) {
    tc_status st = r->out.f ? tc_outfile_commit(&r->out, err) : TC_OK;
    if (!st && base && r->tab) st = tc_exp_table(r->x, r->tab, base, caption, err);
    tc_table_free(r->tab);
    free(r);
    return st;
}

void tc_rows_abort(tc_rows *r) {
    if (!r) return;
    if (r->out.f) tc_outfile_abort(&r->out);
    tc_table_free(r->tab);
    free(r);
}
