/* SPDX-License-Identifier: MIT */
/* libFuzzer: touche's validating FCLIB reader (docs/fclib.md), on the decoded arrays: the input
 * after its first byte decodes into a problem's arrays (contacts, entries, column pointers, row
 * indices, W, q, r, u, mu; the first byte's bit 1: with a solution) that tc_fc_problem_check
 * judges, and whatever it accepts is used (the residual at r and at 0). With TOUCHE_FUZZ_HDF5=1
 * an even first byte instead hands the rest to tc_fclib_read_image as an HDF5 file image: off by
 * default, since Debian 12's HDF5 1.10.8 itself crashes on corrupted images within a minute
 * (SEGV in H5F__accum_read under H5G_traverse, docs/fuzzing.md), which no reader above it can
 * prevent */
#include <math.h>
#include <string.h>

#include "fuzz_common.h"
#include "solvers/tc_fclib.h"

/* the next n bytes of the input as a value (zero past the end) */
static void take(const uint8_t **d, size_t *left, void *out, size_t n) {
    memset(out, 0, n);
    size_t k = n < *left ? n : *left;
    memcpy(out, *d, k);
    *d += k;
    *left -= k;
}

/* an accepted problem is usable: its residual at r (and at 0) is finite or the check said no */
static void use(const tc_fc_problem *p) {
    double e = tc_fc_problem_residual(p, p->r);
    double *z = calloc((size_t)p->n, sizeof *z);
    if (!z) return;
    double e0 = tc_fc_problem_residual(p, z);
    free(z);
    /* finite inputs may still overflow to inf in W r; never to NaN from nothing */
    if (isnan(e0) && !isnan(e)) fuzz_fail("residual at 0 is NaN, at r %g", e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t mode = data[0];
    const uint8_t *d = data + 1;
    size_t left = size - 1;
    tc_error err;
    tc_error_clear(&err);
    static int hdf5 = -1;
    if (hdf5 < 0) {
        const char *e = getenv("TOUCHE_FUZZ_HDF5");
        hdf5 = e && !strcmp(e, "1");
    }
    if (hdf5 && !(mode & 1)) {
        tc_fc_problem *p = NULL;
        tc_fclib_info info;
        tc_status st = tc_fclib_read_image(d, left, "image", &p, &info, &err);
        if (st == TC_OK) {
            if (!p) fuzz_fail("accepted without a problem");
            use(p);
        } else if (p || !err.msg[0] || strcmp(err.file, "image"))
            fuzz_fail("refused (%d) without naming the file: '%s' '%s'", (int)st, err.file,
                      err.msg);
        tc_fc_problem_free(p);
        return 0;
    }
    /* decoded arrays: sizes first, bounded so an input stays small */
    uint8_t nc8 = 0;
    uint16_t nnz16 = 0;
    take(&d, &left, &nc8, 1);
    take(&d, &left, &nnz16, 2);
    int nc = 1 + nc8 % 16, nnz = nnz16 % (9 * 16 * 16 + 1);
    tc_fc_problem *p = NULL;
    if (tc_fc_problem_alloc(&p, nc, nnz)) return 0;
    /* colptr and rowind as raw ints (the check bounds them); doubles as raw bits */
    for (int j = 0; j <= p->n; j++)
        take(&d, &left, &p->colptr[j], sizeof(int));
    for (int k = 0; k < nnz; k++)
        take(&d, &left, &p->rowind[k], sizeof(int));
    for (int k = 0; k < nnz; k++)
        take(&d, &left, &p->W[k], sizeof(double));
    for (int k = 0; k < 3 * p->n + nc; k++)
        take(&d, &left, &p->q[k], sizeof(double));
    p->has_solution = mode & 2 ? 1 : 0;
    if (tc_fc_problem_check(p, p->has_solution, "arrays", &err) == TC_OK)
        use(p);
    else if (!err.msg[0] || strcmp(err.file, "arrays"))
        fuzz_fail("refused without naming the input: '%s'", err.msg);
    tc_fc_problem_free(p);
    return 0;
}
