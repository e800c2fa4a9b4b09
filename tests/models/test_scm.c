/* SPDX-License-Identifier: MIT */
/* SCM: smoothness along a sweep, force at a distance, friction, dissipation, momentum */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>

#include "math/tc_vec.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"

/* fixed big sphere at the origin, free small sphere at (0, y, 0) */
static tc_scene spheres(double y) {
    tc_scene sc;
    cr_assert_eq(tc_scene_sphere_pair(&sc, 0.1, 0.05, y, 1000, NULL), TC_OK);
    return sc;
}

static tc_sim *scm_sim(const tc_scene *sc, double spacing, int consistent) {
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "spacing", spacing, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "consistent", consistent, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.002, NULL), TC_OK);
    return sim;
}

/* F_y on the small sphere along y in [a, b] with n samples */
static void sweep(tc_sim *sim, double a, double b, int n, double *f) {
    double q[7];
    tc_wrench w[2];
    memcpy(q, tc_sim_q(sim), sizeof q);
    for (int i = 0; i < n; i++) {
        q[1] = a + (b - a) * i / (n - 1);
        cr_assert_eq(tc_sim_force(sim, q, NULL, w), TC_OK);
        f[i] = w[1].f[1];
    }
}

static double max_d2(const double *f, int n) {
    double m = 0;
    for (int i = 0; i + 2 < n; i++)
        m = fmax(m, fabs(f[i + 2] - 2 * f[i + 1] + f[i]));
    return m;
}

Test(scm, force_is_smooth_along_the_sweep) {
    /* a C2 profile's largest second difference shrinks 4x when the step halves */
    tc_scene sc = spheres(0.14);
    tc_sim *sim = scm_sim(&sc, 0.02, 0);
    static double f1[201], f2[401];
    sweep(sim, 0.0, 0.2, 201, f1);
    sweep(sim, 0.0, 0.2, 401, f2);
    double r = max_d2(f1, 201) / max_d2(f2, 401);
    cr_expect_gt(r, 3.0, "second-difference ratio %g: not C2 at this resolution", r);
    for (int i = 0; i < 401; i++)
        cr_expect(isfinite(f2[i]));
    tc_sim_free(sim);
}

/* the spheres' clouds are mirror symmetric: along E1's sweep F_y is odd in y to 1e-12 of its
 * peak at every spacing, and the force lies on the line of centres (F_x = F_z = 0) */
Test(scm, force_is_odd_in_y_and_along_the_line_of_centres) {
    const double hs[] = {0.04, 0.02, 0.01};
    for (size_t k = 0; k < sizeof hs / sizeof *hs; k++) {
        tc_scene sc = spheres(0.14);
        tc_sim *sim = scm_sim(&sc, hs[k], 0);
        double q[7], peak = 0, odd = 0, off = 0;
        tc_wrench a[2], b[2];
        memcpy(q, tc_sim_q(sim), sizeof q);
        for (int i = 0; i <= 100; i++) {
            double y = 0.2 * i / 100;
            q[1] = y;
            cr_assert_eq(tc_sim_force(sim, q, NULL, a), TC_OK);
            q[1] = -y;
            cr_assert_eq(tc_sim_force(sim, q, NULL, b), TC_OK);
            peak = fmax(peak, fabs(a[1].f[1]));
            odd = fmax(odd, fabs(a[1].f[1] + b[1].f[1]));
            off = fmax(off,
                       fmax(fabs(a[1].f[0]) + fabs(a[1].f[2]), fabs(b[1].f[0]) + fabs(b[1].f[2])));
        }
        cr_expect_gt(peak, 1.0, "h %g: no force", hs[k]);
        cr_expect_leq(odd, 1e-12 * peak, "h %g: F(y) + F(-y) up to %g of a peak %g", hs[k], odd,
                      peak);
        cr_expect_leq(off, 1e-12 * peak, "h %g: force off the line of centres by %g", hs[k], off);
        tc_sim_free(sim);
    }
}

Test(scm, force_before_touching_is_positive_and_decays) {
    tc_scene sc = spheres(0.2);
    tc_sim *sim = scm_sim(&sc, 0.02, 0);
    double f[3];
    sweep(sim, 0.152, 0.156, 3, f); /* 2, 4 and 6 mm gaps */
    cr_expect_gt(f[0], 0.0);
    cr_expect_gt(f[0], f[1]);
    cr_expect_gt(f[1], f[2]);
    cr_expect_gt(f[2], 0.0, "SCM must push before contact");
    tc_sim_free(sim);
}

