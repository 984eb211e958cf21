/* MPI events in the trace, as OTF2 defines them: called by the MPI core
 * (src/mpi) where it records messages, only for threads that trace.
 * Peers are ranks in the communicator as the program named them; the
 * communicator is this process's registry index (comms.h). */
#ifndef HT_TRACE_MPI_EVENTS_H
#define HT_TRACE_MPI_EVENTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "mpi/call.h"
#include "mpi/requests.h"

/* Blocking point-to-point, after the routine returned. */
void ht_trace_mpi_send(struct ht_mpi_call *c, int dest, int tag, MPI_Comm comm, uint64_t bytes);
void ht_trace_mpi_recv(struct ht_mpi_call *c, const MPI_Status *st, MPI_Comm comm,
                       uint64_t bytes);

/* A request started (Isend/Irecv, a Start of a persistent one, a
 * non-blocking collective); r holds what the events need, with
 * trace_comm, trace_peer, trace_tag, trace_root filled in by the caller. */
void ht_trace_mpi_request_started(struct ht_thread *t, struct ht_request *r, uint64_t now);

/* The operation of r completed (or was cancelled) at now. */
void ht_trace_mpi_request_done(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                               bool cancelled, uint64_t now);

/* MPI_Test found the request of handle not complete. */
void ht_trace_mpi_request_tested(struct ht_thread *t, MPI_Request handle, uint64_t now);

/* A blocking collective's end: the bytes this rank sent and received. */
void ht_trace_mpi_collective(struct ht_mpi_call *c, const struct ht_pair *pairs, uint32_t n);

#endif
