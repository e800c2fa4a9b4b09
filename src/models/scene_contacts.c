/* SPDX-License-Identifier: MIT */
/* a scene's contact set: its shapes and its pairs handed to the collide layer */
#include "models/tc_scene_contacts.h"

#include <stdlib.h>

tc_status tc_scene_contact_set(tc_contact_set **out, const tc_scene *scene, double spacing_rel,
                               tc_error *err) {
    *out = NULL;
    const tc_shape *shape[TC_SCENE_MAXBODY];
    for (int i = 0; i < scene->nbody; i++) shape[i] = &scene->body[i].shape;
    int *pairs = calloc((size_t)scene->nbody * (size_t)scene->nbody + 2, sizeof *pairs);
    if (!pairs) return TC_ENOMEM;
    int npair = tc_scene_pairs(scene, pairs);
    tc_status st = tc_contact_set_alloc(out, scene->nbody, shape, npair, pairs, spacing_rel, err);
    free(pairs);
    return st;
}
