/* Measures what one instrumented call costs the program, at start-up (the
 * throttling threshold derives from it, src/throttle/rule.h), on this
 * machine: the hook bodies run on a scratch tree for a fixed pattern of calls
 * (a loop calling two functions, as profiled code typically does) and the
 * time per call is taken from CLOCK_MONOTONIC.  It leaves out the two call
 * instructions into the hooks themselves, a nanosecond or two. */
#include <stdlib.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "runtime/runtime.h"

/* Nine rounds of 3,000 calls: about 70 us each here, so the whole
 * calibration costs well under a millisecond and a few million
 * instructions per process, and the fastest round is still one that no
 * other process disturbed (BENCHMARKS.md, "Start-up and finalize"). */
#define CALIBRATION_LOOPS 1000
#define CALIBRATION_ROUNDS 9

/* The work of the two hooks on their common path (src/hooks/hooks.c). */
HT_NOINSTR static inline void hook_enter(struct ht_thread *t, uintptr_t function, uintptr_t sp,
                                         uintptr_t site)
{
    ht_tree_enter(&t->tree, function, ht_clock_now(), sp, site);
}

HT_NOINSTR static inline void hook_exit(struct ht_thread *t, uintptr_t function)
{
    ht_tree_exit(&t->tree, function, ht_clock_now());
}

double ht_overhead_seconds_per_call(void)
{
    /* Nodes are cache-line aligned, and so must be the tree holding the root. */
    struct ht_thread *t = aligned_alloc(64, (sizeof *t + 63) & ~(size_t)63);
    if (!t)
        return 0.0;
    memset(t, 0, sizeof *t);
    ht_tree_init(&t->tree, 64);
    /* Stack addresses must decrease with depth, as real ones do. */
    const uintptr_t outer_sp = (uintptr_t)1 << 40, inner_sp = outer_sp - 256;
    const uintptr_t loop_fn = 0x1000, first_fn = 0x2000, second_fn = 0x3000;
    double best = 0.0;
    for (int round = 0; round < CALIBRATION_ROUNDS; round++) {
        uint64_t t0 = ht_clock_monotonic_ns();
        for (int i = 0; i < CALIBRATION_LOOPS; i++) {
            hook_enter(t, loop_fn, outer_sp, 0x10);
            hook_enter(t, first_fn, inner_sp, 0x20);
            hook_exit(t, first_fn);
            hook_enter(t, second_fn, inner_sp, 0x30);
            hook_exit(t, second_fn);
            hook_exit(t, loop_fn);
        }
        uint64_t t1 = ht_clock_monotonic_ns();
        double per_call = (double)(t1 - t0) * 1e-9 / (3.0 * CALIBRATION_LOOPS);
        /* The fastest round is the one least disturbed by other processes. */
        if (round == 0 || per_call < best)
            best = per_call;
    }
    ht_tree_release(&t->tree);
    free(t);
    return best;
}
