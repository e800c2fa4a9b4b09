/* SPDX-License-Identifier: MIT */
/* E7: frictional dynamics (Kaufman, Edmunds & Pai 2005) — a box sliding to rest, a box on an
 * incline below, at and above the friction angle, a ball launched sliding that starts to roll,
 * each against its closed form; and piles of non-convex bodies (compounds) dropped into an open
 * box: step time against contacts, settling, escapes, energy */
#include "experiments/e7/e7.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "exp/tc_rows.h"
#include "report/tc_progress.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static const char *const scene_name[E7_NSCENE] = {"slide", "incline", "roll", "pile"};

/* what a method needs to run a scene */
#define E7_CAPS (TC_CAP_DYNAMICS | TC_CAP_FRICTION)

/* one simulation of the sweep */
typedef struct e7_item {
    int method, scene, variant, planar, run;
    const tc_scene *sc; /* its scene, shared */
    long steps, done;
    /* its samples in one block of nbuf doubles: (a)-(c) body 1 after every step (x, v, speed,
     * wr); (d) a sample every d_every steps (t, ke, energy, geo, own) */
    double *buf;
    size_t nbuf;
    double *x, *v, *speed, *wr;
    e7_measure m;
    int nsample;
    double *t, *ke, *energy, *geo, *own;
    tc_body_state *landed; /* (d): every body's state where the measured window starts */
    double step_s, mean_geo, mean_own, final_ke, peak_ke, e0, e_end, e_rise;
    int escaped, have_landed;
    long long fails; /* (d): the solver's failed solves (velocity projection: unsettled steps) */
    char warn[256];
} e7_item;

/* per scene: the methods that did not run it, and why */
#define E7_SKIPLEN 8192

typedef struct e7_state {
    e7_setup e;
    const tc_exp *x;
    tc_scene *scenes; /* every scene in one block, pointed at by the next ones */
    tc_scene *slide[2], *incline[2][E7_MAXANGLE], *roll, *pile[E7_MAXPILE];
    tc_compound_pile piles[E7_MAXPILE];
    e7_item *it;
    int n;
    char skipped[E7_NSCENE][E7_SKIPLEN];
    /* the pile methods (those with a pile run), in method order, from the plan */
    int pm[256], npm;
    /* per method: the log-log fit over the pile sizes (slope, intercept; against own contacts) */
    double slope[256], icept[256], slope_own[256];
} e7_state;

/* ---------- setup ---------- */

static tc_status e7_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e7_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    e7_setup *e = &s->e;
    tc_status st = e7_read_setup(tc_exp_script(x), e, err);
    if (st) return st;
    for (int i = 0; i < e->d_nlimit; i++)
        tc_exp_refer(x, "pile.limits", e->d_limit[i].label);
    /* every scene once, shared read-only by the runs */
    tc_scene *sc = s->scenes = calloc(3 + 2 * E7_MAXANGLE + E7_MAXPILE, sizeof *sc);
    if (!sc) return TC_ENOMEM;
    for (int p = 0; p < 2 && !st; p++) {
        st = e7_slide_scene(e, p, s->slide[p] = sc++, err);
        for (int i = 0; i < e->b_n && !st; i++)
            st = e7_incline_scene(e, i, p, s->incline[p][i] = sc++, err);
    }
    if (!st) st = e7_roll_scene(e, s->roll = sc++, err);
    for (int i = 0; i < e->d_n && !st; i++)
        st = e7_pile_scene(e, i, s->pile[i] = sc++, &s->piles[i], err);
    if (st) return st;
    /* a method joins when it runs one of the scenes with friction */
    tc_exp_need(x, E7_CAPS, tc_scene_shapes(s->slide[0]), "(a), (b) a box on a plane");
    tc_exp_need(x, E7_CAPS, tc_scene_shapes(s->roll), "(c) a ball on a plane");
    tc_exp_need(x, E7_CAPS, tc_scene_shapes(s->slide[1]), "(a), (b) a square on a line (2-D)");
    tc_exp_need(x, E7_CAPS, tc_scene_shapes(s->pile[0]), "(d) piles of compounds");
    return TC_OK;
}

static void e7_free(void *state) {
    e7_state *s = state;
    if (!s) return;
    for (int i = 0; s->it && i < s->n; i++) {
        free(s->it[i].buf);
        free(s->it[i].landed);
    }
    free(s->it);
    free(s->scenes);
    free(s);
}

/* ---------- the runs ---------- */

