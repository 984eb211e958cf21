/* What the hooks (hooks.c, longjmp.c) share. */
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

#endif
