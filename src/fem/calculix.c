/* SPDX-License-Identifier: MIT */
/* CalculiX (ccx) driver for E3: deck writer, runner, .dat parser, closed form and curve cache */
#include "fem/tc_fem.h"
#include "core/tc_csv.h"
#include "core/tc_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* model constants shared by the deck and the provenance lines */
#define FEM_INDENTER_H      0.1  /* height of the indenter's element row (1) */
#define FEM_INDENTER_EXT    0.1  /* indenter overhang beyond each side, fraction of the period */
#define FEM_INDENTER_REFINE 4    /* indenter facets per layer element along the period */
#define FEM_PENALTY         1e5  /* pressure-overclosure slope (E / length) */
#define FEM_TENSION         1e-3 /* tension at large clearance (E), node-to-face parameter */

tc_fem_sinusoid tc_default_fem_sinusoid(void) {
    tc_fem_sinusoid p;
    p.eta = 0.0;
    p.wavelength = 2.0 * M_PI / 3.0;
    p.thickness = 1.0;
    p.nu = 0.3;
    p.E = 1.0;
    p.depth = 0.4;
    p.nsteps = 20;
    p.nx = 24;
    p.ny = 16;
    return p;
}

/* material constants of CalculiX's neo-Hooke from (E, nu): C10 = mu / 2, D1 = 2 / K */
static void neo_hooke(const tc_fem_sinusoid *p, double *c10, double *d1) {
    double mu = p->E / (2.0 * (1.0 + p->nu));
    double K = p->E / (3.0 * (1.0 - 2.0 * p->nu));
    *c10 = 0.5 * mu;
    *d1 = 2.0 / K;
}

/*
 * closed form for eta = 0. CalculiX's compressible neo-Hooke energy is
 *   W = C10 (I1b - 3) + (J - 1)^2 / D1,   I1b = J^(-2/3) tr B,   B = F F^T,
 * whose Cauchy stress is
 *   sigma = (2 C10 / J) dev(Bb) + (2 / D1) (J - 1) I,   Bb = J^(-2/3) B.
 * Uniaxial strain along y (bottom fixed, rollers on the sides, frictionless top): F = diag(1, s, 1)
 * with s = 1 - d / thickness, so J = s, B = diag(1, s^2, 1), tr Bb = J^(-2/3) (s^2 + 2) and
 *   dev(Bb)_yy = J^(-2/3) (s^2 - (s^2 + 2) / 3) = (2/3) J^(-2/3) (s^2 - 1),
 *   sigma_yy = (4 C10 / 3) s^(-5/3) (s^2 - 1) + (2 / D1) (s - 1)   (< 0 in compression).
 * The lateral stretch is 1, so the current top area per unit out-of-plane width over one period is
 * the wavelength, and the compressive force is F = -sigma_yy * wavelength (nominal = Cauchy here).
 * Small d: F ~ (4 mu / 3 + K) (d / thickness) * wavelength, the P-wave modulus.
 */
double tc_fem_uniaxial_force(const tc_fem_sinusoid *p, double d) {
    double c10, d1;
    neo_hooke(p, &c10, &d1);
    double s = 1.0 - d / p->thickness;
    double syy = (4.0 * c10 / 3.0) * pow(s, -5.0 / 3.0) * (s * s - 1.0) + (2.0 / d1) * (s - 1.0);
    return -syy * p->wavelength;
}

int tc_fem_have_ccx(void) {
    char buf[1024];
    return tc_find_program("ccx", buf, sizeof buf);
}

/* check the parameters before any file is written */
static tc_status check_params(const tc_fem_sinusoid *p, tc_error *err) {
    if (!(p->eta >= 0.0 && p->eta < 10.0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "eta", "eta = %g must be in [0, 10)", p->eta);
    if (!(p->wavelength > 0.0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "wavelength", "wavelength = %g must be > 0",
                            p->wavelength);
    if (!(p->thickness > 0.0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "thickness", "thickness = %g must be > 0",
                            p->thickness);
    if (!(p->E > 0.0))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "E", "E = %g must be > 0", p->E);
    if (!(p->nu > -1.0 && p->nu < 0.5))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "nu", "nu = %g must be in (-1, 0.5)", p->nu);
    if (!(p->depth > 0.0 && p->depth < p->thickness))
        return tc_error_set(err, TC_EINVAL, NULL, 0, "depth",
                            "depth = %g must be in (0, thickness = %g)", p->depth, p->thickness);
    if (p->nsteps < 1 || p->nsteps > TC_FEM_MAXSTEP)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "nsteps", "nsteps = %d must be in [1, %d]",
                            p->nsteps, TC_FEM_MAXSTEP);
    if (p->nx < 1 || p->ny < 1 || p->nx > 2000 || p->ny > 2000)
        return tc_error_set(err, TC_EINVAL, NULL, 0, "nx", "mesh %d x %d must be in [1, 2000]^2",
                            p->nx, p->ny);
    return TC_OK;
}

