/* Messages over 2 GiB (test/mpi/large.py), 2 ranks: rank 0 sends rank 1
 * one message of 2,202,009,600 bytes (2,100 blocks of a 1 MiB contiguous
 * type, so the count fits an int while the bytes do not) with
 * MPI_Send/MPI_Recv, then with MPI_Isend/MPI_Irecv and MPI_Wait, and, where
 * the library has the MPI 4 large-count routines, with MPI_Send_c/MPI_Recv_c
 * and MPI_Isend_c/MPI_Irecv_c and a plain MPI_BYTE count (and two small
 * collectives, MPI_Bcast_c and MPI_Allgatherv_c).
 *
 * The buffers are malloc'ed and only their first and last bytes are
 * written or read here: MPI touches the pages it copies, the program no
 * more than it must. */
#include <stdint.h>
#include <string.h>

#include "common.h"

#define BLOCK_BYTES 1048576
#define BLOCKS 2100
#define TOTAL_BYTES ((size_t)BLOCK_BYTES * BLOCKS)

static MPI_Datatype block;
static unsigned char *buffer;

/* The receiver checks the first and the last byte of what arrived. */
static void mark(unsigned char first, unsigned char last)
{
    buffer[0] = first;
    buffer[TOTAL_BYTES - 1] = last;
}

static long long arrived(unsigned char first, unsigned char last)
{
    return buffer[0] == first && buffer[TOTAL_BYTES - 1] == last;
}

/* The bytes a status says arrived, as the program sees them. */
static long long status_bytes(const MPI_Status *st)
{
    MPI_Count n = 0;
    EXPECT(MPI_Get_elements_x(st, MPI_BYTE, &n) == MPI_SUCCESS);
    return (long long)n;
}

NOINLINE static long long blocking(void)
{
    long long ok = 1;
    if (world_rank == 0) {
        mark(1, 2);
        MPI_Send(buffer, BLOCKS, block, 1, 1, MPI_COMM_WORLD);
    } else if (world_rank == 1) {
        MPI_Status st;
        MPI_Recv(buffer, BLOCKS, block, 0, 1, MPI_COMM_WORLD, &st);
        int count = 0;
        MPI_Get_count(&st, block, &count);
        ok = count == BLOCKS && status_bytes(&st) == (long long)TOTAL_BYTES && arrived(1, 2);
    }
    return ok;
}

NOINLINE static long long nonblocking(void)
{
    long long ok = 1;
    MPI_Request request;
    MPI_Status st;
    if (world_rank == 0) {
        mark(3, 4);
        MPI_Isend(buffer, BLOCKS, block, 1, 2, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (world_rank == 1) {
        MPI_Irecv(buffer, BLOCKS, block, 0, 2, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, &st);
        ok = status_bytes(&st) == (long long)TOTAL_BYTES && arrived(3, 4);
    }
    return ok;
}

#if MPI_VERSION >= 4
#define LARGE_COUNT 1
NOINLINE static long long large_count(void)
{
    long long ok = 1;
    MPI_Request request;
    MPI_Status st;
    MPI_Count count = (MPI_Count)TOTAL_BYTES;
    if (world_rank == 0) {
        mark(5, 6);
        MPI_Send_c(buffer, count, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
        MPI_Recv(&ok, 1, MPI_LONG_LONG, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mark(7, 8);
        MPI_Isend_c(buffer, count, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (world_rank == 1) {
        MPI_Recv_c(buffer, count, MPI_BYTE, 0, 3, MPI_COMM_WORLD, &st);
        MPI_Count n = 0;
        MPI_Get_count_c(&st, MPI_BYTE, &n);
        ok = n == count && arrived(5, 6);
        MPI_Send(&ok, 1, MPI_LONG_LONG, 0, 4, MPI_COMM_WORLD);
        MPI_Irecv_c(buffer, count, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, &st);
        ok = ok && status_bytes(&st) == (long long)TOTAL_BYTES && arrived(7, 8);
    }
    /* Two small large-count collectives: a scalar MPI_Count and an array
     * of them (MPI_Aint displacements). */
    double d[7] = {world_rank == 0 ? 1.5 : 0.0};
    MPI_Bcast_c(d, 7, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int mine[5] = {world_rank + 1, world_rank + 1, world_rank + 1, world_rank + 1, world_rank + 1};
    int all[8] = {0};
    MPI_Count counts[2] = {3, 5};
    MPI_Aint displs[2] = {0, 3};
    MPI_Allgatherv_c(mine, counts[world_rank], MPI_INT, all, counts, displs, MPI_INT,
                     MPI_COMM_WORLD);
    ok = ok && d[0] == 1.5 && all[0] == 1 && all[2] == 1 && all[3] == 2 && all[7] == 2;
    return ok;
}
#else
#define LARGE_COUNT 0
#endif

int main(int argc, char **argv)
{
    start(&argc, &argv);
    EXPECT(world_size == 2);
    MPI_Type_contiguous(BLOCK_BYTES, MPI_BYTE, &block);
    MPI_Type_commit(&block);
    buffer = malloc(TOTAL_BYTES);
    EXPECT(buffer != NULL);
    report("blocking", blocking());
    report("nonblocking", nonblocking());
#if LARGE_COUNT
    report("large-count", large_count());
#endif
    if (world_rank == 0)
        printf("large-count routines: %d\n", LARGE_COUNT);
    free(buffer);
    MPI_Type_free(&block);
    MPI_Finalize();
    return 0;
}