/* a line of the skipped list of scene q */
static void skip(e7_state *s, int q, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void skip(e7_state *s, int q, const char *label, const char *fmt, ...) {
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    tc_words_add(s->skipped[q], E7_SKIPLEN, "; ", "`%s` (%s)", label, why);
}

/* why method m cannot run a scene of these shapes, in the skipped list of scene q */
static void skip_why(e7_state *s, int q, const tc_method *m, const char *label, unsigned shapes) {
    char r[400];
    tc_method_why_not(m, E7_CAPS, shapes, r, sizeof r);
    skip(s, q, label, "%s", r);
}

/* a new item: its run and its samples */
static tc_status add_item(tc_exp *x, e7_state *s, int k, int scene, int variant, int planar) {
    const e7_setup *e = &s->e;
    e7_item *t = &s->it[s->n++];
    *t = (e7_item){.method = k, .scene = scene, .variant = variant, .planar = planar};
    const tc_scene *const sc[E7_NSCENE] = {s->slide[planar], s->incline[planar][variant], s->roll,
                                           s->pile[variant]};
    t->sc = sc[scene];
    const char *dim = planar ? "2-D" : "3-D";
    const double secs[E7_NSCENE] = {e->a_seconds, e->b_seconds, e->c_seconds, e->d_seconds};
    const int pile = scene == E7_PILE;
    t->steps = (long)ceil(secs[scene] / (pile ? e->d_dt : e->dt) - 1e-9);
    if (scene == E7_SLIDE)
        t->run = tc_exp_add_run(x, k, NULL, -1, "scene=slide, %s, v0 %g m/s, mu %g", dim, e->a_v0,
                                e->a_mu);
    else if (scene == E7_INCLINE)
        t->run = tc_exp_add_run(x, k, NULL, -1, "scene=incline, %s, %.4g deg, mu %g", dim,
                                e7_incline_angle(e, variant) * 180 / M_PI, e->b_mu);
    else if (scene == E7_ROLL)
        t->run = tc_exp_add_run(x, k, NULL, -1, "scene=roll, v0 %g m/s, mu %g", e->c_v0, e->c_mu);
    else
        t->run = tc_exp_add_run(x, k, NULL, (long long)e->pile.seed, "scene=pile, %d bodies, %g s",
                                e->d_bodies[variant], e->d_seconds);
    /* the samples: per step for (a)-(c), per sample for (d), one array more at the end */
    if (pile) t->nsample = (int)((t->steps + e->d_every - 1) / e->d_every);
    const size_t per = (size_t)(pile ? t->nsample : t->steps) + 1, na = pile ? 5 : 4;
    double **a[] = {&t->x, &t->v, &t->speed, &t->wr, &t->t, &t->ke, &t->energy, &t->geo, &t->own};
    if (!(t->buf = calloc(na * per, sizeof *t->buf))) return TC_ENOMEM;
    t->nbuf = na * per;
    for (size_t j = 0; j < na; j++)
        *a[4 * pile + j] = t->buf + j * per;
    if (pile && !(t->landed = calloc((size_t)t->sc->nbody, sizeof *t->landed))) return TC_ENOMEM;
    return TC_OK;
}

/* the pile limit of a label: the largest pile it runs (1 << 30: none), and why */
static int pile_limit(const e7_setup *e, const char *label, const char **why) {
    for (int i = 0; i < e->d_nlimit; i++)
        if (!strcmp(e->d_limit[i].label, label)) {
            *why = e->d_limit[i].why;
            return e->d_limit[i].bodies;
        }
    *why = NULL;
    return 1 << 30;
}

/* (d): whether method k runs piles; the sizes over the script's limit, and a method that cannot
 * start on the smallest pile left (a model that refuses a pair of the pile's shapes says so when
 * it starts), go in the skipped list once */
static int runs_piles(tc_exp *x, e7_state *s, int k) {
    const e7_setup *e = &s->e;
    const tc_method *m = tc_exp_method(x, k);
    const char *label = tc_exp_label(x, k), *why;
    char left[200] = "";
    if (!tc_method_can_run(m, E7_CAPS, tc_scene_shapes(s->pile[0]))) {
        skip_why(s, E7_PILE, m, label, tc_scene_shapes(s->pile[0]));
        return 0;
    }
    int lim = pile_limit(e, label, &why), smallest = -1;
    for (int i = 0; i < e->d_n; i++) {
        if (e->d_bodies[i] > lim)
            tc_words_add(left, sizeof left, ", ", "%d", e->d_bodies[i]);
        else if (smallest < 0 || e->d_bodies[i] < e->d_bodies[smallest])
            smallest = i;
    }
    if (left[0] && lim == 0)
        skip(s, E7_PILE, label, "left out of every pile by the script: %s", why);
    else if (left[0])
        skip(s, E7_PILE, label, "the %s-body piles left out: the script limits it to %d bodies: %s",
             left, lim, why);
    if (smallest < 0) return 0;
    tc_sim *sim = NULL;
    tc_error e2;
    tc_error_clear(&e2);
    tc_status st = tc_sim_alloc(&sim, s->pile[smallest], m, e->d_dt, &e2);
    tc_sim_free(sim);
    if (st == TC_EUNSUP) skip(s, E7_PILE, label, "cannot start: %s", e2.msg);
    return st != TC_EUNSUP;
}

/* (a)-(c) for method k: (a) and (b) in 3-D, else the 2-D version for planar methods; (c) in 3-D
 * only; what it does not run, with the reason */
static tc_status plan_scenes(tc_exp *x, e7_state *s, int k) {
    const tc_method *m = tc_exp_method(x, k);
    const char *label = tc_exp_label(x, k);
    const int box3 = tc_method_can_run(m, E7_CAPS, tc_scene_shapes(s->slide[0]));
    const int box2 = !box3 && tc_method_can_run(m, E7_CAPS, tc_scene_shapes(s->slide[1]));
    tc_status st = TC_OK;
    if (box3 || box2) {
        st = add_item(x, s, k, E7_SLIDE, 0, box2);
        for (int i = 0; i < s->e.b_n && !st; i++)
            st = add_item(x, s, k, E7_INCLINE, i, box2);
    } else {
        skip_why(s, E7_SLIDE, m, label, tc_scene_shapes(s->slide[0]));
        skip_why(s, E7_INCLINE, m, label, tc_scene_shapes(s->slide[0]));
    }
    if (st) return st;
    if (tc_method_can_run(m, E7_CAPS, tc_scene_shapes(s->roll)))
        return add_item(x, s, k, E7_ROLL, 0, 0);
    if (box2)
        skip(s, E7_ROLL, label,
             "no 2-D version: a planar method takes polygons, and a polygon rolls over its "
             "corners, not like a ball");
    else
        skip_why(s, E7_ROLL, m, label, tc_scene_shapes(s->roll));
    return TC_OK;
}

/* which scenes each method runs, the piles first and the largest first (the longest runs start
 * first in the sweep); what it does not run, with the reason */
static tc_status plan_items(tc_exp *x, e7_state *s) {
    const e7_setup *e = &s->e;
    const int nm = tc_exp_nmethod(x);
    /* the pile methods, in method order: each has a pile run (one size at least fits its limit) */
    for (int k = 0; k < nm; k++)
        if (runs_piles(x, s, k)) s->pm[s->npm++] = k;
    tc_status st = TC_OK;
    const char *why;
    for (int i = e->d_n - 1; i >= 0; i--)
        for (int j = 0; j < s->npm && !st; j++)
            if (e->d_bodies[i] <= pile_limit(e, tc_exp_label(x, s->pm[j]), &why))
                st = add_item(x, s, s->pm[j], E7_PILE, i, 0);
    for (int k = 0; k < nm && !st; k++)
        st = plan_scenes(x, s, k);
    return st;
}

/* what a pile run's hooks share */
typedef struct pile_ctx {
    const e7_setup *e;
    const tc_compound_pile *p;
    e7_item *t;
    e7_touch *touch;
    int oom;         /* the contact count ran out of memory */
    int win_samples; /* the measured window: samples, contacts */
    double win_geo, win_own;
} pile_ctx;

static void pile_after(void *ctx, tc_sim *sim, long k) {
    pile_ctx *c = ctx;
    const e7_setup *e = c->e;
    e7_item *t = c->t;
    const double time = (k + 1) * e->d_dt;
    int in = time >= e->d_measure_from;
    /* the state the cost study starts from: the window's first */
    if (in && !t->have_landed) {
        memcpy(t->landed, tc_sim_bodies(sim), (size_t)tc_sim_scene(sim)->nbody * sizeof *t->landed);
        t->have_landed = 1;
    }
    if (k % e->d_every != 0) return;
    /* a sample: energies, contacts (the same count for every method, and the method's own) */
    int j = (int)(k / e->d_every);
    if (j >= t->nsample) return;
    const tc_body_state *bs = tc_sim_bodies(sim);
    t->t[j] = time;
    t->ke[j] = tc_sim_kinetic_energy(sim);
    t->energy[j] = tc_sim_energy(sim);
    t->geo[j] = e7_touching(c->touch, bs);
    c->oom |= t->geo[j] < 0;
    t->own[j] = tc_sim_get_stats(sim)->ncontact;
    if (in) {
        c->win_geo += t->geo[j];
        c->win_own += t->own[j];
        c->win_samples++;
    }
}

static void pile_end(void *ctx, tc_sim *sim) {
    pile_ctx *c = ctx;
    e7_item *t = c->t;
    const tc_scene *sc = tc_sim_scene(sim);
    const tc_body_state *bs = tc_sim_bodies(sim);
    for (int i = 0; i < sc->nbody; i++)
        if (sc->body[i].joint == TC_JOINT_FREE && tc_compound_pile_escaped(c->p, bs[i].pos))
            t->escaped++;
    t->fails = tc_sim_get_stats(sim)->solver_fails;
    /* warnings that did not fail a step (an engine dropping contacts) go in the table */
    char w[2048] = "";
    tc_sim_warnings(sim, w, (int)sizeof w);
    for (char *p = w; *p; p++)
        if (*p == '\n' || *p == ',') *p = ';';
    size_t l = strlen(w);
    while (l && w[l - 1] == ';')
        w[--l] = 0;
    snprintf(t->warn, sizeof t->warn, "%s", w);
}

static void simulate_pile(e7_state *s, e7_item *t, tc_item *it) {
    const e7_setup *e = &s->e;
    const tc_scene *sc = t->sc;
    pile_ctx c = {.e = e, .p = &s->piles[t->variant], .t = t};
    if (!(c.touch = e7_touch_alloc(sc, e->d_margin))) c.oom = 1;
    tc_sim_loop loop = {.dt = e->d_dt,
                        .steps = t->steps,
                        .every = 1,
                        .after = pile_after,
                        .end = pile_end,
                        .ctx = &c};
    tc_series out = {0};
    if (c.touch) tc_simulate(sc, tc_exp_method(s->x, t->method), &loop, &out, it);
    e7_touch_free(c.touch);
    if (c.oom && !it->status) {
        it->status = TC_ENOMEM;
        snprintf(it->reason, sizeof it->reason, "out of memory for the contact count");
    }
    t->done = out.steps;
    int ns = (int)((t->done + e->d_every - 1) / e->d_every);
    t->step_s = NAN; /* the cost study's */
    t->mean_geo = c.win_samples ? c.win_geo / c.win_samples : NAN;
    t->mean_own = c.win_samples ? c.win_own / c.win_samples : NAN;
    t->final_ke = ns ? t->ke[ns - 1] : NAN;
    t->peak_ke = 0;
    t->e0 = ns ? t->energy[0] : NAN;
    t->e_end = ns ? t->energy[ns - 1] : NAN;
    t->e_rise = 0;
    for (int j = 0; j < ns; j++) {
        t->peak_ke = fmax(t->peak_ke, t->ke[j]);
        t->e_rise = fmax(t->e_rise, t->energy[j] - t->e0);
    }
    /* no body may leave the box: a run that lost bodies failed its check, though it ran */
    if (it->status == TC_OK && t->escaped) {
        it->status = TC_ECHECK;
        snprintf(it->reason, sizeof it->reason, "%d of %d bodies left the box%s%s", t->escaped,
                 s->piles[t->variant].bodies, t->warn[0] ? ": " : "", t->warn);
    }
}

/* one work item: one simulation */
static void e7_work(void *ctx, int i, tc_item *it) {
    e7_state *s = ctx;
    e7_item *t = &s->it[i];
    if (t->scene == E7_PILE) {
        simulate_pile(s, t, it);
        return;
    }
    e7_simulate(&s->e, t->scene, t->sc, tc_exp_method(s->x, t->method), t->x, t->v, t->speed, t->wr,
                &t->done, it);
    t->m = e7_measure_run(&s->e, t->scene, t->done, t->x, t->v, t->speed, t->wr);
}

/* what one simulation writes, for a sweep split over MPI ranks: its samples, every body's state
 * where a pile's window starts, its step count and measures, and everything from step_s on
 * (scalars, warning) */
static int e7_regions(void *ctx, int i, tc_region *r) {
    const e7_state *s = ctx;
    e7_item *t = &s->it[i];
    int nr = 0;
    r[nr++] = (tc_region){t->buf, t->nbuf * sizeof *t->buf};
    if (t->landed) r[nr++] = (tc_region){t->landed, (size_t)t->sc->nbody * sizeof *t->landed};
    r[nr++] = (tc_region){&t->done, sizeof t->done};
    r[nr++] = (tc_region){&t->m, sizeof t->m};
    r[nr++] = (tc_region){&t->step_s, sizeof *t - offsetof(e7_item, step_s)};
    return nr;
}

/* ---------- outputs ---------- */

static int ok(const tc_exp *x, const e7_item *t) {
    return tc_exp_run_record(x, t->run)->status == TC_OK;
}

/* |measured - closed| / closed */
static double rel_err(double meas, double closed) {
    return fabs(meas - closed) / fabs(closed);
}

/* the labels of the blocks of scene q (and incline angle `variant`, -1: any) in item order */
static void block_labels(const tc_exp *x, const e7_state *s, int q, int variant, char *buf,
                         size_t n) {
    buf[0] = 0;
    for (int i = 0; i < s->n; i++) {
        const e7_item *t = &s->it[i];
        if (t->scene == q && (variant < 0 || t->variant == variant))
            tc_words_add(buf, n, " ", "%s", tc_exp_label(x, t->method));
    }
}

/* (a)-(c) time series: gnuplot blocks (t = 0, then every `every` steps), one per run of scene
 * q, the incline's angle by angle */
static tc_status write_series(const tc_exp *x, const e7_state *s, int q, tc_error *err) {
    const e7_setup *e = &s->e;
    static const char *const cols[] = {"t_s,x_m,speed_m_s", "t_s,x_m,v_m_s",
                                       "t_s,x_m,v_m_s,omega_r_m_s"};
    const int nv = q == E7_INCLINE ? e->b_n : 1;
    const double v0 = q == E7_SLIDE ? e->a_v0 : q == E7_ROLL ? e->c_v0 : 0;
    char file[32], labels[4096] = "", l[2048];
    tc_outfile o;
    snprintf(file, sizeof file, "%s.csv", scene_name[q]);
    tc_status st = tc_exp_open(x, file, &o, err);
    if (st) return st;
    for (int a = 0; a < nv; a++) {
        block_labels(x, s, q, q == E7_INCLINE ? a : -1, l, sizeof l);
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", a ? " " : "", l);
    }
    fprintf(o.f, "# %s; one block per method: %s\n", cols[q], labels);
    for (int a = 0; a < nv; a++)
        for (int i = 0; i < s->n; i++) {
            const e7_item *t = &s->it[i];
            if (t->scene != q || t->variant != a) continue;
            fprintf(o.f, q == E7_ROLL ? "0,0,%.9g,0\n" : "0,0,%.9g\n", v0);
            for (long k = e->every - 1; k < t->done; k += e->every) {
                const double tm = (k + 1) * e->dt;
                if (q == E7_ROLL)
                    fprintf(o.f, "%.9g,%.9e,%.9e,%.9e\n", tm, t->x[k], t->v[k], t->wr[k]);
                else
                    fprintf(o.f, "%.9g,%.9e,%.9e\n", tm, t->x[k],
                            q == E7_SLIDE ? t->speed[k] : t->v[k]);
            }
            fprintf(o.f, "\n\n");
        }
    return tc_outfile_commit(&o, err);
}

/* every closed-form scene's first columns: the method (label and spec) */
#define E7_COLS_METHOD                                                                             \
    {.csv = "label", .head = "method"}, {                                                          \
        .csv = "method"                                                                            \
    }
/* a number: in the CSV under c with format f, in the table under h with d significant digits of
 * sc x the value (sc 0: 1) */
#define E7_COL_NUM(c, h, f, d, sc)                                                                 \
    { .csv = c, .head = h, .fmt = f, .digits = d, .below = 1e-12, .scale = sc }
/* a relative error in the CSV, a percentage in the table */
#define E7_COL_ERR(csv_) E7_COL_NUM(csv_, "error (%)", "%.6g", 2, 100)
/* a closed form in the CSV and, to 4 digits, in the table */
#define E7_COL_CLOSED(csv_, head_)                                                                 \
    { .csv = csv_, .head = head_, .fmt = "%.9g", .tfmt = "%.4g" }
/* a measured value beside its closed form and their relative error */
#define E7_COLS_VS(csv_meas, csv_closed, csv_err, head_meas, head_closed)                          \
    E7_COL_NUM(csv_meas, head_meas, "%.9g", 4, 0), E7_COL_CLOSED(csv_closed, head_closed),         \
        E7_COL_ERR(csv_err)
/* a run's status (in the table under head, NULL: not there) and, in the CSV only, the reason it
 * failed */
#define E7_COLS_STATUS(head_status)                                                                \
    {.csv = "status", .head = head_status}, {                                                      \
        .csv = "reason", .quote = TC_COL_QUOTED                                                    \
    }

/* a run's first cells: its label and its method as run */
#define E7_CELLS_METHOD(x, t)                                                                      \
    TC_TEXT(tc_exp_label((x), (t)->method)), TC_TEXT(tc_exp_method((x), (t)->method)->spec)

/* (a): the table, runs csv and metrics */
static tc_status slide_outputs(tc_exp *x, const e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    const double D = e7_slide_distance(e), T = e7_slide_time_at(e);
    static const tc_col cols[] = {E7_COLS_METHOD,
                                  {.csv = "dim", .head = "scene"},
                                  {.csv = "steps", .fmt = "%.0f"},
                                  E7_COLS_VS("stop_time_s", "closed_time_s", "time_error",
                                             "stopping time (s)", "closed form (s)"),
                                  E7_COLS_VS("distance_m", "closed_distance_m", "distance_error",
                                             "stopping distance (m)", "closed form (m)"),
                                  E7_COLS_STATUS("status")};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "slide_runs.csv", cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    for (int i = 0; i < s->n; i++) {
        const e7_item *t = &s->it[i];
        if (t->scene != E7_SLIDE) continue;
        const char *label = tc_exp_label(x, t->method);
        const int good = ok(x, t), stopped = good && !isnan(t->m.stop_time);
        const double de = good ? rel_err(t->m.distance, D) : NAN;
        const double te = good ? rel_err(t->m.stop_time, T) : NAN;
        tc_rows_put(w, (const tc_cell[]){E7_CELLS_METHOD(x, t), TC_TEXT(t->planar ? "2-D" : "3-D"),
                                         TC_NUM(t->done), TC_NUM(t->m.stop_time), TC_NUM(T),
                                         TC_NUM(te), TC_NUM(t->m.distance), TC_NUM(D), TC_NUM(de),
                                         TC_TEXT(!good      ? "failed"
                                                 : !stopped ? "did not stop"
                                                            : "ok"),
                                         TC_TEXT(tc_exp_run_record(x, t->run)->reason)});
        tc_exp_metric(x, label, de, "1", 0.01, 0.3, 0,
                      "(a) |stopping distance - v0^2/(2 mu g)| over the closed form",
                      "slide.%s.distance_error", label);
        tc_exp_metric(x, label, te, "1", 0.01, 0.3, 0,
                      "(a) |stopping time - (v0 - stop_speed)/(mu g)| over the closed form",
                      "slide.%s.stop_time_error", label);
    }
    char cap[600];
    snprintf(cap, sizeof cap,
             "E7 (a): a %g kg cube of side %g m sliding at %g m/s on a plane, mu = %g, step %g s: "
             "where and when it stops against v0^2/(2 mu g) = %.4g m and v0/(mu g) = %.4g s. The "
             "stopping time is when the speed first falls below %g m/s (between steps by linear "
             "interpolation), against the closed form's time for that speed, (v0 - %g)/(mu g); "
             "the distance is the COM's at the end (%g s).",
             e->a_mass, 2 * e->a_half, e->a_v0, e->a_mu, e->dt, D, e7_slide_time(e), e->a_stop,
             e->a_stop, e->a_seconds);
    return tc_rows_close(w, "slide_table", cap, err);
}

/* (b): the metric of one run: the acceleration's error above the friction angle, the
 * acceleration at it, the mean velocity below it */
static void incline_metric(tc_exp *x, const e7_state *s, const e7_item *t, double ae) {
    const char *label = tc_exp_label(x, t->method);
    const int a = t->variant, good = ok(x, t);
    if (e7_incline_accel(&s->e, a) > 0)
        tc_exp_metric(
            x, label, ae, "1", 0.01, 0.3, 0,
            "(b) |fitted acceleration - g (sin - mu cos)| over the closed form, above the "
            "friction angle",
            "incline.%s.angle%d.accel_error", label, a);
    /* at the friction angle a box that sticks and one that slides at a constant speed both meet
     * the closed form (a = 0): which one a step lands on is decided by rounding (the LCP slides
     * at 4 mm/s with one CPU's BLAS kernels, sticks with another's), so the acceleration is
     * checked, not the speed */
    else if (s->e.b_offset[a] == 0)
        tc_exp_metric(
            x, label, good ? t->m.accel : NAN, "m/s^2", 1e-2, 0.5, 0,
            "(b) fitted acceleration down the incline at the friction angle (closed form 0, "
            "sticking or sliding)",
            "incline.%s.angle%d.accel", label, a);
    else
        tc_exp_metric(
            x, label, good ? t->m.creep : NAN, "m/s", 1e-3, 0.5, 0,
            "(b) mean velocity down the incline over the fit window, at or below the friction "
            "angle (closed form 0)",
            "incline.%s.angle%d.mean_velocity", label, a);
}

/* (b): the table, runs csv and metrics */
static tc_status incline_outputs(tc_exp *x, const e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    static const tc_col cols[] = {
        E7_COLS_METHOD,
        {.csv = "dim", .head = "scene"},
        {.csv = "angle_deg", .head = "incline (deg)", .fmt = "%.6g", .tfmt = "%.4g"},
        {.csv = "steps", .fmt = "%.0f"},
        {.csv = "accel_m_s2", .fmt = "%.9g"},
        E7_COL_CLOSED("closed_accel_m_s2", "closed-form a (m/s^2)"),
        E7_COL_NUM(NULL, "measured a (m/s^2)", NULL, 3, 0),
        E7_COL_ERR("accel_error"),
        {.csv = "mean_velocity_m_s", .fmt = "%.9g"},
        E7_COL_NUM(NULL, "mean velocity (m/s)", NULL, 3, 0),
        {.csv = "displacement_m", .fmt = "%.9g"},
        E7_COL_NUM(NULL, "displacement (m)", NULL, 3, 0),
        {.csv = "expected", .head = "expected"},
        {.csv = "observed", .head = "observed"},
        E7_COLS_STATUS(NULL)};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "incline_runs.csv", cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    for (int a = 0; a < e->b_n; a++)
        for (int i = 0; i < s->n; i++) {
            const e7_item *t = &s->it[i];
            if (t->scene != E7_INCLINE || t->variant != a) continue;
            const double A = e7_incline_accel(e, a), deg = e7_incline_angle(e, a) * 180 / M_PI;
            const int good = ok(x, t);
            const double ae = good && A > 0 ? rel_err(t->m.accel, A) : NAN;
            const char *expected = e->b_offset[a] < 0    ? "sticks"
                                   : e->b_offset[a] == 0 ? "at rest (limit)"
                                                         : "slides";
            const char *observed = !good                           ? "failed"
                                   : fabs(t->m.creep) < e->b_stick ? "sticks"
                                                                   : "slides";
            tc_rows_put(w, (const tc_cell[]){
                               E7_CELLS_METHOD(x, t), TC_TEXT(t->planar ? "2-D" : "3-D"),
                               TC_NUM(deg), TC_NUM(t->done), TC_NUM(t->m.accel), TC_NUM(A),
                               TC_NUM(good ? t->m.accel : NAN), TC_NUM(ae), TC_NUM(t->m.creep),
                               TC_NUM(good ? t->m.creep : NAN), TC_NUM(t->m.displacement),
                               TC_NUM(good ? t->m.displacement : NAN), TC_TEXT(expected),
                               TC_TEXT(observed), TC_TEXT(good ? "ok" : "failed"),
                               TC_TEXT(tc_exp_run_record(x, t->run)->reason)});
            incline_metric(x, s, t, ae);
        }
    char cap[700];
    snprintf(cap, sizeof cap,
             "E7 (b): a %g kg cube of side %g m at rest on an incline (gravity tilted), mu = %g: "
             "friction angle %.4g deg; %g s at %g s steps. The acceleration is fitted to the "
             "velocity from %g s on, and the velocity averaged there; it sticks when that mean is "
             "below %g m/s. Closed form: at rest at or below the friction angle, g (sin - mu cos) "
             "above.",
             e->b_mass, 2 * e->b_half, e->b_mu, atan(e->b_mu) * 180 / M_PI, e->b_seconds, e->dt,
             e->b_fit_from, e->b_stick);
    return tc_rows_close(w, "incline_table", cap, err);
}

/* (c): the table, runs csv and metrics */
static tc_status roll_outputs(tc_exp *x, const e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    const double T = e7_roll_time_at(e), V = e7_roll_speed(e), D = e7_roll_distance_at(e);
    static const tc_col cols[] = {E7_COLS_METHOD,
                                  {.csv = "steps", .fmt = "%.0f"},
                                  {.csv = "roll_time_s", .fmt = "%.9g"},
                                  {.head = "t* (s)"}, /* the time, or why there is none */
                                  E7_COL_CLOSED("closed_time_s", "closed form (s)"),
                                  E7_COL_ERR("time_error"),
                                  {.csv = "roll_speed_m_s", .fmt = "%.9g"},
                                  E7_COLS_VS(NULL, "closed_speed_m_s", "speed_error",
                                             "rolling speed (m/s)", "closed form (m/s)"),
                                  {.csv = "roll_distance_m", .fmt = "%.9g"},
                                  E7_COLS_VS(NULL, "closed_distance_m", "distance_error",
                                             "distance to t* (m)", "closed form (m)"),
                                  E7_COLS_STATUS(NULL)};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "roll_runs.csv", cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    for (int i = 0; i < s->n; i++) {
        const e7_item *t = &s->it[i];
        if (t->scene != E7_ROLL) continue;
        const char *label = tc_exp_label(x, t->method);
        const int good = ok(x, t);
        const double te = good ? rel_err(t->m.roll_time, T) : NAN,
                     ve = good ? rel_err(t->m.roll_speed, V) : NAN,
                     de = good ? rel_err(t->m.roll_distance, D) : NAN;
        const char *status = !good ? "failed" : isnan(t->m.roll_time) ? "never rolled" : "ok";
        char tstar[64];
        tc_cell_num(tstar, sizeof tstar, t->m.roll_time, 4, 1e-12);
        tc_rows_put(w, (const tc_cell[]){
                           E7_CELLS_METHOD(x, t), TC_NUM(t->done), TC_NUM(t->m.roll_time),
                           TC_TEXT(strcmp(status, "ok") ? status : tstar), TC_NUM(T), TC_NUM(te),
                           TC_NUM(t->m.roll_speed), TC_NUM(good ? t->m.roll_speed : NAN), TC_NUM(V),
                           TC_NUM(ve), TC_NUM(t->m.roll_distance),
                           TC_NUM(good ? t->m.roll_distance : NAN), TC_NUM(D), TC_NUM(de),
                           TC_TEXT(status), TC_TEXT(tc_exp_run_record(x, t->run)->reason)});
        tc_exp_metric(x, label, te, "1", 0.01, 0.3, 0,
                      "(c) |t* - 2 v0/(7 mu g)| over the closed form (at the slip threshold)",
                      "roll.%s.time_error", label);
        tc_exp_metric(x, label, ve, "1", 0.01, 0.3, 0,
                      "(c) |rolling speed - 5 v0/7| over the closed form", "roll.%s.speed_error",
                      label);
        tc_exp_metric(x, label, de, "1", 0.01, 0.3, 0,
                      "(c) |distance to t* - 12 v0^2/(49 mu g)| over the closed form (at the slip "
                      "threshold)",
                      "roll.%s.distance_error", label);
    }
    char cap[700];
    snprintf(
        cap, sizeof cap,
        "E7 (c): a solid %g kg ball of radius %g m launched at %g m/s without spin, mu = %g, "
        "step %g s: it rolls without slipping from t* = 2 v0/(7 mu g) = %.4g s on, at 5 v0/7 "
        "= %.4g m/s, having travelled 12 v0^2/(49 mu g) = %.4g m. t* is measured when the slip "
        "|v - omega r| first falls below %g v0 (between steps by linear interpolation), "
        "against the closed form's time and distance for that slip (a factor 1 - %g on "
        "the time); the rolling speed is the one at the end (%g s).",
        e->c_mass, e->c_radius, e->c_v0, e->c_mu, e->dt, e7_roll_time(e), V, e7_roll_distance(e),
        e->c_slip, e->c_slip, e->c_seconds);
    return tc_rows_close(w, "roll_table", cap, err);
}

/* the pile run of method k at size `size`, or NULL */
static const e7_item *pile_item(const e7_state *s, int k, int size) {
    for (int i = 0; i < s->n; i++)
        if (s->it[i].scene == E7_PILE && s->it[i].method == k && s->it[i].variant == size)
            return &s->it[i];
    return NULL;
}

int e7_loglog_fit(const double *xs, const double *ys, int n, double *slope, double *b) {
    double s1 = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        if (!(xs[i] > 0 && ys[i] > 0)) continue;
        double lx = log(xs[i]), ly = log(ys[i]);
        s1 += 1;
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    double den = s1 * sxx - sx * sx;
    if (s1 < 2 || !(den > 1e-12 * s1 * sxx)) {
        *slope = *b = NAN;
        return 0;
    }
    *slope = (s1 * sxy - sx * sy) / den;
    *b = (sy - *slope * sx) / s1;
    return (int)s1;
}

/* the cost of a pile's step: after the sweep, each pile that ran starts again from its state
 * where the window starts, alone on this thread; d_warm steps (a restarted solver gets its warm
 * start back), then d_repeats blocks of d_timed steps, each timed by this thread's CPU time; a
 * step's time is the median over the blocks. Timed inside the sweep, two runs at a time on a
 * machine others share, one pile's step time moved by up to 30 % from run to run, and E7.1's
 * slope with it. One pile is alive at a time: two Bullet worlds stepped in turns on one thread
 * diverged within 20 steps */
static tc_status cost_study(tc_exp *x, e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    tc_scene *sc = malloc(sizeof *sc);
    double *y = malloc(((size_t)e->d_repeats + 1) * sizeof *y);
    if (!sc || !y) {
        free(sc);
        free(y);
        return TC_ENOMEM;
    }
    int n = 0;
    for (int i = 0; i < s->n; i++)
        n += s->it[i].scene == E7_PILE;
    tc_progress prog;
    tc_progress_start(&prog, "e7 pile cost", n);
    for (int i = 0; i < s->n && !tc_interrupted(); i++) {
        e7_item *t = &s->it[i];
        if (t->scene != E7_PILE) continue;
        tc_progress_tick(&prog);
        if (!ok(x, t) || !t->have_landed) continue;
        /* the pile's scene with every free body where the window started */
        memcpy(sc, t->sc, sizeof *sc);
        for (int b = 0; b < sc->nbody; b++) {
            tc_body_desc *d = &sc->body[b];
            if (d->joint != TC_JOINT_FREE) continue;
            memcpy(d->pos, t->landed[b].pos, sizeof d->pos);
            memcpy(d->quat, t->landed[b].quat, sizeof d->quat);
            memcpy(d->vel, t->landed[b].vel, sizeof d->vel);
            memcpy(d->omega, t->landed[b].omega, sizeof d->omega);
        }
        /* warm up, then the timed blocks */
        tc_sim *sim = NULL;
        tc_error e2;
        tc_error_clear(&e2);
        tc_status fs = tc_sim_alloc(&sim, sc, tc_exp_method(x, t->method), e->d_dt, &e2);
        for (int k = 0; !fs && k < e->d_warm && !tc_interrupted(); k++)
            fs = tc_sim_step(sim);
        for (int r = 0; !fs && r < e->d_repeats; r++) {
            double t0 = tc_thread_cpu_time();
            for (int k = 0; !fs && k < e->d_timed; k++)
                fs = tc_sim_step(sim);
            y[r] = (tc_thread_cpu_time() - t0) / e->d_timed;
        }
        t->step_s = fs ? NAN : gsl_stats_median(y, 1, (size_t)e->d_repeats);
        tc_sim_free(sim);
    }
    tc_progress_end(&prog);
    free(sc);
    free(y);
    return tc_interrupted() ? tc_error_set(err, TC_EINTR, NULL, 0, NULL, "interrupted") : TC_OK;
}

/* per pile method: the log-log fit of step time against touching parts (and its own contacts)
 * over the sizes it ran */
static void fit_piles(const tc_exp *x, e7_state *s) {
    for (int j = 0; j < s->npm; j++) {
        const int k = s->pm[j];
        double xs[E7_MAXPILE], xo[E7_MAXPILE], ys[E7_MAXPILE], b;
        int n = 0;
        for (int i = 0; i < s->e.d_n; i++) {
            const e7_item *t = pile_item(s, k, i);
            if (!t || !ok(x, t)) continue;
            xs[n] = t->mean_geo;
            xo[n] = t->mean_own;
            ys[n] = t->step_s;
            n++;
        }
        e7_loglog_fit(xs, ys, n, &s->slope[k], &s->icept[k]);
        e7_loglog_fit(xo, ys, n, &s->slope_own[k], &b);
    }
}

/* (d) pile.csv: a block per size and pile method (NaN when it did not run that size) */
static tc_status pile_series(const tc_exp *x, const e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    char labels[4096] = "";
    tc_outfile o;
    for (int i = 0; i < e->d_n; i++)
        for (int j = 0; j < s->npm; j++)
            tc_words_add(labels, sizeof labels, " ", "%s", tc_exp_label(x, s->pm[j]));
    tc_status st = tc_exp_open(x, "pile.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "# t_s,kinetic_J,energy_J,touching_parts,own_contacts; sizes in order (bodies):");
    for (int i = 0; i < e->d_n; i++)
        fprintf(o.f, " %d", e->d_bodies[i]);
    fprintf(o.f, "\n# one block per method: %s\n", labels);
    for (int i = 0; i < e->d_n; i++)
        for (int j = 0; j < s->npm; j++) {
            const e7_item *t = pile_item(s, s->pm[j], i);
            const int ns = t ? (int)((t->done + e->d_every - 1) / e->d_every) : 0;
            for (int q = 0; q < ns; q++)
                fprintf(o.f, "%.9g,%.9e,%.9e,%.0f,%.0f\n", t->t[q], t->ke[q], t->energy[q],
                        t->geo[q], t->own[q]);
            if (!ns) fprintf(o.f, "NaN,NaN,NaN,NaN,NaN\n");
            fprintf(o.f, "\n\n");
        }
    return tc_outfile_commit(&o, err);
}

/* (d): the notes of a pile run: why it failed, else the failed solves counted (vp: steps that
 * end at the sweep cap), else the first warning (the rest are in the CSV), else "-" */
static void pile_notes(const tc_exp *x, const e7_item *t, char *notes, size_t n) {
    snprintf(notes, n, "%.*s", (int)strcspn(t->warn, ";"), t->warn);
    if (!ok(x, t))
        snprintf(notes, n, "failed: %s", tc_exp_run_record(x, t->run)->reason);
    else if (t->fails)
        snprintf(notes, n, "%lld of %ld steps unsettled", t->fails, t->done);
    if (!notes[0]) snprintf(notes, n, "-");
}

/* (d): the metrics of a pile run of size i, NAN unless it went to the end (one that lost bodies
 * too) */
static void pile_metrics(tc_exp *x, const e7_state *s, const e7_item *t, int i) {
    const char *label = tc_exp_label(x, t->method);
    const int complete = t->done == t->steps;
    const struct {
        const char *n, *unit, *doc;
        double v, ta, tr;
        unsigned f;
    } ms[] = {
        {"escaped", "1", "(d) bodies outside the box at the end", (double)t->escaped, 0, 0, 0},
        {"final_ke", "J", "(d) kinetic energy at the end (settling)", t->final_ke, 0.05, 1.0, 0},
        {"energy_rise", "J", "(d) largest rise of kinetic + potential energy over its start",
         t->e_rise, 0.1, 1.0, 0},
        {"touching_parts", "1", "(d) mean touching parts over the measured window", t->mean_geo, 2,
         0.3, 0},
        {"step_s", "s", "(d) CPU time of a step, the cost study's median (machine-dependent)",
         t->step_s, 1.0, 10.0, TC_METRIC_TIMING}};
    for (size_t q = 0; q < sizeof ms / sizeof *ms; q++)
        tc_exp_metric(x, label, complete ? ms[q].v : NAN, ms[q].unit, ms[q].ta, ms[q].tr, ms[q].f,
                      ms[q].doc, "pile.%s.%d.%s", label, s->e.d_bodies[i], ms[q].n);
}

/* (d) pile_runs.csv, its table and the metrics, method by method */
static tc_status pile_runs(tc_exp *x, const e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    static const tc_col cols[] = {
        E7_COLS_METHOD,
        {.csv = "bodies", .head = "bodies", .fmt = "%.0f", .tfmt = "%.0f"},
        {.csv = "steps", .head = "steps", .fmt = "%.0f", .tfmt = "%.0f"},
        E7_COL_NUM("touching_parts", "touching parts", "%.6g", 3, 0),
        {.csv = "own_contacts", .fmt = "%.6g"},
        E7_COL_NUM(NULL, "own contacts", NULL, 3, 0),
        E7_COL_NUM("final_ke_J", "final KE (J)", "%.6e", 3, 0),
        {.csv = "peak_ke_J", .fmt = "%.6e"},
        {.csv = "energy0_J", .fmt = "%.9e"},
        {.csv = "energy_end_J", .fmt = "%.9e"},
        E7_COL_NUM("energy_rise_J", "energy rise (J)", "%.6e", 3, 0),
        {.csv = "escaped", .head = "escaped", .fmt = "%.0f", .tfmt = "%.0f"},
        {.csv = "failed_solves", .fmt = "%.0f"},
        {.csv = "warnings", .quote = TC_COL_QUOTED},
        {.head = "notes"},
        E7_COLS_STATUS(NULL),
        E7_COL_NUM("step_s", "step (ms)", "%.6e", 3, 1e3),
        E7_COL_NUM("per_contact_s", "per contact (µs)", "%.6e", 3, 1e6)};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "pile_runs.csv", cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    for (int j = 0; j < s->npm; j++)
        for (int i = 0; i < e->d_n; i++) {
            const e7_item *t = pile_item(s, s->pm[j], i);
            if (!t) continue;
            char notes[300];
            pile_notes(x, t, notes, sizeof notes);
            tc_rows_put(w,
                        (const tc_cell[]){E7_CELLS_METHOD(x, t), TC_NUM(e->d_bodies[i]),
                                          TC_NUM(t->done), TC_NUM(t->mean_geo), TC_NUM(t->mean_own),
                                          TC_NUM(t->mean_own > 0 ? t->mean_own : NAN),
                                          TC_NUM(t->final_ke), TC_NUM(t->peak_ke), TC_NUM(t->e0),
                                          TC_NUM(t->e_end), TC_NUM(t->e_rise), TC_NUM(t->escaped),
                                          TC_NUM(t->fails), TC_TEXT(t->warn), TC_TEXT(notes),
                                          TC_TEXT(ok(x, t) ? "ok" : "failed"),
                                          TC_TEXT(tc_exp_run_record(x, t->run)->reason),
                                          TC_NUM(t->step_s), TC_NUM(t->step_s / t->mean_geo)});
            pile_metrics(x, s, t, i);
        }
    char cap[1200], machine[300];
    tc_machine_describe(machine, sizeof machine, tc_exp_threads(x));
    snprintf(cap, sizeof cap,
             "E7 (d): piles of compounds (%d kinds of 2 to 4 boxes and spheres, scale %g-%g m, "
             "%g kg/m^3) dropped into an open box, mu = %g, %g s at %g s steps; means over the "
             "steps from %g s on. Touching parts: pairs of convex parts closer than %g m, counted "
             "the same way for every method; own contacts: the method's count (blank when it "
             "reports none); step: the median over those steps of a step's CPU time (its "
             "thread's: not inflated by other processes), runs %d at a time (%s); unsettled: "
             "steps whose solve ended at its sweep cap.",
             e->pile.nkind, e->pile.size_lo, e->pile.size_hi, e->pile.density, e->pile.friction,
             e->d_seconds, e->d_dt, e->d_measure_from, e->d_margin, tc_exp_threads(x), machine);
    return tc_rows_close(w, "pile_table", cap, err);
}

/* (d): method k's block of pile_cost.csv (each size it ran: contacts, step time and the fit),
 * its row of the fit table, and its slope's metric */
static void fit_row(tc_exp *x, const e7_state *s, int k, FILE *f, tc_rows *w) {
    const e7_setup *e = &s->e;
    const char *label = tc_exp_label(x, k);
    int used = 0, last = -1;
    for (int i = 0; i < e->d_n; i++) {
        const e7_item *t = pile_item(s, k, i);
        if (!t || !ok(x, t)) continue;
        used += t->mean_geo > 0 && t->step_s > 0;
        last = i;
        fprintf(f, "%d,%.6g,%.6g,%.6e,%.6e\n", e->d_bodies[i], t->mean_geo, t->mean_own, t->step_s,
                exp(s->icept[k]) * pow(t->mean_geo, s->slope[k]));
    }
    if (last < 0) fprintf(f, "NaN,NaN,NaN,NaN,NaN\n");
    fprintf(f, "\n\n");
    /* the row: the sizes fitted, both slopes, the largest pile and its step */
    const e7_item *big = last >= 0 ? pile_item(s, k, last) : NULL;
    tc_rows_put(w, (const tc_cell[]){TC_TEXT(label), TC_NUM(used), TC_NUM(s->slope[k]),
                                     TC_NUM(s->slope_own[k]), TC_NUM(big ? e->d_bodies[last] : NAN),
                                     TC_NUM(big ? big->step_s : NAN)});
    /* a slope needs two pile sizes: no metric for a method that ran one */
    if (used >= 2)
        tc_exp_metric(x, label, s->slope[k], "1", 0.5, 0.5, TC_METRIC_TIMING,
                      "(d) log-log slope of step time against touching parts over the pile sizes "
                      "(machine-dependent)",
                      "pile.%s.slope", label);
}

/* (d) the fit per method over the sizes, and pile_cost.csv (step times: not digested) */
static tc_status pile_fit(tc_exp *x, const e7_state *s, tc_error *err) {
    static const tc_col cols[] = {{.head = "method"},
                                  {.head = "sizes", .tfmt = "%.0f"},
                                  E7_COL_NUM(NULL, "slope vs touching parts", NULL, 3, 0),
                                  E7_COL_NUM(NULL, "slope vs own contacts", NULL, 3, 0),
                                  {.head = "largest pile", .tfmt = "%.0f"},
                                  E7_COL_NUM(NULL, "step (ms)", NULL, 3, 1e3)};
    tc_outfile o;
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, sizeof cols / sizeof *cols, err);
    if (!st && (st = tc_exp_open(x, "pile_cost.csv", &o, err))) tc_rows_abort(w);
    if (st) return st;
    fprintf(o.f, "# bodies,touching_parts,own_contacts,step_s,fit_s; one block per method:");
    for (int j = 0; j < s->npm; j++)
        fprintf(o.f, " %s", tc_exp_label(x, s->pm[j]));
    fprintf(o.f, "\n");
    for (int j = 0; j < s->npm; j++)
        fit_row(x, s, s->pm[j], o.f, w);
    if ((st = tc_outfile_commit(&o, err))) tc_rows_abort(w);
    return st ? st
              : tc_rows_close(
                    w, "pile_fit_table",
                    "E7 (d): step time against contacts, log-log least squares over the pile "
                    "sizes each method ran (paper: cost linear in the number of contacts, "
                    "slope 1; 1,000 bodies in seconds per step).",
                    err);
}

/* ---------- figures ---------- */

/* v as a template variable's text */
static const char *num(char buf[32], double v) {
    snprintf(buf, 32, "%.9g", v);
    return buf;
}

/* the figure of closed-form scene q's series (fig_<scene> from e7_<scene>.gp): its data file and
 * labels (the incline's first angle: one panel per angle) in v[0] and v[1], the template's own
 * variables after them; none when no method ran the scene */
static void series_figure(tc_exp *x, const e7_state *s, int q, tc_plot_var *v, int nv,
                          const char *caption) {
    char path[1200], labels[4096], file[64], tpl[64];
    block_labels(x, s, q, 0, labels, sizeof labels);
    if (!labels[0]) return;
    snprintf(file, sizeof file, "%s.csv", scene_name[q]);
    tc_exp_path(x, file, path, sizeof path);
    v[0] = (tc_plot_var){"datafile", path};
    v[1] = (tc_plot_var){"labels", labels};
    snprintf(tpl, sizeof tpl, "e7_%s.gp", scene_name[q]);
    snprintf(file, sizeof file, "fig_%s", scene_name[q]);
    tc_exp_figure(x, tpl, v, nv, file, caption);
}

/* (a)-(c): each scene's series against its closed form */
static void series_figures(tc_exp *x, const e7_state *s) {
    const e7_setup *e = &s->e;
    char g[32], mu[32], v0[32], tstar[32], degs[256] = "", accs[256] = "";
    tc_plot_var va[] = {
        {0}, {0}, {"g", num(g, e->gravity)}, {"mu", num(mu, e->a_mu)}, {"v0", num(v0, e->a_v0)}};
    series_figure(x, s, E7_SLIDE, va, 5,
                  "(a) Distance slid against time per method (" TC_EXP_GREY_NOTE
                  "); black, dashed: the closed form x = v0 t - mu g t^2 / 2 up to v0/(mu g), then "
                  "v0^2/(2 mu g).");
    /* (b): a panel per angle */
    for (int i = 0; i < e->b_n; i++) {
        tc_words_add(degs, sizeof degs, " ", "%.4g", e7_incline_angle(e, i) * 180 / M_PI);
        tc_words_add(accs, sizeof accs, " ", "%.9g", e7_incline_accel(e, i));
    }
    tc_plot_var vb[] = {{0}, {0}, {"angles", degs}, {"accels", accs}};
    series_figure(
        x, s, E7_INCLINE, vb, 4,
        "(b) Displacement down the incline against time, one panel per angle (" TC_EXP_GREY_NOTE
        "); black, dashed: the closed form (at rest, or g (sin - mu cos) t^2 / 2).");
    tc_plot_var vc[] = {{0},
                        {0},
                        {"g", g},
                        {"mu", num(mu, e->c_mu)},
                        {"v0", num(v0, e->c_v0)},
                        {"tstar", num(tstar, e7_roll_time(e))}};
    series_figure(x, s, E7_ROLL, vc, 6,
                  "(c) The ball's speed v (solid) and omega r (dashed) against time per "
                  "method; black: the closed forms, which meet at t* = 2 v0/(7 mu g) (marked) "
                  "at 5 v0/7.");
}

/* (d): step time against touching parts, and kinetic energy against time per size */
static void pile_figures(tc_exp *x, const e7_state *s) {
    const e7_setup *e = &s->e;
    char cost[1200], series[1200], labels[4096] = "", slopes[2048] = "", sizes[128] = "",
                                   panels[64] = "";
    if (!s->npm) return;
    for (int j = 0; j < s->npm; j++) {
        tc_words_add(labels, sizeof labels, " ", "%s", tc_exp_label(x, s->pm[j]));
        tc_words_add(slopes, sizeof slopes, " ", "%.3g", s->slope[s->pm[j]]);
    }
    /* the panels: the sizes some method ran (the others' blocks are NaN) */
    for (int i = 0; i < e->d_n; i++) {
        tc_words_add(sizes, sizeof sizes, " ", "%d", e->d_bodies[i]);
        int ran = 0;
        for (int j = 0; j < s->npm; j++) {
            const e7_item *t = pile_item(s, s->pm[j], i);
            ran += t && t->done > 0;
        }
        if (ran) tc_words_add(panels, sizeof panels, " ", "%d", i);
    }
    /* the cost needs a pile that ran to the end without losing bodies */
    int good = 0;
    for (int i = 0; i < s->n; i++)
        good += s->it[i].scene == E7_PILE && ok(x, &s->it[i]);
    tc_exp_path(x, "pile_cost.csv", cost, sizeof cost);
    tc_plot_var vc[] = {{"datafile", cost}, {"labels", labels}, {"slopes", slopes}};
    if (good)
        tc_exp_figure(x, "e7_pile_cost.gp", vc, 3, "fig_pile_cost",
                      "(d) CPU time per step against touching parts (log-log), one point per "
                      "pile size (the cost study's median: each pile restarted alone where it "
                      "had landed), with each method's least-squares line and its slope (the "
                      "paper: 1); " TC_EXP_GREY_NOTE ".");
    else
        tc_exp_text(x, "(d) No pile ran to the end without losing bodies: no cost figure.");
    tc_exp_path(x, "pile.csv", series, sizeof series);
    tc_plot_var vk[] = {
        {"datafile", series}, {"labels", labels}, {"sizes", sizes}, {"panels", panels}};
    if (panels[0])
        tc_exp_figure(x, "e7_pile_ke.gp", vk, 4, "fig_pile_ke",
                      "(d) Kinetic energy of the piles against time, one panel per pile size "
                      "that ran; " TC_EXP_GREY_NOTE ".");
}

/* ---------- the driver ---------- */

/* a quantity's name and its error */
typedef struct e7_err {
    const char *name;
    double err;
} e7_err;

/* the largest error against the closed forms of (a)-(c) of method k (INFINITY: a measure that
 * never happened, or a failed run), and what it was; *creep the fastest mean velocity below the
 * friction angle (m/s, NAN when it ran no incline) */
static double worst_error(const tc_exp *x, const e7_state *s, int k, char *what, size_t n,
                          double *creep) {
    const e7_setup *e = &s->e;
    double worst = -1;
    snprintf(what, n, "-");
    *creep = NAN;
    for (int i = 0; i < s->n; i++) {
        const e7_item *t = &s->it[i];
        if (t->method != k || t->scene == E7_PILE) continue;
        const int good = ok(x, t);
        e7_err c[3];
        int nc = 0;
        if (t->scene == E7_SLIDE) {
            c[nc++] =
                (e7_err){"(a) stopping distance", rel_err(t->m.distance, e7_slide_distance(e))};
            c[nc++] = (e7_err){"(a) stopping time", rel_err(t->m.stop_time, e7_slide_time_at(e))};
        } else if (t->scene == E7_INCLINE && e->b_offset[t->variant] > 0) {
            c[nc++] =
                (e7_err){"(b) acceleration", rel_err(t->m.accel, e7_incline_accel(e, t->variant))};
        } else if (t->scene == E7_INCLINE && e->b_offset[t->variant] < 0) {
            double v = good ? fabs(t->m.creep) : INFINITY;
            *creep = isnan(*creep) ? v : fmax(*creep, v);
        } else if (t->scene == E7_ROLL) {
            c[nc++] = (e7_err){"(c) t*", rel_err(t->m.roll_time, e7_roll_time_at(e))};
            c[nc++] = (e7_err){"(c) rolling speed", rel_err(t->m.roll_speed, e7_roll_speed(e))};
            c[nc++] =
                (e7_err){"(c) distance to t*", rel_err(t->m.roll_distance, e7_roll_distance_at(e))};
        }
        for (int q = 0; q < nc; q++) {
            double v = good && !isnan(c[q].err) ? c[q].err : INFINITY;
            if (v > worst) {
                worst = v;
                snprintf(what, n, "%s%s", c[q].name, good ? "" : " (the run failed)");
            }
        }
    }
    return worst;
}

/* the verdicts on the piles: the cost's log-log slope per method, and the largest pile each ran */
static void pile_verdicts(tc_exp *x, const e7_state *s) {
    const e7_setup *e = &s->e;
    char lin[2048] = "", big[2048] = "";
    int biggest = 0, ran = 0;
    for (int i = 0; i < e->d_n; i++)
        biggest = e->d_bodies[i] > biggest ? e->d_bodies[i] : biggest;
    for (int j = 0; j < s->npm; j++) {
        const int k = s->pm[j];
        const double sl = s->slope[k];
        if (isnan(sl))
            tc_words_add(lin, sizeof lin, "; ", "`%s` no fit (fewer than two pile sizes ran)",
                         tc_exp_label(x, k));
        else
            tc_words_add(lin, sizeof lin, "; ", "`%s` %.3g (%s)", tc_exp_label(x, k), sl,
                         fabs(sl - 1) <= e->d_linear ? "linear" : "not linear");
        /* its largest pile */
        for (int i = e->d_n - 1; i >= 0; i--) {
            const e7_item *t = pile_item(s, k, i);
            if (!t || !ok(x, t)) continue;
            tc_words_add(big, sizeof big, "; ", "`%s` %.3g s per step at %d bodies",
                         tc_exp_label(x, k), t->step_s, e->d_bodies[i]);
            break;
        }
    }
    tc_exp_text(x,
                "**Cost linear in the number of contacts** (paper: linear): log-log slope of the "
                "step time against touching parts over the pile sizes, linear when within %g of "
                "1 (choice): %s.",
                e->d_linear, lin[0] ? lin : "no method ran two pile sizes");
    if (biggest < 1000) {
        tc_exp_text(x,
                    "**1,000 bodies in seconds per step** (paper, 2005 hardware): not tested "
                    "here (the largest pile has %d bodies). The largest pile each method ran: %s.",
                    biggest, big[0] ? big : "none");
        return;
    }
    /* did any method run the largest pile to the end, keeping every body? */
    for (int i = 0; i < s->n; i++)
        ran += s->it[i].scene == E7_PILE && e->d_bodies[s->it[i].variant] == biggest &&
               ok(x, &s->it[i]);
    tc_exp_text(x,
                "**1,000 bodies in seconds per step** (paper, 2005 hardware): %s the "
                "%d-body pile (why each method did not is listed under (d) below). The "
                "largest pile each method ran: %s.",
                ran ? "measured on" : "not tested: no method ran", biggest, big[0] ? big : "none");
}

/* the verdict on (a)-(c): each method's largest error against the closed forms, within the
 * tolerance or beyond it, and whether it sticks below the friction angle */
static void closed_verdict(tc_exp *x, const e7_state *s) {
    const e7_setup *e = &s->e;
    char in[2048] = "", out[2048] = "";
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        char what[96], stick[96] = "";
        double creep, w = worst_error(x, s, k, what, sizeof what, &creep);
        if (w < 0 && isnan(creep)) continue;
        const int sticks = isnan(creep) || creep < e->b_stick;
        char *buf = w <= e->tolerance && sticks ? in : out;
        if (!sticks)
            snprintf(stick, sizeof stick, "; creeps at %.2g m/s below the friction angle", creep);
        if (w < 0)
            tc_words_add(buf, sizeof in, "; ", "`%s` (%s)", tc_exp_label(x, k), stick + 2);
        else if (isinf(w))
            tc_words_add(buf, sizeof in, "; ", "`%s` (%s: never measured%s)", tc_exp_label(x, k),
                         what, stick);
        else
            tc_words_add(buf, sizeof in, "; ", "`%s` (%s: %.2g %%%s)", tc_exp_label(x, k), what,
                         100 * w, stick);
    }
    tc_exp_text(x,
                "**Closed forms of (a)-(c) within %g %%** and sticking below the friction angle "
                "(touche's own check; its target is 1 %% at a 1 ms step), the largest error per "
                "method: within: %s; beyond: %s.",
                100 * e->tolerance, in[0] ? in : "none", out[0] ? out : "none");
}

