/* SPDX-License-Identifier: MIT */
/* E6: block stacking (Le Cleac'h et al. 2023, fig. 8, 10, 11) — two blocks stacked at rest in
 * ten ways and a tower of four, every method over rates x complementarity tolerances, and the
 * time per step of a block falling on the floor */
#include "experiments/e6/e6.h"
#include "experiments/e56/e56_silico.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "exp/tc_rows.h"
#include "report/tc_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the settings by dotted path, so a tier can override any of them */
static const tc_field e6_fields[] = {TC_FIELD_R(e6_setup, gravity, "scene.gravity", 0, 100),
                                     TC_FIELD_R(e6_setup, friction, "scene.friction", 0, 10),
                                     TC_FIELD_R(e6_setup, thickness, "scene.thickness", 1e-4, 10),
                                     TC_FIELD_R(e6_setup, shift, "stacks.shift", -10, 10),
                                     TC_FIELD_R(e6_setup, up_height, "stacks.up_height", 0, 10),
                                     TC_FIELD_R(e6_setup, up_tilt, "stacks.up_tilt", 0, 3.2),
                                     TC_FIELD_R(e6_setup, tall_rate, "tall.rate", 1e-3, 1e6),
                                     TC_FIELD_R(e6_setup, tall_tol, "tall.tol", 1e-300, 1),
                                     TC_FIELD_R(e6_setup, speed_rate, "speed.rate", 1e-3, 1e6),
                                     TC_FIELD_R(e6_setup, speed_y, "speed.drop_y", -100, 100),
                                     TC_FIELD_I(e6_setup, nstack, "stacks.count", 1, 1000),
                                     TC_FIELD_I(e6_setup, first, "stacks.first", 0, 1000),
                                     TC_FIELD_I(e6_setup, tall_n, "tall.blocks", 1, E56_MAXBODY),
                                     TC_FIELD_I(e6_setup, speed_steps, "speed.steps", 1, 10000000),
                                     /* the ratio's labels: numerator over denominator */
                                     TC_FIELD_S(e6_setup, ratio_num, "speed.ratio_num"),
                                     TC_FIELD_S(e6_setup, ratio_den, "speed.ratio_den"),
                                     {0}};

tc_status e6_read_setup(const tc_script *s, e6_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st;
    if ((st = e56_read_polygon(s, "block", &e->block, err)) ||
        (st = e56_read_grid(s, &e->grid, err)))
        return st;
    return tc_script_read(s, NULL, e6_fields, e, err);
}

/* the lowest and highest y of the block in its own frame */
static void extent(const e56_polygon *p, double *lo, double *hi) {
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int k = 0; k < p->nv; k++) {
        *lo = fmin(*lo, p->v[k][1]);
        *hi = fmax(*hi, p->v[k][1]);
    }
}

/* append the block with A's origin at (x, y), unturned */
static tc_status add_block(const e6_setup *e, const char *name, double x, double y, tc_scene *sc,
                           tc_error *err) {
    const e56_polygon *p = &e->block;
    return tc_scene_add_polygon(sc, name, (const double(*)[2])p->A, p->b, p->m, e->thickness,
                                p->mass, p->izz, x + p->c[0], y + p->c[1], 0, err);
}

tc_status e6_stack_scene(const e6_setup *e, int n, double shift_x, tc_scene *sc, tc_error *err) {
    double lo, hi;
    extent(&e->block, &lo, &hi);
    tc_status st = tc_scene_ground_2d(sc, e->gravity, e->friction, err);
    /* block i's bottom at i times the height: touching, at rest */
    for (int i = 0; i < n && !st; i++) {
        char name[16];
        snprintf(name, sizeof name, "block%d", i);
        st = add_block(e, name, i ? 0 : shift_x, -lo + i * (hi - lo), sc, err);
    }
    return st;
}

/* the studies' hooks: the scenes, and whether the tower is up at the end */
static tc_status build2(const void *ctx, int i, tc_scene *sc, tc_error *err) {
    const e6_setup *e = ctx;
    return e6_stack_scene(e, 2, e->shift * (e->first + i), sc, err);
}

static tc_status build_tall(const void *ctx, int i, tc_scene *sc, tc_error *err) {
    const e6_setup *e = ctx;
    (void)i;
    return e6_stack_scene(e, e->tall_n, 0, sc, err);
}

