/* SPDX-License-Identifier: MIT */
/* touche bench gradients: for every method of E8's plan on its box, at a few states in contact,
 * the time of one step (tc_sim_step) beside one Jacobian [A B] the way its users get it
 * (tc_grad_step in TC_GRAD_AUTO: analytic where the method has it) and by central differences
 * (TC_GRAD_FD, one step h: 2n + 1 steps), side by side in one run on one thread (the harness
 * writes bench_gradients.csv); notes on the targets (SCM within 5 steps, the single-level within 2)
 */
#include "experiments/e8/e8.h"
#include "exp/tc_bench.h"
#include "sim/tc_grad.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* the states timed: the box's (x, y, theta; vx, vy, omega), its lowest corner at the ground or
 * just in it (choice: resting flat 0.5 mm in, sliding on an edge, landing flat at 0.3 m/s, balanced
 * on a corner) */
static const struct {
    const char *name;
    double gap, theta, v[3]; /* gap: the lowest corner's height (m) */
} e8_bench_states[] = {
    {"resting", -5e-4, 0, {0, 0, 0}},
    {"sliding", -2e-4, 0.05, {0.5, 0, 0}},
    {"landing", 0, 0, {0.2, -0.3, 0}},
    {"corner", -1e-4, 0.78539816339744831, {0, 0, 0.1}},
};
#define E8_NBENCH ((int)(sizeof e8_bench_states / sizeof e8_bench_states[0]))

/* the CSV's columns (and the console's) */
static const tc_col e8_bench_cols[] = {
    {.csv = "label"},
    {.csv = "derivatives", .quote = TC_COL_QUOTED},
    {.csv = "state"},
    TC_COL_CSV("step_s", "%.4g"),
    TC_COL_CSV("jacobian_s", "%.4g"),
    TC_COL_CSV("ratio", "%.3g"),
    TC_COL_CSV("fd_jacobian_s", "%.4g"),
    TC_COL_CSV("fd_ratio", "%.3g"),
    TC_COL_CSV("fd_steps", "%.0f"),
};

/* what is timed: a step from the state (restored before each), or a Jacobian there */
typedef struct bench_ctx {
    tc_sim *sim;
    tc_grad *g;
    double q[3], v[3], A[4 * E8_NX * E8_NX], B[4 * E8_NX * E8_NX];
    tc_error err;
} bench_ctx;

static tc_status restore(void *ctx) {
    bench_ctx *c = ctx;
    memcpy(tc_sim_q(c->sim), c->q, sizeof c->q);
    memcpy(tc_sim_v(c->sim), c->v, sizeof c->v);
    return TC_OK;
}

static tc_status timed_step(void *ctx) {
    return tc_sim_step(((bench_ctx *)ctx)->sim);
}

static tc_status timed_jacobian(void *ctx) {
    bench_ctx *c = ctx;
    return tc_grad_step(c->g, c->A, c->B, NULL, &c->err);
}

/* the mean time (s) of a call, NAN when it failed (its reason into note) */
static double time_call(bench_ctx *c, tc_status (*call)(void *), double budget, char *note,
                        size_t n) {
    tc_bench_timer tm = {.call = call,
                         .before = restore,
                         .ctx = c,
                         .seconds = budget,
                         .warmup = TC_BENCH_WARMUP_SLOW};
    tc_bench_timing r;
    if (tc_bench_time(&tm, &r)) return NAN;
    if (r.status && !note[0])
        snprintf(note, n, "%s", c->err.msg[0] ? c->err.msg : tc_status_str(r.status));
    return r.status ? NAN : r.mean_s;
}

/* one method at one state: step, Jacobian (auto), Jacobian (FD) and the FD's steps */
static tc_status bench_one(const tc_scene *sc, const e8_box *box, double dt, const tc_method *m,
                           int s, double budget, double out[4], char *note, size_t n,
                           tc_error *err) {
    bench_ctx c = {0};
    tc_status st = tc_sim_alloc(&c.sim, sc, m, dt, err);
    if (st) return st;
    double th = e8_bench_states[s].theta;
    c.q[0] = 0;
    c.q[1] = e8_lowest(box->half, th) + e8_bench_states[s].gap;
    c.q[2] = th;
    memcpy(c.v, e8_bench_states[s].v, sizeof c.v);
    restore(&c);
    out[0] = time_call(&c, timed_step, budget, note, n);
    for (int fd = 0; fd < 2 && !st; fd++) {
        tc_grad_settings set = tc_default_grad_settings();
        set.mode = fd ? TC_GRAD_FD : TC_GRAD_AUTO;
        set.richardson = 0; /* one step h: 2n + 1 steps */
        restore(&c);
        if (!(st = tc_grad_alloc(&c.g, c.sim, &set, err))) {
            out[1 + fd] = time_call(&c, timed_jacobian, budget, note, n);
            if (fd) out[3] = (double)tc_grad_steps_taken(c.g);
        }
        tc_grad_free(c.g);
        c.g = NULL;
    }
    tc_sim_free(c.sim);
    return st;
}

