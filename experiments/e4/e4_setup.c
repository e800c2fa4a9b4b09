/* SPDX-License-Identifier: MIT */
/* E4 setup: every number by dotted path (a tier may override any), and the three scenes */
#include "experiments/e4/e4.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* every number by dotted path, so a tier can override any of them */
static const tc_field fields[] = {
    TC_FIELD_R(e4_setup, gravity, "scene.gravity", 0, 100),
    TC_FIELD_R(e4_setup, friction, "scene.friction", 0, 10),
    TC_FIELD_R(e4_setup, dt, "scene.dt", 1e-6, 0.1),
    TC_FIELD_R(e4_setup, a_mass, "block.mass", 1e-3, 1e6),
    TC_FIELD_R(e4_setup, a_depth, "block.depth", 0, 0.5),
    TC_FIELD_R(e4_setup, b_mass, "perturbed.mass", 1e-3, 1e6),
    TC_FIELD_R(e4_setup, b_force_lo, "perturbed.force_lo", 0, 1e6),
    TC_FIELD_R(e4_setup, b_force_hi, "perturbed.force_hi", 0, 1e6),
    TC_FIELD_R(e4_setup, c_seconds, "pile.seconds", 1e-3, 1e3),
    TC_FIELD_R(e4_setup, pile.mass_lo, "pile.mass_lo", 1e-3, 1e6),
    TC_FIELD_R(e4_setup, pile.mass_hi, "pile.mass_hi", 1e-3, 1e6),
    TC_FIELD_R(e4_setup, pile.size_lo, "pile.size_lo", 1e-3, 10),
    TC_FIELD_R(e4_setup, pile.size_hi, "pile.size_hi", 1e-3, 10),
    TC_FIELD_R(e4_setup, pile.half_width, "pile.half_width", 0.1, 100),
    TC_FIELD_R(e4_setup, pile.wall_height, "pile.wall_height", 0.01, 100),
    TC_FIELD_I(e4_setup, a_steps, "block.steps", 1, 10000000),
    TC_FIELD_I(e4_setup, a_seed, "block.seed", 0, 1 << 30),
    TC_FIELD_I(e4_setup, b_settle, "perturbed.settle", 0, 1 << 24),
    TC_FIELD_I(e4_setup, b_on, "perturbed.on", 1, 1 << 24),
    TC_FIELD_I(e4_setup, b_off, "perturbed.off", 0, 1 << 24),
    TC_FIELD_I(e4_setup, b_cycles, "perturbed.cycles", 1, 10000),
    TC_FIELD_I(e4_setup, b_seed, "perturbed.seed", 0, 1 << 30),
    TC_FIELD_I(e4_setup, pile.bodies, "pile.bodies", 1, 100),
    TC_FIELD_I(e4_setup, c_seed, "pile.seed", 0, 1 << 30),
    TC_FIELD_I(e4_setup, d_steps, "speed.steps", 1, 1 << 24),
    TC_FIELD_I(e4_setup, d_repeats, "speed.repeats", 1, E4_MAXREPEAT),
    TC_FIELD_RS(e4_setup, d_bodies, d_n, "speed.bodies", 1, 100),
    TC_FIELD_S(e4_setup, d_settle, "speed.settle"),
    TC_FIELD_END};

/* a range's upper end hi (the setting hi_name) may not lie below its lower end lo_name */
static tc_status ordered(const tc_script *s, double lo, double hi, const char *hi_name,
                         const char *lo_name, tc_error *err) {
    if (hi >= lo) return TC_OK;
    return tc_script_fail_at(s, hi_name, err, "must be >= %s", lo_name);
}

/* the strings of the array at path (min to max, each shorter than size) into out, size bytes
 * apart; *n gets the count (0 when the array may be absent, min 0, and is) */
