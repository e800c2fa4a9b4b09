/* SPDX-License-Identifier: MIT */
/* mesh builders: volumes, fields, Laplace solutions, degenerate input, missing tetgen, tetgen's
 * output read back */
#include <criterion/criterion.h>
#include <libqhull_r/qhull_ra.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "geom/tc_tetmesh_build.h"
#include "test_tmp.h"

/* the sum of the tet volumes, each checked positive */
static double mesh_volume(const tc_tetmesh *m) {
    double v = 0;
    for (int i = 0; i < m->ntet; i++) {
        double vi = tc_tetmesh_tet_volume(m, i);
        cr_assert_gt(vi, 0, "tet %d has volume %g", i, vi);
        v += vi;
    }
    return v;
}

/* the volume enclosed by the surface triangles (divergence theorem: checks their orientation) */
static double surface_volume(const tc_tetmesh *m) {
    double v = 0;
    for (int i = 0; i < m->ntri; i++) {
        const double *a = m->vert + 3 * m->tri[3 * i], *b = m->vert + 3 * m->tri[3 * i + 1],
                     *c = m->vert + 3 * m->tri[3 * i + 2];
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
              a[2] * (b[0] * c[1] - b[1] * c[0])) /
             6;
    }
    return v;
}

/* eps in [0, 1] everywhere and p0 = g.x + c = E eps at every tet vertex */
static void check_field(const tc_tetmesh *m) {
    for (int i = 0; i < m->nvert; i++)
        cr_assert(m->eps[i] >= 0 && m->eps[i] <= 1, "eps[%d] = %g", i, m->eps[i]);
    for (int i = 0; i < m->ntet; i++)
        for (int k = 0; k < 4; k++) {
            int v = m->tet[4 * i + k];
            const double *x = m->vert + 3 * v, *g = m->grad + 3 * i;
            double p = g[0] * x[0] + g[1] * x[1] + g[2] * x[2] + m->c[i];
            cr_assert(fabs(p - m->E * m->eps[v]) <= 1e-9 * m->E, "tet %d vertex %d: %g vs %g", i, k,
                      p, m->E * m->eps[v]);
        }
}

/* every vertex of a surface triangle has eps = 0 */
static void check_surface_zero(const tc_tetmesh *m) {
    cr_assert_gt(m->ntri, 0);
    for (int i = 0; i < 3 * m->ntri; i++)
        cr_assert_eq(m->eps[m->tri[i]], 0.0, "surface vertex %d has eps %g", m->tri[i],
                     m->eps[m->tri[i]]);
}

/* |K eps| over the free rows relative to |K_fixed eps_fixed|, assembled here independently */
static double laplace_residual(const tc_tetmesh *m, const signed char *role) {
    double *r = calloc((size_t)m->nvert, sizeof *r), *b = calloc((size_t)m->nvert, sizeof *b);
    cr_assert(r && b);
    for (int e = 0; e < m->ntet; e++) {
        const int *t = m->tet + 4 * e;
        const double *x0 = m->vert + 3 * t[0];
        double ed[3][3], g[4][3] = {{0}}, det;
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                ed[k][j] = m->vert[3 * t[k + 1] + j] - x0[j];
        /* barycentric gradients: rows of the inverse edge matrix */
        det = ed[0][0] * (ed[1][1] * ed[2][2] - ed[1][2] * ed[2][1]) -
              ed[0][1] * (ed[1][0] * ed[2][2] - ed[1][2] * ed[2][0]) +
              ed[0][2] * (ed[1][0] * ed[2][1] - ed[1][1] * ed[2][0]);
        for (int k = 0; k < 3; k++) {
            const double *u = ed[(k + 1) % 3], *w = ed[(k + 2) % 3];
            g[k + 1][0] = (u[1] * w[2] - u[2] * w[1]) / det;
            g[k + 1][1] = (u[2] * w[0] - u[0] * w[2]) / det;
            g[k + 1][2] = (u[0] * w[1] - u[1] * w[0]) / det;
            for (int j = 0; j < 3; j++)
                g[0][j] -= g[k + 1][j];
        }
        double vol = fabs(det) / 6;
        for (int a = 0; a < 4; a++) {
            if (role[t[a]] != TC_EPS_FREE) continue;
            for (int c = 0; c < 4; c++) {
                double k = vol * (g[a][0] * g[c][0] + g[a][1] * g[c][1] + g[a][2] * g[c][2]);
                r[t[a]] += k * m->eps[t[c]];
                if (role[t[c]] != TC_EPS_FREE) b[t[a]] += k * m->eps[t[c]];
            }
        }
    }
    double nr = 0, nb = 0;
    for (int i = 0; i < m->nvert; i++) {
        nr += r[i] * r[i];
        nb += b[i] * b[i];
    }
    free(r);
    free(b);
    return nb > 0 ? sqrt(nr / nb) : sqrt(nr);
}

