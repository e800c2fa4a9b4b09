/* SPDX-License-Identifier: MIT */
/* E4: scenes from seeds, the geometric penetration measure, perturbations, and the same bits for
 * any thread count */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experiments/e4/e4.h"

/* E4's quick-tier setup from its script */
static void setup(e4_setup *e) {
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/e4/e4_penalty.cfg", getenv("TOUCHE_SOURCE_DIR"));
    tc_script *s = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_script_load(&s, path, "quick", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(e4_read_setup(s, e, &err), TC_OK, "%s", err.msg);
    tc_script_free(s);
}

/* the geometric penetration (m) of a scene's initial state, through a simulation */
static double penetration(const tc_scene *sc) {
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.001, NULL), TC_OK);
    double p = tc_sim_penetration(sim, NULL);
    tc_sim_free(sim);
    return p;
}

Test(e4, scenes_and_penetration_measure) {
    e4_setup e;
    setup(&e);
    tc_scene *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    /* (a): the lowest corner starts exactly a_depth deep */
    cr_assert_eq(e4_block_scene(&e, a, NULL), TC_OK);
    cr_expect(fabs(penetration(a) - e.a_depth) < 1e-12, "%g", penetration(a));
    /* a flat cube 1 cm into the plane, and touching it */
    const double h[3] = {0.5, 0.5, 0.5}, rest[4] = {1, 0, 0, 0}, in[3] = {0, 0, 0.49},
                 on[3] = {0, 0, 0.5};
    cr_assert_eq(tc_scene_ground(b, 9.8, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_box(b, "block", h, 10, in, rest, NULL), TC_OK);
    cr_expect(fabs(penetration(b) - 0.01) < 1e-12);
    cr_assert_eq(e4_rest_scene(&e, b, NULL), TC_OK);
    cr_expect_eq(penetration(b), 0.0);
    cr_expect(fabs(b->body[1].pos[2] - on[2]) < 1e-15);
    /* kinetic energy of a spinning, moving cube: 1/2 m v^2 + 1/2 I w^2 */
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, b, &m, 0.001, NULL), TC_OK);
    tc_sim_v(sim)[0] = 2;
    tc_sim_v(sim)[5] = 3;
    double M = e.b_mass;
    cr_expect(fabs(tc_sim_kinetic_energy(sim) - (0.5 * M * 4 + 0.5 * M / 6 * 9)) < 1e-12, "%g",
              tc_sim_kinetic_energy(sim));
    tc_sim_free(sim);
    free(a);
    free(b);
}

Test(e4, pile_from_a_seed) {
    e4_setup e;
    setup(&e);
    tc_scene *p1 = malloc(sizeof *p1), *p2 = malloc(sizeof *p2), *p3 = malloc(sizeof *p3);
    tc_pile pile = e.pile;
    pile.bodies = 12;
    pile.seed = 7;
    cr_assert_eq(tc_scene_pile(p1, &pile, NULL), TC_OK);
    cr_assert_eq(tc_scene_pile(p2, &pile, NULL), TC_OK);
    pile.seed = 8;
    cr_assert_eq(tc_scene_pile(p3, &pile, NULL), TC_OK);
    cr_expect_eq(memcmp(p1, p2, sizeof *p1), 0, "same seed, same pile");
    cr_expect_neq(memcmp(p1, p3, sizeof *p1), 0, "another seed, another pile");
    cr_assert_eq(p1->nbody, 1 + 4 + 12, "ground, four walls, the bodies");
    /* every body starts inside the box, above the floor, touching nothing */
    cr_expect_eq(penetration(p1), 0.0);
    int kinds[TC_SHAPE_COUNT] = {0};
    for (int i = 5; i < p1->nbody; i++) {
        cr_expect_eq(tc_pile_escaped(&pile, p1->body[i].pos), 0, "body %d", i);
        cr_expect(p1->body[i].mass >= pile.mass_lo - 1e-9 &&
                  p1->body[i].mass <= pile.mass_hi + 1e-9);
        kinds[p1->body[i].shape.type]++;
    }
    cr_expect_gt(kinds[TC_SHAPE_BOX], 0);
    cr_expect_gt(kinds[TC_SHAPE_CYLINDER], 0);
    cr_expect_gt(kinds[TC_SHAPE_SPHERE], 0);
    free(p1);
    free(p2);
    free(p3);
}

