/* SPDX-License-Identifier: MIT */
/* penalty contact (Drumwright 2008): deepest-point and multi-point PID penalty with a forgetting
 * factor, and impulses at the contact centroid for impacts (the contact-phase machine of fig. 2) */
#include "math/tc_vec.h"
#include "models/tc_model.h"
#include "models/tc_penalty.h"
#include "models/tc_scene_contacts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* both variants share one parameter table; the paper's gains scale with the pair's mass */
static const tc_param_spec penalty_params[] = {
    {"kp", 1.0e4, 0, 1e12, TC_PARAM_REAL, "N/(m kg)",
     "proportional gain per kg of the pair's moving mass (k_p = kp (m1 + m2))",
     "a resting body sinks about g / kp = 1 mm; the paper's 100 (E4 uses it) sinks 8.6 cm, right "
     "for its 1 m blocks and through the floor for a 5 cm ball"},
    {"kv", 200.0, 0, 1e12, TC_PARAM_REAL, "N s/(m kg)",
     "derivative gain per kg of moving mass (k_v = kv (m1 + m2))",
     "2 sqrt(kp): critical damping of a body on its contact spring (the paper: 50 with kp 100)"},
    {"ki", 200.0, 0, 1e12, TC_PARAM_REAL, "N/(m kg)",
     "integral gain per kg of moving mass (k_i = ki (m1 + m2)); the integral sums depths (m) over "
     "steps",
     "the paper's ratio ki / kp = 0.02"},
    {"divide_by_r", 1, 0, 1, TC_PARAM_BOOL, "1",
     "1: eq. 3 divides each point's force by the number r of pushing points; 0: every point is a "
     "full spring",
     "eq. 3 as the paper writes it (0 tests the reading that matches its reported "
     "penetrations; E4 has both)"},
    {"forget", 0.85, 0, 0.999999, TC_PARAM_REAL, "1",
     "forgetting factor lambda of the integral term (eq. 2)",
     "the paper found 0.8 < lambda < 0.9 works; the middle"},
    {"spacing_rel", 0.25, 1e-3, 10, TC_PARAM_REAL, "1",
     "surface point spacing over the body's bounding radius (multi-point contact sets)",
     "about 5 points along a cube's edge: enough for a stable face contact"},
    {"impulses", 1, 0, 1, TC_PARAM_BOOL, "1",
     "resolve impacts with impulses at the contact centroid (fig. 2)", "the paper's method"},
    {"impact_speed", 1e-3, 0, 1e3, TC_PARAM_REAL, "m/s",
     "approach speed above which a new contact is an impact (epsilon of fig. 2)",
     "the paper: a value very near zero; 1 mm/s is below one 1 ms step of gravity (9.8 mm/s)"},
    {"restitution", 0.0, 0, 1, TC_PARAM_REAL, "1", "Newton restitution of impact impulses",
     "inelastic: the paper's examples come to rest"},
    {"slip_speed", 1e-2, 1e-9, 10, TC_PARAM_REAL, "m/s",
     "sliding friction mu |f| is scaled by |v_t| / sqrt(|v_t|^2 + slip_speed^2)",
     "explicit RK4 at 1 ms stays stable when mu g (m / m_eff) dt / slip_speed < 2.8; for a unit "
     "cube's edge (m / m_eff = 2.5) 1 cm/s gives 1.2 (1 mm/s made the block creep in a limit "
     "cycle)"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL}};

/* one candidate pair: bodies, gains, and the memory of fig. 2 and eq. 2 */
typedef struct pen_pair {
    int a, b;
    double kp, kv, ki; /* N/m, N s/m, N/m */
    int resting;       /* 1 in the penalty state (continuous contact), 0 separated */
    double integral;   /* I of eq. 2 (m) */
    double dlast;      /* largest depth at the previous step's start (m) */
} pen_pair;

