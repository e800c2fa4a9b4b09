/* SPDX-License-Identifier: MIT */
/* tetrahedral mesh builders: ellipsoid, convex hull (qhull), tetgen + Laplace field, slab */
#include "core/tc_arena.h"
#include "core/tc_fs.h"
#include "geom/tc_tetmesh_build.h"
#include "math/tc_vec.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_spblas.h>
#include <gsl/gsl_splinalg.h>
#include <gsl/gsl_spmatrix.h>
#include <gsl/gsl_vector.h>
#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <threads.h>
#include <unistd.h>

extern char **environ;

/* gradients of the four barycentric coordinates of tet t (positive volume vol) */
static void bary_grads(const tc_tetmesh *m, const int *t, double g[4][3], double *vol) {
    const double *x0 = m->vert + 3 * t[0];
    double e[3][3], cr[3];
    for (int k = 0; k < 3; k++)
        tc_v3_sub(e[k], m->vert + 3 * t[k + 1], x0);
    tc_v3_cross(cr, e[1], e[2]);
    double det = tc_v3_dot(e[0], cr);
    tc_v3_set(g[0], 0, 0, 0);
    for (int k = 0; k < 3; k++) {
        tc_v3_cross(g[k + 1], e[(k + 1) % 3], e[(k + 2) % 3]);
        tc_v3_scale(g[k + 1], g[k + 1], 1 / det);
        tc_v3_addscl(g[0], g[k + 1], -1);
    }
    *vol = det / 6;
}

/* a tet face: sorted vertex key, the face as seen in the tet, and the opposite vertex */
typedef struct face_rec {
    int key[3], v[3], opp;
} face_rec;

/* lexicographic order of the sorted keys */
static int face_cmp(const void *pa, const void *pb) {
    const face_rec *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a->key[k] != b->key[k]) return a->key[k] < b->key[k] ? -1 : 1;
    return 0;
}

tc_status tc_tetmesh_build_surface(tc_tetmesh *m) {
    size_t nf = 4 * (size_t)m->ntet;
    face_rec *f = malloc((nf > 0 ? nf : 1) * sizeof *f);
    if (!f) return TC_ENOMEM;
    /* every face of every tet, keyed by its sorted vertices */
    static const int fv[4][4] = {{1, 2, 3, 0}, {0, 3, 2, 1}, {0, 1, 3, 2}, {0, 2, 1, 3}};
    for (int i = 0; i < m->ntet; i++) {
        int *t = m->tet + 4 * i;
        if (tc_tetmesh_tet_volume(m, i) < 0) {
            int k = t[2];
            t[2] = t[3];
            t[3] = k;
        }
        for (int j = 0; j < 4; j++) {
            face_rec *r = f + 4 * (size_t)i + j;
            for (int k = 0; k < 3; k++) {
                r->v[k] = t[fv[j][k]];
                r->key[k] = t[fv[j][k]];
            }
            r->opp = t[fv[j][3]];
            tc_sort_int(r->key, 3);
        }
    }
    /* faces met once are the surface; orient each away from its opposite vertex */
    qsort(f, nf, sizeof *f, face_cmp);
    int ns = 0;
    for (size_t i = 0; i < nf;) {
        size_t j = i + 1;
        while (j < nf && face_cmp(f + i, f + j) == 0)
            j++;
        if (j == i + 1) f[ns++] = f[i];
        i = j;
    }
    int *tri = malloc(3 * (size_t)(ns > 0 ? ns : 1) * sizeof *tri);
    if (!tri) {
        free(f);
        return TC_ENOMEM;
    }
    for (int i = 0; i < ns; i++) {
        int *t = tri + 3 * i;
        t[0] = f[i].v[0];
        t[1] = f[i].v[1];
        t[2] = f[i].v[2];
        double e1[3], e2[3], n[3], d[3];
        tc_v3_sub(e1, m->vert + 3 * t[1], m->vert + 3 * t[0]);
        tc_v3_sub(e2, m->vert + 3 * t[2], m->vert + 3 * t[0]);
        tc_v3_sub(d, m->vert + 3 * f[i].opp, m->vert + 3 * t[0]);
        tc_v3_cross(n, e1, e2);
        if (tc_v3_dot(n, d) > 0) {
            int k = t[1];
            t[1] = t[2];
            t[2] = k;
        }
    }
    free(f);
    free(m->tri);
    m->tri = tri;
    m->ntri = ns;
    return TC_OK;
}

tc_status tc_tetmesh_ellipsoid_alloc(tc_tetmesh **out, const double abc[3], int level, double E,
                                     tc_error *err) {
    for (int k = 0; k < 3; k++)
        if (!(abc[k] > 0) || !isfinite(abc[k]))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "semi-axes",
                                "must be finite and > 0 m (got %g)", abc[k]);
    if (level < 0 || level > 6)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "level", "must be in [0, 6] (got %d)", level);
    if (!(E > 0) || !isfinite(E))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "E", "must be finite and > 0 Pa (got %g)", E);
    /* the unit icosphere fanned from its centre, stretched along the axes */
    tc_tetmesh *m;
    tc_status st = tc_tetmesh_sphere_alloc(&m, 1.0, level, E);
    if (st) return tc_error_set(err, st, NULL, 0, NULL, "cannot build the icosphere");
    for (int i = 0; i < m->nvert; i++)
        for (int k = 0; k < 3; k++)
            m->vert[3 * i + k] *= abc[k];
    tc_tetmesh_build_fields(m);
    *out = m;
    return TC_OK;
}

