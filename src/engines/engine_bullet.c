/* SPDX-License-Identifier: MIT */
/* Bullet 3.24 engine adapter: scene -> btRigidBody worlds, contact wrenches from impulses, steps */
#include "engines/tc_bullet_world.h"
#include "engines/tc_engine.h"
#include "engines/tc_engine_check.h"
#include "engines/tc_warnbuf.h"
#include "solvers/tc_contact_space.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the adapter is written for Bullet 3.24 (docs/engines/bullet.md) */
#define BULLET_VERSION 324

/* the shapes the adapter builds: all but the ellipsoid */
#define BULLET_SHAPES                                                                              \
    (TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE) |   \
     TC_SHAPE_BIT(TC_SHAPE_COMPOUND) | TC_SHAPE_BIT(TC_SHAPE_CYLINDER) |                           \
     TC_SHAPE_BIT(TC_SHAPE_POLYTOPE))

/* parameter table: Bullet's own defaults (btContactSolverInfo, btCollisionObject, btRigidBody,
 * btConvexInternalShape), and two of touche's where Bullet's would break the comparison */
static const tc_param_spec bullet_params[] = {
    {"iterations", 10, 1, 1e6, TC_PARAM_ITERS, "1",
     "projected Gauss-Seidel sweeps per step (btContactSolverInfo::m_numIterations)",
     "Bullet's default"},
    {"erp", 0.2, 0, 1, TC_PARAM_REAL, "1",
     "fraction of a penetration removed per step through the contact impulse itself (Baumgarte, "
     "so it shows in the contact force), for penetrations shallower than "
     "-split_impulse_threshold and for all when split_impulse is off (m_erp)",
     "Bullet's default"},
    {"erp2", 0.2, 0, 1, TC_PARAM_REAL, "1",
     "fraction removed per step by the split (position-only) impulse, for penetrations deeper "
     "than -split_impulse_threshold (m_erp2)",
     "Bullet's default"},
    {"cfm", 0, 0, 1e6, TC_PARAM_REAL, "1/kg",
     "global constraint force mixing, added to each row's inverse effective mass (m_globalCfm)",
     "Bullet's default"},
    {"split_impulse", 1, 0, 1, TC_PARAM_BOOL, "1",
     "remove penetrations deeper than -split_impulse_threshold with a separate position-level "
     "pseudo impulse that adds no momentum (m_splitImpulse)",
     "Bullet's default"},
    {"split_impulse_threshold", -0.04, -1, 0, TC_PARAM_REAL, "m",
     "signed distance below which (deeper) the split impulse with erp2 replaces the Baumgarte "
     "term (m_splitImpulsePenetrationThreshold)",
     "Bullet's default"},
    {"split_impulse_turn_erp", 0.1, 0, 1, TC_PARAM_REAL, "1",
     "error reduction of the split impulse's rotational part (m_splitImpulseTurnErp)",
     "Bullet's default"},
    {"sor", 1, 0.01, 2, TC_PARAM_REAL, "1", "successive over-relaxation factor of the PGS (m_sor)",
     "Bullet's default"},
    {"warmstarting", 1, 0, 1, TC_PARAM_BOOL, "1",
     "start each step's PGS from the last step's impulses (SOLVER_USE_WARMSTARTING)",
     "Bullet's default"},
    {"warmstarting_factor", 0.85, 0, 1, TC_PARAM_REAL, "1",
     "fraction of the last impulse the warm start uses (m_warmstartingFactor)", "Bullet's default"},
    {"restitution", 0, 0, 1, TC_PARAM_REAL, "1",
     "coefficient of restitution of every pair (each body gets its square root: Bullet "
     "multiplies the two bodies' m_restitution)",
     "Bullet's default (m_restitution 0); the scene carries none"},
    {"restitution_velocity_threshold", 0.2, 0, 1e3, TC_PARAM_REAL, "m/s",
     "normal approach speed below which restitution is 0 (m_restitutionVelocityThreshold)",
     "Bullet's default"},
    {"friction_2dirs", 0, 0, 1, TC_PARAM_BOOL, "1",
     "two lateral friction rows per contact point instead of one along the sliding direction "
     "(SOLVER_USE_2_FRICTION_DIRECTIONS)",
     "Bullet's default"},
    {"gyroscopic", 1, 0, 1, TC_PARAM_BOOL, "1",
     "implicit gyroscopic torque on free bodies (BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY)",
     "Bullet's default"},
    {"margin", 0.04, 0, 1, TC_PARAM_REAL, "m",
     "collision margin of boxes, cylinders and polytopes (kept inside the shape: polytope faces "
     "move in by it); a sphere's is its radius",
     "Bullet's default (CONVEX_DISTANCE_MARGIN)"},
    {"margin_fraction", 0.2, 0.01, 0.5, TC_PARAM_REAL, "1",
     "cap on each shape's margin: this fraction of its smallest half extent, radius or face "
     "distance",
     "touche's: Bullet's inside margin is valid only below the smallest half extent"},
    {"contact_breaking_threshold", 0.02, 0.02, 0.02, TC_PARAM_REAL, "m",
     "distance beyond which cached contact points are dropped (gContactBreakingThreshold; "
     "read-only: a process-wide global in Bullet)",
     "Bullet's default"},
    {"multipoint", 6, 0, 10, TC_PARAM_INT, "1",
     "perturbation iterations per convex-convex and convex-plane call: up to this many extra "
     "manifold points at once (setConvex*MultipointIterations; 0 = Bullet's default of one)",
     "touche's: a force query starts from no cached points and needs the whole contact patch"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

/* adapter state: one per run, used by one thread at a time; heap (about 300 kB) */
typedef struct engine {
    tc_bullet_world *dyn; /* the world step() advances */
    tc_bullet_world *qry; /* a twin for force queries, so they leave the dynamics untouched */
    int nbody;
    const tc_body_desc *body; /* the scene's (it outlives the engine, as tc_sim_alloc requires) */
    int qadr[TC_SCENE_MAXBODY], vadr[TC_SCENE_MAXBODY]; /* touche state offsets, -1 none */
    double izz[TC_SCENE_MAXBODY];                       /* planar: inertia about world z */
    double out_q[TC_SCENE_MAXBODY][7];                  /* what step() last wrote, per body */
    double out_v[TC_SCENE_MAXBODY][6];
    int have_out;                       /* out_q/out_v valid */
    double target[TC_SCENE_MAXBODY][3]; /* last servo targets (touche coordinates) */
    tc_wrench xfrc[TC_SCENE_MAXBODY];   /* last external wrenches */
    double origin[TC_SCENE_MAXBODY][3]; /* torque origins of the last step or query */
    double t, dt;                       /* simulation time (s) and step (s) */
    int ncontact;                       /* points of the last step or query */
    int warned_deep, warned_nan;
    double split_threshold; /* m */
    tc_warnbuf warn;
} engine;

/* smallest of three numbers */
static double min3(double a, double b, double c) {
    return fmin(a, fmin(b, c));
}

/* the translated body i: shape, margin, motion, mass, factors, contact coefficients */
static void describe(tc_bullet_body *bb, const tc_body_desc *b, const tc_params *p, double friction,
                     int *part_shape, double *part_size, double *part_pos, double *plane) {
    const tc_shape *sh = &b->shape;
    double margin = tc_params_get(p, "margin"), frac = tc_params_get(p, "margin_fraction");
    memset(bb, 0, sizeof *bb);
    memcpy(bb->size, sh->size, sizeof bb->size);
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        bb->shape = TC_BW_SPHERE;
        break;
    case TC_SHAPE_BOX:
        bb->shape = TC_BW_BOX;
        margin = fmin(margin, frac * min3(sh->size[0], sh->size[1], sh->size[2]));
        break;
    case TC_SHAPE_CYLINDER:
        bb->shape = TC_BW_CYLINDER;
        margin = fmin(margin, frac * fmin(sh->size[0], sh->size[1]));
        break;
    case TC_SHAPE_PLANE:
        bb->shape = TC_BW_PLANE;
        break;
    case TC_SHAPE_POLYTOPE:
        /* the faces n . x = d with d > 0 around the COM; the margin is capped by the nearest */
        bb->shape = TC_BW_HULL;
        bb->nplane = sh->hull->nface;
        bb->plane = plane;
        for (int f = 0; f < sh->hull->nface; f++) {
            memcpy(plane + 4 * f, sh->hull->face[f], 4 * sizeof *plane);
            margin = fmin(margin, frac * sh->hull->face[f][3]);
        }
        break;
    default: /* compound: the parts, each box with its own cap (the world code applies it) */
        bb->shape = TC_BW_COMPOUND;
        bb->npart = sh->npart;
        bb->part_shape = part_shape;
        bb->part_size = part_size;
        bb->part_pos = part_pos;
        for (int k = 0; k < sh->npart; k++) {
            part_shape[k] = sh->part[k].type == TC_SHAPE_SPHERE ? TC_BW_SPHERE : TC_BW_BOX;
            memcpy(part_size + 3 * k, sh->part[k].size, 3 * sizeof *part_size);
            memcpy(part_pos + 3 * k, sh->part[k].pos, 3 * sizeof *part_pos);
        }
        break;
    }
    bb->margin = margin;
    memcpy(bb->pos, b->pos, sizeof bb->pos);
    memcpy(bb->quat, b->quat, sizeof bb->quat);
    tc_quat_normalize(bb->quat);
    bb->motion = b->joint == TC_JOINT_FIXED       ? TC_BW_STATIC
                 : b->joint == TC_JOINT_KINEMATIC ? TC_BW_KINEMATIC
                                                  : TC_BW_DYNAMIC;
    bb->mass = b->mass;
    memcpy(bb->inertia, b->inertia, sizeof bb->inertia);
    for (int k = 0; k < 3; k++)
        bb->linear_factor[k] = bb->angular_factor[k] = 1;
    /* planar: world z locked for translation, x and y for rotation; the inertia about the
     * vertical stays touche's I_zz whatever the body's tilt (an isotropic tensor of it) */
    if (b->joint == TC_JOINT_PLANAR) {
        double R0[9];
        tc_quat_to_mat(R0, bb->quat);
        double izz = b->inertia[0] * R0[6] * R0[6] + b->inertia[1] * R0[7] * R0[7] +
                     b->inertia[2] * R0[8] * R0[8];
        bb->linear_factor[2] = bb->angular_factor[0] = bb->angular_factor[1] = 0;
        bb->inertia[0] = bb->inertia[1] = bb->inertia[2] = izz;
    }
    /* Bullet multiplies the two bodies' coefficients: each gets the square root */
    bb->friction = sqrt(friction);
    bb->restitution = sqrt(tc_params_get(p, "restitution"));
}

/* one world holding the whole scene */
static tc_bullet_world *build(const tc_scene *sc, const tc_params *p, char *msg, int n) {
    tc_bullet_config cfg = {
        .gravity = {sc->gravity[0], sc->gravity[1], sc->gravity[2]},
        .iterations = (int)tc_params_get(p, "iterations"),
        .erp = tc_params_get(p, "erp"),
        .erp2 = tc_params_get(p, "erp2"),
        .cfm = tc_params_get(p, "cfm"),
        .split_impulse = (int)tc_params_get(p, "split_impulse"),
        .split_threshold = tc_params_get(p, "split_impulse_threshold"),
        .split_turn_erp = tc_params_get(p, "split_impulse_turn_erp"),
        .sor = tc_params_get(p, "sor"),
        .warmstart = (int)tc_params_get(p, "warmstarting"),
        .warmstart_factor = tc_params_get(p, "warmstarting_factor"),
        .restitution_threshold = tc_params_get(p, "restitution_velocity_threshold"),
        .friction_2dirs = (int)tc_params_get(p, "friction_2dirs"),
        .multipoint = (int)tc_params_get(p, "multipoint"),
        .gyroscopic = (int)tc_params_get(p, "gyroscopic"),
    };
    tc_bullet_world *w = tc_bullet_world_new(&cfg, msg, n);
    if (!w) return NULL;
    int part_shape[TC_SHAPE_MAXPART];
    double part_size[3 * TC_SHAPE_MAXPART], part_pos[3 * TC_SHAPE_MAXPART];
    double plane[4 * TC_POLY_MAXFACE];
    for (int i = 0; i < sc->nbody; i++) {
        tc_bullet_body bb;
        describe(&bb, &sc->body[i], p, sc->friction, part_shape, part_size, part_pos, plane);
        if (tc_bullet_world_add(w, &bb, msg, n) != i) {
            char what[256];
            snprintf(what, sizeof what, "body '%s': %s", sc->body[i].name, msg);
            snprintf(msg, (size_t)n, "%s", what);
            tc_bullet_world_free(w);
            return NULL;
        }
    }
    return w;
}

/* release both worlds and the state */
static void bullet_free(void *state) {
    engine *e = state;
    if (!e) return;
    tc_bullet_world_free(e->dyn);
    tc_bullet_world_free(e->qry);
    free(e);
}

/* scene -> two Bullet worlds (steps, queries) and the state maps */
static tc_status bullet_alloc(void **state, const tc_scene *sc, const tc_params *p, double dt,
                              tc_error *err) {
    *state = NULL;
    /* the header and the library the build links (bullet-float64) */
    if (tc_bullet_version() != BULLET_VERSION || !tc_bullet_double_precision())
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "touche was built for double-precision Bullet 3.24, got version %d%s",
                            tc_bullet_version(),
                            tc_bullet_double_precision() ? "" : " in single precision");
    /* dt, gravity, joints and shapes the adapter can express; a missing shape in Bullet's words */
    int unsup;
    tc_status chk = tc_engine_check_scene(sc, dt, BULLET_SHAPES, &unsup, err);
    if (chk) return chk;
    if (unsup >= 0)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                            "body '%s': Bullet has no %s shape here", sc->body[unsup].name,
                            tc_shape_name(sc->body[unsup].shape.type));
    engine *e = calloc(1, sizeof *e);
    if (!e) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    char msg[512] = "";
    e->dyn = build(sc, p, msg, (int)sizeof msg);
    if (e->dyn) e->qry = build(sc, p, msg, (int)sizeof msg);
    if (!e->dyn || !e->qry) {
        bullet_free(e);
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "Bullet: %s", msg);
    }
    /* state offsets in touche's layout, servo targets at the initial configuration */
    e->nbody = sc->nbody;
    e->body = sc->body;
    e->dt = dt;
    /* without split impulse erp always applies: nothing to warn about */
    e->split_threshold = tc_params_get(p, "split_impulse") != 0
                             ? tc_params_get(p, "split_impulse_threshold")
                             : -INFINITY;
    int nq = 0, nv = 0;
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        e->qadr[i] = e->vadr[i] = -1;
        e->target[i][0] = b->pos[0];
        e->target[i][1] = b->pos[1];
        if (b->joint == TC_JOINT_FREE) {
            e->qadr[i] = nq;
            e->vadr[i] = nv;
            nq += 7;
            nv += 6;
        } else if (b->joint == TC_JOINT_PLANAR) {
            double R0[9], q0[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
            tc_quat_normalize(q0);
            tc_quat_to_mat(R0, q0);
            e->izz[i] = b->inertia[0] * R0[6] * R0[6] + b->inertia[1] * R0[7] * R0[7] +
                        b->inertia[2] * R0[8] * R0[8];
            e->qadr[i] = nq;
            e->vadr[i] = nv;
            nq += 3;
            nv += 3;
        }
    }
    *state = e;
    return TC_OK;
}

