/* The parallel event read (archive_par.h): shares of the locations
 * decoded by a pool of threads, and the merge that replays their records
 * in the serial order. */
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
/* Batches queued between all the shares and the merge (local_batches). */
#define LOCAL_RING_BATCHES 64u

const struct archive_distribution *archive_distribution;

/* --- decoding a share ----------------------------------------------- */

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

/* Opens the reader's locations for OTF2's global reader; leaves
 * r->events NULL if none has an event (or on a failure, in r->end). */
static void open_events(struct reader *r)
{
    uint32_t opened = 0;
    for (uint32_t i = 0; i < r->nlocations; i++) {
        int status = open_event_reader(r->otf2, r->ranks->location_list[r->locations[i]]->ref);
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
    r->events = OTF2_Reader_GetGlobalEvtReader(r->otf2);
    if (!r->events) {
        setup_failed(r, "cannot set up the event reader", OTF2_SUCCESS);
        return;
    }
    OTF2_ErrorCode rc = archive_register_records(r->otf2, r->events, r);
    if (rc != OTF2_SUCCESS) {
        r->end.failure = READER_READ;
        r->end.rc = rc;
        archive_errors_take(&r->end.errors);
    }
}

/* The share's OTF2 reader, up to its first event; returns whether there
 * are events to read. */
static int share_open(struct reader *r)
{
    r->fill = &r->batches[r->published % r->nbatches];
    r->fill->n = 0;
    r->fill->skipped = 0;
    r->fill->last = 0;
    r->otf2 = OTF2_Reader_Open(r->anchor);
    if (!r->otf2) {
        setup_failed(r, "not a readable OTF2 archive", OTF2_SUCCESS);
        return 0;
    }
    OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(r->otf2);
    if (rc == OTF2_SUCCESS) {
        OTF2_Boolean global_reader = OTF2_TRUE;
        rc = OTF2_Reader_SetHint(r->otf2, OTF2_HINT_GLOBAL_READER, &global_reader);
    }
    for (uint32_t i = 0; i < r->nlocations && rc == OTF2_SUCCESS; i++)
        rc = OTF2_Reader_SelectLocation(r->otf2, r->ranks->location_list[r->locations[i]]->ref);
    if (rc != OTF2_SUCCESS) {
        setup_failed(r, "cannot set up the OTF2 reader", rc);
    } else if ((rc = read_local_definitions(r->otf2, r)) != OTF2_SUCCESS) {
        setup_failed(r, "cannot read the local definitions", rc);
    } else if ((rc = OTF2_Reader_OpenEvtFiles(r->otf2)) != OTF2_SUCCESS) {
        setup_failed(r, "cannot open the event files", rc);
    } else {
        r->opened = 1;
        open_events(r);
    }
    return r->events && r->end.failure == READER_OK;
}

/* Closes what share_open opened; the last batch follows. */
static void share_close(struct reader *r)
{
    if (r->events)
        OTF2_Reader_CloseGlobalEvtReader(r->otf2, r->events);
    if (r->opened) {
        OTF2_ErrorCode rc = OTF2_Reader_CloseEvtFiles(r->otf2);
        if (rc != OTF2_SUCCESS && r->end.failure == READER_OK)
            setup_failed(r, "cannot close the event files", rc);
    }
    if (r->otf2)
        OTF2_Reader_Close(r->otf2);
    r->events = NULL;
    r->otf2 = NULL;
    r->opened = 0;
}

/* Up to READ_CHUNK events into the batches; returns whether more may
 * come.  Any thread may take the next step of a share: errors OTF2 met
 * are the step's own (errors end the share). */
static int share_step(struct reader *r)
{
    struct otf2_errors ignored;
    archive_errors_take(&ignored);
    uint64_t n = 0;
    r->appended = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadGlobalEvents(r->otf2, r->events, READ_CHUNK, &n);
    /* On an error, OTF2 does not count the event it delivered last (the
     * failure is reading the one after it). */
    uint64_t read = rc == OTF2_SUCCESS || rc == OTF2_ERROR_INTERRUPTED_BY_CALLBACK ? n : n + 1;
    if (read > r->appended)
        r->fill->skipped += read - r->appended;
    if (rc != OTF2_SUCCESS && rc != OTF2_ERROR_INTERRUPTED_BY_CALLBACK) {
        r->end.failure = READER_READ;
        r->end.rc = rc;
        archive_errors_take(&r->end.errors);
    }
    return rc == OTF2_SUCCESS && n == READ_CHUNK;
}

/* The share is read: the batch being filled is its last. */
static void share_finish(struct reader *r)
{
    share_close(r);
    r->fill->last = 1;
    r->fill->end = r->end;
    r->publish(r, 1);
}

void archive_read_share(struct reader *r)
{
    if (share_open(r))
        while (share_step(r))
            ;
    share_finish(r);
}

/* --- the pool of decoding threads ------------------------------------- */

/* The shares of this process and the threads that decode them: helper
 * threads, and the merging thread itself whenever the share it needs
 * next has nothing queued.  --threads N makes N - 1 helpers, so N threads
 * share N CPUs: no thread waits for a CPU while another waits for it, as
 * when N readers and the merge ran on N CPUs.  A thread takes a step of
 * the share with the fewest batches queued that has room for two more and
 * nobody at it; a share is decoded by one thread at a time. */
struct share_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* helpers wait for room */
    pthread_cond_t ready; /* the merge waits for a batch */
    struct reader *shares;
    unsigned n;
    unsigned helpers_waiting;
    int merge_waits, stop;
};