/* out-of-plane thickness of the one-element-thick slab: the layer's element width */
static double slab_width(const tc_fem_sinusoid *p) {
    return p->wavelength / p->nx;
}

/* node ids: layer (i, j, k) on an (nx+1) x (ny+1) x 2 grid, then the indenter's (i, j, k) */
static long layer_node(const tc_fem_sinusoid *p, int i, int j, int k) {
    return 1 + (long)k * (p->nx + 1) * (p->ny + 1) + (long)j * (p->nx + 1) + i;
}
static long indenter_node(const tc_fem_sinusoid *p, int mx, int i, int j, int k) {
    long base = 2L * (p->nx + 1) * (p->ny + 1);
    return base + 1 + (long)k * (mx + 1) * 2 + (long)j * (mx + 1) + i;
}

/* write a list of ids, 8 per line, as *NSET / *ELSET data lines */
static void write_ids(FILE *f, const long *ids, long n) {
    for (long i = 0; i < n; i++)
        fprintf(f, "%ld%s", ids[i], (i % 8 == 7 || i == n - 1) ? "\n" : ", ");
}

/* the input deck: layer of C3D8 one element thick (u_z = 0), indenter row of C3D8 moved rigidly */
static tc_status write_deck(const char *path, const tc_fem_sinusoid *p, tc_error *err) {
    FILE *f = fopen(path, "w");
    if (!f)
        return tc_error_set(err, TC_EIO, path, 0, NULL, "cannot write %s: %s", path,
                            strerror(errno));
    double c10, d1;
    neo_hooke(p, &c10, &d1);
    const int nx = p->nx, ny = p->ny;
    const double w = slab_width(p), lam = p->wavelength, t = p->thickness;
    const double ext = FEM_INDENTER_EXT * lam, kw = 2.0 * M_PI / lam;
    const int over = (int)ceil(FEM_INDENTER_EXT * FEM_INDENTER_REFINE * nx);
    const int mx = FEM_INDENTER_REFINE * nx + 2 * over;
    long *ids = malloc(sizeof *ids * (size_t)(2 * (nx + 1) * (ny + 1) + 4 * (mx + 1) + 16));
    if (!ids) {
        fclose(f);
        return tc_error_set(err, TC_ENOMEM, NULL, 0, NULL, "out of memory for the deck");
    }

    /* header and layer nodes (x along the period, y up, z out of plane) */
    fprintf(f,
            "** touche E3: plane-strain layer pressed by a rigid frictionless sinusoid\n"
            "** eta %.17g, wavelength %.17g, thickness %.17g, mesh %d x %d\n*NODE, NSET=NALL\n",
            p->eta, lam, t, nx, ny);
    for (int k = 0; k < 2; k++)
        for (int j = 0; j <= ny; j++)
            for (int i = 0; i <= nx; i++)
                fprintf(f, "%ld, %.17g, %.17g, %.17g\n", layer_node(p, i, j, k), lam * i / nx,
                        t * j / ny, w * k);

    /* indenter nodes: its lower face y = t + eta (1 - cos(2 pi x / lambda)), crest on x = 0 */
    fprintf(f, "*NODE, NSET=NIND\n");
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            for (int i = 0; i <= mx; i++) {
                double x = -ext + (lam + 2.0 * ext) * i / mx;
                double y = t + p->eta * (1.0 - cos(kw * x)) + FEM_INDENTER_H * j;
                fprintf(f, "%ld, %.17g, %.17g, %.17g\n", indenter_node(p, mx, i, j, k), x, y,
                        w * k);
            }

    /* layer elements, standard C3D8 order (face S5 = +y side) */
    fprintf(f, "*ELEMENT, TYPE=C3D8, ELSET=ELAYER\n");
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            fprintf(f, "%d, %ld, %ld, %ld, %ld, %ld, %ld, %ld, %ld\n", 1 + j * nx + i,
                    layer_node(p, i, j, 0), layer_node(p, i + 1, j, 0),
                    layer_node(p, i + 1, j + 1, 0), layer_node(p, i, j + 1, 0),
                    layer_node(p, i, j, 1), layer_node(p, i + 1, j, 1),
                    layer_node(p, i + 1, j + 1, 1), layer_node(p, i, j + 1, 1));

    /* indenter elements (face S3 = -y side, the contact face) */
    fprintf(f, "*ELEMENT, TYPE=C3D8, ELSET=EIND\n");
    for (int i = 0; i < mx; i++)
        fprintf(f, "%d, %ld, %ld, %ld, %ld, %ld, %ld, %ld, %ld\n", 1 + nx * ny + i,
                indenter_node(p, mx, i, 0, 0), indenter_node(p, mx, i + 1, 0, 0),
                indenter_node(p, mx, i + 1, 1, 0), indenter_node(p, mx, i, 1, 0),
                indenter_node(p, mx, i, 0, 1), indenter_node(p, mx, i + 1, 0, 1),
                indenter_node(p, mx, i + 1, 1, 1), indenter_node(p, mx, i, 1, 1));

    /* node sets: bottom, the two sides */
    long n = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i <= nx; i++)
            ids[n++] = layer_node(p, i, 0, k);
    fprintf(f, "*NSET, NSET=NBOT\n");
    write_ids(f, ids, n);
    n = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 1; j <= ny; j++) {
            ids[n++] = layer_node(p, 0, j, k);
            ids[n++] = layer_node(p, nx, j, k);
        }
    fprintf(f, "*NSET, NSET=NSIDE\n");
    write_ids(f, ids, n);

    /* the layer's top row of elements carries the slave face */
    n = 0;
    for (int i = 0; i < nx; i++)
        ids[n++] = 1 + (ny - 1) * nx + i;
    fprintf(f, "*ELSET, ELSET=ETOP\n");
    write_ids(f, ids, n);
    fprintf(f, "*SURFACE, NAME=SLAYER, TYPE=ELEMENT\nETOP, S5\n");
    fprintf(f, "*SURFACE, NAME=SIND, TYPE=ELEMENT\nEIND, S3\n");

    /* materials: neo-Hooke layer; the indenter's is irrelevant (all its nodes are prescribed) */
    fprintf(f, "*MATERIAL, NAME=NEOHOOKE\n*HYPERELASTIC, NEO HOOKE\n%.17g, %.17g\n", c10, d1);
    fprintf(f, "*MATERIAL, NAME=STIFF\n*ELASTIC\n%.17g, 0.3\n", 1000.0 * p->E);
    fprintf(f, "*SOLID SECTION, ELSET=ELAYER, MATERIAL=NEOHOOKE\n");
    fprintf(f, "*SOLID SECTION, ELSET=EIND, MATERIAL=STIFF\n");

    /* frictionless penalty contact (no *FRICTION card), linear pressure-overclosure */
    fprintf(f,
            "*SURFACE INTERACTION, NAME=SI\n*SURFACE BEHAVIOR, PRESSURE-OVERCLOSURE=LINEAR\n"
            "%.17g, %.17g\n",
            FEM_PENALTY * p->E / t, FEM_TENSION * p->E);
    fprintf(f, "*CONTACT PAIR, INTERACTION=SI, TYPE=SURFACE TO SURFACE\nSLAYER, SIND\n");

    /* fixed bottom, rollers on the sides, plane strain (u_z = 0 everywhere) */
    fprintf(f, "*BOUNDARY\nNBOT, 1, 2, 0.\nNSIDE, 1, 1, 0.\nNALL, 3, 3, 0.\nNIND, 1, 1, 0.\n"
               "NIND, 3, 3, 0.\n");

    /* output times: nsteps equal depth increments */
    fprintf(f, "*TIME POINTS, NAME=TP\n");
    for (int s = 1; s <= p->nsteps; s++)
        fprintf(f, "%.12g%s", (double)s / p->nsteps, (s % 8 == 0 || s == p->nsteps) ? "\n" : ", ");

    /* one finite-strain step, the indenter moved down rigidly by depth (linear ramp in time) */
    double dt = 1.0 / p->nsteps;
    fprintf(f, "*STEP, NLGEOM, INC=100000\n*STATIC\n%.12g, 1., %.12g, %.12g\n", dt, 1e-6 * dt, dt);
    fprintf(f, "*BOUNDARY\nNIND, 2, 2, %.17g\n", -p->depth);
    fprintf(f, "*NODE PRINT, NSET=NBOT, TOTALS=ONLY, TIME POINTS=TP\nRF\n");
    fprintf(f, "*END STEP\n");
    free(ids);

    if (ferror(f) | (fclose(f) != 0))
        return tc_error_set(err, TC_EIO, path, 0, NULL, "error writing %s", path);
    return TC_OK;
}

