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

/* the reader's place in a file: its line, the corner lines read, the cell being read (its
 * indices, centre and value), the line each cell was first seen on */
typedef struct reader {
    const char *path;
    int offset, line, k, ci, cj;
    double cx, cy, val;
    int seen[E56_SILICO_N][E56_SILICO_N];
} reader;

/* a cell's first corner gives its centre: rate index + offset, tolerance index */
static tc_status first_corner(reader *r, double x, double y, double v, e56_silico_grid *g,
                              tc_error *err) {
    int i, j;
    if (!integral(x + 0.5, &i) || i - r->offset < 0 || i - r->offset >= E56_SILICO_N)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, "x",
                            "a cell's first corner must be at x = i + %d - 0.5 for a rate index i "
                            "in 0..%d (got %g)",
                            r->offset, E56_SILICO_N - 1, x);
    if (!integral(y + 0.5, &j) || j < 0 || j >= E56_SILICO_N)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, "y",
                            "a cell's first corner must be at y = j - 0.5 for a tolerance index j "
                            "in 0..%d (got %g)",
                            E56_SILICO_N - 1, y);
    r->ci = i - r->offset;
    r->cj = j;
    r->cx = i;
    r->cy = j;
    r->val = v;
    if (r->seen[r->ci][r->cj])
        return tc_error_set(err, TC_EPARSE, r->path, r->line, "cell",
                            "the cell of rate index %d and tolerance index %d again (first at "
                            "line %d)",
                            r->ci, r->cj, r->seen[r->ci][r->cj]);
    r->seen[r->ci][r->cj] = r->line;
    g->v[r->ci][r->cj] = v;
    return TC_OK;
}

/* the other three corners of the same cell (c = 1..3), in the authors' order around its centre,
 * with the same value */
static tc_status other_corner(const reader *r, int c, double x, double y, double v, tc_error *err) {
    static const double corner[4][2] = {{-0.5, -0.5}, {-0.5, 0.5}, {0.5, 0.5}, {0.5, -0.5}};
    const double ex = r->cx + corner[c][0], ey = r->cy + corner[c][1];
    const char *bad = fabs(x - ex) > 1e-9 ? "x" : fabs(y - ey) > 1e-9 ? "y" : NULL;
    if (bad)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, bad,
                            "corner %d of the cell centred at (%g, %g) must be at (%g, %g), got "
                            "(%g, %g)",
                            c + 1, r->cx, r->cy, ex, ey, x, y);
    if (v != r->val)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, "value",
                            "corner %d of the cell centred at (%g, %g) holds %.17g, its first "
                            "corner %.17g",
                            c + 1, r->cx, r->cy, v, r->val);
    return TC_OK;
}

/* one line: x y value, nothing else, a corner of the cell being read */
static tc_status read_line(reader *r, const char *buf, e56_silico_grid *g, tc_error *err) {
    const char *p = buf;
    double x, y, v;
    const char *what = !number(&p, &x)   ? "x"
                       : !number(&p, &y) ? "y"
                       : !number(&p, &v) ? "value"
                                         : NULL;
    if (what)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, what,
                            "expected three finite numbers `x y value`, the %s is missing or not "
                            "a finite number",
                            what);
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    if (*p)
        return tc_error_set(err, TC_EPARSE, r->path, r->line, "value",
                            "text after the three numbers: '%.20s'", p);
    const int c = r->k++ % 4;
    return c ? other_corner(r, c, x, y, v, err) : first_corner(r, x, y, v, g, err);
}

