/* SPDX-License-Identifier: MIT */
/* engine registry: every engine adapter, and lookup by name */
#include "engines/tc_engine.h"

#include <string.h>

extern const tc_engine_type tc_engine_mujoco;

/* the table, NULL-terminated */
const tc_engine_type *const tc_engines[] = {&tc_engine_mujoco, NULL};

const tc_engine_type *tc_engine_find(const char *name) {
    /* linear search: a handful of engines */
    for (int i = 0; tc_engines[i]; i++)
        if (strcmp(tc_engines[i]->name, name) == 0) return tc_engines[i];
    return NULL;
}
