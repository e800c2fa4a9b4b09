/* SPDX-License-Identifier: MIT */
/* registries of descriptors (models, solvers, engines, experiments): the built-in table that a
 * new file adds one line to, plus descriptors registered at run time (a test's own model, a
 * program embedding touche), looked up by name */
#ifndef TC_REGISTRY_H
#define TC_REGISTRY_H

#include <stddef.h>

#include "core/tc_status.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_REGISTRY_EXTRA 16 /* descriptors that can be registered at run time, per registry */

typedef struct tc_registry {
    const void *const *builtin; /* NULL-terminated table of descriptor pointers */
    size_t name_offset;         /* offsetof(descriptor type, name): a const char * member */
    const char *what;           /* "model", "solver", ... for messages */
    const void *extra[TC_REGISTRY_EXTRA];
    int nextra;
} tc_registry;

/* the i-th descriptor (built-in ones first, then the registered ones in order), NULL past the
 * end; the number of descriptors */
const void *tc_registry_at(const tc_registry *r, int i);
int tc_registry_count(const tc_registry *r);

/* the descriptor called name, or NULL */
const void *tc_registry_find(const tc_registry *r, const char *name);

/* register d (not thread-safe: call before any run starts). TC_EINVAL for a NULL descriptor or
 * an empty name or one that is taken, or when TC_REGISTRY_EXTRA are already registered */
tc_status tc_registry_add(tc_registry *r, const void *d, tc_error *err);

/* the names, comma-separated, into buf */
void tc_registry_names(const tc_registry *r, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
