/* Rewriting a hook's call instruction in the running program, so that a
 * throttled function's calls no longer reach the hook (docs/rewriting.md).
 *
 * The call is found from the hook's return address: the instruction just
 * before it is `call rel32` (E8, 5 bytes, straight to the hook or to its PLT
 * entry) or `call *disp32(%rip)` (FF 15, 6 bytes, through the GOT, as with
 * -fno-plt).  Its first byte alone is replaced: E8 becomes 3D, making
 * `cmp $imm32, %eax`, and FF 15 becomes 8D 15, `lea disp32(%rip), %edx`.
 * Both have the call's length and touch only what a call clobbers anyway
 * (the flags, %rdx), so they are no-ops for the program.  A one-byte store
 * is atomic, so a thread running that code meanwhile executes either the
 * old call (and the hook declines it) or the new instruction, never a mix.
 *
 * A call is rewritten only if it serves the throttled function alone: it
 * was never reached for another, and site_proof.h proves that every path
 * to it loads that function into %rdi (compilers share one call between
 * inlined functions).  The page is made writable (keeping its other
 * permissions) with mprotect for the store, with signals blocked, and then
 * given back its mapping's protection as /proc/self/maps lists it; only
 * readable, executable, unwritable private mappings are touched.  Other
 * threads' cores are synchronised after each store with membarrier
 * (without it, code is rewritten only in a single-threaded process), and
 * fork waits for a store in progress (pthread_atfork), so no child starts
 * with a writable code page.  Everything here is async-signal-safe (raw
 * system calls, no allocation after the first mmap).  A thread that finds
 * another patching waits for it, boundedly (patch.c), so that each thread
 * reaches a rewritten call's hook at most once more. */
#ifndef HT_THROTTLE_PATCH_H
#define HT_THROTTLE_PATCH_H

#include <stdbool.h>
#include <stdint.h>

enum ht_patch_result {
    HT_PATCH_DONE,      /* rewritten now */
    HT_PATCH_ALREADY,   /* rewritten before (by another thread, say) */
    HT_PATCH_BUSY,      /* another thread is patching: try on the next call */
    HT_PATCH_CANNOT,    /* not a call we can rewrite, or mprotect refused */
};

/* The hook entry points a call must reach to be rewritten, as the program's
 * calls see them.  The hooks pass their own addresses down, so that this
 * folder needs no reference to the layer above it. */
struct ht_hook_pair {
    uintptr_t enter, exit;
    uintptr_t counts; /* hooktrace_inlined_calls_in: inlined calls handed over */
};

/* Before the first rewrite (reads the mappings). */
void ht_patch_init(void);

/* Rewrites the hook call that returns to return_address, made by the
 * function at `function` (exit: to its exit hook).  An exit hook can also
 * be reached by a jump at the end of the function, which is then searched
 * for in the function's code and rewritten into `ret` (patch.c says how;
 * once per function). */
enum ht_patch_result ht_patch_hook_call(uintptr_t return_address, uintptr_t function, bool exit,
                                        const struct ht_hook_pair *hooks);

/* Rewrites the hand-over of inlined calls (hooks->counts) that returns to
 * return_address, made for the copy id inside the function or copy scope,
 * once scope's hooks no longer record: only if every path to it loads id
 * into %rdi and scope into %rdx. */
enum ht_patch_result ht_patch_counts_call(uintptr_t return_address, uintptr_t id, uintptr_t scope,
                                          const struct ht_hook_pair *hooks);

/* A thread of hooktrace's own that never runs the program's code (the
 * signal watcher): without membarrier, it does not make the process
 * multi-threaded for rewriting (patch.c).  At most a few. */
void ht_patch_thread_runs_no_program_code(long tid);

/* The code in [lo, hi) was unmapped (dlclose): what was recorded of its
 * call sites is forgotten, so that code loaded there later starts afresh. */
void ht_patch_forget(uintptr_t lo, uintptr_t hi);

struct ht_patch_stats {
    uint64_t sites_patched;   /* calls rewritten */
    uint64_t sites_unpatched; /* calls that could not be rewritten */
    int refused_errno;        /* mprotect's errno if it refused; 0 otherwise */
};
void ht_patch_stats(struct ht_patch_stats *out);

#endif
