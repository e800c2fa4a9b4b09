/* SPDX-License-Identifier: MIT */
/* penetration geometry for penalty methods (Drumwright 2008, appendix I): surface points of convex
 * shapes, the points of one shape inside the other, the contact normal of eq. 4, the bottom of the
 * penetration volume, and the deepest point (libccd's MPR for convex pairs, support points against
 * planes) */
#ifndef TC_PENETRATION_H
#define TC_PENETRATION_H

#include "geom/tc_pose.h"
#include "geom/tc_shape.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

#define TC_SURF_MAXNORMAL                                                                          \
    3 /* most faces that meet at one surface point (a box corner); a                               \
       * polytope vertex of more faces keeps 3 (tc_surface_alloc) */

/* a convex shape's surface for penetration queries, body frame */
typedef struct tc_surface {
    int npoint;
    double (*p)[3];                    /* points on the surface (m): vertices and Steiner points */
    double (*n)[TC_SURF_MAXNORMAL][3]; /* outward unit normals of the faces meeting at each point */
    unsigned char *nn;                 /* how many normals point i has (1..TC_SURF_MAXNORMAL) */
    int nface;
    double (*face)[4];   /* face planes n . x = d (unit outward n, d in m) */
    double radius;       /* bounding sphere about the body origin (m); INFINITY for
                          * a plane */
    int nfgroup;         /* face groups (surfaces of more than 2 TC_SURF_FGROUP
                          * faces, else 0): faces TC_SURF_FGROUP g .. */
    double (*fgroup)[7]; /* their normals' cone (unit axis, cos and sin of its half
                          * angle) and the faces' least and largest d (m) */
} tc_surface;

#define TC_SURF_FGROUP 16 /* consecutive faces a group holds (the last one fewer) */

/* the surface of a shape with points at most h (m) apart (so no surface point is farther than
 * h / sqrt(2) from a sample):
 * box: the lattice x_i = a_i (2 k_i - n_i) / n_i, n_i = ceil(2 a_i / h), on every face including
 *      edges and corners (corner points carry 3 normals, edge points 2); faces: the 6 face planes;
 * sphere: the geodesic icosphere (frequency-n subdivision of the icosahedron, 10 n^2 + 2 points)
 *      of the least n whose edges are <= h (normals radial); faces: the tangent planes at its
 *      20 n^2 triangles' normals (d = r, so every point inside the sphere is below all of them);
 * cylinder: side rings at z levels <= h apart with m points, 2 r sin(pi / m) <= h, m >= 8, the
 *      rims carrying the side and the cap normal; caps: rings <= h apart plus the centre; faces:
 *      the two caps and the side's tangent planes at the m ring angles;
 * polytope: its vertices, the points dividing each edge into ceil(length / h) equal intervals
 *      (the two faces' normals) and on each face the lattice of ceil(E / h) intervals over the
 *      face's extent E along its first edge and across it, kept inside the face off its edges (the
 *      face normal; a cube gets the box lattice); a vertex of more than TC_SURF_MAXNORMAL faces
 *      keeps the lowest-index face, then each time the face least aligned with those kept (the
 *      largest dot product least); faces: the hull planes;
 * plane: no points, one face (z = 0, normal +z).
 * h must be finite and > 0 (TC_EINVAL); more than 4e6 points is TC_EINVAL. Other shapes:
 * TC_EUNSUP naming the shape. */
tc_status tc_surface_alloc(tc_surface *s, const tc_shape *sh, double h, tc_error *err);
void tc_surface_free(tc_surface *s);

/* one point of the bottom of a penetration volume */
typedef struct tc_pen_point {
    double p[3];  /* world position (m), on the surface of the body p whose points were scored
                   * against the chosen face (tc_penetration.on_b says which body) */
    double depth; /* below the contact plane along the contact normal (m), >= 0 */
} tc_pen_point;

/* the penetration between two posed shapes */
typedef struct tc_penetration {
    double normal[3]; /* unit contact normal, world, pointing from b toward a (it separates a) */
    double plane_d;   /* contact plane normal . x = plane_d (m), world, with this normal */
    int n;            /* bottom points written */
    double depth;     /* the largest depth among them (m) */
    int on_b;         /* 0: the contact plane is a face of b and the points lie on a (they are
                       * below it: depth = plane_d - normal . p); 1: a face of a, the points lie
                       * on b (depth = normal . p - plane_d) */
} tc_penetration;

/* scratch for tc_penetrate, sized for two surfaces of up to npoint points each (NULL when out of
 * memory or npoint < 0) */
typedef struct tc_pen_work tc_pen_work;
tc_pen_work *tc_pen_work_alloc(int npoint);
void tc_pen_work_free(tc_pen_work *w);