/* qhull's messages go to a memory stream, never to stdout or stderr */
static tc_status hull_fail(tc_error *err, tc_status st, char *buf, const char *what) {
    char msg[400] = "";
    if (buf) {
        const char *p = strstr(buf, "QH");
        snprintf(msg, sizeof msg, "%s", p ? p : buf);
        /* the first sentence only: qhull then lists its options */
        char *w = strstr(msg, "While executing");
        if (w) *w = 0;
        for (size_t k = strlen(msg); k > 0 && msg[k - 1] == ' '; k--)
            msg[k - 1] = 0;
        for (char *c = msg; *c; c++)
            if (*c == '\n') *c = ' ';
    }
    return tc_error_set(err, st, NULL, 0, "points", "%s%s%s", what, *msg ? ": qhull: " : "", msg);
}

/* the hull builder's input: a modulus and at least 4 finite points */
static tc_status check_hull_input(const double *pts, int n, double E, tc_error *err) {
    if (!(E > 0) || !isfinite(E))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "E", "must be finite and > 0 Pa (got %g)", E);
    if (n < 4)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "points",
                            "a convex hull needs at least 4 points (got %d)", n);
    for (int i = 0; i < 3 * n; i++)
        if (!isfinite(pts[i]))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "points", "point %d is not finite", i / 3);
    return TC_OK;
}

/* the hull's vertices renumbered in facet order (map: input point -> vertex, -1 off the hull)
 * and its facets counted */
static void hull_count(qhT *qh, int *map, int n, int *nv, int *nt) {
    for (int i = 0; i < n; i++)
        map[i] = -1;
    *nv = *nt = 0;
    facetT *facet;
    vertexT *vertex, **vertexp;
    FORALLfacets {
        FOREACHvertex_(facet->vertices) {
            int id = qh_pointid(qh, vertex->point);
            if (map[id] < 0) map[id] = (*nv)++;
        }
        (*nt)++;
    }
}

/* the hull's triangles into m->tri, oriented along qhull's outward normals; returns how many
 * ("Qt" may leave zero-area triangles in merged facets: they bound no volume and are left out) */
static int hull_triangles(qhT *qh, tc_tetmesh *m, const int *map, int nv) {
    int nt = 0;
    double scale = 0;
    for (int i = 0; i < 3 * nv; i++)
        scale = fmax(scale, fabs(m->vert[i]));
    facetT *facet;
    vertexT *vertex, **vertexp;
    FORALLfacets {
        int v[3], k = 0;
        FOREACHvertex_(facet->vertices) if (k < 3) v[k++] = map[qh_pointid(qh, vertex->point)];
        if (k != 3) continue;
        double e1[3], e2[3], nrm[3];
        tc_v3_sub(e1, m->vert + 3 * v[1], m->vert + 3 * v[0]);
        tc_v3_sub(e2, m->vert + 3 * v[2], m->vert + 3 * v[0]);
        tc_v3_cross(nrm, e1, e2);
        if (tc_v3_norm(nrm) <= 1e-14 * scale * scale) continue;
        if (nrm[0] * facet->normal[0] + nrm[1] * facet->normal[1] + nrm[2] * facet->normal[2] < 0) {
            int s = v[1];
            v[1] = v[2];
            v[2] = s;
        }
        memcpy(m->tri + 3 * nt, v, sizeof v);
        nt++;
    }
    return nt;
}

/* the fan of m's nt surface triangles from the hull's volume centroid (vertex nv, the core:
 * eps = 1, the hull's vertices 0), and the fields; TC_EINVAL when the hull has no volume */
