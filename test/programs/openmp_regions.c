/* OpenMP constructs as nodes of the call tree (test/integration/openmp.py).
 * One scenario per run, named by argv[1]; each prints a checksum that
 * shows the program computed what it computes without hooktrace.  Every
 * construct's pragma line carries a "construct:NAME" comment, by which
 * the test finds the line its outlined function is named after. */
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static long sink;

__attribute__((noinline)) static void leaf(long i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void work(int calls)
{
    for (int i = 0; i < calls; i++)
        leaf(i);
}

/* 3 regions, each thread calls work once per region. */
__attribute__((noinline)) static void run_parallel(void)
{
    for (int r = 0; r < 3; r++) {
#pragma omp parallel /* construct:parallel */
        work(10);
    }
}

/* A static schedule: each of T threads runs 1000 / T iterations. */
__attribute__((noinline)) static void run_for(void)
{
#pragma omp parallel for schedule(static) /* construct:for */
    for (int i = 0; i < 1000; i++)
        leaf(i);
}

/* Loops whose bounds are known at the pragma: GCC calls the combined
 * GOMP_parallel_loop_* entry points. */
__attribute__((noinline)) static void run_loops(void)
{
#pragma omp parallel for schedule(dynamic, 7) /* construct:dynamic */
    for (int i = 0; i < 1000; i++)
        leaf(i);
#pragma omp parallel for schedule(monotonic : guided) /* construct:guided */
    for (int i = 0; i < 1000; i++)
        leaf(i);
#pragma omp parallel for schedule(runtime) /* construct:runtime */
    for (int i = 0; i < 1000; i++)
        leaf(i);
}

__attribute__((noinline)) static void run_sections(void)
{
#pragma omp parallel sections /* construct:sections */
    {
#pragma omp section
        leaf(1);
#pragma omp section
        leaf(2);
#pragma omp section
        leaf(3);
    }
}

__attribute__((noinline)) static void inner_work(void)
{
    leaf(1);
}

/* 2 threads, each the master of an inner team of 2. */
__attribute__((noinline)) static void run_nested(void)
{
#pragma omp parallel num_threads(2) /* construct:outer */
    {
        work(5);
#pragma omp parallel num_threads(2) /* construct:inner */
        inner_work();
    }
}

__attribute__((noinline)) static void task_work(long i)
{
    leaf(i);
}

__attribute__((noinline)) static long sum_ints(const int *v, int n)
{
    long s = 0;
    for (int k = 0; k < n; k++)
        s += v[k];
    leaf(s);
    return s;
}

__attribute__((noinline)) static void big_work(const double *v, int n)
{
    leaf((long)(v[0] + v[n - 1]));
}

__attribute__((noinline)) static void detached_work(void)
{
    leaf(5);
}

/* Data aligned beyond the header hooktrace puts before a task's data. */
struct aligned {
    _Alignas(64) long v[3];
};
static int misaligned;

__attribute__((noinline)) static void aligned_work(const struct aligned *a)
{
    if ((uintptr_t)a % 64 != 0)
        __atomic_fetch_add(&misaligned, 1, __ATOMIC_RELAXED);
    leaf(a->v[0] + a->v[2]);
}

/* libgomp's GOMP_task called directly, as GCC would, with data copied by
 * memcpy: a small block and one larger than hooktrace wraps (16 KiB).
 * raw_task stands for an outlined function: not instrumented. */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
struct raw_small {
    long first, last;
};
struct raw_big {
    long first;
    char middle[20000];
    long last;
};
__attribute__((no_instrument_function)) static void raw_small_task(void *p)
{
    const struct raw_small *r = p;
    leaf(r->first + r->last);
}
__attribute__((no_instrument_function)) static void raw_big_task(void *p)
{
    const struct raw_big *r = p;
    leaf(r->first + r->last + r->middle[19999]);
}

__attribute__((noinline)) static void spawn_raw(void)
{
    struct raw_small small = {100, 200};
    GOMP_task(raw_small_task, &small, NULL, sizeof small, _Alignof(struct raw_small), true, 0,
              NULL, 0, NULL);
    static struct raw_big big;
    big.first = 1000;
    big.middle[19999] = 7;
    big.last = 2000;
    GOMP_task(raw_big_task, &big, NULL, sizeof big, _Alignof(struct raw_big), true, 0, NULL, 0,
              NULL);
}

/* An undeferred task (if(0)) runs at once, under the function that made it. */
__attribute__((noinline)) static void spawn_undeferred(void)
{
#pragma omp task if (0) /* construct:undeferred */
    task_work(1);
}

/* 40 tasks made in a single construct and run by any thread before the
 * single's barrier; tasks whose data GCC copies with a copy function (a
 * VLA, a large array), one with data aligned to 64 bytes, a detached one,
 * two made by calling GOMP_task directly; and one undeferred task per
 * thread. */
__attribute__((noinline)) static void run_tasks(int n)
{
#pragma omp parallel /* construct:tasks */
    {
#pragma omp single
        {
            for (int i = 0; i < 40; i++) {
#pragma omp task firstprivate(i) /* construct:task */
                task_work(i);
            }
#ifndef __clang__ /* clang rejects a VLA in firstprivate (and runs libomp: openmp.py skips) */
            int vla[n];
            for (int k = 0; k < n; k++)
                vla[k] = k;
#pragma omp task firstprivate(vla) /* construct:cpyfn */
            sum_ints(vla, n);
#else
            (void)n;
            (void)sum_ints;
#endif
            double big[4096];
            for (int k = 0; k < 4096; k++)
                big[k] = k;
#pragma omp task firstprivate(big) /* construct:big */
            big_work(big, 4096);
            struct aligned a = {{10, 20, 30}};
#pragma omp task firstprivate(a) /* construct:aligned */
            aligned_work(&a);
            spawn_raw();
            omp_event_handle_t event;
#pragma omp task detach(event) /* construct:detach */
            {
                detached_work();
                omp_fulfill_event(event);
            }
        }
        spawn_undeferred();
    }
    printf("tasks: misaligned %d\n", misaligned);
}

/* Tasks the master makes while the others are already at the region's
 * closing barrier: they run there, after the region's body returned. */
__attribute__((noinline)) static void run_late_tasks(void)
{
#pragma omp parallel /* construct:late */
    {
#pragma omp master
        for (int i = 0; i < 40; i++) {
#pragma omp task firstprivate(i) /* construct:late_task */
            task_work(i);
        }
    }
}

__attribute__((noinline)) static long value(long i)
{
    leaf(i);
    return i;
}

/* Taskloops over long and unsigned long long, and one with a reduction. */
__attribute__((noinline)) static void run_taskloop(unsigned long long n)
{
    long total = 0;
#pragma omp parallel /* construct:taskloop_region */
#pragma omp single
    {
#pragma omp taskloop num_tasks(8) /* construct:taskloop */
        for (int i = 0; i < 800; i++)
            leaf(i);
#pragma omp taskloop num_tasks(4) /* construct:taskloop_ull */
        for (unsigned long long i = 0; i < n; i++)
            leaf((long)i);
#pragma omp taskloop num_tasks(5) reduction(+ : total) /* construct:taskloop_reduction */
        for (int i = 0; i < 100; i++)
            total += value(i);
    }
    printf("taskloop reduction: %ld\n", total);
}

__attribute__((noinline)) static void run_teams(void)
{
#pragma omp teams num_teams(3) /* construct:teams */
    leaf(1);
}

/* `parallel reduction(task, ...)`: GOMP_parallel_reductions. */
__attribute__((noinline)) static void run_reductions(void)
{
    long total = 0;
#pragma omp parallel reduction(task, + : total) /* construct:reductions */
    {
#pragma omp single
        for (int i = 0; i < 8; i++) {
#pragma omp task in_reduction(+ : total)
            total += value(i);
        }
    }
    printf("parallel reduction: %ld\n", total);
}

int main(int argc, char **argv)
{
    const char *scenario = argc > 1 ? argv[1] : "parallel";
    if (strcmp(scenario, "parallel") == 0)
        run_parallel();
    else if (strcmp(scenario, "for") == 0)
        run_for();
    else if (strcmp(scenario, "loops") == 0)
        run_loops();
    else if (strcmp(scenario, "sections") == 0)
        run_sections();
    else if (strcmp(scenario, "nested") == 0)
        run_nested();
    else if (strcmp(scenario, "tasks") == 0)
        run_tasks(16 + argc / 8); /* a size the compiler cannot know */
    else if (strcmp(scenario, "late_tasks") == 0)
        run_late_tasks();
    else if (strcmp(scenario, "taskloop") == 0)
        run_taskloop(400 + (unsigned)argc / 8); /* unsigned long long: not known here */
    else if (strcmp(scenario, "teams") == 0)
        run_teams();
    else if (strcmp(scenario, "reductions") == 0)
        run_reductions();
    else {
        fprintf(stderr, "openmp_regions: unknown scenario %s\n", scenario);
        return 2;
    }
    printf("%s: sink %ld\n", scenario, sink);
    return 0;
}
