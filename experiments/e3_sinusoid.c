/* SPDX-License-Identifier: MIT */
/* E3: FEM (CalculiX) vs pressure field contact for a rigid sinusoid on a layer (Elandt fig. 6) */
#include "e3.h"
#include "exp/tc_experiment.h"
#include "fem/tc_fem.h"
#include "core/tc_fs.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "report/tc_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXETA 8

typedef struct e3_setup {
    double lambda, E, nu, depth, eta[MAXETA], paper_eta, paper_ratio;
    int neta, nx, ny, steps, segments, resolve;
    char cache[512];
} e3_setup;

static tc_status read_setup(const tc_script *s, e3_setup *e, tc_error *err) {
    static const char *const pk[] = {"wavelength", "E", "nu", "depth", "etas", NULL};
    static const char *const fk[] = {"cache", "nx", "ny", "steps", NULL};
    config_setting_t *pr = tc_script_lookup(s, NULL, "problem"), *fe = tc_script_lookup(s, NULL, "fem");
    config_setting_t *pf = tc_script_lookup(s, NULL, "pfc"), *pa = tc_script_lookup(s, NULL, "paper");
    if (!pr || !fe || !pf || !pa)
        return tc_error_set(err, TC_EINVAL, s->path, 0, !pr ? "problem" : !fe ? "fem" : !pf ? "pfc" : "paper",
                            "missing group");
    const char *cache;
    tc_status st;
    if ((st = tc_script_allowed(s, pr, pk, err)) || (st = tc_script_allowed(s, fe, fk, err)) ||
        (st = tc_script_real(s, pr, "wavelength", 1e-6, 1e6, &e->lambda, err)) ||
        (st = tc_script_real(s, pr, "E", 1e-12, 1e15, &e->E, err)) ||
        (st = tc_script_real(s, pr, "nu", 0, 0.49, &e->nu, err)) ||
        (st = tc_script_real(s, pr, "depth", 1e-6, 0.9, &e->depth, err)) ||
        (st = tc_script_reals(s, pr, "etas", 0, 1, e->eta, MAXETA, &e->neta, err)) ||
        (st = tc_script_string(s, fe, "cache", &cache, err)) ||
        (st = tc_script_int(s, fe, "nx", 1, 10000, &e->nx, err)) ||
        (st = tc_script_int(s, fe, "ny", 1, 10000, &e->ny, err)) ||
        (st = tc_script_int(s, fe, "steps", 1, TC_FEM_MAXSTEP, &e->steps, err)) ||
        (st = tc_script_int(s, pf, "segments", 10, 10000000, &e->segments, err)) ||
        (st = tc_script_real(s, pa, "eta", 0, 1, &e->paper_eta, err)) ||
        (st = tc_script_real(s, pa, "pfc_over_fem", 0, 10, &e->paper_ratio, err)) ||
        (st = tc_script_int(s, NULL, "resolve", 0, 1, &e->resolve, err)))
        return st;
    snprintf(e->cache, sizeof e->cache, "%s", cache);
    if (e->eta[0] != 0)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(pr), "etas",
                            "the first amplitude must be 0 (it normalises every curve)");
    return TC_OK;
}

/* the cached FEM curves (tc_fem_read_cache), matched to the script's amplitudes, and the cache's
 * '#' provenance lines for the outputs */
static tc_status read_cache(const char *path, const e3_setup *e, tc_fem_curve *c, char *prov,
                            size_t nprov, tc_error *err) {
    tc_fem_curve all[MAXETA];
    double etas[MAXETA];
    int n = 0;
    tc_status st = tc_fem_read_cache(path, all, etas, MAXETA, &n, err);
    if (st == TC_EIO)
        return tc_error_set(err, st, path, 0, NULL, "no FEM cache: run `touche generate e3` (needs ccx)");
    if (st) return st;
    for (int k = 0; k < e->neta; k++) {
        int found = -1;
        for (int j = 0; j < n; j++)
            if (fabs(etas[j] - e->eta[k]) < 1e-9) found = j;
        if (found < 0 || all[found].n < 2)
            return tc_error_set(err, TC_EPARSE, path, 0, NULL,
                                "no curve for eta = %g: regenerate with `touche generate e3`", e->eta[k]);
        c[k] = all[found];
    }
    prov[0] = 0;
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f) && line[0] == '#') strncat(prov, line, nprov - strlen(prov) - 1);
    if (f) fclose(f);
    return TC_OK;
}

/* linear interpolation of a curve at depth d (NaN outside) */
static double at(const tc_fem_curve *c, double d) {
    for (int i = 0; i + 1 < c->n; i++)
        if (d >= c->depth[i] - 1e-12 && d <= c->depth[i + 1] + 1e-12) {
            double t = (d - c->depth[i]) / (c->depth[i + 1] - c->depth[i]);
            return (1 - t) * c->force[i] + t * c->force[i + 1];
        }
    return NAN;
}

