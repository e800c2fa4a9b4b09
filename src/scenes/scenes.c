/* SPDX-License-Identifier: MIT */
/* scene builders: pairs, bodies on the ground, E2's T and finger, E4's block and pile, E7's
 * pile of compounds, 2-D polygons as prisms */
#include "scenes/tc_scenes.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------- pairs ---------- */

tc_status tc_scene_pair(tc_scene *sc, tc_shape a, tc_shape b, const double pos[3],
                        const double quat[4], double density, tc_error *err) {
    tc_scene_init(sc);
    tc_body_desc fa = tc_default_body("fixed", a);
    tc_status st = tc_scene_add(sc, &fa, density, err);
    return st ? st : tc_scene_add_free(sc, "free", b, pos, quat, density, err);
}

tc_status tc_scene_sphere_pair(tc_scene *sc, double R, double r, double y, double density,
                               tc_error *err) {
    const double pos[3] = {0, y, 0};
    tc_status st = tc_scene_pair(sc, tc_sphere(R), tc_sphere(r), pos, NULL, density, err);
    snprintf(sc->body[0].name, sizeof sc->body[0].name, "big");
    if (!st) snprintf(sc->body[1].name, sizeof sc->body[1].name, "small");
    return st;
}

/* ---------- bodies on the ground ---------- */

tc_status tc_scene_ground(tc_scene *sc, double g, double mu, tc_error *err) {
    tc_scene_init(sc);
    sc->gravity[2] = -g;
    sc->friction = mu;
    tc_body_desc ground = tc_default_body("ground", tc_plane());
    return tc_scene_add(sc, &ground, 0, err);
}

tc_status tc_scene_add_free(tc_scene *sc, const char *name, tc_shape s, const double pos[3],
                            const double quat[4], double density, tc_error *err) {
    tc_body_desc b = tc_default_body(name, s);
    b.joint = TC_JOINT_FREE;
    if (pos) tc_v3_copy(b.pos, pos);
    if (quat) memcpy(b.quat, quat, sizeof b.quat);
    return tc_scene_add(sc, &b, density, err);
}

tc_status tc_scene_add_box(tc_scene *sc, const char *name, const double h[3], double mass,
                           const double pos[3], const double quat[4], tc_error *err) {
    /* the mass sets the density of the 8 hx hy hz box */
    return tc_scene_add_free(sc, name, tc_box(h[0], h[1], h[2]), pos, quat,
                             mass / (8 * h[0] * h[1] * h[2]), err);
}

double tc_shape_lowest(const tc_shape *s, const double quat[4]) {
    /* the support point along world -z, seen in the body frame, back in the world */
    double R[9], d[3], p[3], down[3] = {0, 0, -1};
    tc_quat_to_mat(R, quat);
    tc_m3_mulvt(d, R, down);
    tc_shape_support(s, d, p);
    tc_m3_mulv(d, R, p);
    return -d[2];
}

/* Shoemake's uniform rotation from three uniform draws of r */
static void draw_quat(gsl_rng *r, double q[4]) {
    double u1 = gsl_rng_uniform(r), u2 = 2 * M_PI * gsl_rng_uniform(r),
           u3 = 2 * M_PI * gsl_rng_uniform(r);
    double a = sqrt(1 - u1), b = sqrt(u1);
    q[0] = b * cos(u3);
    q[1] = a * sin(u2);
    q[2] = a * cos(u2);
    q[3] = b * sin(u3);
}

void tc_random_quat(unsigned long seed, double quat[4]) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) {
        quat[0] = 1;
        quat[1] = quat[2] = quat[3] = 0;
        return;
    }
    gsl_rng_set(r, seed);
    draw_quat(r, quat);
    gsl_rng_free(r);
}

tc_status tc_scene_block_into_ground(tc_scene *sc, double g, double mu, double h, double mass,
                                     double depth, unsigned long seed, tc_error *err) {
    double q[4];
    tc_random_quat(seed, q);
    tc_shape cube = tc_box(h, h, h);
    const double hs[3] = {h, h, h}, pos[3] = {0, 0, tc_shape_lowest(&cube, q) - depth};
    tc_status st = tc_scene_ground(sc, g, mu, err);
    return st ? st : tc_scene_add_box(sc, "block", hs, mass, pos, q, err);
}

