/* SPDX-License-Identifier: MIT */
/* E3 (FEM sinusoid comparison): the pressure-field force of a rigid sinusoid on a compliant layer */
#ifndef TC_E3_H
#define TC_E3_H

/* pressure-field normal force per unit out-of-plane width of a rigid sinusoid with amplitude eta
 * and wavelength lambda pressed a depth d (from first touch) into a layer whose pressure field is
 * E x (depth below the surface): E times the integral of the penetration over one period, by the
 * midpoint rule on n segments of the rigid surface */
double e3_pfc_force(double eta, double lambda, double E, double d, int n);

/* the same in closed form */
double e3_pfc_force_exact(double eta, double lambda, double E, double d);

#endif

/* regenerate E3's FEM cache (source_dir/<fem.cache> unless out_path) with CalculiX on the
 * production mesh, for every eta of the script, to depth 0.4 + eta (both depth conventions) */
#include "core/tc_status.h"
tc_status e3_generate(const char *source_dir, const char *out_path, tc_error *err);