static tc_status hull_fan(tc_tetmesh *m, int nv, int nt, tc_error *err) {
    m->ntri = m->ntet = nt;
    /* the volume centroid (a fan from the vertex average) */
    double avg[3] = {0, 0, 0}, cen[3] = {0, 0, 0}, vol = 0;
    for (int i = 0; i < nv; i++)
        tc_v3_addscl(avg, m->vert + 3 * i, 1.0 / nv);
    for (int f = 0; f < nt; f++) {
        const int *t = m->tri + 3 * f;
        double e[3][3], cr[3];
        for (int k = 0; k < 3; k++)
            tc_v3_sub(e[k], m->vert + 3 * t[k], avg);
        tc_v3_cross(cr, e[1], e[2]);
        double v6 = tc_v3_dot(e[0], cr);
        vol += v6 / 6;
        for (int k = 0; k < 3; k++)
            tc_v3_addscl(cen, m->vert + 3 * t[k], v6 / 24);
        tc_v3_addscl(cen, avg, v6 / 24);
    }
    if (!(vol > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "points", "the hull has no volume");
    tc_v3_scale(m->vert + 3 * nv, cen, 1 / vol);
    for (int i = 0; i < nv; i++)
        m->eps[i] = 0;
    m->eps[nv] = 1;
    for (int f = 0; f < nt; f++) {
        int *t = m->tet + 4 * f;
        t[0] = nv;
        t[1] = m->tri[3 * f];
        t[2] = m->tri[3 * f + 1];
        t[3] = m->tri[3 * f + 2];
    }
    tc_tetmesh_build_fields(m);
    return TC_OK;
}

/* the mesh of the hull qhull found for pts (map: scratch for n ints) */
static tc_status hull_mesh(qhT *qh, const double *pts, int n, int *map, double E, tc_tetmesh **out,
                           tc_error *err) {
    int nv, nt;
    hull_count(qh, map, n, &nv, &nt);
    tc_tetmesh *m;
    if (tc_tetmesh_alloc(&m, nv + 1, nt, nt, E))
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    for (int i = 0; i < n; i++)
        if (map[i] >= 0) tc_v3_copy(m->vert + 3 * map[i], pts + 3 * i);
    tc_status st = hull_fan(m, nv, hull_triangles(qh, m, map, nv), err);
    if (st) {
        tc_tetmesh_free(m);
        return st;
    }
    *out = m;
    return TC_OK;
}

tc_status tc_tetmesh_hull_alloc(tc_tetmesh **out, const double *pts, int n, double E,
                                tc_error *err) {
    tc_status st = check_hull_input(pts, n, E, err);
    if (st) return st;
    /* scratch in one block: qhull's writable copy of the points and the vertex map; qhull's
     * messages go to a memory stream */
    tc_arena a = {0};
    tc_arena_alloc(&a, 3 * (size_t)n, sizeof(coordT));
    tc_arena_alloc(&a, (size_t)n, sizeof(int));
    char *ebuf = NULL;
    size_t elen = 0;
    FILE *ef = tc_arena_reserve(&a, 0) ? NULL : open_memstream(&ebuf, &elen);
    if (!ef) {
        tc_arena_free(&a);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    coordT *p = tc_arena_alloc(&a, 3 * (size_t)n, sizeof *p);
    int *map = tc_arena_alloc(&a, (size_t)n, sizeof *map);
    for (int i = 0; i < 3 * n; i++)
        p[i] = pts[i];
    qhT qh_qh, *qh = &qh_qh;
    qh_zero(qh, ef);
    if (qh_new_qhull(qh, 3, n, p, False, (char *)"qhull Qt", NULL, ef)) {
        fflush(ef);
        st = hull_fail(err, TC_EINVAL, ebuf, "degenerate point set (coplanar or coincident?)");
    } else {
        st = hull_mesh(qh, pts, n, map, E, out, err);
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    tc_arena_free(&a);
    fclose(ef);
    free(ebuf);
    return st;
}

tc_status tc_tetmesh_slab_alloc(tc_tetmesh **out, const double size[2], double h, const int n[3],
                                double E, tc_error *err) {
    if (!(size[0] > 0) || !(size[1] > 0) || !isfinite(size[0]) || !isfinite(size[1]))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "size", "must be finite and > 0 m");
    if (!(h > 0) || !isfinite(h))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "h", "must be finite and > 0 m (got %g)", h);
    for (int k = 0; k < 3; k++)
        if (n[k] < 1 || n[k] > 1000)
            return tc_error_set(err, TC_EINVAL, NULL, 0, "n", "cells must be in [1, 1000] (got %d)",
                                n[k]);
    if (!(E > 0) || !isfinite(E))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "E", "must be finite and > 0 Pa (got %g)", E);
    long long nvl = (long long)(n[0] + 1) * (n[1] + 1) * (n[2] + 1);
    long long ntl = 6LL * n[0] * n[1] * n[2];
    if (ntl > 50000000)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "n", "too many tets (%lld)", ntl);
    tc_tetmesh *m;
    if (tc_tetmesh_alloc(&m, (int)nvl, (int)ntl, 0, E))
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    /* grid vertices, eps = depth / h */
    int nx = n[0] + 1, ny = n[1] + 1;
    for (int k = 0; k <= n[2]; k++)
        for (int j = 0; j <= n[1]; j++)
            for (int i = 0; i <= n[0]; i++) {
                int v = i + nx * (j + ny * k);
                double *x = m->vert + 3 * v;
                x[0] = size[0] * ((double)i / n[0] - 0.5);
                x[1] = size[1] * ((double)j / n[1] - 0.5);
                x[2] = k == n[2] ? 0 : -h + h * k / n[2];
                m->eps[v] = k == n[2] ? 0 : k == 0 ? 1 : -x[2] / h;
            }
    /* each cube into 6 tets along its main diagonal (Kuhn), conforming between neighbours */
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int t = 0;
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            for (int i = 0; i < n[0]; i++)
                for (int p = 0; p < 6; p++) {
                    int c[3] = {i, j, k}, *tt = m->tet + 4 * t++;
                    tt[0] = c[0] + nx * (c[1] + ny * c[2]);
                    for (int s = 0; s < 3; s++) {
                        c[perm[p][s]]++;
                        tt[s + 1] = c[0] + nx * (c[1] + ny * c[2]);
                    }
                }
    if (tc_tetmesh_build_surface(m)) {
        tc_tetmesh_free(m);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    tc_tetmesh_build_fields(m);
    *out = m;
    return TC_OK;
}

