/* SPDX-License-Identifier: MIT */
/* E4: Drumwright's penalty studies — block into a plane, perturbed block, pile, speed; the
 * integral term (fig. 6) and the pushes (fig. 12) drawn */
#include "experiments/e4/e4.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const study_name[3] = {"block", "perturbed", "pile"};

/* one simulation of the sweep */
typedef struct e4_item {
    int method, study, run;
    long steps;
    int every;
    e4_run r;
} e4_item;

/* the driver's state */
typedef struct e4_state {
    e4_setup e;
    const tc_exp *x;
    tc_scene scene[3]; /* the three studies' scenes */
    double (*force)[3];
    e4_item *it;
    int n;
} e4_state;

/* study q's series, <study>.csv: gnuplot blocks (one per method, two blank lines apart) of
 * step, kinetic energy, penetration */
static tc_status write_series(const tc_exp *x, const e4_state *s, int q, tc_error *err) {
    char file[32];
    tc_outfile o;
    snprintf(file, sizeof file, "%s.csv", study_name[q]);
    tc_status st = tc_exp_open(x, file, &o, err);
    if (st) return st;
    fprintf(o.f, "# step,kinetic_J,penetration_m; one block per method:");
    for (int i = 0; i < s->n; i++)
        if (s->it[i].study == q) fprintf(o.f, " %s", tc_exp_label(x, s->it[i].method));
    fprintf(o.f, "\n");
    for (int i = 0; i < s->n; i++) {
        const e4_item *t = &s->it[i];
        if (t->study != q) continue;
        for (int j = 0; j < t->r.s.n && (long)j * t->every < t->r.s.steps; j++)
            fprintf(o.f, "%ld,%.6e,%.6e\n", (long)j * t->every + 1, t->r.s.ke[j], t->r.s.pen[j]);
        /* an empty method still needs its block for the plot's indexes */
        if (t->r.s.steps == 0) fprintf(o.f, "1,NaN,NaN\n");
        fprintf(o.f, "\n\n");
    }
    return tc_outfile_commit(&o, err);
}

/* every study run's summary */
static tc_status write_summary(const tc_exp *x, const e4_item *it, int n, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "summary.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "label,method,study,steps,mean_penetration_m,max_penetration_m,final_kinetic_J,"
                 "escaped,energy_rise_J,energy_allowed_J,lowest_top_m,deepest_over_size,"
                 "wall_s,solver_iters,solver_fails,status,reason\n");
    for (int i = 0; i < n; i++) {
        const tc_series *s = &it[i].r.s;
        const tc_run_record *r = tc_exp_run_record(x, it[i].run);
        char reason[600];
        tc_csv_field(reason, sizeof reason, r->reason);
        const e4_sanity *k = &it[i].r.chk;
        fprintf(o.f, "%s,%s,%s,%ld,%.6e,%.6e,%.6e,%d,%.4g,%.4g,%.4g,%.4g,%.4g,%lld,%lld,%s,%s\n",
                tc_exp_label(x, it[i].method), tc_exp_method(x, it[i].method)->spec,
                study_name[it[i].study], s->steps, s->mean_pen, s->max_pen, s->final_ke,
                it[i].r.escaped, k->energy_rise, k->energy_allow, k->lowest, k->deepest, s->wall_s,
                s->iters, s->fails, r->status ? "failed" : "ok", reason);
    }
    return tc_outfile_commit(&o, err);
}

/* method i's steps per second over the baseline's (the first method's) */
static double over_baseline(const e4_speed_row *w, int i) {
    return w->steps_s[0] > 0 ? w->steps_s[i] / w->steps_s[0] : NAN;
}

/* csv of the speed study: one block per method, one line per pile size */
static tc_status speed_csv(const tc_exp *x, const e4_setup *e, const e4_speed_row *rows,
                           tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "speed.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "# blocks: one per method, in order:");
    for (int i = 0; i < e->d_nlabel; i++)
        fprintf(o.f, " %s", e->d_label[i]);
    fprintf(o.f, "\n# bodies,touching_pairs,lcp_contacts,method_contacts,steps_s,over_lcp,"
                 "solver_iters,failed\n");
    for (int i = 0; i < e->d_nlabel; i++) {
        for (int r = 0; r < e->d_n; r++) {
            const e4_speed_row *w = &rows[r];
            fprintf(o.f, "%d,%d,%d,%.4g,%.6g,%.4g,%lld,%d\n", w->bodies, w->pairs, w->lcp_contacts,
                    w->contacts[i], w->steps_s[i], over_baseline(w, i), w->iters[i], w->failed[i]);
        }
        fprintf(o.f, "\n\n");
    }
    return tc_outfile_commit(&o, err);
}

