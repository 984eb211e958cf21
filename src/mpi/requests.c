#include "mpi/requests.h"

#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "runtime/runtime.h"
#include "mpi/messages.h"
#include "mpi/ranks.h"
#include "mpi/state.h"
#include "mpi/thread_data.h"
#include "trace/mpi_events.h"

/* MPI_Request is a pointer in Open MPI and an int in MPICH. */
static uint64_t handle_key(MPI_Request h)
{
    uint64_t k = 0;
    memcpy(&k, &h, sizeof h < sizeof k ? sizeof h : sizeof k);
    k *= 0x9E3779B97F4A7C15ull;
    return k ^ (k >> 29);
}

static bool same_handle(MPI_Request a, MPI_Request b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static struct ht_request_table *table_of(struct ht_thread *t)
{
    struct ht_mpi_thread *m = ht_mpi_thread_data(t);
    return m ? &m->requests : NULL;
}

/* The owner reads both without its lock (ht_mpi_call_begin, the hooks);
 * other threads write them under it (requests_shared.c). */
static void set_active_count(struct ht_thread *t, struct ht_request_table *tab, size_t active)
{
    __atomic_store_n(&tab->active, active, __ATOMIC_RELAXED);
    uint16_t poll = (active | __atomic_load_n(&tab->handed, __ATOMIC_RELAXED)) != 0;
    __atomic_store_n(&t->poll_requests, poll, __ATOMIC_RELAXED);
}

static bool index_grow(struct ht_request_table *tab)
{
    size_t size = tab->index ? (tab->index_mask + 1) * 2 : 256;
    uint32_t *index = calloc(size, sizeof *index);
    if (!index)
        return false;
    free(tab->index);
    tab->index = index;
    tab->index_mask = size - 1;
    for (size_t i = 0; i < tab->count; i++) {
        size_t s = handle_key(tab->entries[i].handle) & tab->index_mask;
        while (index[s])
            s = (s + 1) & tab->index_mask;
        index[s] = (uint32_t)i + 1;
    }
    return true;
}

/* The index slot holding position pos + 1, or of handle if pos is unknown. */
static size_t slot_of(const struct ht_request_table *tab, MPI_Request handle)
{
    size_t s = handle_key(handle) & tab->index_mask;
    while (tab->index[s] && !same_handle(tab->entries[tab->index[s] - 1].handle, handle))
        s = (s + 1) & tab->index_mask;
    return s;
}

struct ht_request *ht_request_find(struct ht_thread *t, MPI_Request handle)
{
    struct ht_request_table *tab = t->mpi ? &t->mpi->requests : NULL;
    if (!tab || !tab->index || handle == MPI_REQUEST_NULL)
        return NULL;
    size_t s = slot_of(tab, handle);
    return tab->index[s] ? &tab->entries[tab->index[s] - 1] : NULL;
}

/* A new last entry for handle, its contents left to the caller. */
static inline __attribute__((always_inline)) struct ht_request *
append(struct ht_request_table *tab, MPI_Request handle)
{
    if ((tab->count + 1) * 2 > (tab->index ? tab->index_mask + 1 : 0) && !index_grow(tab))
        return NULL;
    if (tab->count == tab->capacity) {
        size_t cap = tab->capacity ? tab->capacity * 2 : 64;
        struct ht_request *bigger = realloc(tab->entries, cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        tab->entries = bigger;
        tab->capacity = cap;
    }
    struct ht_request *r = &tab->entries[tab->count];
    r->handle = handle;
    tab->index[slot_of(tab, handle)] = (uint32_t)++tab->count;
    return r;
}

struct ht_request *ht_request_add(struct ht_thread *t, MPI_Request handle, uint64_t start)
{
    struct ht_request_table *tab = table_of(t);
    if (!tab || handle == MPI_REQUEST_NULL)
        return NULL;
    struct ht_request *old = ht_request_find(t, handle);
    if (old) {
        /* Handles are not unique: for a send it finished on the spot, Open
         * MPI returns one shared, already complete request
         * (ompi_request_empty), and MPICH has built-in complete requests
         * too.  A handle we hold already therefore means that operation is
         * complete: count it now, as complete when the call that returned
         * the handle again began (not later: the new operation's start is
         * recorded at that tick, and a thread's events keep time order).
         * A receive never comes back this way; if one does, its status is
         * unknown and it is dropped. */
        if (!ht_request_needs_status(old) && old->active) {
            MPI_Status unused;
            memset(&unused, 0, sizeof unused);
            old->persistent = false;
            ht_request_complete(t, old, &unused, start > old->start ? start : old->start);
        } else {
            ht_request_remove(t, old);
        }
    }
    struct ht_request *r = append(tab, handle);
    if (r) {
        memset(r, 0, sizeof *r);
        r->handle = handle;
        r->peer = -1;
    }
    return r;
}

bool ht_request_insert(struct ht_thread *t, const struct ht_request *src)
{
    /* Not table_of: t is another thread, whose data exists (the entry came
     * from its table) and is not to be set up from here. */
    struct ht_request_table *tab = &t->mpi->requests;
    if (ht_request_find(t, src->handle))
        return false;
    struct ht_request *r = append(tab, src->handle);
    if (!r)
        return false;
    *r = *src;
    if (r->active)
        set_active_count(t, tab, tab->active + 1);
    return true;
}

static void trace_started(struct ht_thread *t, struct ht_request *r, uint64_t now)
{
    enum ht_trace_request_kind kind = r->kind == HT_REQUEST_SEND   ? HT_TRACE_ISEND
                                      : r->kind == HT_REQUEST_RECV ? HT_TRACE_IRECV
                                                                   : HT_TRACE_COLLECTIVE;
    r->trace_id = ht_trace_mpi_request_started(t, kind, r->trace_comm, r->trace_peer, r->trace_tag,
                                               r->bytes, now);
}

/* An activation started on another thread, which cannot write this
 * thread's trace (requests_shared.c): its start event, written by the
 * owner when it records the completion, at the same tick. */
static void trace_late_start(struct ht_thread *t, struct ht_request *r, uint64_t now)
{
    if (r->trace_start_pending && r->traced && t->tracing && t == ht_thread_self)
        trace_started(t, r, now);
    r->trace_start_pending = false;
}

void ht_request_activated(struct ht_thread *t, struct ht_request *r, uint64_t now)
{
    struct ht_request_table *tab = &t->mpi->requests;
    r->start = now;
    if (!r->active) {
        r->active = true;
        set_active_count(t, tab, tab->active + 1);
    }
    /* At the start of the routine, like a blocking send (mpi_events.c). */
    r->trace_start_pending = false;
    if (r->traced && t->tracing)
        trace_started(t, r, now);
}

/* Removal keeps both the array dense (the last entry moves into the hole)
 * and the index free of tombstones (backward-shift deletion). */
static inline __attribute__((always_inline)) void unlink_entry(struct ht_thread *t,
                                                               struct ht_request *r)
{
    struct ht_request_table *tab = &t->mpi->requests;
    size_t pos = (size_t)(r - tab->entries);
    if (r->active)
        set_active_count(t, tab, tab->active - 1);

    size_t hole = slot_of(tab, r->handle);
    tab->index[hole] = 0;
    for (size_t s = (hole + 1) & tab->index_mask; tab->index[s]; s = (s + 1) & tab->index_mask) {
        size_t home = handle_key(tab->entries[tab->index[s] - 1].handle) & tab->index_mask;
        /* Move s into the hole unless its home lies cyclically in (hole, s]. */
        bool stays = hole <= s ? (home > hole && home <= s) : (home > hole || home <= s);
        if (!stays) {
            tab->index[hole] = tab->index[s];
            tab->index[s] = 0;
            hole = s;
        }
    }
    size_t last = tab->count - 1;
    if (pos != last) {
        tab->entries[pos] = tab->entries[last];
        tab->index[slot_of(tab, tab->entries[pos].handle)] = (uint32_t)pos + 1;
    }
    tab->count--;
    if (tab->cursor >= tab->count)
        tab->cursor = 0;
}

void ht_request_remove(struct ht_thread *t, struct ht_request *r)
{
    free(r->pairs);
    ht_mpi_rank_map_put(r->map);
    unlink_entry(t, r);
}

void ht_request_detach(struct ht_thread *t, struct ht_request *r, struct ht_request *out)
{
    *out = *r;
    unlink_entry(t, r);
}

static void record(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                   uint64_t now)
{
    switch (r->kind) {
    case HT_REQUEST_SEND:
        ht_mpi_message(t, r->node, true, false, r->peer, r->bytes, r->start, now);
        break;
    case HT_REQUEST_RECV: {
        int peer = r->peer >= 0 ? r->peer : ht_mpi_rank_map_world(r->map, st->MPI_SOURCE);
        uint64_t bytes = r->sized ? r->bytes : ht_mpi_status_bytes(st);
        ht_mpi_message(t, r->node, false, false, peer, bytes, r->start, now);
        break;
    }
    case HT_REQUEST_SENDRECV: {
        ht_mpi_message(t, r->node, true, false, r->peer, r->bytes, r->start, now);
        int peer = r->map ? ht_mpi_rank_map_world(r->map, st->MPI_SOURCE) : r->recv_peer;
        uint64_t bytes = r->sized ? r->recv_bytes : ht_mpi_status_bytes(st);
        ht_mpi_message(t, r->node, false, false, peer, bytes, r->start, now);
        break;
    }
    case HT_REQUEST_PAIRS:
        for (uint32_t i = 0; i < r->npairs; i++) {
            const struct ht_pair *p = &r->pairs[i];
            ht_mpi_message(t, r->node, p->send, p->collective, p->peer, p->bytes, r->start, now);
        }
        break;
    case HT_REQUEST_GROUP: {
        const struct ht_group_messages *g =
            ht_mpi_group_message(t, r->node, &r->group, r->start, now);
        r->group_peers = g ? g->peers : 0;
        break;
    }
    }
}

/* The trace event that ends the request's current activation. */
static void trace_done(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                       bool cancelled, uint64_t now)
{
    if (cancelled) {
        ht_trace_mpi_request_cancelled(t, r->trace_id, now);
    } else if (r->kind == HT_REQUEST_SEND) {
        ht_trace_mpi_isend_done(t, r->trace_id, now);
    } else if (r->kind == HT_REQUEST_RECV && r->sized) {
        ht_trace_mpi_irecv_done(t, r->trace_id, r->trace_comm, r->trace_peer, r->trace_tag,
                                r->bytes, now);
    } else if (r->kind == HT_REQUEST_RECV) {
        ht_trace_mpi_irecv_done(t, r->trace_id, r->trace_comm, st->MPI_SOURCE, st->MPI_TAG,
                                ht_mpi_status_bytes(st), now);
    } else {
        uint64_t sent, received;
        if (r->kind == HT_REQUEST_GROUP) {
            sent = r->group_peers * r->group.send_bytes;
            received = r->group_peers * r->group.recv_bytes;
        } else {
            ht_pair_bytes(r->pairs, r->npairs, &sent, &received);
        }
        ht_trace_mpi_collective_done(t, r->trace_id, r->node, r->trace_comm, r->trace_root, sent,
                                     received, now);
    }
    r->trace_id = 0;
}

void ht_request_complete(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                         uint64_t now)
{
    if (!r->active)
        return;
    /* A receive is asked even unmarked: MPI_Cancel's mark cannot reach an
     * entry another thread's Test/Wait holds out of every table
     * (requests_shared.c), which then comes back here unmarked, complete
     * and cancelled.  The question costs a few instructions, far less
     * than making claimed entries reachable by other threads.  A send is
     * never cancelled by Open MPI 4.1 or MPICH 4.0 (cancel.c). */
    int cancelled = 0;
    if (r->cancelled || r->kind == HT_REQUEST_RECV)
        PMPI_Test_cancelled(st, &cancelled);
    if (!cancelled)
        record(t, r, st, now);
    if (HT_UNLIKELY(r->trace_start_pending))
        trace_late_start(t, r, now);
    if (r->trace_id && t->tracing)
        trace_done(t, r, st, cancelled != 0, now);
    if (r->persistent) {
        r->active = false;
        r->cancelled = false;
        set_active_count(t, &t->mpi->requests, t->mpi->requests.active - 1);
    } else {
        ht_request_remove(t, r);
    }
}

void ht_request_handle_done(struct ht_thread *t, MPI_Request handle, const MPI_Status *st,
                            uint64_t now)
{
    bool locked = ht_requests_lock(t);
    struct ht_request *r = ht_request_find(t, handle);
    if (r)
        ht_request_complete(t, r, st, now);
    ht_requests_unlock(t, locked);
    /* Claims are the thread's own: no lock held while it takes the
     * owner's (two threads each completing the other's requests). */
    if (!r && HT_UNLIKELY(t->mpi->nclaims) && (r = ht_request_claimed(t, handle)))
        ht_request_claim_done(t, r, st, now);
}

size_t ht_request_drain_handoffs(struct ht_thread *t)
{
    struct ht_request_table *tab = &t->mpi->requests;
    struct ht_handoff *h = tab->handoffs, *fifo = NULL, *next;
    if (!h)
        return 0;
    tab->handoffs = NULL;
    __atomic_store_n(&tab->handed, 0, __ATOMIC_RELAXED);
    set_active_count(t, tab, tab->active);
    for (; h; h = next) { /* pushed newest first: recorded in completion order */
        next = h->next;
        h->next = fifo;
        fifo = h;
    }
    /* The figures carry the completion's own tick; a trace event can only
     * be written by the owner, in its own time order: now. */
    bool trace = t == ht_thread_self && t->tracing;
    size_t n = 0;
    for (h = fifo; h; h = next, n++) {
        next = h->next;
        if (!h->cancelled)
            record(t, &h->r, &h->status, h->end);
        if (trace) {
            uint64_t now = ht_clock_now();
            trace_late_start(t, &h->r, now);
            if (h->r.trace_id)
                trace_done(t, &h->r, &h->status, h->cancelled, now);
        }
        free(h->r.pairs);
        ht_mpi_rank_map_put(h->r.map);
        free(h);
    }
    return n;
}

bool ht_request_take(struct ht_thread *t, MPI_Request handle)
{
    bool locked = ht_requests_lock(t);
    struct ht_request *r = ht_request_find(t, handle);
    if (!r && HT_UNLIKELY(t->mpi->nclaims))
        r = ht_request_claimed(t, handle); /* goes back to its owner, taken */
    bool take = r && r->active && r->cancelled;
    if (take) {
        r->taken = true;
        r->persistent = false; /* freed: completing it removes it */
    }
    ht_requests_unlock(t, locked);
    return take;
}

/* Drops an entry; a taken request is freed in MPI as the program asked. */
static void drop(struct ht_thread *t, struct ht_request *r)
{
    if (r->taken) {
        MPI_Request h = r->handle;
        PMPI_Request_free(&h);
    }
    ht_request_remove(t, r);
}

/* The thread's table locked (shared mode). */
static size_t poll_table(struct ht_thread *t, uint64_t now, size_t budget)
{
    struct ht_mpi_thread *m = t->mpi;
    struct ht_request_table *tab = &m->requests;
    size_t completed = ht_request_drain_handoffs(t);
    m->last_poll = now;
    m->in_mpi = 1; /* an instrumented callback inside MPI must not poll again */
    for (size_t seen = 0; seen < tab->count && budget > 0 && tab->active > 0; seen++) {
        if (tab->cursor >= tab->count)
            tab->cursor = 0;
        struct ht_request *r = &tab->entries[tab->cursor];
        if (!r->active) {
            tab->cursor++;
            continue;
        }
        budget--;
        int done = 0;
        MPI_Status st;
        if (PMPI_Request_get_status(r->handle, &done, &st) == MPI_SUCCESS && done) {
            /* Completion removes the entry or moves another into its place:
             * look at this position again next. */
            MPI_Request taken = r->taken ? r->handle : MPI_REQUEST_NULL;
            ht_request_complete(t, r, &st, ht_clock_now());
            if (taken != MPI_REQUEST_NULL)
                PMPI_Request_free(&taken);
            completed++;
        } else {
            tab->cursor++;
        }
    }
    m->in_mpi = 0;
    return completed;
}

size_t ht_request_poll(struct ht_thread *t, uint64_t now, size_t budget)
{
    struct ht_mpi_thread *m = t->mpi;
    if (!m || m->in_mpi || !ht_world.initialized || ht_world.finalized)
        return 0;
    bool locked = ht_requests_lock(t);
    size_t completed = poll_table(t, now, budget);
    ht_requests_unlock(t, locked);
    return completed;
}

/* Polls if the thread's interval has passed, then sets the next interval:
 * back to mpi.poll_interval_us when something completed, else twice as
 * long, up to mpi.poll_max_interval_us.  A poll that took long stretches
 * the interval to 20 times its cost, so that polling costs at most 1/20 of
 * the thread's time where the MPI library yields the CPU inside
 * PMPI_Request_get_status (Open MPI does when ranks outnumber cores); but
 * never past mpi.poll_max_interval_us, which is what bounds how late a
 * completion is seen (docs/mpi.md): a yield that let other ranks run for
 * a whole time slice is no reason to stop polling for twenty. */
bool ht_request_poll_paced(struct ht_thread *t, uint64_t now)
{
    struct ht_mpi_thread *m = t->mpi;
    if (now - m->last_poll < m->poll_interval)
        return false;
    size_t completed = ht_request_poll(t, now, ht_mpi.poll_batch);
    uint64_t cost = ht_clock_now() - now;
    uint64_t next = completed ? ht_mpi.poll_interval_ticks : 2 * m->poll_interval;
    if (next < ht_mpi.poll_interval_ticks)
        next = ht_mpi.poll_interval_ticks;
    if (next < 20 * cost)
        next = 20 * cost;
    if (next > ht_mpi.poll_max_interval_ticks)
        next = ht_mpi.poll_max_interval_ticks;
    m->poll_interval = next;
    return true;
}

void ht_mpi_poll_from_hook(struct ht_thread *t, uint64_t now)
{
    struct ht_mpi_thread *m = t->mpi;
    if (!m || !ht_mpi.hook_polling || !ht_mpi_logging || m->epoch != ht_mpi.epoch)
        return;
    ht_request_poll_paced(t, now);
}

/* Completions by other threads of requests from before a pause in logging. */
static void drop_handoffs(struct ht_request_table *tab)
{
    struct ht_handoff *h = tab->handoffs, *next;
    for (; h; h = next) {
        next = h->next;
        free(h->r.pairs);
        ht_mpi_rank_map_put(h->r.map);
        free(h);
    }
    tab->handoffs = NULL;
    __atomic_store_n(&tab->handed, 0, __ATOMIC_RELAXED);
}

void ht_request_forget_all(struct ht_thread *t)
{
    struct ht_mpi_thread *m = t->mpi;
    if (!m)
        return;
    bool locked = ht_requests_lock(t);
    while (m->requests.count > 0)
        drop(t, &m->requests.entries[m->requests.count - 1]);
    drop_handoffs(&m->requests);
    m->epoch = __atomic_load_n(&ht_mpi.epoch, __ATOMIC_ACQUIRE);
    __atomic_store_n(&t->poll_requests, 0, __ATOMIC_RELAXED);
    ht_requests_unlock(t, locked);
}

void ht_request_table_drain(struct ht_thread *t, uint64_t now)
{
    struct ht_mpi_thread *m = t->mpi;
    if (!m)
        return;
    bool locked = ht_requests_lock(t);
    /* Requests from before a pause in logging are forgotten, as everywhere
     * else: only the current epoch's are checked one last time. */
    if (m->epoch == __atomic_load_n(&ht_mpi.epoch, __ATOMIC_ACQUIRE)) {
        if (!m->in_mpi && ht_world.initialized && !ht_world.finalized)
            poll_table(t, now, m->requests.count);
    }
    while (m->requests.count > 0)
        drop(t, &m->requests.entries[m->requests.count - 1]);
    drop_handoffs(&m->requests);
    free(m->requests.entries);
    free(m->requests.index);
    memset(&m->requests, 0, sizeof m->requests);
    __atomic_store_n(&t->poll_requests, 0, __ATOMIC_RELAXED);
    ht_requests_unlock(t, locked);
}
