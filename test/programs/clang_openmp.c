/* OpenMP under LLVM's runtime, libomp (test/integration/clang_openmp.py):
 * built with `hooktrace clang -fopenmp`.  Clang instruments the functions
 * it outlines for a construct itself, so a region is a node: under the
 * function with the pragma on the thread that met it, the root of every
 * other thread of its team.  One scenario per run, named by argv[1]; each
 * prints a checksum.  Every construct's pragma line carries a
 * "construct:NAME" comment, by which the test finds its outlined function. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

static long sink;

/* Inlined into the regions at -O2: no node of its own. */
static inline void bump(long i)
{
    __atomic_fetch_add(&sink, i, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void leaf(long i)
{
    bump(i);
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
        {
            work(10);
            bump(1);
        }
    }
}

/* A static schedule: each of T threads runs 1000 / T iterations. */
__attribute__((noinline)) static void run_for(void)
{
#pragma omp parallel for schedule(static) /* construct:for */
    for (int i = 0; i < 1000; i++)
        leaf(i);
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

/* 40 tasks made in a single construct; every one runs before the single's
 * barrier, inside the region's body, on whichever thread. */
__attribute__((noinline)) static void run_tasks(void)
{
#pragma omp parallel /* construct:tasks */
    {
#pragma omp single
        for (int i = 0; i < 40; i++) {
#pragma omp task firstprivate(i)
            task_work(i);
        }
    }
}

int main(int argc, char **argv)
{
    const char *scenario = argc > 1 ? argv[1] : "parallel";
    if (strcmp(scenario, "parallel") == 0)
        run_parallel();
    else if (strcmp(scenario, "for") == 0)
        run_for();
    else if (strcmp(scenario, "nested") == 0)
        run_nested();
    else if (strcmp(scenario, "tasks") == 0)
        run_tasks();
    else {
        fprintf(stderr, "clang_openmp: unknown scenario %s\n", scenario);
        return 2;
    }
    printf("%s: sink %ld\n", scenario, sink);
    return 0;
}
