/* Regions (include/hooktrace.h, docs/regions.md) around local work and
 * MPI calls, for test/mpi/regions.py.
 *
 *   regions [steps]   setup() opens "assemble" once; then each of the
 *                     steps (20) opens "assemble" around local_work() and
 *                     "iterate" around an MPI_Allreduce of one double and
 *                     a ring MPI_Sendrecv of 4 ints, from step().
 *   regions mismatch  ends a region never opened (twice), then opens
 *                     "outer" and "inner" and ends "outer" first, then
 *                     "inner": one warning per name, and the tree stays
 *                     main > mismatch > outer > inner.
 *   regions unnamed   a null and an empty name: one warning, no node.
 *   regions warmup    phases (docs/regions.md): pause_here() calls
 *                     MPI_Pcontrol(0) and returns; a warm-up of 5 steps
 *                     and nap() (300 ms asleep) while paused, then
 *                     MPI_Pcontrol(1) and 20 steps.
 *   regions reset     3 steps, MPI_Pcontrol(2), then 20 steps.
 *   regions write     5 steps, MPI_Pcontrol(3), then 20 steps.
 *   regions phases    run_phases(): hooktrace_phase("setup"), setup(),
 *                     hooktrace_phase("solve"), 20 steps.
 *
 * The same source built without libhooktrace (regions_plain) runs the same
 * and prints the same: the header's references are weak. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hooktrace.h>

#define NOINLINE __attribute__((noinline))

static int world_rank, world_size;

static volatile double sink;

NOINLINE static void local_work(int step)
{
    for (int i = 0; i < 100; i++)
        sink += (double)(i * step) * 1e-3;
}

NOINLINE static void setup(void)
{
    hooktrace_region_begin("assemble");
    local_work(0);
    hooktrace_region_end("assemble");
}

NOINLINE static double step(int s)
{
    int right = (world_rank + 1) % world_size;
    int left = (world_rank + world_size - 1) % world_size;
    int out[4] = {s, world_rank, 0, 0}, in[4];
    double mine = world_rank + s, sum = 0;

    hooktrace_region_begin("assemble");
    local_work(s);
    hooktrace_region_end("assemble");

    hooktrace_region_begin("iterate");
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Sendrecv(out, 4, MPI_INT, right, s, in, 4, MPI_INT, left, s, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    hooktrace_region_end("iterate");
    return sum + in[1];
}

NOINLINE static void mismatch(void)
{
    hooktrace_region_end("never_opened");
    hooktrace_region_end("never_opened");
    hooktrace_region_begin("outer");
    hooktrace_region_begin("inner");
    local_work(1);
    hooktrace_region_end("outer"); /* closes inner with it */
    hooktrace_region_end("inner"); /* no longer open: ignored */
}

NOINLINE static void unnamed(void)
{
    hooktrace_region_begin(NULL);
    hooktrace_region_begin("");
    hooktrace_region_end("");
    local_work(2);
}

NOINLINE static void pause_here(void)
{
    MPI_Pcontrol(0);
}

NOINLINE static void nap(void)
{
    struct timespec rest = {0, 300 * 1000 * 1000};
    while (nanosleep(&rest, &rest) != 0)
        ;
}

NOINLINE static double run_phases(void)
{
    double total = 0;
    hooktrace_phase("setup");
    setup();
    hooktrace_phase("solve");
    for (int s = 0; s < 20; s++)
        total += step(s);
    return total;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const char *mode = argc > 1 ? argv[1] : "20";
    double total = 0;
    if (strcmp(mode, "mismatch") == 0) {
        mismatch();
    } else if (strcmp(mode, "unnamed") == 0) {
        unnamed();
    } else if (strcmp(mode, "warmup") == 0) {
        pause_here();
        for (int s = 0; s < 5; s++)
            total += step(s);
        nap();
        MPI_Pcontrol(1);
        for (int s = 0; s < 20; s++)
            total += step(s);
    } else if (strcmp(mode, "write") == 0) {
        for (int s = 0; s < 5; s++)
            total += step(s);
        MPI_Pcontrol(3);
        for (int s = 0; s < 20; s++)
            total += step(s);
    } else if (strcmp(mode, "phases") == 0) {
        total = run_phases();
    } else if (strcmp(mode, "reset") == 0) {
        for (int s = 0; s < 3; s++)
            total += step(s);
        MPI_Pcontrol(2);
        for (int s = 0; s < 20; s++)
            total += step(s);
    } else {
        setup();
        int steps = atoi(mode);
        for (int s = 0; s < steps; s++)
            total += step(s);
    }
    if (world_rank == 0)
        printf("regions %s: total %.1f\n", mode, total);
    MPI_Finalize();
    return 0;
}
