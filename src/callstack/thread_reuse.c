/* Finished threads' states reused by the next thread of the same start
 * routine (thread.h, ht_thread_finish).  The start routine is known as the
 * first function a thread enters (its first hook): that needs no
 * pthread_create interposer, which a sanitizer's own interposer would hide
 * (it passes its own start routine), and the end of a thread is a pthread
 * key's destructor, which pthread_exit and cancellation run too.
 *
 * A program that starts 10,000 short threads used to keep 10,000 states and
 * trees until exit, and the logfile had 10,000 tables.  Now a finished
 * thread's state waits on its start routine's list; the next thread of that
 * routine takes it and goes on adding to its tree.  Nodes are never freed
 * (throttling keeps every node on its function's list, functions.h), so the
 * tree is not merged elsewhere and reset: it is kept, and the same paths
 * cost nothing more.  The output then shows one group per start routine
 * with the summed figures and the number of threads (ht_thread_collect).
 *
 * A lock guards the lists: taken at thread start and end only, never by a
 * hook of a running thread.  At exit, collecting stops all reuse, so that
 * the trees being written no longer change hands. */
#include "callstack/thread.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A start routine's first threads keep their own state and are written as
 * threads of their own, as before (a few workers started and joined); from
 * the (GROUP_AFTER + 1)th finished one on, states are reused and all its
 * finished threads form one group. */
#define GROUP_AFTER 16

