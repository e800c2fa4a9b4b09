/* SPDX-License-Identifier: MIT */
/* the public interface of the installed library in one include: scenes, methods, simulations,
 * the model registry and the experiment runner (docs/library.md). Installed as
 * <prefix>/include/touche/touche.h; `pkg-config --cflags touche` puts <prefix>/include/touche on
 * the include path, so programs write #include <touche.h> (C or C++: the declarations have C
 * linkage) */
#ifndef TOUCHE_H
#define TOUCHE_H

/* bodies, shapes and the scene they make; ready-made scenes (a ground, boxes, piles) */
#include "dyn/tc_scene.h"
#include "scenes/tc_scenes.h"
/* methods by name ("scm", "penalty-mp/rk4", "mujoco") and simulations: alloc, step, force, free;
 * their one-step Jacobians (sim/tc_grad.h) */
#include "sim/tc_grad.h"
#include "sim/tc_sim.h"
/* one's own contact model: its type, parameter table and registration (docs/adding-a-model.md),
 * with the penetration geometry and vector helpers the built-in models use */
#include "math/tc_vec.h"
#include "models/tc_model.h"
#include "collide/tc_penetration.h"
/* the experiment runner: one's own experiment type and its registration
 * (docs/adding-an-experiment.md) */
#include "exp/tc_experiment.h"
#include "exp/tc_session.h"

#endif
