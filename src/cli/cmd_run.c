/* SPDX-License-Identifier: MIT */
/* touche run: plan every experiment asked for (scripts, methods, --methods, --set) before any
 * runs, run them, write the report, and say what failed */
#include "cli/tc_cli.h"
#include "core/tc_args.h"
#include "core/tc_fs.h"
#include "exp/tc_ranks.h"
#include "exp/tc_session.h"
#include "sim/tc_sim.h"

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

static const char run_help[] =
    "usage: touche run NAME|all|SCRIPT.cfg ... [--tier quick|full] [--methods a,b]\n"
    "                  [--set LABEL.PARAM=VALUE]... [--threads N] [--out DIR]\n"
    "                  [--force] [--timings FILE]\n"
    "                  [--dump-problems DIR [--dump-every N] [--dump-max K]]\n"
    "each experiment's work (steps, memory, time) is estimated before anything\n"
    "runs; one above 1e9 steps, a day over its threads or half the memory is\n"
    "refused unless --force is given (docs/architecture.md, work estimates)\n"
    "--timings FILE: a CSV row per experiment with its sweeps' items, wall and\n"
    "CPU time, ranks and threads (for touche bench ranks; timings only, no results)\n"
    "--dump-problems DIR: the velocity-level solvers (the LCP steps, velocity\n"
    "projection) write the 3-D friction-contact problem of steps N, 2N, ... that have\n"
    "contacts (--dump-every N, default 500), at most K per simulation (--dump-max K,\n"
    "default 2), with their solution, as FCLIB files DIR/EXP-runR-METHOD-simS-stepN.hdf5\n"
    "(DIR made when missing; read them with touche solve; docs/fclib.md)\n"
    "exit status: 0 every run ok; 1 an experiment could not finish (outputs of\n"
    "that experiment left as they were); 2 bad command line or input (nothing\n"
    "run); 3 finished, but runs failed (all written, the reasons in the summary,\n"
    "runs.csv and report.md); 5 finished, but an output is missing (a figure, the\n"
    "report or the PDF: see the warnings; or, of several experiments, one this build\n"
    "cannot run, e.g. E2 without MuJoCo); 130 interrupted\n";

/* what the command line asks of a session */
typedef struct run_args {
    tc_run_opts o;
    tc_override set[TC_SESSION_MAXSET];
    int force, help;
    const char *timings;
    const char *dump; /* --dump-problems DIR, or NULL */
    int dump_every, dump_max;
} run_args;

/* one option; 0 after saying what is wrong with it */
static int run_option(run_args *a, int c, const char *arg) {
    switch (c) {
    case 't':
        a->o.tier = arg;
        return 1;
    case 'o':
        a->o.out_root = arg;
        return 1;
    case 'f':
        a->force = 1;
        return 1;
    case 'T':
        a->timings = arg;
        return 1;
    case 'h':
        a->help = 1;
        return 1;
    case 'D':
        a->dump = arg;
        return 1;
    case 'E':
        return tc_arg_int("touche run", "--dump-every", arg, 1, 1000000000, &a->dump_every);
    case 'K':
        return tc_arg_int("touche run", "--dump-max", arg, 1, 1000000, &a->dump_max);
    case 'm':
        /* the filter is read whole (its readers hold 1 kB): a longer one is refused, never cut */
        if (strlen(arg) >= 1024) {
            fprintf(stderr, "touche run: --methods: at most 1023 characters (got %zu)\n",
                    strlen(arg));
            return 0;
        }
        a->o.methods = arg;
        return 1;
    case 's': {
        if (a->o.nset >= TC_SESSION_MAXSET) {
            fprintf(stderr, "touche run: --set '%s': at most %d --set options in one run\n", arg,
                    TC_SESSION_MAXSET);
            return 0;
        }
        /* target.param=value (tc_arg_assign: a target or parameter too long is refused) */
        tc_override *o = &a->set[a->o.nset++];
        memset(o, 0, sizeof *o);
        snprintf(o->text, sizeof o->text, "%s", arg);
        return tc_arg_assign("touche run", "--set", arg, o->target, sizeof o->target, o->param,
                             sizeof o->param, &o->value);
    }
    case 'j':
        if (!tc_arg_int("touche run", "--threads", arg, 1, 1024, &a->o.threads)) return 0;
        omp_set_num_threads(a->o.threads); /* kernels outside sweeps too */
        return 1;
    default:
        return 0;
    }
}

int tc_cmd_run(int argc, char **argv) {
    static const struct option opts[] = {{"tier", required_argument, 0, 't'},
                                         {"methods", required_argument, 0, 'm'},
                                         {"set", required_argument, 0, 's'},
                                         {"threads", required_argument, 0, 'j'},
                                         {"out", required_argument, 0, 'o'},
                                         {"force", no_argument, 0, 'f'},
                                         {"timings", required_argument, 0, 'T'},
                                         {"dump-problems", required_argument, 0, 'D'},
                                         {"dump-every", required_argument, 0, 'E'},
                                         {"dump-max", required_argument, 0, 'K'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    static run_args a;
    a = (run_args){.o = {.source_dir = tc_source_dir(),
                         .out_root = "out",
                         .tier = "quick",
                         .threads = omp_get_max_threads()},
                   .dump_every = 500,
                   .dump_max = 2};
    a.o.set = a.set;
    /* over MPI ranks, rank 0 alone speaks */
    tc_ranks_quiet();
    for (int c; (c = getopt_long(argc, argv, "t:m:s:j:o:fT:D:E:K:h", opts, NULL)) != -1;)
        if (!run_option(&a, c, optarg)) return 2;
    if (a.help) {
        fputs(run_help, stdout);
        return 0;
    }
    /* --dump-problems: its folder made and probed before anything is planned or runs */
    tc_error err;
    tc_error_clear(&err);
    if ((a.dump_every != 500 || a.dump_max != 2) && !a.dump) {
        fprintf(stderr, "touche run: --dump-every and --dump-max need --dump-problems DIR\n");
        return 2;
    }
    if (a.dump && tc_sim_dump_problems(a.dump, a.dump_every, a.dump_max, &err)) {
        char msg[768];
        tc_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "touche run: --dump-problems: %s\n", msg);
        return 2;
    }
    /* plan everything before anything runs, then run */
    tc_session *s = NULL;
    if (tc_session_alloc(&s, &a.o, a.force, a.timings)) return 2;
    for (int i = optind; i < argc; i++)
        if (tc_session_add(s, argv[i])) {
            tc_session_free(s);
            return 2;
        }
    if (tc_session_plan(s)) {
        tc_session_free(s);
        return 2;
    }
    signal_quiet = tc_ranks_rank() > 0;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    int rc = tc_session_run(s);
    tc_session_free(s);
    return rc;
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
        if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
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
