/* SPDX-License-Identifier: MIT */
/* E7: the scenes (the compound pile fits its box, nothing touches at the start, the same from its
 * seed), the contact count, bad scripts refused with file, line and setting, MuJoCo and the LCP
 * against the closed forms of (a)-(c) at a 1 ms step, and a tiny run the same on 1 and 2 threads */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_scratch.h"
#include "test_tmp.h"
#include "experiments/e7/e7.h"

static const char *src(void) {
    return getenv("TOUCHE_SOURCE_DIR");
}

/* the built-in script's path and text */
static void script_path(char *buf, size_t n) {
    snprintf(buf, n, "%s/experiments/e7/e7_frictional.cfg", src());
}

static tc_status read7(const char *path, const char *tier, e7_setup *e, tc_error *err) {
    tc_script *s = NULL;
    tc_error_clear(err);
    tc_status st = tc_script_load(&s, path, tier, err);
    if (st) return st;
    st = e7_read_setup(s, e, err);
    tc_script_free(s);
    return st;
}

static void quick_setup(e7_setup *e) {
    char path[1024];
    tc_error err;
    script_path(path, sizeof path);
    cr_assert_eq(read7(path, "quick", e, &err), TC_OK, "%s:%d: %s: %s", err.file, err.line,
                 err.param, err.msg);
}

/* ---------- the pile ---------- */

Test(e7, the_pile_fits_its_box_and_nothing_touches_at_the_start) {
    e7_setup e;
    quick_setup(&e);
    tc_scene *sc = malloc(sizeof *sc), *again = malloc(sizeof *again);
    for (int i = 0; i < e.d_n; i++) {
        tc_compound_pile p;
        tc_error err;
        cr_assert_eq(e7_pile_scene(&e, i, sc, &p, &err), TC_OK, "%s", err.msg);
        cr_expect_eq(sc->nbody, 5 + e.d_bodies[i], "ground, 4 walls and the bodies");
        const double W = p.half_width;
        tc_method m;
        tc_sim *sim = NULL;
        cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
        cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.001, &err), TC_OK, "%s", err.msg);
        const tc_body_state *bs = tc_sim_bodies(sim);
        for (int b = 5; b < sc->nbody; b++) {
            const tc_body_desc *d = &sc->body[b];
            cr_expect_eq(d->shape.type, TC_SHAPE_COMPOUND);
            cr_expect(d->shape.npart >= 2 && d->shape.npart <= TC_SHAPE_MAXPART);
            /* its bounding sphere inside the walls and above the floor */
            double R = 0;
            for (int k = 0; k < d->shape.npart; k++) {
                const tc_shape_part *q = &d->shape.part[k];
                double far[3];
                for (int j = 0; j < 3; j++)
                    far[j] = fabs(q->pos[j]) + q->size[j];
                R = fmax(R, q->type == TC_SHAPE_SPHERE
                                ? sqrt(q->pos[0] * q->pos[0] + q->pos[1] * q->pos[1] +
                                       q->pos[2] * q->pos[2]) +
                                      q->size[0]
                                : sqrt(far[0] * far[0] + far[1] * far[1] + far[2] * far[2]));
            }
            cr_expect(fabs(bs[b].pos[0]) + R < W && fabs(bs[b].pos[1]) + R < W &&
                          bs[b].pos[2] - R > 0,
                      "pile %d body %d (R %g m) at (%g, %g, %g) inside the box of half width %g m",
                      i, b, R, bs[b].pos[0], bs[b].pos[1], bs[b].pos[2], W);
            cr_expect_eq(tc_compound_pile_escaped(&p, bs[b].pos), 0);
        }
        /* no two parts closer than 1 mm, none on the floor or a wall */
        e7_touch *w = e7_touch_alloc(sc, 0.001);
        cr_assert_not_null(w);
        cr_expect_eq(e7_touching(w, bs), 0, "pile %d: nothing touches at the start", i);
        e7_touch_free(w);
        tc_sim_free(sim);
        /* the same scene from the same seed */
        cr_assert_eq(e7_pile_scene(&e, i, again, NULL, &err), TC_OK);
        cr_expect_eq(memcmp(sc->body, again->body, (size_t)sc->nbody * sizeof *sc->body), 0);
    }
    /* another seed, another pile */
    e.pile.seed += 1;
    cr_assert_eq(e7_pile_scene(&e, 0, again, NULL, NULL), TC_OK);
    cr_expect_neq(memcmp(sc->body + 5, again->body + 5, sizeof *sc->body), 0);
    free(sc);
    free(again);
}

