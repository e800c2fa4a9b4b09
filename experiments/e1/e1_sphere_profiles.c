/* SPDX-License-Identifier: MIT */
/* E1: sphere force profiles — 1-D sweep, 2-D field, smoothness metrics (Beker et al. fig. 1, 5),
 * and the SSDF of a 2-D box at several smoothing levels (fig. 1 left, fig. 4) */
#include "experiments/e1/e1.h"
#include "math/tc_profile.h"
#include "geom/tc_aopc.h"
#include "scenes/tc_scenes.h"
#include "core/tc_fs.h"
#include "core/tc_machine.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK    32    /* sweep points per work item: fixed, so results never depend on threads */
#define MAXSTUDY 8     /* most radii and widths of the centre study */
#define QUERY_DT 0.002 /* s: the step of every query's simulation (engines take one step of it) */

/* the experiment's settings, read from the script */
typedef struct e1_setup {
    double R, r, density, friction, range, gap, window;
    int n1d, n2d;
    /* the centre study (E1.4): the method studied, small radii (m) and separation widths eps2 (m)
     */
    char centre_method[TC_LABEL_MAX + 1];
    double centre_r[MAXSTUDY], centre_eps2[MAXSTUDY];
    int ncr, nce;
    /* the cost study: positions along y, timed blocks per position, queries per block */
    int cost_positions, cost_repeats, cost_queries;
} e1_setup;

/* the sample points: coarse 1-D, fine 1-D (half spacing), 2-D grid, then the probes */
typedef struct e1_points {
    int n1, nf, n2, total;
    double *x, *y;
} e1_points;

/* what one method produced */
typedef struct e1_result {
    double *fx, *fy;   /* force on the small sphere at every point (N) */
    int failed;        /* its run failed: its values are withheld */
    char warning[256]; /* the first warning its simulations raised */
} e1_result;

/* the driver's state from setup to the end */
typedef struct e1_state {
    e1_setup e;
    tc_scene sc;
    e1_points p;
    const tc_exp *x;
    e1_result *res; /* one per method */
    double *force;  /* the results' forces, in one block */
    int nblock;
    char (*warn)[256]; /* per work item: the first warning of its simulation */
} e1_state;

/* the probes: around the gap, around the centre, 1 cm deep, and 1 cm deep again with a query
 * simulation of twice the step (PROBE_D1_DT2, the last point of all): a force law gives the same
 * force, a per-step impulse over dt does not */
enum {
    PROBE_GAP_M,
    PROBE_GAP,
    PROBE_GAP_P,
    PROBE_C_M,
    PROBE_C,
    PROBE_C_P,
    PROBE_D1,
    PROBE_D1_DT2,
    NPROBE
};
static const double probe_h = 1e-4; /* m: finite-difference step of the probes */

/* the settings' tables (m, kg/m^3, samples); the windows' half-width is optional (2 cm) */
static const tc_field scene_rows[] = {TC_FIELD_R(e1_setup, R, "big_radius", 1e-6, 1e3),
                                      TC_FIELD_R(e1_setup, r, "small_radius", 1e-6, 1e3),
                                      TC_FIELD_R(e1_setup, density, "density", 1e-6, 1e6),
                                      TC_FIELD_R(e1_setup, friction, "friction", 0, 10),
                                      TC_FIELD_END};
static const tc_field sweep_rows[] = {
    TC_FIELD_R(e1_setup, range, "range", 1e-6, 1e3),
    TC_FIELD_R(e1_setup, gap, "gap", 1e-6, 1e3),
    {"window", TC_FIELD_REAL, offsetof(e1_setup, window), 1e-6, 1e3, 0, 0, 1},
    TC_FIELD_END};
static const tc_field top_rows[] = {TC_FIELD_I(e1_setup, n1d, "n1d", 5, 1000001),
                                    TC_FIELD_I(e1_setup, n2d, "n2d", 3, 2001), TC_FIELD_END};
static const tc_field centre_rows[] = {TC_FIELD_S(e1_setup, centre_method, "method"),
                                       TC_FIELD_RS(e1_setup, centre_r, ncr, "radii", 1e-6, 1e3),
                                       TC_FIELD_RS(e1_setup, centre_eps2, nce, "eps2", 1e-9, 1e3),
                                       TC_FIELD_END};
static const tc_field cost_rows[] = {TC_FIELD_I(e1_setup, cost_positions, "positions", 2, 1000),
                                     TC_FIELD_I(e1_setup, cost_repeats, "repeats", 1, 1000),
                                     TC_FIELD_I(e1_setup, cost_queries, "queries", 1, 100000),
                                     TC_FIELD_END};

static tc_status read_setup(const tc_script *s, e1_setup *e, tc_error *err) {
    tc_status st;
    e->window = 0.02;
    /* the centre study and the cost study are optional groups (none without them) */
    if ((st = tc_script_read(s, "scene", scene_rows, e, err)) ||
        (st = tc_script_read(s, "sweep", sweep_rows, e, err)) ||
        (st = tc_script_read(s, NULL, top_rows, e, err)) ||
        (tc_script_lookup(s, NULL, "centre") &&
         (st = tc_script_read(s, "centre", centre_rows, e, err))) ||
        (tc_script_lookup(s, NULL, "cost") && (st = tc_script_read(s, "cost", cost_rows, e, err))))
        return st;
    if (e->n1d % 2 == 0)
        return tc_script_fail_at(s, "n1d", err, "must be odd so y = 0 is sampled (got %d)", e->n1d);
    if (e->r >= e->R)
        return tc_script_fail(s, tc_script_lookup(s, NULL, "scene.small_radius"), "small_radius",
                              err, "must be below big_radius");
    for (int i = 0; i < e->ncr; i++)
        if (e->centre_r[i] >= e->R)
            return tc_script_fail(s, tc_script_lookup(s, NULL, "centre.radii"), "radii", err,
                                  "%g m is not below big_radius (%g m)", e->centre_r[i], e->R);
    return TC_OK;
}

static tc_status make_points(const e1_setup *e, e1_points *p) {
    p->n1 = e->n1d;
    p->nf = 2 * e->n1d - 1;
    p->n2 = e->n2d * e->n2d;
    p->total = p->n1 + p->nf + p->n2 + NPROBE;
    p->x = calloc((size_t)p->total, sizeof *p->x);
    p->y = calloc((size_t)p->total, sizeof *p->y);
    if (!p->x || !p->y) return TC_ENOMEM;
    int k = 0;
    for (int i = 0; i < p->n1; i++)
        p->y[k++] = -e->range + 2 * e->range * i / (p->n1 - 1);
    for (int i = 0; i < p->nf; i++)
        p->y[k++] = -e->range + 2 * e->range * i / (p->nf - 1);
    for (int i = 0; i < e->n2d; i++)
        for (int j = 0; j < e->n2d; j++, k++) {
            p->x[k] = -e->range + 2 * e->range * i / (e->n2d - 1);
            p->y[k] = -e->range + 2 * e->range * j / (e->n2d - 1);
        }
    /* probes: outside contact by `gap`, at the centre, and at 1 cm depth */
    double yg = e->R + e->r + e->gap, yc = 0;
    double probes[NPROBE] = {yg - probe_h, yg,           yg + probe_h,       yc - probe_h,
                             yc,           yc + probe_h, e->R + e->r - 0.01, e->R + e->r - 0.01};
    for (int i = 0; i < NPROBE; i++)
        p->y[k++] = probes[i];
    return TC_OK;
}

/* the block of points of work item `item`: from *first up to (not including) the value returned */
static int block(const e1_state *s, int item, int *first) {
    *first = item % s->nblock * BLOCK;
    return *first + BLOCK <= s->p.total ? *first + BLOCK : s->p.total;
}

