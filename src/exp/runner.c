/* SPDX-License-Identifier: MIT */
/* the runner: plan an experiment, run its sweep in parallel with one record per run, write
 * runs.csv, metrics.cfg with the result digests and the section, then put the whole output set
 * in place at once */
#include "exp/exp_private.h"

#include <math.h>
#include <stddef.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/tc_fs.h"
#include "core/tc_parallel.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

/* ---------- planning ---------- */

void tc_exp_need(tc_exp *x, unsigned caps, unsigned shapes, const char *what) {
    if (x->nneed >= TC_EXP_MAXNEED) return;
    tc_need *n = &x->need[x->nneed++];
    n->caps = caps, n->shapes = shapes;
    snprintf(n->what, sizeof n->what, "%s", what ? what : "");
}

void tc_exp_refer(tc_exp *x, const char *setting, const char *label) {
    if (x->nref >= TC_EXP_MAXREF) return;
    config_setting_t *v = tc_script_lookup(&x->script, NULL, setting);
    snprintf(x->ref[x->nref].setting, sizeof x->ref[0].setting, "%s", setting);
    snprintf(x->ref[x->nref].label, sizeof x->ref[0].label, "%s", label);
    x->ref[x->nref++].line = v ? (int)config_setting_source_line(v) : 0;
}

void tc_exp_require(tc_exp *x, const char *label) {
    if (x->nreq < TC_EXP_MAXREQ) snprintf(x->req[x->nreq++], sizeof x->req[0], "%s", label);
}

int tc_exp_method_find(const tc_exp *x, const char *label) {
    for (int k = 0; k < x->nmethod; k++)
        if (!strcmp(x->method[k].label, label)) return k;
    return -1;
}

tc_status tc_exp_plan(tc_exp **out, const tc_experiment_type *t, const char *script,
                      const char *name, const tc_run_opts *o, tc_error *err) {
    *out = NULL;
    tc_exp *x = calloc(1, sizeof *x);
    if (!x) return TC_ENOMEM;
    x->type = t, x->opts = o;
    x->tier = o->tier, x->source_dir = o->source_dir, x->threads = o->threads > 0 ? o->threads : 1;
    x->rank = tc_ranks_rank(), x->nrank = tc_ranks_size();
    /* the experiments in the order planned, the same on every rank (a sweep's queue key) */
    static unsigned planned;
    x->ordinal = planned++ & 0xffffu;
    snprintf(x->name, sizeof x->name, "%s", name);
    char why[200];
    tc_status st = TC_OK;
    if (!tc_label_ok(name, why, sizeof why))
        st = tc_error_set(err, TC_EINVAL, script, 0, NULL,
                          "the experiment's name '%s' (its output directory) %s", name, why);
    else if ((st = tc_script_load(&x->script, script, o->tier, err)) == TC_OK) {
        x->script_loaded = 1;
        /* the script names its driver */
        const char *d = tc_script_driver(&x->script);
        if (!d || strcmp(d, t->name))
            st = tc_error_set(err, TC_EINVAL, script, 0, "driver",
                              d ? "the script's driver is '%s', not '%s'"
                                : "the script must name its driver: driver = \"%s\";",
                              d ? d : t->name, t->name);
        else
            st = t->setup(x, &x->state, err);
    }
    if (!st) st = tc_exp_resolve(x, err);
    if (!st && t->check) st = t->check(x, x->state, err);
    /* a setting nobody read is a mistake in the script, not a default */
    if (!st) st = tc_script_check_read(&x->script, err);
    /* a built-in experiment's name is the built-in script's: its outputs are judged against the
     * paper's claims and the committed references, so a changed script may not take it */
    const tc_experiment_type *named = tc_experiment_find(name);
    char builtin[1100];
    snprintf(builtin, sizeof builtin, "%s/experiments/%s", o->source_dir ? o->source_dir : ".",
             named ? named->script : "");
    if (!st && named && !strcmp(named->name, name) && tc_file_readable(builtin) &&
        !tc_files_equal(script, builtin))
        st = tc_error_set(err, TC_EINVAL, script, 0, NULL,
                          "a script named like the built-in experiment %s but not the same as %s: "
                          "its outputs would go to %s/ and be judged against the paper's claims "
                          "and the reference of the built-in; name the file differently",
                          name, builtin, name);
    if (st) {
        tc_exp_free(x);
        return st;
    }
    *out = x;
    return TC_OK;
}

