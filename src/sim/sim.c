/* SPDX-License-Identifier: MIT */
/* simulations: a method's states on a scene, the state vectors and all scratch memory; the
 * state, energy, momentum and geometric measures drivers read */
#include "sim/sim_private.h"
#include "collide/tc_penetration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void track_step(tc_sim *s);

/* remember a warning line (truncated when the buffer is full) */
static void add_warning(tc_sim *s, const char *msg) {
    size_t l = strlen(s->warn);
    if (l + 2 < sizeof s->warn) snprintf(s->warn + l, sizeof s->warn - l, "%s\n", msg);
    s->nwarn++;
}

/* the model's wrenches; a model without a force law (contact points only) gives none */
static tc_status contact_force(tc_sim *s, const tc_body_state *bs, tc_wrench *w,
                               tc_contact_stats *cs) {
    const size_t nb = (size_t)s->scene->nbody;
    if (!s->m.model->force) {
        memset(w, 0, nb * sizeof *w);
        return TC_OK;
    }
    /* the residual tracker's evaluation at these very poses, once: a memoryless model's force
     * is a function of the poses and twists alone, so the bits are those it would compute */
    if (s->memo && !memcmp(bs, s->memo_bs, nb * sizeof *bs)) {
        s->memo = 0;
        memcpy(w, s->memo_w, nb * sizeof *w);
        cs->pair_evals += s->memo_cs.pair_evals;
        cs->ncontact = s->memo_cs.ncontact;
        return TC_OK;
    }
    return s->m.model->force(s->mstate, bs, w, cs);
}

/* the ODE of a force-level method: model wrenches into Newton–Euler accelerations; kinematic
 * bodies are posed at the solver's time t (RK4 stages, GSL substeps) */
static tc_status model_accel(void *ctx, double t, const double *q, const double *v, double *vdot) {
    tc_sim *s = ctx;
    tc_contact_stats cs = {0, 0};
    tc_system_kinematics(&s->sys, t, q, v, s->bs);
    tc_status st = contact_force(s, s->bs, s->w, &cs);
    if (st) return st;
    s->stats.force_evals++;
    s->stats.pair_evals += cs.pair_evals;
    s->stats.ncontact = cs.ncontact;
    for (int i = 0; i < s->scene->nbody; i++)
        for (int k = 0; k < 3; k++) {
            s->w[i].f[k] += s->xfrc[i].f[k];
            s->w[i].t[k] += s->xfrc[i].t[k];
        }
    tc_system_accel(&s->sys, s->bs, s->w, q, v, s->ctrl, vdot);
    return TC_OK;
}

