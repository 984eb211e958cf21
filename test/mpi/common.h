/* Shared by the MPI test programs: a deterministic report and small
 * helpers.  Every program prints only from rank 0, so its stdout does not
 * depend on how mpirun interleaves the ranks' output.
 *
 * The report is point-to-point on MPI_COMM_WORLD with tag HT_TAG_REPORT:
 * rank r > 0 sends one long long (8 bytes) to rank 0 from main;report;MPI_Send,
 * rank 0 receives them from main;report;MPI_Recv (the Python models count
 * these messages too). */
#ifndef HT_TEST_MPI_COMMON_H
#define HT_TEST_MPI_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* The MPI headers declare array parameters (MPICH with access attributes),
 * while MPI_STATUSES_IGNORE (MPICH) and MPI_UNWEIGHTED (Open MPI) are
 * special addresses: GCC 12 then warns that MPI_Testall writes, or
 * MPI_Dist_graph_create_adjacent reads, "a region of size 0". */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

#define HT_TAG_REPORT 999
#define NOINLINE __attribute__((noinline))

static int world_rank, world_size;

/* Stops the run with a clear message if an MPI result is not what the
 * program expects (wrong data means the wrapper changed what MPI did). */
#define EXPECT(cond)                                                                     \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "rank %d: %s:%d: expected %s\n", world_rank, __FILE__,        \
                    __LINE__, #cond);                                                    \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                \
        }                                                                                \
    } while (0)

/* Rank 0 prints "<name> rank <r>: <value>" for every rank, in rank order. */
NOINLINE static void report(const char *name, long long value)
{
    if (world_rank == 0) {
        printf("%s rank 0: %lld\n", name, value);
        for (int r = 1; r < world_size; r++) {
            long long v = 0;
            MPI_Recv(&v, 1, MPI_LONG_LONG, r, HT_TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            printf("%s rank %d: %lld\n", name, r, v);
        }
        fflush(stdout);
    } else {
        MPI_Send(&value, 1, MPI_LONG_LONG, 0, HT_TAG_REPORT, MPI_COMM_WORLD);
    }
}

static void start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
}

#endif
