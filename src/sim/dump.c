/* SPDX-License-Identifier: MIT */
/* friction-contact problems of chosen steps written as FCLIB files (touche run --dump-problems;
 * docs/fclib.md): a process-wide setting every simulation of a velocity-level solver picks up
 * when it is made, and a per-thread label the runner sets around each run, so every experiment
 * gets it without a change to its driver */
#include "sim/sim_private.h"
#include "core/tc_fs.h"
#include "core/tc_provenance.h"
#include "solvers/tc_fc_problem.h"
#include "solvers/tc_fclib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a simulation's part: where its files go and how many it wrote */
struct tc_sim_dump {
    char prefix[4096]; /* dir/label-method-simK */
    char label[160];
    long every;
    int max, written;
};

/* the setting (set before anything runs) and the thread's run label */
static struct {
    char dir[4000];
    long every;
    int max;
} g_dump;
static _Thread_local char t_label[160];
static _Thread_local int t_seq;

tc_status tc_sim_dump_problems(const char *dir, long every, int max, tc_error *err) {
    g_dump.dir[0] = 0;
    if (!dir) return TC_OK;
    if (every < 1) return tc_error_set(err, TC_EINVAL, NULL, 0, "dump-every", "must be >= 1");
    if (max < 1) return tc_error_set(err, TC_EINVAL, NULL, 0, "dump-max", "must be >= 1");
    if (strlen(dir) >= sizeof g_dump.dir - 64)
        return tc_error_set(err, TC_EINVAL, dir, 0, "dump-problems", "the folder name is too long");
    tc_status st = tc_mkdir_p(dir, err);
    if (st) return st;
    /* a probe: the folder must take a new file now, not after an hour of runs */
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/.touche-probe-%ld", dir, (long)getpid());
    FILE *f = fopen(probe, "wb");
    if (!f)
        return tc_error_set(err, TC_EIO, dir, 0, "dump-problems", "cannot write into it: %s",
                            strerror(errno));
    fclose(f);
    remove(probe);
    snprintf(g_dump.dir, sizeof g_dump.dir, "%s", dir);
    g_dump.every = every;
    g_dump.max = max;
    return TC_OK;
}

void tc_sim_dump_label(const char *label) {
    snprintf(t_label, sizeof t_label, "%s", label ? label : "");
    t_seq = 0;
}

/* a name's characters other than letters, digits, '.', '_' and '-' as '_' */
static void clean(char *s) {
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            *s = '_';
}

void tc_sim_dump_attach(tc_sim *s) {
    if (!g_dump.dir[0] || s->m.engine || !s->m.solver->fc_problem) return;
    struct tc_sim_dump *d = calloc(1, sizeof *d);
    if (!d) return; /* no files then; nothing else depends on it */
    /* outside a labelled run (a driver's study after its sweep): one count for the process */
    static _Atomic int unlabelled;
    int k = t_label[0] ? t_seq++ : unlabelled++;
    snprintf(d->label, sizeof d->label, "%s", t_label[0] ? t_label : "touche");
    char method[80];
    snprintf(method, sizeof method, "%s", s->m.spec);
    clean(method);
    snprintf(d->prefix, sizeof d->prefix, "%s/%s-%s-sim%d", g_dump.dir, d->label, method, k);
    d->every = g_dump.every;
    d->max = g_dump.max;
    s->dump = d;
}

void tc_sim_dump_detach(tc_sim *s) {
    free(s->dump);
    s->dump = NULL;
}

tc_status tc_sim_dump_step(tc_sim *s, char *why, size_t n) {
    struct tc_sim_dump *d = s->dump;
    if (d->written >= d->max || s->stats.steps % d->every) return TC_OK;
    tc_fc_problem *p = NULL;
    tc_status st = s->m.solver->fc_problem(s->sstate, &p);
    /* a step without contacts poses no problem: the next chosen step is tried */
    if (st == TC_EUNSUP) return TC_OK;
    if (st) {
        snprintf(why, n, "--dump-problems: the step's problem could not be assembled: %s",
                 tc_status_str(st));
        return st;
    }
    char path[4200], title[256], desc[1024];
    snprintf(path, sizeof path, "%s-step%07lld.hdf5", d->prefix, s->stats.steps);
    snprintf(title, sizeof title, "touche %s %s step %lld", d->label, s->m.spec, s->stats.steps);
    snprintf(desc, sizeof desc,
             "touche %s (%s): run %s, method %s, step %lld (t = %.9g s to %.9g s, dt = %g s), %d "
             "contacts; rows per contact (n, t1, t2), n from body a to b, u = W r + q the "
             "velocity of b's point minus a's (m/s), r the step's impulses (N s) as the solver "
             "left them",
             tc_version(), tc_revision(), d->label, s->m.spec, s->stats.steps, s->t - s->dt, s->t,
             s->dt, p->nc);
    tc_error err;
    tc_error_clear(&err);
    st = tc_fclib_write(path, p, title, desc, &err);
    tc_fc_problem_free(p);
    if (st) {
        char msg[600];
        tc_error_format(&err, msg, sizeof msg);
        snprintf(why, n, "--dump-problems: %s", msg);
        return st;
    }
    d->written++;
    return TC_OK;
}
