/* SPDX-License-Identifier: MIT */
/* E8 (d): planning with gradients — E2's T pushed to a target pose by a finger path of a few
 * waypoints, optimised by BFGS with each method's gradient (the chain of analytic one-step
 * Jacobians, or central differences of the rollout) and by the cross-entropy method on the same
 * budget of simulated steps; each method's best plan replayed open loop in the rigid engines */
#include "experiments/e8/e8.h"
#include "core/tc_fs.h"
#include "exp/tc_rows.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_grad.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E8_PLAN_MAXMETHOD 8
#define E8_PLAN_MAXREPLAY 4
#define E8_PLAN_MAXSTART  64
#define E8_PLAN_NPATH     61 /* path samples of a replay */
#define E8_PLAN_NP        (2 * E8_PLAN_MAXWAY)

enum { BODY_T = 0, BODY_FINGER = 1 };
enum { OPT_BFGS, OPT_CEM, OPT_N };
static const char *const opt_name[OPT_N] = {"bfgs", "cem"};
static const char *const opt_title[OPT_N] = {"BFGS", "CEM"};

/* one planning item's outcome: a (method, optimiser, start) */
typedef struct plan_out {
    double p[E8_PLAN_NP]; /* the best plan seen (lowest loss) */
    double loss, pose[3];
    double loss0;                   /* the start's loss */
    long long steps, steps_success; /* all steps taken; at the first success (-1: none) */
    int evals, failed_rollouts;
    int restarts; /* BFGS's, from its best plan */
} plan_out;

/* one replay: a planner method's best plan in an engine (or in the planner itself) */
typedef struct replay_out {
    int planner, engine; /* index into the plan methods; method index of the engine (-1: own) */
    tc_method m;         /* the method it runs in */
    double pose[3], pos_err, ang_err;
    double path[4 * E8_PLAN_NPATH];
    int done;
} replay_out;

struct e8_plan {
    e8_task task;
    tc_t_pusher tp;
    tc_scene sc;
    double reach[2], spread, fd_step, bfgs_step, bfgs_tol;
    double cem_sigma, cem_sigma_min;
    int population, elites, starts;
    long long budget;
    unsigned long seed;
    /* the planner methods (labels, their parameters for the T) and the replay engines */
    int nmethod;
    char label[E8_PLAN_MAXMETHOD][TC_LABEL_MAX + 1];
    const tc_setting *params[E8_PLAN_MAXMETHOD]; /* the script's, NULL: none */
    int nreplay;
    char replay[E8_PLAN_MAXREPLAY][TC_LABEL_MAX + 1];
    /* at run: the methods that plan (index into the experiment, the method as run) */
    int k[E8_PLAN_MAXMETHOD], nrun;
    tc_method m[E8_PLAN_MAXMETHOD];
    char skip[E8_PLAN_MAXMETHOD][200];
    int run_of[E8_PLAN_MAXMETHOD * OPT_N * E8_PLAN_MAXSTART];
    plan_out *out;
    replay_out *rep;
    int nrep;
};

/* ---------- the task ---------- */

void e8_plan_weights(const e8_task *t, double time, double *w) {
    /* waypoint i at time i seconds / nway: hat functions, held at the last after the end */
    for (int i = 0; i <= t->nway; i++)
        w[i] = 0;
    double u = time / t->seconds * t->nway;
    if (u >= t->nway) {
        w[t->nway] = 1;
        return;
    }
    if (u < 0) u = 0;
    int i = (int)floor(u);
    double f = u - i;
    w[i] = 1 - f;
    w[i + 1] = f;
}

double e8_plan_loss(const e8_task *t, const double pose[3], const double *p, double dl_pose[3],
                    double *dl_p) {
    double dx = pose[0] - t->goal[0], dy = pose[1] - t->goal[1],
           dth = remainder(pose[2] - t->goal[2], 2 * M_PI), l2 = t->length * t->length;
    double loss = dx * dx + dy * dy + l2 * dth * dth;
    if (dl_pose) {
        dl_pose[0] = 2 * dx;
        dl_pose[1] = 2 * dy;
        dl_pose[2] = 2 * l2 * dth;
    }
    /* the regulariser: the squared length of each leg of the finger's path */
    for (int j = 0; j < 2 * t->nway; j++)
        if (dl_p) dl_p[j] = 0;
    for (int i = 0; i < t->nway; i++)
        for (int c = 0; c < 2; c++) {
            double prev = i ? p[2 * (i - 1) + c] : t->start[c], d = p[2 * i + c] - prev;
            loss += t->reg * d * d;
            if (dl_p) {
                dl_p[2 * i + c] += 2 * t->reg * d;
                if (i) dl_p[2 * (i - 1) + c] -= 2 * t->reg * d;
            }
        }
    return loss;
}

int e8_plan_success(const e8_task *t, const double pose[3]) {
    return hypot(pose[0] - t->goal[0], pose[1] - t->goal[1]) <= t->tol_pos &&
           fabs(remainder(pose[2] - t->goal[2], 2 * M_PI)) <= t->tol_angle;
}

/* the simulation's failure in words, into err (when nothing has said why yet) */
static tc_status sim_failed(tc_sim *sim, tc_status st, tc_error *err) {
    if (!st || !sim || err->msg[0]) return st;
    char warn[256] = "";
    tc_sim_warnings(sim, warn, sizeof warn);
    return tc_error_set(err, st, NULL, 0, NULL, "%s",
                        warn[0] ? strtok(warn, "\n") : tc_status_str(st));
}

/* the ctrl entries (tc_sim_ctrl) of the finger's x and y servo targets, found by setting them */
static void finger_ctrl(tc_sim *sim, int nv, int col[2]) {
    for (int c = 0; c < 2; c++) {
        tc_sim_set_target(sim, BODY_FINGER, c, 12345.0 + c);
        col[c] = -1;
        for (int j = 0; j < nv; j++)
            if (tc_sim_ctrl(sim)[j] == 12345.0 + c) col[c] = j;
    }
}

