/* SPDX-License-Identifier: MIT */
/* experiments on one runner: the experiment type (a script plus a short driver), its registry,
 * and what the runner does for every driver — the methods (script, registry, --methods, --set),
 * the sweep over runs in parallel, one record per run, metrics and their digests, tables,
 * figures and the report section, all written into a staging directory that replaces the
 * previous output set only when the experiment has finished */
#ifndef TC_EXPERIMENT_H
#define TC_EXPERIMENT_H

#include "exp/tc_script.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "report/tc_table.h"
#include "sim/tc_sim.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_exp tc_exp;

/* a method parameter set from the command line: `--set target.param=value`, target a label, a
 * model or engine name, or a method spec */
typedef struct tc_override {
    char target[80], param[64];
    double value;
    char text[200]; /* as given */
    int used;       /* how many methods it was applied to, over every experiment planned */
} tc_override;

/* what one `touche run` asks of every experiment */
typedef struct tc_run_opts {
    const char *source_dir; /* holds experiments/, data/, paper/ */
    const char *out_root;   /* experiment E writes <out_root>/E/ */
    const char *tier;       /* "quick" or "full" */
    const char *methods;    /* comma-separated labels, specs or model/engine names, or NULL */
    tc_override *set;       /* nset overrides, applied after the script's parameters */
    int nset;
    int threads; /* OpenMP threads for the sweeps */
} tc_run_opts;

/* what `touche generate NAME` hands an experiment's generator */
typedef struct tc_gen_opts {
    const char *source_dir; /* the tree whose data/ is regenerated */
    const char *out;        /* another output file, or NULL for the one in data/ */
    const char *method;     /* the method that generates, or NULL for the experiment's own */
    int threads;
} tc_gen_opts;

/* the work of a run, estimated from its script and methods before anything runs */
typedef struct tc_work {
    double steps;   /* time steps and static force evaluations, summed over every run */
    double bytes;   /* memory held at once, roughly (B) */
    double seconds; /* wall time on one thread of a 2020s x86 core, order of magnitude (s) */
    double factor;  /* the most a method's raised iteration caps multiply its steps' time by
                     * (tc_method_work_factor, set by tc_exp_work_check; 1 at the defaults):
                     * above 1, seconds is an upper bound */
} tc_work;

/* the limits a run may exceed only with consent (touche run --force) */
#define TC_WORK_MAX_STEPS   1e9    /* steps and force evaluations of one experiment */
#define TC_WORK_MAX_SECONDS 86400. /* estimated wall time of one experiment over its threads */

/* the estimates' cost model, on one thread (s): a step or force evaluation of a small scene, one
 * body of a pile for one step, one pair of sample points of a point-cloud model (SCM), measured
 * on touche's own runs to within a factor of a few (docs/architecture.md) */
#define TC_WORK_STEP_S      3e-5
#define TC_WORK_BODY_STEP_S 3e-5
#define TC_WORK_PAIR_S      4e-8

/* the sample points a method puts on a surface of area a (m^2): a / spacing^2 (at least 12) for
 * a method with a sample spacing (a parameter of kind TC_PARAM_SPACING, m), else 0 */
double tc_work_points(const struct tc_method *m, double area);

/* an experiment: one const instance per driver (the built-in ones listed in experiments/registry.c)
 */
