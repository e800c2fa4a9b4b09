/* SPDX-License-Identifier: MIT */
/* touche bench piles: E7's piles of compounds landed by velocity projection, then the time of a
 * step from the same landed state for every method of the bench (velocity projection on the
 * points, MuJoCo, the LCP on the same points), one after the other on one thread in one run (the
 * harness writes bench_piles.csv), with the log-log slope of each method's step time against its
 * contacts */
#include "experiments/e7/e7.h"
#include "exp/tc_bench.h"
#include "report/tc_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the methods timed: E7's script label when the script lists it (its parameters), else a spec */
static const struct {
    const char *label, *spec;
} e7_bench_methods[] = {
    {"points", "points/vp"},            /* velocity projection (Kaufman et al.) */
    {"mujoco", "mujoco"},               /* the baseline engine */
    {"points-lcp", "points/lcp-lemke"}, /* the LCP step on the same points */
};
/* the LCP's capacity in the bench: its dense M, (k + 2) max_contacts square twice over, is
 * 150 MB at 512 contacts; a pile with more counts a failed solve each step (the note says so) */
#define E7_BENCH_LCP_CONTACTS 512
#define E7_NBENCH             ((int)(sizeof e7_bench_methods / sizeof e7_bench_methods[0]))

enum { E7_BENCH_BODIES, E7_BENCH_LAND, E7_BENCH_STEPS, E7_BENCH_BUDGET };

static const tc_col e7_bench_cols[] = {
    {.csv = "bodies", .fmt = "%.0f"},
    {.csv = "label"},
    {.csv = "spec"},
    {.csv = "steps", .fmt = "%.0f"},
    {.csv = "step_s", .fmt = "%.6g"},
    {.csv = "contacts", .fmt = "%.6g"},
    {.csv = "per_contact_s", .fmt = "%.6g"},
    {.csv = "failed_solves", .fmt = "%.0f"},
    {.csv = "note", .quote = TC_COL_QUOTED},
};

/* one method on one pile: mean step (s), contacts a step, failed solves, why it stopped early */
typedef struct bench_row {
    double step_s, contacts;
    long steps;
    long long fails;
    int over; /* stopped by the budget */
    char note[160];
} bench_row;

/* a timed step: the step, and its contacts counted */
typedef struct step_ctx {
    tc_sim *sim;
    double contacts;
} step_ctx;

static tc_status timed_step(void *ctx) {
    step_ctx *c = ctx;
    tc_status st = tc_sim_step(c->sim);
    if (!st) c->contacts += tc_sim_get_stats(c->sim)->ncontact;
    return st;
}

/* the note of a run: why it stopped early, else the simulation's first warning (an engine
 * dropping contacts, a solve stopped short), without commas or quotes */
static void run_note(tc_sim *sim, const tc_bench_timing *tg, long steps, double budget,
                     bench_row *r) {
    char w[512] = "";
    if (tg->status)
        snprintf(r->note, sizeof r->note, "step %ld failed: %s", r->steps + 1,
                 tc_status_str(tg->status));
    else if ((r->over = r->steps < steps))
        snprintf(r->note, sizeof r->note, "stopped after %ld steps: over the %g s budget", r->steps,
                 budget);
    tc_sim_warnings(sim, w, (int)sizeof w);
    if (!r->note[0] && w[0]) snprintf(r->note, sizeof r->note, "%.*s", (int)strcspn(w, "\n"), w);
    for (char *p = r->note; *p; p++)
        if (*p == ',' || *p == '"') *p = ';';
}

/* time method m on scene sc from the landed simulation's state: up to steps steps or budget
 * seconds, each step timed alone */
