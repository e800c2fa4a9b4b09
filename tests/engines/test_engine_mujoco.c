/* SPDX-License-Identifier: MIT */
/* unit tests of the MuJoCo 2.2.2 engine adapter: directions, magnitudes, dynamics, kinematic
 * bodies, errors, logs */
#include "engines/tc_engine.h"
#include "math/tc_vec.h"
#include "sim/tc_sim.h"

#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <mujoco/mujoco.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern const tc_engine_type tc_engine_mujoco;

#include "test_engine_run.h"

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

/* a run with default parameters and an empty scene */
static void init_run(run *r) {
    run_reset(r, &tc_engine_mujoco);
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

/* a free 5 cm sphere pressed 1 cm into a fixed ellipsoid (semi-axes 10, 4, 6 cm) along its x
 * axis: MuJoCo's ellipsoid geom takes the semi-axes as size, so the push is +x, and nothing else */
Test(engine_mujoco, ellipsoid_direction) {
    init_run(&R);
    tc_body_desc e = tc_default_body("ell", tc_ellipsoid(0.1, 0.04, 0.06));
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&R.scene, &e, 0, &err), TC_OK, "%s", err.msg);
    int ell = R.scene.nbody - 1;
    int small = add_sphere(&R.scene, "small", 0.05, TC_JOINT_FREE, 0.14, 0, 0);
    start(&R, 0.002);
    tc_wrench w[2];
    cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
    double fs = w[small].f[0];
    cr_assert_gt(fs, 0, "repulsive along +x (got %g)", fs);
    cr_expect_lt(fabs(w[small].f[1]) + fabs(w[small].f[2]), 1e-6 * fs);
    for (int k = 0; k < 3; k++)
        cr_expect_leq(fabs(w[small].f[k] + w[ell].f[k]), 1e-9 * fs, "sum of forces, axis %d", k);
    /* out of reach along x (0.16 > 0.1 + 0.05): no force; the semi-axis, not the diameter */
    tc_engine_mujoco.free(R.st);
    init_run(&R);
    cr_assert_eq(tc_scene_add(&R.scene, &e, 0, &err), TC_OK, "%s", err.msg);
    small = add_sphere(&R.scene, "small", 0.05, TC_JOINT_FREE, 0.16, 0, 0);
    start(&R, 0.002);
    cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
    cr_expect_eq(w[small].f[0], 0.0, "got %g", w[small].f[0]);
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
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK, "step %d", i);
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
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK);
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
    b.quat[0] = cos(a / 2);
    b.quat[1] = sin(a / 2);
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
    cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_EDIVERGED);
    cr_assert_eq(R.q[R.sys.qadr[s]], q0, "state left as it was");
    char buf[1024];
    int n = tc_engine_mujoco.warnings(R.st, buf, sizeof buf);
    cr_log_info("%d warnings:\n%s", n, buf);
    cr_assert_geq(n, 1);
    cr_assert_not_null(strstr(buf, "mjWARN_BADQVEL"), "%s", buf);
    /* drained: nothing left, and the named counter is reported once */
    cr_assert_eq(tc_engine_mujoco.warnings(R.st, buf, sizeof buf), 0);
    cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_EDIVERGED);
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
        tc_scene_init(&r->scene);
        tc_v3_set(r->scene.gravity, 0, 0, -9.81);
        tc_params_default(&r->p, tc_engine_mujoco.params);
        tc_body_desc g = tc_default_body("ground", tc_plane());
        tc_body_desc b = tc_default_body("box", tc_box(0.05, 0.03, 0.02));
        b.joint = TC_JOINT_FREE;
        tc_v3_set(b.pos, 0, 0, 0.1);
        b.quat[0] = cos(0.2);
        b.quat[2] = sin(0.2);
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
            fails += tc_engine_mujoco.step(r->st, NULL, NULL, r->q, r->v) != TC_OK;
        tc_engine_mujoco.free(r->st);
    }
    cr_assert_eq(fails, 0);
    for (int k = 1; k < NRUN; k++) {
        cr_assert_eq(memcmp(runs[k].q, runs[0].q, 7 * sizeof(double)), 0, "run %d q", k);
        cr_assert_eq(memcmp(runs[k].v, runs[0].v, 6 * sizeof(double)), 0, "run %d v", k);
    }
    cr_assert_lt(runs[0].q[2], 0.03, "the box has landed (z = %g)", runs[0].q[2]);
}

/* the T of the pushing experiments: crossbar and stem, parts given before COM centring */
static tc_shape t_shape(void) {
    tc_shape s;
    memset(&s, 0, sizeof s);
    s.type = TC_SHAPE_COMPOUND;
    s.npart = 2;
    s.part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.125, 0.025, 0.025}, {0, 0.075, 0}};
    s.part[1] = (tc_shape_part){TC_SHAPE_BOX, {0.025, 0.075, 0.025}, {0, -0.025, 0}};
    return s;
}

/* add the T (density 500) with its stem-bar frame origin at z = 0.025 */
static int add_t(tc_scene *s, tc_joint_type j) {
    tc_body_desc b = tc_default_body("T", t_shape());
    b.joint = j;
    b.pos[2] = 0.025;
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(s, &b, 500, &err), TC_OK, "%s", err.msg);
    return s->nbody - 1;
}

/* touche's reference method: Hunt–Crossley with RK4 when registered, else semi-implicit Euler;
 * *rk4 says which */
static const char *touche_method(int *rk4) {
    *rk4 = tc_solver_find("rk4") != NULL;
    return *rk4 ? "hunt-crossley/rk4" : "hunt-crossley/semi-euler";
}

