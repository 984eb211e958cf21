/* Throttling in an MPI program on 4 ranks (docs/throttle.md; the checks
 * are in test/mpi/throttle.py).  Three loops of N calls, each call far
 * under the threshold: a pure leaf, which throttling should silence, and
 * two paths into MPI, which it must leave alone so that every message
 * keeps its stack. */
#include "common.h"

#define N 5000

static long long checksum;

/* Nanoseconds a call: throttled after its 1001st call. */
NOINLINE static long long tiny(int i) { return (long long)i * i % 7; }

NOINLINE static void compute(void)
{
    for (int i = 0; i < N; i++)
        checksum += tiny(i);
}

/* One int around the ring per call, started here and completed by ring()
 * every BLOCK calls: a blocking exchange would wait for the other ranks,
 * which takes far more than the threshold when they outnumber the cores,
 * and exchange would then stay recorded for being slow, not for its MPI
 * calls.  Posting costs a few microseconds, well under the threshold. */
#define BLOCK 100
static int out[BLOCK], in[BLOCK];
static MPI_Request req[2 * BLOCK];

NOINLINE static void exchange(int k)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    int j = k % BLOCK;
    out[j] = world_rank * N + k;
    MPI_Irecv(&in[j], 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &req[2 * j]);
    MPI_Isend(&out[j], 1, MPI_INT, next, 7, MPI_COMM_WORLD, &req[2 * j + 1]);
}

NOINLINE static void ring(void)
{
    int prev = (world_rank + world_size - 1) % world_size;
    for (int k = 0; k < N; k++) {
        exchange(k);
        if (k % BLOCK == BLOCK - 1) {
            MPI_Waitall(2 * BLOCK, req, MPI_STATUSES_IGNORE);
            for (int j = 0; j < BLOCK; j++) {
                EXPECT(in[j] == prev * N + k - (BLOCK - 1) + j);
                checksum += in[j] % 11;
            }
        }
    }
}

/* An MPI call two levels down that moves nothing and returns at once
 * (MPI_PROC_NULL both ways: Open MPI does not even run its progress loop,
 * which yields the CPU when ranks outnumber cores), so that outer and
 * middle take well under a microsecond and only their being MPI ancestors
 * keeps them recorded. */
NOINLINE static int middle(void)
{
    int out = 1, in = 0;
    MPI_Sendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 8, &in, 1, MPI_INT, MPI_PROC_NULL, 8,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return in;
}

NOINLINE static int outer(void) { return middle(); }

/* MPI-free and cheap for its first N calls, then one call with MPI beneath:
 * throttled at its 1001st call, before any MPI call marked it, so that
 * later MPI call is recorded under its caller (docs/throttle.md). */
NOINLINE static int late(int k)
{
    if (k < N)
        return k & 1;
    int out = 1, in = 0;
    MPI_Sendrecv(&out, 1, MPI_INT, MPI_PROC_NULL, 9, &in, 1, MPI_INT, MPI_PROC_NULL, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return in;
}

NOINLINE static void late_caller(void)
{
    for (int k = 0; k <= N; k++)
        checksum += late(k);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    if (world_size != 4) {
        if (world_rank == 0)
            fprintf(stderr, "throttle_mpi: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    compute();
    ring();
    for (int k = 0; k < N; k++)
        EXPECT(outer() == 0);
    late_caller();
    report("throttle_mpi", checksum);
    MPI_Finalize();
    return 0;
}