/* the top block (body n): its height change (m) and tilt (rad, turned modulo a quarter turn) */
static void tower_end(const e6_setup *e, int n, tc_sim *sim, e56_out *o) {
    double lo, hi;
    extent(&e->block, &lo, &hi);
    const double y0 = -lo + (n - 1) * (hi - lo) + e->block.c[1], a = e56_angle(sim, n);
    o->end[0] = tc_sim_bodies(sim)[n].pos[1] - y0;
    o->end[1] = a - M_PI_2 * round(a / M_PI_2);
    o->ok_end = fabs(o->end[0]) < e->up_height && fabs(o->end[1]) < e->up_tilt;
}

static void end2(const void *ctx, int i, tc_sim *sim, e56_out *o) {
    (void)i;
    tower_end(ctx, 2, sim, o);
}

static void end_tall(const void *ctx, int i, tc_sim *sim, e56_out *o) {
    (void)i;
    tower_end(ctx, ((const e6_setup *)ctx)->tall_n, sim, o);
}

e56_study e6_study(const e6_setup *e) {
    return (e56_study){.nscene = e->nstack,
                       .build = build2,
                       .end = end2,
                       .ctx = e,
                       .what = "stack",
                       .bodies = 2,
                       .size = e56_polygon_size(&e->block)};
}

e56_study e6_tall_study(const e6_setup *e) {
    return (e56_study){.nscene = 1,
                       .build = build_tall,
                       .end = end_tall,
                       .ctx = e,
                       .what = "tower",
                       .bodies = e->tall_n,
                       .size = e56_polygon_size(&e->block)};
}

/* ---------- the speed study ---------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* a failed step ends the method's run: its number, status and the simulation's warnings */
static void step_failed(tc_sim *sim, long k, tc_status s, e6_speed_row *r) {
    char w[160] = "";
    tc_sim_warnings(sim, w, sizeof w);
    for (char *p = w; *p; p++)
        *p = *p == '\n' ? ' ' : *p;
    r->failed = 1;
    r->status = s;
    snprintf(r->reason, sizeof r->reason, "step %ld failed (%s)%s%s", k + 1, tc_status_str(s),
             w[0] ? ": " : "", w);
}

/* the row's times from its k steps' times t (sorted here): total, mean, median, 90th percentile */
static void step_stats(double *t, long k, e6_speed_row *r) {
    r->steps = k;
    r->total_s = 0;
    for (long j = 0; j < k; j++)
        r->total_s += t[j];
    r->mean_s = k ? r->total_s / k : NAN;
    qsort(t, (size_t)k, sizeof *t, cmp_double);
    r->median_s = k ? t[k / 2] : NAN;
    r->p90_s = k ? t[(long)(0.9 * (k - 1))] : NAN;
}

/* one method on the speed study's scene: every step timed on its own into t */
static void speed_one(const e6_setup *e, const tc_scene *sc, const tc_method *m, double *t,
                      e6_speed_row *r) {
    tc_sim *sim = NULL;
    tc_error e2 = {0};
    if ((r->status = tc_sim_alloc(&sim, sc, m, 1.0 / e->speed_rate, &e2))) {
        r->failed = 1;
        r->mean_s = r->median_s = r->p90_s = r->iters_per_step = NAN;
        snprintf(r->reason, sizeof r->reason, "%s", e2.msg);
        return;
    }
    long k = 0;
    const double e0 = tc_sim_energy(sim);
    double emax = e0;
    for (; k < e->speed_steps && !tc_interrupted(); k++) {
        double t0 = tc_wall_time();
        tc_status s = tc_sim_step(sim);
        t[k] = tc_wall_time() - t0;
        if (s) {
            step_failed(sim, k, s, r);
            break;
        }
        const double en = tc_sim_energy(sim);
        emax = isfinite(en) ? fmax(emax, en) : INFINITY;
    }
    /* a physically absurd outcome is no timing of the method: through the floor (deeper than the
     * block's size, or below it), energy from nothing */
    const double pen = tc_sim_penetration(sim, NULL), y = tc_sim_bodies(sim)[1].pos[1];
    const double size = e56_polygon_size(&e->block);
    if (!r->failed && (!(pen <= size) || !(y > 0) || !(emax <= 2 * fabs(e0) + 1e-9))) {
        r->failed = 1;
        r->status = TC_EDIVERGED;
        snprintf(r->reason, sizeof r->reason,
                 "physically absurd outcome after %ld steps: the block's centre at y = %.3g m, "
                 "penetration %.3g m (its size %.3g m), energy %.3g J from %.3g J",
                 k, y, pen, size, emax, e0);
    }
    step_stats(t, k, r);
    const tc_sim_stats *ss = tc_sim_get_stats(sim);
    r->iters_per_step = ss->steps && tc_method_counts_iterations(m)
                            ? (double)ss->solver_iters / (double)ss->steps
                            : NAN;
    tc_sim_free(sim);
}

