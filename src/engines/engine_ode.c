/* SPDX-License-Identifier: MIT */
/* ODE 0.16 engine adapter: scene -> ODE bodies and geoms, contact joints with feedback, steps */
#include "engines/tc_engine.h"
#include "engines/tc_engine_check.h"
#include "engines/tc_warnbuf.h"
#include "solvers/tc_contact_space.h"
#include "math/tc_vec.h"

#include <math.h>
#include <ode/ode.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the adapter is written against ODE 0.16 in double precision (Debian's libode-dev) */
#define ODE_VERSION "0.16"
_Static_assert(sizeof(dReal) == sizeof(double), "engine_ode.c needs ODE built in double precision");

/* the shapes the adapter has a geom for */
#define ODE_SHAPES                                                                                 \
    (TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE) |   \
     TC_SHAPE_BIT(TC_SHAPE_COMPOUND) | TC_SHAPE_BIT(TC_SHAPE_POLYTOPE))

/* parameter table: ODE's documented defaults where ODE has one, else the stated choice */
static const tc_param_spec ode_params[] = {
    {"stepper", 1, 0, 1, TC_PARAM_INT, "1",
     "0 dWorldStep (Dantzig LCP, O(m^3) in the contact rows), 1 dWorldQuickStep (SOR, "
     "O(m iterations))",
     "choice: ODE's manual recommends QuickStep for large systems; E4 and E7 pile 100 bodies"},
    {"iterations", 20, 1, 1e6, TC_PARAM_ITERS, "1", "QuickStep SOR iterations per step",
     "ODE's default (dWorldSetQuickStepNumIterations)"},
    {"sor_w", 1.3, 0.01, 2, TC_PARAM_REAL, "1", "QuickStep over-relaxation factor",
     "ODE's default (dWorldSetQuickStepW)"},
    {"erp", 0.2, 0, 1, TC_PARAM_REAL, "1",
     "world error reduction: fraction of the joint and contact error corrected per step",
     "ODE's default (dWorldSetERP)"},
    {"cfm", 1e-10, 0, 1, TC_PARAM_REAL, "m/(N s)",
     "world constraint force mixing (softness: velocity error per impulse)",
     "ODE's default in double precision (dWorldSetCFM)"},
    {"soft_erp", -1, -1, 1, TC_PARAM_REAL, "1",
     "contact ERP (dContactSoftERP); -1: the world's erp, as ODE without the flag",
     "ODE's behaviour when the contact sets no soft_erp"},
    {"soft_cfm", -1, -1, 1, TC_PARAM_REAL, "m/(N s)",
     "contact CFM (dContactSoftCFM); -1: the world's cfm, as ODE without the flag",
     "ODE's behaviour when the contact sets no soft_cfm"},
    {"bounce", 0, 0, 1, TC_PARAM_REAL, "1",
     "restitution: rebound over approach normal velocity (dContactBounce); 0 = inelastic",
     "ODE's behaviour without dContactBounce; touche's scenes are inelastic"},
    {"bounce_vel", 0.1, 0, 1e3, TC_PARAM_REAL, "m/s",
     "smallest approach speed that bounces (surface.bounce_vel)",
     "ODE sets none; the value of ODE's demos"},
    {"max_contacts", 8, 1, 64, TC_PARAM_INT, "1",
     "most contacts dCollide returns per geom pair (box-box clips up to 8 and culls)",
     "ODE sets none; 8 keeps every box-box point (demo_boxstack's value)"},
    {"surface_layer", 0, 0, 1, TC_PARAM_REAL, "m",
     "penetration allowed before the ERP correction starts (dWorldSetContactSurfaceLayer)",
     "ODE's default"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

/* one contact the last collision pass made: touche bodies a (attached first, moving or
 * kinematic) and b (second, any), the point (m, world) */
typedef struct contact {
    dContactGeom g;
    int a, b;
} contact;

/* adapter state: one per run, used by one thread at a time */
typedef struct engine {
    dWorldID world;
    dJointGroupID group;              /* this pass's contact joints */
    int nbody, broken;                /* broken: an ODE error hit this world */
    const tc_body_desc *body;         /* the scene's bodies (outlive us) */
    dBodyID obody[TC_SCENE_MAXBODY];  /* NULL for fixed bodies */
    dGeomID *geom;                    /* every geom, body by body */
    int *gbody, ngeom;                /* geom -> touche body */
    int gfirst[TC_SCENE_MAXBODY + 1]; /* body i's geoms [gfirst[i], gfirst[i+1]) */
    int qadr[TC_SCENE_MAXBODY], vadr[TC_SCENE_MAXBODY]; /* touche state offsets, -1 none */
    double theta[TC_SCENE_MAXBODY];                     /* planar angle of the last state_in */
    double (*org)[3];                                   /* force(): COMs (m) at its step's start */
    unsigned *poly[TC_SCENE_MAXBODY];                   /* dConvex polygon lists (ODE keeps them) */
    contact *con;                                       /* the last pass's contacts */
    dJointFeedback *fb;                                 /* their joints' feedback */
    int ncon, capcon;
    double dt, t;
    int stepper, maxc, bounce_on, soft_erp_on, soft_cfm_on;
    double mu, bounce, bounce_vel, soft_erp, soft_cfm;
    unsigned long seed;   /* this run's dRand state (QuickStep shuffles its rows with it) */
    long nbad, nbad_told; /* degenerate contacts dropped, and how many warnings() reported */
    tc_warnbuf warn;
} engine;

/* per-thread hooks for ODE's process-wide handlers */
static _Thread_local engine *current;      /* engine inside an ODE call on this thread */
static _Thread_local jmp_buf *error_trap;  /* where dError/dDebug jump to, NULL: abort */
static _Thread_local char error_text[512]; /* the last error message */
static _Thread_local tc_warnbuf orphan;    /* messages raised outside any engine call */
static _Thread_local int thread_ready;     /* dAllocateODEDataForThread done on this thread */
static _Thread_local int rand_locked;      /* this thread holds rand_lock */
static pthread_mutex_t rand_lock = PTHREAD_MUTEX_INITIALIZER; /* guards ODE's global dRand */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_ok; /* dInitODE2 succeeded (written once under init_once) */

/* dMessage: queue the text for warnings(); never print */
static void on_message(int num, const char *msg, va_list ap) {
    char text[400], line[480];
    vsnprintf(text, sizeof text, msg, ap);
    snprintf(line, sizeof line, "%s (ODE message %d)", text, num);
    tc_warnbuf_push(current ? &current->warn : &orphan, "ODE: ", line);
}

/* dError and dDebug must not return: jump back into the adapter, or abort when untrapped */
static void on_error(int num, const char *msg, va_list ap) {
    char text[400];
    vsnprintf(text, sizeof text, msg, ap);
    snprintf(error_text, sizeof error_text, "%s (ODE error %d)", text, num);
    if (error_trap) longjmp(*error_trap, 1);
    fprintf(stderr, "touche: ODE error: %s\n", error_text);
    abort();
}

/* once per process: the handlers and the library */
static void init_library(void) {
    dSetMessageHandler(on_message);
    dSetErrorHandler(on_error);
    dSetDebugHandler(on_error);
    init_ok = dInitODE2(0) != 0;
}

/* the library and this thread's ODE data (OpenMP threads each need their own) */
static int ready(void) {
    pthread_once(&init_once, init_library);
    if (!init_ok) return 0;
    if (!thread_ready) thread_ready = dAllocateODEDataForThread(dAllocateMaskAll) != 0;
    return thread_ready;
}

/* the geoms body b makes: compound parts count one each */
static int geom_count(const tc_body_desc *b) {
    return b->shape.type == TC_SHAPE_COMPOUND ? b->shape.npart : 1;
}

/* an ODE rotation matrix (3x4, row major) from a touche quaternion */
static void to_dmatrix(dMatrix3 R, const double q[4]) {
    double m[9], qn[4] = {q[0], q[1], q[2], q[3]};
    tc_quat_normalize(qn);
    tc_quat_to_mat(m, qn);
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++)
            R[4 * r + c] = m[3 * r + c];
        R[4 * r + 3] = 0;
    }
}

