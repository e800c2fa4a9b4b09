/* SPDX-License-Identifier: MIT */
/* the convex polytope shape: qhull's hull of a point set, coplanar facets merged into polygons */
#include "geom/tc_shape.h"
#include "math/tc_vec.h"

#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* more input points than this is surely a mistake (the hull keeps at most TC_POLY_MAXVERT) */
#define POLY_MAXINPUT 1000000

/* the first sentence of qhull's message (it then lists its options), on one line */
static void qhull_message(char *dst, size_t n, const char *buf) {
    dst[0] = 0;
    if (!buf) return;
    const char *p = strstr(buf, "QH");
    snprintf(dst, n, "%s", p ? p : buf);
    char *w = strstr(dst, "While executing");
    if (w) *w = 0;
    for (char *c = dst; *c; c++)
        if (*c == '\n') *c = ' ';
    for (size_t k = strlen(dst); k > 0 && dst[k - 1] == ' '; k--)
        dst[k - 1] = 0;
}

/* order the k vertex indices of a face counter-clockwise about the outward normal n: by angle
 * about their mean in the basis (u, n x u), ties to the lower index (insertion sort) */
static void order_loop(const double (*vert)[3], const double n[3], int *idx, int k) {
    double c[3] = {0, 0, 0}, u[3], w[3], ang[TC_POLY_MAXVERT];
    for (int i = 0; i < k; i++)
        tc_v3_addscl(c, vert[idx[i]], 1.0 / k);
    tc_v3_orthonormal(n, u, w);
    tc_v3_cross(w, n, u);
    for (int i = 0; i < k; i++) {
        double r[3];
        tc_v3_sub(r, vert[idx[i]], c);
        ang[i] = atan2(tc_v3_dot(r, w), tc_v3_dot(r, u));
    }
    for (int i = 1; i < k; i++) {
        double a = ang[i];
        int v = idx[i], j = i - 1;
        while (j >= 0 && (ang[j] > a || (ang[j] == a && idx[j] > v))) {
            ang[j + 1] = ang[j];
            idx[j + 1] = idx[j];
            j--;
        }
        ang[j + 1] = a;
        idx[j + 1] = v;
    }
}

/* the plane of a loop: Newell's normal (exact for a planar polygon, and for an axis-aligned one
 * exactly axial), and d the largest n . v over its vertices, so every vertex is on or below */
static void loop_plane(const double (*vert)[3], const int *idx, int k, double pl[4]) {
    double n[3] = {0, 0, 0};
    for (int i = 0; i < k; i++) {
        const double *a = vert[idx[i]], *b = vert[idx[(i + 1) % k]];
        n[0] += (a[1] - b[1]) * (a[2] + b[2]);
        n[1] += (a[2] - b[2]) * (a[0] + b[0]);
        n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    tc_v3_normalize(n);
    double d = -INFINITY;
    for (int i = 0; i < k; i++)
        d = fmax(d, tc_v3_dot(n, vert[idx[i]]));
    tc_v3_copy(pl, n);
    pl[3] = d;
}

tc_status tc_polytope(tc_shape *out, const double (*v)[3], int n, tc_error *err) {
    memset(out, 0, sizeof *out);
    out->type = TC_SHAPE_POLYTOPE;
    /* the hull is built here, checked, then interned */
    tc_hull hb, *h = &hb;
    memset(h, 0, sizeof *h);
    if (n < 4 || n > POLY_MAXINPUT)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                            "a polytope needs 4 to %d points (got %d)", POLY_MAXINPUT, n);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(v[i][k]))
                return tc_error_set(err, TC_EINVAL, NULL, 0, "vertices", "point %d is not finite",
                                    i);
    /* qhull wants a writable copy; its messages go to a memory stream */
    coordT *p = malloc(3 * (size_t)n * sizeof *p);
    int *map = malloc((size_t)n * sizeof *map);
    char *ebuf = NULL, msg[400];
    size_t elen = 0;
    FILE *ef = open_memstream(&ebuf, &elen);
    if (!p || !map || !ef) {
        free(p);
        free(map);
        if (ef) fclose(ef);
        free(ebuf);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            p[3 * i + k] = v[i][k];
    /* default options: in 3-d qhull merges facets that are coplanar within its roundoff
     * ("C-0"), so each facet is a polygon of the hull (a cube: 6) */
    qhT qh_qh, *qh = &qh_qh;
    qh_zero(qh, ef);
    int code = qh_new_qhull(qh, 3, n, p, False, (char *)"qhull", NULL, ef);
    tc_status st = TC_OK;
    if (code) {
        fflush(ef);
        qhull_message(msg, sizeof msg, ebuf);
        st =
            tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                         "the points are coplanar or coincident%s%s", *msg ? ": qhull: " : "", msg);
        goto done;
    }
    if (qh->num_vertices > TC_POLY_MAXVERT || qh->num_facets > TC_POLY_MAXFACE) {
        st = tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                          "the hull has %d vertices (at most %d)", qh->num_vertices,
                          TC_POLY_MAXVERT);
        goto done;
    }
    /* hull vertices in input order */
    facetT *facet;
    vertexT *vertex, **vertexp;
    for (int i = 0; i < n; i++)
        map[i] = -1;
    FORALLvertices map[qh_pointid(qh, vertex->point)] = 0;
    for (int i = 0; i < n; i++)
        if (map[i] == 0) {
            map[i] = h->nvert;
            tc_v3_copy(h->vert[h->nvert++], v[i]);
        }
    /* each facet: its vertices as a counter-clockwise loop, the plane refitted through them */
    int nl = 0;
    FORALLfacets {
        int idx[TC_POLY_MAXVERT], k = 0;
        FOREACHvertex_(facet->vertices) if (k < TC_POLY_MAXVERT) idx[k++] =
            map[qh_pointid(qh, vertex->point)];
        if (k < 3 || nl + k > TC_POLY_MAXLOOP || h->nface >= TC_POLY_MAXFACE) {
            st = tc_error_set(err, TC_EINVAL, NULL, 0, "vertices",
                              "qhull gave a facet of %d vertices", k);
            goto done;
        }
        double qn[3] = {facet->normal[0], facet->normal[1], facet->normal[2]};
        order_loop((const double(*)[3])h->vert, qn, idx, k);
        double *pl = h->face[h->nface];
        loop_plane((const double(*)[3])h->vert, idx, k, pl);
        h->fofs[h->nface] = (unsigned char)nl;
        h->fnv[h->nface] = (unsigned char)k;
        for (int i = 0; i < k; i++)
            h->fv[nl++] = (unsigned char)idx[i];
        h->nface++;
    }
    out->hull = h;
    st = tc_shape_check(out, err);
    out->hull = NULL;
    if (!st && !(out->hull = tc_hull_intern(h)))
        st = tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
done : {
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
}
    free(p);
    free(map);
    fclose(ef);
    free(ebuf);
    return st;
}
