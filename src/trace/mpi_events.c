#include "trace/mpi_events.h"

#include "mpi/ranks.h"
#include "trace/buffer.h"
#include "trace/comms.h"

static uint64_t peer_comm(int peer, uint32_t comm)
{
    return (uint64_t)(uint32_t)peer | (uint64_t)comm << 32;
}

/* Sends carry the time the send began, receives the time they completed,
 * as Score-P records them: a matched pair then never shows a message
 * arriving before it left.  (The buffer keeps the thread's events in time
 * order: a start earlier than the last event takes that event's time.) */
void ht_trace_mpi_send(struct ht_mpi_call *c, int dest, int tag, MPI_Comm comm, uint64_t bytes)
{
    uint64_t *p = ht_trace_put(c->thread->trace, HT_REC_SEND, 3, c->start);
    p[0] = peer_comm(dest, ht_trace_comm_index(comm));
    p[1] = (uint32_t)tag;
    p[2] = bytes;
}

void ht_trace_mpi_recv(struct ht_mpi_call *c, const MPI_Status *st, MPI_Comm comm,
                       uint64_t bytes)
{
    uint64_t *p = ht_trace_put(c->thread->trace, HT_REC_RECV, 3, c->end);
    p[0] = peer_comm(st->MPI_SOURCE, ht_trace_comm_index(comm));
    p[1] = (uint32_t)st->MPI_TAG;
    p[2] = bytes;
}

void ht_trace_mpi_request_started(struct ht_thread *t, struct ht_request *r, uint64_t now)
{
    struct ht_trace_buffer *b = t->trace;
    r->trace_id = b->next_request++;
    if (r->kind == HT_REQUEST_SEND) {
        uint64_t *p = ht_trace_put(b, HT_REC_ISEND, 4, now);
        p[0] = peer_comm(r->trace_peer, r->trace_comm);
        p[1] = (uint32_t)r->trace_tag;
        p[2] = r->bytes;
        p[3] = r->trace_id;
    } else {
        unsigned kind = r->kind == HT_REQUEST_RECV ? HT_REC_IRECV_REQUEST : HT_REC_NBC_REQUEST;
        ht_trace_put(b, kind, 1, now)[0] = r->trace_id;
    }
}

static void pair_bytes(const struct ht_pair *pairs, uint32_t n, uint64_t *sent,
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

static uint64_t comm_root(uint32_t comm, int root)
{
    /* Negative roots (none, MPI_ROOT, MPI_PROC_NULL) are OTF2's undefined. */
    return comm | (uint64_t)(root >= 0 ? (uint32_t)root : UINT32_MAX) << 32;
}

void ht_trace_mpi_request_done(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                               bool cancelled, uint64_t now)
{
    struct ht_trace_buffer *b = t->trace;
    if (!r->trace_id)
        return;
    if (cancelled) {
        ht_trace_put(b, HT_REC_REQUEST_CANCELLED, 1, now)[0] = r->trace_id;
    } else if (r->kind == HT_REQUEST_SEND) {
        ht_trace_put(b, HT_REC_ISEND_COMPLETE, 1, now)[0] = r->trace_id;
    } else if (r->kind == HT_REQUEST_RECV) {
        uint64_t *p = ht_trace_put(b, HT_REC_IRECV, 4, now);
        p[0] = peer_comm(st->MPI_SOURCE, r->trace_comm);
        p[1] = (uint32_t)st->MPI_TAG;
        p[2] = ht_mpi_status_bytes(st);
        p[3] = r->trace_id;
    } else {
        uint64_t *p = ht_trace_put(b, HT_REC_NBC_COMPLETE, 5, now);
        p[0] = (uint64_t)(uintptr_t)r->node;
        p[1] = comm_root(r->trace_comm, r->trace_root);
        pair_bytes(r->pairs, r->npairs, &p[2], &p[3]);
        p[4] = r->trace_id;
    }
    r->trace_id = 0;
}

void ht_trace_mpi_request_tested(struct ht_thread *t, MPI_Request handle, uint64_t now)
{
    struct ht_request *r = ht_request_find(t, handle);
    if (r && r->active && r->trace_id)
        ht_trace_put(t->trace, HT_REC_REQUEST_TEST, 1, now)[0] = r->trace_id;
}

void ht_trace_mpi_collective(struct ht_mpi_call *c, const struct ht_pair *pairs, uint32_t n)
{
    uint64_t *p = ht_trace_put(c->thread->trace, HT_REC_COLL_END, 3, c->end);
    p[0] = comm_root(ht_trace_comm_index(c->comm == MPI_COMM_NULL ? MPI_COMM_WORLD : c->comm),
                     c->root);
    pair_bytes(pairs, n, &p[1], &p[2]);
}
