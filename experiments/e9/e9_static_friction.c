/* SPDX-License-Identifier: MIT */
/* E9: static friction (no paper: findings against closed forms) — a box under a tangential load
 * below the Coulomb threshold mu m g: creep on an incline and under a push (truth: no drift), the
 * onset of sliding under a slow ramp (truth: mu m g), the same push at angles in the plane
 * (a circular cone sticks in every direction), and an oscillating push (truth: no ratcheting),
 * each at every step size */
#include "experiments/e9/e9.h"
#include "core/tc_fs.h"
#include "exp/tc_rows.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what a method needs */
#define E9_CAPS (TC_CAP_DYNAMICS | TC_CAP_FRICTION)

#define E9_MAXCOND   (2 * E9_MAXFRAC + 2 * E9_MAXANGLE + E9_MAXRATCH)
#define E9_MAXMETHOD 256

static const char *const kind_name[E9_NKIND] = {"incline", "push", "ramp", "ratchet"};

/* one simulation of the sweep */
typedef struct e9_item {
    int method, cond, idt, planar, run;
    e9_result r;
} e9_item;

typedef struct e9_state {
    e9_setup e;
    const tc_exp *x;
    int ncond;
    e9_cond cond[E9_MAXCOND];
    /* the scenes: per condition, 3-D and 2-D */
    tc_scene *scenes;
    e9_item *it;
    int n;
    int planar[E9_MAXMETHOD]; /* per method: 1 runs the 2-D scenes, 0 the 3-D ones */
    char skipped[4096];       /* the planar methods that left the off-axis pushes out */
    char limited[4096];       /* the steps a method left out (the script's limits), and why */
} e9_state;

/* ---------- setup ---------- */

/* the condition (kind, fraction, angle, ratchet load), added once; its index */
static int add_cond(e9_state *s, int kind, double fraction, double angle, double mean, double amp) {
    for (int i = 0; i < s->ncond; i++) {
        const e9_cond *c = &s->cond[i];
        if (c->kind == kind && c->fraction == fraction && c->angle == angle && c->mean == mean &&
            c->amp == amp)
            return i;
    }
    s->cond[s->ncond] = (e9_cond){kind, fraction, angle, mean, amp};
    return s->ncond++;
}

/* every condition: creep on the incline and under the push along +x, the anisotropy push at
 * every angle, the ramp at every angle (+x first: the onset), the ratchet loads */
static void plan_conds(e9_state *s) {
    const e9_setup *e = &s->e;
    for (int i = 0; i < e->nincline; i++)
        add_cond(s, E9_INCLINE, e->incline[i], 0, 0, 0);
    for (int i = 0; i < e->npush; i++)
        add_cond(s, E9_PUSH, e->push[i], 0, 0, 0);
    for (int i = 0; i < e->nangle; i++)
        add_cond(s, E9_PUSH, e->aniso, e->angle[i], 0, 0);
    add_cond(s, E9_RAMP, 0, 0, 0, 0);
    for (int i = 0; i < e->nangle; i++)
        add_cond(s, E9_RAMP, 0, e->angle[i], 0, 0);
    for (int i = 0; i < e->nratchet; i++)
        add_cond(s, E9_RATCHET, 0, 0, e->r_mean[i], e->r_amp[i]);
}

static tc_scene *scene_of(const e9_state *s, int cond, int planar) {
    return &s->scenes[2 * cond + planar];
}

static tc_status e9_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e9_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    tc_status st = e9_read_setup(tc_exp_script(x), &s->e, err);
    if (st) return st;
    for (int i = 0; i < s->e.nlimit; i++)
        tc_exp_refer(x, "limits", s->e.limit[i].label);
    plan_conds(s);
    /* every condition's scene once in 3-D and once in 2-D, shared read-only by the runs */
    if (!(s->scenes = calloc(2 * (size_t)s->ncond, sizeof *s->scenes))) return TC_ENOMEM;
    for (int i = 0; i < s->ncond && !st; i++)
        for (int p = 0; p < 2 && !st; p++)
            st = e9_scene(&s->e, &s->cond[i], p, scene_of(s, i, p), err);
    if (st) return st;
    /* the flat scenes' shapes are the inclines' too */
    const int flat = s->e.nincline; /* the first push condition */
    tc_exp_need(x, E9_CAPS, tc_scene_shapes(scene_of(s, flat, 0)), "a box on a plane");
    tc_exp_need(x, E9_CAPS, tc_scene_shapes(scene_of(s, flat, 1)), "a square on a line (2-D)");
    return TC_OK;
}

static void e9_free(void *state) {
    e9_state *s = state;
    if (!s) return;
    free(s->it);
    free(s->scenes);
    free(s);
}

/* ---------- the runs ---------- */

static const char *dim(int planar) {
    return planar ? "2-D" : "3-D";
}

