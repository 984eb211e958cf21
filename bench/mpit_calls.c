/* Cost per MPI call when hooktrace reads MPI_T performance variables around
 * it (bench/mpit_cost.py runs this with 0, 1 and 10 pvars selected).
 *
 * One rank, two timed loops of cheap MPI calls, so the added cost is not
 * hidden behind communication:
 *   send0:  MPI_Send of 0 bytes to MPI_PROC_NULL
 *   ar8:    MPI_Allreduce of one int64 (MPI_SUM) on MPI_COMM_SELF
 * Each loop runs REPS times after a warm-up; the median ns per call is
 * printed, with the smallest CPU share of any timed loop (below 1: the
 * process was descheduled).
 *
 * Built twice (test/mpit/local.mk): mpit_calls (linked with libhooktrace,
 * not instrumented: only the MPI wrappers add cost) and mpit_calls_plain.
 *
 * Usage: mpit_calls [-n ITERATIONS] [-r REPS]
 * Output: "test=send0 ns_per_call=... cpu_share=... reps=..." per test. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 64

static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void send0(long n)
{
    for (long i = 0; i < n; i++)
        MPI_Send(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
}

static void ar8(long n)
{
    int64_t in = 1, out = 0;
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_SELF);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run(const char *name, void (*loop)(long), long n, int reps)
{
    double ns[MAX_REPS], share = 1.0;
    loop(n / 10 + 1);
    for (int r = 0; r < reps; r++) {
        uint64_t w0 = clock_ns(CLOCK_MONOTONIC), c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        loop(n);
        uint64_t w1 = clock_ns(CLOCK_MONOTONIC), c1 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        ns[r] = (double)(w1 - w0) / (double)n;
        double s = (double)(c1 - c0) / (double)(w1 - w0);
        if (s < share)
            share = s;
    }
    qsort(ns, (size_t)reps, sizeof ns[0], by_value);
    printf("test=%s ns_per_call=%.2f cpu_share=%.2f reps=%d\n", name, ns[reps / 2], share, reps);
}

int main(int argc, char **argv)
{
    long n = 1000000;
    int reps = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-n") == 0)
            n = atol(argv[i + 1]);
        else if (strcmp(argv[i], "-r") == 0)
            reps = atoi(argv[i + 1]);
    }
    if (reps < 1 || reps > MAX_REPS || n < 1) {
        fprintf(stderr, "usage: mpit_calls [-n ITERATIONS] [-r REPS (1-%d)]\n", MAX_REPS);
        return 2;
    }
    MPI_Init(&argc, &argv);
    run("send0", send0, n, reps);
    run("ar8", ar8, n, reps);
    MPI_Finalize();
    return 0;
}
