/* SPDX-License-Identifier: MIT */
/* command-line values: whole numbers, lists of them and reals, each checked whole and in range;
 * a bad one is a message on stderr naming the command and the option (the caller exits 2) */
#ifndef TC_ARGS_H
#define TC_ARGS_H

/* "a,b,c": 1 to max whole numbers, each in [lo, hi], into out (*n of them); 0 after printing
 * "<who>: <opt>: ..." when arg is empty, holds anything else, or a value is out of range */
int tc_arg_ints(const char *who, const char *opt, const char *arg, long lo, long hi, int *out,
                int max, int *n);

/* one whole number in [lo, hi] */
int tc_arg_int(const char *who, const char *opt, const char *arg, long lo, long hi, int *out);

/* one finite number in [lo, hi] */
int tc_arg_real(const char *who, const char *opt, const char *arg, double lo, double hi,
                double *out);

#endif
