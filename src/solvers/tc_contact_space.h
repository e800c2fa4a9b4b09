/* SPDX-License-Identifier: MIT */
/* the velocity-level contact space shared by time-stepping contact solvers (LCP, interior-point,
 * velocity projection): the step's contacts and their islands, per-contact tangent frames,
 * Jacobian rows J and M^-1 J^T for the normal and the k directions of a friction pyramid, the
 * velocity of bodies without dofs along those rows, the unconstrained predictor
 * v* = v + dt a(t, q, v), and impulses applied to v (and recorded per contact) */
#ifndef TC_CONTACT_SPACE_H
#define TC_CONTACT_SPACE_H

#include <stddef.h>

#include "solvers/tc_solver.h"

/* the impulse one contact received in a step (the type of tc_solver_type.impulses; the typedef
 * is in solvers/tc_solver.h): body b receives normal_impulse * normal + tangent_impulse, body a
 * the opposite */
struct tc_contact_impulse {
    int a, b;                  /* body indices */
    double pos[3];             /* contact point, world (m) */
    double normal[3];          /* unit normal from a to b, world */
    double depth;              /* m: > 0 overlapping, < 0 separated */
    double normal_impulse;     /* N s, >= 0 */
    double tangent_impulse[3]; /* N s, world frame, orthogonal to normal */
};

/* a run's contact space: every buffer sized in tc_cspace_alloc for max_contacts contacts and k
 * pyramid directions; the fields are read-only for solvers, and valid from tc_cspace_begin to the
 * next tc_cspace_begin.
 *
 * Rows. Contact i, of island s, has the normal row along c[i].c.normal and k tangent rows along
 * the pyramid directions d_j = cos(2 pi j / k) t1 + sin(2 pi j / k) t2 (j < k; sines and cosines
 * below 1e-12 set to 0, so k = 4 gives exactly +-t1, +-t2). A row r of J (nv entries, tc_system
 * layout) is J_b(p, d) - J_a(p, d), so J v is the velocity of b's material point minus a's along
 * d (m/s); bias[r] adds the part that comes from bodies without dofs (fixed: 0, kinematic: their
 * path velocity at p), so the row's relative velocity is J v + bias. AJ holds M^-1 J^T row by
 * row (m/s per N s). Island s's rows start at row tc_cspace_row0(cs, s) = (k + 1) island[s]: its
 * nc normal rows in contact order, then its nc k tangent rows, contact-major (contact 0's k
 * directions, then contact 1's ...). Islands share no dof, so an impulse on one island's rows
 * changes no other island's velocities. */
typedef struct tc_cspace {
    const tc_system *sys;
    int nv;   /* dofs */
    int k;    /* friction pyramid directions per contact */
    int maxc; /* contacts the buffers hold */
    /* the step's contacts, those between two bodies without dofs dropped, grouped by island */
    int nc;
    tc_model_contact *c; /* nc: world point (m), unit normal from a to b, depth (m) */
    int nisland;
    int *island;           /* nisland + 1: island s holds contacts island[s] .. island[s + 1] - 1 */
    int *cisland;          /* nc: the island of each contact */
    double (*frame)[2][3]; /* nc: unit tangents t1 (from the world axis least aligned with the
                            * normal), t2 = normal x t1 */
    double *dcos, *dsin;   /* k: the pyramid direction coefficients on t1 and t2 */
    tc_body_state *bs;     /* nbody: poses and twists at the step's start */
    /* rows, filled per island by tc_cspace_rows: maxc (k + 1) rows each */
    double *J;    /* nv entries per row */
    double *AJ;   /* M^-1 J^T, nv entries per row */
    double *bias; /* one per row (m/s) */
    /* impulses applied since tc_cspace_begin, one per contact, in contact order */
    tc_contact_impulse *imp;
    long long overflows; /* steps whose contacts did not fit in maxc (the first maxc were kept) */
    /* private scratch */
    tc_model_contact *raw; /* maxc + 1, as the model reported them */
    int *parent, *start, *root, *root2;
    double *acc; /* nv */
} tc_cspace;

/* a contact space for system sys (kept by pointer), max_contacts >= 1 contacts and k >= 1
 * pyramid directions; TC_EINVAL for bad sizes, TC_ENOMEM. Nothing else allocates */
tc_status tc_cspace_alloc(tc_cspace **out, const tc_system *sys, int max_contacts, int k);
void tc_cspace_free(tc_cspace *cs);

/* start a step at time t (s) and state (q, v): the model's contacts through ode->contacts (one
 * more than fits counts an overflow, and the first maxc are kept); contacts between two bodies
 * without dofs dropped (their rows would be zero); islands: bodies with dofs joined by contacts
 * (union-find; fixed and kinematic bodies join nothing); the contacts grouped by island with a
 * stable counting sort on the island's root body, so islands come in increasing root order and
 * each keeps the model's contact order (both fixed by the model's order alone); tangent frames;
 * poses and twists at (t, q, v); recorded impulses zeroed. TC_EUNSUP when the ODE reports no
 * contacts */
tc_status tc_cspace_begin(tc_cspace *cs, const tc_ode *ode, double t, const double *q,
                          const double *v);

/* the unconstrained predictor: v <- v + dt a(t, q, v) (dt in s), a from ode->accel (gravity,
 * the model's forces, external wrenches, damping, servos); accel's status on failure */
tc_status tc_cspace_predict(tc_cspace *cs, const tc_ode *ode, double t, double dt, const double *q,
                            double *v);

/* first row of island s */
static inline size_t tc_cspace_row0(const tc_cspace *cs, int s) {
    return (size_t)(cs->k + 1) * (size_t)cs->island[s];
}

/* island s's rows: J and bias of its normal and tangent rows, and M^-1 J^T of its normal rows,
 * and of its tangent rows too when tangents */
void tc_cspace_rows(tc_cspace *cs, int s, int tangents);

/* pyramid direction j of contact i (unit, world) */
void tc_cspace_direction(const tc_cspace *cs, int i, int j, double d[3]);

/* apply island s's row impulses z (N s): its nc normal impulses, then, when tangents, its nc k
 * pyramid impulses in row order; v <- v + M^-1 J^T z (rows with z = 0 skipped), and each
 * contact's recorded impulse grows by its share (so repeated calls, e.g. sweeps, accumulate).
 * Needs tc_cspace_rows(cs, s, tangents) first */
void tc_cspace_apply(tc_cspace *cs, int s, const double *z, int tangents, double *v);

/* the impulses recorded since tc_cspace_begin: the first min(nc, max) into out; returns nc */
int tc_cspace_impulses(const tc_cspace *cs, tc_contact_impulse *out, int max);

#endif
