/* SPDX-License-Identifier: MIT */
/* penalty models: the integral term with forgetting, eq. 3, the steady state in closed form,
 * impulses of the contact-phase machine, contact points for the LCP */
#include <criterion/criterion.h>
#include <math.h>

#include "collide/tc_contact_set.h"
#include "collide/tc_pen_chunks.h"
#include "collide/tc_penetration.h"
#include "math/tc_vec.h"
#include "models/tc_penalty.h"
#include "sim/tc_sim.h"

#include <stdlib.h>
#include <string.h>

/* the forgetting factor bounds the integral of a constant depth by d / (1 - lambda), reached
 * geometrically; the bound grows with the depth, and without forgetting the sum grows without
 * bound (paper fig. 6) */
Test(penalty, forgetting_bounds_the_integral) {
    const double lambda = 0.85, small = 1e-4, large = 0.05;
    double Is = 0, Il = 0, Inone = 0;
    for (int t = 1; t <= 2000; t++) {
        Is = tc_penalty_integral_update(Is, lambda, small);
        Il = tc_penalty_integral_update(Il, lambda, large);
        Inone = tc_penalty_integral_update(Inone, 1.0, small);
        /* closed form: d (1 - lambda^t) / (1 - lambda) */
        double exact = small * (1 - pow(lambda, t)) / (1 - lambda);
        cr_assert(fabs(Is - exact) <= 1e-15 * t, "t = %d: %g vs %g", t, Is, exact);
        cr_assert_leq(Is, small / (1 - lambda) * (1 + 1e-15));
        cr_assert(fabs(Il / Is - large / small) < 1e-9 * large / small, "proportional to depth");
    }
    cr_expect(fabs(Is - small / (1 - lambda)) < 1e-15, "converged to the bound");
    cr_expect(fabs(Inone - 2000 * small) < 1e-12, "no forgetting: grows linearly");
}

/* eq. 3: (kp d - kv v + ki I) / r, never pulling */
Test(penalty, eq3_magnitude) {
    cr_expect_float_eq(tc_penalty_magnitude(100, 10, 2, 0.01, 0.0, 0.05, 1), 1.1, 1e-15);
    cr_expect_float_eq(tc_penalty_magnitude(100, 10, 2, 0.01, 0.0, 0.05, 4), 1.1 / 4, 1e-15);
    cr_expect_float_eq(tc_penalty_magnitude(100, 10, 2, 0.01, -0.1, 0, 2), 1.0, 1e-15);
    cr_expect_eq(tc_penalty_magnitude(100, 10, 2, 0.01, 0.2, 0, 1), 0.0, "separating fast: zero");
}

/* a 1 m cube (kg) resting flat on a plane */
static void cube_scene(tc_scene *sc, double mass, double z) {
    tc_scene_init(sc);
    sc->gravity[2] = -9.8;
    sc->friction = 0.5;
    tc_body_desc g = tc_default_body("ground", tc_plane());
    tc_body_desc b = tc_default_body("block", tc_box(0.5, 0.5, 0.5));
    b.joint = TC_JOINT_FREE;
    b.pos[2] = z;
    cr_assert_eq(tc_scene_add(sc, &g, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(sc, &b, mass, NULL), TC_OK);
}

/* at rest every bottom point has the same depth d, no velocity and the integral d / (1 - lambda):
 * m g = (kp d + ki d / (1 - lambda)) m, so d = g / (kp + ki / (1 - lambda)) whatever r is */
Test(penalty, multi_point_steady_state_in_closed_form) {
    tc_scene sc;
    cube_scene(&sc, 10, 0.5);
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_method_parse(&m, "penalty-mp/rk4", NULL), TC_OK);
    /* the paper's gains */
    cr_assert_eq(tc_method_set(&m, "kp", 100, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "kv", 50, NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "ki", 2, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, NULL), TC_OK);
    for (int k = 0; k < 8000; k++)
        cr_assert_eq(tc_sim_step(sim), TC_OK, "step %d", k);
    const double d = 9.8 / (100 + 2 / (1 - 0.85));
    double depth = 0.5 - tc_sim_q(sim)[2];
    cr_expect(fabs(depth - d) < 1e-6, "depth %.9g vs closed form %.9g", depth, d);
    /* flat: the orientation stays the identity, nothing moves */
    cr_expect(fabs(tc_sim_q(sim)[3] - 1) < 1e-9);
    for (int k = 0; k < 6; k++)
        cr_expect(fabs(tc_sim_v(sim)[k]) < 1e-6, "v[%d] = %g", k, tc_sim_v(sim)[k]);
    tc_sim_free(sim);
}

