/* SPDX-License-Identifier: MIT */
/* E5 and E6's shared parts: polygons and the grid from the script, the sweep of 2-D scenes over
 * rates x tolerances for every method, grid.csv, the heat maps and the methods' totals */
#include "experiments/e56/e56.h"
#include "exp/tc_rows.h"
#include "math/tc_vec.h"

#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the script ---------- */

/* every row of polygon p an edge: two vertices on its line (a redundant row, or the rows of a
 * non-convex outline, would cut nothing or cut the outline); the first row that is not, or -1 */
static int first_non_edge(const e56_polygon *p) {
    double scale = 0;
    for (int k = 0; k < p->nv; k++)
        scale = fmax(scale, hypot(p->v[k][0], p->v[k][1]));
    for (int i = 0; i < p->m; i++) {
        int on = 0;
        double n = hypot(p->A[i][0], p->A[i][1]);
        for (int k = 0; k < p->nv; k++)
            on += fabs(p->A[i][0] * p->v[k][0] + p->A[i][1] * p->v[k][1] - p->b[i]) <=
                  1e-9 * n * scale;
        if (on < 2) return i;
    }
    return -1;
}

/* a polygon's settings in its group */
static const tc_field polygon_fields[] = {TC_FIELD_RS(e56_polygon, A, na, "A", -1e6, 1e6),
                                          TC_FIELD_RS(e56_polygon, b, m, "b", -1e6, 1e6),
                                          TC_FIELD_R(e56_polygon, mass, "mass", 1e-9, 1e9),
                                          TC_FIELD_R(e56_polygon, izz, "inertia", 1e-12, 1e9),
                                          {0}};

tc_status e56_read_polygon(const tc_script *s, const char *path, e56_polygon *p, tc_error *err) {
    memset(p, 0, sizeof *p);
    char pa[96];
    snprintf(pa, sizeof pa, "%s.A", path);
    /* the numbers (A's rows straight into its pairs), then their counts */
    tc_status st = tc_script_read(s, path, polygon_fields, p, err);
    if (st) return st;
    const tc_setting *a = tc_script_lookup(s, NULL, pa);
    if (p->m < 3 || p->na != 2 * p->m)
        return tc_script_fail(s, a, pa, err,
                              "A must hold 2 numbers per row of b (3 to %d rows): %d numbers for "
                              "%d rows",
                              TC_POLYGON_MAXROW, p->na, p->m);
    /* a polygon with an interior, bounded */
    tc_error e2 = {0};
    if ((st = tc_polygon_vertices((const double(*)[2])p->A, p->b, p->m, p->v, &p->nv, &e2)) ||
        (st = tc_polygon_centroid((const double(*)[2])p->A, p->b, p->m, p->c, &e2)))
        return tc_error_set(err, st, tc_script_path(s), tc_setting_line(a), pa, "%s", e2.msg);
    const int i = first_non_edge(p);
    if (i >= 0)
        return tc_script_fail(s, a, pa, err,
                              "row %d (%g, %g | %g) is no edge of the polygon A x <= b: a "
                              "redundant row, or a non-convex outline written as rows (the set "
                              "is their intersection, always convex); give the convex polygon's "
                              "edges only",
                              i + 1, p->A[i][0], p->A[i][1], p->b[i]);
    return TC_OK;
}

/* an array of numbers, each > 0 */
static tc_status positive_reals(const tc_script *s, const char *name, const char *unit, double *out,
                                int *n, tc_error *err) {
    tc_status st = tc_script_reals(s, NULL, name, -1e300, 1e300, out, E56_MAXGRID, n, err);
    if (st) return st;
    const tc_setting *v = tc_script_lookup(s, NULL, name);
    if (*n < 1) return tc_script_fail(s, v, name, err, "needs 1 to %d values", E56_MAXGRID);
    for (int i = 0; i < *n; i++)
        if (!(out[i] > 0))
            return tc_script_fail(s, v, name, err, "every value must be > 0%s (entry %d is %g)",
                                  unit, i + 1, out[i]);
    return TC_OK;
}

tc_status e56_read_grid(const tc_script *s, e56_grid *g, tc_error *err) {
    memset(g, 0, sizeof *g);
    tc_status st;
    if ((st = positive_reals(s, "rates", " Hz", g->rate, &g->nrate, err)) ||
        (st = positive_reals(s, "tolerances", "", g->tol, &g->ntol, err)) ||
        (st = tc_script_real(s, NULL, "seconds", 1e-3, 1e4, &g->seconds, err)))
        return st;
    /* every rate gives at least one step in `seconds` (a run of no step would be "ok") */
    for (int i = 0; i < g->nrate; i++)
        if (!(g->rate[i] * g->seconds >= 1))
            return tc_script_fail_at(
                s, "rates", err,
                "entry %d (%g Hz) gives no step in %g s: at least 1 / seconds = "
                "%g Hz",
                i + 1, g->rate[i], g->seconds, 1 / g->seconds);
    /* the labels whose `tol` the grid sweeps */
    const tc_setting *tl = tc_script_lookup(s, NULL, "tolerance_methods");
    if (!tl || tc_setting_type(tl) != TC_SETTING_ARRAY || tc_setting_length(tl) > E56_MAXTOLM)
        return tc_script_fail(s, tl, "tolerance_methods", err,
                              "a list of 0 to %d method labels in quotes (the methods whose `tol` "
                              "the grid sweeps)",
                              E56_MAXTOLM);
    g->ntolm = tc_setting_length(tl);
    for (int i = 0; i < g->ntolm; i++) {
        const char *l = tc_setting_string(tc_setting_at(tl, i));
        if (!l)
            return tc_script_fail(s, tl, "tolerance_methods", err,
                                  "labels must be strings in quotes");
        snprintf(g->tolm[i], sizeof g->tolm[i], "%s", l);
    }
    return TC_OK;
}

