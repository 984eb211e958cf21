/* Counters in an MPI program (test/mpi/counters.py): three software-defined
 * PAPI events this program owns.  MTEST::work grows by 7 in each of 5
 * compute() calls; MTEST::sent by 100 before each of the 3 sends of
 * exchange(); MTEST::reads is a callback counter that grows by 1 each time
 * it is read, so a call's inclusive count is one more than the reads made
 * inside it (two per recorded call): an MPI routine's own stack, with
 * nothing recorded inside, counts exactly 1 per call. */
#include <mpi.h>
#include <sde_lib.h>
#include <stdio.h>

static long long work, sent, reads;

/* Runs inside hooktrace's read: not instrumented, so that it is no stack. */
__attribute__((no_instrument_function)) static long long read_once(void *param)
{
    (void)param;
    return ++reads;
}

__attribute__((constructor, no_instrument_function)) static void register_counters(void)
{
    papi_handle_t h = papi_sde_init("MTEST");
    papi_sde_register_counter(h, "work", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &work);
    papi_sde_register_counter(h, "sent", PAPI_SDE_RO | PAPI_SDE_DELTA, PAPI_SDE_long_long, &sent);
    papi_sde_register_counter_cb(h, "reads", PAPI_SDE_RO | PAPI_SDE_INSTANT, PAPI_SDE_long_long,
                                 read_once, NULL);
}

void compute(void)
{
    work += 7;
}

void exchange(int rank, int size)
{
    int out = rank, in = -1;
    for (int i = 0; i < 3; i++) {
        sent += 100;
        if (rank % 2 == 0) {
            MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 5; i++)
        compute();
    exchange(rank, size);
    printf("rank %d: work %lld sent %lld\n", rank, work, sent);
    MPI_Finalize();
    return 0;
}