Test(e4, perturbations_from_a_seed) {
    e4_setup e;
    setup(&e);
    double f1[64][3], f2[64][3];
    cr_assert_leq(e.b_cycles, 64);
    e4_perturbations(&e, f1);
    e4_perturbations(&e, f2);
    cr_expect_eq(memcmp(f1, f2, (size_t)e.b_cycles * sizeof *f1), 0);
    for (int c = 0; c < e.b_cycles; c++) {
        cr_expect(fabs(f1[c][0]) <= 0.5 && fabs(f1[c][1]) <= 0.5, "on the top face");
        cr_expect(f1[c][2] >= e.b_force_lo && f1[c][2] <= e.b_force_hi);
    }
}

/* the figure's pushes (paper fig. 12) are the run's: one per cycle, the list e4_perturbations
 * draws from the seed, as e4_perturbation_at hands them to the run's hook, in the paper's
 * [10, 100] N, on the top face of the resting cube */
Test(e4, force_figure_is_what_the_run_applies) {
    e4_setup e;
    setup(&e);
    cr_assert_eq(e.b_force_lo, 10.0, "the paper's U[10, 100] N");
    cr_assert_eq(e.b_force_hi, 100.0);
    cr_assert_leq(e.b_cycles, 64);
    double f[64][3], g[64][3];
    e4_perturbations(&e, f);
    /* every step of the run: nothing while settling or between pushes, cycle c's push while on */
    long period = e.b_on + e.b_off, steps = e.b_settle + e.b_cycles * period, on = 0;
    int seen[64] = {0};
    for (long k = 0; k < steps; k++) {
        double p[3] = {NAN, NAN, NAN}, F = e4_perturbation_at(&e, (const double(*)[3])f, k, p);
        long t = k - e.b_settle;
        int pushing = t >= 0 && t % period < e.b_on;
        cr_assert_eq(F != 0, pushing, "step %ld", k);
        if (!pushing) continue;
        int c = (int)(t / period);
        cr_assert(F == f[c][2] && p[0] == f[c][0] && p[1] == f[c][1] && p[2] == E4_HALF,
                  "step %ld: cycle %d's push", k, c);
        seen[c]++;
        on++;
    }
    for (int c = 0; c < e.b_cycles; c++)
        cr_expect_eq(seen[c], e.b_on, "cycle %d", c);
    cr_expect_eq(on, (long)e.b_cycles * e.b_on);
    cr_expect_eq(e4_perturbation_at(&e, (const double(*)[3])f, steps, (double[3]){0}), 0.0,
                 "nothing after the last cycle");
    /* the written file: one line per cycle, the same list, on the top face at z = 1 m */
    char dir[] = "/tmp/touche-e4-XXXXXX", path[128], line[512];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/forces.csv", dir);
    cr_assert_eq(e4_write_forces(path, &e, (const double(*)[3])f, NULL), TC_OK);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in);
    int n = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#') continue;
        double x, y, z, F;
        cr_assert_eq(sscanf(line, "%lf,%lf,%lf,%lf", &x, &y, &z, &F), 4, "%s", line);
        cr_assert_lt(n, e.b_cycles, "one line per cycle");
        cr_expect(x == f[n][0] && y == f[n][1] && F == f[n][2], "line %d is cycle %d's push", n, n);
        cr_expect(fabs(x) <= E4_HALF && fabs(y) <= E4_HALF, "line %d: on the top face", n);
        cr_expect_eq(z, 2 * E4_HALF, "line %d: the top of the resting cube", n);
        cr_expect(F >= 10 && F <= 100, "line %d: %g N", n, F);
        n++;
    }
    fclose(in);
    unlink(path);
    rmdir(dir);
    cr_expect_eq(n, e.b_cycles);
    /* the same seed draws the same list, another seed another */
    e4_perturbations(&e, g);
    cr_expect_eq(memcmp(f, g, (size_t)e.b_cycles * sizeof *f), 0);
    e.b_seed++;
    e4_perturbations(&e, g);
    cr_expect_neq(memcmp(f, g, (size_t)e.b_cycles * sizeof *f), 0);
}

/* the forgetting figure (paper fig. 6): for a depth d held constant, eq. 2 is the geometric
 * series I_t = d (1 - lambda^t) / (1 - lambda), which levels off at d / (1 - lambda); with
 * lambda = 1 it is d t. The written file holds exactly those series */
