/* SPDX-License-Identifier: MIT */
/* touche bench all: every registered method (models with their default solver, engines) timed on
 * each experiment's representative scene in one run, beside MuJoCo on the same scene, written as
 * bench_all.csv and a Markdown table bench_all.md */
#include "cli/tc_cli.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "report/tc_progress.h"
#include "exp/tc_bench.h"
#include "exp/tc_bench_scene.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* how many scenes there are */
static int nscenes(void) {
    int n = 0;
    while (tc_bench_scene_at(n))
        n++;
    return n;
}

/* one cell of the table: status "ok", "-" (cannot run: note says why) or "failed" (note) */
typedef struct bench_cell {
    char status[8];
    char spec[64]; /* the method as run */
    long calls;
    double mean_s, best_s;
    char note[200];
} bench_cell;

/* a cell's note without commas or quotes, so the CSV needs no quoting */
static void clean_note(char *s) {
    for (; *s; s++)
        if (*s == ',' || *s == '"' || *s == '\n' || *s == '|') *s = ';';
}

/* one force query (dynamics 0, everything at rest) or one step; w holds nbody wrenches */
static tc_status call(tc_sim *sim, int dynamics, tc_wrench *w) {
    return dynamics ? tc_sim_step(sim) : tc_sim_force(sim, tc_sim_q(sim), NULL, w);
}

/* a fresh simulation of m from the origin's state (or the scene's start hook without one) */
static tc_status start_sim(tc_sim **sim, const tc_scene *sc, const tc_method *m,
                           const tc_bench_build *b, const tc_sim *origin, tc_error *err) {
    tc_status st = tc_sim_alloc(sim, sc, m, b->dt, err);
    if (st) return st;
    if (origin) return tc_sim_copy_state(*sim, origin);
    if (b->start) b->start(b->ctx, 0, *sim);
    return TC_OK;
}

/* a method timed on a scene: its simulation (a fresh one at each restart) and what a call needs */
typedef struct run_ctx {
    tc_sim *sim;
    const tc_scene *sc;
    const tc_method *m;
    const tc_bench_build *b;
    const tc_sim *origin;
    int dynamics;
    tc_wrench *w;
    double start; /* the simulated time the run starts at (s) */
    long restarts;
    tc_error err;
} run_ctx;

static tc_status run_call(void *ctx) {
    run_ctx *r = ctx;
    return call(r->sim, r->dynamics, r->w);
}

/* a run that reaches the experiment's horizon starts again from the origin in a fresh
 * simulation (untimed; the model's memory starts afresh too) */
static tc_status run_restart(void *ctx) {
    run_ctx *r = ctx;
    if (!r->dynamics || r->b->horizon <= 0 || tc_sim_time(r->sim) - r->start < r->b->horizon)
        return TC_OK;
    tc_sim_free(r->sim);
    r->sim = NULL;
    r->restarts++;
    return start_sim(&r->sim, r->sc, r->m, r->b, r->origin, &r->err);
}

/* time calls for `seconds` (and at most 3 seconds + 1 s of wall time): one untimed call first (a
 * call slower than the budget is then the only one timed), each call timed alone, restarts at
 * the horizon. Mean and best per call into c; a failed call makes the cell "failed" with the
 * reason */
