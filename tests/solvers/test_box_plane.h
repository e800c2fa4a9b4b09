/* SPDX-License-Identifier: MIT */
/* shared by the LCP tests: a test-local contact model (box-plane contact points from tc_collide
 * within a 1 mm margin, no forces of its own), methods "box-plane/<solver>" built by hand, and a
 * 1 m, 10 kg cube on the plane z = 0 */
#ifndef TC_TEST_BOX_PLANE_H
#define TC_TEST_BOX_PLANE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "collide/tc_collide.h"
#include "sim/tc_sim.h"

#define DT     1e-3 /* s */
#define MARGIN 1e-3 /* m: corners closer than this to the plane are contacts */

static const tc_param_spec no_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

static inline tc_status bp_alloc(void **state, const tc_scene *scene, const tc_params *p,
                                 tc_error *err) {
    (void)p, (void)err;
    *state = (void *)scene;
    return TC_OK;
}

static inline tc_status bp_force(void *state, const tc_body_state *bs, tc_wrench *w,
                                 tc_contact_stats *st) {
    (void)bs;
    const tc_scene *sc = state;
    memset(w, 0, (size_t)sc->nbody * sizeof *w);
    st->ncontact = 0;
    return TC_OK;
}

static inline void bp_free(void *state) {
    (void)state;
}

static inline int bp_contacts(void *state, const tc_body_state *bs, tc_model_contact *c, int max) {
    const tc_scene *sc = state;
    int nc = 0;
    for (int i = 0; i < sc->nbody; i++)
        for (int j = i + 1; j < sc->nbody; j++) {
            tc_contact tmp[TC_COLLIDE_MAX];
            int m = tc_collide(&sc->body[i].shape, &bs[i], &sc->body[j].shape, &bs[j], MARGIN, tmp);
            for (int x = 0; x < m && nc < max; x++)
                c[nc++] = (tc_model_contact){i, j, tmp[x]};
        }
    return nc;
}

static const tc_model_type box_plane_model = {
    .name = "box-plane",
    .summary = "test: box-plane contact points, no forces",
    .params = no_params,
    .caps = TC_CAP_CONTACTS | TC_CAP_DYNAMICS | TC_CAP_FRICTION,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE),
    .alloc = bp_alloc,
    .force = bp_force,
    .free = bp_free,
    .contacts = bp_contacts,
};

/* "box-plane/<solver>" built by hand (the model is not in the registry) */
static inline tc_method method(const char *solver) {
    tc_method m;
    memset(&m, 0, sizeof m);
    m.model = &box_plane_model;
    m.solver = tc_solver_find(solver);
    cr_assert_not_null(m.solver, "%s", solver);
    cr_assert_eq(m.solver->needs & ~box_plane_model.caps, 0u);
    snprintf(m.spec, sizeof m.spec, "box-plane/%s", solver);
    tc_params_default(&m.mparams, m.model->params);
    tc_params_default(&m.sparams, m.solver->params);
    m.caps = m.model->caps & (m.solver->caps | ~(unsigned)TC_CAP_DYNAMICS);
    m.shapes = m.model->shapes;
    return m;
}

/* a 1 m cube of 10 kg resting on the plane z = 0 (its corners exactly on it), speed v0 along x */
static inline tc_scene block_scene(double mu, double v0) {
    tc_scene sc = tc_default_scene();
    sc.gravity[2] = -9.81;
    sc.friction = mu;
    tc_body_desc fl = tc_default_body("floor", tc_plane());
    tc_body_desc b = tc_default_body("block", tc_box(0.5, 0.5, 0.5));
    b.joint = TC_JOINT_FREE;
    b.pos[2] = 0.5;
    b.vel[0] = v0;
    cr_assert_eq(tc_scene_add(&sc, &fl, 0, NULL), TC_OK);
    cr_assert_eq(tc_scene_add(&sc, &b, 10.0, NULL), TC_OK);
    cr_assert_float_eq(sc.body[1].mass, 10.0, 1e-12);
    return sc;
}

#endif
