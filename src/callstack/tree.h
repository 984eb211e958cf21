/* The per-thread call-stack tree.
 *
 * A node is one call path: (parent node, function).  Each thread owns its
 * tree, so the hot path takes no lock.  Entering a function finds the child
 * node through a one-entry cache (the child entered last from this parent,
 * which covers loops calling the same function) and otherwise through a
 * per-thread hash table keyed by (parent, function).  Nodes come from an
 * mmap'ed arena and are never freed or moved, so a node pointer stays valid
 * for the life of the process and another thread may read the tree at exit.
 *
 * Time is kept in raw clock ticks; exclusive time is derived at output
 * (inclusive minus the children's inclusive), so a hook adds one difference.
 *
 * A function can be throttled (src/hooks/throttle.c): every node of it, on
 * every thread, gets HT_NODE_THROTTLED in its function word.  The fast path
 * then never matches it, the slow path declines to enter it, and a frame of
 * it still open closes at its thread's next hook.
 */
#ifndef HT_CALLSTACK_TREE_H
#define HT_CALLSTACK_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/compiler.h"

/* A collective that moves the same bytes between this rank and every
 * other member of a group (an allreduce, a broadcast's root, ...), recorded
 * once per call instead of once per peer, so that a call costs the same at
 * any number of ranks.  Calls with the same group and sizes at one node
 * share one record; its messages are expanded where they are read: the
 * profile (ht_mpi_stats_add) and the communication matrix (src/merge). */
struct ht_group_messages {
    struct ht_group_messages *next;        /* the node's next record */
    struct ht_group_messages *thread_next; /* the thread's next record */
    const int *world;        /* world rank of each member (-1: none) */
    int size;                /* members */
    int self;                /* this rank's index among them, or -1 */
    uint32_t peers;          /* members other than self with a world rank */
    uint64_t send_bytes;     /* to each peer per call (0: no message) */
    uint64_t recv_bytes;     /* from each peer per call (0: no message) */
    uint64_t calls;
    uint64_t ticks;          /* sum of the calls' durations */
};

/* Messages issued from one node (an MPI routine on one path), recorded by
 * src/mpi; the profile sums them like the other per-node figures. */
struct ht_mpi_stats {
    uint64_t messages_sent, messages_received;
    uint64_t bytes_sent, bytes_received;
    uint64_t ticks_sent, ticks_received; /* sums of message durations */
    struct ht_mpit_values *pvars; /* MPI_T performance variables over this
                                     stack's calls (src/mpit/mpit_pvars.c), or NULL */
    struct ht_group_messages *groups; /* not yet expanded into the above */
};

/* Adds s, with its group records expanded, to into (whose groups stay). */
static inline void ht_mpi_stats_add(struct ht_mpi_stats *into, const struct ht_mpi_stats *s)
{
    into->messages_sent += s->messages_sent;
    into->messages_received += s->messages_received;
    into->bytes_sent += s->bytes_sent;
    into->bytes_received += s->bytes_received;
    into->ticks_sent += s->ticks_sent;
    into->ticks_received += s->ticks_received;
    for (const struct ht_group_messages *g = __atomic_load_n(&s->groups, __ATOMIC_ACQUIRE); g;
         g = g->next) {
        uint64_t calls = g->calls, messages = calls * g->peers, ticks = g->ticks * g->peers;
        if (g->send_bytes) {
            into->messages_sent += messages;
            into->bytes_sent += messages * g->send_bytes;
            into->ticks_sent += ticks;
        }
        if (g->recv_bytes) {
            into->messages_received += messages;
            into->bytes_received += messages * g->recv_bytes;
            into->ticks_received += ticks;
        }
    }
}

/* 128 bytes, cache-line aligned: everything a hook touches is in the first
 * line (function, parent, last child, calls, the two tick fields and the
 * entry stack address and call site); the rest is read at output and by the
 * slow paths. */