/* a free sphere sliding on a fixed plane, pressed in by 5 mm */
static void sliding(double vx, double vz, tc_wrench *w) {
    tc_scene sc = tc_default_scene();
    sc.friction = 0.5;
    tc_body_desc floor = tc_default_body("floor", tc_plane());
    tc_body_desc ball = tc_default_body("ball", tc_sphere(0.05));
    ball.joint = TC_JOINT_FREE;
    ball.pos[2] = 0.045;
    cr_assert_eq(tc_scene_add(&sc, &floor, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &ball, 1000, NULL), TC_OK);
    tc_sim *sim = scm_sim(&sc, 0.01, 0);
    double v[6] = {vx, 0, vz, 0, 0, 0};
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w), TC_OK);
    tc_sim_free(sim);
}

Test(scm, friction_opposes_sliding_within_the_cone) {
    tc_wrench w[2];
    sliding(0.2, 0, w);
    cr_expect_gt(w[1].f[2], 0.0);
    cr_expect_lt(w[1].f[0], 0.0, "friction must oppose +x sliding");
    cr_expect_leq(fabs(w[1].f[0]), 0.5 * w[1].f[2] * (1 + 1e-12));
    cr_expect_gt(fabs(w[1].f[0]), 0.49 * w[1].f[2],
                 "20 m/s^-1 over v_s: near full sliding friction");
}

Test(scm, dissipation_adds_on_approach_and_vanishes_on_fast_separation) {
    tc_wrench rest[2], in[2], out[2];
    sliding(0, 0, rest);
    sliding(0, -0.25, in); /* u = -0.5: factor 1.5 */
    sliding(0, 1.5, out);  /* u = 3 > 2: no force */
    cr_expect_float_eq(in[1].f[2], 1.5 * rest[1].f[2], 1e-9 * rest[1].f[2]);
    cr_expect_eq(out[1].f[2], 0.0);
}

/* two free spheres spinning and moving through each other in free space */
static void momentum_residual(int consistent, double *lin, double *ang) {
    tc_scene sc = tc_default_scene();
    tc_body_desc a = tc_default_body("a", tc_sphere(0.05));
    tc_body_desc b = tc_default_body("b", tc_box(0.04, 0.03, 0.05));
    a.joint = b.joint = TC_JOINT_FREE;
    tc_v3_set(b.pos, 0.02, 0.08, 0.01);
    double qb[4] = {0.9, 0.1, 0.3, 0.2};
    tc_quat_normalize(qb);
    memcpy(b.quat, qb, sizeof qb);
    cr_assert_eq(tc_scene_add(&sc, &a, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 800, NULL), TC_OK);
    tc_sim *sim = scm_sim(&sc, 0.01, consistent);
    double v[12] = {0.1, -0.3, 0.2, 1, 2, -1, -0.2, 0.1, 0, 0.5, -1, 3};
    tc_wrench w[2];
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w), TC_OK);
    /* sum of forces, and of torques about the origin (r x f + t) */
    double l[3], t[3], rf[3];
    tc_v3_add(l, w[0].f, w[1].f);
    tc_v3_add(t, w[0].t, w[1].t);
    tc_v3_cross(rf, a.pos, w[0].f);
    tc_v3_add(t, t, rf);
    tc_v3_cross(rf, b.pos, w[1].f);
    tc_v3_add(t, t, rf);
    *lin = tc_v3_norm(l) / tc_v3_norm(w[0].f);
    *ang = tc_v3_norm(t) / (tc_v3_norm(w[0].f) * 0.1);
    tc_sim_free(sim);
}

Test(scm, momentum_consistent_form_conserves_angular_momentum) {
    double lin, ang, lin_p, ang_p;
    momentum_residual(1, &lin, &ang);
    momentum_residual(0, &lin_p, &ang_p);
    cr_expect_lt(lin, 1e-13, "linear residual %g", lin);
    cr_expect_lt(ang, 1e-13, "angular residual %g (consistent form)", ang);
    cr_expect_lt(lin_p, 1e-13, "the paper form also balances forces");
    cr_expect_gt(ang_p, 1e-6, "the paper form should leave an angular residual (%g)", ang_p);
}

Test(scm, force_bits_do_not_depend_on_threads) {
    tc_scene sc = spheres(0.13);
    tc_sim *sim = scm_sim(&sc, 0.004, 0); /* ~7800 x 2000 points: the kernel runs in parallel */
    double v[6] = {0.1, -0.2, 0, 0.3, 0, 0};
    tc_wrench w1[2], w2[2];
    omp_set_num_threads(1);
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w1), TC_OK);
    omp_set_num_threads(2);
    cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w2), TC_OK);
    cr_expect_eq(memcmp(w1, w2, sizeof w1), 0, "wrenches differ between 1 and 2 threads");
    tc_sim_free(sim);
}

