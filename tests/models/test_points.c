/* SPDX-License-Identifier: MIT */
/* the points model (Kaufman et al.'s multi-point contacts) and its broad phase: a box, a sphere
 * and an L-shaped compound on a plane at known depths, both directions of a box pair, the broad
 * phase against brute force on random scenes, its overflow count, and the model in a method */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "math/tc_vec.h"
#include "models/tc_model_points.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"

#define MAXC 4096

/* a body state at pos, turned by quat (NULL: identity), at rest */
static tc_body_state posed(const double pos[3], const double quat[4]) {
    tc_body_state b;
    memset(&b, 0, sizeof b);
    const double id[4] = {1, 0, 0, 0};
    memcpy(b.quat, quat ? quat : id, sizeof b.quat);
    tc_quat_normalize(b.quat);
    tc_quat_to_mat(b.R, b.quat);
    tc_v3_copy(b.pos, pos);
    return b;
}

/* the model over n shapes with its defaults (spacing_rel etc. overridable by name) */
static void *model_of(int n, const tc_shape *const *shape, const unsigned char *fixed,
                      const char *name, double value) {
    tc_params p;
    tc_params_default(&p, tc_model_points.params);
    tc_error err;
    tc_error_clear(&err);
    if (name) cr_assert_eq(tc_params_set(&p, name, value, &err), TC_OK, "%s", err.msg);
    void *s;
    cr_assert_eq(tc_points_alloc(&s, n, shape, fixed, &p, &err), TC_OK, "%s", err.msg);
    return s;
}

/* the index of the contact at world point x (within tol), or -1 */
static int find_at(const tc_model_contact *c, int n, const double x[3], double tol) {
    for (int k = 0; k < n; k++) {
        double d[3];
        tc_v3_sub(d, c[k].c.pos, x);
        if (tc_v3_norm(d) <= tol) return k;
    }
    return -1;
}

Test(points, registered_with_velocity_projection_as_default) {
    const tc_model_type *t = tc_model_find("points");
    cr_assert_not_null(t);
    cr_assert_str_eq(t->solver, "vp");
    cr_assert_null(t->force);
    cr_assert_not_null(t->contacts);
    cr_assert_eq(t->caps, TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTACTS);
    cr_assert(t->shapes & TC_SHAPE_BIT(TC_SHAPE_COMPOUND));
    cr_assert(t->shapes & TC_SHAPE_BIT(TC_SHAPE_POLYTOPE));
    cr_assert_not(t->shapes & TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID));
    /* until vp is merged, an explicit solver that resolves contacts takes it */
    tc_method m;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_method_parse(&m, "points/lcp-lemke", &err), TC_OK, "%s", err.msg);
    cr_assert_str_eq(m.spec, "points/lcp-lemke");
    /* an integrator has nothing to integrate: refused */
    cr_assert_eq(tc_method_parse(&m, "points/rk4", &err), TC_EUNSUP);
}

Test(points, unsupported_shape_refused) {
    tc_shape g = tc_plane(), e = tc_ellipsoid(0.1, 0.2, 0.3);
    const tc_shape *sh[2] = {&g, &e};
    tc_params p;
    tc_params_default(&p, tc_model_points.params);
    tc_error err;
    tc_error_clear(&err);
    void *s = NULL;
    cr_assert_eq(tc_points_alloc(&s, 2, sh, NULL, &p, &err), TC_EUNSUP);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, "ellipsoid"), "%s", err.msg);
}

/* a box of half sizes a sunk d into the ground, turned about z by yaw: one contact per sample of
 * its bottom face (the (n_x + 1)(n_y + 1) lattice, corners included), normal +z, depth d */
