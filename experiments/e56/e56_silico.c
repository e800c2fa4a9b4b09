/* SPDX-License-Identifier: MIT */
/* E5 and E6 beside Silico.jl's stored per-cell results: the validating reader of the authors'
 * pgfplots patch files, the per-cell comparison, its CSV, metrics, table and figure */
#include "experiments/e56/e56_silico.h"
#include "core/tc_fs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double e56_silico_rates[E56_SILICO_N] = {10, 20, 30, 50, 70, 100};
const double e56_silico_tols[E56_SILICO_N] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10};

/* ---------- the reader ---------- */

/* one number of a line at *p, skipping blanks; 0 when there is none or it is not finite */
static int number(const char **p, double *v) {
    char *end;
    errno = 0;
    *v = strtod(*p, &end);
    if (end == *p || errno == ERANGE || !isfinite(*v)) return 0;
    *p = end;
    return 1;
}

/* 1 when a is an integer n within 1e-9, *n set */
static int integral(double a, int *n) {
    double r = round(a);
    if (fabs(a - r) > 1e-9 || fabs(r) > 1e6) return 0;
    *n = (int)r;
    return 1;
}

tc_status e56_silico_read(const char *path, int offset, e56_silico_grid *g, tc_error *err) {
    memset(g, 0, sizeof *g);
    memcpy(g->rate, e56_silico_rates, sizeof g->rate);
    memcpy(g->tol, e56_silico_tols, sizeof g->tol);
    FILE *f = fopen(path, "r");
    if (!f)
        return tc_error_set(err, TC_EIO, path, 0, "file", "cannot read the authors' grid: %s",
                            strerror(errno));
    /* the corners of a cell around its centre, in the authors' order */
    static const double corner[4][2] = {{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.5}, {0.5, -0.5}};
    int seen[E56_SILICO_N][E56_SILICO_N] = {{0}}, line = 0, k = 0, ci = 0, cj = 0;
    double cx = 0, cy = 0, val = 0;
    char buf[512];
    tc_status st = TC_OK;
    while (!st && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            st = tc_error_set(err, TC_EPARSE, path, line, "line", "longer than %zu characters",
                              sizeof buf - 2);
            break;
        }
        /* x y value, nothing else */
        const char *p = buf;
        double x, y, v;
        const char *what = !number(&p, &x)   ? "x"
                           : !number(&p, &y) ? "y"
                           : !number(&p, &v) ? "value"
                                             : NULL;
        if (what) {
            st = tc_error_set(err, TC_EPARSE, path, line, what,
                              "expected three finite numbers `x y value`, the %s is missing or "
                              "not a finite number",
                              what);
            break;
        }
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p) {
            st = tc_error_set(err, TC_EPARSE, path, line, "value",
                              "text after the three numbers: '%.20s'", p);
            break;
        }
        const int c = k % 4;
        if (c == 0) {
            /* the cell's first corner gives its centre: rate index + offset, tolerance index */
            int i, j;
            if (!integral(x + 0.5, &i) || i - offset < 0 || i - offset >= E56_SILICO_N) {
                st = tc_error_set(err, TC_EPARSE, path, line, "x",
                                  "a cell's first corner must be at x = i + %d - 0.5 for a rate "
                                  "index i in 0..%d (got %g)",
                                  offset, E56_SILICO_N - 1, x);
                break;
            }
            if (!integral(y + 0.5, &j) || j < 0 || j >= E56_SILICO_N) {
                st = tc_error_set(err, TC_EPARSE, path, line, "y",
                                  "a cell's first corner must be at y = j - 0.5 for a tolerance "
                                  "index j in 0..%d (got %g)",
                                  E56_SILICO_N - 1, y);
                break;
            }
            ci = i - offset;
            cj = j;
            cx = i;
            cy = j;
            val = v;
            if (seen[ci][cj]) {
                st = tc_error_set(err, TC_EPARSE, path, line, "cell",
                                  "the cell of rate index %d and tolerance index %d again (first "
                                  "at line %d)",
                                  ci, cj, seen[ci][cj]);
                break;
            }
            seen[ci][cj] = line;
            g->v[ci][cj] = v;
        } else {
            /* the other three corners of the same cell, the same value */
            const char *bad = fabs(x - (cx + corner[c][0])) > 1e-9   ? "x"
                              : fabs(y - (cy + corner[c][1])) > 1e-9 ? "y"
                                                                     : NULL;
            if (bad) {
                st = tc_error_set(err, TC_EPARSE, path, line, bad,
                                  "corner %d of the cell centred at (%g, %g) must be at (%g, %g), "
                                  "got (%g, %g)",
                                  c + 1, cx, cy, cx + corner[c][0], cy + corner[c][1], x, y);
                break;
            }
            if (v != val) {
                st = tc_error_set(err, TC_EPARSE, path, line, "value",
                                  "corner %d of the cell centred at (%g, %g) holds %.17g, its "
                                  "first corner %.17g",
                                  c + 1, cx, cy, v, val);
                break;
            }
        }
        k++;
    }
    if (!st && ferror(f)) st = tc_error_set(err, TC_EIO, path, line, "file", "read error");
    fclose(f);
    if (st) return st;
    /* whole cells, every one of them */
    if (k % 4)
        return tc_error_set(err, TC_EPARSE, path, line, "cell",
                            "the last cell has %d of its 4 corner lines", k % 4);
    for (int i = 0; i < E56_SILICO_N; i++)
        for (int j = 0; j < E56_SILICO_N; j++)
            if (!seen[i][j])
                return tc_error_set(err, TC_EPARSE, path, line + 1, "cell",
                                    "no cell for rate index %d (%g Hz) and tolerance index %d "
                                    "(%g): %d of %d cells",
                                    i, e56_silico_rates[i], j, e56_silico_tols[j], k / 4,
                                    E56_SILICO_N * E56_SILICO_N);
    return TC_OK;
}

