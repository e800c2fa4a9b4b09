/* SPDX-License-Identifier: MIT */
/* a session: what one `touche run` does with the experiments asked for — plan every one before
 * any runs (scripts, methods, --methods, --set), check the overrides and the work, probe the
 * output root, run them, write the report and the timings, and say what went wrong. The program
 * parses its command line into a tc_run_opts and hands the session what it names; the session
 * speaks on stderr (plans, progress, the summary) as the runner does */
#ifndef TC_SESSION_H
#define TC_SESSION_H

#include "exp/tc_experiment.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_session tc_session;

/* the most experiments and --set overrides of one session */
#define TC_SESSION_MAXRUN 64
#define TC_SESSION_MAXSET 64

/* what a session ends with, the exit status of `touche run` */
enum {
    TC_RUN_OK = 0,            /* every run ok */
    TC_RUN_FAILED = 1,        /* an experiment could not finish (its outputs left as they were) */
    TC_RUN_BAD_INPUT = 2,     /* bad command line or input: nothing ran */
    TC_RUN_RUNS_FAILED = 3,   /* finished, but runs failed (all written, reasons in the summary) */
    TC_RUN_MISSING = 5,       /* finished, but an output is missing (a figure, the report, PDF) */
    TC_RUN_INTERRUPTED = 130, /* SIGINT or SIGTERM (tc_interrupt) */
};

/* a session for the options o (copied, with its o->nset overrides, at most
 * TC_SESSION_MAXSET); force: run past the work limits; timings: a CSV of each experiment's
 * timings (NULL: none), refused at once when it names something other than a regular file;
 * the tier must be "quick" or "full".
 * Every function here says what went wrong on stderr and returns its status */
tc_status tc_session_alloc(tc_session **s, const tc_run_opts *o, int force, const char *timings);
void tc_session_free(tc_session *s);

/* add what one command-line word names: "all", an experiment (or its prefix, "e1"), or a
 * script file of one's own (its driver named inside; its outputs go to the file's name less
 * .cfg); an experiment named twice runs once */
tc_status tc_session_add(tc_session *s, const char *arg);

/* plan everything before anything runs: every experiment, then --methods and --set against
 * them, each one's plan on stderr, the work checks, the experiments --methods leaves nothing
 * to run in, and a probe of the output root. Any error (said on stderr) is TC_EINVAL: nothing
 * ran and nothing was written */
tc_status tc_session_plan(tc_session *s);

/* run the planned experiments, then the report, the summary and the timings; returns the
 * TC_RUN_* status */
int tc_session_run(tc_session *s);

#ifdef __cplusplus
}
#endif

#endif
