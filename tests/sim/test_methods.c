/* SPDX-License-Identifier: MIT */
/* every registered method through every scenario its capabilities allow */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "core/tc_arena.h"
#include "tc_config.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

/* the example model of docs/adding-a-model.md, registered at run time: the every-method test
 * covers it without naming it */
extern const tc_model_type tc_model_linear_spring;

static void register_example(void) {
    if (!tc_model_find("linear-spring"))
        cr_assert_eq(tc_model_register(&tc_model_linear_spring, NULL), TC_OK);
}

TestSuite(methods, .init = register_example);

/* the force on body 1 of scene sc must push it along +y and balance the force on body 0 */
static int repulsive_along_y(const tc_scene *sc, tc_method *m, char *why) {
    tc_sim *sim;
    tc_error err;
    tc_error_clear(&err);
    if (tc_sim_alloc(&sim, sc, m, 0.002, &err)) {
        sprintf(why, "alloc: %s", err.msg);
        return 0;
    }
    tc_wrench w[2];
    int ok = tc_sim_force(sim, tc_sim_q(sim), NULL, w) == TC_OK;
    if (!ok)
        sprintf(why, "force failed");
    else if (!(w[1].f[1] > 0)) {
        ok = 0;
        sprintf(why, "not repulsive: F_y = %g", w[1].f[1]);
    } else if (fabs(w[0].f[1] + w[1].f[1]) > 1e-9 * w[1].f[1]) {
        ok = 0;
        sprintf(why, "not balanced");
    }
    tc_sim_free(sim);
    return ok;
}

/* scenario 1 (force query, spheres): a small sphere 1 cm deep above a fixed big one */
static int query_spheres(tc_method *m, char *why) {
    tc_scene sc;
    tc_scene_sphere_pair(&sc, 0.1, 0.05, 0.14, 1000, NULL);
    return repulsive_along_y(&sc, m, why);
}

/* scenario 3 (force query, ellipsoid on sphere): a 5 cm sphere 1 cm into a fixed ellipsoid of
 * semi-axes 6, 10, 6 cm along its long (y) axis */
static int query_ellipsoid(tc_method *m, char *why) {
    tc_scene sc;
    const double pos[3] = {0, 0.14, 0};
    tc_error err;
    tc_error_clear(&err);
    if (tc_scene_pair(&sc, tc_ellipsoid(0.06, 0.1, 0.06), tc_sphere(0.05), pos, NULL, 1000, &err)) {
        sprintf(why, "scene: %s", err.msg);
        return 0;
    }
    return repulsive_along_y(&sc, m, why);
}

/* scenarios 2 and 4 (dynamics on a plane): a body 5 cm in radius dropped from 2 cm stays finite,
 * does not fall through the floor and does not fly off (explicit Euler may keep bouncing: no
 * settling asked) over 0.6 s, nine times its 64 ms fall (1.5 s took 55 s of the CI's plain run
 * and 99 s under the sanitizers, most of it SCM under GSL's implicit and adaptive steppers);
 * quat gives the body's orientation */
static int drop(tc_shape shape, const double quat[4], tc_method *m, char *why) {
    tc_scene sc;
    const double pos[3] = {0, 0, 0.07};
    tc_scene_ground(&sc, 9.81, 0.5, NULL);
    tc_scene_add_free(&sc, "body", shape, pos, quat, 1000, NULL);
    tc_sim *sim;
    tc_error err;
    tc_error_clear(&err);
    if (tc_sim_alloc(&sim, &sc, m, 0.001, &err)) {
        sprintf(why, "alloc: %s", err.msg);
        return 0;
    }
    int ok = 1;
    double zmin = INFINITY;
    for (int i = 0; i < 600 && ok; i++) {
        ok = tc_sim_step(sim) == TC_OK;
        zmin = fmin(zmin, tc_sim_q(sim)[2]);
    }
    double z = tc_sim_q(sim)[2], vz = tc_sim_v(sim)[2];
    if (!ok)
        sprintf(why, "step failed");
    else if (zmin < 0.03) {
        ok = 0;
        sprintf(why, "fell through: min z = %g", zmin);
    } else if (z > 0.2 || fabs(vz) > 2) {
        ok = 0;
        sprintf(why, "flew off: z = %g, vz = %g", z, vz);
    }
    tc_sim_free(sim);
    return ok;
}

