/* SPDX-License-Identifier: MIT */
/* metrics an experiment emits, digests of its results, reference values with tolerances and
 * provenance, and the check */
#ifndef TC_METRICS_H
#define TC_METRICS_H

#include <stdio.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_LABEL_MAX 40 /* most characters of a method label */

/* metric flags */
enum {
    TC_METRIC_TIMING = 1u << 0, /* a wall-clock time or ratio: machine-dependent, never hashed,
                                 * never a pass or fail of the check (shown apart) */
    TC_METRIC_HIGHER_FASTER = 1u << 1, /* a timing where a larger value means faster (a speed-up
                                        * ratio); without it a larger value means slower */
};

/* one scalar result with the tolerance that separates noise from a regression:
 * it passes when |value - ref| <= tol_abs + tol_rel * |ref| */
typedef struct tc_metric {
    char name[96];                 /* e.g. "scm-smooth.jump_ratio_F" */
    char method[TC_LABEL_MAX + 1]; /* label of the method it measures; "" for the experiment */
    double value;
    char unit[16];  /* "N", "1", ... */
    double tol_abs; /* in unit */
    double tol_rel; /* fraction of |ref| */
    unsigned flags; /* TC_METRIC_* */
    char doc[160];  /* one line: what it measures */
} tc_metric;

/* a method that ran; cpu says why its results may differ on another CPU ("" when they do not) */
typedef struct tc_metrics_method {
    char label[TC_LABEL_MAX + 1];
    char cpu[200];
    char cpu_kind[64];       /* which CPU kind the run saw (e.g. "OpenBLAS Zen"), "" when exact */
    char spec[64];           /* the method as run ("penalty-mp/rk4"); "" when not recorded */
    char params[1024];       /* its parameters as "name=value" words (model, solver, engine, with
                              * the script's and --set's values); "" when not recorded */
    int runs, failed;        /* its runs and how many failed; runs < 0: not recorded (an older
                              * reference) */
    char failed_reason[200]; /* the first failed run's reason */
} tc_metrics_method;

/* one setting of the experiment's script as the driver saw it at the run's tier */
typedef struct tc_metrics_setting {
    char key[128];   /* dotted path, e.g. "pile.bodies" */
    char value[256]; /* its value as text, e.g. "[30, 100]" */
} tc_metrics_setting;

/* a digest of the results of one method (method "" : the experiment's shared results) */
typedef struct tc_result_hash {
    char method[TC_LABEL_MAX + 1];
    char hash[32];     /* "fnv1a64:" and 16 hex digits */
    char cpu[200];     /* "" when exact on any CPU; else why not */
    char cpu_kind[64]; /* the CPU kind of the run it came from: compared exactly on the same
                        * kind, by the metrics' tolerances on another */
} tc_result_hash;

/* an index of names (metrics.c's own): positions + 1 in a power-of-two table, 0 where empty, so
 * a lookup costs one hash and a few compares however many entries a file holds */
typedef struct tc_metrics_index {
    int *slot;
    int cap;
} tc_metrics_index;

typedef struct tc_metrics {
    char experiment[64];
    char tier[16];
    int n, cap;
    tc_metric *m;
    int nmethod, capmethod;
    tc_metrics_method *methods; /* the methods that ran, in order */
    int filtered;               /* 1 when methods were left out on purpose (touche run --methods):
                                 * references of the others are "not run", not missing */
    int nhash, caphash;
    tc_result_hash *hash;
    int nsetting, capsetting;
    tc_metrics_setting *setting;                   /* the script's settings (none: not recorded) */
    int oom;                                       /* an allocation failed: an error at write */
    tc_metrics_index by_name, by_label, by_digest; /* of m, methods and hash: the first entry of
                                                    * a name is the one found */
} tc_metrics;

void tc_metrics_init(tc_metrics *ms, const char *experiment, const char *tier);
void tc_metrics_free(tc_metrics *ms);

/* append one metric of method (a label, or NULL/"" for the experiment as a whole) */
void tc_metrics_add(tc_metrics *ms, const char *method, const char *name, double value,
                    const char *unit, double tol_abs, double tol_rel, unsigned flags,
                    const char *doc);

/* record a method that ran; cpu: why its results depend on the CPU, or NULL; cpu_kind: which
 * kind this run saw (NULL when exact) */
void tc_metrics_ran(tc_metrics *ms, const char *label, const char *cpu, const char *cpu_kind);

/* what a method that ran (tc_metrics_ran) ran with, and how its runs went: spec, params
 * ("name=value" words), runs and failed runs with the first failure's reason (NULL or "") */
void tc_metrics_method_info(tc_metrics *ms, const char *label, const char *spec, const char *params,
                            int runs, int failed, const char *reason);

/* record one setting of the experiment's script (key: dotted path; value: its text) */
void tc_metrics_setting_add(tc_metrics *ms, const char *key, const char *value);

/* record (or replace) the digest of a method's results (cpu and cpu_kind as above) */
void tc_metrics_set_hash(tc_metrics *ms, const char *method, const char *hash, const char *cpu,
                         const char *cpu_kind);

