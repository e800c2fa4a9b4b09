/* SPDX-License-Identifier: MIT */
/* FCLIB exchange (docs/fclib.md): a step's friction-contact problem written by --dump-problems
 * reads back bit-identical through touche's validating reader and FCLIB's own, FCLIB's merit and
 * Siconos' error measure the same residual (normalised apart), the solvers' stored solutions
 * solve their problems, and malformed files are refused naming the file and the field */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <fclib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tc_sim.h"
#include "solvers/tc_fc_problem.h"
#include "solvers/tc_fc_solve.h"
#include "solvers/tc_fclib.h"
#include "test_box_plane.h"
#include "test_tmp.h"

/* a random problem of nc contacts on nb free bodies in a chain (contact i between bodies i % nb
 * and (i + 1) % nb, body 0 alone fixed), rows and M^-1 rows random, M^-1 rows = rows / mass so
 * W is symmetric positive semidefinite; r random, in the cone */
static tc_fc_problem *random_problem(int nc, int nb, unsigned seed) {
    srand(seed);
    tc_fc_contact *c = calloc((size_t)nc, sizeof *c);
    cr_assert_not_null(c);
    double mass[64];
    for (int b = 0; b < nb; b++)
        mass[b] = 0.5 + (double)rand() / RAND_MAX;
    for (int i = 0; i < nc; i++) {
        int body[2] = {i % nb, (i + 1) % nb};
        for (int s = 0; s < 2; s++) {
            tc_fc_side *x = &c[i].side[s];
            x->body = body[s];
            x->nd = body[s] == 0 ? 0 : 6;
            x->vadr = body[s] == 0 ? -1 : 6 * (body[s] - 1);
            for (int a = 0; a < 3; a++)
                for (int d = 0; d < x->nd; d++) {
                    x->row[a][d] = 2.0 * rand() / RAND_MAX - 1.0;
                    x->mrow[a][d] = x->row[a][d] / mass[body[s]];
                }
        }
        for (int a = 0; a < 3; a++)
            c[i].q[a] = 2.0 * rand() / RAND_MAX - 1.0;
        c[i].mu = 0.3 + 0.5 * rand() / RAND_MAX;
        c[i].r[0] = (double)rand() / RAND_MAX;
        c[i].r[1] = 0.5 * c[i].mu * c[i].r[0];
        c[i].r[2] = -0.3 * c[i].mu * c[i].r[0];
    }
    tc_fc_problem *p = NULL;
    cr_assert_eq(tc_fc_problem_build(&p, c, nc), TC_OK);
    free(c);
    return p;
}

/* the two problems' arrays are the same bits */
static void assert_same(const tc_fc_problem *a, const tc_fc_problem *b) {
    cr_assert_eq(a->nc, b->nc);
    cr_assert_eq(a->nnz, b->nnz);
    cr_assert_eq(memcmp(a->colptr, b->colptr, ((size_t)a->n + 1) * sizeof(int)), 0, "colptr");
    cr_assert_eq(memcmp(a->rowind, b->rowind, (size_t)a->nnz * sizeof(int)), 0, "rowind");
    cr_assert_eq(memcmp(a->W, b->W, (size_t)a->nnz * sizeof(double)), 0, "W");
    cr_assert_eq(memcmp(a->q, b->q, (size_t)a->n * sizeof(double)), 0, "q");
    cr_assert_eq(memcmp(a->mu, b->mu, (size_t)a->nc * sizeof(double)), 0, "mu");
    cr_assert_eq(a->has_solution, b->has_solution);
    cr_assert_eq(memcmp(a->r, b->r, (size_t)a->n * sizeof(double)), 0, "r");
    cr_assert_eq(memcmp(a->u, b->u, (size_t)a->n * sizeof(double)), 0, "u");
}

/* a folder of its own for the test's files */
static char *tmpdir(void) {
    static char tpl[64];
    snprintf(tpl, sizeof tpl, "/tmp/touche-fclib-XXXXXX");
    cr_assert_not_null(test_tmpdir(tpl));
    return tpl;
}

/* the whole file into a buffer (*len bytes) */
static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