/* a dConvex for a polytope: ODE keeps pointers to the planes, points and polygon list; the
 * interned hull outlives the run, the polygon list is ours (freed with the engine) */
static dGeomID make_convex(engine *e, int i, const tc_hull *h) {
    int n = 0;
    for (int f = 0; f < h->nface; f++)
        n += 1 + h->fnv[f];
    unsigned *pl = malloc((size_t)n * sizeof *pl);
    if (!pl) return NULL;
    n = 0;
    for (int f = 0; f < h->nface; f++) {
        pl[n++] = h->fnv[f];
        for (int k = 0; k < h->fnv[f]; k++)
            pl[n++] = h->fv[h->fofs[f] + k];
    }
    e->poly[i] = pl;
    return dCreateConvex(0, &h->face[0][0], (unsigned)h->nface, &h->vert[0][0], (unsigned)h->nvert,
                         pl);
}

/* one primitive geom (no space), or NULL when out of memory; planes take the world pose */
static dGeomID make_geom(engine *e, int i, const tc_shape *sh, const tc_body_desc *b) {
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        return dCreateSphere(0, sh->size[0]);
    case TC_SHAPE_BOX:
        return dCreateBox(0, 2 * sh->size[0], 2 * sh->size[1], 2 * sh->size[2]);
    case TC_SHAPE_POLYTOPE:
        return make_convex(e, i, sh->hull);
    default: { /* plane: the body's z = 0 plane, normal R e_z, n . x = n . pos */
        double m[9], q[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
        tc_quat_normalize(q);
        tc_quat_to_mat(m, q);
        double n[3] = {m[2], m[5], m[8]};
        return dCreatePlane(0, n[0], n[1], n[2], tc_v3_dot(n, b->pos));
    }
    }
}

