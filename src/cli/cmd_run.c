/* SPDX-License-Identifier: MIT */
/* touche run: plan every experiment asked for (scripts, methods, --methods, --set) before any
 * runs, run them, write the report, and say what failed */
#include "cli/tc_cli.h"
#include "core/tc_args.h"
#include "exp/tc_experiment.h"
#include "exp/tc_ranks.h"
#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXRUN 64
#define MAXSET 64

/* what the command line asked for */
typedef struct todo {
    const tc_experiment_type *type;
    char script[1100], name[64];
    tc_exp *x;
} todo;

/* a first SIGINT or SIGTERM asks every loop to stop, and says so at once (write(2): safe in a
 * handler; rank 0 alone under MPI); a second one ends the program at once */
static volatile sig_atomic_t signal_quiet;
static void on_signal(int sig) {
    if (tc_interrupted()) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    tc_interrupt();
    static const char msg[] = "\ntouche: interrupted: finishing the current step of the running "
                              "items, then stopping; the previous outputs stay as they were "
                              "(interrupt again to stop at once)\n";
    if (!signal_quiet) {
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
    }
}

/* --set target.param=value (tc_arg_assign: a target or parameter too long is refused) */
static int parse_set(const char *arg, tc_override *o) {
    memset(o, 0, sizeof *o);
    snprintf(o->text, sizeof o->text, "%s", arg);
    return tc_arg_assign("touche run", "--set", arg, o->target, sizeof o->target, o->param,
                         sizeof o->param, &o->value);
}

/* a positional argument: "all", an experiment's name, or a script file */
static int add_todo(const char *arg, const char *src, todo *t, int *n) {
    if (!strcmp(arg, "all")) {
        for (int j = 0; tc_experiment_at(j) && *n < MAXRUN; j++) {
            const tc_experiment_type *x = tc_experiment_at(j);
            t[*n].type = x;
            snprintf(t[*n].script, sizeof t[*n].script, "%s/experiments/%s", src, x->script);
            snprintf(t[*n].name, sizeof t[*n].name, "%s", x->name);
            (*n)++;
        }
        return 1;
    }
    const tc_experiment_type *x = tc_experiment_find(arg);
    if (x && *n < MAXRUN) {
        t[*n].type = x;
        snprintf(t[*n].script, sizeof t[*n].script, "%s/experiments/%s", src, x->script);
        snprintf(t[*n].name, sizeof t[*n].name, "%s", x->name);
        (*n)++;
        return 1;
    }
    /* a script of one's own: it names its driver; its name is the file's, less .cfg */
    if (!tc_file_readable(arg)) {
        char names[512] = "";
        for (int j = 0; tc_experiment_at(j); j++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     j ? ", " : "", tc_experiment_at(j)->name);
        fprintf(stderr, "touche run: '%s' is neither an experiment (%s, all) nor a readable "
                        "script file\n", arg, names);
        return 0;
    }
    char driver[128];
    tc_error err;
    tc_error_clear(&err);
    if (tc_script_peek_driver(arg, driver, sizeof driver, &err)) return tc_cli_error(&err, 1), 0;
    if (!(x = tc_experiment_find(driver)) || strcmp(x->name, driver)) {
        fprintf(stderr, "touche run: %s: driver '%s' is not a registered experiment (see touche "
                        "list)\n", arg, driver);
        return 0;
    }
    const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".cfg")) len -= 4;
    if (*n >= MAXRUN) {
        fprintf(stderr, "touche run: %s: at most %d experiments in one run\n", arg, MAXRUN);
        return 0;
    }
    /* the name is the output folder's: out/paper/ is the PDF's, which the report replaces */
    if (len == 5 && !strncmp(base, "paper", 5)) {
        fprintf(stderr, "touche run: %s: a script may not be called paper.cfg (its outputs would go "
                        "to the report's paper/ folder, which the PDF build replaces); rename it\n",
                arg);
        return 0;
    }
    t[*n].type = x;
    snprintf(t[*n].script, sizeof t[*n].script, "%s", arg);
    snprintf(t[*n].name, sizeof t[*n].name, "%.*s", (int)len, base);
    (*n)++;
    return 1;
}

