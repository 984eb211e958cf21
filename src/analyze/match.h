/* Message matching (seed 004): a send belongs to a receive only if sender,
 * receiver, communicator and tag all agree, and within one such key the
 * k-th send matches the k-th receive.  Sends and receives arrive here in
 * each process's issue order (translate.c guarantees it), so one FIFO per
 * key suffices: an arriving send takes the oldest waiting receive of its
 * key or waits itself, and the same for a receive.  A queue only ever
 * holds one side; emptied queues are kept for their key's next message
 * and freed in bulk (match.c), so memory follows the messages in flight. */
#ifndef HT_ANALYZE_MATCH_H
#define HT_ANALYZE_MATCH_H

#include <stdint.h>

#include "analyze/endpoint.h"
#include "analyze/hashmap.h"
#include "analyze/pool.h"

/* Called for every pair, and at match_finish for every end left over
 * (the other argument NULL).  The endpoints are freed after it returns.
 * *pair is the callback's own pointer for the ends' (sender, receiver)
 * pair, kept with their key's queue: NULL the first time, then what the
 * callback stored (analysis.c keeps the pair's matrix cell there). */
typedef void match_callback(void *context, const struct endpoint *send,
                            const struct endpoint *receive, void **pair);

struct matcher {
    struct hashmap queues; /* key -> struct match_queue* */
    struct pool queue_pool;
    struct pool *endpoints;
    match_callback *on_message;
    void *context;
    uint64_t waiting_sends, waiting_receives; /* in queues now */
    size_t empty_queues;                      /* kept in queues (match.c) */
};

void match_init(struct matcher *m, struct pool *endpoints, match_callback *on_message,
                void *context);
void match_free(struct matcher *m);

/* Hands over a READY endpoint; the matcher owns it from now on. */
void match_send(struct matcher *m, struct endpoint *send);
void match_receive(struct matcher *m, struct endpoint *receive);

/* End of the trace: every end still waiting goes to on_message alone, in
 * the order (sender, receiver, communicator, tag), then issue order. */
void match_finish(struct matcher *m);

#endif
