/* SPDX-License-Identifier: MIT */
/* the C++ side of the Bullet adapter: one btDiscreteDynamicsWorld behind tc_bullet_world.h */
#include "engines/tc_bullet_world.h"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <vector>

/* the adapter hands doubles through: the double-precision build (bullet-float64) is required */
static_assert(sizeof(btScalar) == sizeof(double), "build against bullet-float64 (double btScalar)");

/* everything one world owns; nothing is static, so worlds in different threads share nothing
 * of ours (Bullet's own process-wide variables: docs/engines/bullet.md) */
struct tc_bullet_world {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher;
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<tc_bullet_contact> contacts; /* of the last step */

    explicit tc_bullet_world(const tc_bullet_config *c)
        : config(), dispatcher(&config), broadphase(), solver(),
          world(&dispatcher, &broadphase, &solver, &config) {
        /* perturbed extra points per narrow-phase call (Bullet's default: none) */
        if (c->multipoint > 0) {
            config.setConvexConvexMultipointIterations(c->multipoint, 4);
            config.setPlaneConvexMultipointIterations(c->multipoint, 4);
        }
        world.setGravity(btVector3(c->gravity[0], c->gravity[1], c->gravity[2]));
        btContactSolverInfo &si = world.getSolverInfo();
        si.m_numIterations = c->iterations;
        si.m_erp = c->erp;
        si.m_erp2 = c->erp2;
        si.m_globalCfm = c->cfm;
        si.m_splitImpulse = c->split_impulse != 0;
        si.m_splitImpulsePenetrationThreshold = c->split_threshold;
        si.m_splitImpulseTurnErp = c->split_turn_erp;
        si.m_sor = c->sor;
        si.m_warmstartingFactor = c->warmstart_factor;
        si.m_restitutionVelocityThreshold = c->restitution_threshold;
        if (!c->warmstart) si.m_solverMode &= ~SOLVER_USE_WARMSTARTING;
        if (c->friction_2dirs) si.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
        gyroscopic = c->gyroscopic != 0;
    }
    bool gyroscopic = true;
};

/* copy a message into err */
static void say(char *err, int n, const char *msg) {
    if (err && n > 0) std::snprintf(err, (size_t)n, "%s", msg);
}

/* touche (w, x, y, z) to Bullet (x, y, z, w) and back */
static btQuaternion quat_in(const double q[4]) {
    return btQuaternion(q[1], q[2], q[3], q[0]);
}

/* the convex shape of one primitive; the margin stays inside boxes and cylinders */
static btCollisionShape *primitive(int shape, const double *size, double margin) {
    switch (shape) {
    case TC_BW_SPHERE:
        return new btSphereShape(size[0]); /* its margin is the radius */
    case TC_BW_BOX: {
        btBoxShape *s = new btBoxShape(btVector3(size[0], size[1], size[2]));
        s->setMargin(margin);
        return s;
    }
    case TC_BW_CYLINDER: {
        btCylinderShapeZ *s = new btCylinderShapeZ(btVector3(size[0], size[0], size[1]));
        s->setMargin(margin);
        return s;
    }
    default:
        return nullptr;
    }
}

/* a hull from face planes moved in by the margin, so hull plus margin is the polytope: its
 * vertices are the meeting points of three planes that lie inside every other plane.
 * (btGeometryUtil::getVerticesFromPlaneEquations does the same but accepts points up to 1 cm
 * outside a plane, which would inflate touche's centimetre-sized polytopes.) */
static btCollisionShape *hull(const tc_bullet_body *b, char *err, int n) {
    int nf = b->nplane;
    std::vector<btVector3> nrm((size_t)nf);
    std::vector<double> d((size_t)nf);
    double scale = 0;
    for (int f = 0; f < nf; f++) {
        const double *p = b->plane + 4 * f;
        nrm[(size_t)f] = btVector3(p[0], p[1], p[2]);
        d[(size_t)f] = p[3] - b->margin;
        scale = std::fmax(scale, std::fabs(p[3]));
    }
    /* each triple of independent planes; keep the point when no plane has it outside */
    double tol = 1e-9 * scale;
    btAlignedObjectArray<btVector3> verts;
    for (int i = 0; i < nf; i++)
        for (int j = i + 1; j < nf; j++)
            for (int k = j + 1; k < nf; k++) {
                const btVector3 &a = nrm[(size_t)i], &bb = nrm[(size_t)j], &c = nrm[(size_t)k];
                btVector3 bc = bb.cross(c), ca = c.cross(a), ab = a.cross(bb);
                double det = a.dot(bc);
                if (std::fabs(det) < 1e-9) continue;
                btVector3 x = (bc * d[(size_t)i] + ca * d[(size_t)j] + ab * d[(size_t)k]) / det;
                bool inside = true;
                for (int f = 0; f < nf && inside; f++)
                    inside = nrm[(size_t)f].dot(x) <= d[(size_t)f] + tol;
                if (inside) verts.push_back(x);
            }
    if (verts.size() < 4) {
        say(err, n, "the polytope shrunk by the collision margin has fewer than 4 vertices");
        return nullptr;
    }
    btConvexHullShape *s = new btConvexHullShape(&verts[0][0], verts.size(), sizeof(btVector3));
    s->setMargin(b->margin);
    s->optimizeConvexHull();
    return s;
}