/* the servo targets held over step k: the waypoints interpolated with their weights w */
static void set_targets(const e8_task *t, tc_sim *sim, const double *p, long k, double *w) {
    e8_plan_weights(t, k * t->dt, w);
    for (int c = 0; c < 2; c++) {
        double target = w[0] * t->start[c];
        for (int i = 1; i <= t->nway; i++)
            target += w[i] * p[2 * (i - 1) + c];
        tc_sim_set_target(sim, BODY_FINGER, c, target);
    }
}

/* S <- A S + B_ctrl dctrl/dp: waypoint i's coordinate c moves target c by w[i] */
static void propagate_tangent(const double *A, double *S, int nx, int np, const int col[2],
                              const double *w) {
    const double *B = A + nx * nx;
    double *T = S + nx * np;
    for (int r = 0; r < nx; r++)
        for (int j = 0; j < np; j++) {
            double v = B[r * nx + nx / 2 + col[j % 2]] * w[j / 2 + 1];
            for (int l = 0; l < nx; l++)
                v += A[r * nx + l] * S[l * np + j];
            T[r * np + j] = v;
        }
    memcpy(S, T, sizeof *S * (size_t)(nx * np));
}

/* the T's path, evenly in time: the samples due by time, from *kpath on (path NULL: none kept) */
static void record_path(const e8_task *t, tc_sim *sim, double time, double *path, int npath,
                        int *kpath) {
    if (!path) return;
    double q[7];
    tc_sim_body_q(sim, BODY_T, q);
    while (*kpath < npath && time >= *kpath * t->seconds / (npath - 1) - 1e-12) {
        path[4 * *kpath] = time;
        memcpy(path + 4 * *kpath + 1, q, 3 * sizeof *q);
        ++*kpath;
    }
}

tc_status e8_plan_rollout(const e8_task *t, const tc_scene *sc, const tc_method *m, const double *p,
                          double pose[3], double *dpose, double *path, int npath, long long *steps,
                          tc_error *err) {
    const int np = 2 * t->nway;
    tc_sim *sim = NULL;
    tc_grad *g = NULL;
    double *A = NULL, *S = NULL, w[E8_PLAN_MAXWAY + 1], q[7];
    int nx = 0, col[2] = {-1, -1}, kpath = 0;
    tc_status st = tc_sim_alloc(&sim, sc, m, t->dt, err);
    if (!st && dpose) {
        tc_grad_settings set = tc_default_grad_settings();
        set.mode = TC_GRAD_ANALYTIC;
        st = tc_grad_alloc(&g, sim, &set, err);
    }
    if (!st && g) {
        /* [A B] and the state's derivative S = dx/dp with its update (nx x np each) */
        nx = tc_grad_nx(g);
        A = malloc(sizeof *A * (size_t)(2 * nx * nx + 2 * nx * np));
        if (!A)
            st = TC_ENOMEM;
        else {
            S = A + 2 * nx * nx;
            memset(S, 0, sizeof *S * (size_t)(2 * nx * np));
            finger_ctrl(sim, nx / 2, col);
            if (col[0] < 0 || col[1] < 0)
                st = tc_error_set(err, TC_EINVAL, NULL, 0, NULL, "the finger has no x-y servo");
        }
    }
    const long n = lround(t->seconds / t->dt);
    for (long k = 0; k < n && !st; k++) {
        set_targets(t, sim, p, k, w);
        if (g && !(st = tc_grad_step(g, A, A + nx * nx, NULL, err))) {
            propagate_tangent(A, S, nx, np, col, w);
            *steps += tc_grad_steps_taken(g);
        }
        if (!st) st = tc_sim_step(sim);
        if (st) break;
        ++*steps;
        record_path(t, sim, (k + 1) * t->dt, path, npath, &kpath);
    }
    st = sim_failed(sim, st, err);
    if (!st) {
        tc_sim_body_q(sim, BODY_T, q);
        memcpy(pose, q, 3 * sizeof *q);
        /* the T's tangent rows dx, dy, dtheta are the first three */
        if (dpose) memcpy(dpose, S, sizeof *S * (size_t)(3 * np));
    }
    free(A);
    tc_grad_free(g);
    tc_sim_free(sim);
    return st;
}

/* ---------- the optimisers ---------- */

/* one rank of a population: its loss and index (ties by index: deterministic) */
typedef struct ranked {
    double c;
    int i;
} ranked;
static int by_loss(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return x->i - y->i;
}

int e8_cem(e8_objective f, void *ctx, int n, double *mean, double *sd, int population, int elites,
           double sd_min, unsigned long seed, int max_iter) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double *z = malloc(sizeof *z * (size_t)(population * n));
    ranked *rk = malloc(sizeof *rk * (size_t)population);
    int it = 0, stop = 0;
    if (!r || !z || !rk)
        stop = 1;
    else
        gsl_rng_set(r, seed);
    for (; it < max_iter && !stop; it++) {
        /* sample, score (the objective may stop the search), refit to the elites */
        for (int j = 0; j < population && !stop; j++) {
            for (int d = 0; d < n; d++)
                z[j * n + d] = mean[d] + gsl_ran_gaussian(r, sd[d]);
            rk[j] = (ranked){f(ctx, z + j * n, &stop), j};
        }
        if (stop) break;
        qsort(rk, (size_t)population, sizeof *rk, by_loss);
        for (int d = 0; d < n; d++) {
            double s = 0, s2 = 0;
            for (int e = 0; e < elites; e++)
                s += z[rk[e].i * n + d];
            mean[d] = s / elites;
            for (int e = 0; e < elites; e++)
                s2 += (z[rk[e].i * n + d] - mean[d]) * (z[rk[e].i * n + d] - mean[d]);
            sd[d] = fmax(sqrt(s2 / elites), sd_min);
        }
    }
    free(rk);
    free(z);
    gsl_rng_free(r);
    return it;
}

/* one planning search's context: the task, the method and what the search has done */
typedef struct search {
    const e8_plan *pl;
    const tc_method *m;
    int analytic, stop;
    plan_out *o;
    double last_loss;
    tc_error err;
} search;