/* tetgen somewhere in PATH */
static int have_tetgen(void) {
    const char *path = getenv("PATH");
    char buf[4096], file[4200];
    snprintf(buf, sizeof buf, "%s", path ? path : "");
    for (char *s = strtok(buf, ":"); s; s = strtok(NULL, ":")) {
        snprintf(file, sizeof file, "%s/tetgen", s);
        if (access(file, X_OK) == 0) return 1;
    }
    return 0;
}

/* the closed surface of a union of unit voxels (cells[3 k] .. integer corners), scaled by s:
 * unshared voxel faces, two outward triangles each; vertices on the integer grid 0..g */
static void voxel_surface(const int *cells, int nc, int g, double s, double **vert, int *nv,
                          int **tri, int *nt) {
    int n1 = g + 1;
    *nv = n1 * n1 * n1;
    *vert = malloc(3 * (size_t)*nv * sizeof **vert);
    *tri = malloc(12 * 2 * 3 * (size_t)nc * sizeof **tri);
    cr_assert(*vert && *tri);
    for (int i = 0; i < *nv; i++) {
        (*vert)[3 * i] = s * (i % n1);
        (*vert)[3 * i + 1] = s * (i / n1 % n1);
        (*vert)[3 * i + 2] = s * (i / n1 / n1);
    }
    *nt = 0;
    /* face quads counter-clockwise from outside, as corner bit patterns (bit k: +1 along k) */
    static const int quad[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                   {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    static const int dir[6][3] = {{-1, 0, 0}, {1, 0, 0},  {0, -1, 0},
                                  {0, 1, 0},  {0, 0, -1}, {0, 0, 1}};
    for (int c = 0; c < nc; c++)
        for (int f = 0; f < 6; f++) {
            int nb[3] = {cells[3 * c] + dir[f][0], cells[3 * c + 1] + dir[f][1],
                         cells[3 * c + 2] + dir[f][2]},
                shared = 0;
            for (int o = 0; o < nc; o++)
                shared |=
                    cells[3 * o] == nb[0] && cells[3 * o + 1] == nb[1] && cells[3 * o + 2] == nb[2];
            if (shared) continue;
            int v[4];
            for (int k = 0; k < 4; k++) {
                int b = quad[f][k];
                v[k] = (cells[3 * c] + (b & 1)) + n1 * ((cells[3 * c + 1] + (b >> 1 & 1)) +
                                                        n1 * (cells[3 * c + 2] + (b >> 2 & 1)));
            }
            int t[6] = {v[0], v[1], v[2], v[0], v[2], v[3]};
            memcpy(*tri + 3 * *nt, t, sizeof t);
            *nt += 2;
        }
}

/* a surface's own volume (divergence theorem over its triangles) */
static double tri_volume(const double *x, const int *tri, int nt) {
    double v = 0;
    for (int i = 0; i < nt; i++) {
        const double *a = x + 3 * tri[3 * i], *b = x + 3 * tri[3 * i + 1],
                     *c = x + 3 * tri[3 * i + 2];
        v += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
              a[2] * (b[0] * c[1] - b[1] * c[0])) /
             6;
    }
    return v;
}

/* ellipsoid: the volume-matched icosphere stretched by the semi-axes: every surface vertex on
 * the ellipsoid scaled by one factor k just above 1, and the ellipsoid's volume exactly */
Test(tetmesh_build, ellipsoid) {
    const double abc[3] = {0.3, 0.2, 0.1}, E = 2e5;
    tc_error err;
    tc_error_clear(&err);
    for (int level = 0; level <= 4; level++) {
        tc_tetmesh *m;
        cr_assert_eq(tc_tetmesh_ellipsoid_alloc(&m, abc, level, E, &err), TC_OK, "%s", err.msg);
        cr_assert_eq(m->ntet, 20 << (2 * level));
        /* surface vertices on the ellipsoid scaled by k: (x / a)^2 + (y / b)^2 + (z / c)^2 = k^2 */
        double k2 = -1;
        for (int i = 0; i < 3 * m->ntri; i++) {
            const double *x = m->vert + 3 * m->tri[i];
            double q = 0;
            for (int k = 0; k < 3; k++)
                q += (x[k] / abc[k]) * (x[k] / abc[k]);
            if (k2 < 0) k2 = q;
            cr_assert_float_eq(q, k2, 1e-12);
        }
        cr_assert(k2 > 1 && k2 < 1.5, "level %d: k^2 = %g", level, k2);
        double V = 4.0 / 3 * M_PI * abc[0] * abc[1] * abc[2], v = mesh_volume(m);
        cr_assert_float_eq(v, V, 1e-12 * V, "level %d: volume %.15g vs %.15g", level, v, V);
        cr_assert_float_eq(surface_volume(m), v, 1e-12 * V);
        check_surface_zero(m);
        check_field(m);
        tc_tetmesh_free(m);
    }
    /* bad input */
    tc_tetmesh *m;
    const double bad[3] = {0.3, 0, 0.1};
    cr_assert_eq(tc_tetmesh_ellipsoid_alloc(&m, bad, 2, E, &err), TC_EINVAL);
    cr_assert_eq(tc_tetmesh_ellipsoid_alloc(&m, abc, 7, E, &err), TC_EINVAL);
}

/* hull: exact volumes of a cube and an octahedron with interior and face points */
Test(tetmesh_build, hull_exact) {
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    /* the unit cube's corners, its face centres and interior points */
    double p[3 * 20];
    int n = 0;
    for (int i = 0; i < 8; i++, n++) {
        p[3 * n] = i & 1;
        p[3 * n + 1] = i >> 1 & 1;
        p[3 * n + 2] = i >> 2 & 1;
    }
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < 2; s++, n++) {
            p[3 * n] = p[3 * n + 1] = p[3 * n + 2] = 0.5;
            p[3 * n + k] = s;
        }
    for (int i = 0; i < 6; i++, n++) {
        p[3 * n] = 0.2 + 0.1 * i;
        p[3 * n + 1] = 0.7 - 0.05 * i;
        p[3 * n + 2] = 0.3 + 0.02 * i;
    }
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, p, n, 1e5, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(m->nvert, 9, "8 corners and the centroid (got %d)", m->nvert);
    cr_assert_eq(m->ntet, 12);
    cr_assert_float_eq(mesh_volume(m), 1.0, 1e-14);
    cr_assert_float_eq(surface_volume(m), 1.0, 1e-14);
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(m->vert[3 * 8 + k], 0.5, 1e-14);
    cr_assert_eq(m->eps[8], 1.0);
    check_surface_zero(m);
    check_field(m);
    tc_tetmesh_free(m);
    /* an octahedron |x| + |y| + |z| <= 1 off the origin: volume 4/3 */
    double q[3 * 7] = {1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0.1, 0.2, 0.3};
    for (int i = 0; i < 21; i++)
        q[i] += i % 3 == 0 ? 5 : -2;
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, q, 7, 1e5, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(m->ntet, 8);
    cr_assert_float_eq(mesh_volume(m), 4.0 / 3, 1e-13);
    check_surface_zero(m);
    check_field(m);
    tc_tetmesh_free(m);
}

