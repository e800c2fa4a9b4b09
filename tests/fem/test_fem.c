/* SPDX-License-Identifier: MIT */
/* E3 FEM reference: CalculiX against the uniaxial closed form, mesh convergence, failures, cache */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fem/tc_fem.h"

/* a scratch dir under the test's working directory (the build tree) */
static void scratch(char *buf, size_t n, const char *name) {
    snprintf(buf, n, "fem_scratch_%s_%ld", name, (long)getpid());
    mkdir(buf, 0755);
}

/* remove a scratch dir and the files the tests put there */
static void unscratch(const char *dir) {
    const char *names[] = {"ccx", "e3_fem.csv"};
    char path[512];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* an executable "ccx" script in dir with the given body */
static void fake_ccx(const char *dir, const char *body) {
    char path[512];
    snprintf(path, sizeof path, "%s/ccx", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    chmod(path, 0755);
}

/* point PATH at dir only (each Criterion test runs in its own process) */
static void only_path(const char *dir) {
    char abs[1024];
    cr_assert(realpath(dir, abs), "realpath %s", dir);
    setenv("PATH", abs, 1);
}

Test(fem, closed_form_is_the_p_wave_modulus_at_small_strain) {
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    double M = p.E * (1 - p.nu) / ((1 + p.nu) * (1 - 2 * p.nu));
    double d = 1e-6;
    cr_assert_float_eq(tc_fem_uniaxial_force(&p, d) / (M * d * p.wavelength), 1.0, 1e-5);
    cr_assert_float_eq(tc_fem_uniaxial_force(&p, 0.0), 0.0, 1e-15);
    /* stiffening in compression: secant modulus grows with depth */
    cr_assert_gt(tc_fem_uniaxial_force(&p, 0.4) / 0.4, tc_fem_uniaxial_force(&p, 0.1) / 0.1);
}

Test(fem, flat_layer_matches_the_uniaxial_closed_form) {
    if (!tc_fem_have_ccx()) cr_skip_test("ccx (CalculiX) not installed: install calculix-ccx");
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    p.eta = 0.0;
    p.nx = 6;
    p.ny = 4;
    p.nsteps = 10;
    tc_fem_curve c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(c.n, 10);
    cr_assert_str_neq(c.ccx_version, "unknown");
    for (int i = 0; i < c.n; i++) {
        double exact = tc_fem_uniaxial_force(&p, c.depth[i]);
        cr_assert_float_eq(c.depth[i], 0.04 * (i + 1), 1e-9);
        cr_assert_lt(fabs(c.force[i] / exact - 1.0), 0.005, "d = %g: ccx %.6g, closed form %.6g",
                     c.depth[i], c.force[i], exact);
    }
}

Test(fem, sinusoid_force_converges_with_the_mesh) {
    if (!tc_fem_have_ccx()) cr_skip_test("ccx (CalculiX) not installed: install calculix-ccx");
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    p.eta = 0.333;
    p.nsteps = 8;
    double f[2];
    int mesh[2][2] = {{12, 8}, {24, 16}};
    for (int m = 0; m < 2; m++) {
        p.nx = mesh[m][0];
        p.ny = mesh[m][1];
        tc_fem_curve c;
        tc_error err;
        tc_error_clear(&err);
        cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_OK, "%d x %d: %s", p.nx, p.ny,
                     err.msg);
        cr_assert_float_eq(c.depth[c.n - 1], 0.4, 1e-12);
        f[m] = c.force[c.n - 1];
    }
    /* 12 x 8 vs 24 x 16 differ by about 1.4 % (48 x 32 is within 0.2 % of 24 x 16) */
    double rel = fabs(f[0] / f[1] - 1.0);
    cr_log_info("eta 0.333, d 0.4: 12x8 %.6g, 24x16 %.6g, difference %.2f %%", f[0], f[1],
                100 * rel);
    cr_assert_lt(rel, 0.025, "12x8 %.6g vs 24x16 %.6g: %.2f %%", f[0], f[1], 100 * rel);
    /* a sinusoid carries less than the flat layer at the same depth */
    cr_assert_lt(f[1], tc_fem_uniaxial_force(&p, 0.4));
}

Test(fem, failing_ccx_is_an_engine_error) {
    char dir[256];
    scratch(dir, sizeof dir, "fail");
    fake_ccx(dir, "echo ' *ERROR fake ccx: deck rejected'\nexit 1");
    only_path(dir);
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    p.nx = 4;
    p.ny = 2;
    tc_fem_curve c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_EENGINE);
    unscratch(dir);
    cr_assert(strstr(err.msg, "fake ccx: deck rejected"), "message: %s", err.msg);
    cr_assert_eq(c.n, 0);
}