/* the section's text and every output after the sweep and the cost study */
static tc_status outputs(tc_exp *x, e7_state *s, tc_error *err) {
    const e7_setup *e = &s->e;
    tc_status st;
    /* the section's opening: the paper's claims beside ours, then the scenes */
    pile_verdicts(x, s);
    closed_verdict(x, s);
    tc_exp_text(x,
                "Tier `%s`. Every method with friction runs every scene it can: (a) a box "
                "sliding to rest, (b) a box on an incline at %d angles around the friction "
                "angle, (c) a ball launched sliding, each at a %g s step against its closed "
                "form; (d) piles of %d kinds of compound (boxes and spheres) dropped into an "
                "open box. Planar methods run (a) and (b) as 2-D scenes (a square on a line, "
                "gravity tilted in the plane). The incline is gravity tilted by the angle, "
                "which every method takes (a turned plane is no 2-D scene).",
                tc_exp_tier(x), e->b_n, e->dt, e->pile.nkind);
    for (int q = 0; q < E7_NSCENE; q++)
        if (s->skipped[q][0])
            tc_exp_text(x, "(%c) %s: not run by %s.", 'a' + q, scene_name[q], s->skipped[q]);
    /* the tables, the data and the figures */
    if ((st = slide_outputs(x, s, err)) || (st = incline_outputs(x, s, err)) ||
        (st = roll_outputs(x, s, err)) || (st = pile_series(x, s, err)) ||
        (st = pile_runs(x, s, err)) || (st = pile_fit(x, s, err)) ||
        (st = write_series(x, s, E7_SLIDE, err)) || (st = write_series(x, s, E7_INCLINE, err)) ||
        (st = write_series(x, s, E7_ROLL, err)))
        return st;
    series_figures(x, s);
    pile_figures(x, s);
    return TC_OK;
}

