/* SPDX-License-Identifier: MIT */
/* E1: sphere force profiles — 1-D sweep, 2-D field, smoothness metrics (Beker et al. fig. 1, 5) */
#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"
#include "core/tc_fs.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "report/tc_progress.h"
#include "report/tc_table.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 32 /* sweep points per work item: fixed, so results never depend on threads */

/* the experiment's settings, read from the script */
typedef struct e1_setup {
    double R, r, density, friction, range, gap;
    int n1d, n2d;
} e1_setup;

/* the sample points: coarse 1-D, fine 1-D (half spacing), 2-D grid, then the probes */
typedef struct e1_points {
    int n1, nf, n2, nprobe, total;
    double *x, *y;
} e1_points;

/* what one method produced */
typedef struct e1_result {
    double *fx, *fy;   /* force on the small sphere at every point (N) */
    int failed;
    char reason[256];
    char warning[256];
    double seconds;    /* summed over work items */
} e1_result;

enum { PROBE_GAP_M, PROBE_GAP, PROBE_GAP_P, PROBE_C_M, PROBE_C, PROBE_C_P, PROBE_D1, NPROBE };
static const double probe_h = 1e-4; /* m: finite-difference step of the probes */

static tc_status read_setup(tc_script *s, e1_setup *e, tc_error *err) {
    static const char *const scene_keys[] = {"big_radius", "small_radius", "density", "friction", NULL};
    static const char *const sweep_keys[] = {"range", "gap", NULL};
    config_setting_t *sc = tc_script_lookup(s, NULL, "scene"), *sw = tc_script_lookup(s, NULL, "sweep");
    tc_status st;
    if (!sc || !sw)
        return tc_error_set(err, TC_EINVAL, s->path, 0, sc ? "sweep" : "scene", "missing group");
    if ((st = tc_script_allowed(s, sc, scene_keys, err)) || (st = tc_script_allowed(s, sw, sweep_keys, err)) ||
        (st = tc_script_real(s, sc, "big_radius", 1e-6, 1e3, &e->R, err)) ||
        (st = tc_script_real(s, sc, "small_radius", 1e-6, 1e3, &e->r, err)) ||
        (st = tc_script_real(s, sc, "density", 1e-6, 1e6, &e->density, err)) ||
        (st = tc_script_real(s, sc, "friction", 0, 10, &e->friction, err)) ||
        (st = tc_script_real(s, sw, "range", 1e-6, 1e3, &e->range, err)) ||
        (st = tc_script_real(s, sw, "gap", 1e-6, 1e3, &e->gap, err)) ||
        (st = tc_script_int(s, NULL, "n1d", 5, 1000001, &e->n1d, err)) ||
        (st = tc_script_int(s, NULL, "n2d", 3, 2001, &e->n2d, err)))
        return st;
    if (e->n1d % 2 == 0)
        return tc_error_set(err, TC_EINVAL, s->path, 0, "n1d", "must be odd so y = 0 is sampled (got %d)", e->n1d);
    if (e->r >= e->R)
        return tc_error_set(err, TC_EINVAL, s->path, 0, "small_radius", "must be below big_radius");
    return TC_OK;
}

/* fixed big sphere at the origin, free small sphere just outside contact */
static tc_status build_scene(const e1_setup *e, tc_scene *sc, tc_error *err) {
    tc_status st = tc_scene_sphere_pair(sc, e->R, e->r, e->R + e->r + e->gap, e->density, err);
    sc->friction = e->friction;
    return st;
}

