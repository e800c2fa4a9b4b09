/* SPDX-License-Identifier: MIT */
/* touche bench points: the points model's broad phase and contact query on piles of 100 to 1000
 * bodies (arrays of shapes: more than a scene holds), beside the brute-force pair test */
#include "cli/tc_cli.h"
#include "core/tc_fs.h"
#include "math/tc_vec.h"
#include "models/tc_model_points.h"
#include "report/tc_progress.h"
#include "scenes/tc_scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tc_machine.h"

/* a pile of n bodies: the ground (body 0) and boxes, spheres, cylinders, octahedra and L-shaped
 * compounds in turn, 9 cm apart on a 10 x 10 lattice, layer above layer. stacked: each reaches
 * 4.6 cm from its centre along the lattice axes and is not turned, so neighbours overlap by 2 mm
 * (the first layer 2 mm into the ground), as in a pile at rest; jumbled: larger bodies turned at
 * random (seeded), overlapping their neighbours by up to 3 cm (a worst case) */
typedef struct pile {
    int n;
    tc_shape *shape;
    const tc_shape **ptr;
    unsigned char *fixed;
    tc_body_state *bs;
    double *radius;
} pile;

static void pile_free(pile *p) {
    free(p->shape), free(p->ptr), free(p->fixed), free(p->bs), free(p->radius);
}

