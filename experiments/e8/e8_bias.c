/* SPDX-License-Identifier: MIT */
/* E8 (c): bias and variance of gradient estimates of a randomly smoothed loss (Suh et al. 2022,
 * "Do differentiable simulators give better policy gradients?"): the first-order estimator (the
 * mean of the exact gradients at perturbed points) against the zeroth-order one (the score
 * function with a baseline) as the sample count grows, per method, against the smoothed
 * derivative by quadrature */
#include "experiments/e8/e8.h"
#include "core/tc_fs.h"
#include "exp/tc_rows.h"
#include "sim/tc_grad.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E8_BIAS_MAXM     16 /* sample counts */
#define E8_BIAS_MAXLABEL 32 /* labels of bias.methods */
#define E8_BIAS_MAXNODE  1025

static const char *const sweep_name[E8_NSWEEP] = {"drop", "tip"};
static const char *const sweep_unit[E8_NSWEEP] = {"m", "rad"};

/* ---------- the estimators and the reference ---------- */

double e8_first_order(const double *g, int m) {
    double s = 0;
    for (int i = 0; i < m; i++)
        s += g[i];
    return m > 0 ? s / m : NAN;
}

double e8_zeroth_order(const double *w, const double *l, int m, double l0, double sigma) {
    double s = 0;
    for (int i = 0; i < m; i++)
        s += (l[i] - l0) * w[i];
    return m > 0 ? s / (m * sigma * sigma) : NAN;
}

double e8_quad_node(int k, int n, double span, double sigma) {
    /* symmetric: the middle node is exactly 0 */
    return span * sigma * (2.0 * k - (n - 1)) / (n - 1);
}

/* the trapezoid sum of (l[k] - l0) w phi(w) / sigma^2 over every stride-th node */
static double smoothed_sum(const double *l, int n, int stride, double span, double sigma) {
    double l0 = l[(n - 1) / 2], h = stride * 2 * span * sigma / (n - 1), s = 0;
    for (int k = 0; k < n; k += stride) {
        double w = e8_quad_node(k, n, span, sigma), c = k == 0 || k == n - 1 ? 0.5 : 1;
        double phi = exp(-0.5 * w * w / (sigma * sigma)) / (sigma * sqrt(2 * M_PI));
        s += c * (l[k] - l0) * w / (sigma * sigma) * phi;
    }
    return s * h;
}

double e8_smoothed_grad(const double *l, int n, double span, double sigma, double *err) {
    double fine = smoothed_sum(l, n, 1, span, sigma), coarse = smoothed_sum(l, n, 2, span, sigma);
    /* beyond the span: |l - l0| at most its largest over the nodes, weight 2 phi(span) / sigma */
    double range = 0, l0 = l[(n - 1) / 2];
    for (int k = 0; k < n; k++)
        range = fmax(range, fabs(l[k] - l0));
    if (err)
        *err = fabs(fine - coarse) + range * 2 * exp(-0.5 * span * span) / (sqrt(2 * M_PI) * sigma);
    return fine;
}

void e8_bias_std(const double *est, int r, double ref, double *bias, double *std) {
    double mean = 0, ss = 0;
    for (int i = 0; i < r; i++)
        mean += est[i];
    mean /= r;
    for (int i = 0; i < r; i++)
        ss += (est[i] - mean) * (est[i] - mean);
    *bias = fabs(mean - ref);
    *std = r > 1 ? sqrt(ss / (r - 1)) : NAN;
}

/* ---------- the study ---------- */

/* one item's results: a quadrature node's loss, or a sample's loss and exact gradient */
typedef struct e8_bias_pt {
    double loss, grad;
    long long fails;
} e8_bias_pt;

struct e8_bias {
    /* the script's bias settings */
    int seed, repeats, nodes;
    double at[E8_NSWEEP], sigma[E8_NSWEEP], span;
    double samples[E8_BIAS_MAXM];
    int nsamples, mmax;
    char label[E8_BIAS_MAXLABEL][64];
    int nlabel;
    /* the run: the scene and landscapes, the methods studied, the perturbations, the results */
    const tc_scene *sc;
    const e8_box *box;
    const e8_sweep *sweep;
    double dt;
    const tc_exp *x;
    int method[64], nmethod;
    double *w; /* [sweep][repeat][mmax] */
    e8_bias_pt *pt;
};