/* the method parameter the grid's tolerances set: the solvers' complementarity tolerance (1) */
static const char tol_param[] = "tol";

/* 1 when grid g sweeps method k's tolerance: its label is among tolerance_methods */
static int sweeps_tol(const tc_exp *x, const e56_grid *g, int k) {
    int has = 0;
    for (int t = 0; t < g->ntolm; t++)
        has |= !strcmp(g->tolm[t], tc_exp_label(x, k));
    return has;
}

/* method k at grid g's tolerance t (t < 0: its own) into out, set as every method parameter is
 * (tc_method_set); an error names the script's line: tolerance_methods for a method without the
 * parameter, tolerances for a value its solver refuses */
static tc_status tol_method(const tc_exp *x, const e56_grid *g, int k, int t, tc_method *out,
                            tc_error *err) {
    const tc_exp_entry *em = tc_exp_entry_at(x, k);
    const tc_script *s = tc_exp_script(x);
    *out = em->m;
    tc_error e2 = {0};
    tc_status st = t < 0 ? TC_OK : tc_method_set(out, tol_param, g->tol[t], &e2);
    if (st == TC_ENOTFOUND)
        return tc_script_fail_at(s, "tolerance_methods", err, "'%s' (%s) has no parameter %s: %s",
                                 em->label, em->m.spec, tol_param, e2.msg);
    if (st)
        return tc_script_fail_at(s, "tolerances", err, "'%s' (%s) cannot take %s = %g: %s",
                                 em->label, em->m.spec, tol_param, g->tol[t], e2.msg);
    return TC_OK;
}

/* every method of g's tolerance_methods has `tol` and takes each of g's tolerances, set as the
 * sweep sets it (the driver's check, before anything runs) */
static tc_status check_tol(const tc_exp *x, const e56_grid *g, tc_error *err) {
    /* every tolerance on every method that sweeps it, as the sweep will set it */
    tc_method m;
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        for (int t = 0; sweeps_tol(x, g, k) && t < g->ntol; t++) {
            tc_status st = tol_method(x, g, k, t, &m, err);
            if (st) return st;
        }
    return TC_OK;
}

/* the steps method k takes on one scene over grid g: every rate, and every tolerance when the
 * grid sweeps its `tol` */
static double grid_steps(const tc_exp *x, const e56_grid *g, int k) {
    double steps = 0;
    for (int r = 0; r < g->nrate; r++)
        steps += ceil(g->seconds * g->rate[r]);
    return steps * (sweeps_tol(x, g, k) ? g->ntol : 1);
}

/* ---------- the end state ---------- */

void e56_lowest_two(tc_sim *sim, int body, double y[2]) {
    /* the prism's vertices on one face (z > 0), each 2-D vertex once */
    const tc_body_state *b = &tc_sim_bodies(sim)[body];
    const tc_hull *s = tc_sim_scene(sim)->body[body].shape.hull;
    y[0] = y[1] = INFINITY;
    for (int k = 0; k < s->nvert; k++) {
        if (s->vert[k][2] <= 0) continue;
        double w[3];
        tc_m3_mulv(w, b->R, s->vert[k]);
        double h = b->pos[1] + w[1];
        if (h < y[0]) {
            y[1] = y[0];
            y[0] = h;
        } else if (h < y[1])
            y[1] = h;
    }
}

double e56_angle(tc_sim *sim, int body) {
    const tc_body_state *b = &tc_sim_bodies(sim)[body];
    return atan2(b->R[3], b->R[0]);
}

double e56_polygon_size(const e56_polygon *p) {
    double d = 0;
    for (int i = 0; i < p->nv; i++)
        for (int j = 0; j < i; j++)
            d = fmax(d, hypot(p->v[i][0] - p->v[j][0], p->v[i][1] - p->v[j][1]));
    return d;
}

void e56_ground_violation(const e56_study *st, tc_sim *sim, double *pen, double *psdf) {
    const e56_polygon *p = st->psdf_poly;
    const tc_body_state *b = &tc_sim_bodies(sim)[1];
    const double th = e56_angle(sim, 1) - st->psdf_phi, cs = cos(th), sn = sin(th);
    /* A's origin: the centroid less c turned by theta */
    const double oy = b->pos[1] - (sn * p->c[0] + cs * p->c[1]);
    double low = INFINITY;
    for (int k = 0; k < p->nv; k++)
        low = fmin(low, oy + sn * p->v[k][0] + cs * p->v[k][1]);
    *pen = fmax(-low, 0);
    *psdf = oy - low > 0 ? fmax(-low / (oy - low), 0) : 1;
}

/* ---------- the sweep ---------- */

/* what one item's hooks share */
typedef struct item_ctx {
    const e56_study *st;
    int scene, started, landed;
    double ang_sum, lin_pub, ang_pub;
    long nang;
    double e0, emax; /* mechanical energy at the start and its largest after a step (J) */
    int finite;      /* every state so far finite */
    e56_out *o;
} item_ctx;

