/* Cancelled requests and what became of them (test/mpi/cancel.py), 2 ranks.
 *
 * A cancel that fails (the message was already received) leaves a message;
 * one that succeeds leaves none.  The program either asks (MPI_Wait, then
 * MPI_Test_cancelled) or frees the request with MPI_Request_free and never
 * learns which it was: the profile must tell either way.
 *
 * Open MPI 4.1 and MPICH 4.0 never cancel a send (a cancelled unmatched
 * MPI_Issend never completes), so the cancels that succeed here are of
 * receives that nothing matches. */
#include "common.h"

#define COUNT 100

static int data[COUNT];

/* Cancels the request, then frees it (the outcome unknown to the program:
 * -1) or waits for it and returns MPI_Test_cancelled's flag.  Not
 * recorded: its MPI calls belong to the scenario that called it, whose
 * stacks cancel.py checks. */
__attribute__((no_instrument_function)) static long long cancel_then(MPI_Request *request, int free_it)
{
    MPI_Cancel(request);
    if (free_it) {
        MPI_Request_free(request);
        EXPECT(*request == MPI_REQUEST_NULL);
        return -1;
    }
    MPI_Status st;
    int flag = -1;
    MPI_Wait(request, &st);
    MPI_Test_cancelled(&st, &flag);
    return flag;
}

/* Rank 0's MPI_Issend is received by rank 1 before rank 0 cancels it
 * (the barrier orders them): the cancel fails. */
NOINLINE static long long issend_received_then_cancelled(int free_it)
{
    MPI_Request request;
    long long cancelled = -1;
    if (world_rank == 0) {
        MPI_Issend(data, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &request);
        MPI_Barrier(MPI_COMM_WORLD);
        cancelled = cancel_then(&request, free_it);
    } else if (world_rank == 1) {
        MPI_Recv(data, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return cancelled;
}

NOINLINE static long long failed_cancel_freed(void)
{
    return issend_received_then_cancelled(1);
}

NOINLINE static long long failed_cancel_waited(void)
{
    return issend_received_then_cancelled(0);
}

/* Rank 1's MPI_Irecv that nothing matches: the cancel succeeds. */
NOINLINE static long long irecv_cancelled(int free_it)
{
    MPI_Request request;
    long long cancelled = -1;
    if (world_rank == 1) {
        MPI_Irecv(data, COUNT, MPI_INT, 0, 2, MPI_COMM_WORLD, &request);
        cancelled = cancel_then(&request, free_it);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return cancelled;
}

NOINLINE static long long cancel_freed(void)
{
    return irecv_cancelled(1);
}

NOINLINE static long long cancel_waited(void)
{
    return irecv_cancelled(0);
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    EXPECT(world_size == 2);
    report("failed cancel, freed", failed_cancel_freed());
    report("failed cancel, waited: cancelled", failed_cancel_waited());
    report("cancel, freed", cancel_freed());
    report("cancel, waited: cancelled", cancel_waited());
    MPI_Finalize();
    return 0;
}
