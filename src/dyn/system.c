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
        const tc_body_desc *b = &scene->body[i];
        if (b->joint == TC_JOINT_FREE) {
            sys->qadr[i] = sys->nq;
            sys->vadr[i] = sys->nv;
            sys->nq += 7;
            sys->nv += 6;
        } else if (b->joint == TC_JOINT_PLANAR) {
            sys->qadr[i] = sys->nq;
            sys->vadr[i] = sys->nv;
            sys->nq += 3;
            sys->nv += 3;
            /* e_z . R0 diag(I) R0^T e_z: the body's inertia about the world vertical */
            double R0[9];
            tc_quat_to_mat(R0, b->quat);
            sys->izz[i] = b->inertia[0] * R0[6] * R0[6] + b->inertia[1] * R0[7] * R0[7] +
                          b->inertia[2] * R0[8] * R0[8];
        }
    }
}

void tc_system_initial_state(const tc_system *sys, double *q, double *v) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        const tc_body_desc *b = &sys->scene->body[i];
        if (sys->qadr[i] < 0) continue;
        double *qi = q + sys->qadr[i], *vi = v + sys->vadr[i];
        if (b->joint == TC_JOINT_PLANAR) {
            /* theta is measured from the scene orientation */
            qi[0] = b->pos[0];
            qi[1] = b->pos[1];
            qi[2] = 0;
            vi[0] = b->vel[0];
            vi[1] = b->vel[1];
            vi[2] = b->omega[2];
            continue;
        }
        memcpy(qi, b->pos, sizeof b->pos);
        memcpy(qi + 3, b->quat, sizeof b->quat);
        memcpy(vi, b->vel, sizeof b->vel);
        memcpy(vi + 3, b->omega, sizeof b->omega);
    }
}

void tc_system_kinematics(const tc_system *sys, double t, const double *q, const double *v,
                          tc_body_state *bs) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        const tc_body_desc *b = &sys->scene->body[i];
        tc_body_state *s = &bs[i];
        /* kinematic bodies: the path at t, the scene orientation, no spin */
        if (b->joint == TC_JOINT_KINEMATIC) {
            tc_body_path(b, t, s->pos, s->vel);
            if (!v) memset(s->vel, 0, sizeof s->vel);
            memcpy(s->quat, b->quat, sizeof s->quat);
            memset(s->omega, 0, sizeof s->omega);
        } else if (sys->qadr[i] < 0) {
            /* fixed bodies keep their scene pose and no twist */
            memcpy(s->pos, b->pos, sizeof s->pos);
            memcpy(s->quat, b->quat, sizeof s->quat);
            memset(s->vel, 0, sizeof s->vel);
            memset(s->omega, 0, sizeof s->omega);
        } else if (b->joint == TC_JOINT_PLANAR) {
            /* pose: (x, y, z0), rotation Rz(theta) R0; twist in the plane */
            const double *qi = q + sys->qadr[i], *vi = v ? v + sys->vadr[i] : NULL;
            double rz[4] = {cos(0.5 * qi[2]), 0, 0, sin(0.5 * qi[2])};
            tc_v3_set(s->pos, qi[0], qi[1], b->pos[2]);
            tc_quat_mul(s->quat, rz, b->quat);
            tc_v3_set(s->vel, vi ? vi[0] : 0, vi ? vi[1] : 0, 0);
            tc_v3_set(s->omega, 0, 0, vi ? vi[2] : 0);
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
    for (int k = 0; k < 3; k++)
        b[k] *= I[k];
    tc_m3_mulv(r, R, b);
}

/* world inverse inertia product: r = R diag(1/I) R^T a */
static void inertia_solve(double r[3], const double R[9], const double I[3], const double a[3]) {
    double b[3];
    tc_m3_mulvt(b, R, a);
    for (int k = 0; k < 3; k++)
        b[k] /= I[k];
    tc_m3_mulv(r, R, b);
}

