/* SPDX-License-Identifier: MIT */
/* capability flags: what a method can do; an experiment runs every method that has what it needs */
#ifndef TC_CAPS_H
#define TC_CAPS_H

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

enum {
    TC_CAP_FORCE_QUERY = 1u << 0, /* contact wrenches at a given configuration (static query) */
    TC_CAP_DYNAMICS = 1u << 1,    /* can be stepped forward in time */
    TC_CAP_FRICTION = 1u << 2,    /* produces tangential (friction) forces */
    TC_CAP_SMOOTH = 1u << 3,      /* force is a smooth function of the configuration */
    TC_CAP_CONTACTS = 1u << 4,    /* reports contact points (for velocity-level solvers: lcp) */
    TC_CAP_CONTINUOUS = 1u << 5,  /* force is a continuous function of the state (implied by
                                   * smooth); adaptive and implicit integrators need it */
    TC_CAP_GEOMETRY = 1u << 6,    /* hands its bodies' convex shapes to a solver that detects
                                   * collisions itself (single-level, bilevel) */
    TC_CAP_PLANAR = 1u << 7,      /* moves planar bodies only (x, y, theta): refuses a scene whose
                                   * shape mask has TC_SHAPE_SPATIAL (a body on a free joint) */
    TC_CAP_GRADIENT = 1u << 8,    /* analytic derivatives: a model's force_jacobian, an engine's
                                   * jacobian (sim/tc_grad.h; every other method gets central
                                   * differences) */
};

/* "force-query,dynamics,..." into buf */
void tc_caps_format(unsigned caps, char *buf, int n);

#ifdef __cplusplus
}
#endif

#endif
