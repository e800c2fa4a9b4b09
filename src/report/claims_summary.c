/* SPDX-License-Identifier: MIT */
/* the claims summarised: the report's summary figure (every claim's measured value against its
 * reproduced and partly ranges, normalised by the range's centre on one log axis, coloured by
 * verdict) and the conclusions, a paragraph per paper */
#include "report/tc_claims.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/tc_fs.h"
#include "report/tc_plot.h"
#include "report/tc_table.h"

#define AXIS_LO 1e-3 /* the axis: a value or edge beyond it is drawn at it */
#define AXIS_HI 1e3

/* x clipped to the axis; NAN stays NAN */
static double on_axis(double x) {
    if (isnan(x)) return x;
    return x < AXIS_LO ? AXIS_LO : x > AXIS_HI ? AXIS_HI : x;
}

/* what a claim's numbers are divided by: the geometric centre of its reproduced range, its
 * finite positive edge when the other is 0 or infinite; NAN when the range has none */
static double centre_of(const tc_claim *c) {
    int lo = c->lo > 0 && isfinite(c->lo), hi = c->hi > 0 && isfinite(c->hi);
    if (lo && hi) return sqrt(c->lo * c->hi);
    return hi ? c->hi : lo ? c->lo : NAN;
}

/* the figure's data: a row per claim, from the top */
static tc_status write_data(const tc_claims *c,
                            const tc_metrics *(*metrics_of)(const char *, void *), void *ctx,
                            const char *path, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fputs("row,claim,ratio,lo,hi,plo,phi,verdict,label\n", o.f);
    for (int i = 0; i < c->n; i++) {
        const tc_claim *k = &c->c[i];
        const tc_metrics *ms = k->experiment[0] ? metrics_of(k->experiment, ctx) : NULL;
        tc_judgement j = tc_claim_judgement(k, ms);
        double ref = centre_of(k);
        /* the label says what a claim without a point is */
        char label[80];
        int judged = j.verdict <= TC_VERDICT_NOT && isfinite(j.value) && isfinite(ref);
        snprintf(label, sizeof label, "%s%s%s", k->id, judged ? "" : ": ",
                 judged ? "" : tc_verdict_str(j.verdict));
        fprintf(o.f, "%d,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%d,\"%s\"\n", i + 1, k->id,
                judged ? on_axis(j.value / ref) : NAN, on_axis(k->lo / ref),
                on_axis(isfinite(k->hi) ? k->hi / ref : AXIS_HI), on_axis(k->plo / ref),
                on_axis(isfinite(k->phi) ? k->phi / ref : AXIS_HI), (int)j.verdict, label);
    }
    return tc_outfile_commit(&o, err);
}

tc_status tc_claims_figure(const tc_claims *c,
                           const tc_metrics *(*metrics_of)(const char *, void *), void *ctx,
                           const char *out_dir, const char *tpl, FILE *md, FILE *tex,
                           tc_error *err) {
    char data[1200], base[1200], n[16];
    snprintf(data, sizeof data, "%s/claims_summary.csv", out_dir);
    snprintf(base, sizeof base, "%s/claims_summary", out_dir);
    snprintf(n, sizeof n, "%d", c->n);
    tc_status st = write_data(c, metrics_of, ctx, data, err);
    const tc_plot_var vars[] = {{"datafile", data}, {"nclaims", n}};
    if (!st) st = tc_plot_render(tpl, vars, 2, base, err);
    if (st) return st;
    static const char caption[] =
        "Every claim: our value over the centre of its reproduced range (log axis, clipped at "
        "its ends), the reproduced range dark, the partly reproduced one light, coloured by "
        "verdict.";
    tc_plot_include(md, tex, "claims_summary", "claims", caption);
    return TC_OK;
}

/* ---------- the conclusions, one paragraph per paper ---------- */

