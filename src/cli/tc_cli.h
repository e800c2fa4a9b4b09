/* SPDX-License-Identifier: MIT */
/* the touche program's subcommands */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "core/tc_provenance.h" /* tc_source_dir: where experiments/ and data/ live */

/* each returns the process exit status: 0 ok, 1 failure, 2 usage error */
int tc_cmd_list(int argc, char **argv);
int tc_cmd_run(int argc, char **argv);
int tc_cmd_check(int argc, char **argv);
int tc_cmd_bench(int argc, char **argv);
int tc_cmd_report(int argc, char **argv);
int tc_cmd_history(int argc, char **argv);
int tc_cmd_generate(int argc, char **argv);
int tc_cmd_solve(int argc, char **argv);

/* touche bench points: the points model's broad phase and contacts on piles of the given body
 * counts, each timed for --seconds, into bench_points.csv (run by exp/tc_bench.h's harness) */
struct tc_bench_def;
extern const struct tc_bench_def tc_bench_points;

/* touche bench all: every registered method on each experiment's scene beside MuJoCo, into
 * bench_all.csv and bench_all.md (argv[0] is "all"; --help lists the options) */
int tc_bench_all(int argc, char **argv);

/* touche bench ranks: each experiment's sweeps as one process and as MPI ranks of the same
 * workers, side by side (children `touche run`), into bench_ranks.csv and bench_ranks.md (argv[0]
 * is "ranks"; --help lists the options) */
int tc_bench_ranks(int argc, char **argv);

/* print "touche: <error>" to stderr */
struct tc_error;
void tc_cli_error(const struct tc_error *err, int status);

#endif