static const tc_field bias_rows[] = {
    TC_FIELD_I(e8_bias, seed, "bias.seed", 0, 1000000000),
    TC_FIELD_R(e8_bias, at[E8_DROP], "bias.drop", -1, 10),
    TC_FIELD_R(e8_bias, sigma[E8_DROP], "bias.drop_sigma", 1e-9, 1),
    TC_FIELD_R(e8_bias, at[E8_TIP], "bias.tip", 0, 1.5707963267948966),
    TC_FIELD_R(e8_bias, sigma[E8_TIP], "bias.tip_sigma", 1e-9, 1),
    TC_FIELD_RS(e8_bias, samples, nsamples, "bias.samples", 1, 100000),
    TC_FIELD_I(e8_bias, repeats, "bias.repeats", 2, 10000),
    TC_FIELD_I(e8_bias, nodes, "bias.nodes", 5, E8_BIAS_MAXNODE),
    TC_FIELD_R(e8_bias, span, "bias.span", 1, 10),
    TC_FIELD_END,
};

tc_status e8_bias_setup(tc_exp *x, e8_bias **out, tc_error *err) {
    e8_bias *b = calloc(1, sizeof *b);
    if (!b) return TC_ENOMEM;
    *out = b;
    const tc_script *sc = tc_exp_script(x);
    tc_status st = tc_script_read(sc, NULL, bias_rows, b, err);
    if (st) return st;
    for (int i = 0; i < b->nsamples; i++) {
        if (b->samples[i] != floor(b->samples[i]) || (i && b->samples[i] <= b->samples[i - 1]))
            return tc_script_fail_at(sc, "bias.samples", err,
                                     "sample counts must be whole and increasing (got %g)",
                                     b->samples[i]);
        b->mmax = (int)b->samples[i];
    }
    if (b->nodes % 2 == 0)
        return tc_script_fail_at(sc, "bias.nodes", err,
                                 "nodes must be odd (got %d): the middle one is the point itself",
                                 b->nodes);
    /* the methods studied: the labels listed, every method when none is */
    const tc_setting *list = tc_script_lookup(sc, NULL, "bias.methods");
    int n = tc_setting_length(list);
    if (tc_setting_type(list) != TC_SETTING_ARRAY || n > E8_BIAS_MAXLABEL)
        return tc_script_fail(sc, list, "bias.methods", err,
                              "an array of at most %d labels [\"...\", ...] (empty: every method)",
                              E8_BIAS_MAXLABEL);
    for (int i = 0; i < n; i++) {
        const char *l = tc_setting_string(tc_setting_at(list, i));
        if (!l || strlen(l) >= sizeof b->label[0])
            return tc_script_fail(sc, list, "bias.methods", err, "entry %d: a label", i);
        snprintf(b->label[b->nlabel++], sizeof b->label[0], "%s", l);
        tc_exp_refer(x, "bias.methods", l);
    }
    return TC_OK;
}

/* 1 when method k is studied */
static int studied(const e8_bias *b, const tc_exp *x, int k) {
    for (int i = 0; i < b->nlabel; i++)
        if (!strcmp(b->label[i], tc_exp_label(x, k))) return 1;
    return b->nlabel == 0;
}

/* the rollouts of one item of a method: a node 1, a sample 3 (with its differences) or about 4
 * (one with the chain of Jacobians) */
double e8_bias_steps(const tc_exp *x, const e8_bias *b, const e8_sweep *sweep, double dt) {
    double steps = 0;
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        for (int w = 0; w < E8_NSWEEP && studied(b, x, k); w++)
            steps += (b->nodes + 4.0 * b->repeats * b->mmax) * sweep[w].seconds / dt;
    return steps;
}

/* item layout: per studied method and landscape, the nodes then repeats x mmax samples */
static int per_block(const e8_bias *b) {
    return b->nodes + b->repeats * b->mmax;
}

