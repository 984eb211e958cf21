/* Every function any thread has entered, process-wide, while throttling is
 * on: its state, and the list of its tree nodes on every thread.
 *
 * A throttling decision is made on one thread (src/hooks/throttle.c) but
 * must reach every thread's nodes of that function; this registry is how it
 * finds them.  It is lock-free and async-signal-safe (hooks may run in
 * signal handlers): a fixed array of hash buckets, records pushed onto a
 * bucket's list with compare-and-swap, memory from mmap.  Records are never
 * removed.  Only the slow paths use it: creating a node, throttling, an exit
 * that matches no open call, dlclose. */
#ifndef HT_CALLSTACK_FUNCTIONS_H
#define HT_CALLSTACK_FUNCTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "callstack/tree.h"

/* flags */
#define HT_FUNCTION_CALLS_MPI 1u /* an MPI routine was entered beneath it */
#define HT_FUNCTION_NEVER 2u     /* never throttled (main, config "never") */

struct ht_function_record {
    uintptr_t address;
    struct ht_function_record *next; /* same bucket */
    struct ht_function_record *all_next; /* every record, newest first */
    struct ht_node *nodes;           /* newest first, via same_function_next */
    uint64_t first_tick;             /* when its first node was made */
    uint64_t throttled_tick;         /* when it was throttled */
    /* The caller of the call that crossed the threshold, as it was then:
     * its exclusive time afterwards is where the calls saved ran
     * (src/hooks/throttle.c). */
    const struct ht_node *caller;
    uint64_t caller_calls, caller_ticks_incl, caller_enter_tick, caller_children_ticks;
    uint64_t node_calls; /* the calls of the node that crossed it, under that caller */
    uint32_t throttled;              /* set once, never cleared */
    uint32_t flags;
    uint32_t retired;                /* its code was unmapped: never found
                                        again, kept for the output */
    uint32_t seen;                   /* the observer said yes (below) */
};

/* Whether the registry is in use: set once at start-up, before any thread
 * records (throttling on). */
extern int ht_functions_on;
void ht_functions_enable(void);

/* The record of address, or NULL. */
struct ht_function_record *ht_functions_find(uintptr_t address);

/* The record of address, created (with first_tick = now) if missing; NULL
 * only if out of memory. */
struct ht_function_record *ht_functions_get(uintptr_t address, uint64_t now);

HT_NOINSTR static inline bool ht_function_is_throttled(const struct ht_function_record *rec)
{
    return __atomic_load_n(&rec->throttled, __ATOMIC_SEQ_CST) != 0;
}

/* The registry's observer, if set (once, at start-up): asked about each
 * function before its first node is made, on the thread making it, until
 * it answers true (it may throttle the function meanwhile: the node is
 * then not made).  A function's record is asked about again, at its next
 * new node, while the answer is false.  The runtime's is the exclusions
 * of libraries loaded later (src/runtime/exclusions.c). */
void ht_functions_observe(bool (*observer)(uintptr_t address));

/* For ht_tree_find_or_add_child: the observer's look at rec, if due. */
void ht_functions_see_slow(struct ht_function_record *rec);
HT_NOINSTR static inline void ht_functions_see(struct ht_function_record *rec)
{
    if (!__atomic_load_n(&rec->seen, __ATOMIC_ACQUIRE))
        ht_functions_see_slow(rec);
}

/* Adds a new node of the function to its list.  Returns true if the
 * function is throttled (checked after the node is in the list, so that
 * either this call or ht_functions_throttle sees the other): the caller
 * must not enter the node. */
bool ht_functions_add_node(struct ht_function_record *rec, struct ht_node *node);

/* Marks the function throttled and tags all its nodes so far.  Returns
 * false if another thread did it first. */
bool ht_functions_throttle(struct ht_function_record *rec, uint64_t now);

/* Tags one node of a throttled function (what ht_functions_throttle does to
 * each): a thread whose node reaches the threshold while another thread is
 * still tagging does it itself, so that no node records past it. */
void ht_functions_tag_node(struct ht_node *node);

/* Sets flags on the record of address (created if missing). */
void ht_functions_set_flags(uintptr_t address, uint32_t flags, uint64_t now);

/* An MPI routine was entered at node: every function on its path gets
 * HT_FUNCTION_CALLS_MPI, once per node (node->flags remembers). */
void ht_functions_mark_mpi_path(struct ht_node *node, uint64_t now);

/* The code in [lo, hi) was unmapped (dlclose): its functions' records and
 * nodes are retired, so that code loaded there later starts afresh, as a
 * function never seen (not throttled, its nodes new).  Retired nodes keep
 * their counts and are added up with the new ones in the output. */
void ht_functions_retire(uintptr_t lo, uintptr_t hi);

/* Calls visit for every record, in no particular order. */
void ht_functions_visit(void (*visit)(struct ht_function_record *rec, void *ctx), void *ctx);

#endif