/* touche's q, v of body i as a pose and twist (planar: (x, y, z0), Rz(theta) R0) */
static void pose_of(const engine *e, int i, const double *q, const double *v, double pos[3],
                    double quat[4], double vel[3], double omega[3]) {
    const tc_body_desc *b = &e->body[i];
    const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
    if (b->joint == TC_JOINT_PLANAR) {
        double rz[4] = {cos(0.5 * qi[2]), 0, 0, sin(0.5 * qi[2])}, q0[4];
        memcpy(q0, b->quat, sizeof q0);
        tc_quat_normalize(q0);
        tc_v3_set(pos, qi[0], qi[1], b->pos[2]);
        tc_quat_mul(quat, rz, q0);
        tc_v3_set(vel, vi ? vi[0] : 0, vi ? vi[1] : 0, 0);
        tc_v3_set(omega, 0, 0, vi ? vi[2] : 0);
        return;
    }
    memcpy(pos, qi, 3 * sizeof *pos);
    memcpy(quat, qi + 3, 4 * sizeof *quat);
    tc_quat_normalize(quat);
    for (int k = 0; k < 3; k++) {
        vel[k] = vi ? vi[k] : 0;
        omega[k] = vi ? vi[3 + k] : 0;
    }
}

/* the kinematic bodies of world w where their paths are at time t, moving along them */
static void kinematic_in(engine *e, tc_bullet_world *w, double t) {
    for (int i = 0; i < e->nbody; i++) {
        const tc_body_desc *b = &e->body[i];
        if (b->joint != TC_JOINT_KINEMATIC) continue;
        double pos[3], vel[3], q0[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
        tc_quat_normalize(q0);
        tc_body_path(b, t, pos, vel);
        tc_bullet_world_set_kinematic(w, i, pos, q0, vel, e->dt);
        tc_v3_copy(e->origin[i], pos);
    }
}

/* (q, v) into world w; with `changed`, only bodies whose state differs from what step() wrote
 * (a quaternion through Bullet's matrix and back is not bitwise the same) */
static void state_in(engine *e, tc_bullet_world *w, const double *q, const double *v, int changed) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) {
            if (e->body[i].joint == TC_JOINT_FIXED) tc_v3_copy(e->origin[i], e->body[i].pos);
            continue;
        }
        int nq = e->body[i].joint == TC_JOINT_PLANAR ? 3 : 7, nv = nq == 3 ? 3 : 6;
        const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
        double pos[3], quat[4], vel[3], omega[3];
        pose_of(e, i, q, v, pos, quat, vel, omega);
        tc_v3_copy(e->origin[i], pos);
        if (changed && e->have_out && memcmp(qi, e->out_q[i], (size_t)nq * sizeof *qi) == 0 && vi &&
            memcmp(vi, e->out_v[i], (size_t)nv * sizeof *vi) == 0)
            continue;
        tc_bullet_world_set(w, i, pos, quat, vel, omega);
    }
}

