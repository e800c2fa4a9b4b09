/* SPDX-License-Identifier: MIT */
/* touche bench ranks: each experiment's sweeps as one process of N threads and as `mpirun -np R`
 * ranks of N/R threads, side by side in one invocation (children `touche run` of this same
 * program, timed through their --timings files, results compared by their digests), written as
 * bench_ranks.csv and a Markdown table bench_ranks.md */
#include "cli/tc_cli.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"
#include "exp/tc_bench.h"
#include "exp/tc_ranks.h"
#include "report/tc_metrics.h"
#include "report/tc_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXEXP   32
#define MAXCOUNT 8

static const char *const who = "touche bench ranks";

/* the options: experiments, rank counts (counts[0] = 1: the one-process run every other is
 * measured against), workers N, tier, repeats, mpirun's binding, output directory */
typedef struct ranks_opts {
    const char *out, *tier, *bind;
    int counts[MAXCOUNT], ncount;
    int workers, repeat;
    const tc_experiment_type *exp[MAXEXP];
    int nexp;
} ranks_opts;

/* one experiment at one rank count: the best of its repeats */
typedef struct ranks_cell {
    int timed;       /* repeats that gave a timing */
    int exit_status; /* the last nonzero exit status of its children (0: all ok) */
    long items;
    double sweep_s, cpu_s, run_s; /* the best sweep wall time (s), its CPU time (every rank's) and
                                   * the whole child's wall time, mpirun's start-up included */
    int lent;                     /* the most threads a rank was lent in that run */
    int compared, differ;         /* digests compared with the one-process run's, and unequal */
    char note[300];
} ranks_cell;

enum { R_EXPERIMENTS, R_RANKS, R_THREADS, R_TIER, R_REPEAT, R_BIND };

static const tc_bench_opt ranks_table[] = {
    [R_EXPERIMENTS] =
        TC_BENCH_OPT_TEXT("--experiments", NULL, NULL,
                          "experiments to run (names as touche run takes them; default: all)"),
    [R_RANKS] = TC_BENCH_OPT_INTS("--ranks", 1, 256, 0, "1,2",
                                  "rank counts; each must divide N; the one-process run is always "
                                  "made and is the reference of the others"),
    [R_THREADS] = TC_BENCH_OPT_INT(
        "--threads", 1, 1024, NULL,
        "workers N of every run, ranks x threads (default: the largest rank count)"),
    [R_TIER] = TC_BENCH_OPT_TIER("quick", "the experiments' tier"),
    [R_REPEAT] = TC_BENCH_OPT_INT("--repeat", 1, 20, "1",
                                  "runs of each count, alternating; the best sweep time is kept"),
    [R_BIND] =
        TC_BENCH_OPT_TEXT("--bind-to", "none", "WHAT",
                          "passed to mpirun's --bind-to (none: waiting ranks lend their cores to "
                          "working ones, docs/mpi.md; core: mpirun's own default for 2 ranks)"),
    {0},
};

static const char *const ranks_doc =
    "each experiment's sweeps as one process of N threads and as `mpirun -np R` ranks of N/R "
    "threads "
    "(docs/mpi.md), run side by side by this program as `touche run` children: items, sweep wall "
    "time, items/s, efficiency (the one process's sweep time over the ranks'; 1 = nothing lost to "
    "the split) and whether the result digests are equal. Writes bench_ranks.csv, bench_ranks.md "
    "and the children's outputs and logs under ranks/ in --out. Needs mpirun on PATH and a touche "
    "built with MPI for counts above 1; as root the children get OMPI_ALLOW_RUN_AS_ROOT=1 (Open "
    "MPI "
    "refuses root otherwise); mpirun gets --oversubscribe. Progress on stderr; the table on "
    "stdout. "
    "Exit status: 0 all ran and every digest is equal; 1 a run failed, digests differ, or MPI is "
    "not available; 2 bad command line";

