/* What the generated wrappers call after the PMPI routine returned
 * MPI_SUCCESS: one function per kind of effect (see generate.py). */
#ifndef HT_MPI_RECORD_H
#define HT_MPI_RECORD_H

#include <mpi.h>
#include <stdbool.h>

#include "mpi/call.h"
#include "mpi/messages.h"
#include "mpi/requests.h"

/* Blocking point-to-point (counts as MPI_Count: the large-count routines
 * MPI_Send_c, ... pass theirs; an int converts). */
void ht_mpi_on_send(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm);
void ht_mpi_on_recv(struct ht_mpi_call *c, const MPI_Status *st, MPI_Comm comm);

/* Non-blocking and persistent point-to-point (persistent: registered
 * inactive until MPI_Start). */
void ht_mpi_on_isend(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request request, bool persistent);
void ht_mpi_on_irecv(struct ht_mpi_call *c, int source, MPI_Comm comm, MPI_Request request,
                     bool persistent);
void ht_mpi_on_start(struct ht_mpi_call *c, MPI_Request request);

/* MPI 4: MPI_Isendrecv(_replace), a send and a receive completed by one
 * request; a partitioned receive (MPI_Precv_init), persistent, of count
 * elements in all from source (which may not be a wildcard). */
void ht_mpi_on_isendrecv(struct ht_mpi_call *c, MPI_Count sendcount, MPI_Datatype sendtype,
                         int dest, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                         MPI_Comm comm, MPI_Request request);
void ht_mpi_on_precv_init(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int source,
                          int tag, MPI_Comm comm, MPI_Request request);

/* Matched probe and receive: the status of a matched receive names its
 * source in the communicator of the probe. */
void ht_mpi_on_mprobe(struct ht_mpi_call *c, MPI_Comm comm, MPI_Message message);
void ht_mpi_on_mrecv(struct ht_mpi_call *c, MPI_Message message, const MPI_Status *st);
void ht_mpi_on_imrecv(struct ht_mpi_call *c, MPI_Message message, MPI_Request request);

/* Completion seen by Wait/Test (handles as they were before the call). */
void ht_mpi_on_done(struct ht_mpi_call *c, MPI_Request handle, const MPI_Status *st);
void ht_mpi_on_done_all(struct ht_mpi_call *c, int count, const MPI_Request *handles,
                        const MPI_Status *statuses);
void ht_mpi_on_done_some(struct ht_mpi_call *c, int outcount, const int *indices,
                         const MPI_Request *handles, const MPI_Status *statuses);
void ht_mpi_on_request_free(struct ht_mpi_call *c, MPI_Request handle);
/* Before PMPI_Request_free: true if the wrapper is to leave the request to
 * us instead (a cancel is pending: ht_request_take). */
bool ht_mpi_take_request(struct ht_mpi_call *c, MPI_Request handle);
/* MPI_Test returned with the request still pending (trace mode). */
void ht_mpi_on_test_pending(struct ht_mpi_call *c, MPI_Request handle);
void ht_mpi_on_cancel(struct ht_mpi_call *c, MPI_Request handle);

/* Collectives and one-sided operations: the messages this rank moves.
 * With request == MPI_REQUEST_NULL they are recorded now with the call's
 * start and end; otherwise they are registered and recorded when the
 * request completes (a persistent collective's, c->persistent: registered
 * inactive, recorded at the completion of each MPI_Start).  Takes ownership of pairs (malloc'ed, may be NULL when
 * n == 0). */
void ht_mpi_record_pairs(struct ht_mpi_call *c, struct ht_pair *pairs, uint32_t n,
                         MPI_Request request);

/* A blocking collective's messages to every other member of a group, the
 * same size each (messages.h), recorded at once in O(1). */
/* Returns the record the messages went to (NULL: none, or trace mode). */
struct ht_group_messages *ht_mpi_record_group(struct ht_mpi_call *c,
                                              const struct ht_group_shape *shape);

/* The same for a non-blocking collective: recorded when its request
 * completes, from call to completion. */
void ht_mpi_record_group_request(struct ht_mpi_call *c, const struct ht_group_shape *shape,
                                 MPI_Request request);

/* Before the PMPI call of a Wait, Test or Request_free: the handles not in
 * the thread's own table are claimed from the other threads' (requests.h;
 * MPI_THREAD_SERIALIZED and MULTIPLE only).  After it, in any case: those
 * not completed go back. */
HT_NOINSTR static inline void ht_mpi_claim(struct ht_mpi_call *c, int n,
                                           const MPI_Request *handles)
{
    if (HT_UNLIKELY(ht_mpi.shared_requests))
        ht_request_claim(c->thread, n, handles);
}
HT_NOINSTR static inline void ht_mpi_release(struct ht_mpi_call *c)
{
    if (HT_UNLIKELY(c->mpi->nclaims))
        ht_request_release(c->thread);
}

/* Scratch space of the Wait/Test families: the handles as they were before
 * the call (MPI overwrites completed ones), and statuses even when the
 * program passed MPI_STATUSES_IGNORE. */
#define HT_SCRATCH_LOCAL 16
struct ht_scratch {
    MPI_Request *handles;
    MPI_Status *statuses;
    MPI_Request local_handles[HT_SCRATCH_LOCAL];
    MPI_Status local_statuses[HT_SCRATCH_LOCAL];
    bool own_statuses;
};

/* false if out of memory (the wrapper then only calls PMPI). */
bool ht_scratch_init(struct ht_scratch *s, int count, const MPI_Request *requests,
                     MPI_Status *user_statuses);
void ht_scratch_free(struct ht_scratch *s);

#endif
