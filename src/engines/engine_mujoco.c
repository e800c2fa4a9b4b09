/* SPDX-License-Identifier: MIT */
/* MuJoCo 2.2.2 engine adapter: scene -> in-memory MJCF, contact wrenches and steps */
#include "engines/tc_engine.h"
#include "math/tc_vec.h"

#include <limits.h>
#include <math.h>
#include <mujoco/mujoco.h>
#include <setjmp.h>
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
    {"integrator", 0, 0, 1, TC_PARAM_INT, "1", "integrator: 0 semi-implicit Euler, 1 RK4",
     "MuJoCo's default"},
    {"solver", 2, 0, 2, TC_PARAM_INT, "1", "constraint solver: 0 PGS, 1 CG, 2 Newton",
     "MuJoCo's default"},
    {"iterations", 100, 1, 1e6, TC_PARAM_INT, "1", "maximum constraint solver iterations",
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

/* warning lines waiting for warnings() */
typedef struct warnbuf {
    char text[4096];
    int len, count, dropped;
} warnbuf;

/* adapter state: one per run, used by one thread at a time */
typedef struct engine {
    mjModel *m;
    mjData *d;
    int nbody;
    int qadr[TC_SCENE_MAXBODY], vadr[TC_SCENE_MAXBODY];   /* touche state offsets, -1 fixed */
    int mqadr[TC_SCENE_MAXBODY], mvadr[TC_SCENE_MAXBODY]; /* MuJoCo qpos/qvel offsets */
    int mbody[TC_SCENE_MAXBODY];     /* touche body -> mjModel body, -1 fixed (world geoms) */
    int owner[TC_SCENE_MAXBODY];     /* mjModel geom -> touche body */
    double org[TC_SCENE_MAXBODY][3]; /* fixed bodies' positions (torque origin) */
    int reported[mjNWARNING];        /* counter already reported */
    warnbuf warn;
} engine;

/* per-thread hooks for the process-wide MuJoCo handlers */
static _Thread_local engine *current;      /* engine inside an mj_* call on this thread */
static _Thread_local jmp_buf *error_trap;  /* where mju_error jumps to, NULL: abort */
static _Thread_local char error_text[512]; /* the last mju_error message */
static _Thread_local warnbuf orphan;       /* warnings raised outside any engine call */
static int handlers_installed;             /* guarded by the tc_mujoco_load critical */

/* append one line (newlines flattened); a full buffer counts what it drops */
static void warn_push(warnbuf *w, const char *prefix, const char *msg) {
    int room = (int)sizeof w->text - w->len;
    int n = snprintf(w->text + w->len, room > 0 ? (size_t)room : 0, "%s%s\n", prefix, msg);
    if (n < 0 || n >= room) {
        if (room > 0) w->text[w->len] = '\0';
        w->dropped++;
        return;
    }
    for (int i = w->len; i < w->len + n - 1; i++)
        if (w->text[i] == '\n' || w->text[i] == '\r') w->text[i] = ' ';
    w->len += n;
    w->count++;
}

/* mju_user_warning: queue the text for warnings(); never print, never log */
static void on_warning(const char *msg) {
    warn_push(current ? &current->warn : &orphan, "MuJoCo warning: ", msg);
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

/* one geom line named g<i>; attrs carries the pose of world-body geoms */
static void write_geom(FILE *f, int i, const tc_shape *sh, const char *attrs) {
    switch (sh->type) {
    case TC_SHAPE_SPHERE:
        fprintf(f, "<geom name=\"g%d\" type=\"sphere\" size=\"%.17g\" %s/>\n", i, sh->size[0],
                attrs);
        break;
    case TC_SHAPE_BOX:
        fprintf(f, "<geom name=\"g%d\" type=\"box\" size=\"%.17g %.17g %.17g\" %s/>\n", i,
                sh->size[0], sh->size[1], sh->size[2], attrs);
        break;
    default: /* plane: size 0 0 is infinite; the third number only spaces the render grid */
        fprintf(f, "<geom name=\"g%d\" type=\"plane\" size=\"0 0 1\" %s/>\n", i, attrs);
        break;
    }
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
    int npair = 0;
    for (int a = 0; a < sc->nbody; a++)
        for (int b = a + 1; b < sc->nbody; b++)
            npair += sc->body[a].joint != TC_JOINT_FIXED || sc->body[b].joint != TC_JOINT_FIXED;
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
    fprintf(f, "  <worldbody>\n");
    /* fixed bodies are geoms of the world body: a plane inside a welded child body collides
     * twice in MuJoCo 2.2.2 (world pass plus broadphase), and world geoms never touch each
     * other, as in touche. Free bodies carry their own inertial. Names are indices, so scene
     * names need no XML escaping. */
    for (int i = 0; i < sc->nbody; i++) {
        const tc_body_desc *b = &sc->body[i];
        char pose[256];
        snprintf(pose, sizeof pose, "pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\"",
                 b->pos[0], b->pos[1], b->pos[2], b->quat[0], b->quat[1], b->quat[2], b->quat[3]);
        if (b->joint == TC_JOINT_FREE) {
            fprintf(f, "    <body name=\"b%d\" %s>\n      <freejoint/>\n", i, pose);
            fprintf(f,
                    "      <inertial pos=\"0 0 0\" mass=\"%.17g\" "
                    "diaginertia=\"%.17g %.17g %.17g\"/>\n      ",
                    b->mass, b->inertia[0], b->inertia[1], b->inertia[2]);
            write_geom(f, i, &b->shape, "");
            fprintf(f, "    </body>\n");
        } else {
            fprintf(f, "    ");
            write_geom(f, i, &b->shape, pose);
        }
    }
    fprintf(f, "  </worldbody>\n</mujoco>\n");
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
    if (e->d) mj_deleteData(e->d);
    if (e->m) mj_deleteModel(e->m);
    free(e);
}

/* scene -> MJCF -> mjModel + mjData, and the body and state maps */
static tc_status mujoco_alloc(void **state, const tc_scene *sc, const tc_params *p, double dt,
                              tc_error *err) {
    *state = NULL;
    /* library and header must agree */
    if (strcmp(mj_versionString(), MUJOCO_VERSION) != 0)
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "touche was built for MuJoCo %s but libmujoco is %s", MUJOCO_VERSION,
                            mj_versionString());
    /* checks MuJoCo would not make (or would make with a less helpful message) */
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
    /* the scene as MJCF text in memory */
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    if (!f) return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "cannot open a memory stream");
    int bad = write_mjcf(f, sc, p, dt);
    if (fclose(f) != 0 || bad) {
        free(xml);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "cannot write the MJCF text");
    }
    /* compile it */
    engine *e = calloc(1, sizeof *e);
    if (!e) {
        free(xml);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory");
    }
    char errbuf[1024] = "";
    e->m = load_mjcf(xml, len, errbuf, (int)sizeof errbuf);
    free(xml);
    if (!e->m) {
        char msg[sizeof errbuf];
        flatten(msg, sizeof msg, errbuf[0] ? errbuf : "mj_loadXML failed without a message");
        mujoco_free(e);
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "MuJoCo: %s", msg);
    }
    if (errbuf[0]) warn_push(&e->warn, "MuJoCo load warning: ", errbuf);
    e->d = make_data(e->m);
    if (!e->d) {
        mujoco_free(e);
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL, "MuJoCo: %s", error_text);
    }
    /* map touche bodies to MuJoCo geoms, bodies and free-joint addresses */
    if (e->m->ngeom != sc->nbody) {
        int ng = e->m->ngeom;
        mujoco_free(e);
        return tc_error_set(err, TC_EENGINE, NULL, 0, NULL,
                            "MuJoCo compiled %d geoms for %d scene bodies", ng, sc->nbody);
    }
    e->nbody = sc->nbody;
    int nq = 0, nv = 0;
    for (int i = 0; i < sc->nbody; i++) {
        char name[16];
        snprintf(name, sizeof name, "g%d", i);
        e->owner[mj_name2id(e->m, mjOBJ_GEOM, name)] = i;
        tc_v3_copy(e->org[i], sc->body[i].pos);
        e->mbody[i] = e->qadr[i] = e->vadr[i] = e->mqadr[i] = e->mvadr[i] = -1;
        if (sc->body[i].joint != TC_JOINT_FREE) continue;
        snprintf(name, sizeof name, "b%d", i);
        int id = mj_name2id(e->m, mjOBJ_BODY, name), j = e->m->body_jntadr[id];
        e->mbody[i] = id;
        e->qadr[i] = nq, e->vadr[i] = nv;
        e->mqadr[i] = e->m->jnt_qposadr[j], e->mvadr[i] = e->m->jnt_dofadr[j];
        nq += 7, nv += 6;
    }
    *state = e;
    return TC_OK;
}

