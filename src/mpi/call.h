/* The protocol every generated wrapper follows:
 *
 *     struct ht_mpi_call call;
 *     if (!HT_MPI_CALL_BEGIN(&call, MPI_Send)) {
 *         if (ht_mpi_foreign)              // another MPI's program (abi.c):
 *             return <its PMPI_Send>(...); //   its routine, handles whole
 *         return PMPI_Send(...);          // logging off: nothing else
 *     }
 *     int rc = PMPI_Send(...);
 *     ht_mpi_call_returned(&call);         // end timestamp
 *     if (rc == MPI_SUCCESS) ...record...
 *     ht_mpi_call_end(&call);
 *     return rc;
 *
 * The routine becomes a node of the calling thread's tree under its caller,
 * keyed by the wrapper's own address (so its name comes from our symbol
 * table), and the messages it moves are attributed to that node. */
#ifndef HT_MPI_CALL_H
#define HT_MPI_CALL_H

#include <stdbool.h>

#include "callstack/functions.h"
#include "callstack/thread.h"
#include "common/clock.h"
#include "counters/counters.h"
#include "runtime/runtime.h"
#include "mpit/mpit.h"
#include "mpi/state.h"
#include "mpi/thread_data.h"
#include "trace/trace.h"

/* The first call on an MPI routine's node marks it (and its callers) as
 * MPI; a trace past its bound, which keeps MPI routines only, learns that
 * the node it just entered is one (trace/trace.h). */
__attribute__((cold)) HT_NOINSTR static inline void ht_mpi_mark_node(struct ht_thread *t,
                                                                    struct ht_node *node,
                                                                    uint64_t now)
{
    ht_functions_mark_mpi_path(node, now);
    if (t->tracing)
        ht_trace_mpi_node(t, node, now);
}

struct ht_mpi_call {
    struct ht_thread *thread;
    struct ht_mpi_thread *mpi;
    struct ht_node *node;   /* where this call's messages go */
    uintptr_t routine;
    uint64_t start, end;
    /* Set by the collective patterns, for trace mode: the communicator
     * and root (-1: none) of the collective. */
    MPI_Comm comm;
    int root;
    bool counted; /* the routine's node was entered with counters read */
    /* Set by a persistent collective's wrapper (MPI_Bcast_init, ...)
     * before its pattern: the request is registered inactive, for
     * MPI_Start, instead of active (record.h). */
    bool persistent;
};

/* What every start of a recorded call does once the clock is read: enter
 * the routine's node (or the trace's event) and fill in the call.  Returns
 * how the tree moved, for the counters. */
HT_NOINSTR static inline enum ht_tree_move ht_mpi_call_enter(struct ht_mpi_call *c,
                                                             struct ht_thread *t,
                                                             uintptr_t routine, uint64_t now,
                                                             uintptr_t sp, uintptr_t site)
{
    enum ht_tree_move move = HT_UNLIKELY(t->tracing)
                                 ? ht_trace_enter(t, routine, now, sp, site)
                                 : ht_tree_enter_either(&t->tree, routine, now, sp, site);
    c->thread = t;
    c->node = t->tree.current;
    /* Its callers carry message attribution: never throttled. */
    if (HT_UNLIKELY(!(c->node->flags & HT_NODE_MPI_ROUTINE)))
        ht_mpi_mark_node(t, c->node, now);
    c->routine = routine;
    c->start = now;
    c->comm = MPI_COMM_NULL;
    c->root = -1;
    c->persistent = false;
    return move;
}

/* The counters read at the routine's entry, when the tree moved into it. */
HT_NOINSTR static inline void ht_mpi_call_count(struct ht_mpi_call *c, struct ht_thread *t,
                                                enum ht_tree_move move)
{
    c->counted = HT_UNLIKELY(t->counting) && move == HT_MOVED;
    if (c->counted)
        ht_counters_entered(t, c->node);
}

