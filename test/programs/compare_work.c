/* Two runs of one program for hooktrace-report --compare
 * (test/integration/compare.py): argument N (default 10) steps, each
 * calling leaf three times, so the call counts of two work sizes have
 * exact ratios; below 15 steps small_only runs, else large_only (a
 * vanished and a new stack).  Built twice: compare_work_moved has one more
 * function, first in name order, so that its addresses and stack IDs
 * differ from compare_work's and only the call paths match. */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

#ifdef HT_MOVED
__attribute__((noinline)) static void a_moved(void) { sink += 2; }
#endif

__attribute__((noinline)) static void leaf(int i) { sink += i * 0.5; }

__attribute__((noinline)) static void step(int i)
{
    leaf(i);
    leaf(i + 1);
    leaf(i + 2);
}

__attribute__((noinline)) static void setup(void) { sink = 0; }
__attribute__((noinline)) static void small_only(void) { sink += 1; }
__attribute__((noinline)) static void large_only(void) { sink += 1; }

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
#ifdef HT_MOVED
    a_moved();
#endif
    setup();
    for (int i = 0; i < n; i++)
        step(i);
    if (n < 15)
        small_only();
    else
        large_only();
    printf("compare_work: n=%d sink=%.1f\n", n, sink);
    return 0;
}
