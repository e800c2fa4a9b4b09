/* SPDX-License-Identifier: MIT */
/* SCM's analytic force derivatives: the wrenches differentiated by hand through the SSDF softmax,
 * the point-plane law and the separation softmin, with respect to both bodies' poses and twists */
#include "core/tc_parallel.h"
#include "math/tc_vec.h"
#include "models/tc_scm.h"

#include <omp.h>
#include <string.h>

/*
 * Notation (docs/models/scm.md, "Derivatives"). A query point p of body Q (COM cQ, twist VQ, WQ,
 * rQ = p - cQ, velocity vq = VQ + WQ x rQ) meets the gathered points p_i, n_i of body S (COM cS,
 * twist VS, WS, r_i = p_i - cS). Every per-point quantity y (the weight's log, phi_i, the force
 * l_i and torque t_i = r_i x l_i) is a function of e = p - p_i, n_i, the relative velocity
 * v_i = vq - VS - WS x r_i and r_i; its row gradients ge, gn, gv, gr over those map to the 24
 * columns (Q's c, theta, V, W, then S's) as
 *   cQ: ge   thQ: rQ x (ge + gv x WQ)   VQ: gv   WQ: rQ x gv
 *   cS: -ge  thS: (ge - gr + gv x WS) x r_i - gn x n_i   VS: -gv   WS: gv x r_i.
 * Only thS and WS depend on the gathered point: they are summed per point, the rest after.
 */

/* rows of one query point's softmax sums: 1 (the weights), phi, the force l, the torque t */
enum { Y_ONE = 0, Y_PHI = 1, Y_L = 2, Y_T = 5, NY = 8 };
/* local columns: Q's c, theta, V, W, then S's */
enum { NC = 24 };

/* one query point's weighted sums: S[y] = sum w y, and per y the weighted row gradients over e
 * (with the weight's log folded in: ge + y glogw), v, and the gathered-point-dependent thS, WS */
typedef struct {
    double S[NY], ae[NY][3], av[NY][3], ath[NY][3], aw[NY][3];
} point_acc;

/* add w times one row's gradients (ge, gn, gv, gr; value val) to row y of the sums */
static inline void acc_row(point_acc *A, int y, double w, double val, const double glw[3],
                           const double ge[3], const double gn[3], const double gv[3],
                           const double gr[3], const double n[3], const double r[3],
                           const double WS[3]) {
    double e[3], x[3], c1[3], c2[3], gvw[3];
    for (int k = 0; k < 3; k++)
        e[k] = ge[k] + val * glw[k];
    tc_v3_cross(gvw, gv, WS);
    for (int k = 0; k < 3; k++)
        x[k] = e[k] - gr[k] + gvw[k];
    tc_v3_cross(c1, x, r);
    tc_v3_cross(c2, gn, n);
    A->S[y] += w * val;
    for (int k = 0; k < 3; k++) {
        A->ae[y][k] += w * e[k];
        A->av[y][k] += w * gv[k];
        A->ath[y][k] += w * (c1[k] - c2[k]);
    }
    tc_v3_cross(c1, gv, r);
    for (int k = 0; k < 3; k++)
        A->aw[y][k] += w * c1[k];
}

/* one gathered point's contribution: weight w, offset e = p - p_i, normal n, arm r = p_i - cS,
 * relative velocity v; S's angular velocity WS */