Test(e4, forget_figure_is_the_geometric_series) {
    const double depth[] = {0.01, 0.05, 0.1, 0.2, 0.5}, lam[] = {0.8, 0.85, 0.9, 1.0};
    enum { ND = 5, NL = 4, STEPS = 400 };
    double I[STEPS + 1];
    for (int l = 0; l < NL; l++)
        for (int d = 0; d < ND; d++) {
            e4_forget_series(depth[d], lam[l], STEPS, I);
            cr_assert_eq(I[0], 0.0, "no history at step 0");
            for (int t = 1; t <= STEPS; t++) {
                double exact =
                    lam[l] < 1 ? depth[d] * (1 - pow(lam[l], t)) / (1 - lam[l]) : depth[d] * t;
                cr_assert(fabs(I[t] - exact) <= 1e-15 * t * exact,
                          "lambda %g, d %g, t %d: %.17g vs %.17g", lam[l], depth[d], t, I[t],
                          exact);
                cr_assert_geq(I[t], I[t - 1], "never falls");
            }
            if (lam[l] < 1) {
                double bound = depth[d] / (1 - lam[l]);
                cr_expect(fabs(I[STEPS] - bound) <= 1e-14 * bound,
                          "lambda %g, d %g: at the bound d / (1 - lambda)", lam[l], depth[d]);
            }
        }
    /* the file: one block per factor, steps 0..STEPS, one column per depth */
    char dir[] = "/tmp/touche-e4-XXXXXX", path[128], line[1024];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/forget.csv", dir);
    cr_assert_eq(e4_write_forget(path, depth, ND, lam, NL, STEPS, NULL), TC_OK);
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in);
    int block = 0, row = 0, blank = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#') continue;
        if (line[0] == '\n') {
            /* two blank lines end a block */
            if (++blank == 2) {
                cr_assert_eq(row, STEPS + 1, "block %d", block);
                block++;
                row = 0;
            }
            continue;
        }
        blank = 0;
        cr_assert_lt(block, NL);
        double v[ND + 1];
        cr_assert_eq(
            sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
            ND + 1);
        cr_assert_eq(v[0], row, "block %d: the step", block);
        for (int d = 0; d < ND; d++) {
            e4_forget_series(depth[d], lam[block], STEPS, I);
            cr_assert_eq(v[d + 1], I[row], "block %d, step %d, depth %g", block, row, depth[d]);
        }
        row++;
    }
    fclose(in);
    unlink(path);
    rmdir(dir);
    cr_expect_eq(block, NL, "one block per forgetting factor");
}

static tc_method script_method(const char *label);

/* a short pile run per method (the script's multi-point, LCP and SCM), on 1 and on 2 threads:
 * the same bits */
Test(e4, same_bits_for_any_thread_count) {
    e4_setup e;
    setup(&e);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e4_pile_scene(&e, 6, sc, NULL), TC_OK);
    static const char *const specs[] = {"multi-point", "lcp", "scm"};
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        tc_method m = script_method(specs[k]);
        e4_run r[2];
        for (int t = 0; t < 2; t++) {
            omp_set_num_threads(t + 1);
            cr_assert_eq(
                tc_series_alloc(&r[t].s, 400, 10, TC_SERIES_KINETIC | TC_SERIES_PENETRATION),
                TC_OK);
            tc_item it = {0};
            e4_simulate(&e, sc, &m, E4_PILE, 400, 10, NULL, &r[t], &it);
            cr_assert_eq(it.status, TC_OK, "%s: %s", specs[k], it.reason);
        }
        cr_expect_eq(memcmp(r[0].s.ke, r[1].s.ke, 40 * sizeof(double)), 0, "%s: kinetic energy",
                     specs[k]);
        cr_expect_eq(memcmp(r[0].s.pen, r[1].s.pen, 40 * sizeof(double)), 0, "%s: penetration",
                     specs[k]);
        tc_series_free(&r[0].s);
        tc_series_free(&r[1].s);
    }
    free(sc);
}

