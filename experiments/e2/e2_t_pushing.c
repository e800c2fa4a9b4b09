/* SPDX-License-Identifier: MIT */
/* E2: planar T-pushing — every rollout in the reference engine and in touche, the fig. 7 table,
 * paths, step time against the number of points */
#include "experiments/e2/e2.h"
#include "exp/tc_rows.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPATH 101 /* path samples per rollout */

/* one rollout of the grid */
typedef struct e2_item {
    int method;        /* index into the methods */
    int dt, integ, sp; /* grid indices; sp = -1 when the method has no spacing */
    int roll;
    tc_method m; /* configured: solver or engine integrator, spacing */
    e2_result r;
    double path[4 * NPATH];
} e2_item;

/* the driver's state */
typedef struct e2_state {
    e2_setup e;
    tc_scene sc;
    e2_traj tr[E2_MAXTRAJ];
    int ntr;
    e2_item *it;
    int n;
} e2_state;

/* the column name as in the paper: "8-RK4-26" (ms, integrator, AOPC points) */
static void column_name(char *b, size_t n, const e2_setup *e, int dt, int integ, int points) {
    if (points > 0)
        snprintf(b, n, "%g-%s-%s", 1e3 * e->dt[dt], e->integ[integ].name,
                 points >= 1000 ? "4k"
                 : points < 100 ? "26"
                                : "mid");
    else
        snprintf(b, n, "%g-%s", 1e3 * e->dt[dt], e->integ[integ].name);
}

/* mean and standard deviation of the finite values */
static void mean_sd(const double *x, int n, double *mean, double *sd) {
    double s = 0, s2 = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(x[i])) {
            s += x[i];
            s2 += x[i] * x[i];
            k++;
        }
    *mean = k ? s / k : NAN;
    *sd = k > 1 ? sqrt(fmax(0, (s2 - s * s / k) / (k - 1))) : k ? 0 : NAN;
}

/* 1 when the method is sampled at every spacing of the grid: it has a sample spacing */
static int spaced(const tc_method *m) {
    return tc_method_param_of_kind(m, TC_PARAM_SPACING) != NULL;
}

/* the distance (cm) between two poses' positions, and the angle (deg) between their headings */
static double gap_cm(const double *a, const double *b) {
    return 100 * hypot(a[0] - b[0], a[1] - b[1]);
}
static double turn_deg(double a, double b) {
    return 180 / M_PI * fabs(remainder(a - b, 2 * M_PI));
}

/* the rollout r of method k in the grid's cell (dt d, integrator g, spacing p): the last such
 * item, or NULL; p = ANY_SP matches every spacing */
enum { ANY_SP = -2 };
static const e2_item *find_item(const e2_state *s, int k, int d, int g, int p, int r) {
    const e2_item *found = NULL;
    for (int i = 0; i < s->n; i++) {
        const e2_item *t = &s->it[i];
        if (t->method == k && t->dt == d && t->integ == g && t->roll == r &&
            (p == ANY_SP || t->sp == p))
            found = t;
    }
    return found;
}

/* csv of every rollout's final pose, step time and status */
static tc_status write_rollouts(const tc_exp *x, const e2_state *s, tc_error *err) {
    const e2_setup *e = &s->e;
    tc_outfile o;
    tc_status st = tc_exp_open(x, "rollouts.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "label,method,dt_s,integrator,spacing_m,rollout,x_m,y_m,theta_rad,step_ms,"
                 "contacts,breaks,status,reason\n");
    for (int i = 0; i < s->n; i++) {
        const e2_item *t = &s->it[i];
        char reason[600];
        tc_csv_field(reason, sizeof reason, t->r.reason);
        fprintf(o.f, "%s,%s,%g,%s,%g,%d,%.9g,%.9g,%.9g,%.6g,%d,%d,%s,%s\n",
                tc_exp_label(x, t->method), t->m.spec, e->dt[t->dt], e->integ[t->integ].name,
                t->sp >= 0 ? e->spacing[t->sp] : 0, t->roll, t->r.final[0], t->r.final[1],
                t->r.final[2], 1e3 * t->r.step_s, t->r.contacts, t->r.breaks,
                t->r.status ? "failed" : "ok", reason);
    }
    return tc_outfile_commit(&o, err);
}