/* touche (q, v) into qpos/qvel; MuJoCo's free-joint angular velocity is in the body frame */
static void state_in(engine *e, const double *q, const double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const double *qi = q + e->qadr[i];
        double *qpos = e->d->qpos + e->mqadr[i], *qvel = e->d->qvel + e->mvadr[i];
        memcpy(qpos, qi, 7 * sizeof *qpos);
        if (!v) {
            memset(qvel, 0, 6 * sizeof *qvel);
            continue;
        }
        const double *vi = v + e->vadr[i];
        double quat[4] = {qi[3], qi[4], qi[5], qi[6]}, R[9];
        tc_quat_normalize(quat);
        tc_quat_to_mat(R, quat);
        memcpy(qvel, vi, 3 * sizeof *qvel);
        tc_m3_mulvt(qvel + 3, R, vi + 3);
    }
}

/* qpos/qvel back into touche (q, v), angular velocity rotated to the world frame */
static void state_out(const engine *e, double *q, double *v) {
    for (int i = 0; i < e->nbody; i++) {
        if (e->qadr[i] < 0) continue;
        const double *qpos = e->d->qpos + e->mqadr[i], *qvel = e->d->qvel + e->mvadr[i];
        double *qi = q + e->qadr[i], *vi = v + e->vadr[i], R[9];
        memcpy(qi, qpos, 7 * sizeof *qi);
        tc_quat_to_mat(R, qi + 3);
        memcpy(vi, qvel, 3 * sizeof *vi);
        tc_m3_mulv(vi + 3, R, qvel + 3);
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
        warn_push(&e->warn, "MuJoCo error: ", error_text);
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
        warn_push(&e->warn, "MuJoCo counter: ", line);
    }
    return TC_OK;
}

