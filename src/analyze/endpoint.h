/* One end of a message, a send or a receive, from the event that starts it
 * until the matcher pairs it with the other end (or reports it unmatched).
 * The same record travels from the process's issue-order list
 * (translate.c) to a match queue (match.c); it is never copied. */
#ifndef HT_ANALYZE_ENDPOINT_H
#define HT_ANALYZE_ENDPOINT_H

#include <stdint.h>

enum endpoint_state {
    ENDPOINT_PENDING, /* an Isend or IrecvRequest not yet completed */
    ENDPOINT_READY,   /* to be matched */
    ENDPOINT_DROPPED  /* cancelled, or not mappable: to be discarded */
};

struct endpoint {
    struct endpoint *next; /* issue-order list, then match queue */
    uint64_t time;         /* send: its (I)send's time; receive: its Recv's or completing Irecv's */
    uint64_t bytes;
    uint64_t request;      /* request id while pending */
    uint64_t location;     /* OTF2 location of the event */
    /* Wait states (waitstate.c): the enter of the MPI routine of the
     * record (for an MpiIrecv, the routine completing it), and of the
     * routine that began the end (MPI_Irecv for that MpiIrecv). */
    uint64_t region_enter;
    uint64_t posted;
    uint32_t self;         /* world rank of the process the record belongs to */
    uint32_t peer;         /* world rank of the other end */
    uint32_t comm;         /* global communicator reference */
    uint32_t tag;
    uint32_t callpath;     /* call-path node of region_enter's routine */
    uint8_t state;         /* enum endpoint_state */
    uint8_t is_send;
    uint8_t unmapped;      /* peer or self has no world rank: drop when resolved */
    uint8_t region_kind;   /* enum region_kind of that routine */
};

/* Timer of the archive (the ClockProperties definition). */
struct trace_clock {
    uint64_t resolution; /* ticks per second; 1 if the archive has none */
    uint64_t offset;     /* tick that is time 0 in all reports */
    int known;           /* a ClockProperties definition was read */
};

/* Ticks to seconds since the offset; signed, a tick may precede it. */
static inline double trace_seconds(const struct trace_clock *clock, uint64_t ticks)
{
    return (double)(int64_t)(ticks - clock->offset) / (double)clock->resolution;
}

/* A difference of two ticks in seconds, signed. */
static inline double trace_interval(const struct trace_clock *clock, uint64_t from, uint64_t to)
{
    return (double)(int64_t)(to - from) / (double)clock->resolution;
}

#endif
