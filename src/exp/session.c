/* SPDX-License-Identifier: MIT */
/* the session of one `touche run`: plan every experiment asked for before any runs, check the
 * overrides, the work and the output root, run them, then the report, the summary and the
 * timings */
#include "exp/tc_session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "exp/exp_private.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"

/* one experiment asked for, and how its run went */
typedef struct todo {
    const tc_experiment_type *type;
    char script[1100], name[64];
    tc_exp *x;
    tc_work work;
    double wall; /* s, NAN until it ran */
    int st;      /* its tc_status, -1 until it ran */
    int lent;    /* threads lent to it between ranks */
} todo;

struct tc_session {
    tc_run_opts o; /* o.set points at set */
    tc_override set[TC_SESSION_MAXSET];
    int force;
    const char *timings;
    int n;
    todo t[TC_SESSION_MAXRUN];
    int unavailable; /* experiments of several that this build cannot run (not planned) */
};

tc_status tc_session_alloc(tc_session **out, const tc_run_opts *o, int force, const char *timings) {
    *out = NULL;
    /* --timings replaces only a regular file: said before anything runs */
    tc_error err;
    tc_error_clear(&err);
    if (timings && tc_outfile_target(timings, &err)) {
        fprintf(stderr, "touche run: --timings '%s' is not a regular file: %s\n", timings, err.msg);
        return TC_EINVAL;
    }
    if (strcmp(o->tier, "quick") && strcmp(o->tier, "full")) {
        fprintf(stderr, "touche run: --tier must be quick or full (got '%s')\n", o->tier);
        return TC_EINVAL;
    }
    if (o->nset > TC_SESSION_MAXSET) {
        fprintf(stderr, "touche run: at most %d --set options in one run\n", TC_SESSION_MAXSET);
        return TC_EINVAL;
    }
    tc_session *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->o = *o;
    if (o->nset) memcpy(s->set, o->set, (size_t)o->nset * sizeof *s->set);
    s->o.set = s->set;
    s->force = force;
    s->timings = timings;
    *out = s;
    return TC_OK;
}

void tc_session_free(tc_session *s) {
    if (!s) return;
    for (int i = 0; i < s->n; i++)
        tc_exp_free(s->t[i].x);
    free(s);
}

/* ---------- what to run ---------- */

/* the next slot for experiment type x with its script and output name */
static tc_status push(tc_session *s, const tc_experiment_type *x, const char *script,
                      const char *name, int namelen) {
    if (s->n >= TC_SESSION_MAXRUN) {
        fprintf(stderr, "touche run: %s: at most %d experiments in one run\n", script,
                TC_SESSION_MAXRUN);
        return TC_EINVAL;
    }
    todo *t = &s->t[s->n++];
    memset(t, 0, sizeof *t);
    t->type = x;
    t->wall = NAN;
    t->st = -1;
    snprintf(t->script, sizeof t->script, "%s", script);
    snprintf(t->name, sizeof t->name, "%.*s", namelen, name);
    return TC_OK;
}

/* a built-in experiment with its built-in script */
static tc_status push_builtin(tc_session *s, const tc_experiment_type *x) {
    char script[1100];
    tc_experiment_script(x, s->o.source_dir, script, sizeof script);
    return push(s, x, script, x->name, (int)strlen(x->name));
}

