/* SPDX-License-Identifier: MIT */
/* MuJoCo 2.2.2 engine adapter: scene -> in-memory MJCF, contact wrenches and steps */
#include "core/tc_arena.h"
#include "engines/tc_engine.h"
#include "engines/tc_warnbuf.h"
#include "solvers/tc_contact_space.h"
#include "math/tc_vec.h"

#include <limits.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the adapter is written against these headers; alloc checks the library matches */
#define MUJOCO_VERSION "2.2.2"
_Static_assert(mjVERSION_HEADER == 222, "engine_mujoco.c is written for MuJoCo 2.2.2");

/* parameter table: MuJoCo's own defaults */
static const tc_param_spec mujoco_params[] = {
    {"solref_timeconst", 0.02, 1e-6, 1e3, TC_PARAM_REAL, "s",
     "contact time constant (solref[0]); MuJoCo raises it to 2 dt when smaller",
     "MuJoCo's default"},
    {"solref_dampratio", 1.0, 1e-6, 1e3, TC_PARAM_REAL, "1",
     "contact damping ratio (solref[1]); 1 = critical", "MuJoCo's default"},
    {"solimp_dmin", 0.9, 1e-4, 0.9999, TC_PARAM_REAL, "1",
     "constraint impedance at zero penetration (solimp[0])", "MuJoCo's default"},
    {"solimp_dmax", 0.95, 1e-4, 0.9999, TC_PARAM_REAL, "1",
     "constraint impedance at and beyond solimp_width (solimp[1])", "MuJoCo's default"},
    {"solimp_width", 0.001, 0, 10, TC_PARAM_REAL, "m",
     "penetration over which impedance goes from dmin to dmax (solimp[2])", "MuJoCo's default"},
    {"solimp_midpoint", 0.5, 0, 1, TC_PARAM_REAL, "1",
     "midpoint of the impedance sigmoid, fraction of width (solimp[3])", "MuJoCo's default"},
    {"solimp_power", 2, 1, 100, TC_PARAM_REAL, "1", "power of the impedance sigmoid (solimp[4])",
     "MuJoCo's default"},
    {"condim", 3, 1, 6, TC_PARAM_INT, "1",
     "contact dimension: 1 frictionless, 3 sliding, 4 +torsional, 6 +rolling", "MuJoCo's default"},
    {"friction_torsional", 0.005, 0, 10, TC_PARAM_REAL, "m",
     "torsional friction coefficient (friction[1], used when condim >= 4)", "MuJoCo's default"},
    {"friction_rolling", 0.0001, 0, 10, TC_PARAM_REAL, "m",
     "rolling friction coefficient (friction[2], used when condim = 6)", "MuJoCo's default"},
    {"cone", 0, 0, 1, TC_PARAM_INT, "1", "friction cone: 0 pyramidal, 1 elliptic",
     "MuJoCo's default"},
    {"integrator", 0, 0, 1, TC_PARAM_INT, "1",
     "integrator: 0 semi-implicit Euler (joint damping implicit), 1 RK4 (all explicit)",
     "MuJoCo's default"},
    {"solver", 2, 0, 2, TC_PARAM_INT, "1", "constraint solver: 0 PGS, 1 CG, 2 Newton",
     "MuJoCo's default"},
    {"iterations", 100, 1, 1e6, TC_PARAM_ITERS, "1", "maximum constraint solver iterations",
     "MuJoCo's default"},
    {"tolerance", 1e-8, 0, 1, TC_PARAM_REAL, "1",
     "solver tolerance on the relative cost improvement", "MuJoCo's default"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

/* names of mjData's warning counters (mjtWarning order) */
static const char *const warning_names[mjNWARNING] = {
    "mjWARN_INERTIA", "mjWARN_CONTACTFULL", "mjWARN_CNSTRFULL", "mjWARN_VGEOMFULL",
    "mjWARN_BADQPOS", "mjWARN_BADQVEL",     "mjWARN_BADQACC",   "mjWARN_BADCTRL",
};

/* warnings that make MuJoCo reset mjData to qpos0: the trajectory is lost */
#define RESET_WARNINGS ((1u << mjWARN_BADQPOS) | (1u << mjWARN_BADQVEL) | (1u << mjWARN_BADQACC))

/* a lastinfo value MuJoCo never writes: marks counters untouched during one call */
#define INFO_UNTOUCHED INT_MIN

/* the derivatives' finite-difference step, in MuJoCo's tangent units (m, rad, m/s, rad/s; N and
 * N m for the applied wrench; m and rad for servo targets): centred differences have truncation
 * error O(eps^2) and rounding error O(1e-16 / eps), both near 1e-10 at 1e-6, MuJoCo's own choice in
 * its derivative tests */
#define JAC_EPS 1e-6

/* the derivatives' workspace, made on the first jacobian call and kept: a second mjData (the
 * step's is never touched) and the buffers, so later calls allocate nothing */
typedef struct jac_ws {
    mjData *d;             /* scratch data: the step's inputs copied in, differenced there */
    int *mdof, *actu;      /* per touche dof: MuJoCo dof, position actuator (-1 none), */
    int *xadr;             /* and its entry of xfrc_applied (force, torque per body) */
    double *Amj, *Bmj;     /* mjd_transitionFD's A[(2 nv) x (2 nv)] and B[(2 nv) x nu] */
    double *Bq;            /* d x+ / d tau[(2 nv) x nv]: rows MuJoCo's, columns touche's dofs */
    double *qpos0, *qvel0; /* the inputs a step changes: qpos[nq], qvel[nv], */
    double *warm;          /* qacc_warmstart[nv] */
    double *qpos1, *qvel1; /* the nominal next state */
    double *qposp, *qvelp, *qposm, *qvelm; /* the next states at +eps, -eps */
    double *dpos;                          /* their position difference (nv) */
    tc_arena arena;                        /* the block this workspace heads */
} jac_ws;

typedef struct engine {
    mjModel *m;
    mjData *d;
    int nbody, ngeom;
    /* per body (nbody), carved from the engine's block */
    tc_joint_type *joint;     /* each body's joint type */
    int *qadr, *vadr;         /* touche state offsets, -1 fixed */
    int *mqadr, *mvadr;       /* MuJoCo qpos/qvel offsets */
    int *mbody;               /* touche body -> mjModel body, -1 fixed (world geoms) */
    int *mocap;               /* kinematic body -> mocap index, -1 other bodies */
    int (*act)[3];            /* planar dof -> position actuator, -1 none */
    double (*org)[3];         /* scene positions: fixed bodies' torque origin, planar bodies' slide
                               * origin */
    int *owner;               /* ngeom: mjModel geom -> touche body */
    int reported[mjNWARNING]; /* counter already reported */
    double t, dt;             /* simulation time (s): 0, then + dt per step; the step */
    /* the scene's bodies, for the kinematic bodies' paths (the scene outlives the engine, as
     * tc_sim_alloc requires; a copy would be 1 MB per run) */
    const tc_body_desc *body;
    jac_ws *jac; /* the derivatives' workspace, NULL before the first jacobian call */
    tc_warnbuf warn;
    tc_arena arena; /* the block that holds the engine and its maps */
} engine;

/* per-thread hooks for the process-wide MuJoCo handlers */
static _Thread_local engine *current;      /* engine inside an mj_* call on this thread */
static _Thread_local jmp_buf *error_trap;  /* where mju_error jumps to, NULL: abort */
static _Thread_local char error_text[512]; /* the last mju_error message */
static _Thread_local tc_warnbuf orphan;    /* warnings raised outside any engine call */
static int handlers_installed;             /* guarded by the tc_mujoco_load critical */

/* mju_user_warning: queue the text for warnings(); never print, never log */
static void on_warning(const char *msg) {
    tc_warnbuf_push(current ? &current->warn : &orphan, "MuJoCo warning: ", msg);
}

/* mju_user_error: jump back into the adapter, or abort when no call is trapped */
static void on_error(const char *msg) {
    snprintf(error_text, sizeof error_text, "%s", msg);
    if (error_trap) longjmp(*error_trap, 1);
    fprintf(stderr, "touche: MuJoCo error: %s\n", msg);
    abort();
}

/* install the handlers once; the caller holds the tc_mujoco_load critical */
static void install_handlers(void) {
    if (handlers_installed) return;
    mju_user_warning = on_warning;
    mju_user_error = on_error;
    handlers_installed = 1;
}

/* copy one line of text into a single-line message */
static void flatten(char *dst, size_t n, const char *src) {
    snprintf(dst, n, "%s", src);
    for (char *c = dst; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

/* one sphere, box, ellipsoid, cylinder or plane geom line; attrs carries the pose */
static void write_geom(FILE *f, const char *name, const tc_shape *sh, const char *attrs) {
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        fprintf(f, "<geom name=\"%s\" type=\"sphere\" size=\"%.17g\" %s/>\n", name, sh->size[0],
                attrs);
        break;
    case TC_SHAPE_BOX:
        fprintf(f, "<geom name=\"%s\" type=\"box\" size=\"%.17g %.17g %.17g\" %s/>\n", name,
                sh->size[0], sh->size[1], sh->size[2], attrs);
        break;
    case TC_SHAPE_ELLIPSOID: /* MuJoCo's size is the three semi-axes along the geom frame */
        fprintf(f, "<geom name=\"%s\" type=\"ellipsoid\" size=\"%.17g %.17g %.17g\" %s/>\n", name,
                sh->size[0], sh->size[1], sh->size[2], attrs);
        break;
    case TC_SHAPE_CYLINDER: /* MuJoCo's size is the radius and the half length along z */
        fprintf(f, "<geom name=\"%s\" type=\"cylinder\" size=\"%.17g %.17g\" %s/>\n", name,
                sh->size[0], sh->size[1], attrs);
        break;
    case TC_SHAPE_POLYTOPE: /* the asset "m<geom name>" holds its vertices (write_meshes) */
        fprintf(f, "<geom name=\"%s\" type=\"mesh\" mesh=\"m%s\" %s/>\n", name, name, attrs);
        break;
    default: /* plane: size 0 0 is infinite; the third number only spaces the render grid */
        fprintf(f, "<geom name=\"%s\" type=\"plane\" size=\"0 0 1\" %s/>\n", name, attrs);
        break;
    }
}

/* the polytopes' meshes, "mg<i>" for body i: MuJoCo builds the convex hull of the vertices itself
 * and stores the mesh re-centred at its own volume centroid and turned to its principal axes,
 * giving the geom that frame; the geometry in the body frame is unchanged by that (checked after
 * compiling, check_meshes), and the body's inertia comes from the scene (inertiafromgeom false) */
static void write_meshes(FILE *f, const tc_scene *sc) {
    int n = 0;
    for (int i = 0; i < sc->nbody; i++) {
        const tc_shape *sh = &sc->body[i].shape;
        if (sh->type != TC_SHAPE_POLYTOPE) continue;
        if (n++ == 0) fprintf(f, "  <asset>\n");
        fprintf(f, "    <mesh name=\"mg%d\" vertex=\"", i);
        for (int v = 0; v < sh->hull->nvert; v++)
            fprintf(f, "%s%.17g %.17g %.17g", v ? " " : "", sh->hull->vert[v][0],
                    sh->hull->vert[v][1], sh->hull->vert[v][2]);
        fprintf(f, "\"/>\n");
    }
    if (n) fprintf(f, "  </asset>\n");
}

/* 1 when every vertex of the compiled mesh of polytope body i, placed by its geom's pos and quat,
 * is within 1e-5 of the radius (MuJoCo stores mesh vertices as floats) of one of touche's, in
 * the body frame (world geoms: posed), and every touche vertex has such a MuJoCo vertex */
static int mesh_matches(const mjModel *m, int i, const tc_body_desc *b) {
    char name[32];
    snprintf(name, sizeof name, "g%d", i);
    int g = mj_name2id(m, mjOBJ_GEOM, name), id = g >= 0 ? m->geom_dataid[g] : -1;
    if (id < 0) return 0;
    const tc_shape *sh = &b->shape;
    double R[9], q[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]}, ref[TC_POLY_MAXVERT][3];
    tc_quat_normalize(q);
    tc_quat_to_mat(R, q);
    for (int v = 0; v < sh->hull->nvert; v++) {
        tc_v3_copy(ref[v], sh->hull->vert[v]);
        if (b->joint == TC_JOINT_FIXED) {
            tc_m3_mulv(ref[v], R, sh->hull->vert[v]);
            tc_v3_add(ref[v], ref[v], b->pos);
        }
    }
    double tol = 1e-5 * tc_polytope_radius(sh);
    int nv = m->mesh_vertnum[id], hit[TC_POLY_MAXVERT] = {0};
    for (int j = 0; j < nv; j++) {
        mjtNum x[3], y[3];
        for (int k = 0; k < 3; k++)
            x[k] = m->mesh_vert[3 * (m->mesh_vertadr[id] + j) + k];
        mju_rotVecQuat(y, x, m->geom_quat + 4 * g);
        for (int k = 0; k < 3; k++)
            y[k] += m->geom_pos[3 * g + k];
        int found = 0;
        for (int v = 0; v < sh->hull->nvert; v++) {
            double d[3] = {y[0] - ref[v][0], y[1] - ref[v][1], y[2] - ref[v][2]};
            if (tc_v3_norm(d) <= tol) {
                found = 1;
                hit[v] = 1;
            }
        }
        if (!found) return 0;
    }
    for (int v = 0; v < sh->hull->nvert; v++)
        if (!hit[v]) return 0;
    return 1;
}

/* the geoms of body i, named g<i> (one primitive) or g<i>p<k> (compound parts at their body
 * positions); world geoms of a fixed body get the world pose of each part */
static void write_body_geoms(FILE *f, int i, const tc_body_desc *b, int world) {
    char name[32], attrs[256];
    double R[9], q[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
    tc_quat_normalize(q);
    tc_quat_to_mat(R, q);
    /* a primitive: at the body origin */
    if (b->shape.type != TC_SHAPE_COMPOUND) {
        snprintf(name, sizeof name, "g%d", i);
        if (world)
            snprintf(attrs, sizeof attrs,
                     "pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"", b->pos[0],
                     b->pos[1], b->pos[2], b->quat[0], b->quat[1], b->quat[2], b->quat[3]);
        else
            attrs[0] = '\0';
        fprintf(f, world ? "    " : "      ");
        write_geom(f, name, &b->shape, attrs);
        return;
    }
    /* a compound: one axis-aligned sphere or box per part */
    for (int k = 0; k < b->shape.npart; k++) {
        const tc_shape_part *pt = &b->shape.part[k];
        tc_shape sh = pt->type == TC_SHAPE_SPHERE ? tc_sphere(pt->size[0])
                                                  : tc_box(pt->size[0], pt->size[1], pt->size[2]);
        double p[3];
        snprintf(name, sizeof name, "g%dp%d", i, k);
        if (world) {
            tc_m3_mulv(p, R, pt->pos);
            tc_v3_add(p, p, b->pos);
            snprintf(attrs, sizeof attrs,
                     "pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"", p[0], p[1], p[2],
                     b->quat[0], b->quat[1], b->quat[2], b->quat[3]);
        } else {
            snprintf(attrs, sizeof attrs, "pos=\"%.17g %.17g %.17g\"", pt->pos[0], pt->pos[1],
                     pt->pos[2]);
        }
        fprintf(f, world ? "    " : "      ");
        write_geom(f, name, &sh, attrs);
    }
}

/* number of geoms body b compiles to */
static int geom_count(const tc_body_desc *b) {
    return b->shape.type == TC_SHAPE_COMPOUND ? b->shape.npart : 1;
}

/* the joints of a moving body: one free joint, or slides along world x and y then a hinge about
 * world z through the body origin (axes in the body frame: rows of R0, the scene rotation) */
static void write_joints(FILE *f, int i, const tc_body_desc *b) {
    if (b->joint == TC_JOINT_FREE) {
        fprintf(f, "      <joint name=\"j%d\" type=\"free\" damping=\"%.17g\"/>\n", i,
                b->damping[0]);
        return;
    }
    static const char *const type[3] = {"slide", "slide", "hinge"};
    static const char dof[3] = {'x', 'y', 't'};
    double R[9], q[4] = {b->quat[0], b->quat[1], b->quat[2], b->quat[3]};
    tc_quat_normalize(q);
    tc_quat_to_mat(R, q);
    for (int k = 0; k < 3; k++) {
        /* world axis e_k (k = 2: e_z) in the body frame is row k of R0 */
        fprintf(f,
                "      <joint name=\"j%d%c\" type=\"%s\" pos=\"0 0 0\" axis=\"%.17g %.17g %.17g\" "
                "limited=\"false\" damping=\"%.17g\"/>\n",
                i, dof[k], type[k], R[3 * k], R[3 * k + 1], R[3 * k + 2], b->damping[k]);
    }
}

/* position servos of planar dofs with kp > 0; returns the number written */
static int write_actuators(FILE *f, const tc_scene *sc) {
    static const char dof[3] = {'x', 'y', 't'};
    int n = 0;
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (b->joint != TC_JOINT_PLANAR) continue;
        for (int k = 0; k < 3; k++) {
            if (!(b->kp[k] > 0)) continue;
            if (n++ == 0) fprintf(f, "  <actuator>\n");
            fprintf(f,
                    "    <position name=\"a%d%c\" joint=\"j%d%c\" kp=\"%.17g\" "
                    "ctrllimited=\"false\" forcelimited=\"false\"/>\n",
                    i, dof[k], i, dof[k], b->kp[k]);
        }
    }
    if (n) fprintf(f, "  </actuator>\n");
    return n;
}

/* write the scene as MJCF; returns the stream's error state */
static int write_mjcf(FILE *f, const tc_scene *sc, const tc_params *p, double dt) {
    static const char *const cone[] = {"pyramidal", "elliptic"};
    static const char *const integrator[] = {"Euler", "RK4"};
    static const char *const solver[] = {"PGS", "CG", "Newton"};
    int condim = (int)tc_params_get(p, "condim");
    int cone_i = (int)tc_params_get(p, "cone");
    /* constraint rows per contact: pyramidal cones use 2 (condim - 1) edges */
    int rows = condim == 1 ? 1 : (cone_i == 0 ? 2 * (condim - 1) : condim);
    /* geom pairs that can touch: compounds count each part */
    int npair = 0;
    for (int a = 0; a < sc->nbody; a++)
        for (int b = a + 1; b < sc->nbody; b++)
            if (sc->body[a].joint != TC_JOINT_FIXED || sc->body[b].joint != TC_JOINT_FIXED)
                npair += geom_count(&sc->body[a]) * geom_count(&sc->body[b]);
    /* box-box gives up to 8 contacts; cap the dense nefc x nefc buffers at 2000 rows */
    int nconmax = 8 * npair < 100 ? 100 : (8 * npair > 1000 ? 1000 : 8 * npair);
    int njmax = nconmax * rows < 500 ? 500 : (nconmax * rows > 2000 ? 2000 : nconmax * rows);
    /* header: compiler (masses only from the scene), options, sizes, contact defaults */
    fprintf(f, "<mujoco model=\"touche\">\n");
    fprintf(f, "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n");
    fprintf(f,
            "  <option timestep=\"%.17g\" gravity=\"%.17g %.17g %.17g\" integrator=\"%s\" "
            "cone=\"%s\" solver=\"%s\" iterations=\"%d\" tolerance=\"%.17g\"/>\n",
            dt, sc->gravity[0], sc->gravity[1], sc->gravity[2],
            integrator[(int)tc_params_get(p, "integrator")], cone[cone_i],
            solver[(int)tc_params_get(p, "solver")], (int)tc_params_get(p, "iterations"),
            tc_params_get(p, "tolerance"));
    fprintf(f, "  <size nconmax=\"%d\" njmax=\"%d\"/>\n", nconmax, njmax);
    fprintf(f,
            "  <default><geom condim=\"%d\" friction=\"%.17g %.17g %.17g\" "
            "solref=\"%.17g %.17g\" solimp=\"%.17g %.17g %.17g %.17g %.17g\"/></default>\n",
            condim, sc->friction, tc_params_get(p, "friction_torsional"),
            tc_params_get(p, "friction_rolling"), tc_params_get(p, "solref_timeconst"),
            tc_params_get(p, "solref_dampratio"), tc_params_get(p, "solimp_dmin"),
            tc_params_get(p, "solimp_dmax"), tc_params_get(p, "solimp_width"),
            tc_params_get(p, "solimp_midpoint"), tc_params_get(p, "solimp_power"));
    write_meshes(f, sc);
    fprintf(f, "  <worldbody>\n");
    /* fixed bodies are geoms of the world body: a plane inside a welded child body collides
     * twice in MuJoCo 2.2.2 (world pass plus broadphase), and world geoms never touch each
     * other, as in touche. Kinematic bodies are mocap bodies (no joints, no mass: their pose is
     * set from the path before each call). Moving bodies carry their joints and their own
     * inertial at the body origin (the COM). Names are indices, so scene names need no XML
     * escaping. */
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (b->joint == TC_JOINT_FIXED) {
            write_body_geoms(f, i, b, 1);
            continue;
        }
        if (b->joint == TC_JOINT_KINEMATIC) {
            fprintf(f,
                    "    <body name=\"b%d\" mocap=\"true\" pos=\"%.17g %.17g %.17g\" "
                    "quat=\"%.17g %.17g %.17g %.17g\">\n",
                    i, b->pos[0], b->pos[1], b->pos[2], b->quat[0], b->quat[1], b->quat[2],
                    b->quat[3]);
            write_body_geoms(f, i, b, 0);
            fprintf(f, "    </body>\n");
            continue;
        }
        fprintf(f,
                "    <body name=\"b%d\" pos=\"%.17g %.17g %.17g\" "
                "quat=\"%.17g %.17g %.17g %.17g\">\n",
                i, b->pos[0], b->pos[1], b->pos[2], b->quat[0], b->quat[1], b->quat[2], b->quat[3]);
        write_joints(f, i, b);
        fprintf(f,
                "      <inertial pos=\"0 0 0\" mass=\"%.17g\" "
                "diaginertia=\"%.17g %.17g %.17g\"/>\n",
                b->mass, b->inertia[0], b->inertia[1], b->inertia[2]);
        write_body_geoms(f, i, b, 0);
        fprintf(f, "    </body>\n");
    }
    fprintf(f, "  </worldbody>\n");
    write_actuators(f, sc);
    fprintf(f, "</mujoco>\n");
    return ferror(f);
}

/* load MJCF text through a heap-allocated VFS; errbuf gets MuJoCo's message */
static mjModel *load_mjcf(const char *xml, size_t len, char *errbuf, int n) {
    mjModel *m = NULL;
    mjVFS *vfs = malloc(sizeof *vfs);
    if (!vfs) {
        snprintf(errbuf, (size_t)n, "out of memory for the MuJoCo VFS");
        return NULL;
    }
    mj_defaultVFS(vfs);
    if (len > INT_MAX || mj_makeEmptyFileVFS(vfs, "scene.xml", (int)len) != 0) {
        snprintf(errbuf, (size_t)n, "cannot create scene.xml in the MuJoCo VFS");
    } else {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, "scene.xml")], xml, len);
        /* one load at a time: 2.2.2 promises no thread safety for the XML loader; the
         * process-wide handlers are installed under the same lock */
