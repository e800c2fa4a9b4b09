/* SPDX-License-Identifier: MIT */
/* the touche program: dispatch to subcommands, global help */
#include "cli/tc_cli.h"
#include "core/tc_status.h"
#include "tc_config.h"
#include "tc_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "touche — reproduction harness for rigid-body contact models\n"
    "\n"
    "usage: touche COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  list                      experiments, and methods with their parameters (unit, default)\n"
    "  run NAME|all [options]    run experiments; writes CSV, tables, figures, report.md\n"
    "      --tier quick|full       problem size (default quick; full is the paper-sized run)\n"
    "      --methods a,b           only these methods (labels, specs or model names)\n"
    "      --threads N             OpenMP threads (default: all cores)\n"
    "      --out DIR               output root (default ./out)\n"
    "  check [options]           compare metrics under --out with data/reference/ (exit 1 on a\n"
    "                            regression); appends to the history file\n"
    "      --out DIR  --ref DIR  --history FILE (default OUT/history.tsv)  --update\n"
    "  bench scm [options]       SCM pair evaluations/s vs points, 1 and all threads, beside\n"
    "                            MuJoCo's mj_forward on the same scene; writes bench_scm.csv\n"
    "      --points a,b,...  --out DIR  --seconds S (time per measurement, default 0.5)\n"
    "  bench pfc [options]       pfc force evaluation time vs mesh resolution (--levels, --shells)\n"
    "                            for sphere-sphere, box-box, sphere-plane and sphere on a rigid\n"
    "                            sphere: brute force vs the default broad phase on 1 and all\n"
    "                            threads, mean and best us per query, beside MuJoCo's mj_forward;\n"
    "                            writes bench_pfc.csv\n"
    "  bench e2                  E2's T scene: SCM Euler step time vs AOPC points beside MuJoCo's\n"
    "  bench penalty [options]   E4's piles: LCP (Lemke) vs multi-point penalty (RK4 and semi-\n"
    "                            implicit Euler) steps/s as contacts grow, one thread, same run;\n"
    "                            writes bench_penalty.csv\n"
    "      --bodies a,b,...  (default 2,4,8,16,24)  --steps N (default 200)  --out DIR\n"
    "  report [--out DIR]        rebuild OUT/report.md (and the PDF when pdflatex is present)\n"
    "  generate e2 [--out FILE]  regenerate E2's finger trajectories (cross-entropy search in\n"
    "                            MuJoCo; writes data/e2_trajectories.csv with provenance)\n"
    "  generate e3 [--out FILE]  regenerate E3's FEM curves with CalculiX (data/e3_fem.csv)\n"
    "  help, --help              this text;  --version  the revision\n"
    "\n"
    "environment: TOUCHE_SOURCE_DIR (experiments/, plots/, data/; default the source tree),\n"
    "             TOUCHE_NO_PROGRESS (no progress bar), OMP_NUM_THREADS.\n";

const char *tc_cli_source_dir(void) {
    const char *s = getenv("TOUCHE_SOURCE_DIR");
    return s && *s ? s : TC_SOURCE_DIR;
}

void tc_cli_error(const struct tc_error *err, int status) {
    char buf[1200];
    if (err && err->msg[0]) tc_error_format(err, buf, sizeof buf);
    else snprintf(buf, sizeof buf, "%s", tc_status_str((tc_status)status));
    fprintf(stderr, "touche: error: %s\n", buf);
}

int main(int argc, char **argv) {
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
        printf("touche 0.1.0 (%s)\n", TC_VCS_REVISION);
        return 0;
    }
    /* subcommands see argv starting at their own name */
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"list", tc_cmd_list},   {"run", tc_cmd_run},     {"check", tc_cmd_check},
                {"bench", tc_cmd_bench}, {"report", tc_cmd_report},
                {"generate", tc_cmd_generate}};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (!strcmp(cmd, cmds[i].name)) return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "touche: unknown command '%s'\n\n%s", cmd, usage);
    return 2;
}
