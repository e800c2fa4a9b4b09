/* SPDX-License-Identifier: MIT */
/* the bottom of the penetration volume of two posed convex surfaces (Drumwright 2008, section
 * III-A and appendix I): inside points, the contact normal of eq. 4, the bottom and its depths */
#include "collide/tc_penetration.h"
#include "collide/tc_pen_chunks.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* eq. 4 scores closer than this (m) count as equal; b's faces win such ties */
#define PEN_TIE 1e-12

struct tc_pen_work {
    int cap;                  /* most points per surface */
    int *ia, *ib;             /* indices of a's points inside b, of b's points inside a */
    double (*ya)[3];          /* those of a in b's body frame */
    double (*yb)[3];          /* those of b in a's body frame */
    int *keep;                /* bottom points (positions in ia or ib) */
    double *dep;              /* their depths (m) */
    int *order;               /* scratch for choosing the deepest when more than max qualify */
    unsigned long long *mark; /* cap bits: the inside points found chunk by chunk (clear
                               * between calls) */
    double (*ys)[3];          /* cap: their positions, at their point index */
};

tc_pen_work *tc_pen_work_alloc(int npoint) {
    if (npoint < 0) return NULL;
    tc_pen_work *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    size_t n = npoint > 0 ? (size_t)npoint : 1;
    w->cap = npoint;
    w->ia = malloc(n * sizeof *w->ia);
    w->ib = malloc(n * sizeof *w->ib);
    w->ya = malloc(n * sizeof *w->ya);
    w->yb = malloc(n * sizeof *w->yb);
    w->keep = malloc(n * sizeof *w->keep);
    w->dep = malloc(n * sizeof *w->dep);
    w->order = malloc(n * sizeof *w->order);
    w->mark = calloc(n / 64 + 1, sizeof *w->mark);
    w->ys = malloc(n * sizeof *w->ys);
    if (!w->ia || !w->ib || !w->ya || !w->yb || !w->keep || !w->dep || !w->order || !w->mark ||
        !w->ys) {
        tc_pen_work_free(w);
        return NULL;
    }
    return w;
}

void tc_pen_work_free(tc_pen_work *w) {
    if (!w) return;
    free(w->ia);
    free(w->ib);
    free(w->ya);
    free(w->yb);
    free(w->keep);
    free(w->dep);
    free(w->order);
    free(w->mark);
    free(w->ys);
    free(w);
}

/* 1 when one of the nn normals has a non-positive dot product with normal */
static int faces_away(const double (*nrm)[3], int nn, const double normal[3]) {
    for (int k = 0; k < nn; k++)
        if (tc_v3_dot(nrm[k], normal) <= 0) return 1;
    return 0;
}

int tc_pen_bottom(int n, const double (*nrm)[TC_SURF_MAXNORMAL][3], const unsigned char *nn,
                  const double normal[3], int *keep) {
    int m = 0;
    for (int i = 0; i < n; i++)
        if (faces_away(nrm[i], nn[i], normal)) keep[m++] = i;
    return m;
}

/* 1 when the bounding spheres (or a sphere and a plane's half-space) cannot overlap */
static int apart(const tc_shape *sa, const tc_surface *SA, const tc_body_state *A,
                 const tc_shape *sb, const tc_surface *SB, const tc_body_state *B) {
    double d[3];
    tc_v3_sub(d, A->pos, B->pos);
    if (sa->type == TC_SHAPE_PLANE && sb->type == TC_SHAPE_PLANE) return 1;
    if (sb->type == TC_SHAPE_PLANE) {
        double n[3] = {B->R[2], B->R[5], B->R[8]};
        return tc_v3_dot(n, d) > SA->radius;
    }
    if (sa->type == TC_SHAPE_PLANE) {
        double n[3] = {A->R[2], A->R[5], A->R[8]};
        return -tc_v3_dot(n, d) > SB->radius;
    }
    /* the squared distance first, with the sum widened beyond rounding (1e-6 relative); the
     * exact test below decides the rest */
    double rs = (SA->radius + SB->radius) * (1 + 1e-6) + 1e-9;
    if (tc_v3_dot(d, d) > rs * rs) return 1;
    if (tc_v3_norm(d) > SA->radius + SB->radius) return 1;
    /* the distance to a convex shape is 1-Lipschitz: a centre farther from the other shape than
     * its own bounding radius leaves the two apart (cuts long walls against small bodies) */
    double y[3], nrm[3];
    tc_m3_mulvt(y, B->R, d);
    if (tc_shape_distance(sb, y, nrm) > SA->radius) return 1;
    tc_v3_scale(d, d, -1);
    tc_m3_mulvt(y, A->R, d);
    return tc_shape_distance(sa, y, nrm) > SB->radius;
}