tc_status e6_speed(const e6_setup *e, const tc_exp *x, e6_speed_row *rows, tc_error *err) {
    tc_scene *sc = malloc(sizeof *sc);
    double *t = malloc((size_t)e->speed_steps * sizeof *t);
    /* the block flat, its centre at speed_y, at rest */
    tc_status st = !sc || !t ? TC_ENOMEM : tc_scene_ground_2d(sc, e->gravity, e->friction, err);
    if (!st) st = add_block(e, "block", 0, e->speed_y - e->block.c[1], sc, err);
    tc_progress prog;
    tc_progress_start(&prog, "e6 speed", tc_exp_nmethod(x));
    for (int k = 0; k < tc_exp_nmethod(x) && !st && !tc_interrupted(); k++) {
        tc_progress_tick(&prog);
        speed_one(e, sc, tc_exp_method(x, k), t, &rows[k]);
    }
    tc_progress_end(&prog);
    free(sc);
    free(t);
    return st ? st : tc_interrupted() ? TC_EINTR : TC_OK;
}

double e6_speed_ratio(const tc_exp *x, const e6_setup *e, const e6_speed_row *rows) {
    int num = tc_exp_method_find(x, e->ratio_num), den = tc_exp_method_find(x, e->ratio_den);
    return num >= 0 && den >= 0 && !rows[num].failed && !rows[den].failed
               ? rows[num].median_s / rows[den].median_s
               : NAN;
}

/* ---------- the driver ---------- */

/* the driver's state: the shared hooks' part first */
typedef struct e6_state {
    e56_base b;
    e6_setup e;
    e56_grid tall_grid;
    e56_study two, tower;
    e56_sweep sw, tall;
    e56_silico_spec silico;
} e6_state;

/* the public code's measures of a cell (Silico.jl's benchmark_momentum): the mean over the run
 * of (|p_x| + |p_y|) / 2 and of the bodies' |sum I omega|, each averaged over the stacks; the
 * stacks that errored */
static const e56_silico_quantity e6_silico_q[] = {
    {"linear_momentum", "linear_momentum", "kg m/s",
     "the mean over the run of (|p_x| + |p_y|) / 2, mean over the stacks", 1, 1e-12, 0.3,
     "public_linear_momentum", NULL},
    {"angular_momentum", "angular_momentum", "kg m^2/s",
     "the mean over the run of |sum I omega|, mean over the stacks", 1, 1e-12, 0.3,
     "public_angular_momentum", NULL},
    {"error_rate", "error_rate", "1", "the fraction of stacks that errored", 0, 0, 0.02,
     "error_rate", NULL}};

static tc_status e6_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e6_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    tc_status st = e6_read_setup(tc_exp_script(x), &s->e, err);
    if (!st)
        st = e56_silico_setup(x, &s->silico, "momentum", e6_silico_q,
                              (int)(sizeof e6_silico_q / sizeof *e6_silico_q), err);
    if (st) return st;
    /* the tall stack: one rate and tolerance */
    s->tall_grid = s->e.grid;
    s->tall_grid.nrate = s->tall_grid.ntol = 1;
    s->tall_grid.rate[0] = s->e.tall_rate;
    s->tall_grid.tol[0] = s->e.tall_tol;
    /* the stacks and the tall stack, the speed study's steps beside them */
    s->two = e6_study(&s->e);
    s->tower = e6_tall_study(&s->e);
    s->b = (e56_base){
        2, {&s->e.grid, &s->tall_grid}, {&s->two, &s->tower}, {&s->sw, &s->tall}, s->e.speed_steps};
    /* the two-block stack says what a method needs */
    if ((st = e56_need(x, &s->b, "planar blocks stacked on the ground", err))) return st;
    tc_exp_refer(x, "speed.ratio_num", s->e.ratio_num);
    tc_exp_refer(x, "speed.ratio_den", s->e.ratio_den);
    return TC_OK;
}

