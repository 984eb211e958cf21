/* Point-to-point or one-sided traffic whose messages hooktrace counts in
 * comm_matrix, for the cross-check with Open MPI's monitoring component
 * (test/mpit/monitoring.py).  No persistent requests: monitoring does not
 * count them.
 *
 *   traffic p2p  on N ranks, in ring order (next = r + 1, prev = r - 1):
 *     blocking:    MPI_Send of 3 ints to next, MPI_Recv from prev (even
 *                  ranks send first, odd ranks receive first);
 *     nonblocking: MPI_Isend of 100 doubles to prev and 1 int to next,
 *                  MPI_Irecv of both, MPI_Waitall;
 *     swap:        MPI_Sendrecv of 7 chars with next/prev;
 *     plus an MPI_Allreduce, whose messages are MPI's own (not in
 *     comm_matrix, and not in monitoring's point-to-point counts).
 *   traffic rma  on N ranks: a window of 64 ints; in one fence epoch
 *     MPI_Put of 4 ints to next and MPI_Get of 2 ints from prev.
 *
 * The exact messages are listed in monitoring.py. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "counting.h"

/* MPICH declares MPI_Waitall's statuses as an array: GCC 12 then warns that
 * MPI_STATUSES_IGNORE (a special address) is "a region of size 0". */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define NOINLINE __attribute__((noinline))

static int rank, size, next, prev;

NOINLINE static void blocking(void)
{
    int out[3] = {rank, rank, rank}, in[3];
    if (rank % 2 == 0) {
        MPI_Send(out, 3, MPI_INT, next, 1, MPI_COMM_WORLD);
        MPI_Recv(in, 3, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(in, 3, MPI_INT, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(out, 3, MPI_INT, next, 1, MPI_COMM_WORLD);
    }
}

NOINLINE static void nonblocking(void)
{
    static double big_out[100], big_in[100];
    int small_out = rank, small_in = -1;
    MPI_Request req[4];
    MPI_Irecv(big_in, 100, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&small_in, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(big_out, 100, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&small_out, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

NOINLINE static void swap(void)
{
    char out[7] = "abcdef", in[7];
    MPI_Sendrecv(out, 7, MPI_CHAR, next, 4, in, 7, MPI_CHAR, prev, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
}

NOINLINE static void agree(void)
{
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

NOINLINE static void one_sided(void)
{
    static int window[64];
    int put[4] = {1, 2, 3, 4}, got[2];
    MPI_Win win;
    MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(put, 4, MPI_INT, next, 0, 4, MPI_INT, win);
    MPI_Get(got, 2, MPI_INT, prev, 8, 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    next = (rank + 1) % size;
    prev = (rank + size - 1) % size;
    if (argc > 1 && strcmp(argv[1], "rma") == 0) {
        one_sided();
    } else {
        blocking();
        nonblocking();
        swap();
        agree();
    }
    MPI_Finalize();
    print_counts(rank);
    return 0;
}