/* step_begin of a model, called directly on a state (q, v) of the scene */
static void begin(const tc_model_type *T, const tc_params *p, const tc_scene *sc, double *q,
                  double *v, void **state) {
    tc_system sys;
    tc_system_init(&sys, sc);
    tc_body_state bs[2];
    if (!*state) cr_assert_eq(T->alloc(state, sc, p, NULL), TC_OK);
    tc_system_kinematics(&sys, 0, q, v, bs);
    cr_assert_eq(T->step_begin(*state, &sys, bs, 0.001, v), TC_OK);
}

/* an impact: a cube arriving flat at 1 m/s stops at once (e = 0) or bounces at e times its speed;
 * once resting the pair gets no more impulses; a glancing impact loses at most mu times the
 * normal impulse of its slip */
Test(penalty, impulses_follow_the_contact_phase) {
    const tc_model_type *T = tc_model_find("penalty-mp");
    cr_assert_not_null(T);
    tc_scene sc;
    cube_scene(&sc, 10, 0.499);
    tc_system sys;
    tc_system_init(&sys, &sc);
    for (int e = 0; e < 2; e++) {
        tc_params p;
        tc_params_default(&p, T->params);
        cr_assert_eq(tc_params_set(&p, "restitution", 0.5 * e, NULL), TC_OK);
        double q[7], v[6];
        tc_system_initial_state(&sys, q, v);
        v[2] = -1.0;
        void *state = NULL;
        begin(T, &p, &sc, q, v, &state);
        cr_expect(fabs(v[2] - 0.5 * e) < 1e-12, "restitution %g: vz = %.17g", 0.5 * e, v[2]);
        for (int k = 3; k < 6; k++)
            cr_expect(fabs(v[k]) < 1e-12, "no spin from a centred impulse");
        /* still in contact: the pair is resting now, no second impulse */
        v[2] = -1.0;
        begin(T, &p, &sc, q, v, &state);
        cr_expect_eq(v[2], -1.0);
        T->free(state);
    }
    /* glancing: 2 m/s sideways, 0.1 m/s down, mu = 0.5: the slip drops by mu * 0.1 at most */
    tc_params p;
    tc_params_default(&p, T->params);
    double q[7], v[6];
    tc_system_initial_state(&sys, q, v);
    v[0] = 2.0;
    v[2] = -0.1;
    void *state = NULL;
    begin(T, &p, &sc, q, v, &state);
    cr_expect(fabs(v[2]) < 1e-12);
    cr_expect_lt(v[0], 2.0);
    cr_expect_geq(v[0], 2.0 - 0.5 * 0.1 - 1e-12, "friction impulse within the cone: %g", v[0]);
    T->free(state);
}

/* the contact points a velocity-level solver gets: the bottom face's four corners, normals from
 * the block (a) toward the ground (b), depths as placed */
Test(penalty, contacts_for_velocity_solvers) {
    const tc_model_type *T = tc_model_find("penalty-dp");
    tc_scene sc;
    cube_scene(&sc, 10, 0.49);
    tc_params p;
    tc_params_default(&p, T->params);
    void *state;
    cr_assert_eq(T->alloc(&state, &sc, &p, NULL), TC_OK);
    tc_system sys;
    tc_system_init(&sys, &sc);
    double q[7], v[6];
    tc_system_initial_state(&sys, q, v);
    tc_body_state bs[2];
    tc_system_kinematics(&sys, 0, q, v, bs);
    tc_model_contact c[256];
    int n = T->contacts(state, bs, c, 256);
    cr_assert_eq(n, 4, "the four corners of the bottom face");
    for (int i = 0; i < n; i++) {
        cr_expect_eq(c[i].a, 1);
        cr_expect_eq(c[i].b, 0);
        cr_expect(fabs(c[i].c.normal[2] + 1) < 1e-12);
        cr_expect(fabs(fabs(c[i].c.pos[0]) - 0.5) < 1e-12 &&
                      fabs(fabs(c[i].c.pos[1]) - 0.5) < 1e-12,
                  "a corner: %g %g", c[i].c.pos[0], c[i].c.pos[1]);
        cr_expect(fabs(c[i].c.depth - 0.01) < 1e-12, "depth %g", c[i].c.depth);
        cr_expect(fabs(c[i].c.pos[2] + 0.01) < 1e-12);
    }
    T->free(state);
}

/* the paper's LCP baseline: a cube resting on the plane under penalty-dp/lcp-lemke stays put for
 * 10 s: each step gravity sinks it g dt^2 before the LCP stops the approach, and the deepest-point
 * penalty pushes that back out, so the depth stays at that level instead of drifting */
