/* SPDX-License-Identifier: MIT */
/* touche bench: kernel throughput side by side with MuJoCo, written as CSV */
#include "cli/tc_cli.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "report/tc_progress.h"
#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* repeat force queries for at least `seconds`; returns seconds per query */
static double time_queries(tc_sim *sim, const double *v, double seconds, long long *pairs) {
    tc_wrench w[2];
    const double *q = tc_sim_q(sim);
    long long n = 0, p0 = tc_sim_get_stats(sim)->pair_evals;
    tc_sim_force(sim, q, v, w); /* warm up */
    double t0 = tc_wall_time(), t;
    do {
        for (int i = 0; i < 4; i++) tc_sim_force(sim, q, v, w);
        n += 4;
    } while ((t = tc_wall_time() - t0) < seconds);
    if (pairs) *pairs = (tc_sim_get_stats(sim)->pair_evals - p0) / (n + 1);
    return t / n;
}

/* the scenes of bench pfc: 0 E1's spheres 1 cm deep, 1 two 10 cm cubes 5 mm deep (the upper one
 * turned 0.3 rad about z and tilted 0.05 rad about x), 2 a 5 cm ball 1 cm into a plane, 3 E1's
 * spheres again (run with rigid_fixed = 1: the fixed big sphere is rigid) */
static tc_status pfc_scene(tc_scene *sc, int which, tc_error *err) {
    if (which == 0 || which == 3) return tc_scene_sphere_pair(sc, 0.1, 0.05, 0.14, 1000, err);
    if (which == 1) {
        /* q = q_z(0.3) q_x(0.05): the tilt lifts the corners by at most 0.05 sin 0.05 (2.5 mm) */
        double cz = cos(0.15), sz = sin(0.15), cx = cos(0.025), sx = sin(0.025);
        const double q[4] = {cz * cx, cz * sx, sz * sx, sz * cx}, pos[3] = {0, 0, 0.095};
        return tc_scene_pair(sc, tc_box(0.05, 0.05, 0.05), tc_box(0.05, 0.05, 0.05), pos, q, 1000, err);
    }
    const double pos[3] = {0, 0, 0.04};
    tc_status st = tc_scene_ground(sc, 0, 0.5, err);
    return st ? st : tc_scene_add_free(sc, "ball", tc_sphere(0.05), pos, NULL, 1000, err);
}

/* the best time per static force query (s) over batches of 4 queries repeated for `seconds`:
 * on a shared machine the least batch time is the one least disturbed by other processes */
static double pfc_best_query(tc_sim *sim, double seconds) {
    tc_wrench w[2];
    const double *q = tc_sim_q(sim);
    double t0 = tc_wall_time(), best = INFINITY;
    while (tc_wall_time() - t0 < seconds) {
        double b0 = tc_wall_time();
        for (int i = 0; i < 4; i++) tc_sim_force(sim, q, NULL, w);
        best = fmin(best, (tc_wall_time() - b0) / 4);
    }
    return best;
}

/* pfc force evaluation time vs mesh resolution, slab sweep (one thread and all) vs brute-force broad
 * phase, beside MuJoCo */
