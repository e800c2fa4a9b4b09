/* SPDX-License-Identifier: MIT */
/* FCLIB files: writing through FCLIB 3.1 (fclib_write_local, fclib_write_solution), a
 * validating reader on HDF5's high-level API, FCLIB's merit; one lock around all of HDF5 */
#include "solvers/tc_fclib.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fclib.h>
#include <hdf5.h>
#include <hdf5_hl.h>

/* HDF5 (serial build) and FCLIB are not thread-safe: one lock for every call into them */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* take the lock, with HDF5's own error printing off (the errors are ours to report) */
static void lock(void) {
    pthread_mutex_lock(&g_lock);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void unlock(void) {
    pthread_mutex_unlock(&g_lock);
}

/* ---------- writing ---------- */

tc_status tc_fclib_write(const char *path, const tc_fc_problem *p, const char *title,
                         const char *description, tc_error *err) {
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp)
        return tc_error_set(err, TC_EIO, path, 0, "", "the file name is too long");
    /* the temporary file probed with stdio first: its errno says why a folder is unwritable
     * (FCLIB only says "creating file failed") */
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return tc_error_set(err, TC_EIO, path, 0, "", "cannot write %s: %s", tmp, strerror(errno));
    fclose(f);
    remove(tmp);
    /* FCLIB's structures over p's arrays (FCLIB takes non-const pointers and writes nothing) */
    struct fclib_matrix W = {.nzmax = p->nnz,
                             .m = p->n,
                             .n = p->n,
                             .p = p->colptr,
                             .i = p->rowind,
                             .x = p->W,
                             .nz = -1,
                             .info = NULL};
    char t[256] = "", d[1024] = "", mi[] = "W = H M^-1 H^T, symmetric positive semidefinite";
    snprintf(t, sizeof t, "%s", title ? title : "");
    snprintf(d, sizeof d, "%s", description ? description : "");
    struct fclib_info info = {.title = t, .description = d, .math_info = mi};
    struct fclib_local loc = {.W = &W,
                              .V = NULL,
                              .R = NULL,
                              .mu = p->mu,
                              .q = p->q,
                              .s = NULL,
                              .spacedim = 3,
                              .info = &info};
    struct fclib_solution sol = {.v = NULL, .u = p->u, .r = p->r, .l = NULL};
    lock();
    int ok = fclib_write_local(&loc, tmp);
    if (ok && p->has_solution) ok = fclib_write_solution(&sol, tmp);
    unlock();
    if (!ok) {
        remove(tmp);
        return tc_error_set(err, TC_EIO, path, 0, "", "FCLIB could not write %s", tmp);
    }
    if (rename(tmp, path)) {
        int e = errno;
        remove(tmp);
        return tc_error_set(err, TC_EIO, path, 0, "", "cannot rename %s to it: %s", tmp,
                            strerror(e));
    }
    return TC_OK;
}

/* ---------- reading ---------- */

/* a dataset's length (the product of its dimensions, at most `max`) and class; -1 when loc has
 * no dataset of that name */
static long long dataset_len(hid_t loc, const char *name, H5T_class_t *cls, size_t *size) {
    htri_t ex = H5Lexists(loc, name, H5P_DEFAULT);
    if (ex <= 0) return -1;
    int rank = 0;
    if (H5LTget_dataset_ndims(loc, name, &rank) < 0 || rank < 0 || rank > 1) return -1;
    hsize_t dims[1] = {1};
    if (H5LTget_dataset_info(loc, name, dims, cls, size) < 0) return -1;
    return rank == 0 ? 1 : (long long)dims[0];
}

/* one integer (a scalar or a one-element array) */
static tc_status read_int(hid_t loc, const char *grp, const char *name, int *v, const char *file,
                          tc_error *err) {
    H5T_class_t cls;
    size_t size;
    long long n = dataset_len(loc, name, &cls, &size);
    if (n < 0)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: missing or not a dataset", grp,
                            name);
    if (n != 1 || cls != H5T_INTEGER)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: not one integer", grp, name);
    if (H5LTread_dataset_int(loc, name, v) < 0)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: unreadable", grp, name);
    return TC_OK;
}

/* an array of exactly n entries of class cls (H5T_INTEGER into int, H5T_FLOAT into double) */
static tc_status read_array(hid_t loc, const char *grp, const char *name, long long n,
                            H5T_class_t want, void *out, const char *file, tc_error *err) {
    H5T_class_t cls;
    size_t size;
    long long len = dataset_len(loc, name, &cls, &size);
    if (len < 0)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: missing or not a dataset", grp,
                            name);
    if (cls != want)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: not %s", grp, name,
                            want == H5T_INTEGER ? "integers" : "floating-point numbers");
    if (len != n)
        return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: %lld entries, need %lld", grp,
                            name, len, n);
    if (n == 0) return TC_OK;
    herr_t r = want == H5T_INTEGER ? H5LTread_dataset_int(loc, name, out)
                                   : H5LTread_dataset_double(loc, name, out);
    if (r < 0) return tc_error_set(err, TC_EPARSE, file, 0, "", "%s/%s: unreadable", grp, name);
    return TC_OK;
}