Test(e7, every_default_kind_is_a_valid_compound) {
    tc_compound_pile p = tc_default_compound_pile();
    e7_setup e;
    quick_setup(&e);
    cr_expect_eq(p.nkind, e.pile.nkind, "the script lists the default kinds");
    for (int i = 0; i < p.nkind; i++) {
        tc_shape c;
        tc_error err;
        cr_expect_eq(tc_compound_shape(&p.kind[i], 0.05, &c, &err), TC_OK, "%s: %s", p.kind[i].name,
                     err.msg);
        cr_expect_eq(memcmp(&p.kind[i], &e.pile.kind[i], sizeof p.kind[i]), 0,
                     "kind %d as in the script", i);
        cr_expect(tc_compound_radius(&p.kind[i], 1) > 0 && tc_compound_volume(&p.kind[i], 1) > 0);
    }
    /* and the default pile builds */
    tc_scene *sc = malloc(sizeof *sc);
    tc_error err;
    cr_expect_eq(tc_scene_compound_pile(sc, &p, &err), TC_OK, "%s", err.msg);
    free(sc);
}

Test(e7, bad_compounds_and_piles_are_refused_with_the_reason) {
    tc_compound_pile p = tc_default_compound_pile();
    tc_compound_kind k = p.kind[0];
    tc_shape c;
    tc_error err;
    /* empty */
    k.npart = 0;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_shape(&k, 0.05, &c, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "parts");
    /* overlapping parts: the T's stem moved into its bar */
    k = p.kind[0];
    k.part[1].pos[2] = 0.25;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_shape(&k, 0.05, &c, &err), TC_EINVAL);
    cr_expect(strstr(err.msg, "overlap") != NULL, "%s", err.msg);
    /* an L: two bars whose products of inertia do not vanish */
    tc_compound_kind L = {"L",
                          2,
                          {{TC_SHAPE_BOX, {1.0, 0.25, 0.25}, {0, 0, -0.75}},
                           {TC_SHAPE_BOX, {0.25, 0.25, 0.5}, {-0.75, 0, 0}}}};
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_shape(&L, 0.05, &c, &err), TC_EINVAL);
    cr_expect(strstr(err.msg, "diagonal") != NULL, "%s", err.msg);
    /* a pile too large for its box, for the scene, and friction < 0 */
    tc_compound_pile q = p;
    q.half_width = 0.25;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_pile_check(&q, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "bodies");
    cr_expect(strstr(err.msg, "do not fit") != NULL, "%s", err.msg);
    q = p;
    q.bodies = TC_SCENE_MAXBODY;
    q.half_width = 10;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_pile_check(&q, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "bodies");
    q = p;
    q.friction = -0.1;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_pile_check(&q, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "friction");
    q = p;
    q.half_width = 0.05;
    tc_error_clear(&err);
    cr_expect_eq(tc_compound_pile_check(&q, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "half_width");
}

/* ---------- the contact count ---------- */

