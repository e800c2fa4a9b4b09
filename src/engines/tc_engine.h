/* SPDX-License-Identifier: MIT */
/* engine adapter interface: an external simulator behind the same operations as model/solver */
#ifndef TC_ENGINE_H
#define TC_ENGINE_H

#include "core/tc_caps.h"
#include "core/tc_param.h"
#include "core/tc_registry.h"
#include "dyn/tc_system.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* the impulse one contact received (solvers/tc_contact_space.h) */
typedef struct tc_contact_impulse tc_contact_impulse;

/* an engine type: one const instance per file in src/engines/.
 * q and v use touche's layout (tc_system): per free body q = (pos, quat), v = (vel, omega_world).
 */
typedef struct tc_engine_type {
    const char *name; /* e.g. "mujoco" */
    const char *summary;
    const char *version;         /* version of the library linked, e.g. "2.2.2" */
    const tc_param_spec *params; /* NULL-terminated */
    unsigned caps;
    unsigned shapes; /* TC_SHAPE_BIT mask */
    /* translate the scene into the engine's model; dt is the step (s). The scene is not copied:
     * it must outlive the state and stay unchanged (as for tc_sim_alloc) */
    tc_status (*alloc)(void **state, const tc_scene *scene, const tc_params *p, double dt,
                       tc_error *err);
    /* contact wrenches on every body (w[nbody]) at state (q, v); v may be NULL (at rest) */
    tc_status (*force)(void *state, const double *q, const double *v, tc_wrench *w);
    /* advance (q, v) by one step of dt with position-servo targets ctrl[nv] and external wrenches
     * xfrc[nbody] (world frame, torque about the COM; may be NULL) held constant */
    tc_status (*step)(void *state, const double *ctrl, const tc_wrench *xfrc, double *q, double *v);
    /* warnings the engine raised since the last call, one per line, into buf; returns count */
    int (*warnings)(void *state, char *buf, int n);
    /* optional: the contacts the engine's last step or force query held */
    int (*ncontact)(void *state);
    void (*free)(void *state);
    /* optional (TC_CAP_GRADIENT): the engine's own derivatives of one step from (q, v) with
     * ctrl and xfrc held, in touche's tangent coordinates (sim/tc_grad.h): A[(2 nv) x (2 nv)],
     * B[(2 nv) x (2 nv)] with u = (tau, ctrl), row-major; q and v are not changed (MuJoCo:
     * mjd_transitionFD, as its users get them) */
    tc_status (*jacobian)(void *state, const double *ctrl, const tc_wrench *xfrc, const double *q,
                          const double *v, double *A, double *B);
    /* optional: the contact impulses (N s) the last step applied, one per engine contact, in
     * touche's convention (normal from body a to body b, b receives normal_impulse * normal +
     * tangent_impulse), the first min(n, max) into out (out may be NULL); returns n. Allocates
     * nothing (docs/residuals.md: each engine's frame and sign) */
    int (*impulses)(void *state, tc_contact_impulse *out, int max);
} tc_engine_type;

/* the registry: tc_engines[] is the built-in table (one line per file); tc_engine_at(i) walks it
 * and then the types registered at run time (NULL past the end); find by name */
extern const tc_engine_type *const tc_engines[];
const tc_engine_type *tc_engine_at(int i);
const tc_engine_type *tc_engine_find(const char *name);

/* the built-in engines this build left out (meson -Dmujoco=disabled, -Dode=, -Dbullet=, or
 * their packages missing under auto: docs/building.md), by name, NULL-terminated; a method
 * naming one is refused with that reason */
extern const char *const tc_engines_left_out[];

/* add a type at run time (a test's own engine, a program that embeds touche); its name must be
 * new. Not thread-safe: register before anything runs */
tc_status tc_engine_register(const tc_engine_type *t, tc_error *err);

#ifdef __cplusplus
}
#endif

#endif