/* ---------- the pile ---------- */

tc_pile tc_default_pile(void) {
    return (tc_pile){.bodies = 16,
                     .seed = 3,
                     .mass_lo = 1,
                     .mass_hi = 100,
                     .size_lo = 0.1,
                     .size_hi = 0.25,
                     .half_width = 1.5,
                     .wall_height = 1.0,
                     .gravity = 9.8,
                     .friction = 0.5};
}

/* the ground and four fixed walls "wall0".."wall3" of thickness 0.1 m and height H (m) around
 * the inside [-W, W]^2 (m) */
static tc_status open_box(tc_scene *sc, double g, double mu, double W, double H, tc_error *err) {
    tc_status st = tc_scene_ground(sc, g, mu, err);
    const double T = 0.05;
    for (int k = 0; k < 4 && !st; k++) {
        char name[32];
        snprintf(name, sizeof name, "wall%d", k);
        int along_x = k < 2;
        tc_body_desc w = tc_default_body(name, along_x ? tc_box(W + 2 * T, T, H / 2)
                                                       : tc_box(T, W + 2 * T, H / 2));
        w.pos[along_x ? 1 : 0] = (k % 2 ? -1 : 1) * (W + T);
        w.pos[2] = H / 2;
        st = tc_scene_add(sc, &w, 0, err);
    }
    return st;
}

tc_status tc_scene_pile(tc_scene *sc, const tc_pile *p, tc_error *err) {
    if (p->bodies < 1 || p->bodies > TC_SCENE_MAXBODY - 5)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "bodies",
                            "a pile holds 1 to %d bodies (got %d)", TC_SCENE_MAXBODY - 5,
                            p->bodies);
    tc_status st = open_box(sc, p->gravity, p->friction, p->half_width, p->wall_height, err);
    if (st) return st;
    const double W = p->half_width;
    /* bodies on a grid of cells 2 size_hi wide, layer after layer, each in its cell */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return TC_ENOMEM;
    gsl_rng_set(r, p->seed);
    const double cell = 2.2 * sqrt(3.0) * p->size_hi;
    int per_row = (int)floor(2 * W / cell);
    if (per_row < 1) per_row = 1;
    for (int i = 0; i < p->bodies && !st; i++) {
        char name[32];
        snprintf(name, sizeof name, "body%d", i);
        double h[3];
        for (int k = 0; k < 3; k++)
            h[k] = p->size_lo + (p->size_hi - p->size_lo) * gsl_rng_uniform(r);
        int kind = (int)gsl_rng_uniform_int(r, 3);
        tc_shape s = kind == 0   ? tc_box(h[0], h[1], h[2])
                     : kind == 1 ? tc_cylinder(h[0], h[1])
                                 : tc_sphere(h[0]);
        double mass = p->mass_lo + (p->mass_hi - p->mass_lo) * gsl_rng_uniform(r);
        double q[4], pos[3];
        draw_quat(r, q);
        int layer = i / (per_row * per_row), at = i % (per_row * per_row);
        pos[0] = -W + cell * (at % per_row + 0.5);
        pos[1] = -W + cell * (at / per_row + 0.5);
        pos[2] = cell * (layer + 0.5) + 0.01;
        /* the mass sets the density */
        double m1, I1[3];
        tc_shape_mass(&s, 1.0, &m1, I1);
        st = tc_scene_add_free(sc, name, s, pos, q, mass / m1, err);
    }
    gsl_rng_free(r);
    return st;
}

/* outside the walls of an open box of inside [-W, W]^2, or 0.1 m below its floor */
static int box_escaped(double W, const double pos[3]) {
    return fabs(pos[0]) > W || fabs(pos[1]) > W || pos[2] < -0.1;
}

int tc_pile_escaped(const tc_pile *p, const double pos[3]) {
    return box_escaped(p->half_width, pos);
}

/* ---------- a pile of compounds ---------- */

#define BOX  TC_SHAPE_BOX
#define BALL TC_SHAPE_SPHERE