/* the penalty force at the step's start poses, taken from the contact sets step_begin kept, is
 * bitwise the force computed afresh (a state that never ran step_begin: on the first step both
 * have a zero integral); at other poses the kept sets are not used, and the near-pair list
 * step_begin kept (pairs within a tenth of the smallest bounding radius, 1 cm here) gives the
 * fresh force too while bodies stay within a quarter of that (every body 1 mm up; bodies moved
 * 2 mm sideways in opposite directions, closing and opening gaps) and is dropped beyond it (3 cm
 * sideways). On a settled 16-body pile */
Test(e4, penalty_reuses_start_contacts_exactly) {
    e4_setup e;
    setup(&e);
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e4_pile_scene(&e, 16, sc, NULL), TC_OK);
    tc_method mj;
    tc_sim *settle = NULL;
    cr_assert_eq(tc_method_parse(&mj, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&settle, sc, &mj, e.dt, NULL), TC_OK);
    for (int k = 0; k < 1000; k++)
        cr_assert_eq(tc_sim_step(settle), TC_OK);
    tc_system sys;
    tc_system_init(&sys, sc);
    tc_body_state *bs = calloc((size_t)sc->nbody, sizeof *bs),
                  *moved = calloc((size_t)sc->nbody, sizeof *bs);
    tc_body_state *side = calloc((size_t)sc->nbody, sizeof *bs),
                  *far = calloc((size_t)sc->nbody, sizeof *bs);
    tc_wrench *w1 = calloc((size_t)sc->nbody, sizeof *w1),
              *w2 = calloc((size_t)sc->nbody, sizeof *w2);
    double *v = malloc((size_t)sys.nv * sizeof *v), *q = malloc((size_t)sys.nq * sizeof *q);
    memcpy(q, tc_sim_q(settle), (size_t)sys.nq * sizeof *q);
    memcpy(v, tc_sim_v(settle), (size_t)sys.nv * sizeof *v);
    tc_system_kinematics(&sys, 0, q, v, bs);
    /* the same poses moved 1 mm up: every body off its contacts' cached points */
    for (int k = 0; k < sys.nq; k++)
        q[k] += k % 7 == 2 ? 1e-3 : 0;
    tc_system_kinematics(&sys, 0, q, v, moved);
    /* back down, then x moved +-2 mm (alternating bodies), then +-3 cm */
    for (int k = 0; k < sys.nq; k++)
        q[k] -= k % 7 == 2 ? 1e-3 : 0;
    for (int k = 0; k < sys.nq; k++)
        q[k] += k % 7 == 0 ? ((k / 7) % 2 ? 2e-3 : -2e-3) : 0;
    tc_system_kinematics(&sys, 0, q, v, side);
    for (int k = 0; k < sys.nq; k++)
        q[k] += k % 7 == 0 ? ((k / 7) % 2 ? 28e-3 : -28e-3) : 0;
    tc_system_kinematics(&sys, 0, q, v, far);
    const char *const spec[2] = {"penalty-mp", "penalty-dp"};
    for (int t = 0; t < 2; t++) {
        const tc_model_type *T = tc_model_find(spec[t]);
        tc_params p;
        tc_params_default(&p, T->params);
        cr_assert_eq(tc_params_set(&p, "impulses", 0, NULL), TC_OK);
        void *a = NULL, *b = NULL;
        cr_assert_eq(T->alloc(&a, sc, &p, NULL), TC_OK);
        cr_assert_eq(T->alloc(&b, sc, &p, NULL), TC_OK);
        cr_assert_eq(T->step_begin(a, &sys, bs, e.dt, v), TC_OK);
        tc_contact_stats s1 = {0, 0}, s2 = {0, 0};
        const tc_body_state *pose[4] = {bs, moved, side, far};
        for (int k = 0; k < 4; k++) {
            cr_assert_eq(T->force(a, pose[k], w1, &s1), TC_OK);
            cr_assert_eq(T->force(b, pose[k], w2, &s2), TC_OK);
            cr_expect_gt(s2.ncontact, k ? 0 : 10, "%s: %d pushing points", spec[t], s2.ncontact);
            cr_expect_eq(s1.ncontact, s2.ncontact);
            cr_expect_eq(memcmp(w1, w2, (size_t)sc->nbody * sizeof *w1), 0, "%s, poses %d", spec[t],
                         k);
        }
        T->free(a);
        T->free(b);
    }
    tc_sim_free(settle);
    free(bs);
    free(moved);
    free(side);
    free(far);
    free(w1);
    free(w2);
    free(v);
    free(q);
    free(sc);
}