typedef struct tc_experiment_type {
    const char *name;    /* "e1_sphere_profiles": the driver name scripts give and the output
                          * directory of the built-in script */
    const char *title;   /* one line for `touche list` */
    const char *heading; /* the report section's title, e.g. "Sphere force profiles (E1)" */
    const char *paper;   /* what it reproduces, e.g. "Beker et al. 2025, fig. 1 and 5": then
                          * its folder's claims.cfg must hold its claims (tests/report/test_claims.c);
                          * one of   one's own that reproduces no paper says "none: <what it is>" and
                          * needs none */
    const char *script;  /* the built-in script under experiments/, in the experiment's folder
                          * ("e1/e1_sphere_profiles.cfg"), which also holds its plot templates */
    const tc_results_file *results; /* the result files digested per method (NULL: none) */
    /* read the script's settings (tc_script_*: errors name file, line, setting), declare what a
     * method needs to join (tc_exp_need) and the references it compares against
     * (tc_exp_require); *state is the driver's own, freed by free. Nothing is written. */
    tc_status (*setup)(tc_exp *x, void **state, tc_error *err);
    /* the sweep (tc_exp_sweep) and every output (files under x->dir, metrics in x->metrics,
     * the section with tc_exp_text, tc_exp_table, tc_exp_figure) */
    tc_status (*run)(tc_exp *x, void *state, tc_error *err);
    void (*free)(void *state);
    /* optional: regenerate the experiment's input data in data/ (`touche generate NAME`) */
    tc_status (*generate)(const tc_gen_opts *o, tc_error *err);
    const char *generate_doc;
    /* optional: a benchmark (`touche bench NAME`, NAME its bench_name): its options and what it
     * times, run by the harness of exp/tc_bench.h, which plans this experiment for it */
    const char *bench_name;
    const char *bench_doc;
    const struct tc_bench_def *bench;
    /* optional: the work of the planned run (its script's sizes, its methods), before it starts;
     * without it the run is neither estimated nor limited */
    void (*estimate)(const tc_exp *x, const void *state, tc_work *w);
    /* optional: once the methods are known (after setup, before anything runs), refuse what the
     * script asks of them that they cannot do; errors name file, line and setting, and the run
     * stops at planning (exit 2) instead of failing when it gets there */
    tc_status (*check)(const tc_exp *x, const void *state, tc_error *err);
} tc_experiment_type;

/* the catalog: the program hands the runner its built-in experiments once at start (a
 * NULL-terminated table in report order, e.g. tc_experiments of the experiments library,
 * experiments/tc_experiments.h); tc_experiment_at(i) walks it and then those registered at run
 * time; find by name or by the prefix before '_' ("e1"). libtouche itself holds no experiment */
void tc_experiment_catalog(const tc_experiment_type *const *builtin);
const tc_experiment_type *tc_experiment_at(int i);
const tc_experiment_type *tc_experiment_find(const char *name);

/* buf = the path of t's built-in script in the source tree source_dir (NULL: ".") */
void tc_experiment_script(const tc_experiment_type *t, const char *source_dir, char *buf, size_t n);
tc_status tc_experiment_register(const tc_experiment_type *t, tc_error *err);

/* buf = the path of file in t's folder (the built-in script's) in the source tree source_dir
 * (NULL: "."), e.g. experiments/e1/reference.quick.cfg */
void tc_experiment_file(const tc_experiment_type *t, const char *source_dir, const char *file,
                        char *buf, size_t n);

/* the reference of the catalog's experiment named experiment at tier, in its folder of the
 * source tree (tc_source_dir): experiments/<folder>/reference.<tier>.cfg into buf, 1; 0 when
 * no experiment has that name. A tc_check_opts.ref_path (ctx unused) */
int tc_experiment_reference(void *ctx, const char *experiment, const char *tier, char *buf,
                            size_t n);

/* ---------- an experiment being run ---------- */

/* one method of the experiment */
typedef struct tc_exp_entry {
    char label[TC_LABEL_MAX + 1];
    tc_method m;
    int line;      /* its line in the script, 0 when it joined on its own */
    char set[256]; /* parameters set from the command line, "eps2=0.003 k=10" */
} tc_exp_entry;

/* a registered method that did not join, and why */
typedef struct tc_exp_skip {
    char name[64];
    char reason[200];
} tc_exp_skip;

/* one run: a method at one point of the sweep with one seed */
typedef struct tc_run_record {
    int method;       /* index into x->method, -1 for a run of no method (an external solver) */
    char spec[64];    /* the method as run (a driver may pick the solver per run) */
    char params[600]; /* its parameters as run, "name=value ..." */
    char what[128];   /* the sweep point, e.g. "study=pile" */
    long long seed;   /* -1: none */
    tc_status status; /* TC_OK, or why it failed (TC_EDIVERGED, TC_EENGINE, ...) */
    char reason[256];
    long long steps;           /* steps or force evaluations done */
    double wall_s;             /* wall-clock time (s), summed over its items */
    tc_residual_summary resid; /* its simulations' residuals (sim/tc_residual.h; 0 steps: none
                                * tracked), folded from its items in item order */
} tc_run_record;

