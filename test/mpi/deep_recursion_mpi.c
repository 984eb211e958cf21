/* Every rank recurses N levels deep (N from argv[1]) between MPI_Init and
 * MPI_Finalize: N + 2 stacks per rank (main, N levels of descend, and the
 * MPI_Allreduce that sums the levels). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long descend(long n)
{
    return n == 0 ? 0 : 1 + descend(n - 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long depth = argc > 1 ? atol(argv[1]) : 100000;
    long levels = descend(depth - 1) + 1, sum = 0;
    MPI_Allreduce(&levels, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("deep_recursion_mpi: %ld\n", sum);
    MPI_Finalize();
    return 0;
}
