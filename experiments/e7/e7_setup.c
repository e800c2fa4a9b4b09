/* SPDX-License-Identifier: MIT */
/* E7 setup: every setting by dotted path (a tier may override any), the compounds of the pile,
 * the per-method pile limits, the scenes and their closed forms, and the measures of (a)-(c) */
#include "experiments/e7/e7.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* the numbers by dotted path (a tier may override any), each in its range */
static const tc_field e7_fields[] = {
    TC_FIELD_R(e7_setup, gravity, "scene.gravity", 0, 100),
    TC_FIELD_R(e7_setup, dt, "scene.dt", 1e-6, 0.1),
    TC_FIELD_R(e7_setup, tolerance, "scene.tolerance", 0, 1),
    TC_FIELD_I(e7_setup, every, "scene.every", 1, 1 << 20),
    TC_FIELD_R(e7_setup, a_half, "slide.half_size", 1e-3, 10),
    TC_FIELD_R(e7_setup, a_mass, "slide.mass", 1e-3, 1e6),
    TC_FIELD_R(e7_setup, a_v0, "slide.v0", 1e-6, 100),
    TC_FIELD_R(e7_setup, a_mu, "slide.friction", 0, 10),
    TC_FIELD_R(e7_setup, a_seconds, "slide.seconds", 1e-3, 1e3),
    TC_FIELD_R(e7_setup, a_stop, "slide.stop_speed", 1e-12, 10),
    TC_FIELD_R(e7_setup, b_half, "incline.half_size", 1e-3, 10),
    TC_FIELD_R(e7_setup, b_mass, "incline.mass", 1e-3, 1e6),
    TC_FIELD_R(e7_setup, b_mu, "incline.friction", 0, 10),
    TC_FIELD_R(e7_setup, b_seconds, "incline.seconds", 1e-3, 1e3),
    TC_FIELD_R(e7_setup, b_fit_from, "incline.fit_from", 0, 1e3),
    TC_FIELD_R(e7_setup, b_stick, "incline.stick_speed", 0, 10),
    TC_FIELD_RS(e7_setup, b_offset, b_n, "incline.offsets", -89, 89),
    TC_FIELD_R(e7_setup, c_radius, "roll.radius", 1e-3, 10),
    TC_FIELD_R(e7_setup, c_mass, "roll.mass", 1e-3, 1e6),
    TC_FIELD_R(e7_setup, c_v0, "roll.v0", 1e-6, 100),
    TC_FIELD_R(e7_setup, c_mu, "roll.friction", 0, 10),
    TC_FIELD_R(e7_setup, c_seconds, "roll.seconds", 1e-3, 1e3),
    TC_FIELD_R(e7_setup, c_slip, "roll.slip", 1e-12, 0.5),
    TC_FIELD_R(e7_setup, pile.size_lo, "pile.size_lo", 1e-4, 10),
    TC_FIELD_R(e7_setup, pile.size_hi, "pile.size_hi", 1e-4, 10),
    TC_FIELD_R(e7_setup, pile.density, "pile.density", 1e-3, 1e5),
    TC_FIELD_R(e7_setup, pile.wall_height, "pile.wall_height", 1e-3, 100),
    TC_FIELD_R(e7_setup, pile.fill, "pile.fill", 1e-3, 1),
    TC_FIELD_R(e7_setup, pile.friction, "pile.friction", 0, 10),
    TC_FIELD_R(e7_setup, d_dt, "pile.dt", 1e-6, 0.1),
    TC_FIELD_R(e7_setup, d_seconds, "pile.seconds", 1e-3, 1e3),
    TC_FIELD_R(e7_setup, d_measure_from, "pile.measure_from", 0, 1e3),
    TC_FIELD_R(e7_setup, d_margin, "pile.margin", 0, 1),
    TC_FIELD_R(e7_setup, d_linear, "pile.linear", 0, 10),
    TC_FIELD_I(e7_setup, d_seed, "pile.seed", 0, 1 << 30),
    TC_FIELD_I(e7_setup, d_every, "pile.every", 1, 1 << 20),
    TC_FIELD_I(e7_setup, d_repeats, "pile.cost.repeats", 1, E7_MAXREPEAT),
    TC_FIELD_I(e7_setup, d_warm, "pile.cost.warm", 0, 1 << 20),
    TC_FIELD_I(e7_setup, d_timed, "pile.cost.timed", 1, 1 << 20),
    TC_FIELD_RS(e7_setup, d_half_width, d_nwidth, "pile.half_width", 1e-3, 100),
    TC_FIELD_END};