tc_compound_pile tc_default_compound_pile(void) {
    /* at scale 1: each kind about 2 units tall or wide, parts touching but not overlapping,
     * symmetric so the body axes are principal */
    static const tc_compound_kind kinds[] = {
        {"T",
         2,
         {{BOX, {1.0, 0.25, 0.25}, {0, 0, 0.75}}, {BOX, {0.25, 0.25, 0.75}, {0, 0, -0.25}}}},
        {"H",
         3,
         {{BOX, {0.25, 0.25, 0.75}, {0.75, 0, 0}},
          {BOX, {0.25, 0.25, 0.75}, {-0.75, 0, 0}},
          {BOX, {0.5, 0.2, 0.2}, {0, 0, 0}}}},
        {"plus",
         3,
         {{BOX, {1.0, 0.25, 0.25}, {0, 0, 0}},
          {BOX, {0.25, 0.375, 0.25}, {0, 0.625, 0}},
          {BOX, {0.25, 0.375, 0.25}, {0, -0.625, 0}}}},
        {"pawn",
         3,
         {{BOX, {0.5, 0.5, 0.15}, {0, 0, -0.85}},
          {BOX, {0.2, 0.2, 0.35}, {0, 0, -0.35}},
          {BALL, {0.35, 0, 0}, {0, 0, 0.35}}}},
        {"dumbbell",
         3,
         {{BALL, {0.45, 0, 0}, {0.55, 0, 0}},
          {BALL, {0.45, 0, 0}, {-0.55, 0, 0}},
          {BOX, {0.1, 0.12, 0.12}, {0, 0, 0}}}},
        {"king",
         4,
         {{BOX, {0.5, 0.5, 0.15}, {0, 0, -0.85}},
          {BOX, {0.25, 0.25, 0.5}, {0, 0, -0.2}},
          {BOX, {0.3, 0.08, 0.08}, {0, 0, 0.38}},
          {BALL, {0.2, 0, 0}, {0, 0, 0.66}}}},
    };
    tc_compound_pile p = {.bodies = 100,
                          .seed = 7,
                          .size_lo = 0.05,
                          .size_hi = 0.08,
                          .density = 500,
                          .half_width = 0.6,
                          .wall_height = 0.5,
                          .fill = 0.3,
                          .gravity = 9.81,
                          .friction = 0.5};
    p.nkind = (int)(sizeof kinds / sizeof *kinds);
    for (int i = 0; i < p.nkind; i++)
        p.kind[i] = kinds[i];
    return p;
}

/* the overlap of two parts: 1 when their volumes share more than a touching face or point */
static int parts_overlap(const tc_shape_part *a, const tc_shape_part *b) {
    if (a->type == BALL && b->type == BOX) return parts_overlap(b, a);
    double d[3], tol = 1e-12;
    for (int k = 0; k < 3; k++)
        d[k] = fabs(a->pos[k] - b->pos[k]);
    if (a->type == BOX && b->type == BOX)
        return d[0] < a->size[0] + b->size[0] - tol && d[1] < a->size[1] + b->size[1] - tol &&
               d[2] < a->size[2] + b->size[2] - tol;
    if (a->type == BALL && b->type == BALL) return tc_v3_norm(d) < a->size[0] + b->size[0] - tol;
    /* a box and a ball: the ball's centre closer to the box than its radius */
    double q[3];
    for (int k = 0; k < 3; k++)
        q[k] = fmax(d[k] - a->size[k], 0);
    int inside = d[0] < a->size[0] && d[1] < a->size[1] && d[2] < a->size[2];
    return inside || tc_v3_norm(q) < b->size[0] - tol;
}

