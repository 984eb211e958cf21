// Regions from C++ (include/hooktrace.h, docs/regions.md), for
// test/integration/regions.py: hooktrace::region guards a scope, closed on
// every way out of it (the end of the scope, a return, an exception), on
// the main thread and on two threads of their own, and a region entered
// 200,000 times around a call that throttling would stop counting.  With
// the argument "phases": the phase "threads" begins before the threads
// start, "tail" before often().
#include <hooktrace.h>
#include <pthread.h>
#include <stdexcept>
#include <cstdio>
#include <string>

static volatile long sink;

extern "C" {
__attribute__((noinline)) void work(int i) { sink = sink + i; }

__attribute__((noinline)) int guarded(int i)
{
    hooktrace::region r("guarded");
    work(i);
    if (i % 3 == 0)
        return 1;
    if (i % 3 == 1)
        throw std::runtime_error("thrown inside the region");
    work(i);
    return 0;
}

__attribute__((noinline)) void *worker(void *arg)
{
    long n = (long)arg;
    for (long i = 0; i < n; i++) {
        hooktrace::region r("worker_region");
        work((int)i);
    }
    return nullptr;
}

__attribute__((noinline)) void often(void)
{
    for (int i = 0; i < 200000; i++) {
        hooktrace::region r("tiny");
        work(i);
    }
}
}

int main(int argc, char **argv)
{
    bool phases = argc > 1 && std::string(argv[1]) == "phases";
    int returned = 0, thrown = 0;
    for (int i = 0; i < 9; i++) {
        try {
            returned += guarded(i);
        } catch (const std::runtime_error &) {
            thrown++;
        }
    }
    if (phases)
        hooktrace_phase("threads");
    pthread_t threads[2];
    for (long t = 0; t < 2; t++)
        pthread_create(&threads[t], nullptr, worker, (void *)(5 * (t + 1)));
    for (pthread_t t : threads)
        pthread_join(t, nullptr);
    if (phases)
        hooktrace_phase("tail");
    often();
    std::printf("regions_cxx: returned %d thrown %d\n", returned, thrown);
    return 0;
}