#pragma omp critical(tc_mujoco_load)
        {
            install_handlers();
            m = mj_loadXML("scene.xml", vfs, errbuf, n);
        }
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return m;
}

/* mj_makeData under the error trap (it calls mju_error when out of memory) */
static mjData *make_data(const mjModel *m) {
    jmp_buf trap;
    error_trap = &trap;
    if (setjmp(trap)) {
        error_trap = NULL;
        return NULL;
    }
    mjData *d = mj_makeData(m);
    error_trap = NULL;
    return d;
}

/* release the model, the data and the adapter state */
static void mujoco_free(void *state) {
    engine *e = state;
    if (!e) return;
    if (e->jac) {
        if (e->jac->d) mj_deleteData(e->jac->d);
        tc_arena_free(&e->jac->arena);
    }
    if (e->d) mj_deleteData(e->d);
    if (e->m) mj_deleteModel(e->m);
    tc_arena_free(&e->arena);
}

/* checks MuJoCo would not make (or would make with a less helpful message): the library, the
 * step, gravity, condim and the impedance */
static tc_status check_setup(const tc_scene *sc, const tc_params *p, double dt, tc_error *err) {
    /* library and header must agree */
    if (strcmp(mj_versionString(), MUJOCO_VERSION) != 0)
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "touche was built for MuJoCo %s but libmujoco is %s", MUJOCO_VERSION,
                            mj_versionString());
    if (!(isfinite(dt) && dt > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "dt", "must be > 0 s (got %g)", dt);
    for (int k = 0; k < 3; k++)
        if (!isfinite(sc->gravity[k]))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "gravity", "must be finite");
    int condim = (int)tc_params_get(p, "condim");
    if (condim != 1 && condim != 3 && condim != 4 && condim != 6)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "condim", "must be 1, 3, 4 or 6 (got %d)",
                            condim);
    if (tc_params_get(p, "solimp_dmin") > tc_params_get(p, "solimp_dmax"))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "solimp_dmin", "must not exceed solimp_dmax");
    return TC_OK;
}