/* csv of the T's paths of one column in the reference and the timed method, for the figure */
static tc_status write_paths(const tc_exp *x, const e2_state *s, int timed, int ref, int dt,
                             int integ, int sp, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "paths.csv", &o, err);
    if (st) return st;
    /* one gnuplot block per (rollout, simulator), two blank lines between blocks */
    fprintf(o.f, "# t_s,x_m,y_m,theta_rad; blocks: rollout 0 %s, rollout 0 %s, ...\n",
            tc_exp_label(x, ref), tc_exp_label(x, timed));
    for (int k = 0; k < s->e.rollouts; k++)
        for (int which = 0; which < 2; which++) {
            const e2_item *t = which ? find_item(s, timed, dt, integ, sp, k)
                                     : find_item(s, ref, dt, integ, ANY_SP, k);
            if (!t) continue;
            for (int j = 0; j < NPATH; j++)
                fprintf(o.f, "%.6g,%.9g,%.9g,%.9g\n", t->path[4 * j], t->path[4 * j + 1],
                        t->path[4 * j + 2], t->path[4 * j + 3]);
            fprintf(o.f, "\n\n");
        }
    return tc_outfile_commit(&o, err);
}

/* step time vs AOPC points: the timed method's steps on the T scene, serially, beside the
 * reference's, both with the timing integrator; *ratio at the coarsest spacing */
static tc_status write_timing(tc_exp *x, const e2_state *s, double *ratio, tc_error *err) {
    /* spacings geometric from the coarsest (27 points) to 2 cm (quick) or 4.7 mm (full, ~4,000) */
    enum { NS_MAX = 12 };
    const int full = strcmp(tc_exp_tier(x), "full") == 0, ns = full ? NS_MAX : 8;
    double spacings[NS_MAX], ms[NS_MAX], ref_s;
    int points[NS_MAX];
    for (int i = 0; i < ns; i++)
        spacings[i] = 0.08 * pow((full ? 0.0047 : 0.02) / 0.08, (double)i / (ns - 1));
    tc_method m[2];
    tc_status st =
        e2_step_times(x, &s->e, &s->sc, &s->tr[0], 2000, spacings, ns, points, ms, &ref_s, m, err);
    if (st) return st;
    tc_outfile o;
    if ((st = tc_exp_open(x, "step_time.csv", &o, err))) return st;
    fprintf(o.f, "points,%s_%s_ms,%s_%s_ms\n", s->e.timing, s->e.timing_integ, s->e.reference,
            s->e.timing_integ);
    for (int i = 0; i < ns; i++)
        fprintf(o.f, "%d,%.6g,%.6g\n", points[i], 1e3 * ms[i], 1e3 * ref_s);
    *ratio = ms[0] / ref_s;
    return tc_outfile_commit(&o, err);
}

/* per step and integrator of the grid: the mean over the rollouts of the distance (cm) the
 * reference moves the T's COM from where it starts and of the angle (deg) it turns it, which
 * are the delta d and delta theta of a T that is never pushed (it stays where it starts: the
 * null outcome of the pose-gap claims); metrics "<ref>.<column>.travel_cm" and ".turn_deg" */