static tc_status e3_run(const tc_exp_ctx *ctx, tc_error *err) {
    tc_script s;
    tc_status st = tc_script_load(&s, ctx->script, ctx->tier, err);
    if (st) return st;
    e3_setup e;
    st = read_setup(&s, &e, err);
    tc_script_free(&s);
    if (st) return st;
    /* the FEM reference: the cache, and a coarse re-solve when ccx is installed */
    tc_fem_curve fem[MAXETA], coarse[MAXETA];
    char path[1100], prov[4096], note[512] = "";
    snprintf(path, sizeof path, "%s/%s", ctx->source_dir, e.cache);
    if ((st = read_cache(path, &e, fem, prov, sizeof prov, err))) return st;
    int resolved = 0;
    if (e.resolve && tc_fem_have_ccx()) {
        resolved = 1;
        for (int k = 0; k < e.neta && resolved; k++) {
            tc_fem_sinusoid p = tc_default_fem_sinusoid();
            p.eta = e.eta[k], p.wavelength = e.lambda, p.nu = e.nu, p.E = e.E, p.depth = e.depth;
            p.nx = e.nx, p.ny = e.ny, p.nsteps = e.steps;
            tc_error ferr;
            tc_error_clear(&ferr);
            if (tc_fem_sinusoid_solve(&p, &coarse[k], NULL, &ferr)) {
                snprintf(note, sizeof note, "ccx failed (%s); the cache is used alone", ferr.msg);
                resolved = 0;
            }
        }
    } else {
        snprintf(note, sizeof note, "%s", e.resolve ? "ccx not found: the cached FEM curves are used"
                                                    : "full tier: the cached production-mesh curves are used");
    }
    if (note[0]) fprintf(stderr, "e3: %s\n", note);
    /* normalisation: each method by its own eta = 0 force at the reference depth */
    const double f0_fem = at(&fem[0], e.depth);
    const double f0_pfc = e3_pfc_force(0, e.lambda, e.E, e.depth, e.segments);
    /* curves.csv: both methods normalised, both depth conventions */
    tc_outfile o;
    tc_path_join(path, sizeof path, ctx->out_dir, "curves.csv");
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "# one block per eta (gnuplot index), FEM cache provenance:\n%s", prov);
    fprintf(o.f, "eta,depth_touch,depth_mean,fem,pfc\n");
    for (int k = 0; k < e.neta; k++) {
        for (int i = 0; i < fem[k].n; i++) {
            double d = fem[k].depth[i];
            fprintf(o.f, "%g,%.9g,%.9g,%.9g,%.9g\n", e.eta[k], d, d - e.eta[k], fem[k].force[i] / f0_fem,
                    e3_pfc_force(e.eta[k], e.lambda, e.E, d, e.segments) / f0_pfc);
        }
        fprintf(o.f, "\n\n");
    }
    if ((st = tc_outfile_commit(&o, err))) return st;
    /* the table: PFC / FEM at the reference depth, both conventions, beside the paper */
    static const char *const hdr[] = {"eta", "convention", "depth from first touch", "FEM (norm.)",
                                      "PFC (norm.)", "PFC / FEM", "paper PFC / FEM", "coarse FEM / cache"};
    tc_table *t = tc_table_alloc(8, hdr);
    tc_metrics ms;
    tc_metrics_init(&ms, "e3_sinusoid", ctx->tier);
    for (int k = 0; k < e.neta; k++)
        for (int conv = 0; conv < 2; conv++) {
            /* first touch: d = depth; mean level: the mean of the surface at depth, d = depth + eta */
            double d = conv ? e.depth + e.eta[k] : e.depth;
            double ff = at(&fem[k], d) / f0_fem, fp = e3_pfc_force(e.eta[k], e.lambda, e.E, d, e.segments) / f0_pfc;
            double cf = resolved ? at(&coarse[k], e.depth) / at(&fem[k], e.depth) : NAN;
            char c[8][64];
            snprintf(c[0], 64, "%g", e.eta[k]);
            snprintf(c[1], 64, "%s", conv ? "mean level" : "first touch");
            snprintf(c[2], 64, "%.3f", d);
            snprintf(c[3], 64, isnan(ff) ? "n/a (beyond the FEM curve)" : "%.4f", ff);
            snprintf(c[4], 64, "%.4f", fp);
            snprintf(c[5], 64, isnan(ff) ? "n/a" : "%.4f", fp / ff);
            snprintf(c[6], 64, fabs(e.eta[k] - e.paper_eta) < 1e-9 && !conv ? "%.2f" : "-", e.paper_ratio);
            snprintf(c[7], 64, conv || isnan(cf) ? "-" : "%.4f", cf);
            const char *row[8];
            for (int i = 0; i < 8; i++) row[i] = c[i];
            tc_table_add_row(t, row);
            if (isnan(ff)) continue;
            char name[96];
            snprintf(name, sizeof name, "pfc_over_fem.eta%g.%s", e.eta[k], conv ? "mean" : "touch");
            tc_metrics_add(&ms, NULL, name, fp / ff, "1", 0.005, 0.01, 0, "PFC / FEM normalised force at the reference depth");
        }
    char base[1100];
    tc_path_join(base, sizeof base, ctx->out_dir, "ratios");
    st = tc_table_write(t, base,
        "E3: normalised force (by the eta = 0, d = 0.4 value of each method) of a rigid sinusoid on a "
        "plane-strain neo-Hookean layer, CalculiX vs the pressure field model; depth from first touch "
        "or from the sinusoid's mean level.", "tab:e3", err);
    tc_table_free(t);
    if (st) return tc_metrics_free(&ms), st;
    tc_path_join(path, sizeof path, ctx->out_dir, "metrics.cfg");
    st = tc_metrics_write(&ms, path, err);
    tc_metrics_free(&ms);
    if (st) return st;
    /* the figure: FEM solid, PFC dotted, as fig. 6 right */
    if (tc_plot_available()) {
        char tpl[1100], data[1100], out[1100], neta[16], etas[128] = "";
        for (int k = 0; k < e.neta; k++)
            snprintf(etas + strlen(etas), sizeof etas - strlen(etas), "%s%g", k ? " " : "", e.eta[k]);
        tc_error perr;
        tc_error_clear(&perr);
        snprintf(neta, sizeof neta, "%d", e.neta);
        snprintf(tpl, sizeof tpl, "%s/plots/e3_force.gp", ctx->source_dir);
        tc_path_join(data, sizeof data, ctx->out_dir, "curves.csv");
        tc_path_join(out, sizeof out, ctx->out_dir, "fig_force");
        tc_plot_var v[] = {{"datafile", data}, {"neta", neta}, {"etas", etas}};
        if (tc_plot_render(tpl, v, 3, out, &perr)) fprintf(stderr, "e3: %s\n", perr.msg);
    }
    /* the report section */
    tc_path_join(path, sizeof path, ctx->out_dir, "section.md");
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "## E3 — FEM sinusoid comparison\n\nTier `%s`. %s\n\n", ctx->tier, note);
    tc_path_join(base, sizeof base, ctx->out_dir, "ratios.md");
    tc_file_append(o.f, base);
    fprintf(o.f, "\n![normalised force](e3_sinusoid/fig_force.png)\n");
    if ((st = tc_outfile_commit(&o, err))) return st;
    tc_path_join(path, sizeof path, ctx->out_dir, "section.tex");
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "\\section{FEM sinusoid comparison (E3)}\nTier \\texttt{%s}.\n\n"
                 "\\input{e3_sinusoid/ratios.tex}\n"
                 "\\begin{figure}[htbp]\\centering\n"
                 "\\includegraphics[width=0.7\\linewidth]{e3_sinusoid/fig_force.pdf}\n"
                 "\\caption{Normalised force against depth: CalculiX (solid) and the pressure field "
                 "model (dotted).}\\end{figure}\n", ctx->tier);
    return tc_outfile_commit(&o, err);
}