struct ht_node {
    /* hot: read or written by every enter/exit */
    uintptr_t function;       /* entry address as given to the hook, with
                                 HT_NODE_THROTTLED once throttled; 0 = root */
    struct ht_node *parent;
    struct ht_node *last_child;   /* the child entered last: the fast path */
    uint64_t calls;
    uint64_t ticks_incl;      /* sum over completed activations */
    uint64_t enter_tick;      /* start of the activation in progress */
    uintptr_t enter_sp;       /* caller's stack pointer at that entry */
    uintptr_t enter_site;     /* call_site the hook was given at that entry */
    /* cold */
    struct ht_node *first_child;  /* children form a singly linked list */
    struct ht_node *next_sibling;
    uint64_t folded_calls;    /* calls made beyond max depth, folded in here */
    struct ht_mpi_stats *mpi; /* messages issued from this stack, or NULL */
    uint32_t depth;           /* root 0, its children 1, ... */
    uint32_t flags;           /* HT_NODE_MPI_ROUTINE, ... below */
    struct ht_node *second_child; /* the child entered before last_child:
                                     a caller alternating two callees
                                     (send, receive) finds both here */
    uint64_t spare;           /* scratch for the output (the trace writer
                                 keeps the node's region here) */
    struct ht_node *same_function_next; /* the function's other nodes
                                           (src/callstack/functions.c) */
} __attribute__((aligned(64)));

/* The function word of a throttled function's nodes.  User-space addresses
 * never have bit 63 set, so a tagged word never equals an address. */
#define HT_NODE_THROTTLED ((uintptr_t)1 << 63)

/* The function word of a node whose code was unmapped (dlclose): it never
 * equals an address again, so that a library loaded later at the same
 * address gets new nodes (ht_functions_retire).  The output names the node
 * by ht_node_address and adds it to the new one's stack. */
#define HT_NODE_RETIRED ((uintptr_t)1 << 62)

/* node->flags: the node is an MPI routine entered by a wrapper (src/mpi). */
#define HT_NODE_MPI_ROUTINE 1u
/* Its calls are those of inlined copies of a function, counted in the
 * program and handed over by hooktrace_inlined_calls: no time of its own
 * (docs/plugin.md, "Inlined copies"). */
#define HT_NODE_INLINED_COUNT 2u
/* A region the program named (hooktrace_region_begin): its function word
 * is the name's record (callstack/regions.h); never throttled. */
#define HT_NODE_NAMED_REGION 4u
/* A phase the program began (hooktrace_phase): a node at the root, also a
 * region record, open until the next phase (callstack/phases.h). */
#define HT_NODE_PHASE 8u

HT_NOINSTR static inline uintptr_t ht_node_function(const struct ht_node *n)
{
    return __atomic_load_n(&n->function, __ATOMIC_RELAXED) & ~HT_NODE_THROTTLED;
}

/* The node's function's address, retired or not: for naming. */
HT_NOINSTR static inline uintptr_t ht_node_address(const struct ht_node *n)
{
    return __atomic_load_n(&n->function, __ATOMIC_RELAXED) & ~(HT_NODE_THROTTLED | HT_NODE_RETIRED);
}

HT_NOINSTR static inline bool ht_node_throttled(const struct ht_node *n)
{
    return (__atomic_load_n(&n->function, __ATOMIC_RELAXED) & HT_NODE_THROTTLED) != 0;
}

/* A tick value meaning "not read yet": the slow paths read the tree's clock
 * themselves, only if they record something. */
#define HT_TICK_UNKNOWN UINT64_MAX

typedef uint64_t (*ht_tick_fn)(void);

struct ht_tree_chunk;

