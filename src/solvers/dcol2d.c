/* SPDX-License-Identifier: MIT */
/* the planar single-level contact problem of Le Cleac'h et al. (problem 20 in 2-D): each
 * pair's collision KKT conditions and contact dynamics, their residual rows and exact
 * derivatives, evaluated pair by pair (the solvers assemble them) */
#include "solvers/tc_dcol2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tc_dcol2d_free(tc_dcol2d *d) {
    if (d) tc_arena_free(&d->arena);
}

/* every body: planar or without dofs, and a planar primitive, into prim */
static tc_status check_bodies(const tc_system *sys, tc_convex2d *prim, tc_error *err) {
    const tc_scene *sc = sys->scene;
    tc_status st = TC_OK;
    for (int i = 0; i < sc->nbody && !st; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (sys->vadr[i] >= 0 && b->joint != TC_JOINT_PLANAR)
            st = tc_error_set(err, TC_EUNSUP, NULL, 0, "joint",
                              "body '%s': the planar contact problem needs planar bodies "
                              "(x, y, theta)",
                              b->name);
        if (!st) st = tc_convex2d_from_shape(&prim[i], &b->shape, b->pos, b->quat, b->name, err);
        if (!st && sys->vadr[i] >= 0 && prim[i].kind != TC_CONVEX2D_POLYGON)
            st = tc_error_set(err, TC_EUNSUP, NULL, 0, "shape",
                              "body '%s': a half-space must be fixed", b->name);
    }
    return st;
}

/* the problem's pair for bodies a and b: the polygon first when the other side is a
 * half-space, its sizes, and the largest pair's */
static void add_pair(tc_dcol2d *d, const tc_convex2d *prim, int a, int b) {
    if (prim[a].kind == TC_CONVEX2D_HALFSPACE) {
        int t = a;
        a = b;
        b = t;
    }
    tc_dcol2d_pair *p = &d->pair[d->npair++];
    p->body[0] = a;
    p->body[1] = b;
    p->ma = prim[a].m;
    p->mb = prim[b].m;
    p->nl = 2 * (p->ma + p->mb) + 11;
    p->ne = p->ma + p->mb + 7;
    p->ncol = 3 + 2 * (p->ma + p->mb);
    p->necol = 3 + p->ma + p->mb;
    if (p->nl > d->maxl) d->maxl = p->nl;
    if (p->ne > d->maxe) d->maxe = p->ne;
}

/* the pairs into d: not two half-spaces, no kinematic body, at most TC_DCOL2D_MAXPAIR */
static tc_status find_pairs(tc_dcol2d *d, const tc_convex2d *prim, tc_error *err) {
    const tc_scene *sc = d->sys->scene;
    int *pairs = calloc((size_t)sc->nbody * (size_t)sc->nbody + 2, sizeof *pairs);
    if (!pairs) return TC_ENOMEM;
    int np = tc_scene_pairs(sc, pairs);
    tc_status st = TC_OK;
    for (int k = 0; k < np && !st; k++) {
        int a = pairs[2 * k], b = pairs[2 * k + 1];
        if (prim[a].kind == TC_CONVEX2D_HALFSPACE && prim[b].kind == TC_CONVEX2D_HALFSPACE)
            continue;
        for (int j = 0; j < 2 && !st; j++) {
            const tc_body_desc *bd = &sc->body[j ? b : a];
            if (bd->joint == TC_JOINT_KINEMATIC)
                st = tc_error_set(err, TC_EUNSUP, NULL, 0, "body",
                                  "body '%s': kinematic bodies are not supported", bd->name);
        }
        if (!st && d->npair == TC_DCOL2D_MAXPAIR)
            st = tc_error_set(err, TC_EINVAL, NULL, 0, "bodies", "more than %d pairs",
                              TC_DCOL2D_MAXPAIR);
        if (!st) add_pair(d, prim, a, b);
    }
    free(pairs);
    return st;
}

