/* SPDX-License-Identifier: MIT */
/* simulations: a method's states on a scene, the state vectors and all scratch memory; the
 * state, energy, momentum and geometric measures drivers read */
#include "sim/tc_sim.h"
#include "collide/tc_penetration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tc_sim {
    const tc_scene *scene; /* the caller's: it must outlive the simulation (models keep
                            * pointers into it; a scene with polytopes is about 0.5 MB) */
    tc_system sys;
    tc_method m;
    void *mstate, *sstate, *estate;
    double dt, t;
    double *q, *v;   /* nq, nv */
    double *ctrl;    /* nv: position-servo targets, held over each step */
    tc_wrench *xfrc; /* nbody: external wrenches, held over each step */
    tc_body_state *bs;
    tc_wrench *w;
    tc_ode ode;
    tc_sim_stats stats;
    char warn[4096];
    int nwarn;
};

/* remember a warning line (truncated when the buffer is full) */
static void add_warning(tc_sim *s, const char *msg) {
    size_t l = strlen(s->warn);
    if (l + 2 < sizeof s->warn) snprintf(s->warn + l, sizeof s->warn - l, "%s\n", msg);
    s->nwarn++;
}

/* the model's wrenches; a model without a force law (contact points only) gives none */
static tc_status contact_force(tc_sim *s, const tc_body_state *bs, tc_wrench *w,
                               tc_contact_stats *cs) {
    if (s->m.model->force) return s->m.model->force(s->mstate, bs, w, cs);
    memset(w, 0, (size_t)s->scene->nbody * sizeof *w);
    return TC_OK;
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

int tc_sim_impulses(tc_sim *s, tc_contact_impulse *out, int max) {
    if (s->m.engine || !s->m.solver->impulses) return 0;
    return s->m.solver->impulses(s->sstate, out, max);
}
