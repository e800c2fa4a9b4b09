/* SPDX-License-Identifier: MIT */
/* figures: gnuplot templates (an experiment's own, plots/history.gp) rendered to PNG and PDF */
#ifndef TC_PLOT_H
#define TC_PLOT_H

#include <stdio.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* one template variable, passed to gnuplot as a string: name='value' */
typedef struct tc_plot_var {
    const char *name, *value;
} tc_plot_var;

/* 1 if gnuplot can be run */
int tc_plot_available(void);

/* render template (a .gp file that sets no terminal or output) to outbase.png (pngcairo) and
 * outbase.pdf (pdfcairo), each written to a temp name and renamed; gnuplot's messages go to
 * outbase.log (removed when empty); on failure err carries the last lines of that log. When the
 * variables hold `labels` (methods, space-separated), the template also gets `colors` and
 * `dashes`: each label's style from tc_plot_style, word k for label k */
tc_status tc_plot_render(const char *template_path, const tc_plot_var *vars, int nvar,
                         const char *outbase, tc_error *err);

/* the most variables one figure may take: a template's own, the runner's shared ones and the
 * methods' styles (tc_plot_render adds colors and dashes) */
#define TC_PLOT_MAXVAR 64

/* a rendered figure name.png / name.pdf (beside the documents) shown at full width with its
 * caption in a Markdown document md and a LaTeX one tex (\label{fig:label}) */
void tc_plot_include(FILE *md, FILE *tex, const char *name, const char *label, const char *caption);

/* one style per method in every figure: its colour ("#rrggbb", colour-blind safe, never yellow)
 * and dash type (1 solid, 2-4 dashed). touche's methods have fixed entries (a model family shares
 * a colour: SCM's settings differ by dash); any other label gets a colour and dash from a hash
 * of its name, the same in every figure */
void tc_plot_style(const char *label, char colour[8], int *dash);

/* the styles of a space-separated list of labels, in order: colours and dash types as
 * space-separated words for a template's colors and dashes; TC_EINVAL when they do not fit */
tc_status tc_plot_styles(const char *labels, char *colours, size_t nc, char *dashes, size_t nd);

#ifdef __cplusplus
}
#endif

#endif
