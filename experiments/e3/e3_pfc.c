/* SPDX-License-Identifier: MIT */
/* E3: pressure-field force of a rigid sinusoid on a layer with the linear field E x depth, and
 * the pressure-field contact surface of a sphere on a half-space */
#include "experiments/e3/e3.h"

#include "dyn/tc_system.h"
#include "scenes/tc_scenes.h"

#include <math.h>
#include <stdlib.h>

double e3_pfc_force(double eta, double lambda, double E, double d, int n) {
    /* the rigid surface's penetration at x: d - eta (1 - cos kx), crest (first touch) at x = 0;
     * the traction's vertical component integrates to E times the penetration over dx */
    const double k = 2 * M_PI / lambda, h = lambda / n;
    double s = 0;
    for (int i = 0; i < n; i++) {
        double x = (i + 0.5) * h, pen = d - eta * (1 - cos(k * x));
        s += pen > 0 ? pen : 0;
    }
    return E * s * h;
}

double e3_pfc_force_exact(double eta, double lambda, double E, double d) {
    const double k = 2 * M_PI / lambda;
    if (d <= 0) return 0;
    /* full contact once the troughs touch */
    if (eta <= 0 || d >= 2 * eta) return E * lambda * (d - eta);
    /* contact on |x| < a with eta (1 - cos ka) = d */
    double a = acos(1 - d / eta) / k;
    return E * (2 * (d - eta) * a + 2 * eta * sin(k * a) / k);
}

double e3_curve_deviation(const double *d, const double *ref, const double *model, int n,
                          double dlo, double dhi) {
    double worst = NAN;
    for (int i = 0; i < n; i++) {
        if (!(d[i] >= dlo - 1e-12 && d[i] <= dhi + 1e-12)) continue;
        if (!(ref[i] > 0)) return NAN;
        double dev = fabs(model[i] / ref[i] - 1);
        /* a NaN model value makes the whole deviation NaN (fmax would drop it) */
        if (isnan(dev)) return NAN;
        worst = isnan(worst) ? dev : fmax(worst, dev);
    }
    return worst;
}

tc_status e3_surface(double r, double depth, double E, double k, int level, tc_pfc_polygon **poly,
                     int *n, tc_error *err) {
    *poly = NULL;
    *n = 0;
    /* the ground (body 0) and the free sphere with its lowest point depth below it */
    tc_scene sc;
    const double pos[3] = {0, 0, r - depth};
    tc_status st = tc_scene_ground(&sc, 0, 0, err);
    if (!st) st = tc_scene_add_free(&sc, "ball", tc_sphere(r), pos, NULL, 1000, err);
    if (st) return st;
    /* pfc with the half-space k times as stiff: its layer r / k thick */
    tc_params p;
    tc_params_default(&p, tc_model_pfc.params);
    if ((st = tc_params_set(&p, "E", E, err)) || (st = tc_params_set(&p, "plane_h", r / k, err)) ||
        (st = tc_params_set(&p, "resolution", level, err)))
        return st;
    void *state = NULL;
    if ((st = tc_model_pfc.alloc(&state, &sc, &p, err))) return st;
    /* the poses at rest, then the polygons: counted first, then collected */
    tc_system sys;
    double q[TC_SCENE_MAXBODY * 7], v[TC_SCENE_MAXBODY * 6];
    tc_body_state bs[TC_SCENE_MAXBODY];
    tc_system_init(&sys, &sc);
    tc_system_initial_state(&sys, q, v);
    tc_system_kinematics(&sys, 0, q, NULL, bs);
    int m = tc_pfc_surface(state, bs, NULL, 0);
    st = m < 0 ? TC_EDIVERGED : TC_OK;
    if (m > 0 && !(*poly = malloc((size_t)m * sizeof **poly)))
        st = TC_ENOMEM;
    else if (m > 0 && tc_pfc_surface(state, bs, *poly, m) != m)
        st = TC_EDIVERGED;
    tc_model_pfc.free(state);
    if (st) {
        free(*poly);
        *poly = NULL;
        return tc_error_set(err, st, NULL, 0, NULL, "pfc: no contact surface for k = %g", k);
    }
    *n = m;
    return TC_OK;
}