/* a large pair over 30 % of whose points weighed at its last force runs in one pass (phase A
 * skipped, docs/models/scm.md): every force of a sim that has run others before must have the
 * bits of a fresh sim's first (two-pass) force at the same state. E1's spheres at 1 cm with its
 * three smoothings (smooth: every point weighs, medium about 40 %, sharp 8 %), static and moving,
 * at states visited in an order that switches the path both ways */
Test(scm, one_pass_and_two_passes_give_the_same_bits) {
    static const double level[3][3] = {{0.25, 5e-4, 5e-4}, {1, 2e-3, 1e-3}, {4, 8e-3, 4e-3}};
    static const double ys[5] = {0.13, 0.2, 0.145, 0.13, 0.16};
    const double moving[6] = {0.2, -0.1, 0.05, 1, 0.5, -2};
    for (int l = 0; l < 3; l++) {
        tc_scene sc = spheres(0.13);
        tc_method m;
        cr_assert_eq(tc_method_parse(&m, "scm", NULL), TC_OK);
        cr_assert_eq(tc_method_set(&m, "spacing", 0.01, NULL), TC_OK);
        cr_assert_eq(tc_method_set(&m, "eps1_rel", level[l][0], NULL), TC_OK);
        cr_assert_eq(tc_method_set(&m, "eps2", level[l][1], NULL), TC_OK);
        cr_assert_eq(tc_method_set(&m, "eps3", level[l][2], NULL), TC_OK);
        tc_sim *run, *fresh;
        cr_assert_eq(tc_sim_alloc(&run, &sc, &m, 0.002, NULL), TC_OK);
        double q[7];
        memcpy(q, tc_sim_q(run), sizeof q);
        for (int i = 0; i < 10; i++) {
            const double *v = i % 2 ? moving : NULL;
            tc_wrench w0[2], w1[2];
            q[1] = ys[i / 2];
            cr_assert_eq(tc_sim_force(run, q, v, w1), TC_OK);
            cr_assert_eq(tc_sim_alloc(&fresh, &sc, &m, 0.002, NULL), TC_OK);
            cr_assert_eq(tc_sim_force(fresh, q, v, w0), TC_OK);
            tc_sim_free(fresh);
            cr_expect_eq(memcmp(w0, w1, sizeof w0), 0, "level %d, y = %g, %s: F_y %.17g vs %.17g",
                         l, q[1], v ? "moving" : "static", w1[1].f[1], w0[1].f[1]);
        }
        tc_sim_free(run);
    }
}

/* largest relative difference between the pruned and the brute-force wrenches at state (q, v):
 * forces against max(|F|, floor) (N), torques against that times the body scale 0.1 m (torques of
 * near-symmetric bodies are cancellations; pruning regroups the sums, which moves them by
 * rounding) */
static double prune_gap_floor(const tc_scene *sc, double spacing, const double *v, double shift,
                              double floor) {
    tc_method m0, m1;
    tc_sim *s0, *s1;
    cr_assert_eq(tc_method_parse(&m0, "scm", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m0, "spacing", spacing, NULL), TC_OK);
    m1 = m0;
    cr_assert_eq(tc_method_set(&m0, "prune", 0, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m1, "prune", 1, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&s0, sc, &m0, 0.002, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&s1, sc, &m1, 0.002, NULL), TC_OK);
    double q[16];
    memcpy(q, tc_sim_q(s0), sizeof(double) * (size_t)tc_sim_system(s0)->nq);
    q[1] += shift;
    tc_wrench w0[2], w1[2];
    cr_assert_eq(tc_sim_force(s0, q, v, w0), TC_OK);
    cr_assert_eq(tc_sim_force(s1, q, v, w1), TC_OK);
    double gap = 0;
    for (int b = 0; b < 2; b++) {
        double f0 = fmax(tc_v3_norm(w0[b].f), floor), df[3], dt[3];
        tc_v3_sub(df, w1[b].f, w0[b].f);
        tc_v3_sub(dt, w1[b].t, w0[b].t);
        gap = fmax(gap, tc_v3_norm(df) / f0);
        gap = fmax(gap, tc_v3_norm(dt) / (0.1 * f0));
    }
    tc_sim_free(s0);
    tc_sim_free(s1);
    return gap;
}

static double prune_gap(const tc_scene *sc, double spacing, const double *v, double shift) {
    return prune_gap_floor(sc, spacing, v, shift, 0);
}

