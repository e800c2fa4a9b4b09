/* SPDX-License-Identifier: MIT */
/* E3 (FEM sinusoid comparison): the pressure-field force of a rigid sinusoid on a compliant
 * layer, its deviation from the FEM curve, and pfc's contact surface of a sphere on a half-space */
#ifndef TC_E3_H
#define TC_E3_H

#include "exp/tc_experiment.h"
#include "models/tc_pfc.h"

/* pressure-field normal force per unit out-of-plane width of a rigid sinusoid with amplitude eta
 * and wavelength lambda pressed a depth d (from first touch) into a layer whose pressure field is
 * E x (depth below the surface): E times the integral of the penetration over one period, by the
 * midpoint rule on n segments of the rigid surface */
double e3_pfc_force(double eta, double lambda, double E, double d, int n);

/* the same in closed form */
double e3_pfc_force_exact(double eta, double lambda, double E, double d);

/* how far a model's normalised force curve strays from the reference's along depth: the largest
 * |model[i] / ref[i] - 1| over the samples i whose depth d[i] (1) lies in [dlo, dhi]; model and
 * ref are normalised forces (1) at the n depths d. NaN when no sample lies in the range or a
 * reference value there is not positive (a ratio to it means nothing) */
double e3_curve_deviation(const double *d, const double *ref, const double *model, int n,
                          double dlo, double dhi);

/* the pressure-field contact surface (Elandt et al. fig. 1) of a soft sphere of radius r (m)
 * pressed depth (m) into a soft half-space z < 0, by touche's pfc model: the sphere's field
 * p0 = E (1 - |x - centre| / r) on its tet mesh (icosphere level), the half-space's
 * p0 = k E (-z) / r (a compliant layer of thickness plane_h = r / k), so k is the half-space's
 * modulus over the sphere's. *poly (malloc'd, the caller frees it) gets the *n polygons with the
 * pressure (Pa) at their vertices; errors: the model's, TC_ENOMEM */
tc_status e3_surface(double r, double depth, double E, double k, int level, tc_pfc_polygon **poly,
                     int *n, tc_error *err);

#endif