/* the speed table: steps/s per method and, after the baseline, each one's ratio to it; the ratio
 * at the first pile with 50 or more LCP contacts (the target) as a metric */
static tc_status speed_table(tc_exp *x, const e4_setup *e, const e4_speed_row *rows,
                             tc_error *err) {
    enum { MAXCOL = 3 + 2 * E4_MAXSPEED };
    const int n = e->d_nlabel;
    /* the headings: the pile, then each method's steps/s and, after the baseline, its ratio */
    const char *hdr[MAXCOL] = {"bodies", "touching pairs", "LCP contacts"};
    char hb[MAXCOL][80];
    int nc = 3;
    for (int i = 0; i < n; i++) {
        snprintf(hb[nc++], 80, "%s steps/s", e->d_label[i]);
        if (i) snprintf(hb[nc++], 80, "%s / %s", e->d_label[i], e->d_label[0]);
    }
    for (int j = 3; j < nc; j++)
        hdr[j] = hb[j];
    tc_table *tab = tc_table_alloc(nc, hdr);
    if (!tab) return TC_ENOMEM;
    /* one row per pile size; a method whose timed steps failed says so */
    for (int r = 0; r < e->d_n; r++) {
        const e4_speed_row *w = &rows[r];
        char c[MAXCOL][48];
        const char *row[MAXCOL];
        int k = 3;
        snprintf(c[0], 48, "%d", w->bodies);
        snprintf(c[1], 48, "%d", w->pairs);
        snprintf(c[2], 48, "%d", w->lcp_contacts);
        for (int i = 0; i < n; i++) {
            tc_cell_num(c[k], 48, w->steps_s[i], 3, 0);
            if (w->failed[i]) snprintf(c[k] + strlen(c[k]), 48 - strlen(c[k]), " (failed)");
            k++;
            if (i) snprintf(c[k++], 48, "%.3g", over_baseline(w, i));
        }
        for (int j = 0; j < k; j++)
            row[j] = c[j];
        tc_table_add_row(tab, row);
    }
    char cap[800], machine[300];
    tc_machine_describe(machine, sizeof machine, 1);
    snprintf(cap, sizeof cap,
             "E4 (d): steps per second on settled piles of growing size, %d steps from the "
             "same state timed %d times with the methods taking turns, the median kept, in the "
             "same run (%s); LCP contacts: at most 4 per touching pair (paper: penalty 80.6 vs "
             "LCP 32.6 and 30.7 vs 4.4 steps/s on its two robots).",
             e->d_steps, e->d_repeats, machine);
    tc_status st = tc_exp_table(x, tab, "speed_table", cap, err);
    tc_table_free(tab);
    /* the target: each ratio at the first pile with 50 or more LCP contacts */
    for (int i = 1; i < n; i++) {
        double at50 = NAN;
        for (int r = 0; r < e->d_n && isnan(at50); r++)
            if (rows[r].lcp_contacts >= 50) at50 = over_baseline(&rows[r], i);
        if (isnan(at50)) continue;
        tc_exp_metric(x, e->d_label[i], at50, "1", 0, 0.9,
                      TC_METRIC_TIMING | TC_METRIC_HIGHER_FASTER,
                      "steps/s over the baseline's at the first pile with >= 50 LCP contacts "
                      "(machine-dependent)",
                      "speed.%s_over_%s_at_50", e->d_label[i], e->d_label[0]);
    }
    return st;
}

/* the speed study (serial), one run record per pile size and method, its csv and its table;
 * without one of its methods (a --methods filter) the section says so */
static tc_status speed_study(tc_exp *x, const e4_setup *e, tc_error *err) {
    const tc_method *ref, *m[E4_MAXSPEED];
    int idx[E4_MAXSPEED];
    const char *missing = e4_speed_methods(x, e, &ref, m, idx);
    if (missing) {
        tc_exp_text(x, "(d) The speed study did not run: method `%s` was not selected.", missing);
        return TC_OK;
    }
    e4_speed_row rows[E4_MAXPILE];
    fprintf(stderr, "e4: speed study (serial): %d pile sizes\n", e->d_n);
    tc_status st = e4_speed(e, ref, m, e->d_nlabel, rows, err);
    if (st) return st;
    for (int r = 0; r < e->d_n; r++)
        for (int i = 0; i < e->d_nlabel; i++) {
            int run = tc_exp_add_run(x, idx[i], NULL, -1, "speed: %d bodies", rows[r].bodies);
            tc_exp_record(x, run, rows[r].failed[i] ? TC_EDIVERGED : TC_OK,
                          rows[r].failed[i] ? "a timed step failed" : NULL, rows[r].steps[i],
                          rows[r].wall[i]);
        }
    st = speed_csv(x, e, rows, err);
    return st ? st : speed_table(x, e, rows, err);
}

