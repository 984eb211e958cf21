/* A program built with the other MPI than hooktrace's (test/mpi/abi_mismatch.py):
 * instrumented functions with known call counts, a ring of Send/Recv, an
 * Allreduce, output on stdout, exit status 3. */
#include <mpi.h>
#include <stdio.h>

static int square(int x)
{
    return x * x;
}

static int compute(int rank)
{
    int sum = 0;
    for (int i = 0; i < 5; i++)
        sum += square(rank + i);
    return sum;
}

static int exchange(int rank, int size, int value)
{
    int got = -1;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        MPI_Send(&value, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&value, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
    }
    return got;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int total = 0;
    for (int round = 0; round < 3; round++)
        total += exchange(rank, size, compute(rank) + round);
    int all = 0;
    MPI_Allreduce(&total, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Pcontrol(1);
    printf("rank %d of %d: received %d, sum %d\n", rank, size, total, all);
    fflush(stdout);
    MPI_Finalize();
    return 3;
}
