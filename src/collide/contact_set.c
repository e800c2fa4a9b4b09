/* SPDX-License-Identifier: MIT */
/* contact sets: surfaces, pairs, penetration work buffers, each pair's points and the manifold of
 * at most 4 points a velocity-level solver takes */
#include "collide/tc_contact_set.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* most near-list entries a contact set holds (12 bytes each), and lists per body (144 bytes
 * each): pairs beyond them go without */
#define NEAR_POOL_MAX       (1L << 20)
#define NEAR_LISTS_PER_BODY 64

/* near list k (pair k / 2, side k % 2) at poses bs, while the pair's bounding spheres meet (a
 * pair farther apart needs none, and its list is not even read): room for its surface's npoint
 * entries from the pool on first use; NULL when there is none */
static tc_pen_near *near_list(tc_contact_set *s, int k, const tc_body_state *bs) {
    int a = s->pair[k / 2][0], b = s->pair[k / 2][1], np = s->surf[s->pair[k / 2][k % 2]].npoint;
    double d[3], rs = s->surf[a].radius + s->surf[b].radius;
    tc_v3_sub(d, bs[a].pos, bs[b].pos);
    if (!(tc_v3_dot(d, d) <= rs * rs)) return NULL;
    if (s->near_slot[k] >= 0) return &s->near[s->near_slot[k]];
    if (s->near_slots_used == s->near_slots || s->near_used + np > s->near_cap) return NULL;
    tc_pen_near *nr = &s->near[s->near_slot[k] = s->near_slots_used++];
    nr->n = -1;
    nr->cap = np;
    nr->j = s->near_j + s->near_used;
    nr->gap = s->near_gap + s->near_used;
    s->near_used += np;
    return nr;
}

void tc_contact_set_free(tc_contact_set *s) {
    if (!s) return;
    if (s->surf)
        for (int i = 0; i < s->nbody; i++)
            tc_surface_free(&s->surf[i]);
    if (s->chunk)
        for (int i = 0; i < s->nbody; i++)
            tc_pen_chunks_free(&s->chunk[i]);
    free(s->shape);
    free(s->surf);
    free(s->chunk);
    free(s->pair);
    tc_pen_work_free(s->work);
    free(s->pts);
    free(s->apart);
    free(s->sep);
    free(s->near_slot);
    free(s->near);
    free(s->near_j);
    free(s->near_gap);
    free(s);
}

tc_status tc_contact_set_alloc(tc_contact_set **out, int nbody, const tc_shape *const *shape,
                               int npair, const int *pairs, double spacing_rel, tc_error *err) {
    *out = NULL;
    tc_contact_set *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->nbody = nbody;
    s->npair = npair;
    s->shape = calloc((size_t)nbody + 1, sizeof *s->shape);
    s->surf = calloc((size_t)nbody + 1, sizeof *s->surf);
    s->pair = calloc((size_t)npair + 1, sizeof *s->pair);
    s->chunk = calloc((size_t)nbody + 1, sizeof *s->chunk);
    s->apart = calloc((size_t)npair + 1, sizeof *s->apart);
    s->sep = calloc((size_t)npair + 1, sizeof *s->sep);
    if (!s->shape || !s->surf || !s->pair || !s->chunk || !s->apart || !s->sep) {
        tc_contact_set_free(s);
        return TC_ENOMEM;
    }
    /* surfaces: spacing relative to each body's size */
    int maxpt = 1;
    for (int i = 0; i < nbody; i++) {
        const tc_shape *sh = s->shape[i] = shape[i];
        double r = sh->type == TC_SHAPE_SPHERE     ? sh->size[0]
                   : sh->type == TC_SHAPE_BOX      ? tc_v3_norm(sh->size)
                   : sh->type == TC_SHAPE_CYLINDER ? hypot(sh->size[0], sh->size[1])
                   : sh->type == TC_SHAPE_POLYTOPE ? tc_polytope_radius(sh)
                                                   : 1.0;
        tc_status st = tc_surface_alloc(&s->surf[i], sh, spacing_rel * r, err);
        if (st) {
            tc_contact_set_free(s);
            return st;
        }
        /* its points in chunks, so far patches are skipped whole */
        if (tc_pen_chunks_alloc(&s->chunk[i], &s->surf[i])) {
            tc_contact_set_free(s);
            return TC_ENOMEM;
        }
        if (s->surf[i].npoint > maxpt) maxpt = s->surf[i].npoint;
    }
    /* work buffers for two surfaces of up to maxpt points */
    s->work = tc_pen_work_alloc(maxpt);
    s->maxpts = 2 * maxpt + 1;
    s->pts = calloc((size_t)s->maxpts, sizeof *s->pts);
    if (!s->work || !s->pts) {
        tc_contact_set_free(s);
        return TC_ENOMEM;
    }
    for (int k = 0; k < npair; k++) {
        s->pair[k][0] = pairs[2 * k];
        s->pair[k][1] = pairs[2 * k + 1];
    }
    /* near lists: none yet; room for every pair's, up to NEAR_LISTS_PER_BODY lists a body and
     * NEAR_POOL_MAX entries */
    s->near_slots =
        2 * npair < NEAR_LISTS_PER_BODY * nbody ? 2 * npair : NEAR_LISTS_PER_BODY * nbody;
    s->near_slot = malloc((2 * (size_t)npair + 1) * sizeof *s->near_slot);
    s->near = calloc((size_t)s->near_slots + 1, sizeof *s->near);
    if (!s->near_slot || !s->near) {
        tc_contact_set_free(s);
        return TC_ENOMEM;
    }
    long need = 0;
    for (int k = 0; k < 2 * npair; k++) {
        s->near_slot[k] = -1;
        need += s->surf[s->pair[k / 2][k % 2]].npoint;
    }
    s->near_cap = need < NEAR_POOL_MAX ? need : NEAR_POOL_MAX;
    s->near_j = malloc((size_t)(s->near_cap + 1) * sizeof *s->near_j);
    s->near_gap = malloc((size_t)(s->near_cap + 1) * sizeof *s->near_gap);
    if (!s->near_j || !s->near_gap) {
        tc_contact_set_free(s);
        return TC_ENOMEM;
    }
    /* written once now, so the pages' first-touch faults fall here and not in the step loop */
    memset(s->near_j, 0, (size_t)(s->near_cap + 1) * sizeof *s->near_j);
    memset(s->near_gap, 0, (size_t)(s->near_cap + 1) * sizeof *s->near_gap);
    *out = s;
    return TC_OK;
}