int tc_bench_fail(const char *name, const tc_error *err) {
    char msg[1200];
    tc_error_format(err, msg, sizeof msg);
    fprintf(stderr, "touche bench %s: %s\n", name, msg);
    return 1;
}

tc_status tc_exp_plan_builtin(tc_exp **x, const char *name, const char *tier, tc_error *err) {
    static tc_run_opts o;
    const tc_experiment_type *t = tc_experiment_find(name);
    if (!t) return tc_error_set(err, TC_ENOTFOUND, NULL, 0, NULL, "no experiment '%s'", name);
    char script[1100];
    snprintf(script, sizeof script, "%s/experiments/%s", tc_source_dir(), t->script);
    o = (tc_run_opts){.source_dir = tc_source_dir(), .out_root = "out", .tier = tier, .threads = 1};
    return tc_exp_plan(x, t, script, t->name, &o, err);
}

void tc_exp_free(tc_exp *x) {
    if (!x) return;
    if (x->state && x->type->free) x->type->free(x->state);
    if (x->script_loaded) tc_script_free(&x->script);
    if (x->md) fclose(x->md);
    if (x->tex) fclose(x->tex);
    free(x->md_buf), free(x->tex_buf);
    tc_metrics_free(&x->metrics);
    free(x->method), free(x->skip), free(x->run);
    free(x);
}

/* ---------- runs ---------- */

/* "name=value ..." of a method's parameters (model, solver, engine), each value in the shortest
 * form that reads back exactly */
static void params_text(const tc_method *m, char *buf, size_t n) {
    const tc_params *sets[3] = {&m->mparams, &m->sparams, &m->eparams};
    buf[0] = 0;
    for (int s = 0; s < 3; s++)
        for (int i = 0; i < sets[s]->n; i++) {
            char v[32];
            for (int d = 9; d <= 17; d++) {
                snprintf(v, sizeof v, "%.*g", d, sets[s]->v[i]);
                if (strtod(v, NULL) == sets[s]->v[i]) break;
            }
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s=%s", buf[0] ? " " : "",
                     sets[s]->spec[i].name, v);
        }
}

int tc_exp_add_run(tc_exp *x, int method, const tc_method *as_run, long long seed,
                   const char *fmt, ...) {
    if (x->nrun == x->caprun) {
        int cap = x->caprun ? 2 * x->caprun : 64;
        tc_run_record *r = realloc(x->run, (size_t)cap * sizeof *r);
        if (!r) return -1;
        x->run = r, x->caprun = cap;
    }
    tc_run_record *r = &x->run[x->nrun];
    memset(r, 0, sizeof *r);
    r->method = method, r->seed = seed;
    const tc_method *m = as_run ? as_run : method >= 0 ? &x->method[method].m : NULL;
    if (m) snprintf(r->spec, sizeof r->spec, "%s", m->spec), params_text(m, r->params, sizeof r->params);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    return x->nrun++;
}

void tc_exp_record(tc_exp *x, int run, tc_status st, const char *reason, long long steps,
                   double wall_s) {
    if (run < 0 || run >= x->nrun) return;
    tc_run_record *r = &x->run[run];
    r->steps += steps, r->wall_s += wall_s;
    if (st && !r->status) {
        r->status = st;
        snprintf(r->reason, sizeof r->reason, "%s", reason && reason[0] ? reason : tc_status_str(st));
    }
}

const tc_run_record *tc_exp_run_record(const tc_exp *x, int run) {
    return run >= 0 && run < x->nrun ? &x->run[run] : NULL;
}

int tc_exp_failed(const tc_exp *x) {
    int n = 0;
    for (int i = 0; i < x->nrun; i++) n += x->run[i].status != TC_OK;
    return n;
}

/* an item's place in the start order: decreasing cost, then item order */
typedef struct {
    double cost;
    int item;
} start_slot;
static int by_cost(const void *a, const void *b) {
    const start_slot *p = a, *q = b;
    if (p->cost != q->cost) return p->cost < q->cost ? 1 : -1;
    return (p->item > q->item) - (p->item < q->item);
}

/* CPU time (s) of this process and of its finished children (E3's CalculiX runs) */
static double cpu_time(void) {
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self), getrusage(RUSAGE_CHILDREN, &kids);
    const struct timeval t[4] = {self.ru_utime, self.ru_stime, kids.ru_utime, kids.ru_stime};
    double s = 0;
    for (int k = 0; k < 4; k++) s += (double)t[k].tv_sec + 1e-6 * (double)t[k].tv_usec;
    return s;
}

