/* SPDX-License-Identifier: MIT */
/* E8: gradients through contact — every method's one-step Jacobians against converged central
 * differences, and the landscape of a loss and its derivative through contact onset and across
 * an edge (sim/tc_grad.h) */
#include "experiments/e8/e8.h"
#include "core/tc_fs.h"
#include "exp/tc_rows.h"
#include "sim/tc_grad.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E8_MAXPOINT   257
#define E8_MAXRELAX   8
#define E8_MAXVARIANT 64

static const char *const sweep_name[E8_NSWEEP] = {"drop", "tip"};
static const char *const sweep_unit[E8_NSWEEP] = {"m", "rad"};
static const char *const kind_name[3] = {"apart", "near", "contact"};

/* a method as a landscape runs it: one of the experiment's, or the relaxation label's at one
 * relaxation */
typedef struct e8_variant {
    int method;
    double rho;     /* NaN: the method as planned */
    double rho_own; /* the relaxation the method as planned has (NaN: not swept) */
    tc_method m;
    char name[80]; /* label, or label@rho */
    int analytic;  /* its one-step Jacobians are analytic: the chain is taken too */
} e8_variant;

/* one point of a landscape: the loss and its derivatives */
typedef struct e8_point {
    double loss, g_fd, g_chain;
    long long fails; /* inner solves that hit their cap in its rollouts (their result unusable) */
} e8_point;

/* one accuracy state's errors */
typedef struct e8_acc {
    double rel_err, fd_bound;
    long long fd_steps;
} e8_acc;

typedef struct e8_state {
    e8_box box;
    e8_sweep sweep[E8_NSWEEP];
    double dt;
    int points, states;
    unsigned long seed;
    double acc_fd_step;
    char relax_label[64];
    double relax[E8_MAXRELAX];
    int nrelax;
    tc_scene sc;
    const tc_exp *x;
    /* the landscapes: variants x sweeps x points */
    e8_variant var[E8_MAXVARIANT];
    int nvar;
    e8_point *pt;
    /* the accuracy study: the analytic methods x states */
    int acc_method[E8_MAXVARIANT], nacc;
    e8_acc *acc;
    /* (d) planning with gradients (e8_plan.c) */
    e8_plan *plan;
    e8_bias *bias; /* (c), e8_bias.c */
} e8_state;

/* ---------- setup ---------- */

static const tc_field drop_rows[] = {
    TC_FIELD_R(e8_sweep, lo, "lo", -1, 10),
    TC_FIELD_R(e8_sweep, hi, "hi", -1, 10),
    TC_FIELD_R(e8_sweep, vx, "vx", -100, 100),
    TC_FIELD_R(e8_sweep, seconds, "seconds", 1e-3, 100),
    TC_FIELD_R(e8_sweep, fd_step, "fd_step", 1e-12, 1),
    TC_FIELD_END,
};
static const tc_field tip_rows[] = {
    TC_FIELD_R(e8_sweep, lo, "lo", 0, 1.5707963267948966),
    TC_FIELD_R(e8_sweep, hi, "hi", 0, 1.5707963267948966),
    TC_FIELD_R(e8_sweep, seconds, "seconds", 1e-3, 100),
    TC_FIELD_R(e8_sweep, fd_step, "fd_step", 1e-12, 1),
    TC_FIELD_END,
};
static const tc_field run_rows[] = {
    TC_FIELD_R(e8_state, dt, "dt", 1e-5, 0.1),
    TC_FIELD_I(e8_state, points, "points", 5, E8_MAXPOINT),
    TC_FIELD_I(e8_state, states, "states", 1, 10000),
    TC_FIELD_S(e8_state, relax_label, "relaxation_label"),
    TC_FIELD_RS(e8_state, relax, nrelax, "relaxations", 1e-12, 1),
    TC_FIELD_END,
};
typedef struct e8_acc_settings {
    int seed;
    double fd_step;
} e8_acc_settings;
static const tc_field acc_rows[] = {
    TC_FIELD_I(e8_acc_settings, seed, "seed", 0, 1000000000),
    TC_FIELD_R(e8_acc_settings, fd_step, "fd_step", 1e-12, 1),
    TC_FIELD_END,
};