/* world-diagonal inertia of free body i at orientation quat: diag(R I R^T) */
static void world_inertia(const tc_body_desc *b, const double quat[4], double out[3]) {
    double R[9];
    tc_quat_to_mat(R, quat);
    for (int k = 0; k < 3; k++)
        out[k] = b->inertia[0] * R[3 * k] * R[3 * k] + b->inertia[1] * R[3 * k + 1] * R[3 * k + 1] +
                 b->inertia[2] * R[3 * k + 2] * R[3 * k + 2];
}

/* external wrench, servo force and joint damping on every moving body of world w, for one step:
 * servo kp (target - q) at the step's start; damping -c u / (1 + c dt / m_k) per dof, the force
 * that makes damping implicit on the dof's own mass (as MuJoCo's Euler makes it) */
static void forces_in(engine *e, tc_bullet_world *w, const double *q, const double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const tc_body_desc *b = &e->body[i];
        const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
        double f[3], t[3];
        tc_v3_copy(f, e->xfrc[i].f);
        tc_v3_copy(t, e->xfrc[i].t);
        if (b->joint == TC_JOINT_PLANAR) {
            const double m[3] = {b->mass, b->mass, e->izz[i]};
            double u[3];
            for (int k = 0; k < 3; k++) {
                double c = b->damping[k];
                u[k] = b->kp[k] * (e->target[i][k] - qi[k]);
                if (vi) u[k] -= c * vi[k] / (1 + c * e->dt / m[k]);
            }
            f[0] += u[0];
            f[1] += u[1];
            t[2] += u[2];
        } else if (vi) {
            double iw[3], quat[4] = {qi[3], qi[4], qi[5], qi[6]};
            tc_quat_normalize(quat);
            world_inertia(b, quat, iw);
            for (int k = 0; k < 3; k++) {
                double c = b->damping[k], ca = b->damping[3 + k];
                f[k] -= c * vi[k] / (1 + c * e->dt / b->mass);
                t[k] -= ca * vi[3 + k] / (1 + ca * e->dt / iw[k]);
            }
        }
        tc_bullet_world_apply(w, i, f, t);
    }
}

