/* SPDX-License-Identifier: MIT */
/* E4 runs: one simulation of a study with the method-independent measurements, and the speed
 * study (penalty vs LCP steps per second on piles of growing size, serially, in one run) */
#include "e4.h"
#include "math/tc_vec.h"
#include "collide/tc_penetration.h"
#include "report/tc_progress.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void e4_perturbations(const e4_setup *e, double (*force)[3]) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)e->b_seed);
    for (int c = 0; c < e->b_cycles; c++) {
        force[c][0] = gsl_rng_uniform(r) - 0.5;
        force[c][1] = gsl_rng_uniform(r) - 0.5;
        force[c][2] = e->b_force_lo + (e->b_force_hi - e->b_force_lo) * gsl_rng_uniform(r);
    }
    gsl_rng_free(r);
}

/* the perturbing wrench at step k of study (b): a downward force at a top point of the block,
 * held `on` steps, then `off` steps free, after `settle` free steps */
static void perturb(const e4_setup *e, const double (*force)[3], long k, const tc_body_state *b,
                    tc_wrench *w) {
    memset(w, 0, sizeof *w);
    long t = k - e->b_settle, period = e->b_on + e->b_off;
    if (t < 0 || t / period >= e->b_cycles || t % period >= e->b_on) return;
    const double *f = force[t / period], top[3] = {f[0], f[1], 0.5};
    double r[3], F[3] = {0, 0, -f[2]};
    /* the body-fixed point in the world, torque about the COM */
    tc_m3_mulv(r, b->R, top);
    w->f[2] = F[2];
    tc_v3_cross(w->t, r, F);
}

void e4_simulate(const e4_setup *e, const tc_scene *sc, const tc_method *m, int study, long steps,
                 int every, const double (*force)[3], e4_series *out) {
    memset(out->summary.reason, 0, sizeof out->summary.reason);
    e4_summary *su = &out->summary;
    su->status = TC_OK, su->escaped = 0, su->mean_pen = 0, su->max_pen = 0, su->final_ke = NAN;
    su->peak_ke = 0;
    su->iters = su->fails = 0, su->steps = 0;
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    tc_body_state *bs = calloc((size_t)sc->nbody, sizeof *bs);
    if (!bs || tc_sim_alloc(&sim, sc, m, e->dt, &err)) {
        su->status = bs ? TC_EINVAL : TC_ENOMEM;
        snprintf(su->reason, sizeof su->reason, "%s", bs ? err.msg : "out of memory");
        free(bs);
        return;
    }
    const tc_system *sys = tc_sim_system(sim);
    int block = 1;
    long measured = 0;
    double t0 = tc_wall_time();
    for (long k = 0; k < steps; k++) {
        tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
        if (study == E4_PERTURBED) perturb(e, force, k, &bs[block], &tc_sim_xfrc(sim)[block]);
        tc_status st = tc_sim_step(sim);
        if (st) {
            su->status = st;
            tc_sim_warnings(sim, su->reason, (int)sizeof su->reason);
            for (char *c = su->reason; *c; c++)
                if (*c == '\n' || *c == '"') *c = ' ';
            break;
        }
        su->steps = k + 1;
        /* measurements after the step */
        tc_system_kinematics(sys, tc_sim_time(sim), tc_sim_q(sim), tc_sim_v(sim), bs);
        double pen = e4_penetration(sc, bs), ke = e4_kinetic(sc, bs);
        if (out->ke && k % every == 0 && k / every < out->n)
            out->ke[k / every] = ke, out->pen[k / every] = pen;
        int counted = study != E4_PERTURBED || k >= e->b_settle;
        if (counted) su->mean_pen += pen, su->max_pen = fmax(su->max_pen, pen), measured++;
        su->final_ke = ke, su->peak_ke = fmax(su->peak_ke, ke);
    }
    su->wall_s = tc_wall_time() - t0;
    su->mean_pen = measured ? su->mean_pen / measured : NAN;
    /* the pile: bodies that left the container */
    if (study == E4_PILE)
        for (int i = 0; i < sc->nbody; i++)
            if (sc->body[i].joint == TC_JOINT_FREE && e4_escaped(e, sc, bs, i)) su->escaped++;
    const tc_sim_stats *ss = tc_sim_get_stats(sim);
    su->iters = ss->solver_iters, su->fails = ss->solver_fails;
    tc_sim_free(sim);
    free(bs);
}

#define E4_MAXCONTACT 4096

tc_status e4_speed(const e4_setup *e, const tc_method *ref, const tc_method *const *m, int nm,
                   e4_speed_row *rows, tc_error *err) {
    tc_model_contact *contact_buf = malloc(E4_MAXCONTACT * sizeof *contact_buf);
    if (!contact_buf) return TC_ENOMEM;
    tc_status st = TC_OK;
    for (int s = 0; s < e->d_n; s++) {
        e4_speed_row *row = &rows[s];
        memset(row, 0, sizeof *row);
        row->bodies = e->d_sizes[s];
        tc_scene sc;
        if ((st = e4_pile_scene(e, row->bodies, e->c_seed, &sc, err))) break;
        /* settle the pile with the reference method, then time each method from there */
        tc_sim *settle = NULL;
        if ((st = tc_sim_alloc(&settle, &sc, ref, e->dt, err))) break;
        long nsettle = (long)ceil(e->c_seconds / e->dt);
        for (long k = 0; k < nsettle && !st; k++) st = tc_sim_step(settle);
        if (st) {
            tc_sim_free(settle);
            st = tc_error_set(err, st, NULL, 0, "speed", "settling a %d-body pile failed",
                              row->bodies);
            break;
        }
        const tc_system *sys = tc_sim_system(settle);
        tc_body_state bs[TC_SCENE_MAXBODY];
        tc_system_kinematics(sys, tc_sim_time(settle), tc_sim_q(settle), tc_sim_v(settle), bs);
        /* pairs in contact at the start (method independent) */
        for (int a = 0; a < sc.nbody; a++)
            for (int b = a + 1; b < sc.nbody; b++) {
                if (sc.body[a].joint == TC_JOINT_FIXED && sc.body[b].joint == TC_JOINT_FIXED) continue;
                double d, n[3], p[3];
                if (tc_deepest(&sc.body[a].shape, &bs[a], &sc.body[b].shape, &bs[b], &d, n, p) == 1)
                    row->pairs++;
            }
        for (int i = 0; i < nm && i < E4_MAXSPEED; i++) {
            tc_sim *sim = NULL;
            if ((st = tc_sim_alloc(&sim, &sc, m[i], e->dt, err))) break;
            memcpy(tc_sim_q(sim), tc_sim_q(settle), (size_t)sys->nq * sizeof(double));
            memcpy(tc_sim_v(sim), tc_sim_v(settle), (size_t)sys->nv * sizeof(double));
            if (i == 0) row->lcp_contacts = tc_sim_contacts(sim, contact_buf, E4_MAXCONTACT);
            double t0 = tc_wall_time(), contacts = 0;
            int k = 0;
            for (; k < e->d_steps; k++) {
                if (tc_sim_step(sim)) {
                    row->failed[i] = 1;
                    break;
                }
                contacts += tc_sim_get_stats(sim)->ncontact;
            }
            double wall = tc_wall_time() - t0;
            row->steps_s[i] = k > 0 ? k / wall : 0;
            row->contacts[i] = k > 0 ? contacts / k : 0;
            row->iters[i] = tc_sim_get_stats(sim)->solver_iters;
            tc_sim_free(sim);
        }
        tc_sim_free(settle);
        if (st) break;
    }
    free(contact_buf);
    return st;
}