static void on_before(void *ctx, tc_sim *sim, long k) {
    item_ctx *c = ctx;
    if (k) return;
    c->started = 1;
    if (c->st->start) c->st->start(c->st->ctx, c->scene, sim);
    c->e0 = c->emax = tc_sim_energy(sim);
}

static void on_after(void *ctx, tc_sim *sim, long k) {
    item_ctx *c = ctx;
    const tc_scene *sc = tc_sim_scene(sim);
    const tc_body_state *b = tc_sim_bodies(sim);
    const int *vadr = tc_sim_system(sim)->vadr;
    double lin[3], ang[3], spin = 0;
    (void)k;
    tc_sim_momentum(sim, lin, ang);
    c->ang_sum += tc_v3_norm(ang);
    c->nang++;
    /* the public code's momenta: the mean of |p_x| and |p_y|, and the bodies' spins */
    for (int i = 0; i < sc->nbody; i++)
        if (vadr[i] >= 0) spin += sc->body[i].inertia[2] * b[i].omega[2];
    c->lin_pub += 0.5 * (fabs(lin[0]) + fabs(lin[1]));
    c->ang_pub += fabs(spin);
    const double e = tc_sim_energy(sim);
    c->finite &= isfinite(e);
    if (isfinite(e)) c->emax = fmax(c->emax, e);
    if (!c->st->psdf_poly) return;
    /* the ground: pseudo distance, and the landing step's penetration apart from the rest */
    double pen, psdf;
    e56_ground_violation(c->st, sim, &pen, &psdf);
    e56_out *o = c->o;
    o->psdf = fmax(o->psdf, psdf);
    if (c->landed)
        o->after_pen = fmax(o->after_pen, pen);
    else if (pen > 0) {
        c->landed = 1;
        o->land_pen = pen;
    }
}

static void on_end(void *ctx, tc_sim *sim) {
    item_ctx *c = ctx;
    if (c->st->end && c->started) c->st->end(c->st->ctx, c->scene, sim, c->o);
}

/* a physically absurd outcome of a simulation that started: through the floor or another body,
 * energy from nothing (the bodies are passive: their kinetic plus gravitational energy can only
 * fall), a non-finite state; its reason into the scene's outcome */
static void judge(const item_ctx *c, const tc_series *ser) {
    const e56_study *st = c->st;
    e56_out *o = c->o;
    const size_t n = sizeof o->absurd_reason;
    if (!c->finite || !isfinite(ser->max_pen))
        snprintf(o->absurd_reason, n, "%s %d: a non-finite state", st->what, c->scene);
    else if (st->size > 0 && ser->max_pen > st->size)
        snprintf(o->absurd_reason, n,
                 "%s %d: penetration %.3g m, beyond the body's size %.3g m (through the floor or "
                 "another body)",
                 st->what, c->scene, ser->max_pen, st->size);
    else if (c->emax > 2 * fabs(c->e0) + 1e-9)
        snprintf(o->absurd_reason, n,
                 "%s %d: mechanical energy grew from %.3g J to %.3g J without input", st->what,
                 c->scene, c->e0, c->emax);
    o->absurd = o->absurd_reason[0] != 0;
}

/* what the item function needs: the studies, their items one after the other (study q's items
 * are first[q] .. first[q + 1] - 1, cell by cell, scene by scene) */
typedef struct sweep_ctx {
    int nstudy;
    const e56_grid *const *g;
    const e56_study *const *st;
    e56_sweep *const *sw;
    int first[E56_MAXSTUDY + 1];
    tc_scene *buf; /* one scene per thread */
    int nbuf;
} sweep_ctx;

/* item i: its study, and its index within that study's items */
static int item_study(const sweep_ctx *s, int i, int *local) {
    int q = 0;
    while (q + 1 < s->nstudy && i >= s->first[q + 1])
        q++;
    *local = i - s->first[q];
    return q;
}

/* one scene of one cell, simulated on this thread's scene buffer */
static void e56_item(void *vctx, int i, tc_item *it) {
    sweep_ctx *s = vctx;
    int li, q = item_study(s, i, &li);
    const e56_study *st = s->st[q];
    e56_cell *cell = &s->sw[q]->cell[li / st->nscene];
    int j = li % st->nscene, th = omp_get_thread_num();
    e56_out *o = &cell->out[j];
    memset(o, 0, sizeof *o);
    if (th < 0 || th >= s->nbuf) {
        it->status = TC_EINVAL;
        snprintf(it->reason, sizeof it->reason, "thread %d has no scene buffer", th);
        return;
    }
    /* the scene, rebuilt from its index: the same for any thread */
    tc_scene *sc = &s->buf[th];
    tc_error err = {0};
    if ((it->status = st->build(st->ctx, j, sc, &err))) {
        snprintf(it->reason, sizeof it->reason, "%s", err.msg);
        return;
    }
    const double rate = s->g[q]->rate[cell->rate];
    item_ctx c = {.st = st, .scene = j, .o = o, .finite = 1};
    tc_sim_loop loop = {.dt = 1.0 / rate,
                        .steps = lround(s->g[q]->seconds * rate),
                        .every = 1,
                        .series = TC_SERIES_PENETRATION | TC_SERIES_MOMENTUM,
                        .before = on_before,
                        .after = on_after,
                        .end = on_end,
                        .ctx = &c};
    tc_series ser = {0};
    tc_item mine = {.run = it->run};
    tc_simulate(sc, &cell->m, &loop, &ser, &mine);
    it->resid = mine.resid;
    o->steps = it->steps = ser.steps;
    o->max_pen = ser.max_pen;
    o->iters = ser.iters;
    o->fails = ser.fails;
    o->mean_lin = ser.mean_mom;
    o->mean_ang = c.nang ? c.ang_sum / c.nang : NAN;
    o->pub_lin = c.nang ? c.lin_pub / c.nang : NAN;
    o->pub_ang = c.nang ? c.ang_pub / c.nang : NAN;
    if (c.started) judge(&c, &ser);
    /* a step's error is the measured outcome; not starting, or an interrupt, fails the run */
    if (mine.status && c.started && mine.status != TC_EINTR && mine.status != TC_ENOMEM) {
        o->errored = 1;
        o->ok_end = 0;
        snprintf(o->reason, sizeof o->reason, "%s", mine.reason);
    } else if (mine.status) {
        it->status = mine.status;
        snprintf(it->reason, sizeof it->reason, "%s", mine.reason);
    }
}

