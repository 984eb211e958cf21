/* Every collective, on any number of ranks (the inter-communicator part
 * needs 2 or more).  Counts depend on ranks as written beside each call;
 * test/mpi/collectives.py computes the pairwise messages from the same
 * formulas.  Rank 0 prints a checksum of every rank's results. */
#include <stdbool.h>
#include <string.h>

#include "common.h"

#define MAXN 8
#define ROOT (world_size - 1)

static long long checksum;

NOINLINE static void add(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        checksum = (checksum * 31 + p[i]) % 1000000007LL;
}

#define BUF (128 * MAXN)
static int ints_a[BUF], ints_b[BUF];
static double dbl_a[BUF], dbl_b[BUF];

static void fill(void)
{
    for (int i = 0; i < BUF; i++) {
        ints_a[i] = world_rank * 1000 + i;
        dbl_a[i] = world_rank + i * 0.25;
    }
    memset(ints_b, 0, sizeof ints_b);
    memset(dbl_b, 0, sizeof dbl_b);
}

static void take(void)
{
    add(ints_b, sizeof ints_b);
    add(dbl_b, sizeof dbl_b);
}

/* Counts and displacements of the v/w variants. */
static int counts[MAXN], displs[MAXN], rcounts[MAXN], rdispls[MAXN];
static int wcounts[MAXN], wdispls[MAXN], wrcounts[MAXN], wrdispls[MAXN];
static MPI_Datatype wtypes[MAXN];

static void v_layout(int (*f)(int me, int peer), int *c, int *d)
{
    int at = 0;
    for (int p = 0; p < world_size; p++) {
        c[p] = f(world_rank, p);
        d[p] = at;
        at += c[p];
    }
}

static int gatherv_count(int me, int peer) { (void)me; return peer + 1; }     /* from each peer */
static int scatterv_count(int me, int peer) { (void)me; return 2 * peer + 1; } /* to each peer */
static int allgatherv_count(int me, int peer) { (void)me; return peer + 2; }
static int alltoallv_send(int me, int peer) { return me + peer + 1; }
static int alltoallv_recv(int me, int peer) { return peer + me + 1; }
static int reduce_scatter_count(int me, int peer) { (void)me; return peer + 1; }

/* Alltoallw: me -> peer carries (me + peer) % 3 + 1 elements, doubles when
 * me + peer is even, ints otherwise (symmetric, so receives match). */
static void w_layout(void)
{
    int at = 0;
    for (int p = 0; p < world_size; p++) {
        int s = world_rank + p;
        wcounts[p] = wrcounts[p] = s % 3 + 1;
        wtypes[p] = s % 2 == 0 ? MPI_DOUBLE : MPI_INT;
        wdispls[p] = wrdispls[p] = at;
        at += 8 * (s % 3 + 1);
    }
}

/* Rooted collectives, root = last rank. */
NOINLINE static void rooted(void)
{
    fill();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(ints_a, 6, MPI_INT, ROOT, MPI_COMM_WORLD);                /* 6 ints */
    add(ints_a, 6 * sizeof(int));
    fill();
    MPI_Gather(ints_a, 2, MPI_INT, ints_b, 2, MPI_INT, ROOT, MPI_COMM_WORLD); /* 2 ints */
    v_layout(gatherv_count, rcounts, rdispls);
    MPI_Gatherv(ints_a, world_rank + 1, MPI_INT, ints_b, rcounts, rdispls, MPI_INT, ROOT,
                MPI_COMM_WORLD);                                           /* r+1 ints */
    MPI_Scatter(dbl_a, 3, MPI_DOUBLE, dbl_b, 3, MPI_DOUBLE, ROOT, MPI_COMM_WORLD); /* 3 doubles */
    v_layout(scatterv_count, counts, displs);
    MPI_Scatterv(ints_a, counts, displs, MPI_INT, ints_b + 100, 2 * world_rank + 1, MPI_INT, ROOT,
                 MPI_COMM_WORLD);                                          /* 2r+1 ints to r */
    MPI_Reduce(dbl_a, dbl_b + 100, 4, MPI_DOUBLE, MPI_SUM, ROOT, MPI_COMM_WORLD); /* 4 doubles */
    take();
}