typedef struct pen_state {
    const tc_scene *scene;
    int multi; /* 1 multi-point, 0 deepest point */
    double forget, impact_speed, restitution, slip_speed;
    int impulses, divide;
    tc_contact_set *set; /* surfaces, pairs and each pair's points (collide/tc_contact_set.h) */
    int npair;
    pen_pair *pair;     /* the set's pairs, in its order */
    double *row, *mrow; /* nv scratch: a Jacobian row and M^-1 of it */
    int nv;
    double (*pv)[3]; /* maxpts: each point's relative velocity (m/s) in one force call */
    double *pnum;    /* maxpts: each point's eq. 3 numerator (N) in one force call */
    /* the contact sets of the step's start (step_begin), reused by a force call at the same
     * poses (the integrators' first stage): per pair its point count (0 apart, -1 not kept),
     * normal, largest depth (m) and first point in pool */
    int cached;         /* 1 when the cache holds the sets at the poses in pose */
    double (*pose)[12]; /* nbody: position (m) and rotation of each body at the cache's time */
    int *cm, *coff;
    double (*cn)[3], *cdmax;
    tc_pen_point *pool;
    int pool_cap;
    /* the pairs whose bounding spheres are within margin of each other at the cache's poses, in
     * pair order: while no body is margin / 4 from those poses (the integrators' later stages)
     * every other pair is still apart by more than rounding and is skipped untested */
    double margin; /* m: a tenth of the smallest body's bounding radius */
    int nnear, *near;
    /* per pair a gap (m) its bodies had at least at the cache's poses (0: not known): the
     * bounding spheres' clearance beyond rounding (the one far_apart_by tests), else the contact
     * set's separating-axis gap, less the bodies' motion since it was measured; while the two
     * bodies move less than it from those poses the pair is apart and is skipped (its set would
     * be empty) */
    double *sgap;
    /* per pair: 1 when it is off the near list, its sgap then the bounding spheres' clearance
     * (a rotation cannot close it: it stays off untested while that exceeds margin) */
    unsigned char *off;
    double *moved; /* nbody scratch: how far each body's points are from the cache's poses (m) */
    /* contact_forces' record: while rec is set, each pushing point's force is written there
     * too (at most rec_max; rec_n counts them all) */
    tc_model_force *rec;
    int rec_max, rec_n;
    tc_wrench *wscratch; /* nbody: contact_forces' wrenches (discarded) */
} pen_state;

/* points the start-of-step cache holds, at least (pairs beyond it are recomputed) */
#define PEN_POOL_MIN 16384

double tc_penalty_integral_update(double integral, double forget, double depth) {
    return forget * integral + depth;
}

/* eq. 3's numerator kp depth - kv vn + ki integral (N), one expression for every caller */
static inline double pid_numerator(double kp, double kv, double ki, double depth, double vn,
                                   double integral) {
    return kp * depth - kv * vn + ki * integral;
}

double tc_penalty_magnitude(double kp, double kv, double ki, double depth, double vn,
                            double integral, int r) {
    double f = pid_numerator(kp, kv, ki, depth, vn, integral) / (r > 0 ? r : 1);
    return f > 0 ? f : 0;
}

/* moving mass of a body: fixed and kinematic bodies count nothing */
static double moving_mass(const tc_body_desc *b) {
    return b->joint == TC_JOINT_FREE || b->joint == TC_JOINT_PLANAR ? b->mass : 0;
}

static void penalty_free(void *state) {
    pen_state *s = state;
    if (!s) return;
    tc_contact_set_free(s->set);
    free(s->pair);
    free(s->row);
    free(s->pv);
    free(s->pnum);
    free(s->pose);
    free(s->cm);
    free(s->coff);
    free(s->cn);
    free(s->cdmax);
    free(s->pool);
    free(s->near);
    free(s->sgap);
    free(s->off);
    free(s->moved);
    free(s->wscratch);
    free(s);
}

