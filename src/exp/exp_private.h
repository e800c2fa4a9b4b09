/* SPDX-License-Identifier: MIT */
/* what the runner's files share and drivers do not see */
#ifndef TC_EXP_PRIVATE_H
#define TC_EXP_PRIVATE_H

#include "exp/script_private.h"
#include "exp/tc_experiment.h"

/* an experiment being run */
struct tc_exp {
    const tc_experiment_type *type;
    char name[64];     /* its output directory under the output root */
    tc_script *script; /* loaded at the run's tier */
    const char *tier, *source_dir;
    int threads;
    char dir[1100]; /* write every output here: a staging directory until the end */
    int nmethod;
    tc_exp_entry *method; /* the methods that run, in order: the script's, then the others */
    tc_metrics metrics;   /* tc_metrics_add(&x->metrics, label, ...) */
    const tc_run_opts *opts;
    void *state;
    char final_dir[1100];
    int nneed, nreq;
    tc_need need[TC_EXP_MAXNEED];
    char req[TC_EXP_MAXREQ][TC_LABEL_MAX + 1];
    int nref; /* labels the script names in the driver's settings (tc_exp_refer) */
    struct {
        char setting[64], label[TC_LABEL_MAX + 1];
        int line;
    } ref[TC_EXP_MAXREF];
    int nskip, nleft; /* skipped (cannot run here), left out (--methods) */
    int nselected;    /* methods --methods named itself (not kept as references) */
    tc_exp_skip *skip;
    char left[1024];   /* the labels left out by --methods */
    char known[2048];  /* every label, spec and model/engine name a filter could name */
    char labels[1024]; /* every label before --methods, comma-separated */
    int nrun, caprun;
    tc_run_record *run;
    /* the sweeps so far: wall time (s), the process's CPU time during them (s; over MPI, rank 0
     * adds the other ranks' at the experiment's end), items */
    double sweep_wall_s, sweep_cpu_s;
    long sweep_items;
    /* MPI: this process's rank and the number of ranks (0 and 1 without MPI); only rank 0
     * writes the outputs, the others work in a scratch directory; sweeps split so far */
    int rank, nrank, nsweep, nsplit;
    unsigned ordinal; /* this experiment's place among those planned (mod 65536) */
    FILE *md, *tex;   /* the section, built in memory */
    char *md_buf, *tex_buf;
    size_t md_len, tex_len;
    size_t md_head, tex_head; /* where the heading ends (the verdicts go there) */
    char warn[2048];          /* experiment-level warnings, one per line */
    int nwarn;
};

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
