/* State shared by the instrumentation hooks and start-up/shut-down. */
#ifndef HT_HOOKS_HOOKS_H
#define HT_HOOKS_HOOKS_H

#include <stdint.h>

#include "common/compiler.h"
#include "hooks/clock.h"
#include "hooks/thread.h"

/* Non-zero while the hooks record: set after start-up unless profiling is
 * off, cleared before the profile is written, so calls that happen after
 * that (other exit handlers, other threads) are ignored. */
extern int ht_recording;

/* libhooktrace's own code: an address in [start, start + size) is never
 * recorded, even if the library was compiled with -finstrument-functions. */
extern uintptr_t ht_self_text_start, ht_self_text_size;

/* The stack address of the instrumented function at its call to the hook:
 * the hook's canonical frame address.  A callee's is strictly lower than its
 * caller's; a function inlined into its caller has the caller's; and a
 * setjmp's saved stack pointer equals that of the function that called it,
 * which is what lets a longjmp close exactly the calls it leaves.  Must be
 * expanded inside the hook itself, hence a macro. */
#define HT_CALLER_SP() ((uintptr_t)__builtin_dwarf_cfa())

/* The body of both hooks on a clock-independent path; the overhead
 * calibration runs these. */
HT_NOINSTR static inline void ht_hook_enter(struct ht_thread *t, uintptr_t function,
                                            uintptr_t sp, uintptr_t site)
{
    ht_tree_enter(&t->tree, function, ht_clock_now(), sp, site);
}

HT_NOINSTR static inline void ht_hook_exit(struct ht_thread *t, uintptr_t function)
{
    ht_tree_exit(&t->tree, function, ht_clock_now());
}

/* Writes the profile now (idempotent).  The library's destructor calls it:
 * without MPI it writes <basename>.*, after MPI_Init without MPI_Finalize
 * each rank writes <basename>_<rank>.* on its own. */
void ht_finish(void);

/* From the MPI_Finalize wrapper, before PMPI_Finalize: the profile merged
 * across ranks (rank 0 writes the summary), then idempotent like
 * ht_finish. */
void ht_finish_mpi(void);

/* Polls the thread's open MPI requests (src/mpi), from the general path of
 * a hook when the thread has any. */
void ht_mpi_poll_from_hook(struct ht_thread *t, uint64_t now);

/* Measured cost of one instrumented call (enter + exit hook) in seconds. */
double ht_overhead_seconds_per_call(void);

#endif
