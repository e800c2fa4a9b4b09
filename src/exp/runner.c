/* SPDX-License-Identifier: MIT */
/* the runner: execute a planned experiment — staging folder, the driver's run, runs.csv,
 * metrics.cfg with the result digests and the section — then put the whole output set in place
 * at once; and the report over the catalog's experiments */

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
#include "core/tc_provenance.h"
#include "exp/script_private.h"
#include "exp/tc_ranks.h"
#include "report/tc_progress.h"
#include "report/tc_report.h"

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
        tc_exp_params_text(&x->method[k].m, params, sizeof params);
        tc_metrics_method_info(&x->metrics, x->method[k].label, x->method[k].m.spec, params, runs,
                               failed, reason);
    }
    if (x->script) tc_script_settings(x->script, record_setting, &x->metrics);
}

/* per method its runs' residual summary (docs/residuals.md): max, mean and the fraction of
 * steps above the default threshold of each residual it has (unknown ones left out: n/a) */
static void record_residuals(tc_exp *x) {
    static const char *const stat[3] = {"max", "mean", "frac"};
    for (int k = 0; k < x->nmethod; k++) {
        tc_residual_summary s;
        tc_exp_method_residuals(x, k, &s);
        if (s.steps == 0) continue;
        for (int r = 0; r < TC_RESID_N; r++) {
            const double v[3] = {s.max[r], s.mean[r], s.frac[r]};
            for (int j = 0; j < 3; j++) {
                if (!isfinite(v[j])) continue;
                char name[160], doc[160];
                snprintf(name, sizeof name, "residuals.%s.%s_%s", x->method[k].label,
                         tc_residual_names[r], stat[j]);
                snprintf(doc, sizeof doc,
                         "%s of the %s residual over the method's steps "
                         "(docs/residuals.md)",
                         j == 2 ? "fraction of steps above the threshold" : stat[j],
                         tc_residual_names[r]);
                tc_metrics_add(&x->metrics, x->method[k].label, name, v[j],
                               j == 2 ? "1" : tc_residual_units[r],
                               j == 2 ? 0.02 : 0.01 * tc_residual_threshold[r], 0.05, 0, doc);
            }
        }
    }
}

/* metrics.cfg with the methods that ran and the digests of their results */
static tc_status write_metrics(tc_exp *x, tc_error *err) {
    char path[1200];
    tc_status st = TC_OK;
    record_provenance(x);
    record_residuals(x);
    if (x->type->results) st = tc_results_hash(x->dir, x->type->results, &x->metrics, err);
    tc_exp_path(x, "metrics.cfg", path, sizeof path);
    return st ? st : tc_metrics_write(&x->metrics, path, err);
}

/* a documented choice of the script as a row of setup.tsv (tabs in its text made spaces) */
static void record_choice(void *ctx, int line, const char *setting, const char *text) {
    FILE *f = ctx;
    fprintf(f, "choice\t%d\t%s\t", line, setting);
    for (const char *c = text; *c; c++)
        fputc(*c == '\t' ? ' ' : *c, f);
    fputc('\n', f);
}

/* setup.tsv: how the experiment ran (tier, threads, ranks, wall time, revision, date, script)
 * and its script's documented choices, for the report's setup chapter and deviations list */
static tc_status write_setup(tc_exp *x, double t0, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "setup.tsv", &o, err);
    if (st) return st;
    char date[64];
    tc_utc_now(date, sizeof date);
    const char *script = x->script ? x->script->path : "";
    fprintf(o.f,
            "tier\t%s\nthreads\t%d\nranks\t%d\nwall_s\t%.3f\nsweep_items\t%ld\n"
            "sweep_wall_s\t%.3f\nsweep_cpu_s\t%.3f\nruns\t%d\nfailed\t%d\nrevision\t%s\n"
            "date\t%s\nscript\t%s\n",
            x->tier, x->threads, x->nrank, tc_wall_time() - t0, x->sweep_items, x->sweep_wall_s,
            x->sweep_cpu_s, x->nrun, tc_exp_failed(x), tc_revision(), date, script);
    /* the methods that cannot run this experiment, with the reason */
    for (int i = 0; i < x->nskip; i++)
        fprintf(o.f, "skip\t%s\t%s\n", x->skip[i].name, x->skip[i].reason);
    if (script[0] && tc_script_choices(script, record_choice, o.f) < 0) {
        tc_outfile_abort(&o);
        return tc_error_set(err, TC_EIO, script, 0, NULL, "cannot read the script's choices");
    }
    return tc_outfile_commit(&o, err);
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
    const double t0 = tc_wall_time();
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
    if (!st) st = tc_exp_write_runs(x, err);
    if (!st) st = write_metrics(x, err);
    if (!st) st = tc_section_end(x, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    /* over MPI: every rank has finished its part (an interrupt on any of them counts) */
    st = tc_ranks_end(x, st, err);
    if (!st && tc_interrupted()) st = TC_EINTR;
    if (!st) st = write_setup(x, t0, err);
    if (st == TC_EINTR)
        tc_error_set(err, st, NULL, 0, NULL, "interrupted: %s left as it was", x->final_dir);
    /* the whole set replaces the old one, or nothing does */
    if (!st)
        st = tc_swap_dir(x->dir, x->final_dir, err);
    else
        tc_remove_tree(x->dir);
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