/* body i's geoms: on its ODE body at the part offsets, or posed in the world when fixed */
static int make_body_geoms(engine *e, int i, const tc_body_desc *b) {
    dMatrix3 R;
    to_dmatrix(R, b->quat);
    double m[9], q[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
    tc_quat_normalize(q);
    tc_quat_to_mat(m, q);
    e->gfirst[i] = e->ngeom;
    for (int k = 0; k < geom_count(b); k++) {
        tc_shape part = b->shape;
        double off[3] = {0, 0, 0};
        /* a compound part: an axis-aligned sphere or box at its body position */
        if (b->shape.type == TC_SHAPE_COMPOUND) {
            const tc_shape_part *pt = &b->shape.part[k];
            part = pt->type == TC_SHAPE_SPHERE ? tc_sphere(pt->size[0])
                                               : tc_box(pt->size[0], pt->size[1], pt->size[2]);
            tc_v3_copy(off, pt->pos);
        }
        dGeomID g = make_geom(e, i, &part, b);
        if (!g) return 0;
        e->geom[e->ngeom] = g;
        e->gbody[e->ngeom] = i;
        e->ngeom++;
        dGeomSetData(g, (void *)(intptr_t)i);
        if (part.type == TC_SHAPE_PLANE) continue;
        if (e->obody[i]) {
            dGeomSetBody(g, e->obody[i]);
            if (b->shape.type == TC_SHAPE_COMPOUND)
                dGeomSetOffsetPosition(g, off[0], off[1], off[2]);
            continue;
        }
        /* fixed: world pose of the part */
        double p[3];
        tc_m3_mulv(p, m, off);
        tc_v3_add(p, p, b->pos);
        dGeomSetPosition(g, p[0], p[1], p[2]);
        dGeomSetRotation(g, R);
    }
    e->gfirst[i + 1] = e->ngeom;
    return 1;
}

/* a planar body: a linear motor holding world z and an angular motor holding world x and y
 * rotation, both with unbounded force, so only x, y and the spin about z move */
static void make_planar_motors(engine *e, dBodyID body) {
    dJointID lm = dJointCreateLMotor(e->world, 0);
    dJointAttach(lm, body, 0);
    dJointSetLMotorNumAxes(lm, 1);
    dJointSetLMotorAxis(lm, 0, 0, 0, 0, 1);
    dJointSetLMotorParam(lm, dParamVel, 0);
    dJointSetLMotorParam(lm, dParamFMax, dInfinity);
    dJointID am = dJointCreateAMotor(e->world, 0);
    dJointAttach(am, body, 0);
    dJointSetAMotorMode(am, dAMotorUser);
    dJointSetAMotorNumAxes(am, 2);
    dJointSetAMotorAxis(am, 0, 0, 1, 0, 0);
    dJointSetAMotorAxis(am, 1, 0, 0, 1, 0);
    dJointSetAMotorParam(am, dParamVel, 0);
    dJointSetAMotorParam(am, dParamFMax, dInfinity);
    dJointSetAMotorParam(am, dParamVel2, 0);
    dJointSetAMotorParam(am, dParamFMax2, dInfinity);
}

/* the world, its bodies (mass and principal inertia from the scene) and geoms; 0 out of memory */
static int build_world(engine *e, const tc_scene *sc, const tc_params *p) {
    e->world = dWorldCreate();
    e->group = dJointGroupCreate(0);
    if (!e->world || !e->group) return 0;
    dWorldSetGravity(e->world, sc->gravity[0], sc->gravity[1], sc->gravity[2]);
    dWorldSetERP(e->world, tc_params_get(p, "erp"));
    dWorldSetCFM(e->world, tc_params_get(p, "cfm"));
    dWorldSetQuickStepNumIterations(e->world, (int)tc_params_get(p, "iterations"));
    dWorldSetQuickStepW(e->world, tc_params_get(p, "sor_w"));
    dWorldSetContactSurfaceLayer(e->world, tc_params_get(p, "surface_layer"));
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (b->joint == TC_JOINT_FIXED) continue;
        dBodyID body = dBodyCreate(e->world);
        e->obody[i] = body;
        dBodySetData(body, (void *)(intptr_t)i);
        /* pose, then mass: the inertia is diagonal in the body frame about the COM (the origin) */
        dMatrix3 R;
        to_dmatrix(R, b->quat);
        dBodySetPosition(body, b->pos[0], b->pos[1], b->pos[2]);
        dBodySetRotation(body, R);
        if (b->joint == TC_JOINT_KINEMATIC) {
            dBodySetKinematic(body);
        } else {
            dMass m;
            dMassSetParameters(&m, b->mass, 0, 0, 0, b->inertia[0], b->inertia[1], b->inertia[2], 0,
                               0, 0);
            dBodySetMass(body, &m);
        }
        if (b->joint == TC_JOINT_PLANAR) make_planar_motors(e, body);
    }
    for (int i = 0; i < sc->nbody; i++)
        if (!make_body_geoms(e, i, &sc->body[i])) return 0;
    return 1;
}