tc_status tc_compound_shape(const tc_compound_kind *k, double s, tc_shape *out, tc_error *err) {
    if (!(isfinite(s) && s > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "parts",
                            "the body scale must be > 0 m (got %g)", s);
    if (k->npart < 1 || k->npart > TC_SHAPE_MAXPART)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "parts",
                            "compound '%s' has %d parts: give 1 to %d boxes or spheres", k->name,
                            k->npart, TC_SHAPE_MAXPART);
    tc_shape c = tc_box(1, 1, 1);
    c.type = TC_SHAPE_COMPOUND;
    c.npart = k->npart;
    for (int i = 0; i < k->npart; i++) {
        c.part[i] = k->part[i];
        for (int j = 0; j < 3; j++) {
            c.part[i].size[j] *= s;
            c.part[i].pos[j] *= s;
        }
        if (c.part[i].type == BALL) c.part[i].size[1] = c.part[i].size[2] = 0;
    }
    tc_error e2;
    tc_error_clear(&e2);
    if (tc_shape_check(&c, &e2))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "parts", "compound '%s': %s%s%s", k->name,
                            e2.param[0] ? e2.param : "", e2.param[0] ? ": " : "", e2.msg);
    for (int i = 0; i < c.npart; i++)
        for (int j = i + 1; j < c.npart; j++)
            if (parts_overlap(&c.part[i], &c.part[j]))
                return tc_error_set(err, TC_EINVAL, NULL, 0, "parts",
                                    "compound '%s': parts %d and %d overlap (parts may touch, "
                                    "not overlap: their volumes add up to the mass)",
                                    k->name, i + 1, j + 1);
    /* the body axes must be principal (tc_scene_add centres it the same way) */
    tc_shape centred = c;
    double com[3];
    if (tc_shape_center(&centred, com, &e2))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "parts", "compound '%s': %s", k->name, e2.msg);
    *out = c;
    return TC_OK;
}

double tc_compound_radius(const tc_compound_kind *k, double s) {
    tc_shape c;
    double com[3], r = 0;
    if (tc_compound_shape(k, s, &c, NULL) || tc_shape_center(&c, com, NULL)) return NAN;
    for (int i = 0; i < c.npart; i++) {
        const tc_shape_part *p = &c.part[i];
        /* a ball's farthest point, or a box's farthest corner */
        double far[3];
        for (int j = 0; j < 3; j++)
            far[j] = fabs(p->pos[j]) + p->size[j];
        r = fmax(r, p->type == BALL ? tc_v3_norm(p->pos) + p->size[0] : tc_v3_norm(far));
    }
    return r;
}

double tc_compound_volume(const tc_compound_kind *k, double s) {
    double v = 0;
    for (int i = 0; i < k->npart && i < TC_SHAPE_MAXPART; i++) {
        const tc_shape_part *p = &k->part[i];
        v += p->type == BALL ? 4.0 / 3.0 * M_PI * pow(p->size[0] * s, 3)
                             : 8 * p->size[0] * p->size[1] * p->size[2] * s * s * s;
    }
    return v;
}

/* the largest bounding radius and volume over the kinds at scale s */
static void largest_kind(const tc_compound_pile *p, double s, double *radius, double *volume) {
    *radius = *volume = 0;
    for (int i = 0; i < p->nkind; i++) {
        *radius = fmax(*radius, tc_compound_radius(&p->kind[i], s));
        *volume = fmax(*volume, tc_compound_volume(&p->kind[i], s));
    }
}

tc_status tc_compound_pile_check(const tc_compound_pile *p, tc_error *err) {
    if (p->bodies < 1 || p->bodies > TC_SCENE_MAXBODY - 5)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "bodies",
                            "a pile holds 1 to %d bodies in a scene of at most %d (got %d)",
                            TC_SCENE_MAXBODY - 5, TC_SCENE_MAXBODY, p->bodies);
    if (p->nkind < 1 || p->nkind > TC_PILE_MAXKIND)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "kinds",
                            "a pile needs 1 to %d kinds of body (got %d)", TC_PILE_MAXKIND,
                            p->nkind);
    const struct {
        const char *name;
        double v, lo;
    } pos[] = {{"size_lo", p->size_lo, 0},         {"size_hi", p->size_hi, 0},
               {"density", p->density, 0},         {"half_width", p->half_width, 0},
               {"wall_height", p->wall_height, 0}, {"fill", p->fill, 0}};
    for (size_t i = 0; i < sizeof pos / sizeof *pos; i++)
        if (!(isfinite(pos[i].v) && pos[i].v > pos[i].lo))
            return tc_error_set(err, TC_EINVAL, NULL, 0, pos[i].name, "must be > 0 (got %g)",
                                pos[i].v);
    if (p->size_hi < p->size_lo)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "size_hi",
                            "must be >= size_lo (%g m; got %g m)", p->size_lo, p->size_hi);
    if (p->fill > 1)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "fill",
                            "a fraction of the box: at most 1 (got %g)", p->fill);
    if (!(isfinite(p->gravity) && p->gravity >= 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "gravity", "must be >= 0 m/s^2 (got %g)",
                            p->gravity);
    if (!(isfinite(p->friction) && p->friction >= 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "friction",
                            "a Coulomb coefficient must be >= 0 (got %g)", p->friction);
    /* every kind a valid compound at both ends of the scale range */
    for (int i = 0; i < p->nkind; i++) {
        tc_shape c;
        tc_error e2;
        tc_error_clear(&e2);
        tc_status st = tc_compound_shape(&p->kind[i], p->size_lo, &c, &e2);
        if (!st) st = tc_compound_shape(&p->kind[i], p->size_hi, &c, &e2);
        if (st) return tc_error_set(err, st, NULL, 0, "kinds", "kind %d: %s", i + 1, e2.msg);
    }
    /* a body's cell fits between the walls, and the bodies' volume below the walls' top */
    double R, V;
    largest_kind(p, p->size_hi, &R, &V);
    const double cell = 2.2 * R, W = p->half_width, box = 4 * W * W * p->wall_height;
    if (cell > 2 * W)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "half_width",
                            "a body needs a cell %.3g m wide (2.2 times its bounding radius at "
                            "size_hi), wider than the box's inside (%.3g m)",
                            cell, 2 * W);
    if (p->bodies * V > p->fill * box)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "bodies",
                            "%d bodies of up to %.3g m^3 (%.3g m^3) do not fit the box: at most "
                            "%.3g of its %.3g m^3 below the walls' top (fill %g); widen the box, "
                            "raise the walls or take fewer bodies",
                            p->bodies, V, p->bodies * V, p->fill * box, box, p->fill);
    return TC_OK;
}