int tc_pen_inside(const tc_shape *s, const double p[3]) {
    switch (s->type) {
    case TC_SHAPE_SPHERE:
        return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) - s->size[0] < 0;
    case TC_SHAPE_BOX:
        /* tc_shape_distance < 0 exactly when every |p_i| - a_i < 0 */
        return fabs(p[0]) - s->size[0] < 0 && fabs(p[1]) - s->size[1] < 0 &&
               fabs(p[2]) - s->size[2] < 0;
    case TC_SHAPE_PLANE:
        return p[2] < 0;
    case TC_SHAPE_CYLINDER:
        /* below zero exactly when both the radial and the axial excess are */
        return sqrt(p[0] * p[0] + p[1] * p[1]) - s->size[0] < 0 && fabs(p[2]) - s->size[1] < 0;
    default: {
        double nrm[3];
        return tc_shape_distance(s, p, nrm) < 0;
    }
    }
}

/* step 1 for one point q of S against a plane: below it (the height row alone first); y = its
 * position in the plane's frame */
static inline int point_below(const double q[3], const double Rr[9], const double t[3],
                              double y[3]) {
    if (!(Rr[6] * q[0] + Rr[7] * q[1] + Rr[8] * q[2] + t[2] < 0)) return 0;
    double yl[3];
    tc_m3_mulv(yl, Rr, q);
    tc_v3_add(y, yl, t);
    return 1;
}

/* step 1 for one point q of S against another shape so: a cheaper cull first, in S's frame about
 * O's centre c, with the radius widened far beyond rounding (what it drops the exact test below
 * drops too), then outside so's bounding sphere (r2), then the exact test; y = its position in
 * O's frame */
static inline int point_inside(const double q[3], const double c[3], double w2, const double Rr[9],
                               const double t[3], double r2, const tc_shape *so, double y[3]) {
    double e0 = q[0] - c[0], e1 = q[1] - c[1], e2 = q[2] - c[2];
    if (e0 * e0 + e1 * e1 + e2 * e2 > w2) return 0;
    tc_m3_mulv(y, Rr, q);
    tc_v3_add(y, y, t);
    if (tc_v3_dot(y, y) > r2) return 0;
    return tc_pen_inside(so, y);
}

/* a lower bound (m) on the signed distance to so of every point of the ball with centre yc (so's
 * frame) and radius rc (0: one point) from so's faces: beyond a plane, or beyond a box's or a
 * cylinder's faces; -INFINITY for other shapes */
static double face_gap(const tc_shape *so, const double yc[3], double rc) {
    double g = -INFINITY, e;
    switch (so->type) {
    case TC_SHAPE_PLANE:
        return yc[2] - rc;
    case TC_SHAPE_BOX:
        for (int k = 0; k < 3; k++) {
            e = fabs(yc[k]) - rc - so->size[k];
            g = e > g ? e : g;
        }
        return g;
    case TC_SHAPE_CYLINDER:
        g = sqrt(yc[0] * yc[0] + yc[1] * yc[1]) - rc - so->size[0];
        e = fabs(yc[2]) - rc - so->size[1];
        return e > g ? e : g;
    default:
        return g;
    }
}

/* the same bound, the larger of face_gap and the distance outside so's bounding sphere (radius
 * so_radius; none for a plane) */
static double ball_gap(const tc_shape *so, const double yc[3], double rc, double so_radius) {
    double g = face_gap(so, yc, rc);
    if (so->type == TC_SHAPE_PLANE) return g;
    double e = sqrt(tc_v3_dot(yc, yc)) - rc - so_radius;
    return e > g ? e : g;
}

/* how far (m) a point of S (bounding radius rs) can have moved in the other body's frame since
 * the near list's record: |(Rr - Rr0) p + t - t0| <= |Rr - Rr0|_F rs + |t - t0| */
static double near_move(const tc_pen_near *nr, const double Rr[9], const double t[3], double rs) {
    double f = 0, e = 0;
    for (int k = 0; k < 9; k++)
        f += (Rr[k] - nr->Rr[k]) * (Rr[k] - nr->Rr[k]);
    for (int k = 0; k < 3; k++)
        e += (t[k] - nr->t[k]) * (t[k] - nr->t[k]);
    return sqrt(f) * rs + sqrt(e);
}