/* a part of a compound as the script gives it */
typedef struct e7_part {
    char type[16];
    double size[3], pos[3];
    int nsize, npos;
} e7_part;

/* one kind of pile.shapes: name and parts, sizes in units of the body scale; a valid compound at
 * both ends of the scale range [lo, hi] */
static tc_status read_kind(const tc_script *s, const tc_setting *g, int i, double lo, double hi,
                           tc_compound_kind *k, tc_error *err) {
    static const char *const keys[] = {"name", "parts", NULL};
    static const tc_field part_fields[] = {
        TC_FIELD_S(e7_part, type, "type"), TC_FIELD_RS(e7_part, size, nsize, "size", 1e-6, 1e3),
        TC_FIELD_RS(e7_part, pos, npos, "pos", -1e3, 1e3), TC_FIELD_END};
    char where[64], path[96];
    snprintf(where, sizeof where, "pile.shapes.[%d]", i);
    if (tc_setting_type(g) != TC_SETTING_GROUP)
        return tc_script_fail(s, g, where, err,
                              "must be a group { name = \"...\"; parts = ( ... ); }");
    const char *name;
    tc_status st;
    if ((st = tc_script_allowed(s, g, keys, err)) ||
        (st = tc_script_string(s, g, "name", &name, err)))
        return st;
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    /* the parts: each a box or a sphere */
    const tc_setting *parts = tc_script_lookup(s, g, "parts");
    const int list = tc_setting_type(parts) == TC_SETTING_LIST;
    snprintf(where, sizeof where, "pile.shapes.[%d].parts", i);
    k->npart = tc_setting_length(parts);
    if (!list || k->npart < 1 || k->npart > TC_SHAPE_MAXPART)
        return tc_script_fail(s, parts ? parts : g, where, err,
                              "compound '%s' needs a list ( {...}, ... ) of 1 to %d parts (%s): an "
                              "empty compound has no volume",
                              k->name, TC_SHAPE_MAXPART,
                              list ? "it has none or too many" : "missing");
    for (int j = 0; j < k->npart; j++) {
        e7_part p = {0};
        snprintf(path, sizeof path, "%s.[%d]", where, j);
        if ((st = tc_script_read(s, path, part_fields, &p, err))) return st;
        const tc_setting *ps = tc_script_lookup(s, NULL, path);
        const int ball = !strcmp(p.type, "sphere");
        if (!ball && strcmp(p.type, "box"))
            return tc_script_fail(s, ps, "type", err,
                                  "part %d of '%s': \"box\" or \"sphere\" (got \"%s\")", j + 1,
                                  k->name, p.type);
        if (p.nsize != (ball ? 1 : 3))
            return tc_script_fail(s, tc_script_lookup(s, ps, "size"), "size", err,
                                  "needs %d numbers (%s), got %d", ball ? 1 : 3,
                                  ball ? "the radius" : "the half sizes along x, y, z", p.nsize);
        if (p.npos != 3)
            return tc_script_fail(s, tc_script_lookup(s, ps, "pos"), "pos", err,
                                  "needs 3 numbers (the centre in the body frame), got %d", p.npos);
        k->part[j].type = ball ? TC_SHAPE_SPHERE : TC_SHAPE_BOX;
        memcpy(k->part[j].size, p.size, sizeof p.size);
        memcpy(k->part[j].pos, p.pos, sizeof p.pos);
    }
    tc_shape c;
    tc_error e2;
    tc_error_clear(&e2);
    if ((st = tc_compound_shape(k, lo, &c, &e2)) || (st = tc_compound_shape(k, hi, &c, &e2)))
        return tc_error_set(err, st, tc_script_path(s), tc_setting_line(parts), where, "%s",
                            e2.msg);
    return TC_OK;
}