/* a touche simulation of scene with the method spec at step dt */
static tc_sim *touche_sim(const tc_scene *scene, const char *spec, double dt) {
    tc_method m;
    tc_error err = {0};
    tc_sim *sim = NULL;
    cr_assert_eq(tc_method_parse(&m, spec, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_sim_alloc(&sim, scene, &m, dt, &err), TC_OK, "%s", err.msg);
    return sim;
}

/* x0 + v0 tau (1 - exp(-t / tau)): a coordinate under viscous damping alone */
static double damped(double x0, double v0, double tau, double t) {
    return x0 + v0 * tau * (1 - exp(-t / tau));
}

/* 7a: a planar T coasting under damping matches the closed form (MuJoCo RK4) and touche.
 * Measured over 2 s at dt 2 ms, largest over all steps: MuJoCo RK4 - closed form 9.5e-13 m (x),
 * 3.2e-13 m (y), 4.9e-12 rad (theta); touche hunt-crossley/rk4 - MuJoCo 2.8e-17 m, 3.8e-17 m,
 * 1.1e-16 rad (tolerance 1e-9); hunt-crossley/semi-euler - MuJoCo 6.0e-4 m, 2.0e-4 m, 4.0e-3 rad,
 * its first-order error v0 dt (tolerance 1e-2). */
Test(engine_mujoco, planar_t_damping_closed_form) {
    const double dt = 0.002;
    init_run(&R);
    set_param(&R, "integrator", 1);
    int t = add_t(&R.scene, TC_JOINT_PLANAR);
    tc_body_desc *b = &R.scene.body[t];
    b->damping[0] = b->damping[1] = 2;
    b->damping[2] = 0.012;
    tc_v3_set(b->vel, 0.3, -0.1, 0);
    tc_v3_set(b->omega, 0, 0, 2);
    start(&R, dt);
    int rk4;
    tc_sim *sim = touche_sim(&R.scene, touche_method(&rk4), dt);
    const double tau[3] = {b->mass / 2, b->mass / 2, R.sys.izz[t] / 0.012};
    const double x0[3] = {b->pos[0], b->pos[1], 0}, v0[3] = {0.3, -0.1, 2};
    double emj[3] = {0, 0, 0}, etc[3] = {0, 0, 0};
    const double *qt = tc_sim_q(sim) + tc_sim_system(sim)->qadr[t], *qm = R.q + R.sys.qadr[t];
    for (int n = 1; n <= 1000; n++) {
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK, "step %d", n);
        cr_assert_eq(tc_sim_step(sim), TC_OK, "touche step %d", n);
        for (int k = 0; k < 3; k++) {
            emj[k] = fmax(emj[k], fabs(qm[k] - damped(x0[k], v0[k], tau[k], n * dt)));
            etc[k] = fmax(etc[k], fabs(qt[k] - qm[k]));
        }
    }
    cr_log_info("T: m %.6g kg, Izz %.6g kg m^2; MuJoCo RK4 vs closed form: x %.3g m, y %.3g m, "
                "theta %.3g rad; touche (%s) vs MuJoCo: %.3g m, %.3g m, %.3g rad",
                b->mass, R.sys.izz[t], emj[0], emj[1], emj[2], touche_method(&rk4), etc[0], etc[1],
                etc[2]);
    /* the T has moved: v0 tau = 75 mm along x, omega0 tau_theta = 0.54 rad */
    cr_assert_gt(qm[0] - x0[0], 0.07);
    cr_assert_gt(qm[2], 0.5);
    double tol = rk4 ? 1e-9 : 1e-2;
    for (int k = 0; k < 3; k++) {
        cr_assert_leq(emj[k], 1e-6, "MuJoCo vs closed form, dof %d: %g", k, emj[k]);
        cr_assert_leq(etc[k], tol, "touche vs MuJoCo, dof %d: %g", k, etc[k]);
    }
    tc_sim_free(sim);
    tc_engine_mujoco.free(R.st);
}

/* MuJoCo's Euler treats joint damping implicitly: v_n = v0 / (1 + dt b / m)^n exactly, where an
 * explicit method has v0 (1 - dt b / m)^n (measured largest relative deviation over 1000 steps
 * from the implicit law 4.2e-15, from the explicit one 6.6e-2) */
Test(engine_mujoco, euler_damping_is_implicit) {
    const double dt = 0.002;
    init_run(&R);
    int t = add_t(&R.scene, TC_JOINT_PLANAR);
    tc_body_desc *b = &R.scene.body[t];
    b->damping[0] = 2;
    b->vel[0] = 0.3;
    start(&R, dt);
    double a = dt * 2 / b->mass, v = 0, imp = 0, exp_ = 0;
    for (int n = 1; n <= 1000; n++) {
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK);
        v = R.v[R.sys.vadr[t]];
        imp = fmax(imp, fabs(v / (0.3 * pow(1 + a, -n)) - 1));
        exp_ = fmax(exp_, fabs(v / (0.3 * pow(1 - a, n)) - 1));
    }
    cr_log_info("Euler damping: rel. deviation from implicit %.3g, from explicit %.3g", imp, exp_);
    cr_assert_lt(imp, 1e-12);
    cr_assert_gt(exp_, 1e-3);
    tc_engine_mujoco.free(R.st);
}

/* 7b: a critically damped planar servo reaches a moved target in MuJoCo and in touche.
 * Measured (dt 2 ms): distance to the target at 1 s 6.95e-5 m (MuJoCo RK4 and touche
 * hunt-crossley/rk4; semi-euler 8.3e-5 m); largest MuJoCo - touche difference at the 0.1 s
 * samples 1.5e-16 m with rk4 (tolerance 1e-9), 4.8e-4 m with semi-euler (tolerance 2e-3). */