void tc_system_accel(const tc_system *sys, const tc_body_state *bs, const tc_wrench *w,
                     const double *q, const double *v, const double *ctrl, double *vdot) {
    const tc_scene *sc = sys->scene;
    for (int i = 0; i < sc->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        const tc_body_state *s = &bs[i];
        const double *vi = v + sys->vadr[i];
        double *a = vdot + sys->vadr[i];
        if (b->joint == TC_JOINT_PLANAR) {
            /* generalized forces (F_x, F_y, tau_z), damping and servos, over (m, m, I_zz) */
            const double *qi = q + sys->qadr[i], *ci = ctrl ? ctrl + sys->vadr[i] : NULL;
            const double f[3] = {w ? w[i].f[0] : 0, w ? w[i].f[1] : 0, w ? w[i].t[2] : 0};
            const double m[3] = {b->mass, b->mass, sys->izz[i]};
            for (int k = 0; k < 3; k++) {
                double servo = b->kp[k] != 0 && ci ? b->kp[k] * (ci[k] - qi[k]) : 0;
                a[k] = (f[k] - b->damping[k] * vi[k] + servo) / m[k];
            }
            a[0] += sc->gravity[0];
            a[1] += sc->gravity[1];
            continue;
        }
        double Iw[3], tau[3];
        /* linear: gravity plus applied and damping forces over mass */
        for (int k = 0; k < 3; k++)
            a[k] = sc->gravity[k] + ((w ? w[i].f[k] : 0) - b->damping[k] * vi[k]) / b->mass;
        /* angular: I wdot = tau - w x I w */
        inertia_mul(Iw, s->R, b->inertia, s->omega);
        tc_v3_cross(tau, s->omega, Iw);
        for (int k = 0; k < 3; k++)
            tau[k] = (w ? w[i].t[k] : 0) - b->damping[3 + k] * vi[3 + k] - tau[k];
        inertia_solve(a + 3, s->R, b->inertia, tau);
    }
}

void tc_system_point_jacobian(const tc_system *sys, const tc_body_state *bs, int i,
                              const double p[3], const double d[3], double scale, double *row) {
    if (sys->vadr[i] < 0) return;
    double r[3], rxd[3];
    /* v_p . d = vel . d + (omega x r) . d = vel . d + omega . (r x d) */
    tc_v3_sub(r, p, bs[i].pos);
    tc_v3_cross(rxd, r, d);
    double *J = row + sys->vadr[i];
    if (sys->scene->body[i].joint == TC_JOINT_PLANAR) {
        J[0] += scale * d[0];
        J[1] += scale * d[1];
        J[2] += scale * rxd[2];
        return;
    }
    for (int k = 0; k < 3; k++) {
        J[k] += scale * d[k];
        J[3 + k] += scale * rxd[k];
    }
}

void tc_system_minv(const tc_system *sys, const tc_body_state *bs, double *x) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sys->scene->body[i];
        double *xi = x + sys->vadr[i];
        if (b->joint == TC_JOINT_PLANAR) {
            xi[0] /= b->mass;
            xi[1] /= b->mass;
            xi[2] /= sys->izz[i];
            continue;
        }
        double t[3] = {xi[3], xi[4], xi[5]};
        for (int k = 0; k < 3; k++)
            xi[k] /= b->mass;
        inertia_solve(xi + 3, bs[i].R, b->inertia, t);
    }
}

void tc_system_integrate_q(const tc_system *sys, double *q, const double *v, double dt) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->qadr[i] < 0) continue;
        double *qi = q + sys->qadr[i];
        const double *vi = v + sys->vadr[i];
        for (int k = 0; k < 3; k++)
            qi[k] += dt * vi[k];
        if (sys->scene->body[i].joint == TC_JOINT_FREE) tc_quat_integrate(qi + 3, vi + 3, dt);
    }
}