/* the primitives, fixed poses and one pair's scratch, carved from d's block (a probe while
 * sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    (void)ctx;
    tc_dcol2d *d = state;
    size_t nb = (size_t)(d->sys->scene->nbody > 0 ? d->sys->scene->nbody : 1);
    size_t L = (size_t)d->maxl + 1, E = (size_t)d->maxe + 1;
    d->prim = tc_arena_alloc(a, nb, sizeof *d->prim);
    d->pose0 = tc_arena_alloc(a, nb, sizeof *d->pose0);
    d->E = tc_arena_alloc(a, E, sizeof *d->E);
    d->dEdl = tc_arena_alloc(a, E * L, sizeof *d->dEdl);
    d->dEdq = tc_arena_alloc(a, E * 6, sizeof *d->dEdq);
    d->dEdq0 = tc_arena_alloc(a, E * 6, sizeof *d->dEdq0);
    d->W = tc_arena_alloc(a, 6, sizeof *d->W);
    d->dWdl = tc_arena_alloc(a, 6 * L, sizeof *d->dWdl);
    d->dWdq = tc_arena_alloc(a, 36, sizeof *d->dWdq);
    d->cl = tc_arena_alloc(a, L, sizeof *d->cl);
}

tc_status tc_dcol2d_alloc(tc_dcol2d **out, const tc_system *sys, double mu, tc_error *err) {
    *out = NULL;
    const tc_scene *sc = sys->scene;
    /* the primitives and pairs first (prim: a scratch copy), then the problem in one block */
    tc_dcol2d probe = {.sys = sys, .nv = sys->nv, .mu = mu};
    size_t nb = (size_t)(sc->nbody > 0 ? sc->nbody : 1);
    tc_convex2d *prim = calloc(nb, sizeof *prim);
    if (!prim) return TC_ENOMEM;
    tc_status st = check_bodies(sys, prim, err);
    if (!st) st = find_pairs(&probe, prim, err);
    tc_dcol2d *d =
        st ? NULL : tc_arena_make(&probe, sizeof probe, offsetof(tc_dcol2d, arena), carve, NULL);
    if (!st && !d) st = TC_ENOMEM;
    if (d) {
        memcpy(d->prim, prim, nb * sizeof *prim);
        for (int i = 0; i < sc->nbody; i++) {
            d->pose0[i][0] = sc->body[i].pos[0];
            d->pose0[i][1] = sc->body[i].pos[1];
        }
    }
    free(prim);
    *out = d;
    return st;
}

void tc_dcol2d_pose(const tc_dcol2d *d, int i, const double *qp, double pose[3]) {
    int v = d->sys->vadr[i];
    for (int c = 0; c < 3; c++)
        pose[c] = v >= 0 ? qp[v + c] : d->pose0[i][c];
}

void tc_dcol2d_pair_start(const tc_dcol2d *d, int k, const double *qp, double *l) {
    const tc_dcol2d_pair *pr = &d->pair[k];
    double xa[3], xb[3];
    tc_dcol2d_pose(d, pr->body[0], qp, xa);
    tc_dcol2d_pose(d, pr->body[1], qp, xb);
    for (int i = 0; i < pr->nl; i++)
        l[i] = 1;
    const tc_convex2d *hb = &d->prim[pr->body[1]];
    if (hb->kind == TC_CONVEX2D_HALFSPACE) {
        /* the polygon's centre projected on the boundary */
        double h = hb->n[0] * (xa[0] - hb->o[0]) + hb->n[1] * (xa[1] - hb->o[1]);
        l[0] = xa[0] - h * hb->n[0];
        l[1] = xa[1] - h * hb->n[1];
    } else {
        l[0] = 0.5 * (xa[0] + xb[0]);
        l[1] = 0.5 * (xa[1] + xb[1]);
    }
}

/* one side of a pair at the candidate pose */
typedef struct side {
    const tc_convex2d *c;
    int dofs;                        /* the body has coordinates in q+ */
    double x[3];                     /* pose at q+ */
    double x0[3];                    /* pose at the step's start */
    double N[TC_CONVEX2D_MAXROW][2]; /* world row normals R A0_i (polygon) */
    int lam, slk, m;                 /* offsets of its duals and slacks in l, rows */
    int grow;                        /* its first g row */
    int qc;                          /* its first column in dE/dq (0 or 3) */
} side;

/* S v = (-v_y, v_x): a quarter turn; cross(r, f) = r_x f_y - r_y f_x */
static double cross(const double r[2], const double f[2]) {
    return r[0] * f[1] - r[1] * f[0];
}