tc_tetmesh_laplace_opts tc_tetmesh_laplace_defaults(void) {
    tc_tetmesh_laplace_opts o = {0};
    o.max_volume = 0;
    o.radius_edge = 1.4;
    o.core_fraction = 0.8;
    o.tol = 1e-12;
    o.max_iter = 2000;
    o.tetgen = "tetgen";
    return o;
}

void tc_tetmesh_laplace_info_free(tc_tetmesh_laplace_info *info) {
    if (!info) return;
    free(info->role);
    info->role = NULL;
}

/* GSL's default error handler prints and aborts; every GSL return value is checked here */
static once_flag gsl_once = ONCE_FLAG_INIT;
static void gsl_handler_off(void) {
    gsl_set_error_handler_off();
}

tc_status tc_tetmesh_laplace_solve(tc_tetmesh *m, const signed char *role, double tol, int max_iter,
                                   tc_tetmesh_laplace_info *info, tc_error *err) {
    call_once(&gsl_once, gsl_handler_off);
    if (!(tol > 0) || max_iter < 1)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "tol", "tol must be > 0 and max_iter >= 1");
    /* fixed values and the numbering of the unknowns */
    int *idx = malloc((size_t)(m->nvert > 0 ? m->nvert : 1) * sizeof *idx);
    if (!idx) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    int nf = 0, nz = 0, nc = 0;
    for (int i = 0; i < m->nvert; i++) {
        idx[i] = -1;
        if (role[i] == TC_EPS_ZERO) {
            m->eps[i] = 0;
            nz++;
        } else if (role[i] == TC_EPS_CORE) {
            m->eps[i] = 1;
            nc++;
        } else
            idx[i] = nf++;
    }
    tc_status st = TC_OK;
    double res = 0;
    int cycles = 0;
    gsl_spmatrix *T = NULL, *A = NULL;
    gsl_vector *b = NULL, *x = NULL, *r = NULL, *d = NULL, *bs = NULL;
    gsl_splinalg_itersolve *w = NULL;
    if (nf == 0) goto finish;
    /* stiffness K_ij = V grad(l_i) . grad(l_j) per tet: free rows, fixed columns to the right */
    T = gsl_spmatrix_alloc_nzmax((size_t)nf, (size_t)nf, 16 * (size_t)nf, GSL_SPMATRIX_COO);
    b = gsl_vector_calloc((size_t)nf);
    x = gsl_vector_calloc((size_t)nf);
    r = gsl_vector_alloc((size_t)nf);
    d = gsl_vector_alloc((size_t)nf);
    bs = gsl_vector_alloc((size_t)nf);
    if (!T || !b || !x || !r || !d || !bs) {
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
        goto finish;
    }
    for (int e = 0; e < m->ntet; e++) {
        const int *t = m->tet + 4 * e;
        double g[4][3], vol;
        bary_grads(m, t, g, &vol);
        vol = fabs(vol);
        for (int a = 0; a < 4; a++) {
            int ia = idx[t[a]];
            if (ia < 0) continue;
            for (int c = 0; c < 4; c++) {
                double k = vol * tc_v3_dot(g[a], g[c]);
                int ic = idx[t[c]];
                if (ic < 0) {
                    gsl_vector_set(b, (size_t)ia, gsl_vector_get(b, (size_t)ia) - k * m->eps[t[c]]);
                    continue;
                }
                double *p = gsl_spmatrix_ptr(T, (size_t)ia, (size_t)ic);
                if (p)
                    *p += k;
                else if (gsl_spmatrix_set(T, (size_t)ia, (size_t)ic, k)) {
                    st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory (stiffness)");
                    goto finish;
                }
            }
        }
    }
    A = gsl_spmatrix_compress(T, GSL_SPMATRIX_CSC);
    if (!A) {
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory (stiffness)");
        goto finish;
    }
    double normb = gsl_blas_dnrm2(b);
    if (normb == 0) goto finish;
    /* symmetric Jacobi scaling D^-1/2 A D^-1/2 y = D^-1/2 b, then restarted GMRES */
    for (size_t i = 0; i < (size_t)nf; i++) {
        double a = gsl_spmatrix_get(A, i, i);
        if (!(a > 0)) {
            st = tc_error_set(err, TC_EINVAL, NULL, 0, NULL,
                              "singular stiffness: degenerate tets or an isolated free vertex");
            goto finish;
        }
        gsl_vector_set(d, i, 1 / sqrt(a));
        gsl_vector_set(bs, i, gsl_vector_get(b, i) / sqrt(a));
    }
    for (size_t j = 0; j < (size_t)nf; j++)
        for (int p = A->p[j]; p < A->p[j + 1]; p++)
            A->data[p] *= gsl_vector_get(d, (size_t)A->i[p]) * gsl_vector_get(d, j);
    w = gsl_splinalg_itersolve_alloc(gsl_splinalg_itersolve_gmres, (size_t)nf,
                                     (size_t)(nf < 50 ? nf : 50));
    if (!w) {
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory (GMRES)");
        goto finish;
    }
    int gs;
    do
        gs = gsl_splinalg_itersolve_iterate(A, bs, tol, x, w);
    while (++cycles < max_iter && gs == GSL_CONTINUE);
    if (gs != GSL_SUCCESS && gs != GSL_CONTINUE) {
        st = tc_error_set(err, TC_EDIVERGED, NULL, 0, NULL, "GMRES failed: %s", gsl_strerror(gs));
        goto finish;
    }
    /* back to eps, and the residual of the unscaled system */
    for (size_t j = 0; j < (size_t)nf; j++)
        for (int p = A->p[j]; p < A->p[j + 1]; p++)
            A->data[p] /= gsl_vector_get(d, (size_t)A->i[p]) * gsl_vector_get(d, j);
    gsl_vector_mul(x, d);
    gsl_vector_memcpy(r, b);
    gsl_spblas_dgemv(CblasNoTrans, 1.0, A, x, -1.0, r);
    res = gsl_blas_dnrm2(r) / normb;
    for (int i = 0; i < m->nvert; i++)
        if (idx[i] >= 0) m->eps[i] = gsl_vector_get(x, (size_t)idx[i]);
    if (gs != GSL_SUCCESS || !(res <= 1e3 * tol))
        st = tc_error_set(err, TC_EDIVERGED, NULL, 0, "tol",
                          "GMRES did not converge in %d cycles (relative residual %.3g)", cycles,
                          res);
