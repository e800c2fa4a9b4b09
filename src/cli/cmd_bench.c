/* SPDX-License-Identifier: MIT */
/* touche bench: every benchmark by name (the CLI's own, the experiments' hooks, all, ranks), and
 * the CLI's kernel benchmarks scm and pfc, side by side with MuJoCo, run by the harness
 * (exp/tc_bench.h) */
#include "cli/tc_cli.h"
#include "exp/tc_bench.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* ---------- timing static force queries ---------- */

/* one static force query of sim at its state with velocity v (NULL: at rest) */
typedef struct query_ctx {
    tc_sim *sim;
    const double *v;
    tc_wrench w[2];
} query_ctx;

static tc_status query(void *ctx) {
    query_ctx *c = ctx;
    return tc_sim_force(c->sim, tc_sim_q(c->sim), c->v, c->w);
}

/* queries in batches of 4 for `seconds` after one untimed: the mean per query (s; NAN after a
 * failed one), the best batch's per query into *best and the pair evaluations per query into
 * *pairs (either may be NULL) */
static double time_queries(tc_sim *sim, const double *v, double seconds, long long *pairs,
                           double *best) {
    query_ctx c = {.sim = sim, .v = v};
    long long p0 = tc_sim_get_stats(sim)->pair_evals;
    tc_bench_timer tm = {
        .call = query, .ctx = &c, .seconds = seconds, .batch = 4, .warmup = TC_BENCH_WARMUP_ONE};
    tc_bench_timing tg;
    tc_bench_time(&tm, &tg);
    if (pairs) *pairs = (tc_sim_get_stats(sim)->pair_evals - p0) / (tg.calls + 1);
    if (best) *best = tg.status ? NAN : tg.best_s;
    return tg.status ? NAN : tg.mean_s;
}

/* MuJoCo's mj_forward on scene sc, timed as the queries in the same run (s; NAN when it cannot) */
static double mujoco_forward_s(const tc_scene *sc, double seconds) {
    tc_method mj;
    tc_sim *sim = NULL;
    double s = NAN;
    if (!tc_method_parse(&mj, "mujoco", NULL) && !tc_sim_alloc(&sim, sc, &mj, 0.002, NULL))
        s = time_queries(sim, NULL, seconds, NULL, NULL);
    tc_sim_free(sim);
    return s;
}

/* ---------- bench scm ---------- */

enum { SCM_POINTS };

static const tc_col scm_cols[] = {
    {.csv = "points_big", .fmt = "%.0f"},
    {.csv = "points_small", .fmt = "%.0f"},
    {.csv = "pairs_per_query", .fmt = "%.0f"},
    {.csv = "velocity", .fmt = "%.0f"},
    {.csv = "threads", .fmt = "%.0f"},
    {.csv = "us_per_query", .fmt = "%.3f"},
    {.csv = "pair_evals_per_s", .fmt = "%.6g"},
    {.csv = "mujoco_us_per_forward", .fmt = "%.3f"},
    {.csv = "ratio_scm_over_mujoco", .fmt = "%.4g"},
};

/* SCM on E1's spheres (1 cm deep) with about nbig points on the big one: static and with a
 * velocity, on one thread and on every core, a row each */
static tc_status scm_points(const tc_scene *sc, int nbig, double mj_s, double seconds,
                            tc_bench_table *t, tc_error *err) {
    static const double vel[6] = {0.3, -0.2, 0.1, 0.5, 0.0, 1.0};
    const int nthreads = omp_get_num_procs();
    tc_method m;
    tc_sim *sim = NULL;
    tc_status st = tc_method_parse(&m, "scm", err);
    if (!st) st = tc_method_set(&m, "spacing", sqrt(4 * M_PI * 0.01 / nbig), err);
    if (!st) st = tc_sim_alloc(&sim, sc, &m, 0.002, err);
    const int threads[2] = {1, nthreads};
    for (int dyn = 0; dyn < 2 && !st; dyn++)
        for (int k = 0; k < (nthreads > 1 ? 2 : 1); k++) {
            long long pairs = 0;
            omp_set_num_threads(threads[k]);
            double s = time_queries(sim, dyn ? vel : NULL, seconds, &pairs, NULL);
            tc_bench_put(t,
                         (tc_cell[]){TC_NUM(nbig), TC_NUM((int)(pairs / 2 / nbig)), TC_NUM(pairs),
                                     TC_NUM(dyn), TC_NUM(threads[k]), TC_NUM(1e6 * s),
                                     TC_NUM(pairs / s), TC_NUM(1e6 * mj_s), TC_NUM(s / mj_s)});
        }
    tc_sim_free(sim);
    return st;
}