/* what one item writes, for a sweep split over MPI ranks: its scene's outcome (cell i / nscene,
 * scene i % nscene lies at out[i]) */
static int e56_regions(void *vctx, int i, tc_region *r) {
    sweep_ctx *s = vctx;
    int li, q = item_study(s, i, &li);
    r[0] = (tc_region){&s->sw[q]->out[li], sizeof s->sw[q]->out[li]};
    return 1;
}

/* a cell's summary over its scenes */
static void sum_cell(e56_cell *c, int n) {
    long long steps = 0, iters = 0;
    int nok = 0;
    c->failed = c->errored = c->ok_end = c->absurd = 0;
    c->max_pen = c->mean_pen = c->mean_lin = c->mean_ang = 0;
    c->psdf = c->pub_lin = c->pub_ang = c->land_pen = c->after_pen = 0;
    for (int j = 0; j < n; j++) {
        const e56_out *o = &c->out[j];
        c->failed += o->fails > 0;
        c->errored += o->errored;
        c->ok_end += o->ok_end;
        c->absurd += o->absurd;
        c->max_pen = fmax(c->max_pen, o->max_pen);
        c->mean_pen += o->max_pen / n;
        c->psdf += o->psdf / n;
        c->land_pen += o->land_pen / n;
        c->after_pen += o->after_pen / n;
        c->pub_lin += o->pub_lin / n;
        c->pub_ang += o->pub_ang / n;
        steps += o->steps;
        iters += o->iters;
        if (!o->errored) {
            c->mean_lin += o->mean_lin;
            c->mean_ang += o->mean_ang;
            nok++;
        }
    }
    /* n/a, not 0, for a method whose solver counts no iterations */
    c->iters_per_step =
        steps && tc_method_counts_iterations(&c->m) ? (double)iters / (double)steps : NAN;
    c->mean_lin = nok ? c->mean_lin / nok : NAN;
    c->mean_ang = nok ? c->mean_ang / nok : NAN;
}

/* room for study st's cells over grid g (*ncell of them), and which methods sweep the tolerance
 * (each has `tol`: the driver's check) */
static tc_status alloc_cells(const tc_exp *x, const e56_grid *g, const e56_study *st, e56_sweep *sw,
                             int *ncell) {
    memset(sw, 0, sizeof *sw);
    *ncell = 0;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        sw->has_tol[k] = sweeps_tol(x, g, k);
        *ncell += g->nrate * (sw->has_tol[k] ? g->ntol : 1);
    }
    sw->cell = calloc((size_t)*ncell + 1, sizeof *sw->cell);
    sw->out = calloc((size_t)*ncell * (size_t)st->nscene + 1, sizeof *sw->out);
    sw->nscene = st->nscene;
    return sw->cell && sw->out ? TC_OK : TC_ENOMEM;
}

/* declare study st's cells and their runs over grid g (method, rate, tolerance), item_run[i]
 * for its items */
static tc_status declare(tc_exp *x, const e56_grid *g, const e56_study *st, e56_sweep *sw,
                         int *item_run, tc_error *err) {
    for (int k = 0; k < tc_exp_nmethod(x); k++)
        for (int r = 0; r < g->nrate; r++)
            for (int t = 0; t < (sw->has_tol[k] ? g->ntol : 1); t++) {
                e56_cell *c = &sw->cell[sw->ncell];
                c->method = k;
                c->rate = r;
                c->tol = sw->has_tol[k] ? t : -1;
                tc_status status = tol_method(x, g, k, c->tol, &c->m, err);
                if (status) return status;
                c->out = &sw->out[(size_t)sw->ncell * (size_t)st->nscene];
                char tol[32] = "own";
                if (c->tol >= 0) snprintf(tol, sizeof tol, "%g", g->tol[t]);
                c->run = tc_exp_add_run(x, k, &c->m, -1, "rate=%g Hz, tol=%s, %d %ss", g->rate[r],
                                        tol, st->nscene, st->what);
                for (int j = 0; j < st->nscene; j++)
                    item_run[sw->ncell * st->nscene + j] = c->run;
                sw->ncell++;
            }
    return TC_OK;
}

