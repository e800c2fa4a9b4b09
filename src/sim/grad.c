/* SPDX-License-Identifier: MIT */
/* gradients through contact: the one-step map's Jacobians, from the method's own derivatives
 * (engine jacobian, solver step_jacobian) or by central differences of tc_sim_step on a scratch
 * simulation */
#include "sim/tc_grad.h"
#include "sim/sim_private.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct tc_grad {
    tc_sim *sim, *scr; /* the caller's simulation (never changed) and the scratch one */
    tc_grad_settings set;
    int analytic;        /* 1: the method's own Jacobians */
    int nv, nx, memory;  /* memory: the model has step_begin (made anew before each step) */
    double *qn, *vn;     /* nq, nv: the nominal step's end state */
    double *e;           /* nv: a unit tangent direction */
    double *yp, *ym;     /* nx: the perturbed steps' ends less the nominal one */
    double *d1, *d2;     /* nx: the difference quotients at h and h / 2 */
    int *dof_body, *dof; /* nv: each generalised dof's body and its index in the body */
    long long steps;     /* steps the last tc_grad_step took */
};

/* the solver's Jacobians apply: it has them, the model has what they need, and no memory */
static int solver_gradient(const tc_method *m) {
    const tc_solver_type *s = m->solver;
    if (!s || !s->step_jacobian || m->model->step_begin) return 0;
    if ((m->model->caps & s->jacobian_needs) != s->jacobian_needs) return 0;
    return !(s->jacobian_needs & TC_CAP_GRADIENT) || m->model->force_jacobian != NULL;
}

int tc_method_has_gradient(const tc_method *m) {
    return m->engine ? m->engine->jacobian != NULL : solver_gradient(m);
}

const char *tc_method_gradient(const tc_method *m) {
    if (!tc_method_has_gradient(m)) return "central differences";
    if (m->engine)
        return strcmp(m->engine->name, "mujoco") ? "engine (its own derivatives)"
                                                 : "engine (mjd_transitionFD)";
    return m->solver->jacobian_needs & TC_CAP_GRADIENT ? "analytic (force derivatives)"
                                                       : "analytic (implicit function theorem)";
}

tc_grad_settings tc_default_grad_settings(void) {
    return (tc_grad_settings){.mode = TC_GRAD_AUTO, .fd_step = 1e-6, .richardson = 1};
}

void tc_grad_free(tc_grad *g) {
    if (!g) return;
    tc_sim_free(g->scr);
    free(g->qn);
    free(g->vn);
    free(g->e);
    free(g->yp);
    free(g->ym);
    free(g->d1);
    free(g->d2);
    free(g->dof_body);
    free(g->dof);
    free(g);
}

tc_status tc_grad_alloc(tc_grad **out, tc_sim *sim, const tc_grad_settings *set, tc_error *err) {
    *out = NULL;
    tc_grad_settings d = tc_default_grad_settings();
    if (!set) set = &d;
    const tc_method *m = &sim->m;
    /* the settings, each error naming its own */
    if (!(set->fd_step > 0) || !isfinite(set->fd_step))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "fd_step",
                            "fd_step, the central-difference step, must be finite and > 0 (got %g)",
                            set->fd_step);
    if (set->richardson != 0 && set->richardson != 1)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "richardson", "must be 0 or 1 (got %d)",
                            set->richardson);
    if (set->mode != TC_GRAD_AUTO && set->mode != TC_GRAD_ANALYTIC && set->mode != TC_GRAD_FD)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "mode", "unknown gradient mode %d",
                            (int)set->mode);
    if (set->mode == TC_GRAD_ANALYTIC && !tc_method_has_gradient(m))
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "mode",
                            "TC_GRAD_ANALYTIC: method '%s' has no analytic Jacobians (%s); use "
                            "TC_GRAD_AUTO or TC_GRAD_FD for central differences",
                            m->spec,
                            m->engine ? "its engine has no jacobian hook"
                            : m->model->step_begin
                                ? "its model has memory between steps"
                                : "its solver has no step_jacobian or its model no force_jacobian");
    tc_grad *g = calloc(1, sizeof *g);
    if (!g) return TC_ENOMEM;
    g->sim = sim;
    g->set = *set;
    g->analytic = set->mode != TC_GRAD_FD && tc_method_has_gradient(m);
    g->memory = !m->engine && m->model->step_begin != NULL;
    g->nv = sim->sys.nv;
    g->nx = 2 * g->nv;
    size_t nv = (size_t)g->nv + 1, nx = (size_t)g->nx + 1;
    g->qn = calloc((size_t)sim->sys.nq + 1, sizeof *g->qn);
    g->vn = calloc(nv, sizeof *g->vn);
    g->e = calloc(nv, sizeof *g->e);
    g->yp = calloc(nx, sizeof *g->yp);
    g->ym = calloc(nx, sizeof *g->ym);
    g->d1 = calloc(nx, sizeof *g->d1);
    g->d2 = calloc(nx, sizeof *g->d2);
    g->dof_body = calloc(nv, sizeof *g->dof_body);
    g->dof = calloc(nv, sizeof *g->dof);
    if (!g->qn || !g->vn || !g->e || !g->yp || !g->ym || !g->d1 || !g->d2 || !g->dof_body ||
        !g->dof) {
        tc_grad_free(g);
        return TC_ENOMEM;
    }
    /* each generalised dof's body */
    for (int i = 0; i < sim->scene->nbody; i++) {
        if (sim->sys.vadr[i] < 0) continue;
        int n = sim->scene->body[i].joint == TC_JOINT_PLANAR ? 3 : 6;
        for (int k = 0; k < n; k++) {
            g->dof_body[sim->sys.vadr[i] + k] = i;
            g->dof[sim->sys.vadr[i] + k] = k;
        }
    }
    /* the scratch simulation: every perturbed (or analytic) step is taken there */
    tc_status st = tc_sim_alloc(&g->scr, sim->scene, m, sim->dt, err);
    if (!st && g->analytic) st = tc_sim_reserve_jacobian(g->scr);
    if (st) {
        tc_grad_free(g);
        return st;
    }
    *out = g;
    return TC_OK;
}

