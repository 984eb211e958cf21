/* The parallel event read (archive_par.h): reader threads that decode,
 * and the merge that replays their records in the serial order. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <otf2/otf2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze/archive_events.h"
#include "analyze/archive_par.h"
#include "analyze/archive_share.h"
#include "analyze/fail.h"
#include "analyze/progress.h"

/* Events asked of OTF2 per call in a reader. */
#define READ_CHUNK 4096u
/* The serial loop's batch: progress and the runaway check (archive.c). */
#define EVENT_BATCH (1u << 20)
/* Batches queued between all reader threads and the merge (local_batches). */
#define LOCAL_RING_BATCHES 64u

const struct archive_distribution *archive_distribution;

/* --- the reader threads ------------------------------------------------ */

/* share_publish within this process: unless it is the last, waits for a
 * free batch.  A reader that finds its ring full sleeps until the merge has
 * emptied half of it, not just one batch: readers decode faster than the
 * merge replays, and waking one per batch costs two context switches per
 * 4096 records.  Only a sleeper is signalled: no futex call otherwise. */
static int publish_local(struct reader *r, int last)
{
    pthread_mutex_lock(&r->lock);
    r->published++;
    if (last)
        r->done = 1;
    if (r->merge_waits)
        pthread_cond_signal(&r->cond);
    if (!last && !r->stop && r->published - r->released >= r->nbatches) {
        r->reader_waits = 1;
        while (!r->stop && r->published - r->released > r->nbatches / 2)
            pthread_cond_wait(&r->cond, &r->lock);
        r->reader_waits = 0;
    }
    int stop = r->stop;
    uint64_t next = r->published;
    pthread_mutex_unlock(&r->lock);
    if (!last) {
        r->fill = &r->batches[next % r->nbatches];
        r->fill->n = 0;
        r->fill->skipped = 0;
        r->fill->last = 0;
    }
    return stop ? -1 : 0;
}

static void setup_failed(struct reader *r, const char *doing, OTF2_ErrorCode rc)
{
    r->end.failure = READER_SETUP;
    snprintf(r->end.doing, sizeof r->end.doing, "%s", doing);
    r->end.rc = rc;
    archive_errors_take(&r->end.errors);
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
            r->end.failure = READER_OPEN;
            r->end.failed_index = r->locations[i];
            r->end.failed_status = status;
            archive_errors_take(&r->end.errors);
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
    OTF2_ErrorCode rc = archive_register_records(reader, events, r);
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
        r->end.failure = READER_READ;
        r->end.rc = rc;
        archive_errors_take(&r->end.errors);
    }
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
}

static void read_share(struct reader *r)
{
    r->fill = &r->batches[0];
    r->fill->n = 0;
    r->fill->skipped = 0;
    r->fill->last = 0;
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
        if (rc != OTF2_SUCCESS && r->end.failure == READER_OK)
            setup_failed(r, "cannot close the event files", rc);
    }
    OTF2_Reader_Close(reader);
}

void archive_read_share(struct reader *r)
{
    read_share(r);
    r->fill->last = 1;
    r->fill->end = r->end;
    r->publish(r, 1);
}

static void *reader_main(void *arg)
{
    archive_read_share(arg);
    return NULL;
}

/* --- the merge --------------------------------------------------------- */

