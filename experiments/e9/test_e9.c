/* SPDX-License-Identifier: MIT */
/* E9: an exact Coulomb method (velocity projection on rigid's contact points) sticks below mu m
 * g to 1e-9 m over 10 s and starts sliding within 1 % of mu m g under the slow ramp, at a 10 ms
 * step; a method without friction (the LCP by projected Gauss-Seidel, which drops the friction
 * rows) fails both; the incline's and the loads' closed forms; bad scripts refused with file,
 * line and setting */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_scratch.h"
#include "test_tmp.h"
#include "experiments/e9/e9.h"

static tc_status read9(const char *path, const char *tier, e9_setup *e, tc_error *err) {
    tc_script *s = NULL;
    tc_error_clear(err);
    tc_status st = tc_script_load(&s, path, tier, err);
    if (st) return st;
    st = e9_read_setup(s, e, err);
    tc_script_free(s);
    return st;
}

static void script_path(char *buf, size_t n) {
    snprintf(buf, n, "%s/experiments/e9/e9_static_friction.cfg", getenv("TOUCHE_SOURCE_DIR"));
}

/* the full tier's settings: 10 s runs */
static void full_setup(e9_setup *e) {
    char path[1024];
    tc_error err;
    script_path(path, sizeof path);
    cr_assert_eq(read9(path, "full", e, &err), TC_OK, "%s:%d: %s: %s", err.file, err.line,
                 err.param, err.msg);
    cr_assert_eq(e->seconds, 10.0, "the full tier runs 10 s");
}

/* one run of condition c with method spec at 10 ms in 3-D */
static e9_result run(const e9_setup *e, const e9_cond *c, const char *spec) {
    tc_method m;
    tc_error err;
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e9_scene(e, c, 0, sc, &err), TC_OK, "%s", err.msg);
    tc_item it = {0};
    e9_result r;
    e9_simulate(e, c, sc, 0, &m, 0.01, &r, &it);
    cr_assert_eq(it.status, TC_OK, "%s: %s", spec, it.reason);
    cr_assert_eq(r.done, 1000, "10 s at 10 ms");
    free(sc);
    return r;
}

/* the push at 0.9 mu m g along +x and the incline at 0.9 of the friction angle */
static const e9_cond push09 = {E9_PUSH, 0.9, 0, 0, 0};
static const e9_cond incline09 = {E9_INCLINE, 0.9, 0, 0, 0};
static const e9_cond ramp = {E9_RAMP, 0, 0, 0, 0};

Test(e9, an_exact_coulomb_method_sticks_below_mu_m_g_and_starts_sliding_at_it) {
    e9_setup e;
    full_setup(&e);
    const double F = e9_threshold(&e);
    cr_expect_float_eq(F, 0.5 * 1.0 * 9.81, 1e-12, "mu m g");
    e9_result p = run(&e, &push09, "rigid/vp");
    cr_expect(p.drift < 1e-9, "push 0.9 mu m g: drift %g m over 10 s", p.drift);
    e9_result i = run(&e, &incline09, "rigid/vp");
    cr_expect(i.drift < 1e-9, "incline 0.9 of the friction angle: drift %g m", i.drift);
    /* the ramp: the closed form is mu m g, lagged by sqrt(2 m v r) at the speed threshold */
    e9_result o = run(&e, &ramp, "rigid/vp");
    const double rate = e.ramp_to * F / e.seconds;
    const double lag = sqrt(2 * e.mass * e.onset_speed * rate);
    cr_expect(fabs(o.onset_force - F) <= 0.01 * F,
              "onset at %.6g N, mu m g = %.6g N (error %.3g %%)", o.onset_force, F,
              100 * (o.onset_force - F) / F);
    /* and it does slide past the threshold: no earlier than mu m g, within the lag and a step */
    cr_expect(o.onset_force >= F && o.onset_force <= F + lag + 2 * rate * 0.01,
              "onset %.9g N in [mu m g, mu m g + lag + two steps of the ramp] = [%.9g, %.9g]",
              o.onset_force, F, F + lag + 2 * rate * 0.01);
}