/* add a force and torque acting at point x to body b's wrench about its origin (the COM) */
static void add_wrench(tc_wrench *w, const double org[3], const double x[3], const double F[3],
                       const double T[3], double sign) {
    double r[3], rxf[3];
    tc_v3_sub(r, x, org);
    tc_v3_cross(rxf, r, F);
    tc_v3_addscl(w->f, F, sign);
    tc_v3_addscl(w->t, rxf, sign);
    tc_v3_addscl(w->t, T, sign);
}

/* torque origin: a free body's frame origin (its COM, xpos = xipos), a fixed body's position */
static const double *origin(const engine *e, int i) {
    return e->mbody[i] >= 0 ? e->d->xpos + 3 * e->mbody[i] : e->org[i];
}

/* contact wrenches at (q, v) from mj_forward's constraint forces */
static tc_status mujoco_force(void *state, const double *q, const double *v, tc_wrench *w) {
    engine *e = state;
    const mjModel *m = e->m;
    const mjData *d = e->d;
    unsigned fired;
    memset(w, 0, (size_t)e->nbody * sizeof *w);
    state_in(e, q, v);
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

/* one mj_step from (q, v), written back into (q, v); ctrl: servo targets (none yet in MJCF) */
static tc_status mujoco_step(void *state, const double *ctrl, double *q, double *v) {
    engine *e = state;
    (void)ctrl;
    unsigned fired;
    state_in(e, q, v);
    tc_status st = guarded(e, mj_step, &fired);
    if (st) return st;
    /* MuJoCo reset mjData to qpos0 after a bad number: keep (q, v) and report divergence */
    if (fired & RESET_WARNINGS) return TC_EDIVERGED;
    state_out(e, q, v);
    return TC_OK;
}

/* move the lines of w into buf at *used; returns the number of lines moved */
static int warn_drain(warnbuf *w, char *buf, int n, int *used) {
    int count = w->count;
    if (w->dropped) {
        char more[64];
        snprintf(more, sizeof more, "%d more MuJoCo warnings dropped\n", w->dropped);
        if (w->len + (int)strlen(more) < (int)sizeof w->text) {
            memcpy(w->text + w->len, more, strlen(more) + 1);
            w->len += (int)strlen(more);
            count++;
        }
    }
    if (buf && n > *used) {
        int k = w->len < n - 1 - *used ? w->len : n - 1 - *used;
        if (k > 0) memcpy(buf + *used, w->text, (size_t)k);
        *used += k > 0 ? k : 0;
        buf[*used] = '\0';
    }
    w->len = w->count = w->dropped = 0;
    w->text[0] = '\0';
    return count;
}

/* this engine's queued lines, then the thread's orphans */
static int mujoco_warnings(void *state, char *buf, int n) {
    engine *e = state;
    int used = 0;
    if (buf && n > 0) buf[0] = '\0';
    int count = warn_drain(&e->warn, buf, n, &used);
    return count + warn_drain(&orphan, buf, n, &used);
}

/* the engine type */
const tc_engine_type tc_engine_mujoco = {
    .name = "mujoco",
    .summary = "MuJoCo 2.2.2: soft convex contact constraints (solref/solimp), via in-memory MJCF",
    .version = MUJOCO_VERSION,
    .params = mujoco_params,
    .caps = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS | TC_CAP_FRICTION,
    .shapes =
        TC_SHAPE_BIT(TC_SHAPE_SPHERE) | TC_SHAPE_BIT(TC_SHAPE_BOX) | TC_SHAPE_BIT(TC_SHAPE_PLANE),
    .alloc = mujoco_alloc,
    .force = mujoco_force,
    .step = mujoco_step,
    .warnings = mujoco_warnings,
    .free = mujoco_free,
};
