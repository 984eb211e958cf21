/* A thread's event buffer and the binary records in it.
 *
 * A record is whole 64-bit words: the tick, then a header word, then
 * payload.  Function entries and exits are the commonest events and take
 * two words: the header holds the tree node's address (nodes are 64-byte
 * aligned, so the low six bits are free for the kind).  Other records put
 * their payload length in the header. */
#ifndef HT_TRACE_BUFFER_H
#define HT_TRACE_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"

enum ht_trace_kind {
    HT_REC_ENTER = 1,         /* header: node | kind */
    HT_REC_LEAVE = 2,         /* header: node | kind */
    HT_REC_FLUSH = 3,         /* [stop tick]: the buffer was written to disk */
    HT_REC_THROTTLED = 4,     /* [node, calls]: the node's function was throttled */
    HT_REC_CUT = 5,           /* [bound]: trace.max_bytes_per_rank reached */
    HT_REC_SEND = 16,         /* [peer | comm << 32, tag, bytes] */
    HT_REC_RECV,              /* [peer | comm << 32, tag, bytes] */
    HT_REC_ISEND,             /* [peer | comm << 32, tag, bytes, request] */
    HT_REC_ISEND_COMPLETE,    /* [request] */
    HT_REC_IRECV_REQUEST,     /* [request] */
    HT_REC_IRECV,             /* [peer | comm << 32, tag, bytes, request] */
    HT_REC_REQUEST_TEST,      /* [request] */
    HT_REC_REQUEST_CANCELLED, /* [request] */
    HT_REC_COLL_END,          /* [comm | root << 32, sent, received] */
    HT_REC_NBC_REQUEST,       /* [request] */
    HT_REC_NBC_COMPLETE,      /* [node, comm | root << 32, sent, received, request] */
};

#define HT_REC_KIND_MASK 63u
#define HT_REC_MAX_PAYLOAD 8u

struct ht_trace_buffer {
    uint64_t *pos, *end;      /* the next free word; one past the last */
    uint64_t *base;
    size_t bytes;             /* capacity */
    uint64_t records;         /* in the buffer now (what a failed flush loses) */
    int fd;                   /* spill file, -1 until the first flush */
    uint64_t flushes;
    uint64_t spilled_bytes;
    uint64_t dropped;         /* records lost because a flush failed */
    uint64_t events;          /* records appended, all told */
    uint64_t next_request;    /* OTF2 request ids of this location */
    uint64_t last_tick;       /* events are kept in time order: never earlier */
    /* trace.max_bytes_per_rank (volume.c): the bytes this thread may record
     * (spilled and in memory) before it asks for more; 0 once it was cut. */
    uint64_t allowed;
    bool cut;                 /* function events stopped at the bound */
    uint64_t throttled;       /* throttle markers recorded */
};

/* Bytes recorded so far, spilled or in memory (what the bound counts). */
static inline uint64_t ht_trace_recorded_bytes(const struct ht_trace_buffer *b)
{
    return b->spilled_bytes + (uint64_t)((const char *)b->pos - (const char *)b->base);
}

/* A buffer of `bytes` (mapped lazily, so unused budget costs nothing).
 * NULL if the mapping fails. */
struct ht_trace_buffer *ht_trace_buffer_new(size_t bytes);

/* Writes the buffer to its spill file (created in the trace folder and
 * unlinked at once, so it never outlives the process) and empties it. */
void ht_trace_buffer_flush(struct ht_trace_buffer *b, uint64_t now);

/* Room for a record of `words` words, its time already in place; flushes
 * first when full. */
HT_NOINSTR static inline uint64_t *ht_trace_reserve(struct ht_trace_buffer *b, size_t words,
                                                    uint64_t now)
{
    if (HT_UNLIKELY((size_t)(b->end - b->pos) < words))
        ht_trace_buffer_flush(b, now);
    uint64_t *w = b->pos;
    b->pos += words;
    /* A record made after a later one was (a completion found while
     * entering an MPI routine) takes that one's time: OTF2 requires the
     * events of a location in time order. */
    if (HT_UNLIKELY(now < b->last_tick))
        now = b->last_tick;
    b->last_tick = now;
    w[0] = now;
    b->records++;
    b->events++;
    return w;
}

HT_NOINSTR static inline void ht_trace_put_call(struct ht_trace_buffer *b, unsigned kind,
                                                const void *node, uint64_t now)
{
    uint64_t *w = ht_trace_reserve(b, 2, now);
    w[1] = (uint64_t)(uintptr_t)node | kind;
}

/* A record with n payload words; returns where the payload goes. */
HT_NOINSTR static inline uint64_t *ht_trace_put(struct ht_trace_buffer *b, unsigned kind,
                                                unsigned n, uint64_t now)
{
    uint64_t *w = ht_trace_reserve(b, 2 + n, now);
    w[1] = kind | (uint64_t)n << 8;
    return w + 2;
}

/* Reading the records back at the end: first what was spilled, in order,
 * then what is still in memory.  Calls fn for each record with its tick,
 * header and payload; stops early if fn returns false.  Returns -1 if the
 * spill file could not be read back (err says why), else 0. */
typedef bool (*ht_trace_record_fn)(void *ctx, uint64_t tick, uint64_t header,
                                   const uint64_t *payload);
int ht_trace_buffer_replay(struct ht_trace_buffer *b, ht_trace_record_fn fn, void *ctx,
                           char *err, size_t errlen);

/* The folder spill files go to (set at start-up). */
void ht_trace_buffer_set_folder(const char *folder);

#endif
