/* SPDX-License-Identifier: MIT */
/* E4 runs: one study on the shared simulation loop, and the speed study (penalty vs LCP steps
 * per second on piles of growing size, serially, in one run) */
#include "experiments/e4/e4.h"
#include "core/tc_fs.h"
#include "math/tc_vec.h"
#include "models/tc_penalty.h"
#include "report/tc_progress.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void e4_perturbations(const e4_setup *e, double (*force)[3]) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)e->b_seed);
    for (int c = 0; c < e->b_cycles; c++) {
        force[c][0] = E4_HALF * (2 * gsl_rng_uniform(r) - 1);
        force[c][1] = E4_HALF * (2 * gsl_rng_uniform(r) - 1);
        force[c][2] = e->b_force_lo + (e->b_force_hi - e->b_force_lo) * gsl_rng_uniform(r);
    }
    gsl_rng_free(r);
}

double e4_perturbation_at(const e4_setup *e, const double (*force)[3], long k, double point[3]) {
    long t = k - e->b_settle, period = e->b_on + e->b_off;
    if (t < 0 || t / period >= e->b_cycles || t % period >= e->b_on) return 0;
    const double *f = force[t / period];
    point[0] = f[0];
    point[1] = f[1];
    point[2] = E4_HALF;
    return f[2];
}

tc_status e4_write_forces(const char *path, const e4_setup *e, const double (*force)[3],
                          tc_error *err) {
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f,
            "# x_m,y_m,z_m,magnitude_N; one line per cycle, the point on the top face of "
            "the cube at rest (centre at z = %g m), the force straight down\n",
            E4_HALF);
    /* each cycle's push as the run applies it, at the cycle's first force-on step */
    for (int c = 0; c < e->b_cycles; c++) {
        long first = e->b_settle + (long)c * (e->b_on + e->b_off);
        double p[3], F = e4_perturbation_at(e, force, first, p);
        fprintf(o.f, "%.17g,%.17g,%.17g,%.17g\n", p[0], p[1], E4_HALF + p[2], F);
    }
    return tc_outfile_commit(&o, err);
}

void e4_forget_series(double depth, double forget, int steps, double *integral) {
    integral[0] = 0;
    for (int t = 1; t <= steps; t++)
        integral[t] = tc_penalty_integral_update(integral[t - 1], forget, depth);
}

tc_status e4_write_forget(const char *path, const double *depth, int nd, const double *forget,
                          int nf, int steps, tc_error *err) {
    double *I = malloc((size_t)nd * (size_t)(steps + 1) * sizeof *I);
    if (!I) return TC_ENOMEM;
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) {
        free(I);
        return st;
    }
    fprintf(o.f, "# step,integral_m per depth (m):");
    for (int d = 0; d < nd; d++)
        fprintf(o.f, " %g", depth[d]);
    fprintf(o.f, "; one block per forgetting factor:");
    for (int l = 0; l < nf; l++)
        fprintf(o.f, " %g", forget[l]);
    fprintf(o.f, "\n");
    /* per factor: every depth's series, then one line per step */
    for (int l = 0; l < nf; l++) {
        for (int d = 0; d < nd; d++)
            e4_forget_series(depth[d], forget[l], steps, I + (size_t)d * (steps + 1));
        for (int t = 0; t <= steps; t++) {
            fprintf(o.f, "%d", t);
            for (int d = 0; d < nd; d++)
                fprintf(o.f, ",%.17g", I[(size_t)d * (steps + 1) + t]);
            fprintf(o.f, "\n");
        }
        fprintf(o.f, "\n\n");
    }
    free(I);
    return tc_outfile_commit(&o, err);
}

/* what a study's hooks need */
typedef struct study_ctx {
    const e4_setup *e;
    const double (*force)[3];
    e4_run *out;
    int study, every;
    double e0;   /* J: kinetic + gravitational energy before the first step */
    double work; /* J: the work the external wrenches ((b)'s pushes) have done since */
    double smin; /* m: the smallest moving body's size */
} study_ctx;