/* "a,b" of experiment names into o->exp (each as touche run takes it) */
static int parse_experiments(const char *list, ranks_opts *o) {
    char buf[1024];
    if (!list[0] || strlen(list) >= sizeof buf) {
        fprintf(stderr, "%s: --experiments: expected a comma-separated list of experiment names\n",
                who);
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", list);
    o->nexp = 0;
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        const tc_experiment_type *x = tc_experiment_find(t);
        if (!x) {
            fprintf(stderr, "%s: --experiments: no experiment called '%s' (valid:", who, t);
            for (int i = 0; tc_experiment_at(i); i++)
                fprintf(stderr, "%s %s", i ? "," : "", tc_experiment_at(i)->name);
            fprintf(stderr, ")\n");
            return 0;
        }
        if (o->nexp >= MAXEXP) {
            fprintf(stderr, "%s: --experiments: at most %d\n", who, MAXEXP);
            return 0;
        }
        o->exp[o->nexp++] = x;
    }
    return 1;
}

/* the rank counts: 1 first (the reference), then the others in the order given, each dividing
 * the workers; 0 after the message */
static int set_counts(const tc_bench_val *ranks, int workers, ranks_opts *o) {
    int most = 1;
    for (int k = 0; k < ranks->n; k++) {
        int seen = 0, v = ranks->list[k];
        for (int j = 0; j < o->ncount; j++)
            seen |= o->counts[j] == v;
        if (seen) continue;
        if (o->ncount >= MAXCOUNT) {
            fprintf(stderr, "%s: --ranks: at most %d different counts\n", who, MAXCOUNT);
            return 0;
        }
        o->counts[o->ncount++] = v;
        if (v > most) most = v;
    }
    o->workers = workers ? workers : most;
    for (int k = 0; k < o->ncount; k++)
        if (o->workers % o->counts[k]) {
            fprintf(stderr,
                    "%s: --ranks: %d ranks do not divide the %d workers (--threads); every run has "
                    "the same "
                    "ranks x threads\n",
                    who, o->counts[k], o->workers);
            return 0;
        }
    return 1;
}

/* -1: go on; else the exit status (0 after --help) */
static int parse(int argc, char **argv, ranks_opts *o) {
    tc_bench_opts b;
    int rc = tc_bench_parse("ranks", ranks_doc, ranks_table, argc, argv, &b);
    if (rc >= 0) return rc;
    const char *bind = b.v[R_BIND].text;
    *o = (ranks_opts){.out = b.out,
                      .tier = b.tier,
                      .bind = bind,
                      .counts = {1},
                      .ncount = 1,
                      .repeat = b.v[R_REPEAT].list[0]};
    for (int i = 0; tc_experiment_at(i) && o->nexp < MAXEXP; i++)
        o->exp[o->nexp++] = tc_experiment_at(i);
    if (b.v[R_EXPERIMENTS].text && !parse_experiments(b.v[R_EXPERIMENTS].text, o)) return 2;
    /* --bind-to: one word of mpirun's (letters, digits, ':' and ',') */
    if (strspn(bind, "abcdefghijklmnopqrstuvwxyz0123456789:,-") != strlen(bind)) {
        fprintf(stderr,
                "%s: --bind-to: expected one of mpirun's words (none, core, ...), got '%s'\n", who,
                bind);
        return 2;
    }
    return set_counts(&b.v[R_RANKS], b.v[R_THREADS].list[0], o) ? -1 : 2; /* 0: not given */
}

/* the one row of a --timings file into c (items, sweep and CPU time) and *ranks; 0 after
 * writing why into c->note */
static int read_timings(const char *path, ranks_cell *c, int *ranks, double *sweep, double *cpu,
                        double *run, int *lent) {
    FILE *f = fopen(path, "r");
    char head[512], line[512], name[128], tier[16], status[64];
    int threads, runs, failed;
    long items;
    int ok = f && fgets(head, sizeof head, f) && fgets(line, sizeof line, f) &&
             sscanf(line, "%127[^,],%15[^,],%d,%d,%ld,%lf,%lf,%lf,%d,%d,%63[^,],%d", name, tier,
                    ranks, &threads, &items, sweep, cpu, run, &runs, &failed, status, lent) == 12;
    if (f) fclose(f);
    if (!ok) {
        snprintf(c->note, sizeof c->note, "no timing in %s", path);
        return 0;
    }
    c->items = items;
    return 1;
}

