/* SPDX-License-Identifier: MIT */
/* explicit and semi-implicit (symplectic) Euler: the two first-order integrators */
#include "solvers/tc_solver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tc_param_spec no_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

typedef struct euler_state {
    int nv;
    double a[]; /* accelerations, nv, then nv scratch (step_jac's old velocities) */
} euler_state;

static tc_status euler_alloc(void **state, const tc_system *sys, const tc_params *p,
                             tc_error *err) {
    (void)p, (void)err;
    euler_state *s = calloc(1, sizeof *s + (size_t)(2 * sys->nv + 1) * sizeof(double));
    if (!s) return TC_ENOMEM;
    s->nv = sys->nv;
    *state = s;
    return TC_OK;
}

/* one step; semi = 1 updates positions with the new velocities */
static tc_status step(euler_state *s, const tc_ode *ode, double t, double dt, double *q, double *v,
                      int semi) {
    tc_status st = ode->accel(ode->ctx, t, q, v, s->a);
    if (st) return st;
    if (!semi) tc_system_integrate_q(ode->sys, q, v, dt);
    for (int i = 0; i < s->nv; i++)
        v[i] += dt * s->a[i];
    if (semi) tc_system_integrate_q(ode->sys, q, v, dt);
    return TC_OK;
}

static tc_status euler_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                            double *v) {
    return step(state, ode, t, dt, q, v, 0);
}

static tc_status semi_euler_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                                 double *v) {
    return step(state, ode, t, dt, q, v, 1);
}

/* the tangent map of q <- q [+] h v at one body's rotation phi = h w: P = exp([phi]x) carries a
 * rotation perturbation through, J = the SO(3) left Jacobian of phi takes dphi to it */
