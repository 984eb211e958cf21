/* Derived datatypes made, used and freed again and again, between sends of
 * predefined types (test/mpi/type_reuse.py): the handle of a freed type
 * often names the next one, whose size differs, so a size hooktrace kept
 * for a handle would count the wrong bytes.
 *
 * On 2 ranks, for k = 1..6: rank 0 sends rank 1 three elements of
 * MPI_Type_contiguous(k, MPI_INT) (12k bytes), then 2 MPI_DOUBLEs and 5
 * MPI_INTs, all from main;exchange;MPI_Send; rank 1 receives them from
 * main;exchange;MPI_Recv.  Rank 0 prints the bytes it sent. */
#include "common.h"

NOINLINE static long long exchange(int k)
{
    int ints[3 * 6] = {0};
    double doubles[2] = {1.5, 2.5};
    MPI_Datatype block;
    MPI_Type_contiguous(k, MPI_INT, &block);
    MPI_Type_commit(&block);
    long long sent = 0;
    if (world_rank == 0) {
        MPI_Send(ints, 3, block, 1, k, MPI_COMM_WORLD);
        MPI_Send(doubles, 2, MPI_DOUBLE, 1, k, MPI_COMM_WORLD);
        MPI_Send(ints, 5, MPI_INT, 1, k, MPI_COMM_WORLD);
        sent = 12LL * k + 16 + 20;
    } else if (world_rank == 1) {
        MPI_Recv(ints, 3, block, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(doubles, 2, MPI_DOUBLE, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(ints, 5, MPI_INT, 0, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&block);
    return sent;
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    long long sent = 0;
    for (int k = 1; k <= 6; k++)
        sent += exchange(k);
    report("bytes sent", sent);
    MPI_Finalize();
    return 0;
}
