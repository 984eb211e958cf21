/* Clock correction: every event's timestamp goes through clock_correct
 * as it enters the analysis (archive.c), so that timestamps of different
 * locations compare as if taken from one clock (docs/analyze.md#clocks).
 *
 * Two corrections:
 *  - the ClockOffset definitions of the location (global = local +
 *    offset).  OTF2's global event reader already interpolates linearly
 *    between a location's consecutive offsets (and extrapolates the first
 *    and last interval) before it hands an event over; it applies nothing
 *    for a location with a single offset, so that constant offset is
 *    added here;
 *  - a forward shift per location that removes the violations of message
 *    order left after that: a receive that ends no later than its send
 *    began moves the receiving location forward, from that message on, to
 *    one tick after the send (clock_correct_violation). */
#ifndef HT_ANALYZE_CLOCK_CORRECT_H
#define HT_ANALYZE_CLOCK_CORRECT_H

#include <otf2/otf2.h>
#include <stdint.h>

/* The ClockOffset definitions of one location, as read. */
struct clock_offsets {
    uint32_t count;
    uint64_t first_time, last_time; /* local ticks */
    int64_t first_offset, last_offset;
    int64_t shift; /* forward shift from repaired violations, ticks */
};

struct clock_correction {
    struct clock_offsets *locations; /* by location index */
    uint32_t nlocations;
    uint64_t violations;      /* receives moved after their send */
    uint64_t violation_ticks; /* the sum of the moves */
    uint64_t max_violation_ticks;
};

void clock_correction_init(struct clock_correction *c, uint32_t nlocations);
void clock_correction_free(struct clock_correction *c);

/* A ClockOffset definition of location index, in the order of the file. */
void clock_correction_add_offset(struct clock_correction *c, uint32_t index, uint64_t time,
                                 int64_t offset);

/* OTF2's ClockOffset callback for the local definitions of one location
 * (user data: a struct clock_location). */
struct clock_location {
    struct clock_correction *c;
    uint32_t index;
};
OTF2_CallbackCode clock_correction_def_offset(void *ud, OTF2_TimeStamp time, int64_t offset,
                                              double deviation);

/* The corrected timestamp of an event of location index. */
static inline uint64_t clock_correct(const struct clock_correction *c, uint32_t index,
                                     uint64_t time)
{
    if (index >= c->nlocations)
        return time;
    const struct clock_offsets *o = &c->locations[index];
    int64_t add = o->shift + (o->count == 1 ? o->first_offset : 0);
    return time + (uint64_t)add;
}

/* A matched message whose receive ends at recv_time, no later than its
 * send began at send_time: the receiving location moves forward so that
 * the receive ends one tick after; returns the new receive time. */
uint64_t clock_correct_violation(struct clock_correction *c, uint32_t receiver_index,
                                 uint64_t send_time, uint64_t recv_time);

/* A rank's clock against rank 0's from the offsets of its first location:
 * offset at the first measurement (ticks) and drift between the first and
 * last (a fraction; 0 with one measurement).  Returns 0 if the location
 * has no offset. */
int clock_correction_rank(const struct clock_correction *c, uint32_t index, double *offset,
                          double *drift, int *drift_known);

#endif
