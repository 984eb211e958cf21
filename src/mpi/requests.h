/* The open-request table of one thread.
 *
 * Every non-blocking operation a wrapper starts is registered with the
 * call stack that issued it and what it moves.  Completion is found either
 * by the program's own Wait/Test (the wrapper looks up the handles it was
 * given) or by polling with PMPI_Request_get_status, which does not free the
 * request, from function hooks and wrappers.  A completed operation becomes
 * messages attributed to the issuing stack, with its start and end times.
 *
 * Entries live in a dense array (polling walks it round-robin) with an
 * open-addressing index from handle to position. */
#ifndef HT_MPI_REQUESTS_H
#define HT_MPI_REQUESTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"
#include "mpi/state.h"

struct ht_node;
struct ht_thread;
struct ht_rank_map;

enum ht_request_kind {
    HT_REQUEST_SEND,  /* p2p send: peer and bytes known at start */
    HT_REQUEST_RECV,  /* p2p receive: peer, tag and bytes from the status */
    HT_REQUEST_PAIRS, /* collective or one-sided: a list of messages */
    HT_REQUEST_GROUP, /* collective: the same block with every member of map */
    HT_REQUEST_SENDRECV, /* MPI_Isendrecv: a SEND and a RECV under one handle */
};

/* The messages of one collective call between this rank and every other
 * member of a group, the same size each way (collectives.c).  The map is
 * the group's; self is this rank's index in it, -1 if it is not a member
 * (an inter-communicator's remote group). */
struct ht_group_shape {
    struct ht_rank_map *map;
    int self;
    uint64_t send_bytes, recv_bytes; /* per peer; 0: no message that way */
};

/* One message of a collective or one-sided operation, as seen by this rank. */
struct ht_pair {
    int peer;          /* world rank */
    bool send;         /* this rank sends (else receives) */
    bool collective;   /* counted in coll_matrix (else comm_matrix) */
    uint64_t bytes;
};

/* The bytes this rank sent and received in all over n pairs (a collective's
 * figures in the trace). */
static inline void ht_pair_bytes(const struct ht_pair *pairs, uint32_t n, uint64_t *sent,
                                 uint64_t *received)
{
    *sent = *received = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (pairs[i].send)
            *sent += pairs[i].bytes;
        else
            *received += pairs[i].bytes;
    }
}

struct ht_request {
    MPI_Request handle;
    struct ht_node *node;     /* the stack that issued it */
    uint8_t kind;
    bool persistent;          /* from *_init: stays registered between Starts */
    bool active;              /* started and not yet seen complete */
    bool cancelled;           /* MPI_Cancel was called on it */
    bool taken;               /* freed by the program with a cancel pending:
                                 we hold the handle until it completes */
    bool sized;               /* a receive of known size and peer (partitioned,
                                 MPICH 4.0's Isendrecv): no status read */
    int peer;                 /* world rank; -1: take it from the status */
    struct ht_rank_map *map;  /* for peer -1: the communicator's ranks */
    uint64_t bytes;           /* send size; receives take it from the status */
    /* HT_REQUEST_SENDRECV: peer and bytes are the send's (peer -1: none),
     * and the receive's peer is recv_peer (-1: none), or from the status
     * through map if it is set (MPI_ANY_SOURCE); its size recv_bytes if
     * sized, else from the status. */
    int recv_peer;
    uint64_t recv_bytes;
    uint64_t start;           /* tick of the (last) start */
    uint32_t npairs;
    struct ht_pair *pairs;    /* HT_REQUEST_PAIRS: owned by the entry */
    struct ht_group_shape group; /* HT_REQUEST_GROUP (its map is `map`) */
    uint32_t group_peers;     /* HT_REQUEST_GROUP: peers of the last completion */
    /* Trace mode: the OTF2 request id of the current activation (0: not
     * traced), and what the completion event needs. */
    uint64_t trace_id;
    bool traced;              /* p2p and collective requests of a tracing thread */
    bool trace_start_pending; /* started by another thread: no start event yet */
    uint32_t trace_comm;      /* index in the trace's communicator registry */
    int trace_peer;           /* rank in the communicator as the program named it */
    int trace_tag;
    int trace_root;           /* non-blocking collective: root, -1 none */
};

/* Whether recording r needs its completed status: a receive's source and
 * size come from it.  A request that completes where no status can be had
 * (freed while active, its handle reused) is recorded only if not. */
static inline bool ht_request_needs_status(const struct ht_request *r)
{
    return (r->kind == HT_REQUEST_RECV || r->kind == HT_REQUEST_SENDRECV) && !r->sized;
}

struct ht_request_table {
    struct ht_request *entries;
    size_t count, capacity;
    uint32_t *index;          /* position + 1, 0 = empty */
    size_t index_mask;
    size_t active;            /* entries with active set */
    size_t cursor;            /* where the next poll starts */
    /* Completions of this table's requests by other threads, waiting to
     * be recorded by this one (requests_shared.c), and how many: read
     * without the lock by the owner's wrappers, hence atomic. */
    struct ht_handoff *handoffs;
    size_t handed;
};

/* A request of one thread completed by another: the entry (it owns its
 * pairs and a reference to its map) and what completed it. */
struct ht_handoff {
    struct ht_handoff *next;
    struct ht_request r;
    MPI_Status status;
    uint64_t end;
    bool cancelled;
};

