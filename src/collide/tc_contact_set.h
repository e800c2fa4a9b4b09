/* SPDX-License-Identifier: MIT */
/* contact sets of posed convex bodies (Drumwright 2008): per-body surface samples, the pairs that
 * may touch, the bottom of each pair's penetration volume or its deepest point, and the contact
 * points a velocity-level solver takes (at most 4 a pair); shared by the penalty models and the
 * contacts-only rigid model */
#ifndef TC_CONTACT_SET_H
#define TC_CONTACT_SET_H

#include "collide/tc_collide.h"
#include "collide/tc_pen_chunks.h"
#include "collide/tc_penetration.h"
#include "core/tc_status.h"

/* the shape types a contact set handles (tc_surface_alloc samples them; a plane pairs with the
 * others) */
#define TC_CONTACT_SET_SHAPES                                                                      \
    (TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE) |   \
     TC_SHAPE_BIT(TC_SHAPE_CYLINDER) | TC_SHAPE_BIT(TC_SHAPE_POLYTOPE))

/* the sampled bodies and pairs of a scene, with the work buffers of one query at a time; the
 * fields are read-only for callers */
typedef struct tc_contact_set {
    int nbody;
    const tc_shape **shape; /* nbody: the caller's shapes (not owned; they must outlive the set) */
    tc_surface *surf;       /* nbody: surface samples, body frame */
    tc_pen_chunks *chunk;   /* nbody: each surface's points in chunks (tc_penetrate_chunked) */
    int npair;
    int (*pair)[2];    /* npair body pairs (a, b), in the caller's order */
    tc_pen_work *work; /* tc_penetrate's scratch */
    tc_pen_point *pts; /* maxpts: the points of the last tc_contact_set_pair */
    int maxpts;
    unsigned char *apart; /* npair: nonzero when the pair's last multi-point set was empty:
                           * the separating axis to try first at the next query (a hint for
                           * speed only, tc_shape_separated) */
    double *sep;          /* npair: the gap (m) beyond rounding that tc_shape_separated showed
                           * along its axis at the pair's last multi-point query, 0 when that
                           * query did not prove the pair apart so */
    int *near_slot;       /* 2 npair: pair k's near lists (a's points near b, then b's near
                           * a; for speed only: tc_penetrate_sides) as slots in near, -1 none;
                           * a slot and room in the pool below on the first multi-point query
                           * with the bounding spheres met, while both last */
    tc_pen_near *near;    /* near_slots lists */
    int near_slots, near_slots_used;
    int *near_j; /* the pool: near_cap positions and lower bounds */
    double *near_gap;
    long near_cap, near_used;
} tc_contact_set;

/* a contact set for nbody shapes (shape[i] for body i, kept by pointer) and npair pairs
 * (pairs[2 k], pairs[2 k + 1]); each body's surface is sampled with spacing spacing_rel times its
 * bounding radius (sphere: r; box: |half sizes|; cylinder: hypot(r, half length); polytope: its
 * vertex radius; plane: 1 m, which samples nothing). Errors of tc_surface_alloc (unsupported
 * shapes: TC_EUNSUP naming the shape), TC_ENOMEM */
tc_status tc_contact_set_alloc(tc_contact_set **out, int nbody, const tc_shape *const *shape,
                               int npair, const int *pairs, double spacing_rel, tc_error *err);
void tc_contact_set_free(tc_contact_set *s);

/* the contact set of pair k at poses bs[nbody] into s->pts: multi = 1, the bottom of the
 * penetration volume (tc_penetrate); multi = 0, the deepest point alone (tc_deepest, after a
 * bounding-sphere test). normal (unit, world) points from the pair's b toward its a, *dmax is the
 * largest depth (m). Returns the number of points, 0 when the pair is apart. A pair whose last
 * multi-point set was empty tries tc_shape_separated first (the result is the same either way:
 * a separated pair has no point inside and tc_deepest finds it apart) */
int tc_contact_set_pair(tc_contact_set *s, int k, const tc_body_state *bs, int multi,
                        double normal[3], double *dmax);

/* at most 4 of m points with contact normal n for a velocity-level solver: with deepest = 1 the
 * deepest point first, then the extreme ones along four tangent directions (t1 +- 0.37 t2 and
 * their opposites, t1, t2 from tc_v3_orthonormal; the odd mix avoids ties on square grids) until
 * 4 are kept; their indices into keep, returns how many (distinct). Without the deepest point a
 * body sunk on an edge can keep only its shallow ends (E4's pile: a box went 25 cm into the
 * ground under rigid/lcp-lemke); the penalty models keep deepest = 0, their force pushes back */
int tc_contact_set_manifold(const tc_pen_point *pts, int m, const double n[3], int deepest,
                            int keep[4]);

/* the contact points of every pair at poses bs: each touching pair's bottom of the penetration
 * volume reduced by tc_contact_set_manifold (deepest as there), pairs in order, as tc_model_contact
 * (a = the pair's b, b = the pair's a, so the normal points from a to b; depth > 0) into c[max];
 * returns how many were written */
int tc_contact_set_contacts(tc_contact_set *s, const tc_body_state *bs, int deepest,
                            tc_model_contact *c, int max);

#endif
