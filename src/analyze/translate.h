/* Non-blocking translation (seed 004): turns the seven MPI point-to-point
 * records into plain sends and receives, each handed to the matcher in the
 * order its process issued it.
 *
 *   MpiSend                 a send, time of the record
 *   MpiIsend                a send, time of the record; pending until its
 *   MpiIsendComplete        completion (whose time is not used)
 *   MpiRecv                 a receive, time of the record
 *   MpiIrecvRequest         a receive of unknown source, tag, communicator
 *                           and length, pending until
 *   MpiIrecv                its completion, which gives all of them and the
 *                           receive's time
 *   MpiRequestCancelled     the pending Isend or IrecvRequest is dropped
 *
 * Blocked-queue rule: a send cannot be handed on while an earlier Isend of
 * the same location is still pending (it might yet be cancelled, and the
 * per-key order must hold), so it waits behind it; likewise receives
 * behind an earlier IrecvRequest.  Seed 004 keeps one blocked queue per
 * pending request and splices them on completion; keeping each location's
 * sends (and receives) in one issue-order list and releasing from its head
 * while the head is resolved is the same rule, with O(1) work per record.
 * Sends and receives are separate lists: a pending Isend never holds back
 * a receive. */
#ifndef HT_ANALYZE_TRANSLATE_H
#define HT_ANALYZE_TRANSLATE_H

#include <stdint.h>

#include "analyze/endpoint.h"
#include "analyze/hashmap.h"
#include "analyze/match.h"
#include "analyze/pool.h"
#include "analyze/rankmap.h"
#include "analyze/warnings.h"

/* The issue-order lists of one location. */
struct translate_lists {
    struct endpoint *send_head, *send_tail;
    struct endpoint *recv_head, *recv_tail;
};

/* Called for each new end, and again when an MpiIrecv completes one
 * (completion 1): lets the wait-state analysis note the region context. */
typedef void translate_stamp(void *context, const struct rankmap_location *loc,
                             struct endpoint *e, int completion);

struct translator {
    struct rankmap *ranks;
    translate_stamp *stamp; /* NULL: none */
    void *stamp_context;
    struct matcher *matcher;
    struct warnings *warnings;
    const struct trace_clock *clock;
    struct pool *endpoints;
    struct translate_lists *lists; /* by location index */
    struct hashmap requests;       /* (location index, request id) -> pending endpoint */
};

void translate_init(struct translator *t, struct rankmap *ranks, struct matcher *matcher,
                    struct warnings *warnings, const struct trace_clock *clock,
                    struct pool *endpoints);
void translate_free(struct translator *t);

void translate_send(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                    uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes);
void translate_isend(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                     uint32_t receiver, uint32_t comm, uint32_t tag, uint64_t bytes,
                     uint64_t request);
void translate_isend_complete(struct translator *t, const struct rankmap_location *loc,
                              uint64_t time, uint64_t request);
void translate_recv(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                    uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes);
void translate_irecv_request(struct translator *t, const struct rankmap_location *loc,
                             uint64_t time, uint64_t request);
void translate_irecv(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                     uint32_t sender, uint32_t comm, uint32_t tag, uint64_t bytes,
                     uint64_t request);
void translate_cancelled(struct translator *t, const struct rankmap_location *loc, uint64_t time,
                         uint64_t request);

/* End of the trace: an Isend never completed counts as sent (its record
 * has everything, and MPI_Request_free lets a program never complete it);
 * an IrecvRequest never completed is dropped (nothing is known about it).
 * Both are warnings.  Everything they held back is released. */
void translate_finish(struct translator *t);

#endif