int tc_grad_nx(const tc_grad *g) {
    return g->nx;
}

long long tc_grad_steps_taken(const tc_grad *g) {
    return g->steps;
}

/* the scratch simulation at the caller's state (q, v, servo targets, time, applied wrenches),
 * a model with memory made anew */
static tc_status load(tc_grad *g, tc_error *err) {
    tc_sim_copy_state(g->scr, g->sim);
    memcpy(g->scr->xfrc, g->sim->xfrc, (size_t)g->sim->scene->nbody * sizeof *g->scr->xfrc);
    return g->memory ? tc_sim_reset_model(g->scr, err) : TC_OK;
}

/* the input a column perturbs in simulation c: u's tau in v's layout as the body's applied
 * wrench (free bodies force then torque, planar bodies fx, fy, torque z), ctrl as the servo
 * target */
static double *input(const tc_grad *g, tc_sim *c, int k, int is_ctrl) {
    if (is_ctrl) return c->ctrl + k;
    tc_wrench *w = &c->xfrc[g->dof_body[k]];
    int l = g->dof[k];
    if (c->scene->body[g->dof_body[k]].joint == TC_JOINT_PLANAR) return l < 2 ? w->f + l : w->t + 2;
    return l < 3 ? w->f + l : w->t + l - 3;
}

/* one perturbed step: column j of (x, u) moved by s, the end state less the nominal end into y */
static tc_status perturbed(tc_grad *g, int j, double s, double *y, tc_error *err) {
    tc_status st = load(g, err);
    if (st) return st;
    const int nv = g->nv;
    tc_sim *c = g->scr;
    if (j < nv) {
        g->e[j] = 1;
        tc_system_retract(&c->sys, c->q, g->e, s);
        g->e[j] = 0;
    } else if (j < 2 * nv) {
        c->v[j - nv] += s;
    } else {
        *input(g, c, j % nv, j >= 3 * nv) += s;
    }
    st = tc_sim_step(c);
    g->steps++;
    if (st)
        return tc_error_set(err, st, NULL, 0, NULL,
                            "the step perturbed along column %d by %g failed: %s", j, s,
                            tc_status_str(st));
    tc_system_difference(&c->sys, c->q, g->qn, y);
    for (int k = 0; k < nv; k++)
        y[nv + k] = c->v[k] - g->vn[k];
    return TC_OK;
}

/* the central difference quotient of column j at step h into d */
static tc_status central(tc_grad *g, int j, double h, double *d, tc_error *err) {
    tc_status st = perturbed(g, j, h, g->yp, err);
    if (!st) st = perturbed(g, j, -h, g->ym, err);
    for (int r = 0; !st && r < g->nx; r++)
        d[r] = (g->yp[r] - g->ym[r]) / (2 * h);
    return st;
}

/* the size of coordinate j of (x, u) in simulation s (q, v or the nominal end state qn, vn),
 * which scales its step and its rounding: positions, velocities, the applied wrench and servo
 * target (rotations: 0) */
