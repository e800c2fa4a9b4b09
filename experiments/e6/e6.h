/* SPDX-License-Identifier: MIT */
/* E6 (block stacking): setup, the stacks and the speed study, shared by the driver, `touche
 * bench contact-ip` and the tests */
#ifndef TC_E6_H
#define TC_E6_H

#include "experiments/e56/e56.h"

#define E6_MAXSPEED 16 /* methods timed side by side */

typedef struct e6_setup {
    e56_polygon block; /* the square, A x <= b in its own frame */
    e56_grid grid;
    double gravity, friction, thickness; /* m/s^2, Coulomb coefficient, prism half thickness (m) */
    int nstack; /* two-block stacks: the bottom block shifted by shift * (first + i),
                 * i < nstack */
    int first;
    double shift;              /* m */
    double up_height, up_tilt; /* the tower is up: top within up_height (m) of its start, tilt
                                * below up_tilt (rad) */
    /* the tall stack: blocks, one rate (Hz) and tolerance */
    int tall_n;
    double tall_rate, tall_tol;
    /* the speed study: a block dropped from drop_y (m, its centre), steps at rate (Hz); the
     * ratio num / den of the mean step times (labels) */
    int speed_steps;
    double speed_rate, speed_y;
    char ratio_num[TC_LABEL_MAX + 1], ratio_den[TC_LABEL_MAX + 1];
} e6_setup;

tc_status e6_read_setup(const tc_script *s, e6_setup *e, tc_error *err);

/* n blocks stacked at rest, touching exactly, centres at x = 0 except the bottom one at
 * shift_x (m); the ground is body 0, the blocks 1..n bottom up */
tc_status e6_stack_scene(const e6_setup *e, int n, double shift_x, tc_scene *sc, tc_error *err);

/* the studies the sweep runs: the nstack two-block stacks, and the tall stack */
e56_study e6_study(const e6_setup *e);
e56_study e6_tall_study(const e6_setup *e);

/* one method's step times in the speed study */
typedef struct e6_speed_row {
    long steps;       /* done (fewer when a step failed) */
    int failed;       /* it could not start, a step failed, or the outcome is physically
                       * absurd (through the floor, energy from nothing): no timing of it */
    tc_status status; /* why (TC_OK when it ran to an outcome that makes sense) */
    char reason[200];
    double mean_s, median_s, p90_s, total_s;
    double iters_per_step;
} e6_speed_row;

/* the speed study: the block dropped on the floor, speed_steps steps of each of x's methods, one
 * after the other on this thread, each step timed; a row per method. A method that cannot start
 * gets steps 0 and its reason; a failed step or an absurd outcome fails it with its reason */
tc_status e6_speed(const e6_setup *e, const tc_exp *x, e6_speed_row *rows, tc_error *err);

/* the ratio of the median step times of ratio_num over ratio_den, NaN unless both ran to a sound
 * outcome */
double e6_speed_ratio(const tc_exp *x, const e6_setup *e, const e6_speed_row *rows);

/* `touche bench contact-ip` */
extern const struct tc_bench_def e6_bench; /* exp/tc_bench.h */

#endif