static int drop_ball(tc_method *m, char *why) {
    const double upright[4] = {1, 0, 0, 0};
    return drop(tc_sphere(0.05), upright, m, why);
}

/* a cylinder 10 cm long lying on its side (axis along world y) */
static int drop_cylinder(tc_method *m, char *why) {
    const double on_side[4] = {sqrt(0.5), sqrt(0.5), 0, 0};
    return drop(tc_cylinder(0.05, 0.05), on_side, m, why);
}

/* a regular octahedron (vertices 6.8 cm out on the axes) dropped vertex-down from 2 mm, tilted
 * 0.1 rad so it topples; on a face its centre rests r / sqrt 3 = 3.9 cm up, 9 mm above drop's
 * 3 cm floor check (SCM's soft contact sinks about 5 mm on a face) */
static int drop_octahedron(tc_method *m, char *why) {
    const double r = 0.068,
                 v[6][3] = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
    const double tilt[4] = {cos(0.05), sin(0.05), 0, 0};
    tc_shape oct;
    tc_error err;
    if (tc_polytope(&oct, v, 6, &err)) {
        sprintf(why, "polytope: %s", err.msg);
        return 0;
    }
    return drop(oct, tilt, m, why);
}

Test(methods, every_method_runs_every_scenario_it_supports) {
    static const struct {
        const char *name;
        unsigned caps, shapes;
        int (*run)(tc_method *, char *);
    } scen[] = {
        {"force query, spheres", TC_CAP_FORCE_QUERY, TC_SHAPE_BIT(TC_SHAPE_SPHERE), query_spheres},
        {"drop on plane", TC_CAP_DYNAMICS,
         TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_SPATIAL,
         drop_ball},
        {"force query, ellipsoid on sphere", TC_CAP_FORCE_QUERY,
         TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID), query_ellipsoid},
        {"cylinder dropped on its side", TC_CAP_DYNAMICS,
         TC_SHAPE_BIT(TC_SHAPE_CYLINDER) | TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_SPATIAL,
         drop_cylinder},
        {"polytope (octahedron) dropped on a plane", TC_CAP_DYNAMICS,
         TC_SHAPE_BIT(TC_SHAPE_POLYTOPE) | TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_SPATIAL,
         drop_octahedron},
    };
    /* every registered model with every registered solver, and every engine: sized from the
     * registry, so a new model, solver or engine is covered with no change here */
    int nmodel = 0, nsolver = 0, nengine = 0;
    while (tc_model_at(nmodel))
        nmodel++;
    while (tc_solver_at(nsolver))
        nsolver++;
    while (tc_engine_at(nengine))
        nengine++;
    tc_method *all = calloc((size_t)(nmodel * nsolver + nengine) + 1, sizeof *all);
    cr_assert_not_null(all);
    int n = 0, ran = 0, refused = 0;
    cr_assert_geq(nmodel + nengine, 3, "scm, hunt-crossley and mujoco at least");
    for (int i = 0; i < nmodel; i++)
        for (int j = 0; j < nsolver; j++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s/%s", tc_model_at(i)->name, tc_solver_at(j)->name);
            /* a solver that needs what the model lacks (lcp: contact points), or a model without
             * a force law paired with an integrator, refuses the pair with a message */
            tc_error err;
            tc_error_clear(&err);
            tc_status st = tc_method_parse(&all[n], spec, &err);
            int refusable = tc_solver_at(j)->needs || !tc_model_at(i)->force;
            cr_assert(st == TC_OK || (st == TC_EUNSUP && refusable && err.msg[0]), "%s: %s", spec,
                      err.msg);
            if (st == TC_OK)
                n++;
            else
                refused++;
        }
    for (int i = 0; i < nengine; i++)
        cr_assert_eq(tc_method_parse(&all[n++], tc_engine_at(i)->name, NULL), TC_OK);
    cr_log_info("%d methods (%d model x solver pairs refused), %d registered", n, refused,
                nmodel * nsolver + nengine);
    for (int k = 0; k < n; k++)
        for (size_t s = 0; s < sizeof scen / sizeof *scen; s++) {
            if (!tc_method_can_run(&all[k], scen[s].caps, scen[s].shapes)) continue;
            char why[256] = "";
            cr_expect(scen[s].run(&all[k], why), "%s on '%s': %s", all[k].spec, scen[s].name, why);
            ran++;
        }
    cr_expect_geq(ran, 2 * 3, "each method should meet at least both scenarios");
    /* the registered example is there with every solver whose needs it meets */
    int spring = 0, pairs = 0;
    for (int k = 0; k < n; k++)
        spring += all[k].model == tc_model_find("linear-spring");
    for (int j = 0; j < nsolver; j++)
        pairs += (tc_model_linear_spring.caps & tc_solver_at(j)->needs) == tc_solver_at(j)->needs;
    cr_expect(spring >= 3 && spring == pairs, "the registered example: %d methods, %d solvers fit",
              spring, pairs);
    free(all);
}