static void box_on_plane(const double a[3], double d, double yaw) {
    tc_shape g = tc_plane(), box = tc_box(a[0], a[1], a[2]);
    const tc_shape *sh[2] = {&g, &box};
    const unsigned char fixed[2] = {1, 0};
    void *s = model_of(2, sh, fixed, NULL, 0);
    const double q[4] = {cos(yaw / 2), 0, 0, sin(yaw / 2)}, o[3] = {0, 0, 0},
                 pos[3] = {0.3, -0.2, a[2] - d};
    tc_body_state bs[2] = {posed(o, NULL), posed(pos, q)};
    static tc_model_contact c[MAXC];
    int n = tc_points_contacts(s, bs, c, MAXC);
    /* spacing 0.25 |a|: n_i = ceil(2 a_i / h) intervals along each bottom edge */
    double h = 0.25 * tc_v3_norm(a);
    int nx = (int)ceil(2 * a[0] / h), ny = (int)ceil(2 * a[1] / h);
    cr_assert_eq(n, (nx + 1) * (ny + 1), "%d contacts, expected %d", n, (nx + 1) * (ny + 1));
    for (int k = 0; k < n; k++) {
        cr_assert_eq(c[k].a, 0);
        cr_assert_eq(c[k].b, 1);
        cr_assert_eq(c[k].c.normal[0], 0);
        cr_assert_eq(c[k].c.normal[1], 0);
        cr_assert_eq(c[k].c.normal[2], 1);
        cr_assert_float_eq(c[k].c.depth, d, 1e-12, "depth %g", c[k].c.depth);
        cr_assert_float_eq(c[k].c.pos[2], -d, 1e-12);
    }
    /* the four corners among them */
    for (int sx = -1; sx <= 1; sx += 2)
        for (int sy = -1; sy <= 1; sy += 2) {
            const double loc[3] = {sx * a[0], sy * a[1], -a[2]};
            double x[3];
            tc_m3_mulv(x, bs[1].R, loc);
            tc_v3_add(x, x, bs[1].pos);
            cr_assert_geq(find_at(c, n, x, 1e-12), 0, "corner (%d, %d) missing", sx, sy);
        }
    tc_points_free(s);
}

Test(points, box_on_plane_gives_its_bottom_samples_and_corners) {
    const double cube[3] = {0.1, 0.1, 0.1}, slab[3] = {0.12, 0.07, 0.03};
    box_on_plane(cube, 2e-3, 0);
    box_on_plane(cube, 5e-4, 0.7);
    box_on_plane(slab, 1e-3, -1.1);
}

/* a box tilted at random, its lowest corner sunk d: that corner with depth d, and exactly the
 * samples below the plane (edge samples near the corner among them), each with its own depth */
Test(points, tilted_box_gives_its_lowest_corner) {
    tc_shape g = tc_plane(), box = tc_box(0.1, 0.1, 0.1);
    const tc_shape *sh[2] = {&g, &box};
    void *s = model_of(2, sh, NULL, NULL, 0);
    const double(*P)[3];
    int np = tc_points_samples(s, 1, &P);
    cr_assert_eq(np, 152);
    for (int seed = 7; seed < 10; seed++) {
        double q[4], d = 2e-3;
        tc_random_quat((unsigned long)seed, q);
        double low = tc_shape_lowest(&box, q);
        const double o[3] = {0, 0, 0}, pos[3] = {0, 0, low - d};
        tc_body_state bs[2] = {posed(o, NULL), posed(pos, q)};
        tc_model_contact c[64];
        int n = tc_points_contacts(s, bs, c, 64), below = 0, corner = 0;
        for (int i = 0; i < np; i++) {
            double x[3];
            tc_m3_mulv(x, bs[1].R, P[i]);
            below += x[2] + pos[2] < 0;
        }
        cr_assert_eq(n, below, "seed %d: %d contacts, %d samples below", seed, n, below);
        for (int k = 0; k < n; k++) {
            cr_assert_float_eq(c[k].c.depth, -c[k].c.pos[2], 1e-15);
            corner += fabs(c[k].c.depth - d) < 1e-12;
        }
        cr_assert_eq(corner, 1, "seed %d: the lowest corner once", seed);
    }
    tc_points_free(s);
}

/* a sphere of radius r sunk d into the ground in a random orientation: its lowest point (the
 * extra sample) with depth d, and every sample below the plane with its own depth */