Test(engine_mujoco, planar_servo_reaches_target) {
    const double dt = 0.002, kp = 50, target[2] = {0.1, -0.05};
    init_run(&R);
    set_param(&R, "integrator", 1);
    int s = add_sphere(&R.scene, "puck", 0.05, TC_JOINT_FREE, 0.02, 0.03, 0.05);
    tc_body_desc *b = &R.scene.body[s];
    b->joint = TC_JOINT_PLANAR;
    for (int k = 0; k < 2; k++) {
        b->kp[k] = kp;
        b->damping[k] = 2 * sqrt(kp * b->mass);
    }
    start(&R, dt);
    int rk4;
    tc_sim *sim = touche_sim(&R.scene, touche_method(&rk4), dt);
    const tc_system *ts = tc_sim_system(sim);
    /* both runs get the same targets in touche's layout: (x, y, theta) absolute */
    double ctrl[NV];
    memcpy(ctrl, R.q, (size_t)R.sys.nv * sizeof *ctrl);
    ctrl[R.sys.vadr[s]] = target[0];
    ctrl[R.sys.vadr[s] + 1] = target[1];
    double *sc = tc_sim_ctrl(sim);
    sc[ts->vadr[s]] = target[0];
    sc[ts->vadr[s] + 1] = target[1];
    const double *qm = R.q + R.sys.qadr[s], *qt = tc_sim_q(sim) + ts->qadr[s];
    double diff = 0;
    for (int n = 1; n <= 500; n++) {
        cr_assert_eq(tc_engine_mujoco.step(R.st, ctrl, NULL, R.q, R.v), TC_OK, "step %d", n);
        cr_assert_eq(tc_sim_step(sim), TC_OK, "touche step %d", n);
        if (n % 50) continue;
        double d = fmax(fabs(qm[0] - qt[0]), fabs(qm[1] - qt[1]));
        cr_log_info("t = %.1f s: MuJoCo (%.9f, %.9f), touche (%.9f, %.9f), diff %.3g m", n * dt,
                    qm[0], qm[1], qt[0], qt[1], d);
        diff = fmax(diff, d);
    }
    double em = hypot(qm[0] - target[0], qm[1] - target[1]);
    double et = hypot(qt[0] - target[0], qt[1] - target[1]);
    cr_log_info("at 1 s: MuJoCo %.3g m, touche (%s) %.3g m from the target; max diff %.3g m", em,
                touche_method(&rk4), et, diff);
    cr_assert_lt(em, 1e-3, "MuJoCo %g m from the target", em);
    cr_assert_lt(et, 1e-3, "touche %g m from the target", et);
    cr_assert_leq(diff, rk4 ? 1e-9 : 2e-3, "trajectories differ by %g m", diff);
    cr_assert_lt(fabs(qm[2]), 1e-15, "no servo, no torque: theta stays 0");
    tc_sim_free(sim);
    tc_engine_mujoco.free(R.st);
}

/* without ctrl the servos hold the initial configuration, as touche's initial targets do */
Test(engine_mujoco, planar_servo_null_ctrl_holds) {
    init_run(&R);
    set_param(&R, "integrator", 1);
    int s = add_sphere(&R.scene, "puck", 0.05, TC_JOINT_FREE, 0.3, -0.2, 0);
    tc_body_desc *b = &R.scene.body[s];
    b->joint = TC_JOINT_PLANAR;
    for (int k = 0; k < 3; k++) {
        b->kp[k] = 20;
        b->damping[k] = 2 * sqrt(20 * b->mass);
    }
    b->damping[2] = 2 * sqrt(20 * b->inertia[2]);
    tc_v3_set(b->vel, 0.2, 0.1, 0);
    b->omega[2] = 3;
    start(&R, 0.002);
    for (int n = 0; n < 1500; n++)
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK);
    const double *q = R.q + R.sys.qadr[s];
    cr_log_info("held: (%.3g, %.3g, %.3g) from the initial pose", q[0] - 0.3, q[1] + 0.2, q[2]);
    cr_assert_lt(fabs(q[0] - 0.3) + fabs(q[1] + 0.2) + fabs(q[2]), 1e-3);
    tc_engine_mujoco.free(R.st);
}

/* 7c: a sphere pressed 5 mm into the side face of the T's stem is pushed out along the face
 * normal; the T (planar, or fixed as world geoms) gets the opposite force; moments balance.
 * Frictionless (condim 1): with friction MuJoCo also resists the tangential slip the off-centre
 * push would start on the planar T (measured with condim 3: 0.129 N along -y for 2.57 N). */
Test(engine_mujoco, compound_contact_direction) {
    for (int fixed = 0; fixed < 2; fixed++) {
        init_run(&R);
        set_param(&R, "condim", 1);
        int t = add_t(&R.scene, fixed ? TC_JOINT_FIXED : TC_JOINT_PLANAR);
        const tc_body_desc *T = &R.scene.body[t];
        const tc_shape_part *stem = &T->shape.part[1];
        /* the stem's +x face, at its mid-height, in the world */
        double x = T->pos[0] + stem->pos[0] + stem->size[0], y = T->pos[1] + stem->pos[1];
        int s = add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, x + 0.05 - 0.005, y, T->pos[2]);
        start(&R, 0.002);
        tc_wrench w[2];
        cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
        double f = w[s].f[0];
        cr_log_info("%s T: force on the sphere (%.6g, %.3g, %.3g) N, on the T (%.6g, %.3g, %.3g) N",
                    fixed ? "fixed" : "planar", w[s].f[0], w[s].f[1], w[s].f[2], w[t].f[0],
                    w[t].f[1], w[t].f[2]);
        cr_assert_gt(f, 0, "the sphere is pushed along +x (got %g)", f);
        cr_assert_lt(fabs(w[s].f[1]) + fabs(w[s].f[2]), 1e-9 * f, "along the face normal");
        double ps[3], pt[3];
        tc_v3_cross(ps, R.scene.body[s].pos, w[s].f);
        tc_v3_cross(pt, T->pos, w[t].f);
        for (int k = 0; k < 3; k++) {
            cr_assert_leq(fabs(w[s].f[k] + w[t].f[k]), 1e-9 * f, "opposite forces, axis %d", k);
            cr_assert_leq(fabs(w[s].t[k] + ps[k] + w[t].t[k] + pt[k]), 1e-9 * f,
                          "moments about the origin, axis %d", k);
        }
        /* the contact is off the T's COM in y: it turns the T about z */
        cr_assert_gt(fabs(w[t].t[2]), 1e-3 * f * 0.05);
        /* against a fixed T: one free body's contact, f = m x / 0.02^2 as in
         * magnitude_matches_solref */
        double m = R.scene.body[s].mass;
        if (fixed) cr_assert_leq(fabs(f - m * 0.005 / 0.0004), 1e-6 * f, "F = %.15g N", f);
        tc_engine_mujoco.free(R.st);
    }
}

/* a tilted planar body: slides along world x and y, the hinge about world z through the COM.
 * A box stood on its side is posed at q = (x, y, theta); a fixed sphere pressed into its +x
 * face where touche's kinematics puts it pushes the box along minus that face's normal. */