static tc_status penalty_alloc_common(void **state, const tc_scene *scene, const tc_params *p,
                                      int multi, tc_error *err) {
    pen_state *s = calloc(1, sizeof *s);
    if (!s) return TC_ENOMEM;
    s->scene = scene;
    s->multi = multi;
    s->forget = tc_params_get(p, "forget");
    s->impact_speed = tc_params_get(p, "impact_speed");
    s->restitution = tc_params_get(p, "restitution");
    s->slip_speed = tc_params_get(p, "slip_speed");
    s->impulses = (int)tc_params_get(p, "impulses");
    s->divide = (int)tc_params_get(p, "divide_by_r");
    /* surfaces and pairs; the pairs' gains */
    tc_status st = tc_scene_contact_set(&s->set, scene, tc_params_get(p, "spacing_rel"), err);
    if (st) {
        penalty_free(s);
        return st;
    }
    s->npair = s->set->npair;
    s->pair = calloc((size_t)s->npair + 1, sizeof *s->pair);
    if (!s->pair) {
        penalty_free(s);
        return TC_ENOMEM;
    }
    for (int k = 0; k < s->npair; k++) {
        pen_pair *pp = &s->pair[k];
        pp->a = s->set->pair[k][0];
        pp->b = s->set->pair[k][1];
        double m = moving_mass(&scene->body[pp->a]) + moving_mass(&scene->body[pp->b]);
        pp->kp = tc_params_get(p, "kp") * m;
        pp->kv = tc_params_get(p, "kv") * m;
        pp->ki = tc_params_get(p, "ki") * m;
    }
    /* scratch rows for impulses */
    tc_system sys;
    tc_system_init(&sys, scene);
    s->nv = sys.nv;
    s->row = calloc(2 * (size_t)sys.nv + 2, sizeof *s->row);
    if (!s->row) {
        penalty_free(s);
        return TC_ENOMEM;
    }
    s->mrow = s->row + sys.nv + 1;
    /* per-point scratch and the start-of-step cache */
    size_t mp = (size_t)s->set->maxpts + 1, np = (size_t)s->npair + 1;
    s->pool_cap = s->set->maxpts > PEN_POOL_MIN / 4 ? 4 * s->set->maxpts : PEN_POOL_MIN;
    s->pv = calloc(mp, sizeof *s->pv);
    s->pnum = calloc(mp, sizeof *s->pnum);
    s->pose = calloc((size_t)scene->nbody + 1, sizeof *s->pose);
    s->cm = calloc(np, sizeof *s->cm);
    s->coff = calloc(np, sizeof *s->coff);
    s->cn = calloc(np, sizeof *s->cn);
    s->cdmax = calloc(np, sizeof *s->cdmax);
    s->pool = malloc((size_t)s->pool_cap * sizeof *s->pool);
    s->near = calloc(np, sizeof *s->near);
    s->sgap = calloc(np, sizeof *s->sgap);
    s->off = calloc(np, sizeof *s->off);
    s->moved = calloc((size_t)scene->nbody + 1, sizeof *s->moved);
    s->wscratch = calloc((size_t)scene->nbody + 1, sizeof *s->wscratch);
    if (!s->pv || !s->pnum || !s->pose || !s->cm || !s->coff || !s->cn || !s->cdmax || !s->pool ||
        !s->near || !s->sgap || !s->off || !s->moved || !s->wscratch) {
        penalty_free(s);
        return TC_ENOMEM;
    }
    /* the pool written once now, so its pages' first-touch faults fall here, not in the steps */
    memset(s->pool, 0, (size_t)s->pool_cap * sizeof *s->pool);
    /* the near-pair margin: a tenth of the smallest finite bounding radius (none: 0, the list
     * then serves the cache's own poses only) */
    double rmin = INFINITY;
    for (int i = 0; i < scene->nbody; i++)
        if (s->set->surf[i].radius > 0) rmin = fmin(rmin, s->set->surf[i].radius);
    s->margin = isfinite(rmin) ? 0.1 * rmin : 0;
    *state = s;
    return TC_OK;
}

static tc_status dp_alloc(void **state, const tc_scene *scene, const tc_params *p, tc_error *err) {
    return penalty_alloc_common(state, scene, p, 0, err);
}

static tc_status mp_alloc(void **state, const tc_scene *scene, const tc_params *p, tc_error *err) {
    return penalty_alloc_common(state, scene, p, 1, err);
}

