/* SPDX-License-Identifier: MIT */
/* the velocity-level contact space: the step's contacts, islands, tangent frames, Jacobian rows,
 * the unconstrained predictor and impulses, for time-stepping contact solvers */
#include "solvers/tc_contact_space.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void tc_cspace_free(tc_cspace *cs) {
    if (!cs) return;
    free(cs->raw);
    free(cs->c);
    free(cs->island);
    free(cs->frame);
    free(cs->dcos);
    free(cs->bs);
    free(cs->acc);
    free(cs->J);
    free(cs->AJ);
    free(cs->bias);
    free(cs->imp);
    free(cs);
}

tc_status tc_cspace_alloc(tc_cspace **out, const tc_system *sys, int max_contacts, int k) {
    *out = NULL;
    if (max_contacts < 1 || k < 1) return TC_EINVAL;
    tc_cspace *cs = calloc(1, sizeof *cs);
    if (!cs) return TC_ENOMEM;
    cs->sys = sys;
    cs->nv = sys->nv;
    cs->k = k;
    cs->maxc = max_contacts;
    size_t nv = (size_t)cs->nv + 1, rows = (size_t)max_contacts * (size_t)(k + 1);
    size_t nb = (size_t)sys->scene->nbody + 1, mc = (size_t)max_contacts + 1;
    /* contacts: one more than fits, to tell an overflow */
    cs->raw = calloc(mc, sizeof *cs->raw);
    cs->c = calloc(mc, sizeof *cs->c);
    /* island offsets, contact islands and roots (mc each), union-find and counts (nb each) */
    cs->island = calloc(4 * mc + 2 * nb, sizeof(int));
    if (cs->island) {
        cs->cisland = cs->island + mc;
        cs->root = cs->cisland + mc;
        cs->root2 = cs->root + mc;
        cs->parent = cs->root2 + mc;
        cs->start = cs->parent + nb;
    }
    cs->frame = calloc(mc, sizeof *cs->frame);
    cs->dcos = calloc(2 * (size_t)k, sizeof(double));
    cs->bs = calloc(nb, sizeof *cs->bs);
    cs->acc = calloc(nv, sizeof(double));
    cs->J = calloc(rows * nv, sizeof(double));
    cs->AJ = calloc(rows * nv, sizeof(double));
    cs->bias = calloc(rows, sizeof(double));
    cs->imp = calloc(mc, sizeof *cs->imp);
    if (!cs->raw || !cs->c || !cs->island || !cs->frame || !cs->dcos || !cs->bs || !cs->acc ||
        !cs->J || !cs->AJ || !cs->bias || !cs->imp) {
        tc_cspace_free(cs);
        return TC_ENOMEM;
    }
    /* the pyramid's directions; quarter turns exact (no 1e-16 leak into t2) */
    cs->dsin = cs->dcos + k;
    for (int j = 0; j < k; j++) {
        double th = 2.0 * M_PI * j / k, c = cos(th), s = sin(th);
        if (fabs(c) < 1e-12) c = 0;
        if (fabs(s) < 1e-12) s = 0;
        cs->dcos[j] = c;
        cs->dsin[j] = s;
    }
    *out = cs;
    return TC_OK;
}