static tc_status e7_run_fn(tc_exp *x, void *state, tc_error *err) {
    e7_state *s = state;
    const e7_setup *e = &s->e;
    s->x = x;
    if (tc_exp_nmethod(x) > 256)
        return tc_script_fail(tc_exp_script(x), NULL, "methods", err,
                              "E7 takes at most 256 methods (got %d)", tc_exp_nmethod(x));
    s->it = calloc((size_t)tc_exp_nmethod(x) * (E7_MAXANGLE + E7_MAXPILE + 2) + 1, sizeof *s->it);
    if (!s->it) return TC_ENOMEM;
    tc_status st = plan_items(x, s);
    if (st) return st;
    /* the smallest pile as a reader sees it */
    if (e->d_n > 0)
        tc_exp_scene_figure(x, s->pile[0], "xz", "fig_scene_pile",
                            "The scene of (d): the smallest pile's compound bodies at their start "
                            "above the open box (front view; walls grey).");
    /* the piles first, the largest first: a step's cost grows with the bodies */
    double *cost = calloc((size_t)s->n + 1, sizeof *cost);
    if (!cost) return TC_ENOMEM;
    for (int i = 0; i < s->n; i++)
        cost[i] = (double)s->it[i].steps *
                  (s->it[i].scene == E7_PILE ? e->d_bodies[s->it[i].variant] : 1);
    st = tc_exp_sweep_split(x, s->n, NULL, cost, e7_work, e7_regions, s);
    free(cost);
    if (!st && tc_exp_writer(x)) st = cost_study(x, s, err);
    if (st) return st;
    fit_piles(x, s);
    st = outputs(x, s, err);
    if (!st)
        tc_exp_pareto(x, "slide.%s.distance_error", "scene=slide",
                      "stopping distance error (fraction)", "fig_pareto",
                      "Speed against accuracy on (a): each method's wall time per step over its "
                      "sliding-box runs (one thread, this machine) against its stopping distance's "
                      "error from the closed form; the dashed line joins the methods no cheaper "
                      "one matches.");
    return st;
}