/* share_next within this process. */
static struct batch *next_local(struct reader *r, int release, uint64_t *events)
{
    for (;;) {
        pthread_mutex_lock(&r->lock);
        if (release) {
            r->released++;
            if (r->reader_waits && r->published - r->released <= r->nbatches / 2)
                pthread_cond_signal(&r->cond);
        }
        if (r->published == r->released && !r->done) {
            r->merge_waits = 1;
            while (r->published == r->released && !r->done)
                pthread_cond_wait(&r->cond, &r->lock);
            r->merge_waits = 0;
        }
        struct batch *b =
            r->published > r->released ? &r->batches[r->released % r->nbatches] : NULL;
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

/* A reader's records not yet replayed: [at, end) of its current batch;
 * at is NULL once the reader is done. */
struct cursor {
    const struct record *at, *end;
};

struct merge {
    struct reader *readers;
    unsigned n;
    struct batch **current; /* per reader; NULL when done */
    struct cursor *cursors; /* per reader */
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
        if (r->end.failure == READER_SETUP)
            return archive_report(&r->end.errors, err, errsize, anchor, r->end.doing, r->end.rc);
        if (r->end.failure == READER_OPEN
            && (!first || r->end.failed_index < first->end.failed_index))
            first = r;
    }
    if (!first)
        return 0;
    char doing[96];
    snprintf(doing, sizeof doing, "cannot %s the events of location %" PRIu64,
             first->end.failed_status == -1 ? "open" : "read",
             first->ranks->location_list[first->end.failed_index]->ref);
    return archive_report(&first->end.errors, err, errsize, anchor, doing, OTF2_SUCCESS);
}

/* Reader k's next batch once its cursor reached the end of the current
 * one; returns the reader if its share ended in a read error. */
static const struct reader *next_batch(struct merge *m, unsigned k, uint64_t *events)
{
    struct cursor *c = &m->cursors[k];
    if (!c->at || c->at != c->end)
        return NULL;
    struct reader *reader = &m->readers[k];
    const struct batch *b = m->current[k] = reader->next(reader, 1, events);
    c->at = b ? b->records : NULL;
    c->end = b ? b->records + b->n : NULL;
    return !b && reader->end.failure == READER_READ ? reader : NULL;
}

static int merge_events(struct merge *m, struct analysis *a, int show_progress,
                        const uint8_t *selected, const char *anchor, char *err, size_t errsize)
{
    uint64_t events = 0;
    struct cursor *const cursors = m->cursors;
    const unsigned n = m->n;
    for (unsigned k = 0; k < n; k++) {
        m->current[k] = m->readers[k].next(&m->readers[k], 0, &events);
        const struct batch *b = m->current[k];
        cursors[k].at = b ? b->records : NULL;
        cursors[k].end = b ? b->records + b->n : NULL;
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
        /* Here events < boundary. */
        uint64_t room = boundary - events;
        if (n == 2 && cursors[0].at && cursors[1].at) {
            /* Two readers (--threads 2, the default on 2 CPUs): a plain
             * merge of two sorted runs, with its state in registers. */
            const struct record *x = cursors[0].at, *xend = cursors[0].end;
            const struct record *y = cursors[1].at, *yend = cursors[1].end;
            uint64_t done = 0;
            while (x < xend && y < yend && done < room) {
                replay(a, before(y, x) ? y++ : x++);
                done++;
            }
            events += done;
            cursors[0].at = x;
            cursors[1].at = y;
            if ((failed = next_batch(m, 0, &events)) || (failed = next_batch(m, 1, &events)))
                break;
        } else {
            /* The earliest record (of reader best), and the earliest of
             * the other readers' (bound): the run before bound is replayed
             * without looking at the others again. */
            unsigned best = n;
            const struct record *first = NULL, *bound = NULL;
            for (unsigned k = 0; k < n; k++) {
                const struct record *e = cursors[k].at;
                if (!e)
                    continue;
                if (!first || before(e, first))
                    bound = first, first = e, best = k;
                else if (!bound || before(e, bound))
                    bound = e;
            }
            if (!first)
                break;
            const struct record *r = first, *end = cursors[best].end;
            if ((uint64_t)(end - r) > room)
                end = r + room;
            do
                replay(a, r++);
            while (r < end && (!bound || before(r, bound)));
            events += (uint64_t)(r - first);
            cursors[best].at = r;
            if ((failed = next_batch(m, best, &events)))
                break;
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
        return archive_report(&failed->end.errors, err, errsize, anchor, doing, failed->end.rc);
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
        if (r->end.failure == READER_SETUP)
            return archive_report(&r->end.errors, err, errsize, anchor, r->end.doing, r->end.rc);
    }
    return 0;
}

/* The ring of a reader thread.  The threads share the CPUs with the
 * merge, and the scheduler gives each a slice of milliseconds: while a
 * reader is off its CPU the merge lives on what it has queued.  With 4
 * batches each (0.7 ms of the merge's work) the 3 threads of --threads 2
 * slept 900 to 2400 times on the 2500 batches of the 10 M-event ring; with
 * 32 (6 MB, 5 ms), about 100.  LOCAL_RING_BATCHES over all readers bounds
 * the memory whatever the number of threads. */
static size_t local_batches(unsigned readers)
{
    size_t per = LOCAL_RING_BATCHES / readers;
    return per > BATCHES ? per : BATCHES;
}

int archive_read_parallel(struct analysis *a, const char *anchor, const uint8_t *selected,
                          unsigned threads, int show_progress, char *err, size_t errsize)
{
    const struct archive_distribution *d = archive_distribution;
    const unsigned n = d ? d->shares : threads;
    struct reader *readers = xcalloc(n, sizeof *readers);
    /* Round robin over the locations in list order: neighbouring ranks,
     * which often have similar event counts, go to different readers.
     * Every MPI rank computes the same shares. */
    uint32_t nselected = 0;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++)
        nselected += selected[i] != 0;
    uint32_t per = (nselected + n - 1) / n, s = 0;
    uint32_t *shares = xcalloc((size_t)n * per + 1, sizeof *shares);
    for (unsigned k = 0; k < n; k++)
        readers[k].locations = shares + (size_t)k * per;
    for (uint32_t i = 0; i < a->ranks.nlocations; i++) {
        if (!selected[i])
            continue;
        struct reader *r = &readers[s++ % n];
        r->locations[r->nlocations++] = i;
    }
    for (unsigned k = 0; k < n; k++) {
        struct reader *r = &readers[k];
        r->anchor = anchor;
        r->ranks = &a->ranks;
        r->rank = (int)k;
        pthread_mutex_init(&r->lock, NULL);
        pthread_cond_init(&r->cond, NULL);
        /* In rank 0, share 0 is read by a thread, the others come from
         * their ranks; without MPI, every share is a thread.  Batches: a
         * ring for a share read here, two to receive another rank's into
         * (rank 0), none for the shares of others (the other ranks). */
        int local = !d || k == 0;
        r->publish = local ? publish_local : d->publish;
        r->next = local ? next_local : d->next;
        size_t nbatches = !d ? local_batches(n) : k == d->self ? BATCHES : d->self == 0 ? 2 : 0;
        r->nbatches = (uint32_t)nbatches;
        r->batches = nbatches ? xmalloc(nbatches * sizeof *r->batches) : NULL;
    }
    int status = 0;
    if (d && d->self != 0) {
        archive_read_share(&readers[d->self]);
    } else {
        unsigned started = 0;
        for (unsigned k = 0; k < n; k++) {
            if (readers[k].next != next_local)
                continue;
            if (pthread_create(&readers[k].thread, NULL, reader_main, &readers[k]) != 0)
                fail_exit("cannot start a reader thread");
            started++;
        }
        struct merge m = {readers, n, xcalloc(n, sizeof *m.current),
                          xcalloc(n, sizeof *m.cursors)};
        status = merge_events(&m, a, show_progress, selected, anchor, err, errsize);
        for (unsigned k = 0; k < n && started; k++) {
            struct reader *r = &readers[k];
            if (r->next != next_local)
                continue;
            pthread_mutex_lock(&r->lock);
            r->stop = 1;
            pthread_cond_broadcast(&r->cond);
            pthread_mutex_unlock(&r->lock);
            pthread_join(r->thread, NULL);
        }
        free(m.current);
        free(m.cursors);
    }
    for (unsigned k = 0; k < n; k++) {
        pthread_mutex_destroy(&readers[k].lock);
        pthread_cond_destroy(&readers[k].cond);
        free(readers[k].batches);
    }
    free(shares);
    free(readers);
    return status;
}
