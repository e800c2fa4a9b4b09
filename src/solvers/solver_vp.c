/* SPDX-License-Identifier: MIT */
/* velocity projection (Kaufman, Edmunds & Pai 2005): each step finds the contacts at an explicit
 * half step in configuration (interpenetration allowed between steps), takes the pre-velocity
 * phi- = phi + h M^-1 (f + c), projects it on the feasible cone of every penetrating point in the
 * kinetic metric, bounds the frictional impulse by mu times the normal impulse, and moves the
 * bodies by the exponential map. The problems are solved body by body, swept over the bodies in
 * index order until the velocities settle: by default each body's contacts as one frictional
 * contact problem on the exact cone (Siconos' fc3d NSGS), or as the LCP duals of the QPs on a
 * k-sided pyramid (Siconos Lemke through solvers/tc_lcp.h). The cost grows with the contacts, and
 * one fixed order keeps the results independent of threads */
#include "core/tc_arena.h"
#include "math/tc_vec.h"
#include "solvers/tc_contact_space.h"
#include "solvers/tc_fc_problem.h"
#include "solvers/tc_lcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "FrictionContactProblem.h"
#include "solvers/tc_siconos.h"
#include "Friction_cst.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
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
    {"sweeps", 100, 1, 1e6, TC_PARAM_ITERS, "1",
     "sweeps over the bodies per step; a step that needs more counts a failure and keeps its "
     "velocities",
     "a 10-box stack settles in about 30 (docs/solvers.md)"},
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
     "Siconos tolerance on each block's relative residual (the LCP's |min(z, w)| / |q|, or the "
     "cone problem's natural-map error)",
     "as the LCP step"},
    {"cone", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: each body's contacts as one frictional contact problem on the exact cone |r_t| <= mu "
     "r_n, solved by Siconos' fc3d NSGS (friction_dirs and coupled unused); 0: the LCPs of the "
     "QPs on a friction_dirs-sided pyramid, by Siconos Lemke",
     "the pyramid's block LCPs of a body with many coplanar points (a face on the floor, a pile) "
     "are so degenerate that Lemke and its fallbacks fail (docs/solvers.md); NSGS solves each "
     "contact's 3x3 problem in turn and takes any number of points"},
    {"reduce", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: of the contacts that share a body pair and a normal, only the corners of their convex "
     "hull in the tangent plane enter the problems, and corners closer than merge to a kept one "
     "are dropped; 0: every contact",
     "exact for the normal constraints (a rigid pair's normal velocity is affine in the point) "
     "and for the set of friction wrenches; a face on the floor sampled at 6 x 6 points is 4 "
     "corners (docs/solvers.md)"},
    {"merge", 1e-3, 0, 1, TC_PARAM_REAL, "m",
     "reduce = 1: hull corners of one group closer than this to a corner already kept are "
     "dropped",
     "a ball's penetrating cap (about 1 mm across) is one point: Gauss-Seidel on two points 1 mm "
     "apart stalls (docs/solvers.md)"},
    {"warm", 1e-3, 0, 1, TC_PARAM_REAL, "m",
     "cone = 1: a contact starts from the impulses of the last step's contact of the same body "
     "pair within this distance (0: every step starts from zero)",
     "a resting pile's impulses barely change from step to step; 1 mm is the merge distance, so "
     "one old contact serves one new (docs/solvers.md)"},
    {"block_iter", 20, 1, 1e6, TC_PARAM_ITERS, "1",
     "NSGS sweeps over a body's contacts per block solve (cone = 1); the sweeps over the bodies "
     "go on from where it stopped",
     "a body's block is rank-deficient (its contacts share 6 dofs), so NSGS on it converges "
     "slowly and more sweeps on one block are wasted while its neighbours still move; 20 meets "
     "the projection's 1e-10 contract on a tumbling box, while a pile runs faster at 1 (E7's "
     "choice: 24 s instead of 66 s for 1 s of a landing 300-body pile; docs/solvers.md)"},
    {"sweep_order", 2, 0, 2, TC_PARAM_INT, "1",
     "the order of the bodies in a sweep: 0 by index; 1 from the lowest up (height along "
     "-gravity at the half step, then index); 2 up and down in turn (symmetric Gauss-Seidel)",
     "a pile's support travels up from the floor and its load down: on a landing 300-body pile "
     "2 took 12 % fewer block solves than 0 (docs/solvers.md)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* one contact: a's and b's rows (normal, then k directions), M^-1 of them, the velocity along
 * each row of a side without dofs (b's minus a's), and the impulses resolved so far */
typedef struct vp_contact {
    int body[2], nd[2], vadr[2]; /* a, b; dofs (0, 3 or 6) and where they are in v */
    double row[2][VP_MAXROW][6], mrow[2][VP_MAXROW][6];
    double vfix[VP_MAXROW];
    double dir[VP_MAXROW][3];    /* world directions: the normal (a to b), then the pyramid's */
    double pos[3], depth;        /* the model's point (m, world) and depth (m) */
    double lam, beta[VP_MAXDIR]; /* pyramid: along dir[1 + j]; cone: along t1, t2 (signed) */
} vp_contact;

typedef struct vp_state {
    const tc_system *sys;
    int nbody, k, nt, maxc, maxb, max_sweeps, coupled, cone, reduce; /* nt: tangent rows */
    double merge, warm;
    double tol, mu;
    tc_model_contact *raw; /* maxc + 1, as the model reported them */
    int *order;            /* maxc + 1: raw contacts sorted by pair and normal (reduce = 1) */
    double (*xy)[2];       /* maxc + 1: a group's points in its tangent plane */
    int *hull;             /* maxc + 2: a group's hull, indices into its part of order */
    unsigned char *keep;   /* maxc + 1: a raw contact enters the problems */
    struct vp_old {        /* maxc: the last step's contacts, by pair, for warm starts */
        int a, b;
        double pos[3], lam, f[3]; /* point (m), normal impulse, friction impulse (N s, world) */
    } * old;
    int nold;
    vp_contact *c; /* maxc */
    int nc;
    int *start, *list, *fill; /* each body's contacts: list[start[i] .. start[i + 1]) */
    int sweep_order;          /* 0: body index; 1: up along -gravity; 2: up, then down, ... */
    int *border;              /* nbody: the bodies in the order of this step's sweeps */
    double *bkey;             /* nbody: each body's height against gravity at the half step */
    tc_body_state *bs;        /* nbody: poses at the half step, twists at the step's start */
    double (*minv)[3][3];     /* nbody: world inverse inertia of free bodies (1/(kg m^2)) */
    double *qh;               /* nq: the half step */
    double *acc;              /* nv: the unconstrained acceleration */
    double *vs;               /* nv: the last step's pre-velocity phi- (its problem's q) */
    double *vref;             /* nv: each body's velocity when it last woke its neighbours */
    unsigned char *dirty;     /* nbody: the body's block must be solved (again) */
    double dcos[VP_MAXDIR], dsin[VP_MAXDIR]; /* the pyramid's directions on t1 and t2 */
    tc_lcp *lcp;                             /* (k + 2) maxb unknowns */
    /* cone = 1: a body's frictional contact problem u = W r + q (3 maxb unknowns) */
    double *W, *fq, *fr, *fu, *fmu;
    double *wpool; /* wcap: this step's blocks' W, each built on its first solve */
    size_t wcap, wused;
    long *wofs; /* nbody: where body i's W is in wpool; -1 not built yet, -2 did not fit */
    NumericsMatrix *fW;
    SolverOptions *fopt;
    long long sweeps, fails, overflows;
    char note[256];
    tc_arena arena; /* the block that holds the state and its arrays */
} vp_state;

static void vp_free(void *state) {
    vp_state *s = state;
    if (!s) return;
    tc_lcp_free(s->lcp);
    if (s->fW) NM_free_not_dense(s->fW);
    tc_siconos_options_free(s->fopt);
    tc_arena_free(&s->arena);
}

/* the parameters and the sizes they give */
static void read_params(vp_state *s, const tc_system *sys, const tc_params *p) {
    s->sys = sys;
    s->nbody = sys->scene->nbody;
    s->mu = sys->scene->friction;
    s->k = (int)tc_params_get(p, "friction_dirs");
    s->maxc = (int)tc_params_get(p, "max_contacts");
    s->maxb = (int)tc_params_get(p, "max_block");
    s->max_sweeps = (int)tc_params_get(p, "sweeps");
    s->coupled = tc_params_get(p, "coupled") != 0;
    s->cone = tc_params_get(p, "cone") != 0;
    s->nt = s->cone ? 2 : s->k;
    s->reduce = tc_params_get(p, "reduce") != 0;
    s->merge = tc_params_get(p, "merge");
    s->warm = s->cone ? tc_params_get(p, "warm") : 0;
    s->tol = tc_params_get(p, "tol");
    s->sweep_order = (int)tc_params_get(p, "sweep_order");
    /* room for blocks of 8 contacts on average (a landed pile's are 2-6; a block that does not
     * fit is rebuilt on every solve); the arena's block comes from calloc, which leaves
     * untouched pages unmapped */
    s->wcap = s->cone ? 9 * 8 * 2 * (size_t)s->maxc : 0;
}

/* the arrays, carved from the state's block (a probe while sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    (void)ctx;
    vp_state *s = state;
    size_t nb = (size_t)s->nbody, mc = (size_t)s->maxc;
    s->raw = tc_arena_alloc(a, mc + 1, sizeof *s->raw);
    s->c = tc_arena_alloc(a, mc, sizeof *s->c);
    s->start = tc_arena_alloc(a, nb + 1, sizeof *s->start);
    s->list = tc_arena_alloc(a, 2 * mc, sizeof *s->list);
    s->fill = tc_arena_alloc(a, nb + 1, sizeof *s->fill);
    s->bs = tc_arena_alloc(a, nb, sizeof *s->bs);
    s->minv = tc_arena_alloc(a, nb, sizeof *s->minv);
    s->qh = tc_arena_alloc(a, (size_t)s->sys->nq + 1, sizeof *s->qh);
    s->acc = tc_arena_alloc(a, (size_t)s->sys->nv + 1, sizeof *s->acc);
    s->vs = tc_arena_alloc(a, (size_t)s->sys->nv + 1, sizeof *s->vs);
    s->vref = tc_arena_alloc(a, (size_t)s->sys->nv + 1, sizeof *s->vref);
    s->dirty = tc_arena_alloc(a, nb + 1, sizeof *s->dirty);
    s->border = tc_arena_alloc(a, nb + 1, sizeof *s->border);
    s->bkey = tc_arena_alloc(a, nb + 1, sizeof *s->bkey);
    s->order = tc_arena_alloc(a, mc + 1, sizeof *s->order);
    s->xy = tc_arena_alloc(a, mc + 1, sizeof *s->xy);
    s->hull = tc_arena_alloc(a, mc + 2, sizeof *s->hull);
    s->keep = tc_arena_alloc(a, mc + 1, sizeof *s->keep);
    s->old = tc_arena_alloc(a, mc + 1, sizeof *s->old);
    if (!s->cone) return;
    /* cone = 1: a body's frictional contact problem and the pool of its blocks' W */
    size_t n3 = 3 * (size_t)s->maxb;
    s->W = tc_arena_alloc(a, n3 * n3, sizeof *s->W);
    s->fq = tc_arena_alloc(a, n3, sizeof *s->fq);
    s->fr = tc_arena_alloc(a, n3, sizeof *s->fr);
    s->fu = tc_arena_alloc(a, n3, sizeof *s->fu);
    s->fmu = tc_arena_alloc(a, (size_t)s->maxb, sizeof *s->fmu);
    s->wpool = tc_arena_alloc(a, s->wcap, sizeof *s->wpool);
    s->wofs = tc_arena_alloc(a, nb + 1, sizeof *s->wofs);
}