tc_status tc_scene_compound_pile(tc_scene *sc, const tc_compound_pile *p, tc_error *err) {
    tc_status st = tc_compound_pile_check(p, err);
    if (!st) st = open_box(sc, p->gravity, p->friction, p->half_width, p->wall_height, err);
    if (st) return st;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return TC_ENOMEM;
    gsl_rng_set(r, p->seed);
    /* cells 2.2 R wide, per_row x per_row a layer, each body at its cell's centre */
    double R, V;
    largest_kind(p, p->size_hi, &R, &V);
    const double cell = 2.2 * R, W = p->half_width;
    const int per_row = (int)floor(2 * W / cell);
    for (int i = 0; i < p->bodies && !st; i++) {
        char name[32];
        snprintf(name, sizeof name, "body%d", i);
        int kind = (int)gsl_rng_uniform_int(r, (unsigned long)p->nkind);
        double s = p->size_lo + (p->size_hi - p->size_lo) * gsl_rng_uniform(r), q[4], pos[3];
        draw_quat(r, q);
        tc_shape c;
        if ((st = tc_compound_shape(&p->kind[kind], s, &c, err))) break;
        int layer = i / (per_row * per_row), at = i % (per_row * per_row);
        pos[0] = -W + cell * (at % per_row + 0.5);
        pos[1] = -W + cell * (at / per_row + 0.5);
        pos[2] = cell * (layer + 0.5) + 0.01;
        /* the COM at the cell's centre: tc_scene_add moves the body origin to the COM, which
         * lies at R com from the parts' origin */
        tc_shape centred = c;
        double com[3], R3[9], Rc[3];
        if ((st = tc_shape_center(&centred, com, err))) break;
        tc_quat_to_mat(R3, q);
        tc_m3_mulv(Rc, R3, com);
        for (int k = 0; k < 3; k++)
            pos[k] -= Rc[k];
        st = tc_scene_add_free(sc, name, c, pos, q, p->density, err);
    }
    gsl_rng_free(r);
    return st;
}

int tc_compound_pile_escaped(const tc_compound_pile *p, const double pos[3]) {
    return box_escaped(p->half_width, pos);
}

/* ---------- E2's T and finger ---------- */

tc_t_pusher tc_default_t_pusher(void) {
    return (tc_t_pusher){.bar_x = 0.25,
                         .bar_y = 0.05,
                         .stem_x = 0.05,
                         .stem_y = 0.15,
                         .thickness = 0.05,
                         .density = 500,
                         .damping_xy = 2,
                         .damping_theta = 0.012,
                         .finger_radius = 0.015,
                         .finger_mass = 0.1,
                         .finger_kp = 200,
                         .finger_kd = 9,
                         .finger_spin_damping = 1e-4,
                         .friction = 0.5};
}