/* a failed rollout (divergence): the first one's error kept */
static void note_failure(search *s, const tc_error *err) {
    if (!s->o->failed_rollouts++) s->err = *err;
}

/* a loss noted: the start's, the best plan, the first success; stop at a success or the budget */
static void note_loss(search *s, const double *p, const double pose[3], double loss) {
    plan_out *o = s->o;
    if (o->evals == 1) o->loss0 = loss;
    if (loss < o->loss) {
        o->loss = loss;
        memcpy(o->p, p, sizeof *p * (size_t)(2 * s->pl->task.nway));
        memcpy(o->pose, pose, sizeof o->pose);
    }
    if (o->steps_success < 0 && e8_plan_success(&s->pl->task, pose)) o->steps_success = o->steps;
    if (o->steps_success >= 0 || o->steps >= s->pl->budget) s->stop = 1;
    s->last_loss = loss;
}

/* the loss's gradient by central differences of the whole rollout, one coordinate at a time */
static void fd_gradient(search *s, const double *p, double *grad, tc_error *err) {
    const e8_task *t = &s->pl->task;
    const int np = 2 * t->nway;
    double pp[E8_PLAN_NP], lo[2], pz[3];
    tc_status st = TC_OK;
    memcpy(pp, p, sizeof *p * (size_t)np);
    for (int j = 0; j < np && !st; j++) {
        for (int side = 0; side < 2 && !st; side++) {
            pp[j] = p[j] + (side ? -1 : 1) * s->pl->fd_step;
            st = e8_plan_rollout(t, &s->pl->sc, s->m, pp, pz, NULL, NULL, 0, &s->o->steps, err);
            lo[side] = st ? NAN : e8_plan_loss(t, pz, pp, NULL, NULL);
        }
        pp[j] = p[j];
        grad[j] = (lo[0] - lo[1]) / (2 * s->pl->fd_step);
    }
    if (st) {
        note_failure(s, err);
        memset(grad, 0, sizeof *grad * (size_t)np);
    }
    if (s->o->steps >= s->pl->budget) s->stop = 1;
}

/* a candidate plan's rollout: the loss, its gradient (NULL: none) by the method's chain or by
 * central differences of the rollout; every step counted, the best plan and the first success
 * noted; past the budget (or after a success) nothing more is simulated */
static double evaluate(search *s, const double *p, double *grad) {
    const e8_task *t = &s->pl->task;
    const int np = 2 * t->nway;
    double pose[3], dpose[3 * E8_PLAN_NP], dl[3], dlp[E8_PLAN_NP];
    if (grad) memset(grad, 0, sizeof *grad * (size_t)np);
    if (s->stop) return s->last_loss;
    tc_error err = {0};
    int chain = grad && s->analytic;
    tc_status st = e8_plan_rollout(t, &s->pl->sc, s->m, p, pose, chain ? dpose : NULL, NULL, 0,
                                   &s->o->steps, &err);
    s->o->evals++;
    if (st) {
        /* a loss far above any reachable one, no gradient */
        note_failure(s, &err);
        s->last_loss = 1e3;
        return s->last_loss;
    }
    double loss = e8_plan_loss(t, pose, p, dl, dlp);
    note_loss(s, p, pose, loss);
    if (!grad || s->stop) return loss;
    if (chain)
        for (int j = 0; j < np; j++)
            grad[j] = dlp[j] + dl[0] * dpose[j] + dl[1] * dpose[np + j] + dl[2] * dpose[2 * np + j];
    else
        fd_gradient(s, p, grad, &err);
    return loss;
}

/* GSL's objective, gradient and both */
static double gsl_f(const gsl_vector *v, void *ctx) {
    return evaluate(ctx, v->data, NULL);
}
static void gsl_fdf(const gsl_vector *v, void *ctx, double *f, gsl_vector *g) {
    *f = evaluate(ctx, v->data, g->data);
}
static void gsl_df(const gsl_vector *v, void *ctx, gsl_vector *g) {
    evaluate(ctx, v->data, g->data);
}

/* the cross-entropy method's objective */
static double cem_f(void *ctx, const double *z, int *stop) {
    search *s = ctx;
    double l = evaluate(s, z, NULL);
    *stop = s->stop;
    return l;
}

/* BFGS (GSL's vector_bfgs2) from p0 until a success or the budget; when its line search makes
 * no progress (or the gradient vanishes) it starts again from the best plan seen, as long as
 * the previous leg improved on it */
static void run_bfgs(search *s, const double *p0, int np) {
    gsl_multimin_function_fdf fn = {gsl_f, gsl_df, gsl_fdf, (size_t)np, s};
    gsl_multimin_fdfminimizer *mz =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, (size_t)np);
    gsl_vector_const_view x0 = gsl_vector_const_view_array(p0, (size_t)np);
    if (!mz) return;
    gsl_multimin_fdfminimizer_set(mz, &fn, &x0.vector, s->pl->bfgs_step, s->pl->bfgs_tol);
    double best = s->o->loss;
    for (int it = 0; it < 10000 && !s->stop; it++)
        if (gsl_multimin_fdfminimizer_iterate(mz) ||
            gsl_multimin_test_gradient(mz->gradient, 1e-12) == GSL_SUCCESS) {
            if (!(s->o->loss < best)) break;
            best = s->o->loss;
            gsl_vector_const_view b = gsl_vector_const_view_array(s->o->p, (size_t)np);
            gsl_multimin_fdfminimizer_set(mz, &fn, &b.vector, s->pl->bfgs_step, s->pl->bfgs_tol);
            s->o->restarts++;
        }
    gsl_multimin_fdfminimizer_free(mz);
}

/* start i's waypoints: the nominal path (the finger's start to start + reach, evenly) with a
 * seeded spread */
static void start_plan(const e8_plan *pl, int i, double *p) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, pl->seed + (unsigned long)i);
    for (int w = 1; w <= pl->task.nway; w++)
        for (int c = 0; c < 2; c++)
            p[2 * (w - 1) + c] = pl->task.start[c] + pl->reach[c] * w / pl->task.nway +
                                 gsl_ran_gaussian(r, pl->spread);
    gsl_rng_free(r);
}

