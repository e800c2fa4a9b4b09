/* SPDX-License-Identifier: MIT */
/* unit tests of the MuJoCo 2.2.2 engine adapter: directions, magnitudes, dynamics, errors, logs */
#include "engines/tc_engine.h"
#include "math/tc_vec.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <mujoco/mujoco.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern const tc_engine_type tc_engine_mujoco;

#define NQ (7 * TC_SCENE_MAXBODY)
#define NV (6 * TC_SCENE_MAXBODY)

/* one engine instance on a scene, with its state vectors */
typedef struct run {
    tc_scene scene;
    tc_system sys;
    tc_params p;
    void *st;
    double q[NQ], v[NV];
} run;

/* add a sphere of radius r at pos; free bodies get density 1000 */
static int add_sphere(tc_scene *s, const char *name, double r, tc_joint_type j, double x, double y,
                      double z) {
    tc_body_desc b = tc_default_body(name, tc_sphere(r));
    b.joint = j;
    tc_v3_set(b.pos, x, y, z);
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(s, &b, j == TC_JOINT_FREE ? 1000 : 0, &err), TC_OK, "%s", err.msg);
    return s->nbody - 1;
}

/* a fixed ground plane through the origin */
static int add_plane(tc_scene *s) {
    tc_body_desc b = tc_default_body("ground", tc_plane());
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(s, &b, 0, &err), TC_OK, "%s", err.msg);
    return s->nbody - 1;
}

/* build the engine on r->scene with r->p and step dt; initial state into q, v */
static void start(run *r, double dt) {
    tc_error err = {0};
    tc_system_init(&r->sys, &r->scene);
    tc_system_initial_state(&r->sys, r->q, r->v);
    tc_status s = tc_engine_mujoco.alloc(&r->st, &r->scene, &r->p, dt, &err);
    cr_assert_eq(s, TC_OK, "alloc: %s", err.msg);
}

/* a run with default parameters and an empty scene */
static void init_run(run *r) {
    memset(r, 0, sizeof *r);
    r->scene = tc_default_scene();
    tc_params_default(&r->p, tc_engine_mujoco.params);
}

/* set a parameter that must be accepted */
static void set_param(run *r, const char *name, double value) {
    tc_error err = {0};
    cr_assert_eq(tc_params_set(&r->p, name, value, &err), TC_OK, "%s", err.msg);
}

/* the run under test: a large struct, kept off the stack */
static run R;

Test(engine_mujoco, registry_and_params) {
    cr_assert_eq(tc_engine_find("mujoco"), &tc_engine_mujoco);
    cr_assert_null(tc_engine_find("no-such-engine"));
    cr_assert_str_eq(tc_engine_mujoco.version, "2.2.2");
    /* every parameter documented, default inside its range */
    for (const tc_param_spec *s = tc_engine_mujoco.params; s->name; s++) {
        cr_assert(s->unit && s->unit[0] && s->doc && s->doc[0], "%s", s->name);
        cr_assert_str_eq(s->reason, "MuJoCo's default", "%s", s->name);
        cr_assert(s->def >= s->lo && s->def <= s->hi, "%s", s->name);
    }
}

/* a: the force pushes the small sphere away from the big one, equal and opposite */
Test(engine_mujoco, direction_and_newton3) {
    init_run(&R);
    int big = add_sphere(&R.scene, "big", 0.1, TC_JOINT_FIXED, 0, 0, 0);
    int small = add_sphere(&R.scene, "small", 0.05, TC_JOINT_FREE, 0, 0.14, 0);
    start(&R, 0.002);
    tc_wrench w[2];
    cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
    double fs = w[small].f[1];
    cr_assert_gt(fs, 0, "repulsive along +y (got %g)", fs);
    cr_assert_lt(fabs(w[small].f[0]) + fabs(w[small].f[2]), 1e-9 * fs);
    for (int k = 0; k < 3; k++) {
        cr_assert_leq(fabs(w[small].f[k] + w[big].f[k]), 1e-9 * fs, "sum of forces, axis %d", k);
        /* the contact lies on the line of centres: no torque about either centre */
        cr_assert_leq(fabs(w[small].t[k]), 1e-9 * fs);
        cr_assert_leq(fabs(w[big].t[k]), 1e-9 * fs);
    }
    tc_engine_mujoco.free(R.st);
}