static tc_status read_strings(const tc_script *s, const char *path, int min, int max, char *out,
                              size_t size, int *n, tc_error *err) {
    const tc_setting *l = tc_script_lookup(s, NULL, path);
    *n = tc_setting_length(l);
    if ((l || min) && (tc_setting_type(l) != TC_SETTING_ARRAY || *n < min || *n > max))
        return tc_script_fail(s, l, path, err, "a list of %d to %d strings in quotes", min, max);
    for (int i = 0; i < *n; i++) {
        const char *v = tc_setting_string(tc_setting_at(l, i));
        if (!v || strlen(v) >= size)
            return tc_script_fail(s, l, path, err, "entry %d: a label in quotes", i + 1);
        snprintf(out + i * size, size, "%s", v);
    }
    return TC_OK;
}

tc_status e4_read_setup(const tc_script *s, e4_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st;
    char ratio[E4_MAXRATIO][2 * TC_LABEL_MAX + 2];
    if ((st = tc_script_read(s, NULL, fields, e, err)) ||
        (st = ordered(s, e->b_force_lo, e->b_force_hi, "perturbed.force_hi", "force_lo", err)) ||
        (st = ordered(s, e->pile.mass_lo, e->pile.mass_hi, "pile.mass_hi", "mass_lo", err)) ||
        (st = ordered(s, e->pile.size_lo, e->pile.size_hi, "pile.size_hi", "size_lo", err)) ||
        /* the speed study's timed methods (labels, the baseline first) */
        (st = read_strings(s, "speed.methods", 2, E4_MAXSPEED, e->d_label[0], sizeof e->d_label[0],
                           &e->d_nlabel, err)) ||
        /* (b)'s ratios, "num/den" each (optional) */
        (st = read_strings(s, "perturbed.ratios", 0, E4_MAXRATIO, ratio[0], sizeof ratio[0],
                           &e->b_nratio, err)))
        return st;
    /* the pile's seed and the speed study's pile sizes, as the scenes take them */
    e->pile.seed = (unsigned long)e->c_seed;
    e->pile.gravity = e->gravity;
    e->pile.friction = e->friction;
    for (int i = 0; i < e->d_n; i++)
        e->d_sizes[i] = (int)e->d_bodies[i];
    /* each ratio: two method labels, numerator over denominator */
    for (int i = 0; i < e->b_nratio; i++) {
        const char *r = ratio[i], *slash = strchr(r, '/');
        size_t ln = slash ? (size_t)(slash - r) : 0;
        if (!ln || ln > TC_LABEL_MAX || !slash[1] || strlen(slash + 1) > TC_LABEL_MAX)
            return tc_script_fail(
                s, tc_script_lookup(s, NULL, "perturbed.ratios"), "perturbed.ratios", err,
                "entry %d: \"num/den\", two method labels in quotes (got %s)", i + 1, r);
        snprintf(e->b_ratio[i][0], sizeof e->b_ratio[i][0], "%.*s", (int)ln, r);
        snprintf(e->b_ratio[i][1], sizeof e->b_ratio[i][1], "%s", slash + 1);
    }
    return TC_OK;
}

tc_status e4_block_scene(const e4_setup *e, tc_scene *sc, tc_error *err) {
    return tc_scene_block_into_ground(sc, e->gravity, e->friction, 0.5, e->a_mass, e->a_depth,
                                      (unsigned long)e->a_seed, err);
}

tc_status e4_rest_scene(const e4_setup *e, tc_scene *sc, tc_error *err) {
    const double h[3] = {E4_HALF, E4_HALF, E4_HALF}, pos[3] = {0, 0, E4_HALF};
    const double rest[4] = {1, 0, 0, 0};
    tc_status st = tc_scene_ground(sc, e->gravity, e->friction, err);
    return st ? st : tc_scene_add_box(sc, "block", h, e->b_mass, pos, rest, err);
}

tc_status e4_pile_scene(const e4_setup *e, int n, tc_scene *sc, tc_error *err) {
    tc_pile p = e->pile;
    p.bodies = n;
    return tc_scene_pile(sc, &p, err);
}
