/* What one thread keeps about MPI: per-node message figures, messages per
 * peer (for the communication matrices), and its open requests.  Owned by
 * the thread; nobody else writes it, so recording takes no lock. */
#ifndef HT_MPI_THREAD_DATA_H
#define HT_MPI_THREAD_DATA_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "callstack/thread.h"
#include "merge/peers.h"
#include "mpi/requests.h"

/* A message handle from a matched probe, and its communicator. */
#define HT_PROBED_SLOTS 8
struct ht_probed {
    MPI_Message message;
    MPI_Comm comm;
};

struct ht_mpi_thread {
    int in_mpi;                  /* inside a PMPI call: never call MPI from a hook */
    unsigned epoch;              /* ht_mpi.epoch when the requests were registered */
    struct ht_peer_counts peers; /* world_size entries each, or NULL before Init */
    struct ht_request_table requests;
    uint64_t last_poll;          /* tick of the last poll */
    uint64_t poll_interval;      /* ticks until the next (requests.c) */
    struct ht_probed probed[HT_PROBED_SLOTS];
    unsigned probed_next;
    /* arena for ht_mpi_stats */
    char *arena_next, *arena_end;
    void *chunks;
};

/* The calling thread's MPI data, created on first use (NULL if out of
 * memory). */
struct ht_mpi_thread *ht_mpi_thread_data(struct ht_thread *t);

/* The stats of a node, created on first use (NULL if out of memory). */
struct ht_mpi_stats *ht_mpi_node_stats(struct ht_mpi_thread *m, struct ht_node *node);

#endif