finish:
    if (info) {
        info->nfree = nf;
        info->nzero = nz;
        info->ncore = nc;
        info->cycles = cycles;
        info->residual = res;
    }
    if (st == TC_OK) tc_tetmesh_build_fields(m);
    gsl_splinalg_itersolve_free(w);
    if (A) gsl_spmatrix_free(A);
    if (T) gsl_spmatrix_free(T);
    if (b) gsl_vector_free(b);
    if (x) gsl_vector_free(x);
    if (r) gsl_vector_free(r);
    if (d) gsl_vector_free(d);
    if (bs) gsl_vector_free(bs);
    free(idx);
    return st;
}

/* write the surface as a tetgen .poly (facet marker = role + 1) and the core points as .a.node */
static tc_status write_poly(const char *dir, const double *vert, int nv, const int *tri, int nt,
                            const signed char *role, const tc_tetmesh_laplace_opts *o,
                            tc_error *err) {
    char path[1100];
    snprintf(path, sizeof path, "%s/in.poly", dir);
    FILE *f = fopen(path, "w");
    if (!f) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot write: %s", strerror(errno));
    /* only the vertices triangles use (tetgen would mesh stray ones as interior points) */
    int *map = malloc((size_t)nv * sizeof *map), used = 0;
    if (!map) {
        fclose(f);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    for (int i = 0; i < nv; i++)
        map[i] = -1;
    for (int i = 0; i < 3 * nt; i++)
        if (map[tri[i]] < 0) map[tri[i]] = 0;
    for (int i = 0; i < nv; i++)
        if (map[i] == 0) map[i] = used++;
    fprintf(f, "%d 3 0 0\n", used);
    for (int i = 0; i < nv; i++)
        if (map[i] >= 0)
            fprintf(f, "%d %.17g %.17g %.17g\n", map[i], vert[3 * i], vert[3 * i + 1],
                    vert[3 * i + 2]);
    fprintf(f, "%d 1\n", nt);
    for (int i = 0; i < nt; i++)
        fprintf(f, "1 0 %d\n3 %d %d %d\n", (role ? role[i] : TC_EPS_ZERO) + 1, map[tri[3 * i]],
                map[tri[3 * i + 1]], map[tri[3 * i + 2]]);
    free(map);
    fprintf(f, "0\n0\n");
    int bad = ferror(f);
    bad |= fclose(f);
    if (bad) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot write the tetgen input");
    if (o->ncore_pts <= 0) return TC_OK;
    snprintf(path, sizeof path, "%s/in.a.node", dir);
    if (!(f = fopen(path, "w")))
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot write: %s", strerror(errno));
    fprintf(f, "%d 3 0 0\n", o->ncore_pts);
    for (int i = 0; i < o->ncore_pts; i++)
        fprintf(f, "%d %.17g %.17g %.17g\n", i, o->core_pts[3 * i], o->core_pts[3 * i + 1],
                o->core_pts[3 * i + 2]);
    bad = ferror(f);
    bad |= fclose(f);
    if (bad) return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot write the tetgen points");
    return TC_OK;
}

/* the last non-empty line of dir/tetgen.log into buf */
static void log_tail(const char *dir, char *buf, int n) {
    char path[1100], line[300];
    snprintf(path, sizeof path, "%s/tetgen.log", dir);
    snprintf(buf, (size_t)n, "(empty log)");
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (*line) snprintf(buf, (size_t)n, "%s", line);
    }
    if (f) fclose(f);
}

