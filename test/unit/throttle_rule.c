/* The throttling rule (src/throttle/rule.c, docs/throttle.md "The rule"):
 * the threshold from the hook pair cost and the budget, the clamp of a
 * nonsensical calibration, the config's max_ns_per_call winning, the
 * conversion to ticks and the decision on each side of the threshold, on
 * exact numbers. */
#include <math.h>

#include "check.h"
#include "throttle/rule.h"

#define CHECK_EQ_DOUBLE(actual, expected) CHECK((actual) == (expected))

static uint64_t threshold(double hook_ns, double budget, uint64_t max_ns)
{
    struct ht_throttle_rule r;
    ht_throttle_rule_make(&r, hook_ns, budget, max_ns);
    return r.threshold_ns;
}

int main(void)
{
    struct ht_throttle_rule r;

    /* The default budget, 2%, and this machine's hook pair, about 20 ns:
     * functions under 1 us a call are throttled. */
    ht_throttle_rule_make(&r, 20.0, 0.02, 0);
    CHECK_EQ_U64(r.threshold_ns, 1000);
    CHECK(!r.from_config);
    CHECK_EQ_DOUBLE(r.hook_pair_ns, 20.0);
    CHECK_EQ_DOUBLE(r.hook_pair_ns_measured, 20.0);
    CHECK_EQ_DOUBLE(r.budget, 0.02);
    CHECK_EQ_U64(threshold(19.5, 0.02, 0), 975);
    CHECK_EQ_U64(threshold(19.51, 0.02, 0), 976); /* 975.5: rounded to the nearest ns */
    CHECK_EQ_U64(threshold(20.0, 0.01, 0), 2000);
    CHECK_EQ_U64(threshold(20.0, 0.1, 0), 200);
    CHECK_EQ_U64(threshold(20.0, 1.0, 0), 20);    /* throttled when the hooks cost more than it */
    CHECK_EQ_U64(threshold(20.0, 0.0001, 0), 200000);
    CHECK_EQ_U64(threshold(55.0, 0.02, 0), 2750); /* a clock_gettime machine: a higher bar */

    /* A calibration that makes no sense is clamped to [5, 200] ns: 0 (not
     * measured), a NaN, or a machine so loaded every round was preempted. */
    ht_throttle_rule_make(&r, 0.0, 0.02, 0);
    CHECK_EQ_DOUBLE(r.hook_pair_ns, HT_THROTTLE_HOOK_NS_MIN);
    CHECK_EQ_DOUBLE(r.hook_pair_ns_measured, 0.0);
    CHECK_EQ_U64(r.threshold_ns, 250);
    CHECK_EQ_U64(threshold(4.99, 0.02, 0), 250);
    CHECK_EQ_U64(threshold(5.0, 0.02, 0), 250);
    CHECK_EQ_U64(threshold(NAN, 0.02, 0), 250);
    CHECK_EQ_U64(threshold(-3.0, 0.02, 0), 250);
    ht_throttle_rule_make(&r, 950.0, 0.02, 0);
    CHECK_EQ_DOUBLE(r.hook_pair_ns, HT_THROTTLE_HOOK_NS_MAX);
    CHECK_EQ_DOUBLE(r.hook_pair_ns_measured, 950.0);
    CHECK_EQ_U64(r.threshold_ns, 10000); /* never above TAU's 10 us at the default budget */
    CHECK_EQ_U64(threshold(200.0, 0.02, 0), 10000);
    CHECK_EQ_U64(threshold(INFINITY, 0.02, 0), 10000);

    /* max_ns_per_call set: it is the threshold, whatever the hooks cost. */
    ht_throttle_rule_make(&r, 20.0, 0.02, 10000);
    CHECK(r.from_config);
    CHECK_EQ_U64(r.threshold_ns, 10000);
    CHECK_EQ_DOUBLE(r.hook_pair_ns, 20.0);
    CHECK_EQ_U64(threshold(950.0, 0.5, 1), 1);
    CHECK_EQ_U64(threshold(20.0, 0.02, 1000000000), 1000000000);

    /* A budget outside what the config admits never divides by zero. */
    CHECK_EQ_U64(threshold(20.0, 0.0, 0), 200000);

    /* Nanoseconds to ticks: a 1 GHz clock, a 2.5 GHz TSC, at least 1. */
    CHECK_EQ_U64(ht_throttle_threshold_ticks(1000, 1e9), 1000);
    CHECK_EQ_U64(ht_throttle_threshold_ticks(1000, 2.5e9), 2500);
    CHECK_EQ_U64(ht_throttle_threshold_ticks(975, 2.5e9), 2437);
    CHECK_EQ_U64(ht_throttle_threshold_ticks(1, 1e8), 1);
    CHECK_EQ_U64(ht_throttle_threshold_ticks(10000, 3e9), 30000);

    /* The decision: the mean in whole ticks under the threshold. */
    const uint64_t t = 2500, n = 100001;
    CHECK(ht_throttle_cheap(n * (t - 1), n, t));             /* a tick under: throttled */
    CHECK(ht_throttle_cheap(n * t - 1, n, t));               /* the mean rounds down to t - 1 */
    CHECK(!ht_throttle_cheap(n * t, n, t));                  /* at the threshold: kept */
    CHECK(!ht_throttle_cheap(n * (t + 1), n, t));
    CHECK(ht_throttle_cheap(n * 50, n, t));                  /* a few-ns function: 20 ns */
    CHECK(!ht_throttle_cheap(n * 7500, n, t));               /* a 3 us kernel at 2.5 GHz */
    CHECK(!ht_throttle_cheap(n * 50000, n, t));              /* a 20 us kernel */
    CHECK(!ht_throttle_cheap(0, 0, t));                      /* no call: nothing to decide */
    CHECK(ht_throttle_cheap(0, 1, 1));
    CHECK(!ht_throttle_cheap(1, 1, 1));
    /* The same kernel under the old fixed 10 us at 2.5 GHz: throttled. */
    CHECK(ht_throttle_cheap(n * 7500, n, ht_throttle_threshold_ticks(10000, 2.5e9)));
    /* ... and under the rule with 20 ns hooks and 2%: kept. */
    CHECK(!ht_throttle_cheap(n * 7500, n, ht_throttle_threshold_ticks(threshold(20.0, 0.02, 0), 2.5e9)));

    return CHECK_DONE();
}