/* one work item: a block of points for one method, with its own simulation (the runner stops
 * the sweep between two items after an interrupt) */
static void e1_item(void *ctx, int item, tc_item *it) {
    e1_state *s = ctx;
    const e1_points *p = &s->p;
    const tc_method *m = tc_exp_method(s->x, item / s->nblock);
    e1_result *res = &s->res[item / s->nblock];
    int first, end = block(s, item, &first);
    tc_sim *sim = NULL, *sim2 = NULL;
    tc_wrench w[2];
    tc_error err;
    tc_error_clear(&err);
    /* the last probe (the last point): the same query from a simulation of twice the step */
    tc_status st = tc_sim_alloc(&sim, &s->sc, m, QUERY_DT, &err);
    if (!st && end == p->total) st = tc_sim_alloc(&sim2, &s->sc, m, 2 * QUERY_DT, &err);
    for (int i = first; i < end && !st; i++) {
        tc_sim *q = i == p->total - NPROBE + PROBE_D1_DT2 ? sim2 : sim;
        const double pos[3] = {p->x[i], p->y[i], 0};
        tc_sim_set_position(q, 1, pos);
        st = tc_sim_force(q, tc_sim_q(q), NULL, w);
        if (!st && !(isfinite(w[1].f[0]) && isfinite(w[1].f[1])))
            st = tc_error_set(&err, TC_EDIVERGED, NULL, 0, NULL, "non-finite force at (%g, %g)",
                              p->x[i], p->y[i]);
        res->fx[i] = w[1].f[0];
        res->fy[i] = w[1].f[1];
        it->steps++;
    }
    char warn[512] = "";
    if (sim && tc_sim_warnings(sim, warn, sizeof warn) > 0)
        snprintf(s->warn[item], sizeof s->warn[item], "%s", strtok(warn, "\n"));
    tc_sim_free(sim);
    tc_sim_free(sim2);
    if (st) {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s", err.msg[0] ? err.msg : tc_status_str(st));
    }
}

/* what one work item writes, for a sweep split over MPI ranks: its block of both force
 * components and its warning */
static int e1_regions(void *ctx, int item, tc_region *r) {
    e1_state *s = ctx;
    const e1_result *res = &s->res[item / s->nblock];
    int first, end = block(s, item, &first);
    r[0] = (tc_region){res->fx + first, (size_t)(end - first) * sizeof(double)};
    r[1] = (tc_region){res->fy + first, (size_t)(end - first) * sizeof(double)};
    r[2] = (tc_region){s->warn[item], sizeof s->warn[item]};
    return 3;
}

/* the jump ratio of order k of a method's profile in a window (tc_jump_ratio) */
static double jump_ratio(const e1_points *p, const double *fy, double h, int order, double lo,
                         double hi) {
    return tc_jump_ratio(p->y, fy, p->n1, p->y + p->n1, fy + p->n1, p->nf, h, order, lo, hi);
}

/* per-method smoothness numbers */
typedef struct e1_metrics {
    double fmax, f1cm, fgap, slope_gap, fcentre, slope_centre, ms_per_query;
    double ratio0, ratio1, ratio2;           /* F, dF/dy, d2F/dy2 over the whole profile */
    double onset0, onset1, centre0, centre1; /* F and dF/dy near first touch and the centre */
    double y_jump; /* |y| (m) of the largest change of F between fine samples */
    double dt_exp; /* log2 of F at 1 cm with step dt over F with 2 dt: 0 for a force law,
                    * 2 for a position correction impulse over dt */
    const char *what, *smooth, *there, *centre, *status; /* the tables' words */
} e1_metrics;

/* a force query that is a step's impulse over dt rather than a force law: its force at 1 cm
 * depth moves with the query step (ODE's and Bullet's position correction: m erp depth / dt^2) */
static int impulse_over_dt(const e1_metrics *m) {
    return fabs(m->dt_exp) > 0.5;
}

/* what happens at concentric centres: a force jump (in the centre window), or an equilibrium
 * and its stability (|F(0)| below 1e-3 max |F|: the AOPC samplings are not exactly symmetric) */
static const char *centre_kind(const e1_metrics *m) {
    if (isnan(m->centre0)) return m->fcentre == 0 ? "no force" : "flat";
    if (m->centre0 < 1.5) return "force jumps";
    if (fabs(m->fcentre) > 1e-3 * m->fmax) return "no equilibrium";
    return m->slope_centre > 0 ? "unstable eq." : "stable eq.";
}

/* how smooth the whole profile is at the sampled resolution: the highest k with every jump
 * ratio up to order k + 1 above 1.5 */
static const char *smoothness(const e1_metrics *m) {
    if (!(m->ratio0 > 1.5)) return "jumps";
    if (!(m->ratio1 > 1.5)) return "C0";
    if (!(m->ratio2 > 1.5)) return "C1";
    return "C2";
}

/* where the largest change of F is: at the centre, at first touch, or elsewhere */
static const char *jump_where(const e1_setup *e, const e1_metrics *m) {
    if (m->y_jump <= e->window) return "centre";
    if (fabs(m->y_jump - (e->R + e->r)) <= e->window) return "first touch";
    return "inside";
}

static e1_metrics measure(const e1_setup *e, const e1_points *p, const e1_result *r,
                          double seconds) {
    e1_metrics m;
    const double *fy = r->fy, *ff = r->fy + p->n1, *pr = r->fy + p->n1 + p->nf + p->n2;
    const double h = 2 * e->range / (p->n1 - 1), touch = e->R + e->r, w = e->window;
    m.fmax = 0;
    for (int i = 0; i < p->nf; i++)
        m.fmax = fmax(m.fmax, fabs(ff[i]));
    /* a continuous profile halves its largest jump when h halves (ratio 2); a jump keeps it (1) */
    m.ratio0 = jump_ratio(p, fy, h, 1, 0, INFINITY);
    m.ratio1 = jump_ratio(p, fy, h, 2, 0, INFINITY);
    m.ratio2 = jump_ratio(p, fy, h, 3, 0, INFINITY);
    m.onset0 = jump_ratio(p, fy, h, 1, touch - w, touch + w);
    m.onset1 = jump_ratio(p, fy, h, 2, touch - w, touch + w);
    m.centre0 = jump_ratio(p, fy, h, 1, 0, w);
    m.centre1 = jump_ratio(p, fy, h, 2, 0, w);
    /* where the largest change of F between neighbouring fine samples is */
    double big = -1;
    m.y_jump = NAN;
    for (int i = 0; i + 1 < p->nf; i++)
        if (fabs(ff[i + 1] - ff[i]) > big) {
            big = fabs(ff[i + 1] - ff[i]);
            m.y_jump = fabs(0.5 * (p->y[p->n1 + i] + p->y[p->n1 + i + 1]));
        }
    m.f1cm = pr[PROBE_D1];
    m.dt_exp = pr[PROBE_D1] != 0 && pr[PROBE_D1_DT2] / pr[PROBE_D1] > 0
                   ? log2(pr[PROBE_D1] / pr[PROBE_D1_DT2])
                   : NAN;
    m.fgap = hypot(r->fx[p->total - NPROBE + PROBE_GAP], pr[PROBE_GAP]);
    m.slope_gap = (pr[PROBE_GAP_P] - pr[PROBE_GAP_M]) / (2 * probe_h);
    m.fcentre = pr[PROBE_C];
    m.slope_centre = (pr[PROBE_C_P] - pr[PROBE_C_M]) / (2 * probe_h);
    m.ms_per_query = 1e3 * seconds / p->total;
    /* the tables' words */
    m.what = impulse_over_dt(&m) ? "impulse / dt (per-step correction)" : "force law";
    m.smooth = smoothness(&m);
    m.there = jump_where(e, &m);
    m.centre = centre_kind(&m);
    m.status = r->warning[0] ? "ok (warnings)" : "ok";
    return m;
}

