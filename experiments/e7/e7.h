/* SPDX-License-Identifier: MIT */
/* E7 (Kaufman, Edmunds & Pai 2005, frictional dynamics): setup, the scenes and their closed
 * forms, shared by the driver and the tests */
#ifndef TC_E7_H
#define TC_E7_H

#include "exp/tc_experiment.h"
#include "scenes/tc_scenes.h"

#define E7_MAXANGLE  6  /* incline angles */
#define E7_MAXPILE   6  /* pile sizes */
#define E7_MAXLIMIT  16 /* per-method pile limits */
#define E7_MAXREPEAT 15 /* timed blocks of each pile in the cost study */

/* the four scenes */
enum { E7_SLIDE = 0, E7_INCLINE = 1, E7_ROLL = 2, E7_PILE = 3, E7_NSCENE = 4 };

/* a method's pile limit: it runs the piles of at most `bodies` bodies (0: none), and why */
typedef struct e7_limit {
    char label[TC_LABEL_MAX + 1];
    int bodies;
    char why[400];
} e7_limit;

typedef struct e7_setup {
    double gravity;   /* m/s^2 */
    double dt;        /* s, the step of (a)-(c) */
    int every;        /* (a)-(c): steps per sample written out */
    double tolerance; /* (a)-(c): the relative error the verdict calls within the closed form */
    /* (a) a box of half size a_half (m) and mass (kg) sliding at v0 (m/s) along x with Coulomb
     * coefficient mu; it has stopped when its speed first falls below a_stop (m/s) */
    double a_half, a_mass, a_v0, a_mu, a_seconds, a_stop;
    /* (b) the same kind of box at rest on a plane, gravity tilted by theta about y; angles are
     * offsets (degrees) from the friction angle atan(mu); acceleration fitted and mean velocity
     * taken from b_fit_from (s) on; it sticks when that velocity is below b_stick (m/s) */
    double b_half, b_mass, b_mu, b_seconds, b_fit_from, b_stick;
    int b_n;
    double b_offset[E7_MAXANGLE];
    /* (c) a solid ball of radius (m) and mass (kg) launched at v0 (m/s) along x without spin;
     * it rolls once the slip |v - omega r| first falls below c_slip * v0 */
    double c_radius, c_mass, c_v0, c_mu, c_seconds, c_slip;
    /* (d) piles: the pile (kinds, scales, density, walls, fill, seed) with bodies and half_width
     * taken per size from d_bodies, d_half_width; step d_dt (s), d_seconds simulated, a sample
     * every d_every steps, means over the steps from d_measure_from (s) on; two parts touch when
     * closer than d_margin (m); the pile's seed as read (d_seed), the half widths given (d_nwidth)
     */
    tc_compound_pile pile;
    int d_n, d_bodies[E7_MAXPILE], d_seed, d_nwidth;
    double d_half_width[E7_MAXPILE];
    double d_dt, d_seconds, d_measure_from, d_margin;
    int d_every;
    /* the cost study: each pile starts again from its state where the window starts, alone on
     * one thread: d_warm steps, then d_repeats blocks of d_timed steps timed by CPU time; a
     * step's time is the median over the blocks */
    int d_repeats, d_warm, d_timed;
    double d_linear; /* the cost is linear when the log-log slope is within this of 1 */
    int d_nlimit;
    e7_limit d_limit[E7_MAXLIMIT];
} e7_setup;

/* every setting by dotted path (a tier may override any); errors name the file, line and
 * setting: a friction coefficient < 0, an empty or bad compound in pile.shapes, a pile that does
 * not fit its box or the scene (pile.bodies, pile.half_width), ... */
tc_status e7_read_setup(const tc_script *s, e7_setup *e, tc_error *err);

/* the scenes. planar: the 2-D version (a square on tc_scene_ground_2d, gravity in the x-y
 * plane) for planar-only methods; the body is body 1, moving along +x */
