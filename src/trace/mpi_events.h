/* MPI events in the trace, as OTF2 defines them: called by the MPI core
 * (src/mpi) where it records messages, only for threads that trace.  They
 * take plain values, so that the trace knows nothing of the MPI layer's
 * requests or calls.  Peers are ranks in the communicator as the program
 * named them; comm is this process's registry index (comms.h). */
#ifndef HT_TRACE_MPI_EVENTS_H
#define HT_TRACE_MPI_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "callstack/thread.h"

/* Blocking point-to-point, after the routine returned: a send at the time
 * the call began, a receive at the time it ended. */
void ht_trace_mpi_send(struct ht_thread *t, uint64_t start, uint32_t comm, int dest, int tag,
                       uint64_t bytes);
void ht_trace_mpi_recv(struct ht_thread *t, uint64_t end, uint32_t comm, int source, int tag,
                       uint64_t bytes);

/* What a started request is. */
enum ht_trace_request_kind {
    HT_TRACE_ISEND,
    HT_TRACE_IRECV,
    HT_TRACE_COLLECTIVE, /* a non-blocking collective */
};

/* A request started at now (Isend/Irecv, a Start of a persistent one, a
 * non-blocking collective).  For a send, comm, peer, tag and bytes describe
 * the message.  Returns the OTF2 request id its later events name. */
uint64_t ht_trace_mpi_request_started(struct ht_thread *t, enum ht_trace_request_kind kind,
                                      uint32_t comm, int peer, int tag, uint64_t bytes,
                                      uint64_t now);

/* The request `id` completed at now: a send; a receive of the message
 * described; a non-blocking collective of the node, communicator and root
 * (-1: none) that sent and received these bytes in all; or a cancelled one. */
void ht_trace_mpi_isend_done(struct ht_thread *t, uint64_t id, uint64_t now);
void ht_trace_mpi_irecv_done(struct ht_thread *t, uint64_t id, uint32_t comm, int source,
                             int tag, uint64_t bytes, uint64_t now);
void ht_trace_mpi_collective_done(struct ht_thread *t, uint64_t id, const struct ht_node *node,
                                  uint32_t comm, int root, uint64_t sent, uint64_t received,
                                  uint64_t now);
void ht_trace_mpi_request_cancelled(struct ht_thread *t, uint64_t id, uint64_t now);

/* MPI_Test found request `id` not complete. */
void ht_trace_mpi_request_tested(struct ht_thread *t, uint64_t id, uint64_t now);

/* A blocking collective's end: the bytes this rank sent and received. */
void ht_trace_mpi_collective(struct ht_thread *t, uint64_t end, uint32_t comm, int root,
                             uint64_t sent, uint64_t received);

#endif
