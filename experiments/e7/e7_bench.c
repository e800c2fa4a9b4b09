/* SPDX-License-Identifier: MIT */
/* touche bench piles: E7's piles of compounds landed by velocity projection, then the time of a
 * step from the same landed state for every method of the bench (velocity projection on the
 * points, MuJoCo, the LCP on the same points), one after the other on one thread in one run,
 * written as CSV with the log-log slope of each method's step time against its contacts */
#include "experiments/e7/e7.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "report/tc_progress.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the methods timed: E7's script label when the script lists it (its parameters), else a spec */
static const struct {
    const char *label, *spec;
} e7_bench_methods[] = {
    {"points", "points/vp"},         /* velocity projection (Kaufman et al.) */
    {"mujoco", "mujoco"},            /* the baseline engine */
    {"points-lcp", "points/lcp-lemke"}, /* the LCP step on the same points */
};
/* the LCP's capacity in the bench: its dense M, (k + 2) max_contacts square twice over, is
 * 150 MB at 512 contacts; a pile with more counts a failed solve each step (the note says so) */
#define E7_BENCH_LCP_CONTACTS 512
#define E7_NBENCH ((int)(sizeof e7_bench_methods / sizeof e7_bench_methods[0]))

/* one method on one pile: mean step (s), contacts a step, failed solves, why it stopped early */
typedef struct bench_row {
    double step_s, contacts;
    long steps;
    long long fails;
    int over; /* stopped by the budget */
    char note[160];
} bench_row;

static int bench_usage(void) {
    fprintf(stderr, "usage: touche bench piles [--bodies a,b,...] [--land S] [--steps N] "
                    "[--budget S] [--out DIR]\n"
                    "  --bodies  pile sizes (default 100,300,1000: E7's full tier from 100 up)\n"
                    "  --land    seconds of landing by velocity projection first (default 2)\n"
                    "  --steps   steps timed per method from the landed pile (default 20)\n"
                    "  --budget  a method stops after this many seconds on one pile (default 20) and skips\n"
                    "            the larger piles\n");
    return 2;
}

/* time method m on scene sc from the landed simulation's state: up to steps steps or budget
 * seconds */
static void time_method(const tc_scene *sc, const tc_method *m, double dt, const tc_sim *landed,
                        long steps, double budget, bench_row *r) {
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    memset(r, 0, sizeof *r);
    r->step_s = r->contacts = NAN;
    if (tc_sim_alloc(&sim, sc, m, dt, &err)) {
        snprintf(r->note, sizeof r->note, "cannot run: %s", err.msg);
        return;
    }
    tc_sim_copy_state(sim, landed);
    double wall = 0, ncon = 0;
    tc_status st = TC_OK;
    while (r->steps < steps && wall < budget) {
        double t0 = tc_wall_time();
        st = tc_sim_step(sim);
        wall += tc_wall_time() - t0;
        if (st) break;
        r->steps++, ncon += tc_sim_get_stats(sim)->ncontact;
    }
    r->fails = tc_sim_get_stats(sim)->solver_fails;
    if (r->steps) r->step_s = wall / r->steps, r->contacts = ncon / r->steps;
    if (st) snprintf(r->note, sizeof r->note, "step %ld failed: %s", r->steps + 1, tc_status_str(st));
    else if ((r->over = r->steps < steps))
        snprintf(r->note, sizeof r->note, "stopped after %ld steps: over the %g s budget", r->steps, budget);
    char w[512] = "";
    tc_sim_warnings(sim, w, (int)sizeof w);
    if (!r->note[0] && w[0]) {
        /* the first warning (an engine dropping contacts, a solve stopped short) */
        char *nl = strchr(w, '\n');
        if (nl) *nl = 0;
        snprintf(r->note, sizeof r->note, "%s", w);
    }
    for (char *p = r->note; *p; p++)
        if (*p == ',' || *p == '"') *p = ';';
    tc_sim_free(sim);
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
        tc_error_set(err, st, NULL, 0, NULL, "landing the pile failed at t = %g s", tc_sim_time(sim));
        tc_sim_free(sim);
        return st;
    }
    *out = sim;
    return TC_OK;
}

