/* SPDX-License-Identifier: MIT */
/* E8's scene (a square box in the 2-D world), the landscapes' initial states and rollouts, and
 * the smoothness measures of a gradient profile */
#include "experiments/e8/e8.h"
#include "math/tc_profile.h"
#include "scenes/tc_scenes.h"
#include "sim/tc_grad.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* the script's box and scene groups, each read whole (no other setting in them) */
tc_status e8_read_box(const tc_script *sc, e8_box *b, tc_error *err) {
    static const tc_field box[] = {TC_FIELD_R(e8_box, half, "half", 1e-3, 10),
                                   TC_FIELD_R(e8_box, mass, "mass", 1e-6, 1e6), TC_FIELD_END};
    static const tc_field scene[] = {TC_FIELD_R(e8_box, gravity, "gravity", 0, 100),
                                     TC_FIELD_R(e8_box, friction, "friction", 0, 10),
                                     TC_FIELD_R(e8_box, thickness, "thickness", 1e-4, 10),
                                     TC_FIELD_END};
    tc_status st = tc_script_read(sc, "box", box, b, err);
    return st ? st : tc_script_read(sc, "scene", scene, b, err);
}

tc_status e8_scene(const e8_box *b, tc_scene *sc, tc_error *err) {
    /* the square A x <= b: rows +-x, +-y */
    const double A[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    const double bb[4] = {b->half, b->half, b->half, b->half};
    const double izz = b->mass * 4 * b->half * b->half / 6;
    tc_status st = tc_scene_ground_2d(sc, b->gravity, b->friction, err);
    if (!st)
        st = tc_scene_add_polygon(sc, "box", A, bb, 4, b->thickness, b->mass, izz, 0, b->half, 0,
                                  err);
    return st;
}

double e8_lowest(double half, double theta) {
    return half * (fabs(cos(theta)) + fabs(sin(theta)));
}

void e8_initial(const e8_box *b, int sweep, const e8_sweep *w, double x0, double q[3], double v[3],
                double dx0[6]) {
    for (int i = 0; i < 6; i++)
        dx0[i] = 0;
    if (sweep == E8_DROP) {
        /* lying flat, its bottom at x0, thrown sideways */
        q[0] = 0;
        q[1] = b->half + x0;
        q[2] = 0;
        v[0] = w->vx;
        v[1] = 0;
        v[2] = 0;
        dx0[1] = 1;
        return;
    }
    /* turned by x0 on its lowest corner, at rest: the centre's height follows the angle */
    q[0] = 0;
    q[1] = e8_lowest(b->half, x0);
    q[2] = x0;
    v[0] = v[1] = v[2] = 0;
    dx0[1] = b->half * ((cos(x0) >= 0 ? 1 : -1) * -sin(x0) + (sin(x0) >= 0 ? 1 : -1) * cos(x0));
    dx0[2] = 1;
}

tc_status e8_rollout(const tc_scene *sc, const e8_box *b, double dt, int sweep, const e8_sweep *w,
                     const tc_method *m, double x0, double *loss, double *dl, long long *steps,
                     long long *fails, tc_error *err) {
    tc_sim *sim = NULL;
    tc_grad *g = NULL;
    tc_status st = tc_sim_alloc(&sim, sc, m, dt, err);
    double q[3], v[3], dx[E8_NX], A[4 * E8_NX * E8_NX], B[4 * E8_NX * E8_NX], t[E8_NX];
    e8_initial(b, sweep, w, x0, q, v, dx);
    if (!st) {
        memcpy(tc_sim_q(sim), q, sizeof q);
        memcpy(tc_sim_v(sim), v, sizeof v);
    }
    if (!st && dl) {
        tc_grad_settings set = tc_default_grad_settings();
        set.mode = TC_GRAD_ANALYTIC;
        st = tc_grad_alloc(&g, sim, &set, err);
        if (!st && tc_grad_nx(g) != E8_NX)
            st = tc_error_set(err, TC_EINVAL, NULL, 0, NULL,
                              "the box has %d tangent states, not %d", tc_grad_nx(g), E8_NX);
    }
    long n = lround(w->seconds / dt);
    for (long k = 0; k < n && !st; k++) {
        /* the tangent carried through the step: dx <- A dx */
        if (g && !(st = tc_grad_step(g, A, B, NULL, err))) {
            for (int i = 0; i < E8_NX; i++) {
                t[i] = 0;
                for (int j = 0; j < E8_NX; j++)
                    t[i] += A[i * E8_NX + j] * dx[j];
            }
            memcpy(dx, t, sizeof dx);
        }
        if (!st) st = tc_sim_step(sim);
        if (!st) ++*steps;
    }
    if (st && sim && !err->msg[0]) {
        char warn[256] = "";
        tc_sim_warnings(sim, warn, sizeof warn);
        tc_error_set(err, st, NULL, 0, NULL, "%s",
                     warn[0] ? strtok(warn, "\n") : tc_status_str(st));
    }
    if (sim) *fails += tc_sim_get_stats(sim)->solver_fails;
    if (!st) *loss = tc_sim_q(sim)[0];
    if (!st && dl) *dl = dx[0];
    tc_grad_free(g);
    tc_sim_free(sim);
    return st;
}

double e8_total_variation(const double *g, int n) {
    double tv = 0;
    for (int i = 0; i + 1 < n; i++)
        tv += fabs(g[i + 1] - g[i]);
    return tv;
}

double e8_zero_fraction(const double *g, int n) {
    int z = 0;
    for (int i = 0; i < n; i++)
        z += g[i] == 0;
    return n > 0 ? (double)z / n : NAN;
}

double e8_grad_jump_ratio(const double *x, const double *g, int n) {
    /* the even points are the profile at twice the spacing */
    double xc[512], gc[512];
    int nc = 0;
    for (int i = 0; i < n && nc < 512; i += 2) {
        xc[nc] = x[i];
        gc[nc++] = g[i];
    }
    if (n < 5) return NAN;
    return tc_jump_ratio(xc, gc, nc, x, g, n, 2 * (x[1] - x[0]), 1, 0, INFINITY);
}