Test(points, sphere_on_plane_gives_its_lowest_point) {
    const double r = 0.05;
    tc_shape g = tc_plane(), ball = tc_sphere(r);
    const tc_shape *sh[2] = {&g, &ball};
    void *s = model_of(2, sh, NULL, NULL, 0);
    const double(*P)[3];
    int np = tc_points_samples(s, 1, &P);
    cr_assert_eq(np, 362, "%d samples", np);
    for (int seed = 1; seed <= 4; seed++)
        for (int deep = 0; deep < 2; deep++) {
            double q[4], d = deep ? 0.2 * r : 1e-3;
            tc_random_quat((unsigned long)seed, q);
            const double o[3] = {0, 0, 0}, pos[3] = {0.1, 0.2, r - d};
            tc_body_state bs[2] = {posed(o, NULL), posed(pos, q)};
            tc_model_contact c[512];
            int n = tc_points_contacts(s, bs, c, 512);
            /* the samples below the plane, counted by hand */
            int below = 0;
            for (int i = 0; i < np; i++) {
                double x[3];
                tc_m3_mulv(x, bs[1].R, P[i]);
                below += x[2] + pos[2] < 0;
            }
            const double lowest[3] = {pos[0], pos[1], -d};
            int k = find_at(c, n, lowest, 1e-12);
            cr_assert_geq(k, 0, "seed %d: the lowest point is missing", seed);
            cr_assert_float_eq(c[k].c.depth, d, 1e-12);
            cr_assert_eq(n, below + 1, "seed %d, d %g: %d contacts, %d samples below", seed, d, n,
                         below);
            for (int j = 0; j < n; j++) {
                double e[3];
                tc_v3_sub(e, c[j].c.pos, pos);
                cr_assert_float_eq(tc_v3_norm(e), r, 1e-12);
                cr_assert_float_eq(c[j].c.depth, -c[j].c.pos[2], 1e-15);
                cr_assert_eq(c[j].c.normal[2], 1);
                cr_assert_eq(c[j].a, 0);
            }
        }
    tc_points_free(s);
}

/* an L of two boxes lying flat: the foot [-0.2, 0.2] x [-0.05, 0.05] and the leg
 * [-0.2, -0.1] x [0.05, 0.35], both 0.1 high, sharing the face y = 0.05, -0.2 < x < -0.1 */
static tc_shape l_shape(void) {
    tc_shape L;
    memset(&L, 0, sizeof L);
    L.type = TC_SHAPE_COMPOUND;
    L.npart = 2;
    L.part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.2, 0.05, 0.05}, {0, 0, 0}};
    L.part[1] = (tc_shape_part){TC_SHAPE_BOX, {0.05, 0.15, 0.05}, {-0.15, 0.2, 0}};
    return L;
}

/* 1 when body-frame point p lies on the L's shared face, off its rim by more than tol */
static int on_joint(const double p[3], double tol) {
    return fabs(p[1] - 0.05) <= 1e-12 && p[0] > -0.2 + tol && p[0] < -0.1 - tol &&
           p[2] > -0.05 + tol && p[2] < 0.05 - tol;
}

Test(points, compound_samples_leave_out_the_joint) {
    tc_shape L = l_shape();
    const tc_shape *sh[1] = {&L};
    void *s = model_of(1, sh, NULL, "spacing_rel", 0.05);
    const double(*P)[3];
    int np = tc_points_samples(s, 0, &P), rim = 0;
    cr_assert_gt(np, 100);
    for (int i = 0; i < np; i++) {
        double n[3];
        /* on the union's surface: on a part's surface, inside none */
        cr_assert_float_eq(tc_shape_distance(&L, P[i], n), 0, 1e-12);
        cr_assert_not(on_joint(P[i], 1e-9), "sample (%g, %g, %g) on the joint", P[i][0], P[i][1],
                      P[i][2]);
        rim += fabs(P[i][1] - 0.05) <= 1e-12 && P[i][0] < -0.1 + 1e-12;
        for (int j = 0; j < i; j++) {
            double e[3];
            tc_v3_sub(e, P[i], P[j]);
            cr_assert_gt(tc_v3_norm(e), 1e-9, "samples %d and %d coincide", i, j);
        }
    }
    /* the joint's rim (top and bottom edges, on the union's surface) is kept, once */
    cr_assert_gt(rim, 0);
    /* the outer corners are samples */
    const double corner[4][3] = {
        {0.2, -0.05, -0.05}, {-0.2, 0.35, -0.05}, {-0.1, 0.35, 0.05}, {0.2, 0.05, 0.05}};
    for (int k = 0; k < 4; k++) {
        int found = 0;
        for (int i = 0; i < np && !found; i++) {
            double e[3];
            tc_v3_sub(e, P[i], corner[k]);
            found = tc_v3_norm(e) <= 1e-12;
        }
        cr_assert(found, "corner %d missing", k);
    }
    tc_points_free(s);
}

/* the L on the ground: shallow (only the bottom lattice) and deeper than a spacing (the side
 * faces' lowest rows too): points under both parts, none from the joint, none twice */