Test(e7, touching_parts_count_pairs_closer_than_the_margin) {
    tc_scene *sc = malloc(sizeof *sc);
    const double h[3] = {0.1, 0.1, 0.1}, a[3] = {0, 0, 0.1}, b[3] = {0.2005, 0, 0.1},
                 up[3] = {0, 0, 0.35};
    cr_assert_eq(tc_scene_ground(sc, 9.81, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_box(sc, "a", h, 1, a, NULL, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_box(sc, "b", h, 1, b, NULL, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_free(sc, "ball", tc_sphere(0.05), up, NULL, 1000, NULL), TC_OK);
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.001, NULL), TC_OK);
    e7_touch *near = e7_touch_alloc(sc, 0.0002), *far = e7_touch_alloc(sc, 0.002);
    const tc_body_state *bs = tc_sim_bodies(sim);
    /* both boxes on the floor (gap 0); 0.5 mm between them; the ball 0.15 m above */
    cr_expect_eq(e7_touching(near, bs), 2, "the boxes on the floor");
    cr_expect_eq(e7_touching(far, bs), 3, "and each other within 2 mm");
    e7_touch_free(near);
    e7_touch_free(far);
    tc_sim_free(sim);
    free(sc);
}

/* ---------- bad scripts ---------- */

Test(e7, bad_scripts_name_file_line_and_setting) {
    char dir[] = "/tmp/touche-e7-XXXXXX", path[128], orig[1024];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/bad.cfg", dir);
    script_path(orig, sizeof orig);
    char *text = text_of(orig);
    const struct {
        const char *from, *to, *param, *why, *at;
    } cases[] = {
        /* mu < 0 */
        {"  friction = 0.5;   # Coulomb coefficient", "  friction = -0.5;   # Coulomb coefficient",
         "slide.friction", "must lie in", NULL},
        {"  friction = 0.2;", "  friction = -0.2;", "roll.friction", "must lie in", NULL},
        /* an empty compound */
        {"{ name = \"T\"; parts = (\n        { type = \"box\"; size = [1.0, 0.25, 0.25]; pos = "
         "[0.0, 0.0, 0.75]; },\n"
         "        { type = \"box\"; size = [0.25, 0.25, 0.75]; pos = [0.0, 0.0, -0.25]; } ); },",
         "{ name = \"T\"; parts = ( ); },", "pile.shapes.[0].parts", "empty compound", NULL},
        /* a part of the wrong shape, overlapping parts */
        {"{ type = \"sphere\"; size = [0.35];", "{ type = \"cone\"; size = [0.35];", "type",
         "\"box\" or \"sphere\"", NULL},
        {"{ type = \"box\"; size = [0.25, 0.25, 0.75]; pos = [0.0, 0.0, -0.25]; } ); },",
         "{ type = \"box\"; size = [0.25, 0.25, 0.75]; pos = [0.0, 0.0, 0.25]; } ); },",
         "pile.shapes.[0].parts", "overlap", "{ name = \"T\"; parts = ("},
        /* a pile that does not fit its box (the quick tier's first size), one over the scene's
         * capacity, a half width per size missing */
        {"half_width = [0.4, 0.5, 0.6]; seconds", "half_width = [0.15, 0.5, 0.6]; seconds",
         "pile.bodies", "do not fit", "bodies = [30, 60, 100];"},
        {"bodies = [30, 60, 100];", "bodies = [30, 60, 100000];", "pile.bodies", "a pile holds",
         NULL},
        {"half_width = [0.4, 0.5, 0.6]; seconds", "half_width = [0.4, 0.5]; seconds",
         "pile.half_width", "one box half width per pile size", NULL},
        /* an incline of 90 degrees or more, a stop speed above v0 */
        {"offsets = [-10.0, 0.0, 10.0];", "offsets = [-10.0, 0.0, 70.0];", "incline.offsets",
         "[0, 89)", NULL},
        {"  stop_speed = 0.02;", "  stop_speed = 3.0;", "slide.stop_speed", "below slide.v0", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_edited(text, cases[i].from, cases[i].to, path);
        tc_error err;
        e7_setup e;
        tc_status st = read7(path, "quick", &e, &err);
        cr_expect_eq(st, TC_EINVAL, "case %zu: %s", i, err.msg);
        cr_expect_str_eq(err.file, path, "case %zu", i);
        cr_expect_str_eq(err.param, cases[i].param, "case %zu: %s", i, err.msg);
        cr_expect(strstr(err.msg, cases[i].why) != NULL, "case %zu: %s", i, err.msg);
        char *edited = text_of(path);
        const char *at = cases[i].at ? cases[i].at : cases[i].to;
        /* the edited setting's line (its first line for a multi-line edit) */
        char first[256];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(at, "\n"), at);
        cr_expect_eq(err.line, line_of(edited, first), "case %zu: line %d", i, err.line);
        free(edited);
    }
    unlink(path);
    rmdir(dir);
    free(text);
}

/* ---------- the closed forms at a 1 ms step ---------- */

/* one run of scene q (variant i) with the method spec (and a parameter pname = pval when pname
 * is not NULL); its measures */
static const char *pname;
static double pval;
static e7_measure run(const e7_setup *e, const char *spec, int q, int i) {
    tc_scene *sc = malloc(sizeof *sc);
    tc_error err;
    tc_status st = q == E7_SLIDE     ? e7_slide_scene(e, 0, sc, &err)
                   : q == E7_INCLINE ? e7_incline_scene(e, i, 0, sc, &err)
                                     : e7_roll_scene(e, sc, &err);
    cr_assert_eq(st, TC_OK, "%s", err.msg);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    if (pname) cr_assert_eq(tc_method_set(&m, pname, pval, &err), TC_OK, "%s", err.msg);
    const long n = 2000;
    double *x = calloc(n, sizeof *x), *v = calloc(n, sizeof *v), *sp = calloc(n, sizeof *sp),
           *wr = calloc(n, sizeof *wr);
    long done = 0;
    tc_item it = {0};
    e7_simulate(e, q, sc, &m, x, v, sp, wr, &done, &it);
    cr_assert_eq(it.status, TC_OK, "%s: %s", spec, it.reason);
    e7_measure r = e7_measure_run(e, q, done, x, v, sp, wr);
    free(x);
    free(v);
    free(sp);
    free(wr);
    free(sc);
    return r;
}

static double rel(double a, double b) {
    return fabs(a - b) / fabs(b);
}

/* MuJoCo's soft friction is a constraint relaxed over solref's 20 ms time constant: as the speed
 * nears 0 its friction force fades, so the box takes about 2 % longer to slow below 2 cm/s (the
 * distance, where that tail adds under a millimetre, holds to 0.2 %) */
static void closed_forms(const char *spec, double time_tol, int ball) {
    e7_setup e;
    quick_setup(&e);
    cr_assert_eq(e.dt, 0.001, "the script's step is 1 ms");
    e7_measure a = run(&e, spec, E7_SLIDE, 0);
    cr_expect_lt(rel(a.distance, e7_slide_distance(&e)), 0.01, "%s (a) distance %g m vs %g m", spec,
                 a.distance, e7_slide_distance(&e));
    cr_expect_lt(rel(a.stop_time, e7_slide_time_at(&e)), time_tol, "%s (a) stop %g s vs %g s", spec,
                 a.stop_time, e7_slide_time_at(&e));
    for (int i = 0; i < e.b_n; i++) {
        e7_measure b = run(&e, spec, E7_INCLINE, i);
        const double A = e7_incline_accel(&e, i);
        /* above: the acceleration within 1 %; at the friction angle, where the closed form is
         * on the edge, the acceleration below 1 % of g; below, the box sticks (under 2 mm/s:
         * MuJoCo's soft friction lets it creep at 1.2 mm/s) */
        if (A > 0)
            cr_expect_lt(rel(b.accel, A), 0.01, "%s (b) angle %d: a %g vs %g m/s^2", spec, i,
                         b.accel, A);
        else if (e.b_offset[i] == 0)
            cr_expect_lt(fabs(b.accel), 0.01 * e.gravity,
                         "%s (b) at the friction angle: a %g m/s^2", spec, b.accel);
        else
            cr_expect_lt(fabs(b.creep), 0.002, "%s (b) angle %d: it sticks (creeps at %g m/s)",
                         spec, i, b.creep);
    }
    if (!ball) return;
    e7_measure c = run(&e, spec, E7_ROLL, 0);
    cr_expect_lt(rel(c.roll_time, e7_roll_time_at(&e)), 0.01, "%s (c) t* %g vs %g s", spec,
                 c.roll_time, e7_roll_time_at(&e));
    cr_expect_lt(rel(c.roll_speed, e7_roll_speed(&e)), 0.01, "%s (c) speed %g vs %g m/s", spec,
                 c.roll_speed, e7_roll_speed(&e));
    cr_expect_lt(rel(c.roll_distance, e7_roll_distance_at(&e)), 0.01, "%s (c) distance %g vs %g m",
                 spec, c.roll_distance, e7_roll_distance_at(&e));
}

Test(e7, mujoco_meets_the_closed_forms_at_1_ms) {
    closed_forms("mujoco", 0.03, 1);
}

Test(e7, the_lcp_meets_the_closed_forms_at_1_ms) {
    closed_forms("rigid", 0.01, 1);
}

/* velocity projection on rigid's contact points: the box's closed forms to 1 % (its ball rolls
 * 6 % late, where the LCP step on the same points is within 0.4 %: not tested here) */
Test(e7, velocity_projection_meets_the_box_closed_forms_at_1_ms) {
    closed_forms("rigid/vp", 0.01, 0);
}

/* velocity projection on every penetrating point, as E7's script runs it once `points` is
 * registered: each body at its vertices (spacing_rel 2; at the default 0.25 a box face on the
 * plane is 36 coplanar points whose block LCPs Siconos fails to solve) */
Test(e7, velocity_projection_on_points_meets_the_closed_forms_at_1_ms) {
    tc_method m;
    if (tc_method_parse(&m, "points/vp", NULL) != TC_OK)
        cr_skip_test("model points is not registered");
    pname = "spacing_rel";
    pval = 2.0;
    closed_forms("points/vp", 0.01, 1);
    pname = NULL;
}

/* a run that makes energy from nothing fails with the reason, and a sound one does not: the
 * penalty method at a 0.1 s step slid the box 33 m backwards and was "ok" with a stop time of NaN
 * (issue 33, finding 13); the LCP at the same step loses energy as it should */
Test(e7, energy_from_nothing_fails_the_run) {
    e7_setup e;
    quick_setup(&e);
    e.dt = 0.1;
    const char *spec[2] = {"penalty-dp", "rigid"};
    for (int k = 0; k < 2; k++) {
        tc_scene *sc = malloc(sizeof *sc);
        tc_error err;
        cr_assert_eq(e7_slide_scene(&e, 0, sc, &err), TC_OK, "%s", err.msg);
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, spec[k], &err), TC_OK, "%s", err.msg);
        const long n = 100;
        double *x = calloc(n, sizeof *x), *v = calloc(n, sizeof *v), *sp = calloc(n, sizeof *sp),
               *wr = calloc(n, sizeof *wr);
        long done = 0;
        tc_item it = {0};
        e7_simulate(&e, E7_SLIDE, sc, &m, x, v, sp, wr, &done, &it);
        if (k == 0) {
            cr_expect_eq(it.status, TC_EDIVERGED, "%s: %s", spec[k], it.reason);
            cr_expect(strstr(it.reason, "implausible: energy grew without input"), "%s", it.reason);
        } else {
            cr_expect_eq(it.status, TC_OK, "%s: %s", spec[k], it.reason);
            cr_expect_gt(x[done - 1], 0, "%s slid forwards", spec[k]);
        }
        free(x);
        free(v);
        free(sp);
        free(wr);
        free(sc);
    }
}

