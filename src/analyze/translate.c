/* Non-blocking translation: issue-order lists per location, a request
 * table, and the release of resolved ends to the matcher. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/translate.h"

void translate_init(struct translator *t, struct rankmap *ranks, struct matcher *matcher,
                    struct warnings *warnings, const struct trace_clock *clock,
                    struct pool *endpoints)
{
    t->ranks = ranks;
    t->matcher = matcher;
    t->warnings = warnings;
    t->clock = clock;
    t->endpoints = endpoints;
    t->stamp = NULL;
    t->stamp_context = NULL;
    t->lists = xcalloc(ranks->nlocations ? ranks->nlocations : 1, sizeof *t->lists);
    hashmap_init(&t->requests);
}

void translate_free(struct translator *t)
{
    /* Pending endpoints belong to the endpoint pool, freed by its owner. */
    free(t->lists);
    t->lists = NULL;
    hashmap_free(&t->requests);
}

/* "rank 3 (location 7)" for warning examples. */
static const char *where(const struct rankmap_location *loc, char *buf, size_t size)
{
    if (loc->world_rank == RANKMAP_NONE)
        snprintf(buf, size, "location %" PRIu64 " (no MPI rank)", loc->ref);
    else
        snprintf(buf, size, "rank %" PRIu32 " (location %" PRIu64 ")", loc->world_rank, loc->ref);
    return buf;
}

static struct endpoint *new_endpoint(struct translator *t, const struct rankmap_location *loc,
                                     uint64_t time, int is_send)
{
    struct endpoint *e = pool_alloc(t->endpoints);
    e->next = NULL;
    e->time = time;
    e->bytes = 0;
    e->request = 0;
    e->location = loc->ref;
    e->self = loc->world_rank;
    e->peer = RANKMAP_NONE;
    e->comm = 0;
    e->tag = 0;
    e->state = ENDPOINT_READY;
    e->is_send = (uint8_t)is_send;
    e->unmapped = 0;
    e->region_enter = e->posted = time;
    e->callpath = 0;
    e->region_kind = 0;
    if (t->stamp)
        t->stamp(t->stamp_context, loc, e, 0);
    return e;
}

/* Fills in the message fields; an unmappable peer is one warning, and the
 * end is dropped once resolved. */
static void set_message(struct translator *t, struct endpoint *e,
                        const struct rankmap_location *loc, uint32_t rank, uint32_t comm,
                        uint32_t tag, uint64_t bytes)
{
    e->comm = comm;
    e->tag = tag;
    e->bytes = bytes;
    if (e->self != RANKMAP_NONE)
        e->peer = rankmap_world_rank(t->ranks, comm, e->self, rank);
    if (e->self == RANKMAP_NONE) {
        char buf[64];
        e->unmapped = 1;
        warnings_add(t->warnings, WARN_UNMAPPED_RANK,
                     "%s at %.9f s: an MPI record on a location that is no MPI rank",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, e->time));
    } else if (e->peer == RANKMAP_NONE) {
        char buf[64];
        e->unmapped = 1;
        warnings_add(t->warnings, WARN_UNMAPPED_RANK,
                     "%s at %.9f s: %s rank %" PRIu32 " of communicator %" PRIu32
                     " has no world rank",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, e->time),
                     e->is_send ? "receiver" : "sender", rank, comm);
    }
}

static void append(struct endpoint **head, struct endpoint **tail, struct endpoint *e)
{
    e->next = NULL;
    if (*tail)
        (*tail)->next = e;
    else
        *head = e;
    *tail = e;
}

/* Hands on ends from the head of a list while the head is resolved. */
static void release(struct translator *t, struct endpoint **head, struct endpoint **tail)
{
    while (*head && (*head)->state != ENDPOINT_PENDING) {
        struct endpoint *e = *head;
        *head = e->next;
        if (!*head)
            *tail = NULL;
        if (e->state == ENDPOINT_DROPPED)
            pool_free(t->endpoints, e);
        else if (e->is_send)
            match_send(t->matcher, e);
        else
            match_receive(t->matcher, e);
    }
}

static void release_sends(struct translator *t, struct translate_lists *l)
{
    release(t, &l->send_head, &l->send_tail);
}

static void release_receives(struct translator *t, struct translate_lists *l)
{
    release(t, &l->recv_head, &l->recv_tail);
}

/* A blocking record (or a completed one with no request): straight to the
 * matcher unless an earlier request of the location holds it back. */
static void add_resolved(struct translator *t, const struct rankmap_location *loc,
                         struct endpoint *e)
{
    struct translate_lists *l = &t->lists[loc->index];
    if (e->unmapped)
        e->state = ENDPOINT_DROPPED;
    if (e->is_send) {
        append(&l->send_head, &l->send_tail, e);
        release_sends(t, l);
    } else {
        append(&l->recv_head, &l->recv_tail, e);
        release_receives(t, l);
    }
}

/* Resolves a pending end: READY, or DROPPED if cancelled or unmappable. */
static void resolve(struct translator *t, const struct rankmap_location *loc,
                    struct endpoint *e, int cancelled)
{
    struct translate_lists *l = &t->lists[loc->index];
    e->state = cancelled || e->unmapped ? ENDPOINT_DROPPED : ENDPOINT_READY;
    if (e->is_send)
        release_sends(t, l);
    else
        release_receives(t, l);
}

/* Registers a new pending request.  A request id still pending on the
 * location is a trace error; the older request is resolved first, as the
 * end-of-trace rule would resolve it, so that it holds nothing back. */
