/* MPI from two threads at once (MPI_THREAD_MULTIPLE), for
 * test/mpit/threads.py: each thread must get its own MPI_T session and
 * read its pvars around its own calls.
 *
 * On 2 ranks, each rank's main thread and a second thread exchange M
 * messages with the other rank, concurrently, each pair of threads on its
 * own duplicate of MPI_COMM_WORLD:
 *   main thread:   ping  (M x MPI_Sendrecv of one int)
 *   second thread: pong  (M x MPI_Sendrecv of one int)
 * so each thread makes M wrapped MPI calls.  If MPI does not provide
 * MPI_THREAD_MULTIPLE, the program prints "no MPI_THREAD_MULTIPLE" and
 * runs both parts in the main thread.  Usage: threads [M] (default 20). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "counting.h"

#define NOINLINE __attribute__((noinline))

static int rank, peer, rounds;
static MPI_Comm comm_main, comm_second;

static int exchange(MPI_Comm comm)
{
    int bad = 0;
    for (int i = 0; i < rounds; i++) {
        int out = rank * 1000 + i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, peer, i, &in, 1, MPI_INT, peer, i, comm,
                     MPI_STATUS_IGNORE);
        bad += in != peer * 1000 + i;
    }
    return bad;
}

NOINLINE static int ping(void)
{
    return exchange(comm_main);
}

NOINLINE static void *pong(void *arg)
{
    *(int *)arg = exchange(comm_second);
    return NULL;
}

int main(int argc, char **argv)
{
    rounds = argc > 1 ? atoi(argv[1]) : 20;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    peer = rank ^ 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_main);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_second);
    int bad_main = 0, bad_second = 0;
    if (provided == MPI_THREAD_MULTIPLE) {
        pthread_t t;
        pthread_create(&t, NULL, pong, &bad_second);
        bad_main = ping();
        pthread_join(t, NULL);
    } else {
        if (rank == 0)
            printf("no MPI_THREAD_MULTIPLE\n");
        bad_main = ping();
        pong(&bad_second);
    }
    MPI_Comm_free(&comm_main);
    MPI_Comm_free(&comm_second);
    MPI_Finalize();
    print_counts(rank);
    return bad_main || bad_second;
}
