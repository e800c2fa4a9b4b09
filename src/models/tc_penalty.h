/* SPDX-License-Identifier: MIT */
/* the penalty models' force law and integral term (Drumwright 2008, eq. 2-3), for tests */
#ifndef TC_PENALTY_H
#define TC_PENALTY_H

/* eq. 2 one step on: I_t = forget * I_(t-1) + depth_(t-1), depths in m */
double tc_penalty_integral_update(double integral, double forget, double depth);

/* eq. 3: |f| = max((kp depth - kv vn + ki integral) / r, 0) in N, with gains in N/m, N s/m,
 * N/m, depth and integral in m, vn the separating normal speed (m/s, > 0 separating) and r the
 * number of points that push (r <= 0 counts as 1) */
double tc_penalty_magnitude(double kp, double kv, double ki, double depth, double vn,
                            double integral, int r);

#endif
