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

/* The stack address at which this hook runs; comparing it with the one
 * recorded at the current call's entry tells a callee from a call that was
 * left by longjmp (see HT_STACK_SPAN). */
HT_NOINSTR static inline uintptr_t ht_stack_pointer(void)
{
#if defined(__x86_64__)
    uintptr_t sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    return sp;
#else
    return (uintptr_t)__builtin_frame_address(0);
#endif
}

/* The body of both hooks, shared with the overhead calibration so that it
 * measures exactly what a hook does. */
HT_NOINSTR static inline void ht_hook_enter(struct ht_thread *t, uintptr_t function,
                                            uintptr_t sp, uintptr_t site)
{
    ht_tree_enter(&t->tree, function, ht_clock_now(), sp, site);
}

HT_NOINSTR static inline void ht_hook_exit(struct ht_thread *t, uintptr_t function)
{
    ht_tree_exit(&t->tree, function, ht_clock_now());
}

/* Writes the profile now (idempotent): the library's destructor calls it, and
 * later the MPI_Finalize wrapper. */
void ht_finish(void);

/* Measured cost of one instrumented call (enter + exit hook) in seconds. */
double ht_overhead_seconds_per_call(void);

#endif