double e4_body_size(const tc_shape *sh) {
    const double *z = sh->size;
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        return 2 * z[0];
    case TC_SHAPE_BOX:
    case TC_SHAPE_ELLIPSOID:
        return 2 * fmin(z[0], fmin(z[1], z[2]));
    case TC_SHAPE_CYLINDER:
        return 2 * fmin(z[0], z[1]);
    case TC_SHAPE_POLYTOPE:
        return 2 * tc_polytope_radius(sh);
    default:
        return INFINITY;
    }
}

/* 1 for a body with degrees of freedom */
static int moving(const tc_body_desc *b) {
    return b->joint == TC_JOINT_FREE || b->joint == TC_JOINT_PLANAR;
}

int e4_implausible(const e4_run *r, char *why, size_t n) {
    const e4_sanity *c = &r->chk;
    if (c->energy_rise > c->energy_allow)
        snprintf(why, n,
                 "implausible: energy grew without input, %.3g J above the start (more "
                 "than lifting every body by its own size, %.3g J)",
                 c->energy_rise, c->energy_allow);
    else if (c->lowest < 0)
        snprintf(why, n,
                 "implausible: a body went through the floor (all of it below, its "
                 "centre more than half its size under it by %.3g m)",
                 -c->lowest);
    else if (c->deepest > 1)
        snprintf(why, n,
                 "implausible: a penetration %.3g times the size of the smaller body "
                 "of its pair",
                 c->deepest);
    else
        return 0;
    return 1;
}

/* the start's energy, the rise allowed and the smallest moving body's size (the measures start
 * as e4_simulate sets them) */
static void sanity_begin(study_ctx *c, tc_sim *sim) {
    const tc_scene *sc = tc_sim_scene(sim);
    e4_sanity *k = &c->out->chk;
    const double g = tc_v3_norm(sc->gravity);
    c->e0 = tc_sim_energy(sim);
    for (int i = 0; i < sc->nbody; i++)
        if (moving(&sc->body[i])) {
            double size = e4_body_size(&sc->body[i].shape);
            k->energy_allow += sc->body[i].mass * g * size;
            c->smin = fmin(c->smin, size);
        }
}

/* the pairs' penetrations over the smaller moving body's size, when the sample's largest
 * penetration pen (m) exceeds the smallest moving body's size (else no pair can) */
static void sanity_pairs(study_ctx *c, tc_sim *sim, double pen) {
    if (!(pen > c->smin)) return;
    const tc_scene *sc = tc_sim_scene(sim);
    for (int i = 0; i < sc->nbody; i++)
        for (int j = i + 1; j < sc->nbody; j++) {
            int mi = moving(&sc->body[i]), mj = moving(&sc->body[j]);
            if (!mi && !mj) continue;
            double gap = tc_sim_gap(sim, i, j);
            double size = fmin(mi ? e4_body_size(&sc->body[i].shape) : INFINITY,
                               mj ? e4_body_size(&sc->body[j].shape) : INFINITY);
            if (isfinite(gap) && gap < 0)
                c->out->chk.deepest = fmax(c->out->chk.deepest, -gap / size);
        }
}

/* after step k: the work of the external wrenches held over the step (their power at the step's
 * end times dt), the energy's rise beyond it, the lowest top, and at samples the deep pairs */
static void sanity_after(void *ctx, tc_sim *sim, long k) {
    study_ctx *c = ctx;
    e4_sanity *s = &c->out->chk;
    const tc_scene *sc = tc_sim_scene(sim);
    const tc_body_state *bs = tc_sim_bodies(sim);
    const tc_wrench *w = tc_sim_xfrc(sim);
    for (int i = 0; i < sc->nbody; i++)
        c->work += c->e->dt * (tc_v3_dot(w[i].f, bs[i].vel) + tc_v3_dot(w[i].t, bs[i].omega));
    s->energy_rise = fmax(s->energy_rise, tc_sim_energy(sim) - c->e0 - c->work);
    for (int i = 0; i < sc->nbody; i++)
        if (moving(&sc->body[i]))
            s->lowest = fmin(s->lowest, bs[i].pos[2] + 0.5 * e4_body_size(&sc->body[i].shape));
    const tc_series *ts = &c->out->s;
    if (ts->pen && k % c->every == 0 && k / c->every < ts->n)
        sanity_pairs(c, sim, ts->pen[k / c->every]);
}

