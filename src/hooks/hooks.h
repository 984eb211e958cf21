/* What the hooks (hooks.c, longjmp.c, regions.c) share. */
#ifndef HT_HOOKS_HOOKS_H
#define HT_HOOKS_HOOKS_H

#include <stdint.h>

#include "common/compiler.h"
#include "common/clock.h"
#include "callstack/thread.h"
#include "runtime/runtime.h"

/* The stack address of the instrumented function at its call to the hook:
 * the hook's canonical frame address.  A callee's is strictly lower than its
 * caller's; a function inlined into its caller has the caller's; and a
 * setjmp's saved stack pointer equals that of the function that called it,
 * which is what lets a longjmp close exactly the calls it leaves.  Must be
 * expanded inside the hook itself, hence a macro. */
#define HT_CALLER_SP() ((uintptr_t)__builtin_dwarf_cfa())

/* A signal handler compiled with -finstrument-functions can run on this
 * thread in the middle of a general path (a node half added to the hash,
 * the arena growing, a trace buffer being flushed).  While one runs, the
 * thread's in_hook makes its general_path word non-zero, so the handler's
 * hooks come here too, and decline: they are counted, never recorded.
 * The fast path's few stores leave the tree consistent after each one, so
 * it needs no flag. */
HT_NOINSTR static inline bool ht_hook_begin(struct ht_thread *t)
{
    if (HT_UNLIKELY(t->in_hook)) {
        t->tree.nested_declined++;
        return false;
    }
    t->hook_frame = (uintptr_t)__builtin_frame_address(0);
    t->in_hook = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return true;
}

HT_NOINSTR static inline void ht_hook_end(struct ht_thread *t)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->in_hook = 0;
}

/* A call of function (or a region's record) that returns while recording
 * is paused (hooks.c). */
void ht_hook_leave_paused(struct ht_thread *t, uintptr_t function);

#endif
