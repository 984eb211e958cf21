/* Throttling: a function called very often for very little time costs the
 * program more than it tells the user, so after min_calls calls that took
 * on average less than the threshold (rule.h: the measured hook pair cost
 * over the budget, or the config's max_ns_per_call) it stops being
 * recorded, and the calls to its hooks are rewritten into no-ops
 * (patch.c).  docs/throttle.md says what users see.
 *
 * The check costs the hot path one compare: when a node's call count
 * reaches min_calls + 1, its exit hook looks at the node's average
 * inclusive time.  A function is never throttled if an MPI routine was
 * entered beneath it (it carries message attribution), if it is main, or
 * if the config names it in "never". */
#ifndef HT_THROTTLE_THROTTLE_H
#define HT_THROTTLE_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callstack/thread.h"
#include "throttle/patch.h"
#include "throttle/rule.h"

/* What throttling did (docs/throttle.md).  In a merged profile the counts
 * are summed over ranks. */
struct ht_throttle_info {
    bool enabled;
    bool patch_code;           /* the config lets it rewrite hook calls */
    int patch_refused_errno;   /* mprotect's errno where it refused, else 0 */
    uint64_t min_calls;
    struct ht_throttle_rule rule; /* the threshold and what it came from */
    bool hook_pair_fixed;      /* HOOKTRACE_HOOK_NS_TEST gave the hook cost */
    double hook_calls_avoided; /* estimated: two per call each throttled
                                  function would have made at its rate */
    uint64_t sites_patched, sites_unpatched; /* hook calls rewritten, or not */
};

struct ht_throttle_settings {
    bool enabled;
    uint64_t min_calls;
    double hook_pair_ns;         /* measured at start-up (the runtime) */
    double budget;               /* the hooks' share of a call's time */
    uint64_t max_ns_per_call;    /* 0: the threshold comes from the two above */
    bool patch_code;             /* rewrite the hook calls (else: the flag only) */
    const uintptr_t *never;      /* entry addresses never throttled */
    size_t nnever;
    /* Entry addresses of the functions the config excludes
     * (exclude_functions, filter_file): throttled before their first
     * call, whether throttling is on or not, so that their hook calls are
     * rewritten the first time each is reached and they leave no node. */
    const uintptr_t *excluded;
    size_t nexcluded;
    /* The config excludes functions: the registry and the rewriting are
     * in use even if none was found at start-up, and observer (if set) is
     * the registry's (callstack/functions.h), which finds those of the
     * libraries loaded later and passes them to ht_throttle_exclude. */
    bool exclusions;
    bool (*observer)(uintptr_t address);
};

/* At start-up, before any thread records.  The variable
 * HOOKTRACE_HOOK_NS_TEST, for hooktrace's tests only, replaces the
 * measured hook pair cost (docs/config.md, "Environment variables"), so
 * that a test can place functions on each side of the threshold whatever
 * the machine. */
void ht_throttle_setup(const struct ht_throttle_settings *settings);

/* Functions the config excludes, of a library loaded after start-up:
 * throttled now, as settings.excluded were at start-up. */
void ht_throttle_exclude(const uintptr_t *addresses, size_t n);

/* Whether the registry and the rewriting are in use (throttling on, or
 * functions excluded): what dlclose must then retire. */
bool ht_throttle_in_use(void);

/* The call counts at which an exiting node is looked at: min_calls + 1,
 * 10 x min_calls + 1 and 100 x min_calls + 1 (a later look for a sample a
 * preemption spoiled), UINT64_MAX for none.  Each thread copies them. */
extern uint64_t ht_throttle_look_calls[HT_THROTTLE_LOOKS];

/* A node of this thread just completed its (min_calls + 1)th call; exit_site
 * is the exit hook's return address.  Returns true if this call throttled
 * the node's function. */
bool ht_throttle_consider(struct ht_thread *t, struct ht_node *node, uintptr_t exit_site,
                          const struct ht_hook_pair *hooks);

/* A hook (exit: the exit hook) of the throttled function at `function` was
 * called from hook_site (its return address): rewrite that call. */
void ht_throttle_site_reached(struct ht_thread *t, uintptr_t hook_site, uintptr_t function,
                              bool exit, const struct ht_hook_pair *hooks);

/* A hand-over of the calls of the inlined copy id, counted inside scope
 * (a function or a copy that kept its hooks), reached from site while
 * scope is not the current call: true if that is because scope is
 * throttled.  Then its copies' calls stop counting with it, as its own
 * did, and the hand-over at site is rewritten like a hook call. */
bool ht_throttle_declines_counts(struct ht_thread *t, uintptr_t site, uintptr_t id,
                                 uintptr_t scope, const struct ht_hook_pair *hooks);

/* The code in [lo, hi) was unmapped (dlclose): its functions' throttling
 * state and what was recorded of their call sites are retired, so that a
 * library loaded there later is recorded (and throttled) afresh. */
void ht_throttle_code_unmapped(uintptr_t lo, uintptr_t hi);

/* Counts the unmappings above: what a hook remembers of call sites is
 * good while it stays the same. */
extern uint64_t ht_throttle_code_generation;

/* What throttling did in this process, as of end_tick; overhead: what a
 * recorded call costs in hooks, in ticks. */
void ht_throttle_report(uint64_t end_tick, double overhead_ticks_per_call,
                        struct ht_throttle_info *out);

#endif