/* b: MuJoCo's documented soft-contact force.
 *
 * MuJoCo solves for the constraint force f (one row for condim 1):
 *   a = a0 + A f,  f = (A + R)^-1 (aref - a0)
 * with A = J M^-1 J^T, regulariser R = (1 - imp) / imp * diagApprox, and the reference
 * acceleration aref = -b v - k imp r (r = -x is the signed distance, x the depth).
 * Here: zero gravity and velocity give a0 = 0 and v = 0; the normal passes through the COM of a
 * single free body of mass m facing a fixed body, so A = 1/m, and diagApprox is the body's
 * translational invweight0 = 1/m = A exactly. Hence A + R = A / imp and
 *   f = imp * aref / A = m imp^2 k x.
 * solref (timeconst tc, dampratio dr) gives k = 1 / (dmax^2 tc^2 dr^2), and beyond the solimp
 * width (1 mm) imp = dmax, so
 *   f = m x / (tc^2 dr^2) = m x / 0.02^2:
 * statically MuJoCo acts like a spring of stiffness m / 0.02^2. Inside the width the factor
 * (imp / dmax)^2 remains; at x = width / 2 (the sigmoid's midpoint) imp = (dmin + dmax) / 2 =
 * 0.925. The Newton solver converges on this one-row quadratic in one iteration, so the match
 * is to rounding (measured: a few 1e-15 relative). The plane case also guards against the
 * duplicate contact MuJoCo 2.2.2 makes for a plane inside a welded body, which would change f. */
Test(engine_mujoco, magnitude_matches_solref) {
    static const struct {
        int plane;
        double depth, imp;
    } cases[] = {{0, 0.005, 0.95}, {0, 0.010, 0.95}, {1, 0.010, 0.95}, {1, 0.0005, 0.925}};
    for (int c = 0; c < 4; c++) {
        double x = cases[c].depth;
        init_run(&R);
        set_param(&R, "condim", 1);
        int s;
        if (cases[c].plane) {
            add_plane(&R.scene);
            s = add_sphere(&R.scene, "small", 0.05, TC_JOINT_FREE, 0, 0, 0.05 - x);
        } else {
            add_sphere(&R.scene, "big", 0.1, TC_JOINT_FIXED, 0, 0, 0);
            s = add_sphere(&R.scene, "small", 0.05, TC_JOINT_FREE, 0, 0.15 - x, 0);
        }
        int axis = cases[c].plane ? 2 : 1;
        start(&R, 0.002);
        tc_wrench w[2];
        cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
        double m = R.scene.body[s].mass, ratio = cases[c].imp / 0.95;
        double expect = m * x / (0.02 * 0.02) * ratio * ratio, f = w[s].f[axis];
        cr_log_info("%s depth %g m: F = %.15g N, m x (imp/dmax)^2 / 0.02^2 = %.15g N, rel %.3g",
                    cases[c].plane ? "plane" : "sphere", x, f, expect, (f - expect) / expect);
        cr_assert_leq(fabs(f - expect), 1e-6 * expect, "F = %.15g, expected %.15g", f, expect);
        tc_engine_mujoco.free(R.st);
    }
}

/* c: a sphere dropped on the ground settles at z = r with sub-millimetre penetration */
Test(engine_mujoco, drop_comes_to_rest) {
    unlink("MUJOCO_LOG.TXT");
    init_run(&R);
    tc_v3_set(R.scene.gravity, 0, 0, -9.81);
    add_plane(&R.scene);
    int s = add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, 0, 0, 0.2);
    start(&R, 0.002);
    int qa = R.sys.qadr[s], va = R.sys.vadr[s];
    for (int i = 0; i < 500; i++)
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, R.q, R.v), TC_OK, "step %d", i);
    double z = R.q[qa + 2], pen = 0.05 - z;
    cr_log_info("rest: z = %.9g m, penetration %.3g m, |v| = %.3g m/s", z, pen,
                tc_v3_norm(R.v + va));
    cr_assert(pen > 0 && pen < 1e-3, "penetration %g m", pen);
    cr_assert_lt(tc_v3_norm(R.v + va), 1e-3);
    cr_assert_lt(fabs(R.q[qa]) + fabs(R.q[qa + 1]), 1e-9, "no drift sideways");
    char buf[256];
    cr_assert_eq(tc_engine_mujoco.warnings(R.st, buf, sizeof buf), 0, "%s", buf);
    tc_engine_mujoco.free(R.st);
    cr_assert_neq(access("MUJOCO_LOG.TXT", F_OK), 0, "MuJoCo wrote MUJOCO_LOG.TXT");
}

