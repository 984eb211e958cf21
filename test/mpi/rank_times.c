/* Per-rank inclusive times of the top stacks (test/mpi/rank_times.py, 4
 * ranks): rank r calls work() r + 1 times, so its time differs from rank
 * to rank, and only rank 2 calls only_on_rank2(), so every other rank has
 * 0 s for it.  Each call computes long enough (milliseconds) never to be
 * throttled. */
#include "common.h"

#define STEPS 2000000L

/* A sum the compiler cannot fold away. */
NOINLINE static double compute(long steps, double scale)
{
    volatile double sum = 0.0;
    for (long i = 0; i < steps; i++)
        sum += (double)(i % 1000) * scale;
    return sum;
}

NOINLINE static double work(void) { return compute(STEPS, 0.5); }

NOINLINE static double only_on_rank2(void) { return compute(3 * STEPS, 0.25); }

int main(int argc, char **argv)
{
    start(&argc, &argv);
    double total = 0.0;
    for (int unit = 0; unit <= world_rank; unit++)
        total += work();
    if (world_rank == 2)
        total += only_on_rank2();
    MPI_Barrier(MPI_COMM_WORLD);
    /* whole numbers: the sum is exact, the same for any compiler */
    report("rank_times", (long long)total);
    MPI_Finalize();
    return 0;
}