/* run fn(e, arg) with ODE's errors trapped; TC_EENGINE after dError/dDebug (the world is then
 * unusable: later calls fail at once) */
static tc_status guarded(engine *e, void (*fn)(engine *, void *), void *arg) {
    jmp_buf trap;
    if (!ready()) {
        tc_warnbuf_push(&e->warn, "ODE: ", "dAllocateODEDataForThread failed on this thread");
        return TC_EENGINE;
    }
    if (e->broken) {
        tc_warnbuf_push(&e->warn, "ODE: ", "the world is unusable after an earlier ODE error");
        return TC_EENGINE;
    }
    current = e;
    error_trap = &trap;
    if (setjmp(trap)) {
        error_trap = NULL;
        current = NULL;
        e->broken = 1;
        /* an error inside QuickStep jumped past the unlock */
        if (rand_locked) {
            rand_locked = 0;
            pthread_mutex_unlock(&rand_lock);
        }
        tc_warnbuf_push(&e->warn, "ODE error: ", error_text);
        return TC_EENGINE;
    }
    fn(e, arg);
    error_trap = NULL;
    current = NULL;
    return TC_OK;
}

/* release everything ODE and the adapter hold */
static void ode_free(void *state) {
    engine *e = state;
    if (!e) return;
    ready();
    error_trap = NULL;
    current = e;
    if (e->group) dJointGroupDestroy(e->group);
    for (int g = 0; g < e->ngeom; g++)
        dGeomDestroy(e->geom[g]);
    if (e->world) dWorldDestroy(e->world);
    current = NULL;
    for (int i = 0; i < TC_SCENE_MAXBODY; i++)
        free(e->poly[i]);
    free(e->geom);
    free(e->gbody);
    free(e->org);
    free(e->con);
    free(e->fb);
    free(e);
}

/* build_world under the trap */
typedef struct build_args {
    const tc_scene *sc;
    const tc_params *p;
    int ok;
} build_args;
static void build_call(engine *e, void *arg) {
    build_args *a = arg;
    a->ok = build_world(e, a->sc, a->p);
}

