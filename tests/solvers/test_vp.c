/* SPDX-License-Identifier: MIT */
/* velocity projection (Kaufman et al. 2005): the projection's contract (no active contact
 * approaching after a step, friction inside its cone), energy and momentum in frictionless
 * collisions, a resting box that does not drift, a sliding box against its closed form, and a
 * step that cannot settle reported as a failure */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "solvers/tc_contact_space.h"

#define G  9.81 /* m/s^2 */
#define H  0.1  /* m, the boxes' half size */
#define DT 1e-3 /* s */

/* the ground (friction mu) and one 1 kg box of half size H at height z, turned by quat; the
 * method's parameter name set to value when name is not NULL */
static tc_sim *box_on_ground_set(double mu, double z, const double quat[4], const char *spec,
                                 const char *name, double value) {
    static tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_ground(&sc, G, mu, &err), TC_OK, "%s", err.msg);
    double h[3] = {H, H, H}, pos[3] = {0, 0, z};
    cr_assert_eq(tc_scene_add_box(&sc, "box", h, 1.0, pos, quat, &err), TC_OK, "%s", err.msg);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    if (name) cr_assert_eq(tc_method_set(&m, name, value, &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, &err), TC_OK, "%s", err.msg);
    return sim;
}

static tc_sim *box_on_ground(double mu, double z, const double quat[4], const char *spec) {
    return box_on_ground_set(mu, z, quat, spec, NULL, 0);
}

/* two 1 kg boxes of half size H stacked on the ground (mu 0.5) under rigid/vp, its parameter
 * name set to value */
static tc_sim *stack_set(const char *name, double value) {
    static tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_ground(&sc, G, 0.5, &err), TC_OK);
    double h[3] = {H, H, H}, p1[3] = {0, 0, H}, p2[3] = {0, 0, 3 * H};
    cr_assert_eq(tc_scene_add_box(&sc, "bottom", h, 1.0, p1, NULL, &err), TC_OK);
    cr_assert_eq(tc_scene_add_box(&sc, "top", h, 1.0, p2, NULL, &err), TC_OK);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "rigid/vp", &err), TC_OK);
    cr_assert_eq(tc_method_set(&m, name, value, &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, &err), TC_OK, "%s", err.msg);
    return sim;
}