/* joints, damping and servos MuJoCo can express */
static tc_status check_joints(const tc_scene *sc, tc_error *err) {
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        if (b->joint != TC_JOINT_FIXED && b->joint != TC_JOINT_FREE &&
            b->joint != TC_JOINT_PLANAR && b->joint != TC_JOINT_KINEMATIC)
            return tc_error_set(err, TC_EUNSUP, NULL, 0, "joint",
                                "body '%s': unknown joint type %d", b->name, (int)b->joint);
        if (b->joint != TC_JOINT_FREE) continue;
        for (int k = 1; k < 6; k++)
            if (b->damping[k] != b->damping[0])
                return tc_error_set(
                    err, TC_EUNSUP, NULL, 0, "damping",
                    "body '%s': MuJoCo's free joint takes one damping value for all 6 dofs, "
                    "got (%g %g %g | %g %g %g); make them equal",
                    b->name, b->damping[0], b->damping[1], b->damping[2], b->damping[3],
                    b->damping[4], b->damping[5]);
    }
    return TC_OK;
}

/* the maps, carved from the engine's block (a probe while sizing) */
static void carve(void *state, tc_arena *a, const void *ctx) {
    (void)ctx;
    engine *e = state;
    size_t nb = (size_t)e->nbody + 1;
    e->joint = tc_arena_alloc(a, nb, sizeof *e->joint);
    e->qadr = tc_arena_alloc(a, nb, sizeof *e->qadr);
    e->vadr = tc_arena_alloc(a, nb, sizeof *e->vadr);
    e->mqadr = tc_arena_alloc(a, nb, sizeof *e->mqadr);
    e->mvadr = tc_arena_alloc(a, nb, sizeof *e->mvadr);
    e->mbody = tc_arena_alloc(a, nb, sizeof *e->mbody);
    e->mocap = tc_arena_alloc(a, nb, sizeof *e->mocap);
    e->act = tc_arena_alloc(a, nb, sizeof *e->act);
    e->org = tc_arena_alloc(a, nb, sizeof *e->org);
    e->owner = tc_arena_alloc(a, (size_t)e->ngeom + 1, sizeof *e->owner);
}

