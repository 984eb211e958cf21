/* Point-to-point messages, matched probes and the completion of requests. */
#include <stdlib.h>
#include <string.h>

#include "mpi/messages.h"
#include "mpi/ranks.h"
#include "mpi/record.h"
#include "trace/mpi_events.h"

void ht_mpi_on_send(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm)
{
    int peer = ht_mpi_world_rank(comm, dest);
    uint64_t bytes = ht_mpi_bytes(count, type);
    ht_mpi_message(c->thread, c->node, true, false, peer, bytes, c->start, c->end);
    if (c->thread->tracing && peer >= 0)
        ht_trace_mpi_send(c->thread, c->start, ht_mpi_trace_comm(comm), dest, tag, bytes);
}

void ht_mpi_on_recv(struct ht_mpi_call *c, const MPI_Status *st, MPI_Comm comm)
{
    int peer = ht_mpi_world_rank(comm, st->MPI_SOURCE);
    uint64_t bytes = ht_mpi_status_bytes(st);
    ht_mpi_message(c->thread, c->node, false, false, peer, bytes, c->start, c->end);
    if (c->thread->tracing && peer >= 0)
        ht_trace_mpi_recv(c->thread, c->end, ht_mpi_trace_comm(comm), st->MPI_SOURCE, st->MPI_TAG,
                          bytes);
}

/* What a traced request's events need, kept with the request. */
static void trace_fields(struct ht_mpi_call *c, struct ht_request *r, int peer, int tag,
                         MPI_Comm comm)
{
    /* A persistent request with MPI_PROC_NULL moves no message: no events. */
    if (!c->thread->tracing || peer == MPI_PROC_NULL)
        return;
    r->traced = true;
    r->trace_comm = ht_mpi_trace_comm(comm);
    r->trace_peer = peer;
    r->trace_tag = tag;
}

void ht_mpi_on_isend(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int dest, int tag,
                     MPI_Comm comm, MPI_Request request, bool persistent)
{
    int peer = ht_mpi_world_rank(comm, dest);
    if (peer < 0 && !persistent) /* MPI_PROC_NULL: no message */
        return;
    uint64_t bytes = ht_mpi_bytes(count, type);
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        r->node = c->node;
        r->kind = HT_REQUEST_SEND;
        r->persistent = persistent;
        r->peer = peer;
        r->bytes = bytes;
        trace_fields(c, r, dest, tag, comm);
        if (!persistent)
            ht_request_activated(c->thread, r, c->start);
    }
    ht_requests_unlock(c->thread, locked);
}

void ht_mpi_on_irecv(struct ht_mpi_call *c, int source, MPI_Comm comm, MPI_Request request,
                     bool persistent)
{
    if (source == MPI_PROC_NULL && !persistent)
        return;
    /* The source comes from the status at completion; a wildcard needs the
     * communicator's table then, which may outlive the communicator. */
    struct ht_rank_map *map = source == MPI_ANY_SOURCE ? ht_mpi_rank_map_get(comm) : NULL;
    int peer = source == MPI_ANY_SOURCE ? -1 : ht_mpi_world_rank(comm, source);
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        r->node = c->node;
        r->kind = HT_REQUEST_RECV;
        r->persistent = persistent;
        r->map = map;
        r->peer = peer;
        trace_fields(c, r, source, 0, comm);
        if (!persistent)
            ht_request_activated(c->thread, r, c->start);
    } else {
        ht_mpi_rank_map_put(map);
    }
    ht_requests_unlock(c->thread, locked);
}

/* MPICH 4.0 completes an MPI_Isendrecv with an empty status (source 0,
 * tag 0, count 0, as the program sees it too): its receive is taken as
 * posted there, from source and of recvcount elements, and one from
 * MPI_ANY_SOURCE is not recorded.  Elsewhere the status tells. */
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && MPICH_NUMVERSION < 40100000
#define ISENDRECV_STATUS 0
#else
#define ISENDRECV_STATUS 1
#endif

void ht_mpi_on_isendrecv(struct ht_mpi_call *c, MPI_Count sendcount, MPI_Datatype sendtype,
                         int dest, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                         MPI_Comm comm, MPI_Request request)
{
    if (dest == MPI_PROC_NULL && source == MPI_PROC_NULL)
        return;
    bool wildcard = ISENDRECV_STATUS && source == MPI_ANY_SOURCE;
    struct ht_rank_map *map = wildcard ? ht_mpi_rank_map_get(comm) : NULL;
    int send_peer = ht_mpi_world_rank(comm, dest);
    int recv_peer = source == MPI_ANY_SOURCE ? -1 : ht_mpi_world_rank(comm, source);
    uint64_t bytes = ht_mpi_bytes(sendcount, sendtype);
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        /* Not traced: its two messages would need two trace requests. */
        r->node = c->node;
        r->kind = HT_REQUEST_SENDRECV;
        r->peer = send_peer;
        r->bytes = bytes;
        r->map = map;
        r->recv_peer = recv_peer;
        r->sized = !ISENDRECV_STATUS;
        r->recv_bytes = ISENDRECV_STATUS ? 0 : ht_mpi_bytes(recvcount, recvtype);
        ht_request_activated(c->thread, r, c->start);
    } else {
        ht_mpi_rank_map_put(map);
    }
    ht_requests_unlock(c->thread, locked);
}