tc_status e56_silico_load(const char *dir, const char *study, const char *quantity,
                          const char *method, e56_silico_grid *g, tc_error *err) {
    const int bilevel = !strcmp(method, "bilevel");
    if (!bilevel && strcmp(method, "single_level"))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "method",
                            "the authors' method is \"single_level\" or \"bilevel\", not \"%s\"",
                            method);
    char path[1200];
    snprintf(path, sizeof path, "%s/%s_data__%s_%s.dat", dir, study, quantity, method);
    return e56_silico_read(path, bilevel ? 7 : 0, g, err);
}

int e56_silico_rate_index(double rate) {
    for (int i = 0; i < E56_SILICO_N; i++)
        if (fabs(rate - e56_silico_rates[i]) <= 1e-9 * e56_silico_rates[i]) return i;
    return -1;
}

int e56_silico_tol_index(double tol) {
    for (int i = 0; i < E56_SILICO_N; i++)
        if (fabs(tol - e56_silico_tols[i]) <= 1e-6 * e56_silico_tols[i]) return i;
    return -1;
}

/* ---------- the comparison ---------- */

e56_silico_cmp e56_silico_compare(int n, const double *ours, const double *theirs, const int *ri,
                                  const int *ti, int log10_scale, double floor) {
    e56_silico_cmp c = {.n = 0,
                        .mean_abs = NAN,
                        .worst_abs = NAN,
                        .corr = NAN,
                        .worst_rate = -1,
                        .worst_tol = -1,
                        .worst_ours = NAN,
                        .worst_theirs = NAN};
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        double a = ours[i], b = theirs[i];
        if (!isfinite(a) || !isfinite(b)) continue;
        if (log10_scale) {
            a = log10(fmax(a, floor));
            b = log10(fmax(b, floor));
        }
        const double d = fabs(a - b);
        if (!c.n || d > c.worst_abs) {
            c.worst_abs = d;
            c.worst_rate = ri[i];
            c.worst_tol = ti[i];
            c.worst_ours = ours[i];
            c.worst_theirs = theirs[i];
        }
        sum += d;
        sa += a;
        sb += b;
        saa += a * a;
        sbb += b * b;
        sab += a * b;
        c.n++;
    }
    if (!c.n) return c;
    c.mean_abs = sum / c.n;
    /* Pearson's r from centred sums */
    const double va = saa - sa * sa / c.n, vb = sbb - sb * sb / c.n, cov = sab - sa * sb / c.n;
    if (c.n >= 3 && va > 1e-12 * (saa + 1e-300) && vb > 1e-12 * (sbb + 1e-300))
        c.corr = cov / sqrt(va * vb);
    return c;
}

/* ---------- the script ---------- */