static void time_calls(run_ctx *r, double seconds, bench_cell *c) {
    tc_bench_timer tm = {.call = run_call,
                         .before = run_restart,
                         .ctx = r,
                         .seconds = seconds,
                         .wall_max = 3 * seconds + 1,
                         .warmup = TC_BENCH_WARMUP_SLOW};
    tc_bench_timing tg;
    tc_bench_time(&tm, &tg);
    if (tg.status) {
        /* the reason: the status and the simulation's first warning */
        char warn[512] = "";
        if (r->sim) tc_sim_warnings(r->sim, warn, (int)sizeof warn);
        warn[strcspn(warn, "\n")] = 0;
        snprintf(c->status, sizeof c->status, "failed");
        snprintf(c->note, sizeof c->note, "%s %.3g s into the run: %s%s%s",
                 r->dynamics ? "step" : "query", r->sim ? tc_sim_time(r->sim) - r->start : 0.0,
                 r->err.msg[0] ? r->err.msg : tc_status_str(tg.status), warn[0] ? ": " : "", warn);
        return;
    }
    snprintf(c->status, sizeof c->status, "ok");
    c->calls = tg.calls;
    c->mean_s = tg.mean_s;
    c->best_s = tg.best_s;
    if (r->restarts)
        snprintf(c->note, sizeof c->note, "restarted %ld times at the %g s horizon", r->restarts,
                 r->b->horizon);
}

/* the experiment's own version of method m (its script's parameters: the same spec first, else
 * the same model or engine), or m itself with its defaults when the script has neither */
static const tc_method *resolve(const tc_exp *x, const tc_method *m) {
    for (int k = 0; x && k < tc_exp_nmethod(x); k++)
        if (!strcmp(tc_exp_method(x, k)->spec, m->spec)) return tc_exp_method(x, k);
    for (int k = 0; x && k < tc_exp_nmethod(x); k++)
        if (!strcmp(tc_method_base(tc_exp_method(x, k)), tc_method_base(m)))
            return tc_exp_method(x, k);
    return m;
}

/* method m on scene sc: cannot run (caps or shapes), cannot start, or timed from the origin's
 * state (when there is one) */
static void bench_cell_run(const tc_scene *sc, const tc_bench_scene *bs, const tc_bench_build *b,
                           const tc_method *m, const tc_sim *origin, double seconds, tc_wrench *w,
                           bench_cell *c) {
    c->calls = 0;
    c->note[0] = 0;
    c->mean_s = c->best_s = NAN;
    unsigned need = bs->dynamics ? TC_CAP_DYNAMICS : TC_CAP_FORCE_QUERY;
    if (!tc_method_can_run(m, need, tc_scene_shapes(sc))) {
        char why[300];
        tc_method_why_not(m, need, tc_scene_shapes(sc), why, sizeof why);
        snprintf(c->status, sizeof c->status, "-");
        snprintf(c->note, sizeof c->note, "%s", why);
        clean_note(c->note);
        return;
    }
    run_ctx r = {.sc = sc, .m = m, .b = b, .origin = origin, .dynamics = bs->dynamics, .w = w};
    tc_error_clear(&r.err);
    if (start_sim(&r.sim, sc, m, b, origin, &r.err)) {
        snprintf(c->status, sizeof c->status, "failed");
        snprintf(c->note, sizeof c->note, "cannot start: %s", r.err.msg[0] ? r.err.msg : "error");
    } else {
        r.start = tc_sim_time(r.sim);
        time_calls(&r, seconds, c);
    }
    clean_note(c->note);
    tc_sim_free(r.sim);
}

/* the state every method of a dynamic scene starts from: the scene's start hook, then MuJoCo
 * (the experiment's version) stepping it for b->settle seconds; NULL for a static scene, or when
 * MuJoCo cannot (the note says so: the methods then start from the built state) */
static tc_sim *settle(const tc_scene *sc, int dynamics, const tc_method *mj,
                      const tc_bench_build *b, char *note, size_t n) {
    if (!dynamics || !mj) return NULL;
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_sim_alloc(&sim, sc, mj, b->dt, &err);
    if (!st && b->start) b->start(b->ctx, 0, sim);
    long steps = lround(b->settle / b->dt);
    for (long k = 0; k < steps && !st; k++)
        st = tc_sim_step(sim);
    if (st) {
        snprintf(note, n, "settling by mujoco failed (%s): timed from the built state",
                 tc_status_str(st));
        tc_sim_free(sim);
        return NULL;
    }
    return sim;
}