/* share_publish of a share of this process.  Never waits: a step starts
 * only with room for the batch it may complete. */
static void publish_pooled(struct reader *r, int last)
{
    struct share_pool *p = r->pool;
    pthread_mutex_lock(&p->lock);
    r->published++;
    if (last)
        r->done = 1;
    if (p->merge_waits)
        pthread_cond_signal(&p->ready);
    uint64_t next = r->published;
    pthread_mutex_unlock(&p->lock);
    if (!last) {
        r->fill = &r->batches[next % r->nbatches];
        r->fill->n = 0;
        r->fill->skipped = 0;
        r->fill->last = 0;
    }
}

/* One step of r, by the calling thread (r->busy set, the lock not held). */
static void step(struct reader *r)
{
    if (!(r->otf2 ? share_step(r) : share_open(r)))
        share_finish(r);
}

/* Under the lock: whether a step of r may start now (room for the batch
 * being filled and one more). */
static int steppable(const struct reader *r)
{
    return !r->done && !r->busy && r->published - r->released + 2 <= r->nbatches;
}

static void *helper_main(void *arg)
{
    struct share_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct reader *best = NULL;
        unsigned local = 0, done = 0;
        for (unsigned k = 0; k < p->n; k++) {
            struct reader *r = &p->shares[k];
            if (r->pool != p)
                continue; /* another rank's (archive_mpi.c) */
            local++;
            done += r->done;
            if (steppable(r)
                && (!best || r->published - r->released < best->published - best->released))
                best = r;
        }
        if (!best) {
            if (done == local)
                break;
            p->helpers_waiting++;
            pthread_cond_wait(&p->work, &p->lock);
            p->helpers_waiting--;
            continue;
        }
        best->busy = 1;
        pthread_mutex_unlock(&p->lock);
        step(best);
        pthread_mutex_lock(&p->lock);
        best->busy = 0;
        if (p->merge_waits)
            pthread_cond_signal(&p->ready);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* --- the merge --------------------------------------------------------- */

/* share_next of a share of this process: its next batch, decoded here if
 * none is queued and no helper is at it. */
static struct batch *next_pooled(struct reader *r, int release, uint64_t *events)
{
    struct share_pool *p = r->pool;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        if (release) {
            r->released++;
            release = 0;
            if (p->helpers_waiting)
                pthread_cond_signal(&p->work);
        }
        if (r->published > r->released) {
            struct batch *b = &r->batches[r->released % r->nbatches];
            *events += b->skipped;
            if (b->n) {
                pthread_mutex_unlock(&p->lock);
                return b;
            }
            release = 1;
        } else if (r->done) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        } else if (!r->busy) {
            r->busy = 1;
            pthread_mutex_unlock(&p->lock);
            step(r);
            pthread_mutex_lock(&p->lock);
            r->busy = 0;
        } else {
            p->merge_waits = 1;
            pthread_cond_wait(&p->ready, &p->lock);
            p->merge_waits = 0;
        }
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

/* The ring of a share decoded here: 32 batches for each of two shares
 * (5 ms of the merge's work), the memory bounded for any N. */
static size_t local_batches(unsigned shares)
{
    size_t per = LOCAL_RING_BATCHES / shares;
    return per > BATCHES ? per : BATCHES;
}

int archive_read_parallel(struct analysis *a, const char *anchor, const uint8_t *selected,
                          unsigned threads, int show_progress, char *err, size_t errsize)
{
    const struct archive_distribution *d = archive_distribution;
    const unsigned n = d ? d->shares : threads;
    struct reader *readers = xcalloc(n, sizeof *readers);
    /* Round robin over the locations in list order: neighbouring ranks,
     * which often have similar event counts, go to different shares.
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
    /* In rank 0, share 0 is decoded here and the others come from their
     * ranks; without MPI, every share is decoded here.  Batches: a ring
     * for a share decoded here, BATCHES for a rank's own share, two to
     * receive another rank's into (rank 0), none for the shares of
     * others (the other ranks). */
    struct share_pool pool = {.shares = readers, .n = n};
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.work, NULL);
    pthread_cond_init(&pool.ready, NULL);
    for (unsigned k = 0; k < n; k++) {
        struct reader *r = &readers[k];
        r->anchor = anchor;
        r->ranks = &a->ranks;
        r->rank = (int)k;
        int local = !d || k == 0;
        r->pool = local ? &pool : NULL;
        r->publish = local ? publish_pooled : d->publish;
        r->next = local ? next_pooled : d->next;
        size_t nbatches = !d ? local_batches(n) : k == d->self ? BATCHES : d->self == 0 ? 2 : 0;
        r->nbatches = (uint32_t)nbatches;
        r->batches = nbatches ? xmalloc(nbatches * sizeof *r->batches) : NULL;
    }
    int status = 0;
    if (d && d->self != 0) {
        archive_read_share(&readers[d->self]);
    } else {
        unsigned helpers = d ? 1 : n - 1; /* with MPI, rank 0's share has one */
        pthread_t *threads_started = xcalloc(helpers ? helpers : 1, sizeof *threads_started);
        for (unsigned k = 0; k < helpers; k++)
            if (pthread_create(&threads_started[k], NULL, helper_main, &pool) != 0)
                fail_exit("cannot start a thread");
        struct merge m = {readers, n, xcalloc(n, sizeof *m.current),
                          xcalloc(n, sizeof *m.cursors)};
        status = merge_events(&m, a, show_progress, selected, anchor, err, errsize);
        for (unsigned k = 1; d && k < n; k++) /* stopped by an error: the ranks' batches */
            while (readers[k].next(&readers[k], 0, &(uint64_t){0})) {}
        pthread_mutex_lock(&pool.lock);
        pool.stop = 1;
        pthread_cond_broadcast(&pool.work);
        pthread_mutex_unlock(&pool.lock);
        for (unsigned k = 0; k < helpers; k++)
            pthread_join(threads_started[k], NULL);
        /* Shares the merge stopped reading (on an error) are still open. */
        for (unsigned k = 0; k < n; k++)
            if (readers[k].pool)
                share_close(&readers[k]);
        free(threads_started);
        free(m.current);
        free(m.cursors);
    }
    pthread_cond_destroy(&pool.ready);
    pthread_cond_destroy(&pool.work);
    pthread_mutex_destroy(&pool.lock);
    for (unsigned k = 0; k < n; k++)
        free(readers[k].batches);
    free(shares);
    free(readers);
    return status;
}
