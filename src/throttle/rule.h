/* The throttling rule (docs/throttle.md, "The rule"), as pure arithmetic so
 * that it is tested on exact numbers (test/unit/throttle_rule.c).
 *
 * A function is throttled when its hooks are a material share of its own
 * time: when its mean inclusive time per call is under the cost of one
 * enter+exit hook pair, measured at start-up, divided by the budget (the
 * share of a call's time the hooks may take; 2% by default, so 20 ns of
 * hooks give a 1 us threshold).  A borrowed constant (TAU's 10 us) would
 * throttle microsecond kernels that our 20 ns hooks barely touch.  A
 * max_ns_per_call in the config replaces the derived threshold. */
#ifndef HT_THROTTLE_RULE_H
#define HT_THROTTLE_RULE_H

#include <stdbool.h>
#include <stdint.h>

/* The hook pair cost taken, whatever the calibration says.  Below 5 ns no
 * pair of timestamps and a tree step can run (0 means it was not
 * measured); above 200 ns the calibration was disturbed (every round
 * preempted) rather than the hooks slow, and 200 ns keeps the threshold at
 * the default budget at 10 us, TAU's constant, which this rule replaces. */
#define HT_THROTTLE_HOOK_NS_MIN 5.0
#define HT_THROTTLE_HOOK_NS_MAX 200.0

struct ht_throttle_rule {
    double hook_pair_ns_measured; /* as measured (or fixed for a test) */
    double hook_pair_ns;          /* the same within [MIN, MAX]: the one used */
    double budget;                /* the hooks' share of a call's time */
    uint64_t threshold_ns;        /* throttled under this mean, inclusive */
    bool from_config;             /* threshold_ns is max_ns_per_call */
};

/* The rule for a measured hook pair cost, a budget in (0, 1] and the
 * config's max_ns_per_call (0: not set). */
void ht_throttle_rule_make(struct ht_throttle_rule *rule, double hook_pair_ns_measured,
                           double budget, uint64_t max_ns_per_call);

/* threshold_ns in clock ticks: at least 1. */
uint64_t ht_throttle_threshold_ticks(uint64_t threshold_ns, double ticks_per_second);

/* Whether calls that took ticks in all are cheap enough to throttle:
 * their mean, in whole ticks, is under threshold_ticks. */
bool ht_throttle_cheap(uint64_t ticks, uint64_t calls, uint64_t threshold_ticks);

#endif