/* one work item: one study of one method */
static void e4_work(void *ctx, int i, tc_item *it) {
    e4_state *s = ctx;
    e4_item *t = &s->it[i];
    e4_simulate(&s->e, &s->scene[t->study], tc_exp_method(s->x, t->method), t->study, t->steps,
                t->every, (const double(*)[3])s->force, &t->r, it);
}

/* what one simulation writes, for a sweep split over MPI ranks: its series, escaped bodies and
 * plausibility measures */
static int e4_regions(void *ctx, int i, tc_region *r) {
    e4_item *t = &((e4_state *)ctx)->it[i];
    int nr = tc_series_regions(&t->r.s, r);
    r[nr++] = (tc_region){&t->r.escaped, sizeof t->r.escaped};
    r[nr++] = (tc_region){&t->r.chk, sizeof t->r.chk};
    return nr;
}

/* the item of method k in study q, or NULL when the method did not run it */
static const e4_item *item_of(const e4_state *s, int k, int q) {
    for (int i = 0; i < s->n; i++)
        if (s->it[i].method == k && s->it[i].study == q) return &s->it[i];
    return NULL;
}

/* 1 when the item ran and its run is ok */
static int ran_ok(const tc_exp *x, const e4_item *t) {
    return t && tc_exp_run_record(x, t->run)->status == TC_OK;
}

/* (b)'s row of method k beside the paper's value, and its metric */
static void perturbed_row(tc_exp *x, const e4_item *r, int k, tc_table *t) {
    const char *label = tc_exp_label(x, k);
    const tc_series *b = &r->r.s;
    double paper = tc_script_paper(tc_exp_script(x), "label", label, "mean_penetration");
    char c[7][64];
    snprintf(c[0], 64, "%s", label);
    snprintf(c[1], 64, "%s", tc_exp_method(x, k)->spec);
    snprintf(c[2], 64, "%.3g", b->mean_pen);
    snprintf(c[3], 64, "%.3g", b->max_pen);
    tc_cell_num(c[4], 64, b->final_ke, 3, 1e-12);
    snprintf(c[5], 64, isnan(paper) ? "-" : "%.2g", paper);
    snprintf(c[6], 64, "%s", ran_ok(x, r) ? "ok" : "failed");
    tc_table_add_row(t, (const char *[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6]});
    tc_exp_metric(x, label, ran_ok(x, r) ? b->mean_pen : NAN, "m", 1e-5, 0.3, 0,
                  "(b) mean penetration of the perturbed block", "perturbed.%s.mean_penetration",
                  label);
}

/* the studies row of method k: (a) and (c), and its failed runs; a study the method could not
 * run says "n/a", and why goes into notrun[nn] */
