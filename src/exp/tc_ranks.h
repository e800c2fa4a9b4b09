/* SPDX-License-Identifier: MIT */
/* the ranks of an MPI run (`mpirun -np N touche run ...`, `srun touche run ...`): set up once in
 * main, then the runner splits the sweeps over them (docs/mpi.md). Built without MPI, or started
 * without a launcher, there is one rank: rank 0 of 1 */
#ifndef TC_RANKS_H
#define TC_RANKS_H

/* MPI_Init when the process was started by an MPI launcher (mpirun's OMPI_COMM_WORLD_SIZE,
 * PMIx's PMIX_RANK, PMI's PMI_RANK in the environment, or TOUCHE_MPI=1), else nothing; returns
 * 0, or 1 after printing why MPI could not start */
int tc_ranks_init(int *argc, char ***argv);

/* MPI_Finalize when tc_ranks_init started MPI */
void tc_ranks_finalize(void);

/* this process's rank (0 without MPI) and the number of ranks (1 without MPI) */
int tc_ranks_rank(void);
int tc_ranks_size(void);

/* the machines of the job (ranks that share memory; every rank a machine of its own when they
 * share none or TOUCHE_MPI_SHARE=0), numbered in the order of their lowest ranks: how many, the
 * machine of rank r, and the ranks of machine m. The ranks of a machine take a split sweep's
 * items from one queue and lend their threads while they wait (docs/mpi.md) */
int tc_ranks_machines(void);
int tc_ranks_machine_of(int r);
int tc_ranks_machine_size(int m);

/* on a rank other than 0, stdout and stderr go to /dev/null (rank 0 prints the plan, progress and
 * summary once); the rank's own fatal errors (the ranks disagree, out of memory) still reach
 * the terminal */
void tc_ranks_quiet(void);

/* rank 0's v on every rank (v itself on one rank): a decision only rank 0 can make (whether the
 * output directory takes files, the exit status) made the same on every rank */
int tc_ranks_agree(int v);

/* the MPI library this program was built with ("Open MPI v4.1.4, ..."), or "none" */
const char *tc_ranks_library(void);

#endif