/* free-joint angular velocity: touche's world omega survives the body-frame round trip */
Test(engine_mujoco, world_frame_spin) {
    init_run(&R);
    int s = add_sphere(&R.scene, "spin", 0.05, TC_JOINT_FREE, 0, 0, 0);
    /* tilted 90 degrees about x, spinning about world z */
    double h = sqrt(0.5), q0[4] = {h, h, 0, 0};
    memcpy(R.scene.body[s].quat, q0, sizeof q0);
    tc_v3_set(R.scene.body[s].omega, 0, 0, 2);
    start(&R, 0.001);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, R.q, R.v), TC_OK);
    /* expected: rotation by 0.2 rad about world z applied to q0 */
    double qz[4] = {cos(0.1), 0, 0, sin(0.1)}, qe[4];
    tc_quat_mul(qe, qz, q0);
    const double *qa = R.q + R.sys.qadr[s] + 3, *om = R.v + R.sys.vadr[s] + 3;
    double dot = fabs(qa[0] * qe[0] + qa[1] * qe[1] + qa[2] * qe[2] + qa[3] * qe[3]);
    cr_assert_gt(dot, 1 - 1e-12, "orientation off by %g", 1 - dot);
    cr_assert_lt(fabs(om[0]) + fabs(om[1]) + fabs(om[2] - 2), 1e-12);
    tc_engine_mujoco.free(R.st);
}

/* torques: a tilted box corner in the ground; moments about the origin balance */
Test(engine_mujoco, box_torque_balance) {
    init_run(&R);
    int g = add_plane(&R.scene);
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.05, 0.02));
    b.joint = TC_JOINT_FREE;
    double a = 0.3;
    tc_v3_set(b.pos, 0.2, -0.1, 0.03);
    b.quat[0] = cos(a / 2), b.quat[1] = sin(a / 2);
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&R.scene, &b, 500, &err), TC_OK, "%s", err.msg);
    int x = R.scene.nbody - 1;
    start(&R, 0.002);
    tc_wrench w[2];
    cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
    cr_assert_gt(w[x].f[2], 0, "the ground pushes up");
    cr_assert_gt(tc_v3_norm(w[x].t), 1e-3 * w[x].f[2] * 0.05, "off-centre contact twists");
    /* t_box + p_box x f_box + t_ground + 0 x f_ground = 0 */
    double pf[3];
    tc_v3_cross(pf, R.scene.body[x].pos, w[x].f);
    for (int k = 0; k < 3; k++) {
        cr_assert_leq(fabs(w[x].f[k] + w[g].f[k]), 1e-9 * w[x].f[2]);
        cr_assert_leq(fabs(w[x].t[k] + pf[k] + w[g].t[k]), 1e-9 * w[x].f[2]);
    }
    tc_engine_mujoco.free(R.st);
}

/* d: MuJoCo's compiler rejects a massless free body: TC_EENGINE with its message */
Test(engine_mujoco, compiler_error) {
    init_run(&R);
    tc_body_desc b = tc_default_body("ghost", tc_sphere(0.05));
    b.joint = TC_JOINT_FREE; /* mass and inertia stay 0: tc_scene_add would refuse this */
    R.scene.body[R.scene.nbody++] = b;
    tc_error err = {0};
    void *st = NULL;
    tc_status s = tc_engine_mujoco.alloc(&st, &R.scene, &R.p, 0.002, &err);
    cr_assert_eq(s, TC_EENGINE, "status %d", s);
    cr_assert_null(st);
    cr_assert_neq(err.msg[0], '\0');
    cr_assert_not_null(strstr(err.msg, "mass"), "%s", err.msg);
    cr_assert_null(strchr(err.msg, '\n'), "one-line message");
}

/* parameters MuJoCo would misread are refused before it sees them */
Test(engine_mujoco, bad_condim) {
    init_run(&R);
    add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, 0, 0, 0);
    set_param(&R, "condim", 2);
    tc_error err = {0};
    void *st = NULL;
    cr_assert_eq(tc_engine_mujoco.alloc(&st, &R.scene, &R.p, 0.002, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "condim");
}