/* csv: the fine 1-D profile, one column per method */
static tc_status write_profile(const tc_exp *x, const e1_points *p, const e1_result *res,
                               tc_error *err) {
    const int nm = tc_exp_nmethod(x);
    tc_outfile o;
    tc_status st = tc_exp_open(x, "profile_1d.csv", &o, err);
    if (st) return st;
    fprintf(o.f, "y_m");
    for (int k = 0; k < nm; k++)
        fprintf(o.f, ",%s", tc_exp_label(x, k));
    fprintf(o.f, "\n");
    for (int i = 0; i < p->nf; i++) {
        fprintf(o.f, "%.9g", p->y[p->n1 + i]);
        for (int k = 0; k < nm; k++)
            if (res[k].failed)
                fprintf(o.f, ",nan");
            else
                fprintf(o.f, ",%.17g", res[k].fy[p->n1 + i]);
        fprintf(o.f, "\n");
    }
    return tc_outfile_commit(&o, err);
}

/* csv: the 2-D field of one method, blank line between rows for gnuplot */
static tc_status write_field(const tc_exp *x, const e1_setup *e, const e1_points *p,
                             const tc_exp_entry *em, const e1_result *r, tc_error *err) {
    char name[96];
    snprintf(name, sizeof name, "field_%s.csv", em->label);
    tc_outfile o;
    tc_status st = tc_exp_open(x, name, &o, err);
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

/* the metrics of one method */
static void add_metrics(tc_exp *x, const char *label, const e1_metrics *m) {
    /* tolerances separate noise from a regression */
    static const struct {
        const char *name, *unit, *doc;
        double tol_abs, tol_rel;
    } defs[] = {
        {"jump_ratio_F", "1", "largest |dF| ratio h -> h/2 (2: continuous, 1: jump)", 0.15, 0},
        {"jump_ratio_dF", "1", "largest |d2F|/h ratio h -> h/2 (2: C1, 1: corner)", 0.15, 0},
        {"jump_ratio_d2F", "1", "largest |d3F|/h^2 ratio h -> h/2 (2: C2, about 1: d2F/dy2 jumps)",
         0.15, 0},
        {"jump_ratio_F_onset", "1", "jump ratio of F within the window around first touch", 0.15,
         0},
        {"jump_ratio_dF_onset", "1", "jump ratio of dF/dy within the window around first touch",
         0.15, 0},
        {"jump_ratio_F_centre", "1", "jump ratio of F within the window around the centre", 0.15,
         0},
        {"jump_ratio_dF_centre", "1", "jump ratio of dF/dy within the window around the centre",
         0.15, 0},
        {"y_jump", "m", "|y| of the largest change of F between fine samples", 0.005, 0},
        {"dt_exponent", "1", "log2 F(dt) / F(2 dt) at 1 cm: 0 force law, 2 impulse over dt", 0.05,
         0},
        {"F_1cm", "N", "F_y at 1 cm penetration", 1e-6, 0.02},
        {"F_gap", "N", "|F| before touching (contact discovery)", 1e-9, 0.05},
        {"slope_centre", "N/m", "dF_y/dy at concentric centres", 1e-6, 0.05}};
    const double vals[] = {m->ratio0,  m->ratio1, m->ratio2, m->onset0, m->onset1, m->centre0,
                           m->centre1, m->y_jump, m->dt_exp, m->f1cm,   m->fgap,   m->slope_centre};
    for (size_t d = 0; d < sizeof vals / sizeof *vals; d++)
        /* a ratio of a profile flat in its window (no force there: Bullet at the centre) is none */
        if (isfinite(vals[d]))
            tc_exp_metric(x, label, vals[d], defs[d].unit, defs[d].tol_abs, defs[d].tol_rel, 0,
                          defs[d].doc, "%s.%s", label, defs[d].name);
}

/* a column of the tables: its heading and the member of e1_metrics it shows, a number or (word
 * 1) a word */
typedef struct e1_col {
    const char *head;
    size_t at;
    int word;
} e1_col;
#define E1_NUM(head, member)                                                                       \
    { (head), offsetof(e1_metrics, member), 0 }
#define E1_WORD(head, member)                                                                      \
    { (head), offsetof(e1_metrics, member), 1 }

/* the smoothness of the whole profile, then where it jumps */
static const e1_col smooth_cols[] = {E1_WORD("what F is", what),
                                     E1_NUM("max |F| (N)", fmax),
                                     E1_NUM("F at 1 cm (N)", f1cm),
                                     E1_NUM("jump ratio F", ratio0),
                                     E1_NUM("jump ratio dF/dy", ratio1),
                                     E1_NUM("jump ratio d2F/dy2", ratio2),
                                     E1_WORD("smooth", smooth),
                                     E1_NUM("|F| at gap (N)", fgap),
                                     E1_NUM("dF/dy at gap (N/m)", slope_gap),
                                     E1_NUM("ms/query", ms_per_query),
                                     E1_WORD("status", status)};
static const e1_col jump_cols[] = {E1_NUM("largest jump at |y| (m)", y_jump),
                                   E1_WORD("there", there),
                                   E1_NUM("ratio F, first touch", onset0),
                                   E1_NUM("ratio dF/dy, first touch", onset1),
                                   E1_NUM("ratio F, centre", centre0),
                                   E1_NUM("ratio dF/dy, centre", centre1),
                                   E1_NUM("dF/dy at centre (N/m)", slope_centre),
                                   E1_WORD("centre", centre)};
enum {
    NSMOOTH = sizeof smooth_cols / sizeof *smooth_cols,
    NJUMP = sizeof jump_cols / sizeof *jump_cols
};

/* one table, a row per method: a failed run's cells "-", its reason in the status column */
static tc_status put_table(tc_exp *x, const e1_result *res, const e1_metrics *mt, const e1_col *col,
                           int ncol, const char *base, const char *caption, tc_error *err) {
    const char *hdr[NSMOOTH + 1] = {"method"};
    for (int c = 0; c < ncol; c++)
        hdr[c + 1] = col[c].head;
    tc_table *t = tc_table_alloc(ncol + 1, hdr);
    if (!t) return TC_ENOMEM;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        char cell[NSMOOTH][80];
        const char *row[NSMOOTH + 1] = {tc_exp_label(x, k)};
        for (int c = 0; c < ncol; c++) {
            const char *v = (const char *)&mt[k] + col[c].at;
            const double d = col[c].word ? 0 : *(const double *)v;
            row[c + 1] = cell[c];
            if (res[k].failed && col[c].at == offsetof(e1_metrics, status))
                snprintf(cell[c], 80, "failed: %.50s", tc_exp_run_record(x, k)->reason);
            else if (res[k].failed)
                snprintf(cell[c], 80, "-");
            else if (col[c].word)
                snprintf(cell[c], 80, "%s", *(const char *const *)v);
            /* a number: 3 digits, "n/a" for NaN */
            else
                snprintf(cell[c], 80, isnan(d) ? "n/a" : "%.3g", d);
        }
        tc_table_add_row(t, row);
    }
    tc_status st = tc_exp_table(x, t, base, caption, err);
    tc_table_free(t);
    return st;
}

