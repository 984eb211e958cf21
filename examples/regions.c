/* Example: regions (docs/regions.md) in an MPI time-step loop.  Each of
 * the 20 steps assembles a local system and then iterates on it; the two
 * phases are inside one function, so regions name them:
 *
 *   hooktrace mpicc -O2 regions.c -o regions
 *   mpirun -np 2 ./regions   # regions.log: main > step > assemble, iterate
 *
 * Built without hooktrace (plain mpicc, no libhooktrace) the same source
 * runs unchanged: the region calls do nothing. */
#include <hooktrace.h>
#include <mpi.h>
#include <stdio.h>

#define CELLS 4096
#define STEPS 20

static double a[CELLS], x[CELLS];

__attribute__((noinline)) static double step(int s, int rank, int size)
{
    hooktrace_region_begin("assemble");
    for (int i = 0; i < CELLS; i++)
        a[i] = 1.0 + (double)((i + s + rank) % 7) * 0.125;
    hooktrace_region_end("assemble");

    hooktrace_region_begin("iterate");
    double local = 0, global = 0, halo = 0;
    for (int i = 0; i < CELLS; i++) {
        x[i] = 0.5 * (x[i] + 1.0 / a[i]);
        local += x[i];
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(&x[CELLS - 1], 1, MPI_DOUBLE, (rank + 1) % size, s, &halo, 1, MPI_DOUBLE,
                 (rank + size - 1) % size, s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    hooktrace_region_end("iterate");
    return global + halo;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double sum = 0;
    for (int s = 0; s < STEPS; s++)
        sum += step(s, rank, size);
    if (rank == 0)
        printf("regions: %d steps, checksum %.6f\n", STEPS, sum);
    MPI_Finalize();
    return 0;
}
