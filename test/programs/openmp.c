/* An OpenMP loop over 2 threads: the kernel's calls split between them and
 * add up to the iteration count. */
#include <omp.h>
#include <stdio.h>

static double sink[2];

__attribute__((noinline)) static void kernel(int i) { sink[omp_get_thread_num() & 1] += i; }

int main(void)
{
    omp_set_num_threads(2);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 1000; i++)
        kernel(i);
    printf("openmp: %.0f\n", sink[0] + sink[1]);
    return 0;
}