/* item (method, optimiser, start) */
static void plan_item(void *ctx, int item, tc_item *it) {
    e8_plan *pl = ctx;
    int m = item / (OPT_N * pl->starts), opt = item / pl->starts % OPT_N, i = item % pl->starts;
    const int np = 2 * pl->task.nway;
    plan_out *o = &pl->out[item];
    memset(o, 0, sizeof *o);
    o->loss = INFINITY;
    o->loss0 = NAN;
    o->steps_success = -1;
    search s = {.pl = pl, .m = &pl->m[m], .analytic = tc_method_has_gradient(&pl->m[m]), .o = o};
    double p0[E8_PLAN_NP], sd[E8_PLAN_NP];
    start_plan(pl, i, p0);
    if (opt == OPT_BFGS)
        run_bfgs(&s, p0, np);
    else {
        for (int j = 0; j < np; j++)
            sd[j] = pl->cem_sigma;
        e8_cem(cem_f, &s, np, p0, sd, pl->population, pl->elites, pl->cem_sigma_min,
               pl->seed + 1000 + (unsigned long)i, 100000);
    }
    it->steps = o->steps;
    /* every rollout failing is the item's failure; some failing is a note in the CSV */
    if (!isfinite(o->loss)) {
        it->status = TC_EDIVERGED;
        snprintf(it->reason, sizeof it->reason, "%s", s.err.msg[0] ? s.err.msg : "no rollout");
    }
}

/* replay item: a planner's best plan in one engine (or the planner itself) */
static void replay_item(void *ctx, int item, tc_item *it) {
    e8_plan *pl = ctx;
    replay_out *r = &pl->rep[item];
    tc_error err = {0};
    const plan_out *best = NULL;
    for (int j = 0; j < OPT_N * pl->starts; j++) {
        const plan_out *o = &pl->out[r->planner * OPT_N * pl->starts + j];
        if (isfinite(o->loss) && (!best || o->loss < best->loss)) best = o;
    }
    r->pos_err = r->ang_err = NAN;
    if (!best) {
        it->status = TC_EINVAL;
        snprintf(it->reason, sizeof it->reason, "no plan to replay");
        return;
    }
    tc_status st = e8_plan_rollout(&pl->task, &pl->sc, &r->m, best->p, r->pose, NULL, r->path,
                                   E8_PLAN_NPATH, &it->steps, &err);
    if (st) {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s", err.msg);
        return;
    }
    r->pos_err = hypot(r->pose[0] - pl->task.goal[0], r->pose[1] - pl->task.goal[1]);
    r->ang_err = fabs(remainder(r->pose[2] - pl->task.goal[2], 2 * M_PI));
    r->done = 1;
}

/* ---------- setup ---------- */

static const tc_field plan_rows[] = {
    TC_FIELD_R(e8_plan, task.dt, "dt", 1e-5, 0.1),
    TC_FIELD_I(e8_plan, task.nway, "waypoints", 1, E8_PLAN_MAXWAY),
    TC_FIELD_R(e8_plan, task.length, "length", 1e-4, 10),
    TC_FIELD_R(e8_plan, task.reg, "reg", 0, 100),
    TC_FIELD_R(e8_plan, spread, "spread", 0, 1),
    TC_FIELD_R(e8_plan, fd_step, "fd_step", 1e-12, 0.1),
    TC_FIELD_R(e8_plan, bfgs_step, "bfgs_step", 1e-9, 1),
    TC_FIELD_R(e8_plan, bfgs_tol, "bfgs_tol", 1e-6, 1),
    TC_FIELD_I(e8_plan, population, "population", 2, 10000),
    TC_FIELD_I(e8_plan, elites, "elites", 1, 10000),
    TC_FIELD_R(e8_plan, cem_sigma, "cem_sigma", 1e-9, 1),
    TC_FIELD_R(e8_plan, cem_sigma_min, "cem_sigma_min", 0, 1),
    TC_FIELD_R(e8_plan, task.tol_pos, "success_position", 1e-6, 1),
    TC_FIELD_R(e8_plan, task.tol_angle, "success_angle", 1e-3, 180),
    TC_FIELD_END,
};
/* the settings a tier changes: starts, the rollout's length, the budget per search */
typedef struct plan_budget {
    int starts, seed;
    double seconds, budget;
} plan_budget;
static const tc_field budget_rows[] = {
    TC_FIELD_I(plan_budget, starts, "starts", 1, E8_PLAN_MAXSTART),
    TC_FIELD_I(plan_budget, seed, "seed", 0, 1000000000),
    TC_FIELD_R(plan_budget, seconds, "seconds", 1e-3, 100),
    TC_FIELD_R(plan_budget, budget, "budget", 1, 1e9),
    TC_FIELD_END,
};

/* 1 when label names a method of the script's list or a registered one (an engine may be left
 * out of the build: its label is then not referred to, and the run says why it is missing) */
static int registered(const tc_script *sc, const char *label) {
    tc_method m;
    tc_error ignore = {0};
    return tc_script_method_spec(sc, label) || !tc_method_parse(&m, label, &ignore);
}

/* why a label is not among the run's methods, into buf */
static void why_absent(const tc_exp *x, const char *label, char *buf, size_t n) {
    for (int i = 0; i < tc_exp_nskip(x); i++)
        if (!strcmp(tc_exp_skip_at(x, i)->name, label)) {
            snprintf(buf, n, "%s", tc_exp_skip_at(x, i)->reason);
            return;
        }
    snprintf(buf, n, "%s",
             registered(tc_exp_script(x), label) ? "left out of this run" : "not in this build");
}