/* the result files digested per method (pile_cost.csv holds step times: not digested; the runs'
 * step times are dropped) */
static const tc_results_file e7_results[] = {
    {"slide.csv", TC_RESULTS_BLOCKS, NULL},
    {"incline.csv", TC_RESULTS_BLOCKS, NULL},
    {"roll.csv", TC_RESULTS_BLOCKS, NULL},
    {"pile.csv", TC_RESULTS_BLOCKS, NULL},
    {"slide_runs.csv", TC_RESULTS_ROWS, NULL},
    {"incline_runs.csv", TC_RESULTS_ROWS, NULL},
    {"roll_runs.csv", TC_RESULTS_ROWS, NULL},
    {"pile_runs.csv", TC_RESULTS_ROWS, "step_s,per_contact_s"},
    {NULL, 0, NULL}};

/* the work: the closed-form scenes for every method (planar and 3-D), then every pile a method
 * may run (pile.limits), each step costing per body */
static void e7_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e7_state *s = state;
    const e7_setup *e = &s->e;
    const double scenes = 2 * (e->a_seconds + e->b_n * e->b_seconds) / e->dt + e->c_seconds / e->dt;
    const double pile = e->d_seconds / e->d_dt;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const double f =
            tc_method_work_factor(tc_exp_method(x, k)); /* iteration caps over defaults */
        const char *why;
        const int cap = pile_limit(e, tc_exp_label(x, k), &why);
        w->steps += scenes;
        w->seconds += scenes * TC_WORK_STEP_S * f;
        for (int i = 0; i < e->d_n; i++) {
            if (e->d_bodies[i] > cap || !tc_method_can_run(tc_exp_method(x, k), TC_CAP_DYNAMICS,
                                                           tc_scene_shapes(s->pile[i])))
                continue;
            w->steps += pile;
            w->seconds += pile * e->d_bodies[i] * TC_WORK_BODY_STEP_S * f;
            w->bytes = fmax(w->bytes, 4096.0 * e->d_bodies[i] * tc_exp_threads(x));
        }
    }
}

const tc_experiment_type tc_experiment_e7 = {
    .name = "e7_frictional",
    .title = "frictional dynamics: a box sliding to rest, a box on an incline, a ball starting to "
             "roll (closed forms), piles of compounds (Kaufman et al. 2005)",
    .heading = "Frictional dynamics (E7)",
    .paper = "Kaufman, Edmunds & Pai 2005 (SIGGRAPH), fast frictional dynamics",
    .script = "e7/e7_frictional.cfg",
    .results = e7_results,
    .setup = e7_setup_fn,
    .run = e7_run_fn,
    .free = e7_free,
    .estimate = e7_estimate,
    .bench_name = "piles",
    .bench_doc = "E7's piles of 100, 300 and 1,000 compounds landed by velocity projection: time "
                 "per step of velocity projection, MuJoCo and the LCP on the same points, one "
                 "thread, same run, CSV, log-log slope",
    .bench = &e7_bench,
};