static tc_status e8_setup(tc_exp *x, void **state, tc_error *err) {
    e8_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    const tc_script *sc = tc_exp_script(x);
    e8_acc_settings a = {0, 0};
    tc_status st;
    if ((st = e8_read_box(sc, &s->box, err)) ||
        (st = tc_script_read(sc, "drop", drop_rows, &s->sweep[E8_DROP], err)) ||
        (st = tc_script_read(sc, "tip", tip_rows, &s->sweep[E8_TIP], err)) ||
        (st = tc_script_read(sc, NULL, run_rows, s, err)) ||
        (st = tc_script_read(sc, "accuracy", acc_rows, &a, err)))
        return st;
    s->seed = (unsigned long)a.seed;
    s->acc_fd_step = a.fd_step;
    for (int w = 0; w < E8_NSWEEP; w++)
        if (!(s->sweep[w].hi > s->sweep[w].lo))
            return tc_script_fail(sc, tc_script_lookup(sc, NULL, sweep_name[w]), "hi", err,
                                  "%s: hi (%g) must be above lo (%g)", sweep_name[w],
                                  s->sweep[w].hi, s->sweep[w].lo);
    if (s->points % 2 == 0)
        return tc_script_fail_at(sc, "points", err,
                                 "points must be odd (got %d): the even ones are the jump ratio's "
                                 "coarse profile",
                                 s->points);
    tc_exp_refer(x, "relaxation_label", s->relax_label);
    if ((st = e8_bias_setup(x, &s->bias, err))) return st;
    if ((st = e8_scene(&s->box, &s->sc, err))) return st;
    /* (d) */
    if ((st = e8_plan_setup(x, &s->plan, err))) return st;
    tc_exp_need(x, TC_CAP_DYNAMICS, tc_scene_shapes(&s->sc), "a box in the 2-D world");
    return TC_OK;
}

/* the relaxation label must sweep a solver parameter `tol` */
static tc_status e8_check(const tc_exp *x, const void *state, tc_error *err) {
    const e8_state *s = state;
    int k = tc_exp_method_find(x, s->relax_label);
    if (k < 0 || tc_method_has(tc_exp_method(x, k), "tol")) return TC_OK;
    const tc_script *sc = tc_exp_script(x);
    return tc_script_fail_at(sc, "relaxation_label", err,
                             "'%s' has no parameter tol to set the relaxation with",
                             s->relax_label);
}

/* the work: every landscape point takes three rollouts (a fourth's worth with the chain), every
 * accuracy state about 50 steps of differences */
static void e8_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e8_state *s = state;
    double steps = 0, seconds = 0, most = 1;
    /* per method: its landscapes (its relaxations too) and accuracy states, its raised iteration
     * caps an upper bound on their time; SCM's box is about 10 small steps */
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const double f = tc_method_work_factor(tc_exp_method(x, k));
        double sk = 0;
        for (int sw = 0; sw < E8_NSWEEP; sw++)
            sk += 4.0 * s->points * s->sweep[sw].seconds / s->dt;
        if (!strcmp(tc_exp_label(x, k), s->relax_label)) sk *= 1 + s->nrelax;
        sk += 50.0 * s->states;
        steps += sk;
        seconds += sk * TC_WORK_STEP_S * 10 * f;
        most = fmax(most, f);
    }
    /* (c): every method's share, bounded by the largest factor */
    const double b = e8_bias_steps(x, s->bias, s->sweep, s->dt);
    w->steps = steps + b;
    w->seconds = seconds + b * TC_WORK_STEP_S * 10 * most;
    w->bytes = 1e6 * tc_exp_nmethod(x);
    /* (d) */
    e8_plan_estimate(x, s->plan, w);
}

/* ---------- the landscapes ---------- */

/* x0 of point i of a landscape */
static double point_x(const e8_state *s, int sweep, int i) {
    const e8_sweep *w = &s->sweep[sweep];
    return w->lo + (w->hi - w->lo) * i / (s->points - 1);
}

/* one rollout from point x0 (e8_rollout) */
static tc_status rollout(const e8_state *s, const tc_method *m, int sweep, double x0, double *loss,
                         double *dl, long long *steps, long long *fails, tc_error *err) {
    return e8_rollout(&s->sc, &s->box, s->dt, sweep, &s->sweep[sweep], m, x0, loss, dl, steps,
                      fails, err);
}