/* scene -> ODE world; checks what ODE cannot express */
static tc_status ode_alloc(void **state, const tc_scene *sc, const tc_params *p, double dt,
                           tc_error *err) {
    *state = NULL;
    if (!ready())
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "ODE: dInitODE2 or dAllocateODEDataForThread failed");
    /* dt, gravity, joints and shapes the adapter can express; a shape without a geom in ODE's
     * words */
    int unsup;
    tc_status chk = tc_engine_check_scene(sc, dt, ODE_SHAPES, &unsup, err);
    if (chk) return chk;
    if (unsup >= 0)
        return tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                            "body '%s': ODE adapter has no geom for shape type %d",
                            sc->body[unsup].name, (int)sc->body[unsup].shape.type);
    engine *e = calloc(1, sizeof *e);
    int ngeom = 0;
    for (int i = 0; i < sc->nbody; i++)
        ngeom += geom_count(&sc->body[i]);
    if (e) {
        e->geom = calloc((size_t)ngeom + 1, sizeof *e->geom);
        e->gbody = calloc((size_t)ngeom + 1, sizeof *e->gbody);
        e->org = calloc((size_t)sc->nbody + 1, sizeof *e->org);
    }
    if (!e || !e->geom || !e->gbody || !e->org) {
        ode_free(e);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    /* the contact settings of every pair */
    e->nbody = sc->nbody;
    e->body = sc->body;
    e->dt = dt;
    e->stepper = (int)tc_params_get(p, "stepper");
    e->maxc = (int)tc_params_get(p, "max_contacts");
    e->mu = sc->friction;
    e->bounce = tc_params_get(p, "bounce");
    e->bounce_vel = tc_params_get(p, "bounce_vel");
    e->soft_erp = tc_params_get(p, "soft_erp");
    e->soft_cfm = tc_params_get(p, "soft_cfm");
    e->bounce_on = e->bounce > 0;
    e->soft_erp_on = e->soft_erp >= 0;
    e->soft_cfm_on = e->soft_cfm >= 0;
    /* the world */
    build_args a = {sc, p, 0};
    tc_status st = guarded(e, build_call, &a);
    if (st || !a.ok) {
        char msg[sizeof error_text];
        snprintf(msg, sizeof msg, "%s", st ? error_text : "out of memory building the world");
        ode_free(e);
        return tc_error_set(err, st ? TC_EENGINE : TC_ENOMEM, NULL, 0, NULL, "ODE: %s", msg);
    }
    /* the state layout, as tc_system's */
    int nq = 0, nv = 0;
    for (int i = 0; i < sc->nbody; i++) {
        e->qadr[i] = e->vadr[i] = -1;
        if (sc->body[i].joint == TC_JOINT_FREE) {
            e->qadr[i] = nq;
            e->vadr[i] = nv;
            nq += 7;
            nv += 6;
        } else if (sc->body[i].joint == TC_JOINT_PLANAR) {
            e->qadr[i] = nq;
            e->vadr[i] = nv;
            nq += 3;
            nv += 3;
        }
    }
    *state = e;
    return TC_OK;
}

/* touche (q, v) into the ODE bodies; kinematic bodies to their paths at the time t */
static void state_in(engine *e, const double *q, const double *v) {
    for (int i = 0; i < e->nbody; i++) {
        dBodyID body = e->obody[i];
        const tc_body_desc *b = &e->body[i];
        if (!body) continue;
        /* kinematic: the path's position and velocity, the scene orientation */
        if (b->joint == TC_JOINT_KINEMATIC) {
            double x[3], u[3];
            tc_body_path(b, e->t, x, u);
            dBodySetPosition(body, x[0], x[1], x[2]);
            dBodySetLinearVel(body, u[0], u[1], u[2]);
            dBodySetAngularVel(body, 0, 0, 0);
            continue;
        }
        const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
        /* planar: (x, y, z0), rotation Rz(theta) R0, twist in the plane */
        if (b->joint == TC_JOINT_PLANAR) {
            double rz[4] = {cos(0.5 * qi[2]), 0, 0, sin(0.5 * qi[2])}, quat[4];
            tc_quat_mul(quat, rz, b->quat);
            tc_quat_normalize(quat);
            dBodySetPosition(body, qi[0], qi[1], b->pos[2]);
            dBodySetQuaternion(body, quat);
            dBodySetLinearVel(body, vi ? vi[0] : 0, vi ? vi[1] : 0, 0);
            dBodySetAngularVel(body, 0, 0, vi ? vi[2] : 0);
            e->theta[i] = qi[2];
            continue;
        }
        /* free: ODE's pose and twist are touche's (quaternion w x y z, world angular velocity) */
        double quat[4] = {qi[3], qi[4], qi[5], qi[6]};
        tc_quat_normalize(quat);
        dBodySetPosition(body, qi[0], qi[1], qi[2]);
        dBodySetQuaternion(body, quat);
        dBodySetLinearVel(body, vi ? vi[0] : 0, vi ? vi[1] : 0, vi ? vi[2] : 0);
        dBodySetAngularVel(body, vi ? vi[3] : 0, vi ? vi[4] : 0, vi ? vi[5] : 0);
    }
}

/* the ODE bodies back into touche (q, v); a planar angle continues from the last one */
static void state_out(const engine *e, double *q, double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        dBodyID body = e->obody[i];
        const dReal *x = dBodyGetPosition(body), *qt = dBodyGetQuaternion(body);
        const dReal *u = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
        double *qi = q + e->qadr[i], *vi = v + e->vadr[i];
        if (e->body[i].joint == TC_JOINT_PLANAR) {
            /* theta: the turn about z of R R0^T, unwrapped next to the step's start */
            double q0[4], conj0[4], dq[4], now[4] = {qt[0], qt[1], qt[2], qt[3]};
            memcpy(q0, e->body[i].quat, sizeof q0);
            tc_quat_normalize(q0);
            conj0[0] = q0[0];
            conj0[1] = -q0[1];
            conj0[2] = -q0[2];
            conj0[3] = -q0[3];
            tc_quat_mul(dq, now, conj0);
            double th = 2 * atan2(dq[3], dq[0]);
            qi[0] = x[0];
            qi[1] = x[1];
            qi[2] = e->theta[i] + remainder(th - e->theta[i], 2 * M_PI);
            vi[0] = u[0];
            vi[1] = u[1];
            vi[2] = w[2];
            continue;
        }
        for (int k = 0; k < 3; k++) {
            qi[k] = x[k];
            vi[k] = u[k];
            vi[3 + k] = w[k];
        }
        for (int k = 0; k < 4; k++)
            qi[3 + k] = qt[k];
    }
}

