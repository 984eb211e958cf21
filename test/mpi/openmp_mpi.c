/* MPI inside an OpenMP parallel region (test/mpi/openmp.py): on every
 * rank, exchange() opens a region of 2 threads and each thread sends
 * (t + 1) * 10 ints to the other rank of its pair and receives as many
 * from it, with its thread number as the tag (MPI_THREAD_MULTIPLE).  An
 * even number of ranks; rank r pairs with r ^ 1. */
#include <omp.h>

#include "common.h"

static long long checksum;

NOINLINE static void exchange(void)
{
    int peer = world_rank ^ 1;
#pragma omp parallel num_threads(2) reduction(+ : checksum)
    {
        int t = omp_get_thread_num(), n = (t + 1) * 10;
        int out[20], in[20] = {0};
        for (int k = 0; k < n; k++)
            out[k] = world_rank * 100 + t * 10 + k;
        MPI_Sendrecv(out, n, MPI_INT, peer, t, in, n, MPI_INT, peer, t, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        EXPECT(in[n - 1] == peer * 100 + t * 10 + n - 1);
        checksum += in[n - 1];
    }
}

int main(int argc, char **argv)
{
    (void)start; /* common.h's: this program needs MPI_Init_thread */
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    EXPECT(provided == MPI_THREAD_MULTIPLE && world_size % 2 == 0);
    exchange();
    report("openmp_mpi", checksum);
    MPI_Finalize();
    return 0;
}