static void studies_row(tc_exp *x, const e4_state *s, int k, tc_table *t, char *notrun, size_t nn) {
    const e4_item *r[3] = {item_of(s, k, E4_BLOCK), item_of(s, k, E4_PERTURBED),
                           item_of(s, k, E4_PILE)};
    const char *label = tc_exp_label(x, k);
    char c[7][64];
    int failed = 0;
    snprintf(c[0], 64, "%s", label);
    for (int j = 1; j < 7; j++)
        snprintf(c[j], 64, "%s", r[j < 3 ? 0 : 2] ? "-" : "n/a");
    for (int q = 0; q < 3; q++) {
        failed += r[q] && !ran_ok(x, r[q]);
        if (r[q] || q == E4_PERTURBED) continue;
        char why[300];
        tc_method_why_not(tc_exp_method(x, k), TC_CAP_DYNAMICS, tc_scene_shapes(&s->scene[q]), why,
                          sizeof why);
        tc_words_add(notrun, nn, "; ", "%s %s: %s", label, q ? "(c)" : "(a)", why);
    }
    /* (a): the final kinetic energy and the last penetration sample, the final one */
    const tc_series *a = r[0] ? &r[0]->r.s : NULL;
    if (a) tc_cell_num(c[2], 64, a->final_ke, 3, 1e-12);
    if (a && a->steps > 0) {
        double pen = a->pen[(a->steps - 1) / r[0]->every];
        snprintf(c[1], 64, "%.3g", pen);
        tc_exp_metric(x, label, ran_ok(x, r[0]) ? pen : NAN, "m", 1e-4, 0.3, 0,
                      "(a) penetration after the last step", "block.%s.final_penetration", label);
    }
    /* (c): the bodies that escaped, the deepest penetration and how far the energy decayed */
    const tc_series *p = r[2] ? &r[2]->r.s : NULL;
    if (p) {
        snprintf(c[3], 64, "%d", r[2]->r.escaped);
        snprintf(c[4], 64, "%.3g", p->max_pen);
        snprintf(c[5], 64, "%.3g", p->final_ke / p->peak_ke);
        tc_exp_metric(x, label, ran_ok(x, r[2]) ? r[2]->r.escaped : NAN, "1", 0, 0, 0,
                      "(c) bodies outside the container at the end", "pile.%s.escaped", label);
        tc_exp_metric(x, label, ran_ok(x, r[2]) ? p->final_ke / p->peak_ke : NAN, "1", 0.01, 1.0, 0,
                      "(c) kinetic energy at the end over its peak (decay)",
                      "pile.%s.ke_final_over_peak", label);
    }
    snprintf(c[6], 64, "%d", failed);
    tc_table_add_row(t, (const char *[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6]});
}

/* (b)'s ratios of two methods' mean penetrations (the paper: multi-point over deepest point
 * 5.9e-3 / 9.0e-2 = 0.066), where both ran (b) and neither failed */
static void ratio_metrics(tc_exp *x, const e4_state *s) {
    for (int i = 0; i < s->e.b_nratio; i++) {
        const char *num = s->e.b_ratio[i][0], *den = s->e.b_ratio[i][1];
        int kn = tc_exp_method_find(x, num), kd = tc_exp_method_find(x, den);
        const e4_item *a = kn >= 0 ? item_of(s, kn, E4_PERTURBED) : NULL;
        const e4_item *b = kd >= 0 ? item_of(s, kd, E4_PERTURBED) : NULL;
        if (!a || !b) continue;
        char doc[200];
        snprintf(doc, sizeof doc, "(b) mean penetration of %s over that of %s", num, den);
        tc_exp_metric(x, num,
                      ran_ok(x, a) && ran_ok(x, b) ? a->r.s.mean_pen / b->r.s.mean_pen : NAN, "1",
                      0, 0.3, 0, doc, "perturbed.%s_over_%s.mean_penetration", num, den);
    }
}

/* the closed-form resting depth of each method with the penalty gains (eq. 2-3) */
static void resting_depths(tc_exp *x, const e4_state *s) {
    char line[2048] = "";
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const tc_params *mp = &tc_exp_method(x, k)->mparams;
        if (!tc_exp_method(x, k)->model || tc_params_find(mp, "divide_by_r") < 0 ||
            !tc_params_get(mp, "divide_by_r") || tc_params_find(mp, "ki") < 0 ||
            tc_params_find(mp, "forget") < 0)
            continue;
        double kp = tc_params_get(mp, "kp"), ki = tc_params_get(mp, "ki");
        double lam = tc_params_get(mp, "forget");
        tc_words_add(line, sizeof line, "; ", "%s: %.3g m", tc_exp_label(x, k),
                     s->e.gravity / (kp + ki / (1 - lam)));
    }
    if (line[0])
        tc_exp_text(x,
                    "With eq. 3 as written, a resting body sinks g / (kp + ki / (1 - lambda)): %s. "
                    "The paper's smaller multi-point penetration needs a stiffer spring than its "
                    "stated gains give; a method with `divide_by_r = 0` (every bottom point a full "
                    "spring) tests that reading (experiments/e4/README.md).",
                    line);
}