tc_status tc_exp_sweep(tc_exp *x, int n, const int *item_run, tc_item_fn fn, void *ctx) {
    return tc_exp_sweep_split(x, n, item_run, NULL, fn, NULL, ctx);
}

tc_status tc_exp_sweep_costed(tc_exp *x, int n, const int *item_run, const double *cost,
                              tc_item_fn fn, void *ctx) {
    return tc_exp_sweep_split(x, n, item_run, cost, fn, NULL, ctx);
}

/* run the items whose flag in run[] is set, on the threads, in the start order, each writing
 * only its own slot and setting ran[i]; a thread with no item left to start lends itself to the
 * items still running (tc_par_threads). With a key (not 0) the ranks of this machine take the
 * items from one queue (the same run[] on each) and count them done together */
static void run_items(tc_exp *x, int n, const start_slot *order, const unsigned char *run,
                      const int *item_run, tc_item_fn fn, void *ctx, tc_item *it, double *wall,
                      tc_progress *prog, unsigned key, unsigned char *ran) {
    /* the items to run, in the start order */
    int *todo = malloc(((size_t)n + 1) * sizeof *todo), nt = 0, next = 0;
    if (!todo) {
        for (int i = 0; i < n; i++)
            if (run[i]) it[i].status = TC_ENOMEM, snprintf(it[i].reason, sizeof it[i].reason, "out of memory");
        return;
    }
    for (int k = 0; k < n; k++)
        if (run[order[k].item]) todo[nt++] = order[k].item;
    tc_par_sweep_begin(x->threads);
#pragma omp parallel num_threads(x->threads)
    for (;;) {
        long k = key ? tc_par_node_take(key) : -1;
        if (k < 0) {
#pragma omp atomic capture
            k = next++;
        }
        if (k >= nt) {
            tc_par_sweep_idle();
            break;
        }
        int i = todo[k];
        ran[i] = 1;
        it[i].run = item_run ? item_run[i] : i;
        if (tc_interrupted()) {
            it[i].status = TC_EINTR;
            continue;
        }
        tc_par_sweep_start_item();
        double t0 = tc_wall_time();
        fn(ctx, i, &it[i]);
        wall[i] = tc_wall_time() - t0;
        tc_par_sweep_finish_item();
        long done = key ? tc_par_node_finish(key) : -1;
        if (done < 0) tc_progress_tick(prog);
        else tc_progress_to(prog, done + 1);
    }
    tc_par_sweep_end();
    free(todo);
}