/* the collision rows: stationarity in p and alpha, and s + g, with their derivatives */
static void collision_rows(tc_dcol2d *d, const tc_dcol2d_pair *pr, side *sd, const double *l) {
    int L = pr->nl;
    double *E = d->E, *A = d->dEdl, *Q = d->dEdq;
    const double *p = l;
    double alpha = l[2];
    E[2] = 1;
    for (int j = 0; j < 2; j++) {
        side *s = &sd[j];
        const tc_convex2d *c = s->c;
        for (int i = 0; i < s->m; i++) {
            double lam = l[s->lam + i], n[2], g;
            int row = s->grow + i;
            if (c->kind == TC_CONVEX2D_HALFSPACE) {
                n[0] = c->n[0];
                n[1] = c->n[1];
                g = n[0] * (p[0] - c->o[0]) + n[1] * (p[1] - c->o[1]);
            } else {
                n[0] = s->N[i][0];
                n[1] = s->N[i][1];
                double r[2] = {p[0] - s->x[0], p[1] - s->x[1]};
                g = n[0] * r[0] + n[1] * r[1] - alpha * c->b[i];
                A[row * L + 2] = -c->b[i];
                /* alpha's stationarity: 1 - sum b lambda */
                E[2] -= c->b[i] * lam;
                A[2 * L + s->lam + i] = -c->b[i];
                if (s->dofs) {
                    /* dg/dx = -n, dg/dtheta = (S n) . r; d(n lambda)/dtheta = lambda S n */
                    Q[row * 6 + s->qc] = -n[0];
                    Q[row * 6 + s->qc + 1] = -n[1];
                    Q[row * 6 + s->qc + 2] = -n[1] * r[0] + n[0] * r[1];
                    Q[0 * 6 + s->qc + 2] += -lam * n[1];
                    Q[1 * 6 + s->qc + 2] += lam * n[0];
                }
            }
            /* s + g, and p's stationarity: sum n lambda */
            E[row] = l[s->slk + i] + g;
            A[row * L + s->slk + i] = 1;
            A[row * L + 0] = n[0];
            A[row * L + 1] = n[1];
            E[0] += n[0] * lam;
            E[1] += n[1] * lam;
            A[0 * L + s->lam + i] = n[0];
            A[1 * L + s->lam + i] = n[1];
        }
    }
}

/* the impulse direction on side j and its derivatives: the other side's half-space normal, or
 * u = w / |w| with w = -sum N_i lambda_i (the dual-based normal of eq. 15, per side as eq. 41);
 * du[c][col] over l, dut[c] over theta_j */
static void normal(const side *sd, int j, const double *l, double u[2], double *du, int L,
                   double dut[2]) {
    const side *s = &sd[j], *o = &sd[1 - j];
    memset(du, 0, 2 * (size_t)L * sizeof *du);
    dut[0] = dut[1] = 0;
    if (o->c->kind == TC_CONVEX2D_HALFSPACE) {
        u[0] = o->c->n[0];
        u[1] = o->c->n[1];
        return;
    }
    double w[2] = {0, 0}, wt[2] = {0, 0}, lsum = 0;
    for (int i = 0; i < s->m; i++) {
        double lam = l[s->lam + i];
        w[0] -= s->N[i][0] * lam;
        w[1] -= s->N[i][1] * lam;
        /* d(-N lambda)/dtheta = -lambda S N */
        wt[0] += s->N[i][1] * lam;
        wt[1] -= s->N[i][0] * lam;
        lsum += fabs(lam);
    }
    double len = hypot(w[0], w[1]);
    if (!(len > 1e-12 * (1 + lsum))) {
        /* duals that cancel (a cold start on a symmetric polygon): centre to centre */
        double c[2] = {s->x[0] - o->x[0], s->x[1] - o->x[1]}, cl = hypot(c[0], c[1]);
        u[0] = cl > 0 ? c[0] / cl : 0;
        u[1] = cl > 0 ? c[1] / cl : 1;
        return;
    }
    u[0] = w[0] / len;
    u[1] = w[1] / len;
    /* du = (I - u u^T) dw / |w| */
    double D[2][2] = {{(1 - u[0] * u[0]) / len, -u[0] * u[1] / len},
                      {-u[0] * u[1] / len, (1 - u[1] * u[1]) / len}};
    for (int i = 0; i < s->m; i++)
        for (int r = 0; r < 2; r++)
            du[r * L + s->lam + i] = -(D[r][0] * s->N[i][0] + D[r][1] * s->N[i][1]);
    for (int r = 0; r < 2; r++)
        dut[r] = D[r][0] * wt[0] + D[r][1] * wt[1];
}

