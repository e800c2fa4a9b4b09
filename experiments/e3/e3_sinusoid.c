/* SPDX-License-Identifier: MIT */
/* E3: FEM (CalculiX) vs pressure field contact for a rigid sinusoid on a layer (Elandt fig. 6), and
 * pfc's contact surface of a sphere on a half-space (fig. 1) */
#include "experiments/e3/e3.h"
#include "exp/tc_rows.h"
#include "fem/tc_fem.h"
#include "core/tc_fs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXETA 8
/* the most modulus ratios of the contact-surface figure (one panel each) */
#define MAXRATIO 4

typedef struct e3_setup {
    double lambda, E, nu, depth, eta[MAXETA], paper_eta, paper_ratio;
    double curve[2]; /* the depths (1) between which the curves are compared, in each convention */
    int neta, ncurve, nx, ny, steps, segments, resolve;
    char cache[512];
    /* the contact-surface figure: sphere radius (m), depth (m), modulus (Pa), the half-space's
     * modulus over the sphere's, the sphere mesh's icosphere level */
    double sr, sdepth, sE, ratio[MAXRATIO];
    int nratio, slevel;
} e3_setup;

/* the settings' tables, one per group (the layer's units; the surface figure's m and Pa) */
static const tc_field problem_rows[] = {
    TC_FIELD_R(e3_setup, lambda, "wavelength", 1e-6, 1e6),
    TC_FIELD_R(e3_setup, E, "E", 1e-12, 1e15),
    TC_FIELD_R(e3_setup, nu, "nu", 0, 0.49),
    TC_FIELD_R(e3_setup, depth, "depth", 1e-6, 0.9),
    TC_FIELD_RS(e3_setup, eta, neta, "etas", 0, 1),
    TC_FIELD_RS(e3_setup, curve, ncurve, "curve_depths", 0, 0.9),
    TC_FIELD_END};
static const tc_field fem_rows[] = {
    TC_FIELD_S(e3_setup, cache, "cache"), TC_FIELD_I(e3_setup, nx, "nx", 1, 10000),
    TC_FIELD_I(e3_setup, ny, "ny", 1, 10000),
    TC_FIELD_I(e3_setup, steps, "steps", 1, TC_FEM_MAXSTEP), TC_FIELD_END};
static const tc_field pfc_rows[] = {TC_FIELD_I(e3_setup, segments, "segments", 10, 10000000),
                                    TC_FIELD_END};
static const tc_field paper_rows[] = {TC_FIELD_R(e3_setup, paper_eta, "eta", 0, 1),
                                      TC_FIELD_R(e3_setup, paper_ratio, "pfc_over_fem", 0, 10),
                                      TC_FIELD_END};
static const tc_field top_rows[] = {TC_FIELD_I(e3_setup, resolve, "resolve", 0, 1), TC_FIELD_END};
static const tc_field surface_rows[] = {TC_FIELD_R(e3_setup, sr, "radius", 1e-3, 10),
                                        TC_FIELD_R(e3_setup, sdepth, "depth", 1e-6, 10),
                                        TC_FIELD_R(e3_setup, sE, "E", 1, 1e12),
                                        TC_FIELD_RS(e3_setup, ratio, nratio, "ratios", 1e-2, 1e2),
                                        TC_FIELD_I(e3_setup, slevel, "resolution", 0, 5),
                                        TC_FIELD_END};
static const char *const groups[] = {"problem", "fem", "pfc", "paper", NULL, "surface"};
static const tc_field *const group_rows[] = {problem_rows, fem_rows, pfc_rows,
                                             paper_rows,   top_rows, surface_rows};

