#include "throttle/rule.h"

void ht_throttle_rule_make(struct ht_throttle_rule *rule, double hook_pair_ns_measured,
                           double budget, uint64_t max_ns_per_call)
{
    double used = hook_pair_ns_measured;
    /* Written so that a NaN also lands on the lower bound. */
    if (!(used >= HT_THROTTLE_HOOK_NS_MIN))
        used = HT_THROTTLE_HOOK_NS_MIN;
    else if (used > HT_THROTTLE_HOOK_NS_MAX)
        used = HT_THROTTLE_HOOK_NS_MAX;
    *rule = (struct ht_throttle_rule){
        .hook_pair_ns_measured = hook_pair_ns_measured,
        .hook_pair_ns = used,
        .budget = budget,
        .from_config = max_ns_per_call > 0,
    };
    if (rule->from_config) {
        rule->threshold_ns = max_ns_per_call;
        return;
    }
    /* The config admits budgets in [0.0001, 1]; anything else here is a
     * caller's mistake, answered with the widest threshold the config
     * could give rather than a division by zero. */
    double ns = budget > 0.0 ? used / budget : used / 0.0001;
    rule->threshold_ns = ns < 1.0 ? 1 : (uint64_t)(ns + 0.5);
}

uint64_t ht_throttle_threshold_ticks(uint64_t threshold_ns, double ticks_per_second)
{
    double ticks = (double)threshold_ns * 1e-9 * ticks_per_second;
    return ticks < 1.0 ? 1 : (uint64_t)ticks;
}

bool ht_throttle_cheap(uint64_t ticks, uint64_t calls, uint64_t threshold_ticks)
{
    return calls > 0 && ticks / calls < threshold_ticks;
}