void tc_dcol2d_pair_eval(tc_dcol2d *d, int k, const double *qp, const double *l,
                         int collision_only) {
    const tc_dcol2d_pair *pr = &d->pair[k];
    int L = pr->nl, ma = pr->ma, mb = pr->mb;
    memset(d->E, 0, (size_t)pr->ne * sizeof *d->E);
    memset(d->dEdl, 0, (size_t)pr->ne * (size_t)L * sizeof *d->dEdl);
    memset(d->dEdq, 0, (size_t)pr->ne * 6 * sizeof *d->dEdq);
    /* the two sides at q+ */
    side sd[2];
    for (int j = 0; j < 2; j++) {
        side *s = &sd[j];
        int i = pr->body[j];
        s->c = &d->prim[i];
        s->m = j ? mb : ma;
        s->dofs = d->sys->vadr[i] >= 0;
        s->lam = 3 + (j ? ma : 0);
        s->slk = 3 + ma + mb + (j ? ma : 0);
        s->grow = 3 + (j ? ma : 0);
        s->qc = 3 * j;
        tc_dcol2d_pose(d, i, qp, s->x);
        if (!collision_only) tc_dcol2d_pose(d, i, d->q, s->x0);
        double cs = cos(s->x[2]), sn = sin(s->x[2]);
        for (int r = 0; r < s->m && s->c->kind == TC_CONVEX2D_POLYGON; r++) {
            s->N[r][0] = cs * s->c->A[r][0] - sn * s->c->A[r][1];
            s->N[r][1] = sn * s->c->A[r][0] + cs * s->c->A[r][1];
        }
    }
    collision_rows(d, pr, sd, l);
    if (collision_only) return;
    memset(d->dEdq0, 0, (size_t)pr->ne * 6 * sizeof *d->dEdq0);
    /* the contact unknowns and rows */
    const int o = pr->ncol, G = o, SG = o + 1, PS = o + 2, SPS = o + 3, B1 = o + 4, B2 = o + 5,
              SB1 = o + 6, SB2 = o + 7;
    const int RG = pr->necol, RP = RG + 1, RB1 = RG + 2, RB2 = RG + 3;
    double *E = d->E, *A = d->dEdl, *Q = d->dEdq;
    const double *p = l, gam = l[G], beta = l[B1] - l[B2], h = d->h;
    /* s_gamma = phi = alpha - 1 */
    E[RG] = l[SG] - (l[2] - 1);
    A[RG * L + SG] = 1;
    A[RG * L + 2] = -1;
    /* s_psi = mu gamma - beta1 - beta2 */
    E[RP] = l[SPS] - d->mu * gam + l[B1] + l[B2];
    A[RP * L + SPS] = 1;
    A[RP * L + G] = -d->mu;
    A[RP * L + B1] = 1;
    A[RP * L + B2] = 1;
    /* wrenches and the sliding velocity v_t = sum_j t_j . v_j(p) */
    memset(d->W, 0, 6 * sizeof *d->W);
    memset(d->dWdl, 0, 6 * (size_t)L * sizeof *d->dWdl);
    memset(d->dWdq, 0, 36 * sizeof *d->dWdq);
    double vt = 0, dvt_l[2 * TC_CONVEX2D_MAXROW * 2 + 11] = {0}, dvt_q[6] = {0}, dvt_q0[6] = {0};
    double du[2 * (2 * TC_CONVEX2D_MAXROW * 2 + 11)];
    for (int j = 0; j < 2; j++) {
        const side *s = &sd[j];
        if (!s->dofs) continue;
        double u[2], dut[2];
        normal(sd, j, l, u, du, L, dut);
        double t[2] = {-u[1], u[0]}, dtt[2] = {-dut[1], dut[0]};
        /* the material point's velocity at p: (x+ - x) / h + omega S (p - x+) */
        double om = (s->x[2] - s->x0[2]) / h, r[2] = {p[0] - s->x[0], p[1] - s->x[1]};
        double vel[2] = {(s->x[0] - s->x0[0]) / h - om * r[1],
                         (s->x[1] - s->x0[1]) / h + om * r[0]};
        vt += t[0] * vel[0] + t[1] * vel[1];
        /* d v_t: through p, x+, theta+ and the normal's duals */
        double tr[2] = {t[1], -t[0]}; /* d(t . S r)/dr */
        dvt_l[0] += om * tr[0];
        dvt_l[1] += om * tr[1];
        dvt_q[s->qc] += t[0] / h - om * tr[0];
        dvt_q[s->qc + 1] += t[1] / h - om * tr[1];
        dvt_q[s->qc + 2] += cross(r, t) / h + (dtt[0] * vel[0] + dtt[1] * vel[1]);
        /* the start pose enters through (x+ - x) / h and omega alone */
        dvt_q0[s->qc] -= t[0] / h;
        dvt_q0[s->qc + 1] -= t[1] / h;
        dvt_q0[s->qc + 2] -= cross(r, t) / h;
        for (int i = 0; i < s->m; i++) {
            int c = s->lam + i;
            dvt_l[c] += -du[1 * L + c] * vel[0] + du[0 * L + c] * vel[1];
        }
        /* the wrench F = gamma u + beta t at p, torque r x F */
        double F[2] = {gam * u[0] + beta * t[0], gam * u[1] + beta * t[1]};
        double *W = d->W + 3 * j, *WL = d->dWdl + 3 * j * L, *WQ = d->dWdq + 3 * j * 6;
        W[0] = F[0];
        W[1] = F[1];
        W[2] = cross(r, F);
        WL[0 * L + G] = u[0];
        WL[1 * L + G] = u[1];
        WL[2 * L + G] = cross(r, u);
        WL[0 * L + B1] = t[0];
        WL[1 * L + B1] = t[1];
        WL[2 * L + B1] = cross(r, t);
        WL[0 * L + B2] = -t[0];
        WL[1 * L + B2] = -t[1];
        WL[2 * L + B2] = -cross(r, t);
        WL[2 * L + 0] = F[1];
        WL[2 * L + 1] = -F[0];
        WQ[2 * 6 + s->qc] = -F[1];
        WQ[2 * 6 + s->qc + 1] = F[0];
        /* through the normal: dF = gamma du + beta S du */
        for (int i = 0; i < s->m; i++) {
            int c = s->lam + i;
            double dF[2] = {gam * du[c] - beta * du[L + c], gam * du[L + c] + beta * du[c]};
            WL[0 * L + c] += dF[0];
            WL[1 * L + c] += dF[1];
            WL[2 * L + c] += cross(r, dF);
        }
        double dF[2] = {gam * dut[0] - beta * dut[1], gam * dut[1] + beta * dut[0]};
        WQ[0 * 6 + s->qc + 2] += dF[0];
        WQ[1 * 6 + s->qc + 2] += dF[1];
        WQ[2 * 6 + s->qc + 2] += cross(r, dF);
    }
    /* maximum dissipation: s_beta1 = v_t + psi, s_beta2 = -v_t + psi */
    E[RB1] = l[SB1] - vt - l[PS];
    E[RB2] = l[SB2] + vt - l[PS];
    A[RB1 * L + SB1] = 1;
    A[RB1 * L + PS] = -1;
    A[RB2 * L + SB2] = 1;
    A[RB2 * L + PS] = -1;
    for (int c = 0; c < L; c++) {
        A[RB1 * L + c] -= dvt_l[c];
        A[RB2 * L + c] += dvt_l[c];
    }
    for (int c = 0; c < 6; c++) {
        Q[RB1 * 6 + c] -= dvt_q[c];
        Q[RB2 * 6 + c] += dvt_q[c];
        d->dEdq0[RB1 * 6 + c] = -dvt_q0[c];
        d->dEdq0[RB2 * 6 + c] = dvt_q0[c];
    }
}