/* explicit forces on the moving bodies: external wrenches (at the COM), viscous joint damping
 * and the planar position servos kp (target - q), targets from ctrl (none: the scene pose) */
static void forces_in(engine *e, const double *ctrl, const tc_wrench *xfrc, const double *q,
                      const double *v) {
    for (int i = 0; i < e->nbody; i++) {
        dBodyID body = e->obody[i];
        const tc_body_desc *b = &e->body[i];
        if (!body || b->joint == TC_JOINT_KINEMATIC) continue;
        double f[3] = {0, 0, 0}, t[3] = {0, 0, 0};
        if (xfrc) {
            tc_v3_copy(f, xfrc[i].f);
            tc_v3_copy(t, xfrc[i].t);
        }
        const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
        if (b->joint == TC_JOINT_PLANAR) {
            double target[3] = {b->pos[0], b->pos[1], 0}, gen[3];
            if (ctrl) memcpy(target, ctrl + e->vadr[i], sizeof target);
            for (int k = 0; k < 3; k++)
                gen[k] = b->kp[k] * (target[k] - qi[k]) - (vi ? b->damping[k] * vi[k] : 0);
            f[0] += gen[0];
            f[1] += gen[1];
            t[2] += gen[2];
        } else if (vi) {
            for (int k = 0; k < 3; k++) {
                f[k] -= b->damping[k] * vi[k];
                t[k] -= b->damping[3 + k] * vi[3 + k];
            }
        }
        dBodyAddForce(body, f[0], f[1], f[2]);
        dBodyAddTorque(body, t[0], t[1], t[2]);
    }
}

/* 1 when the pair's geoms' boxes overlap (planes: infinite boxes) */
static int aabb_overlap(dGeomID a, dGeomID b) {
    dReal x[6], y[6];
    dGeomGetAABB(a, x);
    dGeomGetAABB(b, y);
    for (int k = 0; k < 3; k++)
        if (x[2 * k] > y[2 * k + 1] || y[2 * k] > x[2 * k + 1]) return 0;
    return 1;
}

/* 1 when a contact's point and depth are finite and its normal a unit vector: ODE 0.16's
 * convex-convex collider returns a zero normal for faces that touch exactly (E6's stacked
 * prisms), and a zero row makes the step's solve NaN */
static int sound_contact(const dContactGeom *g) {
    for (int k = 0; k < 3; k++)
        if (!isfinite(g->pos[k]) || !isfinite(g->normal[k])) return 0;
    double n = sqrt(g->normal[0] * g->normal[0] + g->normal[1] * g->normal[1] +
                    g->normal[2] * g->normal[2]);
    return isfinite(g->depth) && fabs(n - 1) < 1e-6;
}

/* room for n contacts (grows only; done before any joint points into fb) */
static int reserve(engine *e, int n) {
    if (n <= e->capcon) return 1;
    int cap = e->capcon ? e->capcon : 64;
    while (cap < n)
        cap *= 2;
    contact *c = realloc(e->con, (size_t)cap * sizeof *c);
    if (c) e->con = c;
    dJointFeedback *f = realloc(e->fb, (size_t)cap * sizeof *f);
    if (f) e->fb = f;
    if (!c || !f) return 0;
    e->capcon = cap;
    return 1;
}

/* one collision pass in a fixed order: every body pair with a moving body, every geom pair;
 * the first body of a contact is the moving (or kinematic) one, its normal pushing it */