/* compare the digests of run with those of the one-process run: counts into c */
static void compare_digests(const tc_metrics *base, const tc_metrics *run, ranks_cell *c) {
    for (int h = 0; h < base->nhash; h++) {
        int j = tc_metrics_find_hash(run, base->hash[h].method);
        c->compared++;
        if (j < 0 || strcmp(run->hash[j].hash, base->hash[h].hash)) {
            if (!c->differ)
                snprintf(c->note, sizeof c->note, "digest of '%s' differs from the one process's",
                         base->hash[h].method[0] ? base->hash[h].method : "(shared)");
            c->differ++;
        }
    }
    c->differ += run->nhash > base->nhash; /* a digest the one process lacks */
}

/* run experiment e on `ranks` ranks of workers/ranks threads into dir; fills c (best of the
 * repeats), *sweep with this run's sweep time (s; NaN when it gave none) and, for the first
 * one-process run, *base with its digests */
static void run_child(const ranks_opts *o, const char *self, const char *mpirun,
                      const tc_experiment_type *e, int ranks, ranks_cell *c, tc_metrics *base,
                      int *have_base, double *sweep) {
    char dir[1100], tpath[1200], log[1200], mpath[1300], np[16], th[16];
    int threads = o->workers / ranks;
    snprintf(np, sizeof np, "%d", ranks);
    snprintf(th, sizeof th, "%d", threads);
    snprintf(dir, sizeof dir, "%s/ranks/%s/%dx%d", o->out, e->name, ranks, threads);
    snprintf(tpath, sizeof tpath, "%s/timings.csv", dir);
    snprintf(log, sizeof log, "%s/run.log", dir);
    snprintf(mpath, sizeof mpath, "%s/%s/metrics.cfg", dir, e->name);
    tc_error err;
    tc_error_clear(&err);
    if (tc_mkdir_p(dir, &err)) {
        snprintf(c->note, sizeof c->note, "%s", err.msg);
        c->exit_status = 1;
        return;
    }
    remove(tpath);
    /* the command: this program's run, under mpirun for more than one rank */
    const char *argv[32];
    int k = 0;
    if (ranks > 1) {
        argv[k++] = mpirun;
        argv[k++] = "-np";
        argv[k++] = np;
        argv[k++] = "--oversubscribe";
        if (o->bind) {
            argv[k++] = "--bind-to";
            argv[k++] = o->bind;
        }
    }
    const char *rest[] = {self, "run",   e->name, "--tier",    o->tier, "--threads",
                          th,   "--out", dir,     "--timings", tpath,   NULL};
    for (int j = 0; rest[j]; j++)
        argv[k++] = rest[j];
    argv[k] = NULL;
    /* no progress bar, no PDF; Open MPI refuses root without being told (the child's alone) */
    const char *env[] = {"TOUCHE_NO_PROGRESS=1", "TOUCHE_NO_PDF=1", NULL, NULL, NULL};
    if (geteuid() == 0) {
        env[2] = "OMPI_ALLOW_RUN_AS_ROOT=1";
        env[3] = "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
    }
    int status = -1, got_ranks = 0, lent = 0;
    double cpu = NAN, run = NAN;
    *sweep = NAN;
    if (tc_run_logged_status(argv, env, NULL, log, 0, &status, &err)) {
        snprintf(c->note, sizeof c->note, "%s", err.msg);
        c->exit_status = 1;
        return;
    }
    /* exit 3 (finished with failed runs) or 5 (a figure missing): the timing still stands */
    if (status != 0) {
        c->exit_status = status;
        snprintf(c->note, sizeof c->note, "exit status %d (see %s)", status, log);
        if (status != 3 && status != 5) return;
    }
    if (!read_timings(tpath, c, &got_ranks, sweep, &cpu, &run, &lent)) {
        *sweep = NAN;
        c->exit_status = c->exit_status ? c->exit_status : 1;
        return;
    }
    if (got_ranks != ranks) {
        *sweep = NAN;
        snprintf(c->note, sizeof c->note,
                 "the run reports %d ranks, not %d (an mpirun of another MPI?)", got_ranks, ranks);
        c->exit_status = 1;
        return;
    }
    if (!c->timed || *sweep < c->sweep_s) {
        c->sweep_s = *sweep;
        c->cpu_s = cpu;
        c->run_s = run;
        c->lent = lent;
    }
    c->timed++;
    /* the digests: the first one-process run is the reference of every other run */
    tc_metrics m;
    tc_error_clear(&err);
    if (tc_metrics_read(&m, mpath, &err)) {
        snprintf(c->note, sizeof c->note, "%s", err.msg);
        c->differ++;
        tc_metrics_free(&m);
        return;
    } else if (ranks == 1 && !*have_base) {
        *base = m;
        *have_base = 1;
        c->compared += m.nhash;
        return;
    } else if (*have_base)
        compare_digests(base, &m, c);
    else if (!c->differ++)
        snprintf(c->note, sizeof c->note, "no digests of the one process to compare with");
    tc_metrics_free(&m);
}

