/* Point-to-point on communicators that are not MPI_COMM_WORLD
 * (test/mpi/comm_reuse.py), 2 ranks: each thread keeps the table of the
 * last communicator it looked up (src/mpi/ranks.h), and a freed
 * communicator's handle may come back for the next one.
 *
 * reversed: MPI_Comm_split with the ranks in reverse order (its rank 0 is
 *           world rank 1); world rank 0 sends 8 bytes to its rank 0, which
 *           receives them from its rank 1.  Then freed.
 * ordered:  the same split in world order, most likely under the same
 *           handle: world rank 1 sends 16 bytes to its rank 0 (world 0).
 *           A stale table would record world rank 1 sending to itself.
 * cart:     MPI_Cart_create, 1-D periodic, no reordering: MPI_Sendrecv of
 *           24 bytes to the next rank (MPI_Cart_shift), from the previous.
 * cart_more: on it, what the wrapper's common case leaves to the general
 *           one: 32 bytes into a 40-byte buffer from MPI_ANY_SOURCE, 12
 *           bytes from rank 0 to 1 with MPI_PROC_NULL the other way, and
 *           MPI_Sendrecv_replace of 3 elements of a derived type of 8 bytes.
 *
 * Rank 0 prints whether the ordered split got the reversed one's handle. */
#include <string.h>

#include "common.h"

static char buf[32];

NOINLINE static void reversed(MPI_Comm comm)
{
    int me;
    MPI_Comm_rank(comm, &me);
    if (me == 1)
        MPI_Send(buf, 8, MPI_BYTE, 0, 1, comm);
    else
        MPI_Recv(buf, 8, MPI_BYTE, 1, 1, comm, MPI_STATUS_IGNORE);
}

NOINLINE static void ordered(MPI_Comm comm)
{
    int me;
    MPI_Comm_rank(comm, &me);
    if (me == 1)
        MPI_Send(buf, 16, MPI_BYTE, 0, 2, comm);
    else
        MPI_Recv(buf, 16, MPI_BYTE, 1, 2, comm, MPI_STATUS_IGNORE);
}

NOINLINE static void cart(MPI_Comm comm)
{
    int source, dest;
    static char in[24];
    MPI_Cart_shift(comm, 0, 1, &source, &dest);
    MPI_Sendrecv(buf, 24, MPI_BYTE, dest, 3, in, 24, MPI_BYTE, source, 3, comm, MPI_STATUS_IGNORE);
}

NOINLINE static void cart_more(MPI_Comm comm)
{
    int me, source, dest;
    static char in[40];
    static int words[6];
    MPI_Comm_rank(comm, &me);
    MPI_Cart_shift(comm, 0, 1, &source, &dest);
    MPI_Sendrecv(buf, 32, MPI_BYTE, dest, 4, in, 40, MPI_BYTE, MPI_ANY_SOURCE, 4, comm,
                 MPI_STATUS_IGNORE);
    if (me == 0)
        MPI_Sendrecv(buf, 12, MPI_BYTE, dest, 5, in, 12, MPI_BYTE, MPI_PROC_NULL, 5, comm,
                     MPI_STATUS_IGNORE);
    else
        MPI_Sendrecv(buf, 12, MPI_BYTE, MPI_PROC_NULL, 5, in, 12, MPI_BYTE, source, 5, comm,
                     MPI_STATUS_IGNORE);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Sendrecv_replace(words, 3, pair, dest, 6, source, 6, comm, MPI_STATUS_IGNORE);
    MPI_Type_free(&pair);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    EXPECT(world_size == 2);
    MPI_Comm a, b, c;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -world_rank, &a);
    reversed(a);
    MPI_Comm old = a;
    MPI_Comm_free(&a);
    MPI_Comm_split(MPI_COMM_WORLD, 0, world_rank, &b);
    ordered(b);
    long long same = memcmp(&old, &b, sizeof b) == 0;
    MPI_Comm_free(&b);
    int dims[1] = {world_size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c);
    cart(c);
    cart_more(c);
    MPI_Comm_free(&c);
    report("same handle", same);
    MPI_Finalize();
    return 0;
}