static int collide(engine *e) {
    dJointGroupEmpty(e->group);
    e->ncon = 0;
    for (int a = 0; a < e->nbody; a++)
        for (int b = a + 1; b < e->nbody; b++) {
            tc_joint_type ja = e->body[a].joint, jb = e->body[b].joint;
            int ma = ja == TC_JOINT_FREE || ja == TC_JOINT_PLANAR;
            int mb = jb == TC_JOINT_FREE || jb == TC_JOINT_PLANAR;
            /* ODE moves neither a fixed nor a kinematic body: such pairs have no contact */
            if (!ma && !mb) continue;
            for (int ga = e->gfirst[a]; ga < e->gfirst[a + 1]; ga++)
                for (int gb = e->gfirst[b]; gb < e->gfirst[b + 1]; gb++) {
                    if (!aabb_overlap(e->geom[ga], e->geom[gb])) continue;
                    dContactGeom cg[64];
                    int n = dCollide(e->geom[ga], e->geom[gb], e->maxc, cg, sizeof cg[0]);
                    if (n <= 0) continue;
                    if (!reserve(e, e->ncon + n)) return 0;
                    /* dCollide's normal points into its first geom: keep a first when a
                     * has an ODE body, else swap */
                    int swap = e->obody[a] == NULL;
                    for (int k = 0; k < n; k++) {
                        if (!sound_contact(&cg[k])) {
                            /* the first in detail; warnings() reports the count */
                            if (e->nbad++ == 0) {
                                char line[200];
                                snprintf(line, sizeof line,
                                         "dCollide gave a contact with a non-unit normal "
                                         "(%g %g %g) between '%s' and '%s': dropped",
                                         cg[k].normal[0], cg[k].normal[1], cg[k].normal[2],
                                         e->body[a].name, e->body[b].name);
                                tc_warnbuf_push(&e->warn, "ODE: ", line);
                                e->nbad_told = 1;
                            }
                            continue;
                        }
                        contact *c = &e->con[e->ncon++];
                        c->g = cg[k];
                        c->a = swap ? b : a;
                        c->b = swap ? a : b;
                        if (swap)
                            for (int d = 0; d < 3; d++)
                                c->g.normal[d] = -c->g.normal[d];
                    }
                }
        }
    /* the contact joints, each with its feedback slot */
    for (int k = 0; k < e->ncon; k++) {
        const contact *c = &e->con[k];
        dContact ct;
        memset(&ct, 0, sizeof ct);
        ct.geom = c->g;
        ct.surface.mode = dContactApprox1;
        ct.surface.mu = e->mu;
        if (e->bounce_on) {
            ct.surface.mode |= dContactBounce;
            ct.surface.bounce = e->bounce;
            ct.surface.bounce_vel = e->bounce_vel;
        }
        if (e->soft_erp_on) {
            ct.surface.mode |= dContactSoftERP;
            ct.surface.soft_erp = e->soft_erp;
        }
        if (e->soft_cfm_on) {
            ct.surface.mode |= dContactSoftCFM;
            ct.surface.soft_cfm = e->soft_cfm;
        }
        dJointID j = dJointCreateContact(e->world, e->group, &ct);
        dJointAttach(j, e->obody[c->a], e->obody[c->b]);
        memset(&e->fb[k], 0, sizeof e->fb[k]);
        dJointSetFeedback(j, &e->fb[k]);
    }
    return 1;
}

/* one step of the world: QuickStep draws from ODE's process-wide dRand to shuffle its rows, so
 * it runs one at a time with this run's own seed (the result cannot depend on other threads);
 * a force query (query = 1) starts from seed 0 and leaves the run's seed alone, so it is a
 * function of (q, v) only */
static int world_step(engine *e, int query) {
    if (e->stepper == 0) return dWorldStep(e->world, e->dt) != 0;
    pthread_mutex_lock(&rand_lock);
    rand_locked = 1;
    dRandSetSeed(query ? 0 : e->seed);
    int ok = dWorldQuickStep(e->world, e->dt) != 0;
    if (!query) e->seed = dRandGetSeed();
    rand_locked = 0;
    pthread_mutex_unlock(&rand_lock);
    return ok;
}

/* one step from (q, v): forces, collision, world step; ok = 0 when ODE ran out of memory */
typedef struct step_args {
    const double *ctrl, *q, *v;
    const tc_wrench *xfrc;
    int query, ok;
} step_args;
static void step_call(engine *e, void *arg) {
    step_args *a = arg;
    state_in(e, a->q, a->v);
    forces_in(e, a->ctrl, a->xfrc, a->q, a->v);
    a->ok = collide(e) && world_step(e, a->query);
}

/* contact wrenches at (q, v): ODE has no force-only query, so one step from (q, v) is taken
 * and the contact joints' feedback read (the step itself is discarded: every call sets the
 * bodies from q and v). A contact's force acts at its point (ODE's contact rows carry no
 * torque), so each body's torque is taken about its COM where the step started */