/* an experiment named twice runs once; two scripts of one run with the same name would write
 * one output folder: refused */
static int names_unique(todo *t, int *n) {
    for (int i = 0; i < *n; i++)
        for (int j = 0; j < i; j++) {
            if (strcmp(t[i].name, t[j].name)) continue;
            if (strcmp(t[i].script, t[j].script)) {
                fprintf(stderr, "touche run: %s and %s would both write to the folder %s/ of the "
                                "output root; rename one of the scripts\n",
                        t[j].script, t[i].script, t[i].name);
                return 0;
            }
            memmove(&t[i], &t[i + 1], (size_t)(*n - i - 1) * sizeof *t);
            (*n)--, i--;
            break;
        }
    return 1;
}

/* one line per experiment: which methods joined, which cannot run there and why */
static void print_plan(const tc_exp *x) {
    fprintf(stderr, "touche: %s (driver %s, tier %s):", x->name, x->type->name, x->tier);
    if (x->nmethod == 0 && x->nneed == 0) fprintf(stderr, " no registered methods (its own solvers)");
    for (int k = 0; k < x->nmethod; k++)
        fprintf(stderr, "%s%s%s", k ? ", " : " runs ", x->method[k].label,
                x->method[k].set[0] ? " (--set)" : "");
    fprintf(stderr, "\n");
    for (int k = 0; k < x->nskip; k++)
        fprintf(stderr, "    skipped %s: %s\n", x->skip[k].name, x->skip[k].reason);
    if (x->nleft) fprintf(stderr, "    left out by --methods: %s\n", x->left);
}

/* the registered model and engine names */
static void known_names(char *buf, size_t n) {
    buf[0] = 0;
    for (int i = 0; tc_model_at(i); i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", tc_model_at(i)->name);
    for (int i = 0; tc_engine_at(i); i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", tc_engine_at(i)->name);
}

/* every --methods entry must name something */
static int check_filter(const char *filter, todo *t, int n) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", filter);
    for (char *sv = NULL, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
        int known = 0;
        tc_method m;
        for (int i = 0; i < n && !known; i++) known = tc_exp_knows(t[i].x, tok);
        if (known || tc_method_parse(&m, tok, NULL) == TC_OK) continue;
        char names[1024];
        fprintf(stderr, "touche run: --methods: no method called '%s'. Valid are the labels", tok);
        for (int i = 0; i < n; i++)
            if (t[i].x->labels[0]) fprintf(stderr, "\n  of %s: %s", t[i].name, t[i].x->labels);
        known_names(names, sizeof names);
        fprintf(stderr, "\n  and the registered models and engines (a model also as model/solver): "
                        "%s\n", names);
        return 0;
    }
    return 1;
}

/* every --set must have found a method */
static int check_sets(const tc_override *set, int nset, todo *t, int n) {
    for (int k = 0; k < nset; k++) {
        if (set[k].used) continue;
        fprintf(stderr, "touche run: --set %s: no method labelled or named '%s' runs in the "
                        "experiments asked for. Valid targets:", set[k].text, set[k].target);
        for (int i = 0; i < n; i++) {
            fprintf(stderr, "\n  %s:", t[i].name);
            for (int j = 0; j < t[i].x->nmethod; j++)
                fprintf(stderr, " %s (%s)", t[i].x->method[j].label, tc_method_base(&t[i].x->method[j].m));
        }
        fprintf(stderr, "\n");
        return 0;
    }
    return 1;
}

/* the summary after every experiment: failed runs with their reasons, warnings */
/* the summary of what went wrong: 1 when runs failed, 2 when an output is missing (a warning),
 * 3 both, 0 neither */
static int summary(todo *t, int n) {
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const tc_exp *x = t[i].x;
        if (!x) continue;
        int nf = tc_exp_failed(x);
        if (nf) fprintf(stderr, "touche: %s: %d of %d runs FAILED (reasons in %s/%s/runs.csv and "
                                "its report section):\n", x->name, nf, x->nrun,
                        x->opts->out_root, x->name);
        for (int r = 0, shown = 0; r < x->nrun && shown < 5; r++) {
            const tc_run_record *rec = tc_exp_run_record(x, r);
            if (!rec->status) continue;
            fprintf(stderr, "    %s%s%s: %s\n", rec->method >= 0 ? x->method[rec->method].label : "",
                    rec->what[0] ? ", " : "", rec->what, rec->reason);
            shown++;
        }
        if (x->nwarn) fprintf(stderr, "touche: %s: %d warning(s):\n%s", x->name, x->nwarn, x->warn);
        bad |= (nf > 0 ? 1 : 0) | (x->nwarn > 0 ? 2 : 0);
    }
    return bad;
}