Test(fclib, written_problem_reads_back_bit_identical_in_both_readers) {
    tc_fc_problem *p = random_problem(12, 5, 7);
    char path[256];
    snprintf(path, sizeof path, "%s/p.hdf5", tmpdir());
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fclib_write(path, p, "title", "a random problem", &err), TC_OK, "%s", err.msg);
    /* touche's reader, from the file and from its image in memory */
    tc_fc_problem *q = NULL;
    tc_fclib_info info;
    cr_assert_eq(tc_fclib_read(path, &q, &info, &err), TC_OK, "%s", err.msg);
    assert_same(p, q);
    cr_assert_str_eq(info.title, "title");
    cr_assert_str_eq(info.description, "a random problem");
    size_t len;
    unsigned char *img = slurp(path, &len);
    tc_fc_problem *q2 = NULL;
    cr_assert_eq(tc_fclib_read_image(img, len, "image", &q2, NULL, &err), TC_OK, "%s", err.msg);
    assert_same(p, q2);
    /* FCLIB's own reader sees the same W (compressed columns), q, mu, r and u */
    struct fclib_local *fl = fclib_read_local(path);
    struct fclib_solution *fs = fclib_read_solution(path);
    cr_assert_not_null(fl);
    cr_assert_not_null(fs);
    cr_assert_eq(fl->spacedim, 3);
    cr_assert_eq(fl->W->nz, -1);
    cr_assert_eq(fl->W->m, p->n);
    cr_assert_eq(memcmp(fl->W->p, p->colptr, ((size_t)p->n + 1) * sizeof(int)), 0);
    cr_assert_eq(memcmp(fl->W->i, p->rowind, (size_t)p->nnz * sizeof(int)), 0);
    cr_assert_eq(memcmp(fl->W->x, p->W, (size_t)p->nnz * sizeof(double)), 0);
    cr_assert_eq(memcmp(fl->q, p->q, (size_t)p->n * sizeof(double)), 0);
    cr_assert_eq(memcmp(fl->mu, p->mu, (size_t)p->nc * sizeof(double)), 0);
    cr_assert_eq(memcmp(fs->r, p->r, (size_t)p->n * sizeof(double)), 0);
    cr_assert_eq(memcmp(fs->u, p->u, (size_t)p->n * sizeof(double)), 0);
    /* FCLIB 3.1's delete frees the problem's members, not the struct its reader allocated */
    fclib_delete_local(fl);
    free(fl);
    fclib_delete_solutions(fs, 1);
    free(img);
    tc_fc_problem_free(q2);
    tc_fc_problem_free(q);
    tc_fc_problem_free(p);
}

/* FCLIB's merit is the natural-map residual over 1 + sqrt(|q|); Siconos 4.4's fc3d_compute_error
 * the same residual over max(norm, |u|): both multiplied back are touche's own residual */
Test(fclib, merit_and_siconos_error_measure_the_same_residual) {
    for (unsigned seed = 1; seed <= 5; seed++) {
        tc_fc_problem *p = random_problem(9, 4, seed);
        double qn = 0;
        for (int i = 0; i < p->n; i++)
            qn += p->q[i] * p->q[i];
        qn = sqrt(qn);
        double res = tc_fc_problem_residual(p, p->r), merit = tc_fclib_merit(p, p->r), serr;
        cr_assert_eq(tc_fc_siconos_error(p, p->r, 0, &serr), TC_OK);
        /* Siconos' own relative error: over max(|q|, |u|) */
        double rel, un = 0;
        for (int i = 0; i < p->n; i++)
            un += p->u[i] * p->u[i];
        cr_assert_eq(tc_fc_siconos_error(p, p->r, qn, &rel), TC_OK);
        cr_assert_float_eq(rel, res / fmax(qn, sqrt(un)), 1e-12 * rel, "%.17g", rel);
        cr_assert_gt(res, 1e-3, "a random r is no solution: residual %g", res);
        cr_assert_float_eq(serr, res, 1e-12 * res, "Siconos %.17g, touche %.17g", serr, res);
        cr_assert_float_eq(merit * (1 + sqrt(qn)), res, 1e-12 * res, "FCLIB %.17g x (1 + %g)",
                           merit, sqrt(qn));
        tc_fc_problem_free(p);
    }
}

/* u = W r + q as built; W symmetric (H M^-1 H^T) */
Test(fclib, built_problem_is_symmetric_and_consistent) {
    tc_fc_problem *p = random_problem(10, 4, 3);
    double *W = malloc((size_t)p->n * (size_t)p->n * sizeof *W);
    cr_assert_eq(tc_fc_dense(p, W), TC_OK);
    for (int i = 0; i < p->n; i++) {
        cr_assert_gt(W[(size_t)i * (size_t)p->n + (size_t)i], 0.0);
        for (int j = 0; j < p->n; j++)
            cr_assert_float_eq(W[(size_t)i * (size_t)p->n + (size_t)j],
                               W[(size_t)j * (size_t)p->n + (size_t)i], 1e-12);
    }
    double *u = malloc((size_t)p->n * sizeof *u);
    tc_fc_problem_velocity(p, p->r, u);
    cr_assert_eq(memcmp(u, p->u, (size_t)p->n * sizeof *u), 0);
    free(u);
    free(W);
    tc_fc_problem_free(p);
}