/* run tetgen on dir/in.poly: -p PLC, -q radius-edge bound, -a volume bound, -i extra points,
 * -z zero-based output, -Q quiet; output to dir/tetgen.log */
static tc_status run_tetgen(const char *dir, const tc_tetmesh_laplace_opts *o, tc_error *err) {
    char sw[128], log[1100], prog[1100];
    if (!tc_find_program(o->tetgen, prog, sizeof prog))
        return tc_error_set(err, TC_EIO, NULL, 0, "tetgen",
                            "'%s' not found in PATH: install Debian's tetgen", o->tetgen);
    int k = snprintf(sw, sizeof sw, "-pq%.6gzQ", o->radius_edge);
    if (o->max_volume > 0) k += snprintf(sw + k, sizeof sw - (size_t)k, "a%.9g", o->max_volume);
    if (o->ncore_pts > 0) snprintf(sw + k, sizeof sw - (size_t)k, "i");
    snprintf(log, sizeof log, "%s/tetgen.log", dir);
    const char *argv[] = {prog, sw, "in.poly", NULL};
    tc_error run;
    tc_error_clear(&run);
    if (tc_run_logged(argv, NULL, dir, log, 0, &run) == TC_OK) return TC_OK;
    /* the log's last non-empty line says why */
    char last[300];
    log_tail(dir, last, sizeof last);
    return tc_error_set(err, TC_EENGINE, log, 0, "tetgen", "tetgen %s failed: %s", sw, last);
}

/* the bytes of an open file (0 when it is not a regular file) */
static long file_bytes(FILE *f) {
    struct stat sb;
    return fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) ? (long)sb.st_size : 0;
}

/* the next non-comment line of f, or NULL at the end */
static char *next_line(FILE *f, char *buf, int n) {
    while (fgets(buf, n, f)) {
        char *c = buf + strspn(buf, " \t");
        if (*c && *c != '#' && *c != '\n' && *c != '\r') return c;
    }
    return NULL;
}

/* read dir/in.1.node and dir/in.1.ele into a new mesh, vertex roles from dir/in.1.face markers */
tc_status tc_tetmesh_read_tetgen(const char *dir, double E, tc_tetmesh **out, signed char **rolep,
                                 tc_error *err) {
    char path[1100], buf[512], *l;
    int nv = 0, nt = 0, dim = 0, npt = 0, nf = 0, bm = 0, a, b, c, d, id;
    tc_tetmesh *m = NULL;
    signed char *role = NULL;
    /* nodes */
    snprintf(path, sizeof path, "%s/in.1.node", dir);
    FILE *f = fopen(path, "r");
    /* a count is bounded by the file before anything is allocated: a node line holds at least
     * four numbers, so at most a quarter of its bytes (a header claiming 4e8 nodes in a small
     * file allocated 9.7 GB) */
    if (!f || !(l = next_line(f, buf, sizeof buf)) || sscanf(l, "%d %d", &nv, &dim) != 2 ||
        nv < 4 || dim != 3 || nv > file_bytes(f) / 4)
        goto bad;
    /* the element count first, so one allocation fits both */
    {
        char ep[1100], eb[512];
        snprintf(ep, sizeof ep, "%s/in.1.ele", dir);
        FILE *g = fopen(ep, "r");
        char *el = g ? next_line(g, eb, sizeof eb) : NULL;
        int ok = el && sscanf(el, "%d %d", &nt, &npt) == 2 && nt > 0 && npt == 4 &&
                 nt <= file_bytes(g) / 5;
        if (tc_tetmesh_alloc(&m, nv, ok ? nt : 1, 0, E)) {
            if (g) fclose(g);
            fclose(f);
            return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
        }
        for (int i = 0; ok && i < nt; i++) {
            el = next_line(g, eb, sizeof eb);
            ok = el && sscanf(el, "%d %d %d %d %d", &id, &a, &b, &c, &d) == 5 && a >= 0 && a < nv &&
                 b >= 0 && b < nv && c >= 0 && c < nv && d >= 0 && d < nv;
            if (ok) {
                int *t = m->tet + 4 * i;
                t[0] = a;
                t[1] = b;
                t[2] = c;
                t[3] = d;
            }
        }
        if (g) fclose(g);
        if (!ok) {
            fclose(f);
            snprintf(path, sizeof path, "%s", ep);
            f = NULL;
            goto bad;
        }
    }
    for (int i = 0; i < nv; i++) {
        double *x = m->vert + 3 * i;
        if (!(l = next_line(f, buf, sizeof buf)) ||
            sscanf(l, "%d %lf %lf %lf", &id, x, x + 1, x + 2) != 4)
            goto bad;
    }
    fclose(f);
    /* boundary faces: a vertex takes the role of its faces, ZERO before CORE before FREE */
    snprintf(path, sizeof path, "%s/in.1.face", dir);
    if (!(role = malloc((size_t)nv))) {
        tc_tetmesh_free(m);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    for (int i = 0; i < nv; i++)
        role[i] = -1;
    f = fopen(path, "r");
    if (!f || !(l = next_line(f, buf, sizeof buf)) || sscanf(l, "%d %d", &nf, &bm) != 2 || bm != 1)
        goto bad;
    for (int i = 0; i < nf; i++) {
        int mk;
        if (!(l = next_line(f, buf, sizeof buf)) ||
            sscanf(l, "%d %d %d %d %d", &id, &a, &b, &c, &mk) != 5 || a < 0 || a >= nv || b < 0 ||
            b >= nv || c < 0 || c >= nv || mk < 1 || mk > 3)
            goto bad;
        int v[3] = {a, b, c};
        static const int rank[3] = {0, 2, 1}; /* FREE < CORE < ZERO */
        for (int k = 0; k < 3; k++)
            if (role[v[k]] < 0 || rank[mk - 1] > rank[role[v[k]]])
                role[v[k]] = (signed char)(mk - 1);
    }
    fclose(f);
    for (int i = 0; i < nv; i++)
        if (role[i] < 0) role[i] = TC_EPS_FREE;
    *out = m;
    *rolep = role;
    return TC_OK;
bad:
    if (f) fclose(f);
    tc_tetmesh_free(m);
    free(role);
    char last[300];
    log_tail(dir, last, sizeof last);
    return tc_error_set(err, TC_EENGINE, path, 0, "tetgen",
                        "missing or malformed tetgen output (is the surface closed and free of "
                        "self-intersections?): %s",
                        last);
}

/* distance from x to triangle (a, b, c) (Ericson's closest-point regions) */
static double tri_dist(const double *x, const double *a, const double *b, const double *c) {
    double ab[3], ac[3], ap[3], bp[3], cp[3], q[3], d[3];
    tc_v3_sub(ab, b, a);
    tc_v3_sub(ac, c, a);
    tc_v3_sub(ap, x, a);
    double d1 = tc_v3_dot(ab, ap), d2 = tc_v3_dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return tc_v3_norm(ap);
    tc_v3_sub(bp, x, b);
    double d3 = tc_v3_dot(ab, bp), d4 = tc_v3_dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return tc_v3_norm(bp);
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        tc_v3_copy(q, a);
        tc_v3_addscl(q, ab, d1 / (d1 - d3));
        tc_v3_sub(d, x, q);
        return tc_v3_norm(d);
    }
    tc_v3_sub(cp, x, c);
    double d5 = tc_v3_dot(ab, cp), d6 = tc_v3_dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return tc_v3_norm(cp);
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        tc_v3_copy(q, a);
        tc_v3_addscl(q, ac, d2 / (d2 - d6));
        tc_v3_sub(d, x, q);
        return tc_v3_norm(d);
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        double bc[3];
        tc_v3_sub(bc, c, b);
        tc_v3_copy(q, b);
        tc_v3_addscl(q, bc, w);
        tc_v3_sub(d, x, q);
        return tc_v3_norm(d);
    }
    double den = 1 / (va + vb + vc);
    tc_v3_copy(q, a);
    tc_v3_addscl(q, ab, vb * den);
    tc_v3_addscl(q, ac, vc * den);
    tc_v3_sub(d, x, q);
    return tc_v3_norm(d);
}

