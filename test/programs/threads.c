/* Four pthreads and the main thread call the same function: each thread's
 * figures appear separately and sum into the totals. */
#include <pthread.h>
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) static void tick(long i) { sink += i; }

__attribute__((noinline)) static void *worker(void *arg)
{
    long n = (long)arg;
    for (long i = 0; i < n; i++)
        tick(i);
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (long k = 0; k < 4; k++)
        pthread_create(&t[k], NULL, worker, (void *)(100 * (k + 1))); /* 100..400 ticks */
    for (int k = 0; k < 4; k++)
        pthread_join(t[k], NULL);
    worker((void *)10); /* main;worker x1, main;worker;tick x10 */
    printf("threads: done\n");
    return 0;
}