/* cone = 1: Siconos' dense matrix over W and the block solver's options */
static tc_status cone_solver(vp_state *s, const tc_params *p) {
    int n3 = 3 * s->maxb;
    s->fW = NM_create_from_data(NM_DENSE, n3, n3, s->W);
    s->fopt = solver_options_create(SICONOS_FRICTION_3D_NSGS);
    if (!s->fW || !s->fopt) return TC_ENOMEM;
    s->fopt->iparam[SICONOS_IPARAM_MAX_ITER] = (int)tc_params_get(p, "block_iter");
    s->fopt->dparam[SICONOS_DPARAM_TOL] = tc_params_get(p, "lcp_tol");
    /* each contact's 3 x 3 problem by Siconos' default damped Newton: one projection on the
     * cone instead halved the time on E7's 30-body pile but left a tumbling box approaching
     * the floor at 0.1 m/s after 100 sweeps (tests/solvers/test_vp.c) */
    return TC_OK;
}

static tc_status vp_alloc(void **state, const tc_system *sys, const tc_params *p, tc_error *err) {
    (void)err;
    vp_state probe = {0};
    read_params(&probe, sys, p);
    vp_state *s = tc_arena_make(&probe, sizeof probe, offsetof(vp_state, arena), carve, NULL);
    if (!s) return TC_ENOMEM;
    int nmax = (s->k + 2) * s->maxb;
    tc_status st =
        tc_lcp_alloc(&s->lcp, nmax, SICONOS_LCP_LEMKE, 10000, tc_params_get(p, "lcp_tol"), 1);
    if (!st && s->cone) st = cone_solver(s, p);
    if (st) {
        vp_free(s);
        return st;
    }
    /* d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2, exact zeros kept (k = 4: +-t1, +-t2) */
    for (int j = 0; j < s->k; j++) {
        double a = 2 * M_PI * j / s->k;
        s->dcos[j] = fabs(cos(a)) < 1e-12 ? 0 : cos(a);
        s->dsin[j] = fabs(sin(a)) < 1e-12 ? 0 : sin(a);
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
                for (int m = 0; m < 3; m++)
                    v += R[3 * r + m] * R[3 * c + m] / sc->body[i].inertia[m];
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
        for (int m = 0; m < 3; m++) {
            row[m] = sg * d[m];
            row[3 + m] = sg * rxd[m];
        }
        for (int m = 0; m < 3; m++) {
            mrow[m] = row[m] / b->mass;
            mrow[3 + m] = 0;
            for (int n = 0; n < 3; n++)
                mrow[3 + m] += s->minv[i][m][n] * row[3 + n];
        }
    } else if (c->nd[j] == 3) {
        /* planar: (x, y, theta) about the world z axis */
        row[0] = sg * d[0];
        row[1] = sg * d[1];
        row[2] = sg * rxd[2];
        mrow[0] = row[0] / b->mass;
        mrow[1] = row[1] / b->mass;
        mrow[2] = row[2] / s->sys->izz[i];
    } else {
        double v[3];
        tc_body_point_velocity(bs, p, v);
        c->vfix[r] += sg * (d[0] * v[0] + d[1] * v[1] + d[2] * v[2]);
    }
}

