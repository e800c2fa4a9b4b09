/* SPDX-License-Identifier: MIT */
/* the touche program: dispatch to subcommands, global help */
#include "cli/tc_cli.h"
#include "core/tc_status.h"
#include "exp/tc_ranks.h"
#include "experiments/tc_experiments.h"
#include "core/tc_provenance.h"
#include "solvers/tc_lcp.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "touche — reproduction harness for rigid-body contact models\n"
    "\n"
    "usage: touche COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  list [NAME]               experiments, and methods with their parameters (unit, default);\n"
    "                            NAME an experiment (e1): the methods it runs, with their\n"
    "                            parameters as run, and those it skips; NAME a model, solver,\n"
    "                            engine or model/solver: that one (touche list --help)\n"
    "  run NAME|all|SCRIPT.cfg   run experiments; writes CSV, tables, figures, report.md\n"
    "                            (under mpirun -np N or srun: sweeps split over the ranks,\n"
    "                            docs/mpi.md)\n"
    "      --tier quick|full       problem size (default quick; full is the paper-sized run)\n"
    "      --methods a,b           only these methods (labels, specs or model/engine names; the\n"
    "                              references an experiment compares against stay)\n"
    "      --set LABEL.PARAM=VALUE set a method parameter (label or model/engine name), "
    "repeatable\n"
    "      --threads N             OpenMP threads (default: all cores)\n"
    "      --out DIR               output root (default ./out)\n"
    "      --timings FILE          a CSV row per experiment: sweep items, wall and CPU time\n"
    "      --dump-problems DIR     the velocity-level solvers' friction-contact problems of\n"
    "                              chosen steps as FCLIB files (--dump-every N, --dump-max K)\n"
    "      exit status: 0 ok; 1 an experiment could not finish; 2 bad command line or input\n"
    "      (nothing run); 3 runs failed or outputs are missing (all written); 130 interrupted\n"
    "  check [options]           compare accuracy metrics and result digests under --out with\n"
    "                            each experiment's reference (experiments/eN/reference.*.cfg):\n"
    "                            failures first with their likely cause, one line per\n"
    "                            experiment, timings apart (never a failure); exit 1\n"
    "                            on a regression (new entries are listed, not failures)\n"
    "      --out DIR  --ref DIR  --history FILE (default OUT/history.tsv)  --verbose (every row)\n"
    "      --timings (a slowdown beyond tolerance fails)\n"
    "      --update (replace the references)  --update-new (add only what they lack); never\n"
    "      a method whose runs failed, unless --accept-failed (touche check --help)\n"
    "  solve FILE.hdf5 ...       FCLIB friction-contact problems (run --dump-problems) solved\n"
    "                            by touche's solvers: FCLIB merit, Siconos error, iterations,\n"
    "                            time (--csv; docs/fclib.md)\n"
    "  history [--file F] [--out DIR]  every metric against the checks recorded in F (default\n"
    "                            out/history.tsv): history.md and a figure per experiment\n"
    "  bench scm [options]       SCM pair evaluations/s vs points, 1 and all threads, beside\n"
    "                            MuJoCo's mj_forward on the same scene; writes bench_scm.csv\n"
    "      --points a,b,...  --out DIR  --seconds S (time per measurement, default 0.5)\n"
    "  bench pfc [options]       pfc force evaluation time vs mesh resolution (--levels, "
    "--shells)\n"
    "                            for sphere-sphere, box-box, sphere-plane and sphere on a rigid\n"
    "                            sphere: brute force vs the default broad phase on 1 and all\n"
    "                            threads, mean and best us per query, beside MuJoCo's mj_forward;\n"
    "                            writes bench_pfc.csv\n"
    "  bench all [options]       every method on each experiment's scene beside MuJoCo (--help)\n"
    "  bench ranks [options]     each experiment's sweeps as one process and as mpirun ranks of\n"
    "                            the same workers: items/s, efficiency, digests equal (--help)\n"
    "  bench NAME [options]      an experiment's benchmark: e2 (step time vs AOPC points),\n"
    "                            penalty (E4's piles: LCP vs penalty steps/s; --bodies a,b,...\n"
    "                            --steps N); see touche list\n"
    "  report [--out DIR]        rebuild DIR/report.md and the PDF from the outputs under DIR\n"
    "                            (TOUCHE_NO_PDF=1: report.md only); exit 2, nothing written,\n"
    "                            when DIR is missing or holds no <experiment>/section.md\n"
    "  generate NAME [--out FILE] regenerate an experiment's input data: e2 (finger\n"
    "                            trajectories, MuJoCo), e3 (FEM curves, CalculiX)\n"
    "  help, --help              this text;  --version  the revision\n"
    "\n"
    "environment: TOUCHE_SOURCE_DIR (experiments/, plots/, data/, paper/; default the source "
    "tree),\n"
    "             TOUCHE_NO_PROGRESS (no progress bar), TOUCHE_NO_PDF (report.md only),\n"
    "             OMP_NUM_THREADS.\n";