/* an orthonormal tangent pair: t1 from the world axis least aligned with n, t2 = n x t1 */
static void tangents(const double n[3], double t1[3], double t2[3]) {
    int a = 0;
    for (int i = 1; i < 3; i++)
        if (fabs(n[i]) < fabs(n[a])) a = i;
    double e[3] = {0, 0, 0};
    e[a] = 1;
    double d = n[a];
    for (int i = 0; i < 3; i++)
        t1[i] = e[i] - d * n[i];
    double l = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
    for (int i = 0; i < 3; i++)
        t1[i] /= l;
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

/* union-find root of body i (path halving) */
static int root(int *parent, int i) {
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

tc_status tc_cspace_begin(tc_cspace *cs, const tc_ode *ode, double t, const double *q,
                          const double *v) {
    const tc_system *sys = cs->sys;
    int nbody = sys->scene->nbody;
    cs->nc = cs->nisland = 0;
    cs->island[0] = 0;
    if (!ode->contacts) return TC_EUNSUP;
    /* contacts at the step's start; one more than fits tells an overflow */
    int nc = ode->contacts(ode->ctx, t, q, cs->raw, cs->maxc + 1);
    if (nc > cs->maxc) {
        nc = cs->maxc;
        cs->overflows++;
    }
    /* islands: bodies with dofs joined by contacts (fixed and kinematic bodies join nothing); a
     * contact between two bodies without dofs constrains nothing and is dropped */
    for (int i = 0; i < nbody; i++)
        cs->parent[i] = i;
    int kept = 0;
    for (int i = 0; i < nc; i++) {
        int a = cs->raw[i].a, b = cs->raw[i].b, da = sys->vadr[a] >= 0, db = sys->vadr[b] >= 0;
        if (!da && !db) continue;
        if (da && db) cs->parent[root(cs->parent, a)] = root(cs->parent, b);
        cs->raw[kept++] = cs->raw[i];
    }
    nc = kept;
    /* contacts grouped by island (counting sort on the root body: a fixed order) */
    for (int i = 0; i <= nbody; i++)
        cs->start[i] = 0;
    for (int i = 0; i < nc; i++) {
        int a = cs->raw[i].a, r = root(cs->parent, sys->vadr[a] >= 0 ? a : cs->raw[i].b);
        cs->root[i] = r;
        cs->start[r + 1]++;
    }
    for (int i = 0; i < nbody; i++)
        cs->start[i + 1] += cs->start[i];
    for (int i = 0; i < nc; i++) {
        int pos = cs->start[cs->root[i]]++;
        cs->c[pos] = cs->raw[i];
        cs->root2[pos] = cs->root[i];
    }
    /* islands: the runs of one root */
    for (int i = 0; i < nc; i++) {
        if (i == 0 || cs->root2[i] != cs->root2[i - 1]) cs->island[cs->nisland++] = i;
        cs->cisland[i] = cs->nisland - 1;
    }
    cs->island[cs->nisland] = cs->nc = nc;
    /* tangent frames, and the impulse records zeroed */
    for (int i = 0; i < nc; i++) {
        const tc_model_contact *c = &cs->c[i];
        tangents(c->c.normal, cs->frame[i][0], cs->frame[i][1]);
        tc_contact_impulse *im = &cs->imp[i];
        memset(im, 0, sizeof *im);
        im->a = c->a;
        im->b = c->b;
        im->depth = c->c.depth;
        memcpy(im->pos, c->c.pos, sizeof im->pos);
        memcpy(im->normal, c->c.normal, sizeof im->normal);
    }
    tc_system_kinematics(sys, t, q, v, cs->bs);
    return TC_OK;
}

tc_status tc_cspace_predict(tc_cspace *cs, const tc_ode *ode, double t, double dt, const double *q,
                            double *v) {
    tc_status st = ode->accel(ode->ctx, t, q, v, cs->acc);
    if (st) return st;
    for (int i = 0; i < cs->nv; i++)
        v[i] += dt * cs->acc[i];
    return TC_OK;
}

void tc_cspace_direction(const tc_cspace *cs, int i, int j, double d[3]) {
    const double *t1 = cs->frame[i][0], *t2 = cs->frame[i][1], c = cs->dcos[j], s = cs->dsin[j];
    d[0] = c * t1[0] + s * t2[0];
    d[1] = c * t1[1] + s * t2[1];
    d[2] = c * t1[2] + s * t2[2];
}

/* one Jacobian row along d at contact c: J_b - J_a, plus the velocity of bodies without dofs */
static void contact_row(const tc_cspace *cs, const tc_model_contact *c, const double d[3],
                        double *row, double *bias) {
    const tc_system *sys = cs->sys;
    memset(row, 0, (size_t)cs->nv * sizeof(double));
    tc_system_point_jacobian(sys, cs->bs, c->b, c->c.pos, d, 1.0, row);
    tc_system_point_jacobian(sys, cs->bs, c->a, c->c.pos, d, -1.0, row);
    /* fixed bodies are at rest; kinematic bodies move along their paths */
    double vb[3] = {0, 0, 0}, va[3] = {0, 0, 0};
    if (sys->vadr[c->b] < 0) tc_body_point_velocity(&cs->bs[c->b], c->c.pos, vb);
    if (sys->vadr[c->a] < 0) tc_body_point_velocity(&cs->bs[c->a], c->c.pos, va);
    *bias = (vb[0] - va[0]) * d[0] + (vb[1] - va[1]) * d[1] + (vb[2] - va[2]) * d[2];
}

void tc_cspace_rows(tc_cspace *cs, int s, int tangents) {
    int nv = cs->nv, k = cs->k, i0 = cs->island[s], nc = cs->island[s + 1] - i0;
    size_t r0 = tc_cspace_row0(cs, s);
    double *J = cs->J + r0 * (size_t)nv, *AJ = cs->AJ + r0 * (size_t)nv, *bias = cs->bias + r0;
    /* Jacobian rows: normals, then k pyramid directions per contact */
    for (int i = 0; i < nc; i++) {
        const tc_model_contact *c = &cs->c[i0 + i];
        contact_row(cs, c, c->c.normal, J + (size_t)i * nv, &bias[i]);
        for (int j = 0; j < k; j++) {
            double d[3];
            tc_cspace_direction(cs, i0 + i, j, d);
            int r = nc + i * k + j;
            contact_row(cs, c, d, J + (size_t)r * nv, &bias[r]);
        }
    }
    /* M^-1 J^T, row by row */
    int m = tangents ? nc * (k + 1) : nc;
    for (int r = 0; r < m; r++) {
        memcpy(AJ + (size_t)r * nv, J + (size_t)r * nv, (size_t)nv * sizeof(double));
        tc_system_minv(cs->sys, cs->bs, AJ + (size_t)r * nv);
    }
}

void tc_cspace_apply(tc_cspace *cs, int s, const double *z, int tangents, double *v) {
    int nv = cs->nv, k = cs->k, i0 = cs->island[s], nc = cs->island[s + 1] - i0;
    const double *AJ = cs->AJ + tc_cspace_row0(cs, s) * (size_t)nv;
    /* v += A (N^T lambda + D^T beta) */
    int m = tangents ? nc * (k + 1) : nc;
    for (int r = 0; r < m; r++) {
        double zr = z[r];
        if (zr == 0) continue;
        const double *a = AJ + (size_t)r * nv;
        for (int i = 0; i < nv; i++)
            v[i] += zr * a[i];
    }
    /* each contact's share: its normal impulse and the sum of its pyramid impulses */
    for (int i = 0; i < nc; i++) {
        tc_contact_impulse *im = &cs->imp[i0 + i];
        im->normal_impulse += z[i];
        for (int j = 0; tangents && j < k; j++) {
            double d[3], b = z[nc + i * k + j];
            tc_cspace_direction(cs, i0 + i, j, d);
            for (int x = 0; x < 3; x++)
                im->tangent_impulse[x] += b * d[x];
        }
    }
}

int tc_cspace_impulses(const tc_cspace *cs, tc_contact_impulse *out, int max) {
    int n = cs->nc < max ? cs->nc : max;
    if (n > 0) memcpy(out, cs->imp, (size_t)n * sizeof *out);
    return cs->nc;
}
