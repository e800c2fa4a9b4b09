/* SPDX-License-Identifier: MIT */
/* the contact impulses hook (tc_solver_type.impulses, tc_sim_impulses) under the LCP: a resting
 * box carries its weight, a sliding block feels Coulomb friction, and the recorded impulses are
 * the ones applied (momentum balance) */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <math.h>
#include <string.h>

#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "solvers/tc_contact_space.h"
#include "test_box_plane.h"

#define MAXI 16

/* the impulse body receives from contact im (N s, world) */
static void impulse_on(const tc_contact_impulse *im, int body, double J[3]) {
    double s = body == im->b ? 1.0 : body == im->a ? -1.0 : 0.0;
    for (int k = 0; k < 3; k++)
        J[k] = s * (im->normal_impulse * im->normal[k] + im->tangent_impulse[k]);
}

static double norm3(const double x[3]) {
    return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
}

/* a box at rest on the plane (four corner contacts): every step's normal impulses sum to m g dt,
 * the tangential ones vanish, and the normals point from the floor (a) to the block (b) */
Test(impulses, resting_box_normal_impulses_carry_m_g_dt) {
    const char *solvers[] = {"lcp-lemke", "lcp-pgs"};
    for (int s = 0; s < 2; s++) {
        tc_scene sc = block_scene(s == 0 ? 0.5 : 0.0, 0);
        tc_method m = method(solvers[s]);
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
        const double mgdt = sc.body[1].mass * 9.81 * DT;
        double worst = 0, tworst = 0;
        for (int i = 0; i < 500; i++) {
            cr_assert_eq(tc_sim_step(sim), TC_OK);
            tc_contact_impulse im[MAXI];
            int n = tc_sim_impulses(sim, im, MAXI);
            cr_assert_eq(n, 4, "%s step %d: %d contact impulses", solvers[s], i, n);
            double sum = 0;
            for (int c = 0; c < n; c++) {
                cr_assert(im[c].a == 0 && im[c].b == 1, "bodies %d, %d", im[c].a, im[c].b);
                cr_assert_eq(im[c].normal[2], 1.0);
                cr_assert_geq(im[c].normal_impulse, 0.0);
                sum += im[c].normal_impulse;
                tworst = fmax(tworst, norm3(im[c].tangent_impulse));
            }
            worst = fmax(worst, fabs(sum - mgdt) / mgdt);
        }
        cr_log_info("%s: normal impulses vs m g dt %.3g relative, tangential %.3g N s", solvers[s],
                    worst, tworst);
        cr_assert_lt(worst, 1e-9, "%s: sum of normal impulses off m g dt by %g", solvers[s], worst);
        cr_assert_lt(tworst, 1e-12 * mgdt, "%s: tangential impulse %g N s", solvers[s], tworst);
        tc_sim_free(sim);
    }
}

/* a block sliding along x (a pyramid edge, where the linearised cone is exact): at every contact
 * the tangential impulse on the block points against the slip and equals mu times the normal
 * impulse (Coulomb sliding); the recorded impulses are the applied ones: m dv = m g dt + sum J */