/* the options: which methods and scenes, seconds per cell, threads, output directory */
typedef struct bench_opts {
    const char *out;
    double seconds;
    int threads;
    const char *methods, *scenes; /* comma-separated filters, "" for all */
} bench_opts;

enum { ALL_METHODS, ALL_SCENES, ALL_SECONDS, ALL_THREADS };

static const tc_bench_opt all_opts[] = {
    [ALL_METHODS] =
        TC_BENCH_OPT_TEXT("--methods", NULL, NULL,
                          "methods to time (model, model/solver or engine names; default: all)"),
    [ALL_SCENES] = TC_BENCH_OPT_TEXT("--scenes", NULL, "x,y",
                                     "scenes to time (default: all; the scenes are listed above)"),
    [ALL_SECONDS] =
        TC_BENCH_OPT_SECONDS("0.5", "time budget per method and scene, s (a call slower "
                                    "than it is timed once)"),
    [ALL_THREADS] =
        TC_BENCH_OPT_INT("--threads", 1, 1024, "1", "OpenMP threads for the methods that use them"),
    {0},
};

/* what bench all does, with the scenes' names */
static void all_doc(char *doc, size_t n) {
    snprintf(doc, n,
             "every registered method (each model with its default solver, each engine; a model "
             "added to the registry is included) on each experiment's scene: a force query on "
             "the static scenes, a step on the dynamic ones, with the experiment's own method "
             "parameters where its script has them; MuJoCo timed on the same scene in the same "
             "run as the reference. Writes bench_all.csv and bench_all.md under --out; progress "
             "on stderr, the table on stdout. Scenes:");
    for (int i = 0; i < nscenes(); i++)
        snprintf(doc + strlen(doc), n - strlen(doc), "%s %s", i ? "," : "",
                 tc_bench_scene_at(i)->name);
}

/* 1 when name is in the comma-separated list (an empty list holds everything) */
static int in_list(const char *list, const char *name) {
    if (!list[0]) return 1;
    size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || !p[n])) return 1;
    return 0;
}

/* 1 when method m is named by the filter (its spec or its model or engine name) */
static int method_selected(const char *list, const tc_method *m) {
    return in_list(list, m->spec) || in_list(list, tc_method_base(m));
}

/* every name of a filter list must name something: "<who>: --opt: no ... 'x' (valid: ...)" */
static int check_list(const char *opt, const char *list, const tc_method *all, int nm) {
    char buf[512];
    if (strlen(list) >= sizeof buf) {
        fprintf(stderr, "touche bench all: %s: at most %zu characters\n", opt, sizeof buf - 1);
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        int found = 0;
        for (int k = 0; k < (all ? nm : nscenes()) && !found; k++)
            found = all ? !strcmp(t, all[k].spec) || !strcmp(t, tc_method_base(&all[k]))
                        : !strcmp(t, tc_bench_scene_at(k)->name);
        if (!found) {
            char valid[1024] = "";
            for (int k = 0; k < (all ? nm : nscenes()); k++)
                snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", k ? ", " : "",
                         all ? tc_method_base(&all[k]) : tc_bench_scene_at(k)->name);
            fprintf(stderr, "touche bench all: %s: no %s called '%s' (valid: %s)\n", opt,
                    all ? "method" : "scene", t, valid);
            return 0;
        }
    }
    return 1;
}

/* -1 to go on, else the exit status (0 after --help) */
static int parse(int argc, char **argv, bench_opts *o, const tc_method *all, int nm) {
    char doc[1024];
    tc_bench_opts b;
    all_doc(doc, sizeof doc);
    int rc = tc_bench_parse("all", doc, all_opts, argc, argv, &b);
    if (rc >= 0) return rc;
    *o = (bench_opts){.out = b.out,
                      .seconds = b.seconds,
                      .threads = b.v[ALL_THREADS].list[0],
                      .methods = b.v[ALL_METHODS].text ? b.v[ALL_METHODS].text : "",
                      .scenes = b.v[ALL_SCENES].text ? b.v[ALL_SCENES].text : ""};
    if (!check_list("--methods", o->methods, all, nm) ||
        !check_list("--scenes", o->scenes, NULL, nm))
        return 2;
    return -1;
}