void tc_system_retract(const tc_system *sys, double *q, const double *dq, double scale) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->qadr[i] < 0) continue;
        double *qi = q + sys->qadr[i];
        const double *di = dq + sys->vadr[i];
        /* positions (and a planar body's theta) add */
        for (int k = 0; k < 3; k++)
            qi[k] += scale * di[k];
        if (sys->scene->body[i].joint != TC_JOINT_FREE) continue;
        /* rotations: quat <- exp(scale dtheta / 2) (x) quat, a world-frame rotation */
        double d[3] = {scale * di[3], scale * di[4], scale * di[5]};
        double a = tc_v3_norm(d);
        if (a == 0) continue;
        double s = sin(0.5 * a) / a, e[4] = {cos(0.5 * a), d[0] * s, d[1] * s, d[2] * s};
        tc_quat_mul(qi + 3, e, qi + 3);
        tc_quat_normalize(qi + 3);
    }
}

void tc_system_difference(const tc_system *sys, const double *q1, const double *q0, double *dq) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->qadr[i] < 0) continue;
        const double *a = q1 + sys->qadr[i], *b = q0 + sys->qadr[i];
        double *di = dq + sys->vadr[i];
        for (int k = 0; k < 3; k++)
            di[k] = a[k] - b[k];
        if (sys->scene->body[i].joint != TC_JOINT_FREE) continue;
        /* the rotation vector of q1 (x) conj(q0), taken on the short way round */
        double c[4] = {b[3], -b[4], -b[5], -b[6]}, e[4];
        tc_quat_mul(e, a + 3, c);
        if (e[0] < 0)
            for (int k = 0; k < 4; k++)
                e[k] = -e[k];
        double n = sqrt(e[1] * e[1] + e[2] * e[2] + e[3] * e[3]);
        double f = n > 0 ? 2 * atan2(n, e[0]) / n : 2 / e[0];
        for (int k = 0; k < 3; k++)
            di[3 + k] = f * e[1 + k];
    }
}

void tc_system_qdot(const tc_system *sys, const double *q, const double *v, double *qdot) {
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->qadr[i] < 0) continue;
        const double *qi = q + sys->qadr[i], *vi = v + sys->vadr[i];
        double *d = qdot + sys->qadr[i];
        for (int k = 0; k < 3; k++)
            d[k] = vi[k];
        if (sys->scene->body[i].joint != TC_JOINT_FREE) continue;
        /* quat' = [0, omega] (x) quat / 2 */
        double w[4] = {0, 0.5 * vi[3], 0.5 * vi[4], 0.5 * vi[5]};
        tc_quat_mul(d + 3, w, qi + 3);
    }
}

void tc_system_normalize_q(const tc_system *sys, double *q) {
    for (int i = 0; i < sys->scene->nbody; i++)
        if (sys->qadr[i] >= 0 && sys->scene->body[i].joint == TC_JOINT_FREE)
            tc_quat_normalize(q + sys->qadr[i] + 3);
}

double tc_system_kinetic(const tc_system *sys, const tc_body_state *bs) {
    const tc_scene *sc = sys->scene;
    double ke = 0;
    for (int i = 0; i < sc->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        /* 1/2 m v^2 + 1/2 w_b . I w_b with w_b the body-frame angular velocity */
        double wb[3];
        tc_m3_mulvt(wb, bs[i].R, bs[i].omega);
        ke += 0.5 * b->mass * tc_v3_dot(bs[i].vel, bs[i].vel);
        for (int k = 0; k < 3; k++)
            ke += 0.5 * b->inertia[k] * wb[k] * wb[k];
    }
    return ke;
}

double tc_system_energy(const tc_system *sys, const tc_body_state *bs) {
    const tc_scene *sc = sys->scene;
    double e = tc_system_kinetic(sys, bs);
    for (int i = 0; i < sc->nbody; i++)
        if (sys->vadr[i] >= 0) e -= sc->body[i].mass * tc_v3_dot(sc->gravity, bs[i].pos);
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

int tc_nonfinite(const double *x, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i])) return 1;
    return 0;
}