/* the items' costs: steps x bodies^2 (a step's contact work grows with the pairs of bodies), so
 * a tall stack's few long runs start before the many short two-block ones. The order changes no
 * result */
static tc_status item_costs(const sweep_ctx *s, double *cost, tc_error *err) {
    tc_scene *sc = malloc(sizeof *sc);
    if (!sc) return TC_ENOMEM;
    tc_status status = TC_OK;
    for (int q = 0; q < s->nstudy && !status; q++) {
        const e56_study *st = s->st[q];
        for (int j = 0; j < st->nscene && !status; j++) {
            if ((status = st->build(st->ctx, j, sc, err))) break;
            const double n2 = (double)sc->nbody * sc->nbody;
            for (int c = 0; c < s->sw[q]->ncell; c++) {
                const double steps = s->g[q]->seconds * s->g[q]->rate[s->sw[q]->cell[c].rate];
                cost[s->first[q] + c * st->nscene + j] = steps * n2;
            }
        }
    }
    free(sc);
    return status;
}

/* an absurd outcome fails its cell's run: the first such scene's reason, and how many */
static void record_absurd(tc_exp *x, const e56_study *st, const e56_cell *c) {
    for (int j = 0; j < st->nscene && c->absurd; j++) {
        if (!c->out[j].absurd) continue;
        char why[300];
        snprintf(why, sizeof why, "physically absurd outcome: %s (%d of %d %ss)",
                 c->out[j].absurd_reason, c->absurd, st->nscene, st->what);
        tc_exp_record(x, c->run, TC_EDIVERGED, why, 0, 0);
        break;
    }
}

tc_status e56_run_studies(tc_exp *x, e56_base *b, tc_error *err) {
    const int nstudy = b->nstudy;
    if (tc_exp_nmethod(x) > 256)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "methods", "too many methods");
    if (nstudy < 1 || nstudy > E56_MAXSTUDY) return TC_EINVAL;
    sweep_ctx sc = {.nstudy = nstudy,
                    .g = b->g,
                    .st = b->st,
                    .sw = b->sw,
                    .nbuf = tc_exp_threads(x) > 0 ? tc_exp_threads(x) : 1};
    /* every study's cells, their items one study after the other */
    tc_status s = TC_OK;
    for (int q = 0; q < nstudy && !s; q++) {
        int ncell;
        s = alloc_cells(x, b->g[q], b->st[q], b->sw[q], &ncell);
        sc.first[q + 1] = sc.first[q] + (s ? 0 : ncell * b->st[q]->nscene);
    }
    const int n = sc.first[nstudy];
    int *item_run = calloc((size_t)n + 1, sizeof *item_run);
    double *cost = calloc((size_t)n + 1, sizeof *cost);
    sc.buf = calloc((size_t)sc.nbuf, sizeof *sc.buf);
    if (!s && (!sc.buf || !item_run || !cost)) s = TC_ENOMEM;
    /* every study's runs, in study order, then one sweep over all their items */
    for (int q = 0; q < nstudy && !s; q++)
        s = declare(x, b->g[q], b->st[q], b->sw[q], item_run + sc.first[q], err);
    if (!s) s = item_costs(&sc, cost, err);
    if (!s) s = tc_exp_sweep_split(x, n, item_run, cost, e56_item, e56_regions, &sc);
    free(item_run);
    free(cost);
    free(sc.buf);
    if (s) return s;
    for (int q = 0; q < nstudy; q++)
        for (int i = 0; i < b->sw[q]->ncell; i++) {
            sum_cell(&b->sw[q]->cell[i], b->st[q]->nscene);
            record_absurd(x, b->st[q], &b->sw[q]->cell[i]);
        }
    return TC_OK;
}

/* ---------- the drivers' hooks ---------- */

void e56_scene_figure(tc_exp *x, const e56_base *b, int q, const char *caption) {
    tc_scene *sc = malloc(sizeof *sc);
    tc_error err;
    tc_error_clear(&err);
    if (!sc || b->st[q]->build(b->st[q]->ctx, 0, sc, &err))
        tc_exp_warn(x, "scene picture not drawn: %s", sc ? err.msg : "out of memory");
    else
        tc_exp_scene_figure(x, sc, "xy", "fig_scene", caption);
    free(sc);
}

tc_status e56_need(tc_exp *x, const e56_base *b, const char *what, tc_error *err) {
    for (int i = 0; i < b->g[0]->ntolm; i++)
        tc_exp_refer(x, "tolerance_methods", b->g[0]->tolm[i]);
    /* the first scene says what a method needs */
    tc_scene *sc = malloc(sizeof *sc);
    if (!sc) return TC_ENOMEM;
    const e56_study *st = b->st[0];
    tc_status s = st->build(st->ctx, 0, sc, err);
    if (!s) tc_exp_need(x, TC_CAP_DYNAMICS, tc_scene_shapes(sc), what);
    free(sc);
    return s;
}