struct routine_list {
    uintptr_t start_routine;
    uint64_t finished;           /* threads of it that ended */
    struct ht_thread *waiting;   /* finished states, reuse_next-linked */
    int group_index;             /* set by ht_thread_collect */
    struct routine_list *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct routine_list *routines;
static bool collected; /* set once at exit: no more reuse */

/* At exit the lock may be held by a thread that a fatal signal stopped:
 * try for a while, then go on without it. */
static bool lock_bounded(void)
{
    for (int i = 0; i < 1000; i++) {
        if (pthread_mutex_trylock(&lock) == 0)
            return true;
        sched_yield();
    }
    return false;
}

static struct routine_list *routine_of(uintptr_t start_routine, bool create)
{
    for (struct routine_list *r = routines; r; r = r->next)
        if (r->start_routine == start_routine)
            return r;
    if (!create)
        return NULL;
    struct routine_list *r = calloc(1, sizeof *r);
    if (r) {
        r->start_routine = start_routine;
        r->next = routines;
        routines = r;
    }
    return r;
}

static pthread_key_t end_key;
static pthread_once_t end_key_once = PTHREAD_ONCE_INIT;
static bool end_key_made;

static void thread_ended(void *state)
{
    struct ht_thread *t = state;
    if (t == ht_thread_self)
        ht_thread_finish(t->tree.clock ? t->tree.clock() : 0);
}

/* After a fork, the child's copy of the lock may be held by a thread that
 * the child does not have. */
static void reset_lock_in_child(void)
{
    pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
    lock = unlocked;
}

static void make_end_key(void)
{
    end_key_made = pthread_key_create(&end_key, thread_ended) == 0;
    pthread_atfork(NULL, NULL, reset_lock_in_child);
}

void ht_thread_watch_end(struct ht_thread *t)
{
    /* The main thread's key is never destroyed (exit), nor needed. */
    if (getpid() == (pid_t)syscall(SYS_gettid))
        return;
    pthread_once(&end_key_once, make_end_key);
    if (end_key_made)
        pthread_setspecific(end_key, t);
}

struct ht_thread *ht_thread_reuse(uintptr_t first_function)
{
    /* Called from the first hook of a thread, maybe in a signal handler:
     * never wait for the lock. */
    if (pthread_mutex_trylock(&lock) != 0)
        return NULL;
    struct ht_thread *t = NULL;
    struct routine_list *r = collected ? NULL : routine_of(first_function, false);
    if (r && r->finished > GROUP_AFTER && r->waiting) {
        t = r->waiting;
        r->waiting = t->reuse_next;
        t->reuse_next = NULL;
        t->finished = false;
        t->threads_served++;
        t->tid = (pid_t)syscall(SYS_gettid);
        ht_thread_self = t;
    }
    pthread_mutex_unlock(&lock);
    if (t)
        ht_thread_watch_end(t);
    return t;
}

void ht_thread_finish(uint64_t now)
{
    struct ht_thread *t = ht_thread_self;
    if (!t || !t->start_routine || now == 0)
        return;
    /* Message records and trace events are per thread: such a thread is
     * written as its own (docs/reading.md).  Counters are not: the next
     * thread reads its own (src/counters makes it an event set). */
    if (t->mpi || t->peers || t->trace || t->poll_requests || t->tracing)
        return;
    if (pthread_mutex_lock(&lock) != 0)
        return;
    struct routine_list *r = collected ? NULL : routine_of(t->start_routine, true);
    if (r) {
        /* Calls left open (pthread_exit, cancellation) end here. */
        struct ht_tree *tree = &t->tree;
        for (struct ht_node *n = tree->current; n != &tree->root; n = n->parent)
            n->ticks_incl += now - n->enter_tick;
        tree->current = &tree->root;
        tree->overflow = 0;
        r->finished++;
        /* A later hook of this thread (a TLS destructor) starts afresh. */
        ht_thread_self = NULL;
        t->finished = true;
        t->reuse_next = r->waiting;
        r->waiting = t;
    }
    pthread_mutex_unlock(&lock);
}

struct ht_profile_thread *ht_thread_collect(int *entries, int *nthreads, bool final)
{
    bool locked = lock_bounded();
    if (final)
        collected = true;
    int n = 0;
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next)
        n++;
    struct ht_profile_thread *out = calloc(n ? (size_t)n : 1, sizeof *out);
    int *own = calloc((size_t)ht_thread_count() + 1, sizeof *own);
    for (struct routine_list *r = routines; r; r = r->next)
        r->group_index = -1;
    if (!out || !own) {
        free(out);
        free(own);
        if (locked)
            pthread_mutex_unlock(&lock);
        return NULL;
    }
    /* A start routine with more than GROUP_AFTER finished threads is a
     * group: its finished states, and a running one that served finished
     * threads before.  Any other state (running, kept, or of a routine with
     * few threads) is a thread of its own, as before.  Own threads keep
     * their order of first hook, numbered densely. */
    for (struct ht_thread *t = ht_thread_registry(); t; t = t->next) {
        struct routine_list *r = t->start_routine ? routine_of(t->start_routine, false) : NULL;
        bool grouped = r && r->finished > GROUP_AFTER && (t->finished || t->threads_served > 1);
        if (!grouped && t->index <= ht_thread_count())
            own[t->index] = 1;
    }
    int next = 0;
    for (int i = 0; i <= ht_thread_count(); i++)
        own[i] = own[i] ? next++ + 1 : 0;
    int k = 0;
    for (struct ht_thread *t = ht_thread_registry(); t && k < n; t = t->next) {
        struct ht_profile_thread *e = &out[k++];
        e->tree = &t->tree;
        if (t->index <= ht_thread_count() && own[t->index]) {
            e->index = own[t->index] - 1;
            e->tid = t->tid;
            continue;
        }
        struct routine_list *r = routine_of(t->start_routine, false);
        /* Grouped states are numbered after the own threads, a group per
         * start routine; the routine's figures go to each of its entries. */
        int group = r ? r->group_index : -1;
        if (group < 0) {
            group = next++;
            if (r)
                r->group_index = group;
        }
        e->index = group;
        e->start_routine = t->start_routine;
        e->group_threads = t->threads_served;
        e->group_running = t->finished ? 0 : 1;
    }
    free(own);
    if (locked)
        pthread_mutex_unlock(&lock);
    *entries = k;
    *nthreads = next;
    return out;
}