/* ---------- redundant contacts ---------- */

/* raw contacts by body pair, then normal (exact components), then index; qsort has no context
 * argument, so the contacts travel through a thread-local pointer set by reduce() */
static _Thread_local const tc_model_contact *g_raw;

/* two contacts' order by pair, then normal; 0: the same group */
static int pair_normal_cmp(const tc_model_contact *a, const tc_model_contact *b) {
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (a->c.normal[k] != b->c.normal[k]) return a->c.normal[k] < b->c.normal[k] ? -1 : 1;
    return 0;
}

static int by_pair_normal(const void *x, const void *y) {
    int i = *(const int *)x, j = *(const int *)y;
    int c = pair_normal_cmp(&g_raw[i], &g_raw[j]);
    return c ? c : (i > j) - (i < j);
}

/* z of (q - p) x (r - p) in the tangent plane */
static double turn(const double p[2], const double q[2], const double r[2]) {
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
}

/* one group (g entries of s->order from o: one pair, one normal): keep the corners of the
 * points' convex hull in their tangent plane (Andrew's monotone chain; a point within rounding
 * of an edge is no corner), less corners closer than merge to one already kept */
static void keep_corners(vp_state *s, int o, int g) {
    int *ord = s->order + o, *h = s->hull;
    double t1[3], t2[3];
    tc_v3_orthonormal(s->raw[ord[0]].c.normal, t1, t2);
    for (int i = 0; i < g; i++) {
        const double *p = s->raw[ord[i]].c.pos;
        s->xy[i][0] = tc_v3_dot(p, t1);
        s->xy[i][1] = tc_v3_dot(p, t2);
    }
    /* by (x, y): an insertion sort, stable, on the group's few points */
    for (int i = 1; i < g; i++)
        for (int j = i; j > 0; j--) {
            double *a = s->xy[j - 1], *b = s->xy[j];
            if (a[0] < b[0] || (a[0] == b[0] && a[1] <= b[1])) break;
            double tx = a[0], ty = a[1];
            a[0] = b[0];
            a[1] = b[1];
            b[0] = tx;
            b[1] = ty;
            int ti = ord[j - 1];
            ord[j - 1] = ord[j];
            ord[j] = ti;
        }
    /* the lower chain, then the upper, each turning left by more than 1e-12 of the extent^2 */
    double ext = 0;
    for (int i = 1; i < g; i++)
        ext = fmax(ext, fmax(fabs(s->xy[i][0] - s->xy[0][0]), fabs(s->xy[i][1] - s->xy[0][1])));
    const double eps = 1e-12 * ext * ext;
    int nh = 0;
    for (int pass = 0; pass < 2; pass++) {
        int base = nh;
        for (int k = 0; k < g; k++) {
            int i = pass ? g - 1 - k : k;
            while (nh >= base + 2 && turn(s->xy[h[nh - 2]], s->xy[h[nh - 1]], s->xy[i]) <= eps)
                nh--;
            h[nh++] = i;
        }
        nh--; /* its last point starts the other chain */
    }
    if (nh < 1) nh = 1; /* every point the same */
    for (int i = 0; i < g; i++)
        s->keep[ord[i]] = 0;
    for (int i = 0; i < nh; i++) {
        const double *p = s->xy[h[i]];
        int near = 0;
        for (int j = 0; j < i && !near; j++) {
            const double *r = s->xy[h[j]];
            near = s->keep[ord[h[j]]] && hypot(p[0] - r[0], p[1] - r[1]) < s->merge;
        }
        if (!near) s->keep[ord[h[i]]] = 1;
    }
}