/* A new entry for handle (an existing one for the same handle is replaced;
 * start: the tick at which the call that returned the handle began).  NULL
 * if out of memory.  The caller fills it in and then calls
 * ht_request_activated if it is active. */
struct ht_request *ht_request_add(struct ht_thread *t, MPI_Request handle, uint64_t start);
struct ht_request *ht_request_find(struct ht_thread *t, MPI_Request handle);
void ht_request_activated(struct ht_thread *t, struct ht_request *r, uint64_t now);
void ht_request_remove(struct ht_thread *t, struct ht_request *r);

/* The operation behind r completed with status st (never
 * MPI_STATUS_IGNORE) at tick now: records its messages unless it was
 * cancelled, then removes it, or deactivates a persistent one. */
void ht_request_complete(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                         uint64_t now);

/* The handle a Wait/Test wrapper saw complete (looked up; unknown or
 * inactive handles are ignored). */
void ht_request_handle_done(struct ht_thread *t, MPI_Request handle, const MPI_Status *st,
                            uint64_t now);

/* MPI_Request_free of an active request with a cancel pending: whether
 * the cancel succeeded (no message) or failed (the message went) only its
 * completed status tells (MPI_Test_cancelled), and MPI_Request_free would
 * leave us no handle to ask.  Returns true if the request is taken over
 * instead: the wrapper then does not call PMPI_Request_free, the entry
 * stays active, the poll sees it complete, records it by its status and
 * frees it (PMPI_Request_free of a complete request).  One still pending
 * at MPI_Finalize, or at a pause in logging, is freed then unrecorded.
 * Never blocks: Open MPI 4.1 and MPICH 4.0 never complete a cancelled
 * unmatched MPI_Issend. */
bool ht_request_take(struct ht_thread *t, MPI_Request handle);

/* Checks up to `budget` active requests with PMPI_Request_get_status;
 * returns how many completed. */
size_t ht_request_poll(struct ht_thread *t, uint64_t now, size_t budget);

/* Checks ht_mpi.poll_batch of them if the thread's poll interval has
 * passed, and paces the next poll (requests.c says how): from wrappers, and
 * from hooks through ht_mpi_poll_from_hook (declared in mpi/poll.h),
 * which also needs a thread level that allows MPI calls from hooks.
 * Returns whether it polled. */
bool ht_request_poll_paced(struct ht_thread *t, uint64_t now);

/* The thread's requests without the entry at r, which is copied to *out
 * (with its pairs and map, now the copy's). */
void ht_request_detach(struct ht_thread *t, struct ht_request *r, struct ht_request *out);

/* Puts a detached entry back in t's table; false (nothing done) if the
 * table already holds its handle again. */
bool ht_request_insert(struct ht_thread *t, const struct ht_request *src);

/* Records the completions other threads handed to t (t's table locked, or
 * at MPI_Finalize): on t's figures, as its own; returns how many. */
size_t ht_request_drain_handoffs(struct ht_thread *t);

/* The table of each thread is locked only under MPI_THREAD_SERIALIZED and
 * MPI_THREAD_MULTIPLE (ht_mpi.shared_requests), where another thread may
 * take one of its requests (requests_shared.c); every use of a thread's
 * table by its owner is between these two. */
void ht_requests_lock_shared(struct ht_thread *t);
void ht_requests_unlock_shared(struct ht_thread *t);
/* Returns whether it locked, for the matching unlock (one read of the
 * flag on the single-threaded path). */
HT_NOINSTR static inline bool ht_requests_lock(struct ht_thread *t)
{
    bool shared = HT_UNLIKELY(ht_mpi.shared_requests);
    if (shared)
        ht_requests_lock_shared(t);
    return shared;
}
HT_NOINSTR static inline void ht_requests_unlock(struct ht_thread *t, bool locked)
{
    if (HT_UNLIKELY(locked))
        ht_requests_unlock_shared(t);
}

/* Requests completed, tested or freed by a thread other than the one that
 * made them (requests_shared.c).  Before the PMPI call of a Wait, Test or
 * Request_free, the calling thread claims the n handles that are not in its
 * own table from the tables of the other threads: it takes them out, under
 * their owners' locks, so that no owner polls a handle MPI is about to
 * complete or free.  During the call they are found by
 * ht_request_claimed; ht_request_claim_done hands a completed one back to
 * its owner for recording; ht_request_release, after the call, puts the
 * rest back where they came from. */
void ht_request_claim(struct ht_thread *t, int n, const MPI_Request *handles);
struct ht_request *ht_request_claimed(struct ht_thread *t, MPI_Request handle);
void ht_request_claim_done(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                           uint64_t now);
void ht_request_claim_drop(struct ht_thread *t, struct ht_request *r);
void ht_request_release(struct ht_thread *t);

/* MPI_Start and MPI_Cancel of another thread's request: done in place,
 * under its owner's lock (neither frees the handle).  False if no other
 * thread holds the handle. */
bool ht_request_start_foreign(struct ht_thread *t, MPI_Request handle, uint64_t now);
bool ht_request_cancel_foreign(struct ht_thread *t, MPI_Request handle);

/* At MPI_Finalize: every thread's hand-offs recorded. */
void ht_request_drain_all_handoffs(void);

/* Drops every entry without recording (after a pause in logging). */
void ht_request_forget_all(struct ht_thread *t);

/* At MPI_Finalize: one last check of every active request, then drops all. */
void ht_request_table_drain(struct ht_thread *t, uint64_t now);

#endif
