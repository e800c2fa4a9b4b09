/* SPDX-License-Identifier: MIT */
/* scene builders shared by the experiments, the tests and the benchmarks (as Box2D keeps its
 * sample scenes in one folder for all three): a pair of bodies, a body on the ground, the E2 T
 * and finger, a block started in the ground, a pile in an open box, and 2-D polygons as prisms */
#ifndef TC_SCENES_H
#define TC_SCENES_H

#include "dyn/tc_scene.h"

/* a new scene: a fixed body "fixed" of shape a at the origin and a free body "free" of shape b
 * at pos with orientation quat (NULL: identity), both of density (kg/m^3); no gravity */
tc_status tc_scene_pair(tc_scene *sc, tc_shape a, tc_shape b, const double pos[3],
                        const double quat[4], double density, tc_error *err);

/* E1's scene: a fixed sphere "big" (radius R, m) at the origin and a free sphere "small" (radius
 * r, m, density kg/m^3) with its centre at (0, y, 0) */
tc_status tc_scene_sphere_pair(tc_scene *sc, double R, double r, double y, double density,
                               tc_error *err);

/* a new scene: gravity -g (m/s^2) along z, Coulomb friction mu for every pair, and the z = 0
 * plane "ground" as body 0 */
tc_status tc_scene_ground(tc_scene *sc, double g, double mu, tc_error *err);

/* append a free body called name of shape s at pos (m), orientation quat (NULL: identity),
 * density (kg/m^3) */
tc_status tc_scene_add_free(tc_scene *sc, const char *name, tc_shape s, const double pos[3],
                            const double quat[4], double density, tc_error *err);

/* append a free box "name" of half sizes h (m) and mass (kg) at pos, orientation quat */
tc_status tc_scene_add_box(tc_scene *sc, const char *name, const double h[3], double mass,
                           const double pos[3], const double quat[4], tc_error *err);

/* the height (m) of shape s's lowest point below its origin when turned by quat */
double tc_shape_lowest(const tc_shape *s, const double quat[4]);

/* a uniformly random rotation from a seed (Shoemake's method on GSL's MT19937) */
void tc_random_quat(unsigned long seed, double quat[4]);

/* E4 (a): the ground and a free cube "block" of half size h (m) and mass (kg) in a random
 * orientation (seed), lowered so its lowest corner is depth (m) below the ground */
tc_status tc_scene_block_into_ground(tc_scene *sc, double g, double mu, double h, double mass,
                                     double depth, unsigned long seed, tc_error *err);

/* a pile of boxes, cylinders and spheres in an open box */
typedef struct tc_pile {
    int bodies;                 /* how many (1 .. TC_SCENE_MAXBODY - 5) */
    unsigned long seed;         /* shapes, sizes, masses and orientations */
    double mass_lo, mass_hi;    /* each body's mass is U[mass_lo, mass_hi] (kg) */
    double size_lo, size_hi;    /* half sizes and radii U[size_lo, size_hi] (m) */
    double half_width;          /* the box's inside is [-half_width, half_width]^2 (m) */
    double wall_height;         /* m */
    double gravity, friction;   /* m/s^2 along -z; Coulomb coefficient */
} tc_pile;

/* E4 (c)'s defaults: 16 bodies of 1-100 kg, half sizes 0.1-0.25 m, in a 3 m box with 1 m walls,
 * g = 9.8 m/s^2, friction 0.5, seed 3 */
tc_pile tc_default_pile(void);

/* the ground, four fixed walls "wall0".."wall3" (0.1 m thick) around the box, and the bodies
 * "body0".. (a box, cylinder or sphere in turn by a seeded draw) on a grid of cells 2.2 sqrt(3)
 * size_hi wide, layer above layer, each in a random orientation, none touching */
tc_status tc_scene_pile(tc_scene *sc, const tc_pile *p, tc_error *err);

/* 1 when body i of a pile scene has left the box (outside its walls, or 0.1 m below the floor)
 * at world position pos (m) */
int tc_pile_escaped(const tc_pile *p, const double pos[3]);

/* E2's planar T pushed by a position-controlled spherical finger (SI units) */
typedef struct tc_t_pusher {
    double bar_x, bar_y, stem_x, stem_y, thickness; /* the T: crossbar over stem (m) */
    double density;                                 /* kg/m^3 */
    double damping_xy, damping_theta;               /* table friction as damping (N s/m, N m s) */
    double finger_radius, finger_mass;              /* m, kg */
    double finger_kp, finger_kd;                    /* x-y servo (N/m, N s/m) */
    double finger_spin_damping;                     /* N m s/rad */
    double friction;                                /* finger-T Coulomb coefficient */
} tc_t_pusher;

/* the values of E2's script: a 25 x 20 cm T of 0.5 kg, a 3 cm finger of 0.1 kg */
tc_t_pusher tc_default_t_pusher(void);

/* body 0 "T": the planar compound, its COM at the origin; body 1 "finger": a planar sphere at
 * the T's mid-height below the stem (tc_t_pusher_start) with x-y position servos */
tc_status tc_scene_t_pusher(tc_scene *sc, const tc_t_pusher *t, tc_error *err);

/* where the finger starts (x, y in m): below the stem's bottom, clear of it by two radii */
void tc_t_pusher_start(const tc_t_pusher *t, double xy[2]);

/* a 2-D world of planar bodies (Le Cleac'h et al.): the x-y plane is vertical, gravity -g along
 * y, and body 0 "ground" is the half-space y <= 0 (a plane with normal +y); friction mu */
tc_status tc_scene_ground_2d(tc_scene *sc, double g, double mu, tc_error *err);

/* the most rows (and vertices) of a polygon A x <= b */
#define TC_POLYGON_MAXROW 16

/* the vertices (m, A's frame) of the polygon {x : A x <= b} (m rows, 3 .. TC_POLYGON_MAXROW),
 * counter-clockwise, into v[TC_POLYGON_MAXROW], *nv of them; and its centroid (m, A's frame,
 * the shoelace formula that tc_scene_add_polygon uses). Errors: an empty, unbounded or
 * degenerate polygon, TC_EINVAL naming "polygon" */
tc_status tc_polygon_vertices(const double (*A)[2], const double *b, int m, double (*v)[2],
                              int *nv, tc_error *err);
tc_status tc_polygon_centroid(const double (*A)[2], const double *b, int m, double c[2],
                              tc_error *err);

/* append the convex polygon {x : A x <= b} (m rows of A, m = 3 .. 16, body frame, m) as a prism
 * of half thickness h (m) along z on a planar joint: mass (kg), moment of inertia izz (kg m^2)
 * about its centroid, the centroid placed at (x, y) with the polygon turned by theta (rad)
 * from A's frame. The prism is built in its principal axes (touche's bodies need them), so the
 * planar angle counts from this initial pose; its in-plane moments (irrelevant on the joint) are
 * a uniform prism's, at least izz / 2. Errors: an empty, unbounded or degenerate polygon,
 * TC_EINVAL naming "polygon" */
tc_status tc_scene_add_polygon(tc_scene *sc, const char *name, const double (*A)[2],
                               const double *b, int m, double h, double mass, double izz,
                               double x, double y, double theta, tc_error *err);

#endif