static void bias_item(void *ctx, int item, tc_item *it) {
    e8_bias *b = ctx;
    int per = per_block(b), blk = item / per, j = item % per, sw = blk % E8_NSWEEP;
    const tc_method *m = tc_exp_method(b->x, b->method[blk / E8_NSWEEP]);
    const e8_sweep *w = &b->sweep[sw];
    e8_bias_pt *p = &b->pt[item];
    int node = j < b->nodes, analytic = tc_method_has_gradient(m);
    double x0 = b->at[sw] + (node ? e8_quad_node(j, b->nodes, b->span, b->sigma[sw])
                                  : b->w[(size_t)sw * b->repeats * b->mmax + (j - b->nodes)]);
    double lp = NAN, lm = NAN, h = w->fd_step;
    tc_error err = {0};
    p->loss = p->grad = NAN;
    p->fails = 0;
    /* the gradient its users get: the chain where the method has it, else the differences */
    tc_status st = e8_rollout(b->sc, b->box, b->dt, sw, w, m, x0, &p->loss,
                              !node && analytic ? &p->grad : NULL, &it->steps, &p->fails, &err);
    if (!st && !node && !analytic) {
        st = e8_rollout(b->sc, b->box, b->dt, sw, w, m, x0 + h, &lp, NULL, &it->steps, &p->fails,
                        &err);
        if (!st)
            st = e8_rollout(b->sc, b->box, b->dt, sw, w, m, x0 - h, &lm, NULL, &it->steps,
                            &p->fails, &err);
        if (!st) p->grad = (lp - lm) / (2 * h);
    }
    if (st) {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s at %s = %.9g %s", err.msg, sweep_name[sw], x0,
                 sweep_unit[sw]);
    }
}

/* one method and landscape, summed up: the reference, and per sample count each estimator's
 * bias and standard deviation over the repeats */
typedef struct e8_bias_sum {
    long long fails;
    double ref, ref_err;
    double fb[E8_BIAS_MAXM], fs[E8_BIAS_MAXM], zb[E8_BIAS_MAXM], zs[E8_BIAS_MAXM];
} e8_bias_sum;

static void summarise(const e8_bias *b, int blk, e8_bias_sum *s) {
    const e8_bias_pt *p = &b->pt[(size_t)blk * per_block(b)];
    int sw = blk % E8_NSWEEP, mm = b->mmax;
    double l[E8_BIAS_MAXNODE], *g = malloc(sizeof(double) * 2 * (size_t)mm);
    double fe[10000], ze[10000];
    s->fails = 0;
    for (int j = 0; j < per_block(b); j++)
        s->fails += p[j].fails;
    for (int k = 0; k < b->nodes; k++)
        l[k] = p[k].loss;
    s->ref = e8_smoothed_grad(l, b->nodes, b->span, b->sigma[sw], &s->ref_err);
    double l0 = l[(b->nodes - 1) / 2];
    for (int i = 0; i < b->nsamples && g; i++) {
        int m = (int)b->samples[i];
        for (int r = 0; r < b->repeats; r++) {
            const e8_bias_pt *q = &p[b->nodes + r * mm];
            const double *w = &b->w[((size_t)sw * b->repeats + r) * mm];
            for (int k = 0; k < m; k++) {
                g[k] = q[k].grad;
                g[mm + k] = q[k].loss;
            }
            fe[r] = e8_first_order(g, m);
            ze[r] = e8_zeroth_order(w, g + mm, m, l0, b->sigma[sw]);
        }
        e8_bias_std(fe, b->repeats, s->ref, &s->fb[i], &s->fs[i]);
        e8_bias_std(ze, b->repeats, s->ref, &s->zb[i], &s->zs[i]);
    }
    free(g);
}

/* bias.csv's columns: a row per method, landscape and sample count */
static const tc_col bias_csv[] = {
    TC_COL_CSV("label", NULL),           TC_COL_CSV("landscape", NULL),
    TC_COL_CSV("samples", "%.0f"),       TC_COL_CSV("reference", "%.9g"),
    TC_COL_CSV("reference_err", "%.3g"), TC_COL_CSV("first_bias", "%.6g"),
    TC_COL_CSV("first_std", "%.6g"),     TC_COL_CSV("zeroth_bias", "%.6g"),
    TC_COL_CSV("zeroth_std", "%.6g"),    TC_COL_CSV("failed_solves", "%.0f"),
};