/* the bottom of the penetration volume of a (surface SA, posed by A) and b (SB, B):
 * 1. the points of each surface inside the other shape (exact signed distance, < 0);
 * 2. eq. 4: among the faces of b, scored by a's inside points, and the faces of a, scored by b's,
 *    the face that minimises the largest distance of those points to its plane; its outward normal
 *    points toward the other body (call it p) and its plane is the contact plane. As in the paper
 *    only faces that may intersect p take part: p must reach the face's plane (p's support point
 *    along the face normal n is at or beyond it) and p's centre must lie on the face's side of the
 *    owner's centre (n . (c_p - c_owner) > 0), which drops the far faces of a deep overlap;
 * 3. the bottom: p's inside points with at least one surface normal n_s with n_s . normal <= 0
 *    (the part of the volume's surface facing the contact normal's opposite);
 * each with its depth below the contact plane. Ties in eq. 4 (within 1e-12 m) go to b's faces,
 * then to the lower face index. When more than max points qualify, the max deepest are written
 * (ties by lower point index); points are written in surface-index order.
 * Fallback: when no sampled point of either surface is inside the other shape, or no face is
 * eligible, or none of the inside points is on the bottom, but the shapes do overlap (e.g. a
 * sphere touching a plane between its samples), the single deepest point of tc_deepest is
 * returned instead: its normal,
 * on_b = 0, depth tc_deepest's depth and the point a's support point along -normal (the point of
 * a's surface farthest against the normal; a plane a: tc_deepest's point moved half the depth
 * against the normal). So a convex pair that overlaps always gets a contact.
 * Early out: bounding spheres (a shape's centre above a plane by more than its radius).
 * Returns out->n (0 when nothing penetrates: then out is zeroed), or -1 when a surface has more
 * points than w was sized for. Allocates nothing; the result depends only on the inputs. */
int tc_penetrate(const tc_shape *sa, const tc_surface *SA, const tc_body_state *A,
                 const tc_shape *sb, const tc_surface *SB, const tc_body_state *B, tc_pen_work *w,
                 tc_penetration *out, tc_pen_point *pts, int max);

/* 1 when body-frame point p (m) is strictly inside shape s: exactly tc_shape_distance(s, p) < 0,
 * without its normal (sphere, box, plane and cylinder in closed form, other shapes through
 * tc_shape_distance); step 1 of tc_penetrate */
int tc_pen_inside(const tc_shape *s, const double p[3]);

/* step 3 alone, for hand-built cases: of n points with nn[i] surface normals n[i][*] each, the
 * indices of those with some normal . normal <= 0 into keep, in increasing order; returns their
 * count. A normal exactly perpendicular to the contact normal counts (the paper's
 * "non-positive") */
int tc_pen_bottom(int n, const double (*nrm)[TC_SURF_MAXNORMAL][3], const unsigned char *nn,
                  const double normal[3], int *keep);

/* the deepest point of the overlap of a (posed by A) and b (posed by B): returns 1 and the depth
 * (m, > 0), the unit normal pointing from b toward a (moving a by depth along it separates them)
 * and a point of the overlap (world, m) when they overlap, 0 otherwise (touching at depth 0
 * counts as apart). The point is midway between the two surfaces along the normal for a plane
 * pair and for two spheres; otherwise it is libccd's estimate (the mean of the two shapes' points
 * of the final portal, weighted by the origin's barycentric coordinates). Convex pairs by
 * libccd's MPR (support functions of sphere, box, cylinder and polytope, interior points the
 * body origins and a polytope's vertex mean, tolerance 1e-12 m): its depth and
 * normal are those of the Minkowski-difference face crossed by the ray between the two centres,
 * exact for two spheres and for face contacts along that ray, an upper bound on the least
 * translation otherwise; between two curved surfaces (a cylinder's rim on a sphere) the normal
 * converges only to about 1e-5 rad (the depth to about 1e-9 m). A convex pair that
 * tc_shape_separated proves apart returns 0 without MPR. A plane against a shape by the
 * shape's support point along the plane's inward normal (exact). Returns -1 for unsupported pairs
 * (plane-plane, compound, ellipsoid). Allocates nothing. */
int tc_deepest(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
               const tc_body_state *B, double *depth, double normal[3], double point[3]);

/* nonzero when convex a (posed by A) and b (posed by B) are proved apart: the line of centres or
 * one of the two bodies' frame axes (turned toward the other body) separates their support
 * points by more than 1e-9 m plus 1e-6 of the two shapes' extents along it. Then no point of
 * either is inside the other and tc_deepest returns 0 (it runs this test ahead of MPR). Returns
 * the axis that showed the gap (1: the line of centres; 2, 3, 4: a's x, y, z; 5, 6, 7: b's),
 * tried first when passed as first (0: that order), so a caller can keep it for the next query;
 * 0 when no axis shows a gap, or for a plane or a shape without a support function. gap (NULL:
 * not wanted) gets the gap along that axis beyond the rounding allowance (m, > 0; 0 when none
 * is shown): while a and b together move no point farther than that, they stay apart.
 * Allocates nothing */
int tc_shape_separated(const tc_shape *sa, const tc_body_state *A, const tc_shape *sb,
                       const tc_body_state *B, int first, double *gap);

/* the support point of a shape (body frame): the point of the shape farthest along body-frame
 * direction d (sphere, box, cylinder, polytope; planes and other shapes have none: the origin).
 * Ties are broken toward +: a box takes +a_i where d_i = 0, a cylinder the +z cap where d_z = 0
 * and the cap centre when d is axial, a sphere (0, 0, r) when d = 0; a polytope takes the vertex
 * of largest d . v, ties to the lowest index */
void tc_shape_support(const tc_shape *s, const double d[3], double out[3]);

#ifdef __cplusplus
}
#endif

#endif
