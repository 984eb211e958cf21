/* The parallel event read (archive_par.h): reader threads that decode,
 * and the merge that replays their records in the serial order. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/archive_events.h"
#include "analyze/archive_par.h"
#include "analyze/fail.h"
#include "analyze/progress.h"

/* Records per batch and batches per reader: what is in flight between a
 * reader and the merge is at most BATCHES * BATCH_RECORDS records per
 * reader (about 0.9 MB), whatever the trace's length.  A batch is handed
 * over under a lock, so the lock is taken once per 4096 events. */
#define BATCH_RECORDS 4096u
#define BATCHES 4u
/* Events asked of OTF2 per call in a reader. */
#define READ_CHUNK 4096u
/* The serial loop's batch: progress and the runaway check (archive.c). */
#define EVENT_BATCH (1u << 20)

enum record_type {
    REC_SEND, REC_ISEND, REC_ISEND_COMPLETE, REC_RECV, REC_IRECV_REQUEST, REC_IRECV,
    REC_CANCELLED, REC_ENTER, REC_LEAVE, REC_COLLECTIVE_BEGIN, REC_COLLECTIVE_END
};

/* One event as its callback received it.  peer: receiver, sender, region
 * or root; length: also a collective's bytes sent; request: also its bytes
 * received. */
struct record {
    uint64_t time, location, length, request;
    uint32_t peer, comm, tag;
    uint8_t type, op;
};

struct batch {
    uint32_t n;
    uint64_t skipped; /* events read before these records and not forwarded */
    struct record records[BATCH_RECORDS];
};

enum reader_failure { READER_OK, READER_SETUP, READER_OPEN, READER_READ };

struct reader {
    const char *anchor;
    const struct rankmap *ranks;
    uint32_t *locations; /* indexes into the location list */
    uint32_t nlocations;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct batch *batches; /* BATCHES of them, a ring */
    /* Under lock: batches handed over, batches given back, no more will
     * come, the merge wants no more. */
    uint64_t published, released;
    int done, stop;
    /* The reader's own until done. */
    struct batch *fill;
    uint64_t appended;
    enum reader_failure failure;
    const char *doing;      /* READER_SETUP: what failed */
    uint32_t failed_index;  /* READER_OPEN: the location (list index) */
    int failed_status;      /* READER_OPEN: open_event_reader's status */
    OTF2_ErrorCode rc;
    struct otf2_errors errors;
};

/* --- the reader threads ------------------------------------------------ */

/* Hands the batch being filled to the merge; unless it is the last, waits
 * for a free one.  Returns -1 when the merge wants no more. */
static int publish(struct reader *r, int last)
{
    pthread_mutex_lock(&r->lock);
    r->published++;
    if (last)
        r->done = 1;
    pthread_cond_broadcast(&r->cond);
    while (!last && !r->stop && r->published - r->released >= BATCHES)
        pthread_cond_wait(&r->cond, &r->lock);
    int stop = r->stop;
    uint64_t next = r->published;
    pthread_mutex_unlock(&r->lock);
    if (!last) {
        r->fill = &r->batches[next % BATCHES];
        r->fill->n = 0;
        r->fill->skipped = 0;
    }
    return stop ? -1 : 0;
}

static inline struct record *append(struct reader *r, enum record_type type, uint64_t location,
                                    uint64_t time)
{
    if (r->fill->n == BATCH_RECORDS && publish(r, 0) != 0)
        return NULL;
    struct record *e = &r->fill->records[r->fill->n++];
    e->type = (uint8_t)type;
    e->location = location;
    e->time = time;
    r->appended++;
    return e;
}

#define RECORD(type)                                     \
    (void)attributes;                                    \
    struct record *e = append(ud, type, ref, time);      \
    if (!e)                                              \
        return OTF2_CALLBACK_INTERRUPT

