/* SPDX-License-Identifier: MIT */
/* E2: planar T-pushing — every rollout in MuJoCo and in touche, the fig. 7 table, paths, timing */
#include "e2.h"
#include "geom/tc_aopc.h"
#include "core/tc_fs.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "report/tc_progress.h"
#include "report/tc_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPATH 101      /* path samples per rollout */
#define MAXCOL 64      /* grid columns (dt x integrator x spacing) per method */

/* one rollout of the grid */
typedef struct e2_item {
    int method;         /* index into the method list */
    int dt, integ, sp;  /* grid indices; sp = -1 when the method has no spacing */
    int roll;
    tc_method m;        /* configured: solver or MuJoCo integrator, spacing */
    e2_result r;
    double path[4 * NPATH];
} e2_item;

static const char *const integ_name[2] = {"RK4", "Euler"};

/* the method for one grid cell: model/solver with the spacing, or MuJoCo with its integrator */
static tc_status configure(const tc_exp_method *em, const e2_setup *e, int integ, int sp,
                           tc_method *out, tc_error *err) {
    *out = em->m;
    if (em->m.engine) {
        if (tc_params_find(&out->eparams, "integrator") >= 0)
            return tc_params_set(&out->eparams, "integrator", integ == 0 ? 1 : 0, err);
        return TC_OK;
    }
    char spec[96];
    snprintf(spec, sizeof spec, "%s/%s", em->m.model->name, integ == 0 ? "rk4" : "euler");
    tc_status st = tc_method_parse(out, spec, err);
    if (st) return st;
    out->mparams = em->m.mparams;
    if (sp >= 0) return tc_params_set(&out->mparams, "spacing", e->spacing[sp], err);
    return TC_OK;
}

/* the column name as in the paper: "8-RK4-26" (ms, integrator, AOPC points) */
static void column_name(char *b, size_t n, const e2_setup *e, int dt, int integ, int points) {
    if (points > 0)
        snprintf(b, n, "%g-%s-%s", 1e3 * e->dt[dt], integ_name[integ],
                 points >= 1000 ? "4k" : points < 100 ? "26" : "mid");
    else
        snprintf(b, n, "%g-%s", 1e3 * e->dt[dt], integ_name[integ]);
}

/* the number of SCM points on the T at a spacing */
static int aopc_points(const tc_scene *sc, double spacing) {
    tc_aopc c;
    if (tc_aopc_alloc(&c, &sc->body[0].shape, spacing, NULL)) return 0;
    int n = c.n;
    tc_aopc_free(&c);
    return n;
}

/* mean and standard deviation of the finite values */
static void mean_sd(const double *x, int n, double *mean, double *sd) {
    double s = 0, s2 = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(x[i])) s += x[i], s2 += x[i] * x[i], k++;
    *mean = k ? s / k : NAN;
    *sd = k > 1 ? sqrt(fmax(0, (s2 - s * s / k) / (k - 1))) : k ? 0 : NAN;
}

/* the paper's values for a column, or NaNs */
static void paper_values(const tc_script *s, const char *col, double v[4]) {
    static const char *const keys[] = {"scm_ms", "mjx_ms", "dd_cm", "dth_deg"};
    v[0] = v[1] = v[2] = v[3] = NAN;
    config_setting_t *list = config_lookup((config_t *)&s->cfg, "paper");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        const char *c = NULL;
        if (!config_setting_lookup_string(e, "column", &c) || strcmp(c, col)) continue;
        for (int k = 0; k < 4; k++) config_setting_lookup_float(e, keys[k], &v[k]);
    }
}

