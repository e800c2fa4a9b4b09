/* SPDX-License-Identifier: MIT */
/* touche as a library: a ball dropped onto a plane, simulated by a method named on the command
 * line, printing the contact wrench on the ball until it rests (docs/library.md).
 * build: cc ball_on_plane.c $(pkg-config --cflags --libs --static touche) -o ball_on_plane
 * usage: ./ball_on_plane [METHOD [SECONDS]]   METHOD as `touche list` names it (default mujoco) */
#include <touche.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* print what went wrong (file, line, parameter, message) and give up */
static int fail(const char *what, const tc_error *err) {
    char buf[1024];
    tc_error_format(err, buf, sizeof buf);
    fprintf(stderr, "ball_on_plane: %s: %s\n", what, buf);
    return 1;
}

int main(int argc, char **argv) {
    const char *spec = argc > 1 ? argv[1] : "mujoco";
    double seconds = argc > 2 ? atof(argv[2]) : 2.0, dt = 1e-3; /* simulated time, step (s) */
    tc_error err;
    tc_error_clear(&err);

    /* the scene: gravity along -z, a fixed ground plane and a free 5 cm ball of water density
     * whose surface starts 5 cm above it (a tc_scene is about 1 MB: keep it off the stack) */
    tc_scene *scene = malloc(sizeof *scene);
    if (!scene) {
        fprintf(stderr, "ball_on_plane: out of memory\n");
        return 1;
    }
    tc_scene_init(scene);
    scene->gravity[2] = -9.81;
    tc_body_desc ground = tc_default_body("ground", tc_plane());
    tc_body_desc ball = tc_default_body("ball", tc_sphere(0.05));
    ball.joint = TC_JOINT_FREE;
    ball.pos[2] = 0.10;
    if (tc_scene_add(scene, &ground, 0, &err) || tc_scene_add(scene, &ball, 1000, &err)) {
        free(scene);
        return fail("scene", &err);
    }
    double mg = scene->body[1].mass * -scene->gravity[2]; /* the ball's weight (N) */

    /* the method by name; it must answer force queries and step in time */
    tc_method m;
    if (tc_method_parse(&m, spec, &err)) {
        free(scene);
        return fail("method", &err);
    }
    unsigned need = TC_CAP_FORCE_QUERY | TC_CAP_DYNAMICS;
    if (!tc_method_can_run(&m, need, tc_scene_shapes(scene))) {
        char why[256];
        tc_method_why_not(&m, need, tc_scene_shapes(scene), why, sizeof why);
        fprintf(stderr, "ball_on_plane: %s cannot run this example: %s\n", m.spec, why);
        free(scene);
        return 1;
    }

    /* the simulation, stepped for the given time; every 0.1 s the contact wrench on the ball
     * (world frame, N and N m about its centre) at the current state */
    tc_sim *sim;
    if (tc_sim_alloc(&sim, scene, &m, dt, &err)) {
        free(scene);
        return fail("simulation", &err);
    }
    printf("method %s, ball of %.6f kg, m g = %.6f N\n", m.spec, scene->body[1].mass, mg);
    printf("%8s %12s %12s %12s %12s %12s\n", "t (s)", "height (m)", "fx (N)", "fy (N)", "fz (N)",
           "|torque| (N m)");
    tc_wrench w[2];
    int nstep = (int)(seconds / dt + 0.5), status = 0;
    for (int i = 1; i <= nstep && !status; i++) {
        if ((status = tc_sim_step(sim))) break;
        if (i % 100 && i != nstep) continue;
        if ((status = tc_sim_force(sim, tc_sim_q(sim), tc_sim_v(sim), w))) break;
        double *t = w[1].t;
        printf("%8.3f %12.6f %12.6f %12.6f %12.6f %12.3e\n", tc_sim_time(sim),
               tc_sim_q(sim)[2] - 0.05, w[1].f[0], w[1].f[1], w[1].f[2],
               sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]));
    }

    /* at rest the plane carries the ball's weight: the normal force over m g */
    if (!status)
        printf("at rest: fz / (m g) = %.6f\n", w[1].f[2] / mg);
    else
        fprintf(stderr, "ball_on_plane: %s at t = %g s\n", tc_status_str(status), tc_sim_time(sim));
    tc_sim_free(sim);
    free(scene);
    return status != 0;
}