/* the whole shape of one body */
static btCollisionShape *make_shape(tc_bullet_world *w, const tc_bullet_body *b, char *err, int n) {
    switch (b->shape) {
    case TC_BW_PLANE:
        return new btStaticPlaneShape(btVector3(0, 0, 1), 0);
    case TC_BW_HULL:
        return hull(b, err, n);
    case TC_BW_COMPOUND: {
        /* children are owned by the world's list; the compound only points to them */
        btCompoundShape *c = new btCompoundShape(false, b->npart);
        for (int k = 0; k < b->npart; k++) {
            const double *sz = b->part_size + 3 * k, *ps = b->part_pos + 3 * k;
            double m = b->margin;
            if (b->part_shape[k] == TC_BW_BOX)
                for (int j = 0; j < 3; j++)
                    m = std::fmin(m, 0.2 * sz[j]);
            btCollisionShape *child = primitive(b->part_shape[k], sz, m);
            if (!child) {
                delete c;
                say(err, n, "a compound part is neither a sphere nor a box");
                return nullptr;
            }
            w->shapes.emplace_back(child);
            btTransform t;
            t.setIdentity();
            t.setOrigin(btVector3(ps[0], ps[1], ps[2]));
            c->addChildShape(t, child);
        }
        return c;
    }
    default: {
        btCollisionShape *s = primitive(b->shape, b->size, b->margin);
        if (!s) say(err, n, "unknown shape");
        return s;
    }
    }
}

/* the body: static (mass 0), kinematic (mass 0, moved by the adapter) or dynamic with the
 * scene's mass and principal inertia, never put to sleep */
static int add_body(tc_bullet_world *w, const tc_bullet_body *b, char *err, int n) {
    btCollisionShape *shape = make_shape(w, b, err, n);
    if (!shape) return -1;
    w->shapes.emplace_back(shape);
    double mass = b->motion == TC_BW_DYNAMIC ? b->mass : 0;
    btVector3 inertia(0, 0, 0);
    if (b->motion == TC_BW_DYNAMIC)
        inertia = btVector3(b->inertia[0], b->inertia[1], b->inertia[2]);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_friction = b->friction;
    info.m_restitution = b->restitution;
    btTransform t(quat_in(b->quat), btVector3(b->pos[0], b->pos[1], b->pos[2]));
    info.m_startWorldTransform = t;
    btRigidBody *body = new btRigidBody(info);
    w->bodies.emplace_back(body);
    if (b->motion == TC_BW_KINEMATIC)
        body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
    if (b->motion == TC_BW_DYNAMIC) {
        body->setLinearFactor(
            btVector3(b->linear_factor[0], b->linear_factor[1], b->linear_factor[2]));
        body->setAngularFactor(
            btVector3(b->angular_factor[0], b->angular_factor[1], b->angular_factor[2]));
        int flags = body->getFlags() & ~BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY;
        body->setFlags(w->gyroscopic ? flags | BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY : flags);
    }
    body->setActivationState(DISABLE_DEACTIVATION);
    body->setUserIndex((int)w->bodies.size() - 1);
    w->world.addRigidBody(body);
    return (int)w->bodies.size() - 1;
}

/* the contact points of every manifold, in the dispatcher's order */
static void collect(tc_bullet_world *w) {
    w->contacts.clear();
    int nm = w->dispatcher.getNumManifolds();
    for (int m = 0; m < nm; m++) {
        const btPersistentManifold *pm = w->dispatcher.getManifoldByIndexInternal(m);
        int a = pm->getBody0()->getUserIndex(), b = pm->getBody1()->getUserIndex();
        for (int k = 0; k < pm->getNumContacts(); k++) {
            const btManifoldPoint &p = pm->getContactPoint(k);
            tc_bullet_contact c;
            c.a = a, c.b = b;
            for (int j = 0; j < 3; j++) {
                c.pa[j] = p.getPositionWorldOnA()[j], c.pb[j] = p.getPositionWorldOnB()[j];
                c.normal[j] = p.m_normalWorldOnB[j];
                c.dir1[j] = p.m_lateralFrictionDir1[j], c.dir2[j] = p.m_lateralFrictionDir2[j];
            }
            c.depth = p.getDistance();
            c.impulse = p.m_appliedImpulse;
            c.impulse1 = p.m_appliedImpulseLateral1;
            c.impulse2 = p.m_appliedImpulseLateral2;
            w->contacts.push_back(c);
        }
    }
}