/* an optional string into buf[n] (truncated; "" when absent or not a string) */
static void read_string(hid_t loc, const char *name, char *buf, size_t n) {
    buf[0] = 0;
    H5T_class_t cls;
    size_t size = 0;
    long long len = dataset_len(loc, name, &cls, &size);
    if (len != 1 || cls != H5T_STRING || size == 0 || size > (1u << 20)) return;
    char *s = calloc(size + 1, 1);
    if (s && H5LTread_dataset_string(loc, name, s) >= 0) snprintf(buf, n, "%s", s);
    free(s);
}

/* W's entries as triplets (row, column, value) turned into compressed columns, rows increasing
 * and duplicates summed: a counting sort by row, then a stable one by column */
static tc_status to_csc(tc_fc_problem **out, int nc, long long nt, const int *ri, const int *ci,
                        const double *x) {
    int n = 3 * nc;
    int *cnt = calloc((size_t)n + 1, sizeof *cnt);
    long long *ord = malloc(((size_t)nt + 1) * sizeof *ord), *ord2 = NULL;
    tc_status st = TC_ENOMEM;
    if (!cnt || !ord) goto done;
    ord2 = malloc(((size_t)nt + 1) * sizeof *ord2);
    if (!ord2) goto done;
    /* by row */
    for (long long k = 0; k < nt; k++)
        cnt[ri[k] + 1]++;
    for (int i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
    for (long long k = 0; k < nt; k++)
        ord[cnt[ri[k]]++] = k;
    /* then by column, stable */
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (long long k = 0; k < nt; k++)
        cnt[ci[k] + 1]++;
    for (int j = 0; j < n; j++)
        cnt[j + 1] += cnt[j];
    for (long long e = 0; e < nt; e++) {
        long long k = ord[e];
        ord2[cnt[ci[k]]++] = k;
    }
    /* duplicates summed: count the distinct (row, column) pairs, then fill */
    long long nnz = 0;
    for (long long e = 0; e < nt; e++)
        if (e == 0 || ci[ord2[e]] != ci[ord2[e - 1]] || ri[ord2[e]] != ri[ord2[e - 1]]) nnz++;
    tc_fc_problem *p = NULL;
    if ((st = tc_fc_problem_alloc(&p, nc, nnz))) goto done;
    long long k = -1;
    int col = 0;
    for (long long e = 0; e < nt; e++) {
        long long t = ord2[e];
        if (e == 0 || ci[t] != ci[ord2[e - 1]] || ri[t] != ri[ord2[e - 1]]) {
            k++;
            p->rowind[k] = ri[t];
            p->W[k] = 0;
            while (col <= ci[t])
                p->colptr[col++] = (int)k;
        }
        p->W[k] += x[t];
    }
    while (col <= n)
        p->colptr[col++] = (int)nnz;
    *out = p;
    st = TC_OK;
done:
    free(cnt);
    free(ord);
    free(ord2);
    return st;
}

/* W's group: sizes, layout and entries, each checked before it is used, into triplets */
static tc_status read_matrix(hid_t g, int *nc_out, long long *nt_out, int **ri_out, int **ci_out,
                             double **x_out, const char *file, tc_error *err) {
    int m = 0, n = 0, nz = 0, nzmax = 0;
    tc_status st;
    if ((st = read_int(g, "fclib_local/W", "m", &m, file, err)) ||
        (st = read_int(g, "fclib_local/W", "n", &n, file, err)) ||
        (st = read_int(g, "fclib_local/W", "nz", &nz, file, err)) ||
        (st = read_int(g, "fclib_local/W", "nzmax", &nzmax, file, err)))
        return st;
    if (m != n || m < 3 || m % 3)
        return tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W",
                            "W is %d x %d: it must be square with 3 rows per contact", m, n);
    if (m / 3 > TC_FCLIB_MAX_CONTACTS)
        return tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W",
                            "%d contacts, more than the %d this reader takes", m / 3,
                            TC_FCLIB_MAX_CONTACTS);
    if (nzmax < 0 || nzmax > TC_FCLIB_MAX_NNZ || nz < -2 || nz > nzmax)
        return tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W",
                            "nzmax = %d, nz = %d: need 0 <= nzmax <= %d and -2 <= nz <= nzmax",
                            nzmax, nz, TC_FCLIB_MAX_NNZ);
    /* p: column pointers (nz = -1), row pointers (-2) or row indices (triplets); i: the other
     * index; x: nzmax values */
    long long np = nz == -1 || nz == -2 ? (long long)n + 1 : nz, ni = nz >= 0 ? nz : nzmax;
    int *pp = malloc(((size_t)np + 1) * sizeof *pp), *ii = malloc(((size_t)ni + 1) * sizeof *ii);
    double *x = malloc(((size_t)nzmax + 1) * sizeof *x);
    int *ri = NULL, *ci = NULL;
    st = TC_ENOMEM;
    if (!pp || !ii || !x) goto fail;
    if ((st = read_array(g, "fclib_local/W", "p", np, H5T_INTEGER, pp, file, err)) ||
        (st = read_array(g, "fclib_local/W", "i", ni, H5T_INTEGER, ii, file, err)) ||
        (st = read_array(g, "fclib_local/W", "x", nzmax, H5T_FLOAT, x, file, err)))
        goto fail;
    long long nt = nz >= 0 ? nz : 0;
    if (nz < 0) {
        /* compressed: pointers from 0, non-decreasing, ending within nzmax */
        if (pp[0] != 0 || pp[n] < 0 || pp[n] > nzmax) {
            st = tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W/p",
                              "pointers run from %d to %d: need 0 to at most nzmax = %d", pp[0],
                              pp[n], nzmax);
            goto fail;
        }
        for (int j = 0; j < n; j++)
            if (pp[j + 1] < pp[j]) {
                st = tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W/p",
                                  "pointer %d (%d) below the one before (%d)", j + 1, pp[j + 1],
                                  pp[j]);
                goto fail;
            }
        nt = pp[n];
    }
    ri = malloc(((size_t)nt + 1) * sizeof *ri);
    ci = malloc(((size_t)nt + 1) * sizeof *ci);
    st = TC_ENOMEM;
    if (!ri || !ci) goto fail;
    for (int j = 0; nz < 0 && j < n; j++)
        for (int k = pp[j]; k < pp[j + 1]; k++) {
            ri[k] = nz == -1 ? ii[k] : j;
            ci[k] = nz == -1 ? j : ii[k];
        }
    for (long long k = 0; nz >= 0 && k < nt; k++) {
        ri[k] = pp[k];
        ci[k] = ii[k];
    }
    for (long long k = 0; k < nt; k++)
        if (ri[k] < 0 || ri[k] >= n || ci[k] < 0 || ci[k] >= n) {
            st = tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/W/i",
                              "entry %lld at (%d, %d), outside the %d x %d matrix", k, ri[k], ci[k],
                              n, n);
            goto fail;
        }
    free(pp);
    free(ii);
    *nc_out = n / 3;
    *nt_out = nt;
    *ri_out = ri;
    *ci_out = ci;
    *x_out = x;
    return TC_OK;
