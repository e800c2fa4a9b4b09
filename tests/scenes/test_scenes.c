/* SPDX-License-Identifier: MIT */
/* scene builders: 2-D polygons as prisms (the polygon A x <= b in the world), the 2-D ground,
 * the E2 T and finger, pairs */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyn/tc_system.h"
#include "math/tc_vec.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_sim.h"
#include "tc_config.h"

/* Le Cleac'h et al.'s dropped polygon (public code): A x <= b */
static const double A5[5][2] = {{1, 0.2}, {0, 1}, {-1, -0.3}, {0, -1}, {0.8, -0.8}};
static const double b5[5] = {0.4, 0.4, 0.4, 0.4, 0.4};

/* the world x-y of every prism vertex of body i */
static int world_vertices(const tc_scene *sc, int i, double (*w)[3]) {
    const tc_body_desc *b = &sc->body[i];
    double R[9];
    tc_quat_to_mat(R, b->quat);
    for (int k = 0; k < b->shape.hull->nvert; k++) {
        tc_m3_mulv(w[k], R, b->shape.hull->vert[k]);
        tc_v3_add(w[k], w[k], b->pos);
    }
    return b->shape.hull->nvert;
}

/* the polygon's centroid by the shoelace formula over its vertices, in A's frame */
static void centroid(const double (*v)[2], int n, double c[2]) {
    double a = 0;
    c[0] = c[1] = 0;
    for (int i = 0; i < n; i++) {
        const double *p = v[i], *q = v[(i + 1) % n];
        double cr = p[0] * q[1] - q[0] * p[1];
        a += cr / 2;
        c[0] += (p[0] + q[0]) * cr / 6;
        c[1] += (p[1] + q[1]) * cr / 6;
    }
    c[0] /= a;
    c[1] /= a;
}

Test(scenes, polygon_prism_is_the_polygon_in_the_world) {
    /* the polygon's vertices by hand: consecutive rows intersect (A's rows go round it) */
    double v[5][2];
    for (int i = 0; i < 5; i++) {
        const double *a = A5[i], *c = A5[(i + 1) % 5];
        double det = a[0] * c[1] - a[1] * c[0];
        v[i][0] = (b5[i] * c[1] - a[1] * b5[(i + 1) % 5]) / det;
        v[i][1] = (a[0] * b5[(i + 1) % 5] - b5[i] * c[0]) / det;
    }
    double c[2];
    centroid((const double(*)[2])v, 5, c);
    for (int t = 0; t < 3; t++) {
        const double theta = 0.7 * t;
        tc_scene *sc = malloc(sizeof *sc);
        tc_error err;
        tc_error_clear(&err);
        cr_assert_eq(tc_scene_ground_2d(sc, 9.81, 0.2, &err), TC_OK, "%s", err.msg);
        cr_assert_eq(
            tc_scene_add_polygon(sc, "poly", A5, b5, 5, 0.05, 1.0, 0.2, 0.3, 1.0, theta, &err),
            TC_OK, "%s", err.msg);
        const tc_body_desc *b = &sc->body[1];
        cr_expect_eq(b->joint, TC_JOINT_PLANAR);
        cr_expect_eq(b->mass, 1.0);
        cr_expect_eq(b->inertia[2], 0.2);
        cr_expect_eq(b->shape.hull->nvert, 10, "a pentagon's prism");
        cr_expect(fabs(b->pos[0] - 0.3) < 1e-12 && fabs(b->pos[1] - 1.0) < 1e-12,
                  "centroid at (x, y)");
        /* every vertex, turned back by theta about the centroid, lies in A x <= b, on two rows */
        double w[32][3];
        int n = world_vertices(sc, 1, w);
        for (int k = 0; k < n; k++) {
            double dx = w[k][0] - 0.3, dy = w[k][1] - 1.0;
            double x = cos(theta) * dx + sin(theta) * dy + c[0],
                   y = -sin(theta) * dx + cos(theta) * dy + c[1];
            int on = 0;
            for (int r = 0; r < 5; r++) {
                double g = A5[r][0] * x + A5[r][1] * y - b5[r];
                cr_expect_leq(g, 1e-12, "theta %g vertex %d row %d: %g", theta, k, r, g);
                on += fabs(g) < 1e-12;
            }
            cr_expect_eq(on, 2, "a vertex lies on two edges");
            cr_expect(fabs(fabs(w[k][2]) - 0.05) < 1e-12);
        }
        free(sc);
    }
}