struct ht_tree {
    struct ht_node root;
    struct ht_node *current;  /* innermost active call, or &root */
    uint32_t max_depth;
    uint32_t overflow;        /* calls in progress beyond max_depth */
    uint64_t node_count;
    uint64_t mismatched_exits; /* exits that matched no active call */
    uint64_t declined;        /* hook calls of throttled functions that
                                 still reached the tree */
    uint64_t nested_declined; /* hook calls of a signal handler that
                                 interrupted a hook of this thread, left
                                 unrecorded (src/hooks/hooks.c) */
    bool out_of_memory;       /* the arena could not grow: calls fold */
    uint32_t counters;        /* counter events per node (0: none); set
                                 before the first node, never changed */
    ht_tick_fn clock;         /* for HT_TICK_UNKNOWN; NULL: ticks are given */
    /* the functions of the calls in progress beyond max_depth, innermost
     * last (overflow of them), so that an exit matches its own entry; NULL
     * until the limit is first reached (and if that mmap failed) */
    uintptr_t *folded;
    uint32_t folded_capacity;
    /* arena */
    struct ht_tree_chunk *chunks;
    char *arena_next, *arena_end;
    /* child index: open addressing over (parent, function) */
    struct ht_node **slots;
    size_t slot_mask;
};

/* What an enter or exit did. */
enum ht_tree_move {
    HT_MOVED = 0,       /* entered a node / left the current one */
    HT_FOLDED,          /* a call beyond max_depth: counted, no node */
    HT_THROTTLED,       /* a throttled function: nothing recorded; the
                           hook's call site may be rewritten */
    HT_IGNORED,         /* an exit that matched no recorded entry */
    HT_UNWOUND,         /* an exit that closed several calls (longjmp) */
};

/* Telling a callee from a call made after a longjmp.  A real callee's hook
 * runs strictly lower on the stack than its caller's.  A function GCC inlined
 * calls the hooks from its container's frame: the same stack address, and
 * the same call_site (the container's return address).  So an entry at or
 * above the current call's stack address, unless it is that inlined case,
 * means the current call was left without its exit hook (longjmp, or a C++
 * exception through uninstrumented code).  Only addresses at most
 * HT_STACK_SPAN above count: a stack far away (a coroutine's, a
 * sigaltstack) is not a sign of anything. */
#define HT_STACK_SPAN ((uintptr_t)256 << 20)

HT_NOINSTR static inline bool ht_tree_call_was_left(const struct ht_node *cur, uintptr_t sp,
                                                    uintptr_t site)
{
    uintptr_t above = sp - cur->enter_sp;
    return HT_UNLIKELY(above < HT_STACK_SPAN) && (above != 0 || site != cur->enter_site);
}

void ht_tree_init(struct ht_tree *tree, uint32_t max_depth);
void ht_tree_release(struct ht_tree *tree);

/* The node (parent, function), created if missing.  NULL when the depth or
 * memory runs out, and when the function is throttled (*throttled set). */
struct ht_node *ht_tree_find_or_add_child(struct ht_tree *tree, struct ht_node *parent,
                                          uintptr_t function, uint64_t now, bool *throttled);
/* Leaves ticks spent in hooktrace's own work (rewriting code) out of every
 * call in progress: their activations start that much later. */
void ht_tree_exclude_ticks(struct ht_tree *tree, uint64_t ticks);
/* The same for ticks the program paused recording for (MPI_Pcontrol(0)
 * until (1), ending at `until`): a call open since before them starts that
 * much later, one entered during them (a hook that raced the pause) at
 * `until`. */
void ht_tree_exclude_paused(struct ht_tree *tree, uint64_t ticks, uint64_t until);
/* After ht_tree_forget_counts for a reset (MPI_Pcontrol(2)): each call
 * still open is counted once, so that the profile keeps the path to what
 * is recorded from now on. */
void ht_tree_count_open_calls(struct ht_tree *tree);
struct ht_node *ht_tree_unwind_to(struct ht_tree *tree, uintptr_t sp, uintptr_t site,
                                  uint64_t now);

/* A longjmp to a setjmp whose caller had stack pointer target_sp: closes
 * every call entered below it.  Returns the number of calls closed. */
unsigned ht_tree_unwind_longjmp(struct ht_tree *tree, uintptr_t target_sp, uint64_t now);

