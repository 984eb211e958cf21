/* Runs for hooktrace-report --compare with several runs a side
 * (test/integration/compare_runs.py): main > solve > kernel_a and
 * main > solve > kernel_b, each kernel taking its argument's milliseconds
 * (default 200) over STEPS calls, and a tiny report.
 *
 * The kernels wait rather than compute: hooktrace measures wall time, and
 * a loop's wall time grows with the load of a shared machine (another
 * build on the same cores can double it), while a wait of set length
 * lasts as long on a loaded machine as on an idle one, give or take the
 * scheduler's wake-up.  So a kernel given twice the milliseconds takes
 * twice as long on any machine, and the test's ratios (1 and 2) hold. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { STEPS = 4 };

static volatile long sink;

/* Not a stack of its own: the kernel that calls it holds the time as its
 * exclusive time, as a kernel's own loop would. */
__attribute__((no_instrument_function)) static void wait_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        continue;
}

__attribute__((noinline)) static void kernel_a(long ms) { wait_ms(ms); }
__attribute__((noinline)) static void kernel_b(long ms) { wait_ms(ms); }

__attribute__((noinline)) static void solve(long a_ms, long b_ms)
{
    for (int i = 0; i < STEPS; i++) {
        kernel_a(a_ms / STEPS);
        kernel_b(b_ms / STEPS);
    }
}

__attribute__((noinline)) static void report(void) { sink += 1; }

int main(int argc, char **argv)
{
    long a = argc > 1 ? atol(argv[1]) : 200, b = argc > 2 ? atol(argv[2]) : 200;
    solve(a, b);
    report();
    printf("compare_noise: kernel_a %ld ms, kernel_b %ld ms\n", a, b);
    return 0;
}