Test(penalty, lcp_baseline_block_does_not_drift) {
    tc_scene sc;
    cube_scene(&sc, 10, 0.5);
    tc_method m;
    tc_sim *sim;
    cr_assert_eq(tc_method_parse(&m, "penalty-dp/lcp-lemke", NULL), TC_OK);
    cr_assert_eq(tc_method_set(&m, "impulses", 0, NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, NULL), TC_OK);
    double zmin = 1, zmax = 0;
    for (int k = 0; k < 10000; k++) {
        cr_assert_eq(tc_sim_step(sim), TC_OK, "step %d", k);
        double z = tc_sim_q(sim)[2];
        zmin = fmin(zmin, z);
        zmax = fmax(zmax, z);
    }
    cr_expect_geq(zmin, 0.5 - 2 * 9.8e-6, "sank %g m", 0.5 - zmin);
    cr_expect_leq(zmax, 0.5 + 1e-12, "rose %g m", zmax - 0.5);
    for (int k = 0; k < 6; k++)
        cr_expect(fabs(tc_sim_v(sim)[k]) < 1e-9, "v[%d] = %g", k, tc_sim_v(sim)[k]);
    cr_expect(fabs(tc_sim_q(sim)[0]) < 1e-12 && fabs(tc_sim_q(sim)[1]) < 1e-12,
              "no sideways drift");
    const tc_sim_stats *st = tc_sim_get_stats(sim);
    cr_expect_gt(st->solver_iters, 0);
    cr_expect_eq(st->solver_fails, 0);
    tc_sim_free(sim);
}

/* the penetration query's inside test is exactly tc_shape_distance < 0: random points around
 * each shape, points on its surface (distance exactly 0 on a box's faces and a plane) and points
 * a rounding step inside and outside of them */
Test(penalty, inside_test_is_the_signed_distance) {
    tc_shape sh[5] = {tc_sphere(0.3), tc_box(0.2, 0.1, 0.4), tc_plane(), tc_cylinder(0.25, 0.15)};
    const double v[8][3] = {{-0.2, -0.1, 0},  {0.3, -0.1, 0},   {0, 0.25, 0},    {0, 0, 0.3},
                            {0.1, 0.1, -0.2}, {-0.1, 0.2, 0.2}, {0.2, 0.2, 0.1}, {-0.2, 0.1, -0.1}};
    cr_assert_eq(tc_polytope(&sh[4], v, 8, NULL), TC_OK);
    srand(5);
    long inside = 0, total = 0;
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < 40000; i++) {
            double p[3], nrm[3];
            for (int c = 0; c < 3; c++)
                p[c] = 0.9 * (2.0 * rand() / RAND_MAX - 1);
            /* every fourth point on a box face or the plane, or one rounding step off it */
            if (i % 4 == 0) {
                int c = i / 4 % 3;
                double a = sh[k].type == TC_SHAPE_BOX ? sh[k].size[c] : 0;
                p[sh[k].type == TC_SHAPE_BOX ? c : 2] = a;
                if (i % 8 == 0) p[c] = nextafter(p[c], i % 16 ? 1.0 : -1.0);
            }
            int want = tc_shape_distance(&sh[k], p, nrm) < 0;
            cr_assert_eq(tc_pen_inside(&sh[k], p), want, "shape %d point (%.17g, %.17g, %.17g)", k,
                         p[0], p[1], p[2]);
            inside += want;
            total++;
        }
    cr_expect(inside > total / 20 && inside < total - total / 20, "both sides sampled: %ld / %ld",
              inside, total);
}

/* a random pose: centre in [-c, c]^3 (m), a uniformly random orientation */
static void random_pose(tc_body_state *b, double c) {
    memset(b, 0, sizeof *b);
    for (int k = 0; k < 3; k++)
        b->pos[k] = c * (2.0 * rand() / RAND_MAX - 1);
    for (int k = 0; k < 4; k++)
        b->quat[k] = 2.0 * rand() / RAND_MAX - 1;
    tc_quat_normalize(b->quat);
    tc_quat_to_mat(b->R, b->quat);
}

/* surface points of S (posed by P) inside shape so (posed by O), by brute force: every point
 * transformed and tested by the signed distance, no cull; their indices into in[] */
static int brute_inside(const tc_surface *S, const tc_body_state *P, const tc_shape *so,
                        const tc_body_state *O, unsigned char *in) {
    int m = 0;
    for (int i = 0; i < S->npoint; i++) {
        double w[3], d[3], y[3], nrm[3];
        tc_m3_mulv(w, P->R, S->p[i]);
        tc_v3_add(w, w, P->pos);
        tc_v3_sub(d, w, O->pos);
        tc_m3_mulvt(y, O->R, d);
        in[i] = tc_shape_distance(so, y, nrm) < 0;
        m += in[i];
    }
    return m;
}

