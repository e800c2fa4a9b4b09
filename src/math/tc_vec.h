/* SPDX-License-Identifier: MIT */
/* 3-vectors, 3x3 matrices (row-major) and unit quaternions (w, x, y, z) */
#ifndef TC_VEC_H
#define TC_VEC_H

#include <math.h>

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

/* vector algebra */
static inline void tc_v3_set(double r[3], double x, double y, double z) {
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
static inline void tc_v3_copy(double r[3], const double a[3]) {
    r[0] = a[0];
    r[1] = a[1];
    r[2] = a[2];
}
static inline void tc_v3_add(double r[3], const double a[3], const double b[3]) {
    r[0] = a[0] + b[0];
    r[1] = a[1] + b[1];
    r[2] = a[2] + b[2];
}
static inline void tc_v3_sub(double r[3], const double a[3], const double b[3]) {
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
static inline void tc_v3_scale(double r[3], const double a[3], double s) {
    r[0] = a[0] * s;
    r[1] = a[1] * s;
    r[2] = a[2] * s;
}
/* r += s * a */
static inline void tc_v3_addscl(double r[3], const double a[3], double s) {
    r[0] += a[0] * s;
    r[1] += a[1] * s;
    r[2] += a[2] * s;
}
static inline double tc_v3_dot(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline double tc_v3_norm(const double a[3]) {
    return sqrt(tc_v3_dot(a, a));
}
static inline void tc_v3_cross(double r[3], const double a[3], const double b[3]) {
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
           z = a[0] * b[1] - a[1] * b[0];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
/* normalise in place; returns the old length (0 leaves a unchanged) */
static inline double tc_v3_normalize(double a[3]) {
    double n = tc_v3_norm(a);
    if (n > 0) tc_v3_scale(a, a, 1.0 / n);
    return n;
}

/* t1, t2 completing the unit vector n to a right-handed orthonormal basis (t1, t2, n); t1 is
 * built from the axis least aligned with n, so the result is a fixed function of n */
static inline void tc_v3_orthonormal(const double n[3], double t1[3], double t2[3]) {
    double e[3] = {0, 0, 0};
    int k = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                     : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
    e[k] = 1;
    tc_v3_cross(t1, e, n);
    tc_v3_normalize(t1);
    tc_v3_cross(t2, n, t1);
}

/* matrices: r = M a, r = M^T a */
static inline void tc_m3_mulv(double r[3], const double m[9], const double a[3]) {
    double x = m[0] * a[0] + m[1] * a[1] + m[2] * a[2];
    double y = m[3] * a[0] + m[4] * a[1] + m[5] * a[2];
    double z = m[6] * a[0] + m[7] * a[1] + m[8] * a[2];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
static inline void tc_m3_mulvt(double r[3], const double m[9], const double a[3]) {
    double x = m[0] * a[0] + m[3] * a[1] + m[6] * a[2];
    double y = m[1] * a[0] + m[4] * a[1] + m[7] * a[2];
    double z = m[2] * a[0] + m[5] * a[1] + m[8] * a[2];
    r[0] = x;
    r[1] = y;
    r[2] = z;
}

/* quaternions: identity, product, rotation matrix, integration by a world angular velocity */
static inline void tc_quat_identity(double q[4]) {
    q[0] = 1;
    q[1] = q[2] = q[3] = 0;
}
static inline void tc_quat_mul(double r[4], const double a[4], const double b[4]) {
    double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    r[0] = w;
    r[1] = x;
    r[2] = y;
    r[3] = z;
}
static inline void tc_quat_normalize(double q[4]) {
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (n > 0)
        for (int i = 0; i < 4; i++)
            q[i] /= n;
}
static inline void tc_quat_to_mat(double m[9], const double q[4]) {
    double w = q[0], x = q[1], y = q[2], z = q[3];
    m[0] = 1 - 2 * (y * y + z * z);
    m[1] = 2 * (x * y - w * z);
    m[2] = 2 * (x * z + w * y);
    m[3] = 2 * (x * y + w * z);
    m[4] = 1 - 2 * (x * x + z * z);
    m[5] = 2 * (y * z - w * x);
    m[6] = 2 * (x * z - w * y);
    m[7] = 2 * (y * z + w * x);
    m[8] = 1 - 2 * (x * x + y * y);
}
/* q <- exp(dt * omega / 2) * q  (omega in the world frame, rad/s; exact rotation) */
static inline void tc_quat_integrate(double q[4], const double omega[3], double dt) {
    double a = tc_v3_norm(omega) * dt;
    if (a == 0) return;
    double s = sin(0.5 * a) / (a / dt),
           dq[4] = {cos(0.5 * a), omega[0] * s, omega[1] * s, omega[2] * s};
    tc_quat_mul(q, dq, q);
    tc_quat_normalize(q);
}

/* n integers in ascending order, in place: insertion, for the few of a triangle's vertex key or
 * a contact's point order */
static inline void tc_sort_int(int *v, int n) {
    for (int i = 1; i < n; i++) {
        const int x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

#ifdef __cplusplus
}
#endif

#endif