extern "C" {

tc_bullet_world *tc_bullet_world_new(const tc_bullet_config *cfg, char *err, int n) {
    try {
        return new tc_bullet_world(cfg);
    } catch (const std::exception &e) {
        say(err, n, e.what());
    } catch (...) {
        say(err, n, "unknown C++ exception creating the Bullet world");
    }
    return nullptr;
}

int tc_bullet_world_add(tc_bullet_world *w, const tc_bullet_body *b, char *err, int n) {
    try {
        return add_body(w, b, err, n);
    } catch (const std::exception &e) {
        say(err, n, e.what());
    } catch (...) {
        say(err, n, "unknown C++ exception adding a Bullet body");
    }
    return -1;
}

void tc_bullet_world_set(tc_bullet_world *w, int i, const double pos[3], const double quat[4],
                         const double vel[3], const double omega[3]) {
    btRigidBody *b = w->bodies[(size_t)i].get();
    /* setCenterOfMassTransform also refreshes the interpolation frame and the world inertia */
    b->setCenterOfMassTransform(btTransform(quat_in(quat), btVector3(pos[0], pos[1], pos[2])));
    b->setLinearVelocity(btVector3(vel[0], vel[1], vel[2]));
    b->setAngularVelocity(btVector3(omega[0], omega[1], omega[2]));
}

void tc_bullet_world_set_kinematic(tc_bullet_world *w, int i, const double pos[3],
                                   const double quat[4], const double vel[3], double dt) {
    btRigidBody *b = w->bodies[(size_t)i].get();
    btTransform now(quat_in(quat), btVector3(pos[0], pos[1], pos[2]));
    /* Bullet takes a kinematic body's velocity from its last and current frames over the step
     * (saveKinematicState): the last frame one step back along vel gives exactly vel */
    btTransform before = now;
    before.setOrigin(now.getOrigin() - btVector3(vel[0], vel[1], vel[2]) * dt);
    b->setInterpolationWorldTransform(before);
    b->setWorldTransform(now);
}

void tc_bullet_world_get(const tc_bullet_world *w, int i, double pos[3], double quat[4],
                         double vel[3], double omega[3]) {
    const btRigidBody *b = w->bodies[(size_t)i].get();
    const btTransform &t = b->getCenterOfMassTransform();
    btQuaternion r = t.getRotation();
    for (int k = 0; k < 3; k++) {
        pos[k] = t.getOrigin()[k];
        vel[k] = b->getLinearVelocity()[k];
        omega[k] = b->getAngularVelocity()[k];
    }
    quat[0] = r.w(), quat[1] = r.x(), quat[2] = r.y(), quat[3] = r.z();
}

void tc_bullet_world_apply(tc_bullet_world *w, int i, const double f[3], const double t[3]) {
    btRigidBody *b = w->bodies[(size_t)i].get();
    b->applyCentralForce(btVector3(f[0], f[1], f[2]));
    b->applyTorque(btVector3(t[0], t[1], t[2]));
}

void tc_bullet_world_forget_contacts(tc_bullet_world *w) {
    int nm = w->dispatcher.getNumManifolds();
    for (int m = 0; m < nm; m++)
        w->dispatcher.getManifoldByIndexInternal(m)->clearManifold();
    w->contacts.clear();
}

int tc_bullet_world_step(tc_bullet_world *w, double dt, char *err, int n) {
    try {
        /* maxSubSteps = 0: Bullet's variable-step mode, one internal step of exactly dt with no
         * time accumulator and no motion-state interpolation */
        w->world.stepSimulation(dt, 0, dt);
        collect(w);
        return 0;
    } catch (const std::exception &e) {
        say(err, n, e.what());
    } catch (...) {
        say(err, n, "unknown C++ exception in stepSimulation");
    }
    return -1;
}

int tc_bullet_world_ncontact(const tc_bullet_world *w) {
    return (int)w->contacts.size();
}

void tc_bullet_world_contact(const tc_bullet_world *w, int k, tc_bullet_contact *c) {
    *c = w->contacts[(size_t)k];
}

void tc_bullet_world_free(tc_bullet_world *w) {
    if (!w) return;
    /* bodies leave the world before it, the shapes and the rest go down with the struct */
    for (auto &b : w->bodies)
        w->world.removeRigidBody(b.get());
    delete w;
}

int tc_bullet_version(void) {
    return btGetVersion();
}
int tc_bullet_double_precision(void) {
    return btIsDoublePrecision() ? 1 : 0;
}

} /* extern "C" */