/* tables and metrics: smoothness of the whole profile, then where it jumps */
static tc_status write_table(tc_exp *x, const e1_setup *e, const e1_result *res,
                             const e1_metrics *mt, tc_error *err) {
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        if (!res[k].failed) add_metrics(x, tc_exp_label(x, k), &mt[k]);
    char caption[1500];
    snprintf(
        caption, sizeof caption,
        "Smoothness of the contact force on the small sphere along y (E1). Jump ratios compare the "
        "largest sample-to-sample change of F, of dF/dy and of d2F/dy2 (first, second and third "
        "differences) at spacing h = %.3g mm and h/2: 2 means continuous, about 1 means a jump "
        "(F), a corner (dF/dy) or a jump of the curvature (d2F/dy2), 0.5 and 0.25 a jump one or "
        "two orders lower; smooth: the highest order whose ratios are all above 1.5 (C2: twice "
        "differentiable at this resolution). What F is: a force law, or a per-step correction "
        "impulse over the query step dt (its force at 1 cm depth moves with dt as dt^-%s: ODE's "
        "and Bullet's force queries take one step and report the constraint impulse over dt, so "
        "their numbers are not forces of a contact law and read zero where the engine corrects "
        "by position alone). Gap: %g mm before the spheres touch (a force there is contact "
        "discovery). ms/query: wall time of one force query.",
        1e3 * 2 * e->range / (e->n1d - 1), "2", 1e3 * e->gap);
    tc_status st = put_table(x, res, mt, smooth_cols, NSMOOTH, "smoothness", caption, err);
    snprintf(
        caption, sizeof caption,
        "Where the profile jumps (E1): the |y| of the largest change of F between fine samples, "
        "and the jump ratios of F and dF/dy inside windows of ±%g mm around first touch "
        "(|y| = %g m) and around the concentric centre (y = 0). A point contact (MuJoCo, "
        "Hunt-Crossley, the engines) is continuous at first touch (ratio 2) with a corner "
        "(ratio 1 for dF/dy), and jumps at the centre, where the line of centres, its normal, "
        "flips.",
        1e3 * e->window, e->R + e->r);
    if (!st) st = put_table(x, res, mt, jump_cols, NJUMP, "jumps", caption, err);
    return st;
}

/* the profile panel's |F_y| range: the largest peak among the methods whose peak is at most
   CLIP_FACTOR times the median peak; a method beyond (an engine's position-correction spring of
   thousands of newtons) is clipped and named in `clipped` so its spike does not flatten the rest */
#define CLIP_FACTOR 3.0
static double profile_range(const tc_exp *x, const e1_points *p, const e1_result *res,
                            char *clipped, size_t cap) {
    double top = 0, *peak = calloc(2 * (size_t)tc_exp_nmethod(x) + 1, sizeof *peak);
    double *sorted = peak + tc_exp_nmethod(x);
    int n = 0;
    clipped[0] = 0;
    if (!peak) return 0;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        peak[k] = NAN;
        if (res[k].failed) continue;
        peak[k] = 0;
        for (int i = 0; i < p->nf; i++)
            peak[k] = fmax(peak[k], fabs(res[k].fy[p->n1 + i]));
        sorted[n++] = peak[k];
    }
    if (n == 0) {
        free(peak);
        return 0;
    }
    const double median = gsl_stats_median(sorted, 1, (size_t)n);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        if (isnan(peak[k])) continue;
        if (peak[k] <= CLIP_FACTOR * median)
            top = fmax(top, peak[k]);
        else
            tc_words_add(clipped, cap, ", ", "%s %.4g N", tc_exp_label(x, k), peak[k]);
    }
    free(peak);
    return top;
}

/* figures: every profile overlaid, one field per method */
static void write_figures(tc_exp *x, const e1_setup *e, const e1_points *p, const e1_result *res,
                          const e1_metrics *mt) {
    char data[1200], ncol[16], R[32], r[32], ymax[32], clipped[512], cbmax[32], dir[1200];
    /* the methods in column order (for their styles), those that ran (the fields' panels), those
     * whose "force" is a step's impulse over dt (marked so in every figure), and the fields' one
     * colour scale, up to the largest |F| of any method */
    char labels[2048] = "", fields[2048] = "", impulse[2048] = " ";
    double fbig = 1e-3;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const char *label = tc_exp_label(x, k);
        tc_words_add(labels, sizeof labels, " ", "%s", label);
        if (res[k].failed) continue;
        tc_words_add(fields, sizeof fields, " ", "%s", label);
        if (impulse_over_dt(&mt[k])) tc_words_add(impulse, sizeof impulse, "", "%s ", label);
        for (int i = 0; i < p->total; i++)
            fbig = fmax(fbig, hypot(res[k].fx[i], res[k].fy[i]));
    }
    snprintf(ncol, sizeof ncol, "%d", tc_exp_nmethod(x) + 1);
    snprintf(R, sizeof R, "%g", e->R);
    snprintf(r, sizeof r, "%g", e->R + e->r);
    tc_exp_path(x, "profile_1d.csv", data, sizeof data);
    snprintf(ymax, sizeof ymax, "%.6g", profile_range(x, p, res, clipped, sizeof clipped));
    tc_plot_var v[] = {{"datafile", data},  {"ncols", ncol}, {"touch", r},
                       {"labels", labels},  {"ymax", ymax},  {"clipped", clipped},
                       {"impulse", impulse}};
    /* the methods that joined on their own (not the paper's, which the script lists) are drawn
     * in grey behind the paper's: tc_exp_figure passes them as joined */
    tc_exp_figure(x, "e1_profile.gp", v, 7, "fig_profile",
                  "F_y along y: the paper's methods (the script's) in colour, the methods that "
                  "joined on their own in grey; a method marked (impulse/dt) reports a step's "
                  "constraint impulse over the query step, not a force law (its 'force' at 1 cm "
                  "depth scales as dt^-2: the smoothness table).");
    /* the fields: one grid of panels on one colour scale */
    snprintf(cbmax, sizeof cbmax, "%.6g", ceil(log10(fbig) * 10) / 10);
    tc_exp_path(x, "", dir, sizeof dir);
    if (fields[0]) {
        tc_plot_var f[] = {{"dir", dir}, {"labels", fields}, {"bigr", R},
                           {"touch", r}, {"cbmax", cbmax},   {"impulse", impulse}};
        tc_exp_figure(x, "e1_fields.gp", f, 6, "fig_fields",
                      "Force fields of every method on one colour scale: |F| (colour, log scale "
                      "from 1e-3 N) and direction (arrows); a panel marked (impulse/dt) shows a "
                      "step's constraint impulse over the query step, not a force law.");
    }
}

/* ---------- E1.4: the concentric centre over small radii and separation widths ---------- */

double e1_centre_eps2_crit(double R, double r) {
    return 2 * R > 3 * r ? (R - r) * r / (2 * R - 3 * r) : INFINITY;
}

