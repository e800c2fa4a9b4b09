/* SPDX-License-Identifier: MIT */
/* E9 (static friction, no paper): setup, the scenes, the loads and one run's measures, shared
 * by the driver and the tests */
#ifndef TC_E9_H
#define TC_E9_H

#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"

#define E9_MAXDT    8 /* step sizes */
#define E9_MAXFRAC  8 /* creep fractions of the threshold */
#define E9_MAXANGLE 8 /* anisotropy angles */
#define E9_MAXRATCH 4 /* ratchet loads */

/* the studies: creep on an incline, creep under a constant push, the push ramped from 0 (the
 * onset), an oscillating push (ratcheting) */
enum { E9_INCLINE = 0, E9_PUSH = 1, E9_RAMP = 2, E9_RATCHET = 3, E9_NKIND = 4 };

#define E9_MAXLIMIT 16 /* per-method limits */

/* a method's limit: it runs only the steps dt (s) of the script's, and why */
typedef struct e9_limit {
    char label[TC_LABEL_MAX + 1];
    double dt[E9_MAXDT];
    int ndt;
    char why[400];
} e9_limit;

typedef struct e9_setup {
    double gravity, mu, half, mass; /* m/s^2, Coulomb coefficient, the cube's half size (m), kg */
    double seconds;                 /* s, every run's length */
    double settle;      /* s: the mean drift speed and the onset are taken from here on */
    double stick_speed; /* m/s: it sticks when its mean drift speed is below this */
    int ndt;            /* step sizes (s) */
    double dt[E9_MAXDT];
    int nincline, npush; /* creep: fractions of the friction angle atan(mu) (incline) and of
                          * mu m g (push along +x) */
    double incline[E9_MAXFRAC], push[E9_MAXFRAC];
    double ramp_to;     /* the ramp: 0 at t = 0 to ramp_to mu m g at the run's end, linear */
    double onset_speed; /* m/s: sliding has started when the speed along the push exceeds it */
    double aniso;       /* the anisotropy push, a fraction of mu m g */
    int nangle;         /* its angles in the plane (degrees from +x) */
    double angle[E9_MAXANGLE];
    double period; /* s, of the oscillating push */
    int nratchet;  /* its loads: mean + amplitude sin(2 pi t / period), fractions of mu m g */
    double r_mean[E9_MAXRATCH], r_amp[E9_MAXRATCH];
    int nmean;  /* (as read: must equal nratchet) */
    int nlimit; /* per-method limits: the steps a label runs, and why */
    e9_limit limit[E9_MAXLIMIT];
} e9_setup;

/* one condition of a run: the study, its fraction (of the friction angle for the incline, of mu
 * m g for the pushes), the push's angle in the plane (degrees from +x) and the ratchet's load */
typedef struct e9_cond {
    int kind;
    double fraction, angle;
    double mean, amp; /* E9_RATCHET: fractions of mu m g */
} e9_cond;

/* what one run measured */
typedef struct e9_result {
    double drift;       /* m: the in-plane displacement of the box's COM from settle to the end,
                         * |d(end) - d(settle)| (the first steps, before a rigid method's contact
                         * holds, let it slip by about a dt^2 / 2 a step: not creep) */
    double speed;       /* m/s: drift / (seconds - settle) */
    double slip0;       /* m: |d(settle)|, the displacement before settle */
    double onset_force; /* N: E9_RAMP, the push during the first step from `settle` on after
                         * which the speed along the push exceeds onset_speed (NAN: never) */
    double per_cycle;   /* m: E9_RATCHET, (x(N period) - x(period)) / (N - 1) along +x, N the
                         * whole periods in the run (NAN: fewer than two) */
    long done;          /* steps completed */
} e9_result;

/* every setting by dotted path (a tier may override any); errors name the file, line and setting */
tc_status e9_read_setup(const tc_script *s, e9_setup *e, tc_error *err);

/* whether label runs step j (limits), and why not (NULL when it does) */
int e9_runs_step(const e9_setup *e, const char *label, int j, const char **why);

/* the threshold mu m g (N) and the incline of fraction f of the friction angle (rad) */
double e9_threshold(const e9_setup *e);
double e9_incline_angle(const e9_setup *e, double f);

/* the scene of condition c: the box on the incline (E9_INCLINE) or on the flat ground, in 2-D
 * (a square on a line) when planar (tc_scene_box_on_incline) */
tc_status e9_scene(const e9_setup *e, const e9_cond *c, int planar, tc_scene *sc, tc_error *err);

/* the push (N) along the condition's direction during the step that starts at time t (s) */
double e9_push(const e9_setup *e, const e9_cond *c, double t);

/* one run of condition c with method m at step dt (s) in scene sc (planar: a 2-D scene, where
 * the push must be along +x): its measures into *r; it->status set on failure */
void e9_simulate(const e9_setup *e, const e9_cond *c, const tc_scene *sc, int planar,
                 const tc_method *m, double dt, e9_result *r, tc_item *it);

#endif