/* csv of every rollout's final pose, step time and status */
static tc_status write_rollouts(const tc_exp_ctx *ctx, const e2_setup *e, const tc_exp_method *em,
                                const e2_item *it, int n, tc_error *err) {
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "rollouts.csv");
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "label,method,dt_s,integrator,spacing_m,rollout,x_m,y_m,theta_rad,step_ms,"
                 "contacts,breaks,status,reason\n");
    for (int i = 0; i < n; i++) {
        const e2_item *t = &it[i];
        fprintf(o.f, "%s,%s,%g,%s,%g,%d,%.9g,%.9g,%.9g,%.6g,%d,%d,%s,\"%s\"\n", em[t->method].label,
                t->m.spec, e->dt[t->dt], integ_name[t->integ], t->sp >= 0 ? e->spacing[t->sp] : 0,
                t->roll, t->r.final[0], t->r.final[1], t->r.final[2], 1e3 * t->r.step_s,
                t->r.contacts, t->r.breaks, t->r.status ? "failed" : "ok", t->r.reason);
    }
    return tc_outfile_commit(&o, err);
}

/* csv of the T's paths of one column in both simulators, for the figure */
static tc_status write_paths(const tc_exp_ctx *ctx, const e2_setup *e, const e2_item *it, int n,
                             int scm, int mj, int dt, int integ, int sp, tc_error *err) {
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "paths.csv");
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    /* one gnuplot block per (rollout, simulator), two blank lines between blocks */
    fprintf(o.f, "# t_s,x_m,y_m,theta_rad; blocks: rollout 0 mujoco, rollout 0 scm, ...\n");
    for (int k = 0; k < e->rollouts; k++)
        for (int which = 0; which < 2; which++)
            for (int i = 0; i < n; i++) {
                const e2_item *t = &it[i];
                int want = which ? scm : mj;
                if (t->method != want || t->dt != dt || t->integ != integ || t->roll != k ||
                    (which && t->sp != sp))
                    continue;
                for (int j = 0; j < NPATH; j++)
                    fprintf(o.f, "%.6g,%.9g,%.9g,%.9g\n", t->path[4 * j], t->path[4 * j + 1],
                            t->path[4 * j + 2], t->path[4 * j + 3]);
                fprintf(o.f, "\n\n");
            }
    return tc_outfile_commit(&o, err);
}

/* step time vs AOPC points: SCM Euler steps on the T scene, serially, beside MuJoCo's */
static tc_status write_timing(const tc_exp_ctx *ctx, const e2_setup *e, const tc_scene *sc,
                              const tc_exp_method *scm, const tc_exp_method *mj, const e2_traj *tr,
                              double *ratio, tc_error *err) {
    static const double spacings[] = {0.08, 0.04, 0.02, 0.01, 0.0047};
    const int ns = strcmp(ctx->tier, "full") ? 3 : 5;
    int points[5];
    double ms[5], mj_s;
    tc_method a, b;
    tc_status st = configure(scm, e, 1, -1, &a, err);
    if (!st) st = configure(mj, e, 1, -1, &b, err);
    if (!st) st = e2_step_times(e, sc, &a, &b, tr, 0.002, 2000, spacings, ns, points, ms, &mj_s, err);
    if (st) return st;
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "step_time.csv");
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "points,scm_euler_ms,mujoco_euler_ms\n");
    for (int i = 0; i < ns; i++) fprintf(o.f, "%d,%.6g,%.6g\n", points[i], 1e3 * ms[i], 1e3 * mj_s);
    *ratio = ms[0] / mj_s;
    return tc_outfile_commit(&o, err);
}