/* index of the metric called name, the method labelled label, the hash of method; or -1 (the
 * first such entry; constant time: the names are indexed as they are added) */
int tc_metrics_find(const tc_metrics *ms, const char *name);
int tc_metrics_find_method(const tc_metrics *ms, const char *label);
int tc_metrics_find_hash(const tc_metrics *ms, const char *method);

/* write as a libconfig file (atomically); read one back (ms is initialised by the reader and
 * must be freed even on error) */
tc_status tc_metrics_write(const tc_metrics *ms, const char *path, tc_error *err);
tc_status tc_metrics_read(tc_metrics *ms, const char *path, tc_error *err);

/* 1 when s may name an experiment or a tier in a file name: 1 to 64 characters, letters, digits,
 * '-' and '_', not starting with '-' (no '/', no "..", nothing a path could escape with); else 0
 * with the reason in why */
int tc_metrics_name_ok(const char *s, char *why, size_t n);

/* 1 when s may name a metric (it becomes a field of history.tsv, a CSV cell and a markdown table
 * cell): 1 to 95 characters, letters, digits, '.', '_', '-' and '+'; else 0 with the reason */
int tc_metrics_metric_name_ok(const char *s, char *why, size_t n);

/* the reference form: the same plus provenance { generated; revision; host; command;
 * touche_version; note; }, command saying how the outputs were produced */
tc_status tc_metrics_write_reference(const tc_metrics *ms, const char *path, const char *command,
                                     tc_error *err);

/* how an experiment's result files split into per-method digests (tc_results_hash) */
typedef enum tc_results_layout {
    TC_RESULTS_SHARED = 0, /* the whole file belongs to the experiment ("" digest) */
    TC_RESULTS_COLUMNS,    /* CSV; columns headed by a method label belong to it, the other
                            * columns are keys repeated in every method's digest */
    TC_RESULTS_FILES,      /* one file per method: pattern holds one '*', the label */
    TC_RESULTS_ROWS,       /* CSV; the column "label" says whose row it is */
    TC_RESULTS_BLOCKS,     /* gnuplot blocks (blank-line separated), one per method, in the order
                            * of the '#' line that reads "... one block per method: a b c" */
} tc_results_layout;

/* one result file of an experiment (tables end with {NULL}) */
typedef struct tc_results_file {
    const char *pattern; /* file name in the experiment's directory */
    tc_results_layout layout;
    const char *drop; /* comma-separated column names left out (wall-clock times) */
} tc_results_file;

/* the digests of the results in dir: for every method of ms->methods and for the experiment
 * (method ""), FNV-1a 64 over the listed files' parts that belong to it (comment lines of
 * non-shared files and dropped columns left out) and over its metrics that are not timings;
 * stored with tc_metrics_set_hash. A missing file adds nothing. */
tc_status tc_results_hash(const char *dir, const tc_results_file *spec, tc_metrics *ms,
                          tc_error *err);

/* options of `touche check` */
typedef struct tc_check_opts {
    const char *out_dir; /* run output root: <out_dir>/<experiment>/metrics.cfg */
    const char *ref_dir; /* one folder of references, <ref_dir>/<experiment>.<tier>.cfg; NULL:
                          * each experiment's own, where ref_path says */
    /* with ref_dir NULL: the path of experiment's reference at tier into buf (n bytes), 1; 0
     * for an experiment it does not know, which then has none (touche check hands in the
     * built-in experiments' folders: experiments/<folder>/reference.<tier>.cfg) */
    int (*ref_path)(void *ctx, const char *experiment, const char *tier, char *buf, size_t n);
    void *ref_ctx;
    const char *history; /* TSV file to append one line per metric to ("" = none) */
    const char *command; /* how the outputs were produced (provenance of an update) */
    int update;          /* 1: write the references from the outputs instead of checking */
    int update_new;      /* 1: add only what the references lack (new methods, metrics,
                          * digests, the parameters and run counts of older references);
                          * existing values stay as they are */
    int accept_failed;   /* 1: an update may record methods whose runs failed (loudly) */
    int timings;         /* 1: a timing slower than its reference beyond its tolerance fails
                          * the check (same machine only); 0: timings are information */
    int verbose;         /* 1: every experiment's whole table too */
} tc_check_opts;

/* compare every metrics.cfg under out_dir with its reference (accuracy metrics within tolerance,
 * result digests equal, no more failed runs than the reference) and print to report what
 * matters first: failures with their reasons and the parameters that changed, new and missing
 * entries, one line per experiment, then the timings apart (never a failure unless o->timings);
 * append history lines. Returns TC_ECHECK when something regressed or went missing; new entries
 * (no reference yet) are reported, not failures. With update or update_new the references are
 * written instead, never with failed runs' metrics and digests or non-finite values (TC_ECHECK
 * when something was refused; o->accept_failed lets failed runs through). */
tc_status tc_check_run(const tc_check_opts *o, FILE *report, tc_error *err);

#ifdef __cplusplus
}
#endif

#endif