/* pile.limits: ( { label = "..."; bodies = N; why = "..."; }, ... ) */
static tc_status read_limits(const tc_script *s, e7_setup *e, tc_error *err) {
    static const tc_field fields[] = {TC_FIELD_S(e7_limit, label, "label"),
                                      TC_FIELD_I(e7_limit, bodies, "bodies", 0, 1 << 20),
                                      TC_FIELD_S(e7_limit, why, "why"), TC_FIELD_END};
    tc_status st =
        tc_script_list(s, "pile.limits", 0, E7_MAXLIMIT,
                       "groups { label = ...; bodies = ...; why = ...; }", NULL, &e->d_nlimit, err);
    for (int i = 0; i < e->d_nlimit && !st; i++) {
        char path[32];
        snprintf(path, sizeof path, "pile.limits.[%d]", i);
        st = tc_script_read(s, path, fields, &e->d_limit[i], err);
    }
    return st;
}

/* the pile's kinds and sizes; each size checked as built (fits its box, fits the scene), errors
 * at the line of the setting they concern */
static tc_status read_pile(const tc_script *s, e7_setup *e, tc_error *err) {
    tc_compound_pile *p = &e->pile;
    p->seed = (unsigned long)e->d_seed;
    p->gravity = e->gravity;
    if (p->size_hi < p->size_lo)
        return tc_script_fail_at(s, "pile.size_hi", err, "must be >= size_lo (%g m)", p->size_lo);
    if (e->d_measure_from >= e->d_seconds)
        return tc_script_fail_at(s, "pile.measure_from", err, "must be below pile.seconds (%g s)",
                                 e->d_seconds);
    /* the kinds of body */
    const tc_setting *kinds;
    tc_status st =
        tc_script_list(s, "pile.shapes", 1, TC_PILE_MAXKIND, "compounds", &kinds, &p->nkind, err);
    for (int i = 0; i < p->nkind && !st; i++)
        st = read_kind(s, tc_setting_at(kinds, i), i, p->size_lo, p->size_hi, &p->kind[i], err);
    if (st) return st;
    /* the sizes: bodies and the box's half width, one each */
    double b[E7_MAXPILE];
    if ((st = tc_script_reals(s, NULL, "pile.bodies", 1, 1e6, b, E7_MAXPILE, &e->d_n, err)))
        return st;
    if (e->d_nwidth != e->d_n)
        return tc_script_fail_at(
            s, "pile.half_width", err,
            "needs one box half width per pile size: %d for the %d sizes of pile.bodies",
            e->d_nwidth, e->d_n);
    for (int i = 0; i < e->d_n; i++) {
        e->d_bodies[i] = (int)b[i];
        if (b[i] != e->d_bodies[i])
            return tc_script_fail_at(s, "pile.bodies", err,
                                     "entry %d must be a whole number of bodies (got %g)", i + 1,
                                     b[i]);
        tc_compound_pile q = *p;
        q.bodies = e->d_bodies[i];
        q.half_width = e->d_half_width[i];
        tc_error e2;
        tc_error_clear(&e2);
        if ((st = tc_compound_pile_check(&q, &e2))) {
            char path[64];
            snprintf(path, sizeof path, "pile.%s", e2.param);
            const int line = tc_script_line(s, NULL, path);
            return tc_error_set(err, st, tc_script_path(s),
                                line ? line : tc_script_line(s, NULL, "pile"), path,
                                "pile %d (%d bodies in a box of half width %g m): %s", i + 1,
                                q.bodies, q.half_width, e2.msg);
        }
    }
    return read_limits(s, e, err);
}