/* --timings FILE: one CSV row per experiment that ran: its sweeps' items, wall and CPU time (every
 * rank's, summed at the end of the experiment), ranks and threads, the whole experiment's wall time and how it ended; timings only,
 * outside every output set (nothing here enters a result digest); returns 1 after saying why
 * it could not be written */
static int write_timings(const char *path, todo *t, int n, const tc_run_opts *o, const double *wall,
                         const int *st, const int *lent) {
    tc_error err;
    tc_error_clear(&err);
    tc_outfile f;
    if (tc_outfile_open(&f, path, &err)) return tc_cli_error(&err, TC_EIO), 1;
    fprintf(f.f, "experiment,tier,ranks,threads,items,sweep_wall_s,sweep_cpu_s,run_wall_s,runs,failed_runs,status,"
                 "lent_threads\n");
    for (int i = 0; i < n; i++) {
        const tc_exp *x = t[i].x;
        if (!x || st[i] < 0) continue;
        fprintf(f.f, "%s,%s,%d,%d,%ld,%.6f,%.6f,%.6f,%d,%d,%s,%d\n", x->name, o->tier, tc_ranks_size(), o->threads,
                x->sweep_items, x->sweep_wall_s, x->sweep_cpu_s, wall[i], x->nrun, tc_exp_failed(x),
                st[i] ? tc_status_str((tc_status)st[i]) : "ok", lent[i]);
    }
    if (tc_outfile_commit(&f, &err)) return tc_cli_error(&err, TC_EIO), 1;
    return 0;
}

