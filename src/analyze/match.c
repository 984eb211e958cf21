/* Per-key FIFOs of waiting sends or receives. */
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/match.h"

struct match_queue {
    struct endpoint *head, *tail;
    void *pair; /* match_callback's */
    uint32_t sender, receiver, comm, tag;
    uint8_t holds_sends;
};

void match_init(struct matcher *m, struct pool *endpoints, match_callback *on_message,
                void *context)
{
    hashmap_init(&m->queues);
    pool_init(&m->queue_pool, sizeof(struct match_queue));
    m->endpoints = endpoints;
    m->on_message = on_message;
    m->context = context;
    m->waiting_sends = m->waiting_receives = 0;
    m->empty_queues = 0;
}

void match_free(struct matcher *m)
{
    /* Queues and their endpoints live in pools; destroying the pools
     * (here and by the owner of the endpoint pool) frees them. */
    hashmap_free(&m->queues);
    pool_destroy(&m->queue_pool);
}

static inline uint64_t key_pair(uint32_t sender, uint32_t receiver)
{
    return (uint64_t)sender << 32 | receiver;
}

static inline uint64_t key_channel(uint32_t comm, uint32_t tag)
{
    return (uint64_t)comm << 32 | tag;
}

/* An emptied queue stays in the table: the next message on its key (the
 * same pair, communicator and tag, as in most codes' loops) finds it
 * instead of inserting a new one and removing it again, two table
 * operations per message.  Codes that use a new tag per message leave
 * empty queues behind; once there are more than MATCH_EMPTY_QUEUES_KEPT and
 * more than non-empty ones, the table is rebuilt without them (amortised
 * O(1) per message, memory bounded by twice the queues in use). */
#define MATCH_EMPTY_QUEUES_KEPT 4096u

static void drop_empty_queues(struct matcher *m)
{
    struct hashmap kept;
    hashmap_init(&kept);
    for (size_t i = 0; i < hashmap_capacity(&m->queues); i++) {
        const struct hashmap_slot *s = &m->queues.slots[i];
        struct match_queue *q = s->value;
        if (!q)
            continue;
        if (q->head)
            hashmap_put(&kept, s->k1, s->k2, q);
        else
            pool_free(&m->queue_pool, q);
    }
    hashmap_free(&m->queues);
    m->queues = kept;
    m->empty_queues = 0;
}

/* e arrives; opposite-side ends of the same key wait in the queue, if any. */
static void arrive(struct matcher *m, struct endpoint *e, uint32_t sender, uint32_t receiver)
{
    uint64_t k1 = key_pair(sender, receiver), k2 = key_channel(e->comm, e->tag);
    struct match_queue *q = hashmap_get(&m->queues, k1, k2);
    if (q && q->head && q->holds_sends != e->is_send) {
        struct endpoint *other = q->head;
        q->head = other->next;
        if (e->is_send) {
            m->waiting_receives--;
            m->on_message(m->context, e, other, &q->pair);
        } else {
            m->waiting_sends--;
            m->on_message(m->context, other, e, &q->pair);
        }
        pool_free(m->endpoints, other);
        pool_free(m->endpoints, e);
        if (!q->head && ++m->empty_queues > MATCH_EMPTY_QUEUES_KEPT
            && m->empty_queues > m->queues.count - m->empty_queues)
            drop_empty_queues(m);
        return;
    }
    if (q && !q->head) {
        m->empty_queues--;
        q->tail = NULL;
        q->holds_sends = e->is_send;
    } else if (!q) {
        q = pool_alloc(&m->queue_pool);
        q->head = q->tail = NULL;
        q->pair = NULL;
        q->sender = sender;
        q->receiver = receiver;
        q->comm = e->comm;
        q->tag = e->tag;
        q->holds_sends = e->is_send;
        hashmap_put(&m->queues, k1, k2, q);
    }
    e->next = NULL;
    if (q->tail)
        q->tail->next = e;
    else
        q->head = e;
    q->tail = e;
    if (e->is_send)
        m->waiting_sends++;
    else
        m->waiting_receives++;
}

void match_send(struct matcher *m, struct endpoint *send)
{
    arrive(m, send, send->self, send->peer);
}

void match_receive(struct matcher *m, struct endpoint *receive)
{
    arrive(m, receive, receive->peer, receive->self);
}

static int compare_queues(const void *a, const void *b)
{
    const struct match_queue *x = *(struct match_queue *const *)a;
    const struct match_queue *y = *(struct match_queue *const *)b;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    if (x->receiver != y->receiver)
        return x->receiver < y->receiver ? -1 : 1;
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return 0;
}

void match_finish(struct matcher *m)
{
    size_t n = 0;
    struct match_queue **queues = xmalloc((m->queues.count ? m->queues.count : 1) * sizeof *queues);
    for (size_t i = 0; i < hashmap_capacity(&m->queues); i++) {
        if (m->queues.slots[i].value)
            queues[n++] = m->queues.slots[i].value;
    }
    qsort(queues, n, sizeof *queues, compare_queues);
    for (size_t i = 0; i < n; i++) {
        struct match_queue *q = queues[i];
        struct endpoint *e = q->head;
        while (e) {
            struct endpoint *next = e->next;
            if (q->holds_sends) {
                m->waiting_sends--;
                m->on_message(m->context, e, NULL, &q->pair);
            } else {
                m->waiting_receives--;
                m->on_message(m->context, NULL, e, &q->pair);
            }
            pool_free(m->endpoints, e);
            e = next;
        }
        pool_free(&m->queue_pool, q);
    }
    free(queues);
    hashmap_free(&m->queues);
}