tc_status e56_silico_read(const char *path, int offset, e56_silico_grid *g, tc_error *err) {
    memset(g, 0, sizeof *g);
    memcpy(g->rate, e56_silico_rates, sizeof g->rate);
    memcpy(g->tol, e56_silico_tols, sizeof g->tol);
    FILE *f = fopen(path, "r");
    if (!f)
        return tc_error_set(err, TC_EIO, path, 0, "file", "cannot read the authors' grid: %s",
                            strerror(errno));
    reader r = {.path = path, .offset = offset};
    char buf[512];
    tc_status st = TC_OK;
    while (!st && fgets(buf, sizeof buf, f)) {
        r.line++;
        if (!strchr(buf, '\n') && !feof(f))
            st = tc_error_set(err, TC_EPARSE, path, r.line, "line", "longer than %zu characters",
                              sizeof buf - 2);
        else
            st = read_line(&r, buf, g, err);
    }
    if (!st && ferror(f)) st = tc_error_set(err, TC_EIO, path, r.line, "file", "read error");
    fclose(f);
    if (st) return st;
    /* whole cells, every one of them */
    if (r.k % 4)
        return tc_error_set(err, TC_EPARSE, path, r.line, "cell",
                            "the last cell has %d of its 4 corner lines", r.k % 4);
    for (int i = 0; i < E56_SILICO_N; i++)
        for (int j = 0; j < E56_SILICO_N; j++)
            if (!r.seen[i][j])
                return tc_error_set(err, TC_EPARSE, path, r.line + 1, "cell",
                                    "no cell for rate index %d (%g Hz) and tolerance index %d "
                                    "(%g): %d of %d cells",
                                    i, e56_silico_rates[i], j, e56_silico_tols[j], r.k / 4,
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
    /* no cell yet: every measure NaN, no worst cell */
    e56_silico_cmp c = {0, NAN, NAN, NAN, -1, -1, NAN, NAN};
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

/* every authors' file of sp's study that the section will read, read now: errors before the
 * sweep, not after it; a file that is not there names the script's folder, what to fix */
static tc_status load_all(const tc_script *s, const e56_silico_spec *sp, const char *dir,
                          tc_error *err) {
    static const char *const method[2] = {"single_level", "bilevel"};
    tc_status st = TC_OK;
    for (int i = 0; i < sp->nq && !st; i++)
        for (int k = 0; k < 2 && !st; k++) {
            e56_silico_grid g;
            st = e56_silico_load(sp->dir, sp->study, sp->q[i].file, method[k], &g, err);
            if (st != TC_EIO) continue;
            char why[600];
            snprintf(why, sizeof why, "%s", err->msg);
            tc_error_clear(err);
            st = tc_script_fail_at(s, "silico.dir", err,
                                   "'%s' (%s) lacks the authors' file %s_data__%s_%s.dat: %s", dir,
                                   sp->dir, sp->study, sp->q[i].file, method[k], why);
        }
    return st;
}

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
    if (!l || !m || tc_setting_type(l) != TC_SETTING_ARRAY ||
        tc_setting_type(m) != TC_SETTING_ARRAY || tc_setting_length(l) != tc_setting_length(m) ||
        tc_setting_length(l) > E56_SILICO_MAXLABEL)
        return tc_script_fail(s, l, "silico.labels", err,
                              "labels and methods: two lists of 0 to %d strings, one authors' "
                              "method (\"single_level\" or \"bilevel\") per label",
                              E56_SILICO_MAXLABEL);
    sp->n = tc_setting_length(l);
    for (int i = 0; i < sp->n; i++) {
        const char *a = tc_setting_string(tc_setting_at(l, i)),
                   *b = tc_setting_string(tc_setting_at(m, i));
        if (!a || !b || (strcmp(b, "single_level") && strcmp(b, "bilevel")))
            return tc_script_fail(s, m, "silico.methods", err,
                                  "entry %d: labels are strings, methods \"single_level\" or "
                                  "\"bilevel\"",
                                  i + 1);
        snprintf(sp->label[i], sizeof sp->label[i], "%s", a);
        snprintf(sp->method[i], sizeof sp->method[i], "%s", b);
        tc_exp_refer(x, "silico.labels", a);
    }
    return load_all(s, sp, dir, err);
}

/* ---------- the section ---------- */

/* what the section compares: the spec, our grid and cells, the labels compared that ran (their
 * method index and their index in the spec), the table it fills */
typedef struct section {
    tc_exp *x;
    const e56_silico_spec *sp;
    const e56_grid *g;
    const e56_sweep *sw;
    int nl, idx[E56_SILICO_MAXLABEL], which[E56_SILICO_MAXLABEL];
    tc_table *t;
} section;

/* our cell of method k at the authors' cell (i, j), or NULL */
static const e56_cell *our_cell(const section *s, int k, int i, int j) {
    for (int c = 0; c < s->sw->ncell; c++) {
        const e56_cell *cell = &s->sw->cell[c];
        if (cell->method != k || cell->tol < 0) continue;
        if (e56_silico_rate_index(s->g->rate[cell->rate]) == i &&
            e56_silico_tol_index(s->g->tol[cell->tol]) == j)
            return cell;
    }
    return NULL;
}

/* a number for a table: 3 significant digits, or "n/a" */
static void num(char *buf, size_t n, double v) {
    snprintf(buf, n, isfinite(v) ? "%.3g" : "n/a", v);
}

/* the paragraph: which of the authors' cells this tier's grid covers */
static void covered_text(const section *s) {
    const e56_grid *g = s->g;
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
    tc_exp_text(s->x,
                "Beside the authors' own results (Silico.jl's stored per-cell grids, "
                "`%s/`, %s a cell): this tier's grid covers %d of their %d cells%s%s%s. "
                "Each quantity is the public code's measure, computed the same way here; "
                "differences are ours minus theirs (in decades for the quantities drawn on a "
                "log scale), correlations Pearson's over the covered cells.",
                s->sp->dir,
                !strcmp(s->sp->study, "momentum") ? "the public script's 10 stacks" : "100 drops",
                ncov, E56_SILICO_N * E56_SILICO_N, ncov ? " (" : "", covered, ncov ? ")" : "");
}

/* a figure's colour range of the values (both sides) and the largest |difference| */
typedef struct range {
    double lo, hi, dmax;
} range;

/* the cells compared of one label: a CSV line per authors' cell (ours empty where our grid has
 * none), the range grown, the comparison over the cells both sides have */
static e56_silico_cmp label_cells(const section *s, const e56_silico_quantity *Q, int k,
                                  const e56_silico_grid *th, FILE *f, range *rg) {
    double a[E56_SILICO_N * E56_SILICO_N], b[E56_SILICO_N * E56_SILICO_N];
    int ri[E56_SILICO_N * E56_SILICO_N], ti[E56_SILICO_N * E56_SILICO_N], n = 0;
    for (int i = 0; i < E56_SILICO_N; i++)
        for (int j = 0; j < E56_SILICO_N; j++) {
            const e56_cell *c = our_cell(s, k, i, j);
            const double ours = !c          ? NAN
                                : Q->column ? e56_cell_value(s->g, s->sw, c, Q->column)
                                            : Q->ours(c, s->sw->nscene);
            const double their = th->v[i][j];
            double d = NAN;
            if (isfinite(ours)) {
                d = Q->log10_scale ? log10(fmax(ours, Q->floor)) - log10(fmax(their, Q->floor))
                                   : ours - their;
                a[n] = ours;
                b[n] = their;
                ri[n] = i;
                ti[n++] = j;
                rg->dmax = fmax(rg->dmax, fabs(d));
            }
            /* the colour range of the values: both sides */
            for (int side = 0; side < 2; side++) {
                double v = side ? their : ours;
                if (!isfinite(v) || (Q->log10_scale && !(v > 0))) continue;
                v = Q->log10_scale ? log10(fmax(v, Q->floor)) : v;
                rg->lo = fmin(rg->lo, v);
                rg->hi = fmax(rg->hi, v);
            }
            char ob[32] = "", db[32] = "";
            if (isfinite(ours)) {
                snprintf(ob, sizeof ob, "%.6e", ours);
                snprintf(db, sizeof db, "%.6e", d);
            }
            fprintf(f, "%s,%g,%g,%d,%d,%s,%.6e,%s\n", tc_exp_label(s->x, k), e56_silico_rates[i],
                    e56_silico_tols[j], i, j, ob, their, db);
        }
    return e56_silico_compare(n, a, b, ri, ti, Q->log10_scale, Q->floor);
}

/* one label's row of the table and its metrics (those without a value are left out: no cell
 * compared, a correlation without variance) */
static void label_row(const section *s, const e56_silico_quantity *Q, int l,
                      const e56_silico_cmp *cm) {
    const char *label = tc_exp_label(s->x, s->idx[l]);
    char mean[32], worst[96] = "-", worst_abs[32], corr[32];
    num(mean, sizeof mean, cm->mean_abs);
    num(worst_abs, sizeof worst_abs, cm->worst_abs);
    num(corr, sizeof corr, cm->corr);
    if (cm->n)
        snprintf(worst, sizeof worst, "%g Hz, %g: %.3g / %.3g", e56_silico_rates[cm->worst_rate],
                 e56_silico_tols[cm->worst_tol], cm->worst_ours, cm->worst_theirs);
    e56_table_row(s->t, "%s%s;%s;%s;%d;%s;%s;%s;%s", Q->name, Q->log10_scale ? " (decades)" : "",
                  label, s->sp->method[s->which[l]], cm->n, mean, worst_abs, worst, corr);
    /* mean and worst |difference|, correlation */
    char doc[3][300];
    snprintf(doc[0], sizeof doc[0],
             "mean over the %d covered cells of |ours - the authors'| %s (%s)", cm->n, Q->doc,
             Q->log10_scale ? "log10 of both" : "as measured");
    snprintf(doc[1], sizeof doc[1], "largest |ours - the authors'| over the covered cells, %s",
             Q->doc);
    snprintf(doc[2], sizeof doc[2],
             "Pearson's correlation of ours and the authors' over the covered cells, %s", Q->doc);
    const char *unit = Q->log10_scale ? "decades" : Q->unit;
    const e56_metric ms[3] = {{"mean_abs_diff", unit, doc[0], cm->mean_abs, Q->tol_abs, 0.3},
                              {"worst_abs_diff", unit, doc[1], cm->worst_abs, Q->tol_abs, 0.3},
                              {"corr", "1", doc[2], cm->corr, 0.1, 0}};
    char prefix[128];
    snprintf(prefix, sizeof prefix, "silico.%s.%s", label, Q->name);
    e56_metrics_add(s->x, label, prefix, ms, 3, 1);
}

/* one quantity's figure from its CSV at path: ours, theirs, the difference; one colour bar for
 * the values, one symmetric diverging one for the differences */
static void figure(const section *s, const e56_silico_quantity *Q, const char *path,
                   const char *labels, range rg) {
    if (!(rg.lo <= rg.hi)) {
        rg.lo = 0;
        rg.hi = 1;
    }
    if (rg.hi - rg.lo < 1e-12) rg.hi = rg.lo + 1;
    if (!(rg.dmax > 0)) rg.dmax = Q->log10_scale ? 1 : 1e-3;
    char rates[128], tols[128], lo[32], hi[32], dm[32], lg[4], base[96], cap[400], cb[96];
    e56_join(rates, sizeof rates, e56_silico_rates, E56_SILICO_N);
    e56_join(tols, sizeof tols, e56_silico_tols, E56_SILICO_N);
    snprintf(lo, sizeof lo, "%.17g", rg.lo);
    snprintf(hi, sizeof hi, "%.17g", rg.hi);
    snprintf(dm, sizeof dm, "%.17g", rg.dmax);
    snprintf(lg, sizeof lg, "%d", Q->log10_scale);
    /* the axis's words: the name without underscores (gnuplot's subscripts), its unit */
    snprintf(cb, sizeof cb, "%s", Q->name);
    for (char *u = cb; *u; u++)
        *u = *u == '_' ? ' ' : *u;
    if (strcmp(Q->unit, "1")) snprintf(cb + strlen(cb), sizeof cb - strlen(cb), " (%s)", Q->unit);
    snprintf(base, sizeof base, "fig_silico_%s", Q->name);
    snprintf(cap, sizeof cap,
             "%s per cell: ours, the authors' (Silico.jl) and ours minus theirs%s (a diverging "
             "scale shared by the difference panels; blank: a cell this tier does not run).",
             Q->doc, Q->log10_scale ? " in decades" : "");
    tc_plot_var v[] = {{"datafile", path}, {"labels", labels}, {"rates", rates},
                       {"tols", tols},     {"logscale", lg},   {"lo", lo},
                       {"hi", hi},         {"dmax", dm},       {"cblabel", cb}};
    tc_exp_figure(s->x, "../e56/e56_silico.gp", v, 9, base, cap);
}

/* one quantity: its CSV, a table row and the metrics per label, its figure */
static tc_status quantity(const section *s, const e56_silico_quantity *Q, tc_error *err) {
    /* the authors' grids of the methods compared */
    e56_silico_grid theirs[2];
    tc_status st;
    for (int k = 0; k < 2; k++)
        if ((st = e56_silico_load(s->sp->dir, s->sp->study, Q->file, k ? "bilevel" : "single_level",
                                  &theirs[k], err)))
            return st;
    char file[96], path[1200], labels[400] = "";
    snprintf(file, sizeof file, "silico_%s.csv", Q->name);
    tc_exp_path(s->x, file, path, sizeof path);
    tc_outfile o;
    if ((st = tc_outfile_open(&o, path, err))) return st;
    fprintf(o.f, "label,rate_hz,tol,rate_i,tol_i,ours,theirs,diff\n");
    range rg = {INFINITY, -INFINITY, 0};
    for (int l = 0; l < s->nl; l++) {
        const int bil = !strcmp(s->sp->method[s->which[l]], "bilevel");
        const e56_silico_cmp cm = label_cells(s, Q, s->idx[l], &theirs[bil], o.f, &rg);
        label_row(s, Q, l, &cm);
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", l ? " " : "",
                 tc_exp_label(s->x, s->idx[l]));
    }
    if ((st = tc_outfile_commit(&o, err))) return st;
    figure(s, Q, path, labels, rg);
    return TC_OK;
}