static void rotation_maps(const double phi[3], double P[9], double J[9]) {
    const double a = tc_v3_norm(phi), a2 = a * a;
    const double K[9] = {0, -phi[2], phi[1], phi[2], 0, -phi[0], -phi[1], phi[0], 0};
    double K2[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            K2[3 * i + j] = K[3 * i] * K[j] + K[3 * i + 1] * K[3 + j] + K[3 * i + 2] * K[6 + j];
    /* exp: I + sin a / a K + (1 - cos a) / a^2 K^2; J: I + (1 - cos a) / a^2 K + (a - sin a) /
     * a^3 K^2 (series below 1e-4 rad) */
    const int small = a < 1e-4;
    const double s1 = small ? 1 - a2 / 6 : sin(a) / a;
    const double c1 = small ? 0.5 - a2 / 24 : (1 - cos(a)) / a2;
    const double c2 = small ? 1.0 / 6 - a2 / 120 : (a - sin(a)) / (a2 * a);
    for (int k = 0; k < 9; k++) {
        P[k] = s1 * K[k] + c1 * K2[k] + (k % 4 == 0);
        J[k] = c1 * K[k] + c2 * K2[k] + (k % 4 == 0);
    }
}

/* the step with its Jacobians, x = (dq, v), u = (tau, ctrl): the ode's accel_jacobian gives
 * a's derivatives into A's and B's top halves (scratch), then v+ = v + h a(q, v, u) fills the
 * bottom halves and q+ = q [+] h w (w = v+ semi-implicit, v explicit) the top ones */
static tc_status step_jac(euler_state *s, const tc_ode *ode, double t, double dt, double *q,
                          double *v, double *A, double *B, int semi) {
    if (!ode->accel_jacobian) return TC_EUNSUP;
    const int nv = s->nv, nx = 2 * nv;
    const size_t n2 = (size_t)nv * (size_t)nv;
    double *aq = A, *av = A + n2, *atau = B, *actrl = B + n2;
    tc_status st = ode->accel_jacobian(ode->ctx, t, q, v, s->a, aq, av, atau, actrl);
    if (st) return st;
    /* bottom halves: dv+ / d(dq, v, tau, ctrl) = (h aq, I + h av, h atau, h actrl) */
    for (int r = 0; r < nv; r++) {
        double *Ar = A + (size_t)(nv + r) * nx, *Br = B + (size_t)(nv + r) * nx;
        for (int c = 0; c < nv; c++) {
            Ar[c] = dt * aq[(size_t)r * nv + c];
            Ar[nv + c] = dt * av[(size_t)r * nv + c] + (r == c);
            Br[c] = dt * atau[(size_t)r * nv + c];
            Br[nv + c] = dt * actrl[(size_t)r * nv + c];
        }
    }
    /* the step itself, as step() takes it */
    double *w = semi ? NULL : s->a + nv; /* the velocities q moves with, explicit: the old v */
    if (!semi) memcpy(w, v, (size_t)nv * sizeof *w);
    for (int i = 0; i < nv; i++)
        v[i] += dt * s->a[i];
    if (semi) w = v;
    tc_system_integrate_q(ode->sys, q, w, dt);
    /* top halves: dq+ = P dq + H (semi: dv+ / dx, explicit: dv / dx = [0 I]) */
    const tc_system *sys = ode->sys;
    memset(A, 0, (size_t)nv * nx * sizeof *A);
    memset(B, 0, (size_t)nv * nx * sizeof *B);
    for (int i = 0; i < sys->scene->nbody; i++) {
        if (sys->vadr[i] < 0) continue;
        const int ri = sys->vadr[i];
        const int free = sys->scene->body[i].joint == TC_JOINT_FREE;
        double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, J[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        if (free) {
            double phi[3] = {dt * w[ri + 3], dt * w[ri + 4], dt * w[ri + 5]};
            rotation_maps(phi, P, J);
        }
        /* rows of the body's tangent: positions (and theta) h dv, rotations P dtheta + h J dw */
        for (int k = 0; k < (free ? 6 : 3); k++) {
            const int r = ri + k, rot = free && k >= 3;
            double *Ar = A + (size_t)r * nx, *Br = B + (size_t)r * nx;
            if (!rot) {
                Ar[r] = 1;
                if (semi)
                    for (int c = 0; c < nx; c++) {
                        Ar[c] += dt * A[(size_t)(nv + r) * nx + c];
                        Br[c] = dt * B[(size_t)(nv + r) * nx + c];
                    }
                else
                    Ar[nv + r] += dt;
                continue;
            }
            for (int m = 0; m < 3; m++) {
                const double p = P[3 * (k - 3) + m], j = dt * J[3 * (k - 3) + m];
                Ar[ri + 3 + m] += p;
                if (semi)
                    for (int c = 0; c < nx; c++) {
                        Ar[c] += j * A[(size_t)(nv + ri + 3 + m) * nx + c];
                        Br[c] += j * B[(size_t)(nv + ri + 3 + m) * nx + c];
                    }
                else
                    Ar[nv + ri + 3 + m] += j;
            }
        }
    }
    return TC_OK;
}

static tc_status euler_step_jacobian(void *state, const tc_ode *ode, double t, double dt, double *q,
                                     double *v, double *A, double *B) {
    return step_jac(state, ode, t, dt, q, v, A, B, 0);
}

static tc_status semi_euler_step_jacobian(void *state, const tc_ode *ode, double t, double dt,
                                          double *q, double *v, double *A, double *B) {
    return step_jac(state, ode, t, dt, q, v, A, B, 1);
}

static void euler_free(void *state) {
    free(state);
}

const tc_solver_type tc_solver_euler = {
    .name = "euler",
    .summary = "explicit Euler: q += h v, v += h a(q, v)",
    .params = no_params,
    .caps = TC_CAP_DYNAMICS,
    .alloc = euler_alloc,
    .step = euler_step,
    .free = euler_free,
    .step_jacobian = euler_step_jacobian,
    .jacobian_needs = TC_CAP_GRADIENT,
};

const tc_solver_type tc_solver_semi_euler = {
    .name = "semi-euler",
    .summary = "semi-implicit (symplectic) Euler: v += h a(q, v), then q += h v",
    .params = no_params,
    .caps = TC_CAP_DYNAMICS,
    .alloc = euler_alloc,
    .step = semi_euler_step,
    .free = euler_free,
    .step_jacobian = semi_euler_step_jacobian,
    .jacobian_needs = TC_CAP_GRADIENT,
};