/* the last line of a file that contains key (or the last non-empty line when key is NULL) */
static int last_line_with(const char *path, const char *key, char *buf, size_t n) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *s = line + strspn(line, " \t");
        if (!*s || (key && !strstr(s, key))) continue;
        snprintf(buf, n, "%s", s);
        found = 1;
    }
    fclose(f);
    return found;
}

/* the first line of a file that contains key, joined with the line after it */
static int first_line_with(const char *path, const char *key, char *buf, size_t n) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *s = line + strspn(line, " \t");
        if (!found && strstr(s, key)) {
            snprintf(buf, n, "%s", s);
            found = 1;
        } else if (found && *s) {
            size_t k = strlen(buf);
            snprintf(buf + k, n - k, " %s", s);
            break;
        }
    }
    fclose(f);
    return found;
}

/* run ccx -i job inside dir, stdout and stderr to dir/ccx.log; ccx may exit 0 after an *ERROR,
 * so the log is checked as well as the status */
static tc_status run_ccx(const char *ccx, const char *dir, tc_error *err) {
    char log[1100], msg[400] = "";
    snprintf(log, sizeof log, "%s/ccx.log", dir);
    const char *argv[] = {ccx, "-i", "job", NULL};
    tc_error run;
    tc_error_clear(&run);
    tc_status st = tc_run_logged(argv, NULL, dir, log, 0, &run);
    if (first_line_with(log, "*ERROR", msg, sizeof msg))
        return tc_error_set(err, TC_EENGINE, log, 0, NULL, "ccx failed: %s", msg);
    if (st) return tc_error_set(err, st, log, 0, NULL, "%s", run.msg);
    return TC_OK;
}