tc_status tc_exp_sweep_split(tc_exp *x, int n, const int *item_run, const double *cost,
                             tc_item_fn fn, tc_item_regions_fn regions, void *ctx) {
    tc_item *it = calloc((size_t)n + 1, sizeof *it);
    double *wall = calloc((size_t)n + 1, sizeof *wall);
    start_slot *order = malloc(((size_t)n + 1) * sizeof *order);
    int *by = calloc((size_t)n + 1, sizeof *by);
    unsigned char *mine = calloc((size_t)n + 1, 1), *redo = calloc((size_t)n + 1, 1);
    unsigned char *ran = calloc((size_t)n + 1, 1);
    if (!it || !wall || !order || !by || !mine || !redo || !ran) {
        free(it), free(wall), free(order), free(by), free(mine), free(redo), free(ran);
        return TC_ENOMEM;
    }
    /* the start order: the costliest items first (NaN or no costs: item order) */
    for (int i = 0; i < n; i++) order[i] = (start_slot){cost && cost[i] == cost[i] ? cost[i] : 0, i};
    if (cost) qsort(order, (size_t)n, sizeof *order, by_cost);
    /* over several ranks a sweep with regions is split: in the start order, each item goes to
     * the machine with the least cost per rank so far (the lowest such machine; without costs 1
     * each), a rule of the costs and the machines alone; the ranks of a machine take its items in
     * the start order from one queue, as threads do (each rank a machine of its own when they
     * share no memory: a fixed split). One without regions runs whole on every rank (correct,
     * not faster) */
    const int nrank = x->nrank > 1 ? x->nrank : 1, split = nrank > 1 && regions;
    if (nrank > 1 && !regions && x->rank == 0)
        fprintf(stderr, "touche: %s: sweep %d is not split over the %d ranks (its items' results "
                        "are not declared, docs/mpi.md): every rank runs its %d items\n",
                x->name, x->nsweep + 1, nrank, n);
    const int nmach = split ? tc_ranks_machines() : 1, here = split ? tc_ranks_machine_of(x->rank) : 0;
    double *load = calloc((size_t)nmach, sizeof *load);
    if (!load) {
        free(it), free(wall), free(order), free(by), free(mine), free(redo), free(ran);
        return TC_ENOMEM;
    }
    int count = 0;
    for (int k = 0; k < n; k++) {
        int i = order[k].item, m = 0;
        for (int q = 1; q < nmach; q++)
            if (load[q] * tc_ranks_machine_size(m) < load[m] * tc_ranks_machine_size(q)) m = q;
        load[m] += order[k].cost > 0 && order[k].cost < HUGE_VAL ? order[k].cost : 1;
        count += mine[i] = m == here;
    }
    free(load);
    /* one queue for the machine's ranks: this sweep's key, the same on each (0: none) */
    const unsigned key =
        split && tc_ranks_machine_size(here) > 1 ? (x->ordinal << 16 | ((unsigned)x->nsplit & 0xffffu)) + 1u : 0;
    /* progress on rank 0 only, for its machine's items */
    tc_progress prog;
    const double cpu0 = cpu_time();
    tc_progress_start(&prog, x->name, count);
    if (x->rank > 0) prog.enabled = 0;
    /* every item of this rank in parallel; each writes only its own slot */
    run_items(x, n, order, mine, item_run, fn, ctx, it, wall, &prog, key, ran);
    /* the results meet on rank 0 (which runs those of a rank that left), then go to every rank */
    tc_status st = TC_OK;
    if (split) {
        tc_ranks_gather(x, n, ran, it, wall, regions, ctx, by);
        if (x->rank == 0) {
            /* who ran how many items (rank 0 runs those no rank ran: a worker left early) */
            char line[512];
            int len = snprintf(line, sizeof line, "touche: %s: sweep %d split over %d ranks:", x->name,
                               x->nsweep + 1, nrank), nredo = 0;
            for (int r = 0; r < nrank && len < (int)sizeof line - 16; r++) {
                int c = 0;
                for (int i = 0; i < n; i++) c += by[i] == r;
                len += snprintf(line + len, sizeof line - (size_t)len, "%s%d", r ? ", " : " ", c);
            }
            for (int i = 0; i < n; i++) nredo += redo[i] = by[i] < 0;
            if (nredo) snprintf(line + len, sizeof line - (size_t)len, " items, and rank 0 the %d no rank ran", nredo);
            else snprintf(line + len, sizeof line - (size_t)len, " items");
            fprintf(stderr, "%s\n", line);
            if (nredo) run_items(x, n, order, redo, item_run, fn, ctx, it, wall, &prog, 0, ran);
        }
        st = tc_ranks_share(x, n, it, wall, regions, ctx);
        x->nsplit++;
    }
    x->nsweep++;
    tc_progress_end(&prog);
    /* how busy the threads were: the process's CPU time against the sweep's wall time (with the
     * idle threads lent to the last items, the items' own wall times no longer tell); over MPI
     * this rank's alone */
    x->sweep_wall_s += tc_wall_time() - prog.t0, x->sweep_items += n;
    x->sweep_cpu_s += cpu_time() - cpu0;
    /* fold the items into their runs in item order (so the first failure is the same for any
     * number of threads and ranks) */
    for (int i = 0; i < n && !st; i++)
        tc_exp_record(x, it[i].run, it[i].status, it[i].reason, it[i].steps, wall[i]);
    free(it), free(wall), free(order), free(by), free(mine), free(redo), free(ran);
    if (st) return st;
    return tc_interrupted() ? TC_EINTR : TC_OK;
}

int tc_exp_writer(const tc_exp *x) { return x->rank == 0; }

int tc_series_regions(tc_series *s, tc_region *r) {
    int nr = 0;
    double *arr[3] = {s->ke, s->pen, s->mom};
    for (int k = 0; k < 3; k++)
        if (arr[k]) r[nr++] = (tc_region){arr[k], (size_t)s->n * sizeof(double)};
    /* the summary: every field from steps on (n and the pointers stay as they are) */
    r[nr++] = (tc_region){&s->steps, sizeof *s - offsetof(tc_series, steps)};
    return nr;
}

/* ---------- outputs ---------- */

tc_status tc_exp_path(const tc_exp *x, const char *file, char *buf, size_t n) {
    return tc_path_join(buf, n, x->dir, file);
}

