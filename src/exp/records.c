/* SPDX-License-Identifier: MIT */
/* an experiment's records: one per run (declared, folded from its items, runs.csv), its
 * warnings and the paths of its outputs */
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

/* ---------- runs ---------- */

/* "name=value ..." of a method's parameters (model, solver, engine), each value in the shortest
 * form that reads back exactly */
void tc_exp_params_text(const tc_method *m, char *buf, size_t n) {
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

int tc_exp_add_run(tc_exp *x, int method, const tc_method *as_run, long long seed, const char *fmt,
                   ...) {
    if (x->nrun == x->caprun) {
        int cap = x->caprun ? 2 * x->caprun : 64;
        tc_run_record *r = realloc(x->run, (size_t)cap * sizeof *r);
        if (!r) return -1;
        x->run = r;
        x->caprun = cap;
    }
    tc_run_record *r = &x->run[x->nrun];
    memset(r, 0, sizeof *r);
    r->method = method;
    r->seed = seed;
    const tc_method *m = as_run ? as_run : method >= 0 ? &x->method[method].m : NULL;
    if (m) {
        snprintf(r->spec, sizeof r->spec, "%s", m->spec);
        tc_exp_params_text(m, r->params, sizeof r->params);
    }
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
    r->steps += steps;
    r->wall_s += wall_s;
    if (st && !r->status) {
        r->status = st;
        snprintf(r->reason, sizeof r->reason, "%s",
                 reason && reason[0] ? reason : tc_status_str(st));
    }
}

void tc_item_residuals(tc_item *it, const tc_sim *sim) {
    tc_residual_summary s;
    tc_sim_residuals(sim, &s);
    tc_residual_merge(&it->resid, &s);
}

void tc_exp_record_residuals(tc_exp *x, int run, const tc_residual_summary *s) {
    if (run >= 0 && run < x->nrun) tc_residual_merge(&x->run[run].resid, s);
}

void tc_exp_method_residuals(const tc_exp *x, int method, tc_residual_summary *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < x->nrun; i++)
        if (x->run[i].method == method && x->run[i].status == TC_OK)
            tc_residual_merge(out, &x->run[i].resid);
    tc_residual_finish(out);
}

const tc_run_record *tc_exp_run_record(const tc_exp *x, int run) {
    return run >= 0 && run < x->nrun ? &x->run[run] : NULL;
}

int tc_exp_failed(const tc_exp *x) {
    int n = 0;
    for (int i = 0; i < x->nrun; i++)
        n += x->run[i].status != TC_OK;
    return n;
}

/* ---------- outputs ---------- */

tc_status tc_exp_path(const tc_exp *x, const char *file, char *buf, size_t n) {
    return tc_path_join(buf, n, x->dir, file);
}

tc_status tc_exp_open(const tc_exp *x, const char *file, tc_outfile *o, tc_error *err) {
    char path[1200];
    if (tc_exp_path(x, file, path, sizeof path))
        return tc_error_set(err, TC_EINVAL, x->dir, 0, NULL, "path too long for %s", file);
    return tc_outfile_open(o, path, err);
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
tc_status tc_exp_write_runs(tc_exp *x, tc_error *err) {
    char path[1200];
    tc_outfile o;
    tc_exp_path(x, "runs.csv", path, sizeof path);
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "run,label,method,what,seed,status,reason,steps,wall_s,params,set");
    /* the residual summary of each run's tracked steps (docs/residuals.md): empty when none */
    fprintf(o.f, ",resid_steps,resid_contacts");
    for (int k = 0; k < TC_RESID_N; k++)
        fprintf(o.f, ",%s_max,%s_mean,%s_frac", tc_residual_names[k], tc_residual_names[k],
                tc_residual_names[k]);
    fputc('\n', o.f);
    for (int i = 0; i < x->nrun; i++) {
        const tc_run_record *r = &x->run[i];
        const tc_exp_entry *em = r->method >= 0 ? &x->method[r->method] : NULL;
        char what[300], reason[600], params[1300], set[600];
        tc_csv_field(what, sizeof what, r->what);
        tc_csv_field(reason, sizeof reason, r->reason);
        tc_csv_field(params, sizeof params, r->params);
        tc_csv_field(set, sizeof set, em ? em->set : "");
        fprintf(o.f, "%d,%s,%s,%s,%lld,%s,%s,%lld,%.6g,%s,%s", i, em ? em->label : "", r->spec,
                what, r->seed, r->status ? "failed" : "ok", reason, r->steps, r->wall_s, params,
                set);
        tc_residual_summary rs = r->resid;
        tc_residual_finish(&rs);
        if (rs.steps)
            fprintf(o.f, ",%lld,%lld", rs.steps, rs.contacts);
        else
            fprintf(o.f, ",,");
        for (int k = 0; k < TC_RESID_N; k++) {
            if (rs.steps && !isnan(rs.mean[k]))
                fprintf(o.f, ",%.6g,%.6g,%.6g", rs.max[k], rs.mean[k], rs.frac[k]);
            else
                fprintf(o.f, ",,,");
        }
        fputc('\n', o.f);
    }
    return tc_outfile_commit(&o, err);
}
