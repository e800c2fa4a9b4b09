/* SPDX-License-Identifier: MIT */
/* E5 and E6 (Le Cleac'h et al. 2023): what the dropped polytopes and the block stacks share —
 * polygons A x <= b from a script, the rate x tolerance grid, one sweep of 2-D scenes over it
 * for every method, and the heat maps of fig. 9 and 10 */
#ifndef TC_E56_H
#define TC_E56_H

#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"

#define E56_MAXGRID 12 /* rates, tolerances */
#define E56_MAXTOLM 4  /* methods that sweep the tolerance */
#define E56_MAXBODY 8  /* polygons in one scene */

/* a polygon A x <= b (m, A's frame) with its mass (kg), inertia about its centroid (kg m^2), and
 * its vertices and centroid in A's frame */
typedef struct e56_polygon {
    int m, na; /* rows, and the numbers given for A (2 per row) */
    double A[TC_POLYGON_MAXROW][2], b[TC_POLYGON_MAXROW];
    double mass, izz;
    int nv;
    double v[TC_POLYGON_MAXROW][2], c[2];
} e56_polygon;

/* the group `path` of the script: A = [a11, a12, a21, ...] (m rows of 2), b = [...] (m), mass,
 * inertia. Errors name file, line and setting: a wrong count, an empty, unbounded or degenerate
 * polygon, a row that is no edge of it (a redundant row, or a non-convex outline written as rows)
 */
tc_status e56_read_polygon(const tc_script *s, const char *path, e56_polygon *p, tc_error *err);

/* the grid: rates (Hz) x complementarity tolerances (1), and the labels that sweep `tol` */
typedef struct e56_grid {
    int nrate, ntol;
    double rate[E56_MAXGRID], tol[E56_MAXGRID];
    int ntolm;
    char tolm[E56_MAXTOLM][TC_LABEL_MAX + 1];
    double seconds; /* simulated time of every run (s) */
} e56_grid;

/* rates, tolerances (each > 0; an error names file, line and setting), tolerance_methods and
 * seconds */
tc_status e56_read_grid(const tc_script *s, e56_grid *g, tc_error *err);

/* the world pose of polygon p's vertices in a simulation (body i), y of the lowest two and the
 * body's rotation about z (rad, in (-pi, pi]) */
void e56_lowest_two(tc_sim *sim, int body, double y[2]);
double e56_angle(tc_sim *sim, int body);

/* the largest distance between two of the polygon's vertices (m): its size */
double e56_polygon_size(const e56_polygon *p);

/* what one simulation measured */
typedef struct e56_out {
    long steps;
    int errored;               /* a step returned an error or diverged */
    double max_pen;            /* largest geometric penetration over the run (m) */
    double mean_lin, mean_ang; /* mean |linear momentum| (kg m/s), |angular momentum| (kg m^2/s) */
    long long iters, fails;    /* inner-solver iterations, steps that hit the iteration cap */
    int ok_end;                /* the study's end check (at rest face down; the tower up) */
    double end[2];   /* the study's end measures (E5: speed, level; E6: top height, tilt) */
    char reason[96]; /* why it errored */
    /* the public code's measures (Silico.jl's benchmarks), for the per-cell comparison:
     * the largest pseudo signed-distance violation max(1 - alpha, 0) of body 1 against the
     * ground (1, the polygon scaled about A's origin; with a psdf polygon), the mean over the
     * steps of (|p_x| + |p_y|) / 2 (kg m/s) and of |sum I_zz omega_z| (kg m^2/s) */
    double psdf, pub_lin, pub_ang;
    /* body 1's ground penetration (m, closed form, with a psdf polygon) after the first step that
     * ends in contact (the landing step: a method that reacts only to overlap shows one step of
     * free fall there), and the largest after it */
    double land_pen, after_pen;
    /* the outcome is physically absurd (through the floor or another body, energy from nothing,
     * a non-finite state): the run fails with absurd_reason */
    int absurd;
    char absurd_reason[160];
} e56_out;

/* a study: nscene scenes built on demand (build(ctx, i, sc)), each run from start(ctx, i, sim)
 * (initial velocities) for grid.seconds, end(ctx, i, sim, out) judging the end state */
typedef struct e56_study {
    int nscene;
    tc_status (*build)(const void *ctx, int i, tc_scene *sc, tc_error *err);
    void (*start)(const void *ctx, int i, tc_sim *sim);
    void (*end)(const void *ctx, int i, tc_sim *sim, e56_out *o);
    const void *ctx;
    const char *what; /* "drop", "stack" */
    int bodies;       /* bodies that move in a scene: the work of a step grows with them */
    /* a penetration beyond this (m: the smallest body's size) is absurd: a body through the floor
     * or through another; 0: not checked */
    double size;
    /* body 1's polygon against the ground (E5), for psdf and the landing step; NULL: none. Its
     * body frame is A's frame turned by psdf_phi (rad: the principal axes the scene chose) */
    const e56_polygon *psdf_poly;
    double psdf_phi;
} e56_study;

/* body 1's polygon (st->psdf_poly) against the ground y = 0 in a simulation: its penetration (m)
 * and the public code's pseudo signed-distance violation max(1 - alpha, 0), alpha the scaling
 * about A's origin at which the polygon touches the ground (the closed form of problem 14 for a
 * polygon and a half-space: alpha = y_o / (y_o - y_low), y_o the height of A's origin, y_low of
 * the lowest vertex) */
void e56_ground_violation(const e56_study *st, tc_sim *sim, double *pen, double *psdf);