void e56_estimate(const tc_exp *x, const void *state, tc_work *w) {
    const e56_base *b = state;
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        /* a step of polytopes and an interior-point solve costs a few small-scene steps per body */
        double steps = 0, body_steps = 0;
        for (int q = 0; q < b->nstudy; q++) {
            const double n = b->st[q]->nscene * grid_steps(x, b->g[q], k);
            steps += n;
            body_steps += b->st[q]->bodies * n;
        }
        w->steps += steps + b->extra_steps;
        w->seconds += (body_steps + b->extra_steps) * 6 * TC_WORK_STEP_S *
                      tc_method_work_factor(tc_exp_method(x, k));
    }
    const e56_grid *g = b->g[0];
    w->bytes = (double)tc_exp_nmethod(x) * b->st[0]->nscene * g->nrate * g->ntol * 256;
}

tc_status e56_check(const tc_exp *x, const void *state, tc_error *err) {
    const e56_base *b = state;
    tc_status st = TC_OK;
    for (int q = 0; q < b->nstudy && !st; q++)
        st = check_tol(x, b->g[q], err);
    return st;
}

void e56_free(void *state) {
    e56_base *b = state;
    for (int q = 0; q < b->nstudy; q++) {
        free(b->sw[q]->cell);
        free(b->sw[q]->out);
    }
    free(state);
}

/* ---------- outputs ---------- */

/* grid.csv's columns, in order (heat maps pick one by name) */
static const tc_col grid_cols[] = {{.csv = "label"},
                                   {.csv = "rate_hz", .fmt = "%g"},
                                   {.csv = "tol"},
                                   {.csv = "rate_i", .fmt = "%.0f"},
                                   {.csv = "tol_i", .fmt = "%.0f"},
                                   {.csv = "runs", .fmt = "%.0f"},
                                   {.csv = "failed", .fmt = "%.0f"},
                                   {.csv = "fail_rate", .fmt = "%.6g"},
                                   {.csv = "errored", .fmt = "%.0f"},
                                   {.csv = "error_rate", .fmt = "%.6g"},
                                   {.csv = "max_penetration_m", .fmt = "%.6e"},
                                   {.csv = "mean_max_penetration_m", .fmt = "%.6e"},
                                   {.csv = "iters_per_step", .fmt = "%.6g"},
                                   {.csv = "mean_linear_momentum", .fmt = "%.6e"},
                                   {.csv = "mean_angular_momentum", .fmt = "%.6e"},
                                   {.csv = "end_ok_rate", .fmt = "%.6g"},
                                   {.csv = "absurd", .fmt = "%.0f"},
                                   {.csv = "mean_landing_penetration_m", .fmt = "%.6e"},
                                   {.csv = "mean_after_landing_penetration_m", .fmt = "%.6e"},
                                   {.csv = "psdf_violation", .fmt = "%.6e"},
                                   {.csv = "public_linear_momentum", .fmt = "%.6e"},
                                   {.csv = "public_angular_momentum", .fmt = "%.6e"}};
#define NGRID ((int)(sizeof grid_cols / sizeof *grid_cols))

/* the per-scene CSV's columns */
static const tc_col scene_cols[] = {{.csv = "label"},
                                    {.csv = "rate_hz", .fmt = "%g"},
                                    {.csv = "tol"},
                                    {.csv = "scene", .fmt = "%.0f"},
                                    {.csv = "steps", .fmt = "%.0f"},
                                    {.csv = "errored", .fmt = "%.0f"},
                                    {.csv = "failed_steps", .fmt = "%.0f"},
                                    {.csv = "iters", .fmt = "%.0f"},
                                    {.csv = "max_penetration_m", .fmt = "%.6e"},
                                    {.csv = "mean_linear_momentum", .fmt = "%.6e"},
                                    {.csv = "mean_angular_momentum", .fmt = "%.6e"},
                                    {.csv = "end_ok", .fmt = "%.0f"},
                                    {.csv = "end0", .fmt = "%.6e"},
                                    {.csv = "end1", .fmt = "%.6e"},
                                    {.csv = "reason", .quote = TC_COL_QUOTED},
                                    {.csv = "landing_penetration_m", .fmt = "%.6e"},
                                    {.csv = "after_landing_penetration_m", .fmt = "%.6e"},
                                    {.csv = "psdf_violation", .fmt = "%.6e"},
                                    {.csv = "public_linear_momentum", .fmt = "%.6e"},
                                    {.csv = "public_angular_momentum", .fmt = "%.6e"},
                                    {.csv = "absurd", .quote = TC_COL_QUOTED}};
#define NSCENE ((int)(sizeof scene_cols / sizeof *scene_cols))

/* cell c's values in grid.csv's columns (0 in its text columns); tol (32 bytes) holds its
 * tolerance's text */
static void grid_values(const e56_grid *g, const e56_sweep *sw, const e56_cell *c, char *tol,
                        double *v) {
    tol[0] = 0;
    if (c->tol >= 0) snprintf(tol, 32, "%g", g->tol[c->tol]);
    /* the scenes' count, and the fractions of them that failed, errored or ended well */
    const double n = sw->nscene > 0 ? sw->nscene : 1, rate = g->rate[c->rate];
    const double fail = c->failed / n, error = c->errored / n, ok = c->ok_end / n;
    const double ips = c->iters_per_step;
    const double r[NGRID] = {0,          rate,        0,           c->rate,      c->tol,
                             n,          c->failed,   fail,        c->errored,   error,
                             c->max_pen, c->mean_pen, ips,         c->mean_lin,  c->mean_ang,
                             ok,         c->absurd,   c->land_pen, c->after_pen, c->psdf,
                             c->pub_lin, c->pub_ang};
    memcpy(v, r, sizeof r);
}

