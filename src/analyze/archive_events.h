/* What archive.c and archive_waits.c share: the one function every event
 * time goes through, and the callbacks of the wait-state analysis. */
#ifndef HT_ANALYZE_ARCHIVE_EVENTS_H
#define HT_ANALYZE_ARCHIVE_EVENTS_H

#include <otf2/otf2.h>
#include <stdint.h>

#include "analyze/analysis.h"

/* Every event's time enters the analysis through here, and only here
 * (archive.c): the one place where a location's clock can be corrected. */
uint64_t event_time(const struct analysis *a, const struct rankmap_location *loc, uint64_t time);

/* The location of an event; events of undefined locations cannot occur
 * (only defined locations are selected), but are dropped if they do. */
#define EVENT_AT(a, ref)                                                 \
    struct analysis *a = ud;                                             \
    const struct rankmap_location *loc = rankmap_location(&a->ranks, ref); \
    (void)attributes;                                                    \
    if (!loc)                                                            \
        return OTF2_CALLBACK_SUCCESS;                                    \
    time = event_time(a, loc, time)

#define EVENT_LOCATION(a, ref, kind)                                     \
    ((struct analysis *)ud)->summary.records[kind]++;                    \
    EVENT_AT(a, ref)

/* archive_waits.c: Region definitions; Enter, Leave and the blocking
 * collectives' records. */
void archive_wait_definitions(OTF2_GlobalDefReaderCallbacks *cb);
void archive_wait_events(OTF2_GlobalEvtReaderCallbacks *cb);

#endif