static tc_status make_points(const e1_setup *e, e1_points *p) {
    p->n1 = e->n1d, p->nf = 2 * e->n1d - 1, p->n2 = e->n2d * e->n2d, p->nprobe = NPROBE;
    p->total = p->n1 + p->nf + p->n2 + p->nprobe;
    p->x = calloc((size_t)p->total, sizeof *p->x);
    p->y = calloc((size_t)p->total, sizeof *p->y);
    if (!p->x || !p->y) return TC_ENOMEM;
    int k = 0;
    for (int i = 0; i < p->n1; i++) p->y[k++] = -e->range + 2 * e->range * i / (p->n1 - 1);
    for (int i = 0; i < p->nf; i++) p->y[k++] = -e->range + 2 * e->range * i / (p->nf - 1);
    for (int i = 0; i < e->n2d; i++)
        for (int j = 0; j < e->n2d; j++, k++) {
            p->x[k] = -e->range + 2 * e->range * i / (e->n2d - 1);
            p->y[k] = -e->range + 2 * e->range * j / (e->n2d - 1);
        }
    /* probes: outside contact by `gap`, at the centre, and at 1 cm depth */
    double yg = e->R + e->r + e->gap, yc = 0;
    double probes[NPROBE] = {yg - probe_h, yg, yg + probe_h, yc - probe_h, yc, yc + probe_h,
                             e->R + e->r - 0.01};
    for (int i = 0; i < NPROBE; i++) p->y[k++] = probes[i];
    return TC_OK;
}

/* evaluate one block of points for one method with its own simulation */
static void run_block(const tc_scene *sc, const tc_exp_method *em, const e1_points *p, int first,
                      int count, e1_result *res) {
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    double t0 = tc_wall_time();
    tc_status st = tc_sim_alloc(&sim, sc, &em->m, 0.002, &err);
    if (!st) {
        double q[7];
        memcpy(q, tc_sim_q(sim), sizeof q);
        tc_wrench w[2];
        for (int i = first; i < first + count && !st; i++) {
            q[0] = p->x[i], q[1] = p->y[i], q[2] = 0;
            st = tc_sim_force(sim, q, NULL, w);
            if (!st && !(isfinite(w[1].f[0]) && isfinite(w[1].f[1]))) {
                st = TC_EDIVERGED;
                tc_error_set(&err, st, NULL, 0, NULL, "non-finite force at (%g, %g)", p->x[i], p->y[i]);
            }
            res->fx[i] = w[1].f[0], res->fy[i] = w[1].f[1];
        }
        char warn[512] = "";
        if (tc_sim_warnings(sim, warn, sizeof warn) > 0) {
#pragma omp critical(e1_result)
            if (!res->warning[0]) snprintf(res->warning, sizeof res->warning, "%s", strtok(warn, "\n"));
        }
    }
    tc_sim_free(sim);
    double dt = tc_wall_time() - t0;
#pragma omp critical(e1_result)
    {
        res->seconds += dt;
        if (st && !res->failed) {
            res->failed = 1;
            if (!err.msg[0]) snprintf(err.msg, sizeof err.msg, "%s", tc_status_str(st));
            snprintf(res->reason, sizeof res->reason, "%s", err.msg);
        }
    }
}

/* largest |F[i+1] - F[i]| and largest |F[i+2] - 2F[i+1] + F[i]| / h */
static void jumps(const double *f, int n, double h, double *j0, double *j1) {
    *j0 = *j1 = 0;
    for (int i = 0; i + 1 < n; i++) *j0 = fmax(*j0, fabs(f[i + 1] - f[i]));
    for (int i = 0; i + 2 < n; i++) *j1 = fmax(*j1, fabs(f[i + 2] - 2 * f[i + 1] + f[i]) / h);
}

/* per-method smoothness numbers */
typedef struct e1_metrics {
    double fmax, f1cm, ratio0, ratio1, fgap, slope_gap, fcentre, slope_centre, ms_per_query;
} e1_metrics;

static e1_metrics measure(const e1_setup *e, const e1_points *p, const e1_result *r) {
    e1_metrics m;
    const double *fc = r->fy, *ff = r->fy + p->n1, *pr = r->fy + p->n1 + p->nf + p->n2;
    double h = 2 * e->range / (p->n1 - 1), jc0, jc1, jf0, jf1;
    jumps(fc, p->n1, h, &jc0, &jc1);
    jumps(ff, p->nf, h / 2, &jf0, &jf1);
    m.fmax = 0;
    for (int i = 0; i < p->nf; i++) m.fmax = fmax(m.fmax, fabs(ff[i]));
    /* a continuous profile halves its largest jump when h halves (ratio 2); a jump keeps it (1) */
    m.ratio0 = jf0 > 0 ? jc0 / jf0 : NAN;
    m.ratio1 = jf1 > 0 ? jc1 / jf1 : NAN;
    m.f1cm = pr[PROBE_D1];
    m.fgap = hypot(r->fx[p->total - NPROBE + PROBE_GAP], pr[PROBE_GAP]);
    m.slope_gap = (pr[PROBE_GAP_P] - pr[PROBE_GAP_M]) / (2 * probe_h);
    m.fcentre = pr[PROBE_C];
    m.slope_centre = (pr[PROBE_C_P] - pr[PROBE_C_M]) / (2 * probe_h);
    m.ms_per_query = 1e3 * r->seconds / p->total;
    return m;
}