static void travel_metrics(tc_exp *x, const e2_state *s, int ref) {
    const e2_setup *e = &s->e;
    const double *start = s->sc.body[E2_BODY_T].pos;
    const char *label = tc_exp_label(x, ref);
    for (int g = 0; g < e->ninteg; g++)
        for (int d = 0; d < e->ndt; d++) {
            double dist[E2_MAXTRAJ], turn[E2_MAXTRAJ], mean, sd;
            for (int r = 0; r < e->rollouts; r++) {
                const e2_item *t = find_item(s, ref, d, g, ANY_SP, r);
                dist[r] = turn[r] = NAN;
                if (!t || t->r.status) continue;
                /* the planar T starts at angle 0 */
                dist[r] = gap_cm(t->r.final, start);
                turn[r] = turn_deg(t->r.final[2], 0);
            }
            char col[64];
            column_name(col, sizeof col, e, d, g, 0);
            mean_sd(dist, e->rollouts, &mean, &sd);
            tc_exp_metric(x, label, mean, "cm", 0.05, 0.02, 0,
                          "mean distance the reference moves the T: delta d of a T never pushed",
                          "%s.%s.travel_cm", label, col);
            mean_sd(turn, e->rollouts, &mean, &sd);
            tc_exp_metric(x, label, mean, "deg", 0.3, 0.02, 0,
                          "mean angle the reference turns the T: delta theta of a T never pushed",
                          "%s.%s.turn_deg", label, col);
        }
}

/* one row of the table: method k in the grid's cell (d, g, p) against the reference over the
 * rollouts, the paper's values for its column, and its pose-gap metrics; returns the mean final
 * COM distance (cm, NAN when every rollout failed) */
static double table_row(tc_exp *x, const e2_state *s, tc_rows *w, int k, int ref, int d, int g,
                        int p, int points) {
    static const char *const keys[] = {"scm_ms", "mjx_ms", "dd_cm", "dth_deg"};
    const e2_setup *e = &s->e;
    /* per rollout: method step (us), reference step (us), delta d (cm), delta theta (deg) */
    double q[4][E2_MAXTRAJ], mean[4], sd;
    int failed = 0;
    for (int r = 0; r < e->rollouts; r++) {
        const e2_item *a = find_item(s, k, d, g, p, r), *b = find_item(s, ref, d, g, ANY_SP, r);
        q[0][r] = q[1][r] = q[2][r] = q[3][r] = NAN;
        if (!a || !b || a->r.status || b->r.status) {
            failed++;
            continue;
        }
        q[0][r] = 1e6 * a->r.step_s;
        q[1][r] = 1e6 * b->r.step_s;
        q[2][r] = gap_cm(a->r.final, b->r.final);
        q[3][r] = turn_deg(a->r.final[2], b->r.final[2]);
    }
    /* the cells: method, column, the four means with their spread, failures, the paper's */
    const char *label = tc_exp_label(x, k);
    char col[64], ms[4][64], fails[32];
    double paper[4];
    column_name(col, sizeof col, e, d, g, points);
    snprintf(fails, sizeof fails, "%d/%d", failed, e->rollouts);
    for (int c = 0; c < 4; c++) {
        paper[c] = tc_script_paper(tc_exp_script(x), "column", col, keys[c]);
        mean_sd(q[c], e->rollouts, &mean[c], &sd);
        tc_cell_pm(ms[c], sizeof ms[c], mean[c], sd);
    }
    tc_rows_put(w,
                (const tc_cell[]){TC_TEXT(label), TC_TEXT(col), TC_TEXT(ms[0]), TC_TEXT(ms[1]),
                                  TC_TEXT(ms[2]), TC_TEXT(ms[3]), TC_TEXT(fails), TC_NUM(paper[0]),
                                  TC_NUM(paper[1]), TC_NUM(paper[2]), TC_NUM(paper[3])});
    /* metrics: the pose gaps per column (open-loop rollouts amplify changes) */
    tc_exp_metric(x, label, mean[2], "cm", 0.5, 0.25, 0, "mean final COM distance to the reference",
                  "%s.%s.dd_cm", label, col);
    tc_exp_metric(x, label, mean[3], "deg", 3, 0.25, 0,
                  "mean final rotation difference to the reference", "%s.%s.dth_deg", label, col);
    return mean[2];
}