/* a row of n columns cols (grid.csv's or the per-scene CSV's): a number column takes its value
 * v[c], a text column the next of text */
static void put_row(tc_rows *r, const tc_col *cols, int n, const double *v,
                    const char *const *text) {
    tc_cell cell[NGRID > NSCENE ? NGRID : NSCENE];
    for (int c = 0, t = 0; c < n; c++)
        cell[c] = cols[c].fmt ? TC_NUM(v[c]) : TC_TEXT(text[t++]);
    tc_rows_put(r, cell);
}

tc_status e56_write_grid(tc_exp *x, const e56_grid *g, const e56_sweep *sw, const char *file,
                         const char *scene_file, tc_error *err) {
    tc_rows *r;
    char tol[32];
    double v[NGRID];
    /* one row per cell */
    tc_status st = tc_rows_open(&r, x, file, grid_cols, NGRID, err);
    if (st) return st;
    for (int i = 0; i < sw->ncell; i++) {
        grid_values(g, sw, &sw->cell[i], tol, v);
        put_row(r, grid_cols, NGRID, v, (const char *[]){tc_exp_label(x, sw->cell[i].method), tol});
    }
    if ((st = tc_rows_close(r, NULL, NULL, err))) return st;
    /* one row per simulation */
    if ((st = tc_rows_open(&r, x, scene_file, scene_cols, NSCENE, err))) return st;
    for (int i = 0; i < sw->ncell; i++) {
        const e56_cell *c = &sw->cell[i];
        grid_values(g, sw, c, tol, v);
        for (int j = 0; j < sw->nscene; j++) {
            const e56_out *u = &c->out[j];
            const double w[] = {
                0,          v[1],       0,          j,           u->steps,     u->errored,
                u->fails,   u->iters,   u->max_pen, u->mean_lin, u->mean_ang,  u->ok_end,
                u->end[0],  u->end[1],  0,          u->land_pen, u->after_pen, u->psdf,
                u->pub_lin, u->pub_ang, 0};
            put_row(r, scene_cols, NSCENE, w,
                    (const char *[]){tc_exp_label(x, c->method), tol, u->reason, u->absurd_reason});
        }
    }
    return tc_rows_close(r, NULL, NULL, err);
}

