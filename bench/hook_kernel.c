/* The hook-cost kernel: T threads, each making a fixed number of calls to a
 * few tiny functions, timed with CLOCK_MONOTONIC.  It prints the nanoseconds
 * one call costs, hooks included.
 *
 * The same source is built once without -finstrument-functions (the
 * "uninstrumented" row) and once per hook implementation with it: empty
 * hooks, hooks that only read the TSC, and libhooktrace (run with and
 * without HOOKTRACE_OFF=1).  bench/hook_cost.py runs them all.
 *
 * Call shape (each thread):
 *
 *     bench_thread ─ loop ─▶ work ─▶ leaf1      pattern "mixed" (default)
 *                                 └▶ leaf2
 *
 *     bench_thread ─ loop ─▶ work ─▶ leaf1      pattern "hit"
 *                                 └▶ leaf1
 *
 *     bench_thread ─ loop ─▶ work ─▶ region "r" ─▶ leaf1     pattern "region"
 *                                                 └▶ leaf1
 *
 * Every loop iteration makes exactly three instrumented calls (work and two
 * leaves); "region" also opens and closes one region (docs/regions.md)
 * around the two leaves, so that its time less "hit"'s is a region pair's
 * (the builds without libhooktrace have no region: its calls do nothing).  In "mixed" the work node's children alternate, so in hooktrace
 * one call in three finds its node through the last-child cache and two go
 * through the hash index (a sibling switch); "hit" is the all-cache-hit case.
 *
 * Only bench_thread, work, leaf1 and leaf2 are instrumented; main and the
 * helpers are marked no_instrument_function, so the count of instrumented
 * calls in the timed loop is exact: 3 per iteration.
 *
 * Usage: hook_kernel_VARIANT [-n CALLS_PER_THREAD] [-t THREADS] [-p mixed|hit|region] [-a]
 *   -a pins thread i to CPU i (mod the online CPUs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hooktrace.h>

#ifndef HK_VARIANT
#define HK_VARIANT "unnamed"
#endif

#define NOINSTR __attribute__((no_instrument_function))
/* Kernel functions must stay real calls: not inlined, not cloned, not
 * removed by interprocedural analysis. */
#if defined(__clang__)
#define KERNEL_FN __attribute__((noinline))
#else
#define KERNEL_FN __attribute__((noinline, noipa))
#endif
/* An optimisation barrier: the value is opaque to the compiler. */
#define OPAQUE(x) __asm__ volatile("" : "+r"(x))

#define CALLS_PER_ITERATION 3
#define DEFAULT_CALLS 20000000ull
#define MAX_THREADS 64

KERNEL_FN uint64_t hk_leaf1(uint64_t x);
KERNEL_FN uint64_t hk_leaf2(uint64_t x);
KERNEL_FN uint64_t hk_work_mixed(uint64_t x);
KERNEL_FN uint64_t hk_work_hit(uint64_t x);
KERNEL_FN uint64_t hk_work_region(uint64_t x);

KERNEL_FN uint64_t hk_leaf1(uint64_t x)
{
    x = x * 3 + 1;
    OPAQUE(x);
    return x;
}

KERNEL_FN uint64_t hk_leaf2(uint64_t x)
{
    x ^= x >> 7;
    OPAQUE(x);
    return x;
}

KERNEL_FN uint64_t hk_work_mixed(uint64_t x)
{
    return hk_leaf1(x) + hk_leaf2(x);
}

KERNEL_FN uint64_t hk_work_hit(uint64_t x)
{
    return hk_leaf1(x) + hk_leaf1(x + 1);
}

KERNEL_FN uint64_t hk_work_region(uint64_t x)
{
    hooktrace_region_begin("r");
    uint64_t y = hk_leaf1(x) + hk_leaf1(x + 1);
    hooktrace_region_end("r");
    return y;
}

struct worker {
    pthread_t id;
    int cpu; /* pin to this CPU, or -1 */
    uint64_t (*work)(uint64_t);
    uint64_t iterations;
    uint64_t warmup_iterations;
    uint64_t elapsed_ns;
    uint64_t cpu_ns; /* this thread's CPU time over the same loop */
    uint64_t checksum;
    char pad[64];
};

static pthread_barrier_t start_barrier;

NOINSTR static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Instrumented: the loop runs at depth 1 of the thread's call tree. */
KERNEL_FN void *hk_bench_thread(void *arg);