/* what a requirement of the experiment asks of a method */
typedef struct tc_need {
    unsigned caps, shapes;
    char what[64];
} tc_need;

#define TC_EXP_MAXNEED 8
#define TC_EXP_MAXREQ  4
#define TC_EXP_MAXREF  16 /* label references a driver checks (tc_exp_refer) */

/* ---------- the experiment being run, for drivers (its fields are the runner's own) ---------- */

/* its methods, in order (the script's, then the others that joined): the count, one method, its
 * label, and the whole entry (label, method, script line, parameters set from the command line) */
int tc_exp_nmethod(const tc_exp *x);
const tc_method *tc_exp_method(const tc_exp *x, int i);
const char *tc_exp_label(const tc_exp *x, int i);
const tc_exp_entry *tc_exp_entry_at(const tc_exp *x, int i);

/* its script (loaded at the run's tier), metrics (tc_metrics_add), OpenMP threads, tier, the
 * source tree it reads data/ from, and its output name */
const tc_script *tc_exp_script(const tc_exp *x);
tc_metrics *tc_exp_metrics(tc_exp *x);
int tc_exp_threads(const tc_exp *x);
const char *tc_exp_tier(const tc_exp *x);
const char *tc_exp_source_dir(const tc_exp *x);
const char *tc_exp_name(const tc_exp *x);

/* the registered methods that did not join (tc_exp_skip: name and reason), the needs declared,
 * the runs declared */
int tc_exp_nskip(const tc_exp *x);
const tc_exp_skip *tc_exp_skip_at(const tc_exp *x, int i);
int tc_exp_nneed(const tc_exp *x);
int tc_exp_nrun(const tc_exp *x);

/* plan experiment type t from script (its `driver` must name t): load it at the tier, let the
 * driver read its settings, then resolve the methods — the script's, every other registered one
 * that meets a need (the rest are skipped with the reason), --methods, --set. Writes nothing.
 * The output directory is <out_root>/<name>. On error *x is NULL */
tc_status tc_exp_plan(tc_exp **x, const tc_experiment_type *t, const char *script, const char *name,
                      const tc_run_opts *o, tc_error *err);

/* plan a registered experiment with its built-in script at a tier, every method, one thread,
 * for a tool that uses its methods and settings without running it (a benchmark) */
tc_status tc_exp_plan_builtin(tc_exp **x, const char *name, const char *tier, tc_error *err);

/* a benchmark's error on stderr ("touche bench NAME: file:line: ..."); returns exit status 1 */
int tc_bench_fail(const char *name, const tc_error *err);

/* run a planned experiment: staging directory, the driver's run, runs.csv, metrics.cfg with the
 * result digests, section.md and section.tex; then the staging directory replaces
 * <out_root>/<name> in one rename. On any error, or on an interrupt (TC_EINTR), the previous
 * output set stays as it was and the staging directory is removed */
tc_status tc_exp_execute(tc_exp *x, tc_error *err);
void tc_exp_free(tc_exp *x);

/* out_root/report.md, experiments.tex and the PDF, with the registered experiments in registry
 * order (then any other output directories with a section) */
tc_status tc_exp_report(const char *out_root, tc_error *err);

/* 1 when token (a --methods entry) names a label, spec or model/engine name of this experiment,
 * counting methods skipped or left out */
int tc_exp_knows(const tc_exp *x, const char *token);

/* runs that failed (after execute) */
int tc_exp_failed(const tc_exp *x);

/* ---------- for drivers: setup ---------- */

/* a method joins when it meets at least one need: capabilities caps and every shape type in
 * shapes; what names the scene ("static force on spheres") */
void tc_exp_need(tc_exp *x, unsigned caps, unsigned shapes, const char *what);