/* the Laplace builder's surface: a modulus, at least 4 finite vertices and 4 triangles whose
 * indices are in range, roles FREE, ZERO or CORE with at least one ZERO triangle; ncore gets the
 * CORE triangles */
static tc_status check_surface(const double *vert, int nv, const int *tri, int nt,
                               const signed char *role, double E, int *ncore, tc_error *err) {
    if (!(E > 0) || !isfinite(E))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "E", "must be finite and > 0 Pa (got %g)", E);
    if (nv < 4 || nt < 4)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "surface",
                            "a closed surface needs at least 4 vertices and 4 triangles");
    for (int i = 0; i < 3 * nv; i++)
        if (!isfinite(vert[i]))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "surface", "vertex %d is not finite",
                                i / 3);
    int nzero = 0;
    *ncore = 0;
    for (int i = 0; i < nt; i++) {
        for (int k = 0; k < 3; k++)
            if (tri[3 * i + k] < 0 || tri[3 * i + k] >= nv)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "surface",
                                    "triangle %d refers to vertex %d of %d", i, tri[3 * i + k], nv);
        int r = role ? role[i] : TC_EPS_ZERO;
        if (r < TC_EPS_FREE || r > TC_EPS_CORE)
            return tc_error_set(err, TC_EINVAL, NULL, 0, "role", "triangle %d: role %d", i, r);
        nzero += r == TC_EPS_ZERO;
        *ncore += r == TC_EPS_CORE;
    }
    if (!nzero) return tc_error_set(err, TC_EINVAL, NULL, 0, "role", "no triangle has eps = 0");
    return TC_OK;
}

/* the options: a core (CORE triangles, core points or a core fraction), radius-edge >= 1.1, core
 * points given when counted, a tetgen program */
static tc_status check_opts(const tc_tetmesh_laplace_opts *o, int ncoref, tc_error *err) {
    if (!ncoref && !(o->core_fraction > 0) && o->ncore_pts <= 0)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "core",
                            "no core: give CORE triangles, core points or a core fraction > 0");
    if (!(o->radius_edge >= 1.1) || !(o->core_fraction <= 1) || o->ncore_pts < 0 ||
        (o->ncore_pts > 0 && !o->core_pts) || !o->tetgen || !*o->tetgen)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "opts",
                            "radius_edge >= 1.1, core_fraction <= 1, core points and tetgen set");
    return TC_OK;
}

