/* SPDX-License-Identifier: MIT */
/* FEM reference for E3: a 2-D plane-strain compliant layer pressed by a rigid sinusoid, solved by
 * CalculiX (ccx) with a compressible neo-Hookean material at finite strain */
#ifndef TC_FEM_H
#define TC_FEM_H

#include "core/tc_status.h"

#define TC_FEM_MAXSTEP 256

/* the problem (lengths in the layer's units: thickness 1) */
typedef struct tc_fem_sinusoid {
    double eta;        /* amplitude of the rigid sinusoid (1) */
    double wavelength; /* one period, 2 pi / 3 (1) */
    double thickness;  /* layer thickness, 1 */
    double nu;         /* Poisson's ratio (small-strain equivalent), 0.3 */
    double E;          /* Young's modulus (small-strain equivalent), 1 (forces scale with it) */
    double depth;      /* largest depth (1), measured from first touch (the crest) */
    int nsteps;        /* load increments up to depth */
    int nx, ny;        /* elements along the period and through the thickness */
} tc_fem_sinusoid;

/* defaults: eta 0, wavelength 2 pi / 3, thickness 1, nu 0.3, E 1, depth 0.4, 20 steps, 24 x 16 */
tc_fem_sinusoid tc_default_fem_sinusoid(void);

/* a force curve: normal force per unit out-of-plane width over one period at each depth */
typedef struct tc_fem_curve {
    int n;
    double depth[TC_FEM_MAXSTEP]; /* from first touch (1) */
    double force[TC_FEM_MAXSTEP]; /* (E x length) */
    char ccx_version[32];
} tc_fem_curve;

/* 1 when the ccx program can be run */
int tc_fem_have_ccx(void);

/* write the deck, run ccx in a fresh temp directory (removed afterwards unless keep_dir is
 * given), parse the reaction forces; TC_EENGINE with ccx's last message on failure, TC_EIO when
 * ccx is missing */
tc_status tc_fem_sinusoid_solve(const tc_fem_sinusoid *p, tc_fem_curve *out, const char *keep_dir,
                                tc_error *err);

/* closed form: nominal force per unit width of the flat (eta = 0) layer in uniaxial strain,
 * stretch 1 - d/thickness, for the material tc_fem_sinusoid_solve uses */
double tc_fem_uniaxial_force(const tc_fem_sinusoid *p, double d);

/* write curves (one per eta) to a CSV cache "eta,depth,force" with '#' provenance lines (ccx
 * version, mesh, material, contact, depth convention, UTC date); atomic (temp file + rename) */
tc_status tc_fem_write_cache(const char *path, const tc_fem_curve *curves, const double *etas,
                             int n, const tc_fem_sinusoid *p, tc_error *err);

/* read a cache written by tc_fem_write_cache: up to max curves, in file order, into curves and
 * etas; *n the number read; ccx_version from the provenance; TC_EIO / TC_EPARSE on failure */
tc_status tc_fem_read_cache(const char *path, tc_fem_curve *curves, double *etas, int max, int *n,
                            tc_error *err);

#endif