/* the paper a claim belongs to: its `paper` up to the first comma ("Beker et al. 2025") */
static void paper_of(const tc_claim *c, char *buf, size_t n) {
    snprintf(buf, n, "%.*s", (int)strcspn(c->paper, ","), c->paper);
}

/* a list item in both forms */
static void conclusion_item(FILE *md, FILE *tex, const tc_claim *k, const tc_judgement *j) {
    char ours[64] = "";
    if (isfinite(j->value)) snprintf(ours, sizeof ours, "; ours %.3g", j->value);
    fprintf(md, "- %s, %s: %s (the paper: %s%s).%s%s\n", k->id, tc_verdict_str(j->verdict), k->text,
            k->paper_value, ours, k->note[0] ? " " : "", k->note);
    fputs("\\item ", tex);
    char line[1400];
    snprintf(line, sizeof line, "%s, %s: %s (the paper: %s%s).%s%s", k->id,
             tc_verdict_str(j->verdict), k->text, k->paper_value, ours, k->note[0] ? " " : "",
             k->note);
    tc_latex_put(tex, line);
    fputs("\n", tex);
}

void tc_claims_conclusions(const tc_claims *c,
                           const tc_metrics *(*metrics_of)(const char *, void *), void *ctx,
                           FILE *md, FILE *tex) {
    fputs("\n## Conclusions\n\nPer paper, what this run reproduced and what it did not, with "
          "the claims' notes.\n",
          md);
    fputs("\\section{Conclusions}\nPer paper, what this run reproduced and what it did not, with "
          "the claims' notes.\n",
          tex);
    for (int i = 0; i < c->n; i++) {
        char paper[96], other[96];
        paper_of(&c->c[i], paper, sizeof paper);
        /* each paper once, at its first claim */
        int first = 1;
        for (int q = 0; q < i && first; q++) {
            paper_of(&c->c[q], other, sizeof other);
            first = strcmp(other, paper) != 0;
        }
        if (!first) continue;
        int count[TC_VERDICT_COUNT] = {0}, total = 0;
        for (int q = i; q < c->n; q++) {
            paper_of(&c->c[q], other, sizeof other);
            if (strcmp(other, paper)) continue;
            const tc_metrics *ms =
                c->c[q].experiment[0] ? metrics_of(c->c[q].experiment, ctx) : NULL;
            count[tc_claim_judgement(&c->c[q], ms).verdict]++;
            total++;
        }
        int judged =
            count[TC_VERDICT_REPRODUCED] + count[TC_VERDICT_PARTLY] + count[TC_VERDICT_NOT];
        char head[400];
        snprintf(head, sizeof head,
                 "%s: %d claims, %d judged here: %d reproduced, %d partly, %d not reproduced; "
                 "%d not judged in this run.",
                 paper, total, judged, count[TC_VERDICT_REPRODUCED], count[TC_VERDICT_PARTLY],
                 count[TC_VERDICT_NOT], total - judged);
        fprintf(md, "\n**%s**\n\n", head);
        fputs("\\paragraph{", tex);
        tc_latex_put(tex, head);
        fputs("}\n", tex);
        /* what did not reproduce, then what was not judged, each with its reason */
        if (total == count[TC_VERDICT_REPRODUCED]) continue;
        fputs("\\begin{itemize}\\small\n", tex);
        for (int pass = 0; pass < 2; pass++)
            for (int q = i; q < c->n; q++) {
                paper_of(&c->c[q], other, sizeof other);
                if (strcmp(other, paper)) continue;
                const tc_metrics *ms =
                    c->c[q].experiment[0] ? metrics_of(c->c[q].experiment, ctx) : NULL;
                tc_judgement j = tc_claim_judgement(&c->c[q], ms);
                int show = pass == 0 ? j.verdict == TC_VERDICT_PARTLY || j.verdict == TC_VERDICT_NOT
                                     : j.verdict > TC_VERDICT_NOT;
                if (show) conclusion_item(md, tex, &c->c[q], &j);
            }
        fputs("\\end{itemize}\n", tex);
    }
}