/* (b) before step k: a downward force at a top point of the block, held `on` steps, then `off`
 * steps free, after `settle` free steps */
static void perturb(void *ctx, tc_sim *sim, long k) {
    const study_ctx *c = ctx;
    if (c->study != E4_PERTURBED) return;
    enum { BLOCK = 1 };
    tc_wrench *w = &tc_sim_xfrc(sim)[BLOCK];
    const tc_body_state *b = &tc_sim_bodies(sim)[BLOCK];
    memset(w, 0, sizeof *w);
    double top[3], F[3] = {0, 0, -e4_perturbation_at(c->e, c->force, k, top)}, r[3];
    if (F[2] == 0) return;
    /* the body-fixed point in the world, torque about the COM */
    tc_m3_mulv(r, b->R, top);
    w->f[2] = F[2];
    tc_v3_cross(w->t, r, F);
}

/* before step k: the start's energy before the first, then (b)'s push */
static void before_step(void *ctx, tc_sim *sim, long k) {
    if (k == 0) sanity_begin(ctx, sim);
    perturb(ctx, sim, k);
}

/* (c) at the end: the bodies that left the container */
static void count_escaped(void *ctx, tc_sim *sim) {
    const study_ctx *c = ctx;
    if (c->study != E4_PILE) return;
    const tc_scene *sc = tc_sim_scene(sim);
    const tc_body_state *bs = tc_sim_bodies(sim);
    for (int i = 0; i < sc->nbody; i++)
        if (sc->body[i].joint == TC_JOINT_FREE && tc_pile_escaped(&c->e->pile, bs[i].pos))
            c->out->escaped++;
}

void e4_simulate(const e4_setup *e, const tc_scene *sc, const tc_method *m, int study, long steps,
                 int every, const double (*force)[3], e4_run *out, tc_item *it) {
    study_ctx c = {e, force, out, study, every, 0, 0, INFINITY};
    out->escaped = 0;
    out->chk = (e4_sanity){0, 0, INFINITY, 0};
    tc_sim_loop loop = {.dt = e->dt,
                        .steps = steps,
                        .every = every,
                        .measure_from = study == E4_PERTURBED ? e->b_settle : 0,
                        .series = TC_SERIES_KINETIC | TC_SERIES_PENETRATION,
                        .before = before_step,
                        .after = sanity_after,
                        .end = count_escaped,
                        .ctx = &c};
    tc_simulate(sc, m, &loop, &out->s, it);
    /* a run that finished but is physically absurd is a failed run, with the reason */
    if (it->status == TC_OK && e4_implausible(out, it->reason, sizeof it->reason))
        it->status = TC_EDIVERGED;
}

#define E4_MAXCONTACT 4096

const char *e4_speed_methods(const tc_exp *x, const e4_setup *e, const tc_method **ref,
                             const tc_method **m, int *idx) {
    int settle = tc_exp_method_find(x, e->d_settle);
    if (settle < 0) return e->d_settle;
    *ref = tc_exp_method(x, settle);
    for (int i = 0; i < e->d_nlabel; i++) {
        idx[i] = tc_exp_method_find(x, e->d_label[i]);
        if (idx[i] < 0) return e->d_label[i];
        m[i] = tc_exp_method(x, idx[i]);
    }
    return NULL;
}

/* the pile of n bodies in sc, settled by method ref for c_seconds (*settle, for the caller to
 * free), and the pairs touching then (method independent) */