/* warn once when a contact of world w's last step (at time t) went deeper than the split-impulse
 * threshold: there the split impulse takes over, which the reported impulses leave out */
static void note_depth(engine *e, const tc_bullet_world *w, double t) {
    double deepest = 0;
    for (int k = 0; k < tc_bullet_world_ncontact(w); k++) {
        tc_bullet_contact c;
        tc_bullet_world_contact(w, k, &c);
        if (c.depth < deepest) deepest = c.depth;
    }
    if (!(deepest < e->split_threshold) || e->warned_deep) return;
    char line[160];
    snprintf(line, sizeof line,
             "penetration %.3g m beyond split_impulse_threshold at t = %.6g s: the split "
             "impulse (left out of the contact wrenches) corrects it",
             -deepest, t);
    tc_warnbuf_push(&e->warn, "Bullet: ", line);
    e->warned_deep = 1;
}

/* the contact wrenches of world w's last step: per point the impulse
 * P = n impulse + d1 impulse1 + d2 impulse2 acts on body a at its point pa and -P on body b at
 * pb; wrench = P / dt with the torque about each body's origin (COM) at the step's start */
static void wrenches(engine *e, tc_bullet_world *w, tc_wrench *out) {
    memset(out, 0, (size_t)e->nbody * sizeof *out);
    int nc = tc_bullet_world_ncontact(w);
    for (int k = 0; k < nc; k++) {
        tc_bullet_contact c;
        tc_bullet_world_contact(w, k, &c);
        double F[3];
        for (int j = 0; j < 3; j++)
            F[j] =
                (c.normal[j] * c.impulse + c.dir1[j] * c.impulse1 + c.dir2[j] * c.impulse2) / e->dt;
        tc_wrench_add_at(&out[c.a], e->origin[c.a], c.pa, F, 1);
        tc_wrench_add_at(&out[c.b], e->origin[c.b], c.pb, F, -1);
    }
    e->ncontact = nc;
    note_depth(e, w, e->t);
}

