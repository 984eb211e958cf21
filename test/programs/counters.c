/* Counters (test/integration/counters.py): two software-defined PAPI
 * events this program owns, "sde:::CTEST::units" and
 * "sde:::CTEST::bytes", incremented by known amounts in known functions,
 * so that every stack's inclusive and exclusive counts are exact; then
 * 20 short threads one after the other, each calling leaf once.  With
 * "perf" as argument it then does what perf events count a known least of
 * (test/integration/counters.py): main touches 16384 fresh pages, sleeps 5
 * times (a context switch each at least), and a thread of its own,
 * toucher, touches another 16384. */
#include <pthread.h>
#include <sde_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static long long units, bytes;

void leaf(void)
{
    units += 3;
    bytes += 1;
}

void middle(void)
{
    units += 5;
    leaf();
    leaf();
}

void recurse(int n)
{
    units += 2;
    bytes += 10;
    if (n > 0)
        recurse(n - 1);
}

void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 4; i++)
        middle();
    return NULL;
}

/* Short threads, one after the other: after 16 of them, each takes over
 * the state of the last (a thread group, docs/reading.md). */
void *short_worker(void *arg)
{
    (void)arg;
    leaf();
    return NULL;
}

/* Each page a fault of its own: no transparent huge pages here (one fault
 * would map 512 pages). */
long touch_fresh_pages(void)
{
    size_t size = (size_t)64 << 20; /* 16384 pages */
    char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    madvise(p, size, MADV_NOHUGEPAGE);
    long sum = 0;
    for (size_t i = 0; i < size; i += 4096) {
        p[i] = (char)i;
        sum += p[i];
    }
    munmap(p, size);
    return sum;
}

void *toucher(void *arg)
{
    (void)arg;
    touch_fresh_pages();
    return NULL;
}

/* A thread that sleeps is switched out: at least one context switch. */
void nap(void)
{
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
}

/* Registered before main, so that main's entry reads them (PAPI reads an
 * SDE event not registered yet as -1).  Not instrumented: no stack. */
__attribute__((constructor, no_instrument_function)) static void register_counters(void)
{
    papi_handle_t h = papi_sde_init("CTEST");
    papi_sde_register_counter(h, "units", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &units);
    papi_sde_register_counter(h, "bytes", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &bytes);
}

int main(int argc, char **argv)
{
    for (int i = 0; i < 10; i++)
        middle();
    recurse(2);
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 2;
    for (int i = 0; i < 20; i++)
        if (pthread_create(&t, NULL, short_worker, NULL) != 0 || pthread_join(t, NULL) != 0)
            return 2;
    if (argc > 1 && strcmp(argv[1], "perf") == 0) {
        touch_fresh_pages();
        for (int i = 0; i < 5; i++)
            nap();
        if (pthread_create(&t, NULL, toucher, NULL) != 0 || pthread_join(t, NULL) != 0)
            return 2;
    }
    printf("counters: units %lld bytes %lld\n", units, bytes);
    return 3;
}
