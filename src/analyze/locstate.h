/* What the wait-state analysis keeps per location, and only per location:
 * its stack of open regions (with their enter times and, once asked for,
 * their call-path nodes), the number of collectives it has entered on
 * each communicator, and the last closed send region.  Nothing here looks
 * at another location, so locations can be read by different threads;
 * what combines them is in waitstate.c and collective.c. */
#ifndef HT_ANALYZE_LOCSTATE_H
#define HT_ANALYZE_LOCSTATE_H

#include <stdint.h>

#include "analyze/calltree.h"
#include "analyze/hashmap.h"

#define LOCSTATE_NO_NODE UINT32_MAX

struct locstate_frame {
    uint64_t enter; /* time of the Enter */
    uint32_t region;
    uint32_t node;  /* call-path node, LOCSTATE_NO_NODE until asked */
    int32_t kind;   /* enum region_kind, -1 until asked */
};

struct locstate {
    struct locstate_frame *frames;
    uint32_t depth, capacity;
    struct hashmap collectives; /* communicator -> collectives entered + 1 */
    uint64_t collective_begin;  /* time of the last MpiCollectiveBegin */
    /* The open send region (REGION_SEND) that recorded a send, and the
     * last one left: a late receiver is only one if its receive was
     * posted before the send ended (waitstate.c). */
    uint64_t send_pending_enter;
    int send_pending;
    uint64_t send_enter, send_leave;
    int send_left;
    /* Late sender in one wait completing several receives: time is
     * counted once, up to the latest send (see waitstate.c). */
    uint64_t late_sender_enter, late_sender_until;
    int late_sender_open;
};

void locstate_init(struct locstate *s);
void locstate_free(struct locstate *s);
/* Doubles the frame array (locstate_enter's slow path). */
void locstate_grow(struct locstate *s);

static inline void locstate_enter(struct locstate *s, uint32_t region, uint64_t time)
{
    if (s->depth == s->capacity)
        locstate_grow(s);
    struct locstate_frame *f = &s->frames[s->depth++];
    f->enter = time;
    f->region = region;
    f->node = LOCSTATE_NO_NODE;
    f->kind = -1;
}

/* The innermost open region, or NULL. */
static inline struct locstate_frame *locstate_top(const struct locstate *s)
{
    return s->depth ? &s->frames[s->depth - 1] : NULL;
}

/* Pops the innermost region and gives its enter time and region; returns
 * 0 for a Leave without an open region, which is ignored. */
static inline int locstate_leave(struct locstate *s, uint64_t *enter, uint32_t *region)
{
    if (!s->depth)
        return 0;
    const struct locstate_frame *f = &s->frames[--s->depth];
    *enter = f->enter;
    *region = f->region;
    return 1;
}

/* The call-path node of the open stack, made in the tree if new. */
uint32_t locstate_callpath(struct locstate *s, struct calltree *tree);

/* The number of the collective this location enters now on comm: 0 for
 * its first on that communicator, then 1, ... */
uint64_t locstate_next_collective(struct locstate *s, uint32_t comm);

#endif
