/* Example MPI program: 1-D heat diffusion split across ranks, with a halo
 * exchange (non-blocking, to both neighbours), a global residual
 * (MPI_Allreduce) every few steps and a final gather of the result.
 * Build and run it like any MPI program you want to profile:
 *
 *   mpicc -g -O2 -finstrument-functions halo.c -o halo \
 *         $(pkg-config --cflags --libs hooktrace)
 *   mpirun -np 4 ./halo    # rank 0 writes halo.log, halo.json, halo.folded
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CELLS 20000 /* per rank */
#define STEPS 200

__attribute__((noinline)) static void exchange_halo(double *u, int n, int rank, int size)
{
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
}

__attribute__((noinline)) static double relax(double *u, double *v, int n)
{
    double change = 0.0;
    for (int i = 1; i <= n; i++) {
        v[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        change += fabs(v[i] - u[i]);
    }
    for (int i = 1; i <= n; i++)
        u[i] = v[i];
    return change;
}

__attribute__((noinline)) static double global_residual(double local)
{
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

__attribute__((noinline)) static double collect(const double *u, int n, int rank)
{
    double local = 0.0, total = 0.0;
    for (int i = 1; i <= n; i++)
        local += u[i];
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return rank == 0 ? total : 0.0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double *u = calloc(CELLS + 2, sizeof *u), *v = calloc(CELLS + 2, sizeof *v);
    if (rank == 0)
        u[1] = 1000.0; /* a hot spot at the left end */
    double residual = 0.0;
    for (int step = 1; step <= STEPS; step++) {
        exchange_halo(u, CELLS, rank, size);
        double change = relax(u, v, CELLS);
        if (step % 10 == 0)
            residual = global_residual(change);
    }
    double total = collect(u, CELLS, rank);
    if (rank == 0)
        printf("halo: %d ranks, %d steps, residual %.6e, heat %.6f\n", size, STEPS, residual, total);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