/* the point at chunk position j of C: tested (point_below or point_inside) and, inside, marked
 * with its position in O's frame kept at its index */
static inline int chunk_point(const tc_pen_chunks *C, int j, int plane, const double c[3],
                              double w2, const double Rr[9], const double t[3], double r2,
                              const tc_shape *so, unsigned long long *mark, double (*ys)[3]) {
    double yj[3];
    if (!(plane ? point_below(C->p[j], Rr, t, yj)
                : point_inside(C->p[j], c, w2, Rr, t, r2, so, yj)))
        return 0;
    int i = C->idx[j];
    tc_v3_copy(ys[i], yj);
    mark[i >> 6] |= 1ull << (i & 63);
    return 1;
}

/* step 1: the points of S (posed by P) strictly inside shape so (posed by O); their indices into
 * idx and their positions in O's body frame into y, in index order; returns their count. With
 * chunks C the points of the chunks that cannot reach so are skipped, the rest take the same
 * tests, and those inside are marked in the bitset mark (all clear on entry and on return) with
 * their positions at their index in ys, then written in index order. With a near list nr as well
 * (room for every point) the points tested are its listed ones that may have moved inside, while
 * no point has moved its reach since its record; otherwise the chunks are walked and the list
 * recorded anew. A point is skipped only when a lower bound on its distance to so exceeds tol,
 * which covers the rounding of every point's transform */
static int inside_points(const tc_surface *S, const tc_pen_chunks *C, const tc_body_state *P,
                         const tc_shape *so, double so_radius, const tc_body_state *O,
                         tc_pen_near *nr, unsigned long long *mark, double (*ys)[3], int *idx,
                         double (*y)[3]) {
    int m = 0;
    /* a plane's surface has no points */
    if (S->npoint == 0) return 0;
    double Rr[9], t[3], d[3];
    /* the relative pose once: y = O.R^T (P.R p + P.pos - O.pos) = Rr p + t */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            Rr[3 * r + c] =
                O->R[r] * P->R[c] + O->R[3 + r] * P->R[3 + c] + O->R[6 + r] * P->R[6 + c];
    tc_v3_sub(d, P->pos, O->pos);
    tc_m3_mulvt(t, O->R, d);
    /* O's centre in S's frame and the squared radii of the two spheres (a plane has none) */
    const int plane = so->type == TC_SHAPE_PLANE;
    const double r2 = so_radius * so_radius;
    double c[3], dc[3];
    const double wide = so_radius * (1 + 1e-6) + 1e-9, w2 = wide * wide;
    tc_v3_sub(dc, O->pos, P->pos);
    tc_m3_mulvt(c, P->R, dc);
    /* no chunks: every point in turn */
    if (!C || C->npoint != S->npoint) {
        for (int i = 0; i < S->npoint; i++)
            if (plane ? point_below(S->p[i], Rr, t, y[m])
                      : point_inside(S->p[i], c, w2, Rr, t, r2, so, y[m]))
                idx[m++] = i;
        return m;
    }
    const double tol = 1e-9 * (1 + fabs(t[0]) + fabs(t[1]) + fabs(t[2]) + S->radius);
    if (nr && nr->cap < S->npoint) nr = NULL;
    double move = nr && nr->n >= 0 ? near_move(nr, Rr, t, S->radius) : INFINITY;
    int any = 0;
    if (nr && move + tol < nr->reach) {
        /* the near list holds: its points that may have come within tol of so */
        nr->uses++;
        for (int q = 0; q < nr->n; q++)
            if (nr->gap[q] <= move + tol)
                any |= chunk_point(C, nr->j[q], plane, c, w2, Rr, t, r2, so, mark, ys);
    } else {
        /* the chunks that may reach so; with a near list, also those within its reach, whose
         * points within reach are listed */
        double reach = nr ? TC_PEN_REACH * S->radius : tol;
        if (nr) {
            nr->n = 0;
            nr->reach = reach;
            nr->records++;
            memcpy(nr->Rr, Rr, sizeof Rr);
            memcpy(nr->t, t, sizeof t);
        }
        for (int k = 0; k < C->nchunk; k++) {
            const double *b = C->ball[k];
            double yc[3];
            tc_m3_mulv(yc, Rr, b);
            tc_v3_add(yc, yc, t);
            double gk = ball_gap(so, yc, b[3], so_radius);
            if (gk > tol && !(nr && gk < reach)) continue;
            int j1 = (k + 1) * TC_PEN_CHUNK < S->npoint ? (k + 1) * TC_PEN_CHUNK : S->npoint;
            for (int j = k * TC_PEN_CHUNK; j < j1; j++) {
                if (nr) {
                    /* listed when within reach; tested only when within tol */
                    double yj[3];
                    tc_m3_mulv(yj, Rr, C->p[j]);
                    tc_v3_add(yj, yj, t);
                    double g = face_gap(so, yj, 0);
                    if (g == -INFINITY) g = sqrt(tc_v3_dot(yj, yj)) - so_radius;
                    if (g < reach) {
                        nr->j[nr->n] = j;
                        nr->gap[nr->n++] = g;
                    }
                    if (g > tol) continue;
                }
                any |= chunk_point(C, j, plane, c, w2, Rr, t, r2, so, mark, ys);
            }
        }
    }
    if (!any) return 0;
    /* the inside points in index order, clearing the marks */
    for (int wd = 0; wd < (S->npoint + 63) >> 6; wd++) {
        unsigned long long bits = mark[wd];
        mark[wd] = 0;
        while (bits) {
            int i = (wd << 6) + __builtin_ctzll(bits);
            bits &= bits - 1;
            tc_v3_copy(y[m], ys[i]);
            idx[m++] = i;
        }
    }
    return m;
}