fail:
    free(pp);
    free(ii);
    free(x);
    free(ri);
    free(ci);
    return st;
}

/* the problem of an open file */
static tc_status read_file(hid_t f, const char *file, tc_fc_problem **out, tc_fclib_info *info,
                           tc_error *err) {
    *out = NULL;
    if (H5Lexists(f, "fclib_local", H5P_DEFAULT) <= 0)
        return tc_error_set(err, TC_EPARSE, file, 0, "fclib_local",
                            "no local problem (/fclib_local): not an FCLIB local problem%s",
                            H5Lexists(f, "fclib_global", H5P_DEFAULT) > 0 ? " (a global one)" : "");
    hid_t g = H5Gopen2(f, "fclib_local", H5P_DEFAULT);
    if (g < 0) return tc_error_set(err, TC_EPARSE, file, 0, "fclib_local", "not a group");
    tc_status st;
    int dim = 0;
    tc_fc_problem *p = NULL;
    int *ri = NULL, *ci = NULL;
    double *x = NULL;
    hid_t w = -1, v = -1;
    if ((st = read_int(g, "fclib_local", "spacedim", &dim, file, err))) goto done;
    if (dim != 3) {
        st = tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/spacedim",
                          "spacedim %d: touche reads 3-D problems only", dim);
        goto done;
    }
    if (H5Lexists(g, "V", H5P_DEFAULT) > 0 || H5Lexists(g, "R", H5P_DEFAULT) > 0) {
        st = tc_error_set(err, TC_EPARSE, file, 0, "fclib_local/V",
                          "a mixed problem (V, R): touche reads pure local problems only");
        goto done;
    }
    st = TC_EPARSE;
    if (H5Lexists(g, "W", H5P_DEFAULT) <= 0 || (w = H5Gopen2(g, "W", H5P_DEFAULT)) < 0) {
        tc_error_set(err, st, file, 0, "fclib_local/W", "missing, or not a group");
        goto done;
    }
    int nc = 0;
    long long nt = 0;
    if ((st = read_matrix(w, &nc, &nt, &ri, &ci, &x, file, err))) goto done;
    if ((st = to_csc(&p, nc, nt, ri, ci, x))) {
        tc_error_set(err, st, file, 0, "", "no memory for %d contacts", nc);
        goto done;
    }
    st = TC_EPARSE;
    if (H5Lexists(g, "vectors", H5P_DEFAULT) <= 0 ||
        (v = H5Gopen2(g, "vectors", H5P_DEFAULT)) < 0) {
        tc_error_set(err, st, file, 0, "fclib_local/vectors", "missing, or not a group");
        goto done;
    }
    if ((st = read_array(v, "fclib_local/vectors", "q", p->n, H5T_FLOAT, p->q, file, err)) ||
        (st = read_array(v, "fclib_local/vectors", "mu", p->nc, H5T_FLOAT, p->mu, file, err)))
        goto done;
    /* the solution, when there is one: u and r */
    if (H5Lexists(f, "solution", H5P_DEFAULT) > 0) {
        hid_t s = H5Gopen2(f, "solution", H5P_DEFAULT);
        st = s < 0 ? tc_error_set(err, TC_EPARSE, file, 0, "solution", "not a group") : TC_OK;
        if (!st) st = read_array(s, "solution", "u", p->n, H5T_FLOAT, p->u, file, err);
        if (!st) st = read_array(s, "solution", "r", p->n, H5T_FLOAT, p->r, file, err);
        if (s >= 0) H5Gclose(s);
        if (st) goto done;
        p->has_solution = 1;
    }
    if (info) {
        memset(info, 0, sizeof *info);
        if (H5Lexists(g, "info", H5P_DEFAULT) > 0) {
            hid_t in = H5Gopen2(g, "info", H5P_DEFAULT);
            if (in >= 0) {
                read_string(in, "title", info->title, sizeof info->title);
                read_string(in, "description", info->description, sizeof info->description);
                read_string(in, "math_info", info->math_info, sizeof info->math_info);
                H5Gclose(in);
            }
        }
    }
    if ((st = tc_fc_problem_check(p, p->has_solution, file, err))) goto done;
    *out = p;
    p = NULL;