/* which of the n raw contacts enter the problems: all, or each group's corners */
static void reduce(vp_state *s, int n) {
    memset(s->keep, 1, (size_t)n);
    if (!s->reduce || n < 2) return;
    for (int i = 0; i < n; i++)
        s->order[i] = i;
    g_raw = s->raw;
    qsort(s->order, (size_t)n, sizeof *s->order, by_pair_normal);
    for (int o = 0; o < n;) {
        int g = 1;
        while (o + g < n && !pair_normal_cmp(&s->raw[s->order[o]], &s->raw[s->order[o + g]]))
            g++;
        if (g > 1) keep_corners(s, o, g);
        o += g;
    }
}

static double coupling(const vp_contact *c, int r, const vp_contact *c2, int r2);

/* the model's contacts at the half step into rows, and each body's list of them */
static void build(vp_state *s, int n) {
    const tc_system *sys = s->sys;
    s->nc = 0;
    reduce(s, n);
    for (int m = 0; m < n; m++) {
        const tc_model_contact *mc = &s->raw[m];
        if (!s->keep[m]) continue;
        int va = sys->vadr[mc->a], vb = sys->vadr[mc->b];
        if (va < 0 && vb < 0) continue;
        vp_contact *c = &s->c[s->nc++];
        memset(c, 0, sizeof *c);
        c->body[0] = mc->a;
        c->body[1] = mc->b;
        c->vadr[0] = va;
        c->vadr[1] = vb;
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
        if (s->cone) {
            memcpy(c->dir[1], t1, sizeof c->dir[1]);
            memcpy(c->dir[2], t2, sizeof c->dir[2]);
        } else {
            for (int j = 0; j < s->k; j++)
                for (int m2 = 0; m2 < 3; m2++)
                    c->dir[1 + j][m2] = s->dcos[j] * t1[m2] + s->dsin[j] * t2[m2];
        }
        for (int r = 0; r <= s->nt; r++)
            for (int j = 0; j < 2; j++)
                side_rows(s, c, j, r, mc->c.pos, c->dir[r]);
        /* a normal the bodies cannot move along (a planar body's contact with an out-of-plane
         * normal) constrains nothing it could change: dropped, since a zero diagonal makes
         * Siconos' local solvers divide by zero (they assert it is positive) */
        double wfree = 0;
        for (int j = 0; j < 2; j++)
            if (c->nd[j]) wfree += 1 / s->sys->scene->body[c->body[j]].mass;
        if (!(coupling(c, 0, c, 0) > 1e-10 * wfree)) s->nc--;
    }
    /* each body's contacts, in contact order (a counting sort) */
    memset(s->start, 0, (size_t)(s->nbody + 1) * sizeof *s->start);
    for (int m = 0; m < s->nc; m++)
        for (int j = 0; j < 2; j++)
            if (s->c[m].nd[j]) s->start[s->c[m].body[j] + 1]++;
    for (int i = 0; i < s->nbody; i++)
        s->start[i + 1] += s->start[i];
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
        for (int m = 0; m < c->nd[j]; m++)
            u += c->row[j][r][m] * v[c->vadr[j] + m];
    return u;
}

