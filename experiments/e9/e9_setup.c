/* SPDX-License-Identifier: MIT */
/* E9 setup: every setting by dotted path (a tier may override any), the scenes, the loads and
 * the measures of one run */
#include "experiments/e9/e9.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const tc_field e9_fields[] = {
    TC_FIELD_R(e9_setup, gravity, "scene.gravity", 1e-3, 100),
    TC_FIELD_R(e9_setup, mu, "scene.friction", 1e-3, 10),
    TC_FIELD_R(e9_setup, half, "scene.half_size", 1e-3, 10),
    TC_FIELD_R(e9_setup, mass, "scene.mass", 1e-3, 1e6),
    TC_FIELD_R(e9_setup, seconds, "run.seconds", 1e-3, 1e4),
    TC_FIELD_R(e9_setup, settle, "run.settle", 0, 1e4),
    TC_FIELD_R(e9_setup, stick_speed, "run.stick_speed", 0, 10),
    TC_FIELD_RS(e9_setup, dt, ndt, "run.dt", 1e-6, 0.1),
    TC_FIELD_RS(e9_setup, incline, nincline, "creep.incline", 0, 1),
    TC_FIELD_RS(e9_setup, push, npush, "creep.push", 0, 10),
    TC_FIELD_R(e9_setup, ramp_to, "onset.ramp_to", 1e-3, 100),
    TC_FIELD_R(e9_setup, onset_speed, "onset.speed", 1e-12, 10),
    TC_FIELD_R(e9_setup, aniso, "anisotropy.push", 0, 10),
    TC_FIELD_RS(e9_setup, angle, nangle, "anisotropy.angles", -360, 360),
    TC_FIELD_R(e9_setup, period, "ratchet.period", 1e-4, 1e4),
    TC_FIELD_RS(e9_setup, r_mean, nmean, "ratchet.mean", -10, 10),
    TC_FIELD_RS(e9_setup, r_amp, nratchet, "ratchet.amplitude", 0, 10),
    TC_FIELD_END};

/* limits: ( { label = "..."; dt = [...]; why = "..."; }, ... ), each dt one of run.dt */
static tc_status read_limits(const tc_script *s, e9_setup *e, tc_error *err) {
    static const tc_field fields[] = {TC_FIELD_S(e9_limit, label, "label"),
                                      TC_FIELD_RS(e9_limit, dt, ndt, "dt", 1e-6, 0.1),
                                      TC_FIELD_S(e9_limit, why, "why"), TC_FIELD_END};
    tc_status lst =
        tc_script_list(s, "limits", 0, E9_MAXLIMIT,
                       "groups { label = ...; dt = [...]; why = ...; }", NULL, &e->nlimit, err);
    if (lst) return lst;
    for (int i = 0; i < e->nlimit; i++) {
        char path[32];
        snprintf(path, sizeof path, "limits.[%d]", i);
        tc_status st = tc_script_read(s, path, fields, &e->limit[i], err);
        if (st) return st;
        for (int q = 0; q < e->limit[i].ndt; q++) {
            int found = 0;
            for (int j = 0; j < e->ndt; j++)
                found |= e->limit[i].dt[q] == e->dt[j];
            if (!found)
                return tc_script_fail_at(s, path, err, "dt entry %d (%g s) is not one of run.dt",
                                         q + 1, e->limit[i].dt[q]);
        }
    }
    return TC_OK;
}

tc_status e9_read_setup(const tc_script *s, e9_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st = tc_script_read(s, NULL, e9_fields, e, err);
    if (st) return st;
    if (e->settle >= e->seconds)
        return tc_script_fail_at(s, "run.settle", err, "must be below run.seconds (%g s)",
                                 e->seconds);
    if (e->ndt < 1) return tc_script_fail_at(s, "run.dt", err, "needs at least one step size (s)");
    if (e->nmean != e->nratchet)
        return tc_script_fail_at(s, "ratchet.mean", err,
                                 "needs one mean per amplitude: %d for the %d of ratchet.amplitude",
                                 e->nmean, e->nratchet);
    for (int i = 0; i < e->ndt; i++)
        if (e->dt[i] > e->settle)
            return tc_script_fail_at(s, "run.dt", err,
                                     "entry %d (%g s) is longer than run.settle (%g s)", i + 1,
                                     e->dt[i], e->settle);
    return read_limits(s, e, err);
}

int e9_runs_step(const e9_setup *e, const char *label, int j, const char **why) {
    *why = NULL;
    for (int i = 0; i < e->nlimit; i++) {
        const e9_limit *l = &e->limit[i];
        if (strcmp(l->label, label)) continue;
        for (int q = 0; q < l->ndt; q++)
            if (l->dt[q] == e->dt[j]) return 1;
        *why = l->why;
        return 0;
    }
    return 1;
}

double e9_threshold(const e9_setup *e) {
    return e->mu * e->mass * e->gravity;
}

double e9_incline_angle(const e9_setup *e, double f) {
    return f * atan(e->mu);
}

