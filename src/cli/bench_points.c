/* SPDX-License-Identifier: MIT */
/* touche bench points: the points model's broad phase and contact query on piles of 100 to 1000
 * bodies (arrays of shapes: more than a scene holds), beside the brute-force pair test */
#include "cli/tc_cli.h"
#include "exp/tc_bench.h"
#include "math/tc_vec.h"
#include "models/tc_model_points.h"
#include "report/tc_progress.h"
#include "scenes/tc_scenes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    free(p->shape);
    free(p->ptr);
    free(p->fixed);
    free(p->bs);
    free(p->radius);
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
        s->type = TC_SHAPE_COMPOUND;
        s->npart = 2;
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
    if (!p->shape || !p->ptr || !p->fixed || !p->bs || !p->radius) {
        pile_free(p);
        return 0;
    }
    p->shape[0] = tc_plane();
    p->fixed[0] = 1;
    p->radius[0] = INFINITY;
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

enum { POINTS_BODIES };

static const tc_col points_cols[] = {
    {.csv = "pile"},
    {.csv = "bodies", .fmt = "%.0f"},
    {.csv = "samples", .fmt = "%.0f"},
    {.csv = "pairs", .fmt = "%.0f"},
    {.csv = "brute_pairs", .fmt = "%.0f"},
    {.csv = "sphere_tests", .fmt = "%.0f"},
    {.csv = "contacts", .fmt = "%.0f"},
    {.csv = "us_broad_phase", .fmt = "%.3f"},
    {.csv = "us_contacts", .fmt = "%.3f"},
    {.csv = "us_contacts_per_body", .fmt = "%.4f"},
    {.csv = "us_brute_pairs", .fmt = "%.3f"},
    {.csv = "wall_us_broad_phase", .fmt = "%.3f"},
    {.csv = "wall_us_contacts", .fmt = "%.3f"},
    {.csv = "wall_us_brute_pairs", .fmt = "%.3f"},
    {.csv = "alloc_ms", .fmt = "%.2f"},
};

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

/* one pile and what is timed on it: the broad phase (0), the model's contacts (1) or the
 * all-pairs test (2), with the last count each gave */
typedef struct pile_ctx {
    pile p;
    void *s;
    tc_broadphase *bp;
    tc_model_contact *c;
    int maxc, what;
    int count[3];
} pile_ctx;

static tc_status pile_query(void *ctx) {
    pile_ctx *q = ctx;
    if (q->what == 0)
        q->count[0] = tc_broadphase_query(q->bp, q->p.bs);
    else if (q->what == 1)
        q->count[1] = tc_points_contacts(q->s, q->p.bs, q->c, q->maxc);
    else
        q->count[2] = brute_pairs(&q->p, q->p.radius);
    return TC_OK;
}

static void pile_ctx_free(pile_ctx *q) {
    tc_broadphase_free(q->bp);
    tc_points_free(q->s);
    free(q->c);
    pile_free(&q->p);
}

/* the model over a pile of nb bodies (its samples and broad phase, timed once into *alloc_ms)
 * and a broad phase of its own, to time it alone */
static tc_status pile_ctx_alloc(pile_ctx *q, int nb, int jumbled, const tc_params *par,
                                double *alloc_ms, tc_error *err) {
    memset(q, 0, sizeof *q);
    if (!pile_build(&q->p, nb, jumbled)) {
        memset(&q->p, 0, sizeof q->p);
        return TC_ENOMEM;
    }
    q->maxc = 64 * (nb + 1);
    q->c = calloc((size_t)q->maxc, sizeof *q->c);
    double t0 = tc_wall_time();
    tc_status st =
        q->c ? tc_points_alloc(&q->s, q->p.n, q->p.ptr, q->p.fixed, par, err) : TC_ENOMEM;
    *alloc_ms = 1e3 * (tc_wall_time() - t0);
    for (int i = 0; i < q->p.n && !st; i++)
        q->p.radius[i] = tc_points_broadphase(q->s)->radius[i];
    if (!st) st = tc_broadphase_alloc(&q->bp, q->p.n, q->p.radius, q->p.fixed, 32, 0, err);
    return st;
}

/* one pile of nb bodies: the model's samples, its broad phase and contacts, and the all-pairs
 * test, timed for `seconds` each: single queries (at most MAXREP), the median CPU time and the
 * least wall time, both little disturbed by other processes on a shared machine; a row */
static tc_status bench_pile(int nb, int jumbled, double seconds, const tc_params *par,
                            tc_bench_table *t, tc_error *err) {
    pile_ctx q;
    double alloc_ms, med[3], wall[3];
    tc_status st = pile_ctx_alloc(&q, nb, jumbled, par, &alloc_ms, err);
    for (q.what = 0; q.what < 3 && !st; q.what++) {
        tc_bench_timer tm = {
            .call = pile_query, .ctx = &q, .seconds = seconds, .max_samples = MAXREP, .cpu = 1};
        tc_bench_timing tg;
        st = tc_bench_time(&tm, &tg);
        med[q.what] = tg.cpu_median_s;
        wall[q.what] = tg.best_s;
    }
    if (st) {
        pile_ctx_free(&q);
        return st;
    }
    int samples = 0;
    for (int i = 0; i < q.p.n; i++) {
        const double(*P)[3];
        samples += tc_points_samples(q.s, i, &P);
    }
    if (q.count[1] >= q.maxc) fprintf(stderr, "touche bench: contacts overflowed %d\n", q.maxc);
    /* pairs: the broad phase's, ground pairs included; brute: the bodies' pairs alone */
    tc_bench_put(t,
                 (tc_cell[]){TC_TEXT(jumbled ? "jumbled" : "stacked"), TC_NUM(nb), TC_NUM(samples),
                             TC_NUM(q.count[0]), TC_NUM(q.count[2]), TC_NUM(q.bp->tests),
                             TC_NUM(q.count[1]), TC_NUM(1e6 * med[0]), TC_NUM(1e6 * med[1]),
                             TC_NUM(1e6 * med[1] / nb), TC_NUM(1e6 * med[2]), TC_NUM(1e6 * wall[0]),
                             TC_NUM(1e6 * wall[1]), TC_NUM(1e6 * wall[2]), TC_NUM(alloc_ms)});
    pile_ctx_free(&q);
    return TC_OK;
}

/* the stacked piles, then the jumbled ones, each body count in turn */
static tc_status points_run(tc_exp *x, const tc_bench_opts *o, tc_bench_table *t, tc_error *err) {
    (void)x;
    const tc_bench_val *bodies = &o->v[POINTS_BODIES];
    tc_params par;
    tc_params_default(&par, tc_model_points.params);
    tc_bench_columns(t, points_cols, sizeof points_cols / sizeof points_cols[0]);
    tc_status st = TC_OK;
    for (int i = 0; i < 2 * bodies->n && !st; i++)
        st = bench_pile(bodies->list[i % bodies->n], i / bodies->n, o->seconds, &par, t, err);
    return st;
}

static const tc_bench_opt points_opts[] = {
    [POINTS_BODIES] =
        TC_BENCH_OPT_INTS("--bodies", 1, 100000, 0, "100,300,1000", "bodies of each pile"),
    TC_BENCH_OPT_SECONDS("0.5", "time per measurement, s"),
    {0},
};

const tc_bench_def tc_bench_points = {
    .name = "points",
    .doc = "the points model's broad phase and contacts on stacked and jumbled piles, beside the "
           "brute-force pair test",
    .csv = "bench_points.csv",
    .opts = points_opts,
    .run = points_run};