/* the scene as MJCF text in memory, compiled into e->m (MuJoCo's load warnings kept) */
static tc_status compile(engine *e, const tc_scene *sc, const tc_params *p, double dt,
                         tc_error *err) {
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "cannot open a memory stream");
    int bad = write_mjcf(f, sc, p, dt);
    if (fclose(f) != 0 || bad) {
        free(xml);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "cannot write the MJCF text");
    }
    char errbuf[1024] = "";
    e->m = load_mjcf(xml, len, errbuf, (int)sizeof errbuf);
    free(xml);
    if (!e->m) {
        char msg[sizeof errbuf];
        flatten(msg, sizeof msg, errbuf[0] ? errbuf : "mj_loadXML failed without a message");
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "MuJoCo: %s", msg);
    }
    if (errbuf[0]) tc_warnbuf_push(&e->warn, "MuJoCo load warning: ", errbuf);
    return TC_OK;
}

/* the data, and the model checked against the scene: one geom per shape or part, meshes where
 * their vertices are (MuJoCo re-frames meshes at their centroid and principal axes) */
static tc_status check_model(engine *e, const tc_scene *sc, tc_error *err) {
    e->d = make_data(e->m);
    if (!e->d) return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "MuJoCo: %s", error_text);
    if (e->m->ngeom != e->ngeom)
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "MuJoCo compiled %d geoms for the scene's %d", e->m->ngeom, e->ngeom);
    for (int i = 0; i < sc->nbody; i++)
        if (sc->body[i].shape.type == TC_SHAPE_POLYTOPE && !mesh_matches(e->m, i, &sc->body[i]))
            return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                                "MuJoCo placed the mesh of polytope body '%s' away from its "
                                "vertices",
                                sc->body[i].name);
    return TC_OK;
}

