/* Named phases: the switch of one thread's tree (phases.c). */
#ifndef HT_CALLSTACK_PHASES_H
#define HT_CALLSTACK_PHASES_H

#include <stdbool.h>
#include <stdint.h>

#include "callstack/tree.h"

/* From now on the thread records below the root node `phase` (a region
 * record's address: callstack/regions.h), entered at now: the calls open
 * below the root (or below the previous phase) end their time there and
 * are opened again below `phase`, with no call counted.  False, and
 * nothing changed, while an MPI call is open on the thread, beyond the
 * depth limit, or out of memory: the caller tries again later. */
bool ht_tree_switch_phase(struct ht_tree *tree, uintptr_t phase, uint64_t now);

#endif