void tc_exp_warn(tc_exp *x, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if (*c == '\n') *c = ' ';
    size_t l = strlen(x->warn);
    snprintf(x->warn + l, sizeof x->warn - l, "%s\n", line);
    x->nwarn++;
}

void tc_csv_field(char *buf, size_t n, const char *text) {
    size_t k = 0;
    if (n < 3) return (void)(n ? buf[0] = 0 : 0);
    buf[k++] = '"';
    for (const char *p = text ? text : ""; *p && k + 3 < n; p++) {
        if (*p == '"') buf[k++] = '"';
        buf[k++] = *p == '\n' || *p == '\r' ? ' ' : *p;
    }
    buf[k++] = '"';
    buf[k] = 0;
}

/* runs.csv: one line per run */
static tc_status write_runs(tc_exp *x, tc_error *err) {
    char path[1200];
    tc_outfile o;
    tc_exp_path(x, "runs.csv", path, sizeof path);
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "run,label,method,what,seed,status,reason,steps,wall_s,params,set\n");
    for (int i = 0; i < x->nrun; i++) {
        const tc_run_record *r = &x->run[i];
        const tc_exp_method *em = r->method >= 0 ? &x->method[r->method] : NULL;
        char what[300], reason[600], params[1300], set[600];
        tc_csv_field(what, sizeof what, r->what);
        tc_csv_field(reason, sizeof reason, r->reason);
        tc_csv_field(params, sizeof params, r->params);
        tc_csv_field(set, sizeof set, em ? em->set : "");
        fprintf(o.f, "%d,%s,%s,%s,%lld,%s,%s,%lld,%.6g,%s,%s\n", i, em ? em->label : "",
                r->spec, what, r->seed, r->status ? "failed" : "ok", reason, r->steps, r->wall_s,
                params, set);
    }
    return tc_outfile_commit(&o, err);
}

/* a script setting into the metrics (tc_script_settings' visitor) */
static void record_setting(void *ctx, const char *path, const char *value) {
    tc_metrics_setting_add(ctx, path, value);
}

/* what each method ran with and how its runs went, and the script's settings: a reference
 * check names a changed one as the likely cause of a change */
static void record_provenance(tc_exp *x) {
    for (int k = 0; k < x->nmethod; k++) {
        char params[1024];
        int runs = 0, failed = 0;
        const char *reason = "";
        for (int i = 0; i < x->nrun; i++) {
            const tc_run_record *r = &x->run[i];
            if (r->method != k) continue;
            runs++;
            if (r->status && !failed++) reason = r->reason;
        }
        params_text(&x->method[k].m, params, sizeof params);
        tc_metrics_method_info(&x->metrics, x->method[k].label, x->method[k].m.spec, params,
                               runs, failed, reason);
    }
    if (x->script_loaded) tc_script_settings(&x->script, record_setting, &x->metrics);
}

/* metrics.cfg with the methods that ran and the digests of their results */
static tc_status write_metrics(tc_exp *x, tc_error *err) {
    char path[1200];
    tc_status st = TC_OK;
    record_provenance(x);
    if (x->type->results) st = tc_results_hash(x->dir, x->type->results, &x->metrics, err);
    tc_exp_path(x, "metrics.cfg", path, sizeof path);
    return st ? st : tc_metrics_write(&x->metrics, path, err);
}

/* a worker rank (MPI, rank > 0) runs the driver like rank 0, so that both run the same sweeps,
 * but writes nothing: its files go to a scratch directory under $TMPDIR that goes at the end */