/* a parameter goes to whichever of the model, solver or engine has it; a refused value or an
 * unknown name leaves the method as it was (the script's, the tier's and --set's route) */
Test(methods, a_parameter_reaches_its_owner_and_a_refused_one_changes_nothing) {
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, "rigid/lcp-lemke", &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_method_set(&m, "keep_deepest", 0, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_method_set(&m, "tol", 1e-8, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(tc_params_get(&m.mparams, "keep_deepest"), 0);
    cr_expect_eq(tc_params_get(&m.sparams, "tol"), 1e-8);
    cr_expect_eq(tc_method_get(&m, "tol"), 1e-8);
    cr_expect(tc_method_has(&m, "keep_deepest") && tc_method_has(&m, "max_iter"));
    cr_expect(!tc_method_has(&m, "spacing"));
    const tc_method before = m;
    tc_error_clear(&err);
    cr_expect_eq(tc_method_set(&m, "tol", 0.5, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "tol");
    tc_error_clear(&err);
    cr_expect_eq(tc_method_set(&m, "nope", 1, &err), TC_ENOTFOUND);
    cr_expect(strstr(err.msg, "keep_deepest") && strstr(err.msg, "max_iter"), "%s", err.msg);
    cr_expect_eq(memcmp(&m, &before, sizeof m), 0, "a refused value changes nothing");
}

/* another solver keeps the model's parameters and the solver parameters set away from their
 * defaults, by name (E2's integrators); what it cannot keep is an error naming the parameter */
Test(methods, another_solver_keeps_every_parameter_it_still_has) {
    tc_method m, out;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, "rigid/lcp-lemke", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "keep_deepest", 0, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "max_contacts", 12, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_with_solver(&m, "vp", &out, &err), TC_OK, "%s", err.msg);
    cr_expect_str_eq(out.spec, "rigid/vp");
    cr_expect_eq(tc_method_get(&out, "keep_deepest"), 0, "the model's parameter");
    cr_expect_eq(tc_method_get(&out, "max_contacts"), 12, "a set solver parameter, by name");
    cr_expect_eq(tc_method_get(&out, "tol"), 1e-10, "a default stays the new solver's");
    /* in place, and back */
    cr_assert_eq(tc_method_with_solver(&out, "lcp-lemke", &out, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(memcmp(&out.mparams, &m.mparams, sizeof m.mparams), 0);
    cr_expect_eq(memcmp(&out.sparams, &m.sparams, sizeof m.sparams), 0);
    /* a set solver parameter the new solver lacks, or refuses */
    cr_assert_eq(tc_method_set(&m, "gap_term", 0, &err), TC_OK, "%s", err.msg);
    out = m;
    tc_error_clear(&err);
    cr_expect_eq(tc_method_with_solver(&m, "vp", &out, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "gap_term");
    cr_expect(strstr(err.msg, "rigid/vp"), "%s", err.msg);
    cr_expect_eq(memcmp(&out, &m, sizeof m), 0, "out unchanged on error");
    cr_assert_eq(tc_method_parse(&m, "rigid/vp", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "tol", 0.5, &err), TC_OK, "%s", err.msg);
    tc_error_clear(&err);
    cr_expect_eq(tc_method_with_solver(&m, "lcp-pgs", &out, &err), TC_EINVAL);
    cr_expect(strstr(err.msg, "refuses") && strstr(err.msg, "tol"), "%s", err.msg);
    /* an engine (when the build has MuJoCo), an unknown solver, a pair the solver refuses */
    if (TC_HAVE_MUJOCO) {
        cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
        tc_error_clear(&err);
        cr_expect_eq(tc_method_with_solver(&m, "rk4", &out, &err), TC_EINVAL);
        cr_expect(strstr(err.msg, "brings its own solver"), "%s", err.msg);
    }
    cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
    tc_error_clear(&err);
    cr_expect_eq(tc_method_with_solver(&m, "nope", &out, &err), TC_ENOTFOUND);
    cr_expect(strstr(err.msg, "rk4"), "the known solvers: %s", err.msg);
    cr_assert_eq(tc_method_parse(&m, "hunt-crossley", NULL), TC_OK);
    tc_error_clear(&err);
    cr_expect_eq(tc_method_with_solver(&m, "lcp-lemke", &out, &err), TC_EUNSUP);
}

/* a point-sampled model declares its sample spacing by the parameter's kind: SCM's `spacing`;
 * an engine has none */
Test(methods, a_sample_spacing_is_found_by_its_kind) {
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
    cr_expect_str_eq(tc_method_param_of_kind(&m, TC_PARAM_SPACING), "spacing");
    cr_expect_str_eq(tc_method_param_of_kind(&m, TC_PARAM_BOOL), "consistent");
    if (!TC_HAVE_MUJOCO) return;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_expect_null(tc_method_param_of_kind(&m, TC_PARAM_SPACING));
    cr_expect_str_eq(tc_method_param_of_kind(&m, TC_PARAM_ITERS), "iterations");
}

/* an engine the build left out (meson -Dmujoco=disabled ..., docs/building.md) is not in the
 * registry, and a method naming it is refused with that reason rather than as unknown */
Test(methods, an_engine_left_out_of_the_build_is_refused_with_the_reason) {
    static const char *const names[] = {"mujoco", "ode", "bullet"};
    const int built[] = {TC_HAVE_MUJOCO, TC_HAVE_ODE, TC_HAVE_BULLET};
    for (int i = 0; i < 3; i++) {
        int left_out = 0;
        for (int k = 0; tc_engines_left_out[k]; k++)
            left_out += !strcmp(tc_engines_left_out[k], names[i]);
        cr_expect_eq(left_out, !built[i], "%s: listed as left out %d times", names[i], left_out);
        cr_expect_eq(tc_engine_find(names[i]) != NULL, built[i], "%s in the registry", names[i]);
        tc_method m;
        tc_error err;
        tc_error_clear(&err);
        tc_status st = tc_method_parse(&m, names[i], &err);
        if (built[i]) {
            cr_expect_eq(st, TC_OK, "%s: %s", names[i], err.msg);
            continue;
        }
        cr_expect_eq(st, TC_ENOTFOUND, "%s", names[i]);
        cr_expect(strstr(err.msg, "built without the engine") && strstr(err.msg, names[i]), "%s",
                  err.msg);
    }
}

/* an allocator for the arenas' blocks that gives blocks_left more, then none */
static int blocks_left;
static void *some_memory(size_t n, size_t size) {
    return blocks_left-- > 0 ? calloc(n, size) : NULL;
}

/* out of memory for an arena's block, at each block in turn: every state carved from one (PFC
 * with its meshes, SCM after sampling its clouds, points and velocity projection with the broad
 * phase, the planar problem of single-level, MuJoCo's adapter) is refused with TC_ENOMEM, and what
 * was built before it is freed (LeakSanitizer checks under tools/test.sh), until it has the blocks
 * it needs and runs */
Test(methods, out_of_memory_for_an_arena_is_enomem_and_leaves_nothing) {
    tc_scene *ball = malloc(sizeof *ball), *square = malloc(sizeof *square);
    cr_assert(ball && square);
    const double pos[3] = {0, 0, 0.049};
    static const double A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}}, b[4] = {0.1, 0.1, 0.1, 0.1};
    cr_assert_eq(tc_scene_ground(ball, 9.81, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_free(ball, "ball", tc_sphere(0.05), pos, NULL, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_ground_2d(square, 9.81, 0.5, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_polygon(square, "sq", A, b, 4, 0.05, 1, 0.2, 0, 0.1, 0, NULL), TC_OK);
    static const char *const specs[] = {"pfc", "scm", "points", "rigid/vp", "convex", "mujoco"};
    for (int i = 0; i < 6; i++) {
        if (!strcmp(specs[i], "mujoco") && !TC_HAVE_MUJOCO) continue;
        const tc_scene *sc = strcmp(specs[i], "convex") ? ball : square;
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, specs[i], NULL), TC_OK, "%s", specs[i]);
        tc_sim *sim = NULL;
        tc_status st = TC_ENOMEM;
        int k = 0;
        for (; st == TC_ENOMEM && k < 20; k++) {
            tc_error err;
            tc_error_clear(&err);
            blocks_left = k;
            tc_arena_set_allocator(some_memory);
            st = tc_sim_alloc(&sim, sc, &m, 0.001, &err);
            tc_arena_set_allocator(NULL);
            cr_expect(st == TC_OK || st == TC_ENOMEM, "%s, %d blocks: %s (%s)", specs[i], k,
                      tc_status_str(st), err.msg);
        }
        cr_assert_eq(st, TC_OK, "%s: no run with %d blocks", specs[i], k);
        cr_expect_gt(k, 1, "%s: the first block refused is out of memory", specs[i]);
        cr_expect_eq(tc_sim_step(sim), TC_OK, "%s", specs[i]);
        tc_sim_free(sim);
    }
    free(ball);
    free(square);
#ifdef __SANITIZE_ADDRESS__
    /* LeakSanitizer's report alone would not fail a Criterion test */
    cr_expect_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (see the report above)");
#endif
}

/* a method's family is who resolves contact: the solver (LCP, projection, interior point), the
 * model's force law under an integrator, or an engine */
Test(methods, a_family_is_who_resolves_contact) {
    static const struct {
        const char *spec;
        tc_method_family family;
    } cases[] = {{"rigid/lcp-lemke", TC_FAMILY_CONSTRAINT},     {"points/vp", TC_FAMILY_CONSTRAINT},
                 {"convex/single-level", TC_FAMILY_CONSTRAINT}, {"scm", TC_FAMILY_FORCE_LAW},
                 {"penalty-mp/rk4", TC_FAMILY_FORCE_LAW},       {"ode", TC_FAMILY_ENGINE}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, cases[i].spec, NULL), TC_OK, "%s", cases[i].spec);
        cr_expect_eq(tc_method_family_of(&m), cases[i].family, "%s", cases[i].spec);
    }
}
