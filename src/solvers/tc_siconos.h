/* SPDX-License-Identifier: MIT */
/* what touche needs around Siconos Numerics' own API */
#ifndef TC_SICONOS_H
#define TC_SICONOS_H

#include "SolverOptions.h"

/* release options made by solver_options_create, and the options of their internal solvers:
 * Siconos 4.4's solver_options_delete clears and frees the members, but neither the struct nor
 * the internal solvers' structs (120 bytes each, found by LeakSanitizer); NULL is a no-op */
void tc_siconos_options_free(SolverOptions *o);

#endif