/* the words of a condition: "incline 0.9 of the friction angle", "push 0.9 mu m g at 45 deg" */
static void cond_words(const e9_cond *c, char *buf, size_t n) {
    if (c->kind == E9_INCLINE)
        snprintf(buf, n, "incline %g of the friction angle", c->fraction);
    else if (c->kind == E9_PUSH)
        snprintf(buf, n, "push %g mu m g at %g deg", c->fraction, c->angle);
    else if (c->kind == E9_RAMP)
        snprintf(buf, n, "ramp at %g deg", c->angle);
    else
        snprintf(buf, n, "ratchet (%g + %g sin) mu m g", c->mean, c->amp);
}

/* every method's runs: every condition at every step, the 2-D scenes for planar methods (which
 * leave the pushes off +x out) */
static tc_status plan_items(tc_exp *x, e9_state *s) {
    const e9_setup *e = &s->e;
    const int nm = tc_exp_nmethod(x);
    const int flat = e->nincline;
    if (!(s->it = calloc((size_t)nm * (size_t)s->ncond * (size_t)e->ndt + 1, sizeof *s->it)))
        return TC_ENOMEM;
    for (int k = 0; k < nm; k++) {
        const tc_method *m = tc_exp_method(x, k);
        const int planar = !tc_method_can_run(m, E9_CAPS, tc_scene_shapes(scene_of(s, flat, 0)));
        s->planar[k] = planar;
        int left = 0;
        const char *label = tc_exp_label(x, k), *why = NULL;
        char out[128] = "";
        for (int j = 0; j < e->ndt; j++) {
            const char *w;
            if (!e9_runs_step(e, label, j, &w)) {
                why = w;
                tc_words_add(out, sizeof out, ", ", "%g", 1e3 * e->dt[j]);
            }
        }
        if (why)
            tc_words_add(s->limited, sizeof s->limited, "; ", "`%s` not at %s ms (%s)", label, out,
                         why);
        for (int c = 0; c < s->ncond; c++) {
            if (planar && s->cond[c].angle != 0) {
                left++;
                continue;
            }
            char w[96];
            cond_words(&s->cond[c], w, sizeof w);
            for (int j = 0; j < e->ndt; j++) {
                const char *no;
                if (!e9_runs_step(e, label, j, &no)) continue;
                e9_item *t = &s->it[s->n++];
                *t = (e9_item){.method = k, .cond = c, .idt = j, .planar = planar};
                t->run = tc_exp_add_run(x, k, NULL, -1, "study=%s, %s, dt %g ms, %s",
                                        kind_name[s->cond[c].kind], w, 1e3 * e->dt[j], dim(planar));
            }
        }
        if (left) tc_words_add(s->skipped, sizeof s->skipped, "; ", "`%s`", tc_exp_label(x, k));
    }
    return TC_OK;
}

static void e9_work(void *ctx, int i, tc_item *it) {
    e9_state *s = ctx;
    e9_item *t = &s->it[i];
    e9_simulate(&s->e, &s->cond[t->cond], scene_of(s, t->cond, t->planar), t->planar,
                tc_exp_method(s->x, t->method), s->e.dt[t->idt], &t->r, it);
}

static int e9_regions(void *ctx, int i, tc_region *r) {
    e9_state *s = ctx;
    r[0] = (tc_region){&s->it[i].r, sizeof s->it[i].r};
    return 1;
}

/* ---------- outputs ---------- */

static int ok(const tc_exp *x, const e9_item *t) {
    return tc_exp_run_record(x, t->run)->status == TC_OK;
}

/* the item of method k, condition c, step j (NULL: not run) */
static const e9_item *find(const e9_state *s, int k, int c, int j) {
    for (int i = 0; i < s->n; i++)
        if (s->it[i].method == k && s->it[i].cond == c && s->it[i].idt == j) return &s->it[i];
    return NULL;
}

/* the index of a condition, -1 when there is none */
static int cond_index(const e9_state *s, int kind, double fraction, double angle) {
    for (int i = 0; i < s->ncond; i++)
        if (s->cond[i].kind == kind && s->cond[i].fraction == fraction && s->cond[i].angle == angle)
            return i;
    return -1;
}

/* the load's ratio to the threshold: tan(theta) / mu on the incline, the fraction of a push */
static double load_ratio(const e9_setup *e, const e9_cond *c) {
    return c->kind == E9_INCLINE ? tan(e9_incline_angle(e, c->fraction)) / e->mu : c->fraction;
}

/* the onset's relative error (F_onset - mu m g) / (mu m g); NAN: a failed run or never */
static double onset_error(const tc_exp *x, const e9_state *s, const e9_item *t) {
    if (!t || !ok(x, t)) return NAN;
    return (t->r.onset_force - e9_threshold(&s->e)) / e9_threshold(&s->e);
}

/* a sub-threshold run sticks: its mean drift speed below stick_speed */
static int sticks(const tc_exp *x, const e9_state *s, const e9_item *t) {
    return t && ok(x, t) && t->r.speed < s->e.stick_speed;
}