/* one configuration of the centre study: F_y (N) at y = -h, 0, +h of the small sphere's centre */
static tc_status centre_forces(const e1_setup *e, const tc_method *m0, double r, double eps2,
                               double f[3], int *np, tc_error *err) {
    tc_scene sc;
    tc_method m = *m0;
    tc_status st = tc_scene_sphere_pair(&sc, e->R, r, e->R + r + e->gap, e->density, err);
    /* the small sphere's cloud as E1's (spacing scaled with its radius), the big one finer */
    double h = tc_params_find(&m.mparams, "spacing") >= 0
                   ? tc_params_get(&m.mparams, "spacing") * r / e->r
                   : 0;
    if (!st && h > 0) st = tc_params_set(&m.mparams, "spacing", h, err);
    if (!st) st = tc_method_set(&m, "eps2", eps2, err);
    np[0] = np[1] = 0;
    if (!st && h > 0) {
        tc_aopc c;
        for (int b = 0; b < 2 && !st; b++) {
            tc_shape shp = tc_sphere(b ? r : e->R);
            if ((st = tc_aopc_alloc(&c, &shp, h, err))) break;
            np[b] = c.n;
            tc_aopc_free(&c);
        }
    }
    tc_sim *sim = NULL;
    if (!st) st = tc_sim_alloc(&sim, &sc, &m, QUERY_DT, err);
    for (int i = 0; i < 3 && !st; i++) {
        const double pos[3] = {0, (i - 1) * probe_h, 0};
        tc_wrench w[2];
        tc_sim_set_position(sim, 1, pos);
        if (!(st = tc_sim_force(sim, tc_sim_q(sim), NULL, w))) f[i] = w[1].f[1];
    }
    tc_sim_free(sim);
    return st;
}

/* one configuration of the centre study: F_y (N) at y = -h, 0, +h, dF_y/dy (N/m), and the
 * points of the big and the small cloud */
typedef struct e1_centre {
    double f[3], slope;
    int np[2];
} e1_centre;

/* centre.csv: one line per small radius and separation width */
static tc_status centre_csv(const tc_exp *x, const e1_setup *e, const char *label,
                            e1_centre (*c)[MAXSTUDY], tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "centre.csv", &o, err);
    if (st) return st;
    fprintf(o.f,
            "# %s at concentric centres: big radius %g m; F_y (N) at y = -h, 0, h (h = %g m)\n",
            label, e->R, probe_h);
    fprintf(o.f, "small_radius_m,eps2_m,small_points,big_points,f_minus_N,f_centre_N,f_plus_N,"
                 "slope_N_per_m,eps2_crit_m\n");
    for (int i = 0; i < e->ncr; i++)
        for (int j = 0; j < e->nce; j++) {
            const e1_centre *q = &c[i][j];
            fprintf(o.f, "%g,%g,%d,%d,%.17g,%.17g,%.17g,%.17g,%.9g\n", e->centre_r[i],
                    e->centre_eps2[j], q->np[1], q->np[0], q->f[0], q->f[1], q->f[2], q->slope,
                    e1_centre_eps2_crit(e->R, e->centre_r[i]));
        }
    return tc_outfile_commit(&o, err);
}

/* the table: a row per small radius with its points and derived threshold, a column per width */
static tc_status centre_table(tc_exp *x, const e1_setup *e, const char *label,
                              e1_centre (*c)[MAXSTUDY], tc_error *err) {
    enum { NH = 3 + MAXSTUDY };
    const char *hdr[NH] = {"small radius (m)", "points (small / big)",
                           "unstable for eps2 > (m, derived)"};
    char head[MAXSTUDY][48], cell[NH][48];
    for (int j = 0; j < e->nce; j++) {
        snprintf(head[j], sizeof head[j], "eps2 = %g mm", 1e3 * e->centre_eps2[j]);
        hdr[3 + j] = head[j];
    }
    tc_table *t = tc_table_alloc(3 + e->nce, hdr);
    if (!t) return TC_ENOMEM;
    for (int i = 0; i < e->ncr; i++) {
        const double crit = e1_centre_eps2_crit(e->R, e->centre_r[i]);
        const char *row[NH];
        snprintf(cell[0], 48, "%g", e->centre_r[i]);
        snprintf(cell[1], 48, "%d / %d", c[i][e->nce - 1].np[1], c[i][e->nce - 1].np[0]);
        snprintf(cell[2], 48, isinf(crit) ? "never (R <= 1.5 r)" : "%.3g", crit);
        /* the sign decides: unstable when a displacement is pushed further */
        for (int j = 0; j < e->nce; j++)
            snprintf(cell[3 + j], 48, "%.3g (%s)", c[i][j].slope,
                     c[i][j].slope > 0 ? "unstable" : "stable");
        for (int j = 0; j < 3 + e->nce; j++)
            row[j] = cell[j];
        tc_table_add_row(t, row);
    }
    char caption[1200];
    snprintf(caption, sizeof caption,
             "E1.4, the concentric centre: dF_y/dy (N/m) of %s's force on a small sphere at the "
             "centre of the big one (radius %g m), for several small radii and separation widths "
             "eps2, its other parameters as in the script and its spacing scaled with the small "
             "radius (the small sphere keeps E1's point count). Positive: a displacement is pushed "
             "further, an unstable equilibrium (the paper's claim); negative: pushed back, "
             "stable. Derived: eq. 21-23 for continuous spheres (eps1 -> 0, the softplus linear) "
             "give an unstable centre when eps2 > (R - r) r / (2 R - 3 r).",
             label, e->R);
    tc_status st = tc_exp_table(x, t, "centre_study", caption, err);
    tc_table_free(t);
    return st;
}

/* the study: dF_y/dy at the centre for every small radius and eps2 of the script's `centre`
 * group, with the centre method's other parameters; one metric per configuration, centre.csv,
 * and a table beside the derived threshold */
static tc_status centre_study(tc_exp *x, const e1_setup *e, tc_error *err) {
    if (!e->ncr || !e->nce) return TC_OK;
    const int k = tc_exp_method_find(x, e->centre_method);
    if (k < 0) {
        tc_exp_text(x, "The centre study's method `%s` did not run: no centre study.",
                    e->centre_method);
        return TC_OK;
    }
    const char *label = tc_exp_label(x, k);
    e1_centre c[MAXSTUDY][MAXSTUDY];
    tc_status st = TC_OK;
    for (int i = 0; i < e->ncr && !st; i++)
        for (int j = 0; j < e->nce && !st; j++) {
            /* an interrupt stops the study between two configurations */
            if (tc_interrupted()) return tc_error_set(err, TC_EINTR, NULL, 0, NULL, "interrupted");
            e1_centre *q = &c[i][j];
            const double r = e->centre_r[i];
            if ((st =
                     centre_forces(e, tc_exp_method(x, k), r, e->centre_eps2[j], q->f, q->np, err)))
                break;
            q->slope = (q->f[2] - q->f[0]) / (2 * probe_h);
            tc_exp_metric(x, label, q->slope, "N/m", 1e-6, 0.05, 0,
                          "dF_y/dy at concentric centres (centre study)",
                          "%s.centre_slope.r%g.eps2_%g", label, r, e->centre_eps2[j]);
        }
    if (!st) st = centre_csv(x, e, label, c, err);
    if (!st) st = centre_table(x, e, label, c, err);
    return st;
}

/* ---------- the cost of a force query against the points in contact ---------- */

/* the clouds' points in contact with the small sphere's centre at (0, y, 0): the small sphere's
 * points inside the big one and the big one's inside the small one (the support of SCM's
 * separation distribution where the surfaces cross) */
static int points_in_contact(const e1_setup *e, const tc_aopc *big, const tc_aopc *small,
                             double y) {
    int n = 0;
    for (int i = 0; i < small->n; i++)
        n += hypot(hypot(small->px[i], small->py[i] + y), small->pz[i]) < e->R;
    for (int i = 0; i < big->n; i++)
        n += hypot(hypot(big->px[i], big->py[i] - y), big->pz[i]) < e->r;
    return n;
}

/* one method's cost study: its force query timed at positions from `gap` outside first touch to
 * the centre, this thread's CPU time per query over a block of `queries` queries; the blocks
 * go round the positions `repeats` times (so a slow spell of the machine falls on every
 * position alike, not on one), and time[j] (s) is the median of position j's blocks. Called on
 * one thread, so a kernel that could take more threads takes one and the thread's CPU time is
 * the whole cost. blocks holds np x repeats values */