void tc_t_pusher_start(const tc_t_pusher *t, double xy[2]) {
    /* below the stem's bottom, clear of it by two radii; the COM is (bar area-weighted) */
    double a1 = t->bar_x * t->bar_y, a2 = t->stem_x * t->stem_y;
    double ycom = (a1 * (t->stem_y + t->bar_y / 2) + a2 * t->stem_y / 2) / (a1 + a2);
    xy[0] = 0;
    xy[1] = -ycom - 3 * t->finger_radius;
}

tc_status tc_scene_t_pusher(tc_scene *sc, const tc_t_pusher *t, tc_error *err) {
    tc_scene_init(sc);
    sc->friction = t->friction;
    /* the T: crossbar on top of the stem, the stem's bottom edge at y = 0 before centring */
    tc_shape T = tc_box(0, 0, 0);
    T.type = TC_SHAPE_COMPOUND;
    T.npart = 2;
    T.part[0] = (tc_shape_part){TC_SHAPE_BOX,
                                {t->bar_x / 2, t->bar_y / 2, t->thickness / 2},
                                {0, t->stem_y + t->bar_y / 2, 0}};
    T.part[1] = (tc_shape_part){
        TC_SHAPE_BOX, {t->stem_x / 2, t->stem_y / 2, t->thickness / 2}, {0, t->stem_y / 2, 0}};
    tc_body_desc body = tc_default_body("T", T);
    body.joint = TC_JOINT_PLANAR;
    body.pos[2] = t->thickness / 2;
    body.damping[0] = body.damping[1] = t->damping_xy;
    body.damping[2] = t->damping_theta;
    tc_status st = tc_scene_add(sc, &body, t->density, err);
    if (st) return st;
    /* centring moved the T so its COM sits at (0, y_com): put the COM at the origin */
    sc->body[0].pos[0] = 0;
    sc->body[0].pos[1] = 0;
    /* the finger: a planar sphere at the T's mid-height with x-y position servos */
    tc_body_desc f = tc_default_body("finger", tc_sphere(t->finger_radius));
    f.joint = TC_JOINT_PLANAR;
    tc_t_pusher_start(t, f.pos);
    f.pos[2] = t->thickness / 2;
    f.kp[0] = f.kp[1] = t->finger_kp;
    f.damping[0] = f.damping[1] = t->finger_kd;
    f.damping[2] = t->finger_spin_damping;
    f.mass = t->finger_mass;
    f.inertia[0] = f.inertia[1] = f.inertia[2] =
        0.4 * t->finger_mass * t->finger_radius * t->finger_radius;
    return tc_scene_add(sc, &f, 0, err);
}

/* ---------- 2-D polygons ---------- */

tc_status tc_scene_ground_2d(tc_scene *sc, double g, double mu, tc_error *err) {
    tc_scene_init(sc);
    sc->gravity[1] = -g;
    sc->friction = mu;
    /* the body's z axis (the plane's normal) turned onto world +y: -90 degrees about x */
    tc_body_desc ground = tc_default_body("ground", tc_plane());
    ground.quat[0] = sqrt(0.5);
    ground.quat[1] = -sqrt(0.5);
    return tc_scene_add(sc, &ground, 0, err);
}

tc_status tc_scene_box_on_incline(tc_scene *sc, double g, double tilt, double mu, double h,
                                  double mass, int planar, tc_error *err) {
    tc_status st = planar ? tc_scene_ground_2d(sc, g, mu, err) : tc_scene_ground(sc, g, mu, err);
    if (st) return st;
    /* the incline: gravity turned by tilt toward +x, the plane's normal its "up" */
    if (tilt != 0) {
        sc->gravity[0] = g * sin(tilt);
        sc->gravity[1] = planar ? -g * cos(tilt) : 0;
        sc->gravity[2] = planar ? 0 : -g * cos(tilt);
    }
    if (planar) {
        /* the square as a prism: a uniform square of side 2h has izz = m (2h)^2 / 6 */
        const double A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, b[4] = {h, h, h, h};
        return tc_scene_add_polygon(sc, "box", A, b, 4, h, mass, mass * 4 * h * h / 6, 0, h, 0,
                                    err);
    }
    const double hs[3] = {h, h, h}, pos[3] = {0, 0, h};
    return tc_scene_add_box(sc, "box", hs, mass, pos, NULL, err);
}