Test(e7, the_closed_forms_agree_with_each_other) {
    e7_setup e;
    quick_setup(&e);
    /* t* from the slip's rate 7/2 mu g; the distance is the sliding one up to t* */
    const double g = e.gravity, mu = e.c_mu, v0 = e.c_v0, t = e7_roll_time(&e);
    cr_expect_lt(fabs(v0 - 3.5 * mu * g * t), 1e-12);
    cr_expect_lt(fabs(v0 - mu * g * t - e7_roll_speed(&e)), 1e-12);
    cr_expect_lt(fabs(v0 * t - mu * g * t * t / 2 - e7_roll_distance(&e)), 1e-12);
    cr_expect_lt(fabs(e7_slide_distance(&e) - e.a_v0 * e7_slide_time(&e) / 2), 1e-12);
    /* at the friction angle and below it sticks */
    for (int i = 0; i < e.b_n; i++)
        cr_expect(e.b_offset[i] > 0 ? e7_incline_accel(&e, i) > 0 : e7_incline_accel(&e, i) == 0);
}

/* ---------- threads ---------- */

/* a tiny E7 (short scenes, a 10-body pile) with MuJoCo and the LCP on `threads` threads; the
 * text of the digested files */
static char *tiny_run(int threads) {
    char dir[] = "/tmp/touche-e7-XXXXXX", path[128], out[128], orig[1024];
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(path, sizeof path, "%s/e7.cfg", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    script_path(orig, sizeof orig);
    char *text = text_of(orig);
    write_edited(text, "quick = {\n",
                 "quick = {\n    slide = { seconds = 0.1; }; incline = { seconds = 0.3; };\n"
                 "    roll = { seconds = 0.1; };\n",
                 path);
    free(text);
    text = text_of(path);
    write_edited(text,
                 "pile = { bodies = [30, 60, 100]; half_width = [0.4, 0.5, 0.6]; seconds = 1.4;\n"
                 "             measure_from = 1.2;",
                 "pile = { bodies = [10]; half_width = [0.4]; seconds = 0.3; measure_from = 0.1;",
                 path);
    free(text);
    tc_run_opts o = {.source_dir = src(),
                     .out_root = out,
                     .tier = "quick",
                     .methods = "mujoco,rigid",
                     .threads = threads};
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_exp_plan(&x, tc_experiment_find("e7"), path, "e7", &o, &err), TC_OK, "%s",
                 err.msg);
    cr_assert_eq(tc_exp_execute(x, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_exp_failed(x), 0);
    tc_exp_free(x);
    static const char *const files[] = {"slide.csv",    "incline.csv",    "roll.csv",
                                        "pile.csv",     "slide_runs.csv", "incline_runs.csv",
                                        "roll_runs.csv"};
    char *res = calloc(1, 1 << 22);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char csv[256];
        snprintf(csv, sizeof csv, "%s/e7/%s", out, files[i]);
        char *t = text_of(csv);
        strncat(res, t, (1 << 22) - strlen(res) - 1);
        free(t);
    }
    return res;
}

Test(e7, a_tiny_run_is_the_same_for_one_and_two_threads) {
    char *a = tiny_run(1), *b = tiny_run(2);
    cr_expect_str_eq(a, b, "E7's results differ between 1 and 2 threads");
    cr_expect(strstr(a, "one block per method: mujoco") != NULL);
    free(a);
    free(b);
}
