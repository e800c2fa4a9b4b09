/* SPDX-License-Identifier: MIT */
/* contact-model interface: a force law from body poses and twists to body wrenches */
#ifndef TC_MODEL_H
#define TC_MODEL_H

#include "core/tc_caps.h"
#include "collide/tc_collide.h"
#include "core/tc_param.h"
#include "core/tc_registry.h"
#include "dyn/tc_system.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* counters a model fills on each force evaluation */
typedef struct tc_contact_stats {
    long long pair_evals; /* innermost kernel evaluations (e.g. SCM point-point pairs) */
    int ncontact;         /* number of active contacts (model's own notion) */
} tc_contact_stats;

/* the force one contact point carries at given poses and twists (a model's contact_forces):
 * body b receives force, body a the opposite */
typedef struct tc_model_force {
    int a, b;         /* body indices */
    double pos[3];    /* world point where the force acts (m) */
    double normal[3]; /* unit contact normal from a to b, world */
    double depth;     /* m: > 0 overlapping */
    double force[3];  /* N, world frame, on body b (normal and friction parts together) */
} tc_model_force;

/* tc_model_contact, one contact point between two bodies for velocity-level solvers
 * (TC_CAP_CONTACTS), is defined in collide/tc_collide.h */

/* a contact model type: one const instance per file in src/models/ (like gsl_odeiv2_step_type).
 * The state made by alloc is owned by one run (one thread) and holds all its scratch memory:
 * force() must not allocate. */
typedef struct tc_model_type {
    const char *name;            /* as written in method specs, e.g. "scm" */
    const char *summary;         /* one line for `touche list` */
    const char *reference;       /* paper or source */
    const tc_param_spec *params; /* NULL-terminated table */
    unsigned caps;               /* TC_CAP_* */
    unsigned shapes;             /* TC_SHAPE_BIT mask of shape types it can handle */
    const char *solver;          /* the solver a bare "model" means; NULL: the first registered */
    /* build the state for a scene (sample shapes, size workspaces) */
    tc_status (*alloc)(void **state, const tc_scene *scene, const tc_params *p, tc_error *err);
    /* wrenches on every body (w[nbody], zeroed by the model) at poses and twists bs; NULL for a
     * model that only reports contact points (a solver that resolves contacts must do the rest) */
    tc_status (*force)(void *state, const tc_body_state *bs, tc_wrench *w, tc_contact_stats *st);
    void (*free)(void *state);
    /* optional (NULL for memoryless force laws): called once at the start of every step with the
     * step's start poses bs and step dt (s); may update the model's memory (integral terms,
     * contact phases) and apply impulses by changing the velocities v[nv] (tc_system layout) */
    tc_status (*step_begin)(void *state, const tc_system *sys, const tc_body_state *bs, double dt,
                            double *v);
    /* optional (TC_CAP_CONTACTS): contact points at poses bs into c[max]; returns how many */
    int (*contacts)(void *state, const tc_body_state *bs, tc_model_contact *c, int max);
    /* optional (TC_CAP_GRADIENT): force() at bs and its derivatives dw[(6 nbody) x (12 nbody)],
     * row-major, zeroed by the model. Row 6 i + r is body i's wrench entry r (0-2 force (N),
     * 3-5 torque about the COM (N m), world frame); column 12 j + c is body j's pose or twist
     * entry c: 0-2 COM position (m), 3-5 rotation (rad, world frame: R' = exp([d]x) R), 6-8
     * COM velocity (m/s), 9-11 angular velocity (rad/s, world frame). Every body's columns
     * are filled, fixed and kinematic ones too (callers ignore those they do not need) */
    tc_status (*force_jacobian)(void *state, const tc_body_state *bs, tc_wrench *w, double *dw,
                                tc_contact_stats *st);
    /* optional: the forces force() applies at poses bs, point by point (the same arithmetic, so
     * they sum to force()'s wrenches), the first min(n, max) into out (out may be NULL); returns
     * n, the points that push. Residual tracking (sim/tc_residual.h) turns them into impulses;
     * a model without it is reported per body pair from its wrenches (docs/residuals.md) */
    int (*contact_forces)(void *state, const tc_body_state *bs, tc_model_force *out, int max);
} tc_model_type;

/* the registry: tc_models[] is the built-in table (one line per file); tc_model_at(i) walks it
 * and then the types registered at run time (NULL past the end); find by name */
extern const tc_model_type *const tc_models[];
const tc_model_type *tc_model_at(int i);
const tc_model_type *tc_model_find(const char *name);

/* add a type at run time (a test's own model, a program that embeds touche); its name must be
 * new. Not thread-safe: register before anything runs */
tc_status tc_model_register(const tc_model_type *t, tc_error *err);

#ifdef __cplusplus
}
#endif

#endif