/* Everything but the common cases below, out of line so that those need no
 * saved registers: a left or throttled call to close, the depth limit, a
 * callee other than the last one entered from here, an exit that is not
 * the innermost call's.  now may be HT_TICK_UNKNOWN. */
enum ht_tree_move ht_tree_enter_slow(struct ht_tree *tree, uintptr_t function, uint64_t now,
                                     uintptr_t sp, uintptr_t site);
enum ht_tree_move ht_tree_exit_slow(struct ht_tree *tree, uintptr_t function, uint64_t now);

/* Adds count calls of the inlined copies known as id to the current node's
 * child id, flagged HT_NODE_INLINED_COUNT, without moving.  Returns false
 * when the child could not be had (depth limit, out of memory, throttled):
 * the calls are then not recorded. */
bool ht_tree_count_inlined(struct ht_tree *tree, uintptr_t id, uint64_t count);

/* The common case of an entry: the function is the child entered last from
 * the current node, and the current call was not left.  Returns that child,
 * or NULL for the slow path.  Split from ht_tree_push so that a hook reads
 * the clock only once it knows it records. */
HT_NOINSTR static inline struct ht_node *ht_tree_cached_child(const struct ht_tree *tree,
                                                             uintptr_t function, uintptr_t sp,
                                                             uintptr_t site)
{
    struct ht_node *cur = tree->current;
    struct ht_node *child = cur->last_child;
    /* A node at the depth limit never gets children, so a cached child
     * also means the limit is not reached. */
    if (HT_LIKELY(child != NULL && child->function == function &&
                  !ht_tree_call_was_left(cur, sp, site)))
        return child;
    return NULL;
}

HT_NOINSTR static inline void ht_tree_push(struct ht_tree *tree, struct ht_node *child,
                                           uint64_t now, uintptr_t sp, uintptr_t site)
{
    child->calls++;
    child->enter_tick = now;
    child->enter_sp = sp;
    child->enter_site = site;
    tree->current = child;
}

/* The common case of an exit: the innermost call is `function` and nothing
 * is folded.  Returns it, or NULL for the slow path. */
HT_NOINSTR static inline struct ht_node *ht_tree_current_if(const struct ht_tree *tree,
                                                           uintptr_t function)
{
    struct ht_node *cur = tree->current;
    if (HT_LIKELY(tree->overflow == 0 && cur->function == function))
        return cur;
    return NULL;
}

HT_NOINSTR static inline void ht_tree_pop(struct ht_tree *tree, struct ht_node *cur, uint64_t now)
{
    cur->ticks_incl += now - cur->enter_tick;
    tree->current = cur->parent;
}

/* Counter figures (src/counters, PAPI) of a node of a tree whose
 * `counters` is K > 0: the arena gives each node 2K 64-bit words right
 * behind it, so that a node stays 128 bytes and the common case (no
 * counters) is untouched.  [0, K): inclusive sums over completed calls,
 * [K, 2K): the values read when the call in progress was entered.  Never
 * for the root (it is not in the arena) or a tree without counters. */
HT_NOINSTR static inline int64_t *ht_node_counters(const struct ht_node *n)
{
    return (int64_t *)(uintptr_t)(n + 1);
}

/* Two more words follow the 2K: [0] the ticks the thread spent reading
 * its counters during the node's completed calls (its own reads and its
 * callees'), [1] the thread's running total of them when the call in
 * progress was entered (src/counters).  Throttling takes [0] out of the
 * node's time, so that reading the counters does not change what it
 * decides (docs/throttle.md). */
HT_NOINSTR static inline int64_t *ht_node_read_ticks(const struct ht_node *n, uint32_t counters)
{
    return ht_node_counters(n) + 2 * (size_t)counters;
}

/* Bytes a node takes in the arena of a tree with `counters` events. */
static inline size_t ht_tree_node_bytes(uint32_t counters)
{
    size_t bytes = sizeof(struct ht_node) + 2 * sizeof(int64_t) * counters +
                   (counters ? 2 * sizeof(int64_t) : 0);
    return (bytes + 63) & ~(size_t)63;
}