Test(engine_mujoco, planar_tilted_axes) {
    init_run(&R);
    tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.05, 0.02));
    b.joint = TC_JOINT_PLANAR;
    tc_v3_set(b.pos, 0.1, 0.2, 0.3);
    b.quat[0] = cos(0.6);
    b.quat[1] = sin(0.6); /* 1.2 rad about x */
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(&R.scene, &b, 800, &err), TC_OK, "%s", err.msg);
    /* the sphere's place: from touche's pose at q */
    tc_system sys;
    tc_system_init(&sys, &R.scene);
    const double q[3] = {0.15, 0.25, 0.7};
    tc_body_state bs[2];
    tc_system_kinematics(&sys, 0, q, NULL, bs);
    double n[3] = {bs[0].R[0], bs[0].R[3], bs[0].R[6]}, c[3];
    tc_v3_copy(c, bs[0].pos);
    tc_v3_addscl(c, n, 0.1 + 0.05 - 0.004);
    int s = add_sphere(&R.scene, "pin", 0.05, TC_JOINT_FIXED, c[0], c[1], c[2]);
    start(&R, 0.002);
    memcpy(R.q, q, sizeof q);
    tc_wrench w[2];
    cr_assert_eq(tc_engine_mujoco.force(R.st, R.q, NULL, w), TC_OK);
    double f = -tc_v3_dot(w[0].f, n), fxn[3];
    tc_v3_cross(fxn, w[0].f, n);
    cr_log_info("tilted box: n = (%.6f, %.6f, %.6f), force on the box (%.6g, %.6g, %.6g) N", n[0],
                n[1], n[2], w[0].f[0], w[0].f[1], w[0].f[2]);
    cr_assert_gt(f, 0, "pushed along -n (got %g)", f);
    cr_assert_lt(tc_v3_norm(fxn), 1e-9 * f, "parallel to the face normal");
    cr_assert_leq(fabs(w[0].f[0] + w[s].f[0]), 1e-9 * f);
    tc_engine_mujoco.free(R.st);
}

/* 7d: free-body damping equal on all six dofs decays v and omega exponentially; unequal damping
 * is refused with a message. Measured (RK4, dt 1 ms, 1 s): largest relative error 9.7e-16. */
Test(engine_mujoco, free_damping) {
    init_run(&R);
    set_param(&R, "integrator", 1);
    int s = add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, 0, 0, 0);
    tc_body_desc *b = &R.scene.body[s];
    for (int k = 0; k < 6; k++)
        b->damping[k] = 0.05;
    tc_v3_set(b->vel, 0.2, 0, -0.1);
    tc_v3_set(b->omega, 1, -2, 3);
    b->quat[0] = cos(0.4);
    b->quat[2] = sin(0.4); /* tilted: omega crosses frames */
    start(&R, 0.001);
    for (int n = 0; n < 1000; n++)
        cr_assert_eq(tc_engine_mujoco.step(R.st, NULL, NULL, R.q, R.v), TC_OK);
    double tv = b->mass / 0.05, tw = b->inertia[0] / 0.05, err = 0;
    const double *v = R.v + R.sys.vadr[s], *q = R.q + R.sys.qadr[s];
    for (int k = 0; k < 3; k++) {
        err = fmax(err, fabs(v[k] - b->vel[k] * exp(-1 / tv)) / 0.2);
        err = fmax(err, fabs(v[3 + k] - b->omega[k] * exp(-1 / tw)) / 3);
        err = fmax(err, fabs(q[k] - damped(0, b->vel[k], tv, 1)) / 0.2);
    }
    cr_log_info("free damping: tau_v %.4g s, tau_w %.4g s, largest relative error %.3g", tv, tw,
                err);
    cr_assert_lt(err, 1e-9);
    tc_engine_mujoco.free(R.st);
    /* one unequal value: TC_EUNSUP naming the damping */
    b->damping[4] = 0.06;
    tc_error e = {0};
    void *st = NULL;
    cr_assert_eq(tc_engine_mujoco.alloc(&st, &R.scene, &R.p, 0.001, &e), TC_EUNSUP);
    cr_assert_null(st);
    cr_assert_str_eq(e.param, "damping");
    cr_log_info("unequal damping: %s", e.msg);
    cr_assert_not_null(strstr(e.msg, "free joint"), "%s", e.msg);
}

/* a kinematic sphere (r 5 cm) sweeping along +x at 0.4 m/s, from x = -0.2 at t = 0 to 0.2 at
 * t = 1 s, into a free box (half extent 5 cm, density 500: 0.5 kg) at rest at the origin; no
 * gravity, no friction. Returns the box's index (the pusher is body 0). */