tc_status e7_read_setup(const tc_script *s, e7_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st = tc_script_read(s, NULL, e7_fields, e, err);
    if (st) return st;
    /* the closed forms divide by mu g: (a) and (c) need friction and gravity */
    const double mu[2] = {e->a_mu, e->c_mu};
    for (int i = 0; i < 2; i++)
        if (!(mu[i] * e->gravity > 0))
            return tc_script_fail_at(
                s, i ? "roll.friction" : "slide.friction", err,
                "must be > 0 with gravity > 0: the closed form divides by mu g");
    if (e->a_stop >= e->a_v0)
        return tc_script_fail_at(s, "slide.stop_speed", err, "must be below slide.v0 (%g m/s)",
                                 e->a_v0);
    if (e->b_fit_from >= e->b_seconds)
        return tc_script_fail_at(s, "incline.fit_from", err, "must be below incline.seconds (%g s)",
                                 e->b_seconds);
    /* every angle a tilt in [0, 90) degrees */
    for (int i = 0; i < e->b_n; i++) {
        const double deg = e7_incline_angle(e, i) * 180 / M_PI;
        if (!(deg >= 0 && deg < 89))
            return tc_script_fail_at(
                s, "incline.offsets", err,
                "entry %d gives an incline of %.3g degrees (friction angle %.3g plus "
                "%g): it must lie in [0, 89)",
                i + 1, deg, atan(e->b_mu) * 180 / M_PI, e->b_offset[i]);
    }
    return read_pile(s, e, err);
}

/* ---------- the closed forms ---------- */

double e7_incline_angle(const e7_setup *e, int i) {
    return atan(e->b_mu) + e->b_offset[i] * M_PI / 180;
}
double e7_slide_distance(const e7_setup *e) {
    return e->a_v0 * e->a_v0 / (2 * e->a_mu * e->gravity);
}
double e7_slide_time(const e7_setup *e) {
    return e->a_v0 / (e->a_mu * e->gravity);
}
double e7_roll_time(const e7_setup *e) {
    return 2 * e->c_v0 / (7 * e->c_mu * e->gravity);
}
double e7_roll_speed(const e7_setup *e) {
    return 5 * e->c_v0 / 7;
}
double e7_roll_distance(const e7_setup *e) {
    return 12 * e->c_v0 * e->c_v0 / (49 * e->c_mu * e->gravity);
}
double e7_slide_time_at(const e7_setup *e) {
    return (e->a_v0 - e->a_stop) / (e->a_mu * e->gravity);
}
double e7_roll_time_at(const e7_setup *e) {
    return 2 * (1 - e->c_slip) * e->c_v0 / (7 * e->c_mu * e->gravity);
}
double e7_roll_distance_at(const e7_setup *e) {
    const double t = e7_roll_time_at(e);
    return e->c_v0 * t - e->c_mu * e->gravity * t * t / 2;
}

double e7_incline_accel(const e7_setup *e, int i) {
    /* it slides only above the friction angle (at it, sin = mu cos up to rounding: at rest) */
    if (e->b_offset[i] <= 0) return 0;
    double th = e7_incline_angle(e, i);
    return e->gravity * (sin(th) - e->b_mu * cos(th));
}

/* ---------- the scenes ---------- */

tc_status e7_slide_scene(const e7_setup *e, int planar, tc_scene *sc, tc_error *err) {
    tc_status st =
        tc_scene_box_on_incline(sc, e->gravity, 0, e->a_mu, e->a_half, e->a_mass, planar, err);
    if (!st) sc->body[1].vel[0] = e->a_v0;
    return st;
}

tc_status e7_incline_scene(const e7_setup *e, int i, int planar, tc_scene *sc, tc_error *err) {
    return tc_scene_box_on_incline(sc, e->gravity, e7_incline_angle(e, i), e->b_mu, e->b_half,
                                   e->b_mass, planar, err);
}

tc_status e7_roll_scene(const e7_setup *e, tc_scene *sc, tc_error *err) {
    const double r = e->c_radius, pos[3] = {0, 0, r};
    tc_status st = tc_scene_ground(sc, e->gravity, e->c_mu, err);
    /* a solid ball: the mass sets the density */
    if (!st)
        st = tc_scene_add_free(sc, "ball", tc_sphere(r), pos, NULL,
                               e->c_mass / (4.0 / 3.0 * M_PI * r * r * r), err);
    if (!st) sc->body[1].vel[0] = e->c_v0;
    return st;
}

tc_status e7_pile_scene(const e7_setup *e, int i, tc_scene *sc, tc_compound_pile *p,
                        tc_error *err) {
    tc_compound_pile q = e->pile;
    q.bodies = e->d_bodies[i];
    q.half_width = e->d_half_width[i];
    if (p) *p = q;
    return tc_scene_compound_pile(sc, &q, err);
}

/* ---------- the measures of (a)-(c) ---------- */