static tc_status scm_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    (void)x;
    tc_scene sc;
    const tc_bench_val *pts = &o->v[SCM_POINTS];
    tc_status st = tc_scene_sphere_pair(&sc, 0.1, 0.05, 0.14, 1000, err); /* E1's spheres */
    double mj_s = st ? NAN : mujoco_forward_s(&sc, o->seconds);
    tc_bench_columns(t, scm_cols, sizeof scm_cols / sizeof scm_cols[0]);
    for (int i = 0; i < pts->n && !st; i++)
        st = scm_points(&sc, pts->list[i], mj_s, o->seconds, t, err);
    return st;
}

static const tc_bench_opt scm_opts[] = {
    [SCM_POINTS] = TC_BENCH_OPT_INTS("--points", 12, 10000000, 0, "100,400,1600,6400",
                                     "sample points on the big sphere"),
    TC_BENCH_OPT_SECONDS("0.5", "time per measurement, s"),
    {0},
};

static const tc_bench_def scm_bench = {
    .name = "scm",
    .doc = "SCM pair evaluations/s against points on E1's spheres, 1 and all threads, static and "
           "moving, beside MuJoCo's mj_forward on the same scene",
    .csv = "bench_scm.csv",
    .opts = scm_opts,
    .run = scm_run};

/* ---------- bench pfc ---------- */

enum { PFC_LEVELS, PFC_SHELLS };

static const tc_col pfc_cols[] = {
    {.csv = "scene"},
    {.csv = "resolution", .fmt = "%.0f"},
    {.csv = "shells", .fmt = "%.0f"},
    {.csv = "tets_a", .fmt = "%.0f"},
    {.csv = "tets_b", .fmt = "%.0f"},
    {.csv = "broad_phase"},
    {.csv = "threads", .fmt = "%.0f"},
    {.csv = "us_per_eval", .fmt = "%.3f"},
    {.csv = "us_best", .fmt = "%.3f"},
    {.csv = "pair_evals", .fmt = "%.0f"},
    {.csv = "polygons", .fmt = "%.0f"},
    {.csv = "force_N", .fmt = "%.10g"},
    {.csv = "rel_diff_vs_brute", .fmt = "%.3g"},
    {.csv = "mujoco_us_per_forward", .fmt = "%.3f"},
    {.csv = "ratio_pfc_over_mujoco", .fmt = "%.4g"},
};

/* the scenes of bench pfc: 0 E1's spheres 1 cm deep, 1 two 10 cm cubes 5 mm deep (the upper one
 * turned 0.3 rad about z and tilted 0.05 rad about x), 2 a 5 cm ball 1 cm into a plane, 3 E1's
 * spheres again (run with rigid_fixed = 1: the fixed big sphere is rigid) */
static const char *const pfc_names[4] = {"sphere-sphere", "box-box", "sphere-plane",
                                         "sphere-rigid"};

static tc_status pfc_scene(tc_scene *sc, int which, tc_error *err) {
    if (which == 0 || which == 3) return tc_scene_sphere_pair(sc, 0.1, 0.05, 0.14, 1000, err);
    if (which == 1) {
        /* q = q_z(0.3) q_x(0.05): the tilt lifts the corners by at most 0.05 sin 0.05 (2.5 mm) */
        double cz = cos(0.15), sz = sin(0.15), cx = cos(0.025), sx = sin(0.025);
        const double q[4] = {cz * cx, cz * sx, sz * sx, sz * cx}, pos[3] = {0, 0, 0.095};
        return tc_scene_pair(sc, tc_box(0.05, 0.05, 0.05), tc_box(0.05, 0.05, 0.05), pos, q, 1000,
                             err);
    }
    const double pos[3] = {0, 0, 0.04};
    tc_status st = tc_scene_ground(sc, 0, 0.5, err);
    return st ? st : tc_scene_add_free(sc, "ball", tc_sphere(0.05), pos, NULL, 1000, err);
}

