/* Cost per MPI call, 2 ranks: a 0-byte and an 8-byte ping-pong
 * (MPI_Send/MPI_Recv) and an 8-byte MPI_Allreduce, each a timed loop.
 *
 * The same source is built three ways (bench/local.mk):
 *   mpi_calls_plain          MPI only, no hooktrace
 *   mpi_calls_hooktrace      linked with libhooktrace, not instrumented: only
 *                            the MPI wrappers add cost
 *   mpi_calls_instrumented   the same with -finstrument-functions: the timed
 *                            loops are instrumented functions (entered once
 *                            per loop), so the MPI routines' nodes sit under
 *                            a recorded caller, as in a profiled program
 * bench/mpi_cost.py runs the first two under mpirun and prints the tables;
 * bench/wrapper_instructions.sh counts the third's instructions per call.
 *
 * What one test reports is nanoseconds per MPI call per rank: loop time
 * divided by the MPI calls the rank made in the loop (a ping-pong iteration
 * is one MPI_Send and one MPI_Recv on each rank, so 2 calls; an Allreduce
 * iteration is 1).  Each rank times its own loop with CLOCK_MONOTONIC after
 * a warm-up and a barrier; the line printed holds both ranks' values and
 * their mean.  Each test runs REPS times, the tests interleaved, and the
 * median of the repetitions is printed.
 *
 * Usage: mpi_calls [-n ITERATIONS] [-r REPS] [-w WARMUP] [-t TEST,...]
 *   tests: pp0 (0-byte ping-pong), pp8 (8-byte ping-pong), ar8 (8-byte
 *   MPI_Allreduce of one int64, MPI_SUM), all on MPI_COMM_WORLD (the
 *   default: these three); pp8dup (the 8-byte ping-pong on a duplicate of
 *   MPI_COMM_WORLD, where hooktrace must translate ranks to world ranks).
 *   ar8 alone also runs with more than 2 ranks (ranks 0 and 1 report).
 *
 * Output (rank 0), one line per test:
 *   test=pp0 calls_per_rank=... ns_per_call=MEAN rank0=... rank1=... cpu_share=... reps=...
 * where cpu_share is the smallest CPU time / wall time of any timed loop of
 * that test on either rank (Open MPI polls while it waits: below 1 a rank
 * was descheduled during a loop).
 * and one line naming the library each timed MPI routine resolved to, so
 * the driver can tell a wrapped routine from one hooktrace does not wrap:
 *   resolved MPI_Send=libhooktrace.so.0 MPI_Recv=... MPI_Allreduce=...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINSTR __attribute__((no_instrument_function))
/* The timed loops: real functions, so that in the instrumented build each is
 * one recorded call per loop and the MPI routines are its children. */
#if defined(__clang__)
#define LOOP_FN __attribute__((noinline))
#else
#define LOOP_FN __attribute__((noinline, noipa))
#endif

#define MAX_REPS 64
#define TAG 17

enum test { PP0, PP8, AR8, PP8DUP, NTESTS };
static const char *const test_names[NTESTS] = {"pp0", "pp8", "ar8", "pp8dup"};
static const int calls_per_iteration[NTESTS] = {2, 2, 1, 2};

static int rank, size, peer;
static MPI_Comm dup_comm; /* a duplicate of MPI_COMM_WORLD, for pp8dup */

NOINSTR static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

LOOP_FN void mc_pingpong(long iterations, void *buf, int bytes, MPI_Comm comm);
LOOP_FN void mc_allreduce(long iterations);

/* Rank 0 sends first and rank 1 answers: 2 MPI calls per rank per iteration. */
LOOP_FN void mc_pingpong(long iterations, void *buf, int bytes, MPI_Comm comm)
{
    if (rank == 0) {
        for (long i = 0; i < iterations; i++) {
            MPI_Send(buf, bytes, MPI_BYTE, peer, TAG, comm);
            MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG, comm, MPI_STATUS_IGNORE);
        }
    } else {
        for (long i = 0; i < iterations; i++) {
            MPI_Recv(buf, bytes, MPI_BYTE, peer, TAG, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, peer, TAG, comm);
        }
    }
}

LOOP_FN void mc_allreduce(long iterations)
{
    int64_t in = rank + 1, out = 0;
    for (long i = 0; i < iterations; i++) {
        MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        in = out & 7;
    }
}

NOINSTR static void run(enum test t, long iterations)
{
    char buf[8] = {0};
    switch (t) {
    case PP0:
        mc_pingpong(iterations, buf, 0, MPI_COMM_WORLD);
        break;
    case PP8:
        mc_pingpong(iterations, buf, 8, MPI_COMM_WORLD);
        break;
    case PP8DUP:
        mc_pingpong(iterations, buf, 8, dup_comm);
        break;
    default:
        mc_allreduce(iterations);
        break;
    }
}

