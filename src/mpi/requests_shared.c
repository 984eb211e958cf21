/* Requests made by one thread and completed, tested, freed, started or
 * cancelled by another (MPI_THREAD_SERIALIZED and MPI_THREAD_MULTIPLE).
 *
 * A request belongs to the thread that made it: its messages go to that
 * thread's stack and per-peer figures, whichever thread completes it.
 * Three rules keep this exact without slowing the single-threaded path:
 *
 * - Each thread's table is locked, in these two thread levels only, by its
 *   owner around every use and by any other thread that takes an entry out
 *   or puts one back.  Below SERIALIZED only one thread calls MPI: no lock.
 * - A thread about to complete or free handles it does not hold (Wait,
 *   Test and their array forms, Request_free) first claims them: it takes
 *   the entries out of their owners' tables under the owners' locks.  The
 *   owner polls only the handles in its own table, under its lock, so it
 *   never asks MPI about a handle another thread is completing or that MPI
 *   has freed, and a handle MPI reuses for a new request cannot meet a
 *   stale entry.
 * - The completing thread never writes the owner's figures (the owner
 *   writes them without a lock): it hands the completed entry and its
 *   status to the owner's queue.  The owner records it, as its own, at its
 *   next poll (its next MPI call or, where hooks may poll, its next hook
 *   once its poll interval has passed); MPI_Finalize records every
 *   thread's remaining hand-offs.  An entry claimed but not completed (a
 *   Test that found it pending, the other requests of a Waitany) goes back
 *   to its owner's table after the call; so does a completed persistent
 *   request, inactive, for its next MPI_Start.
 *
 * MPI_Start and MPI_Cancel free nothing: they change the owner's entry in
 * place, under its lock.  MPI_Cancel does so before PMPI_Cancel, which
 * completes an unmatched receive at once: the owner's poll must not find
 * it complete and not yet marked, and count it as a message.  The mark
 * misses an entry a third thread has claimed (it is in no table): that
 * thread's completion asks MPI_Test_cancelled whatever the mark says
 * (ht_request_claim_done), and so does the owner's for every receive
 * (ht_request_complete), for when the claim gave the entry back pending
 * and the cancel completed it afterwards. */
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "mpi/ranks.h"
#include "mpi/requests.h"
#include "mpi/state.h"
#include "mpi/thread_data.h"

void ht_requests_lock_shared(struct ht_thread *t)
{
    pthread_mutex_lock(&t->mpi->requests_lock);
}

void ht_requests_unlock_shared(struct ht_thread *t)
{
    pthread_mutex_unlock(&t->mpi->requests_lock);
}

/* Another thread whose requests are current (not from before a pause in
 * logging, which its next MPI call forgets), locked; NULL after the last. */
static struct ht_thread *next_owner(struct ht_thread *self, struct ht_thread *after)
{
    struct ht_thread *o = after ? after->next : ht_thread_registry();
    for (; o; o = o->next) {
        struct ht_mpi_thread *m = __atomic_load_n(&o->mpi, __ATOMIC_ACQUIRE);
        if (o == self || !m)
            continue;
        ht_requests_lock_shared(o);
        if (m->requests.count > 0 && m->epoch == __atomic_load_n(&ht_mpi.epoch, __ATOMIC_ACQUIRE))
            return o;
        ht_requests_unlock_shared(o);
    }
    return NULL;
}