static tc_status ode_force(void *state, const double *q, const double *v, tc_wrench *w) {
    engine *e = state;
    memset(w, 0, (size_t)e->nbody * sizeof *w);
    step_args a = {NULL, q, v, NULL, 1, 0};
    /* the COMs at the start: fixed bodies' scene positions, kinematic ones on their paths */
    for (int i = 0; i < e->nbody; i++) {
        if (e->body[i].joint == TC_JOINT_KINEMATIC)
            tc_body_path(&e->body[i], e->t, e->org[i], NULL);
        else if (e->qadr[i] >= 0)
            memcpy(e->org[i], q + e->qadr[i], sizeof e->org[i]);
        else
            memcpy(e->org[i], e->body[i].pos, sizeof e->org[i]);
    }
    tc_status st = guarded(e, step_call, &a);
    if (st == TC_OK && !a.ok) st = TC_ENOMEM;
    /* each contact: f1 on its first body, the opposite on its second */
    for (int k = 0; st == TC_OK && k < e->ncon; k++) {
        const contact *c = &e->con[k];
        double F[3] = {e->fb[k].f1[0], e->fb[k].f1[1], e->fb[k].f1[2]};
        double x[3] = {c->g.pos[0], c->g.pos[1], c->g.pos[2]};
        tc_wrench_add_at(&w[c->a], e->org[c->a], x, F, 1);
        tc_wrench_add_at(&w[c->b], e->org[c->b], x, F, -1);
    }
    return st;
}

/* the last step's contact impulses: each contact joint's feedback force f1 on its first body
 * (the moving one, whose side dCollide's normal points into) times dt, ODE holding its
 * constraint forces over the step; in touche's order the first body is b, the normal from a */
static int ode_impulses(void *state, tc_contact_impulse *out, int max) {
    engine *e = state;
    for (int k = 0; out && k < e->ncon && k < max; k++) {
        const contact *c = &e->con[k];
        tc_contact_impulse *o = &out[k];
        const double *f = e->fb[k].f1, *nr = c->g.normal;
        const double fn = f[0] * nr[0] + f[1] * nr[1] + f[2] * nr[2];
        o->a = c->b;
        o->b = c->a;
        for (int d = 0; d < 3; d++) {
            o->pos[d] = c->g.pos[d];
            o->normal[d] = nr[d];
            o->tangent_impulse[d] = e->dt * (f[d] - fn * nr[d]);
        }
        o->depth = c->g.depth;
        o->normal_impulse = e->dt * fn;
    }
    return e->ncon;
}

/* one ODE step from (q, v) with servo targets ctrl and external wrenches xfrc, written back
 * into (q, v); kinematic bodies start on their paths at the step's start and move with their
 * path velocity; the time advances by dt whatever the outcome */
static tc_status ode_step(void *state, const double *ctrl, const tc_wrench *xfrc, double *q,
                          double *v) {
    engine *e = state;
    step_args a = {ctrl, q, v, xfrc, 0, 0};
    tc_status st = guarded(e, step_call, &a);
    e->t += e->dt;
    if (st) return st;
    if (!a.ok) return TC_ENOMEM;
    state_out(e, q, v);
    /* ODE does not check its numbers: a NaN or Inf is divergence */
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        int nq = e->body[i].joint == TC_JOINT_FREE ? 7 : 3;
        for (int k = 0; k < nq; k++)
            if (!isfinite(q[e->qadr[i] + k])) return TC_EDIVERGED;
        for (int k = 0; k < (nq == 7 ? 6 : 3); k++)
            if (!isfinite(v[e->vadr[i] + k])) return TC_EDIVERGED;
    }
    return TC_OK;
}

/* this engine's queued lines, then the thread's orphans */
static int ode_warnings(void *state, char *buf, int n) {
    engine *e = state;
    int used = 0;
    if (buf && n > 0) buf[0] = '\0';
    if (e->nbad > e->nbad_told) {
        char line[120];
        snprintf(line, sizeof line, "%ld degenerate contacts dropped so far", e->nbad);
        tc_warnbuf_push(&e->warn, "ODE: ", line);
        e->nbad_told = e->nbad;
    }
    int count = tc_warnbuf_drain(&e->warn, "ODE messages", buf, n, &used);
    return count + tc_warnbuf_drain(&orphan, "ODE messages", buf, n, &used);
}

/* the contact joints of the last step or force query */
static int ode_ncontact(void *state) {
    return ((engine *)state)->ncon;
}

/* the engine type */
const tc_engine_type tc_engine_ode = {
    .name = "ode",
    .summary = "ODE 0.16: LCP contact joints (ERP/CFM, Coulomb friction pyramid), QuickStep",
    .version = ODE_VERSION,
    .params = ode_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION,
    .shapes = ODE_SHAPES,
    .alloc = ode_alloc,
    .force = ode_force,
    .step = ode_step,
    .warnings = ode_warnings,
    .ncontact = ode_ncontact,
    .free = ode_free,
    .impulses = ode_impulses,
};
