/* SPDX-License-Identifier: MIT */
/* a C view of one Bullet 3.24 btDiscreteDynamicsWorld (engine_bullet_world.cc owns the C++) */
#ifndef TC_BULLET_WORLD_H
#define TC_BULLET_WORLD_H

#ifdef __cplusplus
extern "C" {
#endif

/* one world with its bodies; used by one thread at a time, no state shared between worlds */
typedef struct tc_bullet_world tc_bullet_world;

/* the solver and collision settings (units in brackets; engine_bullet.c documents each) */
typedef struct tc_bullet_config {
    double gravity[3];            /* m/s^2 */
    int iterations;               /* PGS sweeps per step */
    double erp;                   /* contact error reduction (1) through the impulse */
    double erp2;                  /* error reduction (1) of the split (position) impulse */
    double cfm;                   /* global constraint force mixing (1) */
    int split_impulse;            /* 0/1 */
    double split_threshold;       /* m (negative: a depth) */
    double split_turn_erp;        /* 1 */
    double sor;                   /* successive over-relaxation (1) */
    int warmstart;                /* 0/1 */
    double warmstart_factor;      /* 1 */
    double restitution_threshold; /* m/s */
    int friction_2dirs;           /* 0/1: second lateral friction row per point */
    int multipoint;               /* perturbation iterations (0: one point per call) */
    int gyroscopic;               /* 0/1: implicit gyroscopic term */
} tc_bullet_config;

/* collision shapes of one body (body frame, COM at the origin) */
enum {
    TC_BW_SPHERE = 0, /* size[0] radius (m) */
    TC_BW_BOX,        /* size half extents (m) */
    TC_BW_PLANE,      /* the z = 0 plane, normal +z (static bodies only) */
    TC_BW_CYLINDER,   /* size[0] radius, size[1] half length along z (m) */
    TC_BW_HULL,       /* the region plane[f] . (x, 1) <= 0 shrunk by margin (m) */
    TC_BW_COMPOUND    /* npart spheres or boxes, axis-aligned, centred at part_pos */
};

/* how a body moves */
enum { TC_BW_STATIC = 0, TC_BW_DYNAMIC, TC_BW_KINEMATIC };

typedef struct tc_bullet_body {
    int shape, motion;
    double size[3];           /* m */
    double margin;            /* collision margin (m) of convex shapes */
    int npart;                /* compound: parts, each a TC_BW_SPHERE or TC_BW_BOX */
    const int *part_shape;    /* [npart] */
    const double *part_size;  /* [3 npart] m */
    const double *part_pos;   /* [3 npart] m */
    int nplane;               /* hull: faces (n, d) with n . x = d outside-pointing, unit n */
    const double *plane;      /* [4 nplane] */
    double mass;              /* kg, dynamic only */
    double inertia[3];        /* principal moments about the body axes (kg m^2) */
    double pos[3], quat[4];   /* COM position (m), orientation (w, x, y, z) */
    double linear_factor[3];  /* 1: free, 0: locked (world axes) */
    double angular_factor[3]; /* idem */
    double friction;          /* per-body coefficient; Bullet multiplies the pair's */
    double restitution;       /* per-body coefficient; Bullet multiplies the pair's */
} tc_bullet_body;

/* one contact point of the last step with its applied impulses (N s) */
typedef struct tc_bullet_contact {
    int a, b;                 /* body indices (order of tc_bullet_world_add) */
    double pa[3], pb[3];      /* the point on each body (m, world) */
    double normal[3];         /* unit normal on b, from b towards a */
    double depth;             /* signed distance (m), < 0 overlapping */
    double impulse;           /* normal impulse on a along normal */
    double dir1[3], impulse1; /* first lateral friction direction and impulse on a */
    double dir2[3], impulse2; /* second (0 unless friction_2dirs) */
} tc_bullet_contact;

/* a new empty world; NULL with a message in err on failure */
tc_bullet_world *tc_bullet_world_new(const tc_bullet_config *cfg, char *err, int n);

/* add one body; returns its index, or -1 with a message in err */
int tc_bullet_world_add(tc_bullet_world *w, const tc_bullet_body *b, char *err, int n);

/* set a dynamic body's pose and twist (velocity m/s, angular velocity rad/s, world frame) */
void tc_bullet_world_set(tc_bullet_world *w, int i, const double pos[3], const double quat[4],
                         const double vel[3], const double omega[3]);

/* a kinematic body at pos now, moving at vel (m/s) over the next step of dt (s) */
void tc_bullet_world_set_kinematic(tc_bullet_world *w, int i, const double pos[3],
                                   const double quat[4], const double vel[3], double dt);

/* read a body's pose and twist */
void tc_bullet_world_get(const tc_bullet_world *w, int i, double pos[3], double quat[4],
                         double vel[3], double omega[3]);

/* force (N) through the COM and torque (N m), world frame, for the next step only */
void tc_bullet_world_apply(tc_bullet_world *w, int i, const double f[3], const double t[3]);

/* drop every cached contact point (a force query starts from none) */
void tc_bullet_world_forget_contacts(tc_bullet_world *w);

/* one stepSimulation(dt, 0): exactly one internal step; returns 0, -1 on failure (err) */
int tc_bullet_world_step(tc_bullet_world *w, double dt, char *err, int n);

/* contact points of the last step; tc_bullet_world_contact fills the k-th */
int tc_bullet_world_ncontact(const tc_bullet_world *w);
void tc_bullet_world_contact(const tc_bullet_world *w, int k, tc_bullet_contact *c);

/* release everything (NULL is fine) */
void tc_bullet_world_free(tc_bullet_world *w);

/* the library's btGetVersion() (324 for 3.24) and 1 when btScalar is double */
int tc_bullet_version(void);
int tc_bullet_double_precision(void);

#ifdef __cplusplus
}
#endif

#endif