/* the table (as fig. 7): every method and column against the reference, with the paper's */
static tc_status write_table(tc_exp *x, const e2_state *s, int ref, tc_error *err) {
    static const tc_col cols[] = {
        TC_COL_TAB("method", NULL),           TC_COL_TAB("column", NULL),
        TC_COL_TAB("method step (µs)", NULL), TC_COL_TAB("reference step (µs)", NULL),
        TC_COL_TAB("Δd (cm)", NULL),          TC_COL_TAB("Δθ (deg)", NULL),
        TC_COL_TAB("failed", NULL),           TC_COL_TAB("paper step (ms)", "%g"),
        TC_COL_TAB("paper MJX (ms)", "%g"),   TC_COL_TAB("paper Δd (cm)", "%g"),
        TC_COL_TAB("paper Δθ (deg)", "%g")};
    const e2_setup *e = &s->e;
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, 11, err);
    if (st) return st;
    /* the columns' point counts, once per spacing */
    int points[E2_MAXGRID];
    for (int p = 0; p < e->nspacing; p++)
        points[p] = e2_points(&s->sc, e->spacing[p]);
    /* the reference's own columns first: how far it moves the T, the pose gap of a T that is
     * never pushed (the null outcome every pose-gap claim must fail) */
    travel_metrics(x, s, ref);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        int sp = spaced(tc_exp_method(x, k)), cells = 0;
        if (k == ref) continue;
        double sum = 0;
        for (int g = 0; g < e->ninteg; g++)
            for (int p = sp ? 0 : -1; p < (sp ? e->nspacing : 0); p++)
                for (int d = 0; d < e->ndt; d++) {
                    double dd = table_row(x, s, w, k, ref, d, g, p, p >= 0 ? points[p] : 0);
                    sum += dd;
                    cells++;
                }
        /* the grid's mean pose gap (NAN when a cell failed whole): the speed-accuracy figure's
         * accuracy, beside the mean step time of the same runs */
        tc_exp_metric(x, tc_exp_label(x, k), cells ? sum / cells : NAN, "cm", 0.5, 0.25, 0,
                      "mean final COM distance to the reference over every cell of the grid",
                      "%s.grid.dd_cm", tc_exp_label(x, k));
    }
    char machine[300], caption[1024];
    tc_machine_describe(machine, sizeof machine, tc_exp_threads(x));
    snprintf(caption, sizeof caption,
             "E2 (fig. 7): final T pose differences to the reference engine (mean ± std over the "
             "rollouts) and wall time per step in µs, measured in the same parallel run (%s); "
             "columns are step (ms)-integrator-AOPC points. Paper values: GPU (JAX/MJX), step "
             "times in ms.",
             machine);
    return tc_rows_close(w, "fig7_table", caption, err);
}

/* one work item: one rollout */
static void e2_work(void *ctx, int i, tc_item *it) {
    e2_state *s = ctx;
    e2_item *t = &s->it[i];
    e2_rollout(&s->e, &s->sc, &t->m, s->e.dt[t->dt], &s->tr[t->roll], t->path, NPATH, &t->r);
    it->status = t->r.status;
    it->steps = t->r.steps;
    it->resid = t->r.resid;
    snprintf(it->reason, sizeof it->reason, "%s", t->r.reason);
}

/* what one rollout writes, for a sweep split over MPI ranks: its result and its path */
static int e2_regions(void *ctx, int i, tc_region *r) {
    e2_item *t = &((e2_state *)ctx)->it[i];
    r[0] = (tc_region){&t->r, sizeof t->r};
    r[1] = (tc_region){t->path, sizeof t->path};
    return 2;
}

