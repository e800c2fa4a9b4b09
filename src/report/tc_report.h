/* SPDX-License-Identifier: MIT */
/* the reproduction report: report.md from the experiments' sections, and the optional PDF */
#ifndef TC_REPORT_H
#define TC_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/tc_status.h"

/* contract with the experiments:
 *  - experiment E writes its outputs under <out_dir>/E/ and its part of the report as
 *    <out_dir>/E/section.md (Markdown, starting with a "## ..." heading);
 *  - links and images in section.md are relative to <out_dir>, i.e. written as "E/fig.png",
 *    because report.md (in <out_dir>) includes the section text verbatim, unrewritten;
 *  - for the PDF, E writes <out_dir>/E/section.tex (a \section{...} with
 *    \includegraphics{E/fig.pdf} and \input{E/table.tex}); paper/touche.tex inputs
 *    <out_dir>/experiments.tex, which this writes, and TEXINPUTS makes <out_dir> the root of
 *    those paths. */

/* an experiment the report knows: its directory name and its section's title */
typedef struct tc_report_entry {
    const char *name, *heading;
} tc_report_entry;

/* write <out_dir>/report.md (atomically): title, revision, UTC date and host, then for each of
 * the n known experiments in order a "<!-- E -->" marker and <out_dir>/E/section.md when it
 * exists ("not run" otherwise), then every other <out_dir>/D/section.md (a user's own script)
 * in name order. Also <out_dir>/experiments.tex, the PDF's list of the same sections. Then,
 * when pdflatex is on PATH and <source>/paper/touche.tex exists (source = $TOUCHE_SOURCE_DIR or
 * the build's source tree), build <out_dir>/paper/touche.pdf in a staging directory that
 * replaces <out_dir>/paper only when the build succeeded (log: paper/latex.log). Without
 * pdflatex (WITH_LATEX=1 installs it) the PDF is skipped with a line on stderr; a build that
 * fails is TC_EENGINE naming the log and LaTeX's first error (report.md is written anyway). */
tc_status tc_report_write(const char *out_dir, const tc_report_entry *known, int n, tc_error *err);

/* the setup chapter (src/report/setup.c), into md (report.md) and <out_dir>/setup.tex: the
 * revision, date, CPU, OS, compiler and flags, every linked library's version (from the build)
 * and the programs' (gnuplot, ccx, pdflatex); each experiment's tier, threads, ranks, runs, wall
 * time, seeds, revision and date (its setup.tsv); every method that ran with its parameters and
 * units (the metrics ms[i] of ex[i], read when ok[i] is 2); and the deviations from the papers,
 * every documented choice of the scripts that ran (setup.tsv's "choice" rows) */
struct tc_metrics;

/* the method x experiment matrix, into md and tex: per method label (every one that ran) and
 * experiment, "ok", "k/n failed", "cannot" (the experiment's setup.tsv lists it as unable to
 * run) or blank (not in the experiment's script) */
void tc_report_matrix(const char *out_dir, const tc_report_entry *ex, int n,
                      const struct tc_metrics *ms, const unsigned char *ok, FILE *md, FILE *tex);
/* the residual heat map (template tpl, paper/residuals.gp) over the experiments' metrics ms[i]
 * (read when ok[i] is 2): per method label and residual the largest per-experiment mean of
 * residuals.LABEL.NAME_mean, to out_dir/residuals_summary.{csv,png,pdf}, shown in md and tex;
 * nothing when no experiment recorded residuals */
tc_status tc_report_residuals(const char *out_dir, const struct tc_metrics *ms,
                              const unsigned char *ok, int n, const char *tpl, FILE *md, FILE *tex,
                              tc_error *err);
tc_status tc_report_setup(const char *out_dir, const tc_report_entry *ex, int n,
                          const struct tc_metrics *ms, const unsigned char *ok, FILE *md,
                          tc_error *err);

/* provenance (time, host, revision, version, source tree) is core's: core/tc_provenance.h */
#include "core/tc_provenance.h"

#endif
