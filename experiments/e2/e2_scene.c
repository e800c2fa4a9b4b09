/* SPDX-License-Identifier: MIT */
/* E2 setup, the grid's methods, finger trajectories and one rollout on the shared loop */
#include "experiments/e2/e2.h"
#include "core/tc_csv.h"
#include "geom/tc_aopc.h"
#include "core/tc_fs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BODY_T = E2_BODY_T, BODY_FINGER = E2_BODY_FINGER };

/* integrators = ( { name = "RK4"; solver = "rk4"; engine = { integrator = 1; }; }, ... ) */
static tc_status read_integrators(const tc_script *s, e2_setup *e, tc_error *err) {
    static const char *const keys[] = {"name", "solver", "engine", NULL};
    const tc_setting *l = tc_script_lookup(s, NULL, "integrators");
    if (!l || !(tc_setting_type(l) == TC_SETTING_LIST) || tc_setting_length(l) < 1 ||
        tc_setting_length(l) > E2_MAXINTEG)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), l ? tc_setting_line(l) : 0,
                            "integrators", "a list of 1 to %d { name; solver; engine; } groups",
                            E2_MAXINTEG);
    e->ninteg = tc_setting_length(l);
    for (int g = 0; g < e->ninteg; g++) {
        const tc_setting *it = tc_setting_at(l, g);
        const char *name, *solver;
        tc_status st;
        if ((st = tc_script_allowed(s, it, keys, err)) ||
            (st = tc_script_string(s, it, "name", &name, err)) ||
            (st = tc_script_string(s, it, "solver", &solver, err)))
            return st;
        /* the name becomes part of metric names and CSV fields: a label's characters, once */
        char why[200];
        int line = tc_setting_line(it);
        if (!tc_metrics_name_ok(name, why, sizeof why) || strlen(name) >= sizeof e->integ[g].name)
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), line, "name",
                                "integrator '%s' %s", name,
                                strlen(name) >= sizeof e->integ[g].name ? "is too long" : why);
        for (int j = 0; j < g; j++)
            if (!strcmp(e->integ[j].name, name))
                return tc_error_set(err, TC_EINVAL, tc_script_path(s), line, "name",
                                    "integrator '%s' is named twice", name);
        e2_integ *ig = &e->integ[g];
        snprintf(ig->name, sizeof ig->name, "%s", name);
        snprintf(ig->solver, sizeof ig->solver, "%s", solver);
        if (!tc_solver_find(solver))
            return tc_error_set(err, TC_ENOTFOUND, tc_script_path(s), tc_setting_line(it), "solver",
                                "unknown solver '%s'", solver);
        /* the engine's parameters: names checked when a method is configured (e2_configure) */
        const tc_setting *eng = tc_script_lookup(s, it, "engine");
        tc_script_use(eng);
        if (eng && (!(tc_setting_type(eng) == TC_SETTING_GROUP) || tc_setting_length(eng) > 4))
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(eng), "engine",
                                "a group of at most 4 engine parameters");
        for (int k = 0; eng && k < tc_setting_length(eng); k++, ig->nset++) {
            const tc_setting *p = tc_setting_at(eng, k);
            if (tc_setting_type(p) != TC_SETTING_NUMBER)
                return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(p),
                                    tc_setting_name(p), "must be a number");
            snprintf(ig->set_name[k], sizeof ig->set_name[k], "%s", tc_setting_name(p));
            ig->set_value[k] = tc_setting_number(p);
        }
    }
    return TC_OK;
}