/* one mesh of scene `which`: pfc at resolution `level` with nsh shells */
typedef struct pfc_mesh {
    const tc_scene *sc;
    int which, level, nsh;
    double mj_s, seconds;
} pfc_mesh;

/* the brute force first (small meshes only: it grows as tets squared, one thread), then the
 * slab sweep on one thread and on all (pfc's threads); a row each */
static tc_status pfc_mesh_rows(const pfc_mesh *p, tc_bench_table *t, tc_error *err) {
    const int nthreads = omp_get_max_threads(),
              tets = 20 * (1 << (2 * p->level)) * (1 + 3 * p->nsh);
    const int ta = p->which == 1 ? 12 : p->which == 2 ? 0 : tets, tb = p->which == 1 ? 12 : tets;
    double fbrute = NAN;
    tc_status st = TC_OK;
    for (int run = 0; run < 3 && !st; run++) {
        int bvh = run > 0, th = run == 2 ? nthreads : 1;
        if ((!bvh && ((long long)ta * tb > 40000000LL || p->which == 3)) ||
            (run == 2 && nthreads == 1))
            continue;
        tc_method m;
        tc_sim *sim = NULL;
        st = tc_method_parse(&m, "pfc", err);
        const char *set[] = {"resolution", "shells", "bvh", "rigid_fixed", "threads"};
        const double val[] = {p->level, p->nsh, bvh, p->which == 3, th};
        for (int k = 0; k < 5 && !st; k++)
            st = tc_method_set(&m, set[k], val[k], err);
        if (!st) st = tc_sim_alloc(&sim, p->sc, &m, 0.002, err);
        if (st) break;
        long long pairs = 0;
        double best, sec = time_queries(sim, NULL, p->seconds, &pairs, &best);
        tc_wrench w[2];
        tc_sim_force(sim, tc_sim_q(sim), NULL, w);
        double F = sqrt(w[1].f[0] * w[1].f[0] + w[1].f[1] * w[1].f[1] + w[1].f[2] * w[1].f[2]);
        if (!bvh) fbrute = F;
        /* soft-plane: the tree against the plane; soft-soft and soft-rigid: the overlap slab's
         * sweep (soft-rigid has no brute force) */
        const char *bp = !bvh ? "brute" : p->which == 2 ? "tree" : "slab";
        tc_bench_put(t, (tc_cell[]){TC_TEXT(pfc_names[p->which]), TC_NUM(p->level), TC_NUM(p->nsh),
                                    TC_NUM(ta), TC_NUM(tb), TC_TEXT(bp), TC_NUM(th),
                                    TC_NUM(1e6 * sec), TC_NUM(1e6 * best), TC_NUM(pairs),
                                    TC_NUM(tc_sim_get_stats(sim)->ncontact), TC_NUM(F),
                                    TC_NUM(fabs(F - fbrute) / F), TC_NUM(1e6 * p->mj_s),
                                    TC_NUM(sec / p->mj_s)});
        tc_sim_free(sim);
    }
    return st;
}

/* pfc force evaluation time vs mesh resolution, slab sweep (one thread and all) vs brute-force
 * broad phase, beside MuJoCo; the boxes have 12 tets at any level: one mesh */
