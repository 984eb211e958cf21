/* One-sided communication on any number of ranks >= 2: every operation
 * goes from origin r to another rank, counted on the origin as "sent"
 * (test/mpi/rma.py has the expected sizes).  Rank 0 prints a checksum of
 * every rank's window and results. */
#include <string.h>

#include "common.h"

static long long checksum;

NOINLINE static void add(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        checksum = (checksum * 31 + p[i]) % 1000000007LL;
}

#define WIN_INTS 256
static int window[WIN_INTS];

static int peer(int k) { return (world_rank + k) % world_size; }

/* Active target (fences): Put 5 ints to r+1; Get 6 ints from r+2 (as 3
 * origin elements of a 2-int contiguous type); Accumulate 4 ints to r+3;
 * Get_accumulate 2 ints (+ 2 ints of result) to r+1; Fetch_and_op 1 int to
 * r+2; Compare_and_swap 1 int to r+3.  (Peers are taken modulo N and are
 * never r itself for N = 4.) */
NOINLINE static void fence_ops(MPI_Win win)
{
    int src[16], res[16] = {0};
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int i = 0; i < 16; i++)
        src[i] = world_rank * 10 + i;
    MPI_Win_fence(0, win);
    MPI_Put(src, 5, MPI_INT, peer(1), 0, 5, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Get(res, 3, pair, peer(2), 0, 6, MPI_INT, win);
    MPI_Win_fence(0, win);
    add(res, sizeof res);
    MPI_Accumulate(src, 4, MPI_INT, peer(3), 8, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(src, 2, MPI_INT, res, 2, MPI_INT, peer(1), 16, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    add(res, sizeof res);
    int one = 1, old = 0, compare = 0, swap = 99;
    MPI_Fetch_and_op(&one, &old, MPI_INT, peer(2), 20, MPI_SUM, win);
    MPI_Win_fence(0, win);
    add(&old, sizeof old);
    MPI_Compare_and_swap(&swap, &compare, &old, MPI_INT, peer(3), 24, win);
    MPI_Win_fence(0, win);
    add(&old, sizeof old);
    MPI_Type_free(&pair);
}

/* Passive target with request-based operations, each completed by
 * MPI_Wait: Rput 7 ints to r+1; Rget 9 ints from r+2; Raccumulate 2 ints
 * to r+3; Rget_accumulate 3 ints (+ 3 of result) to r+1. */
NOINLINE static void request_ops(MPI_Win win)
{
    int src[16], res[16] = {0};
    MPI_Request req;
    for (int i = 0; i < 16; i++)
        src[i] = world_rank * 100 + i;
    MPI_Win_lock_all(0, win);
    MPI_Rput(src, 7, MPI_INT, peer(1), 40 + 8 * world_rank, 7, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_flush_all(win);
    MPI_Rget(res, 9, MPI_INT, peer(2), 0, 9, MPI_INT, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Raccumulate(src, 2, MPI_INT, peer(3), 100, 2, MPI_INT, MPI_SUM, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Rget_accumulate(src, 3, MPI_INT, res + 9, 3, MPI_INT, peer(1), 110, 3, MPI_INT, MPI_SUM,
                        win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Win_unlock_all(win);
    add(res, sizeof res);
}

/* Edge cases, fence epoch: a Put of 2 ints to the process itself counts; a
 * Put of 0 ints to r+1 is one message of 0 bytes; a Put and an Accumulate
 * to MPI_PROC_NULL record nothing. */
NOINLINE static void edge_ops(MPI_Win win)
{
    int src[4] = {world_rank, 1, 2, 3};
    MPI_Win_fence(0, win);
    MPI_Put(src, 2, MPI_INT, world_rank, 200, 2, MPI_INT, win);
    MPI_Put(src, 0, MPI_INT, peer(1), 204, 0, MPI_INT, win);
    MPI_Put(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, win);
    MPI_Accumulate(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
}

/* A window over a communicator with the ranks reversed: target_rank is a
 * rank of the window's group.  Put 1 int to reversed rank (rev(r) + 1) % N,
 * which is world rank r - 1. */
NOINLINE static void sub_window(void)
{
    MPI_Comm rev;
    MPI_Win win;
    static int small[8];
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_size - world_rank, &rev);
    int me;
    MPI_Comm_rank(rev, &me);
    MPI_Win_create(small, sizeof small, sizeof(int), MPI_INFO_NULL, rev, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&world_rank, 1, MPI_INT, (me + 1) % world_size, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    EXPECT(small[0] == (world_rank + 1) % world_size);
    add(small, sizeof small);
    MPI_Win_free(&win);
    MPI_Comm_free(&rev);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size != 4) {
        if (world_rank == 0)
            fprintf(stderr, "rma: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Win win;
    for (int i = 0; i < WIN_INTS; i++)
        window[i] = world_rank * 1000 + i;
    MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    fence_ops(win);
    request_ops(win);
    edge_ops(win);
    MPI_Win_fence(0, win);
    /* Only the deterministic parts of the window: the Put target, the
     * Accumulate and Fetch_and_op targets. */
    add(window, 28 * sizeof(int));
    MPI_Win_free(&win);
    sub_window();
    report("rma", checksum);
    MPI_Finalize();
    return 0;
}