void ht_mpi_on_precv_init(struct ht_mpi_call *c, MPI_Count count, MPI_Datatype type, int source,
                          int tag, MPI_Comm comm, MPI_Request request)
{
    int peer = ht_mpi_world_rank(comm, source);
    uint64_t bytes = ht_mpi_bytes(count, type);
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        /* Its size is the whole of its partitions, known now: what the
         * status of a partitioned receive holds is not specified. */
        r->node = c->node;
        r->kind = HT_REQUEST_RECV;
        r->persistent = true;
        r->sized = true;
        r->peer = peer;
        r->bytes = bytes;
        trace_fields(c, r, source, tag, comm);
    }
    ht_requests_unlock(c->thread, locked);
}

void ht_mpi_on_start(struct ht_mpi_call *c, MPI_Request request)
{
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_find(c->thread, request);
    if (r && r->persistent)
        ht_request_activated(c->thread, r, c->start);
    ht_requests_unlock(c->thread, locked);
    if (!r && HT_UNLIKELY(locked))
        ht_request_start_foreign(c->thread, request, c->start);
}

/* Matched probes: remember which communicator each message handle came
 * from, for the receive that consumes it.  A handful is plenty: a program
 * receives a probed message before probing many more. */
void ht_mpi_on_mprobe(struct ht_mpi_call *c, MPI_Comm comm, MPI_Message message)
{
    struct ht_mpi_thread *m = c->mpi;
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    struct ht_probed *p = &m->probed[m->probed_next++ % HT_PROBED_SLOTS];
    p->message = message;
    p->comm = comm;
}

static MPI_Comm probed_comm(struct ht_mpi_thread *m, MPI_Message message)
{
    for (int i = 0; i < HT_PROBED_SLOTS; i++) {
        if (m->probed[i].message == message && message != MPI_MESSAGE_NULL) {
            m->probed[i].message = MPI_MESSAGE_NULL;
            return m->probed[i].comm;
        }
    }
    return MPI_COMM_NULL;
}

void ht_mpi_on_mrecv(struct ht_mpi_call *c, MPI_Message message, const MPI_Status *st)
{
    if (message == MPI_MESSAGE_NO_PROC)
        return;
    MPI_Comm comm = probed_comm(c->mpi, message);
    if (comm != MPI_COMM_NULL)
        ht_mpi_on_recv(c, st, comm);
}

void ht_mpi_on_imrecv(struct ht_mpi_call *c, MPI_Message message, MPI_Request request)
{
    if (message == MPI_MESSAGE_NO_PROC)
        return;
    MPI_Comm comm = probed_comm(c->mpi, message);
    if (comm != MPI_COMM_NULL)
        ht_mpi_on_irecv(c, MPI_ANY_SOURCE, comm, request, false);
}

void ht_mpi_on_done(struct ht_mpi_call *c, MPI_Request handle, const MPI_Status *st)
{
    if (handle != MPI_REQUEST_NULL)
        ht_request_handle_done(c->thread, handle, st, c->end);
}

void ht_mpi_on_done_all(struct ht_mpi_call *c, int count, const MPI_Request *handles,
                        const MPI_Status *statuses)
{
    for (int i = 0; i < count; i++)
        ht_mpi_on_done(c, handles[i], &statuses[i]);
}

void ht_mpi_on_done_some(struct ht_mpi_call *c, int outcount, const int *indices,
                         const MPI_Request *handles, const MPI_Status *statuses)
{
    if (outcount == MPI_UNDEFINED)
        return;
    for (int k = 0; k < outcount; k++)
        ht_mpi_on_done(c, handles[indices[k]], &statuses[k]);
}

bool ht_mpi_take_request(struct ht_mpi_call *c, MPI_Request handle)
{
    return ht_request_take(c->thread, handle);
}

/* A request freed while active still completes but can no longer be asked:
 * a send (or collective) counts as done now; a receive, whose size and
 * source would come from a status we will never see, is dropped, and so is
 * an Isendrecv (both its messages: one request).  One with
 * a cancel pending was taken over instead (ht_mpi_take_request) and is
 * left to the poll. */
void ht_mpi_on_request_free(struct ht_mpi_call *c, MPI_Request handle)
{
    MPI_Status unused;
    memset(&unused, 0, sizeof unused);
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_find(c->thread, handle);
    if (r && !r->taken) {
        if (r->active && !r->cancelled && !ht_request_needs_status(r)) {
            r->persistent = false; /* so completing it also removes it */
            ht_request_complete(c->thread, r, &unused, c->end);
        } else {
            ht_request_remove(c->thread, r);
        }
    }
    ht_requests_unlock(c->thread, locked);
    /* Another thread's (claimed before the call): the same, on its figures. */
    if (r || !c->mpi->nclaims || !(r = ht_request_claimed(c->thread, handle)) || r->taken)
        return;
    if (r->active && !r->cancelled && !ht_request_needs_status(r)) {
        r->persistent = false;
        ht_request_claim_done(c->thread, r, &unused, c->end);
    } else {
        ht_request_claim_drop(c->thread, r);
    }
}