/* hull of random points: the mesh volume is qhull's own hull volume */
Test(tetmesh_build, hull_random) {
    enum { N = 400 };
    static double p[3 * N];
    unsigned s = 12345;
    for (int i = 0; i < 3 * N; i++) {
        s = s * 1103515245u + 12345u;
        p[i] = (s >> 8 & 0xffff) / 65536.0 * (i % 3 + 1);
    }
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, p, N, 1e5, &err), TC_OK, "%s", err.msg);
    /* the reference: qhull's total volume of the same points */
    qhT qh_qh, *qh = &qh_qh;
    FILE *dn = fopen("/dev/null", "w");
    qh_zero(qh, dn);
    coordT *c = malloc(sizeof p);
    memcpy(c, p, sizeof p);
    cr_assert_eq(qh_new_qhull(qh, 3, N, c, False, (char *)"qhull FA", NULL, dn), 0);
    qh_getarea(qh, qh->facet_list);
    double ref = qh->totvol;
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    free(c);
    fclose(dn);
    double v = mesh_volume(m);
    cr_assert_float_eq(v, ref, 1e-12 * ref, "mesh %.15g vs qhull %.15g", v, ref);
    cr_assert_float_eq(surface_volume(m), v, 1e-12 * v);
    check_surface_zero(m);
    check_field(m);
    /* every input point inside or on the hull: no tet face separates it (hull = convex) */
    for (int f = 0; f < m->ntri; f++) {
        const double *a = m->vert + 3 * m->tri[3 * f], *b = m->vert + 3 * m->tri[3 * f + 1],
                     *cc = m->vert + 3 * m->tri[3 * f + 2];
        double e1[3], e2[3], nrm[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = b[k] - a[k];
            e2[k] = cc[k] - a[k];
        }
        nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
        nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
        nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
        for (int i = 0; i < N; i++) {
            double d = 0;
            for (int k = 0; k < 3; k++)
                d += nrm[k] * (p[3 * i + k] - a[k]);
            cr_assert_leq(d, 1e-12, "point %d outside face %d", i, f);
        }
    }
    tc_tetmesh_free(m);
}

