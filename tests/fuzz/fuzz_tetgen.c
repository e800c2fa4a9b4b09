/* SPDX-License-Identifier: MIT */
/* libFuzzer: tetgen's output (tc_tetmesh_read_tetgen). The input is cut at lines "@@" into
 * in.1.node, in.1.ele and in.1.face (a part not given is an empty file; a fourth part goes into
 * the face file) in this process's scratch folder, which has no tetgen.log; a mesh read gets its
 * surface built, as the Laplace builder does next, then the mesh and its roles are freed */
#include "geom/tc_tetmesh_build.h"
#include "fuzz_common.h"

#include <string.h>

/* the files the reader reads, in the order of the input's parts */
static const char *const parts[3] = {"in.1.node", "in.1.ele", "in.1.face"};

/* the start of the line after the next separator line "@@" from p (end: none) */
static const uint8_t *next_part(const uint8_t *p, const uint8_t *end, const uint8_t **cut) {
    for (const uint8_t *l = p; l < end;) {
        const uint8_t *nl = memchr(l, '\n', (size_t)(end - l));
        const uint8_t *e = nl ? nl : end;
        if (e - l == 2 && l[0] == '@' && l[1] == '@') {
            *cut = l;
            return nl ? nl + 1 : end;
        }
        l = nl ? nl + 1 : end;
    }
    *cut = end;
    return end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *dir = fuzz_scratch_folder();
    char path[4200];
    /* the three files: up to the first separator, the second, then the rest */
    const uint8_t *p = data, *end = data + size;
    for (int k = 0; k < 3; k++) {
        const uint8_t *cut = end, *next = k < 2 ? next_part(p, end, &cut) : end;
        snprintf(path, sizeof path, "%s/%s", dir, parts[k]);
        fuzz_write(path, p, (size_t)(cut - p));
        p = next;
    }
    tc_tetmesh *m = NULL;
    signed char *role = NULL;
    tc_error err;
    tc_error_clear(&err);
    if (tc_tetmesh_read_tetgen(dir, 1e5, &m, &role, &err) == TC_OK) {
        /* every role one of the three, every tet's vertices in the mesh */
        for (int i = 0; i < m->nvert; i++)
            if (role[i] < TC_EPS_FREE || role[i] > TC_EPS_CORE)
                fuzz_fail("vertex %d has role %d", i, role[i]);
        for (int i = 0; i < 4 * m->ntet; i++)
            if (m->tet[i] < 0 || m->tet[i] >= m->nvert)
                fuzz_fail("tet %d refers to vertex %d of %d", i / 4, m->tet[i], m->nvert);
        tc_tetmesh_build_surface(m);
        tc_tetmesh_free(m);
        free(role);
    } else if (m || role)
        fuzz_fail("a refused input left a mesh or roles (%s)", err.msg);
    return 0;
}