/* how row r of contact c moves under a unit impulse on row r2 of contact c2: the sides they
 * share a body on */
static double coupling(const vp_contact *c, int r, const vp_contact *c2, int r2) {
    double w = 0;
    for (int j = 0; j < 2; j++)
        for (int j2 = 0; j2 < 2; j2++)
            if (c->nd[j] && c->body[j] == c2->body[j2])
                for (int m = 0; m < c->nd[j]; m++)
                    w += c->row[j][r][m] * c2->mrow[j2][r2][m];
    return w;
}

/* v += M^-1 J^T dz along row r of contact c */
static void apply(const vp_contact *c, int r, double dz, double *v) {
    if (dz == 0) return;
    for (int j = 0; j < 2; j++)
        for (int m = 0; m < c->nd[j]; m++)
            v[c->vadr[j] + m] += c->mrow[j][r][m] * dz;
}

/* ---------- warm starts ---------- */

/* the last step's contacts by pair, then point */
static int old_cmp(const void *x, const void *y) {
    const struct vp_old *a = x, *b = y;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    for (int k = 0; k < 3; k++)
        if (a->pos[k] != b->pos[k]) return a->pos[k] < b->pos[k] ? -1 : 1;
    return 0;
}

/* keep this step's contacts and impulses for the next step's warm start */
static void remember(vp_state *s) {
    s->nold = 0;
    if (s->warm <= 0) return;
    for (int m = 0; m < s->nc; m++) {
        const vp_contact *c = &s->c[m];
        struct vp_old *o = &s->old[s->nold++];
        o->a = c->body[0];
        o->b = c->body[1];
        o->lam = c->lam;
        memcpy(o->pos, c->pos, sizeof o->pos);
        for (int k = 0; k < 3; k++)
            o->f[k] = c->beta[0] * c->dir[1][k] + c->beta[1] * c->dir[2][k];
    }
    qsort(s->old, (size_t)s->nold, sizeof *s->old, old_cmp);
}

/* each new contact from the nearest old one of its pair within warm (its friction turned into
 * the new tangent frame and held in the cone), applied to the velocities */
