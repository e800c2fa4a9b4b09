/* SPDX-License-Identifier: MIT */
/* a picture of an experiment's scene: every body's outline projected onto two world axes (an
 * orthographic view drawn from touche's own geometry), for the reader who never sees the scene */
#include "exp/tc_experiment.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collide/tc_penetration.h"
#include "core/tc_fs.h"
#include "math/tc_vec.h"

#define OUTLINE_POINTS 72 /* directions an outline is sampled in */

/* the support point of one convex piece (body frame), an ellipsoid's by its closed form */
static void support(const tc_shape *s, const double d[3], double out[3]) {
    if (s->type != TC_SHAPE_ELLIPSOID) {
        tc_shape_support(s, d, out);
        return;
    }
    double ad[3], n = 0;
    for (int k = 0; k < 3; k++) {
        ad[k] = s->size[k] * d[k];
        n += ad[k] * ad[k];
    }
    n = n > 0 ? sqrt(n) : 1;
    for (int k = 0; k < 3; k++)
        out[k] = s->size[k] * ad[k] / n;
}

/* the outline of one convex piece (offset in the body frame) of body b, as a closed polygon in
 * the view's axes (ia horizontal, ib vertical) */
static void outline(FILE *f, const tc_body_desc *b, const tc_shape *piece, const double off[3],
                    int ia, int ib) {
    double R[9];
    tc_quat_to_mat(R, b->quat);
    for (int k = 0; k <= OUTLINE_POINTS; k++) {
        double th = 2 * M_PI * k / OUTLINE_POINTS, dw[3] = {0, 0, 0}, db[3], p[3], w[3];
        dw[ia] = cos(th);
        dw[ib] = sin(th);
        /* the world direction in the body frame (R^T dw), the farthest point, back to the world */
        for (int r = 0; r < 3; r++)
            db[r] = R[r] * dw[0] + R[3 + r] * dw[1] + R[6 + r] * dw[2];
        support(piece, db, p);
        for (int r = 0; r < 3; r++)
            p[r] += off[r];
        for (int r = 0; r < 3; r++)
            w[r] = b->pos[r] + R[3 * r] * p[0] + R[3 * r + 1] * p[1] + R[3 * r + 2] * p[2];
        fprintf(f, "%.6g %.6g %d\n", w[ia], w[ib], b->joint == TC_JOINT_FIXED);
    }
    fputs("\n\n", f);
}

/* a plane whose normal is the view's vertical axis: a ground line at its height */
static void ground(FILE *f, const tc_body_desc *b, int ia, int ib, double lo, double hi) {
    double R[9];
    tc_quat_to_mat(R, b->quat);
    /* the plane's normal is the body's z axis (R's third column) */
    if (fabs(R[3 * ib + 2]) < 0.999) return;
    fprintf(f, "%.6g %.6g 1\n%.6g %.6g 1\n\n\n", lo, b->pos[ib], hi, b->pos[ib]);
    (void)ia;
}

void tc_exp_scene_figure(tc_exp *x, const tc_scene *sc, const char *view, const char *base,
                         const char *caption) {
    int ia = view[0] - 'x', ib = view[1] - 'x';
    char name[128];
    snprintf(name, sizeof name, "%s.dat", base);
    tc_outfile o;
    tc_error err;
    tc_error_clear(&err);
    if (tc_exp_open(x, name, &o, &err)) {
        tc_exp_warn(x, "scene picture %s not drawn: %s", base, err.msg);
        return;
    }
    fprintf(o.f, "# %s: outlines of every body in the %c-%c plane (m): a, b, fixed (1) or not\n",
            base, 'x' + ia, 'x' + ib);
    /* the bodies' extent along the horizontal axis, for the ground line */
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < sc->nbody; i++)
        if (sc->body[i].shape.type != TC_SHAPE_PLANE) {
            lo = fmin(lo, sc->body[i].pos[ia] - 0.5);
            hi = fmax(hi, sc->body[i].pos[ia] + 0.5);
        }
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        const double none[3] = {0, 0, 0};
        if (b->shape.type == TC_SHAPE_PLANE) {
            ground(o.f, b, ia, ib, isfinite(lo) ? lo : -1, isfinite(hi) ? hi : 1);
        } else if (b->shape.type == TC_SHAPE_COMPOUND) {
            /* each part on its own: the union is not convex (the T) */
            for (int p = 0; p < b->shape.npart; p++) {
                tc_shape part = {.type = b->shape.part[p].type};
                memcpy(part.size, b->shape.part[p].size, sizeof part.size);
                outline(o.f, b, &part, b->shape.part[p].pos, ia, ib);
            }
        } else {
            outline(o.f, b, &b->shape, none, ia, ib);
        }
    }
    if (tc_outfile_commit(&o, &err)) {
        tc_exp_warn(x, "scene picture %s not drawn: %s", base, err.msg);
        return;
    }
    char data[1200], axes[8];
    tc_exp_path(x, name, data, sizeof data);
    snprintf(axes, sizeof axes, "%c %c", 'x' + ia, 'x' + ib);
    const tc_plot_var v[] = {{"datafile", data}, {"axes", axes}};
    tc_exp_figure(x, "plots/scene.gp", v, 2, base, caption);
}