tc_status e56_silico_section(tc_exp *x, const e56_silico_spec *sp, const e56_grid *g,
                             const e56_sweep *sw, tc_error *err) {
    if (!sp->n) return TC_OK;
    section s = {.x = x, .sp = sp, .g = g, .sw = sw};
    /* the labels that ran, with their method index */
    for (int l = 0; l < sp->n; l++) {
        const int k = tc_exp_method_find(x, sp->label[l]);
        if (k >= 0 && sw->has_tol[k]) {
            s.idx[s.nl] = k;
            s.which[s.nl++] = l;
        }
    }
    if (!s.nl) {
        tc_exp_text(x, "Beside the authors' data: none of %d labels compared ran here.", sp->n);
        return TC_OK;
    }
    covered_text(&s);
    s.t = e56_table("quantity;ours;theirs;cells;mean |diff|;worst |diff|;"
                    "worst cell (ours / theirs);correlation");
    if (!s.t) return TC_ENOMEM;
    tc_status st = TC_OK;
    for (int q = 0; q < sp->nq && !st; q++)
        st = quantity(&s, &sp->q[q], err);
    if (!st)
        st = tc_exp_table(x, s.t, "silico_table",
                          "Per cell against the authors' stored results: cells compared, mean and "
                          "largest |ours - theirs| (decades for momentum), the worst cell, and the "
                          "correlation over the cells.",
                          err);
    tc_table_free(s.t);
    return st;
}