static void gathered_point(const scm_state *s, point_acc *A, double w, double inv_eps1,
                           const double e[3], const double n[3], const double r[3],
                           const double v[3], const double WS[3]) {
    const double phi = n[0] * e[0] + n[1] * e[1] + n[2] * e[2], inv_vd = 1.0 / s->vd;
    tc_scm_law o;
    tc_scm_law_eval(phi, n[0], n[1], n[2], v[0], v[1], v[2], s->k, s->eps3, inv_vd, s->vs * s->vs,
                    s->mu, &o);
    /* the normal force lnd = ksp(phi) d(vn / vd): gradients over e, n, v */
    const double dksp = -s->k * tc_sigmoid(-phi, s->eps3);
    const double dd = tc_scm_damping_slope(o.vn * inv_vd) * inv_vd;
    double ge_l[3], gn_l[3], gv_l[3];
    for (int k = 0; k < 3; k++) {
        ge_l[k] = o.dmp * dksp * n[k];
        gn_l[k] = o.dmp * dksp * e[k] + o.ksp * dd * v[k];
        gv_l[k] = o.ksp * dd * n[k];
    }
    /* l = lnd n + ft vt, ft = -mu lnd / s: dl = q dlnd + lnd dn + M dvt, q = n - (mu / s) vt,
     * M = (mu lnd / s^3) vt vt^T + ft I, dvt = P dv + N dn, P = I - n n^T, N = -n v^T - vn I */
    const double a = -s->mu / o.s, b = s->mu * o.lnd / (o.s * o.s * o.s);
    double q[3], M[3][3], P[3][3], N[3][3], MN[3][3], MP[3][3];
    for (int i = 0; i < 3; i++) {
        q[i] = n[i] + a * o.vt[i];
        for (int j = 0; j < 3; j++) {
            M[i][j] = b * o.vt[i] * o.vt[j] + (i == j ? o.ft : 0.0);
            P[i][j] = (i == j ? 1.0 : 0.0) - n[i] * n[j];
            N[i][j] = -n[i] * v[j] - (i == j ? o.vn : 0.0);
        }
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            MN[i][j] = M[i][0] * N[0][j] + M[i][1] * N[1][j] + M[i][2] * N[2][j];
            MP[i][j] = M[i][0] * P[0][j] + M[i][1] * P[1][j] + M[i][2] * P[2][j];
        }
    double Je[3][3], Jn[3][3], Jv[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            Je[i][j] = q[i] * ge_l[j];
            Jn[i][j] = q[i] * gn_l[j] + (i == j ? o.lnd : 0.0) + MN[i][j];
            Jv[i][j] = q[i] * gv_l[j] + MP[i][j];
        }
    /* t = r x l: J(t) = [r]x J(l) over e, n, v, and -[l]x over r */
    double t[3], Te[3][3], Tn[3][3], Tv[3][3], Tr[3][3];
    tc_v3_cross(t, r, o.l);
    for (int j = 0; j < 3; j++) {
        double ce[3] = {Je[0][j], Je[1][j], Je[2][j]}, cn[3] = {Jn[0][j], Jn[1][j], Jn[2][j]};
        double cv[3] = {Jv[0][j], Jv[1][j], Jv[2][j]}, xe[3], xn[3], xv[3];
        tc_v3_cross(xe, r, ce);
        tc_v3_cross(xn, r, cn);
        tc_v3_cross(xv, r, cv);
        for (int i = 0; i < 3; i++) {
            Te[i][j] = xe[i];
            Tn[i][j] = xn[i];
            Tv[i][j] = xv[i];
        }
    }
    const double *l = o.l;
    const double lx[3][3] = {{0, -l[2], l[1]}, {l[2], 0, -l[0]}, {-l[1], l[0], 0}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Tr[i][j] = -lx[i][j];
    /* the rows: the weight's log (glw over e), phi (n over e, e over n), l, t */
    const double z[3] = {0, 0, 0};
    double glw[3];
    for (int k = 0; k < 3; k++)
        glw[k] = -2.0 * inv_eps1 * e[k];
    acc_row(A, Y_ONE, w, 1.0, glw, z, z, z, z, n, r, WS);
    acc_row(A, Y_PHI, w, phi, glw, n, e, z, z, n, r, WS);
    for (int i = 0; i < 3; i++) {
        acc_row(A, Y_L + i, w, l[i], glw, Je[i], Jn[i], Jv[i], z, n, r, WS);
        acc_row(A, Y_T + i, w, t[i], glw, Te[i], Tn[i], Tv[i], Tr[i], n, r, WS);
    }
}

/* body S's world cloud with its block data (as model_scm.c's neighbour search sees it) */
static tc_scm_cloud source(const scm_state *s, int sbody) {
    return (tc_scm_cloud){&s->world[sbody], s->momw[sbody], s->blk[sbody], s->blkw[sbody]};
}

/* query point j of body qbody against body sbody: the normalised sums Y[y] and their 24-column
 * gradients G[y] (Q's columns first); with grad = 0 only Y[Y_PHI] (the SSDF value). g holds the
 * candidates of j's query block */
static void query_point(const scm_state *s, int qbody, int j, int sbody, const tc_body_state *bs,
                        tc_scm_gather *g, int grad, double Y[NY], double G[NY][NC]) {
    const tc_aopc *Q = &s->world[qbody], *S = &s->world[sbody];
    const tc_body_state *qs = &bs[qbody], *sb = &bs[sbody];
    const tc_scm_cloud c = source(s, sbody);
    const double eps1 = s->eps1[sbody], inv_eps1 = 1.0 / eps1;
    const double p[3] = {Q->px[j], Q->py[j], Q->pz[j]};
    const double dmin = tc_scm_gather_point(&c, p, eps1, s->prune, NAN, g);
    double vq[3], rQ[3];
    tc_body_point_velocity(qs, p, vq);
    tc_v3_sub(rQ, p, qs->pos);
    point_acc A;
    memset(&A, 0, sizeof A);
    for (int k = 0; k < g->n; k++) {
        const int i = g->idx[k];
        const double e[3] = {p[0] - S->px[i], p[1] - S->py[i], p[2] - S->pz[i]};
        const double w = tc_exp_neg((dmin - (e[0] * e[0] + e[1] * e[1] + e[2] * e[2])) * inv_eps1);
        const double n[3] = {S->nx[i], S->ny[i], S->nz[i]};
        if (!grad) {
            A.S[Y_ONE] += w;
            A.S[Y_PHI] += w * (n[0] * e[0] + n[1] * e[1] + n[2] * e[2]);
            continue;
        }
        if (w == 0) continue;
        const double r[3] = {S->px[i] - sb->pos[0], S->py[i] - sb->pos[1], S->pz[i] - sb->pos[2]};
        double v[3], wr[3];
        tc_v3_cross(wr, sb->omega, r);
        for (int d = 0; d < 3; d++)
            v[d] = vq[d] - sb->vel[d] - wr[d];
        gathered_point(s, &A, w, inv_eps1, e, n, r, v, sb->omega);
    }
    const double inv = 1.0 / A.S[Y_ONE];
    Y[Y_PHI] = A.S[Y_PHI] * inv;
    if (!grad) return;
    for (int y = 0; y < NY; y++) {
        Y[y] = A.S[y] * inv;
        double ge[3], gv[3], t1[3], t2[3];
        double *Gy = G[y];
        for (int k = 0; k < 3; k++) {
            ge[k] = (A.ae[y][k] - Y[y] * A.ae[Y_ONE][k]) * inv;
            gv[k] = (A.av[y][k] - Y[y] * A.av[Y_ONE][k]) * inv;
            Gy[12 + 3 + k] = (A.ath[y][k] - Y[y] * A.ath[Y_ONE][k]) * inv;
            Gy[12 + 9 + k] = (A.aw[y][k] - Y[y] * A.aw[Y_ONE][k]) * inv;
            Gy[k] = ge[k];
            Gy[6 + k] = gv[k];
            Gy[12 + k] = -ge[k];
            Gy[12 + 6 + k] = -gv[k];
        }
        tc_v3_cross(t1, gv, qs->omega);
        for (int k = 0; k < 3; k++)
            t1[k] += ge[k];
        tc_v3_cross(t2, rQ, t1);
        tc_v3_cross(t1, rQ, gv);
        for (int k = 0; k < 3; k++) {
            Gy[3 + k] = t2[k];
            Gy[9 + k] = t1[k];
        }
    }
}

/* [a]x B for a 3 x NC block B (rows b0..b2) into D, added with sign sg */
static void cross_rows(double D[3][NC], const double a[3], double B[3][NC], double sg) {
    for (int c = 0; c < NC; c++) {
        double x[3] = {B[0][c], B[1][c], B[2][c]}, r[3];
        tc_v3_cross(r, a, x);
        for (int k = 0; k < 3; k++)
            D[k][c] += sg * r[k];
    }
}

/* a query point's outputs o (F on Q, torque on Q, -F on S, torque on S) and their gradients do
 * (12 x NC, local columns) from its normalised sums */
static void point_outputs(const scm_state *s, const tc_body_state *qs, const tc_body_state *sb,
                          const double p[3], double Y[NY], double G[NY][NC], double o[12],
                          double dO[12][NC]) {
    double rQ[3], rS[3], *F = Y + Y_L;
    tc_v3_sub(rQ, p, qs->pos);
    tc_v3_sub(rS, p, sb->pos);
    memset(dO, 0, 12 * NC * sizeof(double));
    double(*dF)[NC] = G + Y_L;
    for (int k = 0; k < 3; k++) {
        o[k] = F[k];
        o[6 + k] = -F[k];
        for (int c = 0; c < NC; c++) {
            dO[k][c] = dF[k][c];
            dO[6 + k][c] = -dF[k][c];
        }
    }
    /* torque on Q: rQ x F; rQ turns with Q (d rQ = dth x rQ): + [F]x [rQ]x dth */
    tc_v3_cross(o + 3, rQ, F);
    cross_rows(dO + 3, rQ, dF, 1.0);
    for (int j = 0; j < 3; j++) {
        double ej[3] = {0, 0, 0}, x[3], y[3];
        ej[j] = 1;
        tc_v3_cross(x, rQ, ej);
        tc_v3_cross(y, F, x);
        for (int k = 0; k < 3; k++)
            dO[3 + k][3 + j] += y[k];
    }
    if (!s->consistent) {
        /* the paper's reaction: minus the softmax of r_i x l_i */
        for (int k = 0; k < 3; k++) {
            o[9 + k] = -Y[Y_T + k];
            for (int c = 0; c < NC; c++)
                dO[9 + k][c] = -G[Y_T + k][c];
        }
        return;
    }
    /* consistent: (p - cS) x (-F); d(p - cS) = dcQ + dthQ x rQ - dcS: + [F]x d(p - cS) */
    double mF[3] = {-F[0], -F[1], -F[2]};
    tc_v3_cross(o + 9, rS, mF);
    cross_rows(dO + 9, rS, dF, -1.0);
    for (int j = 0; j < 3; j++) {
        double ej[3] = {0, 0, 0}, x[3], y[3];
        ej[j] = 1;
        tc_v3_cross(y, F, ej);
        for (int k = 0; k < 3; k++) {
            dO[9 + k][j] += y[k];
            dO[9 + k][12 + j] -= y[k];
        }
        tc_v3_cross(x, ej, rQ);
        tc_v3_cross(y, F, x);
        for (int k = 0; k < 3; k++)
            dO[9 + k][3 + j] += y[k];
    }
}

/* query block qb of body qbody (against sbody), its candidates first: pass 0 writes its points'
 * SSDF values into phi; pass 1 adds the weighing ones' terms to J and their separation weights
 * times their SSDF gradients to dsep (see pair_jacobian) */
static void block_terms(const scm_state *s, tc_scm_gather *g, int qbody, int qb, int nq, int sbody,
                        const tc_body_state *bs, int pass, double *phi, double pmin, double cut,
                        const double pw[12], double J[12][NC], double dsep[NC], int qfirst) {
    const int ns = s->world[sbody].n, j0 = qb * BLK, j1 = j0 + BLK < nq ? j0 + BLK : nq;
    int any = !pass;
    for (int j = j0; j < j1 && !any; j++)
        any = phi[j] <= cut;
    if (!any) return;
    tc_scm_candidates(s->blkw[qbody] + 3 * qb, s->blk[qbody][4 * qb + 3], s->blk[sbody],
                      s->blkw[sbody], (ns + BLK - 1) / BLK, s->eps1[sbody], s->prune, g);
    /* pair rows and columns: the first body's (0-5, 0-11), then the second's */
    const int rq = qfirst ? 0 : 6, rs = 6 - rq, cq = qfirst ? 0 : 12, cs = 12 - cq;
    for (int j = j0; j < j1; j++) {
        double Y[NY], G[NY][NC], o[12], dO[12][NC];
        if (!pass) {
            query_point(s, qbody, j, sbody, bs, g, 0, Y, G);
            phi[j] = Y[Y_PHI];
            continue;
        }
        if (!(phi[j] <= cut)) continue;
        query_point(s, qbody, j, sbody, bs, g, 1, Y, G);
        const tc_aopc *Q = &s->world[qbody];
        const double p[3] = {Q->px[j], Q->py[j], Q->pz[j]};
        point_outputs(s, &bs[qbody], &bs[sbody], p, Y, G, o, dO);
        const double wf = tc_exp_neg((pmin - phi[j]) / s->eps2), sc = wf / s->eps2;
        for (int c = 0; c < NC; c++)
            dsep[c < 12 ? cq + c : cs + c - 12] += wf * G[Y_PHI][c];
        for (int k = 0; k < 12; k++) {
            const int row = k < 6 ? rq + k : rs + k - 6;
            const double dev = o[k] - pw[row];
            for (int c = 0; c < NC; c++) {
                const int col = c < 12 ? cq + c : cs + c - 12;
                J[row][col] += wf * dO[k][c] - sc * dev * G[Y_PHI][c];
            }
        }
    }
}

/* every query block of body qbody: each block's terms summed on their own, then added to J and
 * dsep in block order (the same bits on any thread count). With inner the blocks run on threads,
 * thread t on gather buffer g0 + t (as force()'s large pairs); else on g0 alone */
static void sweep_points(const scm_state *s, tc_scm_gather *g0, int inner, int qbody, int nq,
                         int sbody, const tc_body_state *bs, int pass, double *phi, double pmin,
                         double cut, const double pw[12], double J[12][NC], double dsep[NC],
                         int qfirst) {
    const int par = inner && (long long)nq * s->world[sbody].n > 200000;
#pragma omp parallel for ordered schedule(dynamic, 1) num_threads(tc_scm_threads(s)) if (par)
    for (int qb = 0; qb < (nq + BLK - 1) / BLK; qb++) {
        double Jb[12][NC], db[NC];
        if (pass) {
            memset(Jb, 0, sizeof Jb);
            memset(db, 0, sizeof db);
        }
        block_terms(s, g0 + omp_get_thread_num(), qbody, qb, nq, sbody, bs, pass, phi, pmin, cut,
                    pw, Jb, db, qfirst);
#pragma omp ordered
        if (pass) {
            for (int k = 0; k < 12; k++)
                for (int c = 0; c < NC; c++)
                    J[k][c] += Jb[k][c];
            for (int c = 0; c < NC; c++)
                dsep[c] += db[c];
        }
    }
}

/* one pair's wrench derivatives into J (its first body's wrench rows, then the second's, by its
 * first body's columns, then the second's) and its separation with its gradient into sep (value,
 * then the same 24 columns), with thread t's scratch: the SSDF values of every query point, their
 * softmin, then the terms of the points that weigh. pw = sum_f w_f o_f / D with
 * w_f = exp(-(phi_f - pmin) / eps2): dpw = sum_f w_f (do_f - (o_f - pw) dphi_f / eps2) / D; the
 * separation pmin - eps2 log D has the gradient sum_f w_f dphi_f / D */
static void pair_jacobian(const scm_state *s, int t, int inner, int a, int b,
                          const tc_body_state *bs, const double pw[12], double J[12][NC],
                          double sep[1 + NC]) {
    const tc_aopc *A = &s->world[a], *B = &s->world[b];
    const int na = s->scene->body[a].shape.type != TC_SHAPE_PLANE ? A->n : 0;
    const int nb = s->scene->body[b].shape.type != TC_SHAPE_PLANE ? B->n : 0;
    double *phi = s->out + s->qcap * OUT_N * t, *dsep = sep + 1;
    tc_scm_gather *g = &s->gather[t];
    memset(J, 0, TC_SCM_DPW * sizeof(double));
    memset(sep, 0, (1 + NC) * sizeof *sep);
    sweep_points(s, g, inner, a, na, b, bs, 0, phi, 0, 0, pw, J, dsep, 1);
    sweep_points(s, g, inner, b, nb, a, bs, 0, phi + na, 0, 0, pw, J, dsep, 0);
    double pmin = INFINITY, D = 0;
    for (int f = 0; f < na + nb; f++)
        pmin = fmin(pmin, phi[f]);
    for (int f = 0; f < na + nb; f++)
        D += tc_exp_neg((pmin - phi[f]) / s->eps2);
    /* a pruned pair's points beyond the cut carry no force (force() zeroes them) */
    const double cut =
        tc_scm_pruned(s, na, A->n, nb, B->n) ? pmin + TC_SCM_CUT * s->eps2 : INFINITY;
    sweep_points(s, g, inner, a, na, b, bs, 1, phi, pmin, cut, pw, J, dsep, 1);
    sweep_points(s, g, inner, b, nb, a, bs, 1, phi + na, pmin, cut, pw, J, dsep, 0);
    for (int k = 0; k < 12; k++)
        for (int c = 0; c < NC; c++)
            J[k][c] /= D;
    sep[0] = pmin - s->eps2 * log(D);
    for (int c = 0; c < NC; c++)
        dsep[c] /= D;
}

/* force() (the wrenches w, the world clouds, each pair's wrench), then every pair's derivatives
 * into s->dpw and separations into s->dsep: as force() runs them, one pair per thread (each its
 * own scratch) when the pairs are balanced, else one after the other with the threads inside */
static tc_status pairs_jacobian(scm_state *s, const tc_body_state *bs, tc_wrench *w,
                                tc_contact_stats *st) {
    tc_status r = tc_model_scm.force(s, bs, w, st);
    if (r) return r;
    const int np = s->npair, nth = tc_scm_threads(s);
    if (s->by_pair && nth > 1) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(nth)
        for (int i = 0; i < np; i++)
            pair_jacobian(s, omp_get_thread_num(), 0, s->pairs[2 * i], s->pairs[2 * i + 1], bs,
                          s->pw + 12 * i, (double(*)[NC])(s->dpw + (size_t)TC_SCM_DPW * i),
                          s->dsep + (size_t)(1 + NC) * i);
    } else
        for (int i = 0; i < np; i++)
            pair_jacobian(s, 0, 1, s->pairs[2 * i], s->pairs[2 * i + 1], bs, s->pw + 12 * i,
                          (double(*)[NC])(s->dpw + (size_t)TC_SCM_DPW * i),
                          s->dsep + (size_t)(1 + NC) * i);
    return TC_OK;
}