void ht_mpi_on_test_pending(struct ht_mpi_call *c, MPI_Request handle)
{
    if (!c->thread->tracing)
        return;
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_find(c->thread, handle);
    if (r && r->active && r->trace_id)
        ht_trace_mpi_request_tested(c->thread, r->trace_id, c->end);
    ht_requests_unlock(c->thread, locked);
}

void ht_mpi_on_cancel(struct ht_mpi_call *c, MPI_Request handle)
{
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_find(c->thread, handle);
    if (r)
        r->cancelled = true;
    ht_requests_unlock(c->thread, locked);
    if (!r && HT_UNLIKELY(locked))
        ht_request_cancel_foreign(c->thread, handle);
}

struct ht_group_messages *ht_mpi_record_group(struct ht_mpi_call *c,
                                              const struct ht_group_shape *shape)
{
    struct ht_group_messages *g =
        ht_mpi_group_message(c->thread, c->node, shape, c->start, c->end);
    if (c->thread->tracing && c->comm != MPI_COMM_NULL) {
        uint64_t peers = g ? g->peers : 0;
        ht_trace_mpi_collective(c->thread, c->end, ht_mpi_trace_comm(c->comm), c->root,
                                peers * shape->send_bytes, peers * shape->recv_bytes);
        return NULL;
    }
    return g;
}

void ht_mpi_record_pairs(struct ht_mpi_call *c, struct ht_pair *pairs, uint32_t n,
                         MPI_Request request)
{
    if (request == MPI_REQUEST_NULL) {
        if (c->thread->tracing && c->comm != MPI_COMM_NULL) {
            uint64_t sent, received;
            ht_pair_bytes(pairs, n, &sent, &received);
            ht_trace_mpi_collective(c->thread, c->end, ht_mpi_trace_comm(c->comm), c->root, sent,
                                    received);
        }
        for (uint32_t i = 0; i < n; i++)
            ht_mpi_message(c->thread, c->node, pairs[i].send, pairs[i].collective, pairs[i].peer,
                           pairs[i].bytes, c->start, c->end);
        free(pairs);
        return;
    }
    uint32_t trace_comm = c->thread->tracing && c->comm != MPI_COMM_NULL
                              ? ht_mpi_trace_comm(c->comm) : 0;
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        r->node = c->node;
        r->kind = HT_REQUEST_PAIRS;
        r->pairs = pairs;
        r->npairs = n;
        if (c->thread->tracing && c->comm != MPI_COMM_NULL) { /* a collective, not one-sided */
            r->traced = true;
            r->trace_comm = trace_comm;
            r->trace_root = c->root;
        }
        r->persistent = c->persistent;
        if (!c->persistent)
            ht_request_activated(c->thread, r, c->start);
    } else {
        free(pairs);
    }
    ht_requests_unlock(c->thread, locked);
}

void ht_mpi_record_group_request(struct ht_mpi_call *c, const struct ht_group_shape *shape,
                                 MPI_Request request)
{
    uint32_t trace_comm = c->thread->tracing && c->comm != MPI_COMM_NULL
                              ? ht_mpi_trace_comm(c->comm) : 0;
    bool locked = ht_requests_lock(c->thread);
    struct ht_request *r = ht_request_add(c->thread, request, c->start);
    if (r) {
        r->node = c->node;
        r->kind = HT_REQUEST_GROUP;
        r->group = *shape;
        ht_mpi_rank_map_keep(shape->map); /* the entry's own, put when it goes */
        r->map = shape->map;
        if (c->thread->tracing && c->comm != MPI_COMM_NULL) {
            r->traced = true;
            r->trace_comm = trace_comm;
            r->trace_root = c->root;
        }
        r->persistent = c->persistent;
        if (!c->persistent)
            ht_request_activated(c->thread, r, c->start);
    }
    ht_requests_unlock(c->thread, locked);
}

bool ht_scratch_init(struct ht_scratch *s, int count, const MPI_Request *requests,
                     MPI_Status *user_statuses)
{
    size_t n = count > 0 ? (size_t)count : 0;
    s->handles = n <= HT_SCRATCH_LOCAL ? s->local_handles : malloc(n * sizeof *s->handles);
    s->own_statuses = user_statuses == MPI_STATUSES_IGNORE;
    s->statuses = !s->own_statuses        ? user_statuses
                  : n <= HT_SCRATCH_LOCAL ? s->local_statuses
                                          : malloc(n * sizeof *s->statuses);
    if (!s->handles || !s->statuses) {
        ht_scratch_free(s);
        return false;
    }
    if (n)
        memcpy(s->handles, requests, n * sizeof *requests);
    return true;
}

void ht_scratch_free(struct ht_scratch *s)
{
    if (s->handles && s->handles != s->local_handles)
        free(s->handles);
    if (s->own_statuses && s->statuses && s->statuses != s->local_statuses)
        free(s->statuses);
    s->handles = NULL;
    s->statuses = NULL;
}