/* hull: coplanar, too few and non-finite points are refused with a status and a message */
Test(tetmesh_build, hull_degenerate) {
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m = NULL;
    double flat[3 * 6] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5, 0.3, 0, 0.2, 0.9, 0};
    tc_error_clear(&err);
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, flat, 6, 1e5, &err), TC_EINVAL);
    cr_assert_null(m);
    cr_assert(strstr(err.msg, "degenerate"), "%s", err.msg);
    cr_assert_str_eq(err.param, "points");
    /* collinear and coincident */
    double line[3 * 5] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4};
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, line, 5, 1e5, &err), TC_EINVAL);
    double same[3 * 4] = {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3};
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, same, 4, 1e5, &err), TC_EINVAL);
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, flat, 3, 1e5, &err), TC_EINVAL);
    double nan[3 * 4] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NAN};
    cr_assert_eq(tc_tetmesh_hull_alloc(&m, nan, 4, 1e5, &err), TC_EINVAL);
    cr_assert_null(m);
}

/* slab: volume, eps = depth / h, surface; the Laplace solve on it reproduces the same field */
Test(tetmesh_build, slab_linear) {
    const double size[2] = {0.4, 0.3}, h = 0.1;
    const int n[3] = {5, 4, 3};
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    cr_assert_eq(tc_tetmesh_slab_alloc(&m, size, h, n, 1e5, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(m->ntet, 6 * 5 * 4 * 3);
    cr_assert_eq(m->nvert, 6 * 5 * 4);
    cr_assert_eq(m->ntri, 4 * (5 * 4 + 5 * 3 + 4 * 3));
    cr_assert_float_eq(mesh_volume(m), 0.4 * 0.3 * 0.1, 1e-15);
    cr_assert_float_eq(surface_volume(m), 0.4 * 0.3 * 0.1, 1e-15);
    check_field(m);
    for (int i = 0; i < m->nvert; i++)
        cr_assert_float_eq(m->eps[i], -m->vert[3 * i + 2] / h, 1e-14);
    for (int i = 0; i < m->ntet; i++) {
        cr_assert_float_eq(m->grad[3 * i + 2], -1e5 / h, 1e-6);
        cr_assert_float_eq(m->grad[3 * i], 0, 1e-6);
    }
    /* top ZERO, bottom CORE, sides free: the discrete solution is the linear field itself */
    signed char *role = malloc((size_t)(unsigned)m->nvert);
    cr_assert_not_null(role);
    for (int i = 0; i < m->nvert; i++) {
        double z = m->vert[3 * i + 2];
        role[i] = z == 0 ? TC_EPS_ZERO : z == -h ? TC_EPS_CORE : TC_EPS_FREE;
        m->eps[i] = 0.5; /* a wrong start everywhere */
    }
    tc_tetmesh_laplace_info info;
    cr_assert_eq(tc_tetmesh_laplace_solve(m, role, 1e-12, 1000, &info, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(info.nzero, 30);
    cr_assert_eq(info.ncore, 30);
    cr_assert_eq(info.nfree, 60);
    cr_assert_leq(info.residual, 1e-8);
    cr_assert_leq(laplace_residual(m, role), 1e-8);
    for (int i = 0; i < m->nvert; i++)
        cr_assert_float_eq(m->eps[i], -m->vert[3 * i + 2] / h, 1e-6, "vertex %d", i);
    check_field(m);
    free(role);
    tc_tetmesh_free(m);
    /* bad input */
    const int bad[3] = {0, 1, 1};
    cr_assert_eq(tc_tetmesh_slab_alloc(&m, size, h, bad, 1e5, &err), TC_EINVAL);
    cr_assert_eq(tc_tetmesh_slab_alloc(&m, size, -1, n, 1e5, &err), TC_EINVAL);
}

/* tetgen box with a planar core (the bottom face): exact volume, linear eps to 1e-6, harmonic */
Test(tetmesh_build, laplace_box_planar_core) {
    if (!have_tetgen()) cr_skip_test("tetgen not installed");
    const int cell[3] = {0, 0, 0};
    double *v;
    int *t, nv, nt;
    voxel_surface(cell, 1, 1, 1.0, &v, &nv, &t, &nt);
    /* box [0, 0.4] x [0, 0.3] x [-0.1, 0]: top ZERO, bottom CORE, sides FREE */
    for (int i = 0; i < nv; i++) {
        v[3 * i] *= 0.4;
        v[3 * i + 1] *= 0.3;
        v[3 * i + 2] = 0.1 * (v[3 * i + 2] - 1);
    }
    signed char role[12];
    for (int f = 0; f < nt; f++) {
        double zc = (v[3 * t[3 * f] + 2] + v[3 * t[3 * f + 1] + 2] + v[3 * t[3 * f + 2] + 2]) / 3;
        role[f] = fabs(zc) < 1e-12         ? TC_EPS_ZERO
                  : fabs(zc + 0.1) < 1e-12 ? TC_EPS_CORE
                                           : TC_EPS_FREE;
    }
    tc_tetmesh_laplace_opts o = tc_tetmesh_laplace_defaults();
    o.max_volume = 2e-5;
    o.core_fraction = 0;
    tc_tetmesh_laplace_info info;
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    cr_assert_eq(tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, role, 1e5, &o, &info, &err), TC_OK,
                 "%s", err.msg);
    cr_assert_gt(info.nfree, 50, "too coarse a mesh (%d free vertices)", info.nfree);
    cr_assert_float_eq(mesh_volume(m), 0.4 * 0.3 * 0.1, 1e-14);
    cr_assert_float_eq(surface_volume(m), 0.4 * 0.3 * 0.1, 1e-14);
    cr_assert_leq(info.residual, 1e-8);
    cr_assert_leq(laplace_residual(m, info.role), 1e-8);
    for (int i = 0; i < m->nvert; i++)
        cr_assert_float_eq(m->eps[i], -m->vert[3 * i + 2] / 0.1, 1e-6, "vertex %d at z %g", i,
                           m->vert[3 * i + 2]);
    check_field(m);
    tc_tetmesh_laplace_info_free(&info);
    tc_tetmesh_free(m);
    free(v);
    free(t);
}

/* tetgen cube, eps = 0 on the whole surface, core by depth and by a given point */
Test(tetmesh_build, laplace_cube_core) {
    if (!have_tetgen()) cr_skip_test("tetgen not installed");
    const int cell[3] = {0, 0, 0};
    double *v;
    int *t, nv, nt;
    voxel_surface(cell, 1, 1, 0.2, &v, &nv, &t, &nt);
    tc_tetmesh_laplace_opts o = tc_tetmesh_laplace_defaults();
    o.max_volume = 2e-5;
    tc_tetmesh_laplace_info info;
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    cr_assert_eq(tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, &o, &info, &err), TC_OK,
                 "%s", err.msg);
    cr_assert_float_eq(mesh_volume(m), 0.008, 1e-15);
    cr_assert_float_eq(surface_volume(m), 0.008, 1e-15);
    cr_assert_gt(info.ncore, 0);
    cr_assert_gt(info.nfree, 0);
    cr_assert_leq(info.residual, 1e-8);
    cr_assert_leq(laplace_residual(m, info.role), 1e-8);
    check_surface_zero(m);
    check_field(m);
    /* core vertices at 1, the rest strictly inside (0, 1) */
    for (int i = 0; i < m->nvert; i++) {
        if (info.role[i] == TC_EPS_CORE) cr_assert_eq(m->eps[i], 1.0);
        if (info.role[i] == TC_EPS_FREE) cr_assert(m->eps[i] > 0 && m->eps[i] < 1);
    }
    tc_tetmesh_laplace_info_free(&info);
    tc_tetmesh_free(m);
    /* a single core point at the centre, no depth core: eps = 1 exactly there */
    const double centre[3] = {0.1, 0.1, 0.1};
    o.core_fraction = 0;
    o.core_pts = centre;
    o.ncore_pts = 1;
    cr_assert_eq(tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, &o, &info, &err), TC_OK,
                 "%s", err.msg);
    cr_assert_eq(info.ncore, 1);
    int found = 0;
    for (int i = 0; i < m->nvert; i++)
        if (fabs(m->vert[3 * i] - 0.1) + fabs(m->vert[3 * i + 1] - 0.1) +
                fabs(m->vert[3 * i + 2] - 0.1) <
            1e-12) {
            found = 1;
            cr_assert_eq(m->eps[i], 1.0);
        }
    cr_assert(found, "the core point is a mesh vertex");
    cr_assert_leq(laplace_residual(m, info.role), 1e-8);
    check_surface_zero(m);
    check_field(m);
    tc_tetmesh_laplace_info_free(&info);
    tc_tetmesh_free(m);
    /* no core at all is refused */
    o.ncore_pts = 0;
    o.core_pts = NULL;
    cr_assert_eq(tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, &o, NULL, &err), TC_EINVAL);
    free(v);
    free(t);
}