/* Collectives in which everybody sends. */
NOINLINE static void everyone(void)
{
    fill();
    MPI_Allgather(ints_a, 2, MPI_INT, ints_b, 2, MPI_INT, MPI_COMM_WORLD); /* 2 ints */
    take();
    fill();
    v_layout(allgatherv_count, rcounts, rdispls);
    MPI_Allgatherv(ints_a, world_rank + 2, MPI_INT, ints_b, rcounts, rdispls, MPI_INT,
                   MPI_COMM_WORLD);                                        /* r+2 ints */
    take();
    fill();
    MPI_Alltoall(ints_a, 3, MPI_INT, ints_b, 3, MPI_INT, MPI_COMM_WORLD);  /* 3 ints each */
    take();
    fill();
    v_layout(alltoallv_send, counts, displs);
    v_layout(alltoallv_recv, rcounts, rdispls);
    MPI_Alltoallv(ints_a, counts, displs, MPI_INT, ints_b, rcounts, rdispls, MPI_INT,
                  MPI_COMM_WORLD);                                         /* me+peer+1 ints */
    take();
    fill();
    w_layout();
    MPI_Alltoallw(dbl_a, wcounts, wdispls, wtypes, dbl_b, wrcounts, wrdispls, wtypes,
                  MPI_COMM_WORLD);
    take();
    fill();
    MPI_Allreduce(dbl_a, dbl_b, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);   /* 5 doubles */
    v_layout(reduce_scatter_count, rcounts, rdispls);
    MPI_Reduce_scatter(ints_a, ints_b, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* i+1 ints to i */
    MPI_Reduce_scatter_block(dbl_a, dbl_b + 200, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* 2 doubles */
    MPI_Scan(ints_a, ints_b + 200, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);   /* 3 ints */
    MPI_Exscan(dbl_a, dbl_b + 300, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* 2 doubles */
    if (world_rank == 0)
        memset(dbl_b + 300, 0, 2 * sizeof(double)); /* undefined on rank 0 */
    take();
}

/* MPI_IN_PLACE: the ignored send arguments are 0 / MPI_DATATYPE_NULL, so
 * only the right ones give the right sizes. */
NOINLINE static void in_place(void)
{
    fill();
    memcpy(ints_b, ints_a, 7 * sizeof(int));
    MPI_Allreduce(MPI_IN_PLACE, ints_b, 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* 7 ints */
    take();
    fill();
    memcpy(ints_b + 3 * world_rank, ints_a, 3 * sizeof(int));
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ints_b, 3, MPI_INT, MPI_COMM_WORLD); /* 3 ints */
    take();
    fill();
    if (world_rank == 0) {
        memcpy(dbl_b, dbl_a, 4 * sizeof(double));
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, dbl_b, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Reduce(MPI_IN_PLACE, dbl_b + 100, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    } else {
        MPI_Gather(dbl_a, 4, MPI_DOUBLE, NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD); /* 4 doubles */
        MPI_Reduce(dbl_a, NULL, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);        /* 6 doubles */
    }
    take();
}

/* The non-blocking forms, same counts as the blocking ones, all completed
 * by one MPI_Waitall (except Ibarrier: MPI_Wait). */
NOINLINE static void nonblocking(void)
{
    static int i_a[64 * MAXN], i_b[16][64 * MAXN];
    static double d_a[64 * MAXN], d_b[16][64 * MAXN];
    static int c[4][MAXN], d[4][MAXN], rc[4][MAXN], rd[4][MAXN];
    for (int i = 0; i < 64 * MAXN; i++) {
        i_a[i] = world_rank * 1000 + i;
        d_a[i] = world_rank + i * 0.25;
    }
    memset(i_b, 0, sizeof i_b);
    memset(d_b, 0, sizeof d_b);
    MPI_Request req[17], barrier;
    int n = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    memcpy(i_b[0], i_a, 6 * sizeof(int));
    MPI_Ibcast(i_b[0], 6, MPI_INT, ROOT, MPI_COMM_WORLD, &req[n++]);
    MPI_Igather(i_a, 2, MPI_INT, i_b[1], 2, MPI_INT, ROOT, MPI_COMM_WORLD, &req[n++]);
    v_layout(gatherv_count, rc[0], rd[0]);
    MPI_Igatherv(i_a, world_rank + 1, MPI_INT, i_b[2], rc[0], rd[0], MPI_INT, ROOT, MPI_COMM_WORLD,
                 &req[n++]);
    MPI_Iscatter(d_a, 3, MPI_DOUBLE, d_b[0], 3, MPI_DOUBLE, ROOT, MPI_COMM_WORLD, &req[n++]);
    v_layout(scatterv_count, c[0], d[0]);
    MPI_Iscatterv(i_a, c[0], d[0], MPI_INT, i_b[3], 2 * world_rank + 1, MPI_INT, ROOT,
                  MPI_COMM_WORLD, &req[n++]);
    MPI_Ireduce(d_a, d_b[1], 4, MPI_DOUBLE, MPI_SUM, ROOT, MPI_COMM_WORLD, &req[n++]);
    MPI_Iallgather(i_a, 2, MPI_INT, i_b[4], 2, MPI_INT, MPI_COMM_WORLD, &req[n++]);
    v_layout(allgatherv_count, rc[1], rd[1]);
    MPI_Iallgatherv(i_a, world_rank + 2, MPI_INT, i_b[5], rc[1], rd[1], MPI_INT, MPI_COMM_WORLD,
                    &req[n++]);
    MPI_Ialltoall(i_a, 3, MPI_INT, i_b[6], 3, MPI_INT, MPI_COMM_WORLD, &req[n++]);
    v_layout(alltoallv_send, c[1], d[1]);
    v_layout(alltoallv_recv, rc[2], rd[2]);
    MPI_Ialltoallv(i_a, c[1], d[1], MPI_INT, i_b[7], rc[2], rd[2], MPI_INT, MPI_COMM_WORLD,
                   &req[n++]);
    w_layout();
    MPI_Ialltoallw(d_a, wcounts, wdispls, wtypes, d_b[2], wrcounts, wrdispls, wtypes,
                   MPI_COMM_WORLD, &req[n++]);
    MPI_Iallreduce(d_a, d_b[3], 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[n++]);
    v_layout(reduce_scatter_count, rc[3], rd[3]);
    MPI_Ireduce_scatter(i_a, i_b[8], rc[3], MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[n++]);
    MPI_Ireduce_scatter_block(d_a, d_b[4], 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[n++]);
    MPI_Iscan(i_a, i_b[9], 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[n++]);
    MPI_Iexscan(d_a, d_b[5], 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req[n++]);
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    MPI_Wait(&barrier, MPI_STATUS_IGNORE);
    if (world_rank == 0)
        memset(d_b[5], 0, 2 * sizeof(double));
    add(i_b, sizeof i_b);
    add(d_b, sizeof d_b);
}

/* Collectives on a sub-communicator: split by parity with the keys
 * reversed, so sub-rank 0 is the highest world rank of each half.  Bcast of
 * 2 ints from sub-rank 0; Allreduce of 1 int; Scan of 1 double (sub-rank i
 * to every sub-rank j > i, i.e. to the lower world ranks). */
NOINLINE static void sub_colls(void)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &half);
    fill();
    MPI_Bcast(ints_a, 2, MPI_INT, 0, half);
    MPI_Allreduce(ints_a, ints_b, 1, MPI_INT, MPI_SUM, half);
    MPI_Scan(dbl_a, dbl_b, 1, MPI_DOUBLE, MPI_SUM, half);
    add(ints_a, 2 * sizeof(int));
    take();
    MPI_Comm_free(&half);
}

/* Blocks of 0 bytes are no messages: a Bcast of 0 ints from rank 0; an
 * Alltoallv with 1 int between ranks of different parity and 0 between
 * ranks of the same parity; a Gatherv to rank 0 in which only odd ranks
 * send (1 int). */
NOINLINE static void empty_blocks(void)
{
    fill();
    MPI_Bcast(ints_a, 0, MPI_INT, 0, MPI_COMM_WORLD);
    for (int p = 0; p < world_size; p++) {
        counts[p] = rcounts[p] = (world_rank + p) % 2;
        displs[p] = rdispls[p] = p;
    }
    MPI_Alltoallv(ints_a, counts, displs, MPI_INT, ints_b, rcounts, rdispls, MPI_INT,
                  MPI_COMM_WORLD);
    for (int p = 0; p < world_size; p++) {
        rcounts[p] = p % 2;
        rdispls[p] = 100 + p;
    }
    MPI_Gatherv(ints_a, world_rank % 2, MPI_INT, ints_b, rcounts, rdispls, MPI_INT, 0,
                MPI_COMM_WORLD);
    take();
}

/* A periodic 1-D Cartesian communicator (not reordered): each rank's
 * neighbours are r-1 (source/destination 0) and r+1 (1).  Every
 * neighbourhood collective, the blocking form and then the non-blocking
 * one (completed by MPI_Wait):
 *   allgather   2 ints to each neighbour
 *   allgatherv  r+1 ints to each neighbour
 *   alltoall    3 doubles to each neighbour
 *   alltoallv   1 int to r-1, 2 ints to r+1 (non-blocking: 2 ints to each)
 *   alltoallw   1 double to r-1, 3 ints to r+1 (non-blocking: 3 ints to each)
 * The non-blocking v/w forms send the same to both sides: Open MPI 4.1's
 * libnbc mismatches the two blocks when both neighbours are the same rank
 * (2 ranks), which truncates. */
NOINLINE static void neighbour(void)
{
    MPI_Comm ring;
    int dims[1] = {world_size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int left = (world_rank + world_size - 1) % world_size, right = (world_rank + 1) % world_size;
    int gc[2] = {left + 1, right + 1}, gd[2] = {0, 16};
    int sc[2] = {1, 2}, sd[2] = {0, 8}, rc[2] = {2, 1}, rd[2] = {0, 8};
    int wsc[2] = {1, 3}, wrc[2] = {3, 1};
    MPI_Aint wsd[2] = {0, 64}, wrd[2] = {0, 64};
    MPI_Datatype wst[2] = {MPI_DOUBLE, MPI_INT}, wrt[2] = {MPI_INT, MPI_DOUBLE};
    int isc[2] = {2, 2}, iwc[2] = {3, 3};
    MPI_Datatype iwt[2] = {MPI_INT, MPI_INT};
    for (int blocking = 1; blocking >= 0; blocking--) {
        MPI_Request req[5];
        fill();
        if (blocking) {
            MPI_Neighbor_allgather(ints_a, 2, MPI_INT, ints_b, 2, MPI_INT, ring);
            MPI_Neighbor_allgatherv(ints_a, world_rank + 1, MPI_INT, ints_b + 100, gc, gd, MPI_INT,
                                    ring);
            MPI_Neighbor_alltoall(dbl_a, 3, MPI_DOUBLE, dbl_b, 3, MPI_DOUBLE, ring);
            MPI_Neighbor_alltoallv(ints_a, sc, sd, MPI_INT, ints_b + 200, rc, rd, MPI_INT, ring);
            MPI_Neighbor_alltoallw(dbl_a, wsc, wsd, wst, dbl_b + 100, wrc, wrd, wrt, ring);
        } else {
            MPI_Ineighbor_allgather(ints_a, 2, MPI_INT, ints_b, 2, MPI_INT, ring, &req[0]);
            MPI_Ineighbor_allgatherv(ints_a, world_rank + 1, MPI_INT, ints_b + 100, gc, gd, MPI_INT,
                                     ring, &req[1]);
            MPI_Ineighbor_alltoall(dbl_a, 3, MPI_DOUBLE, dbl_b, 3, MPI_DOUBLE, ring, &req[2]);
            MPI_Ineighbor_alltoallv(ints_a, isc, sd, MPI_INT, ints_b + 200, isc, rd, MPI_INT, ring,
                                    &req[3]);
            MPI_Ineighbor_alltoallw(dbl_a, iwc, wsd, iwt, dbl_b + 100, iwc, wrd, iwt, ring, &req[4]);
            for (int i = 0; i < 5; i++)
                MPI_Wait(&req[i], MPI_STATUS_IGNORE);
        }
        take();
    }
    MPI_Comm_free(&ring);
}

/* A non-periodic line: the ends have an MPI_PROC_NULL neighbour, which gets
 * nothing.  Neighbor_alltoall: 2 ints to each real neighbour. */
NOINLINE static void line_neighbour(void)
{
    MPI_Comm line;
    int dims[1] = {world_size}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    fill();
    MPI_Neighbor_alltoall(ints_a, 2, MPI_INT, ints_b, 2, MPI_INT, line);
    take();
    MPI_Comm_free(&line);
}

/* An inter-communicator between ranks < N/2 (group A) and the others (B).
 * Bcast from A's rank 0 (4 ints to each B rank); Gather to B's rank 0
 * (2 ints from each A rank); Allreduce (2 ints) and Allgather (3 ints):
 * every rank to every rank of the other group; Alltoall: 1 int to each
 * remote rank; Reduce_scatter_block with vectors of C = 2 nA nB ints
 * (recvcount C / local size): C / remote size ints to each remote rank;
 * Scatter from A's rank 0: 2 ints to each B rank; Scatterv from B's rank 0:
 * i+1 ints to A's rank i; Reduce to B's rank 0: 3 ints from each A rank;
 * Allgatherv: world rank + 1 ints to each remote rank; Alltoallv: i+1 ints
 * to remote rank i; Ibcast from B's rank 0: 5 ints to each A rank;
 * Barrier: nothing. */
NOINLINE static void inter(void)
{
    int low = world_rank < world_size / 2;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, low, world_rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? world_size / 2 : 0, 77, &ic);
    int me;
    MPI_Comm_rank(local, &me);
    fill();
    int root = low ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Bcast(ints_b, 4, MPI_INT, root, ic);
    root = low ? 0 : (me == 0 ? MPI_ROOT : MPI_PROC_NULL);
    MPI_Gather(ints_a, 2, MPI_INT, ints_b + 100, 2, MPI_INT, root, ic);
    MPI_Allreduce(ints_a, ints_b + 200, 2, MPI_INT, MPI_SUM, ic);
    MPI_Allgather(ints_a, 3, MPI_INT, ints_b + 300, 3, MPI_INT, ic);
    MPI_Alltoall(ints_a, 1, MPI_INT, ints_b + 400, 1, MPI_INT, ic);
    int nlocal, nremote;
    MPI_Comm_size(ic, &nlocal);
    MPI_Comm_remote_size(ic, &nremote);
    MPI_Reduce_scatter_block(ints_a, ints_b + 500, 2 * nremote, MPI_INT, MPI_SUM, ic);
    int base = low ? world_size / 2 : 0; /* world rank of remote rank 0 */
    int a_root = low ? (me == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int b_root = low ? 0 : (me == 0 ? MPI_ROOT : MPI_PROC_NULL);
    MPI_Scatter(ints_a, 2, MPI_INT, ints_b + 600, 2, MPI_INT, a_root, ic);
    for (int i = 0; i < nremote; i++) {
        counts[i] = i + 1;
        displs[i] = 8 * i;
    }
    MPI_Scatterv(ints_a, counts, displs, MPI_INT, ints_b + 650, me + 1, MPI_INT, b_root, ic);
    MPI_Reduce(ints_a, ints_b + 700, 3, MPI_INT, MPI_SUM, b_root, ic);
    for (int i = 0; i < nremote; i++) {
        rcounts[i] = base + i + 1;
        rdispls[i] = 8 * i;
    }
    MPI_Allgatherv(ints_a, world_rank + 1, MPI_INT, ints_b + 750, rcounts, rdispls, MPI_INT, ic);
    for (int i = 0; i < nremote; i++)
        rcounts[i] = me + 1;
    MPI_Alltoallv(ints_a, counts, displs, MPI_INT, ints_b + 800, rcounts, rdispls, MPI_INT, ic);
    MPI_Request req;
    MPI_Ibcast(ints_b + 850, 5, MPI_INT, b_root, ic, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(ic);
    take();
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
}

/* A distributed graph: r sends to r+1 and r+2 and receives from r-1 and
 * r-2 (mod N).  Neighbor_alltoallv: 1 int to r+1, 3 ints to r+2. */
NOINLINE static void graph_neighbour(void)
{
    int n = world_size, r = world_rank;
    int src[2] = {(r + n - 1) % n, (r + 2 * n - 2) % n}, dst[2] = {(r + 1) % n, (r + 2) % n};
    MPI_Comm g;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &g);
    int c[2] = {1, 3}, d[2] = {0, 8};
    fill();
    MPI_Neighbor_alltoallv(ints_a, c, d, MPI_INT, ints_b, c, d, MPI_INT, g);
    take();
    MPI_Comm_free(&g);
}

/* One call site called many times, as real codes do: hooktrace records
 * such calls once per shape at the stack (docs/mpi.md, "What a collective
 * call costs") and expands them at the end, even after the communicator is
 * gone.  On a dup of MPI_COMM_WORLD: 5 allreduces of 3 ints and 2 of 5
 * doubles from one line, then 4 non-blocking allreduces of 2 ints and 3
 * broadcasts of 4 ints from rank 0; the dup is freed before the end. */
NOINLINE static void repeated(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    fill();
    for (int i = 0; i < 7; i++) {
        bool ints = i < 5;
        MPI_Allreduce(ints ? (void *)ints_a : (void *)dbl_a, ints ? (void *)ints_b : (void *)dbl_b,
                      ints ? 3 : 5, ints ? MPI_INT : MPI_DOUBLE, MPI_SUM, dup);
    }
    for (int i = 0; i < 4; i++) {
        MPI_Request req;
        MPI_Iallreduce(ints_a, ints_b + 10 * i, 2, MPI_INT, MPI_SUM, dup, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 3; i++)
        MPI_Bcast(ints_b + 100, 4, MPI_INT, 0, dup);
    take();
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size > MAXN) {
        if (world_rank == 0)
            fprintf(stderr, "collectives: at most %d ranks\n", MAXN);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rooted();
    everyone();
    in_place();
    nonblocking();
    sub_colls();
    empty_blocks();
    neighbour();
    line_neighbour();
    graph_neighbour();
    repeated();
    if (world_size >= 2)
        inter();
    report("collectives", checksum);
    MPI_Finalize();
    return 0;
}
