/* The shares of other ranks (archive_mpi.h): batches sent whole, one MPI
 * message each, rank r to rank 0.  Rank 0 receives a rank's next batch
 * while its merge reads the current one (two buffers per rank), and a rank
 * has at most BATCHES sends pending, so what is in flight stays bounded as
 * with threads. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analyze/archive_mpi.h"
#include "analyze/archive_share.h"
#include "analyze/fail.h"

#define TAG_BATCH 2606

static struct archive_distribution distribution;
static int size = 1;

/* MPI_Wait, but without spinning: a rank waiting for another (the merge
 * for a reader, a reader for the merge) would otherwise take a CPU from
 * the ranks and threads doing the work, which share the node's CPUs. */
static void wait_gently(MPI_Request *request)
{
    int done = 0;
    MPI_Test(request, &done, MPI_STATUS_IGNORE);
    while (!done) {
        struct timespec pause = {0, 20000};
        nanosleep(&pause, NULL);
        MPI_Test(request, &done, MPI_STATUS_IGNORE);
    }
}

static int message_bytes(const struct batch *b)
{
    return (int)(offsetof(struct batch, records) + (size_t)b->n * sizeof(struct record));
}

/* A worker rank: sends the batch just filled, fills the next slot once
 * its previous send is done. */
static void publish_remote(struct reader *r, int last)
{
    MPI_Request *requests = r->requests;
    if (!requests) {
        r->requests = requests = xcalloc(BATCHES, sizeof *requests);
        for (unsigned k = 0; k < BATCHES; k++)
            requests[k] = MPI_REQUEST_NULL;
    }
    unsigned slot = (unsigned)(r->published % BATCHES);
    MPI_Isend(r->fill, message_bytes(r->fill), MPI_BYTE, 0, TAG_BATCH, MPI_COMM_WORLD,
              &requests[slot]);
    r->published++;
    if (last) {
        /* One by one: GCC 12 warns about MPICH's MPI_STATUSES_IGNORE. */
        for (unsigned k = 0; k < BATCHES; k++)
            wait_gently(&requests[k]);
        free(requests);
        r->requests = NULL;
        return;
    }
    slot = (unsigned)(r->published % BATCHES);
    wait_gently(&requests[slot]);
    r->fill = &r->batches[slot];
    r->fill->n = 0;
    r->fill->skipped = 0;
    r->fill->last = 0;
}

static void receive(struct reader *r, unsigned slot)
{
    MPI_Irecv(&r->batches[slot], (int)sizeof *r->batches, MPI_BYTE, r->rank, TAG_BATCH,
              MPI_COMM_WORLD, r->requests);
    r->published = slot;
}

/* Rank 0: the next batch of rank r.  Two buffers: while the merge reads
 * one, the next batch is already being received into the other. */
static struct batch *next_remote(struct reader *r, int release, uint64_t *events)
{
    (void)release;
    if (!r->requests && !r->done) {
        r->requests = xmalloc(sizeof(MPI_Request));
        receive(r, 0);
    }
    while (!r->done) {
        unsigned slot = (unsigned)r->published;
        wait_gently(r->requests);
        struct batch *b = &r->batches[slot];
        *events += b->skipped;
        if (b->last) {
            r->done = 1;
            r->end = b->end;
            free(r->requests);
            r->requests = NULL;
        } else {
            receive(r, slot ^ 1);
        }
        if (b->n)
            return b;
    }
    return NULL;
}

int archive_mpi_init(int *argc, char ***argv)
{
    int provided, rank;
    /* Only the main thread calls MPI; rank 0's helper thread does not. */
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* One message per problem, from rank 0: a worker's failure reaches
     * rank 0 with its last batch. */
    if (rank != 0 && !freopen("/dev/null", "w", stderr))
        fail_exit("cannot open /dev/null");
    if (size > 1) {
        distribution.shares = (unsigned)size;
        distribution.self = (unsigned)rank;
        distribution.publish = publish_remote;
        distribution.next = next_remote;
        archive_distribution = &distribution;
    }
    return rank;
}

int archive_mpi_agree(int status)
{
    int worst = status;
    if (size > 1)
        MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* Rank 0 alone speaks (the others' stderr is /dev/null): when only
     * another rank failed, it says so. */
    if (worst != EXIT_ANALYZE_OK && status == EXIT_ANALYZE_OK && distribution.self == 0)
        fail_message("another rank of the launch failed; run hooktrace-analyze without mpirun "
                     "to see its message");
    return worst;
}

int archive_mpi_finish(int status)
{
    int agreed = archive_mpi_agree(status);
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
    return agreed;
}
