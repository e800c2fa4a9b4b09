/* SPDX-License-Identifier: MIT */
/* E8's scene (a square box in the 2-D world), the landscapes' initial states and the smoothness
 * measures of a gradient profile */
#include "experiments/e8/e8.h"
#include "math/tc_profile.h"
#include "scenes/tc_scenes.h"

#include <math.h>
#include <stdlib.h>

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
        q[0] = 0, q[1] = b->half + x0, q[2] = 0;
        v[0] = w->vx, v[1] = 0, v[2] = 0;
        dx0[1] = 1;
        return;
    }
    /* turned by x0 on its lowest corner, at rest: the centre's height follows the angle */
    q[0] = 0, q[1] = e8_lowest(b->half, x0), q[2] = x0;
    v[0] = v[1] = v[2] = 0;
    dx0[1] = b->half * ((cos(x0) >= 0 ? 1 : -1) * -sin(x0) + (sin(x0) >= 0 ? 1 : -1) * cos(x0));
    dx0[2] = 1;
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
    for (int i = 0; i < n && nc < 512; i += 2)
        xc[nc] = x[i], gc[nc++] = g[i];
    if (n < 5) return NAN;
    return tc_jump_ratio(xc, gc, nc, x, g, n, 2 * (x[1] - x[0]), 1, 0, INFINITY);
}