/* body i's shape: kind i % 5, reaching a along the axes (stacked) or the jumbled sizes */
static void pile_shape(tc_shape *s, int i, int jumbled) {
    const double a = 0.046, h = 0.5 * a;
    const double oct[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    double v[6][3], r = jumbled ? 0.06 : a;
    for (int k = 0; k < 6; k++)
        tc_v3_scale(v[k], oct[k], r);
    switch (i % 5) {
    case 0:
        *s = jumbled ? tc_box(0.05, 0.04, 0.03) : tc_box(a, a, a);
        break;
    case 1:
        *s = tc_sphere(jumbled ? 0.045 : a);
        break;
    case 2:
        *s = jumbled ? tc_cylinder(0.04, 0.04) : tc_cylinder(a, a);
        break;
    case 3:
        tc_polytope(s, v, 6, NULL);
        break;
    default:
        /* an L: a foot along x and a leg along y at one end */
        memset(s, 0, sizeof *s);
        s->type = TC_SHAPE_COMPOUND, s->npart = 2;
        if (jumbled) {
            s->part[0] = (tc_shape_part){TC_SHAPE_BOX, {0.05, 0.0125, 0.0125}, {0, 0, 0}};
            s->part[1] =
                (tc_shape_part){TC_SHAPE_BOX, {0.0125, 0.0375, 0.0125}, {-0.0375, 0.05, 0}};
        } else {
            s->part[0] = (tc_shape_part){TC_SHAPE_BOX, {a, h, a}, {0, -h, 0}};
            s->part[1] = (tc_shape_part){TC_SHAPE_BOX, {h, h, a}, {-h, h, 0}};
        }
    }
}

static int pile_build(pile *p, int nbody, int jumbled) {
    int n = p->n = nbody + 1;
    p->shape = calloc((size_t)n, sizeof *p->shape);
    p->ptr = calloc((size_t)n, sizeof *p->ptr);
    p->fixed = calloc((size_t)n, 1);
    p->bs = calloc((size_t)n, sizeof *p->bs);
    p->radius = calloc((size_t)n, sizeof *p->radius);
    if (!p->shape || !p->ptr || !p->fixed || !p->bs || !p->radius) return pile_free(p), 0;
    p->shape[0] = tc_plane(), p->fixed[0] = 1, p->radius[0] = INFINITY;
    tc_quat_identity(p->bs[0].quat);
    tc_quat_to_mat(p->bs[0].R, p->bs[0].quat);
    for (int i = 1; i < n; i++) {
        pile_shape(&p->shape[i], i, jumbled);
        int k = i - 1;
        double z0 = jumbled ? 0.03 : 0.044, q[4] = {1, 0, 0, 0};
        const double pos[3] = {0.09 * (k % 10), 0.09 * ((k / 10) % 10), z0 + 0.09 * (k / 100)};
        if (jumbled) tc_random_quat((unsigned long)i, q);
        tc_v3_copy(p->bs[i].pos, pos);
        memcpy(p->bs[i].quat, q, sizeof q);
        tc_quat_to_mat(p->bs[i].R, q);
    }
    for (int i = 0; i < n; i++)
        p->ptr[i] = &p->shape[i];
    return 1;
}

/* queries timed at most, per measurement */
#define MAXREP 100000

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the pairs whose bounding spheres overlap, tested all against all (what a broad phase saves) */
static int brute_pairs(const pile *p, const double *radius) {
    int m = 0;
    for (int a = 1; a < p->n; a++)
        for (int b = a + 1; b < p->n; b++) {
            double d[3], r = radius[a] + radius[b];
            tc_v3_sub(d, p->bs[b].pos, p->bs[a].pos);
            m += tc_v3_dot(d, d) <= r * r;
        }
    return m;
}

/* one pile of nb bodies: the model's samples, its broad phase and contacts, and the all-pairs
 * test, timed for `seconds` each; a line of the CSV f and of the table. cpu holds MAXREP times */
static tc_status bench_pile(FILE *f, int nb, int jumbled, double seconds, const tc_params *par,
                            double *cpu, tc_error *err) {
    pile p;
    if (!pile_build(&p, nb, jumbled)) return TC_ENOMEM;
    void *s = NULL;
    tc_broadphase *bp = NULL;
    size_t cap = 64 * ((size_t)nb + 1);
    int maxc = (int)cap;
    tc_model_contact *c = nb <= 100000 ? calloc(cap, sizeof *c) : NULL;
    /* the model over the pile (its samples and broad phase), timed once */
    double t0 = tc_wall_time();
    tc_status st = c ? tc_points_alloc(&s, p.n, p.ptr, p.fixed, par, err) : TC_ENOMEM;
    double alloc_ms = 1e3 * (tc_wall_time() - t0);
    /* a broad phase of its own, to time it alone */
    for (int i = 0; i < p.n && !st; i++)
        p.radius[i] = tc_points_broadphase(s)->radius[i];
    if (!st) st = tc_broadphase_alloc(&bp, p.n, p.radius, p.fixed, 32, 0, err);
    if (st) return tc_points_free(s), free(c), pile_free(&p), st;
    int samples = 0;
    for (int i = 0; i < p.n; i++) {
        const double(*P)[3];
        samples += tc_points_samples(s, i, &P);
    }
    /* single queries for `seconds` each (at most MAXREP): the median CPU time and the least wall
     * time, both little disturbed by other processes on a shared machine */
    double med[3], wall[3] = {INFINITY, INFINITY, INFINITY};
    int npair = 0, nc = 0, brute = 0;
    for (int what = 0; what < 3; what++) {
        double start = tc_wall_time();
        int nrep = 0;
        do {
            double b0 = tc_wall_time(), c0 = tc_thread_cpu_time();
            if (what == 0)
                npair = tc_broadphase_query(bp, p.bs);
            else if (what == 1)
                nc = tc_points_contacts(s, p.bs, c, maxc);
            else
                brute = brute_pairs(&p, p.radius);
            cpu[nrep++] = tc_thread_cpu_time() - c0;
            wall[what] = fmin(wall[what], tc_wall_time() - b0);
        } while (tc_wall_time() - start < seconds && nrep < MAXREP);
        qsort(cpu, (size_t)nrep, sizeof *cpu, by_value);
        med[what] = cpu[nrep / 2];
    }
    if (nc >= maxc) fprintf(stderr, "touche bench: contacts overflowed %d\n", maxc);
    /* pairs: the broad phase's, ground pairs included; brute: the bodies' pairs alone */
    const char *kind = jumbled ? "jumbled" : "stacked";
    fprintf(f, "%s,%d,%d,%d,%d,%lld,%d,%.3f,%.3f,%.4f,%.3f,%.3f,%.3f,%.3f,%.2f\n", kind, nb,
            samples, npair, brute, bp->tests, nc, 1e6 * med[0], 1e6 * med[1], 1e6 * med[1] / nb,
            1e6 * med[2], 1e6 * wall[0], 1e6 * wall[1], 1e6 * wall[2], alloc_ms);
    printf("%-8s %7d %8d %7d %7d %7lld %9d %10.1f %12.1f %9.3f %10.1f %9.1f\n", kind, nb, samples,
           npair, brute, bp->tests, nc, 1e6 * med[0], 1e6 * med[1], 1e6 * med[1] / nb, 1e6 * med[2],
           alloc_ms);
    tc_broadphase_free(bp);
    tc_points_free(s);
    free(c);
    pile_free(&p);
    return TC_OK;
}

int tc_bench_points(const char *out, const char *bodies, double seconds) {
    tc_error err;
    tc_error_clear(&err);
    char path[1100];
    tc_outfile o;
    tc_path_join(path, sizeof path, out, "bench_points.csv");
    double *cpu = malloc(MAXREP * sizeof *cpu);
    if (!cpu) return fprintf(stderr, "touche bench: out of memory\n"), 1;
    if (tc_outfile_open(&o, path, &err)) return free(cpu), tc_cli_error(&err, TC_EIO), 1;
    fprintf(o.f, "pile,bodies,samples,pairs,brute_pairs,sphere_tests,contacts,us_broad_phase,"
                 "us_contacts,us_contacts_per_body,us_brute_pairs,wall_us_broad_phase,"
                 "wall_us_contacts,wall_us_brute_pairs,alloc_ms\n");
    printf("%-8s %7s %8s %7s %7s %7s %9s %10s %12s %9s %10s %9s\n", "pile", "bodies", "samples",
           "pairs", "brute", "tests", "contacts", "broad us", "contacts us", "us/body", "brute us",
           "alloc ms");
    tc_params par;
    tc_params_default(&par, tc_model_points.params);
    /* the stacked piles, then the jumbled ones, each body count in turn */
    tc_status st = TC_OK;
    char buf[256];
    for (int jumbled = 0; jumbled < 2 && !st; jumbled++) {
        snprintf(buf, sizeof buf, "%s", bodies);
        for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t && !st;
             t = strtok_r(NULL, ",", &sv)) {
            int nb = atoi(t);
            if (nb < 1 || nb > 100000)
                st = tc_error_set(&err, TC_EINVAL, "", 0, "bodies",
                                  "body counts are 1 to 100000, got '%s'", t);
            else
                st = bench_pile(o.f, nb, jumbled, seconds, &par, cpu, &err);
        }
    }
    free(cpu);
    if (st) {
        tc_outfile_abort(&o);
        if (!err.msg[0]) tc_error_set(&err, st, "", 0, "", "out of memory");
        return tc_cli_error(&err, st), 1;
    }
    if (tc_outfile_commit(&o, &err)) return tc_cli_error(&err, TC_EIO), 1;
    printf("wrote %s\n", path);
    return 0;
}