/* a planner's parameters for the T (ps: the script's group, may be NULL) set on m */
static tc_status set_params(const tc_script *sc, const tc_setting *ps, tc_method *m,
                            tc_error *err) {
    for (int k = 0; k < tc_setting_length(ps); k++) {
        const tc_setting *p = tc_setting_at(ps, k);
        const char *name = tc_setting_name(p);
        if (tc_setting_type(p) != TC_SETTING_NUMBER)
            return tc_script_fail(sc, p, name, err, "must be a number");
        if (tc_method_set(m, name, tc_setting_number(p), err))
            return tc_script_fail(sc, p, name, err, "%s", err->msg);
    }
    return TC_OK;
}

/* plan_methods = ( { label = "scm"; params = { k = 208.0; }; }, ... ): the planners and their
 * parameters for the T */
static tc_status read_methods(tc_exp *x, const tc_script *sc, e8_plan *pl, tc_error *err) {
    static const char *const allowed[] = {"label", "params", NULL};
    const tc_setting *l;
    tc_status lst = tc_script_list(sc, "plan_methods", 1, E8_PLAN_MAXMETHOD,
                                   "{ label; params; } groups", &l, &pl->nmethod, err);
    if (lst) return lst;
    for (int i = 0; i < pl->nmethod; i++) {
        const tc_setting *it = tc_setting_at(l, i);
        const char *label;
        tc_status st = tc_script_allowed(sc, it, allowed, err);
        if (!st) st = tc_script_string(sc, it, "label", &label, err);
        if (st) return st;
        snprintf(pl->label[i], sizeof pl->label[i], "%s", label);
        if (registered(sc, label)) tc_exp_refer(x, "plan_methods", pl->label[i]);
        /* the parameters, checked now on the method the label names (its script spec, or a
         * registered name) */
        const tc_setting *ps = tc_script_lookup(sc, it, "params");
        tc_script_use(ps);
        if (ps && tc_setting_type(ps) != TC_SETTING_GROUP)
            return tc_script_fail(sc, ps, "params", err, "a group of method parameters");
        pl->params[i] = ps;
        const char *spec = tc_script_method_spec(sc, label);
        tc_method m;
        tc_error ignore = {0};
        if (!tc_method_parse(&m, spec ? spec : label, &ignore) &&
            (st = set_params(sc, ps, &m, err)))
            return st;
    }
    /* plan_replay = ["mujoco", ...]: the engines the best plans are replayed in */
    const tc_setting *r = tc_script_lookup(sc, NULL, "plan_replay");
    tc_script_use(r);
    if (tc_setting_type(r) != TC_SETTING_ARRAY || tc_setting_length(r) > E8_PLAN_MAXREPLAY)
        return tc_script_fail(sc, r, "plan_replay", err, "an array of at most %d labels",
                              E8_PLAN_MAXREPLAY);
    pl->nreplay = tc_setting_length(r);
    for (int i = 0; i < pl->nreplay; i++) {
        const char *label = tc_setting_string(tc_setting_at(r, i));
        if (!label) return tc_script_fail(sc, r, "plan_replay", err, "labels are strings");
        snprintf(pl->replay[i], sizeof pl->replay[i], "%s", label);
        if (registered(sc, label)) tc_exp_refer(x, "plan_replay", pl->replay[i]);
    }
    return TC_OK;
}

tc_status e8_plan_setup(tc_exp *x, e8_plan **out, tc_error *err) {
    e8_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return TC_ENOMEM;
    *out = pl;
    const tc_script *sc = tc_exp_script(x);
    plan_budget b = {0, 0, 0, 0};
    double goal[3], reach[2];
    int ng = 0, nr = 0;
    tc_status st;
    if ((st = tc_script_read(sc, "plan", plan_rows, pl, err)) ||
        (st = tc_script_read(sc, "plan_budget", budget_rows, &b, err)) ||
        (st = tc_script_reals(sc, NULL, "plan_goal", -1, 1, goal, 3, &ng, err)) ||
        (st = tc_script_reals(sc, NULL, "plan_reach", -1, 1, reach, 2, &nr, err)) ||
        (st = read_methods(x, sc, pl, err)))
        return st;
    if (ng != 3 || nr != 2)
        return tc_script_fail_at(sc, ng != 3 ? "plan_goal" : "plan_reach", err,
                                 "plan_goal is (x, y, theta), plan_reach (x, y)");
    if (pl->elites > pl->population)
        return tc_script_fail(sc, tc_script_lookup(sc, NULL, "plan"), "elites", err,
                              "elites (%d) above the population (%d)", pl->elites, pl->population);
    memcpy(pl->task.goal, goal, sizeof goal);
    memcpy(pl->reach, reach, sizeof reach);
    pl->task.tol_angle *= M_PI / 180;
    pl->task.seconds = b.seconds;
    pl->starts = b.starts;
    pl->seed = (unsigned long)b.seed;
    pl->budget = (long long)b.budget;
    pl->tp = tc_default_t_pusher();
    tc_t_pusher_start(&pl->tp, pl->task.start);
    gsl_set_error_handler_off();
    return tc_scene_t_pusher(&pl->sc, &pl->tp, err);
}

void e8_plan_estimate(const tc_exp *x, const e8_plan *pl, tc_work *w) {
    /* every search of a method that plans may spend its budget; the replays are a rollout each */
    const unsigned shapes = tc_scene_shapes(&pl->sc);
    for (int i = 0; i < pl->nmethod; i++) {
        int k = tc_exp_method_find(x, pl->label[i]);
        if (k < 0 || !tc_method_can_run(tc_exp_method(x, k), TC_CAP_DYNAMICS, shapes)) continue;
        double steps = (double)OPT_N * pl->starts * (double)pl->budget;
        w->steps += steps;
        /* SCM's T: about 10 small steps; a method's raised iteration caps its upper bound */
        w->seconds += steps * TC_WORK_STEP_S * 10 * tc_method_work_factor(tc_exp_method(x, k));
    }
}

void e8_plan_free(e8_plan *pl) {
    if (!pl) return;
    free(pl->out);
    free(pl->rep);
    free(pl);
}

/* ---------- outputs ---------- */

/* the median of the n finite values of v (sorted in place), NaN for none */
static double median(double *v, int n) {
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) v[k++] = v[i];
    if (!k) return NAN;
    gsl_sort(v, 1, (size_t)k);
    return gsl_stats_median_from_sorted_data(v, 1, (size_t)k);
}