Test(scenes, empty_or_unbounded_polygons_are_refused) {
    tc_scene *sc = malloc(sizeof *sc);
    tc_error err;
    cr_assert_eq(tc_scene_ground_2d(sc, 9.81, 0.2, NULL), TC_OK);
    const double A[3][2] = {{1, 0}, {-1, 0}, {0, 1}}, b[3] = {1, 1, 1};
    tc_error_clear(&err);
    cr_expect_eq(tc_scene_add_polygon(sc, "open", A, b, 3, 0.05, 1, 0.2, 0, 1, 0, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "polygon");
    const double e[3] = {-1, -1, 1};
    tc_error_clear(&err);
    cr_expect_eq(tc_scene_add_polygon(sc, "empty", A, e, 3, 0.05, 1, 0.2, 0, 1, 0, &err),
                 TC_EINVAL);
    free(sc);
}

Test(scenes, the_2d_ground_is_y_below_zero_with_gravity_along_minus_y,
     .disabled = !TC_HAVE_MUJOCO) {
    tc_scene *sc = malloc(sizeof *sc);
    const double pos[3] = {0.5, 0.3, 0};
    cr_assert_eq(tc_scene_ground_2d(sc, 9.81, 0.2, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_free(sc, "ball", tc_sphere(0.1), pos, NULL, 1000, NULL), TC_OK);
    cr_expect_eq(sc->gravity[1], -9.81);
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.001, NULL), TC_OK);
    cr_expect(fabs(tc_sim_gap(sim, 0, 1) - 0.2) < 1e-12, "gap %g", tc_sim_gap(sim, 0, 1));
    tc_sim_free(sim);
    free(sc);
}

Test(scenes, t_pusher_has_its_com_at_the_origin_and_the_finger_below, .disabled = !TC_HAVE_MUJOCO) {
    tc_scene *sc = malloc(sizeof *sc);
    tc_t_pusher t = tc_default_t_pusher();
    cr_assert_eq(tc_scene_t_pusher(sc, &t, NULL), TC_OK);
    cr_expect_eq(sc->nbody, 2);
    cr_expect_eq(sc->body[0].pos[0], 0.0);
    cr_expect_eq(sc->body[0].pos[1], 0.0);
    /* 0.5 kg of T: (25 x 5 + 5 x 15) cm^2 x 5 cm x 500 kg/m^3 */
    cr_expect(fabs(sc->body[0].mass - 500 * 0.05 * (0.25 * 0.05 + 0.05 * 0.15)) < 1e-12, "%g",
              sc->body[0].mass);
    double xy[2];
    tc_t_pusher_start(&t, xy);
    cr_expect_eq(sc->body[1].pos[1], xy[1]);
    tc_method m;
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", NULL), TC_OK);
    cr_assert_eq(tc_sim_alloc(&sim, sc, &m, 0.002, NULL), TC_OK);
    cr_expect(fabs(tc_sim_gap(sim, 0, 1) - 2 * t.finger_radius) < 1e-12, "clear by two radii: %g",
              tc_sim_gap(sim, 0, 1));
    tc_sim_free(sim);
    free(sc);
}

Test(scenes, polygon_centroid_is_where_the_prism_puts_the_centroid) {
    /* the centroid in A's frame, turned by theta and added to A's origin, is the body's position */
    double c[2], v[TC_POLYGON_MAXROW][2];
    int nv = 0;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_polygon_centroid(A5, b5, 5, c, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_polygon_vertices(A5, b5, 5, v, &nv, &err), TC_OK, "%s", err.msg);
    cr_expect_eq(nv, 5);
    double c2[2];
    centroid((const double(*)[2])v, nv, c2);
    cr_expect(fabs(c[0] - c2[0]) < 1e-14 && fabs(c[1] - c2[1]) < 1e-14, "(%g, %g)", c[0], c[1]);
    cr_expect(fabs(c[0]) > 1e-3, "this polygon's centroid is off A's origin");
    tc_scene *sc = malloc(sizeof *sc);
    const double th = 1.1, ox = 0.2, oy = 0.9;
    const double x = ox + cos(th) * c[0] - sin(th) * c[1], y = oy + sin(th) * c[0] + cos(th) * c[1];
    cr_assert_eq(tc_scene_ground_2d(sc, 9.81, 0.2, NULL), TC_OK);
    cr_assert_eq(tc_scene_add_polygon(sc, "poly", A5, b5, 5, 0.05, 1, 0.2, x, y, th, NULL), TC_OK);
    /* A's origin: every world vertex turned back about it satisfies A x <= b, two rows tight */
    double w[32][3];
    int n = world_vertices(sc, 1, w);
    for (int k = 0; k < n; k++) {
        double dx = w[k][0] - ox, dy = w[k][1] - oy;
        double px = cos(th) * dx + sin(th) * dy, py = -sin(th) * dx + cos(th) * dy;
        int on = 0;
        for (int r = 0; r < 5; r++)
            on += fabs(A5[r][0] * px + A5[r][1] * py - b5[r]) < 1e-12;
        cr_expect_eq(on, 2, "vertex %d", k);
    }
    free(sc);
}

Test(scenes, an_unbounded_polygon_with_three_vertices_is_refused) {
    /* x >= 0, y >= 0, x + 2y >= 2, 2x + y >= 2: three vertices, open towards +x +y */
    const double A[4][2] = {{-1, 0}, {0, -1}, {-1, -2}, {-2, -1}}, b[4] = {0, 0, -2, -2};
    double c[2];
    tc_error err;
    tc_error_clear(&err);
    cr_expect_eq(tc_polygon_centroid(A, b, 4, c, &err), TC_EINVAL);
    cr_expect_str_eq(err.param, "polygon");
    cr_expect(strstr(err.msg, "unbounded") != NULL, "%s", err.msg);
}