/* the penetration query with its culls (bounding spheres in either frame, the height pass
 * against planes, the closed-form inside test) finds every inside point brute force finds: on
 * random overlapping pairs of spheres, boxes, cylinders and a plane, the bottom it reports is
 * brute force's inside points of the body the contact face does not belong to, with a normal
 * facing away from the contact normal, at their depths below the contact plane */
Test(penalty, penetration_culls_keep_every_inside_point) {
    tc_shape sh[4] = {tc_sphere(0.3), tc_box(0.25, 0.15, 0.35), tc_cylinder(0.2, 0.3), tc_plane()};
    tc_surface surf[4];
    int maxpt = 1;
    for (int k = 0; k < 4; k++) {
        double r = k == 0   ? 0.3
                   : k == 1 ? sqrt(0.25 * 0.25 + 0.15 * 0.15 + 0.35 * 0.35)
                   : k == 2 ? hypot(0.2, 0.3)
                            : 1;
        cr_assert_eq(tc_surface_alloc(&surf[k], &sh[k], 0.25 * r, NULL), TC_OK);
        if (surf[k].npoint > maxpt) maxpt = surf[k].npoint;
    }
    tc_pen_work *w = tc_pen_work_alloc(maxpt);
    tc_pen_point *pts = calloc(2 * (size_t)maxpt + 1, sizeof *pts);
    unsigned char *in = malloc((size_t)maxpt);
    int *keep = malloc((size_t)maxpt * sizeof *keep);
    cr_assert(w && pts && in && keep);
    srand(11);
    int checked = 0;
    for (int t = 0; t < 4000; t++) {
        int ka = rand() % 3, kb = rand() % 4;
        tc_body_state A, B;
        random_pose(&A, 0.3);
        random_pose(&B, kb == 3 ? 0 : 0.3);
        if (kb == 3) {
            tc_quat_identity(B.quat);
            tc_quat_to_mat(B.R, B.quat);
        }
        tc_penetration pen;
        int n = tc_penetrate(&sh[ka], &surf[ka], &A, &sh[kb], &surf[kb], &B, w, &pen, pts,
                             2 * maxpt + 1);
        cr_assert_geq(n, 0);
        /* brute force on the side whose points were scored against the contact face */
        int on_b = pen.on_b;
        const tc_surface *SP = on_b ? &surf[kb] : &surf[ka];
        const tc_body_state *P = on_b ? &B : &A, *O = on_b ? &A : &B;
        int inside = brute_inside(SP, P, on_b ? &sh[ka] : &sh[kb], O, in);
        if (n == 0) {
            /* apart: neither body has a sample inside the other */
            int other = brute_inside(on_b ? &surf[ka] : &surf[kb], on_b ? &A : &B,
                                     on_b ? &sh[kb] : &sh[ka], on_b ? &B : &A, in);
            cr_assert_eq(inside + other, 0, "pair %d-%d, trial %d: a cull dropped an overlap", ka,
                         kb, t);
            continue;
        }
        if (inside == 0) continue; /* the deepest-point fallback or the other side's points */
        /* the bottom by brute force: inside points with a normal facing away from the normal
         * (seen from P: the contact normal points from b toward a) */
        double np[3], nw[3];
        tc_v3_scale(nw, pen.normal, on_b ? -1 : 1);
        tc_m3_mulvt(np, P->R, nw);
        int m = 0;
        for (int i = 0; i < SP->npoint; i++) {
            if (!in[i]) continue;
            int away = 0;
            for (int j = 0; j < SP->nn[i]; j++)
                away |= tc_v3_dot(SP->n[i][j], np) <= 0;
            if (away) keep[m++] = i;
        }
        if (m == 0) continue;
        /* no eligible face (a deep overlap): tc_penetrate's single deepest point instead */
        double dd, dn[3], dp[3];
        if (n == 1 && m > 1 && tc_deepest(&sh[ka], &A, &sh[kb], &B, &dd, dn, dp) == 1 &&
            pts[0].depth == dd)
            continue;
        cr_assert_eq(n, m, "pair %d-%d, trial %d: %d bottom points, brute force %d", ka, kb, t, n,
                     m);
        for (int j = 0; j < n; j++) {
            double p[3];
            tc_m3_mulv(p, P->R, SP->p[keep[j]]);
            tc_v3_add(p, p, P->pos);
            for (int c = 0; c < 3; c++)
                cr_assert_eq(pts[j].p[c], p[c], "trial %d point %d", t, j);
            double d = on_b ? tc_v3_dot(pen.normal, p) - pen.plane_d
                            : pen.plane_d - tc_v3_dot(pen.normal, p);
            cr_assert(fabs(pts[j].depth - fmax(d, 0)) < 1e-12, "trial %d depth %g vs %g", t,
                      pts[j].depth, d);
        }
        checked++;
    }
    cr_expect_gt(checked, 500, "overlapping pairs compared: %d", checked);
    for (int k = 0; k < 4; k++)
        tc_surface_free(&surf[k]);
    tc_pen_work_free(w);
    free(pts);
    free(in);
    free(keep);
}