KERNEL_FN void *hk_bench_thread(void *arg)
{
    struct worker *w = arg;
    if (w->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(w->cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    uint64_t (*work)(uint64_t) = w->work;
    uint64_t acc = 0;
    /* Warm-up: caches, branch predictors, and hooktrace's nodes exist. */
    for (uint64_t i = 0; i < w->warmup_iterations; i++)
        acc += work(acc + i);
    pthread_barrier_wait(&start_barrier);
    uint64_t c0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
    for (uint64_t i = 0; i < w->iterations; i++)
        acc += work(acc + i);
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC);
    uint64_t c1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    w->elapsed_ns = t1 - t0;
    w->cpu_ns = c1 - c0;
    w->checksum = acc;
    return NULL;
}

NOINSTR static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-n CALLS_PER_THREAD] [-t THREADS] [-p mixed|hit|region] [-a]\n", prog);
    exit(2);
}

NOINSTR int main(int argc, char **argv)
{
    uint64_t calls = DEFAULT_CALLS;
    int threads = 1;
    const char *pattern = "mixed";
    int pin = 0;
    int opt;
    while ((opt = getopt(argc, argv, "n:t:p:ah")) != -1) {
        char *end;
        switch (opt) {
        case 'n':
            errno = 0;
            calls = strtoull(optarg, &end, 10);
            if (errno || *end || calls < CALLS_PER_ITERATION)
                usage(argv[0]);
            break;
        case 't':
            threads = (int)strtol(optarg, &end, 10);
            if (*end || threads < 1 || threads > MAX_THREADS)
                usage(argv[0]);
            break;
        case 'p':
            pattern = optarg;
            break;
        case 'a':
            pin = 1;
            break;
        default:
            usage(argv[0]);
        }
    }
    uint64_t (*work)(uint64_t);
    if (strcmp(pattern, "mixed") == 0)
        work = hk_work_mixed;
    else if (strcmp(pattern, "hit") == 0)
        work = hk_work_hit;
    else if (strcmp(pattern, "region") == 0)
        work = hk_work_region;
    else
        usage(argv[0]);

    uint64_t iterations = calls / CALLS_PER_ITERATION;
    uint64_t counted = iterations * CALLS_PER_ITERATION;
    static struct worker workers[MAX_THREADS];
    if (pthread_barrier_init(&start_barrier, NULL, (unsigned)threads) != 0) {
        perror("pthread_barrier_init");
        return 1;
    }
    for (int i = 0; i < threads; i++) {
        workers[i].cpu = pin ? i % (int)sysconf(_SC_NPROCESSORS_ONLN) : -1;
        workers[i].work = work;
        workers[i].iterations = iterations;
        workers[i].warmup_iterations = iterations / 20 + 1000;
        if (pthread_create(&workers[i].id, NULL, hk_bench_thread, &workers[i]) != 0) {
            perror("pthread_create");
            return 1;
        }
    }
    double sum = 0.0, lo = 0.0, hi = 0.0, share = 1.0;
    uint64_t checksum = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(workers[i].id, NULL);
        double per_call = (double)workers[i].elapsed_ns / (double)counted;
        sum += per_call;
        if (i == 0 || per_call < lo)
            lo = per_call;
        if (i == 0 || per_call > hi)
            hi = per_call;
        checksum ^= workers[i].checksum;
        /* Below 1: the thread was off the CPU for part of its loop (another
         * thread or process had it), so its time per call is inflated. */
        double s = (double)workers[i].cpu_ns / (double)workers[i].elapsed_ns;
        if (s < share)
            share = s;
    }
    pthread_barrier_destroy(&start_barrier);
    /* One line, key=value, parsed by bench/hook_cost.py.  ns_per_call is
     * the mean over threads of each thread's (loop time / its calls);
     * cpu_share is the smallest (thread CPU time / loop time) of any thread. */
    printf("hook_kernel variant=%s pattern=%s threads=%d calls_per_thread=%llu "
           "ns_per_call=%.3f thread_min=%.3f thread_max=%.3f cpu_share=%.3f checksum=%llx\n",
           HK_VARIANT, pattern, threads, (unsigned long long)counted, sum / threads, lo, hi,
           share > 1.0 ? 1.0 : share, (unsigned long long)checksum);
    return 0;
}