tc_status e2_read_setup(const tc_script *s, e2_setup *e, tc_error *err) {
    static const char *const scene_keys[] = {"bar_x",
                                             "bar_y",
                                             "stem_x",
                                             "stem_y",
                                             "thickness",
                                             "density",
                                             "damping_xy",
                                             "damping_theta",
                                             "finger_radius",
                                             "finger_mass",
                                             "finger_kp",
                                             "finger_kd",
                                             "finger_spin_damping",
                                             "friction",
                                             NULL};
    static const char *const rollout_keys[] = {"duration", "waypoint_dt", "trajectories", NULL};
    static const char *const gen_keys[] = {"goals", "population", "elites", "iterations",
                                           "sigma", "seed",       NULL};
    memset(e, 0, sizeof *e);
    const tc_setting *sc = tc_script_lookup(s, NULL, "scene");
    const tc_setting *ro = tc_script_lookup(s, NULL, "rollout");
    const tc_setting *ge = tc_script_lookup(s, NULL, "generate");
    if (!sc || !ro || !ge)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), 0,
                            !sc   ? "scene"
                            : !ro ? "rollout"
                                  : "generate",
                            "missing group");
    tc_status st;
    /* the scene: every length and mass positive */
    tc_t_pusher *t = &e->scene;
    const struct {
        const char *name;
        double *v, lo, hi;
    } reals[] = {{"bar_x", &t->bar_x, 1e-4, 10},
                 {"bar_y", &t->bar_y, 1e-4, 10},
                 {"stem_x", &t->stem_x, 1e-4, 10},
                 {"stem_y", &t->stem_y, 1e-4, 10},
                 {"thickness", &t->thickness, 1e-4, 10},
                 {"density", &t->density, 1e-3, 1e5},
                 {"damping_xy", &t->damping_xy, 0, 1e6},
                 {"damping_theta", &t->damping_theta, 0, 1e6},
                 {"finger_radius", &t->finger_radius, 1e-4, 1},
                 {"finger_mass", &t->finger_mass, 1e-6, 1e3},
                 {"finger_kp", &t->finger_kp, 0, 1e9},
                 {"finger_kd", &t->finger_kd, 0, 1e9},
                 {"finger_spin_damping", &t->finger_spin_damping, 0, 1e6},
                 {"friction", &t->friction, 0, 10}};
    if ((st = tc_script_allowed(s, sc, scene_keys, err))) return st;
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        if ((st = tc_script_real(s, sc, reals[i].name, reals[i].lo, reals[i].hi, reals[i].v, err)))
            return st;
    /* the rollout */
    const char *traj;
    if ((st = tc_script_allowed(s, ro, rollout_keys, err)) ||
        (st = tc_script_real(s, ro, "duration", 1e-3, 1e4, &e->duration, err)) ||
        (st = tc_script_real(s, ro, "waypoint_dt", 1e-3, 1e3, &e->waypoint_dt, err)) ||
        (st = tc_script_string(s, ro, "trajectories", &traj, err)))
        return st;
    snprintf(e->trajectories, sizeof e->trajectories, "%s", traj);
    if (e->duration / e->waypoint_dt + 1 > E2_MAXWAY)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(ro), "waypoint_dt",
                            "duration / waypoint_dt must stay below %d", E2_MAXWAY - 1);
    /* the generator: goals are (x, y, theta) triples */
    const tc_setting *goals = tc_script_lookup(s, ge, "goals");
    if ((st = tc_script_allowed(s, ge, gen_keys, err))) return st;
    if (!goals || tc_setting_length(goals) < 1 || tc_setting_length(goals) > E2_MAXTRAJ)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(ge), "goals",
                            "give 1 to %d goal poses (x, y, theta)", E2_MAXTRAJ);
    e->ngoal = tc_setting_length(goals);
    for (int i = 0; i < e->ngoal; i++) {
        const tc_setting *g = tc_setting_at(goals, i);
        int line = tc_setting_line(g);
        if (tc_setting_length(g) != 3)
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), line, "goals",
                                "goal %d must be (x, y, theta)", i + 1);
        for (int k = 0; k < 3; k++) {
            const tc_setting *v = tc_setting_at(g, k);
            if (tc_setting_type(v) != TC_SETTING_NUMBER)
                return tc_error_set(err, TC_EINVAL, tc_script_path(s), line, "goals",
                                    "goal %d: numbers only", i + 1);
            e->goal[i][k] = tc_setting_number(v);
        }
    }
    if ((st = tc_script_int(s, ge, "population", 4, 100000, &e->population, err)) ||
        (st = tc_script_int(s, ge, "elites", 1, 100000, &e->elites, err)) ||
        (st = tc_script_int(s, ge, "iterations", 1, 100000, &e->iterations, err)) ||
        (st = tc_script_int(s, ge, "seed", 0, 2147483647, &e->seed, err)) ||
        (st = tc_script_real(s, ge, "sigma", 1e-6, 10, &e->sigma, err)))
        return st;
    if (e->elites > e->population)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(ge), "elites",
                            "must not exceed population");
    /* the tier's grid */
    if ((st = tc_script_reals(s, NULL, "dts", 1e-5, 1, e->dt, E2_MAXGRID, &e->ndt, err)) ||
        (st = tc_script_reals(s, NULL, "spacings", 1e-4, 1, e->spacing, E2_MAXGRID, &e->nspacing,
                              err)) ||
        (st = tc_script_int(s, NULL, "rollouts", 1, E2_MAXTRAJ, &e->rollouts, err)))
        return st;
    /* the integrators of the grid, and what the table compares */
    if ((st = read_integrators(s, e, err))) return st;
    static const char *const cmp_keys[] = {"reference", "timing", "timing_integrator", NULL};
    const tc_setting *cmp = tc_script_lookup(s, NULL, "compare");
    const char *ref, *tim, *tin;
    if (!cmp)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), 0, "compare",
                            "missing group: compare = { reference = \"...\"; timing = \"...\"; "
                            "timing_integrator = \"...\"; }");
    if ((st = tc_script_allowed(s, cmp, cmp_keys, err)) ||
        (st = tc_script_string(s, cmp, "reference", &ref, err)) ||
        (st = tc_script_string(s, cmp, "timing", &tim, err)) ||
        (st = tc_script_string(s, cmp, "timing_integrator", &tin, err)))
        return st;
    snprintf(e->reference, sizeof e->reference, "%s", ref);
    snprintf(e->timing, sizeof e->timing, "%s", tim);
    snprintf(e->timing_integ, sizeof e->timing_integ, "%s", tin);
    /* the method the reference's entry names (the trajectory generator simulates with it) */
    const char *spec = tc_script_method_spec(s, ref);
    if (spec) snprintf(e->reference_spec, sizeof e->reference_spec, "%s", spec);
    if (!e->reference_spec[0])
        return tc_error_set(err, TC_EINVAL, tc_script_path(s),
                            tc_setting_line(tc_script_lookup(s, cmp, "reference")), "reference",
                            "no method in the script is labelled '%s'", ref);
    for (int g = 0; g < e->ninteg; g++)
        if (!strcmp(e->integ[g].name, tin)) return TC_OK;
    return tc_error_set(err, TC_EINVAL, tc_script_path(s),
                        tc_setting_line(tc_script_lookup(s, cmp, "timing_integrator")),
                        "timing_integrator", "'%s' is not among the integrators", tin);
}