/* "12.3" with precision fitting the size (us) */
static void fmt_us(char *buf, size_t n, double s) {
    double us = 1e6 * s;
    snprintf(buf, n, us >= 100 ? "%.0f" : us >= 10 ? "%.1f" : "%.2f", us);
}

/* the Markdown table: a row per method, a column per scene, each cell "mean / best us (ratio to
 * MuJoCo's mean)" or why not; then what each scene is */
static void write_md(FILE *f, const bench_opts *o, const tc_method *all, int nm,
                     const bench_cell *cell, const double *mj, const int *bodies,
                     const tc_bench_build *set, char (*snote)[200]) {
    char machine[256], date[64];
    tc_machine_stamp(date, sizeof date, machine, sizeof machine, o->threads);
    fprintf(
        f,
        "`touche bench all`, %s, %s, `--seconds %g` a cell. Each cell: mean / best time per call "
        "(µs) and the mean's ratio to MuJoCo's on the same scene in the same run; a force query "
        "on the static scenes, a step on the others.\n\n| method |",
        date, machine, o->seconds);
    for (int s = 0; s < nscenes(); s++)
        if (bodies[s])
            fprintf(f, " %s (%s) |", tc_bench_scene_at(s)->name,
                    tc_bench_scene_at(s)->dynamics ? "step" : "query");
    fprintf(f, "\n|---|");
    for (int s = 0; s < nscenes(); s++)
        if (bodies[s]) fprintf(f, "---|");
    fprintf(f, "\n");
    for (int k = 0; k < nm; k++) {
        int any = 0;
        for (int s = 0; s < nscenes(); s++)
            any |= bodies[s] && cell[s * nm + k].status[0];
        if (!any) continue;
        fprintf(f, "| `%s` |", all[k].spec);
        for (int s = 0; s < nscenes(); s++) {
            if (!bodies[s]) continue;
            const bench_cell *c = &cell[s * nm + k];
            char a[32], b[32];
            if (strcmp(c->status, "ok")) {
                fprintf(f, " %s: %s |", c->status, c->note);
                continue;
            }
            fmt_us(a, sizeof a, c->mean_s);
            fmt_us(b, sizeof b, c->best_s);
            fprintf(f, " %s / %s", a, b);
            if (isfinite(mj[s])) fprintf(f, " (%.3g×)", c->mean_s / mj[s]);
            if (strcmp(c->spec, all[k].spec)) fprintf(f, " as `%s`", c->spec);
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
    fprintf(f,
            "\nScenes (each experiment's quick tier; methods with its script's parameters):\n\n");
    for (int s = 0; s < nscenes(); s++)
        if (bodies[s]) {
            fprintf(f, "- `%s`: %s, %d bodies", tc_bench_scene_at(s)->name, set[s].what, bodies[s]);
            if (tc_bench_scene_at(s)->dynamics && set[s].horizon > 0)
                fprintf(f, "; a run restarts from the same state after %g s simulated",
                        set[s].horizon);
            fprintf(f, "%s%s\n", snote[s][0] ? "; " : "", snote[s]);
        }
}

/* bench_all.csv (a row per scene and method) and bench_all.md, each by temp file and rename */
static int bench_all_write(const bench_opts *o, const tc_method *all, int nm,
                           const bench_cell *cell, const double *mj, const int *bodies,
                           const tc_bench_build *set, char (*snote)[200]) {
    tc_error err;
    tc_error_clear(&err);
    char path[1100], mdpath[1100];
    tc_outfile f, g;
    if (tc_path_join(path, sizeof path, o->out, "bench_all.csv") ||
        tc_path_join(mdpath, sizeof mdpath, o->out, "bench_all.md")) {
        fprintf(stderr, "touche bench all: --out: path too long\n");
        return 1;
    }
    if (tc_outfile_open(&f, path, &err)) {
        fprintf(stderr, "touche bench all: %s\n", err.msg);
        return 1;
    }
    fprintf(
        f.f,
        "scene,experiment,kind,bodies,dt_s,method,spec,status,calls,mean_us,best_us,mujoco_mean_us,"
        "ratio_to_mujoco,note\n");
    for (int s = 0; s < nscenes(); s++)
        for (int k = 0; k < nm && bodies[s]; k++) {
            const bench_cell *c = &cell[s * nm + k];
            if (!c->status[0]) continue;
            fprintf(f.f, "%s,%s,%s,%d,%.6g,%s,%s,%s,%ld,", tc_bench_scene_at(s)->name,
                    tc_bench_scene_at(s)->experiment,
                    tc_bench_scene_at(s)->dynamics ? "step" : "query", bodies[s], set[s].dt,
                    all[k].spec, c->spec, c->status, c->calls);
            if (!strcmp(c->status, "ok"))
                fprintf(f.f, "%.4f,%.4f,", 1e6 * c->mean_s, 1e6 * c->best_s);
            else
                fprintf(f.f, ",,");
            if (isfinite(mj[s]))
                fprintf(f.f, "%.4f,", 1e6 * mj[s]);
            else
                fprintf(f.f, ",");
            if (isfinite(mj[s]) && !strcmp(c->status, "ok"))
                fprintf(f.f, "%.4g,", c->mean_s / mj[s]);
            else
                fprintf(f.f, ",");
            fprintf(f.f, "%s\n", c->note);
        }
    if (tc_outfile_commit(&f, &err) || tc_outfile_open(&g, mdpath, &err)) {
        fprintf(stderr, "touche bench all: %s\n", err.msg);
        return 1;
    }
    write_md(g.f, o, all, nm, cell, mj, bodies, set, snote);
    if (tc_outfile_commit(&g, &err)) {
        fprintf(stderr, "touche bench all: %s\n", err.msg);
        return 1;
    }
    write_md(stdout, o, all, nm, cell, mj, bodies, set, snote);
    printf("wrote %s\nwrote %s\n", path, mdpath);
    return 0;
}

/* method m timed on the scene into c, with a line of progress on stderr */
static void bench_method(const tc_scene *sc, const tc_bench_scene *bs, const tc_bench_build *b,
                         const tc_method *m, const tc_sim *origin, double seconds, tc_wrench *w,
                         bench_cell *c) {
    const double t0 = tc_wall_time();
    snprintf(c->spec, sizeof c->spec, "%s", m->spec);
    fprintf(stderr, "  %-28s", m->spec);
    bench_cell_run(sc, bs, b, m, origin, seconds, w, c);
    if (!strcmp(c->status, "ok"))
        fprintf(stderr, " %12.3f us mean %12.3f us best (%ld calls, %.1f s)\n", 1e6 * c->mean_s,
                1e6 * c->best_s, c->calls, tc_wall_time() - t0);
    else
        fprintf(stderr, " %s: %s\n", c->status, c->note);
}

/* the index of MuJoCo among the nm methods, or -1 */
static int mujoco_index(const tc_method *all, int nm) {
    for (int k = 0; k < nm; k++)
        if (!strcmp(tc_method_base(&all[k]), "mujoco")) return k;
    return -1;
}

/* the results, a row per scene and method, and the scene and the wrenches every cell reuses */
typedef struct all_bufs {
    bench_cell *cell;
    double *mj;
    tc_bench_build *set;
    int *bodies;
    tc_scene *sc;
    tc_wrench *w;
    char (*snote)[200];
} all_bufs;

static void bufs_free(all_bufs *b) {
    free(b->cell);
    free(b->mj);
    free(b->set);
    free(b->bodies);
    free(b->sc);
    free(b->w);
    free(b->snote);
}

/* 0 without memory (nothing held then) */
static int bufs_alloc(all_bufs *b, int nm) {
    *b = (all_bufs){.cell = calloc((size_t)nscenes() * (size_t)nm, sizeof *b->cell),
                    .mj = calloc(nscenes(), sizeof *b->mj),
                    .set = calloc(nscenes(), sizeof *b->set),
                    .bodies = calloc(nscenes(), sizeof *b->bodies),
                    .sc = calloc(1, sizeof *b->sc),
                    .w = calloc(TC_SCENE_MAXBODY, sizeof *b->w),
                    .snote = calloc(nscenes(), sizeof *b->snote)};
    if (b->cell && b->mj && b->set && b->bodies && b->sc && b->w && b->snote) return 1;
    bufs_free(b);
    return 0;
}

/* the whole table: per scene, MuJoCo first (the reference), then every selected method */
int tc_bench_all(int argc, char **argv) {
    int nm = tc_method_count();
    tc_method *all = calloc((size_t)nm + 1, sizeof *all);
    if (!all) {
        fprintf(stderr, "touche bench all: out of memory\n");
        return 1;
    }
    tc_method_enumerate(all, nm);
    bench_opts o;
    int rc = parse(argc, argv, &o, all, nm);
    if (rc >= 0) {
        free(all);
        return rc;
    }
    all_bufs bufs;
    if (!bufs_alloc(&bufs, nm)) {
        free(all);
        fprintf(stderr, "touche bench all: out of memory\n");
        return 1;
    }
    bench_cell *cell = bufs.cell;
    double *mj = bufs.mj;
    tc_bench_build *set = bufs.set;
    int *bodies = bufs.bodies;
    tc_scene *sc = bufs.sc;
    tc_wrench *w = bufs.w;
    char(*snote)[200] = bufs.snote;
    omp_set_num_threads(o.threads);
    int mjk = mujoco_index(all, nm), failed = 0;
    for (int s = 0; s < nscenes(); s++) {
        const tc_bench_scene *bs = tc_bench_scene_at(s);
        mj[s] = NAN;
        if (!in_list(o.scenes, bs->name)) continue;
        /* the experiment at its quick tier: the scene's sizes, the methods' parameters */
        tc_exp *x = NULL;
        tc_error err;
        tc_error_clear(&err);
        memset(sc, 0, sizeof *sc);
        tc_status st = tc_exp_plan_builtin(&x, bs->experiment, "quick", &err);
        if (!st) st = bs->build(x, sc, &set[s], &err);
        if (st) {
            char buf[700];
            tc_error_format(&err, buf, sizeof buf);
            fprintf(stderr, "touche bench all: %s: %s\n", bs->name, buf);
            tc_exp_free(x);
            free(set[s].own);
            set[s].own = NULL;
            failed = 1;
            continue;
        }
        bodies[s] = sc->nbody;
        fprintf(stderr, "bench all: %s (%s)\n", bs->name, set[s].what);
        tc_sim *origin = settle(sc, bs->dynamics, mjk >= 0 ? resolve(x, &all[mjk]) : NULL, &set[s],
                                snote[s], sizeof snote[s]);
        /* MuJoCo first: its mean is every row's reference */
        for (int pass = 0; pass < 2; pass++)
            for (int k = 0; k < nm; k++) {
                if ((pass == 0) != (k == mjk)) continue;
                if (k != mjk && !method_selected(o.methods, &all[k])) continue;
                bench_cell *c = &cell[s * nm + k];
                bench_method(sc, bs, &set[s], resolve(x, &all[k]), origin, o.seconds, w, c);
                if (k == mjk && !strcmp(c->status, "ok")) mj[s] = c->mean_s;
            }
        tc_sim_free(origin);
        tc_exp_free(x);
        free(set[s].own);
        set[s].own = NULL;
    }
    rc = bench_all_write(&o, all, nm, cell, mj, bodies, set, snote) || failed;
    bufs_free(&bufs);
    free(all);
    return rc;
}
