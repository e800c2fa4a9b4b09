/* SPDX-License-Identifier: MIT */
/* E4 setup: every number by dotted path (a tier may override any), and the three scenes */
#include "experiments/e4/e4.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* the line of a setting (0 when absent) */
static int line_of(const tc_script *s, const char *path) {
    const tc_setting *v = tc_script_lookup(s, NULL, path);
    return v ? tc_setting_line(v) : 0;
}

tc_status e4_read_setup(const tc_script *s, e4_setup *e, tc_error *err) {
    memset(e, 0, sizeof *e);
    tc_status st;
    int pile_bodies = 0, pile_seed = 0;
    /* every number by dotted path, so a tier can override any of them */
    const struct {
        const char *name;
        double *v, lo, hi;
    } reals[] = {{"scene.gravity", &e->gravity, 0, 100},
                 {"scene.friction", &e->friction, 0, 10},
                 {"scene.dt", &e->dt, 1e-6, 0.1},
                 {"block.mass", &e->a_mass, 1e-3, 1e6},
                 {"block.depth", &e->a_depth, 0, 0.5},
                 {"perturbed.mass", &e->b_mass, 1e-3, 1e6},
                 {"perturbed.force_lo", &e->b_force_lo, 0, 1e6},
                 {"perturbed.force_hi", &e->b_force_hi, 0, 1e6},
                 {"pile.seconds", &e->c_seconds, 1e-3, 1e3},
                 {"pile.mass_lo", &e->pile.mass_lo, 1e-3, 1e6},
                 {"pile.mass_hi", &e->pile.mass_hi, 1e-3, 1e6},
                 {"pile.size_lo", &e->pile.size_lo, 1e-3, 10},
                 {"pile.size_hi", &e->pile.size_hi, 1e-3, 10},
                 {"pile.half_width", &e->pile.half_width, 0.1, 100},
                 {"pile.wall_height", &e->pile.wall_height, 0.01, 100}};
    for (size_t i = 0; i < sizeof reals / sizeof *reals; i++)
        if ((st =
                 tc_script_real(s, NULL, reals[i].name, reals[i].lo, reals[i].hi, reals[i].v, err)))
            return st;
    const struct {
        const char *name;
        int *v, lo, hi;
    } ints[] = {{"block.steps", &e->a_steps, 1, 10000000},
                {"block.seed", &e->a_seed, 0, 1 << 30},
                {"perturbed.settle", &e->b_settle, 0, 1 << 24},
                {"perturbed.on", &e->b_on, 1, 1 << 24},
                {"perturbed.off", &e->b_off, 0, 1 << 24},
                {"perturbed.cycles", &e->b_cycles, 1, 10000},
                {"perturbed.seed", &e->b_seed, 0, 1 << 30},
                {"pile.bodies", &pile_bodies, 1, 100},
                {"pile.seed", &pile_seed, 0, 1 << 30},
                {"speed.steps", &e->d_steps, 1, 1 << 24},
                {"speed.repeats", &e->d_repeats, 1, E4_MAXREPEAT}};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        if ((st = tc_script_int(s, NULL, ints[i].name, ints[i].lo, ints[i].hi, ints[i].v, err)))
            return st;
    e->pile.bodies = pile_bodies;
    e->pile.seed = (unsigned long)pile_seed;
    e->pile.gravity = e->gravity;
    e->pile.friction = e->friction;
    double sizes[E4_MAXPILE];
    if ((st = tc_script_reals(s, NULL, "speed.bodies", 1, 100, sizes, E4_MAXPILE, &e->d_n, err)))
        return st;
    for (int i = 0; i < e->d_n; i++)
        e->d_sizes[i] = (int)sizes[i];
    /* ranges that must be ordered */
    if (e->b_force_hi < e->b_force_lo)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), line_of(s, "perturbed.force_hi"),
                            "perturbed.force_hi", "must be >= force_lo");
    if (e->pile.mass_hi < e->pile.mass_lo)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), line_of(s, "pile.mass_hi"),
                            "pile.mass_hi", "must be >= mass_lo");
    if (e->pile.size_hi < e->pile.size_lo)
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), line_of(s, "pile.size_hi"),
                            "pile.size_hi", "must be >= size_lo");
    /* the speed study's methods: the settling one and the timed ones (labels) */
    const char *settle;
    if ((st = tc_script_string(s, NULL, "speed.settle", &settle, err))) return st;
    snprintf(e->d_settle, sizeof e->d_settle, "%s", settle);
    const tc_setting *tl = tc_script_lookup(s, NULL, "speed.methods");
    if (!tl || tc_setting_type(tl) != TC_SETTING_ARRAY || tc_setting_length(tl) < 2 ||
        tc_setting_length(tl) > E4_MAXSPEED)
        return tc_error_set(
            err, TC_EINVAL, tc_script_path(s), tl ? tc_setting_line(tl) : 0, "speed.methods",
            "a list of 2 to %d method labels in quotes, the baseline first", E4_MAXSPEED);
    /* (b)'s ratios, "num/den" each (optional) */
    const tc_setting *rl = tc_script_lookup(s, NULL, "perturbed.ratios");
    int nr = rl ? tc_setting_length(rl) : 0;
    if (rl && (tc_setting_type(rl) != TC_SETTING_ARRAY || nr > E4_MAXRATIO))
        return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(rl),
                            "perturbed.ratios",
                            "a list of at most %d strings \"num/den\" (method "
                            "labels)",
                            E4_MAXRATIO);
    for (int i = 0; i < nr; i++) {
        const char *r = tc_setting_string(tc_setting_at(rl, i)), *slash = r ? strchr(r, '/') : NULL;
        size_t ln = slash ? (size_t)(slash - r) : 0;
        if (!slash || ln == 0 || ln > TC_LABEL_MAX || !slash[1] || strlen(slash + 1) > TC_LABEL_MAX)
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(rl),
                                "perturbed.ratios",
                                "entry %d: \"num/den\", two method labels in "
                                "quotes (got %s)",
                                i + 1, r ? r : "a non-string");
        snprintf(e->b_ratio[i][0], sizeof e->b_ratio[i][0], "%.*s", (int)ln, r);
        snprintf(e->b_ratio[i][1], sizeof e->b_ratio[i][1], "%s", slash + 1);
    }
    e->b_nratio = nr;
    e->d_nlabel = tc_setting_length(tl);
    for (int i = 0; i < e->d_nlabel; i++) {
        const char *l = tc_setting_string(tc_setting_at(tl, i));
        if (!l)
            return tc_error_set(err, TC_EINVAL, tc_script_path(s), tc_setting_line(tl),
                                "speed.methods", "labels must be strings in quotes");
        snprintf(e->d_label[i], sizeof e->d_label[i], "%s", l);
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