static void add_pending(struct translator *t, const struct rankmap_location *loc,
                        struct endpoint *e, uint64_t request)
{
    struct translate_lists *l = &t->lists[loc->index];
    e->state = ENDPOINT_PENDING;
    e->request = request;
    struct endpoint *old = hashmap_put(&t->requests, loc->index, request, e);
    if (old) {
        char buf[64];
        warnings_add(t->warnings, WARN_REQUEST_REUSED,
                     "%s at %.9f s: request %" PRIu64 " started again while its %s is pending",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, e->time), request,
                     old->is_send ? "Isend" : "IrecvRequest");
        /* Like an Isend never completed: sent.  Like an IrecvRequest never
         * completed: nothing known, dropped. */
        resolve(t, loc, old, !old->is_send);
    }
    if (e->is_send)
        append(&l->send_head, &l->send_tail, e);
    else
        append(&l->recv_head, &l->recv_tail, e);
}

/* The pending request `request` of the location if it is of the wanted
 * side (is_send), removed from the table; NULL otherwise. */
static struct endpoint *take_pending(struct translator *t, const struct rankmap_location *loc,
                                     uint64_t request, int is_send)
{
    struct endpoint *e = hashmap_remove(&t->requests, loc->index, request);
    if (e && e->is_send != is_send) {
        /* The other kind of request: not ours to complete. */
        hashmap_put(&t->requests, loc->index, request, e);
        return NULL;
    }
    return e;
}

void translate_send(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                    uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes)
{
    struct endpoint *e = new_endpoint(t, loc, time, 1);
    set_message(t, e, loc, receiver, comm, tag, bytes);
    add_resolved(t, loc, e);
}

void translate_isend(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                     uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes,
                     uint64_t request)
{
    struct endpoint *e = new_endpoint(t, loc, time, 1);
    set_message(t, e, loc, receiver, comm, tag, bytes);
    add_pending(t, loc, e, request);
}

void translate_isend_complete(struct translator *t, const struct rankmap_location *loc,
                              uint64_t time, uint64_t request)
{
    struct endpoint *e = take_pending(t, loc, request, 1);
    if (!e) {
        char buf[64];
        warnings_add(t->warnings, WARN_UNKNOWN_REQUEST,
                     "%s at %.9f s: IsendComplete of request %" PRIu64
                     ", which is not a pending Isend",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, time), request);
        return;
    }
    resolve(t, loc, e, 0);
}

void translate_recv(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                    uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes)
{
    struct endpoint *e = new_endpoint(t, loc, time, 0);
    set_message(t, e, loc, sender, comm, tag, bytes);
    add_resolved(t, loc, e);
}

void translate_irecv_request(struct translator *t, const struct rankmap_location *loc,
                             uint64_t time, uint64_t request)
{
    add_pending(t, loc, new_endpoint(t, loc, time, 0), request);
}

void translate_irecv(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                     uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes,
                     uint64_t request)
{
    struct endpoint *e = take_pending(t, loc, request, 0);
    if (!e) {
        /* The record itself says everything about the message, so it
         * still counts: as a receive issued now. */
        char buf[64];
        warnings_add(t->warnings, WARN_UNKNOWN_REQUEST,
                     "%s at %.9f s: Irecv of request %" PRIu64
                     ", which is not a pending IrecvRequest (counted as a receive)",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, time), request);
        translate_recv(t, loc, time, sender, comm, tag, bytes);
        return;
    }
    e->time = time; /* a receive takes its completion's time */
    if (t->stamp)
        t->stamp(t->stamp_context, loc, e, 1);
    set_message(t, e, loc, sender, comm, tag, bytes);
    resolve(t, loc, e, 0);
}

void translate_cancelled(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                         uint64_t request)
{
    struct endpoint *e = hashmap_remove(&t->requests, loc->index, request);
    if (!e) {
        char buf[64];
        warnings_add(t->warnings, WARN_UNMATCHED_CANCEL,
                     "%s at %.9f s: RequestCancelled of request %" PRIu64
                     ", which is neither a pending Isend nor a pending IrecvRequest",
                     where(loc, buf, sizeof buf), trace_seconds(t->clock, time), request);
        return;
    }
    resolve(t, loc, e, 1);
}

void translate_finish(struct translator *t)
{
    char buf[64];
    /* Location order, then issue order: the warnings come out the same
     * on every run. */
    for (uint32_t i = 0; i < t->ranks->nlocations; i++) {
        const struct rankmap_location *loc = t->ranks->location_list[i];
        struct translate_lists *l = &t->lists[i];
        for (struct endpoint *e = l->send_head; e; e = e->next) {
            if (e->state != ENDPOINT_PENDING)
                continue;
            warnings_add(t->warnings, WARN_ISEND_NOT_COMPLETED,
                         "%s: Isend of request %" PRIu64 " at %.9f s, %" PRIu64
                         " bytes, never completed",
                         where(loc, buf, sizeof buf), e->request,
                         trace_seconds(t->clock, e->time), e->bytes);
            hashmap_remove(&t->requests, i, e->request);
            e->state = e->unmapped ? ENDPOINT_DROPPED : ENDPOINT_READY;
        }
        release_sends(t, l);
        for (struct endpoint *e = l->recv_head; e; e = e->next) {
            if (e->state != ENDPOINT_PENDING)
                continue;
            warnings_add(t->warnings, WARN_IRECV_NOT_COMPLETED,
                         "%s: IrecvRequest of request %" PRIu64 " at %.9f s never completed",
                         where(loc, buf, sizeof buf), e->request,
                         trace_seconds(t->clock, e->time));
            hashmap_remove(&t->requests, i, e->request);
            e->state = ENDPOINT_DROPPED;
        }
        release_receives(t, l);
    }
}