/* which faces take part: the paper considers only faces that intersect the other body p or lie
 * inside it. Two cheap necessary conditions stand for that: p reaches the face's plane (max over
 * p of n . x >= d, by p's support point along n), and p's centre lies on the outer side of the
 * face relative to the owner's centre (n . (c_p - c_O) > 0). The second removes the far faces
 * of a deep overlap (in a shallow contact the face p touches always passes both) */
static int eligible(const double pl[4], const tc_body_state *O, const tc_shape *sp,
                    const tc_body_state *P) {
    double nw[3], nl[3], sl[3], x[3];
    tc_m3_mulv(nw, O->R, pl);
    tc_v3_sub(x, P->pos, O->pos);
    if (!(tc_v3_dot(nw, x) > 0)) return 0;
    tc_m3_mulvt(nl, P->R, nw);
    tc_shape_support(sp, nl, sl);
    tc_m3_mulv(x, P->R, sl);
    tc_v3_add(x, x, P->pos);
    tc_v3_sub(x, x, O->pos);
    tc_m3_mulvt(nl, O->R, x);
    return tc_v3_dot(pl, nl) >= pl[3];
}

/* a lower bound (m) on |n . y - d| for every face of group G (normals in the cone: axis a, cos c
 * and sin s of its half angle; d in [d0, d1]), ny = |y|: with alpha the angle between a and y,
 * n . y lies in [|y| cos min(pi, alpha + theta), |y| cos max(0, alpha - theta)]; less a margin
 * for rounding */
static double group_bound(const double G[7], const double y[3], double ny) {
    double lo = 0, hi = 0;
    /* a cone of half a turn or more bounds nothing */
    if (G[3] <= -1 + 1e-12) return -INFINITY;
    if (ny > 0) {
        /* comparisons rather than fmin and fmax, which are library calls here */
        double ca = tc_v3_dot(G, y) / ny;
        ca = ca < -1 ? -1 : ca > 1 ? 1 : ca;
        double sa = sqrt(1 - ca * ca);
        hi = ca >= G[3] ? ny : ny * (ca * G[3] + sa * G[4]);
        lo = sa * G[3] + ca * G[4] < 0 ? -ny : ny * (ca * G[3] - sa * G[4]);
    }
    double gap = lo - G[6] > G[5] - hi ? lo - G[6] : G[5] - hi;
    gap = gap > 0 ? gap : 0;
    return gap - 1e-9 * (ny + fabs(G[5]) + fabs(G[6]));
}

/* the largest |n . y_j - d| over p's n inside points, stopping once it passes *best (or ties it
 * from a face index above *f: the lower index wins ties); eq. 4's candidate when it stays below,
 * and eligible */
static void score_face(const tc_surface *S, int k, const tc_body_state *O, const tc_shape *sp,
                       const tc_body_state *P, const double (*y)[3], int n, double *best, int *f) {
    const double *pl = S->face[k];
    double worst = 0;
    for (int j = 0; j < n && (worst < *best || (worst == *best && k < *f)); j++) {
        double e = fabs(tc_v3_dot(pl, y[j]) - pl[3]);
        if (e > worst) worst = e;
    }
    if ((worst < *best || (worst == *best && k < *f)) && eligible(pl, O, sp, P)) {
        *best = worst;
        *f = k;
    }
}