/* "1 ms": a step's words */
static void ms(char *b, size_t n, double dt) {
    snprintf(b, n, "%g ms", 1e3 * dt);
}

/* a run's drift; NAN: not run or failed */
static double run_drift(const tc_exp *x, const e9_item *t) {
    return t && ok(x, t) ? t->r.drift : NAN;
}

/* method k's drift per cycle under ratchet load q at step j; NAN: not run, failed or no load */
static double per_cycle(const tc_exp *x, const e9_state *s, int k, int q, int j) {
    if (q >= s->e.nratchet) return NAN;
    const e9_item *t = find(s, k, cond_index(s, E9_RATCHET, 0, 0) + q, j);
    return t && ok(x, t) ? t->r.per_cycle : NAN;
}

/* how many angles method k's anisotropy push ran at; those it slides at are added to at */
static int aniso_slides(const tc_exp *x, const e9_state *s, int k, char *at, size_t n) {
    const e9_setup *e = &s->e;
    int ran = 0;
    for (int g = 0; g < e->nangle; g++) {
        const e9_item *t = find(s, k, cond_index(s, E9_PUSH, e->aniso, e->angle[g]), 0);
        if (!t) continue;
        ran++;
        if (!sticks(x, s, t)) tc_words_add(at, n, ", ", "%g", e->angle[g]);
    }
    return ran;
}

/* an exact Coulomb box's lag behind mu m g at the onset speed, in % */
static double lag_percent(const e9_setup *e) {
    return 100 * sqrt(2 * e->mass * e->onset_speed * e->ramp_to * e9_threshold(e) / e->seconds) /
           e9_threshold(e);
}

/* every run: static.csv, and the metrics */
static tc_status runs_csv(tc_exp *x, const e9_state *s, tc_error *err) {
    const e9_setup *e = &s->e;
    static const tc_col cols[] = {{.csv = "label"},
                                  {.csv = "method"},
                                  {.csv = "dim"},
                                  {.csv = "study"},
                                  TC_COL_CSV("dt_s", "%.9g"),
                                  TC_COL_CSV("fraction", "%.9g"),
                                  TC_COL_CSV("angle_deg", "%.9g"),
                                  TC_COL_CSV("mean", "%.9g"),
                                  TC_COL_CSV("amplitude", "%.9g"),
                                  TC_COL_CSV("load_ratio", "%.9g"),
                                  TC_COL_CSV("steps", "%.0f"),
                                  TC_COL_CSV("slip_before_settle_m", "%.9e"),
                                  TC_COL_CSV("drift_m", "%.9e"),
                                  TC_COL_CSV("speed_m_s", "%.9e"),
                                  TC_COL_CSV("onset_force_N", "%.9g"),
                                  TC_COL_CSV("onset_error", "%.9g"),
                                  TC_COL_CSV("drift_per_cycle_m", "%.9e"),
                                  {.csv = "status"},
                                  {.csv = "reason", .quote = TC_COL_QUOTED}};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, "static.csv", cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    for (int i = 0; i < s->n; i++) {
        const e9_item *t = &s->it[i];
        const e9_cond *c = &s->cond[t->cond];
        const char *label = tc_exp_label(x, t->method);
        const int good = ok(x, t);
        const double dt = e->dt[t->idt], oe = onset_error(x, s, t);
        tc_rows_put(w, (const tc_cell[]){TC_TEXT(label), TC_TEXT(tc_exp_method(x, t->method)->spec),
                                         TC_TEXT(dim(t->planar)), TC_TEXT(kind_name[c->kind]),
                                         TC_NUM(dt), TC_NUM(c->fraction), TC_NUM(c->angle),
                                         TC_NUM(c->mean), TC_NUM(c->amp), TC_NUM(load_ratio(e, c)),
                                         TC_NUM(t->r.done), TC_NUM(t->r.slip0), TC_NUM(t->r.drift),
                                         TC_NUM(t->r.speed), TC_NUM(t->r.onset_force),
                                         TC_NUM(c->kind == E9_RAMP ? oe : NAN),
                                         TC_NUM(t->r.per_cycle), TC_TEXT(good ? "ok" : "failed"),
                                         TC_TEXT(tc_exp_run_record(x, t->run)->reason)});
        /* the metrics: the measure of each study at each step */
        char key[64];
        snprintf(key, sizeof key, "dt%gms", 1e3 * dt);
        if (c->kind == E9_INCLINE || c->kind == E9_PUSH) {
            tc_exp_metric(x, label, good ? t->r.drift : NAN, "m", 1e-6, 0.1, 0,
                          "drift of the box under a load below mu m g over the run (truth 0)",
                          "%s.%s%g.a%g.%s.%s.drift", label, kind_name[c->kind], c->fraction,
                          c->angle, key, dim(t->planar));
        } else if (c->kind == E9_RAMP) {
            tc_exp_metric(x, label, oe, "1", 5e-3, 0.1, 0,
                          "onset under the ramp: (force at which it starts sliding - mu m g) / mu "
                          "m g (truth 0 up to the speed threshold's lag)",
                          "%s.ramp.a%g.%s.onset_error", label, c->angle, key);
        } else {
            tc_exp_metric(x, label, good ? t->r.per_cycle : NAN, "m", 1e-6, 0.1, 0,
                          "net drift per cycle of the oscillating push along +x (truth 0)",
                          "%s.ratchet%g+%g.%s.per_cycle", label, c->mean, c->amp, key);
        }
    }
    return tc_rows_close(w, NULL, NULL, err);
}