static tc_status e2_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e2_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    tc_status st =
        e2_load(tc_exp_script(x), tc_exp_source_dir(x), &s->e, &s->sc, s->tr, &s->ntr, err);
    if (!st) tc_exp_refer(x, "compare.timing", s->e.timing);
    /* a dynamic method with a force law (the grid pairs each model with RK4 and Euler, which a
     * model of contact points or shapes alone cannot take) on spheres and compounds; the
     * reference and the timed method stay */
    tc_exp_need(x, TC_CAP_DYNAMICS | TC_CAP_FORCE_QUERY,
                TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND),
                "a T pushed by a sphere");
    tc_exp_require(x, s->e.reference);
    return st;
}

static void e2_free(void *state) {
    e2_state *s = state;
    free(s->it);
    free(s);
}

/* the grid: method x dt x integrator x spacing x rollout, one run each */
static tc_status declare_grid(tc_exp *x, e2_state *s, tc_error *err) {
    const e2_setup *e = &s->e;
    int cap = tc_exp_nmethod(x) * e->ndt * e->ninteg * E2_MAXGRID * e->rollouts;
    s->it = calloc((size_t)cap + 1, sizeof *s->it);
    if (!s->it) return TC_ENOMEM;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        int sp = spaced(tc_exp_method(x, k));
        for (int d = 0; d < e->ndt; d++)
            for (int g = 0; g < e->ninteg; g++)
                for (int p = sp ? 0 : -1; p < (sp ? e->nspacing : 0); p++)
                    for (int r = 0; r < e->rollouts; r++) {
                        e2_item *t = &s->it[s->n++];
                        *t = (e2_item){.method = k, .dt = d, .integ = g, .sp = p, .roll = r};
                        tc_status st = e2_configure(tc_exp_method(x, k), e, g, p, &t->m, err);
                        if (st) return st;
                        tc_exp_add_run(x, k, &t->m, -1, "dt=%g s, %s, spacing=%g m, rollout %d",
                                       e->dt[d], e->integ[g].name, p >= 0 ? e->spacing[p] : 0, r);
                    }
    }
    return TC_OK;
}

/* the sweep, the finest clouds and smallest steps first: a step's cost grows with the AOPC
 * points */
static tc_status sweep(tc_exp *x, e2_state *s) {
    const e2_setup *e = &s->e;
    double *cost = calloc((size_t)s->n + 1, sizeof *cost);
    if (!cost) return TC_ENOMEM;
    for (int i = 0; i < s->n; i++) {
        const e2_item *t = &s->it[i];
        double h = t->sp >= 0 ? e->spacing[t->sp] : 1;
        cost[i] = 1 / (e->dt[t->dt] * h * h);
    }
    tc_status st = tc_exp_sweep_split(x, s->n, NULL, cost, e2_work, e2_regions, s);
    free(cost);
    return st;
}

/* the paper's fig. 7 step times of the timing integrator at 2 ms, the step-time figure's
 * reference marks: its columns' points ("26", "4k" read as 4000), the timed method's and MJX's
 * ms (the script's `paper` scm_ms, mjx_ms), space separated; columns it lacks are left out */
static void paper_step_times(const tc_exp *x, const e2_setup *e, char *pts, char *timed, char *ref,
                             size_t n) {
    static const char *const tails[] = {"26", "4k"};
    pts[0] = timed[0] = ref[0] = 0;
    for (size_t i = 0; i < sizeof tails / sizeof *tails; i++) {
        char col[64], *end;
        snprintf(col, sizeof col, "2-%s-%s", e->timing_integ, tails[i]);
        double p = strtod(tails[i], &end) * (*end == 'k' ? 1000 : 1);
        double a = tc_script_paper(tc_exp_script(x), "column", col, "scm_ms");
        double b = tc_script_paper(tc_exp_script(x), "column", col, "mjx_ms");
        if (isnan(a) || isnan(b)) continue;
        tc_words_add(pts, n, " ", "%g", p);
        tc_words_add(timed, n, " ", "%g", a);
        tc_words_add(ref, n, " ", "%g", b);
    }
}

