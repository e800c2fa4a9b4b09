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

/* one integrator { name; solver; engine = { ... }; } of the grid into ig; g: its place */
static tc_status read_integrator(const tc_script *s, const tc_setting *it, e2_setup *e, int g,
                                 tc_error *err) {
    static const char *const keys[] = {"name", "solver", "engine", NULL};
    e2_integ *ig = &e->integ[g];
    const char *name, *solver;
    tc_status st;
    if ((st = tc_script_allowed(s, it, keys, err)) ||
        (st = tc_script_string(s, it, "name", &name, err)) ||
        (st = tc_script_string(s, it, "solver", &solver, err)))
        return st;
    /* the name becomes part of metric names and CSV fields: a label's characters, once */
    char why[200];
    if (strlen(name) >= sizeof ig->name)
        return tc_script_fail(s, it, "name", err, "integrator '%s' is too long", name);
    if (!tc_metrics_name_ok(name, why, sizeof why))
        return tc_script_fail(s, it, "name", err, "integrator '%s' %s", name, why);
    for (int j = 0; j < g; j++)
        if (!strcmp(e->integ[j].name, name))
            return tc_script_fail(s, it, "name", err, "integrator '%s' is named twice", name);
    snprintf(ig->name, sizeof ig->name, "%s", name);
    snprintf(ig->solver, sizeof ig->solver, "%s", solver);
    if (!tc_solver_find(solver))
        return tc_error_set(err, TC_ENOTFOUND, tc_script_path(s), tc_setting_line(it), "solver",
                            "unknown solver '%s'", solver);
    /* the engine's parameters: names checked when a method is configured (e2_configure) */
    const tc_setting *eng = tc_script_lookup(s, it, "engine");
    tc_script_use(eng);
    if (eng && (tc_setting_type(eng) != TC_SETTING_GROUP || tc_setting_length(eng) > 4))
        return tc_script_fail(s, eng, "engine", err, "a group of at most 4 engine parameters");
    for (int k = 0; k < tc_setting_length(eng); k++, ig->nset++) {
        const tc_setting *p = tc_setting_at(eng, k);
        if (tc_setting_type(p) != TC_SETTING_NUMBER)
            return tc_script_fail(s, p, tc_setting_name(p), err, "must be a number");
        snprintf(ig->set_name[k], sizeof ig->set_name[k], "%s", tc_setting_name(p));
        ig->set_value[k] = tc_setting_number(p);
    }
    return TC_OK;
}

/* integrators = ( { name = "RK4"; solver = "rk4"; engine = { integrator = 1; }; }, ... ) */
static tc_status read_integrators(const tc_script *s, e2_setup *e, tc_error *err) {
    const tc_setting *l;
    tc_status st = tc_script_list(s, "integrators", 1, E2_MAXINTEG,
                                  "{ name; solver; engine; } groups", &l, &e->ninteg, err);
    for (int g = 0; g < e->ninteg && !st; g++)
        st = read_integrator(s, tc_setting_at(l, g), e, g, err);
    return st;
}

/* the generator's goals: 1 to E2_MAXTRAJ (x, y, theta) triples */
static tc_status read_goals(const tc_script *s, e2_setup *e, tc_error *err) {
    const tc_setting *goals = tc_script_lookup(s, NULL, "generate.goals");
    if (tc_setting_length(goals) < 1 || tc_setting_length(goals) > E2_MAXTRAJ)
        return tc_script_fail(s, goals, "goals", err, "give 1 to %d goal poses (x, y, theta)",
                              E2_MAXTRAJ);
    e->ngoal = tc_setting_length(goals);
    for (int i = 0; i < e->ngoal; i++) {
        const tc_setting *g = tc_setting_at(goals, i);
        if (tc_setting_length(g) != 3)
            return tc_script_fail(s, g, "goals", err, "goal %d must be (x, y, theta)", i + 1);
        for (int k = 0; k < 3; k++) {
            e->goal[i][k] = tc_setting_number(tc_setting_at(g, k));
            if (isnan(e->goal[i][k]))
                return tc_script_fail(s, g, "goals", err, "goal %d: numbers only", i + 1);
        }
    }
    return TC_OK;
}