/* a sliding box under each velocity-level solver: --dump-problems writes its steps' problems;
 * each reads back with three rows per corner, and the solver's own impulses solve it (the
 * cone's NSGS to its tolerance; the LCP's pyramid exactly while the box slides along t1, as its
 * frame has it) */
Test(fclib, dumped_steps_of_lcp_and_vp_hold_their_solutions) {
    const char *solvers[] = {"lcp-lemke", "vp"};
    char *dir = tmpdir();
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_sim_dump_problems(dir, 10, 2, &err), TC_OK, "%s", err.msg);
    for (int k = 0; k < 2; k++) {
        tc_scene sc = block_scene(0.5, 1.0);
        tc_method m = method(solvers[k]);
        tc_sim_dump_label(solvers[k]);
        tc_sim *sim;
        cr_assert_eq(tc_sim_alloc(&sim, &sc, &m, DT, NULL), TC_OK);
        for (int i = 0; i < 30; i++)
            cr_assert_eq(tc_sim_step(sim), TC_OK);
        tc_sim_free(sim);
        for (int step = 10; step <= 30; step += 10) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s-box-plane_%s-sim0-step%07d.hdf5", dir, solvers[k],
                     solvers[k], step);
            tc_fc_problem *p = NULL;
            tc_status st = tc_fclib_read(path, &p, NULL, &err);
            if (step == 30) {
                /* --dump-max 2: the third chosen step is not written */
                cr_assert_eq(st, TC_EIO, "%s: %s", path, err.msg);
                continue;
            }
            cr_assert_eq(st, TC_OK, "%s", err.msg);
            cr_assert_eq(p->nc, 4, "%s: %d contacts", solvers[k], p->nc);
            cr_assert(p->has_solution);
            double merit = tc_fclib_merit(p, p->r);
            double rn = 0;
            for (int i = 0; i < p->nc; i++)
                rn += p->r[3 * i];
            cr_log_info("%s step %d: merit %.3g, normal impulses %.6g N s", solvers[k], step, merit,
                        rn);
            cr_assert_lt(merit, 1e-9, "%s step %d: merit %g", solvers[k], step, merit);
            /* the impulses carry the box's weight over the step (it slides on the plane) */
            cr_assert_float_eq(rn, 10 * 9.81 * DT, 1e-6, "%s: %g N s", solvers[k], rn);
            tc_fc_problem_free(p);
        }
    }
    tc_sim_dump_problems(NULL, 1, 1, NULL);
}

/* a folder that takes no file is refused up front, naming it */
Test(fclib, unwritable_dump_folder_is_refused) {
    tc_error err;
    tc_error_clear(&err);
    char path[256];
    snprintf(path, sizeof path, "%s/file", tmpdir());
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    /* a file where the folder should be */
    cr_assert_neq(tc_sim_dump_problems(path, 1, 1, &err), TC_OK);
    cr_assert(strstr(err.file, "file") || strstr(err.msg, "file"), "%s | %s", err.file, err.msg);
}

/* write a problem with FCLIB directly (for files touche's writer would not make) */
static void write_raw(const char *path, int m, int n, double mu0, double q0) {
    int p[7] = {0, 1, 2, 3, 3, 3, 3}, i[3] = {0, 1, 2};
    double x[3] = {1, 1, 1}, q[6] = {q0, 0, 0, 0, 0, 0}, mu[2] = {mu0, 0.5};
    struct fclib_matrix W = {.nzmax = 3, .m = m, .n = n, .p = p, .i = i, .x = x, .nz = -1};
    struct fclib_local loc = {.W = &W, .mu = mu, .q = q, .spacedim = 3};
    cr_assert_eq(fclib_write_local(&loc, path), 1);
}