/* The start of a wrapped call, after the logging check: false if the
 * wrapper is only to call PMPI.  ht_mpi_call_begin is the common case
 * alone, a leaf function without saved registers: the thread has its MPI
 * data and is in no MPI call, no request to poll, no trace, counters or
 * MPI_T performance variables, the clock is the TSC, and the routine's
 * node is one of the two children its caller entered last (tree.h,
 * ht_tree_enter_either).  Anything else goes to ht_mpi_call_begin_full
 * (call.c), before anything changed. */
bool ht_mpi_call_begin(struct ht_mpi_call *c, uintptr_t routine, uintptr_t sp, uintptr_t site);
bool ht_mpi_call_begin_full(struct ht_mpi_call *c, uintptr_t routine, uintptr_t sp,
                            uintptr_t site);

/* MPI_Init and MPI_Finalize are nodes whenever functions are recorded,
 * whether or not messages are logged. */
HT_NOINSTR static inline bool ht_mpi_call_begin_node(struct ht_mpi_call *c, uintptr_t routine,
                                                     uintptr_t sp, uintptr_t site)
{
    if (__atomic_load_n(&ht_recording, __ATOMIC_RELAXED) != HT_RECORDING_ON)
        return false;
    struct ht_thread *t = ht_thread_self;
    if (t == NULL && (t = ht_thread_attach()) == NULL)
        return false;
    if (HT_UNLIKELY(t->catch_up))
        ht_runtime_catch_up(t);
    enum ht_tree_move move = ht_mpi_call_enter(c, t, routine, ht_clock_now(), sp, site);
    c->mpi = NULL;
    ht_mpi_call_count(c, t, move);
    return true;
}

/* Expanded in the wrapper itself, so that the stack pointer and call site
 * are the program's call to the MPI routine.  The stack pointer is that of
 * the wrapper on entry (below the return address), as an instrumented
 * callee's is below its caller's: see ht_tree_call_was_left. */
#define HT_WRAPPER_SP() ((uintptr_t)__builtin_dwarf_cfa() - sizeof(void *))
#define HT_MPI_CALL_BEGIN(call, routine)                                        \
    ht_mpi_call_begin((call), (uintptr_t)&(routine), HT_WRAPPER_SP(),          \
                      (uintptr_t)__builtin_return_address(0))

#define HT_MPI_CALL_BEGIN_NODE(call, routine)                                   \
    ht_mpi_call_begin_node((call), (uintptr_t)&(routine), HT_WRAPPER_SP(),     \
                           (uintptr_t)__builtin_return_address(0))

HT_NOINSTR HT_ALWAYS_INLINE static inline void ht_mpi_call_returned(struct ht_mpi_call *c)
{
    c->end = ht_clock_now();
    /* The routine's counts are the PMPI call's, like its time; the node is
     * still the current one (the tree moves in ht_mpi_call_end). */
    if (HT_UNLIKELY(c->counted) && c->node == c->thread->tree.current)
        ht_counters_left(c->thread, c->node);
    if (c->mpi) {
        if (HT_UNLIKELY(ht_mpit_pvars_active))
            ht_mpit_call_end(c->node, c->end);
        c->mpi->in_mpi = 0;
    }
}

/* Gives up on a call after HT_MPI_CALL_BEGIN (out of memory): leaves the
 * node as if the routine returned at once. */
HT_NOINSTR static inline void ht_mpi_call_end(struct ht_mpi_call *c);
HT_NOINSTR static inline void ht_mpi_call_abandon(struct ht_mpi_call *c)
{
    ht_mpi_call_returned(c);
    ht_mpi_call_end(c);
}

/* The node's time is the PMPI routine's; recording after it is the caller's. */
HT_NOINSTR HT_ALWAYS_INLINE static inline void ht_mpi_call_end(struct ht_mpi_call *c)
{
    if (HT_UNLIKELY(c->thread->tracing))
        ht_trace_exit(c->thread, c->routine, c->end);
    else
        ht_tree_exit(&c->thread->tree, c->routine, c->end);
}

#endif
