/* What the MPI wrappers cost on each kind of communicator, one rank
 * (bench/comm_cost.py): an 8-byte MPI_Sendrecv to the rank itself and an
 * 8-byte MPI_Allreduce per iteration, on MPI_COMM_WORLD, MPI_COMM_SELF, a
 * communicator from MPI_Comm_split and one from MPI_Cart_create.  Built
 * without hooktrace (comm_calls_plain) and linked with it, not
 * instrumented (comm_calls_hooktrace).
 *
 * The driver runs it under callgrind with --toggle-collect=cc_measured:
 * only the measured loop counts, start-up, the warm-up (the first call on
 * a communicator builds its rank table) and MPI_Finalize do not.
 *
 * Usage: comm_calls -c world|self|split|cart [-n ITERATIONS] [-w WARMUP] */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define LOOP_FN __attribute__((noinline))
#else
#define LOOP_FN __attribute__((noinline, noipa))
#endif

LOOP_FN void cc_loop(MPI_Comm comm, long iterations);
LOOP_FN void cc_measured(MPI_Comm comm, long iterations);

LOOP_FN void cc_loop(MPI_Comm comm, long iterations)
{
    int me = 0;
    MPI_Comm_rank(comm, &me);
    int64_t out = 1, in = 0, sum = 0;
    for (long i = 0; i < iterations; i++) {
        MPI_Sendrecv(&out, 1, MPI_INT64_T, me, 5, &in, 1, MPI_INT64_T, me, 5, comm,
                     MPI_STATUS_IGNORE);
        MPI_Allreduce(&in, &sum, 1, MPI_INT64_T, MPI_SUM, comm);
        out = sum & 7;
    }
}

/* The loop callgrind counts (its own name, for --toggle-collect). */
LOOP_FN void cc_measured(MPI_Comm comm, long iterations)
{
    cc_loop(comm, iterations);
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s -c world|self|split|cart [-n ITERATIONS] [-w WARMUP]\n", prog);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    long iterations = 1000, warmup = 100;
    const char *kind = NULL;
    MPI_Init(&argc, &argv);
    int opt;
    while ((opt = getopt(argc, argv, "c:n:w:")) != -1) {
        if (opt == 'c')
            kind = optarg;
        else if (opt == 'n')
            iterations = atol(optarg);
        else if (opt == 'w')
            warmup = atol(optarg);
        else
            usage(argv[0]);
    }
    if (!kind || iterations < 1 || warmup < 0)
        usage(argv[0]);

    MPI_Comm comm = MPI_COMM_NULL;
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(kind, "world") == 0) {
        comm = MPI_COMM_WORLD;
    } else if (strcmp(kind, "self") == 0) {
        comm = MPI_COMM_SELF;
    } else if (strcmp(kind, "split") == 0) {
        MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &comm);
    } else if (strcmp(kind, "cart") == 0) {
        int dims[1] = {size}, periods[1] = {1};
        MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &comm);
    } else {
        usage(argv[0]);
    }
    cc_loop(comm, warmup);
    cc_measured(comm, iterations);
    printf("comm=%s iterations=%ld\n", kind, iterations);
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
        MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
