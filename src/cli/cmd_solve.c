/* SPDX-License-Identifier: MIT */
/* touche solve: FCLIB local problems (touche run --dump-problems, or any FCLIB collection) read
 * by the validating reader and solved by touche's solvers on the raw (W, q, mu): velocity
 * projection's cone solver (fc3d NSGS) and the LCP step's pyramid; per problem and solver the
 * FCLIB merit, Siconos' error, iterations and time (docs/fclib.md) */
#include "cli/tc_cli.h"
#include "core/tc_args.h"
#include "solvers/tc_fc_solve.h"
#include "solvers/tc_fclib.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the pyramid's dense LCP has 6 unknowns a contact: Lemke with its fallbacks took 409 s on
 * 117 contacts of an E7 pile (19,426 pivots) */
#define SOLVE_PYRAMID_MAX 60

static const char solve_help[] =
    "usage: touche solve FILE.hdf5 ... [--csv] [--tol T] [--max-iter N] [--warm]\n"
    "read FCLIB local problems (3-D; touche run --dump-problems writes them) and solve\n"
    "each with touche's contact solvers on its raw (W, q, mu):\n"
    "  vp-nsgs      velocity projection's cone solver, Siconos fc3d NSGS, from r = 0,\n"
    "               to Siconos' relative error T (default 1e-10) or N sweeps (10000);\n"
    "               --warm: also from the file's solution (vp-nsgs-warm)\n"
    "  lcp-pyramid  the LCP step's 4-sided friction pyramid, Lemke with its fallbacks,\n"
    "               to the relative natural residual T (at most 60 contacts: Lemke on the\n"
    "               dense LCP of 6 unknowns a contact took 409 s on 117)\n"
    "beside the file's own solution (stored). Per problem and solver: contacts,\n"
    "fclib_merit (FCLIB's merit: the natural-map residual over 1 + sqrt(|q|)),\n"
    "siconos_error (fc3d_compute_error over |q|: what the solvers' tolerance bounds),\n"
    "iterations, seconds, status. --csv: the same as CSV on stdout.\n"
    "exit status: 0 every file read; 1 a file could not be read (named on stderr,\n"
    "the others still solved); 2 bad command line\n";

/* the table's file column: as wide as the longest name */
static int g_width = 40;

/* one row of the table */
static void row(int csv, const char *file, int nc, const char *solver, double merit, double serr,
                long long iters, double secs, const char *status) {
    if (csv) {
        printf("%s,%d,%s,%.6e,%.6e,%lld,%.6f,%s\n", file, nc, solver, merit, serr, iters, secs,
               status);
        return;
    }
    char it[32] = "-", tm[32] = "-";
    if (iters >= 0) snprintf(it, sizeof it, "%lld", iters);
    if (secs >= 0) snprintf(tm, sizeof tm, "%.4f", secs);
    printf("%-*s %8d  %-12s %12.4e %14.4e %10s %10s  %s\n", g_width, file, nc, solver, merit, serr,
           it, tm, status);
}

/* the file's name without its folders, for the table */
static const char *base(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* one problem: its stored solution, then each solver */
static void solve_one(const char *path, const tc_fc_problem *p, int csv, double tol, int max_iter,
                      int warm) {
    const char *name = base(path);
    double qn = 0;
    for (int i = 0; i < p->n; i++)
        qn += p->q[i] * p->q[i];
    qn = sqrt(qn);
    /* Siconos' relative error divides by |q| (not by a zero one) */
    double norm = qn > 0 ? qn : 1;
    double serr = NAN;
    if (p->has_solution) {
        tc_fc_siconos_error(p, p->r, norm, &serr);
        row(csv, name, p->nc, "stored", tc_fclib_merit(p, p->r), serr, -1, -1, "file's solution");
    }
    double *r = malloc(2 * (size_t)p->n * sizeof *r), *u = r ? r + p->n : NULL;
    if (!r) {
        fprintf(stderr, "touche solve: %s: out of memory\n", path);
        return;
    }
    tc_fc_result res;
    /* velocity projection's cone solver, from zero and (--warm) from the file's solution */
    for (int w = 0; w <= (warm && p->has_solution); w++) {
        const char *label = w ? "vp-nsgs-warm" : "vp-nsgs";
        if (tc_fc_solve_nsgs(p, w ? p->r : NULL, tol, max_iter, r, u, &res) == TC_OK) {
            tc_fc_siconos_error(p, r, norm, &serr);
            row(csv, name, p->nc, label, tc_fclib_merit(p, r), serr, res.iters, res.seconds,
                res.info ? "not converged" : "converged");
        } else
            row(csv, name, p->nc, label, NAN, NAN, -1, -1, "skipped: W too large for dense");
    }
    /* the LCP step's pyramid */
    if (p->nc <= SOLVE_PYRAMID_MAX && tc_fc_solve_pyramid(p, tol, max_iter, r, u, &res) == TC_OK) {
        tc_fc_siconos_error(p, r, norm, &serr);
        row(csv, name, p->nc, "lcp-pyramid", tc_fclib_merit(p, r), serr, res.iters, res.seconds,
            res.info ? "not solved" : "solved (pyramid)");
    } else
        row(csv, name, p->nc, "lcp-pyramid", NAN, NAN, -1, -1, "skipped: too many contacts");
    free(r);
}

int tc_cmd_solve(int argc, char **argv) {
    static const struct option opts[] = {{"csv", no_argument, 0, 'c'},
                                         {"tol", required_argument, 0, 't'},
                                         {"max-iter", required_argument, 0, 'n'},
                                         {"warm", no_argument, 0, 'w'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int csv = 0, max_iter = 10000, warm = 0;
    double tol = 1e-10;
    for (int c; (c = getopt_long(argc, argv, "ct:n:wh", opts, NULL)) != -1;) {
        switch (c) {
        case 'c':
            csv = 1;
            break;
        case 't':
            if (!tc_arg_real("touche solve", "--tol", optarg, 1e-16, 1, &tol)) return 2;
            break;
        case 'n':
            if (!tc_arg_int("touche solve", "--max-iter", optarg, 1, 100000000, &max_iter))
                return 2;
            break;
        case 'w':
            warm = 1;
            break;
        case 'h':
            fputs(solve_help, stdout);
            return 0;
        default:
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "touche solve: no FCLIB file given (see --help)\n");
        return 2;
    }
    for (int i = optind; i < argc; i++)
        if ((int)strlen(base(argv[i])) > g_width && strlen(base(argv[i])) < 200)
            g_width = (int)strlen(base(argv[i]));
    if (csv)
        printf("file,contacts,solver,fclib_merit,siconos_error,iterations,seconds,status\n");
    else
        printf("%-*s %8s  %-12s %12s %14s %10s %10s  %s\n", g_width, "file", "contacts", "solver",
               "fclib_merit", "siconos_error", "iterations", "seconds", "status");
    int bad = 0;
    for (int i = optind; i < argc; i++) {
        tc_fc_problem *p = NULL;
        tc_error err;
        tc_error_clear(&err);
        if (tc_fclib_read(argv[i], &p, NULL, &err)) {
            char msg[1024];
            tc_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "touche solve: %s\n", msg);
            bad = 1;
            continue;
        }
        solve_one(argv[i], p, csv, tol, max_iter, warm);
        tc_fc_problem_free(p);
        fflush(stdout);
    }
    return bad;
}