/* the scene (SI units): every length and mass positive */
static const tc_field scene_fields[] = {
    TC_FIELD_R(tc_t_pusher, bar_x, "bar_x", 1e-4, 10),
    TC_FIELD_R(tc_t_pusher, bar_y, "bar_y", 1e-4, 10),
    TC_FIELD_R(tc_t_pusher, stem_x, "stem_x", 1e-4, 10),
    TC_FIELD_R(tc_t_pusher, stem_y, "stem_y", 1e-4, 10),
    TC_FIELD_R(tc_t_pusher, thickness, "thickness", 1e-4, 10),
    TC_FIELD_R(tc_t_pusher, density, "density", 1e-3, 1e5),
    TC_FIELD_R(tc_t_pusher, damping_xy, "damping_xy", 0, 1e6),
    TC_FIELD_R(tc_t_pusher, damping_theta, "damping_theta", 0, 1e6),
    TC_FIELD_R(tc_t_pusher, finger_radius, "finger_radius", 1e-4, 1),
    TC_FIELD_R(tc_t_pusher, finger_mass, "finger_mass", 1e-6, 1e3),
    TC_FIELD_R(tc_t_pusher, finger_kp, "finger_kp", 0, 1e9),
    TC_FIELD_R(tc_t_pusher, finger_kd, "finger_kd", 0, 1e9),
    TC_FIELD_R(tc_t_pusher, finger_spin_damping, "finger_spin_damping", 0, 1e6),
    TC_FIELD_R(tc_t_pusher, friction, "friction", 0, 10),
    TC_FIELD_END};

/* the rollout: its length (s), the waypoints' spacing (s) and their file */
static const tc_field rollout_fields[] = {
    TC_FIELD_R(e2_setup, duration, "duration", 1e-3, 1e4),
    TC_FIELD_R(e2_setup, waypoint_dt, "waypoint_dt", 1e-3, 1e3),
    TC_FIELD_S(e2_setup, trajectories, "trajectories"), TC_FIELD_END};

/* what the table compares against, and the method timed against its points */
static const tc_field compare_fields[] = {
    TC_FIELD_S(e2_setup, reference, "reference"), TC_FIELD_S(e2_setup, timing, "timing"),
    TC_FIELD_S(e2_setup, timing_integ, "timing_integrator"), TC_FIELD_END};

/* the generator's search (its goals apart) and the tier's grid, by dotted path */
static const tc_field search_fields[] = {
    TC_FIELD_I(e2_setup, population, "generate.population", 4, 100000),
    TC_FIELD_I(e2_setup, elites, "generate.elites", 1, 100000),
    TC_FIELD_I(e2_setup, iterations, "generate.iterations", 1, 100000),
    TC_FIELD_I(e2_setup, seed, "generate.seed", 0, 2147483647),
    TC_FIELD_R(e2_setup, sigma, "generate.sigma", 1e-6, 10),
    TC_FIELD_RS(e2_setup, dt, ndt, "dts", 1e-5, 1),
    TC_FIELD_RS(e2_setup, spacing, nspacing, "spacings", 1e-4, 1),
    TC_FIELD_I(e2_setup, rollouts, "rollouts", 1, E2_MAXTRAJ),
    TC_FIELD_END};

