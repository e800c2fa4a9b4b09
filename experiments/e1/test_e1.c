/* SPDX-License-Identifier: MIT */
/* E1: the jump ratios tell a jump, a corner and a curvature jump from a smooth profile (and fail
 * the null outcomes of E1.1 and E1.2), the concentric centre's stability flips at the derived
 * separation width, the engines' "forces" are impulses over dt, and the cost figure of a cost
 * proportional to the points in contact is their ratio */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "experiments/e1/e1.h"
#include "math/tc_profile.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"

/* samples of f on [-0.2, 0.2] at spacing h (nc = 0.4 / h + 1) and h / 2 (2 nc - 1), as E1 */
enum { NC = 201, NF = 2 * NC - 1 };
static double yc[NC], fc[NC], yf[NF], ff[NF];
static const double H = 0.4 / (NC - 1);

static void sample(double (*f)(double)) {
    for (int i = 0; i < NC; i++) {
        yc[i] = -0.2 + H * i;
        fc[i] = f(yc[i]);
    }
    for (int i = 0; i < NF; i++) {
        yf[i] = -0.2 + H / 2 * i;
        ff[i] = f(yf[i]);
    }
}

/* the ratio of order k over the whole profile */
static double ratio(int order) {
    return tc_jump_ratio(yc, fc, NC, yf, ff, NF, H, order, 0, INFINITY);
}

/* profiles with a known smoothness, the kink at ykink off the samples (E1's samples include the
 * centre, where an odd profile's kink sits, so it is at a sample there: both cases checked) */
static double ykink;
static double smooth(double y) {
    return sin(20 * y) + 0.3 * y * y * y;
}
static double step(double y) {
    return (y > ykink ? 5.0 : 0.0) + 2 * y;
}
static double corner(double y) {
    return 3 * fabs(y - ykink) + y;
}
static double curvature_jump(double y) {
    return 40 * (y - ykink) * fabs(y - ykink) + y;
}
static double zero(double y) {
    return 0 * y;
}

Test(e1, jump_ratios_tell_each_order_of_smoothness) {
    const double offsets[] = {0, 0.3 * H, 0.77 * H};
    sample(smooth);
    for (int k = 1; k <= 3; k++)
        cr_expect(fabs(ratio(k) - 2) < 0.05, "smooth, order %d: %g", k, ratio(k));
    for (int o = 0; o < 3; o++) {
        ykink = 0.0123 + offsets[o];
        sample(step);
        cr_expect(ratio(1) < 1.1, "step at %g: %g", ykink, ratio(1));
        sample(corner);
        cr_expect(ratio(1) > 1.9, "corner at %g, F: %g", ykink, ratio(1));
        /* the kink's distance to the nearest sample sets the largest difference at each
         * spacing: 0.5-1.5 for a corner (1 when it sits on a sample), at most 0.75 one order up */
        cr_expect(ratio(2) <= 1.51, "corner at %g, dF: %g", ykink, ratio(2));
        cr_expect(ratio(3) <= 0.76, "corner at %g, d2F: %g", ykink, ratio(3));
        sample(curvature_jump);
        cr_expect(ratio(2) > 1.9, "curvature jump at %g, dF: %g", ykink, ratio(2));
        /* a jump of d2F/dy2 keeps 0.67-1.5 of its third difference when h halves: E1.2's range
         * for C2, [1.7, 2.3], fails it */
        cr_expect(ratio(3) >= 0.66 && ratio(3) <= 1.51, "curvature jump at %g, d2F: %g", ykink,
                  ratio(3));
    }
    /* a window sees only its own stencils: the corner at ykink = 0.15 is outside |y| <= 0.1 */
    ykink = 0.15;
    sample(corner);
    cr_expect(fabs(tc_jump_ratio(yc, fc, NC, yf, ff, NF, H, 2, 0, 0.1) - 2) > 0.5 ||
                  isnan(tc_jump_ratio(yc, fc, NC, yf, ff, NF, H, 2, 0, 0.1)),
              "a straight line has no second difference: NaN or not 2");
    cr_expect(tc_jump_ratio(yc, fc, NC, yf, ff, NF, H, 2, 0.13, 0.17) < 1.1);
    /* the null outcome of every ratio claim: zero force has no ratio (not a verdict) */
    sample(zero);
    for (int k = 1; k <= 3; k++)
        cr_expect(isnan(ratio(k)), "zero force, order %d", k);
}

/* the small sphere's F_y at y = -h, 0, h in a big sphere of radius 0.1 m, SCM with E1's
 * smooth level (eps1 = 4 h^2, eps3 = 4 mm, k = 1309 N/m) at separation width eps2: the slope */
