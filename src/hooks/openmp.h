/* What the OpenMP interposers (openmp.c: parallel regions and teams,
 * openmp_tasks.c: tasks and taskloops) share.
 *
 * GCC does not instrument the functions it outlines for an OpenMP construct
 * (main._omp_fn.0, ...), so without these wrappers a worker thread's tree
 * starts with whatever the region's body calls, and the region itself has
 * no node on any thread.  libhooktrace defines the libgomp entry points
 * that take an outlined function; each passes the real one (found with
 * dlsym(RTLD_NEXT)) a function of its own that enters a node for the
 * outlined function around the call.  The node's function address is the
 * outlined function's, so it is named like any function: main._omp_fn.0,
 * at the file and line of its pragma (docs/reading.md). */
#ifndef HT_HOOKS_OPENMP_H
#define HT_HOOKS_OPENMP_H

#include <stdbool.h>
#include <stdint.h>

#include "hooks/hooks.h"

/* The outlined function of the parallel region (or task's region) whose
 * body this thread is running, 0 outside any; a task run outside its
 * region's body (at the barrier that ends the region) enters the region's
 * node again first (openmp_tasks.c). */
extern __thread uintptr_t ht_omp_region __attribute__((tls_model("initial-exec")));

/* The real libgomp function `name`, looked up once into *slot: through
 * RTLD_NEXT, else in libgomp.so.1 loaded by name (a program whose only
 * references to libgomp were taken by libhooktrace, linked with
 * --as-needed, has no libgomp of its own).  Aborts with a message if
 * there is none: the program's construct cannot run without it. */
void *ht_omp_real(void **slot, const char *name);

HT_NOINSTR static inline void *ht_omp_real_cached(void **slot, const char *name)
{
    void *real = __atomic_load_n(slot, __ATOMIC_RELAXED);
    return HT_LIKELY(real != NULL) ? real : ht_omp_real(slot, name);
}

/* Enters the node of `function` under this thread's current node; NULL if
 * nothing is recorded (recording off, no memory), and then ht_omp_leave
 * must not be called.  counted=false enters without adding a call: a
 * region's node entered again to hold a task run after its body returned.
 * sp and site as for the hooks (HT_OMP_SP below, the return address). */
struct ht_thread *ht_omp_enter(uintptr_t function, uintptr_t sp, uintptr_t site, bool counted);
void ht_omp_leave(struct ht_thread *t, uintptr_t function);

/* A wrapper's stack address as a callee's (below its return address): see
 * ht_tree_call_was_left.  Expanded in the wrapper itself. */
#define HT_OMP_SP() ((uintptr_t)__builtin_dwarf_cfa() - sizeof(void *))

#endif
