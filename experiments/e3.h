/* SPDX-License-Identifier: MIT */
/* E3 (FEM sinusoid comparison): the pressure-field force of a rigid sinusoid on a compliant
 * layer, and the generator of the FEM cache */
#ifndef TC_E3_H
#define TC_E3_H

#include "exp/tc_experiment.h"

/* pressure-field normal force per unit out-of-plane width of a rigid sinusoid with amplitude eta
 * and wavelength lambda pressed a depth d (from first touch) into a layer whose pressure field is
 * E x (depth below the surface): E times the integral of the penetration over one period, by the
 * midpoint rule on n segments of the rigid surface */
double e3_pfc_force(double eta, double lambda, double E, double d, int n);

/* the same in closed form */
double e3_pfc_force_exact(double eta, double lambda, double E, double d);

/* regenerate E3's FEM cache (o->source_dir/<fem.cache>, or o->out) with CalculiX on the
 * production mesh, for every eta of the script, to depth 0.4 + eta (both depth conventions) */
tc_status e3_generate(const tc_gen_opts *o, tc_error *err);

#endif