Test(points, l_compound_on_plane_gives_points_under_both_parts) {
    tc_shape g = tc_plane(), L = l_shape();
    const tc_shape *sh[2] = {&g, &L};
    void *s = model_of(2, sh, NULL, "spacing_rel", 0.05);
    /* spacing 0.05 of the L's bounding radius (the leg's far corner): 2 cm, 1.5 of it 3 cm */
    double h = 0.05 * (hypot(0.15, 0.2) + tc_v3_norm(L.part[1].size));
    for (int deep = 0; deep < 2; deep++) {
        double d = deep ? 1.5 * h : 1e-3;
        const double o[3] = {0, 0, 0}, pos[3] = {0, 0, 0.05 - d};
        tc_body_state bs[2] = {posed(o, NULL), posed(pos, NULL)};
        static tc_model_contact c[MAXC];
        int n = tc_points_contacts(s, bs, c, MAXC), foot = 0, leg = 0, side = 0;
        cr_assert_gt(n, 0);
        for (int k = 0; k < n; k++) {
            const double *x = c[k].c.pos;
            const double p[3] = {x[0] - pos[0], x[1] - pos[1], x[2] - pos[2]};
            cr_assert_eq(c[k].a, 0);
            cr_assert_eq(c[k].c.normal[2], 1);
            cr_assert_float_eq(c[k].c.depth, -x[2], 1e-15);
            cr_assert_leq(c[k].c.depth, d + 1e-12);
            cr_assert_not(on_joint(p, 1e-9), "contact at (%g, %g, %g) on the joint", p[0], p[1],
                          p[2]);
            foot += p[1] < 0.05 - 1e-9 && p[0] > -0.1 + 1e-9;
            leg += p[1] > 0.05 + 1e-9;
            side += c[k].c.depth < d - 1e-12;
            for (int j = 0; j < k; j++) {
                double e[3];
                tc_v3_sub(e, c[k].c.pos, c[j].c.pos);
                cr_assert_gt(tc_v3_norm(e), 1e-9, "contacts %d and %d coincide", j, k);
            }
        }
        cr_assert_gt(foot, 4, "d %g: %d under the foot", d, foot);
        cr_assert_gt(leg, 4, "d %g: %d under the leg", d, leg);
        /* shallow: the bottom only; deep: the side faces' first rows too */
        if (deep)
            cr_assert_gt(side, 0);
        else
            cr_assert_eq(side, 0);
    }
    tc_points_free(s);
}

/* two cubes, the upper turned 45 degrees about z and sunk d into the lower (fixed): the upper's
 * bottom points inside the lower (normal +z, a = lower) and the lower's top points inside the
 * upper (normal -z, a = upper), in that order within the pair */
Test(points, box_pair_gives_both_directions) {
    tc_shape b0 = tc_box(0.1, 0.1, 0.1), b1 = tc_box(0.1, 0.1, 0.1);
    const tc_shape *sh[2] = {&b0, &b1};
    const unsigned char fixed[2] = {1, 0};
    void *s = model_of(2, sh, fixed, NULL, 0);
    const double d = 2e-3, o[3] = {0, 0, 0}, pos[3] = {0, 0, 0.2 - d},
                 q[4] = {cos(M_PI / 8), 0, 0, sin(M_PI / 8)};
    tc_body_state bs[2] = {posed(o, NULL), posed(pos, q)};
    static tc_model_contact c[MAXC];
    int n = tc_points_contacts(s, bs, c, MAXC), up = 0, down = 0, last_a = 1;
    for (int k = 0; k < n; k++) {
        cr_assert(c[k].a <= last_a, "pair order: b's points inside a after a's inside b");
        last_a = c[k].a;
        cr_assert_float_eq(c[k].c.depth, d, 1e-12);
        if (c[k].a == 1) {
            /* body 0's top points inside body 1: body 1's bottom normal */
            cr_assert_eq(c[k].b, 0);
            cr_assert_float_eq(c[k].c.normal[2], -1, 1e-15);
            cr_assert_float_eq(c[k].c.pos[2], 0.1, 1e-15);
            down++;
        } else {
            cr_assert_eq(c[k].b, 1);
            cr_assert_float_eq(c[k].c.normal[2], 1, 1e-15);
            cr_assert_float_eq(c[k].c.pos[2], 0.1 - d, 1e-12);
            up++;
        }
    }
    cr_assert_gt(up, 4);
    cr_assert_gt(down, 4);
    tc_points_free(s);
}