/* a label the experiment compares against (E2's MuJoCo): kept whatever --methods says; the
 * script must list it (an error naming the script otherwise, at planning) */
void tc_exp_require(tc_exp *x, const char *label);

/* a label the script names in one of the driver's settings (setting: its dotted name): it must
 * name a method the experiment knows (a script label, a registered method or its model/engine),
 * else planning fails at the setting's line, so a misspelt label cannot skip a study silently */
void tc_exp_refer(tc_exp *x, const char *setting, const char *label);

/* the planned run's work (tc_experiment_type.estimate) into *w, and whether it may start: above
 * TC_WORK_MAX_STEPS, TC_WORK_MAX_SECONDS (over x->threads on each rank) or half the machine's
 * memory it is refused (TC_EINVAL naming what to lower) unless force; 0 in *w where the driver
 * gives none */
tc_status tc_exp_work_check(const tc_exp *x, int force, tc_work *w, tc_error *err);

/* "about 1.2e+06 steps, 45 MiB, 3 min" (or "no estimate"); with raised iteration caps "..., up
 * to 11 h if the solvers run to their iteration caps (1e+04 times the defaults)" */
void tc_work_describe(const tc_work *w, int threads, char *buf, size_t n);

/* the index of the method labelled label, or -1 */
int tc_exp_method_find(const tc_exp *x, const char *label);

/* ---------- for drivers: runs ---------- */

/* declare a run before the sweep: method index (-1 for none), the method as run (NULL: the
 * method's own), its seed (-1: none) and what point of the sweep it is; returns its index */