static tc_status read_setup(const tc_script *s, e3_setup *e, tc_error *err) {
    tc_status st = TC_OK;
    for (int g = 0; g < 6 && !st; g++)
        st = tc_script_read(s, groups[g], group_rows[g], e, err);
    if (st) return st;
    const tc_setting *pr = tc_script_lookup(s, NULL, "problem"),
                     *su = tc_script_lookup(s, NULL, "surface");
    if (e->sdepth >= e->sr)
        return tc_script_fail(
            s, su, "depth", err,
            "the sphere must be pressed less than its radius into the half-space");
    for (int k = 0; k < e->nratio; k++)
        if (e->sr / e->ratio[k] > 10)
            return tc_script_fail(s, su, "ratios", err,
                                  "radius / ratio (pfc's plane_h) must be at most 10 m");
    if (e->ncurve != 2 || !(e->curve[0] < e->curve[1]) || e->curve[1] > e->depth + 1e-12)
        return tc_script_fail(s, pr, "curve_depths", err,
                              "must be [lo, hi] with lo < hi <= depth (%g)", e->depth);
    if (e->eta[0] != 0)
        return tc_script_fail(s, pr, "etas", err,
                              "the first amplitude must be 0 (it normalises every curve)");
    return TC_OK;
}

/* the FEM problem of amplitude eta to the script's depth on the production mesh
 * (tc_default_fem_sinusoid) */
static tc_fem_sinusoid fem_problem(const e3_setup *e, double eta) {
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    p.eta = eta;
    p.wavelength = e->lambda;
    p.nu = e->nu;
    p.E = e->E;
    p.depth = e->depth;
    return p;
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
        return tc_error_set(err, st, path, 0, NULL,
                            "no FEM cache: run `touche generate e3` (needs ccx)");
    if (st) return st;
    for (int k = 0; k < e->neta; k++) {
        int found = -1;
        for (int j = 0; j < n; j++)
            if (fabs(etas[j] - e->eta[k]) < 1e-9) found = j;
        if (found < 0 || all[found].n < 2)
            return tc_error_set(err, TC_EPARSE, path, 0, NULL,
                                "no curve for eta = %g: regenerate with `touche generate e3`",
                                e->eta[k]);
        c[k] = all[found];
    }
    prov[0] = 0;
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f) && line[0] == '#')
        strncat(prov, line, nprov - strlen(prov) - 1);
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

/* the driver's state: the settings, the FEM cache, the coarse re-solve (resolved: each of its
 * runs succeeded) and the normalisations (each method's eta = 0 force at the reference depth) */
typedef struct e3_state {
    e3_setup e;
    tc_fem_curve fem[MAXETA], coarse[MAXETA];
    int resolved;
    double f0_fem, f0_pfc;
    char prov[4096];
} e3_state;

static tc_status e3_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e3_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    char path[1100];
    tc_status st = read_setup(tc_exp_script(x), &s->e, err);
    if (st) return st;
    /* the FEM reference curves, read before anything runs */
    tc_path_under(tc_exp_source_dir(x), s->e.cache, path, sizeof path);
    return read_cache(path, &s->e, s->fem, s->prov, sizeof s->prov, err);
}

/* one work item: a coarse CalculiX solve for one amplitude */
static void e3_item(void *ctx, int k, tc_item *it) {
    e3_state *s = ctx;
    tc_fem_sinusoid p = fem_problem(&s->e, s->e.eta[k]);
    p.nx = s->e.nx;
    p.ny = s->e.ny;
    p.nsteps = s->e.steps;
    tc_error ferr;
    tc_error_clear(&ferr);
    if ((it->status = tc_fem_sinusoid_solve(&p, &s->coarse[k], NULL, &ferr)))
        snprintf(it->reason, sizeof it->reason, "%s", ferr.msg);
    it->steps = s->coarse[k].n;
}

/* what item k writes: its coarse curve (over MPI ranks these bytes cross to every rank) */
static int e3_regions(void *ctx, int k, tc_region *r) {
    e3_state *s = ctx;
    r[0] = (tc_region){&s->coarse[k], sizeof s->coarse[k]};
    return 1;
}

/* the FEM reference: the cache, and a coarse re-solve with ccx (one run per amplitude) where the
 * tier asks for it; a note says when the cache is used alone */