/* 1 when the poses bs are bitwise those the cache was filled at */
static int cache_valid(const pen_state *s, const tc_body_state *bs) {
    if (!s->cached) return 0;
    for (int i = 0; i < s->scene->nbody; i++)
        if (memcmp(s->pose[i], bs[i].pos, sizeof bs[i].pos) ||
            memcmp(s->pose[i] + 3, bs[i].R, sizeof bs[i].R))
            return 0;
    return 1;
}

/* what pair k's bounding spheres must be apart by at least to be apart by more than rounding
 * (1e-6 relative): the sum of their radii with that room (m) */
static double rounded_radii(const pen_state *s, const pen_pair *pp) {
    return (s->set->surf[pp->a].radius + s->set->surf[pp->b].radius) * (1 + 1e-6) + 1e-9;
}

/* 1 when pair k's bounding spheres are apart by more than rounding (1e-6 relative) plus margin
 * (m); with margin 0 the contact set would be empty (planes, of infinite radius, never are) */
static int far_apart_by(const pen_state *s, int k, const tc_body_state *bs, double margin) {
    const pen_pair *pp = &s->pair[k];
    double d[3], rs = rounded_radii(s, pp);
    tc_v3_sub(d, bs[pp->a].pos, bs[pp->b].pos);
    rs += margin;
    return tc_v3_dot(d, d) > rs * rs;
}
static int far_apart(const pen_state *s, int k, const tc_body_state *bs) {
    return far_apart_by(s, k, bs, 0);
}

/* 1 when the cache's near-pair list holds at poses bs: no body is margin / 4 or more from its
 * position at the cache's poses (a pair off the list was margin apart there, so at least margin
 * / 2 now) */
static int near_valid(const pen_state *s, const tc_body_state *bs) {
    if (!s->cached) return 0;
    double lim = 0.25 * s->margin;
    for (int i = 0; i < s->scene->nbody; i++) {
        double d[3];
        tc_v3_sub(d, bs[i].pos, s->pose[i]);
        if (!(tc_v3_dot(d, d) < lim * lim)) return 0;
    }
    return 1;
}

/* s->moved[i]: a bound (m) on how far any point of body i is at poses bs from where it was at
 * the cache's poses, |x - x0| + r |R - R0|_F (r its bounding radius; the Frobenius norm bounds
 * the rotation's action), with room for rounding; a body without a finite radius (a plane) has
 * 0 while unmoved, else an infinite bound; every bound is infinite without a cache */
static void motion_bounds(pen_state *s, const tc_body_state *bs) {
    for (int i = 0; i < s->scene->nbody; i++) {
        const double *x0 = s->pose[i], *R0 = s->pose[i] + 3, r = s->set->surf[i].radius;
        double dx = 0, dR = 0;
        for (int k = 0; k < 3; k++)
            dx += (bs[i].pos[k] - x0[k]) * (bs[i].pos[k] - x0[k]);
        for (int k = 0; k < 9; k++)
            dR += (bs[i].R[k] - R0[k]) * (bs[i].R[k] - R0[k]);
        if (!s->cached)
            s->moved[i] = INFINITY;
        else if (!isfinite(r))
            s->moved[i] = dx == 0 && dR == 0 ? 0 : INFINITY;
        else
            s->moved[i] = (sqrt(dx) + r * sqrt(dR)) * (1 + 1e-9);
    }
}

/* 1 when pair k is still apart by its gap: its bodies moved less than it from the cache's poses
 * (a NaN pose never is) */
static int still_apart(const pen_state *s, int k) {
    const pen_pair *pp = &s->pair[k];
    return s->sgap[k] > s->moved[pp->a] + s->moved[pp->b];
}

/* pair k's contact set at poses bs: from the cache when use_cache (its points then live in the
 * pool), else computed into the set's buffer; *pts points at them */
static int pair_set(pen_state *s, int k, const tc_body_state *bs, int use_cache, double n[3],
                    double *dmax, const tc_pen_point **pts) {
    if (use_cache && s->cm[k] >= 0) {
        tc_v3_copy(n, s->cn[k]);
        *dmax = s->cdmax[k];
        *pts = s->pool + s->coff[k];
        return s->cm[k];
    }
    *pts = s->set->pts;
    if (far_apart(s, k, bs)) return 0;
    return tc_contact_set_pair(s->set, k, bs, s->multi, n, dmax);
}

