/* SPDX-License-Identifier: MIT */
/* the points model (Kaufman et al. 2005's multi-point contacts) on arrays of shapes, for callers
 * with more bodies than a scene holds (benchmarks) and for tests of its samples and broad phase;
 * the registered model (tc_model_points) is this over a scene's bodies */
#ifndef TC_MODEL_POINTS_H
#define TC_MODEL_POINTS_H

#include "collide/tc_broadphase.h"
#include "models/tc_model.h"

extern const tc_model_type tc_model_points;

/* the model's state for nbody shapes (shape[i] kept by pointer: it must outlive the state),
 * fixed[i] = 1 for bodies that never move (NULL: none), parameters p of tc_model_points.params.
 * Errors: TC_EUNSUP naming an unsupported shape, tc_surface_alloc's and tc_broadphase_alloc's,
 * TC_ENOMEM */
tc_status tc_points_alloc(void **state, int nbody, const tc_shape *const *shape,
                          const unsigned char *fixed, const tc_params *p, tc_error *err);
void tc_points_free(void *state);

/* every penetrating surface point of every candidate pair at poses bs[nbody] into c[max]
 * (tc_model_type.contacts); returns how many were written (max when they did not all fit) */
int tc_points_contacts(void *state, const tc_body_state *bs, tc_model_contact *c, int max);

/* body i's surface samples (m, body frame) into *p; returns their number (0 for a plane) */
int tc_points_samples(const void *state, int i, const double (**p)[3]);

/* the broad phase (its pairs of the last query, its overflow counters) */
const tc_broadphase *tc_points_broadphase(const void *state);

#endif