static void time_method(const tc_scene *sc, const tc_method *m, double dt, const tc_sim *landed,
                        long steps, double budget, bench_row *r) {
    step_ctx c = {NULL, 0};
    tc_error err;
    tc_error_clear(&err);
    memset(r, 0, sizeof *r);
    r->step_s = r->contacts = NAN;
    if (tc_sim_alloc(&c.sim, sc, m, dt, &err)) {
        snprintf(r->note, sizeof r->note, "cannot run: %s", err.msg);
        return;
    }
    tc_sim_copy_state(c.sim, landed);
    tc_bench_timer tm = {.call = timed_step, .ctx = &c, .seconds = budget, .max_samples = steps};
    tc_bench_timing tg;
    if (tc_bench_time(&tm, &tg)) tg = (tc_bench_timing){.status = TC_ENOMEM};
    r->steps = tg.calls;
    r->fails = tc_sim_get_stats(c.sim)->solver_fails;
    if (r->steps) {
        r->step_s = tg.mean_s;
        r->contacts = c.contacts / r->steps;
    }
    run_note(c.sim, &tg, steps, budget, r);
    tc_sim_free(c.sim);
}

/* land the pile with velocity projection for `land` seconds into *out */
static tc_status land_pile(const tc_scene *sc, const tc_method *vp, double dt, double land,
                           tc_sim **out, tc_error *err) {
    tc_sim *sim = NULL;
    tc_status st = tc_sim_alloc(&sim, sc, vp, dt, err);
    if (st) return st;
    long n = lround(land / dt);
    tc_progress pr;
    tc_progress_start(&pr, "landing", n);
    for (long k = 0; k < n && !st; k++) {
        st = tc_sim_step(sim);
        tc_progress_tick(&pr);
    }
    tc_progress_end(&pr);
    if (st) {
        tc_error_set(err, st, NULL, 0, NULL, "landing the pile failed at t = %g s",
                     tc_sim_time(sim));
        tc_sim_free(sim);
        return st;
    }
    *out = sim;
    return TC_OK;
}

/* the bench's methods: the script's version of each, else its spec with the LCP's capacity */
static tc_status bench_methods(const tc_exp *x, tc_method *m, tc_error *err) {
    tc_status st = TC_OK;
    for (int k = 0; !st && k < E7_NBENCH; k++) {
        int j = tc_exp_method_find(x, e7_bench_methods[k].label);
        if (j >= 0)
            m[k] = (*tc_exp_method(x, j));
        else
            st = tc_method_parse(&m[k], e7_bench_methods[k].spec, err);
        if (!st && j < 0 && m[k].solver && tc_params_find(&m[k].sparams, "max_contacts") >= 0)
            st = tc_method_set(&m[k], "max_contacts", E7_BENCH_LCP_CONTACTS, err);
    }
    return st;
}

/* the sizes as piles of E7's kinds, each in the box of the script's nearest size scaled by the
 * cube root of the bodies (the script's own box for its own sizes) */
static void bench_sizes(e7_setup *e, const tc_bench_val *bodies) {
    double hw[E7_MAXPILE];
    for (int i = 0; i < bodies->n; i++) {
        double b = bodies->list[i];
        int near = 0;
        for (int j = 1; j < e->d_n; j++)
            if (fabs(log(b / e->d_bodies[j])) < fabs(log(b / e->d_bodies[near]))) near = j;
        hw[i] = e->d_half_width[near] * cbrt(b / e->d_bodies[near]);
    }
    e->d_n = bodies->n;
    for (int i = 0; i < bodies->n; i++) {
        e->d_half_width[i] = hw[i];
        e->d_bodies[i] = bodies->list[i];
    }
}

/* pile i landed, then every method timed on it (one over the budget on a smaller pile is not run
 * on the larger ones); rows of pile i into row[i * E7_NBENCH ...] */
static tc_status bench_pile(const e7_setup *e, int i, const tc_method *m, const tc_bench_opts *o,
                            tc_scene *sc, bench_row *row, tc_error *err) {
    const int *bodies = o->v[E7_BENCH_BODIES].list;
    const double budget = o->v[E7_BENCH_BUDGET].real;
    tc_sim *landed = NULL;
    tc_status st = e7_pile_scene(e, i, sc, NULL, err);
    if (!st) st = land_pile(sc, &m[0], e->d_dt, o->v[E7_BENCH_LAND].real, &landed, err);
    for (int k = 0; k < E7_NBENCH && !st; k++) {
        bench_row *r = &row[i * E7_NBENCH + k];
        int over = -1;
        for (int j = 0; j < i && over < 0; j++)
            if (row[j * E7_NBENCH + k].over && bodies[j] <= bodies[i]) over = j;
        if (over >= 0) {
            memset(r, 0, sizeof *r);
            r->over = 1;
            r->step_s = r->contacts = NAN;
            snprintf(r->note, sizeof r->note, "skipped: over the budget on the %d-body pile",
                     bodies[over]);
        } else
            time_method(sc, &m[k], e->d_dt, landed, o->v[E7_BENCH_STEPS].list[0], budget, r);
        fprintf(stderr, "bench piles: %d bodies, %s: %ld steps%s%s\n", bodies[i],
                e7_bench_methods[k].label, r->steps, r->note[0] ? ": " : "", r->note);
    }
    tc_sim_free(landed);
    return st;
}