Test(scm, pruning_changes_no_result_by_more_than_1e_12) {
    /* E1's spheres at rest (static kernel) and moving (dynamic kernel), several depths */
    const double moving[6] = {0.2, -0.1, 0.05, 1, 0.5, -2};
    for (double y = 0.02; y < 0.17; y += 0.03) {
        tc_scene sc = spheres(y);
        double g0 = prune_gap(&sc, 0.005, NULL, 0), g1 = prune_gap(&sc, 0.005, moving, 0);
        cr_log_info("y = %g: relative change static %g, dynamic %g", y, g0, g1);
        cr_expect_leq(g0, 1e-12, "static, y = %g: relative change %g", y, g0);
        cr_expect_leq(g1, 1e-12, "dynamic, y = %g: relative change %g", y, g1);
    }
    /* a sphere against a T-shaped compound (E2's shapes), 4000-point clouds */
    tc_scene sc = tc_default_scene();
    tc_shape t = tc_box(0, 0, 0);
    t.type = TC_SHAPE_COMPOUND;
    t.npart = 2;
    t.part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.125, 0.025, 0.025}, {0, 0.175, 0}};
    t.part[1] = (tc_shape_part){TC_SHAPE_BOX, {0.025, 0.075, 0.025}, {0, 0.075, 0}};
    tc_body_desc T = tc_default_body("T", t), f = tc_default_body("finger", tc_sphere(0.015));
    T.joint = f.joint = TC_JOINT_FREE;
    f.pos[1] = -0.0065;
    cr_assert_eq(tc_scene_add(&sc, &T, 500, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &f, 1000, NULL), TC_OK);
    const double v[12] = {0.1, 0, 0, 0, 0, 0.5, 0, 0.3, 0, 0, 0, 0};
    double g = prune_gap(&sc, 0.0047, v, 0);
    cr_expect_leq(g, 1e-12, "T and finger: relative change %g", g);
}

/* a reproducible uniform number in [0, 1) (64-bit LCG, top 53 bits) */
static double uniform(unsigned long long *s) {
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* E2's T (free, turned by a random unit quaternion about its origin) and a free finger of radius
 * 1.5 cm whose surface is -1 to +2 cm from a random point of a random face of one of the T's two
 * boxes, along the face's normal (touching, pressed in, or apart; the boxes' shared faces put it
 * inside the T) */
static tc_scene random_t_and_finger(unsigned long long *seed) {
    static const double half[2][3] = {{0.125, 0.025, 0.025}, {0.025, 0.075, 0.025}};
    static const double ctr[2][3] = {{0, 0.175, 0}, {0, 0.075, 0}};
    tc_scene sc = tc_default_scene();
    tc_shape t = tc_box(0, 0, 0);
    t.type = TC_SHAPE_COMPOUND;
    t.npart = 2;
    for (int k = 0; k < 2; k++)
        t.part[k] = (tc_shape_part){
            TC_SHAPE_BOX, {half[k][0], half[k][1], half[k][2]}, {ctr[k][0], ctr[k][1], ctr[k][2]}};
    tc_body_desc T = tc_default_body("T", t), f = tc_default_body("finger", tc_sphere(0.015));
    T.joint = f.joint = TC_JOINT_FREE;
    double q[4], R[9], x[3];
    for (int k = 0; k < 4; k++)
        q[k] = uniform(seed) - 0.5;
    tc_quat_normalize(q);
    memcpy(T.quat, q, sizeof q);
    /* the finger's centre in the T's frame, then turned with it (the T's origin stays put) */
    int part = uniform(seed) < 0.5, axis = (int)(3 * uniform(seed)),
        side = uniform(seed) < 0.5 ? -1 : 1;
    double off = 0.015 - 0.01 + 0.03 * uniform(seed);
    for (int k = 0; k < 3; k++)
        x[k] = ctr[part][k] +
               (k == axis ? side * (half[part][k] + off) : half[part][k] * (2 * uniform(seed) - 1));
    tc_quat_to_mat(R, q);
    tc_m3_mulv(f.pos, R, x);
    cr_assert_eq(tc_scene_add(&sc, &T, 500, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &f, 1000, NULL), TC_OK);
    return sc;
}

/* the culled kernel (candidate blocks per query block, whole-scan of small clouds, phase C only
 * where the separation weight counts) against the brute force (prune = 0, every pair) on random
 * poses and velocities: E2's T and finger at 27 and ~4000 points (the finger is a small,
 * whole-scanned cloud), and E1's spheres at random offsets. The bound is relative to the larger
 * of |F| and k eps3 = 1 N (the force scale at zero gap): for bodies centimetres apart the force is
 * e^-(gap/eps3) small and carried by pairs whose plane passes near the query point, whose
 * softmax weights may be below the 1e-20 cut, so there only the absolute change is small */