/* the summary per method: creep at the anisotropy fraction (incline and push) at the smallest
 * and largest steps, the onset error there, stick at every angle, the ratchet per cycle */
static tc_status summary_table(tc_exp *x, const e9_state *s, tc_error *err) {
    const e9_setup *e = &s->e;
    const int j0 = 0, j1 = e->ndt - 1;
    char h[10][96], a[32], b[32];
    ms(a, sizeof a, e->dt[j0]);
    ms(b, sizeof b, e->dt[j1]);
    const double f = e->aniso;
    snprintf(h[0], sizeof h[0], "incline %g drift (m), %s", f, a);
    snprintf(h[1], sizeof h[1], "incline %g drift (m), %s", f, b);
    snprintf(h[2], sizeof h[2], "push %g drift (m), %s", f, a);
    snprintf(h[3], sizeof h[3], "push %g drift (m), %s", f, b);
    snprintf(h[4], sizeof h[4], "onset error (%%), %s", a);
    snprintf(h[5], sizeof h[5], "onset error (%%), %s", b);
    snprintf(h[6], sizeof h[6], "sticks at every angle (%s)", a);
    snprintf(h[7], sizeof h[7], "ratchet per cycle (m), %s: (%g + %g sin)", a,
             e->nratchet ? e->r_mean[0] : 0, e->nratchet ? e->r_amp[0] : 0);
    snprintf(h[8], sizeof h[8], "ratchet per cycle (m), %s: (%g + %g sin)", a,
             e->nratchet > 1 ? e->r_mean[1] : 0, e->nratchet > 1 ? e->r_amp[1] : 0);
    const tc_col cols[] = {{.head = "method"},
                           {.head = "scene"},
                           {.head = h[0], .fmt = "%g", .digits = 2, .below = 1e-12},
                           {.head = h[1], .fmt = "%g", .digits = 2, .below = 1e-12},
                           {.head = h[2], .fmt = "%g", .digits = 2, .below = 1e-12},
                           {.head = h[3], .fmt = "%g", .digits = 2, .below = 1e-12},
                           {.head = h[4], .fmt = "%g", .digits = 2, .below = 1e-12, .scale = 100},
                           {.head = h[5], .fmt = "%g", .digits = 2, .below = 1e-12, .scale = 100},
                           {.head = h[6]},
                           {.head = h[7], .fmt = "%g", .digits = 2, .below = 1e-12},
                           {.head = h[8], .fmt = "%g", .digits = 2, .below = 1e-12}};
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, sizeof cols / sizeof *cols, err);
    if (st) return st;
    const int ci = cond_index(s, E9_INCLINE, f, 0), cp = cond_index(s, E9_PUSH, f, 0),
              cr = cond_index(s, E9_RAMP, 0, 0);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const int cc[4] = {ci, ci, cp, cp}, jj[4] = {j0, j1, j0, j1};
        double d[4];
        for (int q = 0; q < 4; q++)
            d[q] = run_drift(x, cc[q] >= 0 ? find(s, k, cc[q], jj[q]) : NULL);
        /* sticks at every angle it ran */
        char all[160] = "";
        const int ran = aniso_slides(x, s, k, all, sizeof all);
        char stick[200];
        if (!ran)
            snprintf(stick, sizeof stick, "-");
        else if (!all[0])
            snprintf(stick, sizeof stick, "yes%s", s->planar[k] ? " (+x only, 2-D)" : "");
        else
            snprintf(stick, sizeof stick, "no: slides at %s deg", all);
        tc_rows_put(w, (const tc_cell[]){TC_TEXT(tc_exp_label(x, k)), TC_TEXT(dim(s->planar[k])),
                                         TC_NUM(d[0]), TC_NUM(d[1]), TC_NUM(d[2]), TC_NUM(d[3]),
                                         TC_NUM(onset_error(x, s, find(s, k, cr, j0))),
                                         TC_NUM(onset_error(x, s, find(s, k, cr, j1))),
                                         TC_TEXT(stick), /* the first two ratchet loads */
                                         TC_NUM(per_cycle(x, s, k, 0, j0)),
                                         TC_NUM(per_cycle(x, s, k, 1, j0))});
    }
    char cap[900];
    snprintf(cap, sizeof cap,
             "E9: per method, the drift from %g s to the end (%g s) of a %g kg cube (mu = %g, mu m "
             "g = %.4g N) on an incline at %g of the friction angle and under a push of %g mu m g "
             "(truth: 0); the "
             "onset error of the push ramped from 0 to %g mu m g over the run, (F - mu m g) / mu "
             "m g, F the push when the speed along it first exceeds %g m/s (truth: 0, up to an "
             "exact Coulomb box's lag sqrt(2 m v r) = %.2g %%); whether a push of %g mu m g "
             "sticks (mean drift speed from %g s on below %g m/s) at every angle of the "
             "anisotropy study; the net drift per cycle of the push (mean + amplitude sin(2 pi t / "
             "%g s)) mu m g (truth: 0). \"-\": not run or failed.",
             e->settle, e->seconds, e->mass, e->mu, e9_threshold(e), f, f, e->ramp_to,
             e->onset_speed, lag_percent(e), f, e->settle, e->stick_speed, e->period);
    return tc_rows_close(w, "summary", cap, err);
}