/* contact wrenches at (q, v): one step of dt from (q, v) in the query world, starting from no
 * cached contact points, the impulses over dt; the dynamics world is not touched */
static tc_status bullet_force(void *state, const double *q, const double *v, tc_wrench *w) {
    engine *e = state;
    char msg[256] = "";
    tc_bullet_world_forget_contacts(e->qry);
    state_in(e, e->qry, q, v, 0);
    kinematic_in(e, e->qry, e->t);
    forces_in(e, e->qry, q, v);
    if (tc_bullet_world_step(e->qry, e->dt, msg, (int)sizeof msg) != 0) {
        tc_warnbuf_push(&e->warn, "Bullet: ", msg);
        return TC_EENGINE;
    }
    wrenches(e, e->qry, w);
    for (int i = 0; i < e->nbody; i++)
        if (!isfinite(w[i].f[0] + w[i].f[1] + w[i].f[2] + w[i].t[0] + w[i].t[1] + w[i].t[2]))
            return TC_EDIVERGED;
    return TC_OK;
}

/* the wrapped angle a moved next to ref */
static double unwrap(double a, double ref) {
    return ref + remainder(a - ref, 2 * M_PI);
}

/* the dynamics world's bodies back into (q, v); 0 when every number is finite */
static int state_out(engine *e, double *q, double *v) {
    int bad = 0;
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const tc_body_desc *b = &e->body[i];
        double pos[3], quat[4], vel[3], omega[3];
        tc_bullet_world_get(e->dyn, i, pos, quat, vel, omega);
        double *qi = q + e->qadr[i], *vi = v + e->vadr[i];
        if (b->joint == TC_JOINT_PLANAR) {
            /* theta from Rz(theta) = R R0^T, continued from the step's start */
            double q0[4] = {b->quat[0], -b->quat[1], -b->quat[2], -b->quat[3]}, rz[4];
            tc_quat_normalize(q0);
            tc_quat_mul(rz, quat, q0);
            double th = 2 * atan2(rz[3], rz[0]);
            qi[0] = pos[0];
            qi[1] = pos[1];
            qi[2] = unwrap(th, qi[2]);
            vi[0] = vel[0];
            vi[1] = vel[1];
            vi[2] = omega[2];
        } else {
            /* keep the quaternion's sign continuous with the step's start */
            double s = quat[0] * qi[3] + quat[1] * qi[4] + quat[2] * qi[5] + quat[3] * qi[6];
            memcpy(qi, pos, 3 * sizeof *qi);
            for (int k = 0; k < 4; k++)
                qi[3 + k] = s < 0 ? -quat[k] : quat[k];
            memcpy(vi, vel, 3 * sizeof *vi);
            memcpy(vi + 3, omega, 3 * sizeof *vi);
        }
        int nq = b->joint == TC_JOINT_PLANAR ? 3 : 7, nv = nq == 3 ? 3 : 6;
        for (int k = 0; k < nq; k++)
            bad |= !isfinite(qi[k]);
        for (int k = 0; k < nv; k++)
            bad |= !isfinite(vi[k]);
        memcpy(e->out_q[i], qi, (size_t)nq * sizeof *qi);
        memcpy(e->out_v[i], vi, (size_t)nv * sizeof *vi);
    }
    e->have_out = !bad;
    return bad;
}