/* a CSV with its table (tc_rows) and a figure's data file with its header line, opened together */
static tc_status open_pair(tc_exp *x, const char *csv, const tc_col *cols, int ncol,
                           const char *dat, const char *head, tc_rows **r, tc_outfile *f,
                           tc_error *err) {
    tc_status st = tc_rows_open(r, x, csv, cols, ncol, err);
    if (!st && (st = tc_exp_open(x, dat, f, err))) tc_rows_abort(*r);
    if (!st) fprintf(f->f, "%s\n", head);
    return st;
}

/* ... and closed together: the data, then the CSV and the table */
static tc_status close_pair(tc_rows *r, tc_outfile *f, const char *base, const char *caption,
                            tc_error *err) {
    tc_status st = tc_outfile_commit(f, err);
    if (st) {
        tc_rows_abort(r);
        return st;
    }
    return tc_rows_close(r, base, caption, err);
}

/* every search: a row each of plan_starts.csv */
static tc_status starts_outputs(e8_plan *pl, tc_exp *x, tc_error *err) {
    static const tc_col each[] = {
        {.csv = "label"},
        {.csv = "optimiser"},
        {.csv = "start", .fmt = "%.0f"},
        {.csv = "start_loss", .fmt = "%.9g"},
        {.csv = "loss", .fmt = "%.9g"},
        {.csv = "pos_err_m", .fmt = "%.9g"},
        {.csv = "angle_err_deg", .fmt = "%.9g"},
        {.csv = "success", .fmt = "%.0f"},
        {.csv = "steps", .fmt = "%.0f"},
        {.csv = "steps_to_success", .fmt = "%.0f"},
        {.csv = "evaluations", .fmt = "%.0f"},
        {.csv = "restarts", .fmt = "%.0f"},
        {.csv = "failed_rollouts", .fmt = "%.0f"},
    };
    tc_rows *r;
    tc_status st = tc_rows_open(&r, x, "plan_starts.csv", each, 13, err);
    if (st) return st;
    for (int m = 0; m < pl->nrun; m++)
        for (int o = 0; o < OPT_N; o++)
            for (int i = 0; i < pl->starts; i++) {
                const plan_out *p = &pl->out[(m * OPT_N + o) * pl->starts + i];
                double pe = hypot(p->pose[0] - pl->task.goal[0], p->pose[1] - pl->task.goal[1]),
                       ae = 180 / M_PI * fabs(remainder(p->pose[2] - pl->task.goal[2], 2 * M_PI));
                tc_rows_put(r, (tc_cell[]){TC_TEXT(tc_exp_label(x, pl->k[m])), TC_TEXT(opt_name[o]),
                                           TC_NUM(i), TC_NUM(p->loss0), TC_NUM(p->loss), TC_NUM(pe),
                                           TC_NUM(ae), TC_NUM(p->steps_success >= 0),
                                           TC_NUM((double)p->steps),
                                           TC_NUM((double)p->steps_success), TC_NUM(p->evals),
                                           TC_NUM(p->restarts), TC_NUM(p->failed_rollouts)});
            }
    return tc_rows_close(r, NULL, NULL, err);
}

/* planner m with optimiser o over its starts: a row of r, the metrics and the curve's block in f */
static void summary_outputs(e8_plan *pl, tc_exp *x, int m, int o, tc_rows *r, FILE *f) {
    const char *label = tc_exp_label(x, pl->k[m]);
    const int an = tc_method_has_gradient(&pl->m[m]);
    double ss[E8_PLAN_MAXSTART], loss[E8_PLAN_MAXSTART], wall = 0;
    int ok = 0;
    for (int i = 0; i < pl->starts; i++) {
        const int item = (m * OPT_N + o) * pl->starts + i;
        const plan_out *p = &pl->out[item];
        ss[i] = p->steps_success >= 0 ? (double)p->steps_success : NAN;
        loss[i] = p->loss;
        ok += p->steps_success >= 0;
        wall += tc_exp_run_record(x, pl->run_of[item])->wall_s;
    }
    const double rate = (double)ok / pl->starts, med = median(ss, pl->starts);
    /* the curve: a step up at each success's steps (ss sorted by median) */
    fprintf(f, "0 0\n");
    for (int j = 0; j < ok; j++)
        fprintf(f, "%.9g %.9g\n%.9g %.9g\n", ss[j], (double)j / pl->starts, ss[j],
                (j + 1.0) / pl->starts);
    fprintf(f, "%.9g %.9g\n\n\n", (double)pl->budget, rate);
    char grad[96];
    snprintf(grad, sizeof grad, "%s%s",
             o == OPT_CEM ? "none (zeroth order)"
             : an         ? "chain of one-step Jacobians: "
                          : "central differences of the rollout",
             o == OPT_BFGS && an ? tc_method_gradient(&pl->m[m]) : "");
    tc_rows_put(r, (tc_cell[]){TC_TEXT(label), TC_TEXT(grad), TC_TEXT(opt_title[o]), TC_NUM(rate),
                               TC_NUM(med), TC_NUM(median(loss, pl->starts)), TC_NUM(wall)});
    tc_exp_metric(x, label, rate, "1", 0.25, 0, 0,
                  "share of the seeded starts whose search pushed the T to within the "
                  "success tolerance of the goal",
                  "%s.plan.%s.success_rate", label, opt_name[o]);
    /* no success, no steps to it (the success rate says 0) */
    if (isfinite(med))
        tc_exp_metric(x, label, med, "1", 0, 0.5, 0,
                      "median over the successful starts of the simulated steps taken to the "
                      "first success (Jacobian and difference steps included)",
                      "%s.plan.%s.median_steps", label, opt_name[o]);
    tc_exp_metric(x, label, wall, "s", 0, 0, TC_METRIC_TIMING,
                  "wall time of all its searches (never judged)", "%s.plan.%s.wall_s", label,
                  opt_name[o]);
}

