/* SPDX-License-Identifier: MIT */
/* E4 (Drumwright's penalty studies): setup, scenes, runs and the speed study, shared by the
 * driver, `touche bench penalty` and the tests */
#ifndef TC_E4_H
#define TC_E4_H

#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"

#define E4_MAXPILE   8   /* pile sizes in the speed study */
#define E4_MAXSPEED  4   /* methods timed side by side */
#define E4_MAXREPEAT 15  /* timings of each method per pile size */
#define E4_HALF      0.5 /* m, half side of (b)'s cube */
#define E4_MAXRATIO  6   /* (b)'s ratios of two methods' mean penetrations */

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
    /* (b)'s ratios of mean penetrations, numerator and denominator labels (perturbed.ratios,
     * "num/den" each): metrics perturbed.<num>_over_<den>.mean_penetration */
    int b_nratio;
    char b_ratio[E4_MAXRATIO][2][TC_LABEL_MAX + 1];
    /* (c) pile in an open box */
    tc_pile pile; /* bodies, seed, masses, sizes, box; gravity and friction as above */
    double c_seconds;
    int c_seed; /* the pile's seed as the script gives it */
    /* (d) speed: pile sizes, steps timed, how often each method's steps are timed (the
     * repeats interleaved, the median kept), the settling method and the timed ones (labels;
     * the first timed one is the baseline the others are divided by) */
    int d_n, d_sizes[E4_MAXPILE], d_steps, d_repeats;
    double d_bodies[E4_MAXPILE]; /* d_sizes as the script gives them */
    char d_settle[TC_LABEL_MAX + 1];
    int d_nlabel;
    char d_label[E4_MAXSPEED][TC_LABEL_MAX + 1];
} e4_setup;

tc_status e4_read_setup(const tc_script *s, e4_setup *e, tc_error *err);

/* the three scenes: (a) a cube started in the ground, (b) a cube at rest on it, (c) the pile
 * (with n bodies) */
tc_status e4_block_scene(const e4_setup *e, tc_scene *sc, tc_error *err);
tc_status e4_rest_scene(const e4_setup *e, tc_scene *sc, tc_error *err);
tc_status e4_pile_scene(const e4_setup *e, int n, tc_scene *sc, tc_error *err);

/* the three simulated studies */
enum { E4_BLOCK = 0, E4_PERTURBED = 1, E4_PILE = 2 };

/* (b)'s perturbations: per cycle a top-face point (x, y in body coordinates, m) and a downward
 * force (N), force[b_cycles][3] = (x, y, F), from b_seed */
void e4_perturbations(const e4_setup *e, double (*force)[3]);

/* (b) the push before step k (settling steps included): its magnitude (N, 0 outside the
 * force-on windows) and its body-fixed point on the top face (m) */
double e4_perturbation_at(const e4_setup *e, const double (*force)[3], long k, double point[3]);

/* (b)'s pushes for the figure (paper fig. 12): one line per cycle, "x_m,y_m,z_m,magnitude_N",
 * the point on the top face of the cube at rest, from e4_perturbation_at at the cycle's first
 * force-on step */
tc_status e4_write_forces(const char *path, const e4_setup *e, const double (*force)[3],
                          tc_error *err);

/* eq. 2 for a depth d (m) held constant (paper fig. 6): integral[t] after t steps, t = 0..steps,
 * from the model's own update (tc_penalty_integral_update) */
void e4_forget_series(double depth, double forget, int steps, double *integral);

/* the figure's series: one block per forgetting factor (two blank lines apart), lines
 * "step,I(depth[0]),...,I(depth[nd-1])" in m, for steps 0..steps */
tc_status e4_write_forget(const char *path, const double *depth, int nd, const double *forget,
                          int nf, int steps, tc_error *err);

/* what a study run must keep to be physically plausible (the same for every method): its
 * mechanical energy may not grow without input, no body may go through the floor or sink into
 * another body beyond that body's size */
typedef struct e4_sanity {
    double energy_rise;  /* J: the largest rise of kinetic + gravitational energy above the start
                          * beyond the work the external wrenches ((b)'s pushes) did */
    double energy_allow; /* J: the rise allowed: lifting every moving body by its own size, sum
                          * of m g s (room for the elastic energy a penalty stores in its start
                          * penetration: 7.5 J for E4 (a)'s deepest point) */
    double lowest;       /* m: the lowest a moving body's centre plus half its size came (the
                          * floor is the plane z = 0: below 0 the body went right through it) */
    double deepest;      /* the largest pair penetration over the size of the pair's smaller
                          * moving body (1: right through it), at samples whose penetration
                          * exceeds the smallest moving body's size; 0 when none did */
} e4_sanity;

/* one study run: kinetic energy and penetration after every step (sampled every `every`), the
 * pile's escaped bodies, the plausibility measures; status and reason in it */
typedef struct e4_run {
    tc_series s;
    int escaped;
    e4_sanity chk;
} e4_run;

/* the size (m) of a body's shape: its smallest full extent (a box's shortest side, a sphere's
 * diameter, a cylinder's smaller of diameter and length, a polytope's bounding diameter);
 * INFINITY for a plane */
double e4_body_size(const tc_shape *sh);

/* 1 when a run that finished is physically absurd, with the reason in why[n] (energy grown
 * without input, a body through the floor, a penetration beyond the body's size), else 0 */
int e4_implausible(const e4_run *r, char *why, size_t n);

/* simulate `steps` steps of study (E4_BLOCK, E4_PERTURBED, E4_PILE) in scene sc with method m;
 * force: (b)'s perturbations (NULL otherwise) */
void e4_simulate(const e4_setup *e, const tc_scene *sc, const tc_method *m, int study, long steps,
                 int every, const double (*force)[3], e4_run *out, tc_item *it);

/* one pile size of the speed study */
typedef struct e4_speed_row {
    int bodies, pairs;            /* bodies; pairs touching at the start */
    int lcp_contacts;             /* contact points the first method's model reports at the
                                   * start (the LCP's problem size) */
    double steps_s[E4_MAXSPEED];  /* steps per second, per method */
    double contacts[E4_MAXSPEED]; /* mean active contacts the method reported per step */
    long long iters[E4_MAXSPEED]; /* inner-solver work (LCP) */
    int failed[E4_MAXSPEED];
    double wall[E4_MAXSPEED]; /* s */
    int steps[E4_MAXSPEED];
} e4_speed_row;

/* the speed study: for each pile size, the pile settled by method ref for c_seconds, then
 * d_steps steps of each of the nm methods from that state, serially (one thread), timed
 * d_repeats times with the methods taking turns; a method's time is the median of its repeats,
 * so a load that comes and goes (another process on the machine) moves neither the times nor
 * their ratios much */
tc_status e4_speed(const e4_setup *e, const tc_method *ref, const tc_method *const *m, int nm,
                   e4_speed_row *rows, tc_error *err);

/* the speed study's methods among x's: *ref the settling one, m and idx the timed ones and their
 * indices; the label of the first one x lacks (a --methods filter may leave one out), or NULL */
const char *e4_speed_methods(const tc_exp *x, const e4_setup *e, const tc_method **ref,
                             const tc_method **m, int *idx);

/* `touche bench penalty` */
extern const struct tc_bench_def e4_bench; /* exp/tc_bench.h */

#endif