/* malformed input: each refused with TC_EPARSE (or TC_EIO), naming the file and the field */
Test(fclib, malformed_files_are_refused_naming_file_and_field) {
    char *dir = tmpdir();
    char path[256];
    tc_error err;
    tc_fc_problem *p = NULL;
    /* not HDF5 at all */
    snprintf(path, sizeof path, "%s/garbage.hdf5", dir);
    FILE *f = fopen(path, "w");
    fputs("this is no HDF5 file\n", f);
    fclose(f);
    tc_error_clear(&err);
    cr_assert_eq(tc_fclib_read(path, &p, NULL, &err), TC_EPARSE);
    cr_assert_str_eq(err.file, path);
    /* missing */
    snprintf(path, sizeof path, "%s/missing.hdf5", dir);
    tc_error_clear(&err);
    cr_assert_eq(tc_fclib_read(path, &p, NULL, &err), TC_EIO);
    cr_assert_str_eq(err.file, path);
    /* a valid file cut at every 64th byte: never accepted, never a crash */
    tc_fc_problem *good = random_problem(6, 3, 11);
    snprintf(path, sizeof path, "%s/good.hdf5", dir);
    cr_assert_eq(tc_fclib_write(path, good, "t", "d", &err), TC_OK);
    size_t len;
    unsigned char *img = slurp(path, &len);
    int refused = 0, tried = 0;
    for (size_t cut = 0; cut < len; cut += 64) {
        tried++;
        tc_error_clear(&err);
        tc_status st = tc_fclib_read_image(img, cut, "cut.hdf5", &p, NULL, &err);
        if (st == TC_OK) {
            /* a cut past everything the reader needs may still hold the whole problem */
            assert_same(good, p);
            tc_fc_problem_free(p);
            continue;
        }
        refused++;
        cr_assert_str_eq(err.file, "cut.hdf5");
        cr_assert_null(p);
    }
    cr_log_info("truncated copies: %d of %d refused", refused, tried);
    cr_assert_gt(refused, tried / 2);
    free(img);
    tc_fc_problem_free(good);
    /* a negative friction coefficient, a non-finite q, a non-square W */
    struct {
        int m, n;
        double mu, q;
        const char *field;
    } bad[] = {{6, 6, -0.5, 0, "mu"}, {6, 6, 0.5, NAN, "q"}, {6, 3, 0.5, 0, "fclib_local/W"}};
    for (int k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/bad%d.hdf5", dir, k);
        write_raw(path, bad[k].m, bad[k].n, bad[k].mu, bad[k].q);
        tc_error_clear(&err);
        cr_assert_eq(tc_fclib_read(path, &p, NULL, &err), TC_EPARSE, "case %d", k);
        cr_assert_str_eq(err.file, path);
        cr_assert_str_eq(err.param, bad[k].field, "case %d: %s (%s)", k, err.param, err.msg);
    }
    /* the same file, good: accepted, W's diagonal as written */
    snprintf(path, sizeof path, "%s/ok.hdf5", dir);
    write_raw(path, 6, 6, 0.5, 0);
    cr_assert_eq(tc_fclib_read(path, &p, NULL, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(p->nnz, 3);
    cr_assert_not(p->has_solution);
    tc_fc_problem_free(p);
}

/* touche's solvers on a raw problem: NSGS meets its tolerance, the pyramid's LCP is solved and
 * its impulses stay in the cone (the pyramid lies inside it) */
Test(fclib, solvers_on_a_raw_problem) {
    tc_fc_problem *p = random_problem(6, 4, 5);
    double *r = malloc(2 * (size_t)p->n * sizeof *r), *u = r + p->n;
    tc_fc_result res;
    cr_assert_eq(tc_fc_solve_nsgs(p, NULL, 1e-10, 10000, r, u, &res), TC_OK);
    double qn = 0, serr;
    for (int i = 0; i < p->n; i++)
        qn += p->q[i] * p->q[i];
    cr_assert_eq(tc_fc_siconos_error(p, r, sqrt(qn), &serr), TC_OK);
    cr_log_info("nsgs: info %d, %lld sweeps, error %.3g, merit %.3g", res.info, res.iters, serr,
                tc_fclib_merit(p, r));
    cr_assert_eq(res.info, 0);
    cr_assert_leq(serr, 1e-10);
    cr_assert_eq(tc_fc_solve_pyramid(p, 1e-10, 10000, r, u, &res), TC_OK);
    cr_assert_eq(res.info, 0);
    for (int i = 0; i < p->nc; i++) {
        cr_assert_geq(r[3 * i], 0.0);
        cr_assert_leq(fabs(r[3 * i + 1]) + fabs(r[3 * i + 2]), p->mu[i] * r[3 * i] + 1e-9,
                      "contact %d: |r_t|_1 = %g, mu r_n = %g", i,
                      fabs(r[3 * i + 1]) + fabs(r[3 * i + 2]), p->mu[i] * r[3 * i]);
        cr_assert_geq(u[3 * i], -1e-9, "contact %d approaches at %g m/s", i, u[3 * i]);
    }
    free(r);
    tc_fc_problem_free(p);
}
