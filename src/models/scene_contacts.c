/* SPDX-License-Identifier: MIT */
/* a scene's contact set: its shapes and its pairs handed to the collide layer */
#include "models/tc_scene_contacts.h"

#include <stdlib.h>

tc_status tc_scene_contact_set(tc_contact_set **out, const tc_scene *scene, double spacing_rel,
                               tc_error *err) {
    *out = NULL;
    /* on the heap: up to TC_SCENE_MAXBODY shapes and nbody (nbody - 1) pair indices */
    const tc_shape **shape = malloc((size_t)(scene->nbody > 0 ? scene->nbody : 1) * sizeof *shape);
    int *pairs = calloc((size_t)scene->nbody * (size_t)scene->nbody + 2, sizeof *pairs);
    if (!shape || !pairs) {
        free(shape);
        free(pairs);
        return TC_ENOMEM;
    }
    for (int i = 0; i < scene->nbody; i++)
        shape[i] = &scene->body[i].shape;
    int npair = tc_scene_pairs(scene, pairs);
    tc_status st = tc_contact_set_alloc(out, scene->nbody, shape, npair, pairs, spacing_rel, err);
    free(shape);
    free(pairs);
    return st;
}