/* the figures: the T's paths in the finest column, and the step time against the points */
static void figures(tc_exp *x, const e2_state *s, int ref, int timed) {
    const e2_setup *e = &s->e;
    char data[1200], nroll[16], labels[2 * TC_LABEL_MAX + 4], col[64], caption[800];
    snprintf(nroll, sizeof nroll, "%d", e->rollouts);
    snprintf(labels, sizeof labels, "%s %s", tc_exp_label(x, ref), tc_exp_label(x, timed));
    column_name(col, sizeof col, e, 0, 0, e2_points(&s->sc, e->spacing[e->nspacing - 1]));
    tc_exp_path(x, "paths.csv", data, sizeof data);
    tc_plot_var v[] = {{"datafile", data}, {"nroll", nroll}, {"labels", labels}, {"column", col}};
    snprintf(caption, sizeof caption,
             "Paths of the T's centre of mass in every rollout at column %s (step, integrator, "
             "points), %s and %s: start circled, end a triangle, the T's orientation as ticks.",
             col, tc_exp_label(x, ref), tc_exp_label(x, timed));
    tc_exp_figure(x, "e2_paths.gp", v, 4, "fig_paths", caption);
    tc_exp_scene_figure(x, &s->sc, "xy", "fig_scene",
                        "The scene from above: the T on the table at its start pose and the "
                        "spherical finger at the first trajectory's start.");
    tc_exp_path(x, "step_time.csv", data, sizeof data);
    char machine[300], ppts[64], pscm[64], pref[64];
    tc_machine_describe(machine, sizeof machine, 1);
    paper_step_times(x, e, ppts, pscm, pref, sizeof ppts);
    tc_plot_var w[] = {{"datafile", data},
                       {"labels", labels},
                       {"ppoints", ppts},
                       {"ptimed", pscm},
                       {"pref", pref}};
    snprintf(caption, sizeof caption,
             "Wall time per %s step (2 ms) against the AOPC points on the T, %s beside %s, "
             "fastest of three runs of 2,000 steps each, one after the other (%s). Black: the "
             "paper's fig. 7 step times on a GPU (JAX), %s as open diamonds, MJX as a dashed "
             "line, at its 26- and 4k-point columns.",
             e->timing_integ, tc_exp_label(x, timed), tc_exp_label(x, ref), machine,
             tc_exp_label(x, timed));
    tc_exp_figure(x, "e2_step_time.gp", w, 5, "fig_step_time", caption);
}

