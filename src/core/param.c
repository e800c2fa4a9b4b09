/* SPDX-License-Identifier: MIT */
/* parameter sets: defaults, checked assignment, lookup */
#include "core/tc_param.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_param_spec_count(const tc_param_spec *spec) {
    int n = 0;
    while (spec && spec[n].name)
        n++;
    return n;
}

void tc_params_default(tc_params *p, const tc_param_spec *spec) {
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->n = tc_param_spec_count(spec);
    if (p->n > TC_PARAM_MAX) {
        fprintf(stderr, "touche: internal error: %d parameters exceed TC_PARAM_MAX\n", p->n);
        abort();
    }
    for (int i = 0; i < p->n; i++)
        p->v[i] = spec[i].def;
}

int tc_params_find(const tc_params *p, const char *name) {
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->spec[i].name, name) == 0) return i;
    return -1;
}

tc_status tc_params_set(tc_params *p, const char *name, double value, tc_error *err) {
    int i = tc_params_find(p, name);
    if (i < 0) {
        char known[512] = "";
        for (int j = 0; j < p->n; j++) {
            strncat(known, j ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, p->spec[j].name, sizeof known - strlen(known) - 1);
        }
        return tc_error_set(err, TC_ENOTFOUND, NULL, 0, name, "unknown parameter (known: %s)",
                            p->n ? known : "none");
    }
    const tc_param_spec *s = &p->spec[i];
    /* check finiteness, kind and range */
    if (!isfinite(value))
        return tc_error_set(err, TC_EINVAL, NULL, 0, name, "must be a finite number (got %g)",
                            value);
    const int whole =
        s->kind == TC_PARAM_INT || s->kind == TC_PARAM_BOOL || s->kind == TC_PARAM_ITERS;
    if (whole && value != floor(value))
        return tc_error_set(err, TC_EINVAL, NULL, 0, name, "must be an integer (got %g)", value);
    if (s->kind == TC_PARAM_BOOL && value != 0 && value != 1)
        return tc_error_set(err, TC_EINVAL, NULL, 0, name, "must be 0 or 1 (got %g)", value);
    if (s->lo <= s->hi && (value < s->lo || value > s->hi))
        return tc_error_set(err, TC_EINVAL, NULL, 0, name, "must lie in [%g, %g] %s (got %g)",
                            s->lo, s->hi, s->unit, value);
    p->v[i] = value;
    return TC_OK;
}

double tc_params_get(const tc_params *p, const char *name) {
    int i = tc_params_find(p, name);
    if (i < 0) {
        fprintf(stderr, "touche: internal error: no parameter '%s'\n", name);
        abort();
    }
    return p->v[i];
}
