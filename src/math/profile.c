/* SPDX-License-Identifier: MIT */
/* smoothness of a sampled profile: jump ratios */
#include "math/tc_profile.h"

#include <math.h>

/* the largest |k-th difference of f| / h^(k-1) (order k = 1, 2, 3) over the stencils whose
 * samples all lie in the window lo <= |y| <= hi: at spacing h a continuous f^(k-1) makes it
 * shrink with h, a jump in f^(k-1) keeps it */
static double largest_diff(const double *f, const double *y, int n, double h, int order, double lo,
                           double hi) {
    double big = 0;
    for (int i = 0; i + order < n; i++) {
        int in = 1;
        for (int j = 0; j <= order; j++)
            in &= fabs(y[i + j]) >= lo - 1e-12 && fabs(y[i + j]) <= hi + 1e-12;
        if (!in) continue;
        double d = order == 1   ? f[i + 1] - f[i]
                   : order == 2 ? (f[i + 2] - 2 * f[i + 1] + f[i]) / h
                                : (f[i + 3] - 3 * f[i + 2] + 3 * f[i + 1] - f[i]) / (h * h);
        big = fmax(big, fabs(d));
    }
    return big;
}

double tc_jump_ratio(const double *yc, const double *fc, int nc, const double *yf, const double *ff,
                     int nf, double h, int order, double lo, double hi) {
    double c = largest_diff(fc, yc, nc, h, order, lo, hi),
           f = largest_diff(ff, yf, nf, h / 2, order, lo, hi);
    return f > 0 ? c / f : NAN;
}