Test(fem, ccx_without_output_is_an_engine_error) {
    char dir[256];
    scratch(dir, sizeof dir, "silent");
    fake_ccx(dir, "exit 0");
    only_path(dir);
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    tc_fem_curve c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_EENGINE);
    unscratch(dir);
    cr_assert(strstr(err.msg, "job.dat"), "message: %s", err.msg);
}

Test(fem, invalid_parameters_are_refused_before_ccx) {
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    p.nu = 0.5;
    tc_fem_curve c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_EINVAL);
    cr_assert_str_eq(err.param, "nu");
}

Test(fem, missing_ccx_is_an_io_error) {
    char dir[256];
    scratch(dir, sizeof dir, "empty");
    only_path(dir);
    cr_assert_eq(tc_fem_have_ccx(), 0);
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    tc_fem_curve c;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_sinusoid_solve(&p, &c, NULL, &err), TC_EIO);
    unscratch(dir);
    cr_assert(strstr(err.msg, "ccx") && strstr(err.msg, "not found"), "message: %s", err.msg);
}

Test(fem, cache_round_trip) {
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    static tc_fem_curve c[2], r[3];
    double etas[2] = {0.0, 0.333}, reta[3];
    for (int k = 0; k < 2; k++) {
        c[k].n = 5;
        snprintf(c[k].ccx_version, sizeof c[k].ccx_version, "2.20");
        for (int i = 0; i < 5; i++) {
            c[k].depth[i] = 0.08 * (i + 1);
            c[k].force[i] = (k + 1) * 0.123456789 * (i + 1);
        }
    }
    char dir[256], path[512];
    scratch(dir, sizeof dir, "cache");
    snprintf(path, sizeof path, "%s/e3_fem.csv", dir);
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_write_cache(path, c, etas, 2, &p, &err), TC_OK, "%s", err.msg);
    int n = 0;
    cr_assert_eq(tc_fem_read_cache(path, r, reta, 3, &n, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(n, 2);
    for (int k = 0; k < 2; k++) {
        cr_assert_float_eq(reta[k], etas[k], 1e-12);
        cr_assert_eq(r[k].n, 5);
        cr_assert_str_eq(r[k].ccx_version, "2.20");
        for (int i = 0; i < 5; i++)
            cr_assert_float_eq(r[k].force[i], c[k].force[i], 1e-9);
    }

    /* a malformed row names its line */
    FILE *f = fopen(path, "a");
    fprintf(f, "0.5,oops\n");
    fclose(f);
    cr_assert_eq(tc_fem_read_cache(path, r, reta, 3, &n, &err), TC_EPARSE);
    unscratch(dir);
    cr_assert_gt(err.line, 10);
    cr_assert_eq(n, 0);
}

/* linear interpolation of a curve at depth d (NaN outside) */
static double at_depth(const tc_fem_curve *c, double d) {
    for (int i = 0; i + 1 < c->n; i++)
        if (d >= c->depth[i] - 1e-12 && d <= c->depth[i + 1] + 1e-12) {
            double t = (d - c->depth[i]) / (c->depth[i + 1] - c->depth[i]);
            return (1 - t) * c->force[i] + t * c->force[i + 1];
        }
    return NAN;
}

Test(fem, committed_cache_reads_and_is_sane) {
    const char *src = getenv("TOUCHE_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/data/e3_fem.csv", src ? src : ".");
    if (access(path, R_OK) != 0) cr_skip_test("%s not present", path);
    static tc_fem_curve r[8];
    double eta[8];
    int n = 0;
    tc_error err;
    tc_error_clear(&err);
    cr_assert_eq(tc_fem_read_cache(path, r, eta, 8, &n, &err), TC_OK, "%s", err.msg);
    cr_assert_eq(n, 3);
    tc_fem_sinusoid p = tc_default_fem_sinusoid();
    /* the flat curve is the closed form; larger amplitudes carry less */
    for (int i = 0; i < r[0].n; i++)
        cr_assert_lt(fabs(r[0].force[i] / tc_fem_uniaxial_force(&p, r[0].depth[i]) - 1), 0.005);
    double f[3];
    for (int k = 0; k < 3; k++)
        f[k] = at_depth(&r[k], 0.4);
    cr_assert_gt(f[0], f[1]);
    cr_assert_gt(f[1], f[2]);
    cr_assert_gt(f[2], 0.0);
}