static int bench_pfc(const char *out, const char *levels, const char *shells, double seconds) {
    static const char *names[4] = {"sphere-sphere", "box-box", "sphere-plane", "sphere-rigid"};
    tc_error err;
    tc_error_clear(&err);
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, out, "bench_pfc.csv");
    if (tc_outfile_open(&o, path, &err)) return tc_cli_error(&err, TC_EIO), 1;
    fprintf(o.f, "scene,resolution,shells,tets_a,tets_b,broad_phase,threads,us_per_eval,us_best,pair_evals,"
                 "polygons,force_N,rel_diff_vs_brute,mujoco_us_per_forward,ratio_pfc_over_mujoco\n");
    printf("%-13s %4s %6s %6s %6s %6s %7s %11s %9s %10s %8s %11s %9s %10s\n", "scene", "res", "shells", "tets_a",
           "tets_b", "broad", "threads", "us/eval", "best us", "pairs", "polygons", "F (N)", "rel diff", "mujoco us");
    int nthreads = omp_get_max_threads();
    for (int which = 0; which < 4; which++) {
        tc_scene sc;
        if (pfc_scene(&sc, which, &err)) return tc_cli_error(&err, 1), 1;
        /* MuJoCo's mj_forward on the same scene, in the same run */
        tc_method mj;
        tc_sim *sim = NULL;
        double mj_s = NAN;
        if (tc_method_parse(&mj, "mujoco", &err) == TC_OK && tc_sim_alloc(&sim, &sc, &mj, 0.002, &err) == TC_OK)
            mj_s = time_queries(sim, NULL, seconds, NULL);
        tc_sim_free(sim);
        tc_error_clear(&err);
        char lb[256], sb[256];
        snprintf(lb, sizeof lb, "%s", which == 1 ? "0" : levels); /* boxes: 12 tets at any level */
        for (char *lv = NULL, *lt = strtok_r(lb, ",", &lv); lt; lt = strtok_r(NULL, ",", &lv)) {
            int level = atoi(lt);
            snprintf(sb, sizeof sb, "%s", which == 1 ? "0" : shells);
            for (char *sv = NULL, *st = strtok_r(sb, ",", &sv); st; st = strtok_r(NULL, ",", &sv)) {
                int nsh = atoi(st), tets = 20 * (1 << (2 * level)) * (1 + 3 * nsh);
                int ta = which == 1 ? 12 : which == 2 ? 0 : tets, tb = which == 1 ? 12 : tets;
                double fbrute = NAN;
                /* the brute force first (small meshes only: it grows as tets squared, one
                 * thread), then the slab sweep on one thread and on all (pfc's threads) */
                for (int run = 0; run < 3; run++) {
                    int bvh = run > 0, th = run == 2 ? nthreads : 1;
                    if (!bvh && ((long long)ta * tb > 40000000LL || which == 3)) continue;
                    if (run == 2 && nthreads == 1) continue;
                    tc_method m;
                    tc_method_parse(&m, "pfc", &err);
                    tc_method_set(&m, "resolution", level, &err);
                    tc_method_set(&m, "shells", nsh, &err);
                    tc_method_set(&m, "bvh", bvh, &err);
                    tc_method_set(&m, "rigid_fixed", which == 3, &err);
                    tc_method_set(&m, "threads", th, &err);
                    if (tc_sim_alloc(&sim, &sc, &m, 0.002, &err)) return tc_cli_error(&err, 1), 1;
                    long long pairs = 0;
                    double sec = time_queries(sim, NULL, seconds, &pairs), best = pfc_best_query(sim, seconds);
                    tc_wrench w[2];
                    tc_sim_force(sim, tc_sim_q(sim), NULL, w);
                    int poly = tc_sim_get_stats(sim)->ncontact;
                    double F = sqrt(w[1].f[0] * w[1].f[0] + w[1].f[1] * w[1].f[1] + w[1].f[2] * w[1].f[2]);
                    if (!bvh) fbrute = F;
                    /* soft-plane: the tree against the plane; soft-soft and soft-rigid: the overlap
                     * slab's sweep (soft-rigid has no brute force) */
                    const char *bp = !bvh ? "brute" : which == 2 ? "tree" : "slab";
                    double rel = fabs(F - fbrute) / F;
                    fprintf(o.f, "%s,%d,%d,%d,%d,%s,%d,%.3f,%.3f,%lld,%d,%.10g,%.3g,%.3f,%.4g\n", names[which], level, nsh,
                            ta, tb, bp, th, 1e6 * sec, 1e6 * best, pairs, poly, F, rel, 1e6 * mj_s, sec / mj_s);
                    printf("%-13s %4d %6d %6d %6d %6s %7d %11.2f %9.2f %10lld %8d %11.6g %9.2g %10.2f\n", names[which], level,
                           nsh, ta, tb, bp, th, 1e6 * sec, 1e6 * best, pairs, poly, F, rel, 1e6 * mj_s);
                    tc_sim_free(sim);
                }
            }
        }
    }
    if (tc_outfile_commit(&o, &err)) return tc_cli_error(&err, TC_EIO), 1;
    printf("wrote %s\n", path);
    return 0;
}

