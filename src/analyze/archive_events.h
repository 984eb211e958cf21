/* What archive.c and archive_waits.c share: the one function every event
 * time goes through, and the callbacks of the wait-state analysis. */
#ifndef HT_ANALYZE_ARCHIVE_EVENTS_H
#define HT_ANALYZE_ARCHIVE_EVENTS_H

#include <otf2/otf2.h>
#include <stddef.h>
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

/* OTF2's first error since the last reset, per thread (archive.c). */
struct otf2_errors {
    int have;
    OTF2_ErrorCode code;
    char text[512];
};

/* Moves this thread's errors to *out (and resets them). */
void archive_errors_take(struct otf2_errors *out);
/* The one-line message of archive.c for errors met in another thread. */
int archive_report(const struct otf2_errors *errors, char *err, size_t errsize,
                   const char *anchor, const char *doing, OTF2_ErrorCode code);

/* archive.c's helpers of the event loop, shared with archive_par.c. */
uint64_t expected_events(const struct rankmap *ranks);
uint64_t announced_events(const struct rankmap *ranks, const uint8_t *selected);
int open_event_reader(OTF2_Reader *reader, uint64_t ref);

/* The event callbacks (user data: the analysis).  archive_par.c calls
 * them too, with the records its threads decoded, so that a
 * parallel read runs the same code on the same events in the same order. */
OTF2_CallbackCode ev_send(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                          OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm,
                          uint32_t tag, uint64_t length);
OTF2_CallbackCode ev_isend(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                           OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm,
                           uint32_t tag, uint64_t length, uint64_t request);
OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                    OTF2_AttributeList *attributes, uint64_t request);
OTF2_CallbackCode ev_recv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                          OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm,
                          uint32_t tag, uint64_t length);
OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, uint64_t request);
OTF2_CallbackCode ev_irecv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                           OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm,
                           uint32_t tag, uint64_t length, uint64_t request);
OTF2_CallbackCode ev_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                               OTF2_AttributeList *attributes, uint64_t request);
OTF2_CallbackCode ev_enter(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                           OTF2_AttributeList *attributes, OTF2_RegionRef region);
OTF2_CallbackCode ev_leave(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                           OTF2_AttributeList *attributes, OTF2_RegionRef region);
OTF2_CallbackCode ev_collective_begin(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                      OTF2_AttributeList *attributes);
OTF2_CallbackCode ev_collective_end(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                    OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                    OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                    uint64_t received);

/* Every event record the analysis reads, as (OTF2's record name, the
 * callbacks' suffix): archive.c registers ev_<suffix> for the serial read,
 * archive_records.c rec_<suffix> for the parallel one, and archive_par.c's
 * replay() turns each rec_ record back into its ev_ call.  A record added
 * here needs both callbacks and its case in replay(). */
#define ARCHIVE_EVENT_RECORDS(X)                                                         \
    X(MpiSend, send) X(MpiIsend, isend) X(MpiIsendComplete, isend_complete)             \
    X(MpiRecv, recv) X(MpiIrecvRequest, irecv_request) X(MpiIrecv, irecv)               \
    X(MpiRequestCancelled, cancelled) X(Enter, enter) X(Leave, leave)                   \
    X(MpiCollectiveBegin, collective_begin) X(MpiCollectiveEnd, collective_end)

/* archive_waits.c: Region definitions (the call paths' names). */
void archive_wait_definitions(OTF2_GlobalDefReaderCallbacks *cb);

#endif