#define POLY_MAX TC_POLYGON_MAXROW

/* the vertices of {x : A x <= b}, counter-clockwise around their mean, into v (*nv of them);
 * errors: too many or too few rows, an unbounded set (row normals within a half-plane), an empty
 * or degenerate one (fewer than 3 vertices), TC_EINVAL naming "polygon" */
static tc_status polygon_vertices(const char *name, const double (*A)[2], const double *b, int m,
                                  double (*v)[2], int *nv_out, tc_error *err) {
    if (m < 3 || m > POLY_MAX)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon", "'%s': 3 to %d rows (got %d)", name,
                            POLY_MAX, m);
    /* bounded when the rows' normals leave no gap of pi or more between neighbouring angles */
    double ang[POLY_MAX];
    int na = 0;
    for (int i = 0; i < m; i++)
        if (hypot(A[i][0], A[i][1]) > 0) {
            double a = atan2(A[i][1], A[i][0]);
            int j = na++;
            for (; j > 0 && ang[j - 1] > a; j--)
                ang[j] = ang[j - 1];
            ang[j] = a;
        }
    double gap = na ? ang[0] + 2 * M_PI - ang[na - 1] : 2 * M_PI;
    for (int i = 1; i < na; i++)
        gap = fmax(gap, ang[i] - ang[i - 1]);
    if (gap >= M_PI - 1e-12)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon",
                            "'%s': A x <= b is unbounded (the rows' normals leave a gap of %.4g "
                            "rad >= pi)",
                            name, gap);
    /* the vertices: intersections of two edge lines that satisfy every row */
    double w[POLY_MAX * POLY_MAX][2], scale = 0;
    int nv = 0;
    for (int i = 0; i < m; i++)
        scale = fmax(scale, fabs(b[i]));
    const double tol = 1e-12 * (scale > 0 ? scale : 1);
    for (int i = 0; i < m; i++)
        for (int j = i + 1; j < m; j++) {
            double det = A[i][0] * A[j][1] - A[i][1] * A[j][0];
            if (fabs(det) < 1e-14) continue;
            double p[2] = {(b[i] * A[j][1] - A[i][1] * b[j]) / det,
                           (A[i][0] * b[j] - b[i] * A[j][0]) / det};
            int inside = 1, dup = 0;
            for (int k = 0; k < m && inside; k++)
                inside = A[k][0] * p[0] + A[k][1] * p[1] <= b[k] + tol;
            for (int k = 0; k < nv && !dup; k++)
                dup = hypot(w[k][0] - p[0], w[k][1] - p[1]) < 1e3 * tol;
            if (inside && !dup) {
                w[nv][0] = p[0];
                w[nv][1] = p[1];
                nv++;
            }
        }
    if (nv < 3 || nv > m)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon",
                            "'%s': A x <= b is empty, unbounded or degenerate (%d vertices)", name,
                            nv);
    /* counter-clockwise around the vertex mean */
    double c0[2] = {0, 0};
    for (int k = 0; k < nv; k++) {
        c0[0] += w[k][0] / nv;
        c0[1] += w[k][1] / nv;
    }
    for (int i = 1; i < nv; i++)
        for (int j = i; j > 0 && atan2(w[j][1] - c0[1], w[j][0] - c0[0]) <
                                     atan2(w[j - 1][1] - c0[1], w[j - 1][0] - c0[0]);
             j--) {
            double t0 = w[j][0], t1 = w[j][1];
            w[j][0] = w[j - 1][0];
            w[j][1] = w[j - 1][1];
            w[j - 1][0] = t0;
            w[j - 1][1] = t1;
        }
    memcpy(v, w, (size_t)nv * sizeof *w);
    *nv_out = nv;
    return TC_OK;
}

/* area, centroid c and second moments about it s = (xx, yy, xy) of a counter-clockwise polygon
 * (shoelace); 0 area when it has none */
