/* SPDX-License-Identifier: MIT */
/* E1: sphere force profiles — 1-D sweep, 2-D field, smoothness metrics (Beker et al. fig. 1, 5),
 * and the SSDF of a 2-D box at several smoothing levels (fig. 1 left, fig. 4) */
#include "exp/tc_experiment.h"
#include "geom/tc_aopc.h"
#include "scenes/tc_scenes.h"
#include "core/tc_fs.h"

#include <math.h>
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
    int nblock;
    char (*warn)[256]; /* per work item: the first warning of its simulation */
} e1_state;

enum { PROBE_GAP_M, PROBE_GAP, PROBE_GAP_P, PROBE_C_M, PROBE_C, PROBE_C_P, PROBE_D1, NPROBE };
static const double probe_h = 1e-4; /* m: finite-difference step of the probes */

static tc_status read_setup(const tc_script *s, e1_setup *e, tc_error *err) {
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
        return tc_error_set(err, TC_EINVAL, s->path,
                            (int)config_setting_source_line(tc_script_lookup(s, NULL, "n1d")), "n1d",
                            "must be odd so y = 0 is sampled (got %d)", e->n1d);
    if (e->r >= e->R)
        return tc_error_set(err, TC_EINVAL, s->path,
                            (int)config_setting_source_line(tc_script_lookup(s, sc, "small_radius")),
                            "small_radius", "must be below big_radius");
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

/* one work item: a block of points for one method, with its own simulation */
static void e1_item(void *ctx, int item, tc_item *it) {
    e1_state *s = ctx;
    const e1_points *p = &s->p;
    int k = item / s->nblock, first = item % s->nblock * BLOCK;
    int count = first + BLOCK <= p->total ? BLOCK : p->total - first;
    e1_result *res = &s->res[k];
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    tc_status st = tc_sim_alloc(&sim, &s->sc, &s->x->method[k].m, 0.002, &err);
    if (!st) {
        tc_wrench w[2];
        for (int i = first; i < first + count && !st; i++) {
            /* an interrupt stops the block between two queries */
            if (tc_interrupted()) {
                st = TC_EINTR;
                tc_error_set(&err, st, NULL, 0, NULL, "interrupted");
                break;
            }
            const double pos[3] = {p->x[i], p->y[i], 0};
            tc_sim_set_position(sim, 1, pos);
            st = tc_sim_force(sim, tc_sim_q(sim), NULL, w);
            if (!st && !(isfinite(w[1].f[0]) && isfinite(w[1].f[1]))) {
                st = TC_EDIVERGED;
                tc_error_set(&err, st, NULL, 0, NULL, "non-finite force at (%g, %g)", p->x[i], p->y[i]);
            }
            res->fx[i] = w[1].f[0], res->fy[i] = w[1].f[1];
            it->steps++;
        }
        char warn[512] = "";
        if (tc_sim_warnings(sim, warn, sizeof warn) > 0)
            snprintf(s->warn[item], sizeof s->warn[item], "%s", strtok(warn, "\n"));
    }
    tc_sim_free(sim);
    if (st) {
        it->status = st;
        snprintf(it->reason, sizeof it->reason, "%s", err.msg[0] ? err.msg : tc_status_str(st));
    }
}

/* what one work item writes, for a sweep split over MPI ranks: its block of both force
 * components and its warning */
static int e1_regions(void *ctx, int item, tc_region *r) {
    e1_state *s = ctx;
    int k = item / s->nblock, first = item % s->nblock * BLOCK;
    size_t count = (size_t)(first + BLOCK <= s->p.total ? BLOCK : s->p.total - first);
    r[0] = (tc_region){s->res[k].fx + first, count * sizeof(double)};
    r[1] = (tc_region){s->res[k].fy + first, count * sizeof(double)};
    r[2] = (tc_region){s->warn[item], sizeof s->warn[item]};
    return 3;
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

static e1_metrics measure(const e1_setup *e, const e1_points *p, const e1_result *r,
                          double seconds) {
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
    m.ms_per_query = 1e3 * seconds / p->total;
    return m;
}

/* csv: the fine 1-D profile, one column per method */
static tc_status write_profile(const tc_exp *x, const e1_points *p, const e1_result *res,
                               tc_error *err) {
    const tc_exp_method *em = x->method;
    const int nm = x->nmethod;
    char path[1200];
    tc_exp_path(x, "profile_1d.csv", path, sizeof path);
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
static tc_status write_field(const tc_exp *x, const e1_setup *e, const e1_points *p,
                             const tc_exp_method *em, const e1_result *r, tc_error *err) {
    char path[1200], name[96];
    snprintf(name, sizeof name, "field_%s.csv", em->label);
    tc_exp_path(x, name, path, sizeof path);
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

/* table and metrics */
static tc_status write_table(tc_exp *x, const e1_result *res, const e1_metrics *mt,
                             tc_error *err) {
    static const char *const hdr[] = {"method", "max |F| (N)", "F at 1 cm (N)", "jump ratio F",
                                      "jump ratio dF/dy", "C0", "C1", "|F| at gap (N)",
                                      "dF/dy at gap (N/m)", "dF/dy at centre (N/m)", "centre",
                                      "ms/query", "status"};
    tc_table *t = tc_table_alloc(13, hdr);
    if (!t) return TC_ENOMEM;
    for (int k = 0; k < x->nmethod; k++) {
        const e1_metrics *m = &mt[k];
        const char *label = x->method[k].label;
        char c[13][64];
        snprintf(c[0], 64, "%s", label);
        if (res[k].failed) {
            for (int i = 1; i < 12; i++) snprintf(c[i], 64, "-");
            snprintf(c[12], 64, "failed: %.50s", tc_exp_run_record(x, k)->reason);
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
        static const struct {
            const char *name, *unit, *doc;
            double tol_abs, tol_rel;
        } defs[] = {
            {"jump_ratio_F", "1", "largest |dF| ratio h -> h/2 (2: continuous, 1: jump)", 0.15, 0},
            {"jump_ratio_dF", "1", "largest |d2F|/h ratio h -> h/2 (2: C1, 1: corner)", 0.15, 0},
            {"F_1cm", "N", "F_y at 1 cm penetration", 1e-6, 0.02},
            {"F_gap", "N", "|F| before touching (contact discovery)", 1e-9, 0.05},
            {"slope_centre", "N/m", "dF_y/dy at concentric centres", 1e-6, 0.05}};
        const double vals[] = {m->ratio0, m->ratio1, m->f1cm, m->fgap, m->slope_centre};
        for (int d = 0; d < 5; d++) {
            char name[96];
            snprintf(name, sizeof name, "%s.%s", label, defs[d].name);
            tc_metrics_add(&x->metrics, label, name, vals[d], defs[d].unit, defs[d].tol_abs,
                           defs[d].tol_rel, 0, defs[d].doc);
        }
    }
    tc_status st = tc_exp_table(x, t, "smoothness",
        "Smoothness of the contact force on the small sphere along y (E1). Jump ratios compare the "
        "largest sample-to-sample change of F and of dF/dy at spacing h and h/2: 2 means continuous, "
        "1 means a jump (F) or a corner (dF/dy); C0, C1: continuous force, continuous dF/dy (a "
        "ratio above 1.5); gap: 5 mm before the spheres touch (a force there is contact "
        "discovery); centre: what happens at concentric centres (an equilibrium, stable or "
        "unstable from the sign of dF/dy, or a jump); ms/query: wall time of one force query.", err);
    tc_table_free(t);
    return st;
}

/* ascending doubles, for the median below */
static int cmp_double(const void *a, const void *b) {
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* the profile panel's |F_y| range: the largest peak among the methods whose peak is at most
   CLIP_FACTOR times the median peak; a method beyond (an engine's position-correction spring of
   thousands of newtons) is clipped and named in `clipped` so its spike does not flatten the rest */
#define CLIP_FACTOR 3.0
static double profile_range(const tc_exp *x, const e1_points *p, const e1_result *res,
                            char *clipped, size_t cap) {
    double top = 0, *peak = calloc(2 * (size_t)x->nmethod + 1, sizeof *peak);
    double *sorted = peak + x->nmethod;
    int n = 0;
    clipped[0] = 0;
    if (!peak) return 0;
    for (int k = 0; k < x->nmethod; k++) {
        peak[k] = NAN;
        if (res[k].failed) continue;
        peak[k] = 0;
        for (int i = 0; i < p->nf; i++) peak[k] = fmax(peak[k], fabs(res[k].fy[p->n1 + i]));
        sorted[n++] = peak[k];
    }
    if (n == 0) return free(peak), 0;
    qsort(sorted, n, sizeof *sorted, cmp_double);
    double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    for (int k = 0; k < x->nmethod; k++) {
        if (isnan(peak[k])) continue;
        if (peak[k] <= CLIP_FACTOR * median) top = fmax(top, peak[k]);
        else
            snprintf(clipped + strlen(clipped), cap - strlen(clipped), "%s%s %.4g N",
                     clipped[0] ? ", " : "", x->method[k].label, peak[k]);
    }
    free(peak);
    return top;
}

/* figures: every profile overlaid, one field per method */
static void write_figures(tc_exp *x, const e1_setup *e, const e1_points *p, const e1_result *res) {
    const int total = p->total;
    char data[1200], ncol[16], R[32], r[32], ymax[32], clipped[512];
    snprintf(ncol, sizeof ncol, "%d", x->nmethod + 1);
    snprintf(R, sizeof R, "%g", e->R), snprintf(r, sizeof r, "%g", e->R + e->r);
    tc_exp_path(x, "profile_1d.csv", data, sizeof data);
    /* the methods in column order, for their styles */
    char labels[2048] = "";
    for (int k = 0; k < x->nmethod; k++)
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", k ? " " : "",
                 x->method[k].label);
    snprintf(ymax, sizeof ymax, "%.6g", profile_range(x, p, res, clipped, sizeof clipped));
    tc_plot_var v[] = {{"datafile", data}, {"ncols", ncol},     {"touch", r},
                       {"labels", labels}, {"ymax", ymax},      {"clipped", clipped}};
    tc_exp_figure(x, "e1_profile.gp", v, 6, "fig_profile", "F_y along y for every method.");
    /* the fields: one grid of panels, one colour scale up to the largest |F| of any method */
    char fields[2048] = "", cbmax[32], dir[1200];
    double fbig = 1e-3;
    for (int k = 0; k < x->nmethod; k++) {
        if (res[k].failed) continue;
        snprintf(fields + strlen(fields), sizeof fields - strlen(fields), "%s%s", fields[0] ? " " : "",
                 x->method[k].label);
        for (int i = 0; i < total; i++) fbig = fmax(fbig, hypot(res[k].fx[i], res[k].fy[i]));
    }
    snprintf(cbmax, sizeof cbmax, "%.6g", ceil(log10(fbig) * 10) / 10);
    tc_exp_path(x, "", dir, sizeof dir);
    if (fields[0]) {
        tc_plot_var f[] = {{"dir", dir}, {"labels", fields}, {"bigr", R}, {"touch", r}, {"cbmax", cbmax}};
        tc_exp_figure(x, "e1_fields.gp", f, 5, "fig_fields",
                      "Force fields of every method on one colour scale: |F| (colour, log scale "
                      "from 1e-3 N) and direction (arrows).");
    }
}

/* the SSDF figure (Beker et al. fig. 1 left, fig. 4): a 0.2 m x 0.1 m 2-D box sampled every
 * 1 cm (60 points), its SSDF on a 161 x 121 grid (2 mm cells) over 0.32 m x 0.24 m, for
 * eps1 = rel h^2: the script's scm-sharp and scm-smooth eps1_rel (0.25, 4), then two blob-like
 * widths; fixed, not tiered: the grids cost about 0.1 s */
enum { SSDF_NX = 161, SSDF_NY = 121, SSDF_NEPS = 4 };
static const double ssdf_half[2] = {0.1, 0.05};                      /* m: the box's half sides */
static const double ssdf_h = 0.01;                                   /* m: point spacing */
static const double ssdf_lo[2] = {-0.16, -0.12}, ssdf_hi[2] = {0.16, 0.12}; /* m: grid extent */
static const double ssdf_rel[SSDF_NEPS] = {0.25, 4.0, 25.0, 100.0};  /* eps1 / h^2 */

/* ssdf_box.dat: the cloud (x, y, nx, ny), then one block per eps1 (x, y, phi; a blank line
 * between rows), blocks two blank lines apart (gnuplot's index 0, 1, ...) */
static tc_status write_ssdf_data(const tc_exp *x, const tc_aopc *c, const double *phi,
                                 const double *eps, tc_error *err) {
    char path[1200];
    tc_exp_path(x, "ssdf_box.dat", path, sizeof path);
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
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
    if (!phi) return tc_aopc_free(&c), TC_ENOMEM;
    double big = 0;
    for (int e = 0; e < SSDF_NEPS; e++) {
        eps[e] = ssdf_rel[e] * c.spacing * c.spacing;
        double *f = phi + (size_t)e * SSDF_NX * SSDF_NY;
        tc_ssdf_grid(&c, eps[e], ssdf_lo, ssdf_hi, SSDF_NX, SSDF_NY, f);
        for (int i = 0; i < SSDF_NX * SSDF_NY; i++) big = fmax(big, fabs(f[i]));
    }
    tc_status st = write_ssdf_data(x, &c, phi, eps, err);
    /* the template's variables and the caption */
    char dir[1200], rels[128] = "", epss[128] = "", relc[128] = "", epsc[128] = "", half[64];
    char cbmax[32], caption[1024];
    tc_exp_path(x, "", dir, sizeof dir);
    /* the widths as words for the template and as lists for the caption */
    for (int e = 0; e < SSDF_NEPS; e++) {
        const char *sep = e ? " " : "", *csep = e ? ", " : "";
        snprintf(rels + strlen(rels), sizeof rels - strlen(rels), "%s%g", sep, ssdf_rel[e]);
        snprintf(epss + strlen(epss), sizeof epss - strlen(epss), "%s%.3g", sep, eps[e]);
        snprintf(relc + strlen(relc), sizeof relc - strlen(relc), "%s%g", csep, ssdf_rel[e]);
        snprintf(epsc + strlen(epsc), sizeof epsc - strlen(epsc), "%s%.3g", csep, eps[e]);
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
                    "`tests/test_aopc.c`); at scm-smooth's it bulges a few mm out near the "
                    "corners, where the next edge's points pull φ down; wider softmaxes blend far "
                    "faces into a wavy, then convex blob around the box.");
        tc_plot_var v[] = {{"dir", dir}, {"rels", rels}, {"eps", epss}, {"half", half},
                           {"cbmax", cbmax}};
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
    tc_status st = read_setup(&x->script, &s->e, err);
    if (!st) st = build_scene(&s->e, &s->sc, err);
    tc_exp_need(x, TC_CAP_FORCE_QUERY, TC_SHAPE_BIT(TC_SHAPE_SPHERE), "static force between spheres");
    return st;
}

/* the sweep's work: every point for every method; SCM's cost grows with its point pairs */
static void e1_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e1_setup *e = &((const e1_state *)state)->e;
    const double total = e->n1d + (2.0 * e->n1d - 1) + (double)e->n2d * e->n2d + NPROBE;
    w->bytes = 16 * total * (x->nmethod + 1);
    for (int k = 0; k < x->nmethod; k++) {
        const tc_method *m = &x->method[k].m;
        double pb = tc_work_points(m, 4 * M_PI * e->R * e->R), ps = tc_work_points(m, 4 * M_PI * e->r * e->r);
        w->steps += total;
        w->seconds += total * (TC_WORK_STEP_S + TC_WORK_PAIR_S * pb * ps);
        w->bytes += 48 * (pb + ps) * (x->threads + 1);
    }
}

static void e1_free(void *state) {
    e1_state *s = state;
    for (int k = 0; s->res && k < s->x->nmethod; k++) free(s->res[k].fx), free(s->res[k].fy);
    free(s->res), free(s->p.x), free(s->p.y), free(s->warn), free(s);
}

static tc_status e1_run(tc_exp *x, void *state, tc_error *err) {
    e1_state *s = state;
    const int nm = x->nmethod;
    s->x = x;
    /* all memory up front: points and per-method results */
    s->res = calloc((size_t)nm + 1, sizeof *s->res);
    if (!s->res || make_points(&s->e, &s->p)) return TC_ENOMEM;
    const e1_points *p = &s->p;
    for (int k = 0; k < nm; k++) {
        s->res[k].fx = calloc((size_t)p->total, sizeof(double));
        s->res[k].fy = calloc((size_t)p->total, sizeof(double));
        if (!s->res[k].fx || !s->res[k].fy) return TC_ENOMEM;
    }
    /* one run per method; its work items are blocks of points */
    s->nblock = (p->total + BLOCK - 1) / BLOCK;
    int nitem = nm * s->nblock, *item_run = calloc((size_t)nitem + 1, sizeof *item_run);
    s->warn = calloc((size_t)nitem + 1, sizeof *s->warn);
    if (!item_run || !s->warn) return free(item_run), TC_ENOMEM;
    for (int k = 0; k < nm; k++) tc_exp_add_run(x, k, NULL, -1, "%d static queries", p->total);
    for (int i = 0; i < nitem; i++) item_run[i] = i / s->nblock;
    tc_status st = tc_exp_sweep_split(x, nitem, item_run, NULL, e1_item, e1_regions, s);
    free(item_run);
    if (st) return st;
    /* a method's warning: the first of its items', in item order */
    for (int i = nitem - 1; i >= 0; i--)
        if (s->warn[i][0]) snprintf(s->res[i / s->nblock].warning, sizeof s->res[0].warning, "%s", s->warn[i]);
    /* metrics, data, tables, figures, report section */
    e1_metrics *mt = calloc((size_t)nm + 1, sizeof *mt);
    if (!mt) return TC_ENOMEM;
    for (int k = 0; k < nm; k++) {
        s->res[k].failed = tc_exp_run_record(x, k)->status != TC_OK;
        mt[k] = measure(&s->e, p, &s->res[k], tc_exp_run_record(x, k)->wall_s);
    }
    tc_exp_text(x,
                "A fixed sphere (radius %g m) and a free sphere (radius %g m) moved along y through "
                "it and over the x-y plane; the contact force on the small sphere at rest, tier `%s`.",
                s->e.R, s->e.r, x->tier);
    tc_exp_text(x, "Paper (Beker et al. 2025, fig. 5): MuJoCo's profile has discontinuities and "
                   "corners; SCM's is twice differentiable, non-zero before contact, with an "
                   "unstable equilibrium at concentric centres.");
    st = write_profile(x, p, s->res, err);
    for (int k = 0; k < nm && !st; k++)
        if (!s->res[k].failed) st = write_field(x, &s->e, p, &x->method[k], &s->res[k], err);
    if (!st) st = write_table(x, s->res, mt, err);
    if (!st) write_figures(x, &s->e, p, s->res);
    if (!st) st = write_ssdf(x, err);
    for (int k = 0; k < nm && !st; k++)
        if (!s->res[k].failed && s->res[k].warning[0])
            tc_exp_text(x, "%s warned: %s", x->method[k].label, s->res[k].warning);
    free(mt);
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
    .heading = "Sphere force profiles (E1)",
    .paper = "Beker et al. 2025, fig. 1 and 5",
    .script = "e1_sphere_profiles.cfg",
    .results = e1_results,
    .setup = e1_setup_fn,
    .run = e1_run,
    .free = e1_free,
    .estimate = e1_estimate,
};
