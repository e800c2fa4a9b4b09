/* SPDX-License-Identifier: MIT */
/* convex: no force law and no contact points; the bodies' convex shapes, for a solver that
 * detects collisions itself as part of its own problem (single-level, bilevel) */
#include "collide/tc_convex2d.h"
#include "models/tc_model.h"

static const tc_param_spec convex_params[] = {{NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* the scene's shapes must be planar primitives: checked here, so that a bad scene fails before
 * any solver is built; the solver reads the shapes from the scene itself */
static tc_status convex_alloc(void **state, const tc_scene *scene, const tc_params *p,
                              tc_error *err) {
    (void)p;
    *state = NULL;
    for (int i = 0; i < scene->nbody; i++) {
        const tc_body_desc *b = &scene->body[i];
        tc_convex2d c;
        tc_status st = tc_convex2d_from_shape(&c, &b->shape, b->pos, b->quat, b->name, err);
        if (st) return st;
        if (b->joint != TC_JOINT_PLANAR && b->joint != TC_JOINT_FIXED)
            return tc_error_set(err, TC_EUNSUP, NULL, 0, "joint",
                                "body '%s': convex primitives move on planar joints only", b->name);
    }
    return TC_OK;
}

static void convex_free(void *state) {
    (void)state;
}

const tc_model_type tc_model_convex = {
    .name = "convex",
    .summary = "convex primitives (planar polygons A x <= b scaled about their centre, "
               "half-spaces) for solvers that detect collisions themselves",
    .reference = "Tracy, Howell & Manchester 2022 (DCOL); Le Cleac'h et al. 2023",
    .params = convex_params,
    .caps = TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_GEOMETRY | TC_CAP_PLANAR,
    /* polytopes and planes (boxes, the scenes' 3-D bodies, are left to the other methods) */
    .shapes = TC_SHAPE_BIT(TC_SHAPE_POLYTOPE) | TC_SHAPE_BIT(TC_SHAPE_PLANE),
    .solver = "single-level",
    .alloc = convex_alloc,
    .force = NULL,
    .free = convex_free,
};
