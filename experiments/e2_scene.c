/* SPDX-License-Identifier: MIT */
/* E2 setup, the T-and-finger scene, finger trajectories and one rollout */
#include "e2.h"
#include "geom/tc_aopc.h"
#include "core/tc_fs.h"
#include "report/tc_progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BODY_T = 0, BODY_FINGER = 1 };

tc_status e2_read_setup(const tc_script *s, e2_setup *e, tc_error *err) {
    static const char *const scene_keys[] = {
        "bar_x", "bar_y", "stem_x", "stem_y", "thickness", "density", "damping_xy", "damping_theta",
        "finger_radius", "finger_mass", "finger_kp", "finger_kd", "finger_spin_damping", "friction",
        NULL};
    static const char *const rollout_keys[] = {"duration", "waypoint_dt", "trajectories", NULL};
    static const char *const gen_keys[] = {"goals", "population", "elites", "iterations", "sigma",
                                           "seed", NULL};
    memset(e, 0, sizeof *e);
    config_setting_t *sc = tc_script_lookup(s, NULL, "scene");
    config_setting_t *ro = tc_script_lookup(s, NULL, "rollout");
    config_setting_t *ge = tc_script_lookup(s, NULL, "generate");
    if (!sc || !ro || !ge)
        return tc_error_set(err, TC_EINVAL, s->path, 0, !sc ? "scene" : !ro ? "rollout" : "generate",
                            "missing group");
    tc_status st;
    /* the scene: every length and mass positive */
    const struct { const char *name; double *v, lo, hi; } reals[] = {
        {"bar_x", &e->bar_x, 1e-4, 10}, {"bar_y", &e->bar_y, 1e-4, 10},
        {"stem_x", &e->stem_x, 1e-4, 10}, {"stem_y", &e->stem_y, 1e-4, 10},
        {"thickness", &e->thickness, 1e-4, 10}, {"density", &e->density, 1e-3, 1e5},
        {"damping_xy", &e->damping_xy, 0, 1e6}, {"damping_theta", &e->damping_theta, 0, 1e6},
        {"finger_radius", &e->finger_radius, 1e-4, 1}, {"finger_mass", &e->finger_mass, 1e-6, 1e3},
        {"finger_kp", &e->finger_kp, 0, 1e9}, {"finger_kd", &e->finger_kd, 0, 1e9},
        {"finger_spin_damping", &e->finger_spin_damping, 0, 1e6}, {"friction", &e->friction, 0, 10}};
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
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(ro), "waypoint_dt",
                            "duration / waypoint_dt must stay below %d", E2_MAXWAY - 1);
    /* the generator: goals are (x, y, theta) triples */
    config_setting_t *goals = config_setting_lookup(ge, "goals");
    if ((st = tc_script_allowed(s, ge, gen_keys, err))) return st;
    if (!goals || config_setting_length(goals) < 1 || config_setting_length(goals) > E2_MAXTRAJ)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(ge), "goals",
                            "give 1 to %d goal poses (x, y, theta)", E2_MAXTRAJ);
    e->ngoal = config_setting_length(goals);
    for (int i = 0; i < e->ngoal; i++) {
        config_setting_t *g = config_setting_get_elem(goals, (unsigned)i);
        int line = (int)config_setting_source_line(g);
        if (!config_setting_is_aggregate(g) || config_setting_length(g) != 3)
            return tc_error_set(err, TC_EINVAL, s->path, line, "goals", "goal %d must be (x, y, theta)", i + 1);
        for (int k = 0; k < 3; k++) {
            config_setting_t *v = config_setting_get_elem(g, (unsigned)k);
            if (config_setting_type(v) != CONFIG_TYPE_FLOAT && config_setting_type(v) != CONFIG_TYPE_INT)
                return tc_error_set(err, TC_EINVAL, s->path, line, "goals", "goal %d: numbers only", i + 1);
            e->goal[i][k] = config_setting_type(v) == CONFIG_TYPE_FLOAT ? config_setting_get_float(v)
                                                                        : config_setting_get_int(v);
        }
    }
    if ((st = tc_script_int(s, ge, "population", 4, 100000, &e->population, err)) ||
        (st = tc_script_int(s, ge, "elites", 1, 100000, &e->elites, err)) ||
        (st = tc_script_int(s, ge, "iterations", 1, 100000, &e->iterations, err)) ||
        (st = tc_script_int(s, ge, "seed", 0, 2147483647, &e->seed, err)) ||
        (st = tc_script_real(s, ge, "sigma", 1e-6, 10, &e->sigma, err)))
        return st;
    if (e->elites > e->population)
        return tc_error_set(err, TC_EINVAL, s->path, (int)config_setting_source_line(ge), "elites",
                            "must not exceed population");
    /* the tier's grid */
    if ((st = tc_script_reals(s, NULL, "dts", 1e-5, 1, e->dt, E2_MAXGRID, &e->ndt, err)) ||
        (st = tc_script_reals(s, NULL, "spacings", 1e-4, 1, e->spacing, E2_MAXGRID, &e->nspacing, err)) ||
        (st = tc_script_int(s, NULL, "rollouts", 1, E2_MAXTRAJ, &e->rollouts, err)))
        return st;
    return TC_OK;
}