Test(e9, a_method_without_friction_fails_the_stick_and_onset_checks) {
    e9_setup e;
    full_setup(&e);
    const double F = e9_threshold(&e);
    /* projected Gauss-Seidel drops the friction rows: the push accelerates the box freely,
     * x = a t^2 / 2 from settle on (a = 0.9 mu g) */
    e9_result p = run(&e, &push09, "rigid/lcp-pgs");
    cr_expect(!(p.drift < 1e-9), "a frictionless box must not pass the stick check (%g m)",
              p.drift);
    const double a = 0.9 * e.mu * e.gravity, t1 = e.seconds, t0 = e.settle;
    cr_expect(fabs(p.drift - a * (t1 * t1 - t0 * t0) / 2) < 0.02 * a * t1 * t1 / 2,
              "it slides freely: %g m against a (t1^2 - t0^2)/2 = %g m", p.drift,
              a * (t1 * t1 - t0 * t0) / 2);
    e9_result o = run(&e, &ramp, "rigid/lcp-pgs");
    cr_expect(!(fabs(o.onset_force - F) <= 0.01 * F),
              "a frictionless box must not start within 1 %% of mu m g (%g N)", o.onset_force);
}

Test(e9, the_loads_and_the_incline_follow_their_closed_forms) {
    e9_setup e;
    full_setup(&e);
    const double F = e9_threshold(&e);
    cr_expect_float_eq(e9_push(&e, &push09, 3.0), 0.9 * F, 1e-12);
    cr_expect_float_eq(e9_push(&e, &ramp, e.seconds), e.ramp_to * F, 1e-12);
    cr_expect_float_eq(e9_push(&e, &ramp, 0), 0, 1e-15);
    const e9_cond r = {E9_RATCHET, 0, 0, 0.45, 0.45};
    cr_expect_float_eq(e9_push(&e, &r, e.period / 4), 0.9 * F, 1e-12, "the peak a quarter in");
    cr_expect_float_eq(e9_push(&e, &r, 3 * e.period / 4), 0, 1e-12, "the trough");
    /* the incline at 0.9 of the friction angle: gravity (g sin, 0, -g cos), tan below mu */
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e9_scene(&e, &incline09, 0, sc, NULL), TC_OK);
    const double th = 0.9 * atan(e.mu);
    cr_expect_float_eq(sc->gravity[0], e.gravity * sin(th), 1e-12);
    cr_expect_float_eq(sc->gravity[2], -e.gravity * cos(th), 1e-12);
    cr_expect(tan(th) < e.mu);
    cr_expect_float_eq(sc->body[1].mass, e.mass, 1e-12);
    free(sc);
}

/* the built-in script with `from` replaced by `to`, read at the full tier: the error */
static tc_error edited(const char *from, const char *to, int *line) {
    char path[1024], tmp[1100], dir[] = "/tmp/touche-e9-XXXXXX";
    script_path(path, sizeof path);
    char *text = text_of(path);
    *line = line_of(text, from);
    cr_assert_not_null(test_tmpdir(dir));
    snprintf(tmp, sizeof tmp, "%s/e9.cfg", dir);
    write_edited(text, from, to, tmp);
    free(text);
    e9_setup e;
    tc_error err;
    cr_expect_neq(read9(tmp, "full", &e, &err), TC_OK, "'%s' refused", to);
    remove(tmp);
    return err;
}

Test(e9, bad_settings_are_refused_at_their_line) {
    int line;
    tc_error err = edited("  mean = [0.0, 0.45];", "  mean = [0.0];", &line);
    cr_expect_eq(err.line, line, "line %d (got %d: %s)", line, err.line, err.msg);
    cr_expect(strstr(err.param, "ratchet.mean"), "%s", err.param);
    err = edited("{ label = \"bilevel\"; dt = [0.005, 0.01];",
                 "{ label = \"bilevel\"; dt = [0.003, 0.01];", &line);
    cr_expect_eq(err.line, line, "line %d (got %d: %s)", line, err.line, err.msg);
    cr_expect(strstr(err.msg, "not one of run.dt"), "%s", err.msg);
    err = edited("settle = 0.5;\n", "settle = 20.0;\n", &line);
    cr_expect(strstr(err.param, "run.settle"), "%s: %s", err.param, err.msg);
}