/* method k's row of the summary table, its note and its metrics (totals m over its stacks'
 * cells, its tall stack's cell tc or NULL) */
static void method_summary(tc_exp *x, tc_table *t, int k, const e56_total *m, const e56_cell *tc) {
    const char *label = tc_exp_label(x, k);
    const double runs = m->runs;
    const char *tall = !tc           ? "-"
                       : tc->errored ? "errored"
                       : tc->absurd  ? "absurd"
                       : tc->ok_end  ? "yes"
                                     : "no";
    e56_table_row(t, "%s;%d;%.3g;%.3g;%.3g;%.3g;%d;%d;%.3g;%.3g;%s;%.3g", label, m->runs,
                  m->mean_lin, m->mean_ang, 100.0 * m->ok_end / runs, 100.0 * m->failed / runs,
                  m->errored, m->absurd, m->max_pen, m->iters_per_step, tall,
                  tc ? tc->mean_lin : NAN);
    if (m->absurd)
        tc_exp_text(x, "`%s`: %d of %d stack runs ended physically absurd and failed (first: %s).",
                    label, m->absurd, m->runs, m->why);
    const e56_metric ms[] = {
        {"mean_linear_momentum", "kg m/s", "mean |sum M v| over the stacks' runs", m->mean_lin,
         1e-4, 0.5},
        {"mean_angular_momentum", "kg m^2/s", "mean |angular momentum| over the stacks' runs",
         m->mean_ang, 1e-4, 0.5},
        {"up_rate", "1", "two-block towers standing at the end", m->ok_end / runs, 0.05, 0.1},
        {"runs", "1", "stack runs over every cell (the trials of the rates)", runs, 0, 0},
        {"error_rate", "1", "stack runs that errored or diverged", m->errored / runs, 0.02, 0.2},
        {"absurd_rate", "1", "stack runs with a physically absurd outcome (failed)",
         m->absurd / runs, 0.02, 0.2},
        {"public_linear_momentum", "kg m/s",
         "the public code's measure: mean over the run of (|p_x| + |p_y|) / 2, mean over the "
         "stacks and cells",
         m->pub_lin, 1e-4, 0.5},
        {"public_angular_momentum", "kg m^2/s",
         "the public code's measure: mean over the run of |sum I omega|, mean over the stacks "
         "and cells",
         m->pub_ang, 1e-4, 0.5},
        {"tall_up", "1", "the tall stack standing at the end", tc ? tc->ok_end : NAN, 0, 0}};
    e56_metrics_add(x, label, label, ms, (int)(sizeof ms / sizeof *ms), 0);
}

/* the paper's fraction of towers up for a label (the script's `paper` up_rate; NAN where it
 * gives none): the towers-up heat map's reference marks */
static void paper_up_rate(const tc_exp *x, const char *label, double *lo, double *hi) {
    *lo = *hi = tc_script_paper(tc_exp_script(x), "label", label, "up_rate");
}

/* per method over the stacks' cells: the table beside the paper, the metrics */
static tc_status stack_summary(tc_exp *x, const e6_state *s, tc_error *err) {
    tc_table *t = e56_table("method;runs;mean |p| (kg m/s);mean |L| (kg m^2/s);towers up (%);"
                            "failure rate (%);errored;absurd;largest penetration (m);"
                            "iterations / step;tall stack up;tall mean |p|");
    if (!t) return TC_ENOMEM;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        e56_total m;
        if (!e56_total_of(&s->sw, k, &m)) continue;
        /* the tall stack's cell of the method (its one rate and tolerance) */
        const e56_cell *tc = NULL;
        for (int i = 0; i < s->tall.ncell; i++)
            if (s->tall.cell[i].method == k) tc = &s->tall.cell[i];
        method_summary(x, t, k, &m, tc);
    }
    char cap[600];
    snprintf(cap, sizeof cap,
             "E6: two blocks stacked at rest in %d ways, every method over its grid; the tall "
             "stack: %d blocks at %g Hz (tolerance %g for the interior-point methods). Momentum "
             "should stay 0. Paper: single-level stable in all 360 runs, its momentum error about "
             "10x smaller than the bilevel one, whose towers jitter or fall at low rates.",
             s->e.nstack, s->e.tall_n, s->e.tall_rate, s->e.tall_tol);
    tc_status st = tc_exp_table(x, t, "summary_table", cap, err);
    tc_table_free(t);
    return st;
}