static tc_status e2_run(tc_exp *x, void *state, tc_error *err) {
    e2_state *s = state;
    const e2_setup *e = &s->e;
    const int ref = tc_exp_method_find(x, e->reference), timed = tc_exp_method_find(x, e->timing);
    tc_status st = declare_grid(x, s, err);
    if (!st) st = sweep(x, s);
    if (st) return st;
    tc_exp_text(x,
                "%d rollouts of the trajectories in `%s`, tier `%s`; every dynamic method "
                "against `%s` (%s).",
                e->rollouts, e->trajectories, tc_exp_tier(x), e->reference,
                tc_exp_method(x, ref)->spec);
    /* the table and every rollout; without the timed method, no paths or step times */
    st = write_table(x, s, ref, err);
    if (!st) st = write_rollouts(x, s, err);
    if (!st)
        tc_exp_pareto(x, "%s.grid.dd_cm", NULL, "mean final COM distance to the reference (cm)",
                      "fig_pareto",
                      "Speed against accuracy: each method's wall time per step over all its "
                      "rollouts of the grid (this parallel run, this machine) against its mean "
                      "final pose gap to the reference over the grid's cells; the dashed line "
                      "joins the methods no cheaper one matches. The reference has no gap to "
                      "itself and is left out.");
    if (!st && timed < 0)
        tc_exp_text(x, "No method labelled `%s` ran: no paths or step-time figures.", e->timing);
    if (st || timed < 0) return st;
    /* the paths of the finest column; the serial step timing goes only into files: the writing
     * rank's alone (MPI) */
    double ratio = NAN;
    st = write_paths(x, s, timed, ref, 0, 0, e->nspacing - 1, err);
    if (!st && tc_exp_writer(x)) st = write_timing(x, s, &ratio, err);
    if (st) return st;
    char name[128];
    snprintf(name, sizeof name, "%s.euler_step_over_%s_26", e->timing, e->reference);
    tc_metrics_add(tc_exp_metrics(x), e->timing, name, ratio, "1", 0, 1.5, TC_METRIC_TIMING,
                   "timed method (coarsest AOPC) over the reference's wall time per step, "
                   "2 ms (machine-dependent)");
    figures(x, s, ref, timed);
    return TC_OK;
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e2_results[] = {{"rollouts.csv", TC_RESULTS_ROWS, "step_ms"},
                                             {"paths.csv", TC_RESULTS_SHARED, NULL},
                                             {NULL, 0, NULL}};

/* the grid's work: every rollout's steps; a point-cloud method's step grows with its point pairs
 * (T against finger); then the serial step-time study at up to 12 spacings */
static void e2_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e2_setup *e = &((const e2_state *)state)->e;
    const tc_t_pusher *t = &e->scene;
    const double c = t->thickness, ff = 4 * M_PI * t->finger_radius * t->finger_radius;
    const double tt = 2 * (t->bar_x * t->bar_y + t->bar_y * c + c * t->bar_x) +
                      2 * (t->stem_x * t->stem_y + t->stem_y * c + c * t->stem_x);
    double steps = 0;
    for (int d = 0; d < e->ndt; d++)
        steps += e->duration / e->dt[d];
    steps *= e->rollouts * e->ninteg;
    w->bytes =
        (double)sizeof(e2_item) * tc_exp_nmethod(x) * e->ninteg * e->ndt * e->rollouts * E2_MAXGRID;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        tc_method m = (*tc_exp_method(x, k));
        int sp = spaced(&m);
        for (int p = 0; p < (sp ? e->nspacing : 1); p++) {
            if (sp) e2_set_spacing(&m, e->spacing[p], NULL);
            double pt = tc_work_points(&m, tt), pf = tc_work_points(&m, ff);
            w->steps += steps;
            w->seconds +=
                steps * (TC_WORK_STEP_S + TC_WORK_PAIR_S * pt * pf) * tc_method_work_factor(&m);
            w->bytes += 48 * (pt + pf) * (tc_exp_threads(x) + 2);
        }
    }
    /* the step-time study: 3 x 2,000 steps at each of 8 or 12 spacings, the finest dominating */
    const double finest = strcmp(tc_exp_tier(x), "full") ? 0.02 : 0.0047;
    w->steps += 6000 * 12;
    w->seconds +=
        6000 * 3 * (TC_WORK_STEP_S + TC_WORK_PAIR_S * fmax(12, tt / (finest * finest)) * 12);
}

const tc_experiment_type tc_experiment_e2 = {
    .name = "e2_t_pushing",
    .title = "planar T-pushing: SCM vs MuJoCo rollouts, fig. 7 table (Beker et al. fig. 6, 7)",
    .heading = "Planar T-pushing (E2)",
    .paper = "Beker et al. 2025, fig. 6 and 7",
    .script = "e2/e2_t_pushing.cfg",
    .results = e2_results,
    .setup = e2_setup_fn,
    .run = e2_run,
    .free = e2_free,
    .estimate = e2_estimate,
    .generate = e2_generate_hook,
    .generate_doc = "E2's finger trajectories (cross-entropy search in MuJoCo; "
                    "data/e2_trajectories.csv)",
    .bench_name = "e2",
    .bench_doc = "E2's T scene: the timed method's Euler step time against AOPC points, beside "
                 "the reference's",
    .bench = &e2_bench,
};
