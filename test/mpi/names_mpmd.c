/* Naming functions once per job when one rank has code the others lack
 * (test/mpi/names.py, docs/symbols.md "In an MPI run").
 *
 * Every rank calls common() three times.  Rank 1 alone dlopens the
 * instrumented libsharedfix.so named by argv[1] and calls its
 * shared_sum_squares(5), which calls shared_square 5 times: rank 0, which
 * names the job's functions, has no such object loaded, so rank 1 must
 * name those two itself.  The library stays open until the end.  Prints
 * one line from rank 0. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static volatile int sink;

NOINLINE static void common(int i)
{
    sink += i;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++)
        common(i);
    int result = 0;
    if (rank == 1 && argc > 1) {
        void *lib = dlopen(argv[1], RTLD_NOW);
        int (*sum_squares)(int) = NULL;
        void *sym = lib ? dlsym(lib, "shared_sum_squares") : NULL;
        *(void **)&sum_squares = sym;
        result = sum_squares ? sum_squares(5) : -1;
    }
    int total = 0;
    MPI_Reduce(&result, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("names_mpmd: %d\n", total);
    MPI_Finalize();
    return 0;
}
