/* The shape that throttling by a fixed 10 us got wrong (issue 35, point 3;
 * bench/throttle_shape.py runs it): an NPB LU solver's time steps, each
 * running four sweep kernels of a few microseconds (blts, buts, jacld,
 * jacu: 2 to 7 us here), 200,000 calls each (LU class B makes about
 * 149,000), beside a helper of a few nanoseconds called 20 million times.
 * Under the fixed threshold the kernels stopped counting at 100,001 calls
 * and their later time went to their caller; under the cost rule they
 * keep every call and the helper alone is throttled.
 *
 *   throttle_shape [-s STEPS] [-t HELPER_CALLS_PER_STEP]
 *
 * The kernels are busy loops with fixed iteration counts, never timed, so
 * they do the same work on any machine.  Prints checksum= and elapsed_s=
 * (the timed part, main's loop) as bench/benchlib.py reads them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* A chain of dependent multiply-adds through memory, about 2.5 ns an
 * iteration on the development machine: the kernels' bodies, which have
 * no hooks of their own, as a loop nest has none. */
__attribute__((no_instrument_function)) static inline unsigned long spin(unsigned long n, unsigned long seed)
{
    volatile unsigned long x = seed;
    for (unsigned long i = 0; i < n; i++)
        x = x * 2654435761u + i;
    return x;
}

__attribute__((noinline)) unsigned long blts(unsigned long s) { return spin(1000, s); }
__attribute__((noinline)) unsigned long buts(unsigned long s) { return spin(1500, s); }
__attribute__((noinline)) unsigned long jacld(unsigned long s) { return spin(2100, s); }
__attribute__((noinline)) unsigned long jacu(unsigned long s) { return spin(2900, s); }

/* An accessor-sized helper. */
__attribute__((noinline)) unsigned long helper(unsigned long x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) unsigned long step(unsigned long s, long helpers)
{
    s = blts(s);
    for (long i = 0; i < helpers; i++)
        s += helper((unsigned long)i);
    s = buts(s);
    s = jacld(s);
    s = jacu(s);
    return s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long steps = 200000, helpers = 100; /* 200,000 calls of each kernel, 20 million of the helper */
    int c;
    while ((c = getopt(argc, argv, "s:t:")) != -1) {
        if (c == 's')
            steps = atol(optarg);
        else if (c == 't')
            helpers = atol(optarg);
        else {
            fprintf(stderr, "usage: %s [-s STEPS] [-t HELPER_CALLS_PER_STEP]\n", argv[0]);
            return 2;
        }
    }
    double t0 = now();
    unsigned long s = 1;
    for (long i = 0; i < steps; i++)
        s = step(s, helpers);
    double t1 = now();
    sink = s;
    printf("checksum=%lu\nelapsed_s=%.6f\n", s, t1 - t0);
    return 0;
}
