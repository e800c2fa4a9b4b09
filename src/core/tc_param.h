/* SPDX-License-Identifier: MIT */
/* named, unit-carrying numeric parameters for models, solvers, engines and scenes */
#ifndef TC_PARAM_H
#define TC_PARAM_H

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_PARAM_MAX 32

/* parameter kinds: a real number, an integer, a 0/1 switch, an integer that caps the
 * iterations (or sub-steps) of one step: a step's work grows with it at worst, so the work
 * estimates scale by its value over its default (tc_method_work_factor), or a real length (m)
 * that spaces the sample points of a point-sampled model's surfaces: a surface of area A gets
 * about A / spacing^2 points (tc_work_points), and experiments that sweep the spacing (E2's
 * grid) set the parameter of this kind */
typedef enum tc_param_kind {
    TC_PARAM_REAL = 0,
    TC_PARAM_INT,
    TC_PARAM_BOOL,
    TC_PARAM_ITERS,
    TC_PARAM_SPACING
} tc_param_kind;

/* one parameter's specification; tables of these end with a {NULL} entry */
typedef struct tc_param_spec {
    const char *name;   /* as written in scripts, e.g. "eps1_rel" */
    double def;         /* default value */
    double lo, hi;      /* allowed closed range [lo, hi]; lo > hi means unbounded */
    tc_param_kind kind; /* real, integer, switch, iteration cap or sample spacing */
    const char *unit;   /* SI unit, e.g. "N/m", "m", "1" for dimensionless */
    const char *doc;    /* one line: what it is */
    const char *reason; /* one line: why this default (the papers publish none) */
} tc_param_spec;

/* a parameter set: values for one spec table */
typedef struct tc_params {
    const tc_param_spec *spec; /* NULL-terminated table */
    int n;                     /* number of entries in spec */
    double v[TC_PARAM_MAX];    /* current values, defaults until set */
} tc_params;

/* fill p with the defaults of spec */
void tc_params_default(tc_params *p, const tc_param_spec *spec);

/* index of name in p's spec, or -1 */
int tc_params_find(const tc_params *p, const char *name);

/* set one value after checking kind, range and finiteness; err names the parameter */
tc_status tc_params_set(tc_params *p, const char *name, double value, tc_error *err);

/* value by name (the name must exist: a typo is a programming error and aborts) */
double tc_params_get(const tc_params *p, const char *name);

/* number of entries of a NULL-terminated spec table */
int tc_param_spec_count(const tc_param_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
