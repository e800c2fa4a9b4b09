/* SPDX-License-Identifier: MIT */
/* the report's cross-experiment residual heat map: method x residual, from the experiments'
 * residuals.LABEL.NAME_mean metrics (docs/residuals.md) */
#include "report/tc_report.h"
#include "report/tc_metrics.h"
#include "report/tc_plot.h"
#include "sim/tc_residual.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/tc_fs.h"

/* methods the figure holds at most */
#define RF_MAX 64

/* colour range: log10(value / threshold) clipped to [-RF_LOG, RF_LOG] */
#define RF_LOG 4.0

/* the residual index of a metric "residuals.LABEL.NAME_mean", -1 for any other */
static int residual_of(const tc_metric *m) {
    if (strncmp(m->name, "residuals.", 10) != 0) return -1;
    const char *dot = strrchr(m->name, '.');
    for (int r = 0; r < TC_RESID_N; r++) {
        char want[48];
        snprintf(want, sizeof want, ".%s_mean", tc_residual_names[r]);
        if (strcmp(dot, want) == 0) return r;
    }
    return -1;
}

/* each method's worst (largest) per-experiment mean of each residual (NAN: never measured),
 * methods in order of first appearance (experiments in order); returns how many */
static int collect(const tc_metrics *ms, const unsigned char *ok, int n,
                   char label[RF_MAX][TC_LABEL_MAX + 1], double v[RF_MAX][TC_RESID_N]) {
    int nl = 0;
    for (int i = 0; i < n; i++) {
        if (ok[i] != 2) continue;
        for (int j = 0; j < ms[i].n; j++) {
            const tc_metric *m = &ms[i].m[j];
            const int r = residual_of(m);
            if (r < 0 || !isfinite(m->value)) continue;
            int l = 0;
            while (l < nl && strcmp(label[l], m->method) != 0)
                l++;
            if (l == nl) {
                if (nl == RF_MAX) continue;
                snprintf(label[nl], sizeof label[nl], "%s", m->method);
                for (int k = 0; k < TC_RESID_N; k++)
                    v[nl][k] = NAN;
                nl++;
            }
            if (isnan(v[l][r]) || m->value > v[l][r]) v[l][r] = m->value;
        }
    }
    return nl;
}

tc_status tc_report_residuals(const char *out_dir, const tc_metrics *ms, const unsigned char *ok,
                              int n, const char *tpl, FILE *md, FILE *tex, tc_error *err) {
    char label[RF_MAX][TC_LABEL_MAX + 1];
    double v[RF_MAX][TC_RESID_N];
    const int nl = collect(ms, ok, n, label, v);
    if (nl == 0) return TC_OK;
    /* the data: a cell per method and residual, from the top */
    char data[1200], base[1200], nrow[16], ncol[16],
        methods[RF_MAX * (TC_LABEL_MAX + 1) + 1] = "", resids[256] = "";
    snprintf(data, sizeof data, "%s/residuals_summary.csv", out_dir);
    snprintf(base, sizeof base, "%s/residuals_summary", out_dir);
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, data, err);
    if (st) return st;
    fputs("row,col,logratio,na,text\n", o.f);
    for (int l = 0; l < nl; l++)
        for (int r = 0; r < TC_RESID_N; r++) {
            const double x = v[l][r];
            const double lr =
                x > 0 ? fmax(-RF_LOG, fmin(RF_LOG, log10(x / tc_residual_threshold[r]))) : -RF_LOG;
            if (isnan(x))
                fprintf(o.f, "%d,%d,nan,1,n/a\n", l + 1, r + 1);
            else
                fprintf(o.f, "%d,%d,%.6g,0,%.1e\n", l + 1, r + 1, lr, x);
        }
    st = tc_outfile_commit(&o, err);
    if (st) return st;
    for (int l = 0; l < nl; l++)
        snprintf(methods + strlen(methods), sizeof methods - strlen(methods), "%s%s", l ? " " : "",
                 label[l]);
    for (int r = 0; r < TC_RESID_N; r++)
        snprintf(resids + strlen(resids), sizeof resids - strlen(resids), "%s%s", r ? " " : "",
                 tc_residual_names[r]);
    snprintf(nrow, sizeof nrow, "%d", nl);
    snprintf(ncol, sizeof ncol, "%d", TC_RESID_N);
    const tc_plot_var vars[] = {{"datafile", data},
                                {"nrows", nrow},
                                {"ncols", ncol},
                                {"methods", methods},
                                {"resids", resids}};
    st = tc_plot_render(tpl, vars, 5, base, err);
    if (st) return st;
    static const char caption[] =
        "Physical residuals per method: each cell the method's largest per-experiment mean of "
        "the residual (printed), coloured by its ratio to the residual's default threshold on a "
        "log scale (docs/residuals.md); hatched n/a: the method reports no contact impulses.";
    fputs("\n### Physical residuals\n\n", md);
    fputs("\\subsection*{Physical residuals}\n", tex);
    tc_plot_include(md, tex, "residuals_summary", "residuals", caption);
    return TC_OK;
}
