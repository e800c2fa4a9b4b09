/* SPDX-License-Identifier: MIT */
/* SCM's force_jacobian: against central differences of force() (Richardson), the same wrenches,
 * the same bits on any thread count, and nothing far from contact */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math/tc_vec.h"
#include "models/tc_model.h"
#include "models/tc_scm.h"
#include "scenes/tc_scenes.h"

/* a tiny deterministic generator (splitmix64) for the random states */
static unsigned long long rng_state;
static double uniform(double a, double b) {
    unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return a + (b - a) * (double)(z >> 11) / 9007199254740992.0;
}

/* the kinds of random near-contact states */
enum { SPHERE_PLANE, SPHERE_SPHERE, BOX_PLANE, BOX_SPHERE, NKIND };
static const char *kind_name[NKIND] = {"sphere-plane", "sphere-sphere", "box-plane", "box-sphere"};

/* scene of a kind: body 0 fixed (plane or sphere of radius 0.08), body 1 free (sphere of radius
 * 0.05 or a box of half sizes 0.04, 0.03, 0.05) */
static void kind_scene(tc_scene *sc, int kind) {
    *sc = tc_default_scene();
    sc->friction = 0.5;
    int plane = kind == SPHERE_PLANE || kind == BOX_PLANE,
        box = kind == BOX_PLANE || kind == BOX_SPHERE;
    tc_body_desc a = tc_default_body("a", plane ? tc_plane() : tc_sphere(0.08));
    tc_body_desc b = tc_default_body("b", box ? tc_box(0.04, 0.03, 0.05) : tc_sphere(0.05));
    b.joint = TC_JOINT_FREE;
    b.pos[2] = 0.2;
    cr_assert_eq(tc_scene_add(sc, &a, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(sc, &b, 1000, NULL), TC_OK);
}

static void set_quat(tc_body_state *s, const double q[4]) {
    memcpy(s->quat, q, sizeof s->quat);
    tc_quat_to_mat(s->R, s->quat);
}

/* a random twist: velocity up to vmax per axis, angular velocity up to wmax */
static void random_twist(tc_body_state *s, double vmax, double wmax) {
    for (int k = 0; k < 3; k++) {
        s->vel[k] = uniform(-vmax, vmax);
        s->omega[k] = uniform(-wmax, wmax);
    }
}

/* a random state of a kind near contact: the free body's surface from 4 mm inside the other to
 * 2 mm outside it, random orientations and twists (both bodies move: every column is tested) */
static void random_state(int kind, unsigned long seed, tc_body_state bs[2]) {
    memset(bs, 0, 2 * sizeof *bs);
    double q[4];
    tc_quat_identity(q);
    set_quat(&bs[0], q);
    tc_random_quat(seed, q);
    set_quat(&bs[1], q);
    const double gap = uniform(-0.004, 0.002);
    if (kind == SPHERE_PLANE || kind == BOX_PLANE) {
        tc_shape sh = kind == BOX_PLANE ? tc_box(0.04, 0.03, 0.05) : tc_sphere(0.05);
        bs[1].pos[0] = uniform(-0.1, 0.1);
        bs[1].pos[1] = uniform(-0.1, 0.1);
        bs[1].pos[2] = tc_shape_lowest(&sh, q) + gap;
    } else {
        /* a direction, and the free body's reach along it (a box: its support distance) */
        double d[3] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
        tc_v3_normalize(d);
        double reach = 0.05;
        if (kind == BOX_SPHERE) {
            const double h[3] = {0.04, 0.03, 0.05};
            double db[3];
            tc_m3_mulvt(db, bs[1].R, d);
            reach = h[0] * fabs(db[0]) + h[1] * fabs(db[1]) + h[2] * fabs(db[2]);
        }
        tc_v3_scale(bs[1].pos, d, 0.08 + reach + gap);
    }
    random_twist(&bs[0], 0.3, 2.0);
    random_twist(&bs[1], 1.0, 5.0);
}

/* pruning of far weights (1) or none (0), for model() */
static int prune_weights = 1;

/* the model on a scene with spacing h and the reaction variant consistent */
static void *model(const tc_model_type *T, const tc_scene *sc, double spacing, int consistent) {
    tc_params p;
    tc_params_default(&p, T->params);
    cr_assert_eq(tc_params_set(&p, "prune", prune_weights, NULL), TC_OK);
    cr_assert_eq(tc_params_set(&p, "spacing", spacing, NULL), TC_OK);
    cr_assert_eq(tc_params_set(&p, "consistent", consistent, NULL), TC_OK);
    void *state = NULL;
    cr_assert_eq(T->alloc(&state, sc, &p, NULL), TC_OK);
    return state;
}

/* body j of bs moved by x along column c (0-2 position, 3-5 world rotation, 6-8 velocity, 9-11
 * angular velocity) */
static void perturb(tc_body_state *bs, int j, int c, double x) {
    tc_body_state *s = &bs[j];
    if (c < 3)
        s->pos[c] += x;
    else if (c < 6) {
        double d[3] = {0, 0, 0}, q[4];
        d[c - 3] = x;
        memcpy(q, s->quat, sizeof q);
        tc_quat_integrate(q, d, 1.0);
        set_quat(s, q);
    } else if (c < 9)
        s->vel[c - 6] += x;
    else
        s->omega[c - 9] += x;
}

/* steps per column type: position (m), rotation (rad), velocity (m/s), angular velocity (rad/s) */
static const double fd_step[4] = {1e-7, 1e-6, 1e-6, 1e-5};

/* central difference of force() along column (j, c) with step h into col[6 nb] */
static void central(const tc_model_type *T, void *st, const tc_body_state *bs, int nb, int j, int c,
                    double h, double *col) {
    tc_body_state p[2], m[2];
    tc_wrench wp[2], wm[2];
    memcpy(p, bs, (size_t)nb * sizeof *bs);
    memcpy(m, bs, (size_t)nb * sizeof *bs);
    perturb(p, j, c, h);
    perturb(m, j, c, -h);
    cr_assert_eq(T->force(st, p, wp, NULL), TC_OK);
    cr_assert_eq(T->force(st, m, wm, NULL), TC_OK);
    for (int i = 0; i < nb; i++)
        for (int r = 0; r < 6; r++) {
            double a = r < 3 ? wp[i].f[r] : wp[i].t[r - 3], b = r < 3 ? wm[i].f[r] : wm[i].t[r - 3];
            col[6 * i + r] = (a - b) / (2 * h);
        }
}

/* the analytic Jacobian against Richardson's extrapolation of central differences at h and h/2:
 * *err the largest entry error, *fd the largest difference of the two central differences (the
 * FD error bound), both relative to the Jacobian's max-norm; *scale that norm; *blk the largest
 * error of each column type relative to that type's own max-norm (velocity columns are smaller) */
static void compare(const tc_model_type *T, void *st, const tc_body_state *bs, int nb, double *err,
                    double *fd, double *scale, double blk[4]) {
    const int nr = 6 * nb, nc = 12 * nb;
    double *J = calloc((size_t)nr * nc, sizeof *J), c1[12], c2[12];
    tc_wrench w[2];
    cr_assert_eq(T->force_jacobian(st, bs, w, J, NULL), TC_OK);
    double norm = 0, e = 0, f = 0, bn[4] = {0}, be[4] = {0};
    for (int k = 0; k < nr * nc; k++) {
        norm = fmax(norm, fabs(J[k]));
        bn[(k % nc % 12) / 3] = fmax(bn[(k % nc % 12) / 3], fabs(J[k]));
    }
    for (int col = 0; col < nc; col++) {
        const int type = (col % 12) / 3;
        const double h = fd_step[type];
        central(T, st, bs, nb, col / 12, col % 12, h, c1);
        central(T, st, bs, nb, col / 12, col % 12, h / 2, c2);
        for (int r = 0; r < nr; r++) {
            double rich = (4 * c2[r] - c1[r]) / 3, d = fabs(J[r * nc + col] - rich);
            e = fmax(e, d);
            be[type] = fmax(be[type], d);
            f = fmax(f, fabs(c2[r] - c1[r]));
        }
    }
    *err = norm > 0 ? e / norm : e;
    *fd = norm > 0 ? f / norm : f;
    *scale = norm;
    for (int t = 0; t < 4; t++)
        blk[t] = bn[t] > 1e-12 * norm ? be[t] / bn[t] : 0;
    free(J);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* 100 seeded random near-contact states, 25 of each kind, both reaction variants, one in ten
 * without pruning: the analytic Jacobian matches central differences to 1e-6 of its max-norm,
 * the FD error bound below 1e-7. Under AddressSanitizer the first 20 (every kind, both variants,
 * pruned and not: the memory checks need each path once; all 100 took 57 s there) */
#ifdef __SANITIZE_ADDRESS__
#define JACOBIAN_STATES 20
#else
#define JACOBIAN_STATES 100
#endif
Test(scm_grad, jacobian_matches_central_differences) {
    const tc_model_type *T = tc_model_find("scm");
    cr_assert_not_null(T);
    cr_assert_not_null(T->force_jacobian);
    cr_expect(T->caps & TC_CAP_GRADIENT);
    enum { NSTATE = JACOBIAN_STATES };
    double errs[NSTATE], worst = 0, worst_fd = 0, worst_blk[4] = {0};
    rng_state = 36;
    for (int s = 0; s < NSTATE; s++) {
        const int kind = s % NKIND, consistent = (s / NKIND) % 2;
        prune_weights = s % 10 != 9; /* every tenth state gathers every point */
        tc_scene sc;
        kind_scene(&sc, kind);
        void *st = model(T, &sc, 0.015, consistent);
        tc_body_state bs[2];
        random_state(kind, 1000 + (unsigned long)s, bs);
        double err, fd, scale, blk[4];
        compare(T, st, bs, 2, &err, &fd, &scale, blk);
        for (int t = 0; t < 4; t++) {
            cr_expect_leq(blk[t], 1e-6, "state %d (%s): column type %d error %.3g of its norm", s,
                          kind_name[kind], t, blk[t]);
            worst_blk[t] = fmax(worst_blk[t], blk[t]);
        }
        cr_expect_leq(err, 1e-6, "state %d (%s, consistent %d): error %.3g of |J| %.3g (FD %.3g)",
                      s, kind_name[kind], consistent, err, scale, fd);
        cr_expect_leq(fd, 1e-7, "state %d (%s): FD error bound %.3g", s, kind_name[kind], fd);
        cr_expect_gt(scale, 0.0, "state %d (%s): no force derivative near contact", s,
                     kind_name[kind]);
        errs[s] = err;
        worst = fmax(worst, err);
        worst_fd = fmax(worst_fd, fd);
        T->free(st);
    }
    prune_weights = 1;
    qsort(errs, NSTATE, sizeof *errs, cmp_double);
    fprintf(stderr, "scm_grad: relative error worst %.3g median %.3g; FD error bound %.3g\n", worst,
            0.5 * (errs[NSTATE / 2 - 1] + errs[NSTATE / 2]), worst_fd);
    fprintf(stderr,
            "scm_grad: per column type (position, rotation, velocity, angular velocity) worst "
            "%.3g %.3g %.3g %.3g of the type's own norm\n",
            worst_blk[0], worst_blk[1], worst_blk[2], worst_blk[3]);
}

/* a plane, two spheres and a box touching each other and the ground (four pairs or more) */
static void pile_scene(tc_scene *sc, tc_body_state bs[4]) {
    *sc = tc_default_scene();
    sc->friction = 0.5;
    tc_body_desc f = tc_default_body("floor", tc_plane());
    tc_body_desc a = tc_default_body("a", tc_sphere(0.05));
    tc_body_desc b = tc_default_body("b", tc_sphere(0.04));
    tc_body_desc c = tc_default_body("c", tc_box(0.04, 0.03, 0.05));
    a.joint = b.joint = c.joint = TC_JOINT_FREE;
    cr_assert_eq(tc_scene_add(sc, &f, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(sc, &a, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(sc, &b, 1000, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(sc, &c, 1000, NULL), TC_OK);
    memset(bs, 0, 4 * sizeof *bs);
    double q[4];
    tc_quat_identity(q);
    for (int i = 0; i < 4; i++)
        set_quat(&bs[i], q);
    tc_v3_set(bs[1].pos, 0, 0, 0.049);
    tc_v3_set(bs[2].pos, 0.089, 0, 0.039);
    tc_v3_set(bs[3].pos, -0.089, 0, 0.05);
    rng_state = 7;
    for (int i = 1; i < 4; i++)
        random_twist(&bs[i], 0.2, 2.0);
}

/* the ground and six spheres of radius 5 cm on a ring, touching their neighbours: 21 pairs, none
 * over a tenth of the work, so force() and its derivatives run them on threads one pair each */
static void ring_scene(tc_scene *sc, tc_body_state bs[7]) {
    *sc = tc_default_scene();
    sc->friction = 0.5;
    tc_body_desc f = tc_default_body("floor", tc_plane());
    cr_assert_eq(tc_scene_add(sc, &f, 1000, NULL), TC_OK);
    memset(bs, 0, 7 * sizeof *bs);
    rng_state = 9;
    for (int i = 0; i < 7; i++) {
        double q[4];
        tc_quat_identity(q);
        set_quat(&bs[i], q);
        if (!i) continue;
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        tc_body_desc b = tc_default_body(name, tc_sphere(0.05));
        b.joint = TC_JOINT_FREE;
        cr_assert_eq(tc_scene_add(sc, &b, 1000, NULL), TC_OK);
        const double t = 2 * M_PI * i / 6;
        tc_v3_set(bs[i].pos, 0.099 * cos(t), 0.099 * sin(t), 0.049);
        random_twist(&bs[i], 0.2, 2.0);
    }
}

/* E1's pair (radii 10 and 5 cm) 2 mm into each other and moving: one large pair, whose query
 * blocks run on threads */
static void e1_scene(tc_scene *sc, tc_body_state bs[2]) {
    cr_assert_eq(tc_scene_sphere_pair(sc, 0.1, 0.05, 0.148, 1000, NULL), TC_OK);
    memset(bs, 0, 2 * sizeof *bs);
    double q[4];
    tc_quat_identity(q);
    set_quat(&bs[0], q);
    tc_random_quat(4, q);
    set_quat(&bs[1], q);
    bs[1].pos[1] = 0.148;
    rng_state = 5;
    random_twist(&bs[1], 0.2, 2.0);
}

/* the wrenches equal force()'s bit for bit, and the derivatives are the same bits on 1 and 2
 * threads: pairs one after the other (the pile), a large pair's blocks on threads (E1's pair),
 * pairs on threads one each (the ring); blocks and pairs are summed in a fixed order */
Test(scm_grad, same_wrench_as_force_and_same_bits_on_any_thread_count) {
    const tc_model_type *T = tc_model_find("scm");
    const int saved = omp_get_max_threads();
    for (int k = 0; k < 3; k++) {
        tc_scene sc;
        tc_body_state bs[7];
        if (k == 0) pile_scene(&sc, bs);
        if (k == 1) e1_scene(&sc, bs);
        if (k == 2) ring_scene(&sc, bs);
        const int nb = sc.nbody, n = 6 * nb * 12 * nb;
        double *J1 = calloc(n, sizeof *J1), *J2 = calloc(n, sizeof *J2);
        tc_wrench w[7], wf[7], w2[7];
        omp_set_num_threads(1);
        void *st = model(T, &sc, 0.01, k == 1);
        cr_expect_eq(((const scm_state *)st)->by_pair, k == 2, "scene %d: not the path meant", k);
        cr_assert_eq(T->force(st, bs, wf, NULL), TC_OK);
        cr_assert_eq(T->force_jacobian(st, bs, w, J1, NULL), TC_OK);
        cr_expect_eq(memcmp(w, wf, nb * sizeof *w), 0,
                     "scene %d: force_jacobian's wrenches differ from force()'s", k);
        omp_set_num_threads(2);
        cr_assert_eq(T->force_jacobian(st, bs, w2, J2, NULL), TC_OK);
        omp_set_num_threads(saved);
        cr_expect_eq(memcmp(w2, wf, nb * sizeof *w2), 0);
        cr_expect_eq(memcmp(J1, J2, n * sizeof *J1), 0,
                     "scene %d: derivatives depend on the thread count", k);
        double norm = 0;
        for (int i = 0; i < n; i++)
            norm = fmax(norm, fabs(J1[i]));
        cr_expect_gt(norm, 0.0, "scene %d: no derivatives", k);
        T->free(st);
        free(J1);
        free(J2);
    }
}

/* a sphere 20 cm above the plane (200 eps3 beyond touching): the derivatives vanish, as central
 * differences of the (vanishing) force do */
Test(scm_grad, nothing_far_from_contact) {
    const tc_model_type *T = tc_model_find("scm");
    tc_scene sc;
    kind_scene(&sc, SPHERE_PLANE);
    void *st = model(T, &sc, 0.015, 0);
    tc_body_state bs[2];
    rng_state = 3;
    random_state(SPHERE_PLANE, 5, bs);
    bs[1].pos[2] += 0.2;
    double J[12 * 24], col[12], big = 0, fd = 0;
    tc_wrench w[2];
    cr_assert_eq(T->force_jacobian(st, bs, w, J, NULL), TC_OK);
    for (int k = 0; k < 12 * 24; k++)
        big = fmax(big, fabs(J[k]));
    for (int c = 0; c < 24; c++) {
        central(T, st, bs, 2, c / 12, c % 12, fd_step[(c % 12) / 3], col);
        for (int r = 0; r < 12; r++)
            fd = fmax(fd, fabs(col[r]));
    }
    cr_expect_leq(big, 1e-30, "derivatives %g far from contact", big);
    cr_expect_leq(fd, 1e-30, "central differences %g far from contact", fd);
    T->free(st);
}

/* each piece of the dissipation d(u) (u = v_n / v_d, v_d = 0.5 m/s) on its own: a sphere pressed
 * 3 mm into a still plane, not spinning, sliding along x at 0.1 m/s (friction) and moving along z
 * so that every point has the same u: at rest (force()'s static kernel), approaching (u = -0.4),
 * separating (u = 0.6), separating fast (u = 3: no force, no derivatives) */
Test(scm_grad, every_piece_of_the_dissipation) {
    const tc_model_type *T = tc_model_find("scm");
    const double vz[4] = {0, -0.2, 0.3, 1.5}, vx[4] = {0, 0.1, 0.1, 0.1};
    tc_scene sc;
    kind_scene(&sc, SPHERE_PLANE);
    for (int k = 0; k < 4; k++) {
        void *st = model(T, &sc, 0.015, k % 2);
        tc_body_state bs[2];
        memset(bs, 0, sizeof bs);
        double q[4];
        tc_quat_identity(q);
        set_quat(&bs[0], q);
        set_quat(&bs[1], q);
        bs[1].pos[2] = 0.047;
        bs[1].vel[0] = vx[k];
        bs[1].vel[2] = vz[k];
        double err, fd, scale, blk[4];
        compare(T, st, bs, 2, &err, &fd, &scale, blk);
        if (k < 3) {
            cr_expect_gt(scale, 1.0, "u = %g: no derivatives", vz[k] / 0.5);
            cr_expect_leq(err, 1e-6, "u = %g: error %.3g of |J| %.3g", vz[k] / 0.5, err, scale);
            cr_expect_leq(fd, 1e-7, "u = %g: FD error bound %.3g", vz[k] / 0.5, fd);
            for (int t = 0; t < 4; t++)
                cr_expect_leq(blk[t], 1e-6, "u = %g: column type %d error %.3g", vz[k] / 0.5, t,
                              blk[t]);
        } else {
            cr_expect_eq(scale, 0.0, "u = 3: derivatives %g where d(u) = 0", scale);
            cr_expect_eq(err, 0.0, "u = 3: central differences %g", err);
        }
        T->free(st);
    }
}

/* the checked second-derivative option: the Hessian of a pair's smooth separation distance, as
 * central differences (Richardson, h and h/2) of its analytic gradient over the pose columns, is
 * symmetric to 1e-6 of its max-norm once the rotation blocks lose the Lie bracket term: with
 * left perturbations R' = exp([d]x) R, d/ds g_i(exp(s e_j) R) = d_ij f + g.(e_i x e_j) / 2 */
Test(scm_grad, separation_hessian_is_symmetric) {
    const tc_model_type *T = tc_model_find("scm");
    for (int kind = 0; kind < NKIND; kind++) {
        tc_scene sc;
        kind_scene(&sc, kind);
        void *st = model(T, &sc, 0.015, 0);
        tc_body_state bs[2];
        rng_state = 11;
        random_state(kind, 77 + (unsigned long)kind, bs);
        double g[25], gp[25], gm[25], H[12][12];
        tc_wrench w[2];
        cr_assert_eq(tc_scm_separation(st, bs, w, g), TC_OK);
        /* pose columns: each body's position and rotation (the separation ignores velocities) */
        static const int col[12] = {0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17};
        for (int j = 0; j < 12; j++) {
            const double h = fd_step[(col[j] % 12) / 3];
            double d[2][12];
            for (int m = 0; m < 2; m++) {
                tc_body_state p[2], q[2];
                memcpy(p, bs, sizeof p);
                memcpy(q, bs, sizeof q);
                perturb(p, col[j] / 12, col[j] % 12, h / (1 + m));
                perturb(q, col[j] / 12, col[j] % 12, -h / (1 + m));
                cr_assert_eq(tc_scm_separation(st, p, w, gp), TC_OK);
                cr_assert_eq(tc_scm_separation(st, q, w, gm), TC_OK);
                for (int i = 0; i < 12; i++)
                    d[m][i] = (gp[1 + col[i]] - gm[1 + col[i]]) / (2 * h / (1 + m));
            }
            for (int i = 0; i < 12; i++)
                H[i][j] = (4 * d[1][i] - d[0][i]) / 3;
        }
        /* the bracket term of each body's rotation block: g.(e_i x e_j) / 2 */
        for (int b = 0; b < 2; b++)
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double ei[3] = {0, 0, 0}, ej[3] = {0, 0, 0}, x[3];
                    ei[i] = ej[j] = 1;
                    tc_v3_cross(x, ei, ej);
                    H[6 * b + 3 + i][6 * b + 3 + j] -= 0.5 * tc_v3_dot(g + 1 + 12 * b + 3, x);
                }
        double norm = 0, asym = 0;
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 12; j++) {
                norm = fmax(norm, fabs(H[i][j]));
                asym = fmax(asym, fabs(H[i][j] - H[j][i]));
            }
        cr_expect_gt(norm, 0.0);
        cr_expect_leq(asym, 1e-6 * norm, "%s: Hessian asymmetric by %.3g of %.3g", kind_name[kind],
                      asym, norm);
        fprintf(stderr, "scm_grad: %s separation %.4g m, Hessian asymmetry %.3g of its norm %.3g\n",
                kind_name[kind], g[0], asym / norm, norm);
        T->free(st);
    }
}

/* E2's scene (a compound T of 4000-odd points at 1 cm, on planar joints) with its finger pressed
 * against the stem's bottom at four random states: the derivative holds for compounds and planar
 * scenes too (it never looks at the shape or the joint) */
Test(scm_grad, e2_t_and_finger, .timeout = 300) {
    const tc_model_type *T = tc_model_find("scm");
    tc_t_pusher tp = tc_default_t_pusher();
    tc_scene sc;
    cr_assert_eq(tc_scene_t_pusher(&sc, &tp, NULL), TC_OK);
    void *st = model(T, &sc, 0.01, 0);
    double start[2];
    tc_t_pusher_start(&tp, start);
    rng_state = 2;
    for (int k = 0; k < 4; k++) {
        tc_body_state bs[2];
        memset(bs, 0, sizeof bs);
        const double turn[3] = {0, 0, uniform(-0.02, 0.02)};
        double q[4];
        tc_quat_identity(q);
        set_quat(&bs[1], q);
        tc_quat_integrate(q, turn, 1.0);
        set_quat(&bs[0], q);
        /* the stem's bottom is 2 radii above the start; the finger's surface 3 mm in to 1 mm out */
        bs[1].pos[0] = uniform(-0.01, 0.01);
        bs[1].pos[1] = start[1] + 2 * tp.finger_radius + uniform(-0.003, 0.001);
        for (int b = 0; b < 2; b++) {
            bs[b].vel[0] = uniform(-0.2, 0.2);
            bs[b].vel[1] = uniform(-0.2, 0.2);
            bs[b].omega[2] = uniform(-1, 1);
        }
        double err, fd, scale, blk[4];
        compare(T, st, bs, 2, &err, &fd, &scale, blk);
        cr_expect_gt(scale, 1.0, "state %d: no derivatives", k);
        cr_expect_leq(err, 1e-6, "state %d: error %.3g of |J| %.3g (FD %.3g)", k, err, scale, fd);
        cr_expect_leq(fd, 1e-7, "state %d: FD error bound %.3g", k, fd);
        fprintf(stderr, "scm_grad: E2 state %d: error %.3g, FD bound %.3g, |J| %.3g\n", k, err, fd,
                scale);
    }
    T->free(st);
}