Test(impulses, sliding_block_friction_is_mu_times_normal_against_the_slip) {
    const double mu = 0.5, g = 9.81, v0 = 1.0;
    tc_scene sc = block_scene(mu, v0);
    tc_method m = method("lcp-lemke");
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
    const double mass = sc.body[1].mass, mgdt = mass * g * DT;
    double coulomb = 0, against = 0, balance = 0, total = 0;
    int sliding = 0;
    for (int i = 0; i < 300; i++) {
        double v[6];
        memcpy(v, tc_sim_v(sim), sizeof v);
        cr_assert_eq(tc_sim_step(sim), TC_OK);
        tc_contact_impulse im[MAXI];
        int n = tc_sim_impulses(sim, im, MAXI);
        cr_assert_eq(n, 4);
        /* momentum balance of the block over the step */
        double sum[3] = {0, 0, 0}, sn = 0;
        for (int c = 0; c < n; c++) {
            double J[3];
            impulse_on(&im[c], 1, J);
            for (int k = 0; k < 3; k++)
                sum[k] += J[k];
            sn += im[c].normal_impulse;
        }
        const double *v1 = tc_sim_v(sim);
        double dp[3] = {mass * (v1[0] - v[0]), mass * (v1[1] - v[1]), mass * (v1[2] - v[2]) + mgdt};
        for (int k = 0; k < 3; k++)
            balance = fmax(balance, fabs(dp[k] - sum[k]) / mgdt);
        /* still sliding after the step: Coulomb's law at every contact */
        if (!(v1[0] > 1e-12)) continue;
        sliding++;
        for (int c = 0; c < n; c++) {
            double lam = im[c].normal_impulse, *t = im[c].tangent_impulse, tn = norm3(t);
            /* four coplanar corners: the split between them is not unique (some may get 0) */
            cr_assert_geq(lam, 0.0, "step %d contact %d: pulling", i, c);
            coulomb = fmax(coulomb, fabs(tn - mu * lam) / (mu * mgdt));
            /* the block (b) receives t: along -x, against the slip */
            against = fmax(against, (fabs(t[0] + tn) + fabs(t[1]) + fabs(t[2])) / mgdt);
        }
        /* in all: the weight m g dt, and friction mu m g dt */
        total = fmax(total, fabs(sn - mgdt) / mgdt);
        total = fmax(total, fabs(sum[0] + mu * mgdt) / (mu * mgdt));
    }
    int ncl = (int)ceil(v0 / (mu * g * DT));
    cr_log_info("sliding %d steps (closed form %d): |t| - mu lambda %.3g, direction %.3g, total "
                "%.3g, momentum balance %.3g (relative to m g dt)",
                sliding, ncl - 1, coulomb, against, total, balance);
    cr_assert_eq(sliding, ncl - 1, "slid %d steps", sliding);
    cr_assert_lt(coulomb, 1e-9, "|t| off mu lambda by %g", coulomb);
    cr_assert_lt(against, 1e-9, "friction not against the slip: %g", against);
    cr_assert_lt(total, 1e-9, "total normal or friction impulse off m g dt, mu m g dt by %g",
                 total);
    cr_assert_lt(balance, 1e-9, "recorded impulses differ from the applied ones by %g", balance);
    tc_sim_free(sim);
}

/* out too small: the count of all contacts comes back and nothing past max is written, for a
 * solver's impulses and for a force-level model's (penalty: its pushing points' forces x dt);
 * a model whose forces are all zero (the test's box-plane under an integrator) reports none */
Test(impulses, truncation_and_methods_without_the_hook) {
    tc_scene sc = block_scene(0.5, 0);
    tc_method m = method("lcp-lemke");
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
    cr_assert_eq(tc_sim_step(sim), TC_OK);
    tc_contact_impulse im[4], pad;
    memset(im, 0xab, sizeof im);
    memcpy(&pad, &im[2], sizeof pad);
    cr_assert_eq(tc_sim_impulses(sim, im, 2), 4);
    cr_assert_eq(memcmp(&im[2], &pad, sizeof pad), 0, "wrote past max");
    cr_assert(im[0].a == 0 && im[0].b == 1 && im[1].a == 0 && im[1].b == 1);
    tc_sim_free(sim);
    tc_method pm;
    cr_assert_eq(tc_method_parse(&pm, "penalty-mp/semi-euler", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &pm, DT, NULL), TC_OK);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    memset(im, 0xab, sizeof im);
    int n = tc_sim_impulses(sim, im, 2);
    cr_assert_gt(n, 2, "penalty: %d pushing points", n);
    cr_assert_eq(memcmp(&im[2], &pad, sizeof pad), 0, "wrote past max");
    cr_assert(im[0].normal_impulse > 0 && im[1].normal_impulse > 0);
    tc_sim_free(sim);
    tc_method em = method("semi-euler");
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &em, DT, NULL), TC_OK);
    cr_assert_eq(tc_sim_step(sim), TC_OK);
    cr_assert_eq(tc_sim_impulses(sim, im, 4), 0);
    tc_sim_free(sim);
}