/* core points: the mesh vertex at each (tetgen inserted them) becomes CORE */
static void core_points(const tc_tetmesh *m, signed char *vr, const tc_tetmesh_laplace_opts *o) {
    for (int p = 0; p < o->ncore_pts; p++) {
        int best = -1;
        double bd = DBL_MAX;
        for (int i = 0; i < m->nvert; i++) {
            double dd[3];
            tc_v3_sub(dd, m->vert + 3 * i, o->core_pts + 3 * p);
            if (tc_v3_norm(dd) < bd) {
                bd = tc_v3_norm(dd);
                best = i;
            }
        }
        if (vr[best] == TC_EPS_FREE) vr[best] = TC_EPS_CORE;
    }
}

/* core by depth: a FREE vertex at least core_fraction times the deepest vertex's distance from
 * the ZERO input triangles becomes CORE */
static tc_status core_by_depth(const tc_tetmesh *m, signed char *vr, const double *vert,
                               const int *tri, int nt, const signed char *role, double fraction) {
    double *dist = malloc((size_t)m->nvert * sizeof *dist), dmax = 0;
    if (!dist) return TC_ENOMEM;
    for (int i = 0; i < m->nvert; i++) {
        dist[i] = DBL_MAX;
        for (int t = 0; t < nt; t++)
            if (!role || role[t] == TC_EPS_ZERO)
                dist[i] =
                    fmin(dist[i], tri_dist(m->vert + 3 * i, vert + 3 * tri[3 * t],
                                           vert + 3 * tri[3 * t + 1], vert + 3 * tri[3 * t + 2]));
        if (vr[i] != TC_EPS_ZERO) dmax = fmax(dmax, dist[i]);
    }
    for (int i = 0; i < m->nvert; i++)
        if (vr[i] == TC_EPS_FREE && dmax > 0 && dist[i] >= fraction * dmax) vr[i] = TC_EPS_CORE;
    free(dist);
    return TC_OK;
}

/* the mesh's surface, then its field from the vertex roles vr */
static tc_status surface_and_field(tc_tetmesh *m, const signed char *vr,
                                   const tc_tetmesh_laplace_opts *o, tc_tetmesh_laplace_info *info,
                                   tc_error *err) {
    if (tc_tetmesh_build_surface(m))
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    int ncore = 0;
    for (int i = 0; i < m->nvert; i++)
        ncore += vr[i] == TC_EPS_CORE;
    if (!ncore)
        return tc_error_set(
            err, TC_EINVAL, NULL, 0, "core",
            "no core vertex in the mesh: refine (max_volume) or lower core_fraction");
    return tc_tetmesh_laplace_solve(m, vr, o->tol, o->max_iter, info, err);
}

/* tetgen on the surface in a fresh scratch folder (one a killed run left goes first): the mesh
 * and its vertices' roles */
static tc_status tetgen_mesh(const double *vert, int nv, const int *tri, int nt,
                             const signed char *role, double E, const tc_tetmesh_laplace_opts *o,
                             tc_tetmesh **m, signed char **vr, tc_error *err) {
    char dir[1024];
    tc_status st = tc_scratch_dir("tetgen", dir, sizeof dir, err);
    if (st) return st;
    st = write_poly(dir, vert, nv, tri, nt, role, o, err);
    if (!st) st = run_tetgen(dir, o, err);
    if (!st) st = tc_tetmesh_read_tetgen(dir, E, m, vr, err);
    tc_scratch_done(dir);
    return st;
}

tc_status tc_tetmesh_laplace_alloc(tc_tetmesh **out, const double *vert, int nv, const int *tri,
                                   int nt, const signed char *role, double E,
                                   const tc_tetmesh_laplace_opts *o, tc_tetmesh_laplace_info *info,
                                   tc_error *err) {
    tc_tetmesh_laplace_opts def = tc_tetmesh_laplace_defaults();
    if (!o) o = &def;
    if (info) memset(info, 0, sizeof *info);
    /* the input: a closed surface, roles, options */
    int ncoref = 0;
    tc_status st = check_surface(vert, nv, tri, nt, role, E, &ncoref, err);
    if (!st) st = check_opts(o, ncoref, err);
    tc_tetmesh *m = NULL;
    signed char *vr = NULL;
    if (!st) st = tetgen_mesh(vert, nv, tri, nt, role, E, o, &m, &vr, err);
    if (st) return st;
    /* the core (inserted points, depth), the surface, then the field */
    core_points(m, vr, o);
    if (o->core_fraction > 0 && core_by_depth(m, vr, vert, tri, nt, role, o->core_fraction))
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    if (!st) st = surface_and_field(m, vr, o, info, err);
    if (st) {
        tc_tetmesh_free(m);
        free(vr);
        return st;
    }
    *out = m;
    if (info)
        info->role = vr;
    else
        free(vr);
    return TC_OK;
}