/* two penetration queries of pair ka-kb (trial: which pose) gave the same count, penetration
 * and points, bit for bit */
static void same_result(int n1, const tc_penetration *o1, const tc_pen_point *p1, int n2,
                        const tc_penetration *o2, const tc_pen_point *p2, int ka, int kb,
                        int trial) {
    cr_assert_eq(n1, n2, "pair %d-%d, trial %d: %d points, second query %d", ka, kb, trial, n1, n2);
    cr_assert(!memcmp(o1, o2, sizeof *o1), "pair %d-%d, trial %d: the penetrations differ", ka, kb,
              trial);
    if (n1 > 0)
        cr_assert(!memcmp(p1, p2, (size_t)n1 * sizeof *p1), "pair %d-%d, trial %d: points differ",
                  ka, kb, trial);
}

/* the pair of bodies a (shape ka) and b (kb) by tc_penetrate on surfaces s1, and on surfaces s2
 * by tc_penetrate_chunked with their chunks ch (NULL: without): the same count, normal, plane,
 * side, depth and points, bit for bit; returns the count, and the first query's penetration in
 * *pen when asked */
static int same_query(const tc_shape *sh, const tc_surface *s1, const tc_surface *s2,
                      const tc_pen_chunks *ch, int ka, int kb, const tc_body_state *A,
                      const tc_body_state *B, tc_pen_work *w, tc_pen_point *p1, tc_pen_point *p2,
                      int max, int trial, tc_penetration *pen) {
    tc_penetration o1, o2;
    int n1 = tc_penetrate(&sh[ka], &s1[ka], A, &sh[kb], &s1[kb], B, w, &o1, p1, max);
    int n2 = tc_penetrate_chunked(&sh[ka], &s2[ka], ch ? &ch[ka] : NULL, A, &sh[kb], &s2[kb],
                                  ch ? &ch[kb] : NULL, B, w, &o2, p2, max);
    same_result(n1, &o1, p1, n2, &o2, p2, ka, kb, trial);
    if (pen) *pen = o1;
    return n1;
}

/* the chunked query (whole Morton chunks skipped when their ball is beyond the other shape) is
 * bitwise the point-by-point one: random overlapping poses, and poses at first contact along a
 * random direction (bisected to 1e-15 m of the distance where a sample first gets inside, then
 * 1e-12 m either side), where a chunk's ball grazes the other shape */
