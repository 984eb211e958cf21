/* Planted wait states for hooktrace-analyze (test/trace/wait_states.py):
 * on 4 ranks, one rank sleeps 40 ms before each of its part in a phase,
 * so the others wait a known time at a known call path.
 *
 *   recv_phase      rank 1 sleeps before each of 5 MPI_Send to rank 0:
 *                   late sender at rank 0, main > recv_phase > MPI_Recv
 *   ssend_phase     rank 1 sleeps before each of 3 MPI_Recv of rank 0's
 *                   MPI_Ssend: late receiver at rank 0
 *   barrier_phase   rank 2 sleeps before each of 3 MPI_Barrier
 *   allreduce_phase rank 3 sleeps before each of 3 MPI_Allreduce
 *   bcast_phase     the root, rank 0, sleeps before each of 3 MPI_Bcast
 *   reduce_phase    ranks 1-3 sleep before each of 3 MPI_Reduce to rank 0
 *
 * Phases are separated by MPI_Barrier in align(), whose waits the test
 * leaves alone.  Rank 0 prints the results (the same without hooktrace). */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "common.h"

#define PLANTED_MS 40

NOINLINE static void nap(void)
{
    struct timespec t = {0, PLANTED_MS * 1000000L};
    while (nanosleep(&t, &t) != 0)
        ;
}

NOINLINE static void align(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

NOINLINE static long long recv_phase(void)
{
    long long sum = 0;
    for (int i = 0; i < 5; i++) {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += v;
    }
    return sum;
}

NOINLINE static void send_phase(void)
{
    for (int i = 0; i < 5; i++) {
        int v = 10 + i;
        nap();
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
}

NOINLINE static void ssend_phase(void)
{
    for (int i = 0; i < 3; i++) {
        int v = 100 + i;
        MPI_Ssend(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    }
}

NOINLINE static long long late_recv_phase(void)
{
    long long sum = 0;
    for (int i = 0; i < 3; i++) {
        int v = 0;
        nap();
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        sum += v;
    }
    return sum;
}

NOINLINE static void barrier_phase(void)
{
    for (int i = 0; i < 3; i++) {
        if (world_rank == 2)
            nap();
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

NOINLINE static long long allreduce_phase(void)
{
    long long sum = 0;
    for (int i = 0; i < 3; i++) {
        long long in = world_rank + i, out = 0;
        if (world_rank == 3)
            nap();
        MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum += out;
    }
    return sum;
}

NOINLINE static long long bcast_phase(void)
{
    long long sum = 0;
    for (int i = 0; i < 3; i++) {
        long long v = world_rank == 0 ? 1000 + i : 0;
        if (world_rank == 0)
            nap();
        MPI_Bcast(&v, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        sum += v;
    }
    return sum;
}

NOINLINE static long long reduce_phase(void)
{
    long long sum = 0;
    for (int i = 0; i < 3; i++) {
        long long in = world_rank * 10 + i, out = 0;
        if (world_rank != 0)
            nap();
        MPI_Reduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        sum += out;
    }
    return sum;
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    EXPECT(world_size == 4);
    long long result = 0;
    align();
    if (world_rank == 0)
        result += recv_phase();
    else if (world_rank == 1)
        send_phase();
    align();
    if (world_rank == 0)
        ssend_phase();
    else if (world_rank == 1)
        result += late_recv_phase();
    align();
    barrier_phase();
    result += allreduce_phase();
    result += bcast_phase();
    result += reduce_phase();
    report("wait_states", result);
    MPI_Finalize();
    return 0;
}
