/* SPDX-License-Identifier: MIT */
/* sweeps over MPI ranks: start-up, the exchange of a split sweep's item results between the
 * ranks, and the end of an experiment, all point-to-point with rank 0 so that a rank whose
 * driver stops early never leaves another waiting (docs/mpi.md) */
#include "core/tc_parallel.h"
#include "exp/exp_private.h"
#include "exp/tc_ranks.h"

#include <limits.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* every message between the ranks: a header, then for a sweep its items */
enum { TAG = 7 };
enum { MSG_SWEEP = 1, MSG_END, MSG_RESULTS, MSG_ABANDON, MSG_FINAL };

typedef struct msg_head {
    int kind;        /* MSG_* */
    int seq;         /* the sweep's number in the experiment (0, 1, ...) */
    int n;           /* the sweep's items */
    int count;       /* items in this message */
    int interrupted; /* the sender was interrupted */
    int status;      /* MSG_END, MSG_FINAL: the experiment's status on the sender */
    int lent;        /* MSG_END: the most threads other ranks lent the sender in the experiment */
    double cpu_s;    /* MSG_END: the sender's CPU time in the experiment's sweeps (s) */
    char msg[512];   /* and its error */
} msg_head;

static int started, rank, size = 1;
/* where this rank's own fatal errors go (stderr, also after tc_ranks_quiet) */
static FILE *errf;
/* workers that have left the current experiment (rank 0's view) */
static unsigned char *ended;
/* the ranks on this machine and their shared counters (lent threads, a sweep's queue); the
 * machine of every rank, the ranks on each machine and the number of machines */
static MPI_Comm node_comm = MPI_COMM_NULL;
static MPI_Win node_win = MPI_WIN_NULL;
static int *machine_of, *machine_size, machines = 1;

/* ---------- start-up ---------- */