/* one landscape point of one variant: the loss, central differences of the rollout, the chain */
static void landscape_item(void *ctx, int item, tc_item *it) {
    e8_state *s = ctx;
    int per = E8_NSWEEP * s->points, v = item / per, sweep = item % per / s->points,
        i = item % s->points;
    const e8_variant *var = &s->var[v];
    e8_point *p = &s->pt[item];
    double x0 = point_x(s, sweep, i), h = s->sweep[sweep].fd_step, lp = NAN, lm = NAN;
    tc_error err = {0};
    p->loss = p->g_fd = p->g_chain = NAN;
    p->fails = 0;
    tc_status st = rollout(s, &var->m, sweep, x0, &p->loss, var->analytic ? &p->g_chain : NULL,
                           &it->steps, &p->fails, &err);
    if (!st) st = rollout(s, &var->m, sweep, x0 + h, &lp, NULL, &it->steps, &p->fails, &err);
    if (!st) st = rollout(s, &var->m, sweep, x0 - h, &lm, NULL, &it->steps, &p->fails, &err);
    if (!st) p->g_fd = (lp - lm) / (2 * h);
    if (st) {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s at %s = %g %s", err.msg, sweep_name[sweep], x0,
                 sweep_unit[sweep]);
    }
}

/* the variants: every method, and the relaxation label's at each relaxation */
static tc_status make_variants(e8_state *s, const tc_exp *x, tc_error *err) {
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        int relax = !strcmp(tc_exp_label(x, k), s->relax_label);
        for (int r = -1; r < (relax ? s->nrelax : 0); r++) {
            if (s->nvar == E8_MAXVARIANT)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "methods",
                                    "at most %d methods and relaxations", E8_MAXVARIANT);
            const tc_method *m = tc_exp_method(x, k);
            double own = relax && tc_method_has(m, "tol") ? tc_method_get(m, "tol") : NAN;
            /* the method as planned stands for the relaxation it has */
            if (r >= 0 && s->relax[r] == own) continue;
            e8_variant *v = &s->var[s->nvar++];
            v->method = k;
            v->m = *m;
            v->rho = r < 0 ? NAN : s->relax[r];
            v->rho_own = r < 0 ? own : NAN;
            snprintf(v->name, sizeof v->name, "%s", tc_exp_label(x, k));
            if (r >= 0) {
                tc_status st = tc_method_set(&v->m, "tol", v->rho, err);
                if (st) return st;
                snprintf(v->name, sizeof v->name, "%s@%g", tc_exp_label(x, k), v->rho);
            }
            v->analytic = tc_method_has_gradient(&v->m);
        }
    }
    return TC_OK;
}

/* ---------- the accuracy study ---------- */

/* state i of the accuracy study: a third each apart, near and in contact */
static void accuracy_state(const e8_state *s, int i, double q[3], double v[3]) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, s->seed + (unsigned long)i);
    double th = -0.1 + 0.2 * gsl_rng_uniform(r), u = gsl_rng_uniform(r);
    double gap = i % 3 == 0 ? 0.01 + 0.04 * u : i % 3 == 1 ? 0.002 * u : -0.001 * u;
    q[0] = 0;
    q[1] = e8_lowest(s->box.half, th) + gap;
    q[2] = th;
    v[0] = -0.5 + gsl_rng_uniform(r);
    v[1] = -0.5 * gsl_rng_uniform(r);
    v[2] = -1 + 2 * gsl_rng_uniform(r);
    gsl_rng_free(r);
}

