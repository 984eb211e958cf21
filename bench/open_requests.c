/* Hook cost while the calling thread has open MPI requests.
 *
 * Run under mpirun with 2 ranks.  Rank 0 is measured; rank 1 only waits
 * (sleeping, so that it leaves its CPU idle) until rank 0 is done.  For each
 * count K of open requests, rank 0
 *   1. posts K MPI_Irecv from rank 1 that rank 1 never sends (so they stay
 *      open: hooktrace registers them and polls them from its hooks),
 *   2. runs a warm-up and then a timed loop of tiny instrumented calls (the
 *      shape of bench/hook_kernel.c's "mixed" pattern: 3 instrumented calls
 *      per iteration, one last-child cache hit and two sibling switches),
 *   3. times PMPI_Request_get_status on one of the open requests (what one
 *      poll of one request costs), if K > 0,
 *   4. cancels the K receives and completes them with MPI_Waitall, so that
 *      nothing is left open at MPI_Finalize.
 * Built with -finstrument-functions and linked with libhooktrace (bench/
 * local.mk); bench/mpi_cost.py runs it.  The poll settings come from the
 * config file named by HOOKTRACE_CONFIG (mpi.poll_interval_us, poll_batch).
 *
 * The program interposes PMPI_Request_get_status (the routine hooktrace
 * polls with) to count the calls made during each timed loop; the count
 * costs one increment per poll, outside the hook's common path.
 *
 * Usage: open_requests [-n CALLS] [-k 0,10,100,1000] [-r REPS] [-g GETSTATUS_CALLS]
 * Output (rank 0), one line per K (medians over REPS, the K interleaved):
 *   open=K ns_per_call=... min=... max=... get_status_ns=... polled_per_kcall=...
 *   cpu_share=...
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

/* MPICH declares MPI_Waitall's statuses as an array: GCC 12 then warns that
 * MPI_STATUSES_IGNORE (a special address) is "a region of size 0". */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define NOINSTR __attribute__((no_instrument_function))
#if defined(__clang__)
#define KERNEL_FN __attribute__((noinline))
#else
#define KERNEL_FN __attribute__((noinline, noipa))
#endif
#define OPAQUE(x) __asm__ volatile("" : "+r"(x))

#define CALLS_PER_ITERATION 3
#define MAX_COUNTS 16
#define MAX_REPS 64
#define MAX_OPEN 100000
#define TAG_OPEN 101
#define TAG_DONE 102

/* --- the counting interposer ---------------------------------------------- */

typedef int (*get_status_fn)(MPI_Request, int *, MPI_Status *);
static get_status_fn real_get_status;
static unsigned long get_status_calls;

NOINSTR int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    get_status_calls++;
    return real_get_status(request, flag, status);
}

/* --- the kernel (instrumented) -------------------------------------------- */

KERNEL_FN uint64_t or_leaf1(uint64_t x);
KERNEL_FN uint64_t or_leaf2(uint64_t x);
KERNEL_FN uint64_t or_work(uint64_t x);
KERNEL_FN uint64_t or_loop(uint64_t iterations, uint64_t seed);

KERNEL_FN uint64_t or_leaf1(uint64_t x)
{
    x = x * 3 + 1;
    OPAQUE(x);
    return x;
}

KERNEL_FN uint64_t or_leaf2(uint64_t x)
{
    x ^= x >> 7;
    OPAQUE(x);
    return x;
}

KERNEL_FN uint64_t or_work(uint64_t x)
{
    return or_leaf1(x) + or_leaf2(x);
}

/* Instrumented too: one call per loop, so the kernel runs at depth 1. */
KERNEL_FN uint64_t or_loop(uint64_t iterations, uint64_t seed)
{
    uint64_t acc = seed;
    for (uint64_t i = 0; i < iterations; i++)
        acc += or_work(acc + i);
    return acc;
}

/* --- measurement ------------------------------------------------------------ */

NOINSTR static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NOINSTR static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

