/* SPDX-License-Identifier: MIT */
/* E1 (sphere force profiles): the measures its verdicts rest on, for the driver and the tests */
#ifndef TC_E1_H
#define TC_E1_H

#include "exp/tc_experiment.h"

/* the separation width eps2 (m) above which a small sphere of radius r (m) nested at the centre
 * of a big one of radius R (m) is an unstable equilibrium of SCM (eq. 21-23), for continuous
 * spheres in the limits eps1 -> 0 (each point pushed along the big sphere's radial normal),
 * eps3 << R - r (the softplus linear) and small displacements c: the force on the small sphere
 * is (k c / 3) (2 (R - r) / r - 1 - (R - r) / eps2). The normals' tilt pushes it away
 * (2 (R - r) / r), the deeper far side pushes it back (1), and so does the separation softmin,
 * which weights that deeper side more ((R - r) / eps2). Unstable when eps2 > (R - r) r /
 * (2 R - 3 r), which needs R > 1.5 r; INFINITY (never) otherwise. Derivation:
 * experiments/e1/README.md */
double e1_centre_eps2_crit(double R, double r);

/* the cost study's figure: the cost at the most points in contact over the cost at the fewest
 * (at least one), both from the least-squares line t = a + b n through the np positions with
 * n > 0 (t: cost per query, s; n: points in contact); *nratio gets the ratio of those counts,
 * what a cost proportional to the points in contact gives. NaN without two counts */
double e1_cost_ratio(const int *n, const double *t, int np, double *nratio);

#endif
