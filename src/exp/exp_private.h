/* SPDX-License-Identifier: MIT */
/* what the runner's files share and drivers do not see */
#ifndef TC_EXP_PRIVATE_H
#define TC_EXP_PRIVATE_H

#include "exp/tc_experiment.h"

/* resolve x's methods from its script, the registry, the filter and the overrides */
tc_status tc_exp_resolve(tc_exp *x, tc_error *err);

/* 1 when s is a valid label (1..TC_LABEL_MAX of [A-Za-z0-9_-], not starting with '-'); else 0
 * and why in buf */
int tc_label_ok(const char *s, char *why, size_t n);

/* the section: open the in-memory streams with the heading; close and write section.md/.tex */
tc_status tc_section_begin(tc_exp *x);
tc_status tc_section_end(tc_exp *x, tc_error *err);

/* append Markdown text md to the section as a paragraph, and its LaTeX form */
void tc_section_para(tc_exp *x, const char *md);

/* md with LaTeX specials escaped, `code` as \texttt{code}, **bold** as \textbf{bold} */
void tc_md_to_tex(FILE *f, const char *md);

/* ---------- records (records.c) ---------- */

/* "name=value ..." of a method's parameters (model, solver, engine), each value in the shortest
 * form that reads back exactly */
void tc_exp_params_text(const tc_method *m, char *buf, size_t n);

/* runs.csv: one line per run */
tc_status tc_exp_write_runs(tc_exp *x, tc_error *err);

/* ---------- a sweep over MPI ranks (runner_mpi.c; runner_serial.c without MPI) ---------- */

/* the exchange after the items of a split sweep ran, each on one rank (ran[i]: this rank ran
 * item i). On a worker (rank > 0): send the records, wall times (s) and regions of the items it
 * ran to rank 0. On rank 0: receive every worker's; by[i] the rank that ran item i, -1 when none
 * did (a worker that left the experiment, its driver stopped early: rank 0 runs those) */
tc_status tc_ranks_gather(tc_exp *x, int n, const unsigned char *ran, tc_item *it, double *wall,
                          tc_item_regions_fn regions, void *ctx, int *by);

/* then every item's records, wall times and regions from rank 0 to every worker still in the
 * experiment, so that every rank holds the same state; on a worker TC_EIO when rank 0 left the
 * experiment before this sweep (the driver then stops like rank 0's) */
tc_status tc_ranks_share(tc_exp *x, int n, tc_item *it, double *wall, tc_item_regions_fn regions,
                         void *ctx);

/* the end of an experiment on every rank: a worker reports its status st (and err) and takes
 * rank 0's, whose error goes into err; rank 0 waits for every worker to end it (a worker still
 * in a sweep rank 0 did not reach is told to stop), says which ranks failed where it did not,
 * and tells them its status. An interrupt on any rank interrupts every rank */
tc_status tc_ranks_end(tc_exp *x, tc_status st, tc_error *err);

#endif