tc_status e9_scene(const e9_setup *e, const e9_cond *c, int planar, tc_scene *sc, tc_error *err) {
    const double tilt = c->kind == E9_INCLINE ? e9_incline_angle(e, c->fraction) : 0;
    return tc_scene_box_on_incline(sc, e->gravity, tilt, e->mu, e->half, e->mass, planar, err);
}

double e9_push(const e9_setup *e, const e9_cond *c, double t) {
    const double F = e9_threshold(e);
    switch (c->kind) {
    case E9_PUSH:
        return c->fraction * F;
    case E9_RAMP:
        return e->ramp_to * F * t / e->seconds;
    case E9_RATCHET:
        return (c->mean + c->amp * sin(2 * M_PI * t / e->period)) * F;
    default:
        return 0;
    }
}

/* what the step hooks share */
typedef struct run_ctx {
    const e9_setup *e;
    const e9_cond *c;
    int planar;
    double dt, u[2];              /* the push's direction in the plane */
    double p0[2];                 /* the start, in the plane (m) */
    double d_settle[2], d_end[2]; /* m, in the plane from the start */
    long k_settle;                /* the first step ending at or after settle */
    long k_cycle;                 /* steps per period (0: not a whole number of steps) */
    double f_now;                 /* the push of the current step (N) */
    double x_cycle1;              /* x after the first period */
    int have_cycle1;
    double x_last; /* x after the last whole period */
    long n_cycles;
    e9_result *r;
} run_ctx;

/* the box's COM in the plane: x, y in 3-D; x and 0 in 2-D (y is the normal) */
static void in_plane(const run_ctx *c, const double p[3], double out[2]) {
    out[0] = p[0] - c->p0[0];
    out[1] = c->planar ? 0 : p[1] - c->p0[1];
}

static void before(void *ctx, tc_sim *sim, long k) {
    run_ctx *c = ctx;
    tc_wrench *w = &tc_sim_xfrc(sim)[1];
    if (k == 0) {
        const tc_body_state *b = &tc_sim_bodies(sim)[1];
        c->p0[0] = b->pos[0];
        c->p0[1] = b->pos[1];
    }
    c->f_now = e9_push(c->e, c->c, (double)k * c->dt);
    w->f[0] = c->f_now * c->u[0];
    w->f[1] = c->f_now * c->u[1];
}

static void after(void *ctx, tc_sim *sim, long k) {
    run_ctx *c = ctx;
    e9_result *r = c->r;
    const tc_body_state *b = &tc_sim_bodies(sim)[1];
    double d[2];
    in_plane(c, b->pos, d);
    memcpy(c->d_end, d, sizeof d);
    r->done = k + 1;
    if (k == c->k_settle) memcpy(c->d_settle, d, sizeof d);
    /* the onset: the speed along the push above the threshold, from settle on */
    const double vu = b->vel[0] * c->u[0] + (c->planar ? 0 : b->vel[1] * c->u[1]);
    if (c->c->kind == E9_RAMP && k >= c->k_settle && isnan(r->onset_force) &&
        vu > c->e->onset_speed)
        r->onset_force = c->f_now;
    /* the ratchet: x at the end of every whole period */
    if (c->c->kind == E9_RATCHET && c->k_cycle > 0 && (k + 1) % c->k_cycle == 0) {
        if (!c->have_cycle1) {
            c->x_cycle1 = d[0];
            c->have_cycle1 = 1;
        }
        c->x_last = d[0];
        c->n_cycles++;
    }
}

void e9_simulate(const e9_setup *e, const e9_cond *c, const tc_scene *sc, int planar,
                 const tc_method *m, double dt, e9_result *r, tc_item *it) {
    *r = (e9_result){NAN, NAN, NAN, NAN, NAN, 0};
    const double a = c->angle * M_PI / 180;
    const long steps = (long)ceil(e->seconds / dt - 1e-9);
    const double kc = e->period / dt;
    run_ctx x = {.e = e,
                 .c = c,
                 .planar = planar,
                 .dt = dt,
                 .u = {cos(a), sin(a)},
                 .k_settle = (long)ceil(e->settle / dt - 1e-9) - 1,
                 .k_cycle = fabs(kc - round(kc)) < 1e-9 ? (long)round(kc) : 0,
                 .r = r};
    if (x.k_settle < 0) x.k_settle = 0;
    if (planar) {
        x.u[0] = 1;
        x.u[1] = 0;
    }
    /* the push adds energy (the ramp and the ratchet do work): the energy is not checked */
    tc_sim_loop loop = {
        .dt = dt, .steps = steps, .every = 1, .before = before, .after = after, .ctx = &x};
    tc_series out = {0};
    tc_simulate(sc, m, &loop, &out, it);
    /* the mean drift speed: the displacement since settle over the time between */
    const double secs = (double)(r->done - 1 - x.k_settle) * dt;
    if (r->done > x.k_settle) {
        r->slip0 = hypot(x.d_settle[0], x.d_settle[1]);
        r->drift = hypot(x.d_end[0] - x.d_settle[0], x.d_end[1] - x.d_settle[1]);
        r->speed = secs > 0 ? r->drift / secs : NAN;
    }
    if (x.n_cycles >= 2) r->per_cycle = (x.x_last - x.x_cycle1) / (double)(x.n_cycles - 1);
}