static int add_sweep(tc_scene *sc) {
    sc->friction = 0;
    tc_body_desc k = tc_default_body("pusher", tc_sphere(0.05));
    k.joint = TC_JOINT_KINEMATIC;
    k.path_n = 2;
    k.path_dt = 1;
    tc_v3_set(k.path[0], -0.2, 0, 0);
    tc_v3_set(k.path[1], 0.2, 0, 0);
    tc_body_desc b = tc_default_body("box", tc_box(0.05, 0.05, 0.05));
    b.joint = TC_JOINT_FREE;
    tc_error err = {0};
    cr_assert_eq(tc_scene_add(sc, &k, 0, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_scene_add(sc, &b, 500, &err), TC_OK, "%s", err.msg);
    return sc->nbody - 1;
}

/* the static force on the box (frictionless, v = NULL) placed with its -x face 5 mm into the
 * pusher, the pusher taken where its path is at the simulation time: it is the one-body value
 * m x / 0.02^2 only if MuJoCo's mocap body is exactly there (one step, 0.4 mm, off would change
 * it by 8%) */
static double probe_depth_force(tc_sim *sim, const tc_scene *sc, int box) {
    double p[3], q[7];
    tc_body_path(&sc->body[0], tc_sim_time(sim), p, NULL);
    memcpy(q, tc_sim_q(sim) + tc_sim_system(sim)->qadr[box], sizeof q);
    tc_v3_set(q, p[0] + 0.05 + 0.05 - 0.005, p[1], p[2]);
    tc_quat_identity(q + 3);
    tc_wrench w[2];
    cr_assert_eq(tc_sim_force(sim, q, NULL, w), TC_OK);
    return w[box].f[0];
}

/* a kinematic (mocap) sphere sweeps into a free box: in MuJoCo and in touche the box ends up
 * moving along +x, and the pusher is exactly on its path. touche's state has no pusher in it:
 * its pose is tc_body_path at tc_sim_time. In MuJoCo the adapter sets the mocap body from the
 * path at its own time, kept equal to touche's; the depth probe shows it is there at t = 0 and
 * after 800 steps (0.8 s, x = 0.12 m). Measured: box speed 0.4 m/s in MuJoCo (it is pushed
 * along: the mocap body's velocity does not enter the contact, so no rebound), 0.753 m/s with
 * touche's Hunt–Crossley (it rebounds ahead of the pusher); probe force 6.25 N to 9e-15. */
Test(engine_mujoco, kinematic_sweep_pushes_box) {
    const double dt = 0.001;
    tc_scene sc = tc_default_scene();
    int box = add_sweep(&sc);
    int rk4;
    tc_sim *ts = touche_sim(&sc, touche_method(&rk4), dt);
    tc_method m;
    tc_error err = {0};
    tc_sim *ms = NULL;
    cr_assert_eq(tc_method_parse(&m, "mujoco", &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_method_set(&m, "condim", 1, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(tc_sim_alloc(&ms, &sc, &m, dt, &err), TC_OK, "%s", err.msg);
    /* before the first step: the pusher at the path's start */
    double mass = sc.body[box].mass, f0 = mass * 0.005 / 0.0004;
    double f = probe_depth_force(ms, &sc, box);
    cr_assert_leq(fabs(f - f0), 1e-9 * f0, "t = 0: probe force %.17g N, want %.17g", f, f0);
    for (int n = 0; n < 800; n++) {
        cr_assert_eq(tc_sim_step(ts), TC_OK, "touche step %d", n);
        cr_assert_eq(tc_sim_step(ms), TC_OK, "MuJoCo step %d", n);
    }
    cr_assert_eq(tc_sim_time(ts), tc_sim_time(ms));
    /* the box moves along +x in both */
    const double *vt = tc_sim_v(ts) + tc_sim_system(ts)->vadr[box];
    const double *vm = tc_sim_v(ms) + tc_sim_system(ms)->vadr[box];
    const double *qm = tc_sim_q(ms) + tc_sim_system(ms)->qadr[box];
    cr_log_info("kinematic sweep: box speed touche (%s) %.6g m/s, MuJoCo %.6g m/s (x = %.6g m)",
                touche_method(&rk4), vt[0], vm[0], qm[0]);
    cr_assert_gt(vt[0], 0.3, "touche box speed %g", vt[0]);
    cr_assert_gt(vm[0], 0.3, "MuJoCo box speed %g", vm[0]);
    cr_assert_lt(fabs(vm[1]) + fabs(vm[2]), 1e-9);
    cr_assert_gt(qm[0], 0.1, "MuJoCo box position %g", qm[0]);
    /* the pusher on its path: touche's pose is the path's, bit for bit */
    double p[3];
    tc_body_state bs[2];
    tc_body_path(&sc.body[0], tc_sim_time(ts), p, NULL);
    tc_system_kinematics(tc_sim_system(ts), tc_sim_time(ts), tc_sim_q(ts), tc_sim_v(ts), bs);
    cr_assert_eq(memcmp(bs[0].pos, p, sizeof p), 0);
    cr_assert_float_eq(p[0], 0.12, 1e-12);
    /* and MuJoCo's mocap body is there too */
    f = probe_depth_force(ms, &sc, box);
    cr_log_info("MuJoCo depth probe at t = %.17g s: %.17g N (one-body value %.17g N)",
                tc_sim_time(ms), f, f0);
    cr_assert_leq(fabs(f - f0), 1e-9 * f0, "t = 0.8: probe force %.17g N, want %.17g", f, f0);
    tc_sim_free(ts);
    tc_sim_free(ms);
}

/* MuJoCo 2.2.2 welds mocap bodies to the world for collision filtering (body_weldid 0), so a
 * kinematic body never touches a fixed or another kinematic body there; touche's models do
 * give those pairs a force (it moves nothing: neither body has degrees of freedom) */
Test(engine_mujoco, kinematic_no_contact_with_world_in_mujoco) {
    for (int other = 0; other < 2; other++) {
        tc_scene sc = tc_default_scene();
        tc_body_desc k = tc_default_body("pusher", tc_sphere(0.05));
        k.joint = TC_JOINT_KINEMATIC;
        k.path_n = 1;
        tc_body_desc o = k;
        tc_v3_set(o.path[0], 0.09, 0, 0);
        tc_v3_set(o.pos, 0.09, 0, 0);
        if (!other) o.joint = TC_JOINT_FIXED;
        tc_error err = {0};
        cr_assert_eq(tc_scene_add(&sc, &k, 0, &err), TC_OK, "%s", err.msg);
        cr_assert_eq(tc_scene_add(&sc, &o, 0, &err), TC_OK, "%s", err.msg);
        const char *spec[2] = {"hunt-crossley", "mujoco"};
        double f[2];
        for (int s = 0; s < 2; s++) {
            tc_method m;
            tc_sim *sim = NULL;
            cr_assert_eq(tc_method_parse(&m, spec[s], &err), TC_OK, "%s", err.msg);
            cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, 0.001, &err), TC_OK, "%s", err.msg);
            tc_wrench w[2];
            cr_assert_eq(tc_sim_force(sim, tc_sim_q(sim), NULL, w), TC_OK);
            f[s] = w[1].f[0];
            tc_sim_free(sim);
        }
        cr_log_info("kinematic vs %s, 1 cm overlap: hunt-crossley %g N, MuJoCo %g N",
                    other ? "kinematic" : "fixed", f[0], f[1]);
        cr_assert_gt(f[0], 0);
        cr_assert_eq(f[1], 0);
    }
}

/* the derivatives (jacobian): x = (dq, v), u = (tau, ctrl) in touche's tangent coordinates */
#define JNX (2 * 12) /* up to 12 dofs in these tests */

/* a second run: the same scene stepped without the jacobian call */
static run R2;

/* body and dof offset owning touche dof k */
static int dof_body(const run *r, int k, int *j) {
    for (int i = 0; i < r->scene.nbody; i++) {
        int n = r->scene.body[i].joint == TC_JOINT_FREE ? 6 : 3;
        if (r->sys.vadr[i] >= 0 && k >= r->sys.vadr[i] && k < r->sys.vadr[i] + n) {
            *j = k - r->sys.vadr[i];
            return i;
        }
    }
    cr_assert_fail("dof %d has no body", k);
    return -1;
}

/* q <- q [+] h e_k: free bodies' rotations by exp([h e]x) R, a world rotation vector */
static void retract_dof(const run *r, double *q, int k, double h) {
    int j, i = dof_body(r, k, &j);
    double *qi = q + r->sys.qadr[i], d[3] = {0, 0, 0};
    if (r->scene.body[i].joint != TC_JOINT_FREE || j < 3) {
        qi[j] += h;
        return;
    }
    d[j - 3] = h;
    tc_quat_integrate(qi + 3, d, 1);
}

/* dq = q1 [-] q0 in touche's tangent: world rotation vector of R1 R0^T for free bodies */
static void tangent_diff(const run *r, const double *q1, const double *q0, double *dq) {
    for (int i = 0; i < r->scene.nbody; i++) {
        if (r->sys.qadr[i] < 0) continue;
        const double *a = q1 + r->sys.qadr[i], *b = q0 + r->sys.qadr[i];
        double *d = dq + r->sys.vadr[i];
        if (r->scene.body[i].joint != TC_JOINT_FREE) {
            for (int k = 0; k < 3; k++)
                d[k] = a[k] - b[k];
            continue;
        }
        double conj[4] = {b[3], -b[4], -b[5], -b[6]}, rel[4];
        tc_quat_mul(rel, a + 3, conj);
        if (rel[0] < 0)
            for (int k = 0; k < 4; k++)
                rel[k] = -rel[k];
        double s = tc_v3_norm(rel + 1), th = 2 * atan2(s, rel[0]);
        for (int k = 0; k < 3; k++) {
            d[k] = a[k] - b[k];
            d[3 + k] = s > 0 ? rel[1 + k] * th / s : 0;
        }
    }
}

/* u's entry k (tau then ctrl) moved by h: wrenches on the body, or the servo target */
static void nudge_input(const run *r, double *ctrl, tc_wrench *xfrc, int k, double h) {
    int nv = r->sys.nv;
    if (k >= nv) {
        ctrl[k - nv] += h;
        return;
    }
    int j, i = dof_body(r, k, &j);
    if (r->scene.body[i].joint == TC_JOINT_FREE)
        (j < 3 ? xfrc[i].f : xfrc[i].t)[j % 3] += h;
    else if (j < 2)
        xfrc[i].f[j] += h;
    else
        xfrc[i].t[2] += h;
}

/* centred differences of the engine's step at (q, v, ctrl, xfrc) with step h in touche's
 * tangent coordinates: A, B [(2 nv) x (2 nv)] */
static void step_differences(run *r, const double *ctrl, const tc_wrench *xfrc, double h, double *A,
                             double *B) {
    int nv = r->sys.nv, nx = 2 * nv, nq = r->sys.nq, nb = r->scene.nbody;
    for (int col = 0; col < 2 * nx; col++) {
        /* large: kept off the stack */
        static double qs[2][NQ], vs[2][NV], c[NV];
        static tc_wrench w[TC_SCENE_MAXBODY];
        for (int s = 0; s < 2; s++) {
            double sh = s ? -h : h;
            memcpy(qs[s], r->q, (size_t)nq * sizeof(double));
            memcpy(vs[s], r->v, (size_t)nv * sizeof(double));
            memcpy(c, ctrl, (size_t)nv * sizeof(double));
            memcpy(w, xfrc, (size_t)nb * sizeof *w);
            if (col < nv)
                retract_dof(r, qs[s], col, sh);
            else if (col < nx)
                vs[s][col - nv] += sh;
            else
                nudge_input(r, c, w, col - nx, sh);
            cr_assert_eq(r->type->step(r->st, c, w, qs[s], vs[s]), TC_OK);
        }
        double *out = col < nx ? A + col : B + (col - nx);
        static double dq[NV];
        tangent_diff(r, qs[0], qs[1], dq);
        for (int k = 0; k < nv; k++) {
            out[k * nx] = dq[k] / (2 * h);
            out[(nv + k) * nx] = (vs[0][k] - vs[1][k]) / (2 * h);
        }
    }
}

/* largest |X - Y| over n entries, and largest |Y| in *scale */
static double max_diff(const double *X, const double *Y, int n, double *scale) {
    double d = 0;
    *scale = 0;
    for (int k = 0; k < n; k++) {
        d = fmax(d, fabs(X[k] - Y[k]));
        *scale = fmax(*scale, fabs(Y[k]));
    }
    return d;
}

/* the hook at (q, v): OK, and q, v bit for bit as they were */
static void call_jacobian(run *r, const double *ctrl, const tc_wrench *xfrc, double *A, double *B) {
    static double q0[NQ], v0[NV];
    memcpy(q0, r->q, sizeof q0);
    memcpy(v0, r->v, sizeof v0);
    cr_assert_eq(r->type->jacobian(r->st, ctrl, xfrc, r->q, r->v, A, B), TC_OK);
    cr_assert_eq(memcmp(q0, r->q, sizeof q0), 0, "q changed");
    cr_assert_eq(memcmp(v0, r->v, sizeof v0), 0, "v changed");
}

/* the hook's A, B and a reference agree within tol; the largest differences logged */
static void expect_close(const char *what, const double *A, const double *Ar, const double *B,
                         const double *Br, int n, double tol) {
    double sa, sb, ea = max_diff(A, Ar, n * n, &sa), eb = max_diff(B, Br, n * n, &sb);
    cr_log_info("%s: |A - reference| %.3g (entries up to %.3g), |B - reference| %.3g (up to %.3g)",
                what, ea, sa, eb, sb);
    cr_assert_leq(ea, tol, "%s: A off by %g", what, ea);
    cr_assert_leq(eb, tol, "%s: B off by %g", what, eb);
}

/* the hook at r's state against centred differences (h 1e-6) of the step, within 1e-6; the
 * hook's B into B */
static void hook_matches_step(run *r, const double *ctrl, const tc_wrench *xfrc, const char *what,
                              double *B) {
    static double A[JNX * JNX], Af[JNX * JNX], Bf[JNX * JNX];
    call_jacobian(r, ctrl, xfrc, A, B);
    step_differences(r, ctrl, xfrc, 1e-6, Af, Bf);
    expect_close(what, A, Af, B, Bf, 2 * r->sys.nv, 1e-6);
}

/* SO(3)'s left Jacobian: exp(phi + d) = exp([J(phi) d]x) exp(phi) to first order */
static void left_jacobian(double J[9], const double phi[3]) {
    double th = tc_v3_norm(phi), a = th > 0 ? (1 - cos(th)) / (th * th) : 0.5;
    double b = th > 0 ? (th - sin(th)) / (th * th * th) : 1.0 / 6;
    double K[9] = {0, -phi[2], phi[1], phi[2], 0, -phi[0], -phi[1], phi[0], 0};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double K2 = 0;
            for (int k = 0; k < 3; k++)
                K2 += K[3 * r + k] * K[3 * k + c];
            J[3 * r + c] = (r == c) + a * K[3 * r + c] + b * K2;
        }
}

/* a free sphere (isotropic: no gyroscopic torque) in free flight, tilted and spinning, under a
 * held force F and torque T: MuJoCo's semi-implicit Euler is v+ = v + dt (g + F / m),
 * p+ = p + dt v+, w+ = w + dt T / I, R+ = exp(dt [w+]x) R, so in touche's coordinates (J the
 * left Jacobian of SO(3) at dt w+)
 *   A: dp+ = dp + dt dv, dth+ = exp(dt [w+]x) dth + dt J dw, dv+ = dv, dw+ = dw
 *   B: dv+ = dt / m dF, dp+ = dt^2 / m dF, dw+ = dt / I dT, dth+ = dt^2 / I J dT, ctrl 0.
 * mjd_transitionFD's centred differences (eps 1e-6) reach it to rounding over eps: measured
 * largest error 6.8e-10 in A (entries up to 1), 1.6e-10 in B (up to 3.8); tolerance 1e-7. */
Test(engine_mujoco, jacobian_free_flight_closed_form) {
    const double dt = 0.002;
    cr_assert(tc_engine_mujoco.caps & TC_CAP_GRADIENT);
    cr_assert_not_null(tc_engine_mujoco.jacobian);
    init_run(&R);
    tc_v3_set(R.scene.gravity, 0, 0, -9.81);
    int s = add_sphere(&R.scene, "ball", 0.05, TC_JOINT_FREE, 0.1, -0.2, 0.5);
    tc_body_desc *b = &R.scene.body[s];
    b->quat[0] = cos(0.4);
    b->quat[1] = sin(0.4) * 0.6;
    b->quat[3] = sin(0.4) * 0.8;
    tc_v3_set(b->vel, 0.3, 0.1, -0.2);
    tc_v3_set(b->omega, 1, -2, 3);
    start(&R, dt);
    double ctrl[NV] = {0}, A[JNX * JNX], B[JNX * JNX], Ae[JNX * JNX] = {0}, Be[JNX * JNX] = {0};
    tc_wrench xfrc[1] = {{{0.1, 0, 0}, {0, 0.01, 0}}};
    memcpy(ctrl, R.q, 3 * sizeof *ctrl);
    call_jacobian(&R, ctrl, xfrc, A, B);
    /* the closed form */
    const int n = 12;
    double m = b->mass, I = b->inertia[0], phi[3], J[9], Rw[9], qw[4] = {1, 0, 0, 0};
    cr_assert_float_eq(b->inertia[1], I, 1e-15 * I);
    /* the held torque turns omega first: w+ = w + dt T / I */
    double w1[3];
    tc_v3_copy(w1, R.v + 3);
    tc_v3_addscl(w1, xfrc[0].t, dt / I);
    tc_v3_scale(phi, w1, dt);
    left_jacobian(J, phi);
    tc_quat_integrate(qw, w1, dt);
    tc_quat_to_mat(Rw, qw);
    for (int k = 0; k < 3; k++) {
        Ae[k * n + k] = Ae[(6 + k) * n + 6 + k] = Ae[(9 + k) * n + 9 + k] = 1;
        Ae[k * n + 6 + k] = dt;
        Be[(6 + k) * n + k] = dt / m;
        Be[k * n + k] = dt * dt / m;
        Be[(9 + k) * n + 3 + k] = dt / I;
        for (int c = 0; c < 3; c++) {
            Ae[(3 + k) * n + 3 + c] = Rw[3 * k + c];
            Ae[(3 + k) * n + 9 + c] = dt * J[3 * k + c];
            Be[(3 + k) * n + 3 + c] = dt * dt / I * J[3 * k + c];
        }
    }
    expect_close("free flight vs closed form", A, Ae, B, Be, n, 1e-7);
    tc_engine_mujoco.free(R.st);
}

/* a sphere resting on the ground (condim 3, pyramidal friction) pushed sideways by a small
 * force: the hook's A and B against centred differences (h 1e-6) of the engine's own step in
 * touche's coordinates. The step differences start from the warm start the previous step left;
 * the hook from the step's; MuJoCo's Newton solver converges past that. Measured: largest
 * difference 5.6e-11 in A (entries up to 5.0), 3.7e-12 in B (up to 3.8); tolerance 1e-6. The
 * engine's data are left as they were: a twin run never asked for derivatives steps to the same
 * bits. */
Test(engine_mujoco, jacobian_resting_sphere_matches_step) {
    const double dt = 0.002;
    run *runs[2] = {&R, &R2};
    for (int k = 0; k < 2; k++) {
        init_run(runs[k]);
        tc_v3_set(runs[k]->scene.gravity, 0, 0, -9.81);
        add_plane(&runs[k]->scene);
        int s = add_sphere(&runs[k]->scene, "ball", 0.05, TC_JOINT_FREE, 0, 0, 0.05);
        runs[k]->scene.body[s].quat[0] = cos(0.3);
        runs[k]->scene.body[s].quat[2] = sin(0.3);
        start(runs[k], dt);
        for (int i = 0; i < 300; i++)
            cr_assert_eq(tc_engine_mujoco.step(runs[k]->st, NULL, NULL, runs[k]->q, runs[k]->v),
                         TC_OK);
    }
    double ctrl[NV] = {0}, A[JNX * JNX], B[JNX * JNX];
    tc_wrench xfrc[2] = {{{0, 0, 0}, {0, 0, 0}}, {{0.3, 0, 0}, {0, 0, 0}}};
    call_jacobian(&R, ctrl, xfrc, A, B);
    /* the step after the call: the same bits as the twin's */
    cr_assert_eq(tc_engine_mujoco.step(R.st, ctrl, xfrc, R.q, R.v), TC_OK);
    cr_assert_eq(tc_engine_mujoco.step(R2.st, ctrl, xfrc, R2.q, R2.v), TC_OK);
    cr_assert_eq(memcmp(R.q, R2.q, sizeof R.q), 0, "q differs from the twin's");
    cr_assert_eq(memcmp(R.v, R2.v, sizeof R.v), 0, "v differs from the twin's");
    cr_assert_eq(tc_engine_mujoco.ncontact(R.st), tc_engine_mujoco.ncontact(R2.st));
    cr_assert_gt(tc_engine_mujoco.ncontact(R.st), 0, "resting on the plane");
    /* the hook against the step's differences, at the new state */
    hook_matches_step(&R, ctrl, xfrc, "resting sphere vs step", B);
    tc_engine_mujoco.free(R.st);
    tc_engine_mujoco.free(R2.st);
}

/* a planar puck on servos (x, y, theta; damped) moving against a fixed sphere, with each
 * integrator: A and B (the servo targets' columns included) against centred differences of
 * the step. Measured: largest difference 4.0e-9 in A (entries up to 5.4), 3.1e-9 in B (up to
 * 2.7) with Euler (mjd_transitionFD); 2.2e-10 and 2.2e-10 with RK4 (full steps: 2.2.2's
 * mjd_transitionFD, stage skipping under RK4, was off by 0.37 in A, 2.0 in B); tolerance 1e-6. */
Test(engine_mujoco, jacobian_planar_servo_matches_step) {
    const double dt = 0.002;
    for (int integ = 0; integ < 2; integ++) {
        init_run(&R);
        set_param(&R, "integrator", integ);
        int s = add_sphere(&R.scene, "puck", 0.05, TC_JOINT_FREE, 0.02, 0.03, 0.05);
        tc_body_desc *b = &R.scene.body[s];
        b->joint = TC_JOINT_PLANAR;
        for (int k = 0; k < 3; k++) {
            b->kp[k] = k < 2 ? 50 : 0.05;
            b->damping[k] = k < 2 ? 2 : 0.002;
        }
        tc_v3_set(b->vel, 0.2, -0.1, 0);
        b->omega[2] = 1.5;
        add_sphere(&R.scene, "pin", 0.05, TC_JOINT_FIXED, 0.02 + 0.098, 0.03, 0.05);
        start(&R, dt);
        double ctrl[NV] = {0.1, 0.05, 0.3}, B[JNX * JNX];
        tc_wrench xfrc[2] = {{{0, 0.2, 0}, {0, 0, 0.001}}, {{0, 0, 0}, {0, 0, 0}}};
        hook_matches_step(&R, ctrl, xfrc,
                          integ ? "planar servo vs step, RK4" : "planar servo vs step, Euler", B);
        int n = 2 * R.sys.nv;
        cr_log_info("servo column dvy/dtarget_y %.6g", B[4 * n + 4]);
        cr_assert_gt(B[4 * n + 4], 0.01, "the servo target moves y");
        tc_engine_mujoco.free(R.st);
    }
}

/* a free box (anisotropic: gyroscopic torque) tumbling in free flight under gravity and a held
 * wrench, with each integrator: A and B against centred differences of the step; the frame
 * conversions' cross terms (omega x th) are all at work; the torque columns are the world
 * torque held through RK4's stages. Measured: largest difference 3.6e-9 in A (entries up to 1),
 * 7.7e-10 in B (up to 1.9) with Euler; 3.0e-9 and 1.6e-9 with RK4; tolerance 1e-6. */
Test(engine_mujoco, jacobian_tumbling_box_matches_step) {
    for (int integ = 0; integ < 2; integ++) {
        init_run(&R);
        set_param(&R, "integrator", integ);
        tc_v3_set(R.scene.gravity, 0, 0, -9.81);
        tc_body_desc b = tc_default_body("box", tc_box(0.1, 0.05, 0.02));
        b.joint = TC_JOINT_FREE;
        tc_v3_set(b.pos, 0.1, 0.2, 0.3);
        b.quat[0] = cos(0.5);
        b.quat[1] = sin(0.5) * 0.48;
        b.quat[2] = sin(0.5) * 0.6;
        b.quat[3] = sin(0.5) * 0.64;
        tc_v3_set(b.vel, 0.3, -0.2, 0.1);
        tc_v3_set(b.omega, 2, -4, 6);
        tc_error err = {0};
        cr_assert_eq(tc_scene_add(&R.scene, &b, 800, &err), TC_OK, "%s", err.msg);
        start(&R, 0.002);
        double ctrl[NV] = {0}, B[JNX * JNX];
        tc_wrench xfrc[1] = {{{0.5, -0.2, 1}, {0.01, 0.02, -0.03}}};
        hook_matches_step(&R, ctrl, xfrc,
                          integ ? "tumbling box vs step, RK4" : "tumbling box vs step, Euler", B);
        tc_engine_mujoco.free(R.st);
    }
}