/* the tables: (b) beside the paper, then every study per method, with the metrics */
static tc_status write_tables(tc_exp *x, const e4_state *s, tc_error *err) {
    static const char *const hdr_b[] = {
        "method",         "spec",  "mean penetration (m)", "max penetration (m)", "final KE (J)",
        "paper mean (m)", "status"};
    static const char *const hdr_all[] = {
        "method",      "(a) final penetration (m)", "(a) final KE (J)",
        "(c) escaped", "(c) max penetration (m)",   "(c) final / peak KE",
        "failed runs"};
    tc_table *tb = tc_table_alloc(7, hdr_b), *ta = tc_table_alloc(7, hdr_all);
    char notrun[2048] = ""; /* the studies a method did not run, and why */
    for (int k = 0; tb && ta && k < tc_exp_nmethod(x); k++) {
        if (item_of(s, k, E4_PERTURBED)) perturbed_row(x, item_of(s, k, E4_PERTURBED), k, tb);
        studies_row(x, s, k, ta, notrun, sizeof notrun);
    }
    ratio_metrics(x, s);
    tc_status st = tb && ta ? TC_OK : TC_ENOMEM;
    if (!st)
        st = tc_exp_table(x, tb, "perturbed_table",
                          "E4 (b): a 10 kg unit cube on a plane, downward forces U[10, 100] N "
                          "at random top points (500 steps on, 500 off); penetration "
                          "measured from the geometry, the same for every method. "
                          "multi-point-r1: the multi-point method with every bottom point a "
                          "full spring (eq. 3 without its division by r); multi-point-se: "
                          "the multi-point forces under semi-implicit Euler instead of RK4; "
                          "paper mean: Drumwright's value where it gives one; a final KE below "
                          "1e-12 J reads < 1e-12 (at rest to rounding).",
                          err);
    if (!st) resting_depths(x, s);
    char cap[2600];
    snprintf(cap, sizeof cap,
             "E4 (a) block started penetrating a plane and (c) a pile settling in an open box: "
             "every method that handles the shapes. escaped: bodies outside the box at the end; "
             "final / peak KE: the pile's kinetic energy at the end over its largest (small: it "
             "settled); a final KE below 1e-12 J reads < 1e-12.%s%s%s",
             notrun[0] ? " n/a: not run, " : "", notrun, notrun[0] ? "." : "");
    if (!st) st = tc_exp_table(x, ta, "studies_table", cap, err);
    tc_table_free(tb);
    tc_table_free(ta);
    return st;
}

/* study q's figure, fig_<study>: the series of the methods that ran it */
static void series_figure(tc_exp *x, const e4_state *s, int q) {
    static const char *const caption[3] = {
        "(a) Kinetic energy and penetration of a block started inside a plane; " TC_EXP_GREY_NOTE
        ".",
        ("(b) Kinetic energy and penetration of the perturbed block (" TC_EXP_GREY_NOTE
         "); shaded: the force-on windows; dotted: the paper's mean penetration of the method "
         "in its colour."),
        "(c) Kinetic energy and largest penetration of the settling pile; " TC_EXP_GREY_NOTE "."};
    char labels[2048] = "", papers[1024] = "", path[1200], base[32], file[32];
    int ok = 0;
    snprintf(base, sizeof base, "fig_%s", study_name[q]);
    snprintf(file, sizeof file, "%s.csv", study_name[q]);
    for (int i = 0; i < s->n; i++)
        if (s->it[i].study == q) {
            const char *label = tc_exp_label(x, s->it[i].method);
            /* the paper's mean penetration of (b), a reference mark ("nan": none) */
            double paper = q == E4_PERTURBED ? tc_script_paper(tc_exp_script(x), "label", label,
                                                               "mean_penetration")
                                             : NAN;
            tc_words_add(labels, sizeof labels, " ", "%s", label);
            tc_words_add(papers, sizeof papers, " ", "%g", paper);
            ok += ran_ok(x, &s->it[i]);
        }
    /* no method ran this study (--methods kept none that handles its shapes): no figure */
    if (!labels[0]) {
        tc_exp_text(x,
                    "%s is not drawn: none of the methods run here handles this study's "
                    "shapes (see the studies table).",
                    base);
        return;
    }
    /* every run of it failed (the reasons are in the summary and runs.csv): nothing to draw */
    if (!ok) {
        tc_exp_text(x,
                    "%s is not drawn: every run of this study failed (%s; the reasons are "
                    "in runs.csv and above).",
                    base, labels);
        return;
    }
    tc_exp_path(x, file, path, sizeof path);
    /* the perturbed study's force-on windows (steps), shaded in the figure */
    char windows[96] = "";
    if (q == E4_PERTURBED)
        snprintf(windows, sizeof windows, "%d %d %d %d", s->e.b_settle, s->e.b_on, s->e.b_off,
                 s->e.b_cycles);
    tc_plot_var v[] = {
        {"datafile", path}, {"labels", labels}, {"windows", windows}, {"papers", papers}};
    tc_exp_figure(x, "e4_series.gp", v, 4, base, caption[q]);
}