/* body i's geoms, as owned by it */
static void map_geoms(engine *e, int i, const tc_body_desc *b) {
    char name[32];
    for (int k = 0; k < geom_count(b); k++) {
        if (b->shape.type == TC_SHAPE_COMPOUND)
            snprintf(name, sizeof name, "g%dp%d", i, k);
        else
            snprintf(name, sizeof name, "g%d", i);
        e->owner[mj_name2id(e->m, mjOBJ_GEOM, name)] = i;
    }
}

/* touche bodies to MuJoCo geoms, bodies, joint addresses and actuators */
static void map_bodies(engine *e, const tc_scene *sc) {
    int nq = 0, nv = 0;
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        char name[32];
        map_geoms(e, i, b);
        tc_v3_copy(e->org[i], b->pos);
        e->joint[i] = b->joint;
        e->mbody[i] = e->mocap[i] = e->qadr[i] = e->vadr[i] = e->mqadr[i] = e->mvadr[i] = -1;
        e->act[i][0] = e->act[i][1] = e->act[i][2] = -1;
        if (b->joint == TC_JOINT_FIXED) continue;
        snprintf(name, sizeof name, "b%d", i);
        int id = mj_name2id(e->m, mjOBJ_BODY, name), j = e->m->body_jntadr[id];
        e->mbody[i] = id;
        /* a kinematic body: its mocap slot and its path, no state */
        if (b->joint == TC_JOINT_KINEMATIC) {
            e->mocap[i] = e->m->body_mocapid[id];
            continue;
        }
        /* the body's first joint; a planar body's three are consecutive in qpos and qvel */
        e->qadr[i] = nq;
        e->vadr[i] = nv;
        e->mqadr[i] = e->m->jnt_qposadr[j];
        e->mvadr[i] = e->m->jnt_dofadr[j];
        int planar = b->joint != TC_JOINT_FREE;
        nq += planar ? 3 : 7;
        nv += planar ? 3 : 6;
        for (int k = 0; k < 3 && planar; k++) {
            snprintf(name, sizeof name, "a%d%c", i, "xyt"[k]);
            e->act[i][k] = b->kp[k] > 0 ? mj_name2id(e->m, mjOBJ_ACTUATOR, name) : -1;
        }
    }
}

/* scene -> MJCF -> mjModel + mjData, and the body and state maps */
static tc_status mujoco_alloc(void **state, const tc_scene *sc, const tc_params *p, double dt,
                              tc_error *err) {
    *state = NULL;
    tc_status st = check_setup(sc, p, dt, err);
    if (!st) st = check_joints(sc, err);
    if (st) return st;
    /* the engine and its maps, sized by the scene, in one block */
    engine probe = {.nbody = sc->nbody, .body = sc->body, .dt = dt};
    for (int i = 0; i < sc->nbody; i++)
        probe.ngeom += geom_count(&sc->body[i]);
    engine *e = tc_arena_make(&probe, sizeof probe, offsetof(engine, arena), carve, NULL);
    if (!e) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    st = compile(e, sc, p, dt, err);
    if (!st) st = check_model(e, sc, err);
    if (st) {
        mujoco_free(e);
        return st;
    }
    map_bodies(e, sc);
    *state = e;
    return TC_OK;
}

/* the simulation time into MuJoCo and the kinematic bodies to their paths at that time */
static void time_in(engine *e) {
    e->d->time = e->t;
    for (int i = 0; i < e->nbody; i++)
        if (e->mocap[i] >= 0)
            tc_body_path(&e->body[i], e->t, e->d->mocap_pos + 3 * e->mocap[i], NULL);
}

/* touche (q, v) into qpos/qvel: a free joint's angular velocity is in the body frame, a planar
 * body's slides are displacements from the scene position */
static void state_in(engine *e, const double *q, const double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const double *qi = q + e->qadr[i], *vi = v ? v + e->vadr[i] : NULL;
        double *qpos = e->d->qpos + e->mqadr[i], *qvel = e->d->qvel + e->mvadr[i];
        /* planar: (x - x0, y - y0, theta), velocities as they are */
        if (e->joint[i] == TC_JOINT_PLANAR) {
            qpos[0] = qi[0] - e->org[i][0];
            qpos[1] = qi[1] - e->org[i][1];
            qpos[2] = qi[2];
            for (int k = 0; k < 3; k++)
                qvel[k] = vi ? vi[k] : 0;
            continue;
        }
        memcpy(qpos, qi, 7 * sizeof *qpos);
        if (!vi) {
            memset(qvel, 0, 6 * sizeof *qvel);
            continue;
        }
        double quat[4] = {qi[3], qi[4], qi[5], qi[6]}, R[9];
        tc_quat_normalize(quat);
        tc_quat_to_mat(R, quat);
        memcpy(qvel, vi, 3 * sizeof *qvel);
        tc_m3_mulvt(qvel + 3, R, vi + 3);
    }
}

/* qpos/qvel back into touche (q, v): angular velocity to the world frame, slides to absolute */
static void state_out(const engine *e, double *q, double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const double *qpos = e->d->qpos + e->mqadr[i], *qvel = e->d->qvel + e->mvadr[i];
        double *qi = q + e->qadr[i], *vi = v + e->vadr[i], R[9];
        /* planar: absolute x, y and theta from the scene orientation */
        if (e->joint[i] == TC_JOINT_PLANAR) {
            qi[0] = e->org[i][0] + qpos[0];
            qi[1] = e->org[i][1] + qpos[1];
            qi[2] = qpos[2];
            memcpy(vi, qvel, 3 * sizeof *vi);
            continue;
        }
        memcpy(qi, qpos, 7 * sizeof *qi);
        tc_quat_to_mat(R, qi + 3);
        memcpy(vi, qvel, 3 * sizeof *vi);
        tc_m3_mulv(vi + 3, R, qvel + 3);
    }
}

/* servo targets in MuJoCo joint coordinates: slides relative to the scene position, theta as
 * is; no ctrl holds the initial configuration (all zero) */
