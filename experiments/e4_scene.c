/* SPDX-License-Identifier: MIT */
/* E4 setup, the block and pile scenes, and method-independent measurements */
#include "e4.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

tc_status e4_read_setup(const tc_script *s, e4_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st;
    /* every number by dotted path, so a tier can override any of them */
    const struct { const char *name; double *v, lo, hi; } reals[] = {
        {"scene.gravity", &e->gravity, 0, 100},     {"scene.friction", &e->friction, 0, 10},
        {"scene.dt", &e->dt, 1e-6, 0.1},            {"block.mass", &e->a_mass, 1e-3, 1e6},
        {"block.depth", &e->a_depth, 0, 0.5},       {"perturbed.mass", &e->b_mass, 1e-3, 1e6},
        {"perturbed.force_lo", &e->b_force_lo, 0, 1e6},
        {"perturbed.force_hi", &e->b_force_hi, 0, 1e6},
        {"pile.seconds", &e->c_seconds, 1e-3, 1e3}, {"pile.mass_lo", &e->c_mass_lo, 1e-3, 1e6},
        {"pile.mass_hi", &e->c_mass_hi, 1e-3, 1e6}, {"pile.size_lo", &e->c_size_lo, 1e-3, 10},
        {"pile.size_hi", &e->c_size_hi, 1e-3, 10},  {"pile.half_width", &e->c_half_width, 0.1, 100},
        {"pile.wall_height", &e->c_wall_height, 0.01, 100}};
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        if ((st = tc_script_real(s, NULL, reals[i].name, reals[i].lo, reals[i].hi, reals[i].v, err)))
            return st;
    const struct { const char *name; int *v, lo, hi; } ints[] = {
        {"block.steps", &e->a_steps, 1, 10000000},  {"block.seed", &e->a_seed, 0, 1 << 30},
        {"perturbed.settle", &e->b_settle, 0, 1 << 24}, {"perturbed.on", &e->b_on, 1, 1 << 24},
        {"perturbed.off", &e->b_off, 0, 1 << 24},   {"perturbed.cycles", &e->b_cycles, 1, 10000},
        {"perturbed.seed", &e->b_seed, 0, 1 << 30}, {"pile.bodies", &e->c_bodies, 1, 100},
        {"pile.seed", &e->c_seed, 0, 1 << 30},      {"speed.steps", &e->d_steps, 1, 1 << 24}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if ((st = tc_script_int(s, NULL, ints[i].name, ints[i].lo, ints[i].hi, ints[i].v, err)))
            return st;
    double sizes[E4_MAXPILE];
    if ((st = tc_script_reals(s, NULL, "speed.bodies", 1, 100, sizes, E4_MAXPILE, &e->d_n, err)))
        return st;
    for (int i = 0; i < e->d_n; i++) e->d_sizes[i] = (int)sizes[i];
    /* ranges that must be ordered */
    if (e->b_force_hi < e->b_force_lo)
        return tc_error_set(err, TC_EINVAL, s->path, 0, "perturbed.force_hi", "must be >= force_lo");
    if (e->c_mass_hi < e->c_mass_lo)
        return tc_error_set(err, TC_EINVAL, s->path, 0, "pile.mass_hi", "must be >= mass_lo");
    if (e->c_size_hi < e->c_size_lo)
        return tc_error_set(err, TC_EINVAL, s->path, 0, "pile.size_hi", "must be >= size_lo");
    return TC_OK;
}

/* the scene every study shares: gravity, friction and the ground plane */
static tc_status ground(const e4_setup *e, tc_scene *sc, tc_error *err) {
    *sc = tc_default_scene();
    sc->gravity[2] = -e->gravity;
    sc->friction = e->friction;
    tc_body_desc g = tc_default_body("ground", tc_plane());
    return tc_scene_add(sc, &g, 0, err);
}

tc_status e4_block_scene(const e4_setup *e, double mass, const double quat[4], double z,
                         tc_scene *sc, tc_error *err) {
    tc_status st = ground(e, sc, err);
    if (st) return st;
    tc_body_desc b = tc_default_body("block", tc_box(0.5, 0.5, 0.5));
    b.joint = TC_JOINT_FREE;
    memcpy(b.quat, quat, sizeof b.quat);
    b.pos[2] = z;
    /* a unit cube: the density is the mass */
    return tc_scene_add(sc, &b, mass, err);
}

/* a uniformly random rotation (Shoemake's method) */
static void random_quat(gsl_rng *r, double q[4]) {
    double u1 = gsl_rng_uniform(r), u2 = 2 * M_PI * gsl_rng_uniform(r), u3 = 2 * M_PI * gsl_rng_uniform(r);
    double a = sqrt(1 - u1), b = sqrt(u1);
    q[0] = b * cos(u3), q[1] = a * sin(u2), q[2] = a * cos(u2), q[3] = b * sin(u3);
}

/* height of a shape's lowest point below its centre, rotated by q */
static double lowest(const tc_shape *s, const double q[4]) {
    double R[9], d[3], p[3], down[3] = {0, 0, -1};
    tc_quat_to_mat(R, q);
    tc_m3_mulvt(d, R, down);
    tc_shape_support(s, d, p);
    tc_m3_mulv(d, R, p);
    return -d[2];
}

tc_status e4_penetrating_block(const e4_setup *e, tc_scene *sc, tc_error *err) {
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return TC_ENOMEM;
    gsl_rng_set(r, (unsigned long)e->a_seed);
    double q[4];
    random_quat(r, q);
    gsl_rng_free(r);
    tc_shape cube = tc_box(0.5, 0.5, 0.5);
    return e4_block_scene(e, e->a_mass, q, lowest(&cube, q) - e->a_depth, sc, err);
}

tc_status e4_pile_scene(const e4_setup *e, int n, int seed, tc_scene *sc, tc_error *err) {
    tc_status st = ground(e, sc, err);
    if (st) return st;
    /* four walls of thickness 0.1 m around [-W, W]^2 */
    const double W = e->c_half_width, H = e->c_wall_height, T = 0.05;
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
    if (st) return st;
    /* bodies on a grid of cells 2 size_hi wide, layer after layer, each in its cell */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return TC_ENOMEM;
    gsl_rng_set(r, (unsigned long)seed);
    const double cell = 2.2 * sqrt(3.0) * e->c_size_hi;
    int per_row = (int)floor(2 * W / cell);
    if (per_row < 1) per_row = 1;
    for (int i = 0; i < n && !st; i++) {
        char name[32];
        snprintf(name, sizeof name, "body%d", i);
        double h[3];
        for (int k = 0; k < 3; k++) h[k] = e->c_size_lo + (e->c_size_hi - e->c_size_lo) * gsl_rng_uniform(r);
        int kind = (int)gsl_rng_uniform_int(r, 3);
        tc_shape s = kind == 0 ? tc_box(h[0], h[1], h[2]) : kind == 1 ? tc_cylinder(h[0], h[1])
                                                                       : tc_sphere(h[0]);
        double mass = e->c_mass_lo + (e->c_mass_hi - e->c_mass_lo) * gsl_rng_uniform(r);
        tc_body_desc b = tc_default_body(name, s);
        b.joint = TC_JOINT_FREE;
        random_quat(r, b.quat);
        int layer = i / (per_row * per_row), at = i % (per_row * per_row);
        b.pos[0] = -W + cell * (at % per_row + 0.5);
        b.pos[1] = -W + cell * (at / per_row + 0.5);
        b.pos[2] = cell * (layer + 0.5) + 0.01;
        /* the mass sets the density */
        double m1, I1[3];
        tc_shape_mass(&s, 1.0, &m1, I1);
        st = tc_scene_add(sc, &b, mass / m1, err);
    }
    gsl_rng_free(r);
    return st;
}

double e4_penetration(const tc_scene *sc, const tc_body_state *bs) {
    double worst = 0;
    /* every pair with a moving body */
    for (int a = 0; a < sc->nbody; a++)
        for (int b = a + 1; b < sc->nbody; b++) {
            if (sc->body[a].joint == TC_JOINT_FIXED && sc->body[b].joint == TC_JOINT_FIXED) continue;
            double d, n[3], p[3];
            if (tc_deepest(&sc->body[a].shape, &bs[a], &sc->body[b].shape, &bs[b], &d, n, p) == 1)
                worst = fmax(worst, d);
        }
    return worst;
}

double e4_kinetic(const tc_scene *sc, const tc_body_state *bs) {
    double ke = 0;
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (b->joint != TC_JOINT_FREE && b->joint != TC_JOINT_PLANAR) continue;
        /* 1/2 m v^2 + 1/2 w_b . I w_b with w_b the body-frame angular velocity */
        double wb[3];
        tc_m3_mulvt(wb, bs[i].R, bs[i].omega);
        ke += 0.5 * b->mass * tc_v3_dot(bs[i].vel, bs[i].vel);
        for (int k = 0; k < 3; k++) ke += 0.5 * b->inertia[k] * wb[k] * wb[k];
    }
    return ke;
}

int e4_escaped(const e4_setup *e, const tc_scene *sc, const tc_body_state *bs, int i) {
    (void)sc;
    const double *p = bs[i].pos, W = e->c_half_width;
    return fabs(p[0]) > W || fabs(p[1]) > W || p[2] < -0.1;
}
