/* Cost of trace mode's clock synchronisation (src/trace/clock_sync.c), the
 * two calls made at the job's start and end, on however many ranks it is
 * run on.  Built with the synchronisation's own sources and stubs for the
 * two things it asks of the rest of the library (trace mode is on; not a
 * setuid process), so that nothing else of a traced MPI_Init or
 * MPI_Finalize is timed.
 *
 * Each repetition: a barrier, then every rank times the call with
 * CLOCK_MONOTONIC; the slowest rank's time is what the job waits.  Prints
 * the median and the minimum over the repetitions, start and end
 * alternated, and, for scale, those of one MPI_Barrier timed the same way
 * in the same loop.  Usage: mpirun -n 4 clock_sync_cost [-r REPS] */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/clock_sync.h"

int ht_trace_enabled = 1;
bool ht_config_secure_execution(void);
bool ht_config_secure_execution(void)
{
    return false;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int reps = 21, rank, size;
    MPI_Init(&argc, &argv);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "-r") == 0)
            reps = atoi(argv[++i]);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm job;
    MPI_Comm_dup(MPI_COMM_WORLD, &job);
    double *times[3];
    for (int i = 0; i < 3; i++)
        times[i] = calloc((size_t)reps, sizeof(double));
    for (int r = 0; r < reps; r++) {
        for (int end = 0; end < 3; end++) {
            MPI_Barrier(job);
            double t0 = seconds();
            if (end < 2)
                ht_trace_clock_sync(job, true, end);
            else
                MPI_Barrier(job);
            double mine = seconds() - t0, slowest = 0;
            MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, job);
            times[end][r] = slowest;
        }
    }
    if (rank == 0) {
        static const char *const names[3] = {"start", "end", "barrier"};
        for (int end = 0; end < 3; end++) {
            qsort(times[end], (size_t)reps, sizeof(double), compare);
            printf("ranks=%d phase=%s median_us=%.1f min_us=%.1f reps=%d\n", size, names[end],
                   1e6 * times[end][reps / 2], 1e6 * times[end][0], reps);
        }
    }
    for (int i = 0; i < 3; i++)
        free(times[i]);
    MPI_Comm_free(&job);
    MPI_Finalize();
    return 0;
}