static tc_status execute_worker(tc_exp *x, tc_error *err) {
    tc_status st = tc_scratch_dir(x->name, x->dir, sizeof x->dir, err);
    if (st) return st;
    tc_metrics_init(&x->metrics, x->name, x->tier);
    st = tc_section_begin(x);
    if (!st) st = x->type->run(x, x->state, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    tc_scratch_done(x->dir);
    return st;
}

tc_status tc_exp_execute(tc_exp *x, tc_error *err) {
    if (x->rank > 0) return tc_ranks_end(x, execute_worker(x, err), err);
    const char *root = x->opts->out_root;
    tc_status st = tc_path_join(x->final_dir, sizeof x->final_dir, root, x->name);
    /* a fresh staging directory; leftovers of killed runs go first */
    tc_clean_stale(root);
    if (!st) st = tc_stage_dir(root, x->name, x->dir, sizeof x->dir, err);
    if (st) return tc_ranks_end(x, st, err);
    /* the metrics know who ran and whether some were left out on purpose */
    tc_metrics_init(&x->metrics, x->name, x->tier);
    x->metrics.filtered = x->nleft > 0;
    for (int k = 0; k < x->nmethod; k++)
        tc_metrics_ran(&x->metrics, x->method[k].label, tc_method_cpu(&x->method[k].m),
                       tc_method_cpu_kind(&x->method[k].m));
    /* the driver, then what every experiment writes */
    st = tc_section_begin(x);
    if (!st) st = x->type->run(x, x->state, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    if (!st) st = write_runs(x, err);
    if (!st) st = write_metrics(x, err);
    if (!st) st = tc_section_end(x, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    /* over MPI: every rank has finished its part (an interrupt on any of them counts) */
    st = tc_ranks_end(x, st, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    if (st == TC_EINTR) tc_error_set(err, st, NULL, 0, NULL, "interrupted: %s left as it was", x->final_dir);
    /* the whole set replaces the old one, or nothing does */
    if (!st) st = tc_swap_dir(x->dir, x->final_dir, err);
    else tc_remove_tree(x->dir);
    return st;
}

/* ---------- the report ---------- */

tc_status tc_exp_report(const char *out_root, tc_error *err) {
    tc_report_entry e[64];
    int n = 0;
    for (int i = 0; tc_experiment_at(i) && n < 64; i++, n++)
        e[n] = (tc_report_entry){tc_experiment_at(i)->name, tc_experiment_at(i)->heading};
    return tc_report_write(out_root, e, n, err);
}

/* ---------- work estimates ---------- */

double tc_work_points(const tc_method *m, double area) {
    /* the spacing a point-sampled model declares by its parameter's kind */
    const char *spacing = tc_method_param_of_kind(m, TC_PARAM_SPACING);
    double h = spacing ? tc_method_get(m, spacing) : 0;
    return h > 0 ? fmax(12, area / (h * h)) : 0;
}

/* half the machine's physical memory (B); 8 GiB where it cannot be found */
static double memory_limit(void) {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? 0.5 * (double)pages * (double)size : 8.0 * (1 << 30);
}

/* a duration for people: "40 s", "12 min", "3.5 h", "4 days" */
static void duration(double s, char *buf, size_t n) {
    if (s < 90) snprintf(buf, n, "%.0f s", s < 1 ? 1 : s);
    else if (s < 5400) snprintf(buf, n, "%.0f min", s / 60);
    else if (s < 172800) snprintf(buf, n, "%.1f h", s / 3600);
    else snprintf(buf, n, "%.0f days", s / 86400);
}

void tc_work_describe(const tc_work *w, int threads, char *buf, size_t n) {
    if (!(w->steps > 0)) {
        snprintf(buf, n, "no estimate");
        return;
    }
    char t[32];
    duration(w->seconds / (threads > 0 ? threads : 1), t, sizeof t);
    if (w->factor > 1)
        snprintf(buf, n,
                 "about %.2g steps, %.0f MiB, up to %s if the solvers run to their "
                 "iteration caps (%.2g times the defaults)",
                 w->steps, w->bytes / (1 << 20), t, w->factor);
    else
        snprintf(buf, n, "about %.2g steps, %.0f MiB, %s", w->steps, w->bytes / (1 << 20), t);
}

tc_status tc_exp_work_check(const tc_exp *x, int force, tc_work *w, tc_error *err) {
    memset(w, 0, sizeof *w);
    if (!x->type->estimate) return TC_OK;
    x->type->estimate(x, x->state, w);
    w->factor = 1;
    for (int k = 0; k < x->nmethod; k++)
        w->factor = fmax(w->factor, tc_method_work_factor(&x->method[k].m));
    const double mem = memory_limit(), secs = w->seconds / (x->threads * (x->nrank > 1 ? x->nrank : 1));
    char what[200], t[32];
    tc_work_describe(w, x->threads, what, sizeof what);
    duration(TC_WORK_MAX_SECONDS, t, sizeof t);
    if (force || (w->steps <= TC_WORK_MAX_STEPS && secs <= TC_WORK_MAX_SECONDS && w->bytes <= mem))
        return TC_OK;
    return tc_error_set(err, TC_EINVAL, x->script.path, 0, NULL,
                        "%s: %s: above the limit of %.0g steps, %s or %.0f MiB (half the memory); "
                        "lower the script's sizes (steps, grid, bodies, spacing) or pass --force "
                        "to run it anyway",
                        x->name, what, TC_WORK_MAX_STEPS, t, mem / (1 << 20));
}
