/* SPDX-License-Identifier: MIT */
/* the experiments' representative scenes for `touche bench all`: one entry per scene, built by
 * the experiment's own builders from its script (experiments/bench_scenes.c holds the table, as
 * experiments/registry.c holds the experiments), so the CLI reaches them without driver headers */
#ifndef TC_BENCH_SCENE_H
#define TC_BENCH_SCENE_H

#include "exp/tc_experiment.h"
#include "sim/tc_sim.h"

/* a scene as built: the step (s), the seconds MuJoCo settles it before the timing (a pile
 * dropped into its box lands first; 0: none), the simulated seconds after which a timed run
 * restarts from its starting state (the experiment's run length; 0: never), a start hook
 * (initial velocities, servo targets) with its context, and a one-line description */
typedef struct tc_bench_build {
    double dt, settle, horizon;
    void (*start)(const void *ctx, int i, tc_sim *sim);
    const void *ctx;
    void *own; /* the experiment's setup the hook reads (malloc'd; the caller frees it) */
    char what[160];
} tc_bench_build;

/* one scene: its name ("e4-pile"), the registered experiment whose script sizes it, whether
 * methods are timed on a static force query (0: TC_CAP_FORCE_QUERY) or a step (1:
 * TC_CAP_DYNAMICS), and its builder (x: the experiment planned at a tier; sc: zeroed by the
 * caller; b: zeroed) */
typedef struct tc_bench_scene {
    const char *name;
    const char *experiment;
    int dynamics;
    tc_status (*build)(const tc_exp *x, tc_scene *sc, tc_bench_build *b, tc_error *err);
} tc_bench_scene;

/* the i-th scene, NULL past the end */
const tc_bench_scene *tc_bench_scene_at(int i);

#endif