/* sp: the caller's stack pointer at the hook; site: the hook's call_site. */
HT_NOINSTR static inline enum ht_tree_move ht_tree_enter(struct ht_tree *tree, uintptr_t function,
                                                         uint64_t now, uintptr_t sp,
                                                         uintptr_t site)
{
    struct ht_node *child = ht_tree_cached_child(tree, function, sp, site);
    if (HT_LIKELY(child != NULL)) {
        ht_tree_push(tree, child, now, sp, site);
        return HT_MOVED;
    }
    return ht_tree_enter_slow(tree, function, now, sp, site);
}

/* ht_tree_enter that also takes the child entered before the last one
 * without the slow path, swapping the two: a loop alternating two MPI
 * routines (an MPI_Sendrecv and an MPI_Allreduce) finds both here.  For
 * the MPI wrappers, not the hooks (whose cost the calibration in
 * src/runtime/overhead.c measures with ht_tree_enter).  An exact match of
 * the function word is never a throttled or retired node, and a node with
 * children is below the depth limit, as in ht_tree_enter_slow. */
HT_NOINSTR static inline struct ht_node *ht_tree_either_child(const struct ht_tree *tree,
                                                              uintptr_t function, uintptr_t sp,
                                                              uintptr_t site)
{
    const struct ht_node *cur = tree->current;
    struct ht_node *child = cur->last_child;
    if (HT_LIKELY(child != NULL && !ht_tree_call_was_left(cur, sp, site))) {
        if (HT_LIKELY(child->function == function))
            return child;
        struct ht_node *second = cur->second_child;
        if (second != NULL && second->function == function)
            return second;
    }
    return NULL;
}

/* Enters the child ht_tree_either_child found: the last one entered. */
HT_NOINSTR static inline void ht_tree_push_either(struct ht_tree *tree, struct ht_node *child,
                                                  uint64_t now, uintptr_t sp, uintptr_t site)
{
    struct ht_node *cur = tree->current;
    if (cur->last_child != child) {
        cur->second_child = cur->last_child;
        cur->last_child = child;
    }
    ht_tree_push(tree, child, now, sp, site);
}

HT_NOINSTR static inline enum ht_tree_move ht_tree_enter_either(struct ht_tree *tree,
                                                                uintptr_t function, uint64_t now,
                                                                uintptr_t sp, uintptr_t site)
{
    struct ht_node *child = ht_tree_either_child(tree, function, sp, site);
    if (HT_LIKELY(child != NULL)) {
        ht_tree_push_either(tree, child, now, sp, site);
        return HT_MOVED;
    }
    return ht_tree_enter_slow(tree, function, now, sp, site);
}

HT_NOINSTR static inline enum ht_tree_move ht_tree_exit(struct ht_tree *tree, uintptr_t function,
                                                        uint64_t now)
{
    struct ht_node *cur = ht_tree_current_if(tree, function);
    if (HT_LIKELY(cur != NULL)) {
        ht_tree_pop(tree, cur, now);
        return HT_MOVED;
    }
    return ht_tree_exit_slow(tree, function, now);
}

/* Closes the frames of throttled functions at the top of the stack (a
 * throttled function's frame still open closes at its thread's next hook).
 * Returns the new current node. */
struct ht_node *ht_tree_close_throttled(struct ht_tree *tree, uint64_t now);

/* Zeroes every figure of the tree, keeping its nodes and the calls in
 * progress (their time counts from now): a fork child's start. */
void ht_tree_forget_counts(struct ht_tree *tree, uint64_t now);

/* The node after n in depth-first order (children before siblings), NULL
 * after the last; start with tree->root.first_child. */
struct ht_node *ht_tree_next_node(const struct ht_tree *tree, const struct ht_node *n);

/* Bytes of memory the tree holds (arena and index). */
size_t ht_tree_memory_bytes(const struct ht_tree *tree);

#endif