tc_status e3_generate(const char *source_dir, const char *out_path, tc_error *err) {
    char script[1100], path[1100];
    snprintf(script, sizeof script, "%s/experiments/e3_sinusoid.cfg", source_dir);
    tc_script s;
    e3_setup e;
    tc_status st = tc_script_load(&s, script, "full", err);
    if (st) return st;
    st = read_setup(&s, &e, err);
    tc_script_free(&s);
    if (st) return st;
    if (!tc_fem_have_ccx())
        return tc_error_set(err, TC_EIO, NULL, 0, NULL, "ccx not found: install calculix-ccx");
    /* the production mesh (tc_default_fem_sinusoid), deep enough for the mean-level convention */
    tc_fem_curve c[MAXETA];
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    for (int k = 0; k < e.neta; k++) {
        p.eta = e.eta[k], p.wavelength = e.lambda, p.nu = e.nu, p.E = e.E;
        p.depth = e.depth + e.eta[k];
        p.nsteps = (int)ceil(p.depth / 0.02);
        if ((st = tc_fem_sinusoid_solve(&p, &c[k], NULL, err))) return st;
        fprintf(stderr, "e3: eta %g solved (%d steps)\n", e.eta[k], c[k].n);
    }
    p.eta = 0, p.depth = e.depth;
    snprintf(path, sizeof path, "%s/%s", source_dir, e.cache);
    return tc_fem_write_cache(out_path ? out_path : path, c, e.eta, e.neta, &p, err);
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e3_results[] = {
    {"curves.csv", TC_RESULTS_SHARED, NULL},
    {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e3 = {
    .name = "e3_sinusoid",
    .title = "FEM sinusoid comparison: CalculiX vs pressure field contact (Elandt et al. fig. 6)",
    .script = "e3_sinusoid.cfg",
    .results = e3_results,
    .run = e3_run,
};
