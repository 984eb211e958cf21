/* Trace mode: every call and message as an event in time (docs/trace.md).
 *
 * While a program runs, each thread appends compact binary records to its
 * own buffer (no lock, no OTF2 call, no allocation): a function entry or
 * exit is two words, the tick and the tree node.  A full buffer is written
 * to an unlinked spill file and reused, so memory stays within the budget
 * the config sets.  At the end (MPI_Finalize, or exit for a program
 * without MPI) the records are turned into an OTF2 archive whose
 * definitions are unified across ranks (src/trace/archive*.c).
 *
 * The Enter and Leave events are derived from the tree itself: whatever
 * moves the thread's current node (a call, a return, a longjmp, a call
 * folded at the depth limit) is traced as the Leaves and Enters that take
 * the old node to the new one, so the events always nest. */
#ifndef HT_TRACE_TRACE_H
#define HT_TRACE_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "callstack/thread.h"
#include "config/config.h"

/* Whether trace mode is on for this run (config "trace.enabled" and the
 * folder could be created). */
extern int ht_trace_enabled;

/* At start-up, after the config is loaded: checks the trace folder.
 * Returns false (and says why on stderr) if tracing cannot work; the
 * profile is still written. */
bool ht_trace_setup(const struct ht_config *cfg);

/* Gives a newly attached thread its buffer (sets t->tracing). */
void ht_trace_attach(struct ht_thread *t);

/* ht_tree_enter / ht_tree_exit plus the events that follow from them. */
enum ht_tree_move ht_trace_enter(struct ht_thread *t, uintptr_t function, uint64_t now,
                                 uintptr_t sp, uintptr_t site);
enum ht_tree_move ht_trace_exit(struct ht_thread *t, uintptr_t function, uint64_t now);

/* The node's function was just throttled by this thread, at its exit:
 * the trace says where, with the function's calls so far. */
void ht_trace_throttled(struct ht_thread *t, struct ht_node *node, uint64_t now);

/* The node just entered is an MPI routine's, marked as one for the first
 * time: past the bound, where only MPI routines are traced, its Enter is
 * recorded now. */
void ht_trace_mpi_node(struct ht_thread *t, struct ht_node *node, uint64_t now);

/* After the tree's current node moved from `before` by other means (a
 * longjmp unwound it). */
void ht_trace_moved(struct ht_thread *t, struct ht_node *before, uint64_t now);

#endif