int tc_contact_set_pair(tc_contact_set *s, int k, const tc_body_state *bs, int multi,
                        double normal[3], double *dmax) {
    int a = s->pair[k][0], b = s->pair[k][1];
    const tc_shape *sa = s->shape[a], *sb = s->shape[b];
    *dmax = 0;
    if (multi) {
        /* apart at the last query: the separating axes first, the one that showed it then
         * before the others (it usually still does) */
        int axis =
            s->apart[k] ? tc_shape_separated(sa, &bs[a], sb, &bs[b], s->apart[k], &s->sep[k]) : 0;
        if (axis) {
            s->apart[k] = (unsigned char)axis;
            return 0;
        }
        s->sep[k] = 0;
        /* each side with its near list, while the pool has room for it */
        tc_pen_side A = {sa, &s->surf[a], &s->chunk[a], &bs[a], near_list(s, 2 * k, bs)};
        tc_pen_side B = {sb, &s->surf[b], &s->chunk[b], &bs[b], near_list(s, 2 * k + 1, bs)};
        tc_penetration pen;
        int n = tc_penetrate_sides(&A, &B, s->work, &pen, s->pts, s->maxpts);
        s->apart[k] = n <= 0;
        if (n <= 0) return 0;
        tc_v3_copy(normal, pen.normal);
        *dmax = pen.depth;
        return n;
    }
    /* deepest point: bounding spheres first */
    double d[3];
    tc_v3_sub(d, bs[a].pos, bs[b].pos);
    if (tc_v3_norm(d) > s->surf[a].radius + s->surf[b].radius) return 0;
    double depth;
    if (tc_deepest(sa, &bs[a], sb, &bs[b], &depth, normal, s->pts[0].p) != 1) return 0;
    s->pts[0].depth = depth;
    *dmax = depth;
    return 1;
}

int tc_contact_set_manifold(const tc_pen_point *pts, int m, const double n[3], int deepest,
                            int keep[4]) {
    if (m <= 4) {
        for (int j = 0; j < m; j++)
            keep[j] = j;
        return m;
    }
    double t1[3], t2[3];
    tc_v3_orthonormal(n, t1, t2);
    int k = 0;
    /* the deepest point first (the lowest index on ties), when asked */
    if (deepest) {
        int arg = 0;
        for (int j = 1; j < m; j++)
            if (pts[j].depth > pts[arg].depth) arg = j;
        keep[k++] = arg;
    }
    for (int dir = 0; dir < 4 && k < 4; dir++) {
        double a = dir < 2 ? 1 : -1, b = dir % 2 ? 0.37 : -0.37, best = -INFINITY;
        int arg = 0;
        for (int j = 0; j < m; j++) {
            double x = a * tc_v3_dot(pts[j].p, t1) + b * tc_v3_dot(pts[j].p, t2);
            if (x > best) {
                best = x;
                arg = j;
            }
        }
        int dup = 0;
        for (int i = 0; i < k; i++)
            dup |= keep[i] == arg;
        if (!dup) keep[k++] = arg;
    }
    return k;
}

int tc_contact_set_contacts(tc_contact_set *s, const tc_body_state *bs, int deepest,
                            tc_model_contact *c, int max) {
    int nc = 0;
    for (int k = 0; k < s->npair; k++) {
        /* the multi-point set, whichever variant a penalty model pushes with */
        double n[3], dmax;
        int m = tc_contact_set_pair(s, k, bs, 1, n, &dmax), keep[4];
        int kept = m > 0 ? tc_contact_set_manifold(s->pts, m, n, deepest, keep) : 0;
        /* tc_model_contact's normal points from a to b: ours points from pair b toward pair a */
        for (int j = 0; j < kept && nc < max; j++, nc++) {
            const tc_pen_point *pt = &s->pts[keep[j]];
            c[nc].a = s->pair[k][1];
            c[nc].b = s->pair[k][0];
            tc_v3_copy(c[nc].c.pos, pt->p);
            tc_v3_copy(c[nc].c.normal, n);
            c[nc].c.depth = pt->depth;
        }
    }
    return nc;
}
