/* The shares of other ranks (archive_mpi.h): batches sent whole, one MPI
 * message each, rank r to rank 0.  Rank 0 receives from a rank only when
 * its merge needs that rank's next batch, and a rank has at most BATCHES
 * sends pending, so what is in flight stays bounded as with threads. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/archive_mpi.h"
#include "analyze/archive_share.h"
#include "analyze/fail.h"

#define TAG_BATCH 2606

static struct archive_distribution distribution;
static int size = 1;

static int message_bytes(const struct batch *b)
{
    return (int)(offsetof(struct batch, records) + (size_t)b->n * sizeof(struct record));
}

/* A worker rank: sends the batch just filled, fills the next slot once
 * its previous send is done. */
static int publish_remote(struct reader *r, int last)
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
            MPI_Wait(&requests[k], MPI_STATUS_IGNORE);
        free(requests);
        r->requests = NULL;
        return 0;
    }
    slot = (unsigned)(r->published % BATCHES);
    MPI_Wait(&requests[slot], MPI_STATUS_IGNORE);
    r->fill = &r->batches[slot];
    r->fill->n = 0;
    r->fill->skipped = 0;
    r->fill->last = 0;
    return 0;
}

/* Rank 0: the next batch of rank r, into the reader's one buffer (the
 * merge is done with the previous one when it asks). */
static struct batch *next_remote(struct reader *r, int release, uint64_t *events)
{
    (void)release;
    for (;;) {
        if (r->done)
            return NULL;
        struct batch *b = &r->batches[0];
        MPI_Recv(b, (int)sizeof *b, MPI_BYTE, r->rank, TAG_BATCH, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        *events += b->skipped;
        if (b->last) {
            r->done = 1;
            r->end = b->end;
        }
        if (b->n)
            return b;
    }
}

int archive_mpi_init(int *argc, char ***argv)
{
    int provided, rank;
    /* Only the main thread calls MPI; rank 0's reader thread does not. */
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

void archive_mpi_finish(int status)
{
    if (status == EXIT_ANALYZE_ERROR && size > 1) {
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    MPI_Finalize();
}