tc_status e56_silico_setup(tc_exp *x, e56_silico_spec *sp, const char *study,
                           const e56_silico_quantity *q, int nq, tc_error *err) {
    memset(sp, 0, sizeof *sp);
    sp->study = study;
    sp->q = q;
    sp->nq = nq;
    const tc_script *s = tc_exp_script(x);
    /* optional: a script without it compares nothing */
    if (!tc_script_lookup(s, NULL, "silico")) return TC_OK;
    const char *dir;
    tc_status st = tc_script_string(s, NULL, "silico.dir", &dir, err);
    if (st) return st;
    tc_path_under(tc_exp_source_dir(x), dir, sp->dir, sizeof sp->dir);
    /* labels and the authors' methods, pairwise */
    const tc_setting *l = tc_script_lookup(s, NULL, "silico.labels");
    const tc_setting *m = tc_script_lookup(s, NULL, "silico.methods");
    const int line = e56_line(s, "silico.labels");
    if (!l || !m || tc_setting_type(l) != TC_SETTING_ARRAY ||
        tc_setting_type(m) != TC_SETTING_ARRAY || tc_setting_length(l) != tc_setting_length(m) ||
        tc_setting_length(l) > E56_SILICO_MAXLABEL)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), line, "silico.labels",
                            "labels and methods: two lists of 0 to %d strings, one authors' "
                            "method (\"single_level\" or \"bilevel\") per label",
                            E56_SILICO_MAXLABEL);
    sp->n = tc_setting_length(l);
    for (int i = 0; i < sp->n; i++) {
        const char *a = tc_setting_string(tc_setting_at(l, i)),
                   *b = tc_setting_string(tc_setting_at(m, i));
        if (!a || !b || (strcmp(b, "single_level") && strcmp(b, "bilevel")))
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), e56_line(s, "silico.methods"),
                                "silico.methods",
                                "entry %d: labels are strings, methods \"single_level\" or "
                                "\"bilevel\"",
                                i + 1);
        snprintf(sp->label[i], sizeof sp->label[i], "%s", a);
        snprintf(sp->method[i], sizeof sp->method[i], "%s", b);
        tc_exp_refer(x, "silico.labels", a);
    }
    /* every file the section will read, read now: errors before the sweep, not after it */
    static const char *const method[2] = {"single_level", "bilevel"};
    for (int i = 0; i < nq && !st; i++)
        for (int k = 0; k < 2 && !st; k++) {
            e56_silico_grid g;
            st = e56_silico_load(sp->dir, study, q[i].file, method[k], &g, err);
            /* a file that is not there: the script's folder is what to fix */
            if (st == TC_EIO) {
                char why[600];
                snprintf(why, sizeof why, "%s", err->msg);
                tc_error_clear(err);
                st = tc_error_set(err, TC_EINVAL, tc_script_path(s), e56_line(s, "silico.dir"),
                                  "silico.dir",
                                  "'%s' (%s) lacks the authors' file %s_data__%s_%s.dat: %s", dir,
                                  sp->dir, study, q[i].file, method[k], why);
            }
        }
    return st;
}

/* ---------- the section ---------- */

/* our cell of method k at the authors' cell (i, j), or NULL */
static const e56_cell *our_cell(const e56_grid *g, const e56_sweep *sw, int k, int i, int j) {
    for (int c = 0; c < sw->ncell; c++) {
        const e56_cell *cell = &sw->cell[c];
        if (cell->method != k || cell->tol < 0) continue;
        if (e56_silico_rate_index(g->rate[cell->rate]) == i &&
            e56_silico_tol_index(g->tol[cell->tol]) == j)
            return cell;
    }
    return NULL;
}

/* a number for a table: 3 significant digits, or "n/a" */
static void num(char *buf, size_t n, double v) {
    if (isfinite(v))
        snprintf(buf, n, "%.3g", v);
    else
        snprintf(buf, n, "n/a");
}