static tc_status resolve_fem(tc_exp *x, e3_state *s) {
    const e3_setup *e = &s->e;
    char note[512] = "";
    if (e->resolve && tc_fem_have_ccx()) {
        for (int k = 0; k < e->neta; k++)
            tc_exp_add_run(x, -1, NULL, -1, "CalculiX %dx%d mesh, eta = %g", e->nx, e->ny,
                           e->eta[k]);
        /* the larger amplitudes take ccx longer (quick tier: 0.64, 1.13, 1.42 s for eta = 0,
         * 0.166, 0.333, about 1 + 3.7 eta relative): started largest first; over MPI ranks each
         * rank runs its share (docs/mpi.md), the costs deciding which */
        double cost[MAXETA];
        for (int k = 0; k < e->neta; k++)
            cost[k] = 1 + 3.7 * e->eta[k];
        tc_status st = tc_exp_sweep_split(x, e->neta, NULL, cost, e3_item, e3_regions, s);
        if (st) return st;
        s->resolved = tc_exp_failed(x) == 0;
        if (!s->resolved)
            snprintf(note, sizeof note, "ccx failed (%s); the cache is used alone",
                     tc_exp_run_record(x, 0)->status ? tc_exp_run_record(x, 0)->reason
                                                     : "see runs.csv");
    } else {
        snprintf(note, sizeof note, "%s",
                 e->resolve ? "ccx not found: the cached FEM curves are used"
                            : "full tier: the cached production-mesh curves are used");
    }
    if (note[0] && e->resolve)
        tc_exp_warn(x, "%s", note);
    else if (note[0])
        tc_exp_text(x, "%s.", note);
    return TC_OK;
}

/* the depth conventions of the tables, and of the metrics' names */
static const char *const conv_name[] = {"first touch", "mean level"};
static const char *const conv_key[] = {"touch", "mean"};

/* the pressure field model's force at amplitude eta and depth d (from first touch), normalised */
static double pfc_norm(const e3_state *s, double eta, double d) {
    return e3_pfc_force(eta, s->e.lambda, s->e.E, d, s->e.segments) / s->f0_pfc;
}