/* one grid cell: a method at a rate and (for the tolerance methods) a tolerance */
typedef struct e56_cell {
    int method, rate, tol; /* tol -1: the method's own */
    int run;
    tc_method m;  /* the method as run */
    e56_out *out; /* nscene results */
    /* the cell's summary */
    int failed, errored, ok_end, absurd;
    double max_pen, mean_pen, iters_per_step, mean_lin, mean_ang;
    /* means over the scenes: the public code's measures, the landing step's penetration and the
     * largest after it (m) */
    double psdf, pub_lin, pub_ang, land_pen, after_pen;
} e56_cell;

/* the sweep of a study over every method and the grid (tolerances for the tolerance methods,
 * each rate for every method); rates, tolerances and seeds in runs.csv */
typedef struct e56_sweep {
    int ncell, nscene;
    e56_cell *cell;
    e56_out *out;
    int has_tol[256]; /* per method: sweeps the tolerance */
} e56_sweep;

/* what E5's and E6's states start with: their studies (study q over grid g[q] into sw[q]) and
 * the steps each method takes outside them (E6's speed study) */
#define E56_MAXSTUDY 4
typedef struct e56_base {
    int nstudy;
    const e56_grid *g[E56_MAXSTUDY];
    const e56_study *st[E56_MAXSTUDY];
    e56_sweep *sw[E56_MAXSTUDY];
    long extra_steps;
} e56_base;

/* b's studies: declare the runs (one per cell) in study order, run every scene of every cell in
 * one parallel sweep (scenes built per item in a per-thread buffer; a study of a few long runs
 * overlaps the others' short ones instead of waiting for them: E6's tall stack beside its
 * two-block stacks), and sum the cells up. A step's error or divergence is the study's measured
 * outcome (errored), not a failed run; a simulation that cannot start is, and so is a physically
 * absurd outcome (its cell's run fails with the first scene's reason) */
tc_status e56_run_studies(tc_exp *x, e56_base *b, tc_error *err);

/* setup's end for the state b: the labels of the first grid's tolerance_methods must name
 * methods, and the first study's first scene says what a method needs (what: it in words) */
/* a picture of study q's first scene (tc_exp_scene_figure, the x-y plane: gravity is -y) */
void e56_scene_figure(tc_exp *x, const e56_base *b, int q, const char *caption);

tc_status e56_need(tc_exp *x, const e56_base *b, const char *what, tc_error *err);

/* the hooks of a driver whose state starts with an e56_base: the work of every study over every
 * method's grid and the extra steps, the check that every method of each grid's
 * tolerance_methods has a solver parameter `tol` that takes each of its tolerances (an error
 * names the script's line: tolerance_methods, or tolerances for a value the solver refuses), and
 * the state freed with its sweeps */
void e56_estimate(const tc_exp *x, const void *state, tc_work *w);
tc_status e56_check(const tc_exp *x, const void *state, tc_error *err);
void e56_free(void *state);

/* grid.csv (one row per cell: label, rate, tolerance, the summary) and the per-scene rows
 * (scenes.csv: label, rate, tolerance, scene, the measures) */
tc_status e56_write_grid(tc_exp *x, const e56_grid *g, const e56_sweep *sw, const char *file,
                         const char *scene_file, tc_error *err);

/* the paper's value of a heat map's quantity for method label: lo == hi for one value, lo < hi
 * for a range, both NAN where the paper gives none */
typedef void (*e56_paper_fn)(const tc_exp *x, const char *label, double *lo, double *hi);

/* one heat-map figure of a grid.csv column for every method (one panel each, one colour range
 * across them): rates along x, tolerances along y (one row for methods without them); paper
 * (NULL: none) gives the paper's values, marked beside the colour bar and in the panels' titles */
void e56_heat_figure(tc_exp *x, const e56_grid *g, const e56_sweep *sw, const char *grid_file,
                     const char *column, int log_scale, const char *cb_label, const char *base,
                     const char *caption, e56_paper_fn paper);

/* cell c's value in grid.csv's column (NAN for a text column or no such column) */
double e56_cell_value(const e56_grid *g, const e56_sweep *sw, const e56_cell *c,
                      const char *column);

/* the nv numbers v as "%g", space separated, into buf (n bytes): a figure's list of values */
void e56_join(char *buf, size_t n, const double *v, int nv);

/* a table of the headings in heads, separated by ';' (at most 16: "method;runs;mean |p|"), and
 * a row of it from fmt, its cells separated by ';' too ("%s;%d;%.3g"); cells past the last are
 * empty */
tc_table *e56_table(const char *heads);
tc_status e56_table_row(tc_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* a method's totals over a sweep's cells, for E5's and E6's summaries: counts over the runs, the
 * largest penetration (m), means over the cells (iterations per step counting a cell without
 * steps as 0; the momenta over the cells that have them, NaN for none), and the reasons of the
 * first errored and the first absurd scene */
typedef struct e56_total {
    int ncell, runs, failed, errored, ok_end, absurd;
    double max_pen, mean_pen, land_pen, after_pen, psdf, pub_lin, pub_ang, iters_per_step;
    double mean_lin, mean_ang;
    char error[96], why[160];
} e56_total;

/* method k's totals over sw's cells into t; 0 when it has no cell */
int e56_total_of(const e56_sweep *sw, int k, e56_total *t);

/* a metric of a method (its label), named "<prefix>.<name>": its unit, what it is, its value and
 * the tolerances `touche check` compares it with; with finite, a metric without a finite value is
 * left out */
typedef struct e56_metric {
    const char *name, *unit, *doc;
    double v, tol_abs, tol_rel;
} e56_metric;
void e56_metrics_add(tc_exp *x, const char *label, const char *prefix, const e56_metric *m, int n,
                     int finite);

#endif