/* the CSV (a row per method, landscape and sample count), the table (a row per method and
 * landscape at the largest count) and the metrics */
static tc_status bias_outputs(e8_bias *b, tc_exp *x, const e8_bias_sum *sum, tc_error *err) {
    tc_rows *r;
    tc_status st = tc_rows_open(&r, x, "bias.csv", bias_csv, 10, err);
    if (st) return st;
    for (int blk = 0; blk < b->nmethod * E8_NSWEEP; blk++)
        for (int i = 0; i < b->nsamples; i++) {
            const e8_bias_sum *s = &sum[blk];
            tc_rows_put(r, (tc_cell[]){TC_TEXT(tc_exp_label(x, b->method[blk / E8_NSWEEP])),
                                       TC_TEXT(sweep_name[blk % E8_NSWEEP]), TC_NUM(b->samples[i]),
                                       TC_NUM(s->ref), TC_NUM(s->ref_err), TC_NUM(s->fb[i]),
                                       TC_NUM(s->fs[i]), TC_NUM(s->zb[i]), TC_NUM(s->zs[i]),
                                       TC_NUM((double)s->fails)});
        }
    if ((st = tc_rows_close(r, NULL, NULL, err))) return st;
    static const tc_col tab[] = {
        TC_COL_TAB("method", NULL),
        TC_COL_TAB("landscape", NULL),
        TC_COL_TAB("gradient", NULL),
        TC_COL_TAB("failed solves", "%.0f"),
        TC_COL_TAB("F' (quadrature)", "%.4g"),
        TC_COL_TAB("its error", "%.2g"),
        TC_COL_TAB("1st-order bias", "%.3g"),
        TC_COL_TAB("1st-order std", "%.3g"),
        TC_COL_TAB("0th-order bias", "%.3g"),
        TC_COL_TAB("0th-order std", "%.3g"),
        TC_COL_TAB("lower MSE", NULL),
    };
    if ((st = tc_rows_open(&r, x, NULL, tab, 11, err))) return st;
    int top = b->nsamples - 1;
    for (int blk = 0; blk < b->nmethod * E8_NSWEEP; blk++) {
        const e8_bias_sum *s = &sum[blk];
        const char *label = tc_exp_label(x, b->method[blk / E8_NSWEEP]),
                   *sw = sweep_name[blk % E8_NSWEEP];
        const char *used =
            tc_method_has_gradient(tc_exp_method(x, b->method[blk / E8_NSWEEP])) ? "chain" : "FD";
        tc_exp_metric(x, label, (double)s->fails, "1", 0, 0, 0,
                      "inner solves that hit their iteration cap in the study's rollouts (then "
                      "no measure: their losses are the solver's last iterate)",
                      "%s.bias.%s.failed_solves", label, sw);
        if (s->fails) {
            tc_rows_put(r, (tc_cell[]){TC_TEXT(label), TC_TEXT(sw), TC_TEXT(used),
                                       TC_NUM((double)s->fails), TC_TEXT("-"), TC_TEXT("-"),
                                       TC_TEXT("-"), TC_TEXT("-"), TC_TEXT("-"), TC_TEXT("-"),
                                       TC_TEXT("-")});
            continue;
        }
        double mf = s->fb[top] * s->fb[top] + s->fs[top] * s->fs[top],
               mz = s->zb[top] * s->zb[top] + s->zs[top] * s->zs[top];
        tc_rows_put(r, (tc_cell[]){TC_TEXT(label), TC_TEXT(sw), TC_TEXT(used), TC_NUM(0),
                                   TC_NUM(s->ref), TC_NUM(s->ref_err), TC_NUM(s->fb[top]),
                                   TC_NUM(s->fs[top]), TC_NUM(s->zb[top]), TC_NUM(s->zs[top]),
                                   TC_TEXT(mf < mz ? "first" : "zeroth")});
        tc_exp_metric(x, label, s->ref, "1", 1e-9, 0.05, 0,
                      "derivative of the smoothed loss E[L(x + w)] at the point of interest, by "
                      "the trapezoid rule over the nodes",
                      "%s.bias.%s.reference", label, sw);
        tc_exp_metric(x, label, s->ref_err, "1", 1e-9, 0.5, 0,
                      "the reference's estimated error (the rule at half the nodes against all, "
                      "plus the tails beyond the span)",
                      "%s.bias.%s.reference_err", label, sw);
        const struct {
            const char *name;
            double v;
        } m[4] = {{"first_bias", s->fb[top]},
                  {"first_std", s->fs[top]},
                  {"zeroth_bias", s->zb[top]},
                  {"zeroth_std", s->zs[top]}};
        for (int i = 0; i < 4; i++)
            tc_exp_metric(x, label, m[i].v, "1", 1e-9, 0.5, 0,
                          "at the largest sample count: |mean over the repeats - reference| "
                          "(bias) or the repeats' standard deviation (std) of the first-order "
                          "(mean of exact gradients) or zeroth-order (score function) estimate",
                          "%s.bias.%s.%s", label, sw, m[i].name);
        tc_exp_metric(x, label, mf / mz, "1", 1e-9, 0.5, 0,
                      "mean squared error (bias^2 + std^2) of the first-order estimate over the "
                      "zeroth-order one's at the largest sample count (below 1: first-order "
                      "better)",
                      "%s.bias.%s.mse_first_over_zeroth", label, sw);
    }
    char caption[1024];
    snprintf(caption, sizeof caption,
             "E8 (c): bias and standard deviation of the gradient estimates of the smoothed loss "
             "F(x) = E[L(x + w)], w ~ N(0, sigma^2), at the drop's contact onset (y0 = %g m, "
             "sigma %g m) and the tip's balance (theta0 = %g rad, sigma %g rad), over %d "
             "repeats of %d samples: first-order (the mean of the exact gradients a method's "
             "users get: the chain of its analytic Jacobians, else central differences of the "
             "rollout) and zeroth-order (the score function with a baseline); the reference F' "
             "by the trapezoid rule over %d nodes in +-%g sigma, with its estimated error; the "
             "estimator of lower mean squared error",
             b->at[E8_DROP], b->sigma[E8_DROP], b->at[E8_TIP], b->sigma[E8_TIP], b->repeats,
             b->mmax, b->nodes, b->span);
    return tc_rows_close(r, "bias", caption, err);
}