/* 3x3 helpers for the derivatives: [a]x, r = a b, and a's columns as world-frame products */
static void skew(double m[9], const double a[3]) {
    const double k[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    memcpy(m, k, sizeof k);
}
static void m3_mul(double r[9], const double a[9], const double b[9]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* R diag(d) R^T */
static void m3_congruent(double r[9], const double R[9], const double d[3]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[3 * i + j] = R[3 * i] * d[0] * R[3 * j] + R[3 * i + 1] * d[1] * R[3 * j + 1] +
                           R[3 * i + 2] * d[2] * R[3 * j + 2];
}

/* the model's wrench columns of body j (tangent pose, twist) in its generalised coordinates:
 * free bodies all twelve, planar bodies x, y, rotation z and their rates */
static int body_columns(const tc_body_desc *b, int cq[6], int cv[6]) {
    static const int planar[6] = {0, 1, 5, 6, 7, 11};
    const int planar_joint = b->joint == TC_JOINT_PLANAR, n = planar_joint ? 3 : 6;
    for (int k = 0; k < n; k++) {
        cq[k] = planar_joint ? planar[k] : k;
        cv[k] = planar_joint ? planar[3 + k] : 6 + k;
    }
    return n;
}

/* vdot and its derivatives: the model's force_jacobian mapped to generalised tangent
 * coordinates, composed with tc_system_accel's own derivatives (world inertia, gyroscopic
 * torque, damping, servos) */
static tc_status model_accel_jacobian(void *ctx, double t, const double *q, const double *v,
                                      double *vdot, double *dq, double *dv, double *dtau,
                                      double *dctrl) {
    tc_sim *s = ctx;
    const tc_system *sys = &s->sys;
    const tc_scene *sc = s->scene;
    const int nb = sc->nbody, nv = sys->nv, ld = 12 * nb;
    tc_contact_stats cs = {0, 0};
    tc_system_kinematics(sys, t, q, v, s->bs);
    tc_status st = s->m.model->force_jacobian(s->mstate, s->bs, s->w, s->dw, &cs);
    if (st) return st;
    s->stats.force_evals++;
    s->stats.pair_evals += cs.pair_evals;
    s->stats.ncontact = cs.ncontact;
    for (int i = 0; i < nb; i++)
        for (int k = 0; k < 3; k++) {
            s->w[i].f[k] += s->xfrc[i].f[k];
            s->w[i].t[k] += s->xfrc[i].t[k];
        }
    tc_system_accel(sys, s->bs, s->w, q, v, s->ctrl, vdot);
    size_t n2 = (size_t)nv * (size_t)nv;
    memset(dq, 0, n2 * sizeof *dq);
    memset(dv, 0, n2 * sizeof *dv);
    memset(dtau, 0, n2 * sizeof *dtau);
    memset(dctrl, 0, n2 * sizeof *dctrl);
    for (int i = 0; i < nb; i++) {
        if (sys->vadr[i] < 0) continue;
        const tc_body_desc *b = &sc->body[i];
        const int ri = sys->vadr[i];
        if (b->joint == TC_JOINT_PLANAR) {
            /* (F_x, F_y, tau_z) over (m, m, I_zz), damping and servos on the diagonal */
            const int wrow[3] = {0, 1, 5};
            const double m[3] = {b->mass, b->mass, sys->izz[i]};
            for (int k = 0; k < 3; k++) {
                const int r = ri + k;
                const double *dwr = s->dw + (size_t)(6 * i + wrow[k]) * (size_t)ld;
                for (int j = 0; j < nb; j++) {
                    int cq[6], cv[6];
                    if (sys->vadr[j] < 0) continue;
                    int n = body_columns(&sc->body[j], cq, cv);
                    for (int l = 0; l < n; l++) {
                        dq[(size_t)r * nv + sys->vadr[j] + l] += dwr[12 * j + cq[l]] / m[k];
                        dv[(size_t)r * nv + sys->vadr[j] + l] += dwr[12 * j + cv[l]] / m[k];
                    }
                }
                dv[(size_t)r * nv + r] -= b->damping[k] / m[k];
                dtau[(size_t)r * nv + r] = 1 / m[k];
                if (b->kp[k] != 0) {
                    dq[(size_t)r * nv + r] -= b->kp[k] / m[k];
                    dctrl[(size_t)r * nv + r] = b->kp[k] / m[k];
                }
            }
            continue;
        }
        /* free body, linear rows: (F - c v) / m */
        for (int k = 0; k < 3; k++) {
            const int r = ri + k;
            const double *dwr = s->dw + (size_t)(6 * i + k) * (size_t)ld;
            for (int j = 0; j < nb; j++) {
                int cq[6], cv[6];
                if (sys->vadr[j] < 0) continue;
                int n = body_columns(&sc->body[j], cq, cv);
                for (int l = 0; l < n; l++) {
                    dq[(size_t)r * nv + sys->vadr[j] + l] += dwr[12 * j + cq[l]] / b->mass;
                    dv[(size_t)r * nv + sys->vadr[j] + l] += dwr[12 * j + cv[l]] / b->mass;
                }
            }
            dv[(size_t)r * nv + r] -= b->damping[k] / b->mass;
            dtau[(size_t)r * nv + r] = 1 / b->mass;
        }
        /* angular rows: alpha = Iw^-1 (T - C w - w x Iw w), Iw = R diag(I) R^T */
        const double *R = s->bs[i].R, *w = s->bs[i].omega, *al = vdot + ri + 3;
        const double inv[3] = {1 / b->inertia[0], 1 / b->inertia[1], 1 / b->inertia[2]};
        double Iw[9], Ii[9];
        m3_congruent(Iw, R, b->inertia);
        m3_congruent(Ii, R, inv);
        /* the model's torque columns, every body's: Iw^-1 dT */
        for (int j = 0; j < nb; j++) {
            int cq[6], cv[6];
            if (sys->vadr[j] < 0) continue;
            int n = body_columns(&sc->body[j], cq, cv);
            for (int l = 0; l < n; l++)
                for (int k = 0; k < 3; k++)
                    for (int m = 0; m < 3; m++) {
                        const double *dwr = s->dw + (size_t)(6 * i + 3 + m) * (size_t)ld;
                        size_t at = (size_t)(ri + 3 + k) * nv + sys->vadr[j] + l;
                        dq[at] += Ii[3 * k + m] * dwr[12 * j + cq[l]];
                        dv[at] += Ii[3 * k + m] * dwr[12 * j + cv[l]];
                    }
        }
        /* the body's own rotation: Iw^-1 [Iw alpha]x - [alpha]x + Iw^-1 ([w]x [Iw w]x -
         * [w]x Iw [w]x); its own spin: Iw^-1 ([Iw w]x - [w]x Iw - C) */
        double Iwa[3], Iww[3], S[9], Sw[9], Sa[9], Siww[9], T1[9], T2[9], Jr[9], Jw[9];
        tc_m3_mulv(Iwa, Iw, al);
        tc_m3_mulv(Iww, Iw, w);
        skew(Sw, w);
        skew(Sa, al);
        skew(Siww, Iww);
        skew(S, Iwa);
        m3_mul(T1, Sw, Siww); /* [w] [Iw w] */
        m3_mul(T2, Iw, Sw);   /* Iw [w] */
        m3_mul(Jw, Sw, T2);   /* [w] Iw [w] */
        for (int k = 0; k < 9; k++)
            Jr[k] = S[k] + T1[k] - Jw[k];
        m3_mul(T1, Ii, Jr);
        for (int k = 0; k < 9; k++)
            Jr[k] = T1[k] - Sa[k];
        m3_mul(T1, Sw, Iw); /* [w] Iw */
        for (int k = 0; k < 9; k++)
            Jw[k] = Siww[k] - T1[k];
        for (int k = 0; k < 3; k++)
            Jw[4 * k] -= b->damping[3 + k];
        m3_mul(T2, Ii, Jw);
        for (int k = 0; k < 3; k++)
            for (int m = 0; m < 3; m++) {
                size_t at = (size_t)(ri + 3 + k) * nv + ri + 3 + m;
                dq[at] += Jr[3 * k + m];
                dv[at] += T2[3 * k + m];
                dtau[at] = Ii[3 * k + m];
            }
    }
    return TC_OK;
}

/* the model's contact points at configuration q and time t (velocity-level solvers) */
static int model_contacts(void *ctx, double t, const double *q, tc_model_contact *c, int max) {
    tc_sim *s = ctx;
    tc_system_kinematics(&s->sys, t, q, NULL, s->bs);
    return s->m.model->contacts(s->mstate, s->bs, c, max);
}

tc_status tc_sim_alloc(tc_sim **out, const tc_scene *scene, const tc_method *m, double dt,
                       tc_error *err) {
    *out = NULL;
    if (!(dt > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "dt", "time step must be > 0 s (got %g)", dt);
    if (!tc_method_can_run(m, 0, tc_scene_shapes(scene)))
        return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL,
                            "method '%s' cannot handle the shapes of this scene", m->spec);
    tc_sim *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    s->m = *m;
    s->dt = dt;
    tc_system_init(&s->sys, s->scene);
    s->q = calloc((size_t)s->sys.nq + 1, sizeof *s->q);
    s->v = calloc((size_t)s->sys.nv + 1, sizeof *s->v);
    s->ctrl = calloc((size_t)s->sys.nv + 1, sizeof *s->ctrl);
    s->bs = calloc((size_t)scene->nbody + 1, sizeof *s->bs);
    s->w = calloc((size_t)scene->nbody + 1, sizeof *s->w);
    s->xfrc = calloc((size_t)scene->nbody + 1, sizeof *s->xfrc);
    if (!s->q || !s->v || !s->ctrl || !s->bs || !s->w || !s->xfrc) {
        tc_sim_free(s);
        return TC_ENOMEM;
    }
    tc_system_initial_state(&s->sys, s->q, s->v);
    /* servos start holding the initial configuration */
    for (int i = 0; i < scene->nbody; i++)
        if (s->sys.qadr[i] >= 0 && scene->body[i].joint == TC_JOINT_PLANAR)
            for (int k = 0; k < 3; k++)
                s->ctrl[s->sys.vadr[i] + k] = s->q[s->sys.qadr[i] + k];
    /* the method's own states */
    tc_status st = TC_OK;
    if (m->engine) {
        st = m->engine->alloc(&s->estate, s->scene, &m->eparams, dt, err);
    } else {
        st = m->model->alloc(&s->mstate, s->scene, &m->mparams, err);
        if (!st) st = m->solver->alloc(&s->sstate, &s->sys, &m->sparams, err);
        s->ode = (tc_ode){.sys = &s->sys,
                          .accel = model_accel,
                          .contacts = m->model->contacts ? model_contacts : NULL,
                          .ctx = s};
    }
    if (st) {
        tc_sim_free(s);
        return st;
    }
    tc_sim_dump_attach(s);
    *out = s;
    return TC_OK;
}

void tc_sim_free(tc_sim *s) {
    if (!s) return;
    if (s->estate) s->m.engine->free(s->estate);
    if (s->mstate) s->m.model->free(s->mstate);
    if (s->sstate) s->m.solver->free(s->sstate);
    free(s->q);
    free(s->v);
    free(s->ctrl);
    free(s->bs);
    free(s->w);
    free(s->xfrc);
    free(s->dw);
    free(s->imp);
    free(s->mf);
    free(s->bs_pre);
    free(s->rw);
    free(s->pairs);
    free(s->touch);
    free(s->pair_geo);
    free(s->memo_bs);
    free(s->memo_w);
    tc_sim_dump_detach(s);
    free(s);
}

tc_status tc_sim_force(tc_sim *s, const double *q, const double *v, tc_wrench *w) {
    if (s->m.engine) return s->m.engine->force(s->estate, q, v, w);
    tc_contact_stats cs = {0, 0};
    tc_system_kinematics(&s->sys, s->t, q, v, s->bs);
    tc_status st = contact_force(s, s->bs, w, &cs);
    s->stats.force_evals++;
    s->stats.pair_evals += cs.pair_evals;
    s->stats.ncontact = cs.ncontact;
    return st;
}

int tc_sim_contacts(tc_sim *s, tc_model_contact *c, int max) {
    if (s->m.engine || !s->m.model->contacts) return 0;
    return model_contacts(s, s->t, s->q, c, max);
}

tc_status tc_sim_step(tc_sim *s) {
    tc_status st = TC_OK;
    /* residual tracking: the step's start poses and twists */
    if (s->track) tc_system_kinematics(&s->sys, s->t, s->q, s->v, s->bs_pre);
    if (s->m.engine) {
        st = s->m.engine->step(s->estate, s->ctrl, s->xfrc, s->q, s->v);
        if (s->m.engine->ncontact) s->stats.ncontact = s->m.engine->ncontact(s->estate);
    } else {
        /* a model with memory sees the step's start state first (and may apply impulses) */
        if (s->m.model->step_begin) {
            tc_system_kinematics(&s->sys, s->t, s->q, s->v, s->bs);
            st = s->m.model->step_begin(s->mstate, &s->sys, s->bs, s->dt, s->v);
        }
        if (!st) st = s->m.solver->step(s->sstate, &s->ode, s->t, s->dt, s->q, s->v);
        /* a velocity-level solver's contacts are those it resolved */
        if (s->m.solver->impulses) s->stats.ncontact = s->m.solver->impulses(s->sstate, NULL, 0);
        long long fails = s->stats.solver_fails;
        if (s->m.solver->counters)
            s->m.solver->counters(s->sstate, &s->stats.solver_iters, &s->stats.solver_fails);
        /* the first failed inner solves in words, with their residuals */
        if (s->stats.solver_fails > fails && s->m.solver->failure && fails < TC_SIM_FAILURE_NOTES) {
            const char *why = s->m.solver->failure(s->sstate);
            if (why) add_warning(s, why);
            if (fails + 1 == TC_SIM_FAILURE_NOTES)
                add_warning(s, "(further failed solves counted, not listed)");
        }
    }
    s->t += s->dt;
    s->stats.steps++;
    /* --dump-problems: the chosen steps' friction-contact problems (sim/dump.c) */
    if (!st && s->dump) {
        char why[768];
        st = tc_sim_dump_step(s, why, sizeof why);
        if (st) add_warning(s, why);
    }
    if (st) {
        char msg[160];
        snprintf(msg, sizeof msg, "step failed at t = %g s: %s (%s)", s->t, tc_status_str(st),
                 s->m.spec);
        add_warning(s, msg);
        return st;
    }
    /* divergence: a non-finite state, or a body faster than any rigid-contact scene allows */
    char msg[192] = "";
    if (tc_nonfinite(s->q, s->sys.nq) || tc_nonfinite(s->v, s->sys.nv)) {
        snprintf(msg, sizeof msg, "diverged: non-finite state at t = %g s (step %lld)", s->t,
                 s->stats.steps);
    } else {
        tc_system_kinematics(&s->sys, s->t, s->q, s->v, s->bs);
        for (int i = 0; i < s->scene->nbody && !msg[0]; i++) {
            /* only bodies with degrees of freedom can diverge; kinematic ones follow their path */
            if (s->sys.vadr[i] < 0) continue;
            double v = sqrt(s->bs[i].vel[0] * s->bs[i].vel[0] + s->bs[i].vel[1] * s->bs[i].vel[1] +
                            s->bs[i].vel[2] * s->bs[i].vel[2]);
            double w =
                sqrt(s->bs[i].omega[0] * s->bs[i].omega[0] + s->bs[i].omega[1] * s->bs[i].omega[1] +
                     s->bs[i].omega[2] * s->bs[i].omega[2]);
            if (v > TC_SIM_MAX_SPEED || w > TC_SIM_MAX_SPIN)
                snprintf(msg, sizeof msg,
                         "diverged: body '%s' at %.3g m/s, %.3g rad/s (limits %g, %g) at t = %g s",
                         s->scene->body[i].name, v, w, TC_SIM_MAX_SPEED, TC_SIM_MAX_SPIN, s->t);
        }
    }
    if (msg[0]) {
        add_warning(s, msg);
        return TC_EDIVERGED;
    }
    /* s->bs holds the post-step poses and twists */
    if (s->track) track_step(s);
    return TC_OK;
}

double *tc_sim_q(tc_sim *s) {
    return s->q;
}
double *tc_sim_v(tc_sim *s) {
    return s->v;
}
double *tc_sim_ctrl(tc_sim *s) {
    return s->ctrl;
}
tc_wrench *tc_sim_xfrc(tc_sim *s) {
    return s->xfrc;
}
double tc_sim_time(const tc_sim *s) {
    return s->t;
}
const tc_system *tc_sim_system(const tc_sim *s) {
    return &s->sys;
}
const tc_sim_stats *tc_sim_get_stats(const tc_sim *s) {
    return &s->stats;
}

int tc_sim_warnings(tc_sim *s, char *buf, int n) {
    /* engine warnings are drained into the simulation's list first */
    if (s->m.engine && s->m.engine->warnings) {
        char eng[2048] = "";
        if (s->m.engine->warnings(s->estate, eng, (int)sizeof eng) > 0) {
            for (char *sv = NULL, *line = strtok_r(eng, "\n", &sv); line;
                 line = strtok_r(NULL, "\n", &sv))
                add_warning(s, line);
        }
    }
    snprintf(buf, (size_t)n, "%s", s->warn);
    return s->nwarn;
}

tc_status tc_sim_reserve_jacobian(tc_sim *s) {
    if (s->m.engine || !s->m.model->force_jacobian || s->dw) return TC_OK;
    size_t nb = (size_t)s->scene->nbody;
    s->dw = calloc(72 * nb * nb + 1, sizeof *s->dw);
    if (!s->dw) return TC_ENOMEM;
    s->ode.accel_jacobian = model_accel_jacobian;
    return TC_OK;
}

tc_status tc_sim_reset_model(tc_sim *s, tc_error *err) {
    if (s->m.engine) return TC_OK;
    s->m.model->free(s->mstate);
    s->mstate = NULL;
    return s->m.model->alloc(&s->mstate, s->scene, &s->m.mparams, err);
}

/* ---------- state ---------- */

const tc_scene *tc_sim_scene(const tc_sim *s) {
    return s->scene;
}

const tc_body_state *tc_sim_bodies(tc_sim *s) {
    tc_system_kinematics(&s->sys, s->t, s->q, s->v, s->bs);
    return s->bs;
}

int tc_sim_body_q(const tc_sim *s, int body, double *out) {
    if (body < 0 || body >= s->scene->nbody || s->sys.qadr[body] < 0) return 0;
    int n = s->scene->body[body].joint == TC_JOINT_PLANAR ? 3 : 7;
    memcpy(out, s->q + s->sys.qadr[body], (size_t)n * sizeof *out);
    return n;
}

tc_status tc_sim_set_position(tc_sim *s, int body, const double pos[3]) {
    if (body < 0 || body >= s->scene->nbody || s->sys.qadr[body] < 0) return TC_EINVAL;
    /* free bodies: q = (pos, quat); planar bodies: q = (x, y, theta) */
    int n = s->scene->body[body].joint == TC_JOINT_PLANAR ? 2 : 3;
    memcpy(s->q + s->sys.qadr[body], pos, (size_t)n * sizeof *pos);
    return TC_OK;
}

tc_status tc_sim_set_target(tc_sim *s, int body, int dof, double value) {
    if (body < 0 || body >= s->scene->nbody || s->sys.vadr[body] < 0 || dof < 0 ||
        dof >= (s->scene->body[body].joint == TC_JOINT_PLANAR ? 3 : 6))
        return TC_EINVAL;
    s->ctrl[s->sys.vadr[body] + dof] = value;
    return TC_OK;
}

tc_status tc_sim_copy_state(tc_sim *dst, const tc_sim *src) {
    if (dst->sys.nq != src->sys.nq || dst->sys.nv != src->sys.nv) return TC_EINVAL;
    memcpy(dst->q, src->q, (size_t)src->sys.nq * sizeof *dst->q);
    memcpy(dst->v, src->v, (size_t)src->sys.nv * sizeof *dst->v);
    memcpy(dst->ctrl, src->ctrl, (size_t)src->sys.nv * sizeof *dst->ctrl);
    dst->t = src->t;
    return TC_OK;
}

/* ---------- energy, momentum, geometry ---------- */

double tc_sim_kinetic_energy(tc_sim *s) {
    return tc_system_kinetic(&s->sys, tc_sim_bodies(s));
}

double tc_sim_energy(tc_sim *s) {
    return tc_system_energy(&s->sys, tc_sim_bodies(s));
}

void tc_sim_momentum(tc_sim *s, double lin[3], double ang[3]) {
    tc_system_momentum(&s->sys, tc_sim_bodies(s), lin, ang);
}

/* the largest depth between the shapes posed by bs, and how many pairs overlap */
static double penetration(const tc_scene *sc, const tc_body_state *bs, int *pairs) {
    double worst = 0;
    int n = 0;
    /* every pair with a moving body, by the shapes alone (libccd depths) */
    for (int a = 0; a < sc->nbody; a++)
        for (int b = a + 1; b < sc->nbody; b++) {
            if (sc->body[a].joint == TC_JOINT_FIXED && sc->body[b].joint == TC_JOINT_FIXED)
                continue;
            double d, nrm[3], p[3];
            if (tc_deepest(&sc->body[a].shape, &bs[a], &sc->body[b].shape, &bs[b], &d, nrm, p) ==
                1) {
                worst = fmax(worst, d);
                n++;
            }
        }
    if (pairs) *pairs = n;
    return worst;
}

double tc_sim_penetration(tc_sim *s, int *pairs) {
    return penetration(s->scene, tc_sim_bodies(s), pairs);
}

void tc_sim_measure(tc_sim *s, double *ke, double *pen, double lin[3]) {
    /* the poses once, for every measure asked for */
    const tc_body_state *bs = tc_sim_bodies(s);
    if (ke) *ke = tc_system_kinetic(&s->sys, bs);
    if (pen) *pen = penetration(s->scene, bs, NULL);
    if (lin) {
        double ang[3];
        tc_system_momentum(&s->sys, bs, lin, ang);
    }
}

double tc_sim_gap(tc_sim *s, int a, int b) {
    const tc_scene *sc = s->scene;
    if (a < 0 || b < 0 || a >= sc->nbody || b >= sc->nbody) return NAN;
    if (sc->body[a].shape.type == TC_SHAPE_SPHERE && sc->body[b].shape.type != TC_SHAPE_SPHERE) {
        int t = a;
        a = b;
        b = t;
    }
    const tc_body_state *bs = tc_sim_bodies(s);
    if (sc->body[b].shape.type == TC_SHAPE_SPHERE) {
        /* the sphere's centre in a's frame, its distance to a's surface, less the radius */
        double d[3], p[3], n[3];
        for (int k = 0; k < 3; k++)
            d[k] = bs[b].pos[k] - bs[a].pos[k];
        for (int k = 0; k < 3; k++)
            p[k] = bs[a].R[k] * d[0] + bs[a].R[3 + k] * d[1] + bs[a].R[6 + k] * d[2];
        return tc_shape_distance(&sc->body[a].shape, p, n) - sc->body[b].shape.size[0];
    }
    double depth, nrm[3], p[3];
    int r = tc_deepest(&sc->body[a].shape, &bs[a], &sc->body[b].shape, &bs[b], &depth, nrm, p);
    return r == 1 ? -depth : r == 0 ? 0.0 : NAN;
}

/* ---------- contact impulses ---------- */

tc_status tc_sim_reserve_impulses(tc_sim *s) {
    if (s->imp) return TC_OK;
    const int nb = s->scene->nbody, cap = TC_SIM_IMPULSE_CAP(nb);
    const int maxpair = nb <= TC_SIM_PAIR_BODIES ? nb * (nb - 1) / 2 : 0;
    s->imp = calloc((size_t)cap, sizeof *s->imp);
    s->mf = calloc((size_t)cap, sizeof *s->mf);
    s->bs_pre = calloc((size_t)nb + 1, sizeof *s->bs_pre);
    s->rw = calloc((size_t)nb + 1, sizeof *s->rw);
    s->touch = calloc((size_t)nb + 1, sizeof *s->touch);
    s->pairs = calloc(2 * (size_t)maxpair + 2, sizeof *s->pairs);
    s->pair_geo = calloc((size_t)maxpair + 1, sizeof *s->pair_geo);
    s->memo_bs = calloc((size_t)nb + 1, sizeof *s->memo_bs);
    s->memo_w = calloc((size_t)nb + 1, sizeof *s->memo_w);
    if (!s->imp || !s->mf || !s->bs_pre || !s->rw || !s->touch || !s->pairs || !s->pair_geo ||
        !s->memo_bs || !s->memo_w) {
        free(s->imp);
        s->imp = NULL;
        return TC_ENOMEM;
    }
    s->icap = cap;
    s->npair = maxpair > 0 ? tc_scene_pairs(s->scene, s->pairs) : 0;
    return TC_OK;
}

/* one effective contact per overlapping pair from the model's wrenches at poses bs (models
 * without contact_forces): the wrench of the pair's body with dofs that overlaps no other body,
 * acting where its central axis crosses the plane through the deepest point normal to the
 * pair's normal; into s->imp, returns how many (more than s->icap: the rest not written) */
static int pair_impulses(tc_sim *s, const tc_body_state *bs) {
    const tc_scene *sc = s->scene;
    tc_contact_stats cs = {0, 0};
    if (s->npair == 0 || contact_force(s, bs, s->rw, &cs)) return 0;
    /* kept for the next step, which starts from these poses (not for a model with memory,
     * whose step_begin changes its force between the two) */
    if (!s->m.model->step_begin) {
        memcpy(s->memo_bs, bs, (size_t)sc->nbody * sizeof *bs);
        memcpy(s->memo_w, s->rw, (size_t)sc->nbody * sizeof *s->rw);
        s->memo_cs = cs;
        s->memo = 1;
    }
    memset(s->touch, 0, (size_t)sc->nbody * sizeof *s->touch);
    s->pair_pen = 0;
    /* the overlapping pairs, and how many each body is in */
    for (int k = 0; k < s->npair; k++) {
        const int a = s->pairs[2 * k], b = s->pairs[2 * k + 1];
        double *g = s->pair_geo[k], nrm[3];
        g[0] = 0;
        if (tc_deepest(&sc->body[a].shape, &bs[a], &sc->body[b].shape, &bs[b], &g[0], nrm, g + 4) !=
            1) {
            g[0] = 0;
            continue;
        }
        /* tc_deepest's normal points from b toward a */
        tc_v3_scale(g + 1, nrm, -1);
        s->touch[a]++;
        s->touch[b]++;
        s->pair_pen = fmax(s->pair_pen, g[0]);
    }
    int n = 0;
    for (int k = 0; k < s->npair; k++) {
        const int a = s->pairs[2 * k], b = s->pairs[2 * k + 1];
        const double *g = s->pair_geo[k];
        if (!(g[0] > 0)) continue;
        /* the force on b and the point on its central axis, from whichever body can tell */
        double F[3], x0[3], c[3];
        const tc_wrench *w;
        double sign;
        if (s->sys.vadr[b] >= 0 && s->touch[b] == 1) {
            w = &s->rw[b];
            sign = 1;
            tc_v3_copy(c, bs[b].pos);
        } else if (s->sys.vadr[a] >= 0 && s->touch[a] == 1) {
            w = &s->rw[a];
            sign = -1;
            tc_v3_copy(c, bs[a].pos);
        } else {
            s->resid.unassigned++;
            continue;
        }
        const double f2 = tc_v3_dot(w->f, w->f);
        if (!(f2 > 0)) continue;
        double ft[3];
        tc_v3_cross(ft, w->f, w->t);
        tc_v3_copy(x0, c);
        tc_v3_addscl(x0, ft, 1 / f2);
        tc_v3_scale(F, w->f, sign);
        if (n < s->icap) {
            tc_contact_impulse *o = &s->imp[n];
            const double fn = tc_v3_dot(F, g + 1),
                         d[3] = {g[4] - x0[0], g[5] - x0[1], g[6] - x0[2]};
            /* the axis meets the contact plane unless it runs along it */
            const double along = tc_v3_dot(w->f, g + 1);
            o->a = a;
            o->b = b;
            tc_v3_copy(o->pos, x0);
            if (fabs(along) > 1e-9 * sqrt(f2))
                tc_v3_addscl(o->pos, w->f, tc_v3_dot(d, g + 1) / along);
            tc_v3_copy(o->normal, g + 1);
            o->depth = g[0];
            o->normal_impulse = s->dt * fn;
            tc_v3_scale(o->tangent_impulse, F, s->dt);
            tc_v3_addscl(o->tangent_impulse, g + 1, -s->dt * fn);
        }
        n++;
    }
    return n;
}

/* the last step's impulses into s->imp at post-step poses bs (force-level models); returns how
 * many there are (more than s->icap: the rest not written) */
static int gather_impulses(tc_sim *s, const tc_body_state *bs) {
    if (s->m.engine)
        return s->m.engine->impulses ? s->m.engine->impulses(s->estate, s->imp, s->icap) : 0;
    if (s->m.solver->impulses) return s->m.solver->impulses(s->sstate, s->imp, s->icap);
    if (!s->m.model->contact_forces) return s->m.model->force ? pair_impulses(s, bs) : 0;
    /* the model's point forces held over the step */
    const int n = s->m.model->contact_forces(s->mstate, bs, s->mf, s->icap);
    for (int i = 0; i < n && i < s->icap; i++) {
        const tc_model_force *f = &s->mf[i];
        tc_contact_impulse *o = &s->imp[i];
        const double fn = tc_v3_dot(f->force, f->normal);
        o->a = f->a;
        o->b = f->b;
        tc_v3_copy(o->pos, f->pos);
        tc_v3_copy(o->normal, f->normal);
        o->depth = f->depth;
        o->normal_impulse = s->dt * fn;
        tc_v3_scale(o->tangent_impulse, f->force, s->dt);
        tc_v3_addscl(o->tangent_impulse, f->normal, -s->dt * fn);
    }
    return n;
}

/* 1 when the method reports impulses (the contact residuals are known) */
static int has_impulses(const tc_sim *s) {
    if (s->m.engine) return s->m.engine->impulses != NULL;
    return s->m.solver->impulses || s->m.model->contact_forces ||
           (s->m.model->force && s->npair > 0);
}

int tc_sim_impulses(tc_sim *s, tc_contact_impulse *out, int max) {
    if (s->m.engine) return s->m.engine->impulses ? s->m.engine->impulses(s->estate, out, max) : 0;
    if (s->m.solver->impulses) return s->m.solver->impulses(s->sstate, out, max);
    if (tc_sim_reserve_impulses(s)) return 0;
    const int n = gather_impulses(s, tc_sim_bodies(s));
    if (out) memcpy(out, s->imp, (size_t)(n < max ? n : max) * sizeof *out);
    return n;
}

/* the step just taken into the residual summary (s->bs: the post-step states) */
static void track_step(tc_sim *s) {
    s->pair_pen = NAN;
    const int n = gather_impulses(s, s->bs), m = n < s->icap ? n : s->icap;
    if (n > s->icap) s->resid.overflows += n - s->icap;
    /* the geometric penetration over every pair for small scenes (the per-pair attribution has
     * just measured it: the same pairs, the same libccd depths); beyond, all pairs would cost
     * O(nbody^2) a step: the deepest reported contact instead */
    double pen = 0;
    if (!isnan(s->pair_pen))
        pen = s->pair_pen;
    else if (s->scene->nbody <= TC_SIM_PAIR_BODIES)
        pen = penetration(s->scene, s->bs, NULL);
    else
        for (int i = 0; i < m; i++)
            pen = fmax(pen, s->imp[i].depth);
    tc_residual_step r;
    tc_residual_eval(s->imp, m, s->bs_pre, s->bs, s->scene->friction, s->dt, pen, &r);
    tc_residual_add(&s->resid, &r);
}

tc_status tc_sim_track_residuals(tc_sim *s, int on) {
    if (on) {
        tc_status st = tc_sim_reserve_impulses(s);
        if (st) return st;
        tc_residual_clear(&s->resid, has_impulses(s));
    }
    s->track = on != 0;
    return TC_OK;
}

void tc_sim_residuals(const tc_sim *s, tc_residual_summary *out) {
    *out = s->resid;
    tc_residual_finish(out);
}