/* curves.csv: both methods normalised, both depth conventions, a block per eta */
static tc_status write_curves(const tc_exp *x, const e3_state *s, tc_error *err) {
    const e3_setup *e = &s->e;
    tc_outfile o;
    tc_status st = tc_exp_open(x, "curves.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "# one block per eta (gnuplot index), FEM cache provenance:\n%s", s->prov);
    fprintf(o.f, "eta,depth_touch,depth_mean,fem,pfc\n");
    for (int k = 0; k < e->neta; k++) {
        for (int i = 0; i < s->fem[k].n; i++) {
            double d = s->fem[k].depth[i];
            fprintf(o.f, "%g,%.9g,%.9g,%.9g,%.9g\n", e->eta[k], d, d - e->eta[k],
                    s->fem[k].force[i] / s->f0_fem, pfc_norm(s, e->eta[k], d));
        }
        fprintf(o.f, "\n\n");
    }
    return tc_outfile_commit(&o, err);
}

/* the table: PFC / FEM at the reference depth, both conventions, beside the paper and the
 * coarse re-solve; one metric per row */
static tc_status write_ratios(tc_exp *x, const e3_state *s, tc_error *err) {
    static const tc_col cols[] = {TC_COL_TAB("eta", "%g"),
                                  TC_COL_TAB("convention", NULL),
                                  TC_COL_TAB("depth from first touch", "%.3f"),
                                  TC_COL_TAB("FEM (norm.)", "%.4f"),
                                  TC_COL_TAB("PFC (norm.)", "%.4f"),
                                  TC_COL_TAB("PFC / FEM", "%.4f"),
                                  TC_COL_TAB("paper PFC / FEM", "%.2f"),
                                  TC_COL_TAB("coarse FEM / cache", "%.4f")};
    const e3_setup *e = &s->e;
    const tc_fem_curve *fem = s->fem;
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, 8, err);
    if (st) return st;
    for (int k = 0; k < e->neta; k++)
        for (int conv = 0; conv < 2; conv++) {
            /* first touch: d = depth; mean level: the mean of the surface at depth, d = depth + eta
             */
            double d = conv ? e->depth + e->eta[k] : e->depth;
            double ff = at(&fem[k], d) / s->f0_fem, fp = pfc_norm(s, e->eta[k], d);
            double cf = s->resolved ? at(&s->coarse[k], e->depth) / at(&fem[k], e->depth) : NAN;
            const int paper = fabs(e->eta[k] - e->paper_eta) < 1e-9 && !conv;
            tc_rows_put(w, (const tc_cell[]){
                               TC_NUM(e->eta[k]), TC_TEXT(conv_name[conv]), TC_NUM(d),
                               isnan(ff) ? TC_TEXT("n/a (beyond the FEM curve)") : TC_NUM(ff),
                               TC_NUM(fp), isnan(ff) ? TC_TEXT("n/a") : TC_NUM(fp / ff),
                               TC_NUM(paper ? e->paper_ratio : NAN), TC_NUM(conv ? NAN : cf)});
            if (!isnan(ff))
                tc_exp_metric(x, NULL, fp / ff, "1", 0.005, 0.01, 0,
                              "PFC / FEM normalised force at the reference depth",
                              "pfc_over_fem.eta%g.%s", e->eta[k], conv_key[conv]);
        }
    tc_exp_text(x,
                "A rigid frictionless sinusoid (wavelength %.4g, amplitudes eta) pressed into a "
                "plane-strain layer of unit thickness: CalculiX (neo-Hookean, finite strain) "
                "against the pressure field model, tier `%s`.",
                e->lambda, tc_exp_tier(x));
    return tc_rows_close(w, "ratios",
                         "E3: normalised force (by the eta = 0, d = 0.4 value of each "
                         "method) of a rigid sinusoid on a plane-strain neo-Hookean layer, "
                         "CalculiX vs the pressure field model; depth from first touch or "
                         "from the sinusoid's mean level.",
                         err);
}

/* one polygon of the contact surface at modulus ratio k as pm3d draws it (its fan from vertex 0
 * as two scans: vertex 0 repeated, then the others); returns its peak pressure (Pa) */
static double put_polygon(FILE *f, double k, const tc_pfc_polygon *poly) {
    double pk = 0;
    for (int sc = 0; sc < 2; sc++) {
        for (int v = 1; v < poly->n; v++) {
            const int w = sc ? v : 0;
            const double *q = poly->x[w];
            fprintf(f, "%g,%.7g,%.7g,%.7g,%.7g\n", k, q[0], q[1], q[2], poly->p[w]);
            pk = fmax(pk, poly->p[w]);
        }
        fputs(sc ? "\n\n" : "\n", f);
    }
    return pk;
}

/* Elandt et al. fig. 1: pfc's contact surface of the sphere on the half-space for each modulus
 * ratio into surface.csv, the figure and a paragraph */