static tc_status cost_one(const e1_setup *e, const tc_scene *sc, const tc_method *m,
                          const double *y, int np, double *blocks, double *time, tc_error *err) {
    const int nr = e->cost_repeats;
    tc_sim *sim = NULL;
    tc_wrench w[2];
    tc_status st = tc_sim_alloc(&sim, sc, m, QUERY_DT, err);
    /* one untimed query at every position first (caches, one-pass switches) */
    for (int j = 0; j < np && !st; j++) {
        const double pos[3] = {0, y[j], 0};
        tc_sim_set_position(sim, 1, pos);
        st = tc_sim_force(sim, tc_sim_q(sim), NULL, w);
    }
    for (int b = 0; b < nr && !st; b++)
        for (int j = 0; j < np && !st; j++) {
            if (tc_interrupted()) {
                st = tc_error_set(err, TC_EINTR, NULL, 0, NULL, "interrupted");
                break;
            }
            const double pos[3] = {0, y[j], 0};
            tc_sim_set_position(sim, 1, pos);
            double t0 = tc_thread_cpu_time();
            for (int q = 0; q < e->cost_queries && !st; q++)
                st = tc_sim_force(sim, tc_sim_q(sim), NULL, w);
            blocks[j * nr + b] = (tc_thread_cpu_time() - t0) / e->cost_queries;
        }
    for (int j = 0; j < np; j++)
        time[j] = st ? NAN : gsl_stats_median(blocks + j * nr, 1, (size_t)nr);
    tc_sim_free(sim);
    return st;
}

double e1_cost_ratio(const int *n, const double *t, int np, double *nratio) {
    double s1 = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    int lo = -1, hi = -1;
    for (int j = 0; j < np; j++) {
        if (n[j] <= 0 || !isfinite(t[j])) continue;
        if (lo < 0 || n[j] < n[lo]) lo = j;
        if (hi < 0 || n[j] > n[hi]) hi = j;
        s1 += 1;
        sx += n[j];
        sy += t[j];
        sxx += (double)n[j] * n[j];
        sxy += n[j] * t[j];
    }
    double den = s1 * sxx - sx * sx;
    *nratio = lo >= 0 ? (double)n[hi] / n[lo] : NAN;
    if (lo < 0 || !(den > 0)) return NAN;
    const double b = (s1 * sxy - sx * sy) / den, a = (sy - b * sx) / s1;
    return (a + b * n[hi]) / (a + b * n[lo]);
}

/* the cost study's state: the positions y (m) and their points in contact n, the timings
 * (s per query; blocks: np x repeats), cost.csv, and the figure's methods and variants */
typedef struct e1_cost {
    int np, *n;
    double *y, *time, *blocks;
    FILE *f;
    char labels[2048], variants[2048];
} e1_cost;

/* the clouds' points in contact at every position, for a method of spacing h (m) */
static tc_status contact_counts(const e1_setup *e, double h, e1_cost *c, tc_error *err) {
    tc_aopc big = {0}, small = {0};
    tc_shape sb = tc_sphere(e->R), ss = tc_sphere(e->r);
    tc_status st = tc_aopc_alloc(&big, &sb, h, err);
    if (!st) st = tc_aopc_alloc(&small, &ss, h, err);
    for (int j = 0; j < c->np && !st; j++)
        c->n[j] = points_in_contact(e, &big, &small, c->y[j]);
    tc_aopc_free(&big);
    tc_aopc_free(&small);
    return st;
}

/* one point-cloud method: as it ran and, where it prunes, with every pair evaluated (prune = 0,
 * the paper's formulation); a block of cost.csv and its metrics per variant */
static tc_status cost_method(tc_exp *x, const e1_state *s, int k, e1_cost *c, tc_error *err) {
    const tc_method *m0 = tc_exp_method(x, k);
    const char *label = tc_exp_label(x, k);
    tc_status st = contact_counts(&s->e, tc_params_get(&m0->mparams, "spacing"), c, err);
    const int prunes =
        tc_params_find(&m0->mparams, "prune") >= 0 && tc_params_get(&m0->mparams, "prune") != 0;
    for (int v = 0; v < 1 + prunes && !st; v++) {
        tc_method m = *m0;
        if (v) st = tc_params_set(&m.mparams, "prune", 0, err);
        if (!st) st = cost_one(&s->e, &s->sc, &m, c->y, c->np, c->blocks, c->time, err);
        if (st) break;
        const char *variant = v ? "all-pairs" : "as-run";
        for (int j = 0; j < c->np; j++)
            fprintf(c->f, "%s,%s,%.9g,%d,%.6e\n", label, variant, c->y[j], c->n[j],
                    1e3 * c->time[j]);
        fprintf(c->f, "\n\n");
        tc_words_add(c->labels, sizeof c->labels, " ", "%s", label);
        tc_words_add(c->variants, sizeof c->variants, " ", "%s", variant);
        double nratio, ratio = e1_cost_ratio(c->n, c->time, c->np, &nratio);
        tc_exp_metric(x, label, ratio, "1", 0, 0.5, TC_METRIC_TIMING,
                      v ? "query CPU time, most over fewest points in contact, every pair "
                          "evaluated (prune = 0)"
                        : "query CPU time, most over fewest points in contact, as run",
                      "%s.query_cost_contacts%s", label, v ? "_allpairs" : "");
        if (v) continue;
        tc_exp_metric(x, label, nratio, "1", 0, 1e-9, 0,
                      "most over fewest points in contact in the cost study (a cost "
                      "proportional to them gives this ratio)",
                      "%s.contacts_ratio", label);
    }
    return st;
}

/* the study: every point-cloud method (one with a `spacing`) that ran, timed as cost_method;
 * cost.csv, a figure, metrics flagged as timings. On the writing process only (a timing goes
 * into files and the report) */
static tc_status cost_study(tc_exp *x, const e1_state *s, tc_error *err) {
    const e1_setup *e = &s->e;
    e1_cost c = {.np = e->cost_positions};
    c.y = calloc((size_t)c.np * (2 + (size_t)e->cost_repeats) + 1, sizeof *c.y);
    c.n = calloc((size_t)c.np + 1, sizeof *c.n);
    char path[1200];
    tc_outfile o;
    tc_exp_path(x, "cost.csv", path, sizeof path);
    tc_status st = !c.y || !c.n ? TC_ENOMEM : tc_outfile_open(&o, path, err);
    if (st) {
        free(c.y);
        free(c.n);
        return st;
    }
    c.time = c.y + c.np;
    c.blocks = c.y + 2 * c.np;
    c.f = o.f;
    for (int j = 0; j < c.np; j++)
        c.y[j] = (e->R + e->r + e->gap) * (1 - (double)j / (c.np - 1));
    /* the header first, its timing column named as timings are (_ms), so comparisons of
     * results across runs leave it out */
    fprintf(o.f, "# label,variant,y_m,contact_points,query_ms\n");
    fprintf(o.f,
            "# one block per timed method and variant; the small sphere's centre at y, the "
            "clouds' points in contact, CPU time per force query in ms (median of %d blocks of "
            "%d)\n",
            e->cost_repeats, e->cost_queries);
    for (int k = 0; k < tc_exp_nmethod(x) && !st; k++)
        if (!s->res[k].failed && tc_params_find(&tc_exp_method(x, k)->mparams, "spacing") >= 0)
            st = cost_method(x, s, k, &c, err);
    free(c.y);
    free(c.n);
    if (st) {
        tc_outfile_abort(&o);
        return st;
    }
    if ((st = tc_outfile_commit(&o, err)) || !c.labels[0]) return st;
    char machine[300], caption[1200];
    tc_machine_describe(machine, sizeof machine, 1);
    tc_plot_var v[] = {{"datafile", path}, {"labels", c.labels}, {"variants", c.variants}};
    snprintf(caption, sizeof caption,
             "CPU time of one force query against the clouds' points in contact (the small "
             "sphere's points inside the big one and the big one's inside the small one), from "
             "%g mm before first touch to the concentric centre, each the median of %d blocks of "
             "%d queries on one thread (%s): every point-cloud method as run and, where it prunes, "
             "with every pair evaluated (all-pairs, the paper's formulation).",
             1e3 * e->gap, e->cost_repeats, e->cost_queries, machine);
    tc_exp_figure(x, "e1_cost.gp", v, 3, "fig_cost", caption);
    return TC_OK;
}