/* a script of one's own: it names its driver; its name is the file's, less .cfg */
static tc_status push_script(tc_session *s, const char *arg) {
    if (!tc_file_readable(arg)) {
        char names[512] = "";
        for (int j = 0; tc_experiment_at(j); j++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? ", " : "",
                     tc_experiment_at(j)->name);
        fprintf(stderr,
                "touche run: '%s' is neither an experiment (%s, all) nor a readable "
                "script file\n",
                arg, names);
        return TC_EINVAL;
    }
    char driver[128];
    tc_error err;
    tc_error_clear(&err);
    if (tc_script_peek_driver(arg, driver, sizeof driver, &err)) {
        tc_error_print(&err, (tc_status)1);
        return TC_EINVAL;
    }
    const tc_experiment_type *x = tc_experiment_find(driver);
    if (!x || strcmp(x->name, driver)) {
        fprintf(stderr,
                "touche run: %s: driver '%s' is not a registered experiment (see touche "
                "list)\n",
                arg, driver);
        return TC_EINVAL;
    }
    const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
    size_t len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".cfg")) len -= 4;
    /* the name is the output folder's: out/paper/ is the PDF's, which the report replaces */
    if (len == 5 && !strncmp(base, "paper", 5)) {
        fprintf(stderr,
                "touche run: %s: a script may not be called paper.cfg (its outputs would go "
                "to the report's paper/ folder, which the PDF build replaces); rename it\n",
                arg);
        return TC_EINVAL;
    }
    return push(s, x, arg, base, (int)len);
}

/* an experiment named twice runs once; two scripts with one name would write one output folder */
static tc_status deduplicate(tc_session *s) {
    for (int i = s->n - 1; i > 0; i--)
        for (int j = 0; j < i; j++) {
            if (strcmp(s->t[i].name, s->t[j].name)) continue;
            if (strcmp(s->t[i].script, s->t[j].script)) {
                fprintf(stderr,
                        "touche run: %s and %s would both write to the folder %s/ of the "
                        "output root; rename one of the scripts\n",
                        s->t[j].script, s->t[i].script, s->t[i].name);
                return TC_EINVAL;
            }
            memmove(&s->t[i], &s->t[i + 1], (size_t)(s->n - i - 1) * sizeof *s->t);
            s->n--;
            break;
        }
    return TC_OK;
}

tc_status tc_session_add(tc_session *s, const char *arg) {
    tc_status st = TC_OK;
    if (!strcmp(arg, "all")) {
        for (int j = 0; tc_experiment_at(j) && !st; j++)
            st = push_builtin(s, tc_experiment_at(j));
    } else if (tc_experiment_find(arg)) {
        st = push_builtin(s, tc_experiment_find(arg));
    } else {
        st = push_script(s, arg);
    }
    return st ? st : deduplicate(s);
}

/* ---------- planning ---------- */

/* one line per experiment: which methods joined, which cannot run there and why */
static void print_plan(const tc_exp *x) {
    fprintf(stderr, "touche: %s (driver %s, tier %s):", x->name, x->type->name, x->tier);
    if (x->nmethod == 0 && x->nneed == 0)
        fprintf(stderr, " no registered methods (its own solvers)");
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
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                 tc_model_at(i)->name);
    for (int i = 0; tc_engine_at(i); i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                 tc_engine_at(i)->name);
}

/* every --methods entry must name something */
static tc_status check_filter(const tc_session *s) {
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s->o.methods);
    for (char *sv = NULL, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
        int known = 0;
        tc_method m;
        for (int i = 0; i < s->n && !known; i++)
            known = s->t[i].x && tc_exp_knows(s->t[i].x, tok);
        if (known || tc_method_parse(&m, tok, NULL) == TC_OK) continue;
        char names[1024];
        fprintf(stderr, "touche run: --methods: no method called '%s'. Valid are the labels", tok);
        for (int i = 0; i < s->n; i++)
            if (s->t[i].x && s->t[i].x->labels[0])
                fprintf(stderr, "\n  of %s: %s", s->t[i].name, s->t[i].x->labels);
        known_names(names, sizeof names);
        fprintf(stderr,
                "\n  and the registered models and engines (a model also as model/solver): "
                "%s\n",
                names);
        return TC_EINVAL;
    }
    return TC_OK;
}

