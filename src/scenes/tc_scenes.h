/* SPDX-License-Identifier: MIT */
/* scene builders shared by the experiments, the tests and the benchmarks (as Box2D keeps its
 * sample scenes in one folder for all three): a pair of bodies, a body on the ground, the E2 T
 * and finger, a block started in the ground, a pile in an open box, a pile of compounds (E7),
 * and 2-D polygons as prisms */
#ifndef TC_SCENES_H
#define TC_SCENES_H

#include "dyn/tc_scene.h"

/* C linkage for C++ programs that include this header */
#ifdef __cplusplus
extern "C" {
#endif

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
    int bodies;               /* how many (1 .. TC_SCENE_MAXBODY - 5) */
    unsigned long seed;       /* shapes, sizes, masses and orientations */
    double mass_lo, mass_hi;  /* each body's mass is U[mass_lo, mass_hi] (kg) */
    double size_lo, size_hi;  /* half sizes and radii U[size_lo, size_hi] (m) */
    double half_width;        /* the box's inside is [-half_width, half_width]^2 (m) */
    double wall_height;       /* m */
    double gravity, friction; /* m/s^2 along -z; Coulomb coefficient */
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

/* ---------- a pile of non-convex bodies (compounds) in an open box ---------- */

#define TC_PILE_MAXKIND 8 /* kinds of compound in one pile */

/* one kind of body: a union of 1 .. TC_SHAPE_MAXPART axis-aligned boxes and spheres, sizes and
 * positions in units of the body scale s (a pawn of scale 0.05 m is its parts times 0.05 m).
 * The parts must not overlap (their volumes add up to the mass) and must lie so that the
 * inertia about the COM is diagonal in the body axes (touche's bodies are built in principal
 * axes, which an L-shape's two bars cannot satisfy: use symmetric shapes such as T, H, a plus) */
typedef struct tc_compound_kind {
    char name[16];
    int npart;
    tc_shape_part part[TC_SHAPE_MAXPART];
} tc_compound_kind;

/* a pile of compounds dropped into an open box */
typedef struct tc_compound_pile {
    int bodies;         /* how many (1 .. TC_SCENE_MAXBODY - 5) */
    unsigned long seed; /* kinds, scales and orientations */
    int nkind;          /* 1 .. TC_PILE_MAXKIND */
    tc_compound_kind kind[TC_PILE_MAXKIND];
    double size_lo, size_hi;  /* body scale s ~ U[size_lo, size_hi] (m) */
    double density;           /* kg/m^3, every body */
    double half_width;        /* the box's inside is [-half_width, half_width]^2 (m) */
    double wall_height;       /* m */
    double fill;              /* the bodies' volume (at size_hi) may take at most this fraction of
                               * the box's inside below the walls' top (1): a pile fits its box */
    double gravity, friction; /* m/s^2 along -z; Coulomb coefficient */
} tc_compound_pile;

/* six kinds (T, H, plus, pawn, dumbbell, king; 2 to 4 parts each), 100 bodies of scale
 * 0.05-0.08 m and 500 kg/m^3 in a 1.2 m box with 0.5 m walls, fill 0.3, g = 9.81 m/s^2,
 * friction 0.5, seed 7 */
tc_compound_pile tc_default_compound_pile(void);

/* kind k scaled by s (m) as a compound shape (not yet centred: tc_scene_add moves its COM to the
 * body origin). Errors (TC_EINVAL, parameter "parts"): no parts or more than TC_SHAPE_MAXPART
 * (an empty compound), a part neither box nor sphere, a size not > 0 or not finite, two parts
 * that overlap, an inertia about the COM that is not diagonal in the body axes */
tc_status tc_compound_shape(const tc_compound_kind *k, double s, tc_shape *out, tc_error *err);

/* the radius (m) of the sphere about its COM that holds kind k at scale s, and its volume (m^3) */
double tc_compound_radius(const tc_compound_kind *k, double s);
double tc_compound_volume(const tc_compound_kind *k, double s);

/* check a pile without building it; errors (TC_EINVAL) name the pile's field: "bodies" (out of
 * 1 .. TC_SCENE_MAXBODY - 5, or more volume than `fill` of the box), "kinds" (none, too many, or
 * a bad kind: the message names it and why), "size_lo"/"size_hi", "density", "half_width" (a
 * body's cell is wider than the box), "wall_height", "fill", "gravity", "friction" (< 0) */
tc_status tc_compound_pile_check(const tc_compound_pile *p, tc_error *err);

/* the ground, four fixed walls "wall0".."wall3" (0.1 m thick, as tc_scene_pile's) around the
 * box, and the bodies "body0".. (a kind, scale and uniformly random orientation drawn from the
 * seed, in that order) on a grid of cells 2.2 R wide (R the largest bounding radius at size_hi),
 * layer above layer from the floor up, none touching another body, the floor or a wall.
 * Checks first (tc_compound_pile_check) */
tc_status tc_scene_compound_pile(tc_scene *sc, const tc_compound_pile *p, tc_error *err);

/* 1 when a body of a compound pile at world position pos (m) has left the box (outside its
 * walls, or 0.1 m below the floor) */
int tc_compound_pile_escaped(const tc_compound_pile *p, const double pos[3]);

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

/* a cube of half size h (m) and mass (kg) at rest on the ground at the origin, as body 1 "box",
 * Coulomb friction mu, gravity g (m/s^2) turned by tilt (rad) toward +x: an incline (gravity
 * (g sin tilt, 0, -g cos tilt); the plane's normal stays "up", which every method takes, while a
 * turned plane is no 2-D scene). planar: the 2-D version, a square of side 2h on a planar joint
 * (izz = m (2h)^2 / 6) on tc_scene_ground_2d, gravity (g sin tilt, -g cos tilt, 0); tilt 0 leaves
 * the ground's gravity as it is. E7's slide and incline scenes and E9's static friction */
tc_status tc_scene_box_on_incline(tc_scene *sc, double g, double tilt, double mu, double h,
                                  double mass, int planar, tc_error *err);

/* the most rows (and vertices) of a polygon A x <= b */
#define TC_POLYGON_MAXROW 16

/* the vertices (m, A's frame) of the polygon {x : A x <= b} (m rows, 3 .. TC_POLYGON_MAXROW),
 * counter-clockwise, into v[TC_POLYGON_MAXROW], *nv of them; and its centroid (m, A's frame,
 * the shoelace formula that tc_scene_add_polygon uses). Errors: an empty, unbounded or
 * degenerate polygon, TC_EINVAL naming "polygon" */
tc_status tc_polygon_vertices(const double (*A)[2], const double *b, int m, double (*v)[2], int *nv,
                              tc_error *err);
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
                               const double *b, int m, double h, double mass, double izz, double x,
                               double y, double theta, tc_error *err);

#ifdef __cplusplus
}
#endif

#endif