/* (d)'s figure, when the speed study ran */
static void speed_figure(tc_exp *x, const e4_setup *e) {
    char path[1200], labels[512] = "";
    tc_exp_path(x, "speed.csv", path, sizeof path);
    if (!tc_file_readable(path)) return;
    for (int i = 0; i < e->d_nlabel; i++)
        tc_words_add(labels, sizeof labels, " ", "%s", e->d_label[i]);
    tc_plot_var v[] = {{"datafile", path}, {"labels", labels}};
    tc_exp_figure(x, "e4_speed.gp", v, 2, "fig_speed",
                  "(d) Steps per second against contact points, penalty and LCP; " TC_EXP_GREY_NOTE
                  ".");
}

/* fig. 6's depths (m) held constant and its steps; the second panel's factor: no forgetting */
static const double forget_depth[] = {0.01, 0.05, 0.1, 0.2, 0.5};
enum { FORGET_STEPS = 60 };
#define FORGET_NONE 1.0

/* the forgetting factor of the script's multi-point method (the paper's), else of its first
 * method with one, else the multi-point model's default; *from: the method's label or NULL,
 * *dflt: 1 when the value is the model's default */
static double script_forget(const tc_exp *x, const char **from, int *dflt) {
    tc_method mp;
    if (tc_method_parse(&mp, "penalty-mp", NULL)) return NAN;
    double lam = tc_params_get(&mp.mparams, "forget");
    *from = NULL;
    for (int pass = 0; pass < 2 && !*from; pass++)
        for (int k = 0; k < tc_exp_nmethod(x) && !*from; k++) {
            const tc_method *m = tc_exp_method(x, k);
            if (!m->model || tc_params_find(&m->mparams, "forget") < 0 ||
                (pass == 0 && m->model != mp.model))
                continue;
            *from = tc_exp_label(x, k);
            lam = tc_params_get(&m->mparams, "forget");
        }
    *dflt = lam == tc_params_get(&mp.mparams, "forget");
    return lam;
}

/* the penalty's integral term for constant depths (paper fig. 6) and (b)'s pushes (fig. 12) */
static tc_status model_figures(tc_exp *x, const e4_state *s, tc_error *err) {
    char path[1200], depths[128] = "", forgets[64], caption[640];
    const char *from;
    int dflt;
    const double lam[2] = {script_forget(x, &from, &dflt), FORGET_NONE};
    if (isnan(lam[0])) return TC_OK;
    /* the integral term per depth, the script's factor beside none */
    char source[160];
    snprintf(source, sizeof source, "%s%s%s", from ? "the forget parameter of " : "",
             from ? from : "",
             dflt ? (from ? ", the model's default: the script sets none" : "the model's default")
                  : ", set in the script");
    int nd = (int)(sizeof forget_depth / sizeof *forget_depth);
    for (int d = 0; d < nd; d++)
        tc_words_add(depths, sizeof depths, " ", "%g", forget_depth[d]);
    snprintf(forgets, sizeof forgets, "%g %g", lam[0], lam[1]);
    tc_exp_path(x, "forget.csv", path, sizeof path);
    tc_status st = e4_write_forget(path, forget_depth, nd, lam, 2, FORGET_STEPS, err);
    if (st) return st;
    tc_plot_var fv[] = {{"datafile", path}, {"depths", depths}, {"forgets", forgets}};
    snprintf(caption, sizeof caption,
             "The integral term I of eq. 2 (m) for a penetration depth held constant from step 0 "
             "(paper fig. 6), from the model's own update: left, the forgetting factor λ = %g "
             "(%s), where I levels off at d / (1 − λ) (dashed); right, λ = 1 (no forgetting), "
             "where I = d t grows without bound.",
             lam[0], source);
    tc_exp_figure(x, "e4_forget.gp", fv, 3, "fig_forget", caption);
    /* the paper's reading of fig. 6: the term still accumulates at depths above 0.1 m; the
     * share of I at 0.2 m gained over the second half of the figure's steps (0: levelled off) */
    double I[FORGET_STEPS + 1];
    e4_forget_series(0.2, lam[0], FORGET_STEPS, I);
    tc_metrics_add(tc_exp_metrics(x), NULL, "forget.growth_at_0.2",
                   (I[FORGET_STEPS] - I[FORGET_STEPS / 2]) / I[FORGET_STEPS], "1", 1e-9, 1e-6, 0,
                   "the integral term of eq. 2 at a depth of 0.2 m held constant: the share of its "
                   "value gained over the second half of fig. 6's steps, at the script's "
                   "forgetting factor (0: levelled off; the paper: still accumulating)");
    /* (b)'s pushes, one arrow each */
    tc_exp_path(x, "forces.csv", path, sizeof path);
    if ((st = e4_write_forces(path, &s->e, (const double(*)[3])s->force, err))) return st;
    char half[32], cycles[160];
    snprintf(half, sizeof half, "%g", E4_HALF);
    snprintf(cycles, sizeof cycles, "%d pushes, one at a time: %d steps on, %d off", s->e.b_cycles,
             s->e.b_on, s->e.b_off);
    tc_plot_var pv[] = {{"datafile", path}, {"half", half}, {"cycles", cycles}};
    snprintf(caption, sizeof caption,
             "(b) The downward forces applied to the top of the cube (paper fig. 12; seed %d): "
             "left, each arrow ends at its point and its length is the magnitude, a side of "
             "the cube (1 m) being 100 N; right, the top face seen from above, each push "
             "numbered by its cycle with its magnitude (N).",
             s->e.b_seed);
    tc_exp_figure(x, "e4_forces.gp", pv, 3, "fig_forces", caption);
    return TC_OK;
}