/* every --set must have found a method */
static tc_status check_sets(const tc_session *s) {
    for (int k = 0; k < s->o.nset; k++) {
        if (s->set[k].used) continue;
        fprintf(stderr,
                "touche run: --set %s: no method labelled or named '%s' runs in the "
                "experiments asked for. Valid targets:",
                s->set[k].text, s->set[k].target);
        for (int i = 0; i < s->n; i++) {
            const tc_exp *x = s->t[i].x;
            if (!x) continue;
            fprintf(stderr, "\n  %s:", s->t[i].name);
            for (int j = 0; j < x->nmethod; j++)
                fprintf(stderr, " %s (%s)", x->method[j].label, tc_method_base(&x->method[j].m));
        }
        fprintf(stderr, "\n");
        return TC_EINVAL;
    }
    return TC_OK;
}

/* plan each experiment, then the overrides against all of them */
static tc_status plan_all(tc_session *s) {
    for (int i = 0; i < s->n; i++) {
        tc_error err;
        tc_error_clear(&err);
        todo *t = &s->t[i];
        tc_status st = tc_exp_plan(&t->x, t->type, t->script, t->name, &s->o, &err);
        /* of several, one this build cannot run (a reference engine left out) is not run; the
         * rest go on, and the exit status says an output is missing */
        if (st == TC_EUNSUP && s->n > 1) {
            fprintf(stderr, "touche: %s NOT RUN: this build cannot run it: %s:%d: %s\n", t->name,
                    err.file, err.line, err.msg);
            s->unavailable++;
            continue;
        }
        if (st) {
            tc_error_print(&err, (tc_status)1);
            return TC_EINVAL;
        }
    }
    if (s->o.methods && check_filter(s)) return TC_EINVAL;
    if (check_sets(s)) return TC_EINVAL;
    for (int i = 0; i < s->n; i++)
        if (s->t[i].x) print_plan(s->t[i].x);
    /* the work of each: above the limits nothing runs, unless --force */
    for (int i = 0; i < s->n; i++) {
        tc_error err;
        tc_error_clear(&err);
        if (s->t[i].x && tc_exp_work_check(s->t[i].x, s->force, &s->t[i].work, &err)) {
            tc_error_print(&err, (tc_status)1);
            return TC_EINVAL;
        }
    }
    return TC_OK;
}

/* an experiment where --methods selects nothing (beyond its references) is not run */
static tc_status drop_unselected(tc_session *s) {
    int runnable = 0;
    for (int i = 0; i < s->n; i++) {
        const tc_exp *x = s->t[i].x;
        if (!x) continue;
        if (s->o.methods && x->nneed && !x->nselected) {
            fprintf(stderr, "touche: %s not run: none of --methods '%s' runs there\n", x->name,
                    s->o.methods);
            tc_exp_free(s->t[i].x);
            s->t[i].x = NULL;
        } else
            runnable++;
    }
    if (runnable) return TC_OK;
    fprintf(stderr, "touche run: nothing to run\n");
    return TC_EINVAL;
}

/* the output root takes files before hours of work go into them (rank 0 writes them, every
 * rank follows its word) */
static tc_status probe_out(const tc_session *s) {
    tc_error err;
    tc_error_clear(&err);
    tc_outfile probe;
    char path[1100];
    snprintf(path, sizeof path, "%s/.touche-write-test", s->o.out_root);
    int bad = 0;
    if (tc_ranks_rank() == 0 && (bad = tc_outfile_open(&probe, path, &err) != TC_OK))
        tc_error_print(&err, TC_EIO);
    else if (tc_ranks_rank() == 0)
        tc_outfile_abort(&probe);
    return tc_ranks_agree(bad) ? TC_EINVAL : TC_OK;
}

tc_status tc_session_plan(tc_session *s) {
    if (!s->n) {
        fprintf(stderr, "touche run: name an experiment, 'all' or a script (see touche list)\n");
        return TC_EINVAL;
    }
    tc_status st = plan_all(s);
    if (!st) st = drop_unselected(s);
    if (!st) st = probe_out(s);
    return st;
}

/* ---------- running ---------- */