static void warm_start(vp_state *s, double *v) {
    if (s->warm <= 0 || !s->nold) return;
    for (int m = 0; m < s->nc; m++) {
        vp_contact *c = &s->c[m];
        /* the pair's first old contact (lower bound), then the nearest of its run */
        int lo = 0, hi = s->nold;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            const struct vp_old *o = &s->old[mid];
            if (o->a < c->body[0] || (o->a == c->body[0] && o->b < c->body[1]))
                lo = mid + 1;
            else
                hi = mid;
        }
        const struct vp_old *best = NULL;
        double bd = s->warm;
        for (int k = lo; k < s->nold && s->old[k].a == c->body[0] && s->old[k].b == c->body[1];
             k++) {
            double d[3];
            tc_v3_sub(d, s->old[k].pos, c->pos);
            double dist = tc_v3_norm(d);
            if (dist < bd) {
                bd = dist;
                best = &s->old[k];
            }
        }
        if (!best || best->lam <= 0) continue;
        c->lam = best->lam;
        c->beta[0] = tc_v3_dot(best->f, c->dir[1]);
        c->beta[1] = tc_v3_dot(best->f, c->dir[2]);
        double ft = hypot(c->beta[0], c->beta[1]), fmax_ = s->mu * c->lam;
        if (ft > fmax_) {
            c->beta[0] *= fmax_ / ft;
            c->beta[1] *= fmax_ / ft;
        }
        for (int r = 0; r < 3; r++)
            apply(c, r, r ? c->beta[r - 1] : c->lam, v);
    }
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
#define CON(r)    (&s->c[lst[(r) < on ? (r) : ((r)-on) / k]])
#define ROW(r)    ((r) < on ? 0 : 1 + ((r)-on) % k)
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
        for (int j = 0; j < k; j++) {
            MAT(pr, on + a * k + j) = -1;
            MAT(on + a * k + j, pr) = 1;
        }
        if (nrm) {
            MAT(pr, a) = s->mu;
            l->q[pr] = 0;
        } else
            l->q[pr] = s->mu * s->c[lst[a]].lam;
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

/* body i's m contacts lst as one frictional contact problem, its neighbours' velocities fixed:
 * per contact the rows (n, t1, t2), u = W r + q with W the coupling of rows to unit impulses
 * through the bodies they share and q the rows' velocities less W times the impulses so far (so
 * r is the new total), u_n >= 0 complementary to r_n >= 0, |r_t| <= mu r_n with maximum
 * dissipation; Siconos' fc3d NSGS from the last impulses, at most block_iter sweeps; returns
 * 0 when it met lcp_tol, 1 when it stopped short (its iterate applied), -1 when the impulses are
 * not finite (nothing applied) */
static int block_cone(vp_state *s, int body, const int *lst, int m, double *v) {
    int n = 3 * m;
    /* W: the pool's copy from this step's first solve of the block, or built (the contacts'
     * rows do not change within a step) */
    double *W = s->W;
    if (s->wofs[body] >= 0)
        W = s->wpool + s->wofs[body];
    else {
        if (s->wofs[body] == -1 && s->wused + (size_t)n * (size_t)n <= s->wcap) {
            W = s->wpool + s->wused;
            s->wofs[body] = (long)s->wused;
            s->wused += (size_t)n * (size_t)n;
        } else
            s->wofs[body] = -2;
        for (int j = 0; j < n; j++) {
            const vp_contact *cj = &s->c[lst[j / 3]];
            for (int i = 0; i < n; i++)
                W[(size_t)j * (size_t)n + (size_t)i] =
                    coupling(&s->c[lst[i / 3]], i % 3, cj, j % 3);
        }
    }
    for (int a = 0; a < m; a++) {
        const vp_contact *ca = &s->c[lst[a]];
        s->fr[3 * a] = ca->lam;
        s->fr[3 * a + 1] = ca->beta[0];
        s->fr[3 * a + 2] = ca->beta[1];
        s->fmu[a] = s->mu;
    }
    for (int i = 0; i < n; i++)
        s->fq[i] = row_velocity(&s->c[lst[i / 3]], i % 3, v);
    for (int j = 0; j < n; j++) {
        const double *col = W + (size_t)j * (size_t)n, r = s->fr[j];
        if (r != 0)
            for (int i = 0; i < n; i++)
                s->fq[i] -= col[i] * r;
    }
    s->fW->matrix0 = W;
    s->fW->size0 = s->fW->size1 = n;
    FrictionContactProblem fc = {3, m, s->fW, s->fq, s->fmu};
    /* NSGS's last iterate is kept even when it stopped at block_iter: the next sweep goes on
     * from it */
    int info = fc3d_driver(&fc, s->fr, s->fu, s->fopt);
    if (tc_nonfinite(s->fr, n)) return -1;
    /* the new impulses, their change applied to both bodies of each contact */
    for (int a = 0; a < m; a++) {
        vp_contact *c = &s->c[lst[a]];
        double *z[3] = {&c->lam, &c->beta[0], &c->beta[1]};
        for (int r = 0; r < 3; r++) {
            double dz = s->fr[3 * a + r] - *z[r];
            *z[r] = s->fr[3 * a + r];
            apply(c, r, dz, v);
        }
    }
    return info != 0;
}

/* the bodies by height against gravity (then index): s->bkey holds the keys for qsort, which
 * has no context argument, through a thread-local pointer */
