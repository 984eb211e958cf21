/* HOOKTRACE_CLOCK_SKEW_TEST: a testing aid that makes some ranks' clocks
 * run as another node's would (docs/trace.md#clocks-across-nodes).
 *
 * The skew is applied where a tick leaves the process's own clock for the
 * archive: to the readings the clock synchronisation takes (clock_sync.c)
 * and to every event's timestamp as it is written (archive_events.c),
 * never in the hooks, so that it costs nothing while the program runs. */
#ifndef HT_TRACE_CLOCK_SKEW_H
#define HT_TRACE_CLOCK_SKEW_H

#include <stdbool.h>
#include <stdint.h>

/* Reads the variable for this world rank, once (later calls do nothing).
 * A malformed value is reported on stderr by rank 0 and ignored.  Ignored
 * in a setuid or setgid process. */
void ht_trace_skew_init(int rank);

extern bool ht_trace_skewed;
uint64_t ht_trace_skew_apply(uint64_t tick);

/* A tick of this process's clock as this rank's (possibly simulated)
 * node clock shows it. */
static inline uint64_t ht_trace_skew(uint64_t tick)
{
    return ht_trace_skewed ? ht_trace_skew_apply(tick) : tick;
}

#endif