/* Nanoseconds per MPI call on this rank for one timed loop; *share gets
 * the rank's CPU time / wall time over the loop (Open MPI polls while it
 * waits, so below 1 the rank was descheduled). */
NOINSTR static double timed(enum test t, long iterations, long warmup, double *share)
{
    run(t, warmup);
    MPI_Barrier(MPI_COMM_WORLD);
    uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
    run(t, iterations);
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
    uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    *share = (double)(c1 - c0) / (double)(t1 - t0);
    return (double)(t1 - t0) / ((double)iterations * calls_per_iteration[t]);
}

NOINSTR static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

NOINSTR static double median(double *xs, int n)
{
    qsort(xs, (size_t)n, sizeof *xs, cmp_double);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

/* The file name of the object that defines the symbol the program calls. */
NOINSTR static const char *resolved(void *address)
{
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fname)
        return "?";
    const char *slash = strrchr(info.dli_fname, '/');
    return slash ? slash + 1 : info.dli_fname;
}

NOINSTR static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-n ITERATIONS] [-r REPS] [-w WARMUP] [-t pp0,pp8,ar8,pp8dup]\n",
            prog);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

NOINSTR int main(int argc, char **argv)
{
    long iterations = 200000, warmup = 20000;
    int reps = 5;
    int tests[NTESTS], ntests = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "mpi_calls: run with 2 ranks (got %d)\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    peer = 1 - rank;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);

    int opt;
    while ((opt = getopt(argc, argv, "n:r:w:t:")) != -1) {
        switch (opt) {
        case 'n':
            iterations = atol(optarg);
            break;
        case 'r':
            reps = atoi(optarg);
            break;
        case 'w':
            warmup = atol(optarg);
            break;
        case 't':
            for (char *s = strtok(optarg, ","); s; s = strtok(NULL, ",")) {
                int found = -1;
                for (int i = 0; i < NTESTS; i++)
                    if (strcmp(s, test_names[i]) == 0)
                        found = i;
                if (found < 0 || ntests == NTESTS)
                    usage(argv[0]);
                tests[ntests++] = found;
            }
            break;
        default:
            usage(argv[0]);
        }
    }
    if (ntests == 0) /* the default: the three tests of the target */
        for (int i = 0; i < PP8DUP; i++)
            tests[ntests++] = i;
    if (iterations < 1 || warmup < 0 || reps < 1 || reps > MAX_REPS)
        usage(argv[0]);
    /* Only ar8 makes sense with more than 2 ranks (to see how the cost of
     * an Allreduce grows with the communicator). */
    for (int i = 0; i < ntests; i++)
        if (size != 2 && tests[i] != AR8) {
            if (rank == 0)
                fprintf(stderr, "mpi_calls: %s needs exactly 2 ranks (got %d)\n",
                        test_names[tests[i]], size);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }

    /* Repetitions interleave the tests: rep 0 runs every test, then rep 1... */
    static double ns[NTESTS][MAX_REPS];
    double share[NTESTS];
    for (int i = 0; i < NTESTS; i++)
        share[i] = 1;
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < ntests; i++) {
            double sh;
            ns[tests[i]][r] = timed(tests[i], iterations, r == 0 ? warmup : warmup / 10, &sh);
            if (sh < share[tests[i]])
                share[tests[i]] = sh;
        }

    for (int i = 0; i < ntests; i++) {
        enum test t = tests[i];
        double mine[2] = {median(ns[t], reps), share[t]}, theirs[2] = {0, 0};
        /* Rank 1's median and CPU share to rank 0 (outside the timed loops). */
        if (rank == 1)
            MPI_Send(mine, 2, MPI_DOUBLE, 0, TAG + 1, MPI_COMM_WORLD);
        else if (rank == 0)
            MPI_Recv(theirs, 2, MPI_DOUBLE, 1, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank == 0)
            printf("test=%s calls_per_rank=%ld ns_per_call=%.2f rank0=%.2f rank1=%.2f "
                   "cpu_share=%.3f reps=%d\n",
                   test_names[t], iterations * calls_per_iteration[t], (mine[0] + theirs[0]) / 2,
                   mine[0], theirs[0], mine[1] < theirs[1] ? mine[1] : theirs[1], reps);
    }
    if (rank == 0) {
        printf("resolved MPI_Send=%s MPI_Recv=%s MPI_Allreduce=%s\n", resolved((void *)&MPI_Send),
               resolved((void *)&MPI_Recv), resolved((void *)&MPI_Allreduce));
        fflush(stdout);
    }
    MPI_Comm_free(&dup_comm);
    MPI_Finalize();
    return 0;
}
