/* Proving that a hook call serves one function only (docs/rewriting.md,
 * "Which calls are rewritten").
 *
 * Compilers merge identical instruction tails (GCC's cross-jumping, at -Os
 * and -O2): the exit hook calls of two inlined functions can become one
 * call instruction, reached with %rdi holding either function.  Rewriting
 * it for one would silence the other.  So a call is rewritten only if,
 * within its function's code (from the unwind tables), every path that
 * reaches it sets %rdi to the throttled function: walking back from the
 * call through every predecessor (fall-through, and every direct jump to
 * it, found by decoding the whole function), through register copies and
 * stack spills, to a `lea f(%rip)`, `mov $f` or GOT load of that very
 * address.  Anything else gives up: an instruction that may write the
 * register it does not understand, a call clobbering it, an indirect jump
 * in the function (a jump table could land anywhere), an exception landing
 * pad, the function's entry, a decoding that does not cover the function
 * exactly.  docs/rewriting.md lists what is proven and what is not. */
#ifndef HT_THROTTLE_SITE_PROOF_H
#define HT_THROTTLE_SITE_PROOF_H

#include <stdbool.h>
#include <stdint.h>

/* The byte at `at` as compiled (patch.c knows what it rewrote). */
typedef uint8_t (*ht_original_byte_fn)(uintptr_t at);

/* Whether the call (or sibling-call jump) to a hook whose first byte is at
 * `call` is reached only with `value` in register reg (x86-64 numbering:
 * the function in %rdi; a hand-over of inlined calls also has its scope in
 * %rdx).  Not reentrant: callers hold patch.c's lock.  Async-signal-safe
 * (its scratch space is mmap'ed). */
#define HT_REG_RDI 7u
#define HT_REG_RDX 2u
bool ht_site_register_holds(uintptr_t call, unsigned reg, uintptr_t value,
                            ht_original_byte_fn original);

static inline bool ht_site_serves_only(uintptr_t call, uintptr_t function,
                                       ht_original_byte_fn original)
{
    return ht_site_register_holds(call, HT_REG_RDI, function, original);
}

/* Code was unmapped: what was learnt of the function decoded last goes. */
void ht_site_proof_forget(void);

#endif