/* one stepSimulation(dt, 0) from (q, v) with servo targets ctrl (touche layout; NULL holds the
 * initial configuration, as in the MuJoCo adapter) and external wrenches xfrc (NULL: none);
 * kinematic bodies move along their paths from where they are at the step's start; the time
 * advances by dt whatever the outcome */
static tc_status bullet_step(void *state, const double *ctrl, const tc_wrench *xfrc, double *q,
                             double *v) {
    engine *e = state;
    char msg[256] = "";
    for (int i = 0; i < e->nbody; i++) {
        if (e->body[i].joint == TC_JOINT_PLANAR)
            for (int k = 0; k < 3; k++)
                e->target[i][k] = ctrl ? ctrl[e->vadr[i] + k] : (k < 2 ? e->body[i].pos[k] : 0);
        if (xfrc)
            e->xfrc[i] = xfrc[i];
        else
            memset(&e->xfrc[i], 0, sizeof e->xfrc[i]);
    }
    state_in(e, e->dyn, q, v, 1);
    kinematic_in(e, e->dyn, e->t);
    forces_in(e, e->dyn, q, v);
    int failed = tc_bullet_world_step(e->dyn, e->dt, msg, (int)sizeof msg);
    e->t += e->dt;
    if (failed) {
        tc_warnbuf_push(&e->warn, "Bullet: ", msg);
        return TC_EENGINE;
    }
    e->ncontact = tc_bullet_world_ncontact(e->dyn);
    note_depth(e, e->dyn, e->t - e->dt);
    if (state_out(e, q, v)) {
        if (!e->warned_nan) tc_warnbuf_push(&e->warn, "Bullet: ", "non-finite state after a step");
        e->warned_nan = 1;
        return TC_EDIVERGED;
    }
    return TC_OK;
}