/* contacts stop at max: the first max of the full list */
Test(points, contacts_stop_at_max) {
    tc_shape g = tc_plane(), box = tc_box(0.1, 0.1, 0.1);
    const tc_shape *sh[2] = {&g, &box};
    void *s = model_of(2, sh, NULL, NULL, 0);
    const double o[3] = {0, 0, 0}, pos[3] = {0, 0, 0.099};
    tc_body_state bs[2] = {posed(o, NULL), posed(pos, NULL)};
    tc_model_contact all[64], few[5];
    int n = tc_points_contacts(s, bs, all, 64);
    cr_assert_eq(n, 36);
    cr_assert_eq(tc_points_contacts(s, bs, few, 5), 5);
    cr_assert_eq(memcmp(few, all, sizeof few), 0);
    tc_points_free(s);
}

/* random scenes: positions in a cube of side 2 m, radii 0.02 to 0.15 m, a tenth fixed, and two
 * planes (one fixed, one free) with random normals */
typedef struct bp_scene {
    int n;
    double *radius;
    unsigned char *fixed;
    tc_body_state *bs;
} bp_scene;

static bp_scene random_scene(int n, unsigned long seed) {
    bp_scene S = {n, calloc((size_t)n, sizeof(double)), calloc((size_t)n, 1),
                  calloc((size_t)n, sizeof(tc_body_state))};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    for (int i = 0; i < n; i++) {
        double pos[3], q[4];
        for (int c = 0; c < 3; c++)
            pos[c] = 2 * gsl_rng_uniform(rng);
        tc_random_quat(seed * 1000 + (unsigned long)i, q);
        S.bs[i] = posed(pos, q);
        S.radius[i] = 0.02 + 0.13 * gsl_rng_uniform(rng);
        S.fixed[i] = gsl_rng_uniform(rng) < 0.1;
    }
    /* two planes, bodies 3 and n / 2 */
    S.radius[3] = INFINITY;
    S.fixed[3] = 1;
    S.radius[n / 2] = INFINITY;
    S.fixed[n / 2] = 0;
    gsl_rng_free(rng);
    return S;
}

static void free_scene(bp_scene *S) {
    free(S->radius);
    free(S->fixed);
    free(S->bs);
}

/* every pair the header's tests accept, sorted (a < b), into out; returns their number */
static int brute_pairs(const bp_scene *S, double margin, int (*out)[2]) {
    int m = 0;
    for (int a = 0; a < S->n; a++)
        for (int b = a + 1; b < S->n; b++) {
            if (S->fixed[a] && S->fixed[b]) continue;
            int pa = S->radius[a] == INFINITY, pb = S->radius[b] == INFINITY, hit;
            if (pa && pb) continue;
            if (pa || pb) {
                int p = pa ? a : b, q = pa ? b : a;
                const double *R = S->bs[p].R, nn[3] = {R[2], R[5], R[8]};
                double dd[3];
                tc_v3_sub(dd, S->bs[q].pos, S->bs[p].pos);
                hit = nn[0] * dd[0] + nn[1] * dd[1] + nn[2] * dd[2] <= S->radius[q] + margin;
            } else {
                double dx = S->bs[b].pos[0] - S->bs[a].pos[0],
                       dy = S->bs[b].pos[1] - S->bs[a].pos[1],
                       dz = S->bs[b].pos[2] - S->bs[a].pos[2],
                       r = S->radius[a] + S->radius[b] + margin;
                hit = dx * dx + dy * dy + dz * dz <= r * r;
            }
            if (hit) {
                out[m][0] = a;
                out[m][1] = b;
                m++;
            }
        }
    return m;
}

static void broadphase_equals_brute_force(int n, unsigned long seed, double margin) {
    bp_scene S = random_scene(n, seed);
    tc_broadphase *bp;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_broadphase_alloc(&bp, n, S.radius, S.fixed, 32, margin, &err), TC_OK, "%s",
                 err.msg);
    int(*ref)[2] = calloc((size_t)n * (size_t)n / 2 + 1, sizeof *ref);
    int m = brute_pairs(&S, margin, ref);
    int got = tc_broadphase_query(bp, S.bs);
    cr_assert_eq(bp->overflows, 0);
    cr_assert_eq(got, m, "n %d seed %lu: %d pairs, brute force %d", n, seed, got, m);
    cr_assert_eq(memcmp(bp->pair, ref, (size_t)m * sizeof *ref), 0, "n %d seed %lu: pairs differ",
                 n, seed);
    /* moved a little and queried again: still the brute-force set */
    for (int i = 0; i < n; i++)
        S.bs[i].pos[(i + (int)seed) % 3] += 0.01 * ((i % 7) - 3);
    m = brute_pairs(&S, margin, ref);
    cr_assert_eq(tc_broadphase_query(bp, S.bs), m);
    cr_assert_eq(memcmp(bp->pair, ref, (size_t)m * sizeof *ref), 0);
    cr_log_info("n %d seed %lu: %d pairs, %lld sphere tests", n, seed, m, bp->tests);
    free(ref);
    tc_broadphase_free(bp);
    free_scene(&S);
}

