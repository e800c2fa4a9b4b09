/* SPDX-License-Identifier: MIT */
/* physical-consistency residuals of a step and their summaries over a run (docs/residuals.md) */
#include "sim/tc_residual.h"
#include "dyn/tc_system.h"
#include "math/tc_vec.h"
#include "solvers/tc_contact_space.h"

#include <fc3d_compute_error.h>
#include <math.h>
#include <string.h>

const char *const tc_residual_names[TC_RESID_N] = {"penetration", "signorini", "cone",
                                                   "dissipation", "ncp",       "energy"};
const char *const tc_residual_units[TC_RESID_N] = {"m", "m", "1", "J", "mixed", "J"};
const double tc_residual_threshold[TC_RESID_N] = {1e-3, 1e-4, 1e-3, 1e-6, 1e-4, 1e-6};

/* velocity of b's material point at p minus a's (m/s) */
static void relative_velocity(const tc_body_state *bs, const tc_contact_impulse *c, double v[3]) {
    double va[3], vb[3];
    tc_body_point_velocity(&bs[c->a], c->pos, va);
    tc_body_point_velocity(&bs[c->b], c->pos, vb);
    tc_v3_sub(v, vb, va);
}

void tc_residual_eval(const tc_contact_impulse *imp, int n, const tc_body_state *pre,
                      const tc_body_state *post, double mu, double dt, double penetration,
                      tc_residual_step *out) {
    double sum_n = 0, sum_all = 0, sig = 0, cone = 0, dis = 0, ncp = 0, work = 0;
    /* per contact, in the reported order */
    for (int i = 0; i < n; i++) {
        const tc_contact_impulse *c = &imp[i];
        const double ln = c->normal_impulse, *lt = c->tangent_impulse, *nr = c->normal;
        double vp[3], vm[3], vt[3], t1[3], t2[3];
        relative_velocity(post, c, vp);
        relative_velocity(pre, c, vm);
        const double vn = tc_v3_dot(vp, nr), gap = -c->depth + dt * vn;
        tc_v3_copy(vt, vp);
        tc_v3_addscl(vt, nr, -vn);
        const double slip = tc_v3_norm(vt), ltn = tc_v3_norm(lt);
        /* signorini: the end-of-step gap where the normal impulse acts */
        sum_n += ln;
        sum_all += fabs(ln) + ltn;
        sig += fabs(gap) * fabs(ln);
        /* the cone, and the dissipation left undone against the post-step slip */
        cone += fmax(0, ltn - mu * ln);
        dis += fmax(0, tc_v3_dot(lt, vt) + mu * ln * slip);
        /* the NCP criterion on the local reaction and post-step velocity (the velocity-level
         * problem's u; the gap is signorini's and penetration's) */
        tc_v3_orthonormal(nr, t1, t2);
        double r[3] = {ln, tc_v3_dot(lt, t1), tc_v3_dot(lt, t2)};
        double u[3] = {vn, tc_v3_dot(vt, t1), tc_v3_dot(vt, t2)}, w[3];
        fc3d_unitary_compute_and_add_error(r, u, mu, &ncp, w);
        /* contact work at the mean of the pre- and post-step contact velocities */
        double lam[3], vmid[3];
        tc_v3_scale(lam, nr, ln);
        tc_v3_addscl(lam, lt, 1);
        for (int k = 0; k < 3; k++)
            vmid[k] = 0.5 * (vm[k] + vp[k]);
        work += tc_v3_dot(lam, vmid);
    }
    out->ncontact = n;
    out->work = work;
    out->r[TC_RESID_PENETRATION] = penetration;
    out->r[TC_RESID_SIGNORINI] = sum_n > 0 ? sig / sum_n : 0;
    out->r[TC_RESID_CONE] = cone > 0 ? cone / sum_all : 0;
    out->r[TC_RESID_DISSIPATION] = dis;
    out->r[TC_RESID_NCP] = sqrt(ncp);
    out->r[TC_RESID_ENERGY] = fmax(0, work);
}

void tc_residual_clear(tc_residual_summary *s, int impulses) {
    memset(s, 0, sizeof *s);
    s->impulses = impulses;
    tc_residual_finish(s);
}

void tc_residual_add(tc_residual_summary *s, const tc_residual_step *r) {
    s->steps++;
    s->contacts += r->ncontact;
    s->work_net += r->work;
    for (int k = 0; k < TC_RESID_N; k++) {
        const double x = r->r[k];
        s->sum[k] += x;
        if (s->steps == 1 || x > s->max[k]) s->max[k] = x;
        s->above[k] += x > tc_residual_threshold[k];
    }
}

void tc_residual_finish(tc_residual_summary *s) {
    for (int k = 0; k < TC_RESID_N; k++) {
        const int known = s->steps > 0 && (k == TC_RESID_PENETRATION || s->impulses);
        s->mean[k] = known ? s->sum[k] / (double)s->steps : NAN;
        s->frac[k] = known ? (double)s->above[k] / (double)s->steps : NAN;
        if (!known) s->max[k] = NAN;
    }
}

void tc_residual_merge(tc_residual_summary *dst, const tc_residual_summary *src) {
    if (src->steps == 0) return;
    if (dst->steps == 0) dst->impulses = src->impulses;
    dst->impulses = dst->impulses && src->impulses;
    for (int k = 0; k < TC_RESID_N; k++) {
        /* a summary's max is NAN once finished for an unknown residual: maxima from the sums'
         * own steps */
        const double m = src->max[k];
        if (dst->steps == 0 || m > dst->max[k] || isnan(dst->max[k])) dst->max[k] = m;
        dst->sum[k] += src->sum[k];
        dst->above[k] += src->above[k];
    }
    dst->steps += src->steps;
    dst->contacts += src->contacts;
    dst->overflows += src->overflows;
    dst->unassigned += src->unassigned;
    dst->work_net += src->work_net;
}
