/* Known call counts per path, and a function whose inclusive time has an
 * outside reference (it sleeps 50 ms). */
#include <stdio.h>
#include <time.h>

static volatile double sink;

__attribute__((noinline)) static void leaf(int i) { sink += i * 0.5; }

__attribute__((noinline)) static void compute(int n)
{
    for (int i = 0; i < n; i++)
        leaf(i);
}

__attribute__((noinline)) static void nap(void)
{
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void work(void)
{
    compute(100);
    leaf(-1);
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        work();           /* main;work x3, main;work;compute x3, ...;leaf x300, main;work;leaf x3 */
    compute(1000);        /* main;compute x1, main;compute;leaf x1000 */
    nap();                /* main;nap x1 */
    printf("basic: sink=%.1f\n", sink);
    return 0;
}
