/* SPDX-License-Identifier: MIT */
/* E3: pressure-field force of a rigid sinusoid on a layer with the linear field E x depth */
#include "e3.h"

#include <math.h>

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
