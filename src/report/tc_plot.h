/* SPDX-License-Identifier: MIT */
/* figures: gnuplot templates from plots/ rendered to PNG and PDF */
#ifndef TC_PLOT_H
#define TC_PLOT_H

#include "core/tc_status.h"

/* one template variable, passed to gnuplot as a string: name='value' */
typedef struct tc_plot_var {
    const char *name, *value;
} tc_plot_var;

/* 1 if gnuplot can be run */
int tc_plot_available(void);

/* render template (a .gp file that sets no terminal or output) to outbase.png (pngcairo) and
 * outbase.pdf (pdfcairo), each written to a temp name and renamed; gnuplot's messages go to
 * outbase.log (removed when empty); on failure err carries the last lines of that log */
tc_status tc_plot_render(const char *template_path, const tc_plot_var *vars, int nvar,
                         const char *outbase, tc_error *err);

#endif