/* pair pp's m points pts (normal n, from its b toward its a), bodies A and B: each point's
 * relative velocity and eq. 3's numerator, then at each point that pushes the PID normal force
 * and sliding friction against the slip, added to the wrenches wa and wb; returns how many
 * pushed. The bodies' states, the gains and the wrenches are kept in locals meanwhile (the same
 * arithmetic in the same order, so the same bits, without reloading them after each store) */
static int pair_forces(pen_state *s, const pen_pair *pp, const tc_body_state *A,
                       const tc_body_state *B, const tc_pen_point *pts, int m, const double n[3],
                       tc_wrench *wa, tc_wrench *wb) {
    const tc_body_state a = *A, b = *B;
    const double kp = pp->kp, kv = pp->kv, ki = pp->ki, integral = pp->integral;
    const double nn[3] = {n[0], n[1], n[2]};
    double(*pv)[3] = s->pv, *pnum = s->pnum;
    /* r: the points that push (eq. 3 divides by their number) */
    int r = 0;
    for (int j = 0; j < m; j++) {
        double va[3], vb[3], v[3];
        tc_body_point_velocity(&a, pts[j].p, va);
        tc_body_point_velocity(&b, pts[j].p, vb);
        tc_v3_sub(v, va, vb);
        tc_v3_copy(pv[j], v);
        pnum[j] = pid_numerator(kp, kv, ki, pts[j].depth, tc_v3_dot(v, nn), integral);
        r += pnum[j] > 0;
    }
    if (r == 0) return 0;
    const double div = s->divide ? r : 1, mu = s->scene->friction,
                 slip2 = s->slip_speed * s->slip_speed;
    tc_wrench fa = *wa, fb = *wb;
    int pushed = 0;
    for (int j = 0; j < m; j++) {
        double fn = pnum[j] / div, vt[3], f[3];
        if (!(fn > 0)) continue;
        double vn = tc_v3_dot(pv[j], nn);
        tc_v3_copy(vt, pv[j]);
        tc_v3_addscl(vt, nn, -vn);
        double ft = -mu * fn / sqrt(slip2 + tc_v3_dot(vt, vt));
        tc_v3_scale(f, nn, fn);
        tc_v3_addscl(f, vt, ft);
        tc_wrench_apply(&fa, &a, pts[j].p, f, 1);
        tc_wrench_apply(&fb, &b, pts[j].p, f, -1);
        /* the point's force, on pp->a along a normal from pp->b toward it */
        if (s->rec && s->rec_n < s->rec_max) {
            tc_model_force *o = &s->rec[s->rec_n];
            o->a = pp->b;
            o->b = pp->a;
            tc_v3_copy(o->pos, pts[j].p);
            tc_v3_copy(o->normal, nn);
            o->depth = pts[j].depth;
            tc_v3_copy(o->force, f);
        }
        if (s->rec) s->rec_n++;
        pushed++;
    }
    *wa = fa;
    *wb = fb;
    return pushed;
}

static tc_status penalty_force(void *state, const tc_body_state *bs, tc_wrench *w,
                               tc_contact_stats *st) {
    pen_state *s = state;
    const tc_scene *sc = s->scene;
    int use_cache = cache_valid(s, bs);
    memset(w, 0, (size_t)sc->nbody * sizeof *w);
    int active = 0;
    /* the near pairs alone while they are valid (the others give nothing), else every pair */
    int use_near = use_cache || near_valid(s, bs), np = use_near ? s->nnear : s->npair;
    /* away from the cache's poses, the pairs still apart by their gaps are skipped */
    if (!use_cache) motion_bounds(s, bs);
    for (int q = 0; q < np; q++) {
        int k = use_near ? s->near[q] : q;
        if (!use_cache && still_apart(s, k)) continue;
        const pen_pair *pp = &s->pair[k];
        const tc_pen_point *pts;
        double n[3], dmax;
        int m = pair_set(s, k, bs, use_cache, n, &dmax, &pts);
        if (m <= 0) continue;
        active += pair_forces(s, pp, &bs[pp->a], &bs[pp->b], pts, m, n, &w[pp->a], &w[pp->b]);
    }
    if (st) {
        st->ncontact = active;
        st->pair_evals += s->npair;
    }
    return TC_OK;
}