/* csv: the fine 1-D profile, one column per method */
static tc_status write_profile(const char *dir, const e1_points *p, const tc_exp_method *em,
                               const e1_result *res, int nm, tc_error *err) {
    char path[1100];
    tc_path_join(path, sizeof path, dir, "profile_1d.csv");
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "y_m");
    for (int k = 0; k < nm; k++) fprintf(o.f, ",%s", em[k].label);
    fprintf(o.f, "\n");
    for (int i = 0; i < p->nf; i++) {
        fprintf(o.f, "%.9g", p->y[p->n1 + i]);
        for (int k = 0; k < nm; k++)
            if (res[k].failed) fprintf(o.f, ",nan");
            else fprintf(o.f, ",%.17g", res[k].fy[p->n1 + i]);
        fprintf(o.f, "\n");
    }
    return tc_outfile_commit(&o, err);
}

/* csv: the 2-D field of one method, blank line between rows for gnuplot */
static tc_status write_field(const char *dir, const e1_setup *e, const e1_points *p,
                             const tc_exp_method *em, const e1_result *r, tc_error *err) {
    char path[1100], name[96];
    snprintf(name, sizeof name, "field_%s.csv", em->label);
    tc_path_join(path, sizeof path, dir, name);
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "x_m,y_m,fx_N,fy_N,fnorm_N\n");
    int k0 = p->n1 + p->nf;
    for (int i = 0; i < e->n2d; i++) {
        for (int j = 0; j < e->n2d; j++) {
            int k = k0 + i * e->n2d + j;
            fprintf(o.f, "%.9g,%.9g,%.17g,%.17g,%.17g\n", p->x[k], p->y[k], r->fx[k], r->fy[k],
                    hypot(r->fx[k], r->fy[k]));
        }
        fprintf(o.f, "\n");
    }
    return tc_outfile_commit(&o, err);
}

/* what happens at concentric centres: a force jump, or an equilibrium and its stability
 * (|F(0)| below 1e-3 max |F|: the AOPC samplings are not exactly symmetric) */
static const char *centre_kind(const e1_metrics *m) {
    if (m->ratio0 < 1.5) return "force jumps";
    if (fabs(m->fcentre) > 1e-3 * m->fmax) return "no equilibrium";
    return m->slope_centre > 0 ? "unstable eq." : "stable eq.";
}

static void fmt(char *b, size_t n, double v) {
    if (isnan(v)) snprintf(b, n, "n/a");
    else snprintf(b, n, "%.3g", v);
}