Test(vp, a_resting_box_does_not_drift) {
    tc_sim *sim = box_on_ground(0.5, H, NULL, "rigid/vp");
    /* the first steps settle it into the ground by about g dt^2 */
    for (int i = 0; i < 10; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    double q0[7];
    memcpy(q0, tc_sim_q(sim), sizeof q0);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    const double *q = tc_sim_q(sim), *v = tc_sim_v(sim);
    for (int c = 0; c < 7; c++)
        cr_expect_leq(fabs(q[c] - q0[c]), 1e-12, "q[%d] drifted", c);
    for (int c = 0; c < 6; c++)
        cr_expect_leq(fabs(v[c]), 1e-12, "v[%d] = %g", c, v[c]);
    cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
    tc_sim_free(sim);
}

Test(vp, a_sliding_box_stops_at_the_closed_form_distance) {
    double mu = 0.5, v0 = 1.0;
    tc_sim *sim = box_on_ground(mu, H, NULL, "rigid/vp");
    tc_sim_v(sim)[0] = v0;
    double t_stop = -1;
    for (int i = 0; i < 400; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        if (t_stop < 0 && tc_sim_v(sim)[0] <= 1e-9) t_stop = tc_sim_time(sim);
    }
    double d = tc_sim_q(sim)[0], d_ref = v0 * v0 / (2 * mu * G), t_ref = v0 / (mu * G);
    cr_expect_leq(fabs(d - d_ref), 0.01 * d_ref, "stopped at %.6f m, closed form %.6f m", d, d_ref);
    cr_expect_leq(fabs(t_stop - t_ref), 0.01 * t_ref, "stopped at %.4f s, closed form %.4f s",
                  t_stop, t_ref);
    cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
    tc_sim_free(sim);
}

/* after each step of a box tumbling onto the ground: every contact that took an impulse moves
 * no closer along its normal (lever arms at the half step where the contacts were found), and
 * each frictional impulse lies in its cone */
Test(vp, active_contacts_separate_and_friction_stays_in_its_cone) {
    double mu = 0.4, quat[4] = {0.9, 0.3, 0.2, 0.1}, n = 0;
    for (int c = 0; c < 4; c++)
        n += quat[c] * quat[c];
    for (int c = 0; c < 4; c++)
        quat[c] /= sqrt(n);
    tc_sim *sim = box_on_ground(mu, 0.2, quat, "rigid/vp");
    double *v = tc_sim_v(sim);
    v[0] = 0.8;
    v[3] = 2.0;
    v[5] = -3.0;
    tc_contact_impulse imp[64];
    int checked = 0;
    for (int i = 0; i < 600; i++) {
        double com[3];
        for (int c = 0; c < 3; c++)
            com[c] = tc_sim_q(sim)[c] + 0.5 * DT * v[c];
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        int nc = tc_sim_impulses(sim, imp, 64);
        for (int k = 0; k < nc && k < 64; k++) {
            if (imp[k].normal_impulse <= 0) continue;
            /* the box (body 1) on side b approaches along +normal's opposite, on side a along
             * +normal */
            double sg = imp[k].b == 1 ? 1 : -1;
            double r[3], w[3];
            for (int c = 0; c < 3; c++)
                r[c] = imp[k].pos[c] - com[c];
            w[0] = v[4] * r[2] - v[5] * r[1];
            w[1] = v[5] * r[0] - v[3] * r[2];
            w[2] = v[3] * r[1] - v[4] * r[0];
            double un = 0, tn = 0;
            for (int c = 0; c < 3; c++) {
                un += sg * imp[k].normal[c] * (v[c] + w[c]);
                tn += imp[k].tangent_impulse[c] * imp[k].tangent_impulse[c];
            }
            cr_expect_geq(un, -1e-10, "step %d contact %d approaches at %g m/s", i, k, un);
            /* within the LCP's tolerance (1e-10 of |q|, in m/s) */
            cr_expect_leq(sqrt(tn), mu * imp[k].normal_impulse * (1 + 1e-6) + 1e-12,
                          "step %d contact %d: friction %g beyond mu lambda %g", i, k, sqrt(tn),
                          mu * imp[k].normal_impulse);
            checked++;
        }
    }
    cr_expect_gt(checked, 100, "too few contacts checked (%d)", checked);
    tc_sim_free(sim);
}

/* two boxes flying into each other without gravity or friction, turned so that they meet on
 * an edge: momentum is kept to rounding and kinetic energy never grows */
Test(vp, frictionless_collisions_keep_momentum_and_never_add_energy) {
    static tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    sc = tc_default_scene();
    sc.friction = 0;
    double h[3] = {H, H, H}, pa[3] = {-0.25, 0, 0}, pb[3] = {0.25, 0.03, 0.02};
    double qb[4] = {0.92387953, 0, 0, 0.38268343};
    cr_assert_eq(tc_scene_add_box(&sc, "a", h, 1.0, pa, NULL, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_scene_add_box(&sc, "b", h, 2.0, pb, qb, &err), TC_OK, "%s", err.msg);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "rigid/vp", &err), TC_OK, "%s", err.msg);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, &err), TC_OK, "%s", err.msg);
    double *v = tc_sim_v(sim);
    v[0] = 1.5;
    v[6] = -0.5;
    v[11] = 1.0;
    double p0[3], l0[3], ke = tc_sim_kinetic_energy(sim);
    tc_sim_momentum(sim, p0, l0);
    int touched = 0;
    for (int i = 0; i < 400; i++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        double ke1 = tc_sim_kinetic_energy(sim), p[3], l[3];
        cr_expect_leq(ke1, ke * (1 + 1e-12), "step %d: kinetic energy grew %g -> %g", i, ke, ke1);
        ke = ke1;
        tc_sim_momentum(sim, p, l);
        for (int c = 0; c < 3; c++)
            cr_expect_leq(fabs(p[c] - p0[c]), 1e-12, "step %d: momentum[%d] %g -> %g", i, c, p0[c],
                          p[c]);
        touched += tc_sim_impulses(sim, NULL, 0) > 0;
    }
    cr_expect_gt(touched, 0, "the boxes never met");
    tc_sim_free(sim);
}