/* the anisotropy: per method at the smallest step, per angle the sub-threshold push's drift and
 * the onset force over mu m g */
static tc_status aniso_table(tc_exp *x, const e9_state *s, tc_error *err) {
    const e9_setup *e = &s->e;
    static char h[2 * E9_MAXANGLE][64];
    tc_col cols[2 + 2 * E9_MAXANGLE];
    int nc = 0;
    cols[nc++] = (tc_col){.head = "method"};
    for (int g = 0; g < e->nangle; g++) {
        snprintf(h[2 * g], sizeof h[0], "%g deg: drift (m)", e->angle[g]);
        snprintf(h[2 * g + 1], sizeof h[0], "%g deg: onset / mu m g", e->angle[g]);
        cols[nc++] = (tc_col){.head = h[2 * g], .fmt = "%g", .digits = 2, .below = 1e-12};
        cols[nc++] = (tc_col){.head = h[2 * g + 1], .fmt = "%g", .digits = 4};
    }
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, nc, err);
    if (st) return st;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        tc_cell c[2 + 2 * E9_MAXANGLE];
        int n = 0;
        c[n++] = TC_TEXT(tc_exp_label(x, k));
        for (int g = 0; g < e->nangle; g++) {
            const e9_item *p = find(s, k, cond_index(s, E9_PUSH, e->aniso, e->angle[g]), 0);
            const e9_item *r = find(s, k, cond_index(s, E9_RAMP, 0, e->angle[g]), 0);
            c[n++] = p ? TC_NUM(ok(x, p) ? p->r.drift : NAN) : TC_TEXT("n/a");
            c[n++] = r ? TC_NUM(1 + onset_error(x, s, r)) : TC_TEXT("n/a");
        }
        tc_rows_put(w, c);
    }
    char cap[600], a[32];
    ms(a, sizeof a, e->dt[0]);
    snprintf(
        cap, sizeof cap,
        "E9 anisotropy, step %s: per angle of the push in the plane (degrees from the "
        "cube's +x face normal), the drift from %g s to %g s under %g mu m g (truth: 0) and the "
        "onset force of the ramp over mu m g (truth: 1 at every angle; a 4-sided pyramid "
        "inscribed in the cone gives cos 45 deg = 0.707 at 45 deg, one circumscribed 1.414). "
        "n/a: a planar method has one direction.",
        a, e->settle, e->seconds, e->aniso);
    return tc_rows_close(w, "anisotropy", cap, err);
}

/* the onset error per method and step (angle 0) */
static tc_status onset_table(tc_exp *x, const e9_state *s, tc_error *err) {
    const e9_setup *e = &s->e;
    static char h[E9_MAXDT][48];
    tc_col cols[1 + E9_MAXDT];
    int nc = 0;
    cols[nc++] = (tc_col){.head = "method"};
    for (int j = 0; j < e->ndt; j++) {
        char a[32];
        ms(a, sizeof a, e->dt[j]);
        snprintf(h[j], sizeof h[0], "%s (%%)", a);
        cols[nc++] = (tc_col){.head = h[j], .fmt = "%g", .digits = 2, .below = 1e-12, .scale = 100};
    }
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, nc, err);
    if (st) return st;
    const int cr = cond_index(s, E9_RAMP, 0, 0);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        tc_cell c[1 + E9_MAXDT];
        c[0] = TC_TEXT(tc_exp_label(x, k));
        for (int j = 0; j < e->ndt; j++)
            c[1 + j] = TC_NUM(onset_error(x, s, find(s, k, cr, j)));
        tc_rows_put(w, c);
    }
    char cap[600];
    snprintf(cap, sizeof cap,
             "E9 onset: (F - mu m g) / mu m g per method and step, F the push (ramped from 0 to "
             "%g mu m g over %g s along +x) when the speed along it first exceeds %g m/s after "
             "%g s. Negative: it slid early (creep); %.3g %%, the ramp at %g s: it was already "
             "moving faster than that when the measure began; \"-\": it never slid, or the run "
             "failed.",
             e->ramp_to, e->seconds, e->onset_speed, e->settle,
             100 * (e->ramp_to * e->settle / e->seconds - 1), e->settle);
    return tc_rows_close(w, "onset", cap, err);
}