/* table, metrics and the report section */
static tc_status write_tables(const tc_exp_ctx *ctx, const tc_exp_method *em, const e1_result *res,
                              const e1_metrics *mt, int nm, tc_error *err) {
    static const char *const hdr[] = {"method", "max |F| (N)", "F at 1 cm (N)", "jump ratio F",
                                      "jump ratio dF/dy", "C0", "C1", "|F| at gap (N)",
                                      "dF/dy at gap (N/m)", "dF/dy at centre (N/m)", "centre",
                                      "ms/query", "status"};
    tc_table *t = tc_table_alloc(13, hdr);
    tc_metrics ms;
    tc_metrics_init(&ms, "e1_sphere_profiles", ctx->tier);
    for (int k = 0; k < nm; k++) tc_metrics_ran(&ms, em[k].label, tc_method_cpu(&em[k].m));
    for (int k = 0; k < nm; k++) {
        const e1_metrics *m = &mt[k];
        char c[13][64];
        snprintf(c[0], 64, "%s", em[k].label);
        if (res[k].failed) {
            for (int i = 1; i < 12; i++) snprintf(c[i], 64, "-");
            snprintf(c[12], 64, "failed: %.50s", res[k].reason);
        } else {
            fmt(c[1], 64, m->fmax), fmt(c[2], 64, m->f1cm), fmt(c[3], 64, m->ratio0);
            fmt(c[4], 64, m->ratio1);
            snprintf(c[5], 64, "%s", m->ratio0 > 1.5 ? "yes" : "no");
            snprintf(c[6], 64, "%s", m->ratio1 > 1.5 ? "yes" : "no");
            fmt(c[7], 64, m->fgap), fmt(c[8], 64, m->slope_gap), fmt(c[9], 64, m->slope_centre);
            snprintf(c[10], 64, "%s", centre_kind(m));
            snprintf(c[11], 64, "%.3g", m->ms_per_query);
            snprintf(c[12], 64, "%s", res[k].warning[0] ? "ok (warnings)" : "ok");
        }
        const char *row[13];
        for (int i = 0; i < 13; i++) row[i] = c[i];
        tc_table_add_row(t, row);
        if (res[k].failed) continue;
        /* metrics for the reference check: tolerances separate noise from a regression */
        char name[96];
        snprintf(name, sizeof name, "%s.jump_ratio_F", em[k].label);
        tc_metrics_add(&ms, em[k].label, name, m->ratio0, "1", 0.15, 0, 0, "largest |dF| ratio h -> h/2 (2: continuous, 1: jump)");
        snprintf(name, sizeof name, "%s.jump_ratio_dF", em[k].label);
        tc_metrics_add(&ms, em[k].label, name, m->ratio1, "1", 0.15, 0, 0, "largest |d2F|/h ratio h -> h/2 (2: C1, 1: corner)");
        snprintf(name, sizeof name, "%s.F_1cm", em[k].label);
        tc_metrics_add(&ms, em[k].label, name, m->f1cm, "N", 1e-6, 0.02, 0, "F_y at 1 cm penetration");
        snprintf(name, sizeof name, "%s.F_gap", em[k].label);
        tc_metrics_add(&ms, em[k].label, name, m->fgap, "N", 1e-9, 0.05, 0, "|F| before touching (contact discovery)");
        snprintf(name, sizeof name, "%s.slope_centre", em[k].label);
        tc_metrics_add(&ms, em[k].label, name, m->slope_centre, "N/m", 1e-6, 0.05, 0, "dF_y/dy at concentric centres");
    }
    char base[1100], path[1100];
    tc_path_join(base, sizeof base, ctx->out_dir, "smoothness");
    tc_status st = tc_table_write(t, base,
        "Smoothness of the contact force on the small sphere along y (E1). Jump ratios compare the "
        "largest sample-to-sample change of F and of dF/dy at spacing h and h/2: 2 means continuous, "
        "1 means a jump (F) or a corner (dF/dy).", "tab:e1", err);
    tc_table_free(t);
    if (!st) {
        tc_path_join(path, sizeof path, ctx->out_dir, "metrics.cfg");
        st = tc_metrics_write(&ms, path, err);
    }
    tc_metrics_free(&ms);
    return st;
}