/* the speed study's table and CSV: a row per method */
static const tc_col speed_cols[] = {
    {.csv = "label", .head = "method"},
    {.csv = "steps", .fmt = "%.0f"},
    {.head = "steps"}, /* with "(failed)" */
    {.csv = "failed", .fmt = "%.0f"},
    {.csv = "mean_s", .head = "mean (us)", .fmt = "%.6g", .tfmt = "%.3g", .scale = 1e6},
    {.csv = "median_s", .head = "median (us)", .fmt = "%.6g", .tfmt = "%.3g", .scale = 1e6},
    {.csv = "p90_s", .head = "90 % (us)", .fmt = "%.6g", .tfmt = "%.3g", .scale = 1e6},
    {.csv = "iters_per_step", .head = "iterations / step", .fmt = "%.6g", .tfmt = "%.3g"}};

/* the speed study's rows: its CSV and table, a note for each failed method */
static tc_status speed_table(tc_exp *x, const e6_setup *e, const e6_speed_row *rows,
                             tc_error *err) {
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "speed.csv", speed_cols, 8, err);
    if (st) return st;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const e6_speed_row *r = &rows[k];
        char steps[64];
        snprintf(steps, sizeof steps, "%ld%s", r->steps, r->failed ? " (failed)" : "");
        if (r->failed && r->steps)
            tc_exp_text(x, "Speed: `%s` failed, its times are no timing of the method: %s.",
                        tc_exp_label(x, k), r->reason);
        tc_rows_put(w,
                    (const tc_cell[]){TC_TEXT(tc_exp_label(x, k)), TC_NUM(r->steps), TC_TEXT(steps),
                                      TC_NUM(r->failed), TC_NUM(r->mean_s), TC_NUM(r->median_s),
                                      TC_NUM(r->p90_s), TC_NUM(r->iters_per_step)});
    }
    char cap[800], machine[300];
    tc_machine_describe(machine, sizeof machine, 1);
    snprintf(cap, sizeof cap,
             "E6 speed (fig. 11): wall time of each step (the whole step: contact detection and "
             "solve) of a block falling on the floor, %d steps at %g Hz, one method after the "
             "other in the same run (%s). Paper: bilevel about 30x slower than single-level.",
             e->speed_steps, e->speed_rate, machine);
    return tc_rows_close(w, "speed_table", cap, err);
}

/* the speed study over every method: a run record each (a failed step is the measured outcome,
 * shown in the table), the table and CSV, and the ratio's metric; medians, as a step that
 * another process interrupted moves a mean, not a median, and a method that failed gives none */
static tc_status speed_study(tc_exp *x, const e6_setup *e, tc_error *err) {
    e6_speed_row *rows = calloc((size_t)tc_exp_nmethod(x) + 1, sizeof *rows);
    if (!rows) return TC_ENOMEM;
    tc_status st = e6_speed(e, x, rows, err);
    for (int k = 0; k < tc_exp_nmethod(x) && !st; k++) {
        int run = tc_exp_add_run(x, k, NULL, -1, "speed: %d steps at %g Hz", e->speed_steps,
                                 e->speed_rate);
        tc_exp_record(x, run, rows[k].status, rows[k].reason, rows[k].steps, rows[k].total_s);
    }
    const double ratio = e6_speed_ratio(x, e, rows);
    if (!st) st = speed_table(x, e, rows, err);
    free(rows);
    if (st) return st;
    if (!isnan(ratio)) {
        tc_exp_text(x, "Median time per step, `%s` over `%s`: %.3g (paper: about 30).",
                    e->ratio_num, e->ratio_den, ratio);
        char name[128];
        snprintf(name, sizeof name, "speed.%s_over_%s", e->ratio_num, e->ratio_den);
        tc_metrics_add(tc_exp_metrics(x), e->ratio_num, name, ratio, "1", 0, 0.9,
                       TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER,
                       "median step time ratio (machine-dependent)");
    } else
        tc_exp_text(x,
                    "The ratio `%s` / `%s` needs both methods run to a sound outcome; one did "
                    "not here.",
                    e->ratio_num, e->ratio_den);
    return st;
}

static tc_status e6_run_fn(tc_exp *x, void *state, tc_error *err) {
    e6_state *s = state;
    const e6_setup *e = &s->e;
    tc_status st;
    /* the stacks and the tall stack in one sweep: the tower's few long runs beside the stacks */
    if ((st = e56_run_studies(x, &s->b, err))) return st;
    e56_scene_figure(x, &s->b, s->b.nstudy - 1,
                     "The scene of the tall stack: the blocks at rest on the ground (x-y plane, "
                     "gravity along -y).");
    tc_exp_text(x,
                "Tier `%s`: two %g kg blocks (inertia %g kg m^2, mu = %g) stacked at rest, "
                "the bottom one shifted by %g m times %d..%d, %g s at %d rates; the methods in "
                "`tolerance_methods` also over %d complementarity tolerances. The tower is up "
                "when the top block ends within %g m of its height and %g rad of flat. A step "
                "that errors or diverges ends the run as errored.",
                tc_exp_tier(x), e->block.mass, e->block.izz, e->friction, e->shift, e->first,
                e->first + e->nstack - 1, e->grid.seconds, e->grid.nrate, e->grid.ntol,
                e->up_height, e->up_tilt);
    if ((st = stack_summary(x, s, err)) ||
        (st = e56_write_grid(x, &e->grid, &s->sw, "grid.csv", "stacks.csv", err)) ||
        (st = e56_write_grid(x, &s->tall_grid, &s->tall, "tall.csv", "tall_runs.csv", err)))
        return st;
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "mean_linear_momentum", 1,
                    "mean |linear momentum| (kg m/s)", "fig_momentum",
                    "Mean |sum M v| over the run, mean over the stacks (fig. 10).", NULL);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "mean_angular_momentum", 1,
                    "mean |angular momentum| (kg m^2/s)", "fig_angular",
                    "Mean |angular momentum| about the origin over the run, mean over the stacks.",
                    NULL);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "end_ok_rate", 0, "towers up (fraction)",
                    "fig_up", "Towers standing at the end (paper: fig. 8).", paper_up_rate);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "fail_rate", 0, "failure rate", "fig_fail",
                    "Failure rate (a step hit the iteration cap).", NULL);
    /* beside the authors' stored results, cell by cell */
    if ((st = e56_silico_section(x, &s->silico, &e->grid, &s->sw, err))) return st;
    /* the serial timing study goes only into files: the writing rank's alone (MPI) */
    return tc_exp_writer(x) ? speed_study(x, e, err) : TC_OK;
}

/* the result files digested per method (speed.csv holds wall-clock times: not digested) */
static const tc_results_file e6_results[] = {{"grid.csv", TC_RESULTS_ROWS, NULL},
                                             {"stacks.csv", TC_RESULTS_ROWS, NULL},
                                             {"tall.csv", TC_RESULTS_ROWS, NULL},
                                             {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e6 = {
    .name = "e6_stacking",
    .title = "block stacking: momentum drift over rates x tolerances, a tall stack, time per "
             "step (Le Cleac'h et al. fig. 8, 10, 11)",
    .heading = "Block stacking (E6)",
    .paper = "Le Cleac'h et al. 2023, fig. 8, 10 and 11",
    .script = "e6/e6_stacking.cfg",
    .results = e6_results,
    .setup = e6_setup_fn,
    .run = e6_run_fn,
    .free = e56_free,
    .estimate = e56_estimate,
    .check = e56_check,
    .bench_name = "contact-ip",
    .bench_doc = "E6's falling block: time per step of every method (single-level and bilevel "
                 "beside the others), one thread, same run, CSV",
    .bench = &e6_bench,
};