/* one method's block of a figure's data */
typedef void (*e9_block)(FILE *f, const tc_exp *x, const e9_state *s, int k);

/* creep: the incline's and the push's fractions side by side, as many rows as the longer */
static void creep_block(FILE *f, const tc_exp *x, const e9_state *s, int k) {
    const e9_setup *e = &s->e;
    const int n = e->nincline > e->npush ? e->nincline : e->npush;
    for (int i = 0; i < n; i++) {
        const int ci = i < e->nincline ? cond_index(s, E9_INCLINE, e->incline[i], 0) : -1;
        const int cp = i < e->npush ? cond_index(s, E9_PUSH, e->push[i], 0) : -1;
        fprintf(f, "%.6g,%.6e,%.6g,%.6e\n", ci >= 0 ? load_ratio(e, &s->cond[ci]) : NAN,
                run_drift(x, ci >= 0 ? find(s, k, ci, 0) : NULL), cp >= 0 ? e->push[i] : NAN,
                run_drift(x, cp >= 0 ? find(s, k, cp, 0) : NULL));
    }
}

/* onset: the error per step */
static void onset_block(FILE *f, const tc_exp *x, const e9_state *s, int k) {
    for (int j = 0; j < s->e.ndt; j++)
        fprintf(f, "%.6g,%.6e\n", s->e.dt[j],
                onset_error(x, s, find(s, k, cond_index(s, E9_RAMP, 0, 0), j)));
}

/* anisotropy: the onset force over mu m g per angle */
static void aniso_block(FILE *f, const tc_exp *x, const e9_state *s, int k) {
    for (int g = 0; g < s->e.nangle; g++) {
        const e9_item *r = find(s, k, cond_index(s, E9_RAMP, 0, s->e.angle[g]), 0);
        fprintf(f, "%.6g,%.6g\n", s->e.angle[g], r ? 1 + onset_error(x, s, r) : NAN);
    }
}

/* ratchet: the first two loads' drift per cycle per step */
static void ratchet_block(FILE *f, const tc_exp *x, const e9_state *s, int k) {
    for (int j = 0; j < s->e.ndt; j++)
        fprintf(f, "%.6g,%.6e,%.6e\n", s->e.dt[j], per_cycle(x, s, k, 0, j),
                per_cycle(x, s, k, 1, j));
}

/* the figures' data in figures' order: the columns and one method's block */
static const struct {
    const char *head;
    e9_block block;
} figure_kind[] = {{"load_ratio,incline_drift_m,push_drift_m", creep_block},
                   {"dt_s,onset_error", onset_block},
                   {"angle_deg,onset_ratio", aniso_block},
                   {"dt_s,symmetric_per_cycle_m,one_sided_per_cycle_m", ratchet_block}};

/* the figures' data: gnuplot blocks, one per method (creep: per load, ratio and drift at the
 * smallest step; onset and ratchet: per step; anisotropy: per angle) */
static tc_status figure_data(const tc_exp *x, const e9_state *s, int what, const char *file,
                             char *labels, size_t nl, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, file, &o, err);
    if (st) return st;
    labels[0] = 0;
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        tc_words_add(labels, nl, " ", "%s", tc_exp_label(x, k));
    fprintf(o.f, "# %s; one block per method: %s\n", figure_kind[what].head, labels);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        figure_kind[what].block(o.f, x, s, k);
        fprintf(o.f, "\n\n");
    }
    return tc_outfile_commit(&o, err);
}

