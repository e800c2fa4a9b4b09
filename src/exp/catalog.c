/* SPDX-License-Identifier: MIT */
/* the catalog of experiments: the program hands the runner its built-in table
 * (tc_experiment_catalog, once at start), and experiments registered at run time follow it */
#include "exp/tc_experiment.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/tc_provenance.h"

static tc_registry catalog = {NULL, offsetof(tc_experiment_type, name), "experiment", {NULL}, 0};

void tc_experiment_catalog(const tc_experiment_type *const *builtin) {
    catalog.builtin = (const void *const *)builtin;
}

void tc_experiment_script(const tc_experiment_type *t, const char *source_dir, char *buf,
                          size_t n) {
    snprintf(buf, n, "%s/experiments/%s", source_dir ? source_dir : ".", t->script);
}

void tc_experiment_file(const tc_experiment_type *t, const char *source_dir, const char *file,
                        char *buf, size_t n) {
    const char *slash = strrchr(t->script, '/');
    const int len = slash ? (int)(slash - t->script) + 1 : 0;
    snprintf(buf, n, "%s/experiments/%.*s%s", source_dir ? source_dir : ".", len, t->script, file);
}

int tc_experiment_reference(void *ctx, const char *experiment, const char *tier, char *buf,
                            size_t n) {
    (void)ctx;
    for (int i = 0; tc_experiment_at(i); i++) {
        const tc_experiment_type *t = tc_experiment_at(i);
        if (strcmp(t->name, experiment)) continue;
        char file[64];
        snprintf(file, sizeof file, "reference.%s.cfg", tier);
        tc_experiment_file(t, tc_source_dir(), file, buf, n);
        return 1;
    }
    return 0;
}

const tc_experiment_type *tc_experiment_at(int i) {
    return tc_registry_at(&catalog, i);
}

tc_status tc_experiment_register(const tc_experiment_type *t, tc_error *err) {
    return tc_registry_add(&catalog, t, err);
}

const tc_experiment_type *tc_experiment_find(const char *name) {
    const tc_experiment_type *t = tc_registry_find(&catalog, name);
    if (t) return t;
    /* "e1" is short for "e1_sphere_profiles" */
    size_t n = strlen(name);
    for (int i = 0; n && tc_experiment_at(i); i++)
        if (!strncmp(tc_experiment_at(i)->name, name, n) && tc_experiment_at(i)->name[n] == '_')
            return tc_experiment_at(i);
    return NULL;
}