/* the force curve from job.dat: "total force (fx,fy,fz) for set NBOT and time t" blocks */
static tc_status parse_dat(const char *path, const tc_fem_sinusoid *p, tc_fem_curve *out,
                           tc_error *err) {
    FILE *f = fopen(path, "r");
    if (!f) return tc_error_set(err, TC_EENGINE, path, 0, NULL, "ccx wrote no %s", path);
    char line[512];
    int lineno = 0;
    double w = slab_width(p);
    out->n = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *key = strstr(line, "total force (fx,fy,fz) for set NBOT and time");
        if (!key) continue;
        double time = strtod(key + strlen("total force (fx,fy,fz) for set NBOT and time"), NULL);

        /* the totals follow on the next non-blank line */
        double fx = 0, fy = 0, fz = 0;
        int got = 0;
        while (!got && fgets(line, sizeof line, f)) {
            lineno++;
            if (strspn(line, " \t\r\n") == strlen(line)) continue;
            got = sscanf(line, "%lf %lf %lf", &fx, &fy, &fz) == 3;
            if (!got) break;
        }
        if (!got) {
            fclose(f);
            return tc_error_set(err, TC_EPARSE, path, lineno, NULL,
                                "expected three force totals after the header");
        }
        if (out->n >= TC_FEM_MAXSTEP) break;

        /* reaction on the bottom = force the layer carries; per unit out-of-plane width */
        out->depth[out->n] = time * p->depth;
        out->force[out->n] = fy / w;
        out->n++;
    }
    fclose(f);
    if (out->n != p->nsteps)
        return tc_error_set(err, TC_EENGINE, path, 0, NULL,
                            "ccx reported %d of %d increments (did it stop early?)", out->n,
                            p->nsteps);
    return TC_OK;
}