static _Thread_local const double *g_key;
static int by_key(const void *x, const void *y) {
    int i = *(const int *)x, j = *(const int *)y;
    if (g_key[i] != g_key[j]) return g_key[i] < g_key[j] ? -1 : 1;
    return (i > j) - (i < j);
}

/* this step's sweep order: body index, or lowest first along -gravity at the half step */
static void sweep_order(vp_state *s) {
    for (int i = 0; i < s->nbody; i++)
        s->border[i] = i;
    if (!s->sweep_order) return;
    const double *g = s->sys->scene->gravity;
    for (int i = 0; i < s->nbody; i++)
        s->bkey[i] = tc_v3_dot(s->bs[i].pos, g) * -1.0;
    g_key = s->bkey;
    qsort(s->border, (size_t)s->nbody, sizeof *s->border, by_key);
}

/* 1 when body b's velocity moved by more than tol since it last woke its neighbours */
static int moved(const vp_state *s, int b, const double *v) {
    int o = s->sys->vadr[b], nd = o < 0 ? 0 : s->sys->scene->body[b].joint == TC_JOINT_FREE ? 6 : 3;
    for (int d = 0; d < nd; d++)
        if (fabs(v[o + d] - s->vref[o + d]) > s->tol) return 1;
    return 0;
}

/* after body i's block: every body of its contacts whose velocity moved by more than tol since
 * it last did wakes the blocks that see it (its own, unless it is i, and its neighbours') */
static void wake(vp_state *s, int i, const int *lst, int m, const double *v) {
    for (int a = 0; a < m; a++) {
        const vp_contact *c = &s->c[lst[a]];
        for (int j = 0; j < 2; j++) {
            int b = c->body[j], o = c->vadr[j];
            if (!c->nd[j] || !moved(s, b, v)) continue;
            memcpy(s->vref + o, v + o, (size_t)c->nd[j] * sizeof *v);
            if (b != i) s->dirty[b] = 1;
            /* b's neighbours (i's own block is solved, or awake when it stopped short) */
            for (int e = s->start[b]; e < s->start[b + 1]; e++) {
                const vp_contact *n = &s->c[s->list[e]];
                int other = n->body[0] == b ? n->body[1] : n->body[0];
                if (other != i && n->nd[n->body[0] == b ? 1 : 0]) s->dirty[other] = 1;
            }
        }
    }
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
    if (n > s->maxc) {
        n = s->maxc;
        s->overflows++;
        fail(s, t, "more contacts than max_contacts");
    }
    tc_system_kinematics(sys, t + 0.5 * dt, s->qh, v, s->bs);
    inverse_inertias(s);
    build(s, n);
    /* phi- = phi + h M^-1 (f + c): gravity, gyroscopic and applied wrenches at the start */
    tc_status st = ode->accel(ode->ctx, t, q, v, s->acc);
    if (st) return st;
    for (int i = 0; i < sys->nv; i++)
        v[i] += dt * s->acc[i];
    /* phi-, kept for the step's friction-contact problem */
    memcpy(s->vs, v, (size_t)sys->nv * sizeof *v);
    warm_start(s, v);
    /* sweeps over the bodies in index order, each solving the blocks that are awake, until none
     * is: settled when no velocity moved by more than tol (impulses may still move between
     * contacts that share a body, as on a face, without changing it) */
    memcpy(s->vref, v, (size_t)sys->nv * sizeof *v);
    for (int i = 0; i < s->nbody; i++)
        s->dirty[i] = s->start[i + 1] > s->start[i];
    if (s->wofs) {
        for (int i = 0; i < s->nbody; i++)
            s->wofs[i] = -1;
        s->wused = 0;
    }
    int sw = 0, settled = s->nc == 0;
    sweep_order(s);
    while (!settled && sw < s->max_sweeps) {
        int down = s->sweep_order == 2 && sw % 2;
        for (int o = 0; o < s->nbody; o++) {
            int i = s->border[down ? s->nbody - 1 - o : o];
            int m = s->start[i + 1] - s->start[i];
            if (!s->dirty[i]) continue;
            s->dirty[i] = 0;
            if (m > s->maxb) {
                if (sw == 0) {
                    s->overflows++;
                    fail(s, t, "a body has more contacts than max_block");
                }
                m = s->maxb;
            }
            const int *lst = s->list + s->start[i];
            if (s->cone) {
                /* a block that stopped short stays awake while its body still moves */
                int r = block_cone(s, i, lst, m, v);
                if (r < 0) fail(s, t, "a body's cone problem gave non-finite impulses");
                s->dirty[i] = r > 0 && moved(s, i, v);
            } else if (s->mu <= 0) {
                if (block(s, lst, m, v, VP_NORMAL)) fail(s, t, "a normal LCP failed");
            } else if (s->coupled) {
                if (block(s, lst, m, v, VP_NORMAL | VP_FRICTION)) fail(s, t, "a body's LCP failed");
            } else {
                if (block(s, lst, m, v, VP_NORMAL)) fail(s, t, "a normal LCP failed");
                if (block(s, lst, m, v, VP_FRICTION)) fail(s, t, "a friction LCP failed");
            }
            wake(s, i, lst, m, v);
        }
        sw++;
        settled = 1;
        for (int i = 0; i < s->nbody && settled; i++)
            settled = !s->dirty[i];
    }
    s->sweeps += sw;
    if (!settled) {
        char why[96];
        snprintf(why, sizeof why, "velocities still changing after %d sweeps", sw);
        fail(s, t, why);
    }
    remember(s);
    tc_system_integrate_q(sys, q, v, dt);
    tc_system_normalize_q(sys, q);
    return tc_nonfinite(v, sys->nv) ? TC_EDIVERGED : TC_OK;
}