/* J v along direction d at point p (a's point minus b's) and the effective inverse mass
 * J M^-1 J^T; s->mrow keeps M^-1 J^T */
static double impulse_row(pen_state *s, const tc_system *sys, const tc_body_state *bs,
                          const pen_pair *pp, const double p[3], const double d[3], const double *v,
                          double *jv) {
    memset(s->row, 0, (size_t)s->nv * sizeof *s->row);
    tc_system_point_jacobian(sys, bs, pp->a, p, d, 1, s->row);
    tc_system_point_jacobian(sys, bs, pp->b, p, d, -1, s->row);
    memcpy(s->mrow, s->row, (size_t)s->nv * sizeof *s->row);
    tc_system_minv(sys, bs, s->mrow);
    double k = 0, u = 0;
    for (int i = 0; i < s->nv; i++) {
        k += s->row[i] * s->mrow[i];
        u += s->row[i] * v[i];
    }
    *jv = u;
    return k;
}

/* an impact: a normal impulse at the centroid c stopping (or reversing by e) the approach, then
 * a friction impulse no larger than mu times it against the slip left */
static void impact(pen_state *s, const tc_system *sys, const tc_body_state *bs, const pen_pair *pp,
                   const double c[3], const double n[3], double *v) {
    double vn, k = impulse_row(s, sys, bs, pp, c, n, v, &vn);
    if (!(k > 0) || vn >= -s->impact_speed) return;
    double jn = -(1 + s->restitution) * vn / k;
    for (int i = 0; i < s->nv; i++)
        v[i] += jn * s->mrow[i];
    /* tangential slip after the normal impulse, from the updated generalised velocities */
    double t1[3], t2[3], t[3], u1, u2, ut;
    tc_v3_orthonormal(n, t1, t2);
    impulse_row(s, sys, bs, pp, c, t1, v, &u1);
    impulse_row(s, sys, bs, pp, c, t2, v, &u2);
    double us = hypot(u1, u2);
    if (!(us > 0)) return;
    for (int k = 0; k < 3; k++)
        t[k] = (u1 * t1[k] + u2 * t2[k]) / us;
    double kt = impulse_row(s, sys, bs, pp, c, t, v, &ut);
    if (!(kt > 0) || ut <= 0) return;
    double jt = fmin(ut / kt, sys->scene->friction * jn);
    for (int i = 0; i < s->nv; i++)
        v[i] -= jt * s->mrow[i];
}