static tc_status figures(tc_exp *x, const e9_state *s, tc_error *err) {
    const e9_setup *e = &s->e;
    static const char *const files[] = {"creep.csv", "onset.csv", "aniso.csv", "ratchet.csv"};
    char labels[4096], path[1200], lag[32], a[32];
    snprintf(lag, sizeof lag, "%.9f",
             sqrt(2 * e->mass * e->onset_speed * e->ramp_to * e9_threshold(e) / e->seconds) /
                 e9_threshold(e));
    ms(a, sizeof a, e->dt[0]);
    for (int q = 0; q < 4; q++) {
        tc_status st = figure_data(x, s, q, files[q], labels, sizeof labels, err);
        if (st) return st;
        tc_exp_path(x, files[q], path, sizeof path);
        tc_plot_var v[] = {{"datafile", path}, {"labels", labels}, {"lag", lag}, {"step", a}};
        if (q == 0)
            tc_exp_figure(x, "e9_creep.gp", v, 4, "fig_creep",
                          "E9 creep: drift over the run against the load's ratio to the "
                          "threshold (tan θ / μ on the incline, F / (μ m g) for the push), "
                          "at the smallest step, log scale (truth: 0; below 1e-12 m drawn at "
                          "1e-12 m); a panel per family: constraint solvers, force laws, "
                          "engines.");
        else if (q == 1)
            tc_exp_figure(x, "e9_onset.gp", v, 4, "fig_onset",
                          "E9 onset: |onset error| against the step (log-log), a panel per "
                          "family of methods; black dashed: an exact Coulomb box's lag behind μ m "
                          "g at the speed threshold.");
        else if (q == 2 && e->nangle > 1)
            tc_exp_figure(x, "e9_aniso.gp", v, 4, "fig_aniso",
                          "E9 anisotropy: the onset force over μ m g against the push's angle "
                          "in the plane, at the smallest step, a panel per family of methods "
                          "(truth: 1, the solid black line; the dotted black line is the "
                          "sub-threshold push: a method below it slides under that push).");
        else if (q == 3 && e->nratchet)
            tc_exp_figure(x, "e9_ratchet.gp", v, 4, "fig_ratchet",
                          "E9 ratcheting: |net drift per cycle| of the oscillating push against "
                          "the step (log-log; truth 0, below 1e-12 m drawn at 1e-12 m); a row "
                          "per load, a panel per family of methods.");
    }
    return TC_OK;
}

/* the findings' lists of methods, one per verdict */
typedef struct e9_findings {
    char stick[2048], creep[2048], on[2048], off[2048], round[2048], pyramid[2048];
} e9_findings;

/* method k's worst creep over every sub-threshold run at every step, into stick or creep */
static void creep_findings(const tc_exp *x, const e9_state *s, int k, e9_findings *f) {
    const e9_setup *e = &s->e;
    double worst = 0;
    int any = 0, failed = 0;
    for (int i = 0; i < s->n; i++) {
        const e9_item *t = &s->it[i];
        const int kind = s->cond[t->cond].kind;
        if (t->method != k || (kind != E9_INCLINE && kind != E9_PUSH) ||
            s->cond[t->cond].angle != 0)
            continue;
        any = 1;
        if (!ok(x, t))
            failed = 1;
        else
            worst = fmax(worst, t->r.drift);
    }
    const char *label = tc_exp_label(x, k);
    if (!any) return;
    if (failed)
        tc_words_add(f->creep, sizeof f->creep, "; ", "`%s` (a run failed)", label);
    else if (worst < e->stick_speed * (e->seconds - e->settle))
        tc_words_add(f->stick, sizeof f->stick, "; ", "`%s` (%.2g m)", label, worst);
    else
        tc_words_add(f->creep, sizeof f->creep, "; ", "`%s` (%.2g m)", label, worst);
}

/* method k's anisotropy push at every angle at the smallest step (3-D), into round or pyramid */
static void aniso_findings(const tc_exp *x, const e9_state *s, int k, e9_findings *f) {
    char at[128] = "";
    if (s->planar[k] || !aniso_slides(x, s, k, at, sizeof at)) return;
    const char *label = tc_exp_label(x, k);
    if (at[0])
        tc_words_add(f->pyramid, sizeof f->pyramid, "; ", "`%s` (%s deg)", label, at);
    else
        tc_words_add(f->round, sizeof f->round, "; ", "`%s`", label);
}

/* method k's largest |onset error| over the steps, into on or off */
static void onset_findings(const tc_exp *x, const e9_state *s, int k, e9_findings *f) {
    const int cr = cond_index(s, E9_RAMP, 0, 0);
    double w = 0;
    int n = 0;
    for (int j = 0; j < s->e.ndt; j++) {
        const e9_item *t = find(s, k, cr, j);
        if (!t) continue;
        const double oe = onset_error(x, s, t);
        w = isnan(oe) || isnan(w) ? NAN : fmax(w, fabs(oe));
        n++;
    }
    const char *label = tc_exp_label(x, k);
    if (!n) return;
    if (!isnan(w) && w <= 0.01)
        tc_words_add(f->on, sizeof f->on, "; ", "`%s` (%.2g %%)", label, 100 * w);
    else if (isnan(w))
        tc_words_add(f->off, sizeof f->off, "; ", "`%s` (never slid, or failed)", label);
    else
        tc_words_add(f->off, sizeof f->off, "; ", "`%s` (%.2g %%)", label, 100 * w);
}

/* a list of methods, "none" when empty */
static const char *or_none(const char *w) {
    return w[0] ? w : "none";
}

