/* Throttling with and without counters (test/integration/counters_throttle.py):
 * mid makes MID_LEAVES calls to leaf, which the config never throttles, so
 * that with perf events every one of mid's calls holds 2 + 2 * MID_LEAVES
 * counter reads (a system call each); tiny is a leaf throttled either way,
 * slow sleeps 300 us a call and is never throttled. */
#include <stdio.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

enum { MIDS = 1000, MID_LEAVES = 200, TINIES = 1000, SLOWS = 20 };

volatile long sink;

NOINLINE void leaf(int i) { sink += i; }
NOINLINE void tiny(int i) { sink ^= i; }

NOINLINE void mid(int i)
{
    for (int k = 0; k < MID_LEAVES; k++)
        leaf(i + k);
}

NOINLINE void slow(void) { usleep(300); }

NOINLINE void run(void)
{
    for (int i = 0; i < MIDS; i++)
        mid(i);
    for (int i = 0; i < TINIES; i++)
        tiny(i);
    for (int i = 0; i < SLOWS; i++)
        slow();
}

int main(void)
{
    run();
    printf("%ld\n", (long)sink);
    return 0;
}