Test(points, broadphase_equals_brute_force_on_random_scenes) {
    for (unsigned long seed = 1; seed <= 6; seed++)
        broadphase_equals_brute_force(200, seed, seed % 2 ? 0 : 0.01);
    broadphase_equals_brute_force(1000, 11, 0);
    broadphase_equals_brute_force(1000, 12, 0.005);
}

/* walls (large bodies), a body far away, bodies on one cell's corners and a scene whose cells
 * all share few buckets: still the brute-force set */
Test(points, broadphase_handles_walls_far_bodies_and_crowded_buckets) {
    bp_scene S = random_scene(300, 21);
    /* three walls 20 times the others, one of them fixed, and two bodies far out */
    S.radius[10] = 2;
    S.radius[20] = 3;
    S.fixed[20] = 1;
    S.radius[30] = 2.5;
    S.bs[40].pos[0] = 1e7;
    S.bs[42].pos[2] = -1e30;
    tc_v3_copy(S.bs[41].pos, S.bs[40].pos);
    S.bs[41].pos[0] += 0.1;
    tc_broadphase *bp;
    cr_assert_eq(tc_broadphase_alloc(&bp, S.n, S.radius, S.fixed, 32, 0, NULL), TC_OK);
    cr_assert_eq(bp->nlarge, 3);
    cr_assert_eq(bp->nplane, 2);
    cr_assert_float_eq(bp->cell, 0.3, 0.01);
    int(*ref)[2] = calloc((size_t)S.n * (size_t)S.n / 2 + 1, sizeof *ref);
    int m = brute_pairs(&S, 0, ref), got = tc_broadphase_query(bp, S.bs);
    cr_assert_eq(got, m, "%d pairs, brute force %d", got, m);
    cr_assert_eq(memcmp(bp->pair, ref, (size_t)m * sizeof *ref), 0);
    /* the two far bodies meet each other */
    int far = 0;
    for (int k = 0; k < got; k++)
        far += bp->pair[k][0] == 40 && bp->pair[k][1] == 41;
    cr_assert_eq(far, 1);
    tc_broadphase_free(bp);
    /* a dense cluster on a few cells' corners: many bodies a bucket */
    for (int i = 0; i < S.n; i++) {
        if (S.radius[i] == INFINITY) continue;
        S.radius[i] = 0.05;
        for (int c = 0; c < 3; c++)
            S.bs[i].pos[c] = 0.1 * ((i >> c) & 1) + 1e-3 * (i % 5);
    }
    cr_assert_eq(tc_broadphase_alloc(&bp, S.n, S.radius, S.fixed, 300, 0, NULL), TC_OK);
    m = brute_pairs(&S, 0, ref);
    got = tc_broadphase_query(bp, S.bs);
    cr_assert_eq(got, m, "%d pairs, brute force %d", got, m);
    cr_assert_eq(memcmp(bp->pair, ref, (size_t)m * sizeof *ref), 0);
    free(ref);
    tc_broadphase_free(bp);
    free_scene(&S);
}

/* the grid's work grows with the bodies: a lattice 8 times larger takes about 8 times the
 * sphere tests (a little more: fewer bodies on its boundary), where all pairs would take 64 */
Test(points, broadphase_tests_grow_linearly) {
    long long tests[2];
    for (int big = 0; big < 2; big++) {
        int side = big ? 20 : 10, n = side * side * side;
        double *radius = calloc((size_t)n, sizeof *radius);
        tc_body_state *bs = calloc((size_t)n, sizeof *bs);
        for (int i = 0; i < n; i++) {
            const double pos[3] = {0.1 * (i % side), 0.1 * (i / side % side),
                                   0.1 * (i / side / side)};
            bs[i] = posed(pos, NULL);
            radius[i] = 0.06;
        }
        tc_broadphase *bp;
        cr_assert_eq(tc_broadphase_alloc(&bp, n, radius, NULL, 16, 0, NULL), TC_OK);
        int got = tc_broadphase_query(bp, bs);
        /* each lattice neighbour along an axis: 3 side^2 (side - 1) */
        cr_assert_eq(got, 3 * side * side * (side - 1));
        tests[big] = bp->tests;
        tc_broadphase_free(bp);
        free(radius);
        free(bs);
    }
    cr_log_info("sphere tests: %lld for 1000 bodies, %lld for 8000", tests[0], tests[1]);
    cr_assert_lt(tests[1], 10 * tests[0]);
}