/* the findings in words: who sticks below the threshold and who starts within 1 % */
static void findings(tc_exp *x, const e9_state *s) {
    const e9_setup *e = &s->e;
    e9_findings f = {0};
    char a[32];
    ms(a, sizeof a, e->dt[0]);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        creep_findings(x, s, k, &f);
        aniso_findings(x, s, k, &f);
        onset_findings(x, s, k, &f);
    }
    tc_exp_text(x,
                "**Findings** against the closed-form truth (no drift below mu m g, sliding "
                "from mu m g on). Sticks in every sub-threshold run at every step (largest drift "
                "below %g m, i.e. a mean speed under %g m/s): %s. Creeps (largest drift over "
                "the sub-threshold runs): %s.",
                e->stick_speed * (e->seconds - e->settle), e->stick_speed, or_none(f.stick),
                or_none(f.creep));
    tc_exp_text(x,
                "Onset within 1 %% of mu m g at every step (largest |error|; an exact Coulomb box "
                "lags by %.2g %% at the speed threshold): %s. Beyond: %s.",
                lag_percent(e), or_none(f.on), or_none(f.off));
    tc_exp_text(x,
                "Anisotropy (3-D, step %s): a push of %g mu m g sticks at every angle for %s; it "
                "slides at some angle (listed) for %s.",
                a, e->aniso, or_none(f.round), or_none(f.pyramid));
}

static tc_status e9_run_fn(tc_exp *x, void *state, tc_error *err) {
    e9_state *s = state;
    const e9_setup *e = &s->e;
    s->x = x;
    if (tc_exp_nmethod(x) > E9_MAXMETHOD)
        return tc_script_fail(tc_exp_script(x), NULL, "methods", err,
                              "E9 takes at most %d methods (got %d)", E9_MAXMETHOD,
                              tc_exp_nmethod(x));
    tc_status st = plan_items(x, s);
    if (st) return st;
    /* the costs: steps */
    double *cost = calloc((size_t)s->n + 1, sizeof *cost);
    if (!cost) return TC_ENOMEM;
    for (int i = 0; i < s->n; i++)
        cost[i] = e->seconds / e->dt[s->it[i].idt];
    st = tc_exp_sweep_split(x, s->n, NULL, cost, e9_work, e9_regions, s);
    free(cost);
    if (st) return st;
    findings(x, s);
    char dts[128] = "";
    for (int j = 0; j < e->ndt; j++)
        tc_words_add(dts, sizeof dts, ", ", "%g", 1e3 * e->dt[j]);
    tc_exp_text(x,
                "Tier `%s`. A %g kg cube of side %g m, mu = %g (mu m g = %.4g N, friction angle "
                "%.4g deg), %g s per run at steps of %s ms. Creep: on an incline (gravity turned, "
                "as in E7) at fractions of the friction angle, and on the flat plane under a "
                "constant push (an external force at the COM) along +x at fractions of mu m g. "
                "Onset: the push ramped from 0. Anisotropy: the push of %g mu m g and the ramp at "
                "angles in the plane. Ratcheting: an oscillating push, period %g s. Planar "
                "methods run the 2-D version (a square on a line).",
                tc_exp_tier(x), e->mass, 2 * e->half, e->mu, e9_threshold(e),
                atan(e->mu) * 180 / M_PI, e->seconds, dts, e->aniso, e->period);
    if (s->limited[0]) tc_exp_text(x, "Steps left out by the script's limits: %s.", s->limited);
    if (s->skipped[0])
        tc_exp_text(x,
                    "The pushes off +x (anisotropy) not run by %s: a planar method has one "
                    "tangent direction.",
                    s->skipped);
    if ((st = runs_csv(x, s, err)) || (st = summary_table(x, s, err)) ||
        (st = onset_table(x, s, err)) || (st = aniso_table(x, s, err)))
        return st;
    return figures(x, s, err);
}

/* the result files digested per method */
static const tc_results_file e9_results[] = {{"static.csv", TC_RESULTS_ROWS, NULL},
                                             {NULL, 0, NULL}};

/* the work: every condition at every step for every method */
static void e9_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e9_state *s = state;
    const e9_setup *e = &s->e;
    double steps = 0;
    for (int j = 0; j < e->ndt; j++)
        steps += s->ncond * ceil(e->seconds / e->dt[j]);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        w->steps += steps;
        w->seconds += steps * TC_WORK_STEP_S * tc_method_work_factor(tc_exp_method(x, k));
    }
    /* one two-body simulation per thread at a time (its residual buffers the largest part) */
    w->bytes = 65536.0 * tc_exp_threads(x);
}

const tc_experiment_type tc_experiment_e9 = {
    .name = "e9_static_friction",
    .title = "static friction: creep below the threshold, onset, anisotropy, ratcheting, per "
             "step size (closed forms; no paper)",
    .heading = "Static friction (E9)",
    .paper = "none: findings against closed forms, no drift below mu m g and sliding from it on",
    .script = "e9/e9_static_friction.cfg",
    .results = e9_results,
    .setup = e9_setup_fn,
    .run = e9_run_fn,
    .free = e9_free,
    .estimate = e9_estimate,
};