static tc_status penalty_step_begin(void *state, const tc_system *sys, const tc_body_state *bs,
                                    double dt, double *v) {
    pen_state *s = state;
    (void)dt;
    const tc_pen_point *pts = s->set->pts; /* each pair's points, in turn */
    /* how far the bodies moved since the last cache, then the poses the cache is filled at */
    motion_bounds(s, bs);
    for (int i = 0; i < s->scene->nbody; i++) {
        memcpy(s->pose[i], bs[i].pos, sizeof bs[i].pos);
        memcpy(s->pose[i] + 3, bs[i].R, sizeof bs[i].R);
    }
    int used = 0;
    s->nnear = 0;
    for (int k = 0; k < s->npair; k++) {
        pen_pair *pp = &s->pair[k];
        double n[3], dmax;
        /* off the near list untested while what is left of its bounding spheres' clearance
         * exceeds margin (its contact was forgotten when it left) */
        const double moved = s->moved[pp->a] + s->moved[pp->b];
        if (s->off[k] && s->sgap[k] - moved > s->margin * (1 + 1e-9)) {
            s->sgap[k] -= moved;
            s->cm[k] = 0;
            continue;
        }
        /* the near pairs at these poses (a pair off the list is far apart too) */
        int near = !far_apart_by(s, k, bs, s->margin), m = 0;
        double d[3];
        tc_v3_sub(d, bs[pp->a].pos, bs[pp->b].pos);
        const double clear = tc_v3_norm(d) - rounded_radii(s, pp);
        s->off[k] = !near;
        if (near) s->near[s->nnear++] = k;
        if (!near) {
            s->sgap[k] = clear;
        } else if (still_apart(s, k)) {
            /* apart by what is left of its gap at these poses */
            s->sgap[k] -= moved;
        } else {
            /* the gap anew: the bounding spheres' clearance, else the separating axis's when
             * the contact set shows one */
            s->sgap[k] = clear;
            if (!(s->sgap[k] > 0)) {
                m = tc_contact_set_pair(s->set, k, bs, s->multi, n, &dmax);
                s->sgap[k] = s->multi && m == 0 ? s->set->sep[k] : 0;
            }
        }
        /* kept for the force call at these poses while the pool has room */
        s->cm[k] = m > 0 ? (used + m <= s->pool_cap ? m : -1) : 0;
        if (s->cm[k] > 0) {
            tc_v3_copy(s->cn[k], n);
            s->cdmax[k] = dmax;
            s->coff[k] = used;
            memcpy(s->pool + used, pts, (size_t)m * sizeof *pts);
            used += m;
        }
        if (m <= 0) {
            /* separated: forget the contact */
            pp->resting = 0;
            pp->integral = 0;
            pp->dlast = 0;
            continue;
        }
        /* eq. 2: I_t = lambda I_(t-1) + max_y d(y, t-1) */
        pp->integral = tc_penalty_integral_update(pp->integral, s->forget, pp->dlast);
        pp->dlast = dmax;
        if (pp->resting) continue;
        /* a new contact: an impact when approaching faster than the threshold (fig. 2) */
        if (s->impulses) {
            double c[3] = {0, 0, 0};
            for (int j = 0; j < m; j++)
                tc_v3_addscl(c, pts[j].p, 1.0 / m);
            impact(s, sys, bs, pp, c, n, v);
        }
        pp->resting = 1;
    }
    s->cached = 1;
    return TC_OK;
}

/* the forces penalty_force applies at poses bs, point by point */
static int penalty_contact_forces(void *state, const tc_body_state *bs, tc_model_force *out,
                                  int max) {
    pen_state *s = state;
    tc_wrench *w = s->wscratch;
    s->rec = out;
    s->rec_max = out ? max : 0;
    s->rec_n = 0;
    penalty_force(s, bs, w, NULL);
    s->rec = NULL;
    return s->rec_n;
}

/* the multi-point set's contact points, at most 4 a pair, whichever variant pushes */
static int penalty_contacts(void *state, const tc_body_state *bs, tc_model_contact *c, int max) {
    pen_state *s = state;
    return tc_contact_set_contacts(s->set, bs, 0, c, max);
}

#define PENALTY_CAPS (TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_CONTACTS)

const tc_model_type tc_model_penalty_dp = {
    .name = "penalty-dp",
    .summary = "deepest-point PID penalty (libccd MPR depth and normal), impulses for impacts",
    .reference = "Drumwright 2008 (Moore & Wilhelms' virtual spring with an integral term); "
                 "docs/models/penalty.md",
    .params = penalty_params,
    .caps = PENALTY_CAPS,
    .shapes = TC_CONTACT_SET_SHAPES,
    .alloc = dp_alloc,
    .force = penalty_force,
    .free = penalty_free,
    .step_begin = penalty_step_begin,
    .contacts = penalty_contacts,
    .contact_forces = penalty_contact_forces,
};

const tc_model_type tc_model_penalty_mp = {
    .name = "penalty-mp",
    .summary = "multi-point PID penalty on the bottom of the penetration volume, forgetting "
               "factor, impulses at the contact centroid",
    .reference = "Drumwright 2008, eq. 1-4 and fig. 2; docs/models/penalty.md",
    .params = penalty_params,
    .caps = PENALTY_CAPS,
    .shapes = TC_CONTACT_SET_SHAPES,
    .alloc = mp_alloc,
    .force = penalty_force,
    .free = penalty_free,
    .step_begin = penalty_step_begin,
    .contacts = penalty_contacts,
    .contact_forces = penalty_contact_forces,
};