/* a note per target (SCM's Jacobian within 5 of its steps, the IFT's within 2): the median ratio
 * over the states of the methods of a kind */
static void target_note(tc_bench_table *t, const tc_exp *x, const double *ratio, const char *kind,
                        const char *target, double bound) {
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        if (strcmp(tc_method_gradient(tc_exp_method(x, k)), kind)) continue;
        double r[E8_NBENCH];
        int n = 0;
        for (int s = 0; s < E8_NBENCH; s++)
            if (!isnan(ratio[k * E8_NBENCH + s])) r[n++] = ratio[k * E8_NBENCH + s];
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; i++) {
            lo = fmin(lo, r[i]);
            hi = fmax(hi, r[i]);
        }
        tc_bench_note(t, "%s, %s: Jacobian over step %.3g-%.3g over the states (target: %s, %s)",
                      tc_exp_label(x, k), kind, lo, hi, target,
                      n && hi <= bound ? "met" : "not met");
    }
}

/* E8 planned at its tier: every method, every state */
static tc_status e8_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    const tc_script *script = tc_exp_script(x);
    e8_box box;
    double dt;
    tc_scene sc;
    tc_status st = e8_read_box(script, &box, err);
    if (!st) st = tc_script_real(script, NULL, "dt", 1e-5, 0.1, &dt, err);
    if (!st) st = e8_scene(&box, &sc, err);
    if (st) return st;
    int nm = tc_exp_nmethod(x);
    double ratio[64 * E8_NBENCH];
    tc_bench_columns(t, e8_bench_cols, sizeof e8_bench_cols / sizeof e8_bench_cols[0]);
    for (int k = 0; k < nm && k < 64 && !st; k++) {
        const tc_method *m = tc_exp_method(x, k);
        for (int s = 0; s < E8_NBENCH && !st; s++) {
            double v[4] = {NAN, NAN, NAN, NAN};
            char note[256] = "";
            st = bench_one(&sc, &box, dt, m, s, o->seconds, v, note, sizeof note, err);
            ratio[k * E8_NBENCH + s] = v[1] / v[0];
            if (!st)
                tc_bench_put(t, (tc_cell[]){TC_TEXT(tc_exp_label(x, k)),
                                            TC_TEXT(tc_method_gradient(m)),
                                            TC_TEXT(e8_bench_states[s].name), TC_NUM(v[0]),
                                            TC_NUM(v[1]), TC_NUM(v[1] / v[0]), TC_NUM(v[2]),
                                            TC_NUM(v[2] / v[0]), TC_NUM(v[3])});
            if (note[0])
                tc_bench_note(t, "%s at %s: %s", tc_exp_label(x, k), e8_bench_states[s].name, note);
            fprintf(stderr, "bench gradients: %s, %s\n", tc_exp_label(x, k),
                    e8_bench_states[s].name);
        }
    }
    if (st) return st;
    target_note(t, x, ratio, "analytic (force derivatives)", "<= 5 (SCM)", 5);
    target_note(t, x, ratio, "analytic (implicit function theorem)",
                "<= 2: at most one step's time extra", 2);
    tc_bench_note(t, "fd_steps: 2n + 1 for the n columns perturbed (one step h, no Richardson); "
                     "the FD Jacobian costs about fd_steps steps (fd_ratio)");
    return TC_OK;
}

/* the harness's options: the time budget of each timing */
static const tc_bench_opt e8_bench_opts[] = {
    TC_BENCH_OPT_SECONDS("0.2", "time budget of each timing (s)"),
    {0},
};

const tc_bench_def e8_bench = {.run = e8_bench_run,
                               .opts = e8_bench_opts,
                               .csv = "bench_gradients.csv",
                               .tier = "full",
                               .threads = 1};