/* the figure data: per landscape one block per method with a measure (M, first bias, std,
 * zeroth bias, std), and the figures */
static tc_status bias_figures(e8_bias *b, tc_exp *x, const e8_bias_sum *sum, tc_error *err) {
    for (int sw = 0; sw < E8_NSWEEP; sw++) {
        char file[64], path[1024], labels[4096] = "";
        snprintf(file, sizeof file, "bias_%s.dat", sweep_name[sw]);
        tc_exp_path(x, file, path, sizeof path);
        tc_outfile o;
        tc_status st = tc_exp_open(x, file, &o, err);
        if (st) return st;
        fprintf(o.f,
                "# E8 bias '%s': one block per method: samples first_bias first_std "
                "zeroth_bias zeroth_std\n",
                sweep_name[sw]);
        for (int k = 0; k < b->nmethod; k++) {
            const e8_bias_sum *s = &sum[k * E8_NSWEEP + sw];
            if (s->fails) continue;
            tc_words_add(labels, sizeof labels, " ", "%s", tc_exp_label(x, b->method[k]));
            for (int i = 0; i < b->nsamples; i++)
                fprintf(o.f, "%.0f %.9g %.9g %.9g %.9g\n", b->samples[i], s->fb[i], s->fs[i],
                        s->zb[i], s->zs[i]);
            fprintf(o.f, "\n\n");
        }
        if ((st = tc_outfile_commit(&o, err))) return st;
        if (!labels[0]) continue;
        char caption[512], base[32] = "fig_bias_";
        strcat(base, sweep_name[sw]);
        snprintf(caption, sizeof caption,
                 "E8 (c), the %s landscape: bias (solid) and standard deviation (dashed) of the "
                 "first-order (blue) and zeroth-order (red) estimates of the smoothed loss's "
                 "derivative against the sample count M, over %d repeats, one panel per method "
                 "(a zero, the first-order std of a method whose gradients are all exactly zero, "
                 "is not drawn)",
                 sweep_name[sw], b->repeats);
        tc_plot_var vars[] = {{"datafile", path}, {"labels", labels}, {"sweep", sweep_name[sw]}};
        tc_exp_figure(x, "e8_bias.gp", vars, 3, base, caption);
    }
    return TC_OK;
}

