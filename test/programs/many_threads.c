/* Short-lived threads in batches: 10,000 (argv[1]) threads of worker, each
 * calling tick 7 times, 50 at a time and joined; 100 threads of helper,
 * each calling tick 3 times; 3 threads of few, each calling tick 5 times;
 * and one thread of spinner still running at exit.  Prints the peak RSS (VmHWM) at the end, so that a test can compare
 * the instrumented run with the plain one. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile long sink;
static volatile int spinner_started;

__attribute__((noinline)) static void tick(long i) { sink += i; }

__attribute__((noinline)) static void *worker(void *arg)
{
    (void)arg;
    for (long i = 0; i < 7; i++)
        tick(i);
    return NULL;
}

__attribute__((noinline)) static void *helper(void *arg)
{
    (void)arg;
    for (long i = 0; i < 3; i++)
        tick(i);
    return NULL;
}

__attribute__((noinline)) static void *few(void *arg)
{
    (void)arg;
    for (long i = 0; i < 5; i++)
        tick(i);
    return NULL;
}

__attribute__((noinline)) static void *spinner(void *arg)
{
    (void)arg;
    tick(1);
    spinner_started = 1;
    for (;;) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void batches(void *(*routine)(void *), long count)
{
    enum { BATCH = 50 };
    pthread_t t[BATCH];
    for (long done = 0; done < count; done += BATCH) {
        long n = count - done < BATCH ? count - done : BATCH;
        for (long k = 0; k < n; k++)
            if (pthread_create(&t[k], NULL, routine, NULL) != 0)
                abort();
        for (long k = 0; k < n; k++)
            pthread_join(t[k], NULL);
    }
}

static long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 10000;
    batches(worker, count);
    batches(helper, 100);
    batches(few, 3);
    pthread_t s;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&s, &attr, spinner, NULL);
    while (!spinner_started) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    printf("many_threads: %ld threads, peak RSS %ld KiB\n", count + 104, peak_rss_kib());
    return 0;
}
