/* SPDX-License-Identifier: MIT */
/* rigid contact: no force law, only contact points (the penalty models' multi-point set: the
 * bottom of the penetration volume, at most 4 points a pair), which a time-stepping solver that
 * resolves contacts (lcp-lemke by default) turns into impulses */
#include "models/tc_model.h"
#include "models/tc_scene_contacts.h"

#include <stdlib.h>

static const tc_param_spec rigid_params[] = {
    {"spacing_rel", 0.25, 1e-3, 10, TC_PARAM_REAL, "1",
     "surface point spacing over the body's bounding radius (the contact set's samples)",
     "the penalty models' default, so both sample the same surface points"},
    {"keep_deepest", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: each pair's 4 contact points include its deepest one; 0: the extremes alone, as the "
     "penalty models report them",
     "without it a box sunk on an edge kept its two shallow ends and went 25 cm into the ground "
     "in E4's pile (no penalty force pushes back here)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

typedef struct rigid_state {
    tc_contact_set *set; /* surfaces, pairs, penetration buffers */
    int deepest;         /* keep each pair's deepest point */
} rigid_state;

static void rigid_free(void *state) {
    rigid_state *s = state;
    if (!s) return;
    tc_contact_set_free(s->set);
    free(s);
}

static tc_status rigid_alloc(void **state, const tc_scene *scene, const tc_params *p,
                             tc_error *err) {
    rigid_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    tc_status st = tc_scene_contact_set(&s->set, scene, tc_params_get(p, "spacing_rel"), err);
    if (st) {
        rigid_free(s);
        return st;
    }
    s->deepest = tc_params_get(p, "keep_deepest") != 0;
    *state = s;
    return TC_OK;
}

/* every touching pair's bottom of the penetration volume, reduced to at most 4 points */
static int rigid_contacts(void *state, const tc_body_state *bs, tc_model_contact *c, int max) {
    rigid_state *s = state;
    return tc_contact_set_contacts(s->set, bs, s->deepest, c, max);
}

const tc_model_type tc_model_rigid = {
    .name = "rigid",
    .summary = "rigid contact: no force law, the multi-point contact set (at most 4 points a "
               "pair) for a solver that resolves contacts",
    .reference = "Stewart & Trinkle 1996, Anitescu & Potra 1997 (velocity-level rigid contact); "
                 "contact points as penalty-mp (Drumwright 2008)",
    .params = rigid_params,
    .caps = TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTACTS,
    .shapes = TC_CONTACT_SET_SHAPES,
    .solver = "lcp-lemke",
    .alloc = rigid_alloc,
    .force = NULL,
    .free = rigid_free,
    .contacts = rigid_contacts,
};