static void ctrl_in(engine *e, const double *ctrl) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->joint[i] != TC_JOINT_PLANAR) continue;
        for (int k = 0; k < 3; k++) {
            int a = e->act[i][k];
            if (a >= 0)
                e->d->ctrl[a] = ctrl ? ctrl[e->vadr[i] + k] - (k < 2 ? e->org[i][k] : 0) : 0;
        }
    }
}

/* external wrenches on the moving bodies: MuJoCo applies xfrc_applied (force, torque) at the
 * body's centre of mass, as touche does */
static void xfrc_in(engine *e, const tc_wrench *xfrc) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->mbody[i] < 0) continue;
        double *x = e->d->xfrc_applied + 6 * e->mbody[i];
        for (int k = 0; k < 3; k++) {
            x[k] = xfrc ? xfrc[i].f[k] : 0;
            x[3 + k] = xfrc ? xfrc[i].t[k] : 0;
        }
    }
}

/* run fn under the error trap; returns TC_EENGINE after mju_error, else the mask of
 * warning counters that fired during the call in *fired */
static tc_status guarded(engine *e, void (*fn)(const mjModel *, mjData *), unsigned *fired) {
    mjData *d = e->d;
    jmp_buf trap;
    *fired = 0;
    /* mark counters: a counter MuJoCo touches gets a real lastinfo */
    for (int k = 0; k < mjNWARNING; k++)
        d->warning[k].lastinfo = INFO_UNTOUCHED;
    current = e;
    error_trap = &trap;
    if (setjmp(trap)) {
        /* mju_error: the stack allocator is left mid-call; release it */
        error_trap = NULL;
        current = NULL;
        d->pstack = 0;
        tc_warnbuf_push(&e->warn, "MuJoCo error: ", error_text);
        return TC_EENGINE;
    }
    fn(e->m, d);
    error_trap = NULL;
    current = NULL;
    /* report each counter once by name; flag every call that fires one */
    for (int k = 0; k < mjNWARNING; k++) {
        if (d->warning[k].number <= 0 || d->warning[k].lastinfo == INFO_UNTOUCHED) continue;
        *fired |= 1u << k;
        if (e->reported[k]) continue;
        e->reported[k] = 1;
        char line[256];
        snprintf(line, sizeof line, "%s (%s)", warning_names[k],
                 mju_warningText(k, d->warning[k].lastinfo));
        tc_warnbuf_push(&e->warn, "MuJoCo counter: ", line);
    }
    return TC_OK;
}

/* add a force and torque acting at point x to body b's wrench about its origin (the COM) */
static void add_wrench(tc_wrench *w, const double org[3], const double x[3], const double F[3],
                       const double T[3], double sign) {
    tc_wrench_add_at(w, org, x, F, sign);
    tc_v3_addscl(w->t, T, sign);
}

/* torque origin: a moving body's frame origin (its COM, xpos = xipos), a fixed body's position */
static const double *origin(const engine *e, int i) {
    return e->mbody[i] >= 0 ? e->d->xpos + 3 * e->mbody[i] : e->org[i];
}

/* contact wrenches at (q, v) from mj_forward's constraint forces, kinematic bodies where their
 * paths are at the time of the last step (0 before the first) */
static tc_status mujoco_force(void *state, const double *q, const double *v, tc_wrench *w) {
    engine *e = state;
    const mjModel *m = e->m;
    const mjData *d = e->d;
    unsigned fired;
    memset(w, 0, (size_t)e->nbody * sizeof *w);
    state_in(e, q, v);
    time_in(e);
    tc_status st = guarded(e, mj_forward, &fired);
    if (st) return st;
    /* each contact: force on geom2's body, the opposite on geom1's */
    for (int i = 0; i < d->ncon; i++) {
        const mjContact *c = &d->contact[i];
        mjtNum fc[6], F[3] = {0, 0, 0}, T[3] = {0, 0, 0};
        mj_contactForce(m, d, i, fc);
        for (int r = 0; r < 3; r++) {
            tc_v3_addscl(F, c->frame + 3 * r, fc[r]);
            tc_v3_addscl(T, c->frame + 3 * r, fc[3 + r]);
        }
        int b1 = e->owner[c->geom1], b2 = e->owner[c->geom2];
        add_wrench(&w[b2], origin(e, b2), c->pos, F, T, 1);
        add_wrench(&w[b1], origin(e, b1), c->pos, F, T, -1);
    }
    return TC_OK;
}

/* the last step's contact impulses: mj_contactForce (contact frame, rows normal, tangent 1,
 * tangent 2, whatever the cone; the normal from geom1 to geom2, the force on geom2) times dt,
 * MuJoCo's constraint forces being held over its semi-implicit step */
static int mujoco_impulses(void *state, tc_contact_impulse *out, int max) {
    engine *e = state;
    const mjModel *m = e->m;
    const mjData *d = e->d;
    for (int i = 0; i < d->ncon && out && i < max; i++) {
        const mjContact *c = &d->contact[i];
        mjtNum fc[6];
        mj_contactForce(m, d, i, fc);
        tc_contact_impulse *o = &out[i];
        o->a = e->owner[c->geom1];
        o->b = e->owner[c->geom2];
        for (int k = 0; k < 3; k++) {
            o->pos[k] = c->pos[k];
            o->normal[k] = c->frame[k];
            o->tangent_impulse[k] = e->dt * (fc[1] * c->frame[3 + k] + fc[2] * c->frame[6 + k]);
        }
        o->depth = -c->dist;
        o->normal_impulse = e->dt * fc[0];
    }
    return d->ncon;
}

/* one mj_step from (q, v) with servo targets ctrl (touche layout, may be NULL) and external
 * wrenches xfrc (may be NULL), written back
 * into (q, v); kinematic bodies sit where their paths are at the step's start for the whole
 * step, and the time advances by dt whatever the outcome, as tc_sim's does */
static tc_status mujoco_step(void *state, const double *ctrl, const tc_wrench *xfrc, double *q,
                             double *v) {
    engine *e = state;
    unsigned fired;
    state_in(e, q, v);
    ctrl_in(e, ctrl);
    xfrc_in(e, xfrc);
    time_in(e);
    tc_status st = guarded(e, mj_step, &fired);
    e->t += e->dt;
    if (st) return st;
    /* MuJoCo reset mjData to qpos0 after a bad number: keep (q, v) and report divergence */
    if (fired & RESET_WARNINGS) return TC_EDIVERGED;
    state_out(e, q, v);
    return TC_OK;
}