tc_status e56_silico_section(tc_exp *x, const e56_silico_spec *sp, const e56_grid *g,
                             const e56_sweep *sw, tc_error *err) {
    if (!sp->n) return TC_OK;
    const char *dir = sp->dir, *study = sp->study;
    const e56_silico_quantity *q = sp->q;
    const int nq = sp->nq;
    /* the labels that ran, with their method index */
    int idx[E56_SILICO_MAXLABEL], nl = 0, which[E56_SILICO_MAXLABEL];
    for (int l = 0; l < sp->n; l++) {
        const int k = tc_exp_method_find(x, sp->label[l]);
        if (k >= 0 && sw->has_tol[k]) {
            idx[nl] = k;
            which[nl++] = l;
        }
    }
    if (!nl) {
        tc_exp_text(x, "Beside the authors' data: none of %d labels compared ran here.", sp->n);
        return TC_OK;
    }
    /* which of the authors' cells this tier's grid covers */
    char covered[600] = "";
    int ncov = 0;
    for (int r = 0; r < g->nrate; r++)
        for (int t = 0; t < g->ntol; t++)
            if (e56_silico_rate_index(g->rate[r]) >= 0 && e56_silico_tol_index(g->tol[t]) >= 0) {
                ncov++;
                size_t u = strlen(covered);
                snprintf(covered + u, sizeof covered - u, "%s%g Hz/%g", u ? ", " : "", g->rate[r],
                         g->tol[t]);
            }
    tc_exp_text(x,
                "Beside the authors' own results (Silico.jl's stored per-cell grids, "
                "`%s/`, %s a cell): this tier's grid covers %d of their %d cells%s%s%s. "
                "Each quantity is the public code's measure, computed the same way here; "
                "differences are ours minus theirs (in decades for the quantities drawn on a "
                "log scale), correlations Pearson's over the covered cells.",
                sp->dir, !strcmp(study, "momentum") ? "the public script's 10 stacks" : "100 drops",
                ncov, E56_SILICO_N * E56_SILICO_N, ncov ? " (" : "", covered, ncov ? ")" : "");
    static const char *const hdr[] = {"quantity",
                                      "ours",
                                      "theirs",
                                      "cells",
                                      "mean |diff|",
                                      "worst |diff|",
                                      "worst cell (ours / theirs)",
                                      "correlation"};
    tc_table *t = tc_table_alloc(8, hdr);
    if (!t) return TC_ENOMEM;
    tc_status st = TC_OK;
    for (int qi = 0; qi < nq && !st; qi++) {
        const e56_silico_quantity *Q = &q[qi];
        /* the authors' grids of the methods compared */
        e56_silico_grid theirs[2];
        if ((st = e56_silico_load(dir, study, Q->file, "single_level", &theirs[0], err)) ||
            (st = e56_silico_load(dir, study, Q->file, "bilevel", &theirs[1], err)))
            break;
        char file[96], path[1200], labels[400] = "";
        snprintf(file, sizeof file, "silico_%s.csv", Q->name);
        tc_exp_path(x, file, path, sizeof path);
        tc_outfile o;
        if ((st = tc_outfile_open(&o, path, err))) break;
        fprintf(o.f, "label,rate_hz,tol,rate_i,tol_i,ours,theirs,diff\n");
        double dmax = 0, vlo = INFINITY, vhi = -INFINITY;
        for (int l = 0; l < nl; l++) {
            const int k = idx[l], bil = !strcmp(sp->method[which[l]], "bilevel");
            const e56_silico_grid *th = &theirs[bil];
            double a[E56_SILICO_N * E56_SILICO_N], b[E56_SILICO_N * E56_SILICO_N];
            int ri[E56_SILICO_N * E56_SILICO_N], ti[E56_SILICO_N * E56_SILICO_N], n = 0;
            for (int i = 0; i < E56_SILICO_N; i++)
                for (int j = 0; j < E56_SILICO_N; j++) {
                    const e56_cell *c = our_cell(g, sw, k, i, j);
                    const double ours = c ? Q->ours(c, sw->nscene) : NAN, their = th->v[i][j];
                    double d = NAN;
                    if (isfinite(ours)) {
                        d = Q->log10_scale
                                ? log10(fmax(ours, Q->floor)) - log10(fmax(their, Q->floor))
                                : ours - their;
                        a[n] = ours;
                        b[n] = their;
                        ri[n] = i;
                        ti[n++] = j;
                        dmax = fmax(dmax, fabs(d));
                    }
                    /* the colour range of the values: both sides */
                    for (int s = 0; s < 2; s++) {
                        double v = s ? their : ours;
                        if (!isfinite(v) || (Q->log10_scale && !(v > 0))) continue;
                        v = Q->log10_scale ? log10(fmax(v, Q->floor)) : v;
                        vlo = fmin(vlo, v);
                        vhi = fmax(vhi, v);
                    }
                    char ob[32] = "", db[32] = "";
                    if (isfinite(ours)) {
                        snprintf(ob, sizeof ob, "%.6e", ours);
                        snprintf(db, sizeof db, "%.6e", d);
                    }
                    fprintf(o.f, "%s,%g,%g,%d,%d,%s,%.6e,%s\n", tc_exp_label(x, k),
                            e56_silico_rates[i], e56_silico_tols[j], i, j, ob, their, db);
                }
            const e56_silico_cmp cm = e56_silico_compare(n, a, b, ri, ti, Q->log10_scale, Q->floor);
            const char *label = tc_exp_label(x, k);
            snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", l ? " " : "",
                     label);
            /* the table's row */
            char c[8][96], worst[96] = "-";
            snprintf(c[0], 96, "%s%s", Q->name, Q->log10_scale ? " (decades)" : "");
            snprintf(c[1], 96, "%s", label);
            snprintf(c[2], 96, "%s", sp->method[which[l]]);
            snprintf(c[3], 96, "%d", cm.n);
            num(c[4], 96, cm.mean_abs);
            num(c[5], 96, cm.worst_abs);
            if (cm.n)
                snprintf(worst, sizeof worst, "%g Hz, %g: %.3g / %.3g",
                         e56_silico_rates[cm.worst_rate], e56_silico_tols[cm.worst_tol],
                         cm.worst_ours, cm.worst_theirs);
            snprintf(c[6], 96, "%s", worst);
            num(c[7], 96, cm.corr);
            const char *row[8] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};
            tc_table_add_row(t, row);
            /* the metrics (a correlation without variance is left out) */
            char name[160], doc[300];
            const char *sc = Q->log10_scale ? "decades" : Q->unit;
            snprintf(name, sizeof name, "silico.%s.%s.mean_abs_diff", label, Q->name);
            snprintf(doc, sizeof doc,
                     "mean over the %d covered cells of |ours - the authors'| %s (%s)", cm.n,
                     Q->doc, Q->log10_scale ? "log10 of both" : "as measured");
            if (cm.n)
                tc_metrics_add(tc_exp_metrics(x), label, name, cm.mean_abs, sc, Q->tol_abs, 0.3, 0,
                               doc);
            snprintf(name, sizeof name, "silico.%s.%s.worst_abs_diff", label, Q->name);
            snprintf(doc, sizeof doc, "largest |ours - the authors'| over the covered cells, %s",
                     Q->doc);
            if (cm.n)
                tc_metrics_add(tc_exp_metrics(x), label, name, cm.worst_abs, sc, Q->tol_abs, 0.3, 0,
                               doc);
            snprintf(name, sizeof name, "silico.%s.%s.corr", label, Q->name);
            snprintf(doc, sizeof doc,
                     "Pearson's correlation of ours and the authors' over the covered "
                     "cells, %s",
                     Q->doc);
            if (isfinite(cm.corr))
                tc_metrics_add(tc_exp_metrics(x), label, name, cm.corr, "1", 0.1, 0, 0, doc);
        }
        if ((st = tc_outfile_commit(&o, err))) break;
        /* the figure: ours, theirs, the difference; one colour bar for the values, one
         * symmetric diverging one for the differences */
        if (!(vlo <= vhi)) {
            vlo = 0;
            vhi = 1;
        }
        if (vhi - vlo < 1e-12) vhi = vlo + 1;
        if (!(dmax > 0)) dmax = Q->log10_scale ? 1 : 1e-3;
        char rates[128] = "", tols[128] = "", lo[32], hi[32], dm[32], lg[4], base[96], cap[400],
             cb[96];
        for (int i = 0; i < E56_SILICO_N; i++) {
            snprintf(rates + strlen(rates), sizeof rates - strlen(rates), "%s%g", i ? " " : "",
                     e56_silico_rates[i]);
            snprintf(tols + strlen(tols), sizeof tols - strlen(tols), "%s%g", i ? " " : "",
                     e56_silico_tols[i]);
        }
        snprintf(lo, sizeof lo, "%.17g", vlo);
        snprintf(hi, sizeof hi, "%.17g", vhi);
        snprintf(dm, sizeof dm, "%.17g", dmax);
        snprintf(lg, sizeof lg, "%d", Q->log10_scale);
        /* the axis's words: the name without underscores (gnuplot's subscripts), its unit */
        snprintf(cb, sizeof cb, "%s", Q->name);
        for (char *u = cb; *u; u++)
            *u = *u == '_' ? ' ' : *u;
        if (strcmp(Q->unit, "1"))
            snprintf(cb + strlen(cb), sizeof cb - strlen(cb), " (%s)", Q->unit);
        snprintf(base, sizeof base, "fig_silico_%s", Q->name);
        snprintf(cap, sizeof cap,
                 "%s per cell: ours, the authors' (Silico.jl) and ours minus theirs%s (a diverging "
                 "scale shared by the difference panels; blank: a cell this tier does not run).",
                 Q->doc, Q->log10_scale ? " in decades" : "");
        tc_plot_var v[] = {{"datafile", path}, {"labels", labels}, {"rates", rates},
                           {"tols", tols},     {"logscale", lg},   {"lo", lo},
                           {"hi", hi},         {"dmax", dm},       {"cblabel", cb}};
        tc_exp_figure(x, "../e56/e56_silico.gp", v, 9, base, cap);
    }
    if (!st)
        st = tc_exp_table(x, t, "silico_table",
                          "Per cell against the authors' stored results: cells compared, mean and "
                          "largest |ours - theirs| (decades for momentum), the worst cell, and the "
                          "correlation over the cells.",
                          err);
    tc_table_free(t);
    return st;
}
