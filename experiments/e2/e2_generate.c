/* SPDX-License-Identifier: MIT */
/* E2 trajectories: cross-entropy search over finger waypoints towards five goal poses */
#include "experiments/e2/e2.h"
#include "core/tc_fs.h"
#include "report/tc_progress.h"
#include "core/tc_provenance.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cost of a rollout: distance to the goal pose, plus a penalty below two touch-and-release
 * episodes (the paper's trajectories each make and break contact at least twice) */
static double cost(const e2_result *r, const double goal[3]) {
    if (r->status) return INFINITY;
    double dx = r->final[0] - goal[0], dy = r->final[1] - goal[1];
    double dth = remainder(r->final[2] - goal[2], 2 * M_PI);
    int short_by = 2 - (r->contacts < r->breaks ? r->contacts : r->breaks);
    double miss = short_by > 0 ? short_by : 0;
    return (dx * dx + dy * dy) / (0.02 * 0.02) + dth * dth / (0.2 * 0.2) + 25 * miss * miss;
}

/* waypoints 1..n-1 from a parameter vector (waypoint 0 is the finger's start) */
static void to_traj(const e2_setup *e, const double *z, int n, e2_traj *tr) {
    double s[2];
    tc_t_pusher_start(&e->scene, s);
    tr->n = n;
    tr->x[0] = s[0];
    tr->y[0] = s[1];
    for (int i = 1; i < n; i++) {
        tr->x[i] = z[2 * (i - 1)];
        tr->y[i] = z[2 * (i - 1) + 1];
    }
}

/* sort helper: costs with their sample index, ties broken by index (deterministic) */
typedef struct ranked {
    double c;
    int i;
} ranked;
static int by_cost(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->c < y->c) return -1;
    if (x->c > y->c) return 1;
    return x->i - y->i;
}

