/* What the configuration and MPI_Pcontrol do to an MPI run.  exchange() is
 * called three times; the second call is between MPI_Pcontrol(0) and
 * MPI_Pcontrol(1).  Each exchange: MPI_Sendrecv of 4 ints to r+1 (from r-1),
 * MPI_Isend of 2 doubles to r-1 with MPI_Irecv from r+1 and MPI_Waitall,
 * and MPI_Allreduce of 1 int.  Then straddle(): an Isend before a pause
 * whose Wait is inside it.
 *
 * Arguments: exit=N returns N from main after MPI_Finalize; nofinalize
 * exits with status 0 before MPI_Finalize (after an MPI_Barrier, so every
 * rank got that far); straddle-last calls straddle() once more right
 * before MPI_Finalize, with no MPI call after its MPI_Pcontrol(1); late=MS
 * makes the last rank sleep MS milliseconds before MPI_Finalize. */
#include <string.h>
#include <time.h>

#include "common.h"

static long long checksum;

NOINLINE static void exchange(int round)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    int out[4] = {world_rank, round, 2, 3}, in[4] = {0};
    MPI_Sendrecv(out, 4, MPI_INT, next, 1, in, 4, MPI_INT, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    EXPECT(in[0] == prev && in[1] == round);
    double dout[2] = {world_rank + 0.5, round}, din[2] = {0};
    MPI_Request req[2];
    MPI_Irecv(din, 2, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(dout, 2, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    EXPECT(din[0] == next + 0.5);
    int sum = 0;
    MPI_Allreduce(&world_rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    EXPECT(sum == world_size * (world_size - 1) / 2);
    checksum = checksum * 7 + in[0] + (long long)din[0] + sum;
}

/* A ring Isend of 1 int whose MPI_Wait happens during a pause: requests
 * registered before a pause are forgotten, so it is not counted (the node
 * is there).  Nothing polls between the Isend and MPI_Pcontrol(0). */
NOINLINE static void straddle(void)
{
    int next = (world_rank + 1) % world_size, prev = (world_rank + world_size - 1) % world_size;
    int out = world_rank, in = -1;
    MPI_Request req;
    MPI_Isend(&out, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &req);
    MPI_Pcontrol(0);
    MPI_Recv(&in, 1, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Pcontrol(1);
    EXPECT(in == prev);
    checksum += in;
}

int main(int argc, char **argv)
{
    int status = 0, finalize = 1, straddle_last = 0, late_ms = 0;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "exit=", 5) == 0)
            status = atoi(argv[i] + 5);
        else if (strcmp(argv[i], "nofinalize") == 0)
            finalize = 0;
        else if (strcmp(argv[i], "straddle-last") == 0)
            straddle_last = 1;
        else if (strncmp(argv[i], "late=", 5) == 0)
            late_ms = atoi(argv[i] + 5);
    }
    start(&argc, &argv);
    exchange(1);
    MPI_Pcontrol(0);
    exchange(2);
    MPI_Pcontrol(1);
    exchange(3);
    straddle();
    report("control", checksum);
    if (!finalize) {
        MPI_Barrier(MPI_COMM_WORLD);
        exit(0);
    }
    if (straddle_last)
        straddle();
    if (late_ms > 0 && world_rank == world_size - 1) {
        struct timespec pause = {late_ms / 1000, (late_ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0)
            ;
    }
    MPI_Finalize();
    return status;
}
