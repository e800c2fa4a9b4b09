/* SPDX-License-Identifier: MIT */
/* rigid-body system: layout, kinematics, Newton–Euler accelerations, energy and momentum */
#include "dyn/tc_system.h"
#include "math/tc_vec.h"

#include <math.h>
#include <string.h>

void tc_system_init(tc_system *sys, const tc_scene *scene) {
    memset(sys, 0, sizeof *sys);
    sys->scene = scene;
    for (int i = 0; i < scene->nbody; i++) {
        sys->qadr[i] = sys->vadr[i] = -1;
        if (scene->body[i].joint == TC_JOINT_FREE) {
            sys->qadr[i] = sys->nq, sys->vadr[i] = sys->nv;
            sys->nq += 7, sys->nv += 6;
        }
    }
}

void tc_system_initial_state(const tc_system *sys, double *q, double *v) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        const tc_body_desc *b = &sys->scene->body[i];
        if (sys->qadr[i] < 0) continue;
        memcpy(q + sys->qadr[i], b->pos, sizeof b->pos);
        memcpy(q + sys->qadr[i] + 3, b->quat, sizeof b->quat);
        memcpy(v + sys->vadr[i], b->vel, sizeof b->vel);
        memcpy(v + sys->vadr[i] + 3, b->omega, sizeof b->omega);
    }
}

void tc_system_kinematics(const tc_system *sys, const double *q, const double *v,
                          tc_body_state *bs) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        const tc_body_desc *b = &sys->scene->body[i];
        tc_body_state *s = &bs[i];
        /* fixed bodies keep their scene pose and no twist */
        if (sys->qadr[i] < 0) {
            memcpy(s->pos, b->pos, sizeof s->pos);
            memcpy(s->quat, b->quat, sizeof s->quat);
            memset(s->vel, 0, sizeof s->vel);
            memset(s->omega, 0, sizeof s->omega);
        } else {
            memcpy(s->pos, q + sys->qadr[i], sizeof s->pos);
            memcpy(s->quat, q + sys->qadr[i] + 3, sizeof s->quat);
            if (v) {
                memcpy(s->vel, v + sys->vadr[i], sizeof s->vel);
                memcpy(s->omega, v + sys->vadr[i] + 3, sizeof s->omega);
            } else {
                memset(s->vel, 0, sizeof s->vel);
                memset(s->omega, 0, sizeof s->omega);
            }
        }
        tc_quat_to_mat(s->R, s->quat);
    }
}

/* world inertia product: r = R diag(I) R^T a */
static void inertia_mul(double r[3], const double R[9], const double I[3], const double a[3]) {
    double b[3];
    tc_m3_mulvt(b, R, a);
    for (int k = 0; k < 3; k++) b[k] *= I[k];
    tc_m3_mulv(r, R, b);
}

/* world inverse inertia product: r = R diag(1/I) R^T a */
static void inertia_solve(double r[3], const double R[9], const double I[3], const double a[3]) {
    double b[3];
    tc_m3_mulvt(b, R, a);
    for (int k = 0; k < 3; k++) b[k] /= I[k];
    tc_m3_mulv(r, R, b);
}

void tc_system_accel(const tc_system *sys, const tc_body_state *bs, const tc_wrench *w,
                     double *vdot) {
    const tc_scene *sc = sys->scene;
    for (int i = 0; i < sc->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        const tc_body_state *s = &bs[i];
        double *a = vdot + sys->vadr[i], Iw[3], tau[3];
        /* linear: gravity plus applied force over mass */
        for (int k = 0; k < 3; k++) a[k] = sc->gravity[k] + (w ? w[i].f[k] / b->mass : 0);
        /* angular: I wdot = tau - w x I w */
        inertia_mul(Iw, s->R, b->inertia, s->omega);
        tc_v3_cross(tau, s->omega, Iw);
        for (int k = 0; k < 3; k++) tau[k] = (w ? w[i].t[k] : 0) - tau[k];
        inertia_solve(a + 3, s->R, b->inertia, tau);
    }
}

void tc_system_integrate_q(const tc_system *sys, double *q, const double *v, double dt) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->qadr[i] < 0) continue;
        double *qi = q + sys->qadr[i];
        const double *vi = v + sys->vadr[i];
        for (int k = 0; k < 3; k++) qi[k] += dt * vi[k];
        tc_quat_integrate(qi + 3, vi + 3, dt);
    }
}

double tc_system_energy(const tc_system *sys, const tc_body_state *bs) {
    const tc_scene *sc = sys->scene;
    double e = 0;
    for (int i = 0; i < sc->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        double Iw[3];
        inertia_mul(Iw, bs[i].R, b->inertia, bs[i].omega);
        e += 0.5 * b->mass * tc_v3_dot(bs[i].vel, bs[i].vel) + 0.5 * tc_v3_dot(bs[i].omega, Iw);
        e -= b->mass * tc_v3_dot(sc->gravity, bs[i].pos);
    }
    return e;
}

void tc_system_momentum(const tc_system *sys, const tc_body_state *bs, double lin[3],
                        double ang[3]) {
    const tc_scene *sc = sys->scene;
    memset(lin, 0, 3 * sizeof *lin);
    memset(ang, 0, 3 * sizeof *ang);
    for (int i = 0; i < sc->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        double p[3], Iw[3], rxp[3];
        tc_v3_scale(p, bs[i].vel, b->mass);
        tc_v3_add(lin, lin, p);
        inertia_mul(Iw, bs[i].R, b->inertia, bs[i].omega);
        tc_v3_cross(rxp, bs[i].pos, p);
        tc_v3_add(ang, ang, rxp);
        tc_v3_add(ang, ang, Iw);
    }
}

void tc_body_point_velocity(const tc_body_state *s, const double p[3], double v[3]) {
    double r[3];
    tc_v3_sub(r, p, s->pos);
    tc_v3_cross(v, s->omega, r);
    tc_v3_add(v, v, s->vel);
}

void tc_wrench_apply(tc_wrench *w, const tc_body_state *s, const double p[3], const double f[3],
                     double sign) {
    double r[3], t[3];
    tc_v3_sub(r, p, s->pos);
    tc_v3_cross(t, r, f);
    tc_v3_addscl(w->f, f, sign);
    tc_v3_addscl(w->t, t, sign);
}

int tc_nonfinite(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 1;
    return 0;
}