/* the SSDF figure (Beker et al. fig. 1 left, fig. 4): a 0.2 m x 0.1 m 2-D box sampled every
 * 1 cm (60 points), its SSDF on a 161 x 121 grid (2 mm cells) over 0.32 m x 0.24 m, for
 * eps1 = rel h^2: the script's scm-sharp and scm-smooth eps1_rel (0.25, 4), then two blob-like
 * widths; fixed, not tiered: the grids cost about 0.1 s */
enum { SSDF_NX = 161, SSDF_NY = 121, SSDF_NEPS = 4 };
static const double ssdf_half[2] = {0.1, 0.05}; /* m: the box's half sides */
static const double ssdf_h = 0.01;              /* m: point spacing */
static const double ssdf_lo[2] = {-0.16, -0.12}, ssdf_hi[2] = {0.16, 0.12}; /* m: grid extent */
static const double ssdf_rel[SSDF_NEPS] = {0.25, 4.0, 25.0, 100.0};         /* eps1 / h^2 */

/* ssdf_box.dat: the cloud (x, y, nx, ny), then one block per eps1 (x, y, phi; a blank line
 * between rows), blocks two blank lines apart (gnuplot's index 0, 1, ...) */
static tc_status write_ssdf_data(const tc_exp *x, const tc_aopc *c, const double *phi,
                                 const double *eps, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_exp_open(x, "ssdf_box.dat", &o, err);
    if (st) return st;
    fprintf(o.f, "# SSDF of a %g m x %g m 2-D box, %d points (spacing %g m)\n", 2 * ssdf_half[0],
            2 * ssdf_half[1], c->n, c->spacing);
    fprintf(o.f, "# index 0: x_m y_m nx ny\n");
    for (int i = 0; i < c->n; i++)
        fprintf(o.f, "%.9g %.9g %g %g\n", c->px[i], c->py[i], c->nx[i], c->ny[i]);
    for (int e = 0; e < SSDF_NEPS; e++) {
        fprintf(o.f, "\n\n# index %d: eps1 = %g m^2: x_m y_m phi_m\n", e + 1, eps[e]);
        const double *f = phi + (size_t)e * SSDF_NX * SSDF_NY;
        for (int j = 0; j < SSDF_NY; j++) {
            double y = ssdf_lo[1] + j * (ssdf_hi[1] - ssdf_lo[1]) / (SSDF_NY - 1);
            for (int i = 0; i < SSDF_NX; i++)
                fprintf(o.f, "%.9g %.9g %.9g\n",
                        ssdf_lo[0] + i * (ssdf_hi[0] - ssdf_lo[0]) / (SSDF_NX - 1), y,
                        f[j * SSDF_NX + i]);
            fprintf(o.f, "\n");
        }
    }
    return tc_outfile_commit(&o, err);
}

/* the SSDF of the 2-D box on the grid at every eps1, its data file, figure and paragraph */
static tc_status write_ssdf(tc_exp *x, tc_error *err) {
    /* all memory up front: the cloud and every grid */
    tc_aopc c;
    if (tc_aopc_box2d(&c, ssdf_half, ssdf_h)) return TC_ENOMEM;
    double *phi = malloc((size_t)SSDF_NEPS * SSDF_NX * SSDF_NY * sizeof *phi), eps[SSDF_NEPS];
    if (!phi) {
        tc_aopc_free(&c);
        return TC_ENOMEM;
    }
    double big = 0;
    for (int e = 0; e < SSDF_NEPS; e++) {
        eps[e] = ssdf_rel[e] * c.spacing * c.spacing;
        double *f = phi + (size_t)e * SSDF_NX * SSDF_NY;
        tc_ssdf_grid(&c, eps[e], ssdf_lo, ssdf_hi, SSDF_NX, SSDF_NY, f);
        for (int i = 0; i < SSDF_NX * SSDF_NY; i++)
            big = fmax(big, fabs(f[i]));
    }
    tc_status st = write_ssdf_data(x, &c, phi, eps, err);
    /* the template's variables and the caption */
    char dir[1200], rels[128] = "", epss[128] = "", relc[128] = "", epsc[128] = "", half[64];
    char cbmax[32], caption[1024];
    tc_exp_path(x, "", dir, sizeof dir);
    /* the widths as words for the template and as lists for the caption */
    for (int e = 0; e < SSDF_NEPS; e++) {
        tc_words_add(rels, sizeof rels, " ", "%g", ssdf_rel[e]);
        tc_words_add(epss, sizeof epss, " ", "%.3g", eps[e]);
        tc_words_add(relc, sizeof relc, ", ", "%g", ssdf_rel[e]);
        tc_words_add(epsc, sizeof epsc, ", ", "%.3g", eps[e]);
    }
    snprintf(half, sizeof half, "%g %g", ssdf_half[0], ssdf_half[1]);
    /* one symmetric colour range for every panel, the largest |phi| rounded up to the cm */
    snprintf(cbmax, sizeof cbmax, "%g", ceil(big * 100) / 100);
    snprintf(caption, sizeof caption,
             "SSDF φ of a %g m × %g m 2-D box sampled every h = %g m (%d points at segment "
             "centres, none on corners; normals as ticks) for ε1 = %s m² (%s h²; 0.25 h² and "
             "4 h² are the script's scm-sharp and scm-smooth eps1_rel): φ (m, blue inside, red "
             "outside, one scale), its zero contour (the smoothed surface, black) and the box "
             "(orange).",
             2 * ssdf_half[0], 2 * ssdf_half[1], c.spacing, c.n, epsc, relc);
    if (!st) {
        tc_exp_text(x,
                    "The SSDF itself (Beker et al. fig. 1 left and fig. 4): `fig_ssdf` draws it "
                    "for a 2-D box at four softmax widths ε1. At scm-sharp's width its zero "
                    "contour is the box, sharp corners included (within h/10, "
                    "`tests/geom/test_aopc.c`); at scm-smooth's it bulges a few mm out near the "
                    "corners, where the next edge's points pull φ down; wider softmaxes blend far "
                    "faces into a wavy, then convex blob around the box.");
        tc_plot_var v[] = {
            {"dir", dir}, {"rels", rels}, {"eps", epss}, {"half", half}, {"cbmax", cbmax}};
        tc_exp_figure(x, "e1_ssdf.gp", v, 5, "fig_ssdf", caption);
    }
    free(phi);
    tc_aopc_free(&c);
    return st;
}

static tc_status e1_setup_fn(tc_exp *x, void **state, tc_error *err) {
    e1_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    *state = s;
    const e1_setup *e = &s->e;
    tc_status st = read_setup(tc_exp_script(x), &s->e, err);
    /* fixed big sphere at the origin, free small sphere just outside contact */
    if (!st) st = tc_scene_sphere_pair(&s->sc, e->R, e->r, e->R + e->r + e->gap, e->density, err);
    s->sc.friction = e->friction;
    tc_exp_need(x, TC_CAP_FORCE_QUERY, TC_SHAPE_BIT(TC_SHAPE_SPHERE),
                "static force between spheres");
    if (!st && e->centre_method[0]) tc_exp_refer(x, "centre.method", e->centre_method);
    return st;
}