/* copy every file of dir into keep (created if needed) */
static tc_status keep_files(const char *dir, const char *keep, tc_error *err) {
    if (mkdir(keep, 0755) != 0 && errno != EEXIST)
        return tc_error_set(err, TC_EIO, keep, 0, NULL, "cannot create %s: %s", keep,
                            strerror(errno));
    DIR *d = opendir(dir);
    if (!d) return tc_error_set(err, TC_EIO, dir, 0, NULL, "cannot list %s", dir);
    struct dirent *e;
    tc_status st = TC_OK;
    while ((e = readdir(d)) && st == TC_OK) {
        if (e->d_name[0] == '.') continue;
        char a[1400], b[1400];
        snprintf(a, sizeof a, "%s/%s", dir, e->d_name);
        snprintf(b, sizeof b, "%s/%s", keep, e->d_name);
        FILE *in = fopen(a, "rb"), *out = in ? fopen(b, "wb") : NULL;
        if (!in || !out) {
            st = tc_error_set(err, TC_EIO, b, 0, NULL, "cannot copy %s to %s", a, b);
        } else {
            char buf[65536];
            size_t k;
            while ((k = fread(buf, 1, sizeof buf, in)) > 0)
                if (fwrite(buf, 1, k, out) != k) {
                    st = tc_error_set(err, TC_EIO, b, 0, NULL, "cannot write %s", b);
                    break;
                }
        }
        if (in) fclose(in);
        if (out && fclose(out) != 0 && st == TC_OK)
            st = tc_error_set(err, TC_EIO, b, 0, NULL, "cannot write %s", b);
    }
    closedir(d);
    return st;
}

tc_status tc_fem_sinusoid_solve(const tc_fem_sinusoid *p, tc_fem_curve *out, const char *keep_dir,
                                tc_error *err) {
    memset(out, 0, sizeof *out);
    tc_status st = check_params(p, err);
    if (st != TC_OK) return st;
    char ccx[1024];
    if (!tc_find_program("ccx", ccx, sizeof ccx))
        return tc_error_set(err, TC_EIO, NULL, 0, "ccx",
                            "CalculiX 'ccx' not found in PATH: install Debian's calculix-ccx or "
                            "use the cached curves");

    /* a fresh scratch folder (one a killed run left goes first) */
    char dir[1024];
    if ((st = tc_scratch_dir("fem", dir, sizeof dir, err))) return st;

    /* deck, run, parse */
    char path[1100];
    snprintf(path, sizeof path, "%s/job.inp", dir);
    st = write_deck(path, p, err);
    if (st == TC_OK) st = run_ccx(ccx, dir, err);
    if (st == TC_OK) {
        snprintf(path, sizeof path, "%s/job.dat", dir);
        st = parse_dat(path, p, out, err);
    }

    /* the solver's version from its banner */
    char line[400];
    snprintf(path, sizeof path, "%s/ccx.log", dir);
    snprintf(out->ccx_version, sizeof out->ccx_version, "unknown");
    if (last_line_with(path, "Version", line, sizeof line)) {
        const char *v = strstr(line, "Version");
        char ver[32];
        if (sscanf(v, "Version %31[0-9.]", ver) == 1)
            snprintf(out->ccx_version, sizeof out->ccx_version, "%s", ver);
    }

    /* keep the files on request, then clean up */
    if (keep_dir && *keep_dir) {
        tc_error e2;
        tc_error_clear(&e2);
        tc_status k = keep_files(dir, keep_dir, &e2);
        if (k != TC_OK && st == TC_OK) {
            *err = e2;
            st = k;
        }
    }
    tc_scratch_done(dir);
    if (st != TC_OK) out->n = 0;
    return st;
}

/* provenance text of the model, one line per item, shared by the cache writer */
static void write_provenance(FILE *f, const tc_fem_curve *c, const double *etas, int n,
                             const tc_fem_sinusoid *p) {
    double c10, d1;
    neo_hooke(p, &c10, &d1);
    char date[32] = "unknown";
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    fprintf(f, "# touche E3 FEM reference: plane-strain layer pressed by a rigid frictionless "
               "sinusoid\n");
    fprintf(f,
            "# solver: CalculiX ccx %s, one *STEP NLGEOM *STATIC, outputs at equal depth "
            "increments\n",
            c[0].ccx_version);
    fprintf(f,
            "# geometry: wavelength %.17g, thickness %.17g, bottom fixed, roller sides, rigid "
            "surface y = thickness + eta (1 - cos(2 pi x / wavelength)) - depth\n",
            p->wavelength, p->thickness);
    fprintf(f,
            "# mesh: %d x %d C3D8 (one element thick, u_z = 0: plane strain); indenter: one "
            "row of C3D8, %d facets per layer element, all nodes prescribed (rigid)\n",
            p->nx, p->ny, FEM_INDENTER_REFINE);
    fprintf(f, "# material: *HYPERELASTIC NEO HOOKE C10 = %.10g, D1 = %.10g (E = %g, nu = %g)\n",
            c10, d1, p->E, p->nu);
    fprintf(f,
            "# contact: frictionless surface-to-surface penalty, linear pressure-overclosure "
            "slope %g E/thickness\n",
            FEM_PENALTY);
    fprintf(f, "# depth: from first touch (the crest); from the sinusoid's mean level it is "
               "depth - eta\n");
    fprintf(f, "# force: normal force per unit out-of-plane width over one period (E x "
               "thickness), the bottom's reaction\n");
    for (int k = 0; k < n; k++)
        fprintf(f, "# curve: eta %g, %d points to depth %g\n", etas[k], c[k].n,
                c[k].n ? c[k].depth[c[k].n - 1] : 0.0);
    fprintf(f, "# date: %s (UTC)\n# regenerate: touche generate e3\n", date);
}

