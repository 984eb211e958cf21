/* The C twin of bench/fortran_calls.F90: the same MPI calls (MPI_Send of
 * one 8-byte integer to MPI_PROC_NULL, an 8-byte MPI_Allreduce of one
 * int64, MPI_SUM, on MPI_COMM_WORLD), the same loops, timed the same way
 * (MPI_Wtime, CPU time from clock()), the same output:
 *   test=send calls=N ns_per_call=X cpu_share=S reps=R
 * Usage: fortran_calls_c [ITERATIONS [REPS]]   (defaults 500000 and 5)
 * Built plain and with libhooktrace by `make bench-fortran`. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_REPS 64
#define TAG 17

static int64_t sbuf[1] = {1}, rbuf[1];

static __attribute__((noinline)) void send_loop(int n, double *ns, double *share)
{
    clock_t c0 = clock();
    double t = MPI_Wtime();
    for (int i = 0; i < n; i++)
        MPI_Send(sbuf, 1, MPI_INT64_T, MPI_PROC_NULL, TAG, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    *ns = t / n * 1e9;
    *share = (double)(clock() - c0) / CLOCKS_PER_SEC / t;
}

static __attribute__((noinline)) void allreduce_loop(int n, double *ns, double *share)
{
    clock_t c0 = clock();
    double t = MPI_Wtime();
    for (int i = 0; i < n; i++)
        MPI_Allreduce(sbuf, rbuf, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    *ns = t / n * 1e9;
    *share = (double)(clock() - c0) / CLOCKS_PER_SEC / t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *x, int k)
{
    qsort(x, (size_t)k, sizeof *x, cmp);
    return k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
}

static double minimum(const double *x, int k)
{
    double m = x[0];
    for (int i = 1; i < k; i++)
        m = x[i] < m ? x[i] : m;
    return m;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    double ns[2][MAX_REPS], share[2][MAX_REPS];

    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    MPI_Init(&argc, &argv);
    send_loop(n / 10 + 1, &ns[0][0], &share[0][0]);
    allreduce_loop(n / 10 + 1, &ns[1][0], &share[1][0]);
    for (int r = 0; r < reps; r++) {
        send_loop(n, &ns[0][r], &share[0][r]);
        allreduce_loop(n, &ns[1][r], &share[1][r]);
    }
    printf("test=send calls=%d ns_per_call=%.2f cpu_share=%.2f reps=%d\n", n,
           median(ns[0], reps), minimum(share[0], reps), reps);
    printf("test=ar8 calls=%d ns_per_call=%.2f cpu_share=%.2f reps=%d\n", n,
           median(ns[1], reps), minimum(share[1], reps), reps);
    MPI_Finalize();
    return 0;
}
