/* A halo exchange on a ring whose every cell of the communication matrix
 * differs, for the HTML report's test (test/mpi/report.py): ITERATIONS
 * times, rank r sends 16 (r + 1) ints to r + 1 and 8 (r + 1) ints to r - 1
 * with MPI_Sendrecv, then all ranks sum a residual with MPI_Allreduce. */
#include "common.h"

#define ITERATIONS 3
#define MAX_RANKS 64

static int right_out[16 * MAX_RANKS], right_in[16 * MAX_RANKS];
static int left_out[8 * MAX_RANKS], left_in[8 * MAX_RANKS];

NOINLINE static void halo_exchange(void)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    int to_right = 16 * (world_rank + 1), from_left = 16 * (prev + 1);
    int to_left = 8 * (world_rank + 1), from_right = 8 * (next + 1);
    MPI_Sendrecv(right_out, to_right, MPI_INT, next, 1, right_in, from_left, MPI_INT, prev, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(left_out, to_left, MPI_INT, prev, 2, left_in, from_right, MPI_INT, next, 2,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

NOINLINE static long long compute_step(int iteration)
{
    long long sum = 0;
    for (int i = 0; i < 1000 * (world_rank + 1); i++)
        sum += (i * (iteration + 1)) % 7;
    return sum;
}

NOINLINE static long long residual(long long local)
{
    long long total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return total;
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    EXPECT(world_size <= MAX_RANKS);
    long long total = 0;
    for (int it = 0; it < ITERATIONS; it++) {
        halo_exchange();
        total += residual(compute_step(it));
    }
    /* Printed by rank 0 alone: common.h's report() would add messages to
     * the ring's cells. */
    (void)report;
    if (world_rank == 0)
        printf("report_mpi: residual %lld\n", total);
    MPI_Finalize();
    return 0;
}