/* the largest |entry| of n entries */
static double max_abs(const double *a, int n) {
    double m = 0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* one method at one state: its analytic [A B] against Richardson central differences */
static void accuracy_item(void *ctx, int item, tc_item *it) {
    e8_state *s = ctx;
    int k = s->acc_method[item / s->states], i = item % s->states;
    e8_acc *a = &s->acc[item];
    enum { N = 2 * E8_NX * E8_NX };
    double J[2][N], E[N], q[3], v[3];
    tc_sim *sim = NULL;
    tc_grad *g[2] = {NULL, NULL};
    tc_error err = {0};
    a->rel_err = a->fd_bound = NAN;
    tc_status st = tc_sim_alloc(&sim, &s->sc, tc_exp_method(s->x, k), s->dt, &err);
    if (!st) {
        accuracy_state(s, i, q, v);
        memcpy(tc_sim_q(sim), q, sizeof q);
        memcpy(tc_sim_v(sim), v, sizeof v);
    }
    for (int j = 0; j < 2 && !st; j++) {
        tc_grad_settings set = tc_default_grad_settings();
        set.mode = j ? TC_GRAD_FD : TC_GRAD_ANALYTIC;
        set.fd_step = s->acc_fd_step;
        set.richardson = 1;
        if (!(st = tc_grad_alloc(&g[j], sim, &set, &err)))
            st = tc_grad_step(g[j], J[j], J[j] + N / 2, j ? E : NULL, &err);
        it->steps += g[j] ? tc_grad_steps_taken(g[j]) : 0;
    }
    if (!st) {
        double d[N], scale = max_abs(J[1], N);
        for (int n = 0; n < N; n++)
            d[n] = J[0][n] - J[1][n];
        a->rel_err = max_abs(d, N) / fmax(scale, 1e-300);
        a->fd_bound = max_abs(E, N) / fmax(scale, 1e-300);
        a->fd_steps = tc_grad_steps_taken(g[1]);
    } else {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s (state %d, %s)", err.msg, i, kind_name[i % 3]);
    }
    tc_grad_free(g[0]);
    tc_grad_free(g[1]);
    tc_sim_free(sim);
}

/* ---------- outputs ---------- */

/* the accuracy table and metrics: per analytic method, the worst error per kind of state */
static tc_status accuracy_outputs(e8_state *s, tc_exp *x, tc_error *err) {
    /* the CSV: one row per state; then the table: one row per method */
    static const tc_col csv_cols[] = {{.csv = "label"},
                                      {.csv = "state", .fmt = "%.0f"},
                                      {.csv = "kind"},
                                      {.csv = "rel_err", .fmt = "%.6g"},
                                      {.csv = "fd_bound", .fmt = "%.6g"}};
    tc_rows *r;
    tc_status st = tc_rows_open(&r, x, "accuracy.csv", csv_cols, 5, err);
    if (st) return st;
    for (int a = 0; a < s->nacc; a++)
        for (int i = 0; i < s->states; i++) {
            const e8_acc *e = &s->acc[a * s->states + i];
            tc_rows_put(r, (tc_cell[]){TC_TEXT(tc_exp_label(x, s->acc_method[a])), TC_NUM(i),
                                       TC_TEXT(kind_name[i % 3]), TC_NUM(e->rel_err),
                                       TC_NUM(e->fd_bound)});
        }
    if ((st = tc_rows_close(r, NULL, NULL, err))) return st;
    static const tc_col tab[] = {
        {.head = "method"},
        {.head = "derivatives"},
        {.head = "worst, apart", .digits = 2},
        {.head = "worst, near", .digits = 2},
        {.head = "worst, contact", .digits = 2},
        {.head = "median, all", .digits = 2},
        {.head = "FD error bound", .digits = 2},
        {.head = "FD steps", .tfmt = "%.0f"},
    };
    if ((st = tc_rows_open(&r, x, NULL, tab, 8, err))) return st;
    for (int a = 0; a < s->nacc; a++) {
        const char *label = tc_exp_label(x, s->acc_method[a]);
        double worst[3] = {0, 0, 0}, all[10000], bound = 0;
        int n = 0;
        long long fd_steps = 0;
        for (int i = 0; i < s->states; i++) {
            const e8_acc *e = &s->acc[a * s->states + i];
            worst[i % 3] = isnan(e->rel_err) ? NAN : fmax(worst[i % 3], e->rel_err);
            all[n++] = e->rel_err;
            bound = fmax(bound, e->fd_bound);
            fd_steps = e->fd_steps;
        }
        gsl_sort(all, 1, (size_t)n);
        double med = gsl_stats_median_from_sorted_data(all, 1, (size_t)n), w = all[n - 1];
        tc_rows_put(r, (tc_cell[]){TC_TEXT(label),
                                   TC_TEXT(tc_method_gradient(tc_exp_method(x, s->acc_method[a]))),
                                   TC_NUM(worst[0]), TC_NUM(worst[1]), TC_NUM(worst[2]),
                                   TC_NUM(med), TC_NUM(bound), TC_NUM((double)fd_steps)});
        tc_exp_metric(x, label, w, "1", 0, 0.5, 0,
                      "largest relative error of the analytic one-step Jacobian [A B] against "
                      "Richardson central differences, over the accuracy states",
                      "%s.jacobian_rel_err_max", label);
        tc_exp_metric(x, label, med, "1", 0, 0.5, 0, "median of the same",
                      "%s.jacobian_rel_err_median", label);
        tc_exp_metric(x, label, bound, "1", 0, 0.5, 0,
                      "largest estimated error of the central differences it is judged against "
                      "(Richardson: h against h/2), relative to the Jacobian's largest entry",
                      "%s.jacobian_fd_bound", label);
    }
    return tc_rows_close(r, "accuracy",
                         "E8 (a): each analytic one-step Jacobian [A B] against central "
                         "differences (Richardson), largest entry error over the Jacobian's "
                         "largest entry, worst per kind of state and median over all; the last "
                         "columns: the differences' own error bound and the steps they cost",
                         err);
}

/* a variant's gradient profile of one sweep into g (FD or chain), x into xs */
static void profile(const e8_state *s, int v, int sweep, int chain, double *xs, double *g) {
    for (int i = 0; i < s->points; i++) {
        const e8_point *p = &s->pt[(v * E8_NSWEEP + sweep) * s->points + i];
        xs[i] = point_x(s, sweep, i);
        g[i] = chain ? p->g_chain : p->g_fd;
    }
}

/* how a variant's sweep went: -1 when a point errored, else the points whose rollouts had an
 * inner solve hit its cap (their losses unusable) */
static int sweep_failed(const e8_state *s, int v, int sweep) {
    int n = 0;
    for (int i = 0; i < s->points; i++) {
        const e8_point *p = &s->pt[(v * E8_NSWEEP + sweep) * s->points + i];
        if (isnan(p->g_fd)) return -1;
        n += p->fails > 0;
    }
    return n;
}

/* the median over the points of |chain - FD|, over the largest |FD| (robust to the one point
 * that straddles a jump) */
static double chain_vs_fd(const double *gc, const double *g, int n) {
    double d[E8_MAXPOINT];
    for (int i = 0; i < n; i++)
        d[i] = fabs(gc[i] - g[i]);
    gsl_sort(d, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(d, 1, (size_t)n) / fmax(max_abs(g, n), 1e-300);
}

/* one variant's smoothness row and metrics for one sweep; the total variation into *tv */
static void smoothness_row(e8_state *s, tc_exp *x, tc_rows *r, int v, int w, double *tv) {
    const e8_variant *var = &s->var[v];
    const char *label = tc_exp_label(x, var->method), *sw = sweep_name[w];
    char pre[64] = "";
    if (!isnan(var->rho)) snprintf(pre, sizeof pre, "rho_%g.", var->rho);
    int failed = sweep_failed(s, v, w);
    const char *used = var->analytic ? "chain" : "FD";
    tc_exp_metric(x, label, failed, "1", 0, 0, 0,
                  "landscape points whose rollouts had an inner solve hit its iteration cap (-1: "
                  "a rollout errored)",
                  "%s.%s%s.failed_points", label, pre, sw);
    *tv = NAN;
    if (failed != 0) {
        tc_rows_put(r, (tc_cell[]){TC_TEXT(var->name), TC_TEXT(sw), TC_TEXT(used), TC_NUM(failed),
                                   TC_TEXT("-"), TC_TEXT("-"), TC_TEXT("-"), TC_TEXT("-")});
        return;
    }
    /* the gradient its users get: the chain where the method has analytic Jacobians */
    double xs[E8_MAXPOINT], g[E8_MAXPOINT], gc[E8_MAXPOINT];
    profile(s, v, w, 0, xs, g);
    profile(s, v, w, 1, xs, gc);
    const double *gu = var->analytic ? gc : g;
    double jr = e8_grad_jump_ratio(xs, gu, s->points), zf = e8_zero_fraction(gu, s->points),
           agree = var->analytic ? chain_vs_fd(gc, g, s->points) : NAN;
    *tv = e8_total_variation(gu, s->points);
    tc_rows_put(r, (tc_cell[]){TC_TEXT(var->name), TC_TEXT(sw), TC_TEXT(used), TC_NUM(0),
                               TC_NUM(jr), TC_NUM(*tv), TC_NUM(zf),
                               var->analytic ? TC_NUM(agree) : TC_TEXT("n/a")});
    /* a flat gradient has no jump ratio (the zero fraction says so): no metric */
    if (isfinite(jr))
        tc_exp_metric(
            x, label, jr, "1", 0.05, 0.05, 0,
            "jump ratio of the loss gradient dL/dx0 along the landscape (the chained "
            "analytic Jacobians where the method has them, else central differences of the "
            "rollout): 2 continuous, about 1 a jump, below 0.5 a jump in the loss",
            "%s.%s%s.jump_ratio_grad", label, pre, sw);
    tc_exp_metric(x, label, *tv, "1", 1e-9, 0.05, 0, "total variation of the same dL/dx0",
                  "%s.%s%s.grad_tv", label, pre, sw);
    tc_exp_metric(x, label, zf, "1", 1e-9, 0, 0,
                  "fraction of the landscape's points where the same dL/dx0 is exactly zero",
                  "%s.%s%s.zero_fraction", label, pre, sw);
    if (var->analytic)
        tc_exp_metric(x, label, agree, "1", 1e-6, 0.5, 0,
                      "median over the points of |chained analytic dL/dx0 - central differences "
                      "of the rollout|, over the largest of the latter",
                      "%s.%s%s.chain_vs_fd", label, pre, sw);
}

/* the landscape CSV, the smoothness table and its metrics */
static tc_status landscape_outputs(e8_state *s, tc_exp *x, tc_error *err) {
    static const tc_col csv[] = {
        {.csv = "label"},
        {.csv = "rho", .fmt = "%.6g"},
        {.csv = "sweep"},
        {.csv = "x0", .fmt = "%.9g"},
        {.csv = "loss_m", .fmt = "%.9g"},
        {.csv = "dloss_fd", .fmt = "%.9g"},
        {.csv = "dloss_chain", .fmt = "%.9g"},
        {.csv = "failed_solves", .fmt = "%.0f"},
    };
    tc_rows *r;
    tc_status st = tc_rows_open(&r, x, "landscape.csv", csv, 8, err);
    if (st) return st;
    for (int v = 0; v < s->nvar; v++)
        for (int w = 0; w < E8_NSWEEP; w++)
            for (int i = 0; i < s->points; i++) {
                const e8_point *p = &s->pt[(v * E8_NSWEEP + w) * s->points + i];
                double rho = isnan(s->var[v].rho) ? s->var[v].rho_own : s->var[v].rho;
                tc_rows_put(r, (tc_cell[]){TC_TEXT(tc_exp_label(x, s->var[v].method)), TC_NUM(rho),
                                           TC_TEXT(sweep_name[w]), TC_NUM(point_x(s, w, i)),
                                           TC_NUM(p->loss), TC_NUM(p->g_fd), TC_NUM(p->g_chain),
                                           TC_NUM((double)p->fails)});
            }
    if ((st = tc_rows_close(r, NULL, NULL, err))) return st;
    /* the smoothness table: a row per variant and sweep */
    static const tc_col tab[] = {
        {.head = "method"},
        {.head = "landscape"},
        {.head = "gradient"},
        {.head = "failed points", .tfmt = "%.0f"},
        {.head = "jump ratio of dL/dx0", .digits = 3},
        {.head = "total variation", .digits = 3},
        {.head = "zero gradient", .tfmt = "%.0f %%", .scale = 100},
        {.head = "chain vs FD", .digits = 2},
    };
    if ((st = tc_rows_open(&r, x, NULL, tab, 8, err))) return st;
    /* the relaxation label's total variation at its smallest and largest relaxation */
    double tv_rho[E8_NSWEEP][2] = {{NAN, NAN}, {NAN, NAN}};
    for (int v = 0; v < s->nvar; v++)
        for (int w = 0; w < E8_NSWEEP; w++) {
            double tv, rho = isnan(s->var[v].rho) ? s->var[v].rho_own : s->var[v].rho;
            smoothness_row(s, x, r, v, w, &tv);
            if (s->nrelax > 0 && rho == s->relax[0]) tv_rho[w][0] = tv;
            if (s->nrelax > 0 && rho == s->relax[s->nrelax - 1]) tv_rho[w][1] = tv;
        }
    /* (none where either end of the relaxations failed on the landscape) */
    for (int w = 0; w < E8_NSWEEP && s->nrelax > 1; w++)
        if (isfinite(tv_rho[w][1] / tv_rho[w][0]))
            tc_exp_metric(x, s->relax_label, tv_rho[w][1] / tv_rho[w][0], "1", 1e-6, 0.05, 0,
                          "total variation of dL/dx0 at the largest relaxation over that at the "
                          "smallest (below 1: smoother when relaxed)",
                          "%s.%s.tv_ratio_relaxed", s->relax_label, sweep_name[w]);
    return tc_rows_close(r, "smoothness",
                         "E8 (b): smoothness of the loss gradient dL/dx0 along each landscape, "
                         "the gradient a method's users get (the chained analytic one-step "
                         "Jacobians where it has them, else central differences of the rollout): "
                         "points whose rollouts had a solve hit its iteration cap (then no "
                         "measure: their losses are the solver's last iterate), the jump ratio "
                         "(2 continuous, about 1 a jump, below 0.5 a jump in the loss), total "
                         "variation, the share of points where it is exactly zero, and for the "
                         "chain the median difference from central differences of the rollout",
                         err);
}

/* the figure data: one block per variant (x0, loss, FD, chain) per sweep, and the figures */
static tc_status landscape_figures(e8_state *s, tc_exp *x, tc_error *err) {
    for (int w = 0; w < E8_NSWEEP; w++) {
        char file[64], path[1024], labels[4096] = "", lo[32], hi[32];
        snprintf(file, sizeof file, "landscape_%s.dat", sweep_name[w]);
        tc_exp_path(x, file, path, sizeof path);
        tc_outfile o;
        tc_status st = tc_exp_open(x, file, &o, err);
        if (st) return st;
        fprintf(o.f, "# E8 landscape '%s': one block per method: x0 loss dloss_fd dloss_chain\n",
                sweep_name[w]);
        for (int v = 0; v < s->nvar; v++) {
            tc_words_add(labels, sizeof labels, " ", "%s", s->var[v].name);
            for (int i = 0; i < s->points; i++) {
                const e8_point *p = &s->pt[(v * E8_NSWEEP + w) * s->points + i];
                fprintf(o.f, "%.9g %.9g %.9g %.9g\n", point_x(s, w, i), p->loss, p->g_fd,
                        p->g_chain);
            }
            fprintf(o.f, "\n\n");
        }
        if ((st = tc_outfile_commit(&o, err))) return st;
        snprintf(lo, sizeof lo, "%.9g", s->sweep[w].lo);
        snprintf(hi, sizeof hi, "%.9g", s->sweep[w].hi);
        tc_plot_var vars[] = {{"datafile", path},      {"labels", labels}, {"sweep", sweep_name[w]},
                              {"unit", sweep_unit[w]}, {"lo", lo},         {"hi", hi}};
        char base[32], caption[512];
        snprintf(base, sizeof base, "fig_%s", sweep_name[w]);
        snprintf(caption, sizeof caption,
                 "E8 (b), the %s landscape: the loss (the box's x after %g s, grey, right axis) "
                 "and its derivative (coloured: central differences of the rollout; black "
                 "circles: the chained analytic one-step Jacobians, where a method has them), "
                 "one panel per method",
                 sweep_name[w], s->sweep[w].seconds);
        tc_exp_figure(x, "e8_landscape.gp", vars, 6, base, caption);
    }
    return TC_OK;
}

/* ---------- run ---------- */

/* (b): a run per variant and landscape, an item per point: the items' runs */
static void landscape_runs(e8_state *s, tc_exp *x, int *run) {
    for (int v = 0; v < s->nvar; v++)
        for (int w = 0; w < E8_NSWEEP; w++) {
            int r = tc_exp_add_run(x, s->var[v].method, &s->var[v].m, -1, "study=%s%s%s",
                                   sweep_name[w], isnan(s->var[v].rho) ? "" : " rho=",
                                   isnan(s->var[v].rho) ? "" : strchr(s->var[v].name, '@') + 1);
            for (int i = 0; i < s->points; i++)
                run[(v * E8_NSWEEP + w) * s->points + i] = r;
        }
}

static tc_status e8_run(tc_exp *x, void *state, tc_error *err) {
    e8_state *s = state;
    s->x = x;
    tc_status st = make_variants(s, x, err);
    if (st) return st;
    /* (a): the methods with analytic Jacobians, every state */
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        if (tc_method_has_gradient(tc_exp_method(x, k))) s->acc_method[s->nacc++] = k;
    int nacc = s->nacc * s->states, nland = s->nvar * E8_NSWEEP * s->points;
    s->acc = calloc((size_t)nacc + 1, sizeof *s->acc);
    s->pt = calloc((size_t)nland + 1, sizeof *s->pt);
    int *run = calloc((size_t)(nacc > nland ? nacc : nland) + 1, sizeof *run);
    if (!s->acc || !s->pt || !run) {
        free(run);
        return TC_ENOMEM;
    }
    for (int a = 0; a < s->nacc; a++)
        for (int i = 0; i < s->states; i++)
            run[a * s->states + i] =
                tc_exp_add_run(x, s->acc_method[a], NULL, (long long)(s->seed + (unsigned long)i),
                               "study=accuracy state=%d kind=%s", i, kind_name[i % 3]);
    st = tc_exp_sweep(x, nacc, run, accuracy_item, s);
    /* (b) */
    if (!st) {
        landscape_runs(s, x, run);
        st = tc_exp_sweep(x, nland, run, landscape_item, s);
    }
    free(run);
    if (st) return st;
    tc_exp_text(x,
                "A square box (half side %g m, %g kg) in the 2-D world (gravity %g m/s², friction "
                "%g), steps of %g s, tier `%s`. Jacobians are in tangent coordinates: (x, y, θ, "
                "ẋ, ẏ, ω) of the box and the inputs u = (τ, servo targets); see docs/gradients.md.",
                s->box.half, s->box.mass, s->box.gravity, s->box.friction, s->dt, tc_exp_tier(x));
    tc_exp_scene_figure(x, &s->sc, "xy", "fig_scene", "E8's scene: the box lying on the ground");
    if ((st = accuracy_outputs(s, x, err)) || (st = landscape_outputs(s, x, err)) ||
        (st = landscape_figures(s, x, err)))
        return st;
    /* (d) */
    if ((st = e8_plan_run(x, s->plan, err))) return st;
    /* (c) */
    return e8_bias_run(x, s->bias, &s->sc, &s->box, s->dt, s->sweep, err);
}

static void e8_free(void *state) {
    e8_state *s = state;
    if (!s) return;
    free(s->acc);
    free(s->pt);
    /* (d) */
    e8_plan_free(s->plan);
    /* (c) */
    e8_bias_free(s->bias);
    free(s);
}

static const tc_results_file e8_results[] = {
    {"accuracy.csv", TC_RESULTS_ROWS, NULL},
    {"landscape.csv", TC_RESULTS_ROWS, NULL},
    /* (d) */
    {"plan.csv", TC_RESULTS_ROWS, "wall_s"},
    {"replay.csv", TC_RESULTS_ROWS, NULL},
    {"bias.csv", TC_RESULTS_ROWS, NULL},
    {NULL, 0, NULL},
};

const tc_experiment_type tc_experiment_e8 = {
    .name = "e8_gradients",
    .title = "gradients through contact: one-step Jacobians and loss landscapes per method",
    .heading = "Gradients through contact (E8)",
    .paper = "Beker et al. 2025, abstract; Le Cleac'h et al. 2023, sec. III-A and V-D",
    .script = "e8/e8_gradients.cfg",
    .results = e8_results,
    .setup = e8_setup,
    .run = e8_run,
    .free = e8_free,
    .estimate = e8_estimate,
    .check = e8_check,
    .bench_name = "gradients",
    .bench_doc = "E8's box at a few states in contact: for every method, one step beside one "
                 "Jacobian [A B] as its users get it (analytic where it has them) and by central "
                 "differences (2n + 1 steps), on one thread; notes on the targets (SCM's Jacobian "
                 "within 5 steps, the single-level's within 2)",
    .bench = &e8_bench,
};