tc_status e2_generate(const e2_setup *e, const char *spec, const char *out_path, int threads,
                      tc_error *err) {
    tc_scene sc;
    tc_method m;
    tc_status st = tc_scene_t_pusher(&sc, &e->scene, err);
    if (!st) st = tc_method_parse(&m, spec, err);
    if (st) return st;
    const double dt = 0.002;
    const int n = (int)lround(e->duration / e->waypoint_dt) + 1, dim = 2 * (n - 1);
    const int P = e->population;
    double *z = calloc((size_t)P * dim, sizeof *z), mean[2 * E2_MAXWAY], sd[2 * E2_MAXWAY];
    double best_z[E2_MAXTRAJ][2 * E2_MAXWAY], best_c[E2_MAXTRAJ];
    e2_result best_r[E2_MAXTRAJ];
    ranked *rk = calloc((size_t)P, sizeof *rk);
    e2_result *res = calloc((size_t)P, sizeof *res);
    e2_traj *tr = calloc((size_t)P, sizeof *tr);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!z || !rk || !res || !tr || !rng) {
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory for %d samples", P);
        goto done;
    }
    tc_progress prog;
    tc_progress_start(&prog, "e2 generate", (long)e->ngoal * e->iterations);
    for (int g = 0; g < e->ngoal; g++) {
        gsl_rng_set(rng, (unsigned long)e->seed + (unsigned long)g);
        /* start: the finger sweeps from its start towards the goal position, through the stem */
        double s[2];
        tc_t_pusher_start(&e->scene, s);
        for (int i = 0; i < n - 1; i++) {
            double f = (i + 1.0) / (n - 1);
            mean[2 * i] = s[0] + f * e->goal[g][0];
            mean[2 * i + 1] = s[1] + f * (e->goal[g][1] + 0.12);
            sd[2 * i] = sd[2 * i + 1] = e->sigma;
        }
        best_c[g] = INFINITY;
        char why[256] = "";
        for (int it = 0; it < e->iterations && !st; it++) {
            /* samples drawn in a fixed order; sample 0 is the mean itself */
            for (int p = 0; p < P; p++)
                for (int d = 0; d < dim; d++)
                    z[(size_t)p * dim + d] = mean[d] + (p ? gsl_ran_gaussian(rng, sd[d]) : 0);
#pragma omp parallel for schedule(dynamic) num_threads(threads)
            for (int p = 0; p < P; p++) {
                to_traj(e, z + (size_t)p * dim, n, &tr[p]);
                e2_rollout(e, &sc, &m, dt, &tr[p], NULL, 0, &res[p]);
                rk[p].c = cost(&res[p], e->goal[g]);
                rk[p].i = p;
            }
            qsort(rk, (size_t)P, sizeof *rk, by_cost);
            if (!why[0] && res[0].status) snprintf(why, sizeof why, "%s", res[0].reason);
            if (rk[0].c < best_c[g]) {
                best_c[g] = rk[0].c;
                best_r[g] = res[rk[0].i];
                memcpy(best_z[g], z + (size_t)rk[0].i * dim, (size_t)dim * sizeof(double));
            }
            /* refit mean and spread to the elites (spread floored at 2 mm) */
            for (int d = 0; d < dim; d++) {
                double mu = 0, var = 0;
                for (int k = 0; k < e->elites; k++)
                    mu += z[(size_t)rk[k].i * dim + d] / e->elites;
                for (int k = 0; k < e->elites; k++) {
                    double u = z[(size_t)rk[k].i * dim + d] - mu;
                    var += u * u / e->elites;
                }
                mean[d] = mu;
                sd[d] = fmax(sqrt(var), 0.002);
            }
            tc_progress_tick(&prog);
        }
        /* a goal whose every rollout failed has no trajectory to write */
        if (!(best_c[g] < INFINITY)) {
            st = tc_error_set(err, TC_EDIVERGED, NULL, 0, "generate",
                              "every rollout towards goal %d failed (%s): nothing written", g + 1,
                              why[0] ? why : "no finite cost");
            break;
        }
    }
    tc_progress_end(&prog);
    if (st) goto done;
    /* the winners, with their provenance */
    e2_traj out[E2_MAXTRAJ];
    char prov[4096], now[64], host[128];
    tc_utc_now(now, sizeof now);
    tc_host_desc(host, sizeof host);
    int len = snprintf(prov, sizeof prov,
                       "# E2 finger trajectories, generated by `touche generate e2` "
                       "(experiments/e2/e2_generate.c)\n"
                       "# when: %s; revision: %s; host: %s\n"
                       "# how: cross-entropy search, method %s, dt %g s, population %d, elites %d, "
                       "iterations %d, sigma %g m, seed %d, duration %g s, waypoint_dt %g s\n",
                       now, tc_revision(), host, spec, dt, P, e->elites, e->iterations, e->sigma,
                       e->seed, e->duration, e->waypoint_dt);
    for (int g = 0; g < e->ngoal && len < (int)sizeof prov; g++) {
        to_traj(e, best_z[g], n, &out[g]);
        len += snprintf(prov + len, sizeof prov - (size_t)len,
                        "# traj %d: goal (%g m, %g m, %g rad) reached (%.4f m, %.4f m, %.4f rad), "
                        "cost %.3g, contact episodes %d made / %d broken\n",
                        g, e->goal[g][0], e->goal[g][1], e->goal[g][2], best_r[g].final[0],
                        best_r[g].final[1], best_r[g].final[2], best_c[g], best_r[g].contacts,
                        best_r[g].breaks);
    }
    st = e2_write_trajectories(out_path, out, e->ngoal, e, prov, err);
done:
    if (rng) gsl_rng_free(rng);
    free(z);
    free(rk);
    free(res);
    free(tr);
    return st;
}

tc_status e2_generate_hook(const tc_gen_opts *o, tc_error *err) {
    /* the script gives the scene and the search settings */
    char script[1100], path[1100];
    snprintf(script, sizeof script, "%s/experiments/e2/e2_t_pushing.cfg", o->source_dir);
    tc_script *s = NULL;
    e2_setup e;
    tc_status st = tc_script_load(&s, script, "quick", err);
    if (st) return st;
    st = e2_read_setup(s, &e, err);
    tc_script_free(s);
    if (st) return st;
    tc_path_under(o->source_dir, e.trajectories, path, sizeof path);
    st = e2_generate(&e, o->method ? o->method : e.reference_spec, o->out ? o->out : path,
                     o->threads, err);
    if (!st) fprintf(stderr, "e2: wrote %s\n", o->out ? o->out : path);
    return st;
}