/* too small a capacity: the pairs that fit (plane pairs first), sorted, the rest counted */
Test(points, broadphase_overflow_is_counted) {
    bp_scene S = random_scene(200, 5);
    for (int i = 0; i < S.n; i++)
        S.radius[i] = S.radius[i] == INFINITY ? INFINITY : 0.3;
    tc_broadphase *bp;
    cr_assert_eq(tc_broadphase_alloc(&bp, S.n, S.radius, S.fixed, 1, 0, NULL), TC_OK);
    int(*ref)[2] = calloc((size_t)S.n * (size_t)S.n / 2 + 1, sizeof *ref);
    int m = brute_pairs(&S, 0, ref), got = tc_broadphase_query(bp, S.bs);
    cr_assert_eq(bp->maxpair, 3 * 198);
    cr_assert_eq(got, bp->maxpair);
    cr_assert_eq(bp->overflows, 1);
    cr_assert_eq(bp->lost, m - got, "lost %lld, expected %d", bp->lost, m - got);
    /* sorted, each a brute-force pair, and every plane pair kept */
    int planes = 0, kept = 0;
    for (int k = 0; k < got; k++) {
        if (k)
            cr_assert(
                bp->pair[k - 1][0] < bp->pair[k][0] ||
                (bp->pair[k - 1][0] == bp->pair[k][0] && bp->pair[k - 1][1] < bp->pair[k][1]));
        int found = 0;
        for (int j = 0; j < m && !found; j++)
            found = ref[j][0] == bp->pair[k][0] && ref[j][1] == bp->pair[k][1];
        cr_assert(found);
        kept += S.radius[bp->pair[k][0]] == INFINITY || S.radius[bp->pair[k][1]] == INFINITY;
    }
    for (int j = 0; j < m; j++)
        planes += S.radius[ref[j][0]] == INFINITY || S.radius[ref[j][1]] == INFINITY;
    cr_assert_eq(kept, planes);
    /* a second query counts a second overflow */
    tc_broadphase_query(bp, S.bs);
    cr_assert_eq(bp->overflows, 2);
    cr_assert_eq(bp->lost, 2LL * (m - got));
    free(ref);
    tc_broadphase_free(bp);
    free_scene(&S);
}