static tc_status pfc_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    (void)x;
    const tc_bench_val *lv = &o->v[PFC_LEVELS], *sh = &o->v[PFC_SHELLS];
    tc_status st = TC_OK;
    tc_bench_columns(t, pfc_cols, sizeof pfc_cols / sizeof pfc_cols[0]);
    for (int which = 0; which < 4 && !st; which++) {
        tc_scene sc;
        if ((st = pfc_scene(&sc, which, err))) break;
        const int box = which == 1, nl = box ? 1 : lv->n, ns = box ? 1 : sh->n;
        pfc_mesh p = {.sc = &sc,
                      .which = which,
                      .mj_s = mujoco_forward_s(&sc, o->seconds),
                      .seconds = o->seconds};
        for (int i = 0; i < nl * ns && !st; i++) {
            p.level = box ? 0 : lv->list[i / ns];
            p.nsh = box ? 0 : sh->list[i % ns];
            st = pfc_mesh_rows(&p, t, err);
        }
    }
    return st;
}

static const tc_bench_opt pfc_opts[] = {
    [PFC_LEVELS] = TC_BENCH_OPT_INTS("--levels", 0, 6, 0, "1,2,3,4",
                                     "mesh resolutions (icosphere subdivision levels)"),
    [PFC_SHELLS] =
        TC_BENCH_OPT_INTS("--shells", 0, 4, 0, "0,1", "inner shells of the sphere meshes"),
    TC_BENCH_OPT_SECONDS("0.5", "time per measurement, s"),
    {0},
};

static const tc_bench_def pfc_bench = {
    .name = "pfc",
    .doc = "pfc force evaluation time vs mesh resolution, slab sweep (1 and all threads) and "
           "brute force, on four scenes, beside MuJoCo's mj_forward",
    .csv = "bench_pfc.csv",
    .opts = pfc_opts,
    .run = pfc_run};

/* ---------- every benchmark ---------- */

/* the benchmarks with outputs of their own (CSV and Markdown) */
static const struct {
    const char *name, *doc;
    int (*main)(int argc, char **argv);
} own[] = {
    {"all", "every method on each experiment's scene beside MuJoCo (bench_all.csv, .md)",
     tc_bench_all},
    {"ranks", "each experiment's sweeps as one process and as mpirun ranks (bench_ranks.csv, .md)",
     tc_bench_ranks},
};
#define NOWN ((int)(sizeof own / sizeof own[0]))

/* the CLI's benchmarks run by the harness */
static const tc_bench_def *const kernels[] = {&scm_bench, &pfc_bench, &tc_bench_points};
#define NKERNEL ((int)(sizeof kernels / sizeof kernels[0]))

/* every benchmark, a line each */
static void bench_list(FILE *f) {
    fprintf(f, "usage: touche bench [NAME] [options] (NAME --help: its options; no NAME: scm)\n");
    for (int i = 0; i < NKERNEL; i++)
        tc_bench_line(f, 10, kernels[i]->name, kernels[i]->doc);
    for (int i = 0; i < NOWN; i++)
        tc_bench_line(f, 10, own[i].name, own[i].doc);
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *x = tc_experiment_at(i);
        if (x->bench) tc_bench_line(f, 10, x->bench_name, x->bench_doc);
    }
}

int tc_cmd_bench(int argc, char **argv) {
    /* NAME and its arguments (argv[0] is its name), or scm with every argument */
    const int named = argc > 1 && argv[1][0] != '-';
    const char *what = named ? argv[1] : "scm";
    if (!named && argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        bench_list(stdout);
        return 0;
    }
    argc -= named;
    argv += named;
    for (int i = 0; i < NKERNEL; i++)
        if (!strcmp(what, kernels[i]->name)) return tc_bench_main(kernels[i], argc, argv);
    for (int i = 0; i < NOWN; i++)
        if (!strcmp(what, own[i].name)) return own[i].main(argc, argv);
    /* an experiment's benchmark, by its name or the experiment's (e2, penalty, e4) */
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *x = tc_experiment_at(i);
        if (!x->bench || (strcmp(what, x->bench_name) && tc_experiment_find(what) != x)) continue;
        tc_bench_def d = *x->bench;
        d.name = x->bench_name;
        d.doc = x->bench_doc;
        d.experiment = x->name;
        return tc_bench_main(&d, argc, argv);
    }
    fprintf(stderr, "touche bench: unknown benchmark '%s'\n", what);
    bench_list(stderr);
    return 2;
}
