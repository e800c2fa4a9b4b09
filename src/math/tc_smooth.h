/* SPDX-License-Identifier: MIT */
/* smooth approximations: exp, softplus, softmax, logsumexp (stable and vectorisable) */
#ifndef TC_SMOOTH_H
#define TC_SMOOTH_H

#include <stdint.h>
#include <string.h>

/* exp(x) for x <= 0, branch-free so loops vectorise and every element takes one code path
 * (determinism: the same arithmetic in vector body and scalar tail). Relative error < 5e-16 on
 * [-680, 0]; exactly 0 below -680 (e^-680 = 5e-296), so products of such weights with the
 * kernels' other factors never become subnormal (subnormal arithmetic is ~100x slower). */
static inline double tc_exp_neg(double x) {
    const double x0 = x;
    /* clamp, then x = k ln2 + r with |r| <= ln2/2 */
    x = x < -708.0 ? -708.0 : x;
    x = x > 0.0 ? 0.0 : x;
    const double shift = 0x1.8p52;
    double kd = x * 0x1.71547652b82fep0 + shift;
    uint64_t kb;
    memcpy(&kb, &kd, sizeof kb);
    kd -= shift;
    double r = x - kd * 0x1.62e42feep-1; /* Cody–Waite split of ln2 */
    r = r - kd * 1.90821492927058770002e-10;
    /* degree-13 Taylor polynomial of exp(r) (Horner); truncation < 5e-18 for |r| <= ln2/2 */
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    /* scale by 2^k through the exponent bits (k is in the low mantissa bits of kd + shift) */
    uint64_t sb = (kb + 1023u) << 52;
    double s;
    memcpy(&s, &sb, sizeof s);
    return x0 < -680.0 ? 0.0 : p * s;
}

/* log(1 + e) for e in [0, 1], relatively accurate also for tiny e, branch-free:
 * log(1+e) = 2 atanh(s), s = e / (2 + e) in [0, 1/3] */
static inline double tc_log1p_unit(double e) {
    double s = e / (2.0 + e), s2 = s * s;
    double p = 1.0 / 37.0;
    p = p * s2 + 1.0 / 35.0;
    p = p * s2 + 1.0 / 33.0;
    p = p * s2 + 1.0 / 31.0;
    p = p * s2 + 1.0 / 29.0;
    p = p * s2 + 1.0 / 27.0;
    p = p * s2 + 1.0 / 25.0;
    p = p * s2 + 1.0 / 23.0;
    p = p * s2 + 1.0 / 21.0;
    p = p * s2 + 1.0 / 19.0;
    p = p * s2 + 1.0 / 17.0;
    p = p * s2 + 1.0 / 15.0;
    p = p * s2 + 1.0 / 13.0;
    p = p * s2 + 1.0 / 11.0;
    p = p * s2 + 1.0 / 9.0;
    p = p * s2 + 1.0 / 7.0;
    p = p * s2 + 1.0 / 5.0;
    p = p * s2 + 1.0 / 3.0;
    p = p * s2 + 1.0;
    return 2.0 * s * p;
}

/* softplus s+_eps(x) = eps log(1 + exp(x/eps)), stable for any x (eps > 0, units of x) */
static inline double tc_softplus(double x, double eps) {
    double ax = x < 0 ? -x : x;
    double relu = x > 0 ? x : 0.0;
    return relu + eps * tc_log1p_unit(tc_exp_neg(-ax / eps));
}

/* logistic sigmoid of x/eps: the derivative of tc_softplus with respect to x */
static inline double tc_sigmoid(double x, double eps) {
    double ax = x < 0 ? -x : x;
    double e = tc_exp_neg(-ax / eps);
    double s = 1.0 / (1.0 + e);
    return x >= 0 ? s : e * s;
}

/* w <- softmax(x / eps) (max subtracted); returns logsumexp(x / eps) * eps */
double tc_softmax(double *w, const double *x, int n, double eps);

/* eps * log(sum exp(x_i / eps)), stable */
double tc_logsumexp(const double *x, int n, double eps);

#endif