tc_status tc_scm_separation(void *state, const tc_body_state *bs, tc_wrench *w, double *sep) {
    scm_state *s = state;
    tc_status r = pairs_jacobian(s, bs, w, NULL);
    if (!r) memcpy(sep, s->dsep, (size_t)s->npair * (1 + NC) * sizeof *sep);
    return r;
}

tc_status tc_scm_force_jacobian(void *state, const tc_body_state *bs, tc_wrench *w, double *dw,
                                tc_contact_stats *st) {
    scm_state *s = state;
    /* the pairs' derivatives (the wrenches as force() gives them), summed in pair order */
    tc_status r = pairs_jacobian(s, bs, w, st);
    if (r) return r;
    const int nb = s->scene->nbody, np = s->npair, nc = 12 * nb;
    memset(dw, 0, (size_t)6 * nb * nc * sizeof *dw);
    for (int i = 0; i < np; i++) {
        const int body[2] = {s->pairs[2 * i], s->pairs[2 * i + 1]};
        const double *J = s->dpw + (size_t)TC_SCM_DPW * i;
        for (int k = 0; k < 12; k++) {
            double *row = dw + (size_t)(6 * body[k / 6] + k % 6) * nc;
            for (int c = 0; c < NC; c++)
                row[12 * body[c / 12] + c % 12] += J[k * NC + c];
        }
    }
    return TC_OK;
}
