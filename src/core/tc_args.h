/* SPDX-License-Identifier: MIT */
/* command-line values: whole numbers, lists of them, reals and LABEL.PARAM=VALUE assignments,
 * each checked whole and in range; a bad one is a message on stderr naming the command and the
 * option (the caller exits 2) */
#ifndef TC_ARGS_H
#define TC_ARGS_H

#include <stddef.h>

/* "a,b,c": 1 to max whole numbers, each in [lo, hi], into out (*n of them); 0 after printing
 * "<who>: <opt>: ..." when arg is empty, holds anything else, or a value is out of range */
int tc_arg_ints(const char *who, const char *opt, const char *arg, long lo, long hi, int *out,
                int max, int *n);

/* one whole number in [lo, hi] */
int tc_arg_int(const char *who, const char *opt, const char *arg, long lo, long hi, int *out);

/* one finite number in [lo, hi] */
int tc_arg_real(const char *who, const char *opt, const char *arg, double lo, double hi,
                double *out);

/* "TARGET.PARAM=VALUE" (touche run --set): TARGET is what comes before the first '.', PARAM what
 * comes between it and the first '=' after it (it may hold '.'), VALUE a finite number. TARGET
 * goes into target (ntarget bytes with its NUL), PARAM into param (nparam bytes), VALUE into
 * *value; 0 after printing "<who>: <opt> '<arg>': ..." when a part is missing or empty, TARGET or
 * PARAM does not fit its buffer (refused, never cut), or VALUE is not a finite number */
int tc_arg_assign(const char *who, const char *opt, const char *arg, char *target, size_t ntarget,
                  char *param, size_t nparam, double *value);

#endif
