/* Per-thread profiling state.
 *
 * A thread gets its state on its first hook (the main thread at start-up)
 * and keeps it until the thread ends; the state outlives the thread, so
 * that its tree can be written at exit, and may be taken over by a later
 * thread of the same start routine (thread_reuse.c).  The pointer lives in initial-exec TLS, so
 * finding it costs one instruction. */
#ifndef HT_CALLSTACK_THREAD_H
#define HT_CALLSTACK_THREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "callstack/profile.h"
#include "callstack/tree.h"

/* How many times a node is looked at for throttling (src/throttle). */
#define HT_THROTTLE_LOOKS 3

struct ht_mpi_thread;
struct ht_peer_counts;
struct ht_trace_buffer;

struct ht_thread {
    struct ht_tree tree;
    /* Any non-zero sends this thread's hooks down the general path,
     * which the fast path tests as one word: open MPI requests to poll
     * now and then, events to append to the trace buffer, or counters
     * to read (src/counters; set at attach, for the thread's life), or a
     * general path in progress (in_hook: a signal handler's hooks on this
     * thread then come here too, and decline; src/hooks/hooks.c), or a
     * pause or reset to catch up with (catch_up). */
    union {
        struct {
            uint16_t poll_requests;
            uint16_t tracing;
            uint16_t counting;
            uint8_t in_hook;
            /* A pause ended or a reset came since this thread's last hook:
             * its tree is brought up to date first (src/runtime/pause.c).
             * Set by the thread that resumed, cleared by this one. */
            uint8_t catch_up;
        };
        uint64_t general_path;
    };
    /* The call counts at which an exiting node is looked at for
     * throttling (ht_throttle_look_calls), next to what the fast path reads. */
    uint64_t throttle_looks[HT_THROTTLE_LOOKS];
    /* A frame address of the general path in progress (in_hook): a
     * longjmp above it leaves that hook for good (src/hooks/longjmp.c). */
    uintptr_t hook_frame;
    struct ht_trace_buffer *trace; /* src/trace, NULL unless tracing */
    struct ht_mpi_thread *mpi; /* MPI data (src/mpi), NULL until first use */
    void *counters;           /* src/counters' per-thread data, NULL until
                                 the thread first records with counters */
    struct ht_peer_counts *peers; /* src/merge/peers.h: set by src/mpi after MPI_Init */
    int index;                /* 0, 1, 2, ... in order of first hook */
    pid_t tid;                /* kernel thread id, for the logfile */
    struct ht_thread *next;   /* registry, newest first */
    /* Reuse of finished threads' state (thread_reuse.c): the first function
     * the threads this state served entered, their start routine when it is
     * instrumented (0: unknown, no reuse), how many threads, whether it now
     * waits for the next one. */
    uintptr_t start_routine;
    uint64_t threads_served;
    bool finished;
    struct ht_thread *reuse_next; /* the start routine's waiting states */
    /* The pauses and resets this tree is up to date with (src/runtime/pause.c). */
    uint64_t pause_ticks_seen, resets_seen, phases_seen;
};

extern __thread struct ht_thread *ht_thread_self __attribute__((tls_model("initial-exec")));

/* Depth limit given to threads attached from now on. */
extern unsigned ht_thread_max_depth;

/* Counter events every thread's nodes carry (tree.h ht_node_counters), 0
 * for none; set at start-up before any thread attaches (src/runtime). */
extern uint32_t ht_thread_counters;

/* Set at start-up, before any thread but the first attaches: the call
 * counts at which a node is looked at for throttling, and a function that
 * readies a new thread (its trace buffer) before it joins the registry. */
void ht_thread_configure(const uint64_t throttle_looks[HT_THROTTLE_LOOKS],
                         void (*prepare)(struct ht_thread *t));

/* Whether a node that just completed its calls-th call is to be looked at
 * for throttling: three compares on the exit hook's fast path. */
HT_NOINSTR static inline bool ht_thread_throttle_look(const struct ht_thread *t, uint64_t calls)
{
    return calls == t->throttle_looks[0] || calls == t->throttle_looks[1] ||
           calls == t->throttle_looks[2];
}

/* Creates and registers the calling thread's state.  Lock-free and
 * async-signal-safe; returns NULL only when memory is exhausted. */
struct ht_thread *ht_thread_attach(void);
/* The same from the entry hook of function, the thread's first: a finished
 * thread's state of the same first function is reused if one waits. */
struct ht_thread *ht_thread_attach_entering(uintptr_t function);

/* At the end of a thread (a pthread key's destructor), in that thread: its
 * state, tree included, waits for the next thread that enters the same
 * first function, which (once more than 16 threads of it have ended) goes
 * on adding to the same tree, so that N short threads of a start routine
 * cost the memory of as many as ran at once, and the output shows them as
 * one group.  A thread with MPI data or a trace
 * buffer keeps its own state (it is written as its own thread).  Calls
 * still open (pthread_exit, cancellation) are closed at `now`. */
void ht_thread_finish(uint64_t now);

/* A finished state whose threads started at first_function, made the
 * calling thread's, or NULL (attach then maps a new one). */
struct ht_thread *ht_thread_reuse(uintptr_t first_function);

/* Registers the calling thread's state to be finished at thread exit. */
void ht_thread_watch_end(struct ht_thread *t);

/* The threads as the profile takes them (profile.h): one entry per thread
 * still running or kept, one per start routine whose finished threads
 * shared their states; numbered 0.. in order of first hook, groups last.
 * When final (at exit), stops all reuse from now on; a profile written in
 * the middle of the run (MPI_Pcontrol(3)) leaves it on.  *entries: the
 * number of trees, *nthreads: of thread indices.  NULL if out of memory. */
struct ht_profile_thread *ht_thread_collect(int *entries, int *nthreads, bool final);

/* The registry, newest first, and the number of threads in it. */
struct ht_thread *ht_thread_registry(void);
int ht_thread_count(void);

#endif
