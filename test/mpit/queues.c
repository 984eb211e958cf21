/* Unexpected messages on a known stack, for test/mpit/pvars.py.
 *
 *   flood  (rank 1): K eager sends of one int to rank 0, tags 0..K-1
 *   settle (all):    MPI_Barrier
 *   drain  (rank 0): K receives of them, in tag order
 *
 * The sends are small, so they complete without rank 0 (eager protocol),
 * and rank 1's part of the barrier travels behind them on the same
 * channel: when rank 0 leaves the barrier all K wait in its
 * unexpected-message queue, and its first receive in drain finds K there.
 * The other ranks only take part in the barrier.
 *
 * Wrapped MPI calls per rank (the reads the test expects): rank 0 K + 1,
 * rank 1 K + 1, every other rank 1.  Usage: queues [K] (default 5). */
#include <mpi.h>
#include <stdlib.h>

#include "counting.h"

#define NOINLINE __attribute__((noinline))

static int rank;

NOINLINE static void flood(int k)
{
    for (int i = 0; i < k; i++)
        MPI_Send(&i, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
}

NOINLINE static void settle(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

NOINLINE static int drain(int k)
{
    int bad = 0;
    for (int i = 0; i < k; i++) {
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad += v != i;
    }
    return bad;
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 5;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        flood(k);
    settle();
    int bad = rank == 0 ? drain(k) : 0;
    MPI_Finalize();
    print_counts(rank);
    return bad ? 1 : 0;
}
