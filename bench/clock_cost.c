/* What one timestamp costs on this machine, back to back in a loop: rdtsc
 * (the hooks' clock where the TSC is invariant) and clock_gettime
 * (the fallback).  Puts the "two-rdtsc floor" of hook_cost.py in context. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

#define NOINSTR __attribute__((no_instrument_function))
#define ROUNDS 5

NOINSTR static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

NOINSTR static double rdtsc_ns(long n)
{
    uint64_t s = 0, t0 = now_ns();
    for (long i = 0; i < n; i++)
        s += __rdtsc();
    uint64_t t1 = now_ns();
    sink = s;
    return (double)(t1 - t0) / (double)n;
}

NOINSTR static double gettime_ns(long n)
{
    uint64_t s = 0, t0 = now_ns();
    for (long i = 0; i < n; i++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        s += (uint64_t)ts.tv_nsec;
    }
    uint64_t t1 = now_ns();
    sink = s;
    return (double)(t1 - t0) / (double)n;
}

NOINSTR int main(void)
{
    double best_tsc = 0.0, best_gt = 0.0;
    for (int r = 0; r < ROUNDS; r++) {
        double a = rdtsc_ns(20000000), b = gettime_ns(5000000);
        if (r == 0 || a < best_tsc)
            best_tsc = a;
        if (r == 0 || b < best_gt)
            best_gt = b;
    }
    printf("one timestamp, back to back (best of %d): rdtsc %.2f ns, "
           "clock_gettime(CLOCK_MONOTONIC) %.2f ns\n", ROUNDS, best_tsc, best_gt);
    return 0;
}