NOINSTR static double median(const double *in, int n)
{
    double xs[MAX_REPS];
    memcpy(xs, in, (size_t)n * sizeof *xs);
    qsort(xs, (size_t)n, sizeof *xs, cmp_double);
    return n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

struct sample {
    double ns_per_call, cpu_share, get_status_ns, polled_per_kcall;
};

static MPI_Request requests[MAX_OPEN];
static int buffers[MAX_OPEN];
static uint64_t checksum;

NOINSTR static struct sample measure(int open, uint64_t calls, long get_status_loops)
{
    struct sample s = {0};
    for (int i = 0; i < open; i++)
        MPI_Irecv(&buffers[i], 1, MPI_INT, 1, TAG_OPEN, MPI_COMM_WORLD, &requests[i]);

    uint64_t iterations = calls / CALLS_PER_ITERATION;
    checksum += or_loop(iterations / 10 + 1, checksum); /* warm-up */
    unsigned long polls0 = get_status_calls;
    uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
    checksum += or_loop(iterations, checksum);
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
    uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    unsigned long polls = get_status_calls - polls0;
    /* The call of or_loop itself is one of the instrumented calls. */
    double n = (double)(iterations * CALLS_PER_ITERATION + 1);
    s.ns_per_call = (double)(t1 - t0) / n;
    s.cpu_share = (double)(c1 - c0) / (double)(t1 - t0);
    s.polled_per_kcall = (double)polls * 1000.0 / n;

    if (open > 0 && get_status_loops > 0) {
        int flag = 0;
        MPI_Status st;
        uint64_t g0 = clock_ns(CLOCK_MONOTONIC);
        for (long i = 0; i < get_status_loops; i++)
            real_get_status(requests[i % open], &flag, &st);
        uint64_t g1 = clock_ns(CLOCK_MONOTONIC);
        s.get_status_ns = (double)(g1 - g0) / (double)get_status_loops;
    }

    for (int i = 0; i < open; i++)
        MPI_Cancel(&requests[i]);
    MPI_Waitall(open, requests, MPI_STATUSES_IGNORE);
    return s;
}

NOINSTR static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-n CALLS] [-k 0,10,100,1000] [-r REPS] [-g GETSTATUS_CALLS]\n",
            prog);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

NOINSTR int main(int argc, char **argv)
{
    uint64_t calls = 6000000;
    int counts[MAX_COUNTS] = {0, 10, 100, 1000}, ncounts = 4;
    int reps = 3;
    long get_status_loops = 100000;
    int rank, size;

    real_get_status = (get_status_fn)dlsym(RTLD_NEXT, "PMPI_Request_get_status");
    if (!real_get_status) {
        fprintf(stderr, "open_requests: PMPI_Request_get_status not found: %s\n", dlerror());
        return 1;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "open_requests: run with exactly 2 ranks (got %d)\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    int opt;
    while ((opt = getopt(argc, argv, "n:k:r:g:")) != -1) {
        switch (opt) {
        case 'n':
            calls = strtoull(optarg, NULL, 10);
            break;
        case 'k':
            ncounts = 0;
            for (char *s = strtok(optarg, ","); s; s = strtok(NULL, ",")) {
                if (ncounts == MAX_COUNTS)
                    usage(argv[0]);
                counts[ncounts] = atoi(s);
                if (counts[ncounts] < 0 || counts[ncounts] > MAX_OPEN)
                    usage(argv[0]);
                ncounts++;
            }
            break;
        case 'r':
            reps = atoi(optarg);
            break;
        case 'g':
            get_status_loops = atol(optarg);
            break;
        default:
            usage(argv[0]);
        }
    }
    if (calls < CALLS_PER_ITERATION || ncounts == 0 || reps < 1 || reps > MAX_REPS)
        usage(argv[0]);

    if (rank == 1) {
        /* Wait for rank 0 without spinning on a CPU. */
        MPI_Request done;
        int flag = 0, dummy;
        MPI_Irecv(&dummy, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, &done);
        struct timespec pause = {0, 500000};
        while (MPI_Test(&done, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && !flag)
            nanosleep(&pause, NULL);
    } else {
        static struct sample samples[MAX_COUNTS][MAX_REPS];
        /* Repetitions interleave the counts, each starting one further on. */
        for (int r = 0; r < reps; r++)
            for (int j = 0; j < ncounts; j++) {
                int i = (j + r) % ncounts;
                samples[i][r] = measure(counts[i], calls, get_status_loops);
            }
        for (int i = 0; i < ncounts; i++) {
            double ns[MAX_REPS], gs[MAX_REPS], polled[MAX_REPS], share = 1;
            for (int r = 0; r < reps; r++) {
                ns[r] = samples[i][r].ns_per_call;
                gs[r] = samples[i][r].get_status_ns;
                polled[r] = samples[i][r].polled_per_kcall;
                if (samples[i][r].cpu_share < share)
                    share = samples[i][r].cpu_share;
            }
            double lo = ns[0], hi = ns[0];
            for (int r = 1; r < reps; r++) {
                lo = ns[r] < lo ? ns[r] : lo;
                hi = ns[r] > hi ? ns[r] : hi;
            }
            printf("open=%d ns_per_call=%.3f min=%.3f max=%.3f get_status_ns=%.1f "
                   "polled_per_kcall=%.3f cpu_share=%.3f reps=%d\n",
                   counts[i], median(ns, reps), lo, hi, median(gs, reps), median(polled, reps),
                   share, reps);
        }
        printf("checksum=%llu\n", (unsigned long long)(checksum & 0xffff));
        fflush(stdout);
        int dummy = 0;
        MPI_Send(&dummy, 1, MPI_INT, 1, TAG_DONE, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
