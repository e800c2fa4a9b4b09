/* SPDX-License-Identifier: MIT */
/* physical-consistency residuals of a step (ContactBench's criteria: Signorini, friction cone,
 * maximum dissipation, the NCP criterion of the friction problem, energy injected by contact)
 * from the step's contact impulses and the post-step state, and their summary over a run;
 * definitions, units and normalisation in docs/residuals.md */
#ifndef TC_RESIDUAL_H
#define TC_RESIDUAL_H

#include "geom/tc_pose.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tc_contact_impulse tc_contact_impulse;

/* the residuals, in the order of every array below */
typedef enum tc_residual_kind {
    TC_RESID_PENETRATION, /* m: the largest geometric overlap after the step (libccd; scenes of
                           * more than TC_SIM_PAIR_BODIES bodies: the deepest reported contact) */
    TC_RESID_SIGNORINI,   /* m: sum |g+| lambda_n / sum lambda_n, g+ the contact's gap at the
                           * step's end (linearised: -depth + dt v_n+) */
    TC_RESID_CONE,        /* 1: sum max(0, |lambda_t| - mu lambda_n) / sum (lambda_n + |lambda_t|)
                           * (0 without impulses, below 1) */
    TC_RESID_DISSIPATION, /* J: sum max(0, lambda_t . v_t+ + mu lambda_n |v_t+|) */
    TC_RESID_NCP,         /* sqrt of the sum of Siconos' fc3d_unitary_compute_and_add_error
                           * over the contacts, r in N s, u in m/s (mixed units, W = I) */
    TC_RESID_ENERGY,      /* J: max(0, work of the contact impulses at the mean of the pre- and
                           * post-step contact velocities) */
    TC_RESID_N
} tc_residual_kind;

/* the residuals' names ("penetration", "signorini", "cone", "dissipation", "ncp", "energy"),
 * their units, and the default thresholds of the summaries' fractions (docs/residuals.md) */
extern const char *const tc_residual_names[TC_RESID_N];
extern const char *const tc_residual_units[TC_RESID_N];
extern const double tc_residual_threshold[TC_RESID_N];

/* one step's residuals: r[TC_RESID_N]; work: the signed contact work (J) */
typedef struct tc_residual_step {
    double r[TC_RESID_N];
    double work; /* J, signed: < 0 contact dissipated, > 0 injected */
    int ncontact;
} tc_residual_step;

/* residuals over a run: per residual the largest and mean step value and the fraction of steps
 * above its threshold; NAN for the contact residuals of a method that reports no impulses */
typedef struct tc_residual_summary {
    long long steps;      /* steps tracked */
    long long contacts;   /* contact impulses evaluated, over all steps */
    long long overflows;  /* contacts beyond the tracker's capacity (left out) */
    long long unassigned; /* steps where a body's contact wrench could not be given to one pair
                           * (models reported per pair, docs/residuals.md) */
    int impulses;         /* 1 when the method reports contact impulses */
    double max[TC_RESID_N], mean[TC_RESID_N], frac[TC_RESID_N];
    double sum[TC_RESID_N];      /* running sums (mean = sum / steps) */
    long long above[TC_RESID_N]; /* steps above the threshold */
    double work_net;             /* J: the signed contact work summed over the run */
} tc_residual_summary;

/* the residuals of one step: n contacts imp (impulses in N s, normals from a to b), the bodies'
 * poses and twists before (pre) and after (post) the step, the friction coefficient mu, the step
 * dt (s) and the post-step penetration (m) */
void tc_residual_eval(const tc_contact_impulse *imp, int n, const tc_body_state *pre,
                      const tc_body_state *post, double mu, double dt, double penetration,
                      tc_residual_step *out);

/* a summary with nothing in it; impulses: whether the contact residuals will be known */
void tc_residual_clear(tc_residual_summary *s, int impulses);

/* add one step to the summary (sums in step order: deterministic) */
void tc_residual_add(tc_residual_summary *s, const tc_residual_step *r);

/* fold summary src into dst (steps, sums, maxima, counts; unknown in either: unknown in dst
 * only when dst had no steps). In a fixed order of calls the result is deterministic */
void tc_residual_merge(tc_residual_summary *dst, const tc_residual_summary *src);

/* the means and fractions of s brought up to date (NAN for unknown residuals) */
void tc_residual_finish(tc_residual_summary *s);

#ifdef __cplusplus
}
#endif

#endif