tc_status e2_set_spacing(tc_method *m, double spacing, tc_error *err) {
    const char *name = tc_method_param_of_kind(m, TC_PARAM_SPACING);
    if (!name)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "spacings",
                            "method '%s' samples no points: it has no sample spacing (a parameter "
                            "of kind TC_PARAM_SPACING)",
                            m->spec);
    return tc_method_set(m, name, spacing, err);
}

tc_status e2_configure(const tc_method *m, const e2_setup *e, int g, int sp, tc_method *out,
                       tc_error *err) {
    const e2_integ *ig = &e->integ[g];
    tc_status st = TC_OK;
    /* an engine brings its own integrator: set the parameters that select it, where it has them */
    if (m->engine) {
        *out = *m;
        for (int k = 0; k < ig->nset && !st; k++)
            if (tc_method_has(out, ig->set_name[k]))
                st = tc_method_set(out, ig->set_name[k], ig->set_value[k], err);
        return st;
    }
    /* a model: the integrator's solver, every parameter kept; the grid's spacing if any */
    st = tc_method_with_solver(m, ig->solver, out, err);
    if (!st && sp >= 0) st = e2_set_spacing(out, e->spacing[sp], err);
    return st;
}

void e2_target(const e2_setup *e, const e2_traj *tr, double t, double xy[2]) {
    double u = t / e->waypoint_dt;
    int i = (int)floor(u);
    if (i >= tr->n - 1) {
        xy[0] = tr->x[tr->n - 1];
        xy[1] = tr->y[tr->n - 1];
        return;
    }
    if (i < 0) {
        i = 0;
        u = 0;
    }
    double f = u - i;
    xy[0] = (1 - f) * tr->x[i] + f * tr->x[i + 1];
    xy[1] = (1 - f) * tr->y[i] + f * tr->y[i + 1];
}