static struct ht_claim *new_claim(struct ht_mpi_thread *m)
{
    if (m->nclaims == m->claims_capacity) {
        size_t cap = m->claims_capacity ? 2 * m->claims_capacity : 16;
        struct ht_claim *bigger = realloc(m->claims, cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        m->claims = bigger;
        m->claims_capacity = cap;
    }
    return &m->claims[m->nclaims++];
}

void ht_request_claim(struct ht_thread *t, int n, const MPI_Request *handles)
{
    struct ht_mpi_thread *m = t->mpi;
    for (int i = 0; i < n; i++) {
        MPI_Request h = handles[i];
        if (h == MPI_REQUEST_NULL)
            continue;
        ht_requests_lock_shared(t);
        bool mine = ht_request_find(t, h) != NULL;
        ht_requests_unlock_shared(t);
        if (mine || ht_request_claimed(t, h))
            continue;
        for (struct ht_thread *o = next_owner(t, NULL); o; o = next_owner(t, o)) {
            struct ht_request *r = ht_request_find(o, h);
            struct ht_claim *c = r ? new_claim(m) : NULL;
            if (c) {
                c->owner = o;
                ht_request_detach(o, r, &c->r);
            }
            ht_requests_unlock_shared(o);
            if (r)
                break;
        }
    }
}

struct ht_request *ht_request_claimed(struct ht_thread *t, MPI_Request handle)
{
    struct ht_mpi_thread *m = t->mpi;
    for (size_t i = 0; i < m->nclaims; i++)
        if (memcmp(&m->claims[i].r.handle, &handle, sizeof handle) == 0)
            return &m->claims[i].r;
    return NULL;
}

static struct ht_claim *claim_of(struct ht_request *r)
{
    return (struct ht_claim *)((char *)r - offsetof(struct ht_claim, r));
}

/* The claim leaves the list (the last one moves into its place). */
static void forget_claim(struct ht_mpi_thread *m, struct ht_claim *c)
{
    *c = m->claims[--m->nclaims];
}

void ht_request_claim_drop(struct ht_thread *t, struct ht_request *r)
{
    free(r->pairs);
    ht_mpi_rank_map_put(r->map);
    forget_claim(t->mpi, claim_of(r));
}

void ht_request_claim_done(struct ht_thread *t, struct ht_request *r, const MPI_Status *st,
                           uint64_t now)
{
    struct ht_mpi_thread *m = t->mpi;
    struct ht_claim *c = claim_of(r);
    struct ht_thread *o = c->owner;
    if (!r->active)
        return;
    struct ht_handoff *h = malloc(sizeof *h);
    if (!h) {
        ht_request_claim_drop(t, r);
        return;
    }
    h->r = *r;
    h->status = *st;
    h->end = now;
    /* Always asked: a cancel by a third thread while this one waited could
     * not mark the entry, which was out of every table. */
    int cancelled = 0;
    PMPI_Test_cancelled(st, &cancelled);
    h->cancelled = cancelled != 0;
    if (r->persistent) {
        /* The entry stays, inactive, and goes back to its owner; the
         * hand-off holds its own reference to the map. */
        ht_mpi_rank_map_keep(r->map);
        h->r.pairs = NULL;
        r->active = false;
        r->cancelled = false;
        r->trace_id = 0;
        r->trace_start_pending = false;
    } else {
        forget_claim(m, c);
    }
    ht_requests_lock_shared(o);
    struct ht_request_table *tab = &o->mpi->requests;
    h->next = tab->handoffs;
    tab->handoffs = h;
    __atomic_store_n(&tab->handed, tab->handed + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&o->poll_requests, 1, __ATOMIC_RELAXED);
    ht_requests_unlock_shared(o);
}

void ht_request_release(struct ht_thread *t)
{
    struct ht_mpi_thread *m = t->mpi;
    while (m->nclaims > 0) {
        struct ht_claim *c = &m->claims[m->nclaims - 1];
        ht_requests_lock_shared(c->owner);
        bool back = ht_request_insert(c->owner, &c->r);
        ht_requests_unlock_shared(c->owner);
        if (back)
            m->nclaims--;
        else
            ht_request_claim_drop(t, &c->r);
    }
}

bool ht_request_start_foreign(struct ht_thread *t, MPI_Request handle, uint64_t now)
{
    for (struct ht_thread *o = next_owner(t, NULL); o; o = next_owner(t, o)) {
        struct ht_request *r = ht_request_find(o, handle);
        if (r && r->persistent) {
            /* Only the owner writes its trace: the start event waits for
             * the completion (requests.c, trace_late_start). */
            bool traced = r->traced;
            r->traced = false;
            ht_request_activated(o, r, now);
            r->traced = traced;
            r->trace_id = 0;
            r->trace_start_pending = traced;
        }
        ht_requests_unlock_shared(o);
        if (r)
            return true;
    }
    return false;
}

bool ht_request_cancel_foreign(struct ht_thread *t, MPI_Request handle)
{
    for (struct ht_thread *o = next_owner(t, NULL); o; o = next_owner(t, o)) {
        struct ht_request *r = ht_request_find(o, handle);
        if (r)
            r->cancelled = true;
        ht_requests_unlock_shared(o);
        if (r)
            return true;
    }
    return false;
}

void ht_request_drain_all_handoffs(void)
{
    for (struct ht_thread *o = ht_thread_registry(); o; o = o->next) {
        if (!__atomic_load_n(&o->mpi, __ATOMIC_ACQUIRE))
            continue;
        bool locked = ht_requests_lock(o);
        ht_request_drain_handoffs(o);
        ht_requests_unlock(o, locked);
    }
}