/* a launcher started us: mpirun (Open MPI), PMIx or PMI (srun), or the user says so */
static int launched(void) {
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", NULL};
    const char *force = getenv("TOUCHE_MPI");
    if (force && !strcmp(force, "1")) return 1;
    for (int i = 0; vars[i]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

/* memory for start-up; without it every rank ends */
static void *start_alloc(size_t bytes) {
    void *p = calloc(1, bytes);
    if (!p) {
        fprintf(stderr, "touche: error: out of memory starting MPI\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* node_comm: the ranks of this machine, or with TOUCHE_MPI_MACHINES=K (tests) K machines of the
 * ranks in rank order, as if they ran on K machines (each still maps its shared memory: they do
 * share it); MPI_ERR_OTHER when TOUCHE_MPI_SHARE=0 turns sharing off */
static int split_node(void) {
    const char *env = getenv("TOUCHE_MPI_SHARE"), *fake = getenv("TOUCHE_MPI_MACHINES");
    int share = tc_ranks_agree(!(env && !strcmp(env, "0")));
    long k = tc_ranks_agree(fake ? (int)strtol(fake, NULL, 10) : 0);
    if (!share) return MPI_ERR_OTHER;
    if (k > 0)
        return MPI_Comm_split(MPI_COMM_WORLD, (int)(rank * (k < size ? k : size) / size), rank,
                              &node_comm);
    return MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm);
}

/* the machine's counters in memory its nrank ranks share (me: this rank's place among them);
 * 1 when every rank of the machine maps them (the machine's first rank decides) */
static int map_counters(int me, int nrank) {
    tc_par_node *mine = NULL, *shared = NULL;
    MPI_Aint bytes = me == 0 ? (MPI_Aint)sizeof *mine : 0;
    int ok = MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, node_comm, &mine, &node_win) ==
             MPI_SUCCESS;
    if (ok) {
        MPI_Aint got;
        int unit;
        ok = MPI_Win_shared_query(node_win, 0, &got, &unit, &shared) == MPI_SUCCESS &&
             got >= (MPI_Aint)sizeof *shared;
    }
    /* the first rank sets the counters: every rank of the machine works, none waits */
    if (ok && me == 0) *shared = (tc_par_node){.idle = 0, .active = nrank};
    MPI_Barrier(node_comm);
    MPI_Bcast(&ok, 1, MPI_INT, 0, node_comm);
    if (ok && nrank > 1) tc_par_node_share(shared);
    /* said, not silent: such ranks run their fixed shares and lend nothing */
    if (!ok && nrank > 1 && me == 0)
        fprintf(stderr,
                "touche: rank %d: the %d ranks on this machine could not share memory "
                "(MPI_Win_allocate_shared): each runs a fixed share of every sweep, none "
                "lends its threads\n",
                rank, nrank);
    return ok;
}

/* the machine's number: its first rank's place among the first ranks (a collective call of
 * every rank); -1 when its ranks do not share */
static int machine_number(int me, int shares) {
    int machine = -1;
    MPI_Comm firsts;
    MPI_Comm_split(MPI_COMM_WORLD, me == 0 ? 0 : MPI_UNDEFINED, rank, &firsts);
    if (me == 0) {
        MPI_Comm_rank(firsts, &machine);
        MPI_Comm_free(&firsts);
    }
    MPI_Bcast(&machine, 1, MPI_INT, 0, node_comm);
    return shares ? machine : -1;
}

/* machine_of and machine_size from every rank's machine number, numbered in the order of their
 * lowest ranks; a rank that does not share (-1) is a machine of its own */
static void number_machines(int machine) {
    int *raw = start_alloc((size_t)size * sizeof *raw);
    MPI_Allgather(&machine, 1, MPI_INT, raw, 1, MPI_INT, MPI_COMM_WORLD);
    machines = 0;
    for (int r = 0; r < size; r++) {
        int q = 0;
        while (raw[r] >= 0 && q < r && raw[q] != raw[r])
            q++;
        machine_of[r] = raw[r] >= 0 && q < r ? machine_of[q] : machines++;
        machine_size[machine_of[r]]++;
    }
    free(raw);
}

/* the ranks of this machine map one tc_par_node (its first rank's): a rank that waits lends its
 * threads to those still working (tc_par_threads), and they take a split sweep's items from one
 * queue. The machines are numbered by their lowest rank. TOUCHE_MPI_SHARE=0 (rank 0's word), or
 * a machine where the shared memory cannot be had, leaves every rank a machine of its own;
 * TOUCHE_MPI_MACHINES=K (rank 0's word) makes K machines of the ranks, for tests */
static void share_node(void) {
    machine_of = start_alloc((size_t)size * sizeof *machine_of);
    machine_size = start_alloc((size_t)size * sizeof *machine_size);
    int machine = -1;
    if (split_node() == MPI_SUCCESS) {
        int me = 0, nrank = 1;
        MPI_Comm_size(node_comm, &nrank);
        MPI_Comm_rank(node_comm, &me);
        int ok = map_counters(me, nrank);
        machine = machine_number(me, ok && nrank > 1);
    }
    number_machines(machine);
}

int tc_ranks_init(int *argc, char ***argv) {
    if (!launched()) return 0;
    /* only the main thread calls MPI; OpenMP threads inside a rank do not */
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "touche: error: MPI_Init failed (started by an MPI launcher)\n");
        return 1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ended = calloc((size_t)size, 1);
    if (!ended) {
        fprintf(stderr, "touche: error: out of memory starting MPI\n");
        return 1;
    }
    share_node();
    return 0;
}

void tc_ranks_finalize(void) {
    tc_par_node_share(NULL);
    if (node_win != MPI_WIN_NULL) MPI_Win_free(&node_win);
    if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
    free(machine_of);
    free(machine_size);
    machine_of = machine_size = NULL;
    machines = 1;
    if (started) MPI_Finalize();
    started = 0;
    if (errf) fclose(errf);
    errf = NULL;
    free(ended);
    ended = NULL;
}

void tc_ranks_quiet(void) {
    if (rank == 0 || errf) return;
    fflush(stderr);
    int fd = dup(2);
    errf = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!freopen("/dev/null", "w", stderr) && errf)
        fprintf(errf, "touche: rank %d: stderr stays\n", rank);
    if (!freopen("/dev/null", "w", stdout) && errf)
        fprintf(errf, "touche: rank %d: stdout stays\n", rank);
}

int tc_ranks_rank(void) {
    return rank;
}
int tc_ranks_machines(void) {
    return machines;
}
int tc_ranks_machine_of(int r) {
    return machine_of && r >= 0 && r < size ? machine_of[r] : 0;
}
int tc_ranks_machine_size(int m) {
    return machine_size && m >= 0 && m < size ? machine_size[m] : 1;
}
int tc_ranks_size(void) {
    return size;
}

int tc_ranks_agree(int v) {
    if (size > 1) MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

const char *tc_ranks_library(void) {
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    /* its first line */
    lib[strcspn(lib, "\n")] = 0;
    return lib;
}

/* the ranks no longer agree on what they run (a bug): say so and stop every rank */
static void diverged(const char *what, int from) {
    fprintf(errf ? errf : stderr,
            "touche: error: rank %d: %s from rank %d; the ranks no longer run the same "
            "sweeps, stopping all of them\n",
            rank, what, from);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* ---------- messages ---------- */

/* poll test(arg) until it says done (or fails), without spinning: a rank that waits lends its
 * threads to the ranks still working on this machine (tc_par_threads) and leaves them its cores */
static void wait_for(int (*test)(void *), void *arg) {
    if (test(arg)) return;
    const int threads = omp_get_max_threads();
    tc_par_node_wait(threads);
    for (long ns = 50000; !test(arg); ns = ns < 5000000 ? 2 * ns : ns)
        nanosleep(&(struct timespec){0, ns}, NULL);
    tc_par_node_resume(threads);
}

static int sent(void *req) {
    int done = 0;
    return MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done;
}

typedef struct probe {
    int from;
    MPI_Status s;
} probe;

static int arrived(void *arg) {
    probe *p = arg;
    int ready = 0;
    return MPI_Iprobe(p->from, TAG, MPI_COMM_WORLD, &ready, &p->s) != MPI_SUCCESS || ready;
}

static void send_msg(int to, const void *buf, size_t bytes) {
    if (bytes > INT_MAX) {
        fprintf(errf ? errf : stderr,
                "touche: error: rank %d: a sweep's results (%zu B) exceed one MPI message "
                "(2 GiB); use fewer, smaller items\n",
                rank, bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* a large message waits for its receiver (a worker's results until rank 0 has run its own) */
    MPI_Request req;
    MPI_Isend(buf, (int)bytes, MPI_BYTE, to, TAG, MPI_COMM_WORLD, &req);
    wait_for(sent, &req);
}

/* the next message from rank `from`, whatever its size: *bytes its size, *head its head (the
 * buffer holds at least a head's bytes) */
static unsigned char *recv_msg(int from, size_t *bytes, msg_head *head) {
    probe p = {.from = from};
    int count;
    wait_for(arrived, &p);
    MPI_Status s = p.s;
    MPI_Get_count(&s, MPI_BYTE, &count);
    unsigned char *buf = malloc((size_t)count + sizeof(msg_head));
    if (!buf) {
        fprintf(errf ? errf : stderr, "touche: error: rank %d: out of memory receiving %d B\n",
                rank, count);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Recv(buf, count, MPI_BYTE, from, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if ((size_t)count < sizeof(msg_head)) diverged("a message shorter than its header", from);
    *bytes = (size_t)count;
    memcpy(head, buf, sizeof *head);
    return buf;
}

/* ---------- an item's bytes ---------- */

/* the item's record, wall time and regions, after its index */
static size_t item_size(tc_item_regions_fn regions, void *ctx, int i) {
    tc_region r[TC_ITEM_MAXREGION];
    size_t b = sizeof(int) + sizeof(tc_item) + sizeof(double);
    int nr = regions(ctx, i, r);
    for (int k = 0; k < nr; k++)
        b += r[k].bytes;
    return b;
}

/* a message of the items where pick[i] is set (pick NULL: all) */
static unsigned char *pack(const msg_head *h0, int n, const unsigned char *pick, const tc_item *it,
                           const double *wall, tc_item_regions_fn regions, void *ctx,
                           size_t *bytes) {
    size_t b = sizeof(msg_head);
    int count = 0;
    for (int i = 0; i < n; i++)
        if (!pick || pick[i]) {
            b += item_size(regions, ctx, i);
            count++;
        }
    unsigned char *buf = malloc(b), *p = buf;
    if (!buf) {
        fprintf(errf ? errf : stderr, "touche: error: rank %d: out of memory packing %zu B\n", rank,
                b);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    msg_head h = *h0;
    h.count = count;
    memcpy(p, &h, sizeof h);
    p += sizeof h;
    for (int i = 0; i < n; i++) {
        if (pick && !pick[i]) continue;
        tc_region r[TC_ITEM_MAXREGION];
        int nr = regions(ctx, i, r);
        memcpy(p, &i, sizeof i);
        p += sizeof i;
        memcpy(p, &it[i], sizeof *it);
        p += sizeof *it;
        memcpy(p, &wall[i], sizeof *wall);
        p += sizeof *wall;
        for (int k = 0; k < nr; k++) {
            memcpy(p, r[k].p, r[k].bytes);
            p += r[k].bytes;
        }
    }
    *bytes = b;
    return buf;
}

/* copy a message's items into their records, wall times and regions (and by[i] = from, by not
 * NULL); a message that does not fit the regions here means the ranks disagree about them */
static void unpack(const unsigned char *buf, size_t bytes, int from, int n, tc_item *it,
                   double *wall, tc_item_regions_fn regions, void *ctx, int *by) {
    msg_head h;
    memcpy(&h, buf, sizeof h);
    const unsigned char *p = buf + sizeof h, *end = buf + bytes;
    for (int c = 0; c < h.count; c++) {
        int i;
        if ((size_t)(end - p) < sizeof i + sizeof *it + sizeof *wall)
            diverged("a short sweep message", from);
        memcpy(&i, p, sizeof i);
        p += sizeof i;
        if (i < 0 || i >= n) diverged("an item out of range", from);
        tc_region r[TC_ITEM_MAXREGION];
        int nr = regions(ctx, i, r);
        memcpy(&it[i], p, sizeof *it);
        p += sizeof *it;
        if (by) by[i] = from;
        memcpy(&wall[i], p, sizeof *wall);
        p += sizeof *wall;
        for (int k = 0; k < nr; k++) {
            if ((size_t)(end - p) < r[k].bytes) diverged("an item's regions of another size", from);
            memcpy(r[k].p, p, r[k].bytes);
            p += r[k].bytes;
        }
    }
    if (p != end) diverged("an item's regions of another size", from);
}

/* ---------- a split sweep ---------- */

tc_status tc_ranks_gather(tc_exp *x, int n, const unsigned char *ran, tc_item *it, double *wall,
                          tc_item_regions_fn regions, void *ctx, int *by) {
    msg_head h = {.kind = MSG_SWEEP, .seq = x->nsplit, .n = n};
    if (rank > 0) {
        /* a worker sends its own items */
        h.interrupted = tc_interrupted();
        size_t b;
        unsigned char *buf = pack(&h, n, ran, it, wall, regions, ctx, &b);
        send_msg(0, buf, b);
        free(buf);
        return TC_OK;
    }
    /* rank 0 takes each worker's in rank order */
    for (int i = 0; i < n; i++)
        by[i] = ran[i] ? 0 : -1;
    for (int w = 1; w < size; w++) {
        if (!ended[w]) {
            size_t b;
            msg_head r;
            unsigned char *buf = recv_msg(w, &b, &r);
            if (r.kind == MSG_END) {
                /* it left the experiment: its status waits for the end */
                ended[w] = 1;
                if (r.interrupted) tc_interrupt();
                if (r.status)
                    fprintf(stderr, "touche: rank %d left %s early: %s\n", w, x->name, r.msg);
            } else if (r.kind != MSG_SWEEP || r.seq != h.seq || r.n != n) {
                diverged("a message of another sweep", w);
            } else {
                if (r.interrupted) tc_interrupt();
                unpack(buf, b, w, n, it, wall, regions, ctx, by);
            }
            free(buf);
        }
    }
    return TC_OK;
}

tc_status tc_ranks_share(tc_exp *x, int n, tc_item *it, double *wall, tc_item_regions_fn regions,
                         void *ctx) {
    msg_head h = {.kind = MSG_RESULTS, .seq = x->nsplit, .n = n, .interrupted = tc_interrupted()};
    if (rank > 0) {
        size_t b;
        msg_head r;
        unsigned char *buf = recv_msg(0, &b, &r);
        tc_status st = TC_OK;
        if (r.kind == MSG_ABANDON)
            st = TC_EIO;
        else if (r.kind != MSG_RESULTS || r.seq != h.seq || r.n != n)
            diverged("a message of another sweep", 0);
        else
            unpack(buf, b, 0, n, it, wall, regions, ctx, NULL);
        if (r.interrupted) tc_interrupt();
        free(buf);
        return st;
    }
    /* every item to every worker still here */
    size_t b;
    unsigned char *buf = pack(&h, n, NULL, it, wall, regions, ctx, &b);
    for (int w = 1; w < size; w++)
        if (!ended[w]) send_msg(w, buf, b);
    free(buf);
    return TC_OK;
}

/* ---------- the end of an experiment ---------- */

tc_status tc_ranks_end(tc_exp *x, tc_status st, tc_error *err) {
    if (size < 2) return st;
    msg_head h = {.kind = MSG_END,
                  .status = st,
                  .interrupted = tc_interrupted(),
                  .lent = tc_par_node_lent_max(0),
                  .cpu_s = x->sweep_cpu_s};
    if (rank > 0) {
        /* a worker says how it ended and takes rank 0's word */
        if (st && err) snprintf(h.msg, sizeof h.msg, "%s", err->msg);
        send_msg(0, &h, sizeof h);
        size_t b;
        msg_head r;
        unsigned char *buf = recv_msg(0, &b, &r);
        free(buf);
        if (r.kind != MSG_FINAL) diverged("a sweep message after the experiment's end", 0);
        if (r.interrupted) tc_interrupt();
        if (err && r.status) tc_error_set(err, (tc_status)r.status, NULL, 0, NULL, "%s", r.msg);
        return (tc_status)r.status;
    }
    /* rank 0 waits for every worker; one still in a sweep rank 0 left is told to stop */
    for (int w = 1; w < size; w++) {
        while (!ended[w]) {
            size_t b;
            msg_head r;
            unsigned char *buf = recv_msg(w, &b, &r);
            free(buf);
            if (r.kind == MSG_SWEEP) {
                msg_head a = {.kind = MSG_ABANDON, .seq = r.seq, .n = r.n};
                send_msg(w, &a, sizeof a);
            } else if (r.kind == MSG_END) {
                ended[w] = 1;
                tc_par_node_lent_note(r.lent);
                x->sweep_cpu_s += r.cpu_s;
                if (r.interrupted) tc_interrupt();
                /* a failure only the worker had: rank 0 ran its items, the outputs are whole */
                if (r.status && !st && !(r.status == TC_EIO && !r.msg[0]))
                    fprintf(stderr, "touche: rank %d left %s early (rank 0 ran its items): %s\n", w,
                            x->name, r.msg[0] ? r.msg : tc_status_str((tc_status)r.status));
            } else {
                diverged("an unexpected message at the experiment's end", w);
            }
        }
    }
    /* everyone takes rank 0's status */
    msg_head f = {.kind = MSG_FINAL, .status = st, .interrupted = tc_interrupted()};
    if (st && err) snprintf(f.msg, sizeof f.msg, "%s", err->msg);
    for (int w = 1; w < size; w++) {
        send_msg(w, &f, sizeof f);
        ended[w] = 0;
    }
    return st;
}