static tc_status e2_run(const tc_exp_ctx *ctx, tc_error *err) {
    tc_script s;
    tc_status st = tc_script_load(&s, ctx->script, ctx->tier, err);
    if (st) return st;
    e2_setup e;
    tc_scene sc;
    tc_exp_method em[TC_EXP_MAXMETHOD];
    e2_traj tr[E2_MAXTRAJ];
    int nm = 0, ntr = 0;
    char tpath[1100];
    unsigned shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND);
    if ((st = e2_read_setup(&s, &e, err)) || (st = e2_build_scene(&e, &sc, err)) ||
        (st = tc_exp_methods(&s, ctx, TC_CAP_DYNAMICS, shapes, em, &nm, err)))
        goto done;
    snprintf(tpath, sizeof tpath, "%s/%s", ctx->source_dir, e.trajectories);
    if ((st = e2_read_trajectories(tpath, &e, tr, &ntr, err))) goto done;
    if (e.rollouts > ntr) e.rollouts = ntr;
    /* the reference simulator and the SCM method (by model name) */
    int mj = -1, scm = -1;
    for (int k = 0; k < nm; k++) {
        if (em[k].m.engine && !strcmp(em[k].m.engine->name, "mujoco")) mj = k;
        if (em[k].m.model && !strcmp(em[k].m.model->name, "scm") && scm < 0) scm = k;
    }
    if (mj < 0) {
        st = tc_error_set(err, TC_EINVAL, ctx->script, 0, "methods", "E2 compares against mujoco: keep it");
        goto done;
    }
    /* the grid: method x dt x integrator x spacing x rollout */
    int cap = nm * e.ndt * 2 * E2_MAXGRID * e.rollouts, n = 0;
    e2_item *it = calloc((size_t)cap, sizeof *it);
    if (!it) {
        st = TC_ENOMEM;
        goto done;
    }
    for (int k = 0; k < nm; k++) {
        int spaced = em[k].m.model && tc_params_find(&em[k].m.mparams, "spacing") >= 0;
        for (int d = 0; d < e.ndt; d++)
            for (int g = 0; g < 2; g++)
                for (int p = spaced ? 0 : -1; p < (spaced ? e.nspacing : 0); p++)
                    for (int r = 0; r < e.rollouts; r++) {
                        e2_item *t = &it[n++];
                        t->method = k, t->dt = d, t->integ = g, t->sp = p, t->roll = r;
                        if ((st = configure(&em[k], &e, g, p, &t->m, err))) goto free_items;
                    }
    }
    /* every rollout in parallel; each owns its simulation */
    tc_progress prog;
    tc_progress_start(&prog, "e2_t_pushing", n);