/* move the queued lines into buf; returns their number */
static int bullet_warnings(void *state, char *buf, int n) {
    int used = 0;
    if (buf && n > 0) buf[0] = '\0';
    return tc_warnbuf_drain(&((engine *)state)->warn, "Bullet warnings", buf, n, &used);
}

/* the manifold points of the last step or force query */
/* the dynamics world's last step's contact impulses: per manifold point the applied normal
 * and lateral impulses (Bullet's, in N s) on its body a, the normal from its b toward a; in
 * touche's order Bullet's b is a, the point midway between the two bodies' points */
static int bullet_impulses(void *state, tc_contact_impulse *out, int max) {
    engine *e = state;
    int nc = tc_bullet_world_ncontact(e->dyn);
    for (int k = 0; out && k < nc && k < max; k++) {
        tc_bullet_contact c;
        tc_bullet_world_contact(e->dyn, k, &c);
        tc_contact_impulse *o = &out[k];
        o->a = c.b;
        o->b = c.a;
        for (int j = 0; j < 3; j++) {
            o->pos[j] = 0.5 * (c.pa[j] + c.pb[j]);
            o->normal[j] = c.normal[j];
            o->tangent_impulse[j] = c.dir1[j] * c.impulse1 + c.dir2[j] * c.impulse2;
        }
        o->depth = -c.depth;
        o->normal_impulse = c.impulse;
    }
    return nc;
}

static int bullet_ncontact(void *state) {
    return ((engine *)state)->ncontact;
}

/* the engine type */
const tc_engine_type tc_engine_bullet = {
    .name = "bullet",
    .summary =
        "Bullet 3.24 (double): sequential-impulse PGS with split impulse, btRigidBody worlds",
    .version = "3.24",
    .params = bullet_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION,
    .shapes = BULLET_SHAPES,
    .alloc = bullet_alloc,
    .force = bullet_force,
    .step = bullet_step,
    .warnings = bullet_warnings,
    .ncontact = bullet_ncontact,
    .free = bullet_free,
    .impulses = bullet_impulses,
};