/* every search (a CSV row each), then per method and optimiser the success rate, the median
 * steps and wall time to success (a CSV and its table), their metrics and the figure's data */
static tc_status plan_outputs(e8_plan *pl, tc_exp *x, tc_error *err) {
    tc_status st = starts_outputs(pl, x, err);
    if (st) return st;
    static const tc_col sum[] = {
        {.csv = "label", .head = "method"},
        {.csv = "gradient", .head = "gradient", .quote = TC_COL_QUOTED},
        {.csv = "optimiser", .head = "optimiser"},
        {.csv = "success_rate", .head = "success", .fmt = "%.6g", .tfmt = "%.0f %%", .scale = 100},
        {.csv = "median_steps_to_success",
         .head = "median steps to success",
         .fmt = "%.9g",
         .digits = 3},
        {.csv = "median_best_loss", .head = "median best loss", .fmt = "%.9g", .digits = 3},
        {.csv = "wall_s", .head = "wall time (s)", .fmt = "%.6g", .digits = 2},
    };
    tc_rows *r;
    tc_outfile f;
    if ((st = open_pair(x, "plan.csv", sum, 7, "plan_success.dat",
                        "# E8 (d): share of starts that reached the goal by a number of simulated "
                        "steps; blocks: method 0 BFGS, method 0 CEM, method 1 BFGS, ...",
                        &r, &f, err)))
        return st;
    for (int m = 0; m < pl->nrun; m++)
        for (int o = 0; o < OPT_N; o++)
            summary_outputs(pl, x, m, o, r, f.f);
    return close_pair(r, &f, "plan",
                      "E8 (d): pushing the T to the goal pose, per method and optimiser: the "
                      "share of seeded starts that succeeded (final pose within the tolerance), "
                      "the median simulated steps to success (every step counted: rollouts, "
                      "the steps of analytic Jacobians, central differences' rollouts), the "
                      "median of each start's best loss and the wall time of all its searches",
                      err);
}

/* the replays: a CSV and its table, metrics, the paths' data */
static tc_status replay_outputs(e8_plan *pl, tc_exp *x, tc_error *err) {
    static const tc_col cols[] = {
        {.csv = "label", .head = "planned with"},
        {.csv = "replayed_in", .head = "replayed in"},
        {.csv = "pos_err_m",
         .head = "position error (cm)",
         .fmt = "%.9g",
         .digits = 3,
         .scale = 100},
        {.csv = "angle_err_deg", .head = "angle error (deg)", .fmt = "%.9g", .digits = 3},
        {.csv = "success", .head = "succeeds"},
    };
    tc_rows *r;
    tc_outfile f;
    tc_status st = open_pair(x, "replay.csv", cols, 5, "plan_paths.dat",
                             "# E8 (d): the T's path (t_s x_m y_m theta_rad) of each planner's "
                             "best plan; blocks: planner 0 in itself, then in each replay engine, "
                             "planner 1 ...",
                             &r, &f, err);
    if (st) return st;
    for (int i = 0; i < pl->nrep; i++) {
        const replay_out *e = &pl->rep[i];
        const char *planner = tc_exp_label(x, pl->k[e->planner]);
        const char *in = e->engine < 0 ? "(itself)" : tc_exp_label(x, e->engine);
        const double ad = 180 / M_PI * e->ang_err;
        const int ok = e->done && e8_plan_success(&pl->task, e->pose);
        tc_rows_put(r, (tc_cell[]){TC_TEXT(planner), TC_TEXT(in), TC_NUM(e->pos_err), TC_NUM(ad),
                                   TC_TEXT(!e->done ? "failed"
                                           : ok     ? "yes"
                                                    : "no")});
        for (int j = 0; j < E8_PLAN_NPATH; j++)
            fprintf(f.f, "%.6g %.9g %.9g %.9g\n", e->path[4 * j], e->path[4 * j + 1],
                    e->path[4 * j + 2], e->path[4 * j + 3]);
        fprintf(f.f, "\n\n");
        if (e->engine < 0) continue;
        tc_exp_metric(x, planner, e->pos_err, "m", 1e-3, 0.5, 0,
                      "final position error of the T when the method's best plan is replayed "
                      "open loop in an engine",
                      "%s.replay.%s.pos_err", planner, tc_exp_label(x, e->engine));
        tc_exp_metric(x, planner, ad, "deg", 0.5, 0.5, 0, "its final angle error",
                      "%s.replay.%s.angle_err_deg", planner, tc_exp_label(x, e->engine));
    }
    return close_pair(r, &f, "replay",
                      "E8 (d): each method's best plan (the lowest loss over its starts and "
                      "optimisers) replayed open loop, the same servo targets at the same "
                      "step: the final pose error in the planning method itself and in each "
                      "engine",
                      err);
}

/* the two figures: success against simulated steps, and the paths */
static void plan_figures(e8_plan *pl, tc_exp *x) {
    char labels[1024] = "", engines[512] = "", succ[1024], paths[1024], goal[3][32], budget[32],
         nsrc[16];
    for (int m = 0; m < pl->nrun; m++)
        tc_words_add(labels, sizeof labels, " ", "%s", tc_exp_label(x, pl->k[m]));
    for (int i = 0; i < pl->nrep && pl->nrun; i++)
        if (pl->rep[i].planner == 0 && pl->rep[i].engine >= 0)
            tc_words_add(engines, sizeof engines, " ", "%s", tc_exp_label(x, pl->rep[i].engine));
    tc_exp_path(x, "plan_success.dat", succ, sizeof succ);
    tc_exp_path(x, "plan_paths.dat", paths, sizeof paths);
    for (int c = 0; c < 3; c++)
        snprintf(goal[c], sizeof goal[c], "%.9g", pl->task.goal[c]);
    snprintf(budget, sizeof budget, "%lld", pl->budget);
    snprintf(nsrc, sizeof nsrc, "%d", pl->nrun ? pl->nrep / pl->nrun : 0);
    tc_plot_var v1[] = {{"datafile", succ}, {"labels", labels}, {"budget", budget}};
    char caption[512];
    snprintf(caption, sizeof caption,
             "E8 (d): share of the %d seeded starts that pushed the T to the goal against the "
             "simulated steps taken (thick: BFGS with the method's gradient; thin: the "
             "cross-entropy method), per method in its colour",
             pl->starts);
    tc_exp_figure(x, "e8_plan.gp", v1, 3, "fig_plan_success", caption);
    tc_plot_var v2[] = {{"datafile", paths}, {"labels", engines}, {"planners", labels},
                        {"nsrc", nsrc},      {"gx", goal[0]},     {"gy", goal[1]},
                        {"gth", goal[2]}};
    snprintf(caption, sizeof caption,
             "E8 (d): the T's centre of mass (top) and orientation (bottom) along each method's "
             "best plan, in the method itself (black) and replayed open loop in each engine; the "
             "cross marks the goal");
    tc_exp_figure(x, "e8_paths.gp", v2, 7, "fig_plan_paths", caption);
}