static double magnitude(const tc_grad *g, tc_sim *s, const double *q, const double *v, int j) {
    const int nv = g->nv;
    if (j >= 2 * nv) return fabs(*input(g, s, j % nv, j >= 3 * nv));
    if (j >= nv) return fabs(v[j - nv]);
    int b = g->dof_body[j], l = g->dof[j];
    if (s->scene->body[b].joint == TC_JOINT_FREE && l >= 3) return 0;
    return fabs(q[s->sys.qadr[b] + l]);
}

/* a column of dofs without a servo: no servo target reaches the dynamics */
static int no_servo(const tc_grad *g, int j) {
    if (j < 3 * g->nv) return 0;
    const tc_body_desc *b = &g->sim->scene->body[g->dof_body[j % g->nv]];
    return b->joint != TC_JOINT_PLANAR || b->kp[g->dof[j % g->nv]] == 0;
}

tc_status tc_grad_step(tc_grad *g, double *A, double *B, double *err_est, tc_error *err) {
    tc_sim *s = g->sim;
    const int nv = g->nv, nx = g->nx;
    const size_t nn = (size_t)nx * (size_t)nx;
    g->steps = 0;
    /* the state's quaternions must be unit: the tangent coordinates are about rotations */
    for (int i = 0; i < s->scene->nbody; i++) {
        if (s->sys.qadr[i] < 0 || s->scene->body[i].joint != TC_JOINT_FREE) continue;
        const double *u = s->q + s->sys.qadr[i] + 3;
        double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3]);
        if (!(fabs(n - 1) <= 1e-9))
            return tc_error_set(err, TC_EINVAL, NULL, 0, s->scene->body[i].name,
                                "body '%s': quaternion of norm %.17g in the state (|q| - 1 must be "
                                "<= 1e-9; tc_system_normalize_q)",
                                s->scene->body[i].name, n);
    }
    tc_status st = load(g, err);
    if (st) return st;
    tc_sim *c = g->scr;
    /* the method's own Jacobians, on the scratch simulation */
    if (g->analytic) {
        if (s->m.engine)
            st = s->m.engine->jacobian(c->estate, c->ctrl, c->xfrc, c->q, c->v, A, B);
        else
            st = s->m.solver->step_jacobian(c->sstate, &c->ode, c->t, c->dt, c->q, c->v, A, B);
        g->steps = 1;
        if (st)
            return tc_error_set(err, st, NULL, 0, NULL, "the analytic Jacobians of '%s' failed: %s",
                                s->m.spec, tc_status_str(st));
        if (err_est) memset(err_est, 0, 2 * nn * sizeof *err_est);
        return TC_OK;
    }
    /* central differences about the nominal step */
    st = tc_sim_step(c);
    g->steps = 1;
    if (st)
        return tc_error_set(err, st, NULL, 0, NULL, "the nominal step of '%s' failed: %s",
                            s->m.spec, tc_status_str(st));
    memcpy(g->qn, c->q, (size_t)s->sys.nq * sizeof *g->qn);
    memcpy(g->vn, c->v, (size_t)nv * sizeof *g->vn);
    for (int j = 0; j < 2 * nx; j++) {
        double *M = j < nx ? A : B, *E = err_est ? err_est + (j < nx ? 0 : nn) : NULL;
        const int col = j % nx;
        if (no_servo(g, j)) {
            for (int r = 0; r < nx; r++) {
                M[(size_t)r * nx + col] = 0;
                if (E) E[(size_t)r * nx + col] = 0;
            }
            continue;
        }
        const double h = g->set.fd_step * fmax(1, magnitude(g, s, s->q, s->v, j));
        if ((st = central(g, j, h, g->d1, err))) return st;
        if (g->set.richardson && (st = central(g, j, 0.5 * h, g->d2, err))) return st;
        for (int r = 0; r < nx; r++) {
            /* Richardson: (4 D(h/2) - D(h)) / 3, its error |D(h/2) - D(h)| plus rounding */
            double scale = fmax(1, magnitude(g, s, g->qn, g->vn, r));
            double round = 8 * DBL_EPSILON * scale / (g->set.richardson ? 0.5 * h : h);
            if (g->set.richardson) {
                M[(size_t)r * nx + col] = (4 * g->d2[r] - g->d1[r]) / 3;
                if (E) E[(size_t)r * nx + col] = fabs(g->d2[r] - g->d1[r]) + round;
            } else {
                M[(size_t)r * nx + col] = g->d1[r];
                if (E) E[(size_t)r * nx + col] = NAN;
            }
        }
    }
    return TC_OK;
}
