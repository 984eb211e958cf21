/* An MPI program with a profile of a few hundred stacks that runs until it
 * is killed, for timing the partial profile a rank writes on SIGTERM
 * (bench/partial_write.py, make bench-partial).
 *
 * Each step runs PHASES phases; phase p runs every one of KERNELS kernels,
 * and kernel k of phase p calls HELPERS_PER_KERNEL of the HELPERS helpers
 * (which ones depends on p and k).  A helper computes, or makes one MPI
 * call: MPI_Allreduce, an MPI_Sendrecv round a ring, or an
 * MPI_Isend/MPI_Irecv/MPI_Waitall pair with both neighbours.  That gives
 * main > step > phase > kernel > helper > MPI_* paths: about 450 stacks,
 * 120 of them with messages, on every rank.
 *
 * After READY steps each rank writes its PID to ready.<rank> (renamed into
 * place), then goes on stepping until a signal kills it.  With `finalize`,
 * it calls MPI_Finalize instead, the last rank 1.5 s after the others, so
 * that they wait for it in the job's merge.
 *
 * Usage: partial_app [READY [finalize]]   (default 20) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define KERNEL_FN __attribute__((noinline))
#else
#define KERNEL_FN __attribute__((noinline, noipa))
#endif

enum { PHASES = 6, KERNELS = 8, HELPERS = 12, HELPERS_PER_KERNEL = 5, N = 256 };

static double data[N], halo[2][N];
static int rank, size;

KERNEL_FN static void compute(int h)
{
    for (int i = 0; i < N; i++)
        data[i] = data[i] * 0.999 + (double)(h + i) * 1e-6;
}

KERNEL_FN static void reduce(int h)
{
    double local = data[h % N], global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    data[h % N] = global / size;
}

KERNEL_FN static void ring(int h)
{
    MPI_Sendrecv(data, 16, MPI_DOUBLE, (rank + 1) % size, h, halo[0], 16, MPI_DOUBLE,
                 (rank + size - 1) % size, h, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

KERNEL_FN static void exchange(int h)
{
    MPI_Request r[4];
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Irecv(halo[0], 32, MPI_DOUBLE, left, h, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(halo[1], 32, MPI_DOUBLE, right, h, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(data, 32, MPI_DOUBLE, right, h, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(data + 32, 32, MPI_DOUBLE, left, h, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
}

/* Twelve helpers, each its own function (its own stacks). */
#define HELPER(i)                                                                               \
    KERNEL_FN static void helper_##i(void)                                                      \
    {                                                                                           \
        switch (i % 4) {                                                                        \
        case 0: reduce(i); break;                                                               \
        case 1: ring(i); break;                                                                 \
        case 2: exchange(i); break;                                                             \
        default: compute(i); break;                                                             \
        }                                                                                       \
    }
HELPER(0) HELPER(1) HELPER(2) HELPER(3) HELPER(4) HELPER(5)
HELPER(6) HELPER(7) HELPER(8) HELPER(9) HELPER(10) HELPER(11)
static void (*const helpers[HELPERS])(void) = {
    helper_0, helper_1, helper_2, helper_3, helper_4, helper_5,
    helper_6, helper_7, helper_8, helper_9, helper_10, helper_11};

/* The same helpers in the same order on every rank: the collectives and
 * exchanges match. */
#define KERNEL(k)                                                                               \
    KERNEL_FN static void kernel_##k(int p)                                                     \
    {                                                                                           \
        for (int j = 0; j < HELPERS_PER_KERNEL; j++)                                            \
            helpers[(p * 5 + k * 3 + j * 7) % HELPERS]();                                       \
    }
KERNEL(0) KERNEL(1) KERNEL(2) KERNEL(3) KERNEL(4) KERNEL(5) KERNEL(6) KERNEL(7)
static void (*const kernels[KERNELS])(int) = {kernel_0, kernel_1, kernel_2, kernel_3,
                                              kernel_4, kernel_5, kernel_6, kernel_7};

#define PHASE(p)                                                                                \
    KERNEL_FN static void phase_##p(void)                                                       \
    {                                                                                           \
        for (int k = 0; k < KERNELS; k++)                                                       \
            kernels[k](p);                                                                      \
    }
PHASE(0) PHASE(1) PHASE(2) PHASE(3) PHASE(4) PHASE(5)
static void (*const phases[PHASES])(void) = {phase_0, phase_1, phase_2,
                                             phase_3, phase_4, phase_5};

KERNEL_FN static void step(void)
{
    for (int p = 0; p < PHASES; p++)
        phases[p]();
}

static void say_ready(void)
{
    char name[32], tmp[40];
    snprintf(name, sizeof name, "ready.%d", rank);
    snprintf(tmp, sizeof tmp, "%s.tmp", name);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
        rename(tmp, name);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long ready = argc > 1 ? atol(argv[1]) : 20;
    int finalize = argc > 2 && strcmp(argv[2], "finalize") == 0;
    for (long s = 0;; s++) {
        if (s == ready) {
            say_ready();
            if (finalize)
                break;
        }
        step();
    }
    if (rank == size - 1)
        usleep(1500000); /* past the launcher's 1 s from SIGTERM to the ranks */
    MPI_Finalize();
    return 0;
}