Test(scm, culled_forces_equal_brute_force_on_random_configurations) {
    unsigned long long seed = 2026;
    for (int i = 0; i < 12; i++) {
        tc_scene sc = random_t_and_finger(&seed);
        double v[12];
        for (int k = 0; k < 12; k++)
            v[k] = i % 3 ? 2 * uniform(&seed) - 1 : 0;
        const double spacing = i % 2 ? 0.0047 : 0.02;
        double g = prune_gap_floor(&sc, spacing, i % 3 ? v : NULL, 0, 1.0);
        cr_log_info("T and finger %d (spacing %g): relative change %g", i, spacing, g);
        cr_expect_leq(g, 1e-12, "T and finger %d (spacing %g): relative change %g", i, spacing, g);
    }
    for (int i = 0; i < 6; i++) {
        tc_scene sc = spheres(0.12 + 0.05 * uniform(&seed));
        const double moving[6] = {0.2, -0.1, 0.05, 1, 0.5, -2};
        double g =
            prune_gap(&sc, i % 2 ? 0.02 : 0.006, i % 3 ? moving : NULL, 0.01 * uniform(&seed));
        cr_expect_leq(g, 1e-12, "spheres %d: relative change %g", i, g);
    }
}

/* E2's T and finger at ~4000 points (both kernel phases run on threads there): the wrenches of
 * one evaluation are bitwise the same on 1 and 2 threads, at rest and moving */
Test(scm, t_and_finger_bits_do_not_depend_on_threads) {
    unsigned long long seed = 7;
    for (int i = 0; i < 4; i++) {
        tc_scene sc = random_t_and_finger(&seed);
        tc_sim *sim = scm_sim(&sc, 0.0047, i % 2);
        double v[12];
        for (int k = 0; k < 12; k++)
            v[k] = i < 2 ? 0 : 2 * uniform(&seed) - 1;
        tc_wrench w1[2], w2[2];
        omp_set_num_threads(1);
        cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w1), TC_OK);
        omp_set_num_threads(2);
        cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), v, w2), TC_OK);
        cr_expect_eq(memcmp(w1, w2, sizeof w1), 0, "configuration %d: 1 and 2 threads differ", i);
        tc_sim_free(sim);
    }
}

/* E4's pile of 8 bodies in an open box at SCM's 10 cm spacing: 40-odd balanced pairs, which run on
 * threads one pair each; the wrenches are bitwise the same on 1 and 2 threads, at rest and moving
 * (each pair's wrench into its own slot, summed in pair order) */
Test(scm, pile_pairs_on_threads_give_the_same_bits) {
    tc_pile p = tc_default_pile();
    p.bodies = 8;
    tc_scene sc;
    cr_assert_eq(tc_scene_pile(&sc, &p, NULL), TC_OK);
    tc_sim *sim = scm_sim(&sc, 0.1, 0);
    const int nb = sc.nbody, nq = tc_sim_system(sim)->nq, nv = tc_sim_system(sim)->nv;
    cr_assert_leq(nb, 16);
    cr_assert_eq(nq, 7 * (nb - 5), "q = (pos, quat) of each free body");
    /* every body lowered until the lowest centre is 10 cm up: the bottom layer (half sizes
     * 0.1-0.25 m) sinks into the floor */
    double q[112], zmin = INFINITY;
    memcpy(q, tc_sim_q(sim), (size_t)nq * sizeof *q);
    for (int k = 0; k < nq; k += 7)
        zmin = fmin(zmin, q[k + 2]);
    for (int k = 0; k < nq; k += 7)
        q[k + 2] -= zmin - 0.1;
    unsigned long long seed = 11;
    for (int i = 0; i < 2; i++) {
        double v[96] = {0};
        for (int k = 0; i && k < nv; k++)
            v[k] = 2 * uniform(&seed) - 1;
        tc_wrench w1[16], w2[16];
        omp_set_num_threads(1);
        cr_assert_eq(tc_sim_force(sim, q, v, w1), TC_OK);
        omp_set_num_threads(2);
        cr_assert_eq(tc_sim_force(sim, q, v, w2), TC_OK);
        cr_expect_eq(memcmp(w1, w2, (size_t)nb * sizeof *w1), 0, "pile %s: 1 and 2 threads differ",
                     i ? "moving" : "at rest");
        double most = 0;
        for (int b = 0; b < nb; b++)
            most = fmax(most, tc_v3_norm(w1[b].f));
        cr_expect_gt(most, 100, "the bottom layer pressed into the floor: %g N at most", most);
    }
    tc_sim_free(sim);
}