tc_status e7_slide_scene(const e7_setup *e, int planar, tc_scene *sc, tc_error *err);
/* angle i of (b): gravity g (sin theta, 0, -cos theta), or (g sin theta, -g cos theta, 0) in 2-D */
tc_status e7_incline_scene(const e7_setup *e, int i, int planar, tc_scene *sc, tc_error *err);
tc_status e7_roll_scene(const e7_setup *e, tc_scene *sc, tc_error *err);
/* pile size i (d_bodies[i] bodies in a box of half width d_half_width[i]); the pile as built in
 * *p when p is not NULL */
tc_status e7_pile_scene(const e7_setup *e, int i, tc_scene *sc, tc_compound_pile *p, tc_error *err);

/* the closed forms; the times at a threshold (the measured ones are crossing times) */
double e7_incline_angle(const e7_setup *e, int i); /* rad */
double e7_slide_distance(const e7_setup *e);       /* v0^2 / (2 mu g), m */
double e7_slide_time(const e7_setup *e);           /* v0 / (mu g), s */
double e7_slide_time_at(const e7_setup *e);        /* speed a_stop: (v0 - a_stop) / (mu g), s */
double e7_incline_accel(const e7_setup *e, int i); /* g (sin - mu cos), 0 when it sticks, m/s^2 */
double e7_roll_time(const e7_setup *e);            /* t* = 2 v0 / (7 mu g), s */
double e7_roll_speed(const e7_setup *e);           /* 5 v0 / 7, m/s */
double e7_roll_distance(const e7_setup *e);        /* 12 v0^2 / (49 mu g), m */
/* slip c_slip v0: t = 2 (1 - c_slip) v0 / (7 mu g) (s) and the distance v0 t - mu g t^2 / 2 (m) */
double e7_roll_time_at(const e7_setup *e);
double e7_roll_distance_at(const e7_setup *e);

/* what one run of (a)-(c) measured from its per-step state */
typedef struct e7_measure {
    double stop_time, distance;        /* (a): the speed's first crossing of a_stop (s, interpolated
                                        * between steps; NAN: never), the displacement at the end (m) */
    double accel, creep, displacement; /* (b): fitted m/s^2, mean velocity (m/s) from b_fit_from
                                        * on; m at the end */
    double roll_time, roll_speed, roll_distance; /* (c): the slip's first crossing of c_slip v0
                                                  * (s, interpolated; NAN: never), v at the end
                                                  * (m/s), x at that time (m, interpolated) */
} e7_measure;

/* the measures of a run of scene (E7_SLIDE, E7_INCLINE, E7_ROLL) from its per-step samples after
 * steps 1..n: displacement x (m) along +x, velocity v (m/s) along +x, the sliding speed |v| (m/s),
 * and for the ball omega_y r (m/s) */
e7_measure e7_measure_run(const e7_setup *e, int scene, long n, const double *x, const double *v,
                          const double *speed, const double *wr);

/* one simulation of (a)-(c) with method m in scene sc: x, v, speed and omega_y r of body 1 after
 * every step into arrays of steps = ceil(seconds / dt) doubles; it->status set on failure */
void e7_simulate(const e7_setup *e, int scene, const tc_scene *sc, const tc_method *m, double *x,
                 double *v, double *speed, double *wr, long *done, tc_item *it);

/* touching parts: the convex parts (a compound's boxes and spheres, every other body's shape)
 * of two bodies, one of them moving, whose surfaces are closer than margin (m): each such pair
 * of parts is one contact, counted the same way for every method (the body pairs from the
 * library's broad phase, collide/tc_broadphase.h, then libccd on the parts grown by margin / 2).
 * Work space for scene sc (kept, not copied) and a margin, allocated once per run (NULL: out of
 * memory); e7_touching returns the count at the bodies' states bs, -1 when out of memory */
typedef struct e7_touch e7_touch;
e7_touch *e7_touch_alloc(const tc_scene *sc, double margin);
void e7_touch_free(e7_touch *w);
int e7_touching(e7_touch *w, const tc_body_state *bs);

/* the slope and intercept of log y = b + slope log x over the n points with x, y > 0; returns
 * the points used (NAN slope and intercept with fewer than two) */
int e7_loglog_fit(const double *xs, const double *ys, int n, double *slope, double *b);

/* `touche bench piles` */
extern const struct tc_bench_def e7_bench; /* exp/tc_bench.h */

#endif