Test(points, broadphase_refuses_bad_input) {
    double r[2] = {0.1, -1};
    tc_broadphase *bp;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_broadphase_alloc(&bp, 2, r, NULL, 4, 0, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "radius");
    r[1] = 0.1;
    tc_error_clear(&err);
    cr_assert_eq(tc_broadphase_alloc(&bp, 2, r, NULL, 0, 0, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "per_body");
    tc_error_clear(&err);
    cr_assert_eq(tc_broadphase_alloc(&bp, 2, r, NULL, 4, -1, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "margin");
    cr_assert_eq(tc_broadphase_alloc(&bp, 0, r, NULL, 4, 0, &err), TC_OK);
    cr_assert_eq(tc_broadphase_query(bp, NULL), 0);
    tc_broadphase_free(bp);
}

/* a pile of shapes of every kind on a lattice, neighbours overlapping: the candidate pairs are
 * the brute-force set, every contact's depth is the other body's signed distance at its point,
 * and a second state gives bitwise the same contacts again */
Test(points, pile_contacts_are_signed_distances) {
    enum { N = 301 };
    static tc_shape shape[N];
    const tc_shape *sh[N];
    static tc_body_state bs[N];
    static unsigned char fixed[N];
    shape[0] = tc_plane();
    fixed[0] = 1;
    const double oct[6][3] = {{0.06, 0, 0},  {-0.06, 0, 0}, {0, 0.06, 0},
                              {0, -0.06, 0}, {0, 0, 0.06},  {0, 0, -0.06}};
    for (int i = 1; i < N; i++) {
        switch (i % 5) {
        case 0:
            shape[i] = tc_box(0.05, 0.04, 0.03);
            break;
        case 1:
            shape[i] = tc_sphere(0.045);
            break;
        case 2:
            shape[i] = tc_cylinder(0.04, 0.04);
            break;
        case 3:
            cr_assert_eq(tc_polytope(&shape[i], oct, 6, NULL), TC_OK);
            break;
        default: {
            shape[i] = l_shape();
            for (int k = 0; k < 2; k++) {
                tc_v3_scale(shape[i].part[k].size, shape[i].part[k].size, 0.25);
                tc_v3_scale(shape[i].part[k].pos, shape[i].part[k].pos, 0.25);
            }
        }
        }
    }
    for (int i = 0; i < N; i++)
        sh[i] = &shape[i];
    void *s = model_of(N, sh, fixed, NULL, 0);
    const double o[3] = {0, 0, 0};
    bs[0] = posed(o, NULL);
    for (int i = 1; i < N; i++) {
        int k = i - 1;
        const double pos[3] = {0.09 * (k % 10), 0.09 * ((k / 10) % 10), 0.03 + 0.09 * (k / 100)};
        double q[4];
        tc_random_quat((unsigned long)i, q);
        bs[i] = posed(pos, q);
    }
    static tc_model_contact c[20000], c2[20000];
    int n = tc_points_contacts(s, bs, c, 20000);
    const tc_broadphase *bp = tc_points_broadphase(s);
    cr_assert_lt(n, 20000);
    cr_assert_eq(bp->overflows, 0);
    cr_assert_gt(bp->npair, N);
    int planes = 0;
    for (int k = 0; k < n; k++) {
        /* depth: the signed distance of the point to body a, in a's frame */
        const tc_body_state *A = &bs[c[k].a];
        double d[3], y[3], nl[3], nw[3];
        tc_v3_sub(d, c[k].c.pos, A->pos);
        tc_m3_mulvt(y, A->R, d);
        double g = tc_shape_distance(sh[c[k].a], y, nl);
        tc_m3_mulv(nw, A->R, nl);
        cr_assert_float_eq(c[k].c.depth, -g, 1e-12, "contact %d: depth %g, distance %g", k,
                           c[k].c.depth, g);
        cr_assert_gt(c[k].c.depth, 0);
        cr_assert_float_eq(tc_v3_dot(nw, c[k].c.normal), 1, 1e-12);
        planes += c[k].a == 0;
    }
    cr_assert_gt(planes, 0);
    cr_assert_gt(n - planes, 0);
    cr_log_info("pile of %d: %d pairs, %d contacts (%d on the ground)", N, bp->npair, n, planes);
    /* other poses in between, then the same poses: the same bits */
    static tc_body_state moved[N];
    memcpy(moved, bs, sizeof moved);
    for (int i = 1; i < N; i++)
        moved[i].pos[0] *= 1.5;
    tc_points_contacts(s, moved, c2, 20000);
    cr_assert_eq(tc_points_contacts(s, bs, c2, 20000), n);
    cr_assert_eq(memcmp(c, c2, (size_t)n * sizeof *c), 0);
    tc_points_free(s);
}

/* through a method: a cube resting on the ground under points/lcp-lemke stays up, and
 * tc_sim_contacts reports the model's points (sampled coarsely, 3 x 3 on a face: the LCP's
 * Lemke pivots grow fast with the contacts) */
Test(points, cube_rests_under_an_lcp) {
    tc_scene sc;
    tc_error err;
    tc_error_clear(&err);
    const double h[3] = {0.1, 0.1, 0.1}, pos[3] = {0, 0, 0.1};
    cr_assert_eq(tc_scene_ground(&sc, 9.81, 0.5, &err), TC_OK);
    cr_assert_eq(tc_scene_add_box(&sc, "cube", h, 2, pos, NULL, &err), TC_OK);
    tc_method m;
    cr_assert_eq(tc_method_parse(&m, "points/lcp-lemke", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "spacing_rel", 1, &err), TC_OK);
    tc_sim *sim;
    cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 1e-3, &err), TC_OK, "%s", err.msg);
    for (int i = 0; i < 200; i++)
        cr_assert_eq(tc_sim_step(sim), TC_OK);
    double z = tc_sim_q(sim)[2];
    cr_assert(z > 0.099 && z < 0.1001, "z = %g", z);
    tc_model_contact c[64];
    int n = tc_sim_contacts(sim, c, 64);
    cr_assert_leq(n, 9);
    cr_log_info("cube at z = %.6f m, %d contacts", z, n);
    tc_sim_free(sim);
}