tc_status e2_build_scene(const e2_setup *e, tc_scene *sc, tc_error *err) {
    *sc = tc_default_scene();
    sc->friction = e->friction;
    /* the T: crossbar on top of the stem, the stem's bottom edge at y = 0 before centring */
    tc_shape t = tc_box(0, 0, 0);
    t.type = TC_SHAPE_COMPOUND, t.npart = 2;
    t.part[0] = (tc_shape_part){TC_SHAPE_BOX, {e->bar_x / 2, e->bar_y / 2, e->thickness / 2},
                                {0, e->stem_y + e->bar_y / 2, 0}};
    t.part[1] = (tc_shape_part){TC_SHAPE_BOX, {e->stem_x / 2, e->stem_y / 2, e->thickness / 2},
                                {0, e->stem_y / 2, 0}};
    tc_body_desc T = tc_default_body("T", t);
    T.joint = TC_JOINT_PLANAR;
    T.pos[2] = e->thickness / 2;
    T.damping[0] = T.damping[1] = e->damping_xy, T.damping[2] = e->damping_theta;
    tc_status st = tc_scene_add(sc, &T, e->density, err);
    if (st) return st;
    /* centring moved the T so its COM sits at (0, y_com): put the COM at the origin */
    sc->body[BODY_T].pos[0] = 0, sc->body[BODY_T].pos[1] = 0;
    /* the finger: a planar sphere at the T's mid-height with x-y position servos */
    tc_body_desc f = tc_default_body("finger", tc_sphere(e->finger_radius));
    f.joint = TC_JOINT_PLANAR;
    e2_finger_start(e, f.pos);
    f.pos[2] = e->thickness / 2;
    f.kp[0] = f.kp[1] = e->finger_kp;
    f.damping[0] = f.damping[1] = e->finger_kd, f.damping[2] = e->finger_spin_damping;
    f.mass = e->finger_mass;
    f.inertia[0] = f.inertia[1] = f.inertia[2] = 0.4 * e->finger_mass * e->finger_radius * e->finger_radius;
    return tc_scene_add(sc, &f, 0, err);
}

void e2_finger_start(const e2_setup *e, double xy[2]) {
    /* below the stem's bottom, clear of it by two radii; the COM is (bar area-weighted) */
    double a1 = e->bar_x * e->bar_y, a2 = e->stem_x * e->stem_y;
    double ycom = (a1 * (e->stem_y + e->bar_y / 2) + a2 * e->stem_y / 2) / (a1 + a2);
    xy[0] = 0, xy[1] = -ycom - 3 * e->finger_radius;
}

void e2_target(const e2_setup *e, const e2_traj *tr, double t, double xy[2]) {
    double u = t / e->waypoint_dt;
    int i = (int)floor(u);
    if (i >= tr->n - 1) {
        xy[0] = tr->x[tr->n - 1], xy[1] = tr->y[tr->n - 1];
        return;
    }
    if (i < 0) i = 0, u = 0;
    double f = u - i;
    xy[0] = (1 - f) * tr->x[i] + f * tr->x[i + 1];
    xy[1] = (1 - f) * tr->y[i] + f * tr->y[i + 1];
}

/* 1 when the finger touches the T (geometric, the same test for every method) */
static int touching(const tc_scene *sc, const tc_system *sys, const double *q) {
    tc_body_state bs[2];
    tc_system_kinematics(sys, 0, q, NULL, bs);
    double d[3], p[3], n[3];
    for (int k = 0; k < 3; k++) d[k] = bs[BODY_FINGER].pos[k] - bs[BODY_T].pos[k];
    for (int k = 0; k < 3; k++)
        p[k] = bs[BODY_T].R[k] * d[0] + bs[BODY_T].R[3 + k] * d[1] + bs[BODY_T].R[6 + k] * d[2];
    return tc_shape_distance(&sc->body[BODY_T].shape, p, n) <= sc->body[BODY_FINGER].shape.size[0];
}

