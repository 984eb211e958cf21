/* Trace mode: many calls (to fill event buffers), two threads, recursion
 * and a longjmp out of a nested call, with known call counts. */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;
static jmp_buf escape;

__attribute__((noinline)) static void leaf(int i) { sink += i * 0.25; }

__attribute__((noinline)) static void jumper(void) { longjmp(escape, 1); }

__attribute__((noinline)) static void nested(void)
{
    leaf(0);
    jumper(); /* left by longjmp: nested and jumper never return */
}

__attribute__((noinline)) static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

__attribute__((noinline)) static void *worker(void *arg)
{
    long n = (long)arg;
    for (long i = 0; i < n; i++)
        leaf((int)i);
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    for (long i = 0; i < n; i++)
        leaf((int)i);                /* main;leaf x n */
    for (int k = 0; k < 3; k++)
        if (setjmp(escape) == 0)
            nested();                /* main;nested x3, ...;leaf x3, ...;jumper x3 */
    sink += depth(10);               /* depth x11, nested 11 deep */
    pthread_t t;
    pthread_create(&t, NULL, worker, (void *)(n / 2));
    pthread_join(t, NULL);           /* worker x1, worker;leaf x n/2 (thread 1) */
    printf("trace_calls: %ld %.1f\n", n, sink);
    return 0;
}
