/* SPDX-License-Identifier: MIT */
/* built without MPI: one rank, and a split sweep is an ordinary one (see runner_mpi.c) */
#include "exp/exp_private.h"
#include "exp/tc_ranks.h"

int tc_ranks_init(int *argc, char ***argv) {
    (void)argc, (void)argv;
    return 0;
}

void tc_ranks_finalize(void) {}
void tc_ranks_quiet(void) {}
int tc_ranks_rank(void) {
    return 0;
}
int tc_ranks_size(void) {
    return 1;
}
int tc_ranks_machines(void) {
    return 1;
}
int tc_ranks_machine_of(int r) {
    return (void)r, 0;
}
int tc_ranks_machine_size(int m) {
    return (void)m, 1;
}
int tc_ranks_agree(int v) {
    return v;
}
const char *tc_ranks_library(void) {
    return "none";
}

/* with one rank there is nothing to exchange */
tc_status tc_ranks_gather(tc_exp *x, int n, const unsigned char *ran, tc_item *it, double *wall,
                          tc_item_regions_fn regions, void *ctx, int *by) {
    (void)x, (void)it, (void)wall, (void)regions, (void)ctx;
    for (int i = 0; i < n; i++)
        by[i] = ran[i] ? 0 : -1;
    return TC_OK;
}

tc_status tc_ranks_share(tc_exp *x, int n, tc_item *it, double *wall, tc_item_regions_fn regions,
                         void *ctx) {
    (void)x, (void)n, (void)it, (void)wall, (void)regions, (void)ctx;
    return TC_OK;
}

tc_status tc_ranks_end(tc_exp *x, tc_status st, tc_error *err) {
    (void)x, (void)err;
    return st;
}