int tc_exp_add_run(tc_exp *x, int method, const tc_method *as_run, long long seed, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

/* one work item of a sweep: its run, and what the item function reports */
typedef struct tc_item {
    int run;
    tc_status status; /* set on failure, with reason */
    char reason[256];
    long long steps;           /* steps or evaluations done */
    tc_residual_summary resid; /* residuals of its simulations (tc_item_residuals), 0 steps: none */
} tc_item;

/* a driver's own loop: residual tracking on for sim (call after tc_sim_alloc; tc_simulate does
 * it itself); the status of tc_sim_track_residuals */
static inline tc_status tc_item_track(tc_sim *sim) {
    return tc_sim_track_residuals(sim, 1);
}

/* a driver's own loop: sim's residual summary folded into the item (call before tc_sim_free);
 * the runner folds the item into its run's record, runs.csv and the metrics */
void tc_item_residuals(tc_item *it, const tc_sim *sim);

/* a driver that folds its runs itself (tc_exp_record): summary s folded into run's record */
void tc_exp_record_residuals(tc_exp *x, int run, const tc_residual_summary *s);

/* the residuals of method's runs that succeeded, folded in run order and finished (0 steps:
 * none tracked) */
void tc_exp_method_residuals(const tc_exp *x, int method, tc_residual_summary *out);

/* the sweep: items 0..n-1 (item i belongs to run item_run[i], or run i when item_run is NULL) in
 * parallel over x->threads OpenMP threads (dynamic schedule), with progress on stderr. fn must
 * write only its own results; the runner times each item and folds it into its run's record
 * (the first failed item, in item order, gives the run's reason). After an interrupt the
 * remaining items are not started and TC_EINTR is returned */
typedef void (*tc_item_fn)(void *ctx, int item, tc_item *it);
tc_status tc_exp_sweep(tc_exp *x, int n, const int *item_run, tc_item_fn fn, void *ctx);

/* the sweep with each item's estimated cost (any unit, e.g. bodies x steps; NULL: all equal):
 * items start in order of decreasing cost (ties in item order), so the longest ones do not
 * start last and leave the other threads idle. The order changes no result: every item writes
 * its own slot and the runs are folded in item order, as in tc_exp_sweep */
tc_status tc_exp_sweep_costed(tc_exp *x, int n, const int *item_run, const double *cost,
                              tc_item_fn fn, void *ctx);

/* where one item's results live, for a sweep split over MPI ranks (docs/mpi.md): a region of
 * the driver's memory that the item fills; the rank that ran the item sends its bytes to the
 * others, which copy them into the same region of their own memory */
typedef struct tc_region {
    void *p;
    size_t bytes;
} tc_region;
#define TC_ITEM_MAXREGION 16

/* the regions item writes (at most TC_ITEM_MAXREGION, into r), their count returned: every
 * result the item writes lies in them, no two items' regions overlap, and they depend only on
 * the item and the state before the sweep (the same on every rank) */
typedef int (*tc_item_regions_fn)(void *ctx, int item, tc_region *r);

/* the sweep split over the ranks of an MPI run (`mpirun -np N touche run ...`): as
 * tc_exp_sweep_costed, and each rank runs a fixed share of the items on its OpenMP threads (in
 * the start order each item goes to the rank with the least cost so far: a rule of the costs and
 * N alone, docs/mpi.md); then every rank receives every item's regions and record, so
 * the state after the sweep is the same on every rank and does not depend on N. Without MPI, or
 * on one rank, it is tc_exp_sweep_costed. tc_exp_sweep_costed itself (no regions) runs every
 * item on every rank */
tc_status tc_exp_sweep_split(tc_exp *x, int n, const int *item_run, const double *cost,
                             tc_item_fn fn, tc_item_regions_fn regions, void *ctx);

/* 1 on the process that writes the outputs: rank 0 of an MPI run, or the only process. The
 * other ranks run the driver too (so every rank runs the same sweeps) but their files are thrown
 * away: a driver may skip work after its last sweep whose results only go into files, such as a
 * serial timing study, where this is 0 */
int tc_exp_writer(const tc_exp *x);

/* the record of a run done outside a sweep (timed serially by the driver) */
void tc_exp_record(tc_exp *x, int run, tc_status st, const char *reason, long long steps,
                   double wall_s);
const tc_run_record *tc_exp_run_record(const tc_exp *x, int run);

/* ---------- for drivers: the time-series simulation loop ---------- */

/* what the loop measures after every step (from the state and the shapes alone, the same for
 * every method) */
enum {
    TC_SERIES_KINETIC = 1u << 0,     /* kinetic energy (J) */
    TC_SERIES_PENETRATION = 1u << 1, /* the largest penetration between shapes (m) */
    TC_SERIES_MOMENTUM = 1u << 2,    /* |linear momentum| (kg m/s) */
};

/* one simulation: the steps, what to record, and the driver's hooks */
typedef struct tc_sim_loop {
    double dt; /* step (s) */
    long steps;
    int every;         /* a sample after steps 1, 1 + every, 1 + 2 every, ... */
    long measure_from; /* the summary counts steps from this one on (0-based) */
    unsigned series;   /* TC_SERIES_* to measure */
    void (*before)(void *ctx, tc_sim *sim, long k); /* before step k: targets, external wrenches */
    void (*after)(void *ctx, tc_sim *sim, long k);  /* after step k succeeded */
    void (*end)(void *ctx, tc_sim *sim);            /* once at the end, failed or not */
    void *ctx;
    double energy_rise_max; /* J: a run whose energy (kinetic + gravitational, tc_sim_energy)
                             * rises more than this above its start fails as implausible, with
                             * the rise in its reason (0: not checked; for scenes without input) */
} tc_sim_loop;

/* what it recorded */
typedef struct tc_series {
    int n;                    /* samples each array holds */
    double *ke, *pen, *mom;   /* the samples (NULL: not kept) */
    long steps;               /* steps completed */
    double mean_pen, max_pen; /* penetration over the measured steps (m) */
    double final_ke, peak_ke; /* J */
    double mean_mom, max_mom; /* |linear momentum| over the measured steps (kg m/s) */
    long long iters, fails;   /* inner-solver work and failed solves */
    double wall_s;            /* the loop's wall-clock time (s) */
} tc_series;

/* arrays for the samples of `what` of a loop of `steps` steps sampled every `every` */
tc_status tc_series_alloc(tc_series *s, long steps, int every, unsigned what);
void tc_series_free(tc_series *s);

/* the regions of a series (its samples and its summary, not its pointers) into r; returns their
 * count (at most 4) */
int tc_series_regions(tc_series *s, tc_region *r);

/* simulate scene sc with method m: each step the hooks, then the measures into out; a failed
 * step (divergence, a solver or engine error) ends it with the status and the simulation's
 * warnings as the reason in it; an interrupt ends it with TC_EINTR */
void tc_simulate(const tc_scene *sc, const tc_method *m, const tc_sim_loop *loop, tc_series *out,
                 tc_item *it);

/* ---------- for drivers: outputs ---------- */

/* buf = x->dir/file */
tc_status tc_exp_path(const tc_exp *x, const char *file, char *buf, size_t n);

/* open x->dir/file for writing through a temp file (core/tc_fs.h: tc_outfile_commit renames it
 * into place, tc_outfile_abort throws it away) */
struct tc_outfile;
tc_status tc_exp_open(const tc_exp *x, const char *file, struct tc_outfile *o, tc_error *err);

/* a paragraph of the report section, Markdown with `code` spans; the LaTeX gets it escaped */
void tc_exp_text(tc_exp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* write table t as base.md and base.tex and put it in the section */
tc_status tc_exp_table(tc_exp *x, const tc_table *t, const char *base, const char *caption,
                       tc_error *err);

/* render the template tpl (a path from the experiment's folder, the folder of its built-in
 * script: "e1_profile.gp" is experiments/e1/e1_profile.gp) to base.png and base.pdf and put it in
 * the section; a failure (no
 * gnuplot, a template error) is a warning of the experiment, shown in its section and in the
 * summary, and makes `touche run` exit non-zero */
void tc_exp_figure(tc_exp *x, const char *tpl, const tc_plot_var *vars, int nvar, const char *base,
                   const char *caption);

/* what a caption says of a figure whose template draws its methods through plots/methods.gp:
 * tc_exp_figure passes every template joined, the methods that joined on their own */
#define TC_EXP_GREY_NOTE                                                                           \
    "the script's methods in colour, those that joined on their own thin and grey behind them"

/* a picture of scene sc (tc_exp_figure of plots/scene.gp, data base.dat): every body's outline
 * projected onto two world axes, view "xz" (x across, z up: a 3-D scene under gravity -z) or
 * "xy" (a planar scene, or a table seen from above), to scale; fixed bodies grey. A plane shows
 * as a ground line when its normal is the view's vertical axis */
/* a speed-accuracy figure (plots/pareto.gp, data base.csv): per method, its wall time per step
 * over its finished runs (those whose sweep point starts with runs, e.g. "scene=slide"; NULL:
 * all) against |metric|, the metric named by fmt with the method's label for its %s
 * ("%s.mean_max_penetration", "slide.%s.distance_error"), what its axis says ("mean run
 * max penetration (m)"); the methods no cheaper one matches in accuracy joined as the Pareto
 * front. Methods without finished runs or the metric are left out; nothing with fewer than two */
void tc_exp_pareto(tc_exp *x, const char *fmt, const char *runs, const char *what, const char *base,
                   const char *caption);

void tc_exp_scene_figure(tc_exp *x, const tc_scene *sc, const char *view, const char *base,
                         const char *caption);

/* an experiment-level warning (summary and section) */
void tc_exp_warn(tc_exp *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* text made safe for one CSV field: quoted, inner quotes doubled, line breaks as spaces */
void tc_csv_field(char *buf, size_t n, const char *text);

/* a metric of method label (NULL: the experiment's) whose name is printf's fmt, e.g.
 * "%s.centre_slope.r%g" (tc_metrics_add: value, unit, tolerances, TC_METRIC_* flags, doc) */
void tc_exp_metric(tc_exp *x, const char *label, double v, const char *unit, double tol_abs,
                   double tol_rel, unsigned flags, const char *doc, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* append sep (when b is not empty) and printf's fmt to the string b of n bytes, cut to fit: a
 * figure's list of labels, a caption's list of values */
void tc_words_add(char *b, size_t n, const char *sep, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif
