/* SPDX-License-Identifier: MIT */
/* E5: dropped polytopes (Le Cleac'h et al. 2023, fig. 6 and 9) — a 2-D polygon dropped on the
 * ground from seeded initial conditions, every method over rates x complementarity tolerances */
#include "experiments/e5/e5.h"
#include "experiments/e56/e56_silico.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the settings by dotted path, so a tier can override any of them */
static const tc_field e5_fields[] = {TC_FIELD_R(e5_setup, gravity, "scene.gravity", 0, 100),
                                     TC_FIELD_R(e5_setup, friction, "scene.friction", 0, 10),
                                     TC_FIELD_R(e5_setup, thickness, "scene.thickness", 1e-4, 10),
                                     TC_FIELD_R(e5_setup, lo[1], "drops.y_lo", -100, 100),
                                     TC_FIELD_R(e5_setup, hi[1], "drops.y_hi", -100, 100),
                                     TC_FIELD_R(e5_setup, lo[2], "drops.theta_lo", -100, 100),
                                     TC_FIELD_R(e5_setup, hi[2], "drops.theta_hi", -100, 100),
                                     TC_FIELD_R(e5_setup, lo[3], "drops.vx_lo", -100, 100),
                                     TC_FIELD_R(e5_setup, hi[3], "drops.vx_hi", -100, 100),
                                     TC_FIELD_R(e5_setup, lo[4], "drops.vy_lo", -100, 100),
                                     TC_FIELD_R(e5_setup, hi[4], "drops.vy_hi", -100, 100),
                                     TC_FIELD_R(e5_setup, lo[5], "drops.omega_lo", -100, 100),
                                     TC_FIELD_R(e5_setup, hi[5], "drops.omega_hi", -100, 100),
                                     TC_FIELD_R(e5_setup, rest_speed, "rest.speed", 0, 10),
                                     TC_FIELD_R(e5_setup, rest_spin, "rest.spin", 0, 100),
                                     TC_FIELD_R(e5_setup, rest_level, "rest.level", 0, 1),
                                     TC_FIELD_I(e5_setup, ndrop, "drops.count", 1, 100000),
                                     TC_FIELD_I(e5_setup, seed, "drops.seed", 0, 1 << 30),
                                     {0}};

tc_status e5_read_setup(const tc_script *s, e5_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st;
    if ((st = e56_read_polygon(s, "polygon", &e->poly, err)) ||
        (st = e56_read_grid(s, &e->grid, err)) || (st = tc_script_read(s, NULL, e5_fields, e, err)))
        return st;
    /* ranges that must be ordered */
    static const char *const names[6] = {
        "", "drops.y_hi", "drops.theta_hi", "drops.vx_hi", "drops.vy_hi", "drops.omega_hi"};
    for (int k = 1; k < 6; k++)
        if (e->hi[k] < e->lo[k])
            return tc_script_fail_at(s, names[k], err, "must be >= its _lo (%g < %g)", e->hi[k],
                                     e->lo[k]);
    /* the body's turn against A's frame, from the first drop's scene */
    tc_scene *sc = malloc(sizeof *sc);
    if (!sc) return TC_ENOMEM;
    double ic[6];
    e5_initial(e, 0, ic);
    if (!(st = e5_scene(e, 0, sc, err))) {
        const double *q = sc->body[1].quat;
        e->phi = 2 * atan2(q[3], q[0]) - ic[2];
    }
    free(sc);
    return st;
}

void e5_initial(const e5_setup *e, int drop, double ic[6]) {
    /* one generator per drop, seeded by its index: the same draws for any thread count */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)e->seed + (unsigned long)drop);
    ic[0] = 0;
    for (int k = 1; k < 6; k++)
        ic[k] = e->lo[k] + (e->hi[k] - e->lo[k]) * gsl_rng_uniform(r);
    gsl_rng_free(r);
}

tc_status e5_scene(const e5_setup *e, int drop, tc_scene *sc, tc_error *err) {
    double ic[6];
    e5_initial(e, drop, ic);
    /* A's origin at (x, y) turned by theta: the centroid sits at origin + R(theta) c */
    const double c = cos(ic[2]), s = sin(ic[2]), *cA = e->poly.c;
    const double x = ic[0] + c * cA[0] - s * cA[1], y = ic[1] + s * cA[0] + c * cA[1];
    tc_status st = tc_scene_ground_2d(sc, e->gravity, e->friction, err);
    return st ? st
              : tc_scene_add_polygon(sc, "polygon", (const double(*)[2])e->poly.A, e->poly.b,
                                     e->poly.m, e->thickness, e->poly.mass, e->poly.izz, x, y,
                                     ic[2], err);
}

/* the study's hooks: the scene of a drop, its initial velocities, the rest check */
static tc_status build(const void *ctx, int i, tc_scene *sc, tc_error *err) {
    return e5_scene(ctx, i, sc, err);
}

static void start(const void *ctx, int i, tc_sim *sim) {
    double ic[6];
    e5_initial(ctx, i, ic);
    /* the polygon is body 1: planar velocities vx, vy (m/s, of its centroid), omega (rad/s) */
    double *v = tc_sim_v(sim) + tc_sim_system(sim)->vadr[1];
    v[0] = ic[3];
    v[1] = ic[4];
    v[2] = ic[5];
}

static void end(const void *ctx, int i, tc_sim *sim, e56_out *o) {
    const e5_setup *e = ctx;
    (void)i;
    const tc_body_state *b = &tc_sim_bodies(sim)[1];
    double y[2];
    e56_lowest_two(sim, 1, y);
    o->end[0] = hypot(b->vel[0], b->vel[1]);
    o->end[1] = y[1] - y[0];
    /* at rest, face down: slow, and its lowest two vertices level */
    o->ok_end =
        o->end[0] < e->rest_speed && fabs(b->omega[2]) < e->rest_spin && o->end[1] < e->rest_level;
}

e56_study e5_study(const e5_setup *e) {
    return (e56_study){.nscene = e->ndrop,
                       .build = build,
                       .start = start,
                       .end = end,
                       .ctx = e,
                       .what = "drop",
                       .bodies = 1,
                       .size = e56_polygon_size(&e->poly),
                       .psdf_poly = &e->poly,
                       .psdf_phi = e->phi};
}

/* the driver's state: the shared hooks' part first */
typedef struct e5_state {
    e56_base b;
    e5_setup e;
    e56_study study;
    e56_sweep sw;
    e56_silico_spec silico;
} e5_state;

/* the public code's measures of a cell (Silico.jl's benchmark_performance): runs with a step
 * that hit the cap; the largest pseudo signed-distance violation, mean over the drops; iterations
 * per step counted as its solver counts them (the pass that finds convergence is one: a
 * converged step's Newton iterations + 1, a failed step's as they are); runs that errored */
static double q_iterations(const e56_cell *c, int n) {
    long long it = 0, steps = 0;
    for (int j = 0; j < n; j++) {
        it += c->out[j].iters + c->out[j].steps - c->out[j].fails;
        steps += c->out[j].steps;
    }
    return steps ? (double)it / (double)steps : NAN;
}

static const e56_silico_quantity e5_silico_q[] = {
    {"fail_rate", "failure_rate", "1", "the fraction of drops with a step at the iteration cap", 0,
     0, 0.05, "fail_rate", NULL},
    {"violation", "violation_rate", "1",
     "the largest pseudo signed-distance violation max(1 - alpha, 0) against the ground, mean over "
     "the drops",
     0, 0, 0.01, "psdf_violation", NULL},
    {"iterations", "iterations", "1",
     "interior-point iterations per step, the convergence pass counted", 0, 0, 0.5, NULL,
     q_iterations},
    {"error_rate", "error_rate", "1", "the fraction of drops that errored", 0, 0, 0.02,
     "error_rate", NULL}};

static tc_status e5_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e5_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    tc_status st = e5_read_setup(tc_exp_script(x), &s->e, err);
    if (!st)
        st = e56_silico_setup(x, &s->silico, "performance", e5_silico_q,
                              (int)(sizeof e5_silico_q / sizeof *e5_silico_q), err);
    if (st) return st;
    s->study = e5_study(&s->e);
    s->b = (e56_base){.nstudy = 1, .g = {&s->e.grid}, .st = {&s->study}, .sw = {&s->sw}};
    return e56_need(x, &s->b, "a planar polygon on the ground", err);
}

/* the paper's failure rate for a label (the script's `paper`): failures over runs, else its range
 * fail_rate_lo..fail_rate_hi; NAN where it gives none (the heat map's reference marks) */
static void paper_fail_rate(const tc_exp *x, const char *label, double *lo, double *hi) {
    const tc_script *s = tc_exp_script(x);
    double fails = tc_script_paper(s, "label", label, "failures");
    double runs = tc_script_paper(s, "label", label, "runs");
    *lo = tc_script_paper(s, "label", label, "fail_rate_lo");
    *hi = tc_script_paper(s, "label", label, "fail_rate_hi");
    if (!isnan(fails) && !isnan(runs)) *lo = *hi = fails / runs;
}

/* the paper's value for a label, as text ("4 of 3600 runs", "55-95 %") */
static void paper_text(const tc_exp *x, const char *label, char *buf, size_t n) {
    const tc_script *s = tc_exp_script(x);
    double fails = tc_script_paper(s, "label", label, "failures");
    double runs = tc_script_paper(s, "label", label, "runs");
    double lo, hi;
    paper_fail_rate(x, label, &lo, &hi);
    if (!isnan(fails) && !isnan(runs))
        snprintf(buf, n, "%g of %g runs (%.2g %%)", fails, runs, 100 * fails / runs);
    else if (!isnan(lo) && !isnan(hi))
        snprintf(buf, n, "%g-%g %%", 100 * lo, 100 * hi);
    else
        snprintf(buf, n, "-");
}

/* method k's row of the summary table, its notes and its metrics (totals m over its cells) */
static void method_summary(tc_exp *x, tc_table *t, int k, const e56_total *m) {
    const char *label = tc_exp_label(x, k);
    const double runs = m->runs;
    char paper[80];
    paper_text(x, label, paper, sizeof paper);
    e56_table_row(t, "%s;%d;%.3g;%d;%d;%.3g;%.3g;%.3g;%.3g;%.3g;%.3g;%s", label, m->runs,
                  100.0 * m->failed / runs, m->errored, m->absurd, m->max_pen, m->mean_pen,
                  m->land_pen, m->after_pen, m->iters_per_step, 100.0 * m->ok_end / runs, paper);
    if (m->errored)
        tc_exp_text(x, "`%s`: %d of %d runs errored (first: %s).", label, m->errored, m->runs,
                    m->error);
    if (m->absurd)
        tc_exp_text(x, "`%s`: %d of %d runs ended physically absurd and failed (first: %s).", label,
                    m->absurd, m->runs, m->why);
    const e56_metric ms[] = {
        {"fail_rate", "1", "runs where a step hit the iteration cap, over every cell",
         m->failed / runs, 0.02, 0.2},
        {"error_rate", "1", "runs where a step errored or diverged, over every cell",
         m->errored / runs, 0.02, 0.2},
        {"mean_max_penetration", "m", "largest penetration of a run, mean over every cell",
         m->mean_pen, 1e-4, 0.3},
        {"mean_after_landing_penetration", "m",
         "largest ground penetration after the landing step (the first step that ends in "
         "contact), mean over every cell",
         m->after_pen, 1e-4, 0.3},
        {"absurd_rate", "1", "runs with a physically absurd outcome (failed)", m->absurd / runs,
         0.02, 0.2},
        {"mean_violation", "1",
         "the public code's violation: the largest max(1 - alpha, 0) of a run against the "
         "ground (alpha the polygon's scaling about A's origin at contact), mean over the "
         "drops and cells",
         m->psdf, 1e-4, 0.3},
        {"rest_rate", "1", "runs ending at rest face down", m->ok_end / runs, 0.05, 0.1},
        {"runs", "1", "drops run over every cell (the trials of the rates above)", runs, 0, 0}};
    e56_metrics_add(x, label, label, ms, (int)(sizeof ms / sizeof *ms), 0);
    /* iterations only for a method whose solver counts them (n/a for the rest, not 0) */
    const e56_metric it = {
        "iters_per_step",  "1", "inner-solver iterations per step, mean over the cells",
        m->iters_per_step, 0.5, 0.2};
    e56_metrics_add(x, label, label, &it, 1, 1);
}

/* per method over every cell: the table beside the paper, the metrics */
static tc_status summary(tc_exp *x, const e5_state *s, tc_error *err) {
    tc_table *t = e56_table("method;runs;failure rate (%);errored;absurd;"
                            "largest penetration (m);mean run max penetration (m);"
                            "mean at the landing step (m);mean after the landing step (m);"
                            "iterations / step;at rest face down (%);paper failures");
    if (!t) return TC_ENOMEM;
    e56_total m;
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        if (e56_total_of(&s->sw, k, &m)) method_summary(x, t, k, &m);
    tc_status st = tc_exp_table(x, t, "summary_table",
                                "E5: every method over its grid (rates x tolerances for the "
                                "interior-point methods, rates for the others); penetration from "
                                "the geometry, the same for every method. The landing step is the "
                                "first that ends in contact: a method that reacts only to overlap "
                                "shows there one step of free fall into the ground (up to "
                                "(|v_y| + g t) h, 0.4 m at 10 Hz), which the column after it "
                                "leaves out. Absurd: through the floor (penetration beyond the "
                                "polygon's size), energy from nothing or a non-finite state; such "
                                "a run fails. Paper: single-level 4 failures in 3600 runs (its "
                                "public data: none except 1 % at 10 Hz, 1e-3), bilevel 55-95 %.",
                                err);
    tc_table_free(t);
    return st;
}

static tc_status e5_run_fn(tc_exp *x, void *state, tc_error *err) {
    e5_state *s = state;
    const e5_setup *e = &s->e;
    tc_status st = e56_run_studies(x, &s->b, err);
    if (st) return st;
    e56_scene_figure(x, &s->b, 0,
                     "The scene: the polygon at the first drop's start above the ground (x-y "
                     "plane, gravity along -y).");
    /* the section, the tables, the data, the heat maps */
    tc_exp_text(x,
                "Tier `%s`: the polygon of %d rows (mass %g kg, inertia %g kg m^2, mu = %g) "
                "dropped %d times (seeds %d..%d) for %g s at %d rates; the methods in "
                "`tolerance_methods` also over %d complementarity tolerances. A step that hits "
                "the iteration cap is a failure (the run goes on); a step that errors or "
                "diverges ends the run as errored. At rest face down: speed < %g m/s, spin < "
                "%g rad/s and the lowest two vertices within %g m in height at the end.",
                tc_exp_tier(x), e->poly.m, e->poly.mass, e->poly.izz, e->friction, e->ndrop,
                e->seed, e->seed + e->ndrop - 1, e->grid.seconds, e->grid.nrate, e->grid.ntol,
                e->rest_speed, e->rest_spin, e->rest_level);
    if ((st = summary(x, s, err)) ||
        (st = e56_write_grid(x, &e->grid, &s->sw, "grid.csv", "drops.csv", err)))
        return st;
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "fail_rate", 0, "failure rate", "fig_fail",
                    "Failure rate (a step hit the iteration cap) per rate and tolerance (fig. 9).",
                    paper_fail_rate);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "max_penetration_m", 1,
                    "largest penetration (m)", "fig_penetration",
                    "Largest penetration over the cell's drops (fig. 9).", NULL);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "iters_per_step", 0, "iterations per step",
                    "fig_iterations", "Mean inner-solver iterations per step (fig. 9).", NULL);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "error_rate", 0, "errored runs (fraction)",
                    "fig_errored", "Runs ended by a step's error or divergence.", NULL);
    e56_heat_figure(x, &e->grid, &s->sw, "grid.csv", "end_ok_rate", 0,
                    "at rest face down (fraction)", "fig_rest",
                    "Drops at rest face down at the end.", NULL);
    tc_exp_pareto(x, "%s.mean_max_penetration", NULL, "mean run max penetration (m)", "fig_pareto",
                  "Speed against accuracy: each method's wall time per step over its finished "
                  "drops (one thread, this machine) against its mean largest penetration; the "
                  "dashed line joins the methods no cheaper one matches.");
    /* beside the authors' stored results, cell by cell */
    return e56_silico_section(x, &s->silico, &e->grid, &s->sw, err);
}

/* the result files digested per method */
static const tc_results_file e5_results[] = {
    {"grid.csv", TC_RESULTS_ROWS, NULL}, {"drops.csv", TC_RESULTS_ROWS, NULL}, {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e5 = {
    .name = "e5_polytopes",
    .title = "dropped polytopes: failures, penetration, iterations over rates x tolerances "
             "(Le Cleac'h et al. fig. 6, 9)",
    .heading = "Dropped polytopes (E5)",
    .paper = "Le Cleac'h et al. 2023, fig. 6 and 9",
    .script = "e5/e5_polytopes.cfg",
    .results = e5_results,
    .setup = e5_setup_fn,
    .run = e5_run_fn,
    .free = e56_free,
    .estimate = e56_estimate,
    .check = e56_check,
};