Test(penalty, chunked_penetration_is_bitwise_the_full_scan) {
    tc_shape sh[4] = {tc_sphere(0.3), tc_box(0.25, 0.15, 0.35), tc_cylinder(0.2, 0.3), tc_plane()};
    tc_surface surf[4];
    tc_pen_chunks ch[4];
    int maxpt = 1;
    for (int k = 0; k < 4; k++) {
        double r = k == 0   ? 0.3
                   : k == 1 ? sqrt(0.25 * 0.25 + 0.15 * 0.15 + 0.35 * 0.35)
                   : k == 2 ? hypot(0.2, 0.3)
                            : 1;
        cr_assert_eq(tc_surface_alloc(&surf[k], &sh[k], 0.25 * r, NULL), TC_OK);
        cr_assert_eq(tc_pen_chunks_alloc(&ch[k], &surf[k]), TC_OK);
        if (surf[k].npoint > maxpt) maxpt = surf[k].npoint;
        /* every point in exactly one chunk, inside its ball */
        int *seen = calloc((size_t)surf[k].npoint + 1, sizeof *seen);
        cr_assert(seen);
        for (int c = 0; c < ch[k].nchunk; c++)
            for (int j = c * TC_PEN_CHUNK; j < (c + 1) * TC_PEN_CHUNK && j < surf[k].npoint; j++) {
                int i = ch[k].idx[j];
                double e[3];
                seen[i]++;
                tc_v3_sub(e, surf[k].p[i], ch[k].ball[c]);
                cr_assert_leq(tc_v3_norm(e), ch[k].ball[c][3]);
            }
        for (int i = 0; i < surf[k].npoint; i++)
            cr_assert_eq(seen[i], 1);
        free(seen);
    }
    tc_pen_work *w = tc_pen_work_alloc(maxpt);
    int max = 2 * maxpt + 1;
    tc_pen_point *p1 = calloc((size_t)max, sizeof *p1), *p2 = calloc((size_t)max, sizeof *p2);
    cr_assert(w && p1 && p2);
    srand(12);
    int touching = 0, grazing = 0;
    for (int t = 0; t < 3000; t++) {
        int ka = rand() % 3, kb = rand() % 4;
        tc_body_state A, B;
        random_pose(&A, 0.3);
        random_pose(&B, kb == 3 ? 0 : 0.3);
        if (kb == 3) {
            tc_quat_identity(B.quat);
            tc_quat_to_mat(B.R, B.quat);
        }
        touching += same_query(sh, surf, surf, ch, ka, kb, &A, &B, w, p1, p2, max, t, NULL) > 0;
        /* first contact along a random direction u: a moved to B.pos + s u */
        double u[3], a0[3];
        for (int k = 0; k < 3; k++)
            u[k] = 2.0 * rand() / RAND_MAX - 1;
        if (kb == 3) {
            u[0] = u[1] = 0;
            u[2] = 1;
        }
        tc_v3_normalize(u);
        tc_v3_copy(a0, B.pos);
        double lo = 0, hi = 2;
        tc_penetration o;
        for (int it = 0; it < 60 && hi - lo > 1e-15; it++) {
            double mid = 0.5 * (lo + hi);
            for (int k = 0; k < 3; k++)
                A.pos[k] = a0[k] + mid * u[k];
            /* a sample inside: the closer half */
            if (tc_penetrate(&sh[ka], &surf[ka], &A, &sh[kb], &surf[kb], &B, w, &o, p1, max) > 0 &&
                o.n > 1)
                lo = mid;
            else
                hi = mid;
        }
        for (int e = -1; e <= 1; e++) {
            for (int k = 0; k < 3; k++)
                A.pos[k] = a0[k] + (hi + 1e-12 * e) * u[k];
            grazing += same_query(sh, surf, surf, ch, ka, kb, &A, &B, w, p1, p2, max, t, NULL) > 0;
        }
    }
    cr_expect_gt(touching, 500, "overlapping pairs compared: %d", touching);
    cr_expect_gt(grazing, 500, "grazing pairs in contact: %d", grazing);
    for (int k = 0; k < 4; k++) {
        tc_surface_free(&surf[k]);
        tc_pen_chunks_free(&ch[k]);
    }
    tc_pen_work_free(w);
    free(p1);
    free(p2);
}

/* a contact set's pair query, which tries the separating axes first for a pair that was apart
 * at its last query, is bitwise the plain chunked query along paths on which pairs come apart
 * and touch again: count, normal, largest depth and points */
Test(penalty, contact_set_hint_keeps_the_bits) {
    tc_shape sh[3] = {tc_box(0.2, 0.1, 0.15), tc_sphere(0.12), tc_cylinder(0.1, 0.2)};
    const tc_shape *shp[3] = {&sh[0], &sh[1], &sh[2]};
    int pairs[6] = {0, 1, 0, 2, 1, 2};
    tc_contact_set *cs;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_contact_set_alloc(&cs, 3, shp, 3, pairs, 0.25, &err), TC_OK, "%s", err.msg);
    int maxpt = 1;
    for (int i = 0; i < 3; i++)
        maxpt = cs->surf[i].npoint > maxpt ? cs->surf[i].npoint : maxpt;
    tc_pen_work *w = tc_pen_work_alloc(maxpt);
    tc_pen_point *pts = calloc((size_t)cs->maxpts, sizeof *pts);
    cr_assert(w && pts);
    srand(21);
    int touching = 0, apart = 0, changes = 0, last[3] = {-1, -1, -1};
    for (int path = 0; path < 40; path++) {
        /* bodies 1 and 2 sweep through body 0 (at the origin) and past each other, turning */
        tc_body_state bs[3], a0[3], a1[3];
        for (int i = 0; i < 3; i++) {
            random_pose(&a0[i], i ? 0.6 : 0);
            random_pose(&a1[i], i ? 0.6 : 0);
        }
        for (int step = 0; step <= 60; step++) {
            double u = step / 60.0;
            for (int i = 0; i < 3; i++) {
                bs[i] = a0[i];
                for (int k = 0; k < 3; k++)
                    bs[i].pos[k] = (1 - u) * a0[i].pos[k] - u * a0[i].pos[k];
                for (int k = 0; k < 4; k++)
                    bs[i].quat[k] = (1 - u) * a0[i].quat[k] + u * a1[i].quat[k];
                tc_quat_normalize(bs[i].quat);
                tc_quat_to_mat(bs[i].R, bs[i].quat);
            }
            for (int k = 0; k < 3; k++) {
                int a = pairs[2 * k], b = pairs[2 * k + 1];
                double n[3], dmax;
                int m = tc_contact_set_pair(cs, k, bs, 1, n, &dmax);
                tc_penetration pen;
                int m2 = tc_penetrate_chunked(&sh[a], &cs->surf[a], &cs->chunk[a], &bs[a], &sh[b],
                                              &cs->surf[b], &cs->chunk[b], &bs[b], w, &pen, pts,
                                              cs->maxpts);
                m2 = m2 > 0 ? m2 : 0;
                cr_assert_eq(m, m2, "path %d step %d pair %d: %d points, plain query %d", path,
                             step, k, m, m2);
                if (m > 0) {
                    cr_assert(!memcmp(n, pen.normal, sizeof n) && dmax == pen.depth);
                    cr_assert(!memcmp(cs->pts, pts, (size_t)m * sizeof *pts));
                }
                touching += m > 0;
                apart += m == 0;
                changes += last[k] >= 0 && last[k] != (m > 0);
                last[k] = m > 0;
            }
        }
    }
    cr_expect(touching > 200 && apart > 200 && changes > 40, "%d touching, %d apart, %d changes",
              touching, apart, changes);
    tc_pen_work_free(w);
    free(pts);
    tc_contact_set_free(cs);
}