/* the efficiency of cell c against the one-process cell b: b's sweep time over c's */
static double efficiency(const ranks_cell *b, const ranks_cell *c) {
    return b->timed && c->timed && c->sweep_s > 0 ? b->sweep_s / c->sweep_s : NAN;
}

/* "yes (k digests)" (k per run: the first one-process run's are the reference of every run,
 * its later repeats included), "no (j of k differ)" or "-" */
static void digest_text(const ranks_cell *c, char *buf, size_t n) {
    if (!c->compared && !c->differ)
        snprintf(buf, n, "-");
    else if (!c->differ) {
        const int k = c->timed > 1 ? c->compared / c->timed : c->compared;
        snprintf(buf, n, "yes (%d digest%s)", k, k == 1 ? "" : "s");
    } else
        snprintf(buf, n, "no (%d of %d differ)", c->differ, c->compared);
}

/* the Markdown table: a row per experiment and rank count, then the totals */
static void write_md(FILE *f, const ranks_opts *o, const ranks_cell *cell, const char *cmd) {
    char machine[256], date[64];
    tc_machine_stamp(date, sizeof date, machine, sizeof machine, o->workers);
    /* the MPI library's name and version, up to its first comma */
    char mpi[64];
    snprintf(mpi, sizeof mpi, "%s", tc_ranks_library());
    mpi[strcspn(mpi, ",")] = 0;
    fprintf(
        f,
        "`%s`, %s, %s (%ld cores online), %s, tier %s, best of %d. Every run has %d workers "
        "(ranks x threads); efficiency = the one process's sweep time over the ranks' (1: nothing "
        "lost to the split); sweep = the experiment's sweeps (its `done` line), mpirun's start-up "
        "and "
        "the serial work after them not included; lent: the most threads a rank was lent by the "
        "waiting ranks of its machine (docs/mpi.md); digests: the result digests of `touche check` "
        "equal to the "
        "one process's.\n\n",
        cmd, date, machine, sysconf(_SC_NPROCESSORS_ONLN), mpi, o->tier, o->repeat, o->workers);
    fprintf(f, "| experiment | ranks x threads | items | sweep (s) | items/s | efficiency | lent | "
               "digests equal | "
               "whole run (s) |\n|---|---|---|---|---|---|---|---|---|\n");
    double tot[MAXCOUNT] = {0};
    int complete = 1;
    for (int e = 0; e < o->nexp; e++)
        for (int k = 0; k < o->ncount; k++) {
            const ranks_cell *c = &cell[e * o->ncount + k], *b = &cell[e * o->ncount];
            char dg[64], eff[32];
            digest_text(c, dg, sizeof dg);
            double ef = efficiency(b, c);
            snprintf(eff, sizeof eff, isfinite(ef) ? "%.2f" : "-", ef);
            if (!c->timed) {
                fprintf(f, "| %s | %d x %d | - | failed | - | - | - | %s | %s |\n", o->exp[e]->name,
                        o->counts[k], o->workers / o->counts[k], dg, c->note);
                complete = 0;
                continue;
            }
            tot[k] += c->sweep_s;
            fprintf(f, "| %s | %d x %d | %ld | %.2f | %.1f | %s | %d | %s | %.1f |\n",
                    o->exp[e]->name, o->counts[k], o->workers / o->counts[k], c->items, c->sweep_s,
                    c->sweep_s > 0 ? c->items / c->sweep_s : 0.0, k ? eff : "1 (reference)",
                    c->lent, dg, c->run_s);
        }
    if (complete && o->nexp > 1)
        for (int k = 0; k < o->ncount; k++) {
            char eff[32] = "1 (reference)";
            if (k) snprintf(eff, sizeof eff, "%.2f", tot[k] > 0 ? tot[0] / tot[k] : NAN);
            fprintf(f, "| all (sum) | %d x %d | | %.2f | | %s | | | |\n", o->counts[k],
                    o->workers / o->counts[k], tot[k], eff);
        }
}