/* the workspace's buffers, carved from its block (a probe while sizing) */
static void jac_carve(void *state, tc_arena *a, const void *ctx) {
    const mjModel *m = ctx;
    jac_ws *w = state;
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv, nu = (size_t)m->nu, nx = 2 * nv;
    w->Amj = tc_arena_alloc(a, nx * nx, sizeof(double));
    w->Bmj = tc_arena_alloc(a, nx * nu, sizeof(double));
    w->Bq = tc_arena_alloc(a, nx * nv, sizeof(double));
    w->qpos0 = tc_arena_alloc(a, nq, sizeof(double));
    w->qpos1 = tc_arena_alloc(a, nq, sizeof(double));
    w->qposp = tc_arena_alloc(a, nq, sizeof(double));
    w->qposm = tc_arena_alloc(a, nq, sizeof(double));
    w->qvel0 = tc_arena_alloc(a, nv, sizeof(double));
    w->warm = tc_arena_alloc(a, nv, sizeof(double));
    w->qvel1 = tc_arena_alloc(a, nv, sizeof(double));
    w->qvelp = tc_arena_alloc(a, nv, sizeof(double));
    w->qvelm = tc_arena_alloc(a, nv, sizeof(double));
    w->dpos = tc_arena_alloc(a, nv, sizeof(double));
    w->mdof = tc_arena_alloc(a, nv + 1, sizeof(int));
    w->actu = tc_arena_alloc(a, nv + 1, sizeof(int));
    w->xadr = tc_arena_alloc(a, nv + 1, sizeof(int));
}

/* the workspace: scratch data and every buffer in one block, the dof and actuator maps filled */
static tc_status jac_alloc(engine *e) {
    const mjModel *m = e->m;
    jac_ws probe = {0};
    jac_ws *w = tc_arena_make(&probe, sizeof probe, offsetof(jac_ws, arena), jac_carve, m);
    if (!w) return TC_ENOMEM;
    for (int i = 0; i < e->nbody; i++) {
        if (e->vadr[i] < 0) continue;
        int planar = e->joint[i] == TC_JOINT_PLANAR;
        for (int k = 0; k < (planar ? 3 : 6); k++) {
            w->mdof[e->vadr[i] + k] = e->mvadr[i] + k;
            w->actu[e->vadr[i] + k] = planar ? e->act[i][k] : -1;
            /* a planar body's dtheta is a torque about world z */
            w->xadr[e->vadr[i] + k] = 6 * e->mbody[i] + (planar && k == 2 ? 5 : k);
        }
    }
    w->d = make_data(m);
    if (!w->d) {
        tc_arena_free(&w->arena);
        return TC_EENGINE;
    }
    e->jac = w;
    return TC_OK;
}

/* the scratch data back to the step's inputs: state, warm start, time */
static void jac_restore(const mjModel *m, mjData *d, const jac_ws *w, double t) {
    mju_copy(d->qpos, w->qpos0, m->nq);
    mju_copy(d->qvel, w->qvel0, m->nv);
    mju_copy(d->qacc_warmstart, w->warm, m->nv);
    d->time = t;
}

/* what one difference column nudges */
enum { NUDGE_QPOS, NUDGE_QVEL, NUDGE_XFRC, NUDGE_CTRL };

/* input j of the kind moved by h (qpos along MuJoCo's tangent: mj_integratePos, as mjd does;
 * xfrc: entry j of xfrc_applied) */
static void nudge(const mjModel *m, mjData *d, const jac_ws *w, int kind, int j, double h) {
    if (kind == NUDGE_QPOS) {
        mju_zero(w->dpos, m->nv);
        w->dpos[j] = 1;
        mj_integratePos(m, d->qpos, w->dpos, h);
    } else if (kind == NUDGE_QVEL) {
        d->qvel[j] += h;
    } else {
        (kind == NUDGE_XFRC ? d->xfrc_applied : d->ctrl)[j] += h;
    }
}

/* one centred-difference column of mj_step in MuJoCo's tangent coordinates into col (stride
 * ld): every step a full mj_step from the restored inputs */
static void fd_column(const mjModel *m, mjData *d, const jac_ws *w, double t, int kind, int j,
                      double *col, int ld) {
    int nq = m->nq, nv = m->nv;
    double held = kind == NUDGE_XFRC ? d->xfrc_applied[j] : kind == NUDGE_CTRL ? d->ctrl[j] : 0;
    for (int s = 0; s < 2; s++) {
        nudge(m, d, w, kind, j, s ? -JAC_EPS : JAC_EPS);
        mj_step(m, d);
        mju_copy(s ? w->qposm : w->qposp, d->qpos, nq);
        mju_copy(s ? w->qvelm : w->qvelp, d->qvel, nv);
        if (kind == NUDGE_XFRC) d->xfrc_applied[j] = held;
        if (kind == NUDGE_CTRL) d->ctrl[j] = held;
        jac_restore(m, d, w, t);
    }
    /* positions through MuJoCo's tangent difference (as mjd's), then velocities */
    mj_differentiatePos(m, w->dpos, 2 * JAC_EPS, w->qposm, w->qposp);
    for (int r = 0; r < nv; r++) {
        col[r * ld] = w->dpos[r];
        col[(nv + r) * ld] = (w->qvelp[r] - w->qvelm[r]) / (2 * JAC_EPS);
    }
}

/* on the scratch data (current: the engine; the step's inputs set): the nominal step,
 * mjd_transitionFD's A and B, and the columns for tau by the same centred differences of the
 * world wrench xfrc_applied the step holds (mjd_transitionFD differences ctrl only; a body-frame
 * qfrc_applied is the same under Euler but not under RK4, whose later stages turn the body). Under
 * RK4 2.2.2's mjd_transitionFD is wrong: it skips the position (or velocity) stage after restoring
 * the state, and RK4 leaves those stages at its last intermediate point; there every column is
 * differenced with full steps */
static void jac_work(const mjModel *m, mjData *d) {
    const jac_ws *w = current->jac;
    int nq = m->nq, nv = m->nv, nu = m->nu;
    double t = d->time;
    mju_copy(w->qpos0, d->qpos, nq);
    mju_copy(w->qvel0, d->qvel, nv);
    mju_copy(w->warm, d->qacc_warmstart, nv);
    /* the nominal next state, where the output coordinates are converted */
    mj_step(m, d);
    mju_copy(w->qpos1, d->qpos, nq);
    mju_copy(w->qvel1, d->qvel, nv);
    jac_restore(m, d, w, t);
    if (m->opt.integrator == mjINT_EULER) {
        mjd_transitionFD(m, d, JAC_EPS, 1, w->Amj, nu ? w->Bmj : NULL, NULL, NULL);
        jac_restore(m, d, w, t);
    } else {
        for (int j = 0; j < nv; j++) {
            fd_column(m, d, w, t, NUDGE_QPOS, j, w->Amj + j, 2 * nv);
            fd_column(m, d, w, t, NUDGE_QVEL, j, w->Amj + nv + j, 2 * nv);
        }
        for (int a = 0; a < nu; a++)
            fd_column(m, d, w, t, NUDGE_CTRL, a, w->Bmj + a, nu);
    }
    /* generalised forces, one touche dof at a time, as world wrench entries */
    for (int c = 0; c < nv; c++)
        fd_column(m, d, w, t, NUDGE_XFRC, w->xadr[c], w->Bq + c, nv);
}

/* x <- a's three entries at stride s, and back */
static void get3(double x[3], const double *a, int s) {
    for (int k = 0; k < 3; k++)
        x[k] = a[k * s];
}

static void put3(double *a, int s, const double x[3]) {
    for (int k = 0; k < 3; k++)
        a[k * s] = x[k];
}