/* ---- capacity: 1,000-body piles ---- */

Test(scenes, a_thousand_free_bodies_and_the_ground_fit_in_a_scene) {
    /* the scene stays a value type of about 1 MB (the polytope hulls live outside it) */
    cr_assert_geq(TC_SCENE_MAXBODY, 1024);
    cr_assert_leq(sizeof(tc_scene), (size_t)1 << 20, "sizeof(tc_scene) %zu B", sizeof(tc_scene));
    cr_assert_leq(sizeof(tc_shape), 512, "sizeof(tc_shape) %zu B", sizeof(tc_shape));
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_not_null(sc);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_ground(sc, 9.81, 0.5, &err), TC_OK, "%s", err.msg);
    /* boxes, spheres and box-plus-sphere compounds on a 10 x 10 grid, 10 layers */
    enum { N = 1000 };
    tc_shape cmp = tc_box(0.02, 0.02, 0.02);
    cmp.type = TC_SHAPE_COMPOUND;
    cmp.npart = 2;
    cmp.part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.02, 0.02, 0.02}, {0, 0, 0}};
    cmp.part[1] = (tc_shape_part){TC_SHAPE_SPHERE, {0.015, 0, 0}, {0, 0, 0.035}};
    for (int i = 0; i < N; i++) {
        char name[32];
        snprintf(name, sizeof name, "body%d", i);
        const double pos[3] = {0.1 * (i % 10), 0.1 * (i / 10 % 10), 0.05 + 0.1 * (i / 100)};
        tc_shape s = i % 3 == 0 ? tc_box(0.03, 0.02, 0.01) : i % 3 == 1 ? tc_sphere(0.02) : cmp;
        cr_assert_eq(tc_scene_add_free(sc, name, s, pos, NULL, 1000, &err), TC_OK, "%d: %s", i,
                     err.msg);
    }
    cr_assert_eq(sc->nbody, N + 1);
    cr_assert_eq(tc_scene_find(sc, "body999"), N);
    unsigned m = tc_scene_shapes(sc);
    cr_assert(m & TC_SHAPE_BIT(TC_SHAPE_COMPOUND) && m & TC_SHAPE_BIT(TC_SHAPE_SPHERE));
    /* the system: 7 coordinates and 6 velocities per free body, in scene order */
    tc_system sys;
    tc_system_init(&sys, sc);
    cr_assert_eq(sys.nq, 7 * N);
    cr_assert_eq(sys.nv, 6 * N);
    cr_assert_eq(sys.qadr[0], -1);
    cr_assert_eq(sys.qadr[N], 7 * (N - 1));
    cr_assert_eq(sys.vadr[N], 6 * (N - 1));
    double *q = malloc(7 * N * sizeof *q), *v = malloc(6 * N * sizeof *v);
    tc_body_state *bs = malloc((N + 1) * sizeof *bs);
    cr_assert(q && v && bs);
    tc_system_initial_state(&sys, q, v);
    tc_system_kinematics(&sys, 0, q, v, bs);
    for (int i = 1; i <= N; i++)
        for (int k = 0; k < 3; k++)
            cr_assert_eq(bs[i].pos[k], sc->body[i].pos[k], "body %d", i);
    /* the pairs (every pair but none of two fixed bodies) go on the heap */
    int *pairs = malloc((size_t)(N + 1) * N * sizeof *pairs);
    cr_assert_not_null(pairs);
    cr_assert_eq(tc_scene_pairs(sc, pairs), (N + 1) * N / 2);
    free(pairs);
    free(q);
    free(v);
    free(bs);
    /* filled up to TC_SCENE_MAXBODY, then refused naming the bodies */
    while (sc->nbody < TC_SCENE_MAXBODY) {
        const double pos[3] = {0, 0, 2 + 0.1 * sc->nbody};
        cr_assert_eq(tc_scene_add_free(sc, "more", tc_sphere(0.01), pos, NULL, 1000, &err), TC_OK);
    }
    const double pos[3] = {0, 0, -5};
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_add_free(sc, "one too many", tc_sphere(0.01), pos, NULL, 1000, &err),
                 TC_EINVAL);
    cr_assert_str_eq(err.param, "bodies");
    free(sc);
}

Test(scenes, a_pile_holds_up_to_1019_bodies_besides_the_ground_and_walls) {
    tc_scene *sc = malloc(sizeof *sc);
    cr_assert_not_null(sc);
    tc_pile p = tc_default_pile();
    p.bodies = 1000;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_pile(sc, &p, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(sc->nbody, 1005);
    p.bodies = TC_SCENE_MAXBODY - 5;
    cr_assert_eq(tc_scene_pile(sc, &p, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(sc->nbody, TC_SCENE_MAXBODY);
    p.bodies = TC_SCENE_MAXBODY - 4;
    tc_error_clear(&err);
    cr_assert_eq(tc_scene_pile(sc, &p, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "bodies");
    free(sc);
}