void tc_cli_error(const struct tc_error *err, int status) {
    tc_error_print(err, (tc_status)status);
}

static int dispatch(int argc, char **argv) {
    /* over MPI ranks only `run` shares the work; any other command runs on rank 0 alone */
    if (tc_ranks_rank() > 0 && (argc < 2 || strcmp(argv[1], "run"))) return 0;
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("touche %s (%s; MPI: %s)\n", tc_version(), tc_revision(), tc_ranks_library());
        return 0;
    }
    /* subcommands see argv starting at their own name */
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"list", tc_cmd_list},         {"run", tc_cmd_run},
                {"check", tc_cmd_check},       {"bench", tc_cmd_bench},
                {"report", tc_cmd_report},     {"history", tc_cmd_history},
                {"generate", tc_cmd_generate}, {"solve", tc_cmd_solve}};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (!strcmp(cmd, cmds[i].name)) return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "touche: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}

/* Siconos multiplies and factors through OpenBLAS, which picks its kernels for the CPU when it
 * loads; their rounding differs (AVX-512 against AVX2 with FMA), and Lemke's choice among the
 * solutions of a degenerate contact LCP follows that rounding: E9's LCP box starts sliding at
 * +0.7 % or -63 % of mu m g at 2 ms, by kernel (docs/determinism.md). One kernel on every x86-64
 * machine: the program runs itself again once with OPENBLAS_CORETYPE set to the SSE3 kernels,
 * which every x86-64 CPU runs, unless the caller chose a kernel */
static void pin_blas_kernels(char **argv) {
#if defined(__x86_64__)
    if (getenv("OPENBLAS_CORETYPE")) return;
    if (setenv("OPENBLAS_CORETYPE", TC_BLAS_CORETYPE, 1)) return;
    execv("/proc/self/exe", argv);
    /* no exec: the CPU's own kernels, which `touche check` reports as another CPU kind */
    fprintf(stderr,
            "touche: warning: could not pin OpenBLAS to %s kernels; results may differ "
            "in the last bits from other machines'\n",
            TC_BLAS_CORETYPE);
#else
    (void)argv;
#endif
}

int main(int argc, char **argv) {
    pin_blas_kernels(argv);
    /* blocks of 4 MiB and more (a simulation's buffers) are mapped and unmapped when freed: with
     * glibc's sliding threshold the memory of freed simulations stayed in the heap, and E7's
     * quick tier peaked at 197 MB instead of 120 MB (docs/architecture.md, Memory) */
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    /* the runner gets the built-in experiments from the program (libtouche holds none) */
    tc_experiment_catalog(tc_experiments);
    /* MPI once for the whole program, only when an MPI launcher started it */
    if (tc_ranks_init(&argc, &argv)) return 1;
    int rc = dispatch(argc, argv);
    tc_ranks_finalize();
    return rc;
}