int e7_bench(int argc, char **argv) {
    const char *out = "out/bench";
    int bodies[E7_MAXPILE] = {100, 300, 1000}, nb = 3;
    double land = 2.0, budget = 20;
    int steps = 20;
    const char *who = "touche bench piles";
    for (int i = 1; i < argc; i++) {
        int ok = 1;
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--bodies") && i + 1 < argc)
            ok = tc_arg_ints(who, "--bodies", argv[++i], 1, TC_SCENE_MAXBODY - 5, bodies, E7_MAXPILE, &nb);
        else if (!strcmp(argv[i], "--land") && i + 1 < argc)
            ok = tc_arg_real(who, "--land", argv[++i], 0, 100, &land);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc)
            ok = tc_arg_real(who, "--budget", argv[++i], 1e-3, 1e6, &budget);
        else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
            ok = tc_arg_int(who, "--steps", argv[++i], 1, 1000000, &steps);
        else return bench_usage();
        if (!ok) return 2;
    }
    /* E7 at its full tier: the pile, its step and the script's method parameters */
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    if (tc_exp_plan_builtin(&x, "e7_frictional", "full", &err)) return tc_bench_fail("piles", &err);
    e7_setup e;
    tc_status st = e7_read_setup(&x->script, &e, &err);
    tc_method m[E7_NBENCH];
    for (int k = 0; !st && k < E7_NBENCH; k++) {
        int j = tc_exp_method_find(x, e7_bench_methods[k].label);
        if (j >= 0) m[k] = x->method[j].m;
        else st = tc_method_parse(&m[k], e7_bench_methods[k].spec, &err);
        if (!st && j < 0 && m[k].solver && tc_params_find(&m[k].sparams, "max_contacts") >= 0)
            st = tc_method_set(&m[k], "max_contacts", E7_BENCH_LCP_CONTACTS, &err);
    }
    /* the sizes as piles of E7's kinds, each in the box of the script's nearest size scaled by
     * the cube root of the bodies (the script's own box for its own sizes) */
    double hw[E7_MAXPILE];
    for (int i = 0; i < nb; i++) {
        int near = 0;
        for (int j = 1; j < e.d_n; j++)
            if (fabs(log((double)bodies[i] / e.d_bodies[j])) < fabs(log((double)bodies[i] / e.d_bodies[near])))
                near = j;
        hw[i] = e.d_half_width[near] * cbrt((double)bodies[i] / e.d_bodies[near]);
    }
    e.d_n = nb;
    for (int i = 0; i < nb; i++) e.d_half_width[i] = hw[i], e.d_bodies[i] = bodies[i];
    tc_scene *sc = calloc(1, sizeof *sc);
    bench_row *row = calloc((size_t)nb * E7_NBENCH, sizeof *row);
    if (!st && (!sc || !row)) st = TC_ENOMEM;
    char path[1200];
    tc_outfile f;
    if (!st) {
        tc_path_join(path, sizeof path, out, "bench_piles.csv");
        st = tc_outfile_open(&f, path, &err);
    }
    if (st) {
        free(sc), free(row), tc_exp_free(x);
        return tc_bench_fail("piles", &err);
    }
    /* one thread: the timings compare the methods, not the machine's cores */
    omp_set_num_threads(1);
    fprintf(f.f, "bodies,label,spec,steps,step_s,contacts,per_contact_s,failed_solves,note\n");
    printf("%7s %-11s %7s %12s %10s %16s  %s\n", "bodies", "method", "steps", "step (ms)",
           "contacts", "per contact (us)", "note");
    for (int i = 0; i < nb && !st; i++) {
        tc_sim *landed = NULL;
        st = e7_pile_scene(&e, i, sc, NULL, &err);
        if (!st) st = land_pile(sc, &m[0], e.d_dt, land, &landed, &err);
        for (int k = 0; k < E7_NBENCH && !st; k++) {
            bench_row *r = &row[i * E7_NBENCH + k];
            /* a method over the budget on a smaller pile is not run on the larger ones */
            int over = -1;
            for (int j = 0; j < i && over < 0; j++)
                if (row[j * E7_NBENCH + k].over && bodies[j] <= bodies[i]) over = j;
            if (over >= 0) {
                memset(r, 0, sizeof *r);
                r->over = 1, r->step_s = r->contacts = NAN;
                snprintf(r->note, sizeof r->note, "skipped: over the budget on the %d-body pile", bodies[over]);
            } else
                time_method(sc, &m[k], e.d_dt, landed, steps, budget, r);
            double pc = r->contacts > 0 ? r->step_s / r->contacts : NAN;
            fprintf(f.f, "%d,%s,%s,%ld,%.6g,%.6g,%.6g,%lld,\"%s\"\n", bodies[i],
                    e7_bench_methods[k].label, m[k].spec, r->steps, r->step_s, r->contacts, pc,
                    r->fails, r->note);
            printf("%7d %-11s %7ld %12.4g %10.5g %16.4g  %s\n", bodies[i], e7_bench_methods[k].label,
                   r->steps, 1e3 * r->step_s, r->contacts, 1e6 * pc, r->note);
            fflush(stdout);
        }
        tc_sim_free(landed);
    }
    /* each method's log-log slope of step time against contacts over the sizes */
    for (int k = 0; k < E7_NBENCH && !st && nb > 1; k++) {
        double cx[E7_MAXPILE], ty[E7_MAXPILE];
        for (int i = 0; i < nb; i++)
            cx[i] = row[i * E7_NBENCH + k].contacts, ty[i] = row[i * E7_NBENCH + k].step_s;
        double slope, b;
        e7_loglog_fit(cx, ty, nb, &slope, &b);
        printf("%s: log-log slope of step time against contacts %.3g (the paper: 1, linear)\n",
               e7_bench_methods[k].label, slope);
    }
    free(sc), free(row), tc_exp_free(x);
    if (st) {
        tc_outfile_abort(&f);
        return tc_bench_fail("piles", &err);
    }
    if (tc_outfile_commit(&f, &err)) return tc_bench_fail("piles", &err);
    printf("wrote %s\n", path);
    return 0;
}
