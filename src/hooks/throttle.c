#include "hooks/throttle.h"

#include "callstack/functions.h"
#include "hooks/clock.h"
#include "hooks/patch.h"

void __cyg_profile_func_enter(void *function, void *call_site);
void __cyg_profile_func_exit(void *function, void *call_site);

uint64_t ht_throttle_check_calls = UINT64_MAX;

static struct ht_throttle_settings settings;
static uint64_t max_ticks_per_call; /* 0 until the first check */
static uint64_t functions_throttled;

void ht_throttle_setup(const struct ht_throttle_settings *s)
{
    settings = *s;
    settings.never = NULL; /* not kept: marked in the registry below */
    settings.nnever = 0;
    if (!s->enabled || s->min_calls == 0)
        return;
    ht_functions_enable();
    if (!ht_functions_on) { /* no memory for the registry: stay off */
        settings.enabled = false;
        return;
    }
    uint64_t now = ht_clock_now();
    for (size_t i = 0; i < s->nnever; i++)
        ht_functions_set_flags(s->never[i], HT_FUNCTION_NEVER, now);
    if (s->patch_code)
        ht_patch_init((uintptr_t)&__cyg_profile_func_enter, (uintptr_t)&__cyg_profile_func_exit);
    ht_throttle_check_calls = s->min_calls + 1;
}

/* Converted on first use rather than at start-up: the tick rate is measured
 * against the run so far, which needs some of it. */
static uint64_t max_ticks(void)
{
    uint64_t v = __atomic_load_n(&max_ticks_per_call, __ATOMIC_RELAXED);
    if (v == 0) {
        double ticks = (double)settings.max_ns_per_call * 1e-9 * ht_clock_ticks_per_second_quick();
        v = ticks < 1.0 ? 1 : (uint64_t)ticks;
        __atomic_store_n(&max_ticks_per_call, v, __ATOMIC_RELAXED);
    }
    return v;
}

static void patch_site(uintptr_t site)
{
    if (site && settings.patch_code)
        ht_patch_hook_call(site);
}

void ht_throttle_consider(struct ht_thread *t, struct ht_node *node, uintptr_t exit_site)
{
    (void)t;
    if (!settings.enabled || (node->flags & HT_NODE_MPI_ROUTINE) || node->calls == 0)
        return;
    if (node->ticks_incl / node->calls >= max_ticks())
        return;
    struct ht_function_record *rec = ht_functions_find(ht_node_function(node));
    if (!rec || (__atomic_load_n(&rec->flags, __ATOMIC_RELAXED) &
                 (HT_FUNCTION_CALLS_MPI | HT_FUNCTION_NEVER)))
        return;
    if (!ht_functions_throttle(rec, ht_clock_now()))
        return;
    __atomic_add_fetch(&functions_throttled, 1, __ATOMIC_RELAXED);
    /* The call known here is this exit's; every other call is rewritten
     * when it next reaches a hook, which then declines it. */
    patch_site(exit_site);
}

void ht_throttle_site_reached(uintptr_t hook_site)
{
    patch_site(hook_site);
}

struct saved_estimate {
    uint64_t end_tick;
    double overhead_ticks; /* what one recorded call cost in hooks */
    double calls_saved;
};

/* A throttled function would have gone on at the rate it was called from
 * its first call to its throttling, two hook calls per call.  That rate is
 * taken without its own hooks' cost (at most 19/20 of the time is taken
 * out), since the calls after throttling run without it.  Other recorded
 * functions in the same loop still slowed the rate measured, and throttled
 * code runs faster, so the estimate errs low. */
static void estimate_saved(struct ht_function_record *rec, void *ctx)
{
    struct saved_estimate *e = ctx;
    if (!ht_function_is_throttled(rec))
        return;
    uint64_t calls = 0;
    for (const struct ht_node *n = __atomic_load_n(&rec->nodes, __ATOMIC_ACQUIRE); n;
         n = n->same_function_next)
        calls += n->calls;
    if (rec->throttled_tick <= rec->first_tick || e->end_tick <= rec->throttled_tick)
        return;
    double before = (double)(rec->throttled_tick - rec->first_tick);
    double without_hooks = before - (double)calls * e->overhead_ticks;
    if (without_hooks < before / 20.0)
        without_hooks = before / 20.0;
    e->calls_saved += 2.0 * (double)calls / without_hooks * (double)(e->end_tick - rec->throttled_tick);
}

void ht_throttle_report(uint64_t end_tick, double overhead_ticks_per_call,
                        struct ht_throttle_info *out)
{
    struct saved_estimate e = {.end_tick = end_tick, .overhead_ticks = overhead_ticks_per_call};
    ht_functions_visit(estimate_saved, &e);
    struct ht_patch_stats ps = {0};
    if (settings.enabled && settings.patch_code)
        ht_patch_stats(&ps);
    *out = (struct ht_throttle_info){
        .enabled = settings.enabled,
        .patch_code = settings.patch_code,
        .patch_refused_errno = ps.refused_errno,
        .min_calls = settings.min_calls,
        .max_ns_per_call = settings.max_ns_per_call,
        .hook_calls_avoided = e.calls_saved,
        .sites_patched = ps.sites_patched,
        .sites_unpatched = ps.sites_unpatched,
    };
}