/* a random rotation step of about size rad and a position step of about size m */
static void nudge(tc_body_state *b, double size) {
    for (int k = 0; k < 3; k++)
        b->pos[k] += size * (2.0 * rand() / RAND_MAX - 1);
    for (int k = 0; k < 4; k++)
        b->quat[k] += size * (2.0 * rand() / RAND_MAX - 1);
    tc_quat_normalize(b->quat);
    tc_quat_to_mat(b->R, b->quat);
}

/* a query with near lists (each side's points near the other body, kept from an earlier query
 * and used while no point has moved their reach) is bitwise the chunked query without them:
 * every pair of shapes, both orders, along random walks of 1 mm and 1 mrad steps (integrator
 * stages, a resting pile) with jumps of 4 cm, from overlapping poses */
Test(penalty, near_lists_keep_the_bits) {
    tc_shape sh[5] = {tc_sphere(0.3), tc_box(0.25, 0.15, 0.35), tc_cylinder(0.2, 0.3), tc_plane()};
    const double v[8][3] = {{-0.2, -0.1, 0},  {0.3, -0.1, 0},   {0, 0.25, 0},    {0, 0, 0.3},
                            {0.1, 0.1, -0.2}, {-0.1, 0.2, 0.2}, {0.2, 0.2, 0.1}, {-0.2, 0.1, -0.1}};
    cr_assert_eq(tc_polytope(&sh[4], v, 8, NULL), TC_OK);
    tc_surface surf[5];
    tc_pen_chunks ch[5];
    int maxpt = 1;
    for (int k = 0; k < 5; k++) {
        cr_assert_eq(tc_surface_alloc(&surf[k], &sh[k], 0.06, NULL), TC_OK);
        cr_assert_eq(tc_pen_chunks_alloc(&ch[k], &surf[k]), TC_OK);
        if (surf[k].npoint > maxpt) maxpt = surf[k].npoint;
    }
    tc_pen_work *w = tc_pen_work_alloc(maxpt);
    int max = 2 * maxpt + 1;
    tc_pen_point *p1 = calloc((size_t)max, sizeof *p1), *p2 = calloc((size_t)max, sizeof *p2);
    int *jj = calloc(2 * (size_t)maxpt, sizeof *jj);
    double *gap = calloc(2 * (size_t)maxpt, sizeof *gap);
    cr_assert(w && p1 && p2 && jj && gap);
    srand(47);
    long touching = 0, records = 0, uses = 0;
    for (int ka = 0; ka < 5; ka++)
        for (int kb = 0; kb < 5; kb++) {
            if (ka == 3 && kb == 3) continue;
            tc_pen_near na = {.n = -1, .cap = maxpt, .j = jj, .gap = gap};
            tc_pen_near nb = {.n = -1, .cap = maxpt, .j = jj + maxpt, .gap = gap + maxpt};
            for (int path = 0; path < 4; path++) {
                /* b overlapping a (a plane: b's centre just above it) */
                tc_body_state A, B;
                random_pose(&A, 0);
                random_pose(&B, 0);
                double d[3] = {0, 0, 0}, len = 0;
                while (len < 1e-3) {
                    for (int k = 0; k < 3; k++)
                        d[k] = 2.0 * rand() / RAND_MAX - 1;
                    len = tc_v3_norm(d);
                }
                double r = ka == 3 || kb == 3 ? 0 : 0.25 * (surf[ka].radius + surf[kb].radius);
                for (int k = 0; k < 3; k++)
                    B.pos[k] = r * d[k] / len;
                if (ka == 3) B.pos[2] = 0.2 * surf[kb].radius;
                if (kb == 3) B.pos[2] = -0.2 * surf[ka].radius;
                for (int step = 0; step < 120; step++) {
                    nudge(&A, step % 40 == 39 ? 0.04 : 1e-3);
                    nudge(&B, 1e-3);
                    tc_pen_side sa = {&sh[ka], &surf[ka], &ch[ka], &A, &na};
                    tc_pen_side sb = {&sh[kb], &surf[kb], &ch[kb], &B, &nb};
                    tc_penetration o1, o2;
                    int n1 = tc_penetrate_sides(&sa, &sb, w, &o1, p1, max);
                    int n2 = tc_penetrate_chunked(&sh[ka], &surf[ka], &ch[ka], &A, &sh[kb],
                                                  &surf[kb], &ch[kb], &B, w, &o2, p2, max);
                    same_result(n1, &o1, p1, n2, &o2, p2, ka, kb, 120 * path + step);
                    touching += n1 > 0;
                }
            }
            records += na.records + nb.records;
            uses += na.uses + nb.uses;
        }
    /* both paths of the query taken, the lists mostly used */
    cr_expect(touching > 2000 && records > 100 && uses > 5 * records,
              "%ld touching queries, %ld records, %ld uses", touching, records, uses);
    for (int k = 0; k < 5; k++) {
        tc_surface_free(&surf[k]);
        tc_pen_chunks_free(&ch[k]);
    }
    tc_pen_work_free(w);
    free(p1);
    free(p2);
    free(jj);
    free(gap);
}

