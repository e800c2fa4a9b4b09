/* SPDX-License-Identifier: MIT */
/* smoothness of a sampled profile: how a function's k-th differences shrink when the spacing
 * halves (E1's force profiles, E8's gradient landscapes) */
#ifndef TC_PROFILE_H
#define TC_PROFILE_H

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* the jump ratio of order k (1, 2, 3) of a profile sampled at spacing h (yc, fc: nc samples) and
 * at h/2 (yf, ff: nf samples): the largest |k-th difference| / h^(k-1) over the stencils whose
 * samples all lie in the window lo <= |y| <= hi (y's unit), at h over the same at h/2. 2 when
 * the (k-1)-th derivative of f is continuous (the difference shrinks with h); 0.67-1.5 when it
 * jumps (1 for k = 1), 0.5 when the one below jumps, 0.25 two below; NaN when the fine profile
 * is flat in the window */
double tc_jump_ratio(const double *yc, const double *fc, int nc, const double *yf, const double *ff,
                     int nf, double h, int order, double lo, double hi);

#ifdef __cplusplus
}
#endif

#endif