/* "touche: NAME done in T s (sweep: ...) -> OUT/NAME" */
static void say_done(const tc_session *s, const todo *t, double seconds) {
    const tc_exp *x = t->x;
    int threads = s->o.threads, ranks = tc_ranks_size();
    char busy[200] = "", lent[64] = "", whose[48] = "";
    /* over MPI ranks: every rank's threads and CPU time */
    if (ranks > 1) snprintf(whose, sizeof whose, "%d ranks x ", ranks);
    /* threads waiting ranks lent to the working ranks of their machine (docs/mpi.md) */
    if (t->lent > 0) snprintf(lent, sizeof lent, " (+ up to %d lent between ranks)", t->lent);
    if (x->sweep_wall_s > 0)
        snprintf(busy, sizeof busy,
                 " (sweep: %ld items in %.1f s on %s%d thread%s%s, %.1f s of CPU, %.0f %% busy)",
                 x->sweep_items, x->sweep_wall_s, whose, threads, threads == 1 ? "" : "s", lent,
                 x->sweep_cpu_s, 100 * x->sweep_cpu_s / (threads * ranks * x->sweep_wall_s));
    fprintf(stderr, "touche: %s done in %.1f s%s -> %s/%s\n", t->name, seconds, busy, s->o.out_root,
            t->name);
}

/* run one experiment: what it is about to do, then how it went; returns its status */
static tc_status run_one(tc_session *s, todo *t) {
    tc_error err;
    tc_error_clear(&err);
    double t0 = tc_wall_time();
    char est[200], ranks[48] = "";
    tc_work_describe(&t->work, s->o.threads * tc_ranks_size(), est, sizeof est);
    if (tc_ranks_size() > 1) snprintf(ranks, sizeof ranks, "%d ranks x ", tc_ranks_size());
    fprintf(stderr, "touche: %s (tier %s, %s%d threads; %s)\n", t->name, s->o.tier, ranks,
            s->o.threads, est);
    tc_par_node_lent_max(1);
    tc_status st = tc_exp_execute(t->x, &err);
    t->wall = tc_wall_time() - t0;
    t->st = st;
    t->lent = tc_par_node_lent_max(0);
    if (st)
        tc_error_print(&err, st);
    else
        say_done(s, t, tc_wall_time() - t0);
    return st;
}

/* the summary of what went wrong: 1 when runs failed, 2 when an output is missing (a warning),
 * 3 both, 0 neither */
static int summary(const tc_session *s) {
    int bad = 0;
    for (int i = 0; i < s->n; i++) {
        const tc_exp *x = s->t[i].x;
        if (!x) continue;
        int nf = tc_exp_failed(x);
        if (nf)
            fprintf(stderr,
                    "touche: %s: %d of %d runs FAILED (reasons in %s/%s/runs.csv and "
                    "its report section):\n",
                    x->name, nf, x->nrun, s->o.out_root, x->name);
        for (int r = 0, shown = 0; r < x->nrun && shown < 5; r++) {
            const tc_run_record *rec = tc_exp_run_record(x, r);
            if (!rec->status) continue;
            fprintf(stderr, "    %s%s%s: %s\n",
                    rec->method >= 0 ? x->method[rec->method].label : "", rec->what[0] ? ", " : "",
                    rec->what, rec->reason);
            shown++;
        }
        if (x->nwarn) fprintf(stderr, "touche: %s: %d warning(s):\n%s", x->name, x->nwarn, x->warn);
        bad |= (nf > 0 ? 1 : 0) | (x->nwarn > 0 ? 2 : 0);
    }
    return bad;
}

/* --timings FILE: one CSV row per experiment that ran: its sweeps' items, wall and CPU time
 * (every rank's, summed at the end of the experiment), ranks and threads, the whole
 * experiment's wall time and how it ended; timings only, outside every output set (nothing here
 * enters a result digest); returns 1 after saying why it could not be written */