/* a non-convex L-shape (three voxels): exact volume, eps 0 on the surface, harmonic */
Test(tetmesh_build, laplace_l_shape) {
    if (!have_tetgen()) cr_skip_test("tetgen not installed");
    const int cells[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    double *v;
    int *t, nv, nt;
    voxel_surface(cells, 3, 2, 0.1, &v, &nv, &t, &nt);
    cr_assert_float_eq(tri_volume(v, t, nt), 0.003, 1e-15);
    tc_tetmesh_laplace_opts o = tc_tetmesh_laplace_defaults();
    o.max_volume = 2e-6;
    o.core_fraction = 0.7;
    tc_tetmesh_laplace_info info;
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m;
    cr_assert_eq(tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, &o, &info, &err), TC_OK,
                 "%s", err.msg);
    cr_assert_float_eq(mesh_volume(m), 0.003, 1e-15);
    cr_assert_float_eq(surface_volume(m), 0.003, 1e-15);
    cr_assert_leq(info.residual, 1e-8);
    cr_assert_leq(laplace_residual(m, info.role), 1e-8);
    check_surface_zero(m);
    check_field(m);
    tc_tetmesh_laplace_info_free(&info);
    tc_tetmesh_free(m);
    free(v);
    free(t);
}

/* no tetgen in PATH: TC_EIO and a message naming it */
Test(tetmesh_build, tetgen_missing) {
    const int cell[3] = {0, 0, 0};
    double *v;
    int *t, nv, nt;
    voxel_surface(cell, 1, 1, 1.0, &v, &nv, &t, &nt);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent-touche-dir", 1);
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m = NULL;
    tc_status st = tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, NULL, NULL, &err);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
    cr_assert_eq(st, TC_EIO, "got %s: %s", tc_status_str(st), err.msg);
    cr_assert_null(m);
    cr_assert(strstr(err.msg, "tetgen"), "%s", err.msg);
    free(v);
    free(t);
}

