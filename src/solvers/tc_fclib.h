/* SPDX-License-Identifier: MIT */
/* FCLIB files (FCLIB 3.1, HDF5; docs/fclib.md): a step's 3-D local friction-contact problem and
 * its solution written with fclib_write_local and fclib_write_solution, read back by a
 * validating reader of touche's own on HDF5 (FCLIB's reader exits the process on a malformed
 * file), and FCLIB's merit function. Every HDF5 call goes through one process-wide lock: the
 * Debian HDF5 is not thread-safe, and `touche run` writes from its OpenMP sweeps */
#ifndef TC_FCLIB_H
#define TC_FCLIB_H

#include <stddef.h>

#include "solvers/tc_fc_problem.h"

/* the most a file may declare: contacts and stored entries of W (a larger file is refused
 * before anything is allocated for it) */
#define TC_FCLIB_MAX_CONTACTS 1000000
#define TC_FCLIB_MAX_NNZ      50000000

/* what a file says about itself (its /fclib_local/info strings, truncated to fit; "" if none) */
typedef struct tc_fclib_info {
    char title[256];
    char description[1024];
    char math_info[256];
} tc_fclib_info;

/* write p (and its solution r, u when p->has_solution) to path as an FCLIB local problem
 * (spacedim 3, W in compressed columns) with its info strings (title, description may be NULL);
 * written to a temporary file beside it and renamed, so an existing file is replaced whole or
 * not at all. TC_EIO naming the file and why */
tc_status tc_fclib_write(const char *path, const tc_fc_problem *p, const char *title,
                         const char *description, tc_error *err);

/* read an FCLIB local problem (and its solution when the file holds one) from path: every
 * dataset checked before use (present, one-dimensional, of the right type and length), W taken
 * in any of FCLIB's three layouts (compressed columns or rows, triplets) into compressed columns
 * with rows increasing and duplicates summed, then tc_fc_problem_check. info may be NULL.
 * TC_EIO (unreadable, not HDF5) or TC_EPARSE, err naming the file and the field */
tc_status tc_fclib_read(const char *path, tc_fc_problem **out, tc_fclib_info *info, tc_error *err);

/* the same from an HDF5 file image in memory (buf[len]); name stands for the file in errors */
tc_status tc_fclib_read_image(const void *buf, size_t len, const char *name, tc_fc_problem **out,
                              tc_fclib_info *info, tc_error *err);

/* FCLIB's merit (fclib_merit_local, MERIT_1) of impulses r (u = W r + q recomputed by FCLIB):
 * the natural-map residual over 1 + sqrt(|q|) (docs/fclib.md) */
double tc_fclib_merit(const tc_fc_problem *p, const double *r);

#endif