/* one rollout: the loop's context */
typedef struct rollout_ctx {
    const e2_setup *e;
    const e2_traj *tr;
    double dt, *path;
    int npath, k, was;
    e2_result *r;
} rollout_ctx;

/* targets held over the step (zero-order hold, as MuJoCo's ctrl) */
static void rollout_before(void *ctx, tc_sim *sim, long i) {
    rollout_ctx *c = ctx;
    double xy[2];
    e2_target(c->e, c->tr, i * c->dt, xy);
    tc_sim_set_target(sim, BODY_FINGER, 0, xy[0]);
    tc_sim_set_target(sim, BODY_FINGER, 1, xy[1]);
}

/* contact episodes from the geometry (the same for every method), and the path samples */
static void rollout_after(void *ctx, tc_sim *sim, long i) {
    rollout_ctx *c = ctx;
    int now = tc_sim_gap(sim, BODY_T, BODY_FINGER) <= 0;
    c->r->contacts += now && !c->was;
    c->r->breaks += c->was && !now;
    c->was = now;
    double q[7];
    tc_sim_body_q(sim, BODY_T, q);
    const double t = (i + 1) * c->dt, T = c->e->duration;
    while (c->path && c->k < c->npath && t >= (double)c->k * T / (c->npath - 1) - 1e-12) {
        c->path[4 * c->k] = t;
        c->path[4 * c->k + 1] = q[0];
        c->path[4 * c->k + 2] = q[1];
        c->path[4 * c->k + 3] = q[2];
        c->k++;
    }
    c->r->steps++;
}

/* the T's final pose */
static void rollout_end(void *ctx, tc_sim *sim) {
    rollout_ctx *c = ctx;
    double q[7];
    tc_sim_body_q(sim, BODY_T, q);
    c->r->final[0] = q[0];
    c->r->final[1] = q[1];
    c->r->final[2] = q[2];
}

void e2_rollout(const e2_setup *e, const tc_scene *sc, const tc_method *m, double dt,
                const e2_traj *tr, double *path, int npath, e2_result *r) {
    memset(r, 0, sizeof *r);
    rollout_ctx c = {e, tr, dt, path, npath, 0, 0, r};
    tc_sim_loop loop = {.dt = dt,
                        .steps = (long)lround(e->duration / dt),
                        .every = 1,
                        .before = rollout_before,
                        .after = rollout_after,
                        .end = rollout_end,
                        .ctx = &c};
    tc_series s = {0};
    tc_item it = {0};
    tc_simulate(sc, m, &loop, &s, &it);
    r->status = it.status;
    snprintf(r->reason, sizeof r->reason, "%s", it.reason);
    r->step_s = r->steps ? s.wall_s / r->steps : NAN;
}

/* the error for trajectory k ending after n of its nway waypoints */
static tc_status short_traj(const char *path, int line, int k, int n, const e2_setup *e, int nway,
                            tc_error *err) {
    return tc_error_set(err, TC_EPARSE, path, line, NULL,
                        "trajectory %d stops at %d waypoints; the script's duration %g s needs %d "
                        "(regenerate: touche generate e2)",
                        k, n, e->duration, nway);
}