static tc_status e4_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e4_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    tc_status st = e4_read_setup(tc_exp_script(x), &s->e, err);
    /* the speed study's labels name methods */
    if (!st) tc_exp_refer(x, "speed.settle", s->e.d_settle);
    for (int i = 0; !st && i < s->e.d_nlabel; i++)
        tc_exp_refer(x, "speed.methods", s->e.d_label[i]);
    for (int i = 0; !st && i < s->e.b_nratio; i++)
        for (int j = 0; j < 2; j++)
            tc_exp_refer(x, "perturbed.ratios", s->e.b_ratio[i][j]);
    if (!st) st = e4_block_scene(&s->e, &s->scene[E4_BLOCK], err);
    if (!st) st = e4_rest_scene(&s->e, &s->scene[E4_PERTURBED], err);
    if (!st) st = e4_pile_scene(&s->e, s->e.pile.bodies, &s->scene[E4_PILE], err);
    /* a dynamic method joins when it handles the block scenes or the pile */
    tc_exp_need(x, TC_CAP_DYNAMICS, tc_scene_shapes(&s->scene[E4_BLOCK]),
                "(a), (b) a box on a plane");
    tc_exp_need(x, TC_CAP_DYNAMICS, tc_scene_shapes(&s->scene[E4_PILE]), "(c) the pile");
    return st;
}

static void e4_free(void *state) {
    e4_state *s = state;
    for (int i = 0; s->it && i < s->n; i++)
        tc_series_free(&s->it[i].r.s);
    free(s->it);
    free(s->force);
    free(s);
}

/* the sweep: every method on every study whose shapes it handles, one run each; (a) sampled
 * every step, (b) and (c) every 10 */
static tc_status declare_runs(tc_exp *x, e4_state *s) {
    const e4_setup *e = &s->e;
    const long steps[3] = {e->a_steps, e->b_settle + (long)e->b_cycles * (e->b_on + e->b_off),
                           (long)ceil(e->c_seconds / e->dt)};
    const long long seed[3] = {e->a_seed, e->b_seed, (long long)e->pile.seed};
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        for (int q = 0; q < 3; q++) {
            if (!tc_method_can_run(tc_exp_method(x, k), TC_CAP_DYNAMICS,
                                   tc_scene_shapes(&s->scene[q])))
                continue;
            e4_item *t = &s->it[s->n++];
            *t = (e4_item){.method = k, .study = q, .steps = steps[q], .every = q ? 10 : 1};
            t->run =
                tc_exp_add_run(x, k, NULL, seed[q], "study=%s, %ld steps", study_name[q], t->steps);
            if (tc_series_alloc(&t->r.s, t->steps, t->every,
                                TC_SERIES_KINETIC | TC_SERIES_PENETRATION))
                return TC_ENOMEM;
        }
    return TC_OK;
}