static double centre_slope(double r, double eps2) {
    tc_scene sc;
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_scene_sphere_pair(&sc, 0.1, r, 0.1 + r + 0.005, 1000, NULL), TC_OK);
    cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "spacing", 0.02 * r / 0.05, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "k", 1309, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "eps1_rel", 4, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "eps3", 0.004, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "eps2", eps2, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.002, NULL), TC_OK);
    double f[2];
    for (int i = 0; i < 2; i++) {
        const double pos[3] = {0, (2 * i - 1) * 1e-4, 0};
        tc_wrench w[2];
        cr_assert_eq(tc_sim_set_position(sim, 1, pos), TC_OK);
        cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), NULL, w), TC_OK);
        f[i] = w[1].f[1];
    }
    tc_sim_free(sim);
    return (f[1] - f[0]) / 2e-4;
}

/* E1.4: a nested sphere's centre is stable below the derived width and unstable above it (a
 * factor 1.6 either side), for E1's radii (50 mm) and a small sphere of 2 cm (11.4 mm) */
Test(e1, centre_turns_unstable_above_the_derived_separation_width) {
    const double radii[] = {0.05, 0.02};
    cr_expect_float_eq(e1_centre_eps2_crit(0.1, 0.05), 0.05, 1e-12);
    cr_expect(isinf(e1_centre_eps2_crit(0.1, 0.07)), "R <= 1.5 r: never unstable");
    for (int i = 0; i < 2; i++) {
        const double crit = e1_centre_eps2_crit(0.1, radii[i]);
        double below = centre_slope(radii[i], crit / 1.6),
               above = centre_slope(radii[i], crit * 1.6);
        cr_expect_lt(below, 0, "r = %g, eps2 = %g: %g N/m", radii[i], crit / 1.6, below);
        cr_expect_gt(above, 0, "r = %g, eps2 = %g: %g N/m", radii[i], crit * 1.6, above);
    }
}

/* the force at 1 cm depth from a query simulation of step dt and of 2 dt */
static double force_1cm(const char *spec, double dt) {
    tc_scene sc;
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_scene_sphere_pair(&sc, 0.1, 0.05, 0.155, 1000, NULL), TC_OK);
    cr_assert_eq(tc_method_parse(&m, spec, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, dt, NULL), TC_OK);
    const double pos[3] = {0, 0.14, 0};
    tc_wrench w[2];
    cr_assert_eq(tc_sim_set_position(sim, 1, pos), TC_OK);
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), NULL, w), TC_OK);
    tc_sim_free(sim);
    return w[1].f[1];
}

/* E1's label "impulse / dt": ODE's force query is one step's position-correction impulse over
 * dt, m erp depth / dt^2 (0.5236 kg, 0.2, 1 cm, 2 ms: 262 N), a quarter at twice the step;
 * MuJoCo's (a soft constraint's force) and Hunt-Crossley's do not move with dt */
Test(e1, engine_force_queries_are_impulses_over_dt) {
    const double m = 1000 * 4.0 / 3 * M_PI * 0.05 * 0.05 * 0.05;
    double ode = force_1cm("ode", 0.002), ode2 = force_1cm("ode", 0.004);
    cr_expect(fabs(ode - m * 0.2 * 0.01 / (0.002 * 0.002)) < 0.02 * ode, "ode: %g N", ode);
    cr_expect(fabs(log2(ode / ode2) - 2) < 0.05, "ode: %g vs %g N", ode, ode2);
    const char *laws[] = {"mujoco", "hunt-crossley"};
    for (int i = 0; i < 2; i++) {
        double a = force_1cm(laws[i], 0.002), b = force_1cm(laws[i], 0.004);
        cr_expect(a > 1 && fabs(log2(a / b)) < 0.05, "%s: %g vs %g N", laws[i], a, b);
    }
}

/* the runtime claim's figure: constant cost gives 1, a cost proportional to the points in
 * contact (its null outcome) gives exactly their ratio, whatever the noise-free line; positions
 * with no contact do not count */
Test(e1, cost_ratio_of_a_cost_proportional_to_contacts_is_their_ratio) {
    const int n[] = {0, 16, 40, 56, 88, 92, 96, 96, 96};
    double flat[9], prop[9], nratio;
    for (int j = 0; j < 9; j++) {
        flat[j] = 8e-4 * (1 + 0.01 * ((j * 7) % 3 - 1));
        prop[j] = 1e-5 * n[j] + (j ? 0 : 5e-4);
    }
    double r = e1_cost_ratio(n, flat, 9, &nratio);
    cr_expect(fabs(r - 1) < 0.03, "flat: %g", r);
    cr_expect_float_eq(nratio, 6.0, 1e-12);
    cr_expect_float_eq(e1_cost_ratio(n, prop, 9, &nratio), 6.0, 1e-9);
    const int none[] = {0, 0};
    cr_expect(isnan(e1_cost_ratio(none, flat, 2, &nratio)) && isnan(nratio));
}