/* eq. 4 over a surface's face groups (a sphere's 720 tangent planes, a cylinder's side: the
 * group leaning toward the points first, groups whose cone bound exceeds the best skipped) picks
 * bitwise the face of the plain scan in index order: the same penetration and points on random
 * and grazing poses of a sphere and a cylinder against every shape */
Test(penalty, face_groups_keep_the_bits) {
    tc_shape sh[4] = {tc_sphere(0.3), tc_cylinder(0.2, 0.3), tc_box(0.25, 0.15, 0.35), tc_plane()};
    tc_surface surf[4], plain[4];
    int maxpt = 1;
    for (int k = 0; k < 4; k++) {
        double r = k == 0 ? 0.3 : k == 1 ? hypot(0.2, 0.3) : 0.47;
        cr_assert_eq(tc_surface_alloc(&surf[k], &sh[k], (k == 1 ? 0.05 : 0.25) * r, NULL), TC_OK);
        /* the same surface without its groups: eq. 4 scans every face in order */
        plain[k] = surf[k];
        plain[k].nfgroup = 0;
        if (surf[k].npoint > maxpt) maxpt = surf[k].npoint;
    }
    cr_assert(surf[0].nfgroup > 20 && surf[1].nfgroup > 1, "groups: %d, %d", surf[0].nfgroup,
              surf[1].nfgroup);
    tc_pen_work *w = tc_pen_work_alloc(maxpt);
    int max = 2 * maxpt + 1;
    tc_pen_point *p1 = calloc((size_t)max, sizeof *p1), *p2 = calloc((size_t)max, sizeof *p2);
    cr_assert(w && p1 && p2);
    srand(33);
    int touching = 0, sphere_faces = 0;
    for (int t = 0; t < 4000; t++) {
        int ka = rand() % 4, kb = rand() % 2;
        if (ka == 3 && t % 2) ka = rand() % 3;
        tc_body_state A, B;
        random_pose(&A, ka == 3 ? 0 : 0.45);
        random_pose(&B, 0.15);
        if (ka == 3) {
            tc_quat_identity(A.quat);
            tc_quat_to_mat(A.R, A.quat);
            A.pos[2] -= 0.35;
        }
        tc_penetration o1;
        int n1 = same_query(sh, surf, plain, NULL, ka, kb, &A, &B, w, p1, p2, max, t, &o1);
        touching += n1 > 1;
        sphere_faces += n1 > 1 && ((kb == 0 && !o1.on_b) || (ka == 0 && o1.on_b));
    }
    cr_expect(touching > 800 && sphere_faces > 100, "%d touching, %d on a sphere's face", touching,
              sphere_faces);
    for (int k = 0; k < 4; k++)
        tc_surface_free(&surf[k]);
    tc_pen_work_free(w);
    free(p1);
    free(p2);
}