/* figures: every profile overlaid, one field per method */
static void write_figures(const tc_exp_ctx *ctx, const e1_setup *e, const tc_exp_method *em,
                          const e1_result *res, int nm) {
    if (!tc_plot_available()) {
        fprintf(stderr, "e1: gnuplot not found; figures skipped (install gnuplot-nox)\n");
        return;
    }
    char tpl[1100], data[1100], out[1100], ncol[16], R[32], r[32];
    tc_error err;
    snprintf(ncol, sizeof ncol, "%d", nm + 1);
    snprintf(R, sizeof R, "%g", e->R), snprintf(r, sizeof r, "%g", e->R + e->r);
    snprintf(tpl, sizeof tpl, "%s/plots/e1_profile.gp", ctx->source_dir);
    tc_path_join(data, sizeof data, ctx->out_dir, "profile_1d.csv");
    tc_path_join(out, sizeof out, ctx->out_dir, "fig_profile");
    tc_plot_var v[] = {{"datafile", data}, {"ncols", ncol}, {"touch", r}};
    tc_error_clear(&err);
    if (tc_plot_render(tpl, v, 3, out, &err)) fprintf(stderr, "e1: figure failed: %s\n", err.msg);
    snprintf(tpl, sizeof tpl, "%s/plots/e1_field.gp", ctx->source_dir);
    for (int k = 0; k < nm; k++) {
        if (res[k].failed) continue;
        char name[96];
        snprintf(name, sizeof name, "field_%s.csv", em[k].label);
        tc_path_join(data, sizeof data, ctx->out_dir, name);
        snprintf(name, sizeof name, "fig_field_%s", em[k].label);
        tc_path_join(out, sizeof out, ctx->out_dir, name);
        tc_plot_var f[] = {{"datafile", data}, {"label", em[k].label}, {"bigr", R}, {"touch", r}};
        tc_error_clear(&err);
        if (tc_plot_render(tpl, f, 4, out, &err)) fprintf(stderr, "e1: figure failed: %s\n", err.msg);
    }
}

/* section.md and section.tex for the report and the paper */
static tc_status write_section(const tc_exp_ctx *ctx, const e1_setup *e, const tc_exp_method *em,
                               const e1_result *res, int nm, tc_error *err) {
    static const char intro[] =
        "A fixed sphere (radius %g m) and a free sphere (radius %g m) moved along y through it and "
        "over the x-y plane; the contact force on the small sphere at rest, tier `%s`.\n"
        "Paper (Beker et al. 2025, fig. 5): MuJoCo's profile has discontinuities and corners; SCM's "
        "is twice differentiable, non-zero before contact, with an unstable equilibrium at "
        "concentric centres.\n\n";
    char path[1100], tab[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "section.md");
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "## E1 — sphere force profiles\n\n");
    fprintf(o.f, intro, e->R, e->r, ctx->tier);
    tc_path_join(tab, sizeof tab, ctx->out_dir, "smoothness.md");
    tc_file_append(o.f, tab);
    fprintf(o.f, "\n![F_y along y](e1_sphere_profiles/fig_profile.png)\n\n");
    for (int k = 0; k < nm; k++)
        if (!res[k].failed)
            fprintf(o.f, "![field %s](e1_sphere_profiles/fig_field_%s.png)\n", em[k].label, em[k].label);
    for (int k = 0; k < nm; k++)
        if (res[k].failed) fprintf(o.f, "\n- %s failed: %s\n", em[k].label, res[k].reason);
        else if (res[k].warning[0]) fprintf(o.f, "\n- %s warned: %s\n", em[k].label, res[k].warning);
    if ((st = tc_outfile_commit(&o, err))) return st;
    /* the LaTeX section pulls in the same table and figures */
    tc_path_join(path, sizeof path, ctx->out_dir, "section.tex");
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "\\section{Sphere force profiles (E1)}\n");
    fprintf(o.f, "A fixed sphere of radius %g\\,m and a free sphere of radius %g\\,m; static contact "
                 "force on the small sphere (tier \\texttt{%s}).\n\n", e->R, e->r, ctx->tier);
    fprintf(o.f, "\\input{e1_sphere_profiles/smoothness.tex}\n");
    fprintf(o.f, "\\begin{figure}[htbp]\\centering\n"
                 "\\includegraphics[width=0.8\\linewidth]{e1_sphere_profiles/fig_profile.pdf}\n"
                 "\\caption{$F_y$ along $y$ for every method.}\\end{figure}\n");
    for (int k = 0; k < nm; k++) {
        char tex[160];
        tc_latex_escape(tex, sizeof tex, em[k].label);
        if (!res[k].failed)
            fprintf(o.f, "\\begin{figure}[htbp]\\centering\n"
                         "\\includegraphics[width=0.6\\linewidth]{e1_sphere_profiles/fig_field_%s.pdf}\n"
                         "\\caption{Force field of \\texttt{%s}.}\\end{figure}\n", em[k].label, tex);
    }
    return tc_outfile_commit(&o, err);
}