int tc_cmd_run(int argc, char **argv) {
    static const struct option opts[] = {{"tier", required_argument, 0, 't'},
                                         {"methods", required_argument, 0, 'm'},
                                         {"set", required_argument, 0, 's'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"out", required_argument, 0, 'o'},
                                         {"force", no_argument, 0, 'f'},
                                         {"timings", required_argument, 0, 'T'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    static tc_override set[MAXSET];
    int force = 0;
    const char *timings = NULL;
    tc_run_opts o = {.source_dir = tc_source_dir(), .out_root = "out", .tier = "quick",
                     .threads = omp_get_max_threads(), .set = set};
    /* over MPI ranks, rank 0 alone speaks */
    tc_ranks_quiet();
    for (int c; (c = getopt_long(argc, argv, "t:m:s:j:o:fT:h", opts, NULL)) != -1;) {
        switch (c) {
        case 't': o.tier = optarg; break;
        case 'm':
            /* the filter is read whole (its readers hold 1 kB): a longer one is refused, never cut */
            if (strlen(optarg) >= 1024) {
                fprintf(stderr, "touche run: --methods: at most 1023 characters (got %zu)\n",
                        strlen(optarg));
                return 2;
            }
            o.methods = optarg;
            break;
        case 'o': o.out_root = optarg; break;
        case 'f': force = 1; break;
        case 'T': timings = optarg; break;
        case 's':
            if (o.nset >= MAXSET) {
                fprintf(stderr, "touche run: --set '%s': at most %d --set options in one run\n",
                        optarg, MAXSET);
                return 2;
            }
            if (!parse_set(optarg, &set[o.nset])) return 2;
            o.nset++;
            break;
        case 'j':
            if (!tc_arg_int("touche run", "--threads", optarg, 1, 1024, &o.threads)) return 2;
            omp_set_num_threads(o.threads); /* kernels outside sweeps too */
            break;
        case 'h':
            printf("usage: touche run NAME|all|SCRIPT.cfg ... [--tier quick|full] [--methods a,b]\n"
                   "                  [--set LABEL.PARAM=VALUE]... [--threads N] [--out DIR]\n"
                   "                  [--force] [--timings FILE]\n"
                   "each experiment's work (steps, memory, time) is estimated before anything\n"
                   "runs; one above 1e9 steps, a day over its threads or half the memory is\n"
                   "refused unless --force is given (docs/architecture.md, work estimates)\n"
                   "--timings FILE: a CSV row per experiment with its sweeps' items, wall and\n"
                   "CPU time, ranks and threads (for touche bench ranks; timings only, no results)\n"
                   "exit status: 0 every run ok; 1 an experiment could not finish (outputs of\n"
                   "that experiment left as they were); 2 bad command line or input (nothing\n"
                   "run); 3 finished, but runs failed (all written, the reasons in the summary,\n"
                   "runs.csv and report.md); 5 finished, but an output is missing (a figure, the\n"
                   "report or the PDF: see the warnings); 130 interrupted\n");
            return 0;
        default: return 2;
        }
    }
    /* --timings replaces only a regular file: said before anything runs */
    tc_error terr;
    tc_error_clear(&terr);
    if (timings && tc_outfile_target(timings, &terr)) {
        fprintf(stderr, "touche run: --timings '%s' is not a regular file: %s\n", timings, terr.msg);
        return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "touche run: name an experiment, 'all' or a script (see touche list)\n");
        return 2;
    }
    if (strcmp(o.tier, "quick") && strcmp(o.tier, "full")) {
        fprintf(stderr, "touche run: --tier must be quick or full (got '%s')\n", o.tier);
        return 2;
    }
    /* plan everything before anything runs */
    static todo t[MAXRUN];
    int n = 0, rc = 0;
    for (int i = optind; i < argc; i++)
        if (!add_todo(argv[i], o.source_dir, t, &n)) return 2;
    if (!names_unique(t, &n)) return 2;
    for (int i = 0; i < n; i++) {
        tc_error err;
        tc_error_clear(&err);
        if (tc_exp_plan(&t[i].x, t[i].type, t[i].script, t[i].name, &o, &err)) {
            tc_cli_error(&err, 1);
            rc = 2;
            break;
        }
    }
    if (!rc && o.methods && !check_filter(o.methods, t, n)) rc = 2;
    if (!rc && !check_sets(set, o.nset, t, n)) rc = 2;
    for (int i = 0; !rc && i < n; i++) print_plan(t[i].x);
    /* the work of each: above the limits nothing runs, unless --force */
    static tc_work work[MAXRUN];
    for (int i = 0; !rc && i < n; i++) {
        tc_error err;
        tc_error_clear(&err);
        if (tc_exp_work_check(t[i].x, force, &work[i], &err)) {
            tc_cli_error(&err, 1);
            rc = 2;
        }
    }
    /* an experiment where --methods selects nothing (beyond its references) is not run */
    int runnable = 0;
    for (int i = 0; !rc && i < n; i++) {
        const tc_exp *x = t[i].x;
        if (o.methods && x->nneed && !x->nselected) {
            fprintf(stderr, "touche: %s not run: none of --methods '%s' runs there\n", x->name, o.methods);
            tc_exp_free(t[i].x);
            t[i].x = NULL;
        } else
            runnable++;
    }
    if (!rc && !runnable) {
        fprintf(stderr, "touche run: nothing to run\n");
        rc = 2;
    }
    if (rc) {
        for (int i = 0; i < n; i++) tc_exp_free(t[i].x);
        return rc;
    }
    /* the output directory takes files before hours of work go into them (rank 0 writes them,
     * every rank follows its word) */
    {
        tc_error err;
        tc_error_clear(&err);
        tc_outfile probe;
        char path[1100];
        snprintf(path, sizeof path, "%s/.touche-write-test", o.out_root);
        int bad_out = 0;
        if (tc_ranks_rank() == 0 && (bad_out = tc_outfile_open(&probe, path, &err) != TC_OK))
            tc_cli_error(&err, TC_EIO);
        else if (tc_ranks_rank() == 0)
            tc_outfile_abort(&probe);
        if (tc_ranks_agree(bad_out)) {
            for (int i = 0; i < n; i++) tc_exp_free(t[i].x);
            return 2;
        }
    }
    /* run them; an interrupt abandons the one running and leaves every output set as it was */
    signal_quiet = tc_ranks_rank() > 0;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int failed = 0, io_failed = 0;
    static double run_wall[MAXRUN];
    static int run_st[MAXRUN], run_lent[MAXRUN];
    for (int i = 0; i < n; i++) run_wall[i] = NAN, run_st[i] = -1, run_lent[i] = 0;
    for (int i = 0; i < n && !tc_interrupted() && !io_failed; i++) {
        if (!t[i].x) continue;
        tc_error err;
        tc_error_clear(&err);
        double t0 = tc_wall_time();
        char est[200];
        tc_work_describe(&work[i], o.threads * tc_ranks_size(), est, sizeof est);
        char ranks[48] = "";
        if (tc_ranks_size() > 1) snprintf(ranks, sizeof ranks, "%d ranks x ", tc_ranks_size());
        fprintf(stderr, "touche: %s (tier %s, %s%d threads; %s)\n", t[i].name, o.tier, ranks,
                o.threads, est);
        tc_par_node_lent_max(1);
        tc_status st = tc_exp_execute(t[i].x, &err);
        run_wall[i] = tc_wall_time() - t0, run_st[i] = st, run_lent[i] = tc_par_node_lent_max(0);
        if (st) {
            tc_cli_error(&err, st);
            failed++;
            /* a write that failed (read-only or full disk) stops everything after it */
            io_failed = st == TC_EIO;
        } else {
            const tc_exp *x = t[i].x;
            char busy[200] = "", lent[64] = "";
            /* over MPI ranks: every rank's threads and CPU time */
            char whose[48] = "";
            if (tc_ranks_size() > 1) snprintf(whose, sizeof whose, "%d ranks x ", tc_ranks_size());
            /* threads waiting ranks lent to the working ranks of their machine (docs/mpi.md) */
            if (run_lent[i] > 0) snprintf(lent, sizeof lent, " (+ up to %d lent between ranks)", run_lent[i]);
            if (x->sweep_wall_s > 0)
                snprintf(busy, sizeof busy, " (sweep: %ld items in %.1f s on %s%d thread%s%s, %.1f s of CPU, %.0f %% busy)",
                         x->sweep_items, x->sweep_wall_s, whose, o.threads, o.threads == 1 ? "" : "s", lent, x->sweep_cpu_s,
                         100 * x->sweep_cpu_s / (o.threads * tc_ranks_size() * x->sweep_wall_s));
            fprintf(stderr, "touche: %s done in %.1f s%s -> %s/%s\n", t[i].name, tc_wall_time() - t0,
                    busy, o.out_root, t[i].name);
        }
    }
    if (tc_interrupted()) {
        fprintf(stderr, "touche: interrupted; every output set is as it was before this one\n");
        for (int i = 0; i < n; i++) tc_exp_free(t[i].x);
        return 130;
    }
    if (io_failed) {
        fprintf(stderr, "touche: stopped: an output could not be written (see above: it says "
                        "where that experiment's earlier outputs are); the experiments after it "
                        "did not run and the report was not rewritten, so their earlier outputs "
                        "and the report stay as they were\n");
        for (int i = 0; i < n; i++) tc_exp_free(t[i].x);
        return 1;
    }
    /* the report (rank 0's), then what went wrong */
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_ranks_rank() == 0 ? tc_exp_report(o.out_root, &err) : TC_OK;
    /* an interrupt while the report was written stops there: every experiment is complete */
    if (tc_ranks_rank() == 0 && tc_interrupted()) {
        fprintf(stderr,
                "touche: interrupted while writing the report: every experiment's outputs "
                "are complete; report.md and the PDF (paper/) are each the new one or the "
                "one before; touche report --out %s rebuilds them\n",
                o.out_root);
        for (int i = 0; i < n; i++)
            tc_exp_free(t[i].x);
        return tc_ranks_agree(130);
    }
    int bad = summary(t, n);
    if (st) tc_cli_error(&err, st);
    if (timings && tc_ranks_rank() == 0 && write_timings(timings, t, n, &o, run_wall, run_st, run_lent)) bad |= 2;
    /* an output missing (a figure, the report, the PDF, the timings) outranks failed runs */
    int missing = (bad & 2) || st;
    fprintf(stderr, "touche: outputs in %s (report: %s/report.md)%s\n", o.out_root, o.out_root,
            failed ? "; some experiments FAILED"
            : missing ? "; some outputs are missing (see above)"
            : bad ? "; some runs failed (see above)" : "");
    for (int i = 0; i < n; i++) tc_exp_free(t[i].x);
    return tc_ranks_agree(failed ? 1 : missing ? 5 : bad ? 3 : 0);
}

/* the output root is a directory holding at least one <experiment>/section.md; else say which
 * directory and what it lacks, and return 0 */
static int report_input(const char *out) {
    struct stat sb;
    if (stat(out, &sb) != 0) {
        fprintf(stderr,
                "touche report: --out '%s': no such directory; run the experiments first "
                "(touche run all --out %s) or name the output root they wrote\n",
                out, out);
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "touche report: --out '%s': not a directory\n", out);
        return 0;
    }
    struct dirent **ents;
    int ne = scandir(out, &ents, NULL, alphasort), found = 0;
    if (ne < 0) {
        fprintf(stderr, "touche report: --out '%s': cannot list the directory\n", out);
        return 0;
    }
    for (int i = 0; i < ne; i++) {
        char sec[1400];
        snprintf(sec, sizeof sec, "%s/%s/section.md", out, ents[i]->d_name);
        found += ents[i]->d_name[0] != '.' && tc_file_readable(sec);
        free(ents[i]);
    }
    free(ents);
    if (!found)
        fprintf(stderr,
                "touche report: --out '%s' holds no experiment outputs (no "
                "<experiment>/section.md): run the experiments first (touche run all "
                "--out %s) or name the output root they wrote\n",
                out, out);
    return found > 0;
}

int tc_cmd_report(int argc, char **argv) {
    const char *out = "out";
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: touche report [--out DIR]\n"
                   "  rebuilds DIR/report.md, DIR/experiments.tex and the PDF (DIR/paper/) from\n"
                   "  the experiments' outputs under DIR (default ./out); TOUCHE_NO_PDF=1 writes\n"
                   "  report.md only\n"
                   "  exit status: 0 ok; 1 the report or PDF could not be written; 2 a bad\n"
                   "  command line, or DIR missing or holding no experiment outputs\n"
                   "  (<experiment>/section.md; nothing written)\n");
            return 0;
        } else {
            fprintf(stderr, "usage: touche report [--out DIR]\n");
            return 2;
        }
    /* a typo in --out is an error, not an empty report */
    if (!report_input(out)) return 2;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_exp_report(out, &err);
    if (st) tc_cli_error(&err, st);
    return st ? 1 : 0;
}
