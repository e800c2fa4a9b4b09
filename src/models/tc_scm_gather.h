/* SPDX-License-Identifier: MIT */
/* SCM's neighbour search: which points of a cloud one query point's softmax weights reach */
#ifndef TC_SCM_GATHER_H
#define TC_SCM_GATHER_H

#include "geom/tc_aopc.h"

/* samples per block: Morton-ordered runs of a cloud, each with a bounding sphere */
#define TC_SCM_BLK 16
/* source clouds of at most this many blocks are scanned whole, without bounds: a small cloud's
 * blocks are wide (a 150-point sphere's span most of it), so bounds skip little and cost more than
 * the distances they would save */
#define TC_SCM_FLAT_BLOCKS 16
/* pruning: softmax weights below e^-TC_SCM_CUT (1e-20) are left out, at both softmax levels */
#define TC_SCM_CUT 46.0

/* per-thread scratch: the candidate blocks of one query block and the indices of the gathered
 * points of one query point (the kernels read the cloud through them). Aligned to a cache line,
 * so that an array of them (one a thread) shares no line between threads: with two threads'
 * counts on one line every gather wrote to a line the other thread held, and E4's SCM pile ran
 * 1.4 times slower on each of two threads */
typedef struct tc_scm_gather {
    _Alignas(64) int n; /* gathered points */
    int *idx;           /* their indices (ascending), capacity: the largest cloud */
    double *dist;       /* squared distances (m^2), same capacity */
    double *lb;         /* per block: squared distance bound (m^2) */
    int ncand, *cand;   /* candidate blocks of the current query block, ascending */
    int flat;           /* 1: the source is scanned whole (TC_SCM_FLAT_BLOCKS), cand unused */
} tc_scm_gather;

/* a source cloud in the world frame with its block data (all m unless said) */
typedef struct tc_scm_cloud {
    const tc_aopc *S;   /* the points and normals */
    const double *mom;  /* 3 n moments (p - c) x n (m), as S */
    const double *blk;  /* 4 per block: body-frame centre, bounding radius */
    const double *blkw; /* 3 per block: world-frame centre */
} tc_scm_cloud;

/* the source blocks that may hold a point within reach of any query point of one query block:
 * centre cq (m, world) and radius rq (m) of the query block, blk (4 per block: body-frame centre,
 * radius, m) and blkw (3 per block: world centre, m) of the source cloud's nblk blocks, eps1 the
 * source SSDF width (m^2). With prune a block is left out when its nearest possible point is
 * farther than the query block's worst-case nearest distance plus the e^-CUT reach; without,
 * every block is a candidate. Result in g->cand (ascending), g->ncand; a source of at most
 * TC_SCM_FLAT_BLOCKS blocks sets g->flat instead. */
void tc_scm_candidates(const double cq[3], double rq, const double *blk, const double *blkw,
                       int nblk, double eps1, int prune, tc_scm_gather *g);

/* nearest squared distance (m^2) from p (m) to c->S, and the indices of the points within the
 * eps1 cutoff (m^2) gathered into g, searched over g's candidate blocks. dmin_known:
 * the nearest squared distance when already found (phase C), else NAN. Blocks whose bounding
 * sphere cannot hold a nearer point, or a point within the cutoff, are skipped: the minimum is
 * exact and the gathered set and order equal the brute force's within the cutoff. */
double tc_scm_gather_point(const tc_scm_cloud *c, const double p[3], double eps1, int prune,
                           double dmin_known, tc_scm_gather *g);

/* the points idx[0..m-1] (ascending, as a search returned them) gathered into g again */
void tc_scm_gather_indices(const int *idx, int m, tc_scm_gather *g);

#endif
