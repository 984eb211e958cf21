#include "trace/mpi_events.h"

#include "trace/buffer.h"

static uint64_t peer_comm(int peer, uint32_t comm)
{
    return (uint64_t)(uint32_t)peer | (uint64_t)comm << 32;
}

static uint64_t comm_root(uint32_t comm, int root)
{
    /* Negative roots (none, MPI_ROOT, MPI_PROC_NULL) are OTF2's undefined. */
    return comm | (uint64_t)(root >= 0 ? (uint32_t)root : UINT32_MAX) << 32;
}

/* Sends carry the time the send began, receives the time they completed,
 * as Score-P records them: a matched pair then never shows a message
 * arriving before it left.  (The buffer keeps the thread's events in time
 * order: a start earlier than the last event takes that event's time.) */
void ht_trace_mpi_send(struct ht_thread *t, uint64_t start, uint32_t comm, int dest, int tag,
                       uint64_t bytes)
{
    uint64_t *p = ht_trace_put(t->trace, HT_REC_SEND, 3, start);
    p[0] = peer_comm(dest, comm);
    p[1] = (uint32_t)tag;
    p[2] = bytes;
}

void ht_trace_mpi_recv(struct ht_thread *t, uint64_t end, uint32_t comm, int source, int tag,
                       uint64_t bytes)
{
    uint64_t *p = ht_trace_put(t->trace, HT_REC_RECV, 3, end);
    p[0] = peer_comm(source, comm);
    p[1] = (uint32_t)tag;
    p[2] = bytes;
}

uint64_t ht_trace_mpi_request_started(struct ht_thread *t, enum ht_trace_request_kind kind,
                                      uint32_t comm, int peer, int tag, uint64_t bytes,
                                      uint64_t now)
{
    struct ht_trace_buffer *b = t->trace;
    uint64_t id = b->next_request++;
    if (kind == HT_TRACE_ISEND) {
        uint64_t *p = ht_trace_put(b, HT_REC_ISEND, 4, now);
        p[0] = peer_comm(peer, comm);
        p[1] = (uint32_t)tag;
        p[2] = bytes;
        p[3] = id;
    } else {
        unsigned rec = kind == HT_TRACE_IRECV ? HT_REC_IRECV_REQUEST : HT_REC_NBC_REQUEST;
        ht_trace_put(b, rec, 1, now)[0] = id;
    }
    return id;
}

void ht_trace_mpi_isend_done(struct ht_thread *t, uint64_t id, uint64_t now)
{
    ht_trace_put(t->trace, HT_REC_ISEND_COMPLETE, 1, now)[0] = id;
}

void ht_trace_mpi_irecv_done(struct ht_thread *t, uint64_t id, uint32_t comm, int source,
                             int tag, uint64_t bytes, uint64_t now)
{
    uint64_t *p = ht_trace_put(t->trace, HT_REC_IRECV, 4, now);
    p[0] = peer_comm(source, comm);
    p[1] = (uint32_t)tag;
    p[2] = bytes;
    p[3] = id;
}

void ht_trace_mpi_collective_done(struct ht_thread *t, uint64_t id, const struct ht_node *node,
                                  uint32_t comm, int root, uint64_t sent, uint64_t received,
                                  uint64_t now)
{
    uint64_t *p = ht_trace_put(t->trace, HT_REC_NBC_COMPLETE, 5, now);
    p[0] = (uint64_t)(uintptr_t)node;
    p[1] = comm_root(comm, root);
    p[2] = sent;
    p[3] = received;
    p[4] = id;
}

void ht_trace_mpi_request_cancelled(struct ht_thread *t, uint64_t id, uint64_t now)
{
    ht_trace_put(t->trace, HT_REC_REQUEST_CANCELLED, 1, now)[0] = id;
}

void ht_trace_mpi_request_tested(struct ht_thread *t, uint64_t id, uint64_t now)
{
    ht_trace_put(t->trace, HT_REC_REQUEST_TEST, 1, now)[0] = id;
}

void ht_trace_mpi_collective(struct ht_thread *t, uint64_t end, uint32_t comm, int root,
                             uint64_t sent, uint64_t received)
{
    uint64_t *p = ht_trace_put(t->trace, HT_REC_COLL_END, 3, end);
    p[0] = comm_root(comm, root);
    p[1] = sent;
    p[2] = received;
}