/* the script's method labelled label, as E4 runs it */
static tc_method script_method(const char *label) {
    tc_exp *x = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_exp_plan_builtin(&x, "e4_penalty", "quick", &err), TC_OK, "%s", err.msg);
    int k = tc_exp_method_find(x, label);
    cr_assert_geq(k, 0, "E4 runs no method '%s'", label);
    tc_method m = (*tc_exp_method(x, k));
    tc_exp_free(x);
    return m;
}

/* the depth (m) of (b)'s 10 kg cube, started flat d0 (m) inside the plane, after each of steps
 * steps of method m: the largest and the last; *speed the largest |v| component */
static void sunk_cube(const e4_setup *e, const tc_method *m, double d0, int steps, double *dmax,
                      double *dlast, double *speed) {
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(e4_rest_scene(e, sc, NULL), TC_OK);
    sc->body[1].pos[2] -= d0;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_sim_alloc(&sim, sc, m, e->dt, NULL), TC_OK);
    cr_assert(fabs(tc_sim_penetration(sim, NULL) - d0) < 1e-12);
    *dmax = 0;
    *speed = 0;
    for (int k = 0; k < steps; k++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK, "%s step %d", m->spec, k);
        *dlast = tc_sim_penetration(sim, NULL);
        *dmax = fmax(*dmax, *dlast);
        for (int i = 0; i < 6; i++)
            *speed = fmax(*speed, fabs(tc_sim_v(sim)[i]));
    }
    tc_sim_free(sim);
    free(sc);
}

/* E4's LCP baseline corrects drift (the paper's "LCP with the deepest-point penalty against
 * drift"): a cube started 1 mm or 1 cm inside the plane comes out, at the script's drift_rate
 * (e^-6 of the depth left after 3 s at 2 /s), without being thrown off it. Before drift_rate the
 * depth stayed exactly d0 under this method: drift_rate = 0 shows that still. rigid (no penalty,
 * no drift correction by default) keeps the depth it started with */
Test(e4, lcp_drift_correction_takes_a_sunk_cube_out) {
    e4_setup e;
    setup(&e);
    tc_method lcp = script_method("lcp"), rigid = script_method("rigid"), off = lcp;
    cr_assert_str_eq(lcp.spec, "penalty-dp/lcp-lemke");
    double rate = tc_params_get(&lcp.sparams, "drift_rate");
    cr_assert_gt(rate, 0, "the script's lcp corrects no drift");
    cr_assert_eq(tc_method_set(&off, "drift_rate", 0, NULL), TC_OK);
    const double d0[2] = {1e-3, 1e-2};
    for (int i = 0; i < 2; i++) {
        double dmax, d, v;
        sunk_cube(&e, &lcp, d0[i], 3000, &dmax, &d, &v);
        cr_log_info("lcp, started %g m deep: %.3g m after 3 s (%.3g x e^-%g t), speed <= %.2g",
                    d0[i], d, d / (d0[i] * exp(-rate * 3.0)), rate, v);
        cr_expect_leq(dmax, d0[i] * (1 + 1e-9), "sank deeper: %g m", dmax);
        cr_expect_lt(d, 1.1 * d0[i] * exp(-rate * 3.0), "%g m left of %g", d, d0[i]);
        cr_expect_lt(v, 1e-6, "thrown: %g m/s", v);
        sunk_cube(&e, &off, d0[i], 3000, &dmax, &d, &v);
        cr_log_info("lcp with drift_rate 0, started %g m deep: %.6g m after 3 s", d0[i], d);
        cr_expect(fabs(d - d0[i]) < 1e-9, "without drift_rate: %g m", d);
        sunk_cube(&e, &rigid, d0[i], 3000, &dmax, &d, &v);
        cr_log_info("rigid, started %g m deep: %.6g m after 3 s", d0[i], d);
        cr_expect(fabs(d - d0[i]) < 1e-9, "rigid: %g m", d);
    }
}