/* runs.csv: one line per method with its status */
static tc_status write_runs(const tc_exp_ctx *ctx, const tc_exp_method *em, const e1_result *res,
                            int nm, int npoints, tc_error *err) {
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "runs.csv");
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "label,method,params,status,reason,queries,seconds\n");
    for (int k = 0; k < nm; k++) {
        const tc_params *ps = em[k].m.engine ? &em[k].m.eparams : &em[k].m.mparams;
        fprintf(o.f, "%s,%s,\"", em[k].label, em[k].m.spec);
        for (int i = 0; i < ps->n; i++) fprintf(o.f, "%s%s=%.9g", i ? " " : "", ps->spec[i].name, ps->v[i]);
        fprintf(o.f, "\",%s,\"%s\",%d,%.6f\n", res[k].failed ? "failed" : "ok", res[k].reason, npoints,
                res[k].seconds);
    }
    return tc_outfile_commit(&o, err);
}

static tc_status e1_run(const tc_exp_ctx *ctx, tc_error *err) {
    tc_script s;
    tc_status st = tc_script_load(&s, ctx->script, ctx->tier, err);
    if (st) return st;
    e1_setup e;
    tc_scene sc;
    tc_exp_method em[TC_EXP_MAXMETHOD];
    int nm = 0;
    if ((st = read_setup(&s, &e, err)) || (st = build_scene(&e, &sc, err)) ||
        (st = tc_exp_methods(&s, ctx, TC_CAP_FORCE_QUERY, TC_SHAPE_BIT(TC_SHAPE_SPHERE), em, &nm, err))) {
        tc_script_free(&s);
        return st;
    }
    tc_script_free(&s);
    /* all memory up front: points and per-method results */
    e1_points p;
    e1_result *res = calloc((size_t)nm, sizeof *res);
    if (!res || make_points(&e, &p)) return TC_ENOMEM;
    for (int k = 0; k < nm; k++) {
        res[k].fx = calloc((size_t)p.total, sizeof(double));
        res[k].fy = calloc((size_t)p.total, sizeof(double));
        if (!res[k].fx || !res[k].fy) return TC_ENOMEM;
    }
    /* the sweep: (method, block) work items in parallel */
    int nblock = (p.total + BLOCK - 1) / BLOCK, nitem = nm * nblock;
    tc_progress prog;
    tc_progress_start(&prog, "e1_sphere_profiles", nitem);
#pragma omp parallel for schedule(dynamic) num_threads(ctx->threads)
    for (int it = 0; it < nitem; it++) {
        int k = it / nblock, b = it % nblock, first = b * BLOCK;
        int count = first + BLOCK <= p.total ? BLOCK : p.total - first;
        run_block(&sc, &em[k], &p, first, count, &res[k]);
        tc_progress_tick(&prog);
    }
    tc_progress_end(&prog);
    /* metrics, data, tables, figures, report section */
    e1_metrics *mt = calloc((size_t)nm, sizeof *mt);
    if (!mt) return TC_ENOMEM;
    for (int k = 0; k < nm; k++) mt[k] = measure(&e, &p, &res[k]);
    st = write_profile(ctx->out_dir, &p, em, res, nm, err);
    for (int k = 0; k < nm && !st; k++)
        if (!res[k].failed) st = write_field(ctx->out_dir, &e, &p, &em[k], &res[k], err);
    if (!st) st = write_tables(ctx, em, res, mt, nm, err);
    if (!st) st = write_runs(ctx, em, res, nm, p.total, err);
    if (!st) write_figures(ctx, &e, em, res, nm);
    if (!st) st = write_section(ctx, &e, em, res, nm, err);
    for (int k = 0; k < nm; k++) free(res[k].fx), free(res[k].fy);
    free(res), free(mt), free(p.x), free(p.y);
    return st;
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e1_results[] = {
    {"profile_1d.csv", TC_RESULTS_COLUMNS, NULL},
    {"field_*.csv", TC_RESULTS_FILES, NULL},
    {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e1 = {
    .name = "e1_sphere_profiles",
    .title = "sphere force profiles: 1-D sweep, 2-D field, smoothness (Beker et al. fig. 1, 5)",
    .script = "e1_sphere_profiles.cfg",
    .results = e1_results,
    .run = e1_run,
};