tc_status e2_read_trajectories(const char *path, const e2_setup *e, e2_traj *tr, int *n,
                               tc_error *err) {
    /* every trajectory holds the waypoints of the whole rollout, 0, waypoint_dt, ..., duration */
    const int nway = (int)lround(e->duration / e->waypoint_dt) + 1;
    const tc_csv_column col[] = {{"traj", TC_CSV_INT, 0, E2_MAXTRAJ - 1},
                                 {"t_s", TC_CSV_REAL, 0, e->duration + 0.5 * e->waypoint_dt},
                                 {"x_m", TC_CSV_REAL, -10, 10},
                                 {"y_m", TC_CSV_REAL, -10, 10}};
    tc_csv_reader r;
    tc_status st = tc_csv_open(&r, path, ',', col, 4, NULL, NULL, err);
    if (st)
        return st == TC_EIO ? tc_error_set(err, TC_EIO, path, 0, NULL,
                                           "cannot read the trajectories (regenerate: touche "
                                           "generate e2)")
                            : st;
    memset(tr, 0, sizeof *tr * E2_MAXTRAJ);
    int count = 0, got;
    double v[4];
    /* rows in order: trajectory 0's waypoints, then 1's, ...; none missing, none twice */
    while (!(st = tc_csv_next(&r, v, &got, err)) && got) {
        int k = (int)v[0], i = (int)lround(v[1] / e->waypoint_dt);
        if (fabs(i * e->waypoint_dt - v[1]) > 1e-9)
            st = tc_error_set(err, TC_EPARSE, path, r.line, "t_s",
                              "%g s is not a multiple of waypoint_dt = %g s", v[1], e->waypoint_dt);
        else if (!(k == count - 1 && i == tr[k].n) && !(k == count && i == 0))
            st = tc_error_set(err, TC_EPARSE, path, r.line, NULL,
                              "expected trajectory %d at t = %g s%s (rows sorted by trajectory, "
                              "then time, every waypoint once)",
                              count ? count - 1 : 0, count ? tr[count - 1].n * e->waypoint_dt : 0,
                              count && tr[count - 1].n == nway ? " or the next one at t = 0" : "");
        else if (k == count && count && tr[count - 1].n != nway)
            st = short_traj(path, r.line, count - 1, tr[count - 1].n, e, nway, err);
        if (st) break;
        if (k == count) count++;
        tr[k].x[i] = v[2];
        tr[k].y[i] = v[3];
        tr[k].n = i + 1;
    }
    int last = r.line;
    tc_csv_close(&r);
    if (st) return st;
    if (!count)
        return tc_error_set(err, TC_EPARSE, path, last, NULL, "no trajectories in the file");
    if (tr[count - 1].n != nway)
        return short_traj(path, last, count - 1, tr[count - 1].n, e, nway, err);
    *n = count;
    return TC_OK;
}

tc_status e2_write_trajectories(const char *path, const e2_traj *tr, int n, const e2_setup *e,
                                const char *provenance, tc_error *err) {
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    fprintf(o.f, "%s", provenance);
    fprintf(o.f, "traj,t_s,x_m,y_m\n");
    for (int k = 0; k < n; k++)
        for (int i = 0; i < tr[k].n; i++)
            fprintf(o.f, "%d,%.6f,%.17g,%.17g\n", k, i * e->waypoint_dt, tr[k].x[i], tr[k].y[i]);
    return tc_outfile_commit(&o, err);
}

int e2_points(const tc_scene *sc, double spacing) {
    tc_aopc c;
    if (tc_aopc_alloc(&c, &sc->body[BODY_T].shape, spacing, NULL)) return 0;
    int n = c.n;
    tc_aopc_free(&c);
    return n;
}

tc_status e2_step_times(const e2_setup *e, const tc_scene *sc, const tc_method *m,
                        const tc_method *ref, const e2_traj *tr, double dt, int steps,
                        const double *spacing, int n, int *points, double *step_s, double *ref_s,
                        tc_error *err) {
    e2_setup run = *e;
    run.duration = steps * dt;
    /* the fastest of three runs: a 2 us step is easily disturbed by anything else the machine does
     */
    e2_result r;
    *ref_s = INFINITY;
    for (int k = 0; k < 3; k++) {
        e2_rollout(&run, sc, ref, dt, tr, NULL, 0, &r);
        *ref_s = r.status ? NAN : fmin(*ref_s, r.step_s);
    }
    for (int i = 0; i < n; i++) {
        tc_method mi = *m;
        tc_status st = e2_set_spacing(&mi, spacing[i], err);
        if (st) return st;
        points[i] = e2_points(sc, spacing[i]);
        step_s[i] = INFINITY;
        for (int k = 0; k < 3; k++) {
            e2_rollout(&run, sc, &mi, dt, tr, NULL, 0, &r);
            step_s[i] = r.status ? NAN : fmin(step_s[i], r.step_s);
            if (isnan(step_s[i])) break;
        }
    }
    return TC_OK;
}
