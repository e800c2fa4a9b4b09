/* SPDX-License-Identifier: MIT */
/* the engine adapters' tests: one engine instance on a scene with its state vectors */
#ifndef TEST_ENGINE_RUN_H
#define TEST_ENGINE_RUN_H

#include <criterion/criterion.h>
#include <string.h>

#include "dyn/tc_system.h"
#include "engines/tc_engine.h"

/* state sizes: every body of a scene unless the test file sets fewer */
#ifndef NQ
#define NQ (7 * TC_SCENE_MAXBODY)
#define NV (6 * TC_SCENE_MAXBODY)
#endif

/* one engine instance on a scene, with its state vectors */
typedef struct run {
    const tc_engine_type *type;
    tc_scene scene;
    tc_system sys;
    tc_params p;
    void *st;
    double q[NQ], v[NV];
} run;

/* r for engine t: an empty scene, t's default parameters */
static inline void run_reset(run *r, const tc_engine_type *t) {
    memset(r, 0, sizeof *r);
    r->type = t;
    tc_scene_init(&r->scene);
    tc_params_default(&r->p, t->params);
}

/* set a parameter that must be accepted */
static inline void set_param(run *r, const char *name, double value) {
    tc_error err = {0};
    cr_assert_eq(tc_params_set(&r->p, name, value, &err), TC_OK, "%s", err.msg);
}

/* build the engine on r->scene with r->p and step dt; initial state into q, v */
static inline void start(run *r, double dt) {
    tc_error err = {0};
    tc_system_init(&r->sys, &r->scene);
    tc_system_initial_state(&r->sys, r->q, r->v);
    tc_status s = r->type->alloc(&r->st, &r->scene, &r->p, dt, &err);
    cr_assert_eq(s, TC_OK, "alloc: %s", err.msg);
}

#endif