tc_status e2_read_setup(const tc_script *s, e2_setup *e, tc_error *err) {
    static const char *const gen_keys[] = {"goals", "population", "elites", "iterations",
                                           "sigma", "seed",       NULL};
    memset(e, 0, sizeof *e);
    tc_status st;
    if ((st = tc_script_read(s, "scene", scene_fields, &e->scene, err)) ||
        (st = tc_script_read(s, "rollout", rollout_fields, e, err)) ||
        (st = tc_script_allowed(s, tc_script_lookup(s, NULL, "generate"), gen_keys, err)) ||
        (st = read_goals(s, e, err)) || (st = tc_script_read(s, NULL, search_fields, e, err)) ||
        (st = read_integrators(s, e, err)) ||
        (st = tc_script_read(s, "compare", compare_fields, e, err)))
        return st;
    /* the settings that must agree with each other */
    if (e->duration / e->waypoint_dt + 1 > E2_MAXWAY)
        return tc_script_fail(s, tc_script_lookup(s, NULL, "rollout"), "waypoint_dt", err,
                              "duration / waypoint_dt must stay below %d", E2_MAXWAY - 1);
    if (e->elites > e->population)
        return tc_script_fail(s, tc_script_lookup(s, NULL, "generate"), "elites", err,
                              "must not exceed population");
    /* the method the reference's entry names (the trajectory generator simulates with it) */
    const char *spec = tc_script_method_spec(s, e->reference);
    if (spec) snprintf(e->reference_spec, sizeof e->reference_spec, "%s", spec);
    if (!e->reference_spec[0])
        return tc_script_fail(s, tc_script_lookup(s, NULL, "compare.reference"), "reference", err,
                              "no method in the script is labelled '%s'", e->reference);
    for (int g = 0; g < e->ninteg; g++)
        if (!strcmp(e->integ[g].name, e->timing_integ)) return TC_OK;
    return tc_script_fail(s, tc_script_lookup(s, NULL, "compare.timing_integrator"),
                          "timing_integrator", err, "'%s' is not among the integrators",
                          e->timing_integ);
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

/* the target of trajectory tr at time t (s): linear between waypoints, the last one after */
static void target(const e2_setup *e, const e2_traj *tr, double t, double xy[2]) {
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
    target(c->e, c->tr, i * c->dt, xy);
    tc_sim_set_target(sim, E2_BODY_FINGER, 0, xy[0]);
    tc_sim_set_target(sim, E2_BODY_FINGER, 1, xy[1]);
}

/* contact episodes from the geometry (the same for every method), and the path samples */
static void rollout_after(void *ctx, tc_sim *sim, long i) {
    rollout_ctx *c = ctx;
    int now = tc_sim_gap(sim, E2_BODY_T, E2_BODY_FINGER) <= 0;
    c->r->contacts += now && !c->was;
    c->r->breaks += c->was && !now;
    c->was = now;
    double q[7];
    tc_sim_body_q(sim, E2_BODY_T, q);
    const double t = (i + 1) * c->dt, T = c->e->duration;
    while (c->path && c->k < c->npath && t >= (double)c->k * T / (c->npath - 1) - 1e-12) {
        c->path[4 * c->k] = t;
        memcpy(c->path + 4 * c->k + 1, q, 3 * sizeof *q);
        c->k++;
    }
}

/* the T's final pose */
static void rollout_end(void *ctx, tc_sim *sim) {
    rollout_ctx *c = ctx;
    double q[7];
    tc_sim_body_q(sim, E2_BODY_T, q);
    memcpy(c->r->final, q, sizeof c->r->final);
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
    r->resid = it.resid;
    snprintf(r->reason, sizeof r->reason, "%s", it.reason);
    r->steps = (int)s.steps;
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
    if (tc_aopc_alloc(&c, &sc->body[E2_BODY_T].shape, spacing, NULL)) return 0;
    int n = c.n;
    tc_aopc_free(&c);
    return n;
}

/* the fastest of three runs' wall time per step (s) at 2 ms, NaN when one fails: a 2 us step is
 * easily disturbed by anything else the machine does */
static double fastest(const e2_setup *e, const tc_scene *sc, const tc_method *m,
                      const e2_traj *tr) {
    double best = INFINITY;
    e2_result r;
    for (int k = 0; k < 3 && !isnan(best); k++) {
        e2_rollout(e, sc, m, 0.002, tr, NULL, 0, &r);
        best = r.status ? NAN : fmin(best, r.step_s);
    }
    return best;
}

tc_status e2_step_times(const tc_exp *x, const e2_setup *e, const tc_scene *sc, const e2_traj *tr,
                        int steps, const double *spacing, int n, int *points, double *step_s,
                        double *ref_s, tc_method m[2], tc_error *err) {
    const int timed = tc_exp_method_find(x, e->timing), ref = tc_exp_method_find(x, e->reference);
    if (timed < 0 || ref < 0)
        return tc_error_set(err, TC_EINVAL, tc_script_path(tc_exp_script(x)), 0, "compare",
                            "the script must list the methods '%s' and '%s'", e->timing,
                            e->reference);
    /* both with the timing integrator, over the first `steps` steps of the trajectory */
    int g = 0;
    while (g < e->ninteg && strcmp(e->integ[g].name, e->timing_integ))
        g++;
    tc_status st = e2_configure(tc_exp_method(x, timed), e, g, -1, &m[0], err);
    if (!st) st = e2_configure(tc_exp_method(x, ref), e, g, -1, &m[1], err);
    if (st) return st;
    e2_setup run = *e;
    run.duration = steps * 0.002;
    *ref_s = fastest(&run, sc, &m[1], tr);
    for (int i = 0; i < n; i++) {
        tc_method mi = m[0];
        if ((st = e2_set_spacing(&mi, spacing[i], err))) return st;
        points[i] = e2_points(sc, spacing[i]);
        step_s[i] = fastest(&run, sc, &mi, tr);
    }
    return TC_OK;
}

tc_status e2_load(const tc_script *s, const char *source_dir, e2_setup *e, tc_scene *sc,
                  e2_traj *tr, int *ntr, tc_error *err) {
    char path[1100];
    tc_status st = e2_read_setup(s, e, err);
    if (!st) st = tc_scene_t_pusher(sc, &e->scene, err);
    if (st) return st;
    /* a relative path is the source tree's (data/...), an absolute one the user's own */
    tc_path_under(source_dir, e->trajectories, path, sizeof path);
    if ((st = e2_read_trajectories(path, e, tr, ntr, err))) return st;
    /* as many rollouts as the script asks, each its own trajectory */
    if (e->rollouts > *ntr)
        return tc_script_fail_at(s, "rollouts", err, "%d rollouts, but %s holds %d trajectories",
                                 e->rollouts, path, *ntr);
    return TC_OK;
}