Test(vp, a_step_that_cannot_settle_is_a_counted_failure) {
    /* one sweep cannot settle a two-box stack: the top box's impulse reaches the bottom one
     * only in the next sweep */
    tc_sim *sim = stack_set("sweeps", 1);
    for (int i = 0; i < 20; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    cr_expect_gt(tc_sim_get_stats(sim)->solver_fails, 0);
    char w[1024];
    tc_sim_warnings(sim, w, sizeof w);
    cr_expect(strstr(w, "still changing after 1 sweeps") != NULL, "warnings: %s", w);
    tc_sim_free(sim);
}

/* a box face on the ground sampled at many points (the model points): keeping only the corners
 * of each pair's coplanar points (reduce = 1) moves the sliding box exactly as every point does
 * (the same stopping point to 1e-9 m), with a few contacts instead of every sample */
Test(vp, hull_corners_move_a_sliding_box_as_every_point_does) {
    double x[2];
    int nc[2];
    for (int r = 0; r < 2; r++) {
        tc_sim *sim = box_on_ground_set(0.5, H, NULL, "points/vp", "reduce", r);
        tc_sim_v(sim)[0] = 1.0;
        nc[r] = 0;
        for (int i = 0; i < 300; i++) {
            cr_assert_eq(tc_sim_step(sim), TC_OK);
            int n = tc_sim_impulses(sim, NULL, 0);
            nc[r] = n > nc[r] ? n : nc[r];
        }
        x[r] = tc_sim_q(sim)[0];
        cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0, "reduce %d", r);
        tc_sim_free(sim);
    }
    double d_ref = 1.0 / (2 * 0.5 * G);
    cr_expect_leq(fabs(x[0] - x[1]), 1e-9, "every point %.12f m, corners %.12f m", x[0], x[1]);
    cr_expect_leq(fabs(x[1] - d_ref), 0.01 * d_ref, "stopped at %.6f m, closed form %.6f m", x[1],
                  d_ref);
    /* 4 corners on a flat face; up to 8 when the box rocks by micrometres and a corner sample
     * leaves the floor (the penetrating samples then make an octagon) */
    cr_expect_geq(nc[0], 3 * nc[1], "every point: %d contacts, corners %d", nc[0], nc[1]);
    cr_expect_leq(nc[1], 8, "corners: %d contacts", nc[1]);
}

/* the friction pyramid's LCP blocks (cone = 0) still hold a box and slide one to the closed form */
Test(vp, the_pyramid_lcp_blocks_still_work) {
    tc_sim *sim = box_on_ground_set(0.5, H, NULL, "rigid/vp", "cone", 0);
    tc_sim_v(sim)[0] = 1.0;
    for (int i = 0; i < 400; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    double d = tc_sim_q(sim)[0], d_ref = 1.0 / (2 * 0.5 * G);
    cr_expect_leq(fabs(d - d_ref), 0.01 * d_ref, "stopped at %.6f m, closed form %.6f m", d, d_ref);
    cr_expect_leq(fabs(tc_sim_v(sim)[0]), 1e-12);
    cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0);
    tc_sim_free(sim);
}

/* a two-box stack at rest: starting each step from the last step's impulses (warm, the default)
 * settles it in fewer sweeps than starting from zero, to the same rest (no drift, no failure) */
Test(vp, warm_starts_settle_a_stack_in_fewer_sweeps) {
    long long sweeps[2];
    for (int w = 0; w < 2; w++) {
        tc_sim *sim = stack_set("warm", w ? 1e-3 : 0);
        for (int i = 0; i < 10; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK);
        double q0[14];
        memcpy(q0, tc_sim_q(sim), sizeof q0);
        long long s0 = tc_sim_get_stats(sim)->solver_iters;
        for (int i = 0; i < 500; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK);
        sweeps[w] = tc_sim_get_stats(sim)->solver_iters - s0;
        for (int c = 0; c < 14; c++)
            cr_expect_leq(fabs(tc_sim_q(sim)[c] - q0[c]), 1e-9, "warm %d: q[%d] drifted", w, c);
        cr_expect_eq(tc_sim_get_stats(sim)->solver_fails, 0, "warm %d", w);
        tc_sim_free(sim);
    }
    cr_expect_lt(sweeps[1], sweeps[0], "sweeps over 500 steps: %lld warm, %lld cold", sweeps[1],
                 sweeps[0]);
    cr_log_info("two-box stack, 500 steps: %lld sweeps warm, %lld cold", sweeps[1], sweeps[0]);
}