static tc_status e4_run_fn(tc_exp *x, void *state, tc_error *err) {
    e4_state *s = state;
    s->x = x;
    s->force = calloc((size_t)s->e.b_cycles, sizeof *s->force);
    s->it = calloc((size_t)(3 * tc_exp_nmethod(x)) + 1, sizeof *s->it);
    if (!s->force || !s->it) return TC_ENOMEM;
    e4_perturbations(&s->e, s->force);
    tc_status st = declare_runs(x, s);
    if (!st) st = tc_exp_sweep_split(x, s->n, NULL, NULL, e4_work, e4_regions, s);
    if (st) return st;
    tc_exp_text(x,
                "Tier `%s`, step %g s; every dynamic method on (a) a block started inside a "
                "plane, (b) a perturbed block at rest, (c) a pile settling in an open box, and "
                "(d) the speed of the penalty methods against the LCP.",
                tc_exp_tier(x), s->e.dt);
    /* the scenes as a reader sees them: the block of (a) and the pile of (c), from the front */
    tc_exp_scene_figure(x, &s->scene[E4_BLOCK], "xz", "fig_scene_block",
                        "The scene of (a): the randomly oriented block starting inside the plane "
                        "(front view).");
    tc_exp_scene_figure(x, &s->scene[E4_PILE], "xz", "fig_scene_pile",
                        "The scene of (c): the bodies of the pile at their start in the open box "
                        "(front view; walls grey).");
    /* the tables, each study's series and every run's summary; the serial timing study goes
     * only into files: the writing rank's alone (MPI) */
    st = write_tables(x, s, err);
    for (int q = 0; q < 3 && !st; q++)
        st = write_series(x, s, q, err);
    if (!st) st = write_summary(x, s->it, s->n, err);
    if (!st && tc_exp_writer(x)) st = speed_study(x, &s->e, err);
    if (st) return st;
    /* the figures: each study's series, the speed, the integral term and (b)'s pushes */
    for (int q = 0; q < 3; q++)
        series_figure(x, s, q);
    speed_figure(x, &s->e);
    tc_exp_text(x, "The penalty methods' integral term for a constant penetration, with and "
                   "without forgetting, shows why λ < 1 keeps it bounded (`fig_forget`); the "
                   "pushes of (b), where they land on the cube and how strong they are, are "
                   "drawn in `fig_forces`.");
    return model_figures(x, s, err);
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e4_results[] = {{"block.csv", TC_RESULTS_BLOCKS, NULL},
                                             {"perturbed.csv", TC_RESULTS_BLOCKS, NULL},
                                             {"pile.csv", TC_RESULTS_BLOCKS, NULL},
                                             {NULL, 0, NULL}};

/* the work: (a), (b) and (c) for every method (the pile's steps cost per body), then the speed
 * study: each pile size settled and timed for every timed method */
static void e4_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e4_state *s = state;
    const e4_setup *e = &s->e;
    const double block = e->a_steps + e->b_settle + (double)e->b_cycles * (e->b_on + e->b_off);
    const double pile = ceil(e->c_seconds / e->dt), side = 2 * e->pile.size_hi;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        /* a point-cloud method pays for the pairs of points of each touching pair of bodies */
        const tc_method *m = tc_exp_method(x, k);
        double pc = tc_work_points(m, 6 * side * side), pb = tc_work_points(m, 6.0);
        int piles = tc_method_can_run(m, TC_CAP_DYNAMICS, tc_scene_shapes(&s->scene[E4_PILE]));
        w->steps += block + piles * pile;
        w->seconds +=
            (block * (TC_WORK_STEP_S + TC_WORK_PAIR_S * pb * pb) +
             piles * pile * e->pile.bodies * (TC_WORK_BODY_STEP_S + TC_WORK_PAIR_S * pc * pc)) *
            tc_method_work_factor(m);
    }
    for (int i = 0; i < e->d_n; i++) {
        double n = (double)e->d_steps * (e->d_nlabel + 1);
        w->steps += n;
        w->seconds += n * e->d_sizes[i] * TC_WORK_BODY_STEP_S;
    }
    w->bytes = (double)tc_exp_nmethod(x) * 3 * (block + pile) / 10 * 64;
}

const tc_experiment_type tc_experiment_e4 = {
    .name = "e4_penalty",
    .title = "penalty methods vs LCP: block into a plane, perturbed block, pile, speed "
             "(Drumwright 2008)",
    .heading = "Penalty methods (E4)",
    .paper = "Drumwright 2008, section IV and figs. 6, 8-12",
    .script = "e4/e4_penalty.cfg",
    .results = e4_results,
    .setup = e4_setup_fn,
    .run = e4_run_fn,
    .free = e4_free,
    .estimate = e4_estimate,
    .bench_name = "penalty",
    .bench_doc = "E4's piles: the LCP against the multi-point penalty (RK4 and semi-implicit "
                 "Euler), steps/s as contacts grow, one thread, same run",
    .bench = &e4_bench,
};