int tc_cmd_bench(int argc, char **argv) {
    const char *what = argc > 1 && argv[1][0] != '-' ? argv[1] : "scm";
    if (!strcmp(what, "all")) return tc_bench_all(argc - 1, argv + 1);
    if (!strcmp(what, "ranks")) return tc_bench_ranks(argc - 1, argv + 1);
    /* an experiment's own benchmark (e2, penalty) takes the rest of the command line */
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *x = tc_experiment_at(i);
        if (x->bench && (!strcmp(what, x->bench_name) || tc_experiment_find(what) == x))
            return x->bench(argc - 1, argv + 1);
    }
    const char *out = "out/bench", *plist = "100,400,1600,6400", *levels = "1,2,3,4", *shells = "0,1";
    const char *bodies = "100,300,1000";
    double seconds = 0.5;
    char who[64];
    snprintf(who, sizeof who, "touche bench %s", what);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], what) && i == 1) continue;
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--points") && i + 1 < argc) plist = argv[++i];
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc) levels = argv[++i];
        else if (!strcmp(argv[i], "--shells") && i + 1 < argc) shells = argv[++i];
        else if (!strcmp(argv[i], "--bodies") && i + 1 < argc) bodies = argv[++i];
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            if (!tc_arg_real(who, "--seconds", argv[++i], 1e-3, 3600, &seconds)) return 2;
        } else {
            fprintf(stderr, "usage: touche bench scm|pfc [--points a,b,...] [--levels a,b,...] "
                            "[--shells a,b,...] [--seconds S] [--out DIR]\n"
                            "       touche bench points [--bodies a,b,...] [--seconds S] "
                            "[--out DIR]\n"
                            "       touche bench all [--methods a,b] [--scenes x,y] [--seconds S] "
                            "[--threads N] [--out DIR] (--help)\n"
                            "       touche bench ranks [--experiments a,b] [--ranks 1,2] [--tier T] "
                            "[--repeat K] [--out DIR] (--help)\n"
                            "       touche bench NAME [...] for an experiment's benchmark (see "
                            "touche list)\n");
            return 2;
        }
    }
    /* every list checked before anything is timed: whole numbers in range, nothing else */
    int v[64], nv;
    if (!tc_arg_ints(who, "--points", plist, 12, 10000000, v, 64, &nv) ||
        !tc_arg_ints(who, "--levels", levels, 0, 6, v, 64, &nv) ||
        !tc_arg_ints(who, "--shells", shells, 0, 4, v, 64, &nv) ||
        !tc_arg_ints(who, "--bodies", bodies, 1, 100000, v, 64, &nv))
        return 2;
    if (!strcmp(what, "pfc")) return bench_pfc(out, levels, shells, seconds);
    if (!strcmp(what, "points")) return tc_bench_points(out, bodies, seconds);
    if (strcmp(what, "scm")) {
        char names[256] = "all, ranks, scm, pfc, points";
        for (int i = 0; tc_experiment_at(i); i++)
            if (tc_experiment_at(i)->bench)
                snprintf(names + strlen(names), sizeof names - strlen(names), ", %s",
                         tc_experiment_at(i)->bench_name);
        fprintf(stderr, "touche bench: unknown benchmark '%s' (available: %s)\n", what, names);
        return 2;
    }
    tc_scene sc;
    tc_scene_sphere_pair(&sc, 0.1, 0.05, 0.14, 1000, NULL); /* E1's spheres, 1 cm deep */
    tc_error err;
    tc_error_clear(&err);
    /* MuJoCo's mj_forward on the same scene, measured in the same run */
    tc_method mj;
    tc_sim *sim = NULL;
    double mj_s = NAN;
    if (tc_method_parse(&mj, "mujoco", &err) == TC_OK && tc_sim_alloc(&sim, &sc, &mj, 0.002, &err) == TC_OK)
        mj_s = time_queries(sim, NULL, seconds, NULL);
    tc_sim_free(sim);
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, out, "bench_scm.csv");
    if (tc_outfile_open(&o, path, &err)) return tc_cli_error(&err, TC_EIO), 1;
    fprintf(o.f, "points_big,points_small,pairs_per_query,velocity,threads,us_per_query,"
                 "pair_evals_per_s,mujoco_us_per_forward,ratio_scm_over_mujoco\n");
    printf("%8s %8s %10s %5s %7s %12s %14s %12s\n", "big", "small", "pairs", "vel", "threads",
           "us/query", "pairs/s", "mujoco us");
    int nthreads = omp_get_num_procs();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", plist);
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        int nbig = atoi(t); /* checked: 12 .. 1e7 */
        /* spacing that puts about nbig points on the big sphere */
        tc_method m;
        tc_method_parse(&m, "scm", &err);
        tc_method_set(&m, "spacing", sqrt(4 * M_PI * 0.01 / nbig), &err);
        if (tc_sim_alloc(&sim, &sc, &m, 0.002, &err)) return tc_cli_error(&err, 1), 1;
        double vel[6] = {0.3, -0.2, 0.1, 0.5, 0.0, 1.0};
        for (int dyn = 0; dyn < 2; dyn++)
            for (int th = 1; th <= nthreads; th += nthreads > 1 ? nthreads - 1 : 1) {
                omp_set_num_threads(th);
                long long pairs = 0;
                double s = time_queries(sim, dyn ? vel : NULL, seconds, &pairs);
                int nsmall = (int)(pairs / 2 / (nbig ? nbig : 1));
                fprintf(o.f, "%d,%d,%lld,%d,%d,%.3f,%.6g,%.3f,%.4g\n", nbig, nsmall, pairs, dyn, th,
                        1e6 * s, pairs / s, 1e6 * mj_s, s / mj_s);
                printf("%8d %8d %10lld %5s %7d %12.2f %14.4g %12.2f\n", nbig, nsmall, pairs,
                       dyn ? "yes" : "no", th, 1e6 * s, pairs / s, 1e6 * mj_s);
                if (nthreads == 1) break;
            }
        tc_sim_free(sim);
    }
    omp_set_num_threads(nthreads);
    if (tc_outfile_commit(&o, &err)) return tc_cli_error(&err, TC_EIO), 1;
    printf("wrote %s\n", path);
    return 0;
}