static tc_status write_surface(tc_exp *x, const e3_setup *e, tc_error *err) {
    char path[1200], count[256] = "", ratios[128] = "";
    tc_outfile o;
    tc_exp_path(x, "surface.csv", path, sizeof path);
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f,
            "# pfc contact surface: sphere r = %g m, %g m into a half-space, E = %g Pa, icosphere "
            "level %d; k = the half-space's modulus / the sphere's (plane_h = r / k)\n",
            e->sr, e->sdepth, e->sE, e->slevel);
    fprintf(
        o.f,
        "# one polygon per two blank lines, as two pm3d scans: vertex 0 repeated, then the others; "
        "x, y, z (m), p = p0 of both fields (Pa)\n");
    fprintf(o.f, "k,x,y,z,p\n");
    double pmax = 0;
    for (int j = 0; j < e->nratio && !st; j++) {
        tc_pfc_polygon *poly;
        int n;
        if ((st = e3_surface(e->sr, e->sdepth, e->sE, e->ratio[j], e->slevel, &poly, &n, err)))
            break;
        double pk = 0;
        for (int i = 0; i < n; i++)
            pk = fmax(pk, put_polygon(o.f, e->ratio[j], &poly[i]));
        free(poly);
        pmax = fmax(pmax, pk);
        tc_words_add(count, sizeof count, "; ", "k = %g: %d polygons, peak %.3g kPa", e->ratio[j],
                     n, pk / 1e3);
        tc_words_add(ratios, sizeof ratios, " ", "%g", e->ratio[j]);
    }
    if (st) {
        tc_outfile_abort(&o);
        return st;
    }
    if ((st = tc_outfile_commit(&o, err))) return st;
    /* the figure: one panel per ratio, one colour scale up to the peak pressure of all */
    char r[32], d[32], cb[32];
    snprintf(r, sizeof r, "%g", e->sr);
    snprintf(d, sizeof d, "%g", e->sdepth);
    snprintf(cb, sizeof cb, "%g", ceil(pmax / 1e3) * 1e3);
    tc_plot_var v[] = {
        {"datafile", path}, {"ratios", ratios}, {"radius", r}, {"depth", d}, {"pmax", cb}};
    tc_exp_text(
        x,
        "Contact surface (Elandt et al. fig. 1): pfc's equal-pressure surface between a soft "
        "sphere (radius %g m, icosphere level %d, E = %g Pa) pressed %g m into a soft half-space "
        "k times as stiff (a compliant layer r / k thick). It is a cup from the circle where the "
        "bodies' surfaces cross (on z = 0) down to depth / (1 + k) on the axis: equal moduli "
        "meet halfway on a paraboloid (the sphere's field is radial, so the surface is not a "
        "plane), a stiffer half-space pushes the surface towards the sphere's side and flattens "
        "it, a softer one lets it follow the sphere (%s; `surface.csv`).",
        e->sr, e->slevel, e->sE, e->sdepth, count);
    tc_exp_figure(
        x, "e3_surface.gp", v, 5, "fig_surface",
        "Pressure field contact surfaces of a sphere pressed into a half-space for three "
        "half-space / sphere modulus ratios k, coloured by pressure on one scale (z drawn three "
        "times larger); dashed: the undeformed sphere's section y = 0, grey: the half-space's "
        "surface z = 0. Last panel: every vertex's height against its distance from the axis "
        "(points) on the smooth fields' closed form (lines).");
    return TC_OK;
}

/* the curves, not one depth: per eta and depth convention the largest |PFC / FEM - 1| over the
 * FEM samples between the script's curve depths (both normalised by their own eta = 0, d = 0.4
 * force, so at eta = 0 the ratio is 1 at d = 0.4 by construction, and only the curve can
 * disagree), with the depth where it is reached; a table and one metric each */