static double polygon_moments(const double (*v)[2], int nv, double c[2], double s[3]) {
    double area = 0, cx = 0, cy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int i = 0; i < nv; i++) {
        const double *p = v[i], *q = v[(i + 1) % nv];
        double cr = p[0] * q[1] - q[0] * p[1];
        area += cr / 2;
        cx += (p[0] + q[0]) * cr / 6;
        cy += (p[1] + q[1]) * cr / 6;
        sxx += (p[0] * p[0] + p[0] * q[0] + q[0] * q[0]) * cr / 12;
        syy += (p[1] * p[1] + p[1] * q[1] + q[1] * q[1]) * cr / 12;
        sxy += (p[0] * q[1] + 2 * p[0] * p[1] + 2 * q[0] * q[1] + q[0] * p[1]) * cr / 24;
    }
    if (!(area > 0)) return 0;
    cx /= area;
    cy /= area;
    c[0] = cx;
    c[1] = cy;
    s[0] = sxx - area * cx * cx;
    s[1] = syy - area * cy * cy;
    s[2] = sxy - area * cx * cy;
    return area;
}

tc_status tc_polygon_vertices(const double (*A)[2], const double *b, int m, double (*v)[2], int *nv,
                              tc_error *err) {
    double c[2], sm[3];
    tc_status st = polygon_vertices("A x <= b", A, b, m, v, nv, err);
    if (st) return st;
    if (!(polygon_moments((const double(*)[2])v, *nv, c, sm) > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon", "A x <= b has no area");
    return TC_OK;
}

tc_status tc_polygon_centroid(const double (*A)[2], const double *b, int m, double c[2],
                              tc_error *err) {
    double v[POLY_MAX][2], s[3];
    int nv = 0;
    tc_status st = polygon_vertices("A x <= b", A, b, m, v, &nv, err);
    if (st) return st;
    if (!(polygon_moments((const double(*)[2])v, nv, c, s) > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon", "A x <= b has no area");
    return TC_OK;
}

tc_status tc_scene_add_polygon(tc_scene *sc, const char *name, const double (*A)[2],
                               const double *b, int m, double h, double mass, double izz, double x,
                               double y, double theta, tc_error *err) {
    if (!(h > 0) || !(mass > 0) || !(izz > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon",
                            "'%s': thickness, mass and inertia > 0", name);
    double v[POLY_MAX][2], c[2], sm[3];
    int nv = 0;
    tc_status st = polygon_vertices(name, A, b, m, v, &nv, err);
    if (st) return st;
    /* area, centroid and second moments (shoelace), then the principal angle phi */
    if (!(polygon_moments((const double(*)[2])v, nv, c, sm) > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "polygon", "'%s' has no area", name);
    const double cx = c[0], cy = c[1], sxx = sm[0], syy = sm[1], sxy = sm[2];
    const double phi = 0.5 * atan2(2 * sxy, sxx - syy), cp = cos(phi), sp = sin(phi);
    /* the prism in principal axes: x' = R(-phi) (x - c), z = +-h */
    double pv[2 * POLY_MAX][3];
    for (int i = 0; i < nv; i++) {
        double dx = v[i][0] - cx, dy = v[i][1] - cy;
        for (int s = 0; s < 2; s++) {
            pv[2 * i + s][0] = cp * dx + sp * dy;
            pv[2 * i + s][1] = -sp * dx + cp * dy;
            pv[2 * i + s][2] = s ? h : -h;
        }
    }
    tc_shape prism;
    st = tc_polytope(&prism, (const double(*)[3])pv, 2 * nv, err);
    if (st) return st;
    /* turned by theta + phi about z, the centroid at (x, y); the given mass and izz, the other
     * moments those of a uniform prism of that mass */
    tc_body_desc body = tc_default_body(name, prism);
    body.joint = TC_JOINT_PLANAR;
    body.pos[0] = x;
    body.pos[1] = y;
    body.quat[0] = cos((theta + phi) / 2);
    body.quat[3] = sin((theta + phi) / 2);
    double m1, I1[3];
    tc_shape_mass(&prism, 1.0, &m1, I1);
    body.mass = mass;
    /* the in-plane moments play no part on a planar joint; raised to izz / 2 where needed so the
     * three satisfy the triangle inequality real engines check (MuJoCo refuses A + B < C) */
    body.inertia[0] = fmax(I1[0] * mass / m1, izz / 2);
    body.inertia[1] = fmax(I1[1] * mass / m1, izz / 2);
    body.inertia[2] = izz;
    return tc_scene_add(sc, &body, 0, err);
}
