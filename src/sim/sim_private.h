/* SPDX-License-Identifier: MIT */
/* the simulation's insides, for sim/ alone (grad.c): tc_sim stays opaque to everyone else */
#ifndef TC_SIM_PRIVATE_H
#define TC_SIM_PRIVATE_H

#include "sim/tc_sim.h"
#include "solvers/tc_contact_space.h"

/* a simulation: the scene, the method's states, the state vectors and all scratch memory */
struct tc_sim {
    const tc_scene *scene; /* the caller's: it must outlive the simulation (models keep
                            * pointers into it; a scene with polytopes is about 0.5 MB) */
    tc_system sys;
    tc_method m;
    void *mstate, *sstate, *estate;
    double dt, t;
    double *q, *v;   /* nq, nv */
    double *ctrl;    /* nv: position-servo targets, held over each step */
    tc_wrench *xfrc; /* nbody: external wrenches, held over each step */
    tc_body_state *bs;
    tc_wrench *w;
    tc_ode ode;
    tc_sim_stats stats;
    double *dw; /* the model's force_jacobian, (6 nbody) x (12 nbody): tc_sim_reserve_jacobian */
    char warn[4096];
    int nwarn;
    struct tc_sim_dump *dump; /* --dump-problems: sim/dump.c; NULL when off */
    /* contact impulses of force-level models and engines, and residual tracking: buffers sized
     * once (tc_sim_reserve_impulses), the summary accumulated by tc_sim_step while track */
    int track;
    int icap;                /* contacts the buffers hold */
    tc_contact_impulse *imp; /* icap */
    tc_model_force *mf;      /* icap: a model's point forces */
    tc_body_state *bs_pre;   /* nbody: poses and twists at the step's start */
    tc_wrench *rw;           /* nbody: the model's wrenches, per-pair attribution */
    int *pairs, npair;       /* the scene's pairs (per-pair attribution) */
    int *touch;              /* nbody: overlapping pairs per body */
    double (*pair_geo)[7];   /* npair: depth (m), normal from a to b, point (m) */
    double pair_pen;         /* m: the largest of pair_geo's depths (0 without overlap), NAN
                              * until pair_impulses measures them in the tracked step */
    /* the tracker's evaluation of a memoryless model at the post-step poses, which the next
     * step's first evaluation reuses when its poses are the same bits (contact_force) */
    int memo;                 /* 1 while memo_* hold an unused evaluation */
    tc_body_state *memo_bs;   /* nbody: the poses and twists evaluated */
    tc_wrench *memo_w;        /* nbody: the model's wrenches there */
    tc_contact_stats memo_cs; /* what that evaluation counted */
    tc_residual_summary resid;
};

/* --dump-problems (sim/dump.c): tc_sim_alloc attaches the process-wide setting to a simulation
 * of a solver with an fc_problem hook, tc_sim_free detaches it, and tc_sim_step writes the
 * chosen steps' problems; a failed write is the step's status, why in why[n] */
void tc_sim_dump_attach(tc_sim *s);
void tc_sim_dump_detach(tc_sim *s);
tc_status tc_sim_dump_step(tc_sim *s, char *why, size_t n);

/* size the impulse and residual buffers (once; later calls do nothing); TC_ENOMEM */
tc_status tc_sim_reserve_impulses(tc_sim *s);

/* give the simulation's ode its accel_jacobian (the model's force_jacobian composed with the
 * derivatives of tc_system_accel), with the model's (6 nbody) x (12 nbody) derivative buffer
 * allocated here, not by tc_sim_alloc (a 1,000-body pile would need 600 MB); nothing for a
 * model without force_jacobian or an engine */
tc_status tc_sim_reserve_jacobian(tc_sim *s);

/* the model's state made anew (its memory at its initial values: penalty's integral terms and
 * contact phases); allocates */
tc_status tc_sim_reset_model(tc_sim *s, tc_error *err);

#endif