done:
    if (v >= 0) H5Gclose(v);
    if (w >= 0) H5Gclose(w);
    H5Gclose(g);
    free(ri);
    free(ci);
    free(x);
    tc_fc_problem_free(p);
    return st;
}

/* the problem of file f as HDF5 opened it (f < 0: it could not), closed after; under the lock */
static tc_status read_opened(hid_t f, const char *name, tc_fc_problem **out, tc_fclib_info *info,
                             tc_error *err) {
    if (f < 0)
        return tc_error_set(err, TC_EPARSE, name, 0, "",
                            "not an HDF5 file (or a truncated one): not an FCLIB problem");
    tc_status st = read_file(f, name, out, info, err);
    H5Fclose(f);
    return st;
}

tc_status tc_fclib_read(const char *path, tc_fc_problem **out, tc_fclib_info *info, tc_error *err) {
    *out = NULL;
    /* stdio first: its errno says why a file is unreadable */
    FILE *fp = fopen(path, "rb");
    if (!fp) return tc_error_set(err, TC_EIO, path, 0, "", "cannot read it: %s", strerror(errno));
    fclose(fp);
    lock();
    tc_status st = read_opened(H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), path, out, info, err);
    unlock();
    return st;
}

tc_status tc_fclib_read_image(const void *buf, size_t len, const char *name, tc_fc_problem **out,
                              tc_fclib_info *info, tc_error *err) {
    *out = NULL;
    if (!len) return tc_error_set(err, TC_EPARSE, name, 0, "", "empty: not an FCLIB problem");
    lock();
    /* HDF5 copies the image (it may write to its copy) */
    tc_status st = read_opened(H5LTopen_file_image((void *)buf, len, 0), name, out, info, err);
    unlock();
    return st;
}

/* ---------- merit ---------- */

double tc_fclib_merit(const tc_fc_problem *p, const double *r) {
    struct fclib_matrix W = {.nzmax = p->nnz,
                             .m = p->n,
                             .n = p->n,
                             .p = p->colptr,
                             .i = p->rowind,
                             .x = p->W,
                             .nz = -1,
                             .info = NULL};
    struct fclib_local loc = {
        .W = &W, .V = NULL, .R = NULL, .mu = p->mu, .q = p->q, .s = NULL, .spacedim = 3};
    /* FCLIB recomputes u from r; it reads u nowhere, but gets a buffer all the same */
    struct fclib_solution sol = {.v = NULL, .u = p->u, .r = (double *)r, .l = NULL};
    lock();
    double m = fclib_merit_local(&loc, MERIT_1, &sol);
    unlock();
    return m;
}
