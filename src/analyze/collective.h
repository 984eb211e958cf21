/* Collective instances across ranks, for the wait states at collectives.
 * MPI orders the blocking collectives of each communicator the same way
 * at every member, so the n-th collective a member enters on a
 * communicator is the same instance as every other member's n-th
 * (locstate.c counts them per location).  An instance waits here until
 * all members of the communicator's group have arrived, is then judged
 * and freed: memory follows the collectives in flight, not the trace. */
#ifndef HT_ANALYZE_COLLECTIVE_H
#define HT_ANALYZE_COLLECTIVE_H

#include <stdint.h>

#include "analyze/hashmap.h"
#include "analyze/wait_pattern.h"

/* One member's part in an instance. */
struct coll_member {
    uint64_t enter;    /* the collective routine's Enter */
    uint64_t end;      /* its MpiCollectiveEnd, the end of the waiting */
    uint32_t rank;     /* world rank */
    uint32_t callpath; /* call-path node */
};

/* Receives every wait found: pattern, world rank, call path, ticks. */
typedef void coll_wait_fn(void *context, enum wait_pattern pattern, uint32_t rank,
                          uint32_t callpath, uint64_t ticks);

struct collectives {
    struct hashmap instances; /* (communicator, number) -> struct coll_instance* */
    coll_wait_fn *on_wait;
    void *context;
    uint64_t incomplete; /* instances some member never reached (at finish) */
};

void collectives_init(struct collectives *c, coll_wait_fn *on_wait, void *context);
/* Frees the instances left incomplete, counting them. */
void collectives_finish(struct collectives *c);
void collectives_free(struct collectives *c);

/* A member arrives at collective number `seq` on communicator `comm` of
 * `size` members; op is the OTF2 collective operation, root_rank the
 * root's world rank (any value for operations without a root). */
void collectives_arrive(struct collectives *c, uint32_t comm, uint64_t seq, uint32_t size,
                        uint8_t op, uint32_t root_rank, const struct coll_member *member);

#endif
