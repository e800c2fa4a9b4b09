/* SPDX-License-Identifier: MIT */
/* Hunt–Crossley point contact: f_n = k x^n (1 + d xdot), regularised Coulomb friction */
#include "collide/tc_collide.h"
#include "math/tc_vec.h"
#include "models/tc_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tc_param_spec hc_params[] = {
    {"k", 1.0e5, 0, 1e15, TC_PARAM_REAL, "N/m^n", "stiffness",
     "order of a 5 cm steel-on-rubber Hertz contact; experiments set their own"},
    {"n", 1.5, 1, 3, TC_PARAM_REAL, "1", "exponent of the penetration",
     "1.5 is Hertz's law for curved surfaces"},
    {"d", 0.5, 0, 100, TC_PARAM_REAL, "s/m", "Hunt–Crossley dissipation",
     "restitution about 0.7 at 1 m/s impacts (d = 3(1-e)/(2 v))"},
    {"vs", 0.01, 1e-9, 10, TC_PARAM_REAL, "m/s", "stiction velocity of the friction law",
     "1 cm/s: below the speeds of interest, large enough for explicit steps"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

typedef struct hc_state {
    const tc_scene *scene;
    double k, n, d, vs;
    int npair;
    int pairs[]; /* 2 * npair body indices */
} hc_state;

static tc_status hc_alloc(void **state, const tc_scene *scene, const tc_params *p, tc_error *err) {
    int maxpair = scene->nbody * (scene->nbody - 1) / 2;
    hc_state *s = calloc(1, sizeof *s + (size_t)(2 * maxpair + 2) * sizeof(int));
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    s->npair = tc_scene_pairs(scene, s->pairs);
    /* every pair must have an analytic narrow phase */
    for (int i = 0; i < s->npair; i++) {
        tc_shape_type a = scene->body[s->pairs[2 * i]].shape.type,
                      b = scene->body[s->pairs[2 * i + 1]].shape.type;
        if (!tc_collide_supported(a, b)) {
            free(s);
            return tc_error_set(err, TC_EUNSUP, NULL, 0, NULL, "hunt-crossley: no %s-%s contact",
                                tc_shape_name(a), tc_shape_name(b));
        }
    }
    s->k = tc_params_get(p, "k");
    s->n = tc_params_get(p, "n");
    s->d = tc_params_get(p, "d");
    s->vs = tc_params_get(p, "vs");
    *state = s;
    return TC_OK;
}

/* the force law at poses bs: wrenches into w (when not NULL) and each pushing point's force
 * into rec[max] (when not NULL); returns how many points push */
static int hc_points(hc_state *s, const tc_body_state *bs, tc_wrench *w, tc_model_force *rec,
                     int max) {
    const tc_scene *sc = s->scene;
    if (w) memset(w, 0, (size_t)sc->nbody * sizeof *w);
    int active = 0;
    for (int i = 0; i < s->npair; i++) {
        int a = s->pairs[2 * i], b = s->pairs[2 * i + 1];
        tc_contact c[TC_COLLIDE_MAX];
        int m = tc_collide(&sc->body[a].shape, &bs[a], &sc->body[b].shape, &bs[b], 0, c);
        for (int j = 0; j < m; j++) {
            if (c[j].depth <= 0) continue;
            /* relative velocity of b with respect to a at the contact point */
            double va[3], vb[3], vr[3], vt[3], f[3];
            tc_body_point_velocity(&bs[a], c[j].pos, va);
            tc_body_point_velocity(&bs[b], c[j].pos, vb);
            tc_v3_sub(vr, vb, va);
            double vn = tc_v3_dot(vr, c[j].normal);
            /* normal force: the penetration rate is -vn */
            double fn = s->k * pow(c[j].depth, s->n) * (1 - s->d * vn);
            if (fn <= 0) continue;
            /* regularised Coulomb friction against the tangential slip */
            tc_v3_copy(vt, vr);
            tc_v3_addscl(vt, c[j].normal, -vn);
            double ft = -sc->friction * fn / sqrt(s->vs * s->vs + tc_v3_dot(vt, vt));
            tc_v3_scale(f, c[j].normal, fn);
            tc_v3_addscl(f, vt, ft);
            if (w) {
                tc_wrench_apply(&w[b], &bs[b], c[j].pos, f, 1);
                tc_wrench_apply(&w[a], &bs[a], c[j].pos, f, -1);
            }
            if (rec && active < max)
                rec[active] =
                    (tc_model_force){.a = a,
                                     .b = b,
                                     .pos = {c[j].pos[0], c[j].pos[1], c[j].pos[2]},
                                     .normal = {c[j].normal[0], c[j].normal[1], c[j].normal[2]},
                                     .depth = c[j].depth,
                                     .force = {f[0], f[1], f[2]}};
            active++;
        }
    }
    return active;
}

static tc_status hc_force(void *state, const tc_body_state *bs, tc_wrench *w,
                          tc_contact_stats *st) {
    hc_state *s = state;
    int active = hc_points(s, bs, w, NULL, 0);
    if (st) {
        st->ncontact = active;
        st->pair_evals += s->npair;
    }
    return TC_OK;
}

static int hc_contact_forces(void *state, const tc_body_state *bs, tc_model_force *out, int max) {
    return hc_points(state, bs, NULL, out, out ? max : 0);
}

static void hc_free(void *state) {
    free(state);
}

const tc_model_type tc_model_hunt_crossley = {
    .name = "hunt-crossley",
    .summary = "compliant point contact f = k x^n (1 + d xdot) with regularised Coulomb friction",
    .reference = "Hunt & Crossley 1975; docs/models/hunt-crossley.md",
    .params = hc_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTINUOUS,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND),
    .alloc = hc_alloc,
    .force = hc_force,
    .free = hc_free,
    .contact_forces = hc_contact_forces,
};