/* a tetgen whose output header claims 400 million nodes in a file of a few bytes: refused as
 * malformed before anything is allocated (issue 33, finding 11: a malformed TetGen header count
 * allocated 9.7 GB) */
Test(tetmesh_build, a_header_count_beyond_the_file_is_refused) {
    char bin[] = "/tmp/touche-faketetgen-XXXXXX";
    cr_assert_not_null(mkdtemp(bin));
    char prog[600];
    snprintf(prog, sizeof prog, "%s/tetgen", bin);
    FILE *f = fopen(prog, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\nprintf '400000000 3 0 0\\n0 0 0 0\\n' > in.1.node\n"
          "printf '1 4 0\\n0 0 1 2 3\\n' > in.1.ele\n: > in.1.face\n",
          f);
    fclose(f);
    chmod(prog, 0755);
    const int cell[3] = {0, 0, 0};
    double *v;
    int *t, nv, nt;
    voxel_surface(cell, 1, 1, 1.0, &v, &nv, &t, &nt);
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", bin, 1);
#ifndef __SANITIZE_ADDRESS__
    /* 2 GiB of address space more than now: the 9.6 GB the header asks for cannot even be
     * reserved, so a reader that allocated first would fail with "out of memory" (ASan's shadow
     * needs the address space: no limit there) */
    struct rlimit lim;
    getrlimit(RLIMIT_AS, &lim);
    struct rlimit low = {lim.rlim_cur, lim.rlim_max};
    FILE *st_f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (st_f && fscanf(st_f, "%lu", &pages) == 1)
        low.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + ((rlim_t)2 << 30);
    if (st_f) fclose(st_f);
    if (pages) setrlimit(RLIMIT_AS, &low);
#endif
    tc_error err;
    tc_error_clear(&err);
    tc_tetmesh *m = NULL;
    tc_status st = tc_tetmesh_laplace_alloc(&m, v, nv, t, nt, NULL, 1e5, NULL, NULL, &err);
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }
    cr_expect_eq(st, TC_EENGINE, "got %s: %s", tc_status_str(st), err.msg);
    cr_expect_null(m);
    cr_expect(strstr(err.msg, "malformed tetgen output"), "%s", err.msg);
    free(v);
    free(t);
    unlink(prog);
    rmdir(bin);
}