static tc_status write_deviation(tc_exp *x, const e3_state *s, tc_error *err) {
    static const tc_col cols[] = {
        TC_COL_TAB("eta", "%g"),        TC_COL_TAB("convention", NULL),
        TC_COL_TAB("depths", NULL),     TC_COL_TAB("max |PFC / FEM - 1|", "%.4f"),
        TC_COL_TAB("at depth", "%.3f"), TC_COL_TAB("PFC / FEM there", "%.4f"),
        TC_COL_TAB("samples", "%.0f")};
    const e3_setup *e = &s->e;
    const tc_fem_curve *fem = s->fem;
    char depths[64], caption[512];
    tc_rows *w;
    tc_status st = tc_rows_open(&w, x, NULL, cols, 7, err);
    if (st) return st;
    snprintf(depths, sizeof depths, "%g-%g", e->curve[0], e->curve[1]);
    for (int k = 0; k < e->neta; k++)
        for (int conv = 0; conv < 2; conv++) {
            /* the FEM samples as they are (no interpolation), PFC at the same depths */
            const double shift = conv ? e->eta[k] : 0;
            double d[TC_FEM_MAXSTEP], ref[TC_FEM_MAXSTEP], model[TC_FEM_MAXSTEP];
            int n = fem[k].n, used = 0, worst = -1;
            for (int i = 0; i < n; i++) {
                d[i] = fem[k].depth[i] - shift;
                ref[i] = fem[k].force[i] / s->f0_fem;
                model[i] = pfc_norm(s, e->eta[k], fem[k].depth[i]);
            }
            double dev = e3_curve_deviation(d, ref, model, n, e->curve[0], e->curve[1]);
            for (int i = 0; i < n; i++)
                if (d[i] >= e->curve[0] - 1e-12 && d[i] <= e->curve[1] + 1e-12) {
                    used++;
                    if (worst < 0 ||
                        fabs(model[i] / ref[i] - 1) > fabs(model[worst] / ref[worst] - 1))
                        worst = i;
                }
            tc_rows_put(w, (const tc_cell[]){
                               TC_NUM(e->eta[k]), TC_TEXT(conv_name[conv]), TC_TEXT(depths),
                               isnan(dev) ? TC_TEXT("n/a") : TC_NUM(dev),
                               TC_NUM(worst < 0 ? NAN : d[worst]),
                               TC_NUM(worst < 0 ? NAN : model[worst] / ref[worst]), TC_NUM(used)});
            if (!isnan(dev))
                tc_exp_metric(
                    x, NULL, dev, "1", 0.005, 0.01, 0,
                    "largest |PFC / FEM - 1| along the normalised curve over the curve depths",
                    "pfc_over_fem.eta%g.%s.maxdev", e->eta[k], conv_key[conv]);
        }
    snprintf(caption, sizeof caption,
             "E3: how far the pressure field model's normalised force curve strays from CalculiX's "
             "along depth: the largest |PFC / FEM - 1| over the FEM samples with depth in [%g, %g] "
             "(first touch, or from the sinusoid's mean level), and where. The ratio at d = %g "
             "alone is 1 at eta = 0 by construction (both curves are normalised there).",
             e->curve[0], e->curve[1], e->depth);
    return tc_rows_close(w, "curve_deviation", caption, err);
}

static tc_status e3_run(tc_exp *x, void *state, tc_error *err) {
    e3_state *s = state;
    const e3_setup *e = &s->e;
    tc_status st = resolve_fem(x, s);
    if (st) return st;
    /* normalisation: each method by its own eta = 0 force at the reference depth */
    s->f0_fem = at(&s->fem[0], e->depth);
    s->f0_pfc = e3_pfc_force(0, e->lambda, e->E, e->depth, e->segments);
    if ((st = write_curves(x, s, err)) || (st = write_ratios(x, s, err)) ||
        (st = write_deviation(x, s, err)))
        return st;
    /* the figure: FEM solid, PFC dotted, as fig. 6 right */
    char data[1200], neta[16], etas[128] = "";
    for (int k = 0; k < e->neta; k++)
        tc_words_add(etas, sizeof etas, " ", "%g", e->eta[k]);
    snprintf(neta, sizeof neta, "%d", e->neta);
    tc_exp_path(x, "curves.csv", data, sizeof data);
    /* the paper's mark: its PFC / FEM at its eta, times this FEM curve at the reference depth
     * (where the paper puts the PFC curve); none without that eta */
    char px[32] = "nan", py[32] = "nan", peta[32], pratio[32];
    for (int k = 0; k < e->neta; k++)
        if (fabs(e->eta[k] - e->paper_eta) < 1e-9) {
            snprintf(px, sizeof px, "%.17g", e->depth);
            snprintf(py, sizeof py, "%.17g", e->paper_ratio * at(&s->fem[k], e->depth) / s->f0_fem);
        }
    snprintf(peta, sizeof peta, "%g", e->paper_eta);
    snprintf(pratio, sizeof pratio, "%g", e->paper_ratio);
    tc_plot_var v[] = {{"datafile", data}, {"neta", neta}, {"etas", etas},    {"px", px},
                       {"py", py},         {"peta", peta}, {"pratio", pratio}};
    char caption[400];
    snprintf(caption, sizeof caption,
             "Normalised force against depth: CalculiX (solid) and the pressure field model "
             "(dotted). Black open diamond: the paper's PFC force at eta = %g and d = %g, %g "
             "times the FEM curve's there (fig. 6).",
             e->paper_eta, e->depth, e->paper_ratio);
    tc_exp_figure(x, "e3_force.gp", v, 7, "fig_force", caption);
    return write_surface(x, e, err);
}

