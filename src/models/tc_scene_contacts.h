/* SPDX-License-Identifier: MIT */
/* the contact set (collide/tc_contact_set.h) of a scene: every body's shape and the pairs that
 * may touch, for the models that report the penalty models' contact points */
#ifndef TC_SCENE_CONTACTS_H
#define TC_SCENE_CONTACTS_H

#include "collide/tc_contact_set.h"
#include "dyn/tc_scene.h"

/* a contact set over the scene's bodies (their shapes kept by pointer: the scene must outlive the
 * set) and its pairs in tc_scene_pairs order, surfaces sampled at spacing_rel times each body's
 * bounding radius; tc_contact_set_alloc's errors */
tc_status tc_scene_contact_set(tc_contact_set **out, const tc_scene *scene, double spacing_rel,
                               tc_error *err);

#endif