static OTF2_CallbackCode rec_send(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t receiver,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    RECORD(REC_SEND);
    e->peer = receiver, e->comm = comm, e->tag = tag, e->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_isend(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, uint32_t receiver,
                                   OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                   uint64_t request)
{
    RECORD(REC_ISEND);
    e->peer = receiver, e->comm = comm, e->tag = tag, e->length = length, e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_isend_complete(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                            OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_ISEND_COMPLETE);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_recv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                  OTF2_AttributeList *attributes, uint32_t sender,
                                  OTF2_CommRef comm, uint32_t tag, uint64_t length)
{
    RECORD(REC_RECV);
    e->peer = sender, e->comm = comm, e->tag = tag, e->length = length;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_irecv_request(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                           OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_IRECV_REQUEST);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_irecv(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, uint32_t sender,
                                   OTF2_CommRef comm, uint32_t tag, uint64_t length,
                                   uint64_t request)
{
    RECORD(REC_IRECV);
    e->peer = sender, e->comm = comm, e->tag = tag, e->length = length, e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_cancelled(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                       OTF2_AttributeList *attributes, uint64_t request)
{
    RECORD(REC_CANCELLED);
    e->request = request;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_enter(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    RECORD(REC_ENTER);
    e->peer = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_leave(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                   OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    RECORD(REC_LEAVE);
    e->peer = region;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_collective_begin(OTF2_LocationRef ref, OTF2_TimeStamp time,
                                              void *ud, OTF2_AttributeList *attributes)
{
    RECORD(REC_COLLECTIVE_BEGIN);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rec_collective_end(OTF2_LocationRef ref, OTF2_TimeStamp time, void *ud,
                                            OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                            OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                            uint64_t received)
{
    RECORD(REC_COLLECTIVE_END);
    e->op = op, e->comm = comm, e->peer = root, e->length = sent, e->request = received;
    return OTF2_CALLBACK_SUCCESS;
}

/* The records the serial read has callbacks for (archive.c,
 * archive_waits.c): a new one there needs its twin here and in replay(). */
static OTF2_ErrorCode register_records(OTF2_Reader *reader, OTF2_GlobalEvtReader *events,
                                       struct reader *r)
{
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    if (!cb)
        fail_out_of_memory();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, rec_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, rec_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, rec_isend_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, rec_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, rec_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, rec_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, rec_cancelled);
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, rec_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, rec_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, rec_collective_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, rec_collective_end);
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, cb, r);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    return rc;
}

static void setup_failed(struct reader *r, const char *doing, OTF2_ErrorCode rc)
{
    r->failure = READER_SETUP;
    r->doing = doing;
    r->rc = rc;
    archive_errors_take(&r->errors);
}

/* Local definitions again, in this reader: their mapping tables and clock
 * offsets are applied by the OTF2 reader that read them.  The caller read
 * them once already, with its callbacks, and reported their errors. */
static OTF2_ErrorCode read_local_definitions(OTF2_Reader *reader, const struct reader *r)
{
    if (OTF2_Reader_OpenDefFiles(reader) != OTF2_SUCCESS) {
        struct otf2_errors ignored;
        archive_errors_take(&ignored);
        return OTF2_SUCCESS;
    }
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint32_t i = 0; i < r->nlocations && rc == OTF2_SUCCESS; i++) {
        uint64_t ref = r->ranks->location_list[r->locations[i]]->ref;
        OTF2_DefReader *defs = OTF2_Reader_GetDefReader(reader, ref);
        if (!defs) {
            struct otf2_errors ignored;
            archive_errors_take(&ignored);
            continue;
        }
        uint64_t n = 0;
        rc = OTF2_Reader_ReadAllLocalDefinitions(reader, defs, &n);
        OTF2_ErrorCode rc_close = OTF2_Reader_CloseDefReader(reader, defs);
        if (rc == OTF2_SUCCESS)
            rc = rc_close;
    }
    OTF2_ErrorCode rc_close = OTF2_Reader_CloseDefFiles(reader);
    return rc != OTF2_SUCCESS ? rc : rc_close;
}

/* The events of the reader's locations, merged by OTF2, into batches. */
static void read_events(OTF2_Reader *reader, struct reader *r)
{
    uint32_t opened = 0;
    for (uint32_t i = 0; i < r->nlocations; i++) {
        int status = open_event_reader(reader, r->ranks->location_list[r->locations[i]]->ref);
        if (status < 0) {
            r->failure = READER_OPEN;
            r->failed_index = r->locations[i];
            r->failed_status = status;
            archive_errors_take(&r->errors);
            return;
        }
        opened += (uint32_t)status;
    }
    if (opened == 0)
        return;
    OTF2_GlobalEvtReader *events = OTF2_Reader_GetGlobalEvtReader(reader);
    if (!events) {
        setup_failed(r, "cannot set up the event reader", OTF2_SUCCESS);
        return;
    }
    OTF2_ErrorCode rc = register_records(reader, events, r);
    uint64_t n = READ_CHUNK;
    while (rc == OTF2_SUCCESS && n == READ_CHUNK) {
        n = 0;
        r->appended = 0;
        rc = OTF2_Reader_ReadGlobalEvents(reader, events, READ_CHUNK, &n);
        /* On an error, OTF2 does not count the event it delivered last
         * (the failure is reading the one after it). */
        uint64_t read = rc == OTF2_SUCCESS || rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK ? n : n + 1;
        if (read > r->appended)
            r->fill->skipped += read - r->appended;
    }
    if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
        r->failure = READER_READ;
        r->rc = rc;
        archive_errors_take(&r->errors);
    }
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
}

static void read_share(struct reader *r)
{
    OTF2_Reader *reader = OTF2_Reader_Open(r->anchor);
    if (!reader) {
        setup_failed(r, "not a readable OTF2 archive", OTF2_SUCCESS);
        return;
    }
    OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    if (rc == OTF2_SUCCESS) {
        OTF2_Boolean global_reader = OTF2_TRUE;
        rc = OTF2_Reader_SetHint(reader, OTF2_HINT_GLOBAL_READER, &global_reader);
    }
    for (uint32_t i = 0; i < r->nlocations && rc == OTF2_SUCCESS; i++)
        rc = OTF2_Reader_SelectLocation(reader, r->ranks->location_list[r->locations[i]]->ref);
    if (rc != OTF2_SUCCESS) {
        setup_failed(r, "cannot set up the OTF2 reader", rc);
    } else if ((rc = read_local_definitions(reader, r)) != OTF2_SUCCESS) {
        setup_failed(r, "cannot read the local definitions", rc);
    } else if ((rc = OTF2_Reader_OpenEvtFiles(reader)) != OTF2_SUCCESS) {
        setup_failed(r, "cannot open the event files", rc);
    } else {
        read_events(reader, r);
        rc = OTF2_Reader_CloseEvtFiles(reader);
        if (rc != OTF2_SUCCESS && r->failure == READER_OK)
            setup_failed(r, "cannot close the event files", rc);
    }
    OTF2_Reader_Close(reader);
}

static void *reader_main(void *arg)
{
    struct reader *r = arg;
    read_share(r);
    publish(r, 1);
    return NULL;
}

/* --- the merge --------------------------------------------------------- */

/* The next batch of r with records (the current one given back if
 * release), or NULL once r is done; *events counts the skipped. */
static struct batch *next_batch(struct reader *r, int release, uint64_t *events)
{
    for (;;) {
        pthread_mutex_lock(&r->lock);
        if (release) {
            r->released++;
            pthread_cond_broadcast(&r->cond);
        }
        while (r->published == r->released && !r->done)
            pthread_cond_wait(&r->cond, &r->lock);
        struct batch *b = r->published > r->released ? &r->batches[r->released % BATCHES] : NULL;
        pthread_mutex_unlock(&r->lock);
        if (!b)
            return NULL;
        *events += b->skipped;
        if (b->n)
            return b;
        release = 1;
    }
}

/* The serial read's callbacks, with the record's arguments. */
static void replay(struct analysis *a, const struct record *e)
{
    switch ((enum record_type)e->type) {
    case REC_SEND:
        ev_send(e->location, e->time, a, NULL, e->peer, e->comm, e->tag, e->length);
        break;
    case REC_ISEND:
        ev_isend(e->location, e->time, a, NULL, e->peer, e->comm, e->tag, e->length, e->request);
        break;
    case REC_ISEND_COMPLETE: ev_isend_complete(e->location, e->time, a, NULL, e->request); break;
    case REC_RECV:
        ev_recv(e->location, e->time, a, NULL, e->peer, e->comm, e->tag, e->length);
        break;
    case REC_IRECV_REQUEST: ev_irecv_request(e->location, e->time, a, NULL, e->request); break;
    case REC_IRECV:
        ev_irecv(e->location, e->time, a, NULL, e->peer, e->comm, e->tag, e->length, e->request);
        break;
    case REC_CANCELLED: ev_cancelled(e->location, e->time, a, NULL, e->request); break;
    case REC_ENTER: ev_enter(e->location, e->time, a, NULL, e->peer); break;
    case REC_LEAVE: ev_leave(e->location, e->time, a, NULL, e->peer); break;
    case REC_COLLECTIVE_BEGIN: ev_collective_begin(e->location, e->time, a, NULL); break;
    case REC_COLLECTIVE_END:
        ev_collective_end(e->location, e->time, a, NULL, e->op, e->comm, e->peer, e->length,
                          e->request);
        break;
    }
}

/* OTF2's global reader delivers the smallest time first and, on equal
 * times, the smallest location reference (compare_evt_reader_lt in
 * OTF2_GlobalEvtReader.c); each reader's queue is in that order already. */
static inline int before(const struct record *x, const struct record *y)
{
    return x->time < y->time || (x->time == y->time && x->location < y->location);
}

struct merge {
    struct reader *readers;
    unsigned n;
    struct batch **current; /* per reader; NULL when done */
    uint32_t *at;           /* the next record in current */
};

/* A reader whose first batch came has opened all its locations.  The
 * serial read opens them in list order and reports the first failure:
 * so does this, whichever reader met it. */
static int open_failures(const struct merge *m, const char *anchor, char *err, size_t errsize)
{
    const struct reader *first = NULL;
    for (unsigned k = 0; k < m->n; k++) {
        const struct reader *r = &m->readers[k];
        if (m->current[k])
            continue; /* opened everything; its fields are its own until done */
        if (r->failure == READER_SETUP)
            return archive_report(&r->errors, err, errsize, anchor, r->doing, r->rc);
        if (r->failure == READER_OPEN && (!first || r->failed_index < first->failed_index))
            first = r;
    }
    if (!first)
        return 0;
    char doing[96];
    snprintf(doing, sizeof doing, "cannot %s the events of location %" PRIu64,
             first->failed_status == -1 ? "open" : "read",
             first->ranks->location_list[first->failed_index]->ref);
    return archive_report(&first->errors, err, errsize, anchor, doing, OTF2_SUCCESS);
}

static int merge_events(struct merge *m, struct analysis *a, int show_progress,
                        const uint8_t *selected, const char *anchor, char *err, size_t errsize)
{
    uint64_t events = 0;
    for (unsigned k = 0; k < m->n; k++) {
        m->current[k] = next_batch(&m->readers[k], 0, &events);
        m->at[k] = 0;
    }
    if (open_failures(m, anchor, err, errsize) != 0)
        return -1;
    struct progress progress;
    progress_start(&progress, show_progress, expected_events(&a->ranks));
    const uint64_t announced = announced_events(&a->ranks, selected);
    uint64_t boundary = EVENT_BATCH;
    const struct reader *failed = NULL;
    int runaway = 0;
    for (;;) {
        int best = -1;
        const struct record *next = NULL;
        for (unsigned k = 0; k < m->n; k++) {
            if (!m->current[k])
                continue;
            const struct record *e = &m->current[k]->records[m->at[k]];
            if (!next || before(e, next))
                best = (int)k, next = e;
        }
        if (best < 0)
            break;
        replay(a, next);
        events++;
        if (++m->at[best] == m->current[best]->n) {
            m->current[best] = next_batch(&m->readers[best], 1, &events);
            m->at[best] = 0;
            if (!m->current[best] && m->readers[best].failure == READER_READ) {
                failed = &m->readers[best];
                break;
            }
        }
        /* Where the serial loop checks, between its batches. */
        while (events >= boundary && !runaway) {
            a->summary.events = boundary;
            runaway = announced && boundary > announced;
            progress_update(&progress, boundary, a->summary.messages, analysis_in_flight(a));
            boundary += EVENT_BATCH;
        }
        if (runaway)
            break;
    }
    if (!failed && !runaway) {
        a->summary.events = events;
        runaway = announced && events > announced;
    }
    progress_end(&progress, a->summary.events, a->summary.messages, !failed && !runaway);
    if (failed) {
        char doing[96];
        snprintf(doing, sizeof doing, "cannot read the events after %" PRIu64 " events",
                 events - 1);
        return archive_report(&failed->errors, err, errsize, anchor, doing, failed->rc);
    }
    if (runaway) {
        struct otf2_errors none = {0};
        char doing[200];
        snprintf(doing, sizeof doing,
                 "the events are corrupt: %" PRIu64
                 " read, but the definitions of the locations announce %" PRIu64,
                 a->summary.events, announced);
        return archive_report(&none, err, errsize, anchor, doing, OTF2_SUCCESS);
    }
    for (unsigned k = 0; k < m->n; k++) {
        const struct reader *r = &m->readers[k];
        if (r->failure == READER_SETUP)
            return archive_report(&r->errors, err, errsize, anchor, r->doing, r->rc);
    }
    return 0;
}

int archive_read_parallel(struct analysis *a, const char *anchor, const uint8_t *selected,
                          unsigned threads, int show_progress, char *err, size_t errsize)
{
    struct reader *readers = xcalloc(threads, sizeof *readers);
    uint32_t *shares = xcalloc(a->ranks.nlocations, sizeof *shares);
    /* Round robin over the locations in list order: neighbouring ranks,
     * which often have similar event counts, go to different readers. */
    uint32_t nselected = 0;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++)
        nselected += selected[i] != 0;
    uint32_t per = (nselected + threads - 1) / threads, s = 0;
    for (unsigned k = 0; k < threads; k++)
        readers[k].locations = shares + (size_t)k * per;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++) {
        if (!selected[i])
            continue;
        struct reader *r = &readers[s++ % threads];
        r->locations[r->nlocations++] = i;
    }
    unsigned started = 0;
    for (unsigned k = 0; k < threads; k++) {
        struct reader *r = &readers[k];
        r->anchor = anchor;
        r->ranks = &a->ranks;
        r->batches = xmalloc(BATCHES * sizeof *r->batches);
        r->fill = &r->batches[0];
        r->fill->n = 0;
        r->fill->skipped = 0;
        pthread_mutex_init(&r->lock, NULL);
        pthread_cond_init(&r->cond, NULL);
        if (pthread_create(&r->thread, NULL, reader_main, r) != 0)
            fail_exit("cannot start a reader thread");
        started++;
    }
    struct merge m = {readers, threads, xcalloc(threads, sizeof *m.current),
                      xcalloc(threads, sizeof *m.at)};
    int status = merge_events(&m, a, show_progress, selected, anchor, err, errsize);
    for (unsigned k = 0; k < started; k++) {
        struct reader *r = &readers[k];
        pthread_mutex_lock(&r->lock);
        r->stop = 1;
        pthread_cond_broadcast(&r->cond);
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->cond);
        free(r->batches);
    }
    free(m.current);
    free(m.at);
    free(shares);
    free(readers);
    return status;
}

unsigned archive_default_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}
