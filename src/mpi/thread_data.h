/* What one thread keeps about MPI: per-node message figures, messages per
 * peer (for the communication matrices), and its open requests.  Owned by
 * the thread; nobody else writes it, so recording takes no lock.  The one
 * exception is its request table under MPI_THREAD_SERIALIZED and MULTIPLE,
 * which other threads may take entries from and hand completions back to,
 * under requests_lock (requests_shared.c). */
#ifndef HT_MPI_THREAD_DATA_H
#define HT_MPI_THREAD_DATA_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "callstack/thread.h"
#include "merge/peers.h"
#include "mpi/requests.h"

/* Another thread's request taken for the duration of one MPI call
 * (requests_shared.c). */
struct ht_claim {
    struct ht_thread *owner;
    struct ht_request r;
};

/* A message handle from a matched probe, and its communicator. */
#define HT_PROBED_SLOTS 8
struct ht_probed {
    MPI_Message message;
    MPI_Comm comm;
};

/* The group record of the thread's last blocking MPI_Allreduce, and what
 * it was made of (collectives.c): the next call from the same node with
 * the same arguments only counts itself there.  generation: the
 * communicators' (ht_mpi_comm_generation) when it was made, so that a
 * freed communicator whose handle names another one is never taken for
 * it; type: a predefined datatype only, which is never freed. */
struct ht_coll_memo {
    struct ht_node *node;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Count count;
    unsigned generation;
    struct ht_group_messages *g;
};

struct ht_mpi_thread {
    int in_mpi;                  /* inside a PMPI call: never call MPI from a hook */
    unsigned epoch;              /* ht_mpi.epoch when the requests were registered */
    struct ht_peer_counts peers; /* world_size entries each, or NULL before Init */
    struct ht_request_table requests;
    /* Under MPI_THREAD_SERIALIZED and MULTIPLE only: guards `requests`
     * against the other threads that take or hand back its entries. */
    pthread_mutex_t requests_lock;
    struct ht_claim *claims;     /* taken by the current MPI call */
    size_t nclaims, claims_capacity;
    uint64_t last_poll;          /* tick of the last poll */
    uint64_t poll_interval;      /* ticks until the next (requests.c) */
    struct ht_probed probed[HT_PROBED_SLOTS];
    unsigned probed_next;
    struct ht_coll_memo allreduce;
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