static tc_status settle_pile(const e4_setup *e, const tc_method *ref, int n, tc_scene *sc,
                             tc_sim **settle, int *pairs, tc_error *err) {
    tc_status st = e4_pile_scene(e, n, sc, err);
    if (!st) st = tc_sim_alloc(settle, sc, ref, e->dt, err);
    if (st) return st;
    long nsettle = (long)ceil(e->c_seconds / e->dt);
    for (long k = 0; k < nsettle && !st && !tc_interrupted(); k++)
        st = tc_sim_step(*settle);
    if (st) return tc_error_set(err, st, NULL, 0, "speed", "settling a %d-body pile failed", n);
    tc_sim_penetration(*settle, pairs);
    return TC_OK;
}

/* repeat rep of method i (m) from the settled state: d_steps steps, their wall time (s) into
 * *wall and row's total; the first repeat counts the method's contacts, solver iterations and
 * steps, and the baseline's (i = 0) contact points at the start */
static tc_status time_once(const e4_setup *e, const tc_scene *sc, const tc_sim *settle,
                           const tc_method *m, int i, int rep, tc_model_contact *buf,
                           e4_speed_row *row, double *wall, tc_error *err) {
    tc_sim *sim = NULL;
    tc_status st = tc_sim_alloc(&sim, sc, m, e->dt, err);
    if (st) return st;
    tc_sim_copy_state(sim, settle);
    if (i == 0 && rep == 0) row->lcp_contacts = tc_sim_contacts(sim, buf, E4_MAXCONTACT);
    double t0 = tc_wall_time(), contacts = 0;
    int k = 0;
    for (; k < e->d_steps && !tc_interrupted(); k++) {
        if (tc_sim_step(sim)) {
            row->failed[i] = 1;
            break;
        }
        contacts += tc_sim_get_stats(sim)->ncontact;
    }
    *wall = tc_wall_time() - t0;
    if (rep == 0) {
        row->contacts[i] = k > 0 ? contacts / k : 0;
        row->iters[i] = tc_sim_get_stats(sim)->solver_iters;
        row->steps[i] = k;
    }
    row->wall[i] += *wall;
    tc_sim_free(sim);
    return TC_OK;
}

tc_status e4_speed(const e4_setup *e, const tc_method *ref, const tc_method *const *m, int nm,
                   e4_speed_row *rows, tc_error *err) {
    tc_model_contact *buf = malloc(E4_MAXCONTACT * sizeof *buf);
    tc_scene *sc = malloc(sizeof *sc);
    if (!buf || !sc) {
        free(buf);
        free(sc);
        return TC_ENOMEM;
    }
    tc_status st = TC_OK;
    /* progress: per pile its settling, then each method's timings */
    tc_progress prog;
    tc_progress_start(&prog, "e4 speed", (long)e->d_n * (1 + (long)e->d_repeats * nm));
    for (int s = 0; s < e->d_n && !st && !tc_interrupted(); s++) {
        e4_speed_row *row = &rows[s];
        memset(row, 0, sizeof *row);
        row->bodies = e->d_sizes[s];
        tc_sim *settle = NULL;
        if (!(st = settle_pile(e, ref, row->bodies, sc, &settle, &row->pairs, err)))
            tc_progress_tick(&prog);
        /* the methods take turns, each from the settled state */
        double wall[E4_MAXSPEED][E4_MAXREPEAT] = {{0}};
        for (int rep = 0; rep < e->d_repeats && !st; rep++)
            for (int i = 0; i < nm && i < E4_MAXSPEED && !st; i++) {
                if (row->failed[i]) continue;
                st = time_once(e, sc, settle, m[i], i, rep, buf, row, &wall[i][rep], err);
                if (!st) tc_progress_tick(&prog);
            }
        /* a method's steps/s from the median of its repeats (a failed one's first) */
        for (int i = 0; i < nm && i < E4_MAXSPEED && !st; i++) {
            double w =
                row->failed[i] ? wall[i][0] : gsl_stats_median(wall[i], 1, (size_t)e->d_repeats);
            row->steps_s[i] = row->steps[i] > 0 ? row->steps[i] / w : 0;
        }
        tc_sim_free(settle);
    }
    tc_progress_end(&prog);
    free(buf);
    free(sc);
    return st ? st : tc_interrupted() ? TC_EINTR : TC_OK;
}