/* the rows, then each method's log-log slope of step time against contacts over the sizes */
static void bench_table(const bench_row *row, const tc_method *m, const tc_bench_val *bodies,
                        tc_bench_table *t) {
    const int nb = bodies->n;
    tc_bench_columns(t, e7_bench_cols, sizeof e7_bench_cols / sizeof e7_bench_cols[0]);
    for (int i = 0; i < nb * E7_NBENCH; i++) {
        const bench_row *r = &row[i];
        tc_bench_put(t, (tc_cell[]){TC_NUM(bodies->list[i / E7_NBENCH]),
                                    TC_TEXT(e7_bench_methods[i % E7_NBENCH].label),
                                    TC_TEXT(m[i % E7_NBENCH].spec), TC_NUM(r->steps),
                                    TC_NUM(r->step_s), TC_NUM(r->contacts),
                                    TC_NUM(r->contacts > 0 ? r->step_s / r->contacts : NAN),
                                    TC_NUM(r->fails), TC_TEXT(r->note)});
    }
    for (int k = 0; k < E7_NBENCH && nb > 1; k++) {
        double cx[E7_MAXPILE], ty[E7_MAXPILE], slope, b;
        for (int i = 0; i < nb; i++) {
            cx[i] = row[i * E7_NBENCH + k].contacts;
            ty[i] = row[i * E7_NBENCH + k].step_s;
        }
        e7_loglog_fit(cx, ty, nb, &slope, &b);
        tc_bench_note(t,
                      "%s: log-log slope of step time against contacts %.3g (the paper: 1, linear)",
                      e7_bench_methods[k].label, slope);
    }
}

/* E7 at its full tier: the pile, its step and the script's method parameters */
static tc_status e7_bench_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    e7_setup e;
    tc_method m[E7_NBENCH];
    const tc_bench_val *bodies = &o->v[E7_BENCH_BODIES];
    tc_status st = e7_read_setup(tc_exp_script(x), &e, err);
    if (!st) st = bench_methods(x, m, err);
    if (st) return st;
    bench_sizes(&e, bodies);
    tc_scene *sc = calloc(1, sizeof *sc);
    bench_row *row = calloc((size_t)bodies->n * E7_NBENCH, sizeof *row);
    if (!sc || !row) st = TC_ENOMEM;
    for (int i = 0; i < bodies->n && !st; i++)
        st = bench_pile(&e, i, m, o, sc, row, err);
    if (!st) bench_table(row, m, bodies, t);
    free(sc);
    free(row);
    return st;
}

static const tc_bench_opt e7_bench_opts[] = {
    [E7_BENCH_BODIES] =
        TC_BENCH_OPT_INTS("--bodies", 1, TC_SCENE_MAXBODY - 5, E7_MAXPILE, "100,300,1000",
                          "pile sizes (E7's full tier from 100 up)"),
    [E7_BENCH_LAND] = TC_BENCH_OPT_REAL("--land", 0, 100, "2", "S",
                                        "seconds of landing by velocity projection first"),
    [E7_BENCH_STEPS] = TC_BENCH_OPT_INT("--steps", 1, 1000000, "20",
                                        "steps timed per method from the landed pile"),
    [E7_BENCH_BUDGET] = TC_BENCH_OPT_REAL(
        "--budget", 1e-3, 1e6, "20", "S",
        "a method stops after this many seconds on one pile and skips the larger piles"),
    {0},
};

const tc_bench_def e7_bench = {.tier = "full",
                               .csv = "bench_piles.csv",
                               .opts = e7_bench_opts,
                               .threads = 1,
                               .run = e7_bench_run};