/* the first time (s) f (sampled after every step, f0 before the first) falls below level,
 * linear between steps; NAN when it never does */
static double crossing(const double *f, double f0, long n, double dt, double level) {
    double prev = f0;
    for (long j = 0; j < n; j++) {
        if (f[j] < level) {
            double w = prev > f[j] ? (prev - level) / (prev - f[j]) : 1;
            return (j + w) * dt;
        }
        prev = f[j];
    }
    return NAN;
}

e7_measure e7_measure_run(const e7_setup *e, int scene, long n, const double *x, const double *v,
                          const double *speed, const double *wr) {
    e7_measure m = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    if (n < 1) return m;
    if (scene == E7_SLIDE) {
        m.stop_time = crossing(speed, e->a_v0, n, e->dt, e->a_stop);
        m.distance = x[n - 1];
    } else if (scene == E7_INCLINE) {
        /* v = v0 + a t by least squares over t >= fit_from, and the mean of v there */
        double s1 = 0, st = 0, sv = 0, stt = 0, stv = 0;
        for (long j = 0; j < n; j++) {
            double t = (j + 1) * e->dt;
            if (t < e->b_fit_from) continue;
            s1 += 1;
            st += t;
            sv += v[j];
            stt += t * t;
            stv += t * v[j];
        }
        double den = s1 * stt - st * st;
        m.accel = s1 >= 2 && den > 0 ? (s1 * stv - st * sv) / den : NAN;
        m.creep = s1 >= 1 ? sv / s1 : NAN;
        m.displacement = x[n - 1];
    } else if (scene == E7_ROLL) {
        /* the slip v - omega r (v0 at the launch) */
        double prev = e->c_v0, level = e->c_slip * e->c_v0, xp = 0;
        for (long j = 0; j < n; j++) {
            double sl = fabs(v[j] - wr[j]);
            if (sl < level) {
                double w = prev > sl ? (prev - level) / (prev - sl) : 1;
                m.roll_time = (j + w) * e->dt;
                m.roll_distance = xp + w * (x[j] - xp);
                break;
            }
            prev = sl;
            xp = x[j];
        }
        m.roll_speed = v[n - 1];
    }
    return m;
}

/* what the step hook writes into */
typedef struct sim_ctx {
    const e7_setup *e;
    int scene;
    double x0;
    double *x, *v, *speed, *wr;
} sim_ctx;

static void record(void *ctx, tc_sim *sim, long k) {
    sim_ctx *c = ctx;
    const tc_body_state *b = &tc_sim_bodies(sim)[1];
    if (k == 0) c->x0 = tc_sim_scene(sim)->body[1].pos[0];
    c->x[k] = b->pos[0] - c->x0;
    c->v[k] = b->vel[0];
    /* the sliding speed: along x only (a compliant contact rocks and bounces the box) */
    c->speed[k] = fabs(b->vel[0]);
    /* the ball rolls along +x when omega_y r = v_x */
    c->wr[k] = c->scene == E7_ROLL ? b->omega[1] * c->e->c_radius : 0;
}

void e7_simulate(const e7_setup *e, int scene, const tc_scene *sc, const tc_method *m, double *x,
                 double *v, double *speed, double *wr, long *done, tc_item *it) {
    const double secs = scene == E7_SLIDE     ? e->a_seconds
                        : scene == E7_INCLINE ? e->b_seconds
                                              : e->c_seconds;
    sim_ctx c = {e, scene, 0, x, v, speed, wr};
    /* nothing puts energy in: a rise above lifting the body by its own size fails the run (a
     * penalty method at a 0.1 s step slid the box 33 m backwards, "ok") */
    const double g = tc_v3_norm(sc->gravity);
    const double size = scene == E7_SLIDE     ? 2 * e->a_half
                        : scene == E7_INCLINE ? 2 * e->b_half
                                              : 2 * e->c_radius;
    tc_sim_loop loop = {.dt = e->dt,
                        .steps = (long)ceil(secs / e->dt - 1e-9),
                        .every = 1,
                        .after = record,
                        .ctx = &c,
                        .energy_rise_max = sc->body[1].mass * g * size};
    tc_series out = {0};
    tc_simulate(sc, m, &loop, &out, it);
    *done = out.steps;
}
