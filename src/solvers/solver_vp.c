/* SPDX-License-Identifier: MIT */
/* velocity projection (Kaufman, Edmunds & Pai 2005): each step finds the contacts at an explicit
 * half step in configuration (interpenetration allowed between steps), takes the pre-velocity
 * phi- = phi + h M^-1 (f + c), projects it on the feasible cone of every penetrating point in the
 * kinetic metric, bounds the frictional impulse by mu times the normal impulse in a second QP,
 * and moves the bodies by the exponential map. The QPs are solved body by body, as their duals
 * (LCPs, Siconos Lemke through solvers/tc_lcp.h), swept over the bodies in index order until the
 * velocities settle: the cost grows with the contacts, and one fixed order keeps the results
 * independent of threads */
#include "math/tc_vec.h"
#include "solvers/tc_contact_space.h"
#include "solvers/tc_lcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lcp_cst.h"

#define VP_MAXDIR 8               /* friction directions per contact, at most */
#define VP_MAXROW (VP_MAXDIR + 1) /* a contact's rows: its normal, then its directions */

static const tc_param_spec vp_params[] = {
    {"friction_dirs", 4, 3, VP_MAXDIR, TC_PARAM_INT, "1",
     "k: tangent directions per contact bounding the frictional impulse (a k-sided pyramid)",
     "as the LCP step: the smallest pyramid holding +-t1 and +-t2"},
    {"max_contacts", 20000, 1, 1e6, TC_PARAM_INT, "1",
     "contacts a step holds; beyond it the first max_contacts are kept and the step counts a "
     "failure",
     "a 1,000-body pile resting on its parts' corners: about 10 points a body, twice over; "
     "3.5 kB a contact"},
    {"max_block", 64, 1, 512, TC_PARAM_INT, "1",
     "contacts of one body its QPs hold; beyond it the first max_block are kept and the step "
     "counts a failure",
     "a box face on the floor sampled at 5 x 5 points and a neighbour on top"},
    {"sweeps", 100, 1, 1e6, TC_PARAM_INT, "1",
     "sweeps over the bodies per step; a step that needs more counts a failure and keeps its "
     "velocities", "a 10-box stack settles in about 30 (docs/solvers.md)"},
    {"tol", 1e-10, 0, 1, TC_PARAM_REAL, "m/s",
     "a step's sweeps end when no body's velocity (linear, and angular times 1 m) changed by "
     "more than this in a sweep",
     "the projection's contract n^T M phi+ >= 0 is tested to 1e-10"},
    {"coupled", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: each body's normal and friction QPs as one LCP (friction bounded by the same solve's "
     "normal impulses); 0: Kaufman's order, the normal QP, then the friction QP bounded by its "
     "impulses",
     "in order, the two QPs trade impulses for 20-100 sweeps a step on a tumbling box; with "
     "Kaufman's extra bound n^T M y >= 0 a sliding box's friction is capped by its tipping "
     "moment (it slid 0.389 m, closed form 0.102 m; docs/solvers.md)"},
    {"lcp_tol", 1e-10, 1e-16, 1e-2, TC_PARAM_REAL, "1",
     "Siconos tolerance on each block LCP's relative natural residual |min(z, w)| / |q|",
     "as the LCP step"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* one contact: a's and b's rows (normal, then k directions), M^-1 of them, the velocity along
 * each row of a side without dofs (b's minus a's), and the impulses resolved so far */
typedef struct vp_contact {
    int body[2], nd[2], vadr[2]; /* a, b; dofs (0, 3 or 6) and where they are in v */
    double row[2][VP_MAXROW][6], mrow[2][VP_MAXROW][6];
    double vfix[VP_MAXROW];
    double dir[VP_MAXROW][3]; /* world directions: the normal (a to b), then the pyramid's */
    double pos[3], depth;     /* the model's point (m, world) and depth (m) */
    double lam, beta[VP_MAXDIR];
} vp_contact;

typedef struct vp_state {
    const tc_system *sys;
    int nbody, k, maxc, maxb, max_sweeps, coupled;
    double tol, mu;
    tc_model_contact *raw; /* maxc + 1, as the model reported them */
    vp_contact *c;         /* maxc */
    int nc;
    int *start, *list, *fill; /* each body's contacts: list[start[i] .. start[i + 1]) */
    tc_body_state *bs;        /* nbody: poses at the half step, twists at the step's start */
    double (*minv)[3][3];     /* nbody: world inverse inertia of free bodies (1/(kg m^2)) */
    double *qh;               /* nq: the half step */
    double *acc;              /* nv: the unconstrained acceleration */
    double *v0;               /* nv: the velocities at a sweep's start */
    double dcos[VP_MAXDIR], dsin[VP_MAXDIR]; /* the pyramid's directions on t1 and t2 */
    tc_lcp *lcp;              /* (k + 2) maxb unknowns */
    long long sweeps, fails, overflows;
    char note[256];
} vp_state;

static void vp_free(void *state) {
    vp_state *s = state;
    if (!s) return;
    free(s->raw), free(s->c), free(s->start), free(s->list), free(s->fill), free(s->bs);
    free(s->minv), free(s->qh), free(s->acc), free(s->v0);
    tc_lcp_free(s->lcp);
    free(s);
}

static tc_status vp_alloc(void **state, const tc_system *sys, const tc_params *p,
                          tc_error *err) {
    (void)err;
    vp_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->sys = sys, s->nbody = sys->scene->nbody, s->mu = sys->scene->friction;
    s->k = (int)tc_params_get(p, "friction_dirs");
    s->maxc = (int)tc_params_get(p, "max_contacts");
    s->maxb = (int)tc_params_get(p, "max_block");
    s->max_sweeps = (int)tc_params_get(p, "sweeps");
    s->coupled = tc_params_get(p, "coupled") != 0;
    s->tol = tc_params_get(p, "tol");
    size_t nb = (size_t)s->nbody, mc = (size_t)s->maxc;
    s->raw = calloc(mc + 1, sizeof *s->raw), s->c = calloc(mc, sizeof *s->c);
    s->start = calloc(nb + 1, sizeof *s->start), s->list = calloc(2 * mc, sizeof *s->list);
    s->fill = calloc(nb + 1, sizeof *s->fill);
    s->bs = calloc(nb, sizeof *s->bs), s->minv = calloc(nb, sizeof *s->minv);
    s->qh = calloc((size_t)sys->nq + 1, sizeof *s->qh);
    s->acc = calloc((size_t)sys->nv + 1, sizeof *s->acc);
    s->v0 = calloc((size_t)sys->nv + 1, sizeof *s->v0);
    int nmax = (s->k + 2) * s->maxb;
    if (!s->raw || !s->c || !s->start || !s->list || !s->fill || !s->bs || !s->minv || !s->qh ||
        !s->acc || !s->v0)
        return vp_free(s), TC_ENOMEM;
    tc_status st = tc_lcp_alloc(&s->lcp, nmax, SICONOS_LCP_LEMKE, 10000,
                                tc_params_get(p, "lcp_tol"), 1);
    if (st) return vp_free(s), st;
    /* d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2, exact zeros kept (k = 4: +-t1, +-t2) */
    for (int j = 0; j < s->k; j++) {
        double a = 2 * M_PI * j / s->k;
        s->dcos[j] = fabs(cos(a)) < 1e-12 ? 0 : cos(a), s->dsin[j] = fabs(sin(a)) < 1e-12 ? 0 : sin(a);
    }
    *state = s;
    return TC_OK;
}

/* ---------- contacts ---------- */

/* the world inverse inertia R diag(1 / I) R^T of every free body at the half step */
static void inverse_inertias(vp_state *s) {
    const tc_scene *sc = s->sys->scene;
    for (int i = 0; i < s->nbody; i++) {
        if (sc->body[i].joint != TC_JOINT_FREE) continue;
        const double *R = s->bs[i].R; /* row-major, body to world */
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                double v = 0;
                for (int m = 0; m < 3; m++) v += R[3 * r + m] * R[3 * c + m] / sc->body[i].inertia[m];
                s->minv[i][r][c] = v;
            }
    }
}

/* side j of contact c (sign -1 for a, +1 for b) along direction d at world point p: its row
 * over the body's dofs and M^-1 of it, or, for a body without dofs, its velocity along d */
static void side_rows(vp_state *s, vp_contact *c, int j, int r, const double p[3],
                      const double d[3]) {
    int i = c->body[j];
    double sg = j ? 1 : -1, *row = c->row[j][r], *mrow = c->mrow[j][r];
    const tc_body_desc *b = &s->sys->scene->body[i];
    const tc_body_state *bs = &s->bs[i];
    double rr[3] = {p[0] - bs->pos[0], p[1] - bs->pos[1], p[2] - bs->pos[2]};
    double rxd[3] = {rr[1] * d[2] - rr[2] * d[1], rr[2] * d[0] - rr[0] * d[2],
                     rr[0] * d[1] - rr[1] * d[0]};
    if (c->nd[j] == 6) {
        /* free: d . (vel + omega x r) = d . vel + (r x d) . omega */
        for (int m = 0; m < 3; m++) row[m] = sg * d[m], row[3 + m] = sg * rxd[m];
        for (int m = 0; m < 3; m++) {
            mrow[m] = row[m] / b->mass;
            mrow[3 + m] = 0;
            for (int n = 0; n < 3; n++) mrow[3 + m] += s->minv[i][m][n] * row[3 + n];
        }
    } else if (c->nd[j] == 3) {
        /* planar: (x, y, theta) about the world z axis */
        row[0] = sg * d[0], row[1] = sg * d[1], row[2] = sg * rxd[2];
        mrow[0] = row[0] / b->mass, mrow[1] = row[1] / b->mass;
        mrow[2] = row[2] / s->sys->izz[i];
    } else {
        double v[3];
        tc_body_point_velocity(bs, p, v);
        c->vfix[r] += sg * (d[0] * v[0] + d[1] * v[1] + d[2] * v[2]);
    }
}

/* the model's contacts at the half step into rows, and each body's list of them */
static void build(vp_state *s, int n) {
    const tc_system *sys = s->sys;
    s->nc = 0;
    for (int m = 0; m < n; m++) {
        const tc_model_contact *mc = &s->raw[m];
        int va = sys->vadr[mc->a], vb = sys->vadr[mc->b];
        if (va < 0 && vb < 0) continue;
        vp_contact *c = &s->c[s->nc++];
        memset(c, 0, sizeof *c);
        c->body[0] = mc->a, c->body[1] = mc->b, c->vadr[0] = va, c->vadr[1] = vb;
        memcpy(c->pos, mc->c.pos, sizeof c->pos);
        c->depth = mc->c.depth;
        for (int j = 0; j < 2; j++) {
            int i = c->body[j];
            c->nd[j] = c->vadr[j] < 0 ? 0 : sys->scene->body[i].joint == TC_JOINT_FREE ? 6 : 3;
        }
        /* the normal, then the pyramid's directions */
        const double *nn = mc->c.normal;
        double t1[3], t2[3];
        tc_v3_orthonormal(nn, t1, t2);
        memcpy(c->dir[0], nn, sizeof c->dir[0]);
        for (int j = 0; j < s->k; j++)
            for (int m2 = 0; m2 < 3; m2++)
                c->dir[1 + j][m2] = s->dcos[j] * t1[m2] + s->dsin[j] * t2[m2];
        for (int r = 0; r <= s->k; r++)
            for (int j = 0; j < 2; j++) side_rows(s, c, j, r, mc->c.pos, c->dir[r]);
    }
    /* each body's contacts, in contact order (a counting sort) */
    memset(s->start, 0, (size_t)(s->nbody + 1) * sizeof *s->start);
    for (int m = 0; m < s->nc; m++)
        for (int j = 0; j < 2; j++)
            if (s->c[m].nd[j]) s->start[s->c[m].body[j] + 1]++;
    for (int i = 0; i < s->nbody; i++) s->start[i + 1] += s->start[i];
    memcpy(s->fill, s->start, (size_t)(s->nbody + 1) * sizeof *s->fill);
    for (int m = 0; m < s->nc; m++)
        for (int j = 0; j < 2; j++)
            if (s->c[m].nd[j]) s->list[s->fill[s->c[m].body[j]]++] = m;
}

/* ---------- the body-by-body QPs ---------- */

/* velocity along row r of contact c (b's material point minus a's, m/s) at v */
static double row_velocity(const vp_contact *c, int r, const double *v) {
    double u = c->vfix[r];
    for (int j = 0; j < 2; j++)
        for (int m = 0; m < c->nd[j]; m++) u += c->row[j][r][m] * v[c->vadr[j] + m];
    return u;
}

/* how row r of contact c moves under a unit impulse on row r2 of contact c2: the sides they
 * share a body on */
static double coupling(const vp_contact *c, int r, const vp_contact *c2, int r2) {
    double w = 0;
    for (int j = 0; j < 2; j++)
        for (int j2 = 0; j2 < 2; j2++)
            if (c->nd[j] && c->body[j] == c2->body[j2])
                for (int m = 0; m < c->nd[j]; m++) w += c->row[j][r][m] * c2->mrow[j2][r2][m];
    return w;
}

/* v += M^-1 J^T dz along row r of contact c */
static void apply(const vp_contact *c, int r, double dz, double *v) {
    if (dz == 0) return;
    for (int j = 0; j < 2; j++)
        for (int m = 0; m < c->nd[j]; m++) v[c->vadr[j] + m] += c->mrow[j][r][m] * dz;
}

/* which rows a block's LCP holds */
enum { VP_NORMAL = 1, VP_FRICTION = 2 };

/* body i's QPs over its m contacts lst, its neighbours' velocities fixed, as the LCP of their
 * dual over the impulses (the old ones at q's side, so the LCP gives the new totals):
 *   normal QP (Kaufman's projection of phi- on {u_n >= 0} in the kinetic metric): lam >= 0,
 *     w_n = W_nn lam + W_nt beta + (u_n - W_nn lam_old - W_nt beta_old) >= 0
 *   friction QP (Kaufman's second QP, least sliding in the kinetic metric): beta >= 0 along the
 *     k directions of each contact, w_t = W_tn lam + W_tt beta + E psi + (u_t - ...) >= 0,
 *     psi >= 0 with mu lam - E^T beta >= 0 (lam the normal QP's, fixed when it is not in the
 *     block)
 * with W_xy the coupling of rows x to unit impulses on rows y through the bodies they share.
 * rows = VP_NORMAL, VP_FRICTION or both (one LCP, the friction bounded by the same solve's
 * normal impulses); Siconos Lemke; returns 0 or Siconos' info */
static int block(vp_state *s, const int *lst, int m, double *v, int rows) {
    tc_lcp *l = s->lcp;
    int k = s->k, nrm = rows & VP_NORMAL, fr = rows & VP_FRICTION;
    int on = nrm ? m : 0, nr = on + (fr ? m * k : 0), n = nr + (fr ? m : 0);
    memset(l->M, 0, (size_t)n * (size_t)n * sizeof *l->M);
#define MAT(r, c) l->M[(size_t)(c) * (size_t)n + (size_t)(r)]
    /* row r of the LCP: contact r / (k or 1), row 0 (normal) or 1 + direction */
#define CON(r) (&s->c[lst[(r) < on ? (r) : ((r) - on) / k]])
#define ROW(r) ((r) < on ? 0 : 1 + ((r) - on) % k)
#define OLD(c, r) ((r) < on ? (c)->lam : (c)->beta[ROW(r) - 1])
    for (int r = 0; r < nr; r++) {
        const vp_contact *cr = CON(r);
        double q = row_velocity(cr, ROW(r), v);
        for (int c = 0; c < nr; c++) {
            const vp_contact *cc = CON(c);
            double w = coupling(cr, ROW(r), cc, ROW(c));
            MAT(r, c) = w;
            q -= w * OLD(cc, c);
        }
        l->q[r] = q;
    }
    /* the cones: mu lam - sum_j beta >= 0 against psi */
    for (int a = 0; fr && a < m; a++) {
        int pr = nr + a;
        for (int j = 0; j < k; j++) MAT(pr, on + a * k + j) = -1, MAT(on + a * k + j, pr) = 1;
        if (nrm) MAT(pr, a) = s->mu, l->q[pr] = 0;
        else l->q[pr] = s->mu * s->c[lst[a]].lam;
    }
    int info = tc_lcp_solve(l, n);
    if (info) return info;
    /* the new impulses, their change applied to both bodies of each contact */
    for (int r = 0; r < nr; r++) {
        vp_contact *c = (vp_contact *)CON(r);
        double *z = r < on ? &c->lam : &c->beta[ROW(r) - 1], dz = l->z[r] - *z;
        *z = l->z[r];
        apply(c, ROW(r), dz, v);
    }
#undef MAT
#undef CON
#undef ROW
#undef OLD
    return 0;
}

/* count a failure and describe it (the latest is kept for tc_sim_step's warnings) */
static void fail(vp_state *s, double t, const char *what) {
    s->fails++;
    snprintf(s->note, sizeof s->note, "step at t = %.6g s: %s", t, what);
}

/* one step: the pre-velocity, the contacts at the half step, the sweeps, then q by the
 * exponential map */
static tc_status vp_step(void *state, const tc_ode *ode, double t, double dt, double *q,
                         double *v) {
    vp_state *s = state;
    const tc_system *sys = ode->sys;
    if (!ode->contacts) return TC_EUNSUP;
    /* the explicit half step with the last velocity, where the contacts are found */
    memcpy(s->qh, q, (size_t)sys->nq * sizeof *q);
    tc_system_integrate_q(sys, s->qh, v, 0.5 * dt);
    tc_system_normalize_q(sys, s->qh);
    int n = ode->contacts(ode->ctx, t + 0.5 * dt, s->qh, s->raw, s->maxc + 1);
    if (n > s->maxc) n = s->maxc, s->overflows++, fail(s, t, "more contacts than max_contacts");
    tc_system_kinematics(sys, t + 0.5 * dt, s->qh, v, s->bs);
    inverse_inertias(s);
    build(s, n);
    /* phi- = phi + h M^-1 (f + c): gravity, gyroscopic and applied wrenches at the start */
    tc_status st = ode->accel(ode->ctx, t, q, v, s->acc);
    if (st) return st;
    for (int i = 0; i < sys->nv; i++) v[i] += dt * s->acc[i];
    /* sweeps over the bodies in index order until no velocity changes */
    int sw = 0, settled = s->nc == 0;
    while (!settled && sw < s->max_sweeps) {
        /* settled: the sweep changed no velocity (impulses may still move between contacts
         * that share a body, as on a face, without changing it) */
        memcpy(s->v0, v, (size_t)sys->nv * sizeof *v);
        for (int i = 0; i < s->nbody; i++) {
            int m = s->start[i + 1] - s->start[i];
            if (!m) continue;
            if (m > s->maxb) {
                if (sw == 0) s->overflows++, fail(s, t, "a body has more contacts than max_block");
                m = s->maxb;
            }
            const int *lst = s->list + s->start[i];
            if (s->mu <= 0) {
                if (block(s, lst, m, v, VP_NORMAL)) fail(s, t, "a normal LCP failed");
            } else if (s->coupled) {
                if (block(s, lst, m, v, VP_NORMAL | VP_FRICTION)) fail(s, t, "a body's LCP failed");
            } else {
                if (block(s, lst, m, v, VP_NORMAL)) fail(s, t, "a normal LCP failed");
                if (block(s, lst, m, v, VP_FRICTION)) fail(s, t, "a friction LCP failed");
            }
        }
        sw++;
        double dv = 0;
        for (int i = 0; i < sys->nv; i++) dv = fmax(dv, fabs(v[i] - s->v0[i]));
        settled = dv <= s->tol;
    }
    s->sweeps += sw;
    if (!settled) {
        char why[96];
        snprintf(why, sizeof why, "velocities still changing after %d sweeps", sw);
        fail(s, t, why);
    }
    tc_system_integrate_q(sys, q, v, dt);
    tc_system_normalize_q(sys, q);
    return tc_nonfinite(v, sys->nv) ? TC_EDIVERGED : TC_OK;
}

static void vp_counters(void *state, long long *iters, long long *fails) {
    const vp_state *s = state;
    *iters = s->sweeps, *fails = s->fails;
}

static const char *vp_failure(void *state) {
    const vp_state *s = state;
    return s->note[0] ? s->note : NULL;
}

/* the last step's impulses, one per contact: normal, and the pyramid's sum as a vector */
static int vp_impulses(void *state, tc_contact_impulse *out, int max) {
    const vp_state *s = state;
    for (int m = 0; m < s->nc && m < max; m++) {
        const vp_contact *c = &s->c[m];
        tc_contact_impulse *o = &out[m];
        o->a = c->body[0], o->b = c->body[1];
        memcpy(o->normal, c->dir[0], sizeof o->normal);
        o->normal_impulse = c->lam;
        for (int i = 0; i < 3; i++) {
            o->tangent_impulse[i] = 0;
            for (int j = 0; j < s->k; j++) o->tangent_impulse[i] += c->beta[j] * c->dir[1 + j][i];
        }
        memcpy(o->pos, c->pos, sizeof o->pos);
        o->depth = c->depth;
    }
    return s->nc;
}

const tc_solver_type tc_solver_vp = {
    .name = "vp",
    .summary = "velocity projection (Kaufman et al. 2005): contacts at the half step, normal and "
               "friction QPs body by body (Siconos Lemke), exponential map",
    .params = vp_params,
    .caps = TC_CAP_DYNAMICS,
    .needs = TC_CAP_CONTACTS,
    .alloc = vp_alloc,
    .step = vp_step,
    .free = vp_free,
    .cpu_dependent = TC_LCP_CPU_NOTE,
    .cpu_kind = tc_lcp_cpu_kind,
    .counters = vp_counters,
    .impulses = vp_impulses,
    .failure = vp_failure,
};