/* the collision rows of pair ck at q+ = cqp over its collision unknowns xc */
static tc_status collision_f(void *ctx, const double *xc, double *r, double *J) {
    tc_dcol2d *d = ctx;
    const tc_dcol2d_pair *pr = &d->pair[d->ck];
    memcpy(d->cl, xc, (size_t)pr->ncol * sizeof *d->cl);
    tc_dcol2d_pair_eval(d, d->ck, d->cqp, d->cl, 1);
    for (int e = 0; e < pr->necol; e++) {
        r[e] = d->E[e];
        if (J)
            memcpy(J + (size_t)e * (size_t)pr->ncol, d->dEdl + (size_t)e * (size_t)pr->nl,
                   (size_t)pr->ncol * sizeof *J);
    }
    return TC_OK;
}

tc_status tc_dcol2d_detect(tc_dcol2d *d, tc_ip_workspace *w, const tc_ip_settings *set, int k,
                           const double *qp, double *l, int *converged) {
    const tc_dcol2d_pair *pr = &d->pair[k];
    int m = pr->ma + pr->mb;
    for (int i = 0; i < m; i++) {
        d->czi[i] = 3 + i;
        d->csi[i] = 3 + m + i;
    }
    d->ck = k;
    d->cqp = qp;
    tc_ip_problem p = {pr->ncol, m, d->czi, d->csi, collision_f, d};
    return tc_ip_solve(w, &p, set, l, converged);
}
