/* MPI_Allreduce repeated from one call site (test/mpi/coll_memo.py), on 4
 * ranks: hooktrace keeps the record of a thread's last blocking Allreduce
 * and the next identical call only counts itself there, so whatever may
 * change between two calls with equal arguments must still be seen.
 *
 * for i = 0..5, on a communicator split anew and freed every step (its
 * handle often names the next one): pairs {0,2},{1,3} when i is even,
 * {0,1},{2,3} when odd:
 *   - main;step;reduce;MPI_Allreduce: 2 doubles on the pair (the same
 *     arguments as the last step's last call), twice on MPI_COMM_WORLD;
 *   - main;step;reduce_typed;reduce;MPI_Allreduce: 2 of a contiguous type
 *     of 2 doubles, freed, then of 3 doubles (the same handle, likely);
 *   - main;step;reduce;MPI_Allreduce: 2 doubles on the pair again.
 * Rank 0 prints the sums. */
#include "common.h"

static MPI_Op add_op;

/* MPI_SUM is for predefined types only: the derived type's sum. */
__attribute__((no_instrument_function)) static void add(void *in, void *inout, int *len,
                                                        MPI_Datatype *type)
{
    int n = 0;
    MPI_Type_size(*type, &n);
    n = n / (int)sizeof(double) * *len;
    for (int i = 0; i < n; i++)
        ((double *)inout)[i] += ((const double *)in)[i];
}

NOINLINE static double reduce(MPI_Comm comm, MPI_Datatype type, const double *in)
{
    double out[6] = {0};
    MPI_Allreduce(in, out, 2, type, type == MPI_DOUBLE ? MPI_SUM : add_op, comm);
    return out[0] + out[1] + out[2] + out[3] + out[4] + out[5];
}

NOINLINE static double reduce_typed(MPI_Comm comm, int doubles, const double *in)
{
    MPI_Datatype block;
    MPI_Type_contiguous(doubles, MPI_DOUBLE, &block);
    MPI_Type_commit(&block);
    double sum = reduce(comm, block, in);
    MPI_Type_free(&block);
    return sum;
}

NOINLINE static double step(int i)
{
    double in[6] = {world_rank + 1.0, i + 1.0, 0.5, 0.25, 2.0, 4.0};
    MPI_Comm pair;
    int color = i % 2 == 0 ? world_rank % 2 : world_rank / 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &pair);
    double sum = reduce(pair, MPI_DOUBLE, in); /* the last step's last call: same arguments */
    sum += reduce(MPI_COMM_WORLD, MPI_DOUBLE, in);
    sum += reduce(MPI_COMM_WORLD, MPI_DOUBLE, in);
    sum += reduce_typed(pair, 2, in);
    sum += reduce_typed(pair, 3, in); /* the same handle, likely, another size */
    sum += reduce(pair, MPI_DOUBLE, in);
    MPI_Comm_free(&pair);
    return sum;
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    MPI_Op_create(add, 1, &add_op);
    double sum = 0;
    for (int i = 0; i < 6; i++)
        sum += step(i);
    report("sum", (long long)(sum * 4));
    MPI_Op_free(&add_op);
    MPI_Finalize();
    return 0;
}