/* ---------- run ---------- */

/* the planners that run, their methods as set for the T; the others noted with the reason */
static tc_status plan_methods(e8_plan *pl, tc_exp *x, tc_error *err) {
    const unsigned shapes = tc_scene_shapes(&pl->sc);
    char skipped[2048] = "";
    for (int i = 0; i < pl->nmethod; i++) {
        int k = tc_exp_method_find(x, pl->label[i]);
        if (k < 0) {
            char why[200];
            why_absent(x, pl->label[i], why, sizeof why);
            tc_words_add(skipped, sizeof skipped, "; ", "%s (%s)", pl->label[i], why);
            continue;
        }
        tc_method m = *tc_exp_method(x, k);
        tc_status st = set_params(tc_exp_script(x), pl->params[i], &m, err);
        if (st) return st;
        if (!tc_method_can_run(&m, TC_CAP_DYNAMICS, shapes)) {
            char why[200];
            tc_method_why_not(&m, TC_CAP_DYNAMICS, shapes, why, sizeof why);
            tc_words_add(skipped, sizeof skipped, "; ", "%s (%s)", pl->label[i], why);
            continue;
        }
        pl->k[pl->nrun] = k;
        pl->m[pl->nrun++] = m;
    }
    if (skipped[0]) tc_exp_text(x, "(d) Methods of `plan_methods` that did not plan: %s.", skipped);
    return TC_OK;
}

/* a run per replay into run: each best plan in itself, then per engine; those left out noted */
static void replay_runs(e8_plan *pl, tc_exp *x, int *run) {
    const unsigned shapes = tc_scene_shapes(&pl->sc);
    char skipped[1024] = "";
    for (int m = 0; m < pl->nrun; m++)
        for (int e = -1; e < pl->nreplay; e++) {
            int k = e < 0 ? pl->k[m] : tc_exp_method_find(x, pl->replay[e]);
            const tc_method *mm = e < 0 ? &pl->m[m] : k >= 0 ? tc_exp_method(x, k) : NULL;
            if (!mm || !tc_method_can_run(mm, TC_CAP_DYNAMICS, shapes)) {
                char why[200] = "cannot run the T";
                if (!mm) why_absent(x, pl->replay[e], why, sizeof why);
                if (m == 0)
                    tc_words_add(skipped, sizeof skipped, "; ", "%s (%s)", pl->replay[e], why);
                continue;
            }
            replay_out *r = &pl->rep[pl->nrep];
            r->planner = m;
            r->engine = e < 0 ? -1 : k;
            r->m = *mm;
            run[pl->nrep++] =
                tc_exp_add_run(x, k, mm, -1, "study=replay planner=%s", tc_exp_label(x, pl->k[m]));
        }
    if (skipped[0]) tc_exp_text(x, "(d) Replay engines left out: %s.", skipped);
}

tc_status e8_plan_run(tc_exp *x, e8_plan *pl, tc_error *err) {
    tc_status st = plan_methods(pl, x, err);
    if (st) return st;
    const int n = pl->nrun * OPT_N * pl->starts;
    pl->out = calloc((size_t)n + 1, sizeof *pl->out);
    pl->rep = calloc((size_t)pl->nrun * (pl->nreplay + 1) + 1, sizeof *pl->rep);
    if (!pl->out || !pl->rep) return TC_ENOMEM;
    for (int m = 0; m < pl->nrun; m++)
        for (int o = 0; o < OPT_N; o++)
            for (int i = 0; i < pl->starts; i++)
                pl->run_of[(m * OPT_N + o) * pl->starts + i] =
                    tc_exp_add_run(x, pl->k[m], &pl->m[m], (long long)(pl->seed + (unsigned long)i),
                                   "study=plan optimiser=%s start=%d", opt_name[o], i);
    if ((st = tc_exp_sweep(x, n, pl->run_of, plan_item, pl))) return st;
    int run[E8_PLAN_MAXMETHOD * (E8_PLAN_MAXREPLAY + 1)];
    replay_runs(pl, x, run);
    if ((st = tc_exp_sweep(x, pl->nrep, run, replay_item, pl))) return st;
    tc_exp_text(x,
                "(d) Planning: E2's T pushed by its finger (servo targets at %d waypoints, linear "
                "in time, over %g s at steps of %g s) towards the goal (%g m, %g m, %g rad); "
                "loss |xy - goal|² + (%g m · Δθ)² + %g Σ|leg|²; success within %g cm and %g°. "
                "BFGS (GSL vector_bfgs2) with each method's gradient against the cross-entropy "
                "method (population %d, elites %d), %d seeded starts, at most %lld simulated "
                "steps per search.",
                pl->task.nway, pl->task.seconds, pl->task.dt, pl->task.goal[0], pl->task.goal[1],
                pl->task.goal[2], pl->task.length, pl->task.reg, 100 * pl->task.tol_pos,
                180 / M_PI * pl->task.tol_angle, pl->population, pl->elites, pl->starts,
                pl->budget);
    if ((st = plan_outputs(pl, x, err)) || (st = replay_outputs(pl, x, err))) return st;
    plan_figures(pl, x);
    return TC_OK;
}
