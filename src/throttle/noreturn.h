/* Whether a call never returns: abort, exit, __stack_chk_fail, the
 * sanitizers' reports without recovery, C++ throws and the like.  Code
 * after such a call is not reached from it, which site_proof.c must know:
 * compilers put these calls at the end of blocks and let the next block
 * follow (sanitized code is full of them).  A call through a PLT entry or
 * a GOT slot is known by its callee's name (from the dynamic relocation
 * that fills the slot); a direct call, by its callee's code having no way
 * out (no return, no jump leaving it); any other call is assumed to
 * return.  Callers hold patch.c's
 * lock.  Async-signal-safe (_dl_find_object and reads only). */
#ifndef HT_THROTTLE_NORETURN_H
#define HT_THROTTLE_NORETURN_H

#include <stdbool.h>
#include <stdint.h>

/* direct_target: the target of a `call rel32` (a PLT entry), or 0 and
 * slot: the GOT slot of a `call *disp32(%rip)`. */
bool ht_call_never_returns(uintptr_t direct_target, uintptr_t slot);

#endif
