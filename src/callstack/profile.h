/* The profile: every thread's tree merged into one list of call stacks.
 *
 * A stack is a path of functions from a root to a node.  Stacks are merged by
 * path, not by address, so the trees of several threads (and later several
 * ranks) combine, and a function excluded by the config disappears from the
 * paths: its exclusive time goes to its nearest recorded caller, its callees
 * move up to that caller.  Built once at finalize; times in seconds. */
#ifndef HT_CALLSTACK_PROFILE_H
#define HT_CALLSTACK_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "callstack/tree.h"

/* One function as shown in the output.  The describe callback must return
 * the same object for every address that should count as the same function. */
struct ht_function {
    const char *name;
    const char *file; /* NULL if unknown */
    unsigned line;    /* 0 if unknown */
    bool kept;        /* false: excluded by the config's filters */
};

/* The order of sibling stacks: by name, then file, then line (an unknown
 * file before a known one that ties).  The profile numbers its stacks in
 * it and the merge over ranks numbers the unified ones in it: they must
 * agree. */
int ht_function_compare(const char *name_a, const char *file_a, unsigned line_a,
                        const char *name_b, const char *file_b, unsigned line_b);

struct ht_stack_stats {
    uint64_t calls;
    uint64_t folded_calls; /* calls below the depth limit, folded in here */
    double time_incl;
    double time_excl;
    struct ht_mpi_stats mpi; /* messages issued from this stack (ticks) */
    /* With counters (ht_profile.ncounters = K > 0): [0, K) inclusive and
     * [K, 2K) exclusive counts of each event, in the order of
     * src/counters' list; NULL when the profile has none */
    int64_t *counters;
};

struct ht_stack {
    int id;     /* index in ht_profile.stacks */
    int parent; /* id of the caller's stack, -1 for a root */
    int depth;  /* 1 for a root */
    const struct ht_function *function;
    bool throttled; /* the function was throttled: calls and time until then */
    bool inlined;   /* calls of inlined copies, counted, not timed: no time
                       of its own (tree.h, HT_NODE_INLINED_COUNT) */
    struct ht_stack_stats total;       /* summed over threads */
    struct ht_stack_stats *per_thread; /* [nthreads], by thread index */
};

/* A tree to merge.  Several trees may have the same index: the states of
 * the finished threads of one start routine (callstack/thread.h) form one
 * group, one thread index. */
struct ht_profile_thread {
    const struct ht_tree *tree;
    int index; /* 0 .. nthreads-1 */
    pid_t tid;
    /* in a group (group_threads > 0): the threads this tree served, and
     * whether the last of them is still running */
    uintptr_t start_routine;
    uint64_t group_threads;
    uint64_t group_running;
};

/* A thread index that stands for a group of threads. */
struct ht_thread_group {
    const char *start_routine; /* its name, "?" if unknown */
    uint64_t threads;          /* 0: the index is one thread, not a group */
    uint64_t running;          /* of them, still running at the end */
};

struct ht_profile {
    int nthreads;
    pid_t *thread_tids;   /* [nthreads]; 0 for a group */
    struct ht_thread_group *thread_groups; /* [nthreads], or NULL: no group */
    size_t nstacks;
    struct ht_stack *stacks; /* depth-first, callees sorted by name */
    double time_excluded_at_root; /* excluded functions with no recorded caller */
    uint64_t instrumented_calls;  /* every call seen, excluded or folded too */
    uint64_t inlined_calls;       /* calls of inlined copies counted without
                                     hooks (tree.h, HT_NODE_INLINED_COUNT) */
    uint64_t folded_calls;        /* calls beyond the depth limit */
    uint64_t mismatched_exits;
    uint64_t throttled_hook_calls; /* hook calls of throttled functions that
                                      still reached a hook (rewritten after) */
    uint64_t nested_hooks_declined; /* hook calls of signal handlers that
                                       interrupted a hook, not recorded */
    uint64_t tree_nodes;
    size_t tree_bytes;
    bool out_of_memory;
    bool has_mpi; /* some stack has message figures */
    unsigned ncounters; /* counter events per stack (tree.h), 0: none */
};

/* Adds the 2K counter figures of `from` to `into`, allocating into's on
 * first use; 0, or -1 if out of memory. */
int ht_stack_stats_add_counters(struct ht_stack_stats *into, const struct ht_stack_stats *from,
                                unsigned ncounters);

typedef const struct ht_function *(*ht_describe_fn)(uintptr_t address, void *ctx);
typedef void (*ht_address_fn)(uintptr_t address, void *ctx);

/* Calls visit once for every node of the tree (so possibly several times per
 * address): how the caller learns which addresses need names. */
void ht_tree_visit_addresses(const struct ht_tree *tree, ht_address_fn visit, void *ctx);

/* Builds the profile from the threads' trees (nentries of them; the thread
 * indices are 0 .. the highest index given) as of tick `end`.  Calls still
 * in progress at `end` count up to `end`.  Returns 0, or -1 if out of
 * memory. */
int ht_profile_build(struct ht_profile *profile, const struct ht_profile_thread *threads,
                     int nentries, uint64_t end, double seconds_per_tick,
                     ht_describe_fn describe, void *ctx);

/* The path of a stack, root first, into out[0..depth-1]; returns depth. */
int ht_profile_path(const struct ht_profile *profile, int id, int *out, int max);

void ht_profile_free(struct ht_profile *profile);

#endif