/* the perturbations, the same for every method: landscape sw, repeat r from seed + index */
static void draw_perturbations(e8_bias *b, gsl_rng *rng) {
    for (int sw = 0; sw < E8_NSWEEP; sw++)
        for (int r = 0; r < b->repeats; r++) {
            gsl_rng_set(rng, (unsigned long)b->seed + (unsigned long)(sw * b->repeats + r));
            for (int i = 0; i < b->mmax; i++)
                b->w[((size_t)sw * b->repeats + r) * b->mmax + i] =
                    gsl_ran_gaussian(rng, b->sigma[sw]);
        }
}

/* a run per method and landscape, an item per node and sample: the items' runs and costs */
static void add_runs(e8_bias *b, tc_exp *x, int *run, double *cost) {
    const size_t per = (size_t)per_block(b);
    for (int blk = 0; blk < b->nmethod * E8_NSWEEP; blk++) {
        int k = b->method[blk / E8_NSWEEP], sw = blk % E8_NSWEEP;
        int rn = tc_exp_add_run(x, k, NULL, b->seed, "study=bias %s=%.9g sigma=%g", sweep_name[sw],
                                b->at[sw], b->sigma[sw]);
        double c = tc_method_has_gradient(tc_exp_method(x, k)) ? 4 : 3;
        for (size_t j = 0; j < per; j++) {
            run[blk * per + j] = rn;
            cost[blk * per + j] = b->sweep[sw].seconds * (j < (size_t)b->nodes ? 1 : c);
        }
    }
}

tc_status e8_bias_run(tc_exp *x, e8_bias *b, const tc_scene *sc, const e8_box *box, double dt,
                      const e8_sweep *sweep, tc_error *err) {
    b->x = x;
    b->sc = sc;
    b->box = box;
    b->dt = dt;
    b->sweep = sweep;
    for (int k = 0; k < tc_exp_nmethod(x) && b->nmethod < 64; k++)
        if (studied(b, x, k)) b->method[b->nmethod++] = k;
    /* no method studied (--methods): the CSV's header all the same, so the experiment's digest
     * does not depend on which methods ran */
    if (!b->nmethod) {
        tc_rows *r;
        tc_status st = tc_rows_open(&r, x, "bias.csv", bias_csv, 10, err);
        return st ? st : tc_rows_close(r, NULL, NULL, err);
    }
    /* the perturbations, the same for every method: landscape sw, repeat r from seed + index */
    size_t per = (size_t)per_block(b), nitem = per * (size_t)b->nmethod * E8_NSWEEP;
    b->w = malloc(sizeof *b->w * E8_NSWEEP * (size_t)b->repeats * (size_t)b->mmax);
    b->pt = calloc(nitem, sizeof *b->pt);
    int *run = malloc(sizeof *run * nitem);
    double *cost = malloc(sizeof *cost * nitem);
    e8_bias_sum *sum = calloc((size_t)b->nmethod * E8_NSWEEP, sizeof *sum);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    tc_status st = b->w && b->pt && run && cost && sum && rng ? TC_OK : TC_ENOMEM;
    if (!st) {
        draw_perturbations(b, rng);
        add_runs(b, x, run, cost);
        st = tc_exp_sweep_costed(x, (int)nitem, run, cost, bias_item, b);
    }
    for (int blk = 0; blk < b->nmethod * E8_NSWEEP && !st; blk++)
        summarise(b, blk, &sum[blk]);
    if (!st) st = bias_outputs(b, x, sum, err);
    if (!st) st = bias_figures(b, x, sum, err);
    gsl_rng_free(rng);
    free(run);
    free(cost);
    free(sum);
    return st;
}

void e8_bias_free(e8_bias *b) {
    if (b) {
        free(b->w);
        free(b->pt);
    }
    free(b);
}
