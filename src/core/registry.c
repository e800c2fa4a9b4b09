/* SPDX-License-Identifier: MIT */
/* registries: the built-in table, then run-time registrations, looked up by name */
#include "core/tc_registry.h"

#include <stdio.h>
#include <string.h>

/* the name member of descriptor d */
static const char *name_of(const tc_registry *r, const void *d) {
    return *(const char *const *)((const char *)d + r->name_offset);
}

int tc_registry_count(const tc_registry *r) {
    int n = 0;
    while (r->builtin && r->builtin[n])
        n++;
    return n + r->nextra;
}

const void *tc_registry_at(const tc_registry *r, int i) {
    if (i < 0) return NULL;
    int nb = tc_registry_count(r) - r->nextra;
    if (i < nb) return r->builtin[i];
    return i - nb < r->nextra ? r->extra[i - nb] : NULL;
}

const void *tc_registry_find(const tc_registry *r, const char *name) {
    for (int i = 0; name && tc_registry_at(r, i); i++)
        if (strcmp(name_of(r, tc_registry_at(r, i)), name) == 0) return tc_registry_at(r, i);
    return NULL;
}

tc_status tc_registry_add(tc_registry *r, const void *d, tc_error *err) {
    const char *nm = d ? name_of(r, d) : NULL;
    if (!nm || !nm[0])
        return tc_error_set(err, TC_EINVAL, NULL, 0, r->what, "a %s needs a name", r->what);
    if (tc_registry_find(r, nm))
        return tc_error_set(err, TC_EINVAL, NULL, 0, r->what, "a %s called '%s' exists already",
                            r->what, nm);
    if (r->nextra >= TC_REGISTRY_EXTRA)
        return tc_error_set(err, TC_EINVAL, NULL, 0, r->what,
                            "at most %d %ss can be registered at run time", TC_REGISTRY_EXTRA,
                            r->what);
    r->extra[r->nextra++] = d;
    return TC_OK;
}

void tc_registry_names(const tc_registry *r, char *buf, size_t n) {
    if (n) buf[0] = 0;
    for (int i = 0; tc_registry_at(r, i); i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, n - l, "%s%s", i ? ", " : "", name_of(r, tc_registry_at(r, i)));
    }
}
