/* SPDX-License-Identifier: MIT */
/* scene construction helpers */
#include "dyn/tc_scene.h"
#include "math/tc_vec.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a compound literal, built in the caller's return slot: no scene-sized frame here (a local
 * scene copied out cost a ~1 MB frame) */
tc_scene tc_default_scene(void) {
    return (tc_scene){.friction = 0.5};
}

void tc_scene_init(tc_scene *s) {
    memset(s, 0, sizeof *s);
    s->friction = 0.5;
}

tc_body_desc tc_default_body(const char *name, tc_shape shape) {
    tc_body_desc b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "%s", name);
    b.shape = shape;
    b.joint = TC_JOINT_FIXED;
    b.quat[0] = 1;
    return b;
}

/* a kinematic body's path: 1 to TC_PATH_MAX finite waypoints, a positive interval between them */
static tc_status check_path(const tc_body_desc *b, tc_error *err) {
    if (b->path_n < 1 || b->path_n > TC_PATH_MAX)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "path_n",
                            "body '%s' is kinematic: it needs 1 to %d waypoints (got %d)", b->name,
                            TC_PATH_MAX, b->path_n);
    if (b->path_n > 1 && !(isfinite(b->path_dt) && b->path_dt > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "path_dt",
                            "body '%s': the time between waypoints must be finite and > 0 s "
                            "(got %g)",
                            b->name, b->path_dt);
    for (int i = 0; i < b->path_n; i++)
        if (!(isfinite(b->path[i][0]) && isfinite(b->path[i][1]) && isfinite(b->path[i][2])))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "path",
                                "body '%s': waypoint %d is not finite", b->name, i);
    return TC_OK;
}

tc_status tc_scene_add(tc_scene *s, const tc_body_desc *b, double density, tc_error *err) {
    if (s->nbody >= TC_SCENE_MAXBODY)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "bodies", "more than %d bodies",
                            TC_SCENE_MAXBODY);
    tc_status st = tc_shape_check(&b->shape, err);
    if (st) return st;
    if ((unsigned)b->joint >= TC_JOINT_COUNT)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "joint", "body '%s': unknown joint type %d",
                            b->name, (int)b->joint);
    if (b->shape.type == TC_SHAPE_PLANE && b->joint != TC_JOINT_FIXED)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "joint", "a plane must be fixed");
    tc_body_desc *d = &s->body[s->nbody];
    *d = *b;
    /* a compound's body origin becomes its COM; the body moves so the geometry stays put */
    double com[3], Rc[3], R[9];
    if ((st = tc_shape_center(&d->shape, com, err))) return st;
    tc_quat_to_mat(R, d->quat);
    tc_m3_mulv(Rc, R, com);
    for (int k = 0; k < 3; k++)
        d->pos[k] += Rc[k];
    if (density > 0) tc_shape_mass(&d->shape, density, &d->mass, d->inertia);
    for (int k = 0; k < 6; k++)
        if (!(isfinite(b->damping[k]) && b->damping[k] >= 0 && isfinite(b->kp[k]) && b->kp[k] >= 0))
            return tc_error_set(err, TC_EINVAL, NULL, 0, b->kp[k] >= 0 ? "damping" : "kp",
                                "body '%s': damping and servo gains must be finite and >= 0",
                                b->name);
    for (int k = 0; k < 6; k++)
        if (b->kp[k] != 0 && (b->joint != TC_JOINT_PLANAR || k >= 3))
            return tc_error_set(err, TC_EINVAL, NULL, 0, "kp",
                                "body '%s': position servos need a planar joint (dofs 0-2)",
                                b->name);
    /* a kinematic body: a valid path, nothing that acts on degrees of freedom, no mass needed */
    if (b->joint == TC_JOINT_KINEMATIC) {
        if ((st = check_path(b, err))) return st;
        for (int k = 0; k < 6; k++)
            if (b->damping[k] != 0)
                return tc_error_set(err, TC_EINVAL, NULL, 0, "damping",
                                    "body '%s' is kinematic: it has no degrees of freedom to damp",
                                    b->name);
        /* the initial state is the path's at t = 0 */
        tc_body_path(d, 0, d->pos, d->vel);
        tc_v3_set(d->omega, 0, 0, 0);
        s->nbody++;
        return TC_OK;
    }
    if (d->joint != TC_JOINT_FIXED &&
        !(d->mass > 0 && d->inertia[0] > 0 && d->inertia[1] > 0 && d->inertia[2] > 0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "mass",
                            "body '%s' moves, so it needs mass > 0 and inertia > 0", b->name);
    s->nbody++;
    return TC_OK;
}

void tc_body_path(const tc_body_desc *b, double t, double pos[3], double vel[3]) {
    int n = b->path_n;
    /* no path (not a kinematic body): the scene position, at rest */
    if (n < 1) {
        tc_v3_copy(pos, b->pos);
        if (vel) tc_v3_set(vel, 0, 0, 0);
        return;
    }
    /* after the end the last point, before the start (or t not a number) the first, at rest */
    double s = n > 1 ? t / b->path_dt : 0;
    if (s >= n - 1 || !(s >= 0)) {
        tc_v3_copy(pos, b->path[s >= n - 1 ? n - 1 : 0]);
        if (vel) tc_v3_set(vel, 0, 0, 0);
        return;
    }
    /* inside segment k: p_k + f (p_{k+1} - p_k), slope (p_{k+1} - p_k) / path_dt */
    int k = (int)s;
    double f = s - k;
    const double *a = b->path[k], *c = b->path[k + 1];
    for (int j = 0; j < 3; j++) {
        pos[j] = a[j] + f * (c[j] - a[j]);
        if (vel) vel[j] = (c[j] - a[j]) / b->path_dt;
    }
}

int tc_scene_find(const tc_scene *s, const char *name) {
    for (int i = 0; i < s->nbody; i++)
        if (strcmp(s->body[i].name, name) == 0) return i;
    return -1;
}

int tc_scene_pairs(const tc_scene *s, int *pairs) {
    int n = 0;
    /* every pair but two fixed bodies: kinematic bodies move, so they meet fixed ones too */
    for (int a = 0; a < s->nbody; a++)
        for (int b = a + 1; b < s->nbody; b++) {
            if (s->body[a].joint == TC_JOINT_FIXED && s->body[b].joint == TC_JOINT_FIXED) continue;
            pairs[2 * n] = a;
            pairs[2 * n + 1] = b;
            n++;
        }
    return n;
}

unsigned tc_scene_shapes(const tc_scene *s) {
    unsigned m = 0;
    for (int i = 0; i < s->nbody; i++) {
        m |= TC_SHAPE_BIT(s->body[i].shape.type);
        if (s->body[i].joint == TC_JOINT_FREE) m |= TC_SHAPE_SPATIAL;
    }
    return m;
}