/* a study run of E4's method `label` (its script's parameters) on study q, as the driver runs it */
static void study_run(const e4_setup *e, const tc_method *m, int q, e4_run *r, tc_item *it) {
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_eq(q == E4_BLOCK ? e4_block_scene(e, sc, NULL) : e4_rest_scene(e, sc, NULL), TC_OK);
    double force[64][3];
    cr_assert_leq(e->b_cycles, 64);
    e4_perturbations(e, force);
    long steps =
        q == E4_BLOCK ? e->a_steps : e->b_settle + (long)e->b_cycles * (e->b_on + e->b_off);
    cr_assert_eq(tc_series_alloc(&r->s, steps, 10, TC_SERIES_KINETIC | TC_SERIES_PENETRATION),
                 TC_OK);
    memset(it, 0, sizeof *it);
    e4_simulate(e, sc, m, q, steps, 10, q == E4_PERTURBED ? (const double(*)[3])force : NULL, r,
                it);
    free(sc);
}

/* physically absurd outcomes are failed runs with the reason: the rule on made-up measures
 * (each of its three tests alone, and a run that passes), then on real runs of (a): ODE throws
 * the 50 kg block started 5 cm deep out of the plane with 1.7 kJ (its ERP pushes 0.2 of the
 * depth out per 1 ms step, 8 m/s) and is failed, E4's LCP takes it out and is not; a
 * deepest-point penalty without stiffness lets (b)'s cube fall through the floor */
Test(e4, implausible_runs_fail_with_the_reason) {
    char why[256];
    e4_run r;
    memset(&r, 0, sizeof r);
    r.chk = (e4_sanity){1.0, 490.0, 0.4, 0.3};
    cr_expect_eq(e4_implausible(&r, why, sizeof why), 0, "a plausible run failed: %s", why);
    r.chk.energy_rise = 500;
    cr_expect_eq(e4_implausible(&r, why, sizeof why), 1);
    cr_expect(strstr(why, "energy grew without input") != NULL, "%s", why);
    r.chk.energy_rise = 1;
    r.chk.lowest = -0.01;
    cr_expect_eq(e4_implausible(&r, why, sizeof why), 1);
    cr_expect(strstr(why, "through the floor") != NULL, "%s", why);
    r.chk.lowest = 0.4;
    r.chk.deepest = 1.5;
    cr_expect_eq(e4_implausible(&r, why, sizeof why), 1);
    cr_expect(strstr(why, "times the size") != NULL, "%s", why);
    /* sizes: a box's shortest side, a sphere's diameter, a cylinder's smaller extent, a plane */
    cr_expect_eq(e4_body_size(&(tc_shape){.type = TC_SHAPE_BOX, .size = {0.5, 0.2, 0.3}}), 0.4);
    cr_expect_eq(e4_body_size(&(tc_shape){.type = TC_SHAPE_SPHERE, .size = {0.3}}), 0.6);
    cr_expect_eq(e4_body_size(&(tc_shape){.type = TC_SHAPE_CYLINDER, .size = {0.3, 0.1}}), 0.2);
    cr_expect(isinf(e4_body_size(&(tc_shape){.type = TC_SHAPE_PLANE})));
    /* real runs */
    e4_setup e;
    setup(&e);
    tc_item it;
    tc_method ode = script_method("ode"), lcp = script_method("lcp"), soft;
    study_run(&e, &ode, E4_BLOCK, &r, &it);
    cr_log_info("ode (a): %s (rise %.4g J of %.4g allowed, final KE %.3g J)", it.reason,
                r.chk.energy_rise, r.chk.energy_allow, r.s.final_ke);
    cr_expect_eq(it.status, TC_EDIVERGED);
    cr_expect(strstr(it.reason, "energy grew without input") != NULL, "%s", it.reason);
    tc_series_free(&r.s);
    study_run(&e, &lcp, E4_BLOCK, &r, &it);
    cr_log_info("lcp (a): status %d, rise %.3g J", it.status, r.chk.energy_rise);
    cr_expect_eq(it.status, TC_OK, "%s", it.reason);
    tc_series_free(&r.s);
    cr_assert_eq(tc_method_parse(&soft, "penalty-dp/rk4", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&soft, "kp", 1e-3, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&soft, "ki", 0, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&soft, "kv", 0, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&soft, "impulses", 0, NULL), TC_OK);
    study_run(&e, &soft, E4_PERTURBED, &r, &it);
    cr_log_info("a spring of 1e-3 N/(m kg), no damper, under (b)'s cube: %s", it.reason);
    cr_expect_eq(it.status, TC_EDIVERGED);
    cr_expect(strstr(it.reason, "through the floor") != NULL, "%s", it.reason);
    tc_series_free(&r.s);
}