#pragma omp parallel for schedule(dynamic) num_threads(ctx->threads)
    for (int i = 0; i < n; i++) {
        e2_rollout(&e, &sc, &it[i].m, e.dt[it[i].dt], &tr[it[i].roll], it[i].path, NPATH, &it[i].r);
        tc_progress_tick(&prog);
    }
    tc_progress_end(&prog);
    /* the table: every non-reference method and column against MuJoCo, as fig. 7 */
    static const char *const hdr[] = {"method", "column", "method step (ms)", "MuJoCo step (ms)",
                                      "Δd (cm)", "Δθ (deg)", "failed", "paper step (ms)",
                                      "paper MJX (ms)", "paper Δd (cm)", "paper Δθ (deg)"};
    tc_table *tab = tc_table_alloc(11, hdr);
    tc_metrics ms;
    tc_metrics_init(&ms, "e2_t_pushing", ctx->tier);
    for (int k = 0; k < nm; k++) tc_metrics_ran(&ms, em[k].label, tc_method_cpu(&em[k].m));
    for (int k = 0; k < nm; k++) {
        if (k == mj) continue;
        int spaced = em[k].m.model && tc_params_find(&em[k].m.mparams, "spacing") >= 0;
        for (int g = 0; g < 2; g++)
            for (int p = spaced ? 0 : -1; p < (spaced ? e.nspacing : 0); p++)
                for (int d = 0; d < e.ndt; d++) {
                    double dd[E2_MAXTRAJ], dth[E2_MAXTRAJ], ts[E2_MAXTRAJ], tm[E2_MAXTRAJ];
                    int failed = 0;
                    for (int r = 0; r < e.rollouts; r++) {
                        const e2_item *a = NULL, *b = NULL;
                        for (int i = 0; i < n; i++) {
                            const e2_item *t = &it[i];
                            if (t->dt != d || t->integ != g || t->roll != r) continue;
                            if (t->method == k && t->sp == p) a = t;
                            if (t->method == mj) b = t;
                        }
                        dd[r] = dth[r] = ts[r] = tm[r] = NAN;
                        if (!a || !b || a->r.status || b->r.status) {
                            failed++;
                            continue;
                        }
                        dd[r] = 100 * hypot(a->r.final[0] - b->r.final[0], a->r.final[1] - b->r.final[1]);
                        dth[r] = 180 / M_PI * fabs(remainder(a->r.final[2] - b->r.final[2], 2 * M_PI));
                        ts[r] = 1e3 * a->r.step_s, tm[r] = 1e3 * b->r.step_s;
                    }
                    double v[8], pv[4];
                    mean_sd(ts, e.rollouts, &v[0], &v[1]), mean_sd(tm, e.rollouts, &v[2], &v[3]);
                    mean_sd(dd, e.rollouts, &v[4], &v[5]), mean_sd(dth, e.rollouts, &v[6], &v[7]);
                    char col[64], cells[11][64], name[128];
                    column_name(col, sizeof col, &e, d, g, p >= 0 ? aopc_points(&sc, e.spacing[p]) : 0);
                    paper_values(&s, col, pv);
                    snprintf(cells[0], 64, "%s", em[k].label);
                    snprintf(cells[1], 64, "%s", col);
                    for (int c = 0; c < 4; c++)
                        snprintf(cells[2 + c], 64, "%.3g ± %.2g", v[2 * c], v[2 * c + 1]);
                    snprintf(cells[6], 64, "%d/%d", failed, e.rollouts);
                    for (int c = 0; c < 4; c++)
                        if (isnan(pv[c])) snprintf(cells[7 + c], 64, "-");
                        else snprintf(cells[7 + c], 64, "%g", pv[c]);
                    const char *row[11];
                    for (int c = 0; c < 11; c++) row[c] = cells[c];
                    tc_table_add_row(tab, row);
                    /* metrics: the pose gaps per column (open-loop rollouts amplify changes) */
                    snprintf(name, sizeof name, "%s.%s.dd_cm", em[k].label, col);
                    tc_metrics_add(&ms, em[k].label, name, v[4], "cm", 0.5, 0.25, 0, "mean final COM distance to MuJoCo");
                    snprintf(name, sizeof name, "%s.%s.dth_deg", em[k].label, col);
                    tc_metrics_add(&ms, em[k].label, name, v[6], "deg", 3, 0.25, 0, "mean final rotation difference to MuJoCo");
                }
    }
    char base[1100];
    tc_path_join(base, sizeof base, ctx->out_dir, "fig7_table");
    if (!st) st = tc_table_write(tab, base,
        "E2 (fig. 7): final T pose differences to MuJoCo (mean ± std over the rollouts) and wall "
        "time per step, measured in the same parallel run; columns are step (ms)-integrator-AOPC "
        "points. Paper values: GPU (JAX/MJX).", "tab:e2", err);
    tc_table_free(tab);
    /* rollouts, paths of the finest column, step time vs points, figures, metrics */
    double ratio = NAN;
    if (!st) st = write_rollouts(ctx, &e, em, it, n, err);
    if (!st && scm >= 0) st = write_paths(ctx, &e, it, n, scm, mj, 0, 0, e.nspacing - 1, err);
    if (!st && scm >= 0) st = write_timing(ctx, &e, &sc, &em[scm], &em[mj], &tr[0], &ratio, err);
    if (!st && scm >= 0)
        tc_metrics_add(&ms, em[scm].label, "scm.euler_step_over_mujoco_26", ratio, "1", 0, 1.5,
                       TC_METRIC_TIMING,
                       "SCM (27 points) over MuJoCo wall time per Euler step, 2 ms (machine-dependent)");
    char path[1100];
    tc_path_join(path, sizeof path, ctx->out_dir, "metrics.cfg");
    if (!st) st = tc_metrics_write(&ms, path, err);
    if (!st && tc_plot_available()) {
        char tpl[1100], data[1100], out[1100], nroll[16];
        tc_error perr;
        snprintf(nroll, sizeof nroll, "%d", e.rollouts);
        snprintf(tpl, sizeof tpl, "%s/plots/e2_paths.gp", ctx->source_dir);
        tc_path_join(data, sizeof data, ctx->out_dir, "paths.csv");
        tc_path_join(out, sizeof out, ctx->out_dir, "fig_paths");
        tc_plot_var v[] = {{"datafile", data}, {"nroll", nroll}};
        tc_error_clear(&perr);
        if (scm >= 0 && tc_plot_render(tpl, v, 2, out, &perr)) fprintf(stderr, "e2: %s\n", perr.msg);
        snprintf(tpl, sizeof tpl, "%s/plots/e2_step_time.gp", ctx->source_dir);
        tc_path_join(data, sizeof data, ctx->out_dir, "step_time.csv");
        tc_path_join(out, sizeof out, ctx->out_dir, "fig_step_time");
        tc_plot_var w[] = {{"datafile", data}};
        tc_error_clear(&perr);
        if (scm >= 0 && tc_plot_render(tpl, w, 1, out, &perr)) fprintf(stderr, "e2: %s\n", perr.msg);
    }
    /* the report section */
    if (!st) {
        tc_outfile o;
        tc_path_join(path, sizeof path, ctx->out_dir, "section.md");
        if (!(st = tc_outfile_open(&o, path, err))) {
            fprintf(o.f, "## E2 — planar T-pushing\n\n%d rollouts of the trajectories in `%s`, tier `%s`; "
                         "SCM and every other dynamic method against MuJoCo %s.\n\n",
                    e.rollouts, e.trajectories, ctx->tier, em[mj].m.engine->version);
            tc_path_join(base, sizeof base, ctx->out_dir, "fig7_table.md");
            tc_file_append(o.f, base);
            fprintf(o.f, "\n![T paths](e2_t_pushing/fig_paths.png)\n\n"
                         "![step time vs AOPC points](e2_t_pushing/fig_step_time.png)\n");
            st = tc_outfile_commit(&o, err);
        }
        tc_path_join(path, sizeof path, ctx->out_dir, "section.tex");
        if (!st && !(st = tc_outfile_open(&o, path, err))) {
            fprintf(o.f, "\\section{Planar T-pushing (E2)}\n%d rollouts, tier \\texttt{%s}.\n\n"
                         "\\input{e2_t_pushing/fig7_table.tex}\n"
                         "\\begin{figure}[htbp]\\centering\n"
                         "\\includegraphics[width=0.8\\linewidth]{e2_t_pushing/fig_paths.pdf}\n"
                         "\\caption{Paths of the T's centre of mass, MuJoCo (solid) and SCM (dashed).}\\end{figure}\n"
                         "\\begin{figure}[htbp]\\centering\n"
                         "\\includegraphics[width=0.7\\linewidth]{e2_t_pushing/fig_step_time.pdf}\n"
                         "\\caption{Wall time per Euler step against AOPC points.}\\end{figure}\n",
                    e.rollouts, ctx->tier);
            st = tc_outfile_commit(&o, err);
        }
    }
    tc_metrics_free(&ms);
free_items:
    free(it);
done:
    tc_script_free(&s);
    return st;
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e2_results[] = {
    {"rollouts.csv", TC_RESULTS_ROWS, "step_ms"},
    {"paths.csv", TC_RESULTS_SHARED, NULL},
    {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e2 = {
    .name = "e2_t_pushing",
    .title = "planar T-pushing: SCM vs MuJoCo rollouts, fig. 7 table (Beker et al. fig. 6, 7)",
    .script = "e2_t_pushing.cfg",
    .results = e2_results,
    .run = e2_run,
};