tc_status tc_fem_write_cache(const char *path, const tc_fem_curve *curves, const double *etas,
                             int n, const tc_fem_sinusoid *p, tc_error *err) {
    if (n < 1) return tc_error_set(err, TC_EINVAL, path, 0, NULL, "no curves to write");

    /* written to a temp file next to the target and renamed over it */
    tc_outfile o;
    tc_status st = tc_outfile_open(&o, path, err);
    if (st) return st;
    write_provenance(o.f, curves, etas, n, p);
    fprintf(o.f, "eta,depth,force\n");
    for (int c = 0; c < n; c++)
        for (int i = 0; i < curves[c].n; i++)
            fprintf(o.f, "%.6g,%.10g,%.10g\n", etas[c], curves[c].depth[i], curves[c].force[i]);
    return tc_outfile_commit(&o, err);
}

/* the solver version of a provenance line ("# ... CalculiX ccx 2.20, ..."), kept in ctx */
static void cache_version(void *ctx, const char *line) {
    const char *v = strstr(line, "CalculiX ccx ");
    if (v) sscanf(v + strlen("CalculiX ccx "), "%31[^, ]", (char *)ctx);
}

tc_status tc_fem_read_cache(const char *path, tc_fem_curve *curves, double *etas, int max, int *n,
                            tc_error *err) {
    /* eta and depth in the layer's thickness, force in E x length (tc_fem_curve) */
    static const tc_csv_column col[] = {{"eta", TC_CSV_REAL, 0, 10},
                                        {"depth", TC_CSV_REAL, 0, 10},
                                        {"force", TC_CSV_REAL, -1e9, 1e9}};
    char ver[32] = "unknown";
    tc_csv_reader r;
    *n = 0;
    tc_status st = tc_csv_open(&r, path, ',', col, 3, cache_version, ver, err);
    if (st) return st;
    double v[3];
    int got;
    /* rows: curves in increasing eta, each in increasing depth; a new eta opens a new curve */
    while (!(st = tc_csv_next(&r, v, &got, err)) && got) {
        if (*n && v[0] < etas[*n - 1]) {
            st = tc_error_set(err, TC_EPARSE, path, r.line, NULL,
                              "column 'eta': %g after %g (curves in increasing eta, each once)",
                              v[0], etas[*n - 1]);
            break;
        }
        if (*n == 0 || etas[*n - 1] != v[0]) {
            if (*n >= max) {
                st = tc_error_set(err, TC_EPARSE, path, r.line, NULL,
                                  "more than %d curves in the cache", max);
                break;
            }
            etas[*n] = v[0];
            memset(&curves[*n], 0, sizeof curves[*n]);
            (*n)++;
        }
        tc_fem_curve *c = &curves[*n - 1];
        if (c->n >= TC_FEM_MAXSTEP) {
            st = tc_error_set(err, TC_EPARSE, path, r.line, NULL,
                              "more than %d depths in one curve", TC_FEM_MAXSTEP);
            break;
        }
        if (c->n && !(v[1] > c->depth[c->n - 1])) {
            st = tc_error_set(err, TC_EPARSE, path, r.line, NULL,
                              "column 'depth': %g after %g (depths increase along a curve)", v[1],
                              c->depth[c->n - 1]);
            break;
        }
        c->depth[c->n] = v[1];
        c->force[c->n] = v[2];
        c->n++;
    }
    int last = r.line;
    tc_csv_close(&r);
    if (st == TC_OK && *n == 0) st = tc_error_set(err, TC_EPARSE, path, last, NULL, "no data rows");
    for (int c = 0; c < *n; c++)
        snprintf(curves[c].ccx_version, sizeof curves[c].ccx_version, "%s", ver);
    if (st != TC_OK) *n = 0;
    return st;
}