void e2_rollout(const e2_setup *e, const tc_scene *sc, const tc_method *m, double dt,
                const e2_traj *tr, double *path, int npath, e2_result *r) {
    memset(r, 0, sizeof *r);
    tc_sim *sim = NULL;
    tc_error err;
    tc_error_clear(&err);
    if ((r->status = tc_sim_alloc(&sim, sc, m, dt, &err))) {
        snprintf(r->reason, sizeof r->reason, "%s", err.msg);
        return;
    }
    const tc_system *sys = tc_sim_system(sim);
    const int qt = sys->qadr[BODY_T], cf = sys->vadr[BODY_FINGER];
    const int nsteps = (int)lround(e->duration / dt);
    double *q = tc_sim_q(sim), *ctrl = tc_sim_ctrl(sim), xy[2];
    int was = 0, k = 0;
    double t0 = tc_wall_time();
    for (int i = 0; i < nsteps; i++) {
        /* targets held over the step (zero-order hold, as MuJoCo's ctrl) */
        e2_target(e, tr, i * dt, xy);
        ctrl[cf] = xy[0], ctrl[cf + 1] = xy[1];
        if ((r->status = tc_sim_step(sim))) {
            tc_sim_warnings(sim, r->reason, sizeof r->reason);
            if (!r->reason[0]) snprintf(r->reason, sizeof r->reason, "%s", tc_status_str(r->status));
            break;
        }
        int now = touching(sc, sys, q);
        r->contacts += now && !was;
        r->breaks += was && !now;
        was = now;
        /* evenly spaced path samples */
        while (path && k < npath && (i + 1) * dt >= (double)k * e->duration / (npath - 1) - 1e-12) {
            path[4 * k] = (i + 1) * dt, path[4 * k + 1] = q[qt], path[4 * k + 2] = q[qt + 1];
            path[4 * k + 3] = q[qt + 2];
            k++;
        }
        r->steps++;
    }
    r->step_s = r->steps ? (tc_wall_time() - t0) / r->steps : NAN;
    r->final[0] = q[qt], r->final[1] = q[qt + 1], r->final[2] = q[qt + 2];
    tc_sim_free(sim);
}

tc_status e2_read_trajectories(const char *path, const e2_setup *e, e2_traj *tr, int *n,
                               tc_error *err) {
    FILE *f = fopen(path, "r");
    if (!f)
        return tc_error_set(err, TC_EIO, path, 0, NULL,
                            "cannot read the trajectories (regenerate: touche generate e2)");
    char line[256];
    int lineno = 0, count = 0;
    memset(tr, 0, sizeof *tr * E2_MAXTRAJ);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "traj,", 5)) continue;
        int k;
        double t, x, y;
        if (sscanf(line, "%d,%lf,%lf,%lf", &k, &t, &x, &y) != 4 || k < 0 || k >= E2_MAXTRAJ) {
            fclose(f);
            return tc_error_set(err, TC_EPARSE, path, lineno, NULL, "expected 'traj,t_s,x_m,y_m'");
        }
        int i = (int)lround(t / e->waypoint_dt);
        if (i < 0 || i >= E2_MAXWAY || fabs(i * e->waypoint_dt - t) > 1e-9) {
            fclose(f);
            return tc_error_set(err, TC_EPARSE, path, lineno, NULL,
                                "t = %g s is not a multiple of waypoint_dt = %g s", t, e->waypoint_dt);
        }
        tr[k].x[i] = x, tr[k].y[i] = y;
        tr[k].n = i + 1 > tr[k].n ? i + 1 : tr[k].n;
        count = k + 1 > count ? k + 1 : count;
    }
    fclose(f);
    if (!count) return tc_error_set(err, TC_EPARSE, path, 0, NULL, "no trajectories in the file");
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

tc_status e2_step_times(const e2_setup *e, const tc_scene *sc, const tc_method *m,
                        const tc_method *ref, const e2_traj *tr, double dt, int steps,
                        const double *spacing, int n, int *points, double *step_s, double *ref_s,
                        tc_error *err) {
    e2_setup run = *e;
    run.duration = steps * dt;
    /* the fastest of three runs: a 2 us step is easily disturbed by anything else the machine does */
    e2_result r;
    *ref_s = INFINITY;
    for (int k = 0; k < 3; k++) {
        e2_rollout(&run, sc, ref, dt, tr, NULL, 0, &r);
        *ref_s = r.status ? NAN : fmin(*ref_s, r.step_s);
    }
    for (int i = 0; i < n; i++) {
        tc_method mi = *m;
        tc_status st = tc_params_set(&mi.mparams, "spacing", spacing[i], err);
        if (st) return st;
        tc_aopc c;
        points[i] = tc_aopc_alloc(&c, &sc->body[BODY_T].shape, spacing[i], NULL) ? 0 : c.n;
        if (points[i]) tc_aopc_free(&c);
        step_s[i] = INFINITY;
        for (int k = 0; k < 3; k++) {
            e2_rollout(&run, sc, &mi, dt, tr, NULL, 0, &r);
            step_s[i] = r.status ? NAN : fmin(step_s[i], r.step_s);
            if (isnan(step_s[i])) break;
        }
    }
    return TC_OK;
}