static int write_timings(const tc_session *s) {
    tc_error err;
    tc_error_clear(&err);
    tc_outfile f;
    if (tc_outfile_open(&f, s->timings, &err)) {
        tc_error_print(&err, TC_EIO);
        return 1;
    }
    fprintf(f.f, "experiment,tier,ranks,threads,items,sweep_wall_s,sweep_cpu_s,run_wall_s,runs,"
                 "failed_runs,status,lent_threads\n");
    for (int i = 0; i < s->n; i++) {
        const todo *t = &s->t[i];
        const tc_exp *x = t->x;
        if (!x || t->st < 0) continue;
        fprintf(f.f, "%s,%s,%d,%d,%ld,%.6f,%.6f,%.6f,%d,%d,%s,%d\n", x->name, s->o.tier,
                tc_ranks_size(), s->o.threads, x->sweep_items, x->sweep_wall_s, x->sweep_cpu_s,
                t->wall, x->nrun, tc_exp_failed(x), t->st ? tc_status_str((tc_status)t->st) : "ok",
                t->lent);
    }
    if (tc_outfile_commit(&f, &err)) {
        tc_error_print(&err, TC_EIO);
        return 1;
    }
    return 0;
}

/* after the experiments: the report (rank 0's), the summary, the timings */
static int finish(tc_session *s, int failed) {
    tc_error err;
    tc_error_clear(&err);
    const char *out = s->o.out_root;
    tc_status st = tc_ranks_rank() == 0 ? tc_exp_report(out, &err) : TC_OK;
    /* an interrupt while the report was written stops there: every experiment is complete */
    if (tc_ranks_rank() == 0 && tc_interrupted()) {
        fprintf(stderr,
                "touche: interrupted while writing the report: every experiment's outputs "
                "are complete; report.md and the PDF (paper/) are each the new one or the "
                "one before; touche report --out %s rebuilds them\n",
                out);
        return tc_ranks_agree(TC_RUN_INTERRUPTED);
    }
    int bad = summary(s);
    if (s->unavailable) {
        fprintf(stderr,
                "touche: %d experiment(s) NOT RUN: this build cannot run them (see above)\n",
                s->unavailable);
        bad |= 2;
    }
    if (st) tc_error_print(&err, st);
    if (s->timings && tc_ranks_rank() == 0 && write_timings(s)) bad |= 2;
    /* an output missing (a figure, the report, the PDF, the timings) outranks failed runs */
    int missing = (bad & 2) || st;
    fprintf(stderr, "touche: outputs in %s (report: %s/report.md)%s\n", out, out,
            failed    ? "; some experiments FAILED"
            : missing ? "; some outputs are missing (see above)"
            : bad     ? "; some runs failed (see above)"
                      : "");
    return tc_ranks_agree(failed    ? TC_RUN_FAILED
                          : missing ? TC_RUN_MISSING
                          : bad     ? TC_RUN_RUNS_FAILED
                                    : TC_RUN_OK);
}

int tc_session_run(tc_session *s) {
    /* an interrupt abandons the one running and leaves every output set as it was */
    int failed = 0, io_failed = 0;
    for (int i = 0; i < s->n && !tc_interrupted() && !io_failed; i++) {
        if (!s->t[i].x) continue;
        tc_status st = run_one(s, &s->t[i]);
        failed += st != TC_OK;
        /* a write that failed (read-only or full disk) stops everything after it */
        io_failed = st == TC_EIO;
    }
    if (tc_interrupted()) {
        fprintf(stderr, "touche: interrupted; every output set is as it was before this one\n");
        return TC_RUN_INTERRUPTED;
    }
    if (io_failed) {
        fprintf(stderr, "touche: stopped: an output could not be written (see above: it says "
                        "where that experiment's earlier outputs are); the experiments after it "
                        "did not run and the report was not rewritten, so their earlier outputs "
                        "and the report stay as they were\n");
        return TC_RUN_FAILED;
    }
    return finish(s, failed);
}
