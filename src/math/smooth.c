/* SPDX-License-Identifier: MIT */
/* softmax and logsumexp over arrays */
#include "math/tc_smooth.h"

#include <math.h>

double tc_softmax(double *w, const double *x, int n, double eps) {
    /* shift by the max so the largest weight is exp(0) = 1 */
    double m = -INFINITY;
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    double s = 0;
    for (int i = 0; i < n; i++) {
        w[i] = tc_exp_neg((x[i] - m) / eps);
        s += w[i];
    }
    for (int i = 0; i < n; i++)
        w[i] /= s;
    return m + eps * log(s);
}

double tc_logsumexp(const double *x, int n, double eps) {
    double m = -INFINITY, s = 0;
    for (int i = 0; i < n; i++)
        m = x[i] > m ? x[i] : m;
    for (int i = 0; i < n; i++)
        s += tc_exp_neg((x[i] - m) / eps);
    return m + eps * log(s);
}
