/* Throttling decides by cost (docs/throttle.md, "The rule"), driven by
 * test/integration/throttle_cost.py with the hook pair cost fixed by
 * HOOKTRACE_HOOK_NS_TEST, so that the threshold does not depend on the
 * machine.  Two shapes (argv[1]):
 *   near T K N   tiny T times (a leaf of a few ns), then kernel K times (a
 *                busy loop of N iterations: at least 20 us here), each
 *                called from one site
 *   shape S T N  the shape of an NPB LU solver's sweeps: sweep S times (N
 *                iterations: a few us), each followed by T / S calls of
 *                tiny
 *   late C M 0   settle C times, its first call sleeping M milliseconds,
 *                the others doing nothing: slow at the first look, cheap
 *                at the second
 * The busy loop's iteration count is fixed, never timed, so that it does
 * the same work on any machine.  The program prints a checksum that must
 * not depend on whether the profiler is there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) long tiny(long x)
{
    return x * 3 + 1;
}

/* A chain of dependent multiply-adds through memory: the compiler may
 * neither drop nor vectorise it. */
__attribute__((noinline)) unsigned long kernel(unsigned long n)
{
    volatile unsigned long x = n;
    for (unsigned long i = 0; i < n; i++)
        x = x * 2654435761u + i;
    return x;
}

__attribute__((noinline)) unsigned long sweep(unsigned long n)
{
    return kernel(n);
}

__attribute__((noinline)) long settle(long i, long sleep_ms)
{
    if (i == 0) {
        struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
    return i + 1;
}

static unsigned long late(long calls, long sleep_ms)
{
    unsigned long sum = 0;
    for (long i = 0; i < calls; i++)
        sum += (unsigned long)settle(i, sleep_ms);
    return sum;
}

static unsigned long near(long tinies, long kernels, unsigned long n)
{
    unsigned long sum = 0;
    for (long i = 0; i < tinies; i++)
        sum += (unsigned long)tiny(i);
    for (long i = 0; i < kernels; i++)
        sum += kernel(n);
    return sum;
}

static unsigned long shape(long sweeps, long tinies, unsigned long n)
{
    unsigned long sum = 0;
    long per_sweep = sweeps ? tinies / sweeps : 0;
    for (long s = 0; s < sweeps; s++) {
        sum += sweep(n);
        for (long i = 0; i < per_sweep; i++)
            sum += (unsigned long)tiny(i);
    }
    return sum;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s near TINIES KERNELS ITERATIONS | shape SWEEPS TINIES ITERATIONS"
                        " | late CALLS SLEEP_MS 0\n",
                argv[0]);
        return 2;
    }
    long a = atol(argv[2]), b = atol(argv[3]);
    unsigned long n = strtoul(argv[4], NULL, 10);
    unsigned long sum;
    if (strcmp(argv[1], "near") == 0)
        sum = near(a, b, n);
    else if (strcmp(argv[1], "shape") == 0)
        sum = shape(a, b, n);
    else if (strcmp(argv[1], "late") == 0)
        sum = late(a, b);
    else
        return 2;
    sink = sum;
    printf("checksum %lu\n", sum);
    return 0;
}