/* the sweep's work: every point for every method; SCM's cost grows with its point pairs */
static void e1_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e1_setup *e = &((const e1_state *)state)->e;
    const double total = e->n1d + (2.0 * e->n1d - 1) + (double)e->n2d * e->n2d + NPROBE;
    w->bytes = 16 * total * (tc_exp_nmethod(x) + 1);
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        const tc_method *m = tc_exp_method(x, k);
        double pb = tc_work_points(m, 4 * M_PI * e->R * e->R),
               ps = tc_work_points(m, 4 * M_PI * e->r * e->r);
        const double f = tc_method_work_factor(m); /* its iteration caps over their defaults */
        const double query = (TC_WORK_STEP_S + TC_WORK_PAIR_S * pb * ps) * f;
        w->steps += total;
        w->seconds += total * query;
        w->bytes += 48 * (pb + ps) * (tc_exp_threads(x) + 1);
        /* the centre study: 3 queries per radius and width, the big cloud finer as r shrinks */
        if (!strcmp(tc_exp_label(x, k), e->centre_method))
            for (int i = 0; i < e->ncr; i++) {
                w->steps += 3.0 * e->nce;
                const double g = e->r / e->centre_r[i];
                w->seconds +=
                    3.0 * e->nce * (TC_WORK_STEP_S + TC_WORK_PAIR_S * pb * g * g * ps) * f;
                w->bytes += 48 * pb * g * g * (tc_exp_threads(x) + 1);
            }
        /* the cost study: a point-cloud method as run and with every pair, on one thread */
        if (e->cost_positions > 0 && tc_params_find(&m->mparams, "spacing") >= 0) {
            const double q = 2.0 * e->cost_positions * (e->cost_repeats * e->cost_queries + 1);
            w->steps += q;
            w->seconds += q * query * tc_exp_threads(x);
        }
    }
}

static void e1_free(void *state) {
    e1_state *s = state;
    free(s->res);
    free(s->force);
    free(s->p.x);
    free(s->p.y);
    free(s->warn);
    free(s);
}

/* the sweep: all memory up front, one run per method, its work items blocks of points */
static tc_status sweep(tc_exp *x, e1_state *s) {
    const int nm = tc_exp_nmethod(x);
    /* all memory up front: points and per-method results (both components at every point) */
    const e1_points *p = &s->p;
    s->res = calloc((size_t)nm + 1, sizeof *s->res);
    if (!s->res || make_points(&s->e, &s->p) ||
        !(s->force = calloc(2 * (size_t)nm * (size_t)p->total + 1, sizeof *s->force)))
        return TC_ENOMEM;
    for (int k = 0; k < nm; k++) {
        s->res[k].fx = s->force + 2 * (size_t)k * (size_t)p->total;
        s->res[k].fy = s->res[k].fx + p->total;
    }
    /* one run per method; its work items are blocks of points */
    s->nblock = (p->total + BLOCK - 1) / BLOCK;
    int nitem = nm * s->nblock, *item_run = calloc((size_t)nitem + 1, sizeof *item_run);
    s->warn = calloc((size_t)nitem + 1, sizeof *s->warn);
    if (!item_run || !s->warn) {
        free(item_run);
        return TC_ENOMEM;
    }
    for (int k = 0; k < nm; k++)
        tc_exp_add_run(x, k, NULL, -1, "%d static queries", p->total);
    for (int i = 0; i < nitem; i++)
        item_run[i] = i / s->nblock;
    tc_status st = tc_exp_sweep_split(x, nitem, item_run, NULL, e1_item, e1_regions, s);
    free(item_run);
    if (st) return st;
    /* a method's warning: the first of its items', in item order */
    for (int i = nitem - 1; i >= 0; i--)
        if (s->warn[i][0])
            snprintf(s->res[i / s->nblock].warning, sizeof s->res[0].warning, "%s", s->warn[i]);
    return TC_OK;
}

static tc_status e1_run(tc_exp *x, void *state, tc_error *err) {
    e1_state *s = state;
    const int nm = tc_exp_nmethod(x);
    const e1_points *p = &s->p;
    s->x = x;
    tc_status st = sweep(x, s);
    if (st) return st;
    /* metrics, data, tables, figures, report section */
    e1_metrics *mt = calloc((size_t)nm + 1, sizeof *mt);
    if (!mt) return TC_ENOMEM;
    for (int k = 0; k < nm; k++) {
        s->res[k].failed = tc_exp_run_record(x, k)->status != TC_OK;
        mt[k] = measure(&s->e, p, &s->res[k], tc_exp_run_record(x, k)->wall_s);
    }
    tc_exp_text(
        x,
        "A fixed sphere (radius %g m) and a free sphere (radius %g m) moved along y through "
        "it and over the x-y plane; the contact force on the small sphere at rest, tier `%s`.",
        s->e.R, s->e.r, tc_exp_tier(x));
    tc_exp_text(x, "Paper (Beker et al. 2025, fig. 5): MuJoCo's profile has discontinuities and "
                   "corners; SCM's is twice differentiable, non-zero before contact, with an "
                   "unstable equilibrium at concentric centres.");
    st = write_profile(x, p, s->res, err);
    for (int k = 0; k < nm && !st; k++)
        if (!s->res[k].failed)
            st = write_field(x, &s->e, p, tc_exp_entry_at(x, k), &s->res[k], err);
    if (!st) st = write_table(x, &s->e, s->res, mt, err);
    if (!st) write_figures(x, &s->e, p, s->res, mt);
    /* the scene: the big sphere fixed, the small one at the first sweep point */
    if (!st)
        tc_exp_scene_figure(x, &s->sc, "xy", "fig_scene",
                            "The scene: the big sphere (fixed, grey) and the small one, drawn "
                            "where the sweep starts; the sweep moves it along y through the big "
                            "one.");
    if (!st) st = write_ssdf(x, err);
    if (!st) st = centre_study(x, &s->e, err);
    /* the cost study on one thread: a kernel asks tc_par_threads, which is 1 in a parallel
     * region outside a sweep, so its whole cost is this thread's CPU time */
    if (!st && tc_exp_writer(x) && s->e.cost_positions > 0) {
#pragma omp parallel num_threads(1)
        st = cost_study(x, s, err);
    }
    for (int k = 0; k < nm && !st; k++)
        if (!s->res[k].failed && s->res[k].warning[0])
            tc_exp_text(x, "%s warned: %s", tc_exp_label(x, k), s->res[k].warning);
    free(mt);
    return st;
}

/* the result files digested per method (the reference check's determinism hashes) */
static const tc_results_file e1_results[] = {{"profile_1d.csv", TC_RESULTS_COLUMNS, NULL},
                                             {"field_*.csv", TC_RESULTS_FILES, NULL},
                                             {NULL, 0, NULL}};

const tc_experiment_type tc_experiment_e1 = {
    .name = "e1_sphere_profiles",
    .title = "sphere force profiles: 1-D sweep, 2-D field, smoothness (Beker et al. fig. 1, 5)",
    .heading = "Sphere force profiles (E1)",
    .paper = "Beker et al. 2025, fig. 1 and 5",
    .script = "e1/e1_sphere_profiles.cfg",
    .results = e1_results,
    .setup = e1_setup_fn,
    .run = e1_run,
    .free = e1_free,
    .estimate = e1_estimate,
};
