/* SPDX-License-Identifier: MIT */
/* penetration geometry for penalty methods (Drumwright 2008, appendix I): surface points of convex
 * shapes, the points of one shape inside the other, the contact normal of eq. 4, the bottom of the
 * penetration volume, and the deepest point (libccd's MPR for convex pairs, support points against
 * planes) */
#ifndef TC_PENETRATION_H
#define TC_PENETRATION_H

#include "dyn/tc_system.h"

#define TC_SURF_MAXNORMAL 3 /* most faces that meet at one surface point (a box corner) */

/* a convex shape's surface for penetration queries, body frame */
typedef struct tc_surface {
    int npoint;
    double (*p)[3];                    /* points on the surface (m): vertices and Steiner points */
    double (*n)[TC_SURF_MAXNORMAL][3]; /* outward unit normals of the faces meeting at each point */
    unsigned char *nn;                 /* how many normals point i has (1..TC_SURF_MAXNORMAL) */
    int nface;
    double (*face)[4];                 /* face planes n . x = d (unit outward n, d in m) */
    double radius;                     /* bounding sphere about the body origin (m); INFINITY for
                                        * a plane */
} tc_surface;

/* the surface of a shape with points at most h (m) apart:
 * box: a grid on every face including edges and corners (corner points carry 3 normals, edge
 *      points 2); faces: the 6 face planes;
 * sphere: an icosphere subdivided until its edges are <= h (normals radial); faces: its
 *      triangles' planes;
 * cylinder: rings on the side and on the caps, rims with 2 normals; faces: the caps and the
 *      planes of the side's polygon;
 * plane: no points, one face (z = 0, normal +z).
 * Other shapes: TC_EUNSUP naming the shape. */
tc_status tc_surface_alloc(tc_surface *s, const tc_shape *sh, double h, tc_error *err);
void tc_surface_free(tc_surface *s);

/* one point of the bottom of a penetration volume */
typedef struct tc_pen_point {
    double p[3];  /* world position (m), on the surface of the body the normal points toward */
    double depth; /* below the contact plane along the contact normal (m), >= 0 */
} tc_pen_point;

/* the penetration between two posed shapes */
typedef struct tc_penetration {
    double normal[3]; /* unit contact normal, world, pointing from b toward a (it separates a) */
    double plane_d;   /* contact plane normal . x = plane_d (m), world */
    int n;            /* bottom points written */
    double depth;     /* the largest depth among them (m) */
} tc_penetration;

/* scratch for tc_penetrate, sized for two surfaces of up to npoint points each */
typedef struct tc_pen_work tc_pen_work;
tc_pen_work *tc_pen_work_alloc(int npoint);
void tc_pen_work_free(tc_pen_work *w);

/* the bottom of the penetration volume of a (surface SA, posed by A) and b (SB, B):
 * 1. the points of each surface inside the other shape (exact signed distance, < 0);
 * 2. eq. 4: among the faces of b, scored by a's inside points, and the faces of a, scored by b's,
 *    the face that minimises the largest distance of those points to its plane; its outward normal
 *    points toward the other body (call it p) and its plane is the contact plane;
 * 3. the bottom: p's inside points with at least one surface normal n_s with n_s . normal <= 0
 *    (the part of the volume's surface facing the contact normal's opposite);
 * each with its depth below the contact plane. Writes at most max points into pts and returns
 * out->n (0 when nothing penetrates; then out's normal is undefined). Allocates nothing. */
int tc_penetrate(const tc_shape *sa, const tc_surface *SA, const tc_body_state *A,
                 const tc_shape *sb, const tc_surface *SB, const tc_body_state *B, tc_pen_work *w,
                 tc_penetration *out, tc_pen_point *pts, int max);

/* step 3 alone, for hand-built cases: of n points with nn[i] surface normals n[i][*] each, the
 * indices of those with some normal . normal <= 0 into keep; returns their count */
int tc_pen_bottom(int n, const double (*nrm)[TC_SURF_MAXNORMAL][3], const unsigned char *nn,
                  const double normal[3], int *keep);

/* the deepest point of the overlap of a (posed by A) and b (posed by B): returns 1 and the depth
 * (m, > 0), the unit normal pointing from b toward a (moving a by depth along it separates them)
 * and the point (world, m) when they overlap, 0 otherwise. Convex pairs by libccd's MPR (support
 * functions of sphere, box and cylinder); a plane against a shape by the shape's support point.
 * Returns -1 for unsupported pairs (plane-plane, compound, ellipsoid). */
int tc_deepest(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
               const tc_body_state *B, double *depth, double normal[3], double point[3]);

/* the support point of a shape (body frame): the point of the shape farthest along body-frame
 * direction d (sphere, box, cylinder; planes have none) */
void tc_shape_support(const tc_shape *s, const double d[3], double out[3]);

#endif
