/* SPDX-License-Identifier: MIT */
/* points along a Morton (Z-order) curve: runs of consecutive points in that order are compact
 * patches, so their bounding spheres cull well (SCM's blocks, the multi-point chunks, the
 * penetration query's point chunks) */
#ifndef TC_MORTON_H
#define TC_MORTON_H
#include "core/tc_status.h"

#include <stddef.h>

/* order[j] = the index of the j-th of n points along a Morton curve over their bounding cube (a
 * 2^10 grid on its longest side; ties by index, so the order does not depend on the sort).
 * Point i is (x[i * stride], y[i * stride], z[i * stride]) (m): stride 1 for separate coordinate
 * arrays, 3 for an array of double[3]. Allocates a work array: call at set-up, not in a step.
 * TC_ENOMEM when that fails */
tc_status tc_morton_order(int n, const double *x, const double *y, const double *z, size_t stride,
                          int *order);

#endif