/* the input side at (q, v), per free body (columns of X, nr rows of length ld): touche's world
 * rotation th and world angular velocity w enter MuJoCo's body-frame ones as
 *   th_mj = R^T th,  w_mj = R^T w + R^T (omega x th)
 * so X's columns become th: R x_th - omega x (R x_w), w: R x_w (rows as vectors) */
static void in_cols(double *X, int nr, int ld, int cth, int cw, const double R[9],
                    const double omega[3]) {
    for (int r = 0; r < nr; r++) {
        double *row = X + (size_t)r * ld, a[3], b[3], Ra[3], Rb[3], oxRb[3];
        get3(a, row + cth, 1);
        get3(b, row + cw, 1);
        tc_m3_mulv(Ra, R, a);
        tc_m3_mulv(Rb, R, b);
        tc_v3_cross(oxRb, omega, Rb);
        tc_v3_sub(Ra, Ra, oxRb);
        put3(row + cth, 1, Ra);
        put3(row + cw, 1, Rb);
    }
}

/* the output side at the nominal x+ (rows of X, nc columns, row length ld): MuJoCo's body-frame
 * rotation th and angular velocity w leave as touche's world ones
 *   th = R+ th_mj,  w = R+ (w_mj - omega_b+ x th_mj) */
static void out_rows(double *X, int nc, int ld, int rth, int rw, const double R[9],
                     const double omega_b[3]) {
    for (int c = 0; c < nc; c++) {
        double a[3], b[3], t[3];
        get3(a, X + (size_t)rth * ld + c, ld);
        get3(b, X + (size_t)rw * ld + c, ld);
        tc_v3_cross(t, omega_b, a);
        tc_v3_sub(b, b, t);
        tc_m3_mulv(t, R, a);
        put3(X + (size_t)rth * ld + c, ld, t);
        tc_m3_mulv(t, R, b);
        put3(X + (size_t)rw * ld + c, ld, t);
    }
}

/* MuJoCo's x index of touche's x index k (dq then v, each in dof order) */
static int mx(const jac_ws *w, int nv, int k) {
    return k < nv ? w->mdof[k] : nv + w->mdof[k - nv];
}

/* A and B from MuJoCo's coordinates to touche's: reorder, then the free bodies' frames (planar
 * bodies' slides and hinge are touche's dx, dy, dtheta already) */
static void jac_convert(const engine *e, const double *q, const double *v, double *A, double *B) {
    const jac_ws *w = e->jac;
    int nv = e->m->nv, nu = e->m->nu, nx = 2 * nv;
    for (int r = 0; r < nx; r++) {
        int mr = mx(w, nv, r);
        for (int c = 0; c < nx; c++)
            A[r * nx + c] = w->Amj[mr * nx + mx(w, nv, c)];
        for (int c = 0; c < nv; c++) {
            int a = w->actu[c];
            B[r * nx + c] = w->Bq[mr * nv + c];
            B[r * nx + nv + c] = a >= 0 ? w->Bmj[mr * nu + a] : 0;
        }
    }
    for (int i = 0; i < e->nbody; i++) {
        if (e->joint[i] != TC_JOINT_FREE) continue;
        int t = e->vadr[i] + 3;
        double quat[4], R[9];
        /* inputs at (q, v): A's rotation and angular velocity columns (B's are touche's) */
        memcpy(quat, q + e->qadr[i] + 3, sizeof quat);
        tc_quat_normalize(quat);
        tc_quat_to_mat(R, quat);
        in_cols(A, nx, nx, t, nv + t, R, v + e->vadr[i] + 3);
        /* outputs at the nominal x+: both matrices' rows */
        memcpy(quat, w->qpos1 + e->mqadr[i] + 3, sizeof quat);
        tc_quat_normalize(quat);
        tc_quat_to_mat(R, quat);
        const double *ob = w->qvel1 + e->mvadr[i] + 3;
        out_rows(A, nx, nx, t, nv + t, R, ob);
        out_rows(B, nx, nx, t, nv + t, R, ob);
    }
}

/* A and B of one step from (q, v) with ctrl and xfrc held: the step's inputs are set on the
 * scratch data (e->d stands for it during the call, so state_in and guarded serve both), the
 * step's warm start copied in; e->d, q and v are left as they were. Cost: 2 + 6 nv + 2 nu
 * mj_steps (Euler: mjd_transitionFD's 1 + 2 (2 nv + nu), the nominal one, 2 nv for tau);
 * 1 + 6 nv + 2 nu under RK4 */
static tc_status mujoco_jacobian(void *state, const double *ctrl, const tc_wrench *xfrc,
                                 const double *q, const double *v, double *A, double *B) {
    engine *e = state;
    if (e->m->na != 0) return TC_EUNSUP; /* position servos have no activation state */
    if (!e->jac) {
        tc_status st = jac_alloc(e);
        if (st == TC_EENGINE) tc_warnbuf_push(&e->warn, "MuJoCo error: ", error_text);
        if (st) return st;
    }
    mjData *step_data = e->d;
    e->d = e->jac->d;
    state_in(e, q, v);
    ctrl_in(e, ctrl);
    xfrc_in(e, xfrc);
    time_in(e);
    mju_copy(e->d->qacc_warmstart, step_data->qacc_warmstart, e->m->nv);
    unsigned fired;
    tc_status st = guarded(e, jac_work, &fired);
    e->d = step_data;
    if (st) return st;
    /* a bad number made MuJoCo reset the scratch data: the differences are meaningless */
    if (fired & RESET_WARNINGS) return TC_EDIVERGED;
    jac_convert(e, q, v, A, B);
    return TC_OK;
}

/* this engine's queued lines, then the thread's orphans */
static int mujoco_warnings(void *state, char *buf, int n) {
    engine *e = state;
    int used = 0;
    if (buf && n > 0) buf[0] = '\0';
    int count = tc_warnbuf_drain(&e->warn, "MuJoCo warnings", buf, n, &used);
    return count + tc_warnbuf_drain(&orphan, "MuJoCo warnings", buf, n, &used);
}

/* the contacts of the last mj_step or force query (MuJoCo's ncon) */
static int mujoco_ncontact(void *state) {
    return ((engine *)state)->d->ncon;
}

/* the engine type */
const tc_engine_type tc_engine_mujoco = {
    .name = "mujoco",
    .summary = "MuJoCo 2.2.2: soft convex contact constraints (solref/solimp), via in-memory MJCF",
    .version = MUJOCO_VERSION,
    .params = mujoco_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION | TC_CAP_GRADIENT,
    .shapes = TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) |
              TC_SHAPE_BIT(TC_SHAPE_PLANE) | TC_SHAPE_BIT(TC_SHAPE_COMPOUND) |
              TC_SHAPE_BIT(TC_SHAPE_ELLIPSOID) | TC_SHAPE_BIT(TC_SHAPE_CYLINDER) |
              TC_SHAPE_BIT(TC_SHAPE_POLYTOPE),
    .alloc = mujoco_alloc,
    .force = mujoco_force,
    .step = mujoco_step,
    .warnings = mujoco_warnings,
    .ncontact = mujoco_ncontact,
    .free = mujoco_free,
    .jacobian = mujoco_jacobian,
    .impulses = mujoco_impulses,
};
