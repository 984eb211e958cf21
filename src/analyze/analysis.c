/* The message sink and the life cycle of an analysis. */
#include <inttypes.h>
#include <string.h>

#include "analyze/analysis.h"
#include "analyze/report.h"

static const char *const record_names[RECORD_KIND_COUNT] = {
    [RECORD_SEND] = "MpiSend",
    [RECORD_ISEND] = "MpiIsend",
    [RECORD_ISEND_COMPLETE] = "MpiIsendComplete",
    [RECORD_RECV] = "MpiRecv",
    [RECORD_IRECV_REQUEST] = "MpiIrecvRequest",
    [RECORD_IRECV] = "MpiIrecv",
    [RECORD_REQUEST_CANCELLED] = "MpiRequestCancelled",
};

const char *record_name(enum record_kind kind)
{
    return record_names[kind];
}

/* "rank 0 -> rank 1, comm 0, tag 7" */
static void describe(char *buf, size_t size, const struct endpoint *any_end, uint32_t sender,
                     uint32_t receiver)
{
    snprintf(buf, size, "rank %" PRIu32 " -> rank %" PRIu32 ", communicator %" PRIu32
             ", tag %" PRIu32, sender, receiver, any_end->comm, any_end->tag);
}

static void matched(struct analysis *a, const struct endpoint *s, const struct endpoint *r,
                    void **pair)
{
    struct summary *sum = &a->summary;
    int64_t duration = (int64_t)(r->time - s->time);
    char what[128];
    struct endpoint repaired;
    if (duration <= 0) {
        /* Reported as the clocks gave it (after the ClockOffsets), then
         * repaired: the receive ends one tick after the send began, and
         * its location moves forward with it (clock_correct.h). */
        describe(what, sizeof what, s, s->self, r->self);
        warnings_add(&a->warnings, WARN_NONPOSITIVE_DURATION,
                     "%s: sent at %.9f s, received at %.9f s (duration %.9f s)", what,
                     trace_seconds(&a->clock, s->time), trace_seconds(&a->clock, r->time),
                     trace_interval(&a->clock, s->time, r->time));
        const struct rankmap_location *loc = rankmap_location(&a->ranks, r->location);
        uint64_t moved = clock_correct_violation(&a->clocks, loc ? loc->index : UINT32_MAX,
                                                 s->time, r->time);
        duration = (int64_t)(moved - s->time);
        /* The wait states judge the receive where the repair put it. */
        repaired = *r;
        repaired.time = moved;
        r = &repaired;
    }
    sum->messages++;
    sum->bytes += s->bytes;
    if (sum->messages == 1 || duration < sum->min_duration)
        sum->min_duration = duration;
    if (sum->messages == 1 || duration > sum->max_duration)
        sum->max_duration = duration;
    sum->total_duration += duration;
    sum->timed_messages++;
    sum->timed_bytes += s->bytes;
    sum->timed_ticks += (uint64_t)duration;
    if (s->bytes > r->bytes) {
        describe(what, sizeof what, s, s->self, r->self);
        warnings_add(&a->warnings, WARN_SEND_LONGER,
                     "%s: %" PRIu64 " bytes sent at %.9f s, %" PRIu64 " bytes received", what,
                     s->bytes, trace_seconds(&a->clock, s->time), r->bytes);
    }
    /* The matcher keeps the pair's cell with the key's queue: one table
     * look-up per queue, not per message. */
    if (!*pair)
        *pair = matrix_cell(&a->matrix, s->self, r->self);
    matrix_cell_add(*pair, s->bytes, duration);
    waits_message(&a->waits, s, r);
}

static void stamp(void *context, const struct rankmap_location *loc, struct endpoint *e,
                  int completion)
{
    waits_stamp(&((struct analysis *)context)->waits, loc, e, completion);
}

static void on_message(void *context, const struct endpoint *s, const struct endpoint *r,
                       void **pair)
{
    struct analysis *a = context;
    char what[128];
    if (s && r) {
        matched(a, s, r, pair);
    } else if (s) {
        a->summary.unmatched_sends++;
        a->summary.unmatched_send_bytes += s->bytes;
        describe(what, sizeof what, s, s->self, s->peer);
        warnings_add(&a->warnings, WARN_MISSING_RECEIVE, "%s: %" PRIu64 " bytes sent at %.9f s",
                     what, s->bytes, trace_seconds(&a->clock, s->time));
    } else {
        a->summary.unmatched_receives++;
        a->summary.unmatched_receive_bytes += r->bytes;
        describe(what, sizeof what, r, r->peer, r->self);
        warnings_add(&a->warnings, WARN_RECEIVE_WITHOUT_SEND,
                     "%s: %" PRIu64 " bytes received at %.9f s", what, r->bytes,
                     trace_seconds(&a->clock, r->time));
    }
    if (a->csv)
        csv_message(a->csv, &a->clock, s, r);
}

void analysis_init(struct analysis *a, unsigned warning_examples, struct csv_writer *csv)
{
    memset(a, 0, sizeof *a);
    a->clock.resolution = 1;
    rankmap_init(&a->ranks);
    warnings_init(&a->warnings, warning_examples);
    pool_init(&a->endpoints, sizeof(struct endpoint));
    match_init(&a->matcher, &a->endpoints, on_message, a);
    matrix_init(&a->matrix);
    waits_init(&a->waits);
    a->csv = csv;
}

void analysis_start_events(struct analysis *a)
{
    rankmap_finish(&a->ranks);
    translate_init(&a->translator, &a->ranks, &a->matcher, &a->warnings, &a->clock,
                   &a->endpoints);
    a->translator.stamp = stamp;
    a->translator.stamp_context = a;
    waits_start(&a->waits, &a->ranks);
    a->translator_ready = 1;
}

void analysis_finish(struct analysis *a)
{
    translate_finish(&a->translator);
    match_finish(&a->matcher);
    waits_finish(&a->waits);
    a->summary.peak_in_flight = a->endpoints.peak;
}

void analysis_free(struct analysis *a)
{
    if (a->translator_ready)
        translate_free(&a->translator);
    match_free(&a->matcher);
    pool_destroy(&a->endpoints);
    matrix_free(&a->matrix);
    waits_free(&a->waits);
    clock_correction_free(&a->clocks);
    warnings_free(&a->warnings);
    rankmap_free(&a->ranks);
}
