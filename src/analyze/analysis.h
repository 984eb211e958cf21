/* One analysis of one archive: the state every stage shares, and the sink
 * that receives each matched message (or unmatched end) from the matcher
 * and accounts for it in the summary, the matrix, the warnings and the
 * CSV stream. */
#ifndef HT_ANALYZE_ANALYSIS_H
#define HT_ANALYZE_ANALYSIS_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/clock_correct.h"
#include "analyze/endpoint.h"
#include "analyze/match.h"
#include "analyze/matrix.h"
#include "analyze/pool.h"
#include "analyze/rankmap.h"
#include "analyze/translate.h"
#include "analyze/waitstate.h"
#include "analyze/warnings.h"

/* The MPI point-to-point records, counted as read. */
enum record_kind {
    RECORD_SEND,
    RECORD_ISEND,
    RECORD_ISEND_COMPLETE,
    RECORD_RECV,
    RECORD_IRECV_REQUEST,
    RECORD_IRECV,
    RECORD_REQUEST_CANCELLED,
    RECORD_KIND_COUNT
};

/* The OTF2 name of a record kind ("MpiSend", ...). */
const char *record_name(enum record_kind kind);

struct summary {
    uint64_t events;                     /* every event record read */
    uint64_t records[RECORD_KIND_COUNT];
    uint64_t messages;                   /* matched */
    uint64_t bytes;                      /* of matched messages, as sent */
    uint64_t unmatched_sends, unmatched_send_bytes;
    uint64_t unmatched_receives, unmatched_receive_bytes;
    int64_t total_duration;              /* ticks, summed over all matched */
    int64_t min_duration, max_duration;  /* ticks, over all matched */
    uint64_t timed_messages;             /* matched with duration > 0 */
    uint64_t timed_bytes;                /* their bytes */
    uint64_t timed_ticks;                /* their summed durations */
    uint64_t peak_in_flight;             /* most ends held at once */
};

struct csv_writer;

struct analysis {
    const char *archive_path; /* the anchor file actually read */
    struct trace_clock clock;
    struct clock_correction clocks; /* ClockOffsets and order repairs */
    struct rankmap ranks;
    struct warnings warnings;
    struct pool endpoints;
    struct matcher matcher;
    struct translator translator;
    struct matrix matrix;
    struct summary summary;
    struct waits waits;
    struct csv_writer *csv; /* NULL: no CSV requested */
    int translator_ready;   /* translate_init ran (after the definitions) */
};

void analysis_init(struct analysis *a, unsigned warning_examples, struct csv_writer *csv);
/* After the definitions: the location count is known. */
void analysis_start_events(struct analysis *a);
/* After the last event: resolves what is pending and what is unmatched. */
void analysis_finish(struct analysis *a);
void analysis_free(struct analysis *a);

/* Ends held right now (pending, blocked or waiting for a match). */
static inline uint64_t analysis_in_flight(const struct analysis *a)
{
    return a->endpoints.in_use;
}

#endif
