/* SPDX-License-Identifier: MIT */
/* the time-series simulation loop: steps with the driver's hooks, and after each the kinetic
 * energy, penetration and momentum, measured the same way for every method */
#include "exp/tc_experiment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/tc_progress.h"

tc_status tc_series_alloc(tc_series *s, long steps, int every, unsigned what) {
    memset(s, 0, sizeof *s);
    s->n = (int)((steps + every - 1) / every);
    double **arr[3] = {&s->ke, &s->pen, &s->mom};
    for (int k = 0; k < 3; k++)
        if (what & (1u << k)) {
            *arr[k] = calloc((size_t)s->n + 1, sizeof(double));
            if (!*arr[k]) {
                tc_series_free(s);
                return TC_ENOMEM;
            }
        }
    return TC_OK;
}

void tc_series_free(tc_series *s) {
    free(s->ke);
    free(s->pen);
    free(s->mom);
    s->ke = s->pen = s->mom = NULL;
}

/* the simulation's warnings as one line: the reason of a failed run */
static void reason_of(tc_sim *sim, tc_status st, char *buf, size_t n) {
    char w[2048] = "";
    tc_sim_warnings(sim, w, (int)sizeof w);
    size_t l = strlen(w);
    while (l && w[l - 1] == '\n')
        w[--l] = 0;
    for (char *c = w; *c; c++)
        if (*c == '\n') *c = ';';
    snprintf(buf, n, "%s", w[0] ? w : tc_status_str(st));
}

/* the measures after step k (0-based): sampled every `every` steps, summed from measure_from on;
 * returns 1 when the step counted towards the means */
static int measure(tc_sim *sim, const tc_sim_loop *loop, long k, tc_series *out) {
    const unsigned what = loop->series;
    double pen = 0, ke = NAN, lin[3] = {0, 0, 0};
    if (what)
        tc_sim_measure(sim, what & TC_SERIES_KINETIC ? &ke : NULL,
                       what & TC_SERIES_PENETRATION ? &pen : NULL,
                       what & TC_SERIES_MOMENTUM ? lin : NULL);
    const double mom = sqrt(lin[0] * lin[0] + lin[1] * lin[1] + lin[2] * lin[2]);
    if (k % loop->every == 0 && k / loop->every < out->n) {
        if (out->ke) out->ke[k / loop->every] = ke;
        if (out->pen) out->pen[k / loop->every] = pen;
        if (out->mom) out->mom[k / loop->every] = mom;
    }
    if (what & TC_SERIES_KINETIC) {
        out->final_ke = ke;
        out->peak_ke = fmax(out->peak_ke, ke);
    }
    if (k < loop->measure_from) return 0;
    out->mean_pen += pen;
    out->max_pen = fmax(out->max_pen, pen);
    out->mean_mom += mom;
    out->max_mom = fmax(out->max_mom, mom);
    return 1;
}

/* the summary of a loop before its first step */
static void series_reset(tc_series *out) {
    out->steps = 0;
    out->mean_pen = out->max_pen = 0;
    out->final_ke = NAN;
    out->peak_ke = 0;
    out->mean_mom = out->max_mom = 0;
    out->iters = out->fails = 0;
    out->wall_s = 0;
}

/* the steps with the hooks and the measures; *rise: the most the energy rose above its start (J,
 * when the loop checks it) */
static void steps(tc_sim *sim, const tc_sim_loop *loop, tc_series *out, tc_item *it, double *rise) {
    const double e0 = loop->energy_rise_max > 0 ? tc_sim_energy(sim) : 0;
    long measured = 0;
    for (long k = 0; k < loop->steps; k++) {
        if (tc_interrupted()) {
            it->status = TC_EINTR;
            snprintf(it->reason, sizeof it->reason, "interrupted");
            break;
        }
        if (loop->before) loop->before(loop->ctx, sim, k);
        tc_status st = tc_sim_step(sim);
        if (st) {
            it->status = st;
            reason_of(sim, st, it->reason, sizeof it->reason);
            break;
        }
        out->steps = k + 1;
        measured += measure(sim, loop, k, out);
        if (loop->energy_rise_max > 0) *rise = fmax(*rise, tc_sim_energy(sim) - e0);
        if (loop->after) loop->after(loop->ctx, sim, k);
    }
    out->mean_pen = measured ? out->mean_pen / measured : NAN;
    out->mean_mom = measured ? out->mean_mom / measured : NAN;
}

void tc_simulate(const tc_scene *sc, const tc_method *m, const tc_sim_loop *loop, tc_series *out,
                 tc_item *it) {
    series_reset(out);
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    if ((it->status = tc_sim_alloc(&sim, sc, m, loop->dt, &err))) {
        snprintf(it->reason, sizeof it->reason, "%s",
                 err.msg[0] ? err.msg : tc_status_str(it->status));
        return;
    }
    /* every dynamic run's physical residuals (docs/residuals.md) */
    if ((it->status = tc_sim_track_residuals(sim, 1))) {
        tc_sim_free(sim);
        return;
    }
    /* energy from nothing: the most it rose above the start */
    double rise = 0;
    double t0 = tc_wall_time();
    steps(sim, loop, out, it, &rise);
    /* a run that finished but made energy from nothing is physically absurd: failed */
    if (it->status == TC_OK && rise > loop->energy_rise_max && loop->energy_rise_max > 0) {
        it->status = TC_EDIVERGED;
        snprintf(it->reason, sizeof it->reason,
                 "implausible: energy grew without input, %.3g J above the start (more than %.3g "
                 "J, lifting the body by its own size)",
                 rise, loop->energy_rise_max);
    }
    out->wall_s = tc_wall_time() - t0;
    if (loop->end) loop->end(loop->ctx, sim);
    const tc_sim_stats *ss = tc_sim_get_stats(sim);
    out->iters = ss->solver_iters;
    out->fails = ss->solver_fails;
    it->steps = out->steps;
    tc_item_residuals(it, sim);
    tc_sim_free(sim);
}
