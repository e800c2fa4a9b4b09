/* SPDX-License-Identifier: MIT */
/* tables of strings written as Markdown and LaTeX (booktabs) */
#ifndef TC_TABLE_H
#define TC_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_table tc_table;

/* a table with ncol columns and these header cells (copied) */
tc_table *tc_table_alloc(int ncol, const char *const *headers);

/* append a row of ncol cells (copied); cells may contain plain text, '±', '<', '>', '_', '%', '#'
 * etc.: the LaTeX writer escapes them */
tc_status tc_table_add_row(tc_table *t, const char *const *cells);

/* write base.md (pipe table with the caption as a paragraph above it) and base.tex (a table
 * environment with \caption and \label{label}; a tabular wider than the line is scaled down with
 * graphicx's \resizebox, so the including document loads graphicx), both atomically */
tc_status tc_table_write(const tc_table *t, const char *base, const char *caption,
                         const char *label, tc_error *err);

void tc_table_free(tc_table *t);

/* a numeric cell: "-" for NaN, "< below" when 0 < |v| < below (below > 0: below it the digits are
 * rounding, e.g. 1e-29 J of a body at rest), else v to `digits` significant digits (whole numbers
 * from 10^digits on: 43300, not 4.33e+04) */
void tc_cell_num(char *c, size_t n, double v, int digits, double below);

/* "mean ± sd": the mean to 3 significant digits and the spread to 2, each as tc_cell_num writes
 * it (396 ± 300, not 396 ± 3e+02) */
void tc_cell_pm(char *c, size_t n, double mean, double sd);

/* s with LaTeX specials escaped for text mode (_ % & # $ { } ~ ^ \ < > and the symbols ± µ × °
 * ≤ ≥ − ≈ Δ θ λ ε η as math, dashes); TC_EINVAL if it does not fit in n bytes (buf then holds a
 * truncated prefix) or holds a non-ASCII character without a LaTeX form (buf empty) */
tc_status tc_latex_escape(char *buf, size_t n, const char *s);

/* 1 when every character of s has a LaTeX form (tc_latex_escape succeeds given room), else 0 */
int tc_latex_mappable(const char *s);

/* s written to f escaped as tc_latex_escape does, never failing: a character without a LaTeX
 * form is written as its code point in typewriter type (`é` as U+00E9), a malformed byte as
 * U+FFFD; every byte of s is read, none of f's output is left undefined. In a build with
 * -Drepository_url, each repository path in s is a link there (tc_latex_put_linked with
 * tc_repository_url() and tc_revision()); without it, nothing else */
void tc_latex_put(FILE *f, const char *s);

/* s written as tc_latex_put writes it without links, except that each repository path in it (a
 * top folder docs/ experiments/ src/ plots/ tests/ paper/ tools/ data/ examples/, then letters,
 * digits and "_./-" up to a file name with an extension or a '/'; a sentence's full stop after
 * it left out) is \href{url/blob/REF/path}{path}: REF is rev (git describe's commit), or main
 * when rev is NULL, "unknown" or "-dirty". url NULL or "": exactly tc_latex_put without links */
void tc_latex_put_linked(FILE *f, const char *s, const char *url, const char *rev);

/* n bytes of s (not necessarily terminated) written as tc_latex_put writes them */
void tc_latex_put_n(FILE *f, const char *s, size_t n);

/* n bytes of s written as tc_latex_put writes them, with a permitted line break after each '.',
 * '_', '/' and '-' but the last (a metric's or an experiment's long name in a narrow column or a
 * code span: perturbed.multi-point_over_deepest-point.mean_penetration); with -Drepository_url, a
 * span that is one repository path is one link, its text breakable */
void tc_latex_put_breakable(FILE *f, const char *s, size_t n);

#ifdef __cplusplus
}
#endif

#endif
