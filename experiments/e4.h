/* SPDX-License-Identifier: MIT */
/* E4 (Drumwright's penalty studies): setup, scenes, measurements and runs, shared by the driver,
 * `touche bench penalty` and the tests */
#ifndef TC_E4_H
#define TC_E4_H

#include "exp/tc_experiment.h"

#define E4_MAXPILE 8 /* pile sizes in the speed study */

typedef struct e4_setup {
    double gravity;  /* m/s^2 */
    double friction; /* Coulomb coefficient, every pair */
    double dt;       /* s */
    /* (a) block penetrating a plane */
    double a_mass, a_depth; /* kg; initial depth of the lowest corner (m) */
    int a_steps, a_seed;
    /* (b) perturbed block */
    double b_mass, b_force_lo, b_force_hi; /* kg, N */
    int b_settle, b_on, b_off, b_cycles, b_seed;
    /* (c) pile in an open box */
    int c_bodies, c_seed;
    double c_seconds, c_mass_lo, c_mass_hi; /* s, kg */
    double c_size_lo, c_size_hi;            /* half sizes (m) */
    double c_half_width, c_wall_height;     /* container inside half width, wall height (m) */
    /* (d) speed */
    int d_n, d_sizes[E4_MAXPILE], d_steps;
} e4_setup;

tc_status e4_read_setup(const tc_script *s, e4_setup *e, tc_error *err);

/* body 0: the ground plane, body 1: a 1 m cube of the given mass (kg), orientation quat, its COM
 * at height z (m), at rest */
tc_status e4_block_scene(const e4_setup *e, double mass, const double quat[4], double z,
                         tc_scene *sc, tc_error *err);

/* (a)'s start: a random orientation (seed) lowered so the lowest corner is e->a_depth deep */
tc_status e4_penetrating_block(const e4_setup *e, tc_scene *sc, tc_error *err);

/* the ground plane, four fixed walls of an open box, and n bodies (boxes, cylinders, spheres in
 * turn by a seeded draw, masses U[c_mass_lo, c_mass_hi]) stacked on a grid above the floor with
 * random orientations */
tc_status e4_pile_scene(const e4_setup *e, int n, int seed, tc_scene *sc, tc_error *err);

/* largest penetration (m) among the scene's touching pairs at poses bs: exact for boxes on the
 * plane, libccd depth between convex bodies; the method's own contact model plays no part */
double e4_penetration(const tc_scene *sc, const tc_body_state *bs);

/* kinetic energy (J) of the bodies with degrees of freedom */
double e4_kinetic(const tc_scene *sc, const tc_body_state *bs);

/* the three simulated studies */
enum { E4_BLOCK = 0, E4_PERTURBED = 1, E4_PILE = 2 };

/* what one run measured */
typedef struct e4_summary {
    tc_status status;
    char reason[200];
    long steps;         /* steps completed */
    double mean_pen;    /* mean penetration over the measured steps (m) */
    double max_pen;     /* largest penetration (m) */
    double final_ke;    /* kinetic energy after the last step (J) */
    double peak_ke;     /* largest kinetic energy of the run (J) */
    int escaped;        /* pile bodies outside the container at the end */
    double wall_s;      /* wall time of the loop (s) */
    long long iters, fails; /* inner-solver work and failed solves (LCP) */
} e4_summary;

/* a run's series: kinetic energy (J) and penetration (m) every `every` steps, n samples */
typedef struct e4_series {
    int n;
    double *ke, *pen; /* may be NULL: summary only */
    e4_summary summary;
} e4_series;

/* (b)'s perturbations: per cycle a top-face point (x, y in body coordinates, m) and a downward
 * force (N), force[b_cycles][3] = (x, y, F), from b_seed */
void e4_perturbations(const e4_setup *e, double (*force)[3]);

/* simulate `steps` steps of study (E4_BLOCK, E4_PERTURBED, E4_PILE) in scene sc with method m;
 * force: (b)'s perturbations (NULL otherwise); penetration and kinetic energy every step into
 * out's summary and every `every` steps into its series. A failed step ends the run with its
 * reason (the sweep goes on) */
void e4_simulate(const e4_setup *e, const tc_scene *sc, const tc_method *m, int study, long steps,
                 int every, const double (*force)[3], e4_series *out);

#define E4_MAXSPEED 4 /* methods timed side by side */

/* one pile size of the speed study */
typedef struct e4_speed_row {
    int bodies, pairs;              /* bodies; pairs touching at the start */
    int lcp_contacts;               /* contact points the first method's model reports at the
                                     * start (the LCP's problem size) */
    double steps_s[E4_MAXSPEED];    /* steps per second, per method */
    double contacts[E4_MAXSPEED];   /* mean active contacts the method reported per step */
    long long iters[E4_MAXSPEED];   /* inner-solver work (LCP) */
    int failed[E4_MAXSPEED];
} e4_speed_row;

/* the speed study: for each pile size, the pile settled by method ref for c_seconds, then
 * d_steps steps of each of the nm methods from that state, serially (one thread), timed */
tc_status e4_speed(const e4_setup *e, const tc_method *ref, const tc_method *const *m, int nm,
                   e4_speed_row *rows, tc_error *err);

/* 1 when body i has left the container (outside its walls or below the floor by > 0.1 m) */
int e4_escaped(const e4_setup *e, const tc_scene *sc, const tc_body_state *bs, int i);

#endif