/* e: a huge velocity makes MuJoCo reset: the step diverges, a warning is queued, stdout silent */
static void redirect(void) {
    cr_redirect_stdout();
}

Test(engine_mujoco, warnings_are_queued_not_printed, .init = redirect) {
    unlink("MUJOCO_LOG.TXT");
    init_run(&R);
    int s = add_sphere(&R.scene, "bullet", 0.05, TC_JOINT_FREE, 0, 0, 0);
    R.scene.body[s].vel[0] = 1e12; /* beyond MuJoCo's mjMAXVAL = 1e10 */
    start(&R, 0.002);
    double q0 = R.q[R.sys.qadr[s]];
    cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, R.q, R.v), TC_EDIVERGED);
    cr_assert_eq(R.q[R.sys.qadr[s]], q0, "state left as it was");
    char buf[1024];
    int n = tc_engine_mujoco.warnings(R.st, buf, sizeof buf);
    cr_log_info("%d warnings:\n%s", n, buf);
    cr_assert_geq(n, 1);
    cr_assert_not_null(strstr(buf, "mjWARN_BADQVEL"), "%s", buf);
    /* drained: nothing left, and the named counter is reported once */
    cr_assert_eq(tc_engine_mujoco.warnings(R.st, buf, sizeof buf), 0);
    cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, R.q, R.v), TC_EDIVERGED);
    tc_engine_mujoco.warnings(R.st, buf, sizeof buf);
    cr_assert_null(strstr(buf, "mjWARN_BADQVEL"), "%s", buf);
    tc_engine_mujoco.free(R.st);
    fflush(stdout);
    cr_assert_stdout_eq_str("");
    cr_assert_neq(access("MUJOCO_LOG.TXT", F_OK), 0, "MuJoCo wrote MUJOCO_LOG.TXT");
}

/* with no call to jump back to, a MuJoCo error aborts with a message (and writes no log) */
Test(engine_mujoco, untrapped_error_aborts, .signal = SIGABRT) {
    init_run(&R);
    add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, 0, 0, 0);
    start(&R, 0.002); /* installs the handlers */
    mju_error("deliberate test error");
}

/* runs built and stepped from OpenMP threads agree with each other bit for bit */
Test(engine_mujoco, parallel_runs_agree) {
    enum { NRUN = 8 };
    static run runs[NRUN];
    int fails = 0;
#pragma omp parallel for reduction(+ : fails)
    for (int k = 0; k < NRUN; k++) {
        run *r = &runs[k];
        tc_error err = {0};
        memset(r, 0, sizeof *r);
        r->scene = tc_default_scene();
        tc_v3_set(r->scene.gravity, 0, 0, -9.81);
        tc_params_default(&r->p, tc_engine_mujoco.params);
        tc_body_desc g = tc_default_body("ground", tc_plane());
        tc_body_desc b = tc_default_body("box", tc_box(0.05, 0.03, 0.02));
        b.joint = TC_JOINT_FREE;
        tc_v3_set(b.pos, 0, 0, 0.1);
        b.quat[0] = cos(0.2), b.quat[2] = sin(0.2);
        tc_v3_set(b.omega, 1, 2, 3);
        fails += tc_scene_add(&r->scene, &g, 0, &err) != TC_OK;
        fails += tc_scene_add(&r->scene, &b, 800, &err) != TC_OK;
        tc_system_init(&r->sys, &r->scene);
        tc_system_initial_state(&r->sys, r->q, r->v);
        if (tc_engine_mujoco.alloc(&r->st, &r->scene, &r->p, 0.002, &err) != TC_OK) {
            fails++;
            continue;
        }
        for (int i = 0; i < 300; i++)
            fails += tc_engine_mujoco.step(r->st, NULL, r->q, r->v) != TC_OK;
        tc_engine_mujoco.free(r->st);
    }
    cr_assert_eq(fails, 0);
    for (int k = 1; k < NRUN; k++) {
        cr_assert_eq(memcmp(runs[k].q, runs[0].q, 7 * sizeof(double)), 0, "run %d q", k);
        cr_assert_eq(memcmp(runs[k].v, runs[0].v, 6 * sizeof(double)), 0, "run %d v", k);
    }
    cr_assert_lt(runs[0].q[2], 0.03, "the box has landed (z = %g)", runs[0].q[2]);
}