void e56_join(char *buf, size_t n, const double *v, int nv) {
    buf[0] = 0;
    for (int i = 0; i < nv; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%g", i ? " " : "", v[i]);
}

/* the index of a grid.csv column, or -1 */
static int grid_column(const char *column) {
    for (int i = 0; i < NGRID; i++)
        if (!strcmp(grid_cols[i].csv, column)) return i;
    return -1;
}

double e56_cell_value(const e56_grid *g, const e56_sweep *sw, const e56_cell *c,
                      const char *column) {
    char tol[32];
    double v[NGRID];
    const int i = grid_column(column);
    if (i < 0 || !grid_cols[i].fmt) return NAN;
    grid_values(g, sw, c, tol, v);
    return v[i];
}

void e56_heat_figure(tc_exp *x, const e56_grid *g, const e56_sweep *sw, const char *grid_file,
                     const char *column, int log_scale, const char *cb_label, const char *base,
                     const char *caption, e56_paper_fn paper) {
    char path[1200], labels[2048] = "", tolm[600] = "", rates[256], tols[256], col[16], logs[4],
                     lo[32], hi[32], plo[1024] = "", phi[1024] = "", cap[1024];
    double vlo = INFINITY, vhi = -INFINITY;
    /* the column's number (gnuplot counts from 1; 0: none) */
    snprintf(col, sizeof col, "%d", grid_column(column) + 1);
    /* the methods with cells, and whether each has a tolerance axis */
    for (int k = 0; k < tc_exp_nmethod(x); k++) {
        snprintf(labels + strlen(labels), sizeof labels - strlen(labels), "%s%s", k ? " " : "",
                 tc_exp_label(x, k));
        snprintf(tolm + strlen(tolm), sizeof tolm - strlen(tolm), "%s%d", k ? " " : "",
                 sw->has_tol[k]);
        /* the paper's value or range of the method ("nan": none), inside the colour range */
        double a = NAN, b = NAN;
        if (paper) paper(x, tc_exp_label(x, k), &a, &b);
        tc_words_add(plo, sizeof plo, " ", "%.17g", a);
        tc_words_add(phi, sizeof phi, " ", "%.17g", b);
        for (int j = 0; j < 2; j++) {
            double v = j ? b : a;
            if (!isfinite(v) || (log_scale && !(v > 0))) continue;
            if (log_scale) v = log10(v);
            vlo = fmin(vlo, v);
            vhi = fmax(vhi, v);
        }
    }
    e56_join(rates, sizeof rates, g->rate, g->nrate);
    e56_join(tols, sizeof tols, g->tol, g->ntol);
    /* one colour range across the methods: the column's finite values (positive ones on a log
     * scale) */
    for (int i = 0; i < sw->ncell; i++) {
        double v = e56_cell_value(g, sw, &sw->cell[i], column);
        if (!isfinite(v) || (log_scale && !(v > 0))) continue;
        if (log_scale) v = log10(v);
        vlo = fmin(vlo, v);
        vhi = fmax(vhi, v);
    }
    if (!(vlo <= vhi)) {
        vlo = 0;
        vhi = 1;
    }
    if (vhi - vlo < 1e-12) vhi = vlo + (log_scale ? 1 : fmax(1e-12, fabs(vlo) * 0.1 + (vlo == 0)));
    snprintf(lo, sizeof lo, "%.17g", vlo);
    snprintf(hi, sizeof hi, "%.17g", vhi);
    snprintf(logs, sizeof logs, "%d", log_scale);
    tc_exp_path(x, grid_file, path, sizeof path);
    /* which end of the one palette is good: a fraction of drops at rest or towers up is good
     * when high (light), every other column (failures, penetration, momentum, iterations) when
     * low (dark) */
    const char *better = !strcmp(column, "end_ok_rate") ? "high" : "low";
    tc_plot_var v[] = {{"datafile", path},    {"labels", labels}, {"tolm", tolm},
                       {"rates", rates},      {"tols", tols},     {"col", col},
                       {"logscale", logs},    {"lo", lo},         {"hi", hi},
                       {"cblabel", cb_label}, {"better", better}, {"plo", plo},
                       {"phi", phi}};
    /* the caption says how the paper's values are drawn when there are any */
    snprintf(cap, sizeof cap, "%s%s", caption,
             paper ? " Left of the colour bar, the paper's values: a black open diamond for one "
                     "value, a black bar for a range; each panel's title names its method's."
                   : "");
    tc_exp_figure(x, "../e56/e56_heat.gp", v, paper ? 13 : 11, base, cap);
}

/* text split into cells at each ';' (at most 16; missing ones NULL, which a table takes as
 * empty) */
static void split(char *text, char **cell) {
    memset(cell, 0, 16 * sizeof *cell);
    for (int n = 0; n < 16 && text; n++) {
        cell[n] = text;
        if ((text = strchr(text, ';'))) *text++ = 0;
    }
}

tc_table *e56_table(const char *heads) {
    char text[1024], *cell[16];
    snprintf(text, sizeof text, "%s", heads);
    split(text, cell);
    int n = 0;
    while (n < 16 && cell[n])
        n++;
    return tc_table_alloc(n, (const char *const *)cell);
}

tc_status e56_table_row(tc_table *t, const char *fmt, ...) {
    char text[1024], *cell[16];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    split(text, cell);
    /* a value that does not apply (NaN) reads n/a, never a number */
    for (int i = 0; i < 16 && cell[i]; i++)
        if (!strcmp(cell[i], "nan") || !strcmp(cell[i], "-nan")) cell[i] = "n/a";
    return tc_table_add_row(t, (const char *const *)cell);
}

/* ---------- the methods' totals ---------- */

int e56_total_of(const e56_sweep *sw, int k, e56_total *t) {
    memset(t, 0, sizeof *t);
    int nlin = 0, counts = 0;
    /* the totals averaged over the cells */
    double *mean[] = {&t->mean_pen, &t->land_pen, &t->after_pen,     &t->psdf,
                      &t->pub_lin,  &t->pub_ang,  &t->iters_per_step};
    for (int i = 0; i < sw->ncell; i++) {
        const e56_cell *c = &sw->cell[i];
        if (c->method != k) continue;
        t->ncell++;
        t->runs += sw->nscene;
        t->failed += c->failed;
        t->errored += c->errored;
        t->ok_end += c->ok_end;
        t->absurd += c->absurd;
        t->max_pen = fmax(t->max_pen, c->max_pen);
        counts |= tc_method_counts_iterations(&c->m);
        /* iterations per step: a cell without steps (NaN) counts as 0 */
        const double ips = isnan(c->iters_per_step) ? 0 : c->iters_per_step;
        const double add[] = {c->mean_pen, c->land_pen, c->after_pen, c->psdf,
                              c->pub_lin,  c->pub_ang,  ips};
        for (int m = 0; m < 7; m++)
            *mean[m] += add[m];
        if (!isnan(c->mean_lin)) {
            t->mean_lin += c->mean_lin;
            t->mean_ang += c->mean_ang;
            nlin++;
        }
        /* the first errored and the first absurd scene's reasons */
        for (int j = 0; j < sw->nscene; j++) {
            if (c->out[j].errored && !t->error[0])
                snprintf(t->error, sizeof t->error, "%s", c->out[j].reason);
            if (c->out[j].absurd && !t->why[0])
                snprintf(t->why, sizeof t->why, "%s", c->out[j].absurd_reason);
        }
    }
    if (!t->ncell) return 0;
    for (int m = 0; m < 7; m++)
        *mean[m] /= t->ncell;
    t->mean_lin = nlin ? t->mean_lin / nlin : NAN;
    t->mean_ang = nlin ? t->mean_ang / nlin : NAN;
    /* n/a for a method whose solver counts no iterations */
    if (!counts) t->iters_per_step = NAN;
    return 1;
}

void e56_metrics_add(tc_exp *x, const char *label, const char *prefix, const e56_metric *m, int n,
                     int finite) {
    for (int i = 0; i < n; i++) {
        char name[192];
        snprintf(name, sizeof name, "%s.%s", prefix, m[i].name);
        if (!finite || isfinite(m[i].v))
            tc_metrics_add(tc_exp_metrics(x), label, name, m[i].v, m[i].unit, m[i].tol_abs,
                           m[i].tol_rel, 0, m[i].doc);
    }
}