static void vp_counters(void *state, long long *iters, long long *fails) {
    const vp_state *s = state;
    *iters = s->sweeps;
    *fails = s->fails;
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
        o->a = c->body[0];
        o->b = c->body[1];
        memcpy(o->normal, c->dir[0], sizeof o->normal);
        o->normal_impulse = c->lam;
        for (int i = 0; i < 3; i++) {
            o->tangent_impulse[i] = 0;
            for (int j = 0; j < s->nt; j++)
                o->tangent_impulse[i] += c->beta[j] * c->dir[1 + j][i];
        }
        memcpy(o->pos, c->pos, sizeof o->pos);
        o->depth = c->depth;
    }
    return s->nc;
}

/* the last step's contacts as the 3-D friction-contact problem: rows (n, t1, t2), the
 * pyramid's (cone = 0) t2 row combined from its directions (rows are linear in the direction),
 * q the rows' velocities at phi-, r the impulses (the pyramid's summed on t1 and t2) */
static tc_status vp_fc_problem(void *state, struct tc_fc_problem **out) {
    const vp_state *s = state;
    *out = NULL;
    if (s->nc < 1) return TC_EUNSUP;
    tc_fc_contact *fc = calloc((size_t)s->nc, sizeof *fc);
    if (!fc) return TC_ENOMEM;
    /* pyramid: the direction with the largest sine on t2 */
    int j2 = 1;
    for (int j = 0; j < s->k; j++)
        if (fabs(s->dsin[j]) > fabs(s->dsin[j2 % s->k])) j2 = j;
    j2 %= s->k;
    for (int m = 0; m < s->nc; m++) {
        const vp_contact *c = &s->c[m];
        tc_fc_contact *f = &fc[m];
        double vfix[3] = {c->vfix[0], c->vfix[1], c->vfix[2]};
        double t1[3], t2[3];
        tc_v3_orthonormal(c->dir[0], t1, t2);
        for (int j = 0; j < 2; j++) {
            tc_fc_side *x = &f->side[j];
            x->body = c->body[j];
            x->nd = c->nd[j];
            x->vadr = c->nd[j] ? c->vadr[j] : -1;
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < c->nd[j]; d++) {
                    double r = c->row[j][a][d], mr = c->mrow[j][a][d];
                    if (!s->cone && a == 2) {
                        /* t2 = (d_j2 - cos t1) / sin */
                        double co = s->dcos[j2], si = s->dsin[j2];
                        r = (c->row[j][1 + j2][d] - co * c->row[j][1][d]) / si;
                        mr = (c->mrow[j][1 + j2][d] - co * c->mrow[j][1][d]) / si;
                    }
                    x->row[a][d] = r;
                    x->mrow[a][d] = mr;
                }
        }
        if (!s->cone) vfix[2] = (c->vfix[1 + j2] - s->dcos[j2] * c->vfix[1]) / s->dsin[j2];
        for (int a = 0; a < 3; a++) {
            double u = vfix[a];
            for (int j = 0; j < 2; j++)
                for (int d = 0; d < c->nd[j]; d++)
                    u += f->side[j].row[a][d] * s->vs[c->vadr[j] + d];
            f->q[a] = u;
        }
        f->r[0] = c->lam;
        if (s->cone) {
            f->r[1] = c->beta[0];
            f->r[2] = c->beta[1];
        } else
            for (int j = 0; j < s->k; j++) {
                f->r[1] += c->beta[j] * tc_v3_dot(c->dir[1 + j], t1);
                f->r[2] += c->beta[j] * tc_v3_dot(c->dir[1 + j], t2);
            }
        f->mu = s->mu;
    }
    tc_status st = tc_fc_problem_build(out, fc, s->nc);
    free(fc);
    return st;
}

const tc_solver_type tc_solver_vp = {
    .name = "vp",
    .summary = "velocity projection (Kaufman et al. 2005): contacts at the half step, each body's "
               "contacts on the friction cone (Siconos fc3d NSGS) or as pyramid LCPs (Lemke), "
               "swept over the bodies, exponential map",
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
    .fc_problem = vp_fc_problem,
};