/* bench_ranks.csv (a row per experiment and rank count) and bench_ranks.md, by temp file and rename
 */
static int write_outputs(const ranks_opts *o, const ranks_cell *cell, const char *cmd) {
    tc_error err;
    tc_error_clear(&err);
    char path[1100], mdpath[1100], machine[256];
    tc_outfile f, g;
    if (tc_path_join(path, sizeof path, o->out, "bench_ranks.csv") ||
        tc_path_join(mdpath, sizeof mdpath, o->out, "bench_ranks.md")) {
        fprintf(stderr, "%s: --out: path too long\n", who);
        return 1;
    }
    if (tc_outfile_open(&f, path, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return 1;
    }
    tc_machine_describe(machine, sizeof machine, o->workers);
    fprintf(f.f, "experiment,tier,ranks,threads,workers,items,sweep_wall_s,items_per_s,efficiency,"
                 "sweep_cpu_s,"
                 "run_wall_s,lent_threads,repeats,digests_compared,digests_differ,digests_equal,"
                 "exit_status,cpu,mpi,"
                 "note\n");
    for (int e = 0; e < o->nexp; e++)
        for (int k = 0; k < o->ncount; k++) {
            const ranks_cell *c = &cell[e * o->ncount + k], *b = &cell[e * o->ncount];
            char note[320], mpi[128];
            snprintf(note, sizeof note, "%s", c->note);
            snprintf(mpi, sizeof mpi, "%s", tc_ranks_library());
            for (char *s = note; *s; s++)
                *s = *s == ',' || *s == '"' || *s == '\n' ? ';' : *s;
            for (char *s = mpi; *s; s++)
                *s = *s == ',' ? ';' : *s;
            fprintf(f.f, "%s,%s,%d,%d,%d,", o->exp[e]->name, o->tier, o->counts[k],
                    o->workers / o->counts[k], o->workers);
            /* an experiment without sweeps (E3 at the full tier) has no rate and no efficiency */
            const double rate = c->sweep_s > 0 ? c->items / c->sweep_s : NAN,
                         eff = efficiency(b, c);
            if (c->timed) {
                fprintf(f.f, "%ld,%.4f,", c->items, c->sweep_s);
                fprintf(f.f, isfinite(rate) ? "%.4g," : ",", rate);
                fprintf(f.f, isfinite(eff) ? "%.4f," : ",", eff);
                fprintf(f.f, "%.4f,%.4f,%d,", c->cpu_s, c->run_s, c->lent);
            } else
                fprintf(f.f, ",,,,,,,");
            fprintf(f.f, "%d,%d,%d,%s,%d,\"%s\",%s,%s\n", c->timed, c->compared, c->differ,
                    c->compared && !c->differ ? "yes" : "no", c->exit_status, machine, mpi, note);
        }
    if (tc_outfile_commit(&f, &err) || tc_outfile_open(&g, mdpath, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return 1;
    }
    write_md(g.f, o, cell, cmd);
    if (tc_outfile_commit(&g, &err)) {
        fprintf(stderr, "%s: %s\n", who, err.msg);
        return 1;
    }
    write_md(stdout, o, cell, cmd);
    printf("wrote %s\nwrote %s\n", path, mdpath);
    return 0;
}

/* run_child for experiment e, repeat r and rank count k, with a line of progress on stderr */
static void run_logged(const ranks_opts *o, const char *self, const char *mpirun, int e, int r,
                       int k, ranks_cell *c, tc_metrics *base, int *have_base) {
    const int before = c->timed, n = o->counts[k], th = o->workers / n;
    const double t0 = tc_wall_time();
    double sweep;
    fprintf(stderr, "bench ranks: %s, %d rank%s x %d thread%s", o->exp[e]->name, n,
            n > 1 ? "s" : "", th, th > 1 ? "s" : "");
    if (o->repeat > 1) fprintf(stderr, " (repeat %d of %d)", r + 1, o->repeat);
    fprintf(stderr, ":");
    run_child(o, self, mpirun, o->exp[e], n, c, base, have_base, &sweep);
    if (c->timed > before) {
        char dg[64];
        digest_text(c, dg, sizeof dg);
        fprintf(
            stderr,
            " %ld items, sweep %.2f s (best %.2f s, %.1f items/s), digests equal: %s (%.1f s)\n",
            c->items, sweep, c->sweep_s, c->sweep_s > 0 ? c->items / c->sweep_s : 0.0, dg,
            tc_wall_time() - t0);
    } else
        fprintf(stderr, " FAILED: %s\n", c->note);
}

int tc_bench_ranks(int argc, char **argv) {
    ranks_opts o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) return rc;
    /* what the children need: this program, and for more than one rank MPI and mpirun */
    char self[1024], mpirun[1024] = "";
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        fprintf(stderr, "%s: cannot find this program's path (/proc/self/exe)\n", who);
        return 1;
    }
    self[len] = 0;
    int need_mpi = 0;
    for (int k = 0; k < o.ncount; k++)
        need_mpi |= o.counts[k] > 1;
    if (need_mpi && !strcmp(tc_ranks_library(), "none")) {
        fprintf(stderr,
                "%s: this touche was built without MPI (-Dmpi=disabled, or no libopenmpi-dev at "
                "setup; docs/mpi.md): it cannot run over ranks\n",
                who);
        return 1;
    }
    if (need_mpi && !tc_find_program("mpirun", mpirun, sizeof mpirun)) {
        fprintf(stderr, "%s: no mpirun on PATH (install openmpi-bin: tools/setup.sh)\n", who);
        return 1;
    }
    /* the command as given, for the table's caption */
    char cmd[512] = "touche bench";
    for (int i = 0; i < argc; i++)
        snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", argv[i]);
    ranks_cell *cell = calloc((size_t)o.nexp * (size_t)o.ncount, sizeof *cell);
    tc_metrics *base = calloc((size_t)o.nexp, sizeof *base);
    int *have_base = calloc((size_t)o.nexp, sizeof *have_base);
    if (!cell || !base || !have_base) {
        free(cell);
        free(base);
        free(have_base);
        fprintf(stderr, "%s: out of memory\n", who);
        return 1;
    }
    /* per experiment, each repeat runs every count in turn (the one process first) */
    for (int e = 0; e < o.nexp; e++)
        for (int r = 0; r < o.repeat; r++)
            for (int k = 0; k < o.ncount; k++)
                run_logged(&o, self, mpirun, e, r, k, &cell[e * o.ncount + k], &base[e],
                           &have_base[e]);
    rc = write_outputs(&o, cell, cmd);
    /* anything not clean is a failure: a run that did not finish, or results that differ */
    for (int i = 0; i < o.nexp * o.ncount; i++)
        if (!cell[i].timed || cell[i].differ || (cell[i].exit_status && cell[i].exit_status != 3)) {
            fprintf(stderr, "%s: %s on %d ranks: %s\n", who, o.exp[i / o.ncount]->name,
                    o.counts[i % o.ncount], cell[i].note[0] ? cell[i].note : "failed");
            rc = 1;
        }
    for (int e = 0; e < o.nexp; e++)
        if (have_base[e]) tc_metrics_free(&base[e]);
    free(cell);
    free(base);
    free(have_base);
    return rc;
}