/* eq. 4 over the eligible faces of surface S (posed by O): the face minimising the largest
 * |n . y - d| over p's n inside points y (O's body frame); ties to the lower index; returns the
 * face (-1 if none) and its score in *best. The least (score, index) wins in whatever order the
 * faces are scored, so a surface with face groups scores first the group whose cone leans most
 * toward the first point and then skips every group whose bound exceeds the best score */
static int best_face(const tc_surface *S, const tc_body_state *O, const tc_shape *sp,
                     const tc_body_state *P, const double (*y)[3], int n, double *best) {
    int f = -1;
    *best = INFINITY;
    if (!S->nfgroup || n == 0) {
        for (int k = 0; k < S->nface; k++)
            score_face(S, k, O, sp, P, y, n, best, &f);
        return f;
    }
    int first = 0;
    double lean = -INFINITY, ny = tc_v3_norm(y[0]);
    for (int g = 0; g < S->nfgroup; g++) {
        double e = tc_v3_dot(S->fgroup[g], y[0]);
        if (e > lean) {
            lean = e;
            first = g;
        }
    }
    for (int q = -1; q < S->nfgroup; q++) {
        int g = q < 0 ? first : q;
        if (q == first || (q >= 0 && group_bound(S->fgroup[g], y[0], ny) > *best)) continue;
        int k1 = (g + 1) * TC_SURF_FGROUP < S->nface ? (g + 1) * TC_SURF_FGROUP : S->nface;
        for (int k = g * TC_SURF_FGROUP; k < k1; k++)
            score_face(S, k, O, sp, P, y, n, best, &f);
    }
    return f;
}

/* (depth, index) order: deeper first, then the lower point index */
static int deeper(const tc_pen_work *w, int a, int b) {
    if (w->dep[a] != w->dep[b]) return w->dep[a] > w->dep[b];
    return w->keep[a] < w->keep[b];
}

/* heap sort of ord[0..n) so that ord[0] is the deepest (no allocation, deterministic) */
static void sift(const tc_pen_work *w, int *ord, int i, int n) {
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n) return;
        /* a min-heap on "deeper": the root is the shallowest of the heap */
        if (c + 1 < n && deeper(w, ord[c], ord[c + 1])) c++;
        if (!deeper(w, ord[i], ord[c])) return;
        int t = ord[i];
        ord[i] = ord[c];
        ord[c] = t;
        i = c;
    }
}
static void sort_deepest_first(const tc_pen_work *w, int *ord, int n) {
    for (int i = n / 2 - 1; i >= 0; i--)
        sift(w, ord, i, n);
    for (int e = n - 1; e > 0; e--) {
        int t = ord[0];
        ord[0] = ord[e];
        ord[e] = t;
        sift(w, ord, 0, e);
    }
}

/* the fallback: tc_deepest's single point, moved onto a's surface: a's support point against the
 * normal (a plane a: half the depth below tc_deepest's midway point, which is then exact) */
static int deepest_only(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
                        const tc_body_state *B, tc_penetration *out, tc_pen_point *pts, int max) {
    double depth, nrm[3], mid[3], p[3];
    if (tc_deepest(sa, A, sb, B, &depth, nrm, mid) != 1) return 0;
    if (sa->type == TC_SHAPE_PLANE) {
        for (int k = 0; k < 3; k++)
            p[k] = mid[k] - 0.5 * depth * nrm[k];
    } else {
        double m[3], dl[3], sl[3];
        tc_v3_scale(m, nrm, -1);
        tc_m3_mulvt(dl, A->R, m);
        tc_shape_support(sa, dl, sl);
        tc_m3_mulv(p, A->R, sl);
        tc_v3_add(p, p, A->pos);
    }
    tc_v3_copy(out->normal, nrm);
    out->plane_d = tc_v3_dot(nrm, p) + depth;
    out->on_b = 0;
    out->depth = depth;
    out->n = max > 0 ? 1 : 0;
    if (out->n) {
        tc_v3_copy(pts[0].p, p);
        pts[0].depth = depth;
    }
    return out->n;
}

int tc_penetrate(const tc_shape *sa, const tc_surface *SA, const tc_body_state *A,
                 const tc_shape *sb, const tc_surface *SB, const tc_body_state *B, tc_pen_work *w,
                 tc_penetration *out, tc_pen_point *pts, int max) {
    return tc_penetrate_chunked(sa, SA, NULL, A, sb, SB, NULL, B, w, out, pts, max);
}