/* text into file name of folder dir */
static void put_in(const char *dir, const char *name, const char *text) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* tetgen's output read back by the reader itself (tc_tetmesh_read_tetgen): two tets, the
 * vertices, the tets' indices, roles from face markers (ZERO over CORE over FREE whatever the
 * faces' order, FREE on no face); then a node header claiming more nodes than its file can hold
 * (by the file's size, and by its lines) refused as malformed, naming the file, nothing left */
Test(tetmesh_build, read_tetgen_output) {
    char dir[] = "/tmp/touche-readtetgen-XXXXXX";
    cr_assert_not_null(test_tmpdir(dir));
    static const char node[] = "# nodes\n5  3  0  0\n  0  0 0 0\n  1  1 0 0\n  2  0 1 0\n"
                               "  3  0 0 1\n  4  1 1 1.5\n";
    put_in(dir, "in.1.node", node);
    put_in(dir, "in.1.ele", "2  4  0\n  0  0 1 2 3\n  1  1 2 3 4\n# Generated by tetgen\n");
    put_in(dir, "in.1.face", "3  1\n  0  1 2 4  3\n  1  0 2 1  2\n  2  0 4 2  1\n");
    tc_tetmesh *m = NULL;
    signed char *role = NULL;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_tetmesh_read_tetgen(dir, 2e5, &m, &role, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(m->nvert, 5);
    cr_assert_eq(m->ntet, 2);
    cr_assert_eq(m->E, 2e5);
    static const int tet1[4] = {1, 2, 3, 4};
    for (int k = 0; k < 4; k++)
        cr_expect_eq(m->tet[4 + k], tet1[k], "tet 1 vertex %d: %d", k, m->tet[4 + k]);
    cr_expect(m->vert[12] == 1 && m->vert[13] == 1 && m->vert[14] == 1.5);
    static const signed char want[5] = {TC_EPS_ZERO, TC_EPS_ZERO, TC_EPS_ZERO, TC_EPS_FREE,
                                        TC_EPS_CORE};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(role[i], want[i], "vertex %d: role %d", i, role[i]);
    tc_tetmesh_free(m);
    free(role);
    /* 400 million nodes in a few bytes (the size bound), then 6 in a file of 5 (the lines) */
    static const char *const headers[] = {"400000000  3  0  0\n", "6  3  0  0\n"};
    for (int h = 0; h < 2; h++) {
        char text[sizeof node + 32];
        snprintf(text, sizeof text, "%s%s", headers[h], strstr(node, "  0  0 0 0"));
        put_in(dir, "in.1.node", text);
        m = NULL;
        role = NULL;
        tc_error_clear(&err);
        cr_expect_eq(tc_tetmesh_read_tetgen(dir, 2e5, &m, &role, &err), TC_EENGINE, "%s",
                     headers[h]);
        cr_expect(m == NULL && role == NULL);
        cr_expect(strstr(err.msg, "malformed tetgen output") && strstr(err.file, "in.1.node"),
                  "%s: %s", err.file, err.msg);
    }
}