/* regenerate E3's FEM cache (o->source_dir/<fem.cache>, or o->out) with CalculiX on the
 * production mesh, for every eta of the script, to depth 0.4 + eta (both depth conventions) */
static tc_status e3_generate(const tc_gen_opts *o, tc_error *err) {
    char script[1100], path[1100];
    const char *source_dir = o->source_dir, *out_path = o->out;
    snprintf(script, sizeof script, "%s/experiments/e3/e3_sinusoid.cfg", source_dir);
    tc_script *s = NULL;
    e3_setup e;
    tc_status st = tc_script_load(&s, script, "full", err);
    if (st) return st;
    st = read_setup(s, &e, err);
    tc_script_free(s);
    if (st) return st;
    if (!tc_fem_have_ccx())
        return tc_error_set(err, TC_EIO, NULL, 0, NULL, "ccx not found: install calculix-ccx");
    /* the production mesh (tc_default_fem_sinusoid), deep enough for the mean-level convention */
    tc_fem_curve c[MAXETA];
    tc_fem_sinusoid p = fem_problem(&e, 0);
    for (int k = 0; k < e.neta; k++) {
        p = fem_problem(&e, e.eta[k]);
        p.depth = e.depth + e.eta[k];
        p.nsteps = (int)ceil(p.depth / 0.02);
        if ((st = tc_fem_sinusoid_solve(&p, &c[k], NULL, err))) return st;
        fprintf(stderr, "e3: eta %g solved (%d steps)\n", e.eta[k], c[k].n);
    }
    p.eta = 0;
    p.depth = e.depth;
    tc_path_under(source_dir, e.cache, path, sizeof path);
    return tc_fem_write_cache(out_path ? out_path : path, c, e.eta, e.neta, &p, err);
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e3_results[] = {{"curves.csv", TC_RESULTS_SHARED, NULL},
                                             {NULL, 0, NULL}};

/* the work: the coarse CalculiX re-solve when asked (its elements for every load step, about
 * 20 us and 2 kB each), pressure field contact at every depth of every curve (cheap) */
static void e3_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e3_state *s = state;
    const e3_setup *e = &s->e;
    double cells = (double)e->nx * e->ny, evals = 0;
    for (int k = 0; k < e->neta; k++)
        evals += 2.0 * s->fem[k].n + 2;
    w->steps = evals + (e->resolve ? e->neta * (double)e->steps : 0);
    w->seconds = evals * e->segments * TC_WORK_STEP_S / 4 +
                 (e->resolve ? e->neta * e->steps * cells * 2e-5 : 0);
    w->bytes = sizeof *s + (e->resolve ? 2000 * cells * tc_exp_threads(x) : 0);
}

const tc_experiment_type tc_experiment_e3 = {
    .name = "e3_sinusoid",
    .title = "FEM sinusoid comparison: CalculiX vs pressure field contact (Elandt et al. fig. 6)",
    .heading = "FEM sinusoid comparison (E3)",
    .paper = "Elandt et al. 2019, fig. 6 (and fig. 1: the contact surface)",
    .script = "e3/e3_sinusoid.cfg",
    .results = e3_results,
    .setup = e3_setup_fn,
    .run = e3_run,
    .free = free, /* the state is one allocation */
    .estimate = e3_estimate,
    .generate = e3_generate,
    .generate_doc = "E3's FEM curves with CalculiX (needs ccx; data/e3_fem.csv)",
};