int tc_penetrate_chunked(const tc_shape *sa, const tc_surface *SA, const tc_pen_chunks *CA,
                         const tc_body_state *A, const tc_shape *sb, const tc_surface *SB,
                         const tc_pen_chunks *CB, const tc_body_state *B, tc_pen_work *w,
                         tc_penetration *out, tc_pen_point *pts, int max) {
    tc_pen_side a = {sa, SA, CA, A, NULL}, b = {sb, SB, CB, B, NULL};
    return tc_penetrate_sides(&a, &b, w, out, pts, max);
}

int tc_penetrate_sides(const tc_pen_side *a, const tc_pen_side *b, tc_pen_work *w,
                       tc_penetration *out, tc_pen_point *pts, int max) {
    const tc_shape *sa = a->shape, *sb = b->shape;
    const tc_surface *SA = a->surf, *SB = b->surf;
    const tc_body_state *A = a->pose, *B = b->pose;
    memset(out, 0, sizeof *out);
    if (SA->npoint > w->cap || SB->npoint > w->cap) return -1;
    if (apart(sa, SA, A, sb, SB, B)) return 0;

    /* step 1: a's points inside b (in b's frame), b's points inside a (in a's frame) */
    int na =
        inside_points(SA, a->chunks, A, sb, SB->radius, B, a->near, w->mark, w->ys, w->ia, w->ya);
    int nb =
        inside_points(SB, b->chunks, B, sa, SA->radius, A, b->near, w->mark, w->ys, w->ib, w->yb);
    if (na == 0 && nb == 0) return deepest_only(sa, A, sb, B, out, pts, max);

    /* step 2 (eq. 4): b's faces scored by a's points, a's faces by b's; b wins ties */
    double sb_best = INFINITY, sa_best = INFINITY;
    int fb = na ? best_face(SB, B, sa, A, (const double(*)[3])w->ya, na, &sb_best) : -1;
    int fa = nb ? best_face(SA, A, sb, B, (const double(*)[3])w->yb, nb, &sa_best) : -1;
    if (fa < 0 && fb < 0) return deepest_only(sa, A, sb, B, out, pts, max);
    int on_b = fb < 0 || (fa >= 0 && sa_best < sb_best - PEN_TIE);

    /* the chosen face (body frame of its owner O) and the points of the other body p */
    const tc_surface *SO = on_b ? SA : SB, *SP = on_b ? SB : SA;
    const tc_body_state *O = on_b ? A : B, *P = on_b ? B : A;
    const double *pl = SO->face[on_b ? fa : fb];
    const int *idx = on_b ? w->ib : w->ia;
    const double(*y)[3] = (const double(*)[3])(on_b ? w->yb : w->ya);
    int ny = on_b ? nb : na;
    double nw[3], np[3];
    tc_m3_mulv(nw, O->R, pl);  /* face normal, world, pointing toward p */
    tc_m3_mulvt(np, P->R, nw); /* the same in p's body frame */
    double dw = pl[3] + tc_v3_dot(nw, O->pos);

    /* step 3: p's inside points with a surface normal facing away from the face normal */
    int m = 0;
    for (int j = 0; j < ny; j++) {
        int i = idx[j];
        if (!faces_away((const double(*)[3])SP->n[i], SP->nn[i], np)) continue;
        double d = pl[3] - tc_v3_dot(pl, y[j]);
        w->keep[m] = j;
        w->dep[m] = d > 0 ? d : 0;
        m++;
    }
    if (m == 0) return deepest_only(sa, A, sb, B, out, pts, max);

    /* at most max of them: the deepest, written in point order */
    int nout = m < max ? m : (max > 0 ? max : 0);
    for (int k = 0; k < m; k++)
        w->order[k] = k;
    if (nout < m) {
        sort_deepest_first(w, w->order, m);
        tc_sort_int(w->order, nout);
    }
    double sgn = on_b ? -1 : 1, deepest = 0;
    for (int k = 0; k < nout; k++) {
        int q = w->order[k], i = idx[w->keep[q]];
        tc_m3_mulv(pts[k].p, P->R, SP->p[i]);
        tc_v3_add(pts[k].p, pts[k].p, P->pos);
        pts[k].depth = w->dep[q];
        if (w->dep[q] > deepest) deepest = w->dep[q];
    }
    tc_v3_scale(out->normal, nw, sgn);
    out->plane_d = sgn * dw;
    out->on_b = on_b;
    out->n = nout;
    out->depth = deepest;
    return nout;
}
