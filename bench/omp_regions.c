/* What an OpenMP construct costs with libhooktrace's libgomp wrappers
 * (src/hooks/openmp.c, openmp_tasks.c), for bench/omp_cost.py.  The bodies
 * are empty but for a compiler barrier, so that GCC keeps the constructs.
 *
 *   omp_regions regions N   N empty parallel regions
 *   omp_regions tasks N     one region in which one thread makes N empty
 *                           tasks in batches of 64, which the team runs
 *
 * after a warm-up of N / 100; prints the nanoseconds per region or task
 * (CLOCK_MONOTONIC over the N).  Built twice: without hooktrace, and with
 * -finstrument-functions linked to libhooktrace. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void regions(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp parallel
        __asm__ __volatile__("" ::: "memory"); /* kept, but no call */
    }
}

static void tasks(long n)
{
#pragma omp parallel
#pragma omp single
    for (long i = 0; i < n; i++) {
#pragma omp task
        __asm__ __volatile__("" ::: "memory");
        /* Batches of 64, so that libgomp defers them (it runs a task at
         * once when more than 64 per thread are queued). */
        if (i % 64 == 63) {
#pragma omp taskwait
        }
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "regions";
    long n = argc > 2 ? atol(argv[2]) : 100000;
    void (*run)(long) = strcmp(what, "tasks") == 0 ? tasks : regions;
    run(n / 100 + 1);
    double start = now();
    run(n);
    printf("%s %ld threads %d ns %.1f\n", what, n, omp_get_max_threads(), (now() - start) * 1e9 / n);
    return 0;
}
