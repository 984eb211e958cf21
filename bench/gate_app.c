/* An MPI program for bench/compare_gate.py (hooktrace-report --compare
 * --fail-above on real noise): each step computes two kernels, then
 * exchanges a halo with both ring neighbours and, every tenth step, sums
 * a residual with MPI_Allreduce.  Odd ranks have a quarter more work, so
 * the even ranks wait in MPI_Waitall: wait stacks whose time swings with
 * the machine's load, as in real codes.
 *
 * Unlike test/programs/compare_noise.c, the kernels compute: their time
 * grows with the load of a shared machine, which is the noise the gate
 * must tell from a change.  -b 2 makes kernel_b do twice the work.
 *
 * Usage: gate_app [-i STEPS] [-a WORK_A] [-b WORK_B]  (default 200 1 1)
 * Output (rank 0): checksum=<sum> and elapsed_s=<seconds of the steps>.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__clang__)
#define KERNEL_FN __attribute__((noinline))
#else
#define KERNEL_FN __attribute__((noinline, noipa))
#endif

enum { POINTS = 16384, HALO = 4096, PASSES = 12 };

static double field[POINTS], halo_in[2][HALO], halo_out[2][HALO];

/* A relaxation pass over the field, `passes` times. */
KERNEL_FN double kernel_a(int passes)
{
    double sum = 0.0;
    for (int p = 0; p < passes; p++)
        for (int i = 1; i < POINTS - 1; i++) {
            field[i] = 0.5 * field[i] + 0.25 * (field[i - 1] + field[i + 1]);
            sum += field[i];
        }
    return sum;
}

/* The same shape of work, so that -b k scales it by k. */
KERNEL_FN double kernel_b(int passes)
{
    double sum = 0.0;
    for (int p = 0; p < passes; p++)
        for (int i = 0; i < POINTS; i++) {
            field[i] = field[i] * 0.999 + 1e-3 / (1.0 + (double)(i & 7));
            sum += field[i];
        }
    return sum;
}

KERNEL_FN void exchange(int rank, int size)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Request req[4];
    memcpy(halo_out[0], field, sizeof halo_out[0]);
    memcpy(halo_out[1], field + POINTS - HALO, sizeof halo_out[1]);
    MPI_Irecv(halo_in[0], HALO, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(halo_in[1], HALO, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(halo_out[1], HALO, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(halo_out[0], HALO, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    field[0] = 0.5 * (field[0] + halo_in[0][HALO - 1]);
    field[POINTS - 1] = 0.5 * (field[POINTS - 1] + halo_in[1][0]);
}

KERNEL_FN double step(int s, int rank, int size, int work_a, int work_b)
{
    /* Odd ranks: a quarter more work (rounded up). */
    int extra = rank % 2 ? 4 : 0;
    double r = kernel_a(work_a * (PASSES + extra)) + kernel_b(work_b * (PASSES + extra));
    exchange(rank, size);
    if (s % 10 == 9) {
        double local = r, total = 0.0;
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        r = total;
    }
    return r;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, steps = 200, work_a = 1, work_b = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i + 1 < argc; i += 2) {
        int v = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "-i") && v > 0)
            steps = v;
        else if (!strcmp(argv[i], "-a") && v > 0)
            work_a = v;
        else if (!strcmp(argv[i], "-b") && v > 0)
            work_b = v;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [-i STEPS] [-a WORK_A] [-b WORK_B]\n", argv[0]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    for (int i = 0; i < POINTS; i++)
        field[i] = (double)((i * 7 + rank) % 13);
    double t0 = MPI_Wtime(), sum = 0.0;
    for (int s = 0; s < steps; s++)
        sum += step(s, rank, size, work_a, work_b);
    double elapsed = MPI_Wtime() - t0, total = 0.0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checksum=%.6e\nelapsed_s=%.6f\n", total, elapsed);
    MPI_Finalize();
    return 0;
}
