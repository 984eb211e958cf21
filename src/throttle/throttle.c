#include "throttle/throttle.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "callstack/functions.h"
#include "common/clock.h"
#include "throttle/patch.h"

uint64_t ht_throttle_look_calls[HT_THROTTLE_LOOKS] = {UINT64_MAX, UINT64_MAX, UINT64_MAX};

#define HOOK_NS_VARIABLE "HOOKTRACE_HOOK_NS_TEST"

static struct ht_throttle_settings settings;
static struct ht_throttle_rule rule;
static bool hook_pair_fixed;
static uint64_t max_ticks_per_call; /* 0 until the first check */
static uint64_t functions_throttled;
/* The registry and the rewriting are in use: throttling is on, or the
 * config excludes functions (they work the same with throttling off). */
static bool active;

/* The hook pair cost HOOKTRACE_HOOK_NS_TEST fixes, or 0.  Like the other
 * testing aid (HOOKTRACE_CLOCK_SKEW_TEST), a malformed value is reported
 * in one line and ignored: it is no setting, and a test that set it checks
 * the profile's hook_pair_fixed. */
static double hook_ns_for_tests(void)
{
    const char *value = getenv(HOOK_NS_VARIABLE);
    if (!value || !*value)
        return 0.0;
    char *end;
    errno = 0;
    double ns = strtod(value, &end);
    if (end == value || *end || errno || !(ns > 0.0 && ns <= 1e9)) {
        fprintf(stderr, "hooktrace: " HOOK_NS_VARIABLE "=\"%s\": not a hook pair cost in "
                        "nanoseconds (a number > 0); ignored, the measured cost is used\n",
                value);
        return 0.0;
    }
    return ns;
}

void ht_throttle_exclude(const uintptr_t *addresses, size_t n)
{
    if (!active)
        return;
    uint64_t now = ht_clock_now();
    for (size_t i = 0; i < n; i++) {
        struct ht_function_record *rec = ht_functions_get(addresses[i], now);
        if (rec)
            ht_functions_throttle(rec, now);
    }
}

void ht_throttle_setup(const struct ht_throttle_settings *s)
{
    settings = *s;
    settings.never = NULL; /* not kept: marked in the registry below */
    settings.nnever = 0;
    settings.excluded = NULL;
    settings.nexcluded = 0;
    double fixed = hook_ns_for_tests();
    hook_pair_fixed = fixed > 0.0;
    ht_throttle_rule_make(&rule, hook_pair_fixed ? fixed : s->hook_pair_ns, s->budget,
                          s->max_ns_per_call);
    if (s->min_calls == 0)
        settings.enabled = false;
    if (!settings.enabled && s->nexcluded == 0 && !s->exclusions)
        return;
    ht_functions_enable();
    if (!ht_functions_on) { /* no memory for the registry: stay off */
        settings.enabled = false;
        return;
    }
    active = true;
    if (s->patch_code)
        ht_patch_init();
    ht_throttle_exclude(s->excluded, s->nexcluded);
    if (s->observer)
        ht_functions_observe(s->observer);
    if (!settings.enabled)
        return;
    uint64_t now = ht_clock_now();
    for (size_t i = 0; i < s->nnever; i++)
        ht_functions_set_flags(s->never[i], HT_FUNCTION_NEVER, now);
    /* Later looks, for a function whose first sample a preemption or a
     * page fault made look slow: each dilutes such a delay ten times more. */
    uint64_t calls = s->min_calls;
    for (int i = 0; i < HT_THROTTLE_LOOKS; i++, calls *= 10)
        ht_throttle_look_calls[i] = calls + 1; /* min_calls < 2^32: no overflow */
}

/* Converted on first use rather than at start-up: the tick rate is measured
 * against the run so far, which needs some of it. */
static uint64_t max_ticks(void)
{
    uint64_t v = __atomic_load_n(&max_ticks_per_call, __ATOMIC_RELAXED);
    if (v == 0) {
        v = ht_throttle_threshold_ticks(rule.threshold_ns, ht_clock_ticks_per_second_quick());
        __atomic_store_n(&max_ticks_per_call, v, __ATOMIC_RELAXED);
    }
    return v;
}

/* The time a thread spent rewriting code is hooktrace's, not the calls in
 * progress around it: it would otherwise be charged to them (a proof can
 * take longer than a thousand calls of the function it is made for, and
 * throttling judges a caller by its average). */
static void exclude_time(struct ht_thread *t, uint64_t since)
{
    uint64_t now = ht_clock_now();
    if (!t->tracing && now > since)
        ht_tree_exclude_ticks(&t->tree, now - since);
}

/* Rewrites the call that reached a hook from site; an exit hook that cannot
 * be found there was reached by a jump at the end of the function. */
static void patch_site(struct ht_thread *t, uintptr_t site, uintptr_t function, bool exit,
                       const struct ht_hook_pair *hooks)
{
    if (!site || !settings.patch_code)
        return;
    uint64_t start = ht_clock_now();
    ht_patch_hook_call(site, function, exit, hooks);
    exclude_time(t, start);
}

/* The completed time of a node's children (another thread's may be read
 * while it runs: a word at a time, close enough for an estimate). */
static uint64_t children_ticks(const struct ht_node *n)
{
    uint64_t sum = 0;
    for (const struct ht_node *c = n->first_child; c; c = c->next_sibling)
        sum += __atomic_load_n(&c->ticks_incl, __ATOMIC_RELAXED);
    return sum;
}

bool ht_throttle_consider(struct ht_thread *t, struct ht_node *node, uintptr_t exit_site,
                          const struct ht_hook_pair *hooks)
{
    if (!settings.enabled || (node->flags & (HT_NODE_MPI_ROUTINE | HT_NODE_NAMED_REGION | HT_NODE_PHASE)) ||
        node->calls == 0)
        return false;
    struct ht_function_record *rec = ht_functions_find(ht_node_function(node));
    if (!rec)
        return false;
    /* Throttled by another thread that may not have reached this node yet:
     * stop here, at the threshold, rather than when it does. */
    if (ht_function_is_throttled(rec)) {
        ht_functions_tag_node(node);
        return false;
    }
    /* A thread reading counters spent part of the node's time in the reads
     * (a microsecond each through perf events, two per recorded call
     * beneath it): that time is hooktrace's, not the function's. */
    uint64_t ticks = node->ticks_incl;
    if (t->tree.counters) {
        int64_t reads = ht_node_read_ticks(node, t->tree.counters)[0];
        ticks = reads <= 0 ? ticks : (uint64_t)reads < ticks ? ticks - (uint64_t)reads : 0;
    }
    if (!ht_throttle_cheap(ticks, node->calls, max_ticks()) ||
        (__atomic_load_n(&rec->flags, __ATOMIC_RELAXED) & (HT_FUNCTION_CALLS_MPI | HT_FUNCTION_NEVER)))
        return false;
    if (!ht_functions_throttle(rec, ht_clock_now())) {
        ht_functions_tag_node(node);
        return false;
    }
    const struct ht_node *caller = node->parent; /* open: node just returned to it */
    rec->caller_calls = caller->calls;
    rec->caller_ticks_incl = caller->ticks_incl;
    rec->caller_enter_tick = caller->enter_tick;
    rec->caller_children_ticks = children_ticks(caller);
    rec->node_calls = node->calls;
    rec->caller = caller;
    __atomic_add_fetch(&functions_throttled, 1, __ATOMIC_RELAXED);
    /* The call known here is this exit's; every other call is rewritten
     * when it next reaches a hook, which then declines it. */
    patch_site(t, exit_site, ht_node_function(node), true, hooks);
    return true;
}

void ht_throttle_site_reached(struct ht_thread *t, uintptr_t hook_site, uintptr_t function,
                              bool exit, const struct ht_hook_pair *hooks)
{
    patch_site(t, hook_site, function, exit, hooks);
}

bool ht_throttle_declines_counts(struct ht_thread *t, uintptr_t site, uintptr_t id,
                                 uintptr_t scope, const struct ht_hook_pair *hooks)
{
    if (!active || !scope)
        return false;
    const struct ht_function_record *rec = ht_functions_find(scope);
    if (!rec || !ht_function_is_throttled(rec))
        return false;
    if (site && settings.patch_code) {
        uint64_t start = ht_clock_now();
        ht_patch_counts_call(site, id, scope, hooks);
        exclude_time(t, start);
    }
    return true;
}

uint64_t ht_throttle_code_generation;

bool ht_throttle_in_use(void)
{
    return __atomic_load_n(&active, __ATOMIC_RELAXED);
}

void ht_throttle_code_unmapped(uintptr_t lo, uintptr_t hi)
{
    __atomic_add_fetch(&ht_throttle_code_generation, 1, __ATOMIC_RELAXED);
    if (!active)
        return;
    ht_functions_retire(lo, hi);
    if (settings.patch_code)
        ht_patch_forget(lo, hi);
}

/* The exclusive time the caller of the throttling call spent after it,
 * which is where the throttled calls that followed ran (their time is the
 * caller's now).  Its inclusive time then counts the activation open at
 * the time to that moment; now, to the end if that activation is still
 * open (its call count and completed time have not moved).  A later
 * activation still open at the end is left out, so this errs low. */
static double caller_exclusive_after(const struct ht_function_record *rec, uint64_t end_tick)
{
    const struct ht_node *c = rec->caller;
    if (!c || rec->throttled_tick < rec->caller_enter_tick)
        return 0.0;
    double excl_then = (double)rec->caller_ticks_incl +
                       (double)(rec->throttled_tick - rec->caller_enter_tick) -
                       (double)rec->caller_children_ticks;
    uint64_t calls = __atomic_load_n(&c->calls, __ATOMIC_RELAXED);
    double incl_now = (double)__atomic_load_n(&c->ticks_incl, __ATOMIC_RELAXED);
    if (calls == rec->caller_calls && incl_now == (double)rec->caller_ticks_incl &&
        end_tick > rec->caller_enter_tick)
        incl_now += (double)(end_tick - rec->caller_enter_tick);
    double after = incl_now - (double)children_ticks(c) - excl_then;
    return after > 0.0 ? after : 0.0;
}

/* The calls a throttled function made after its throttling, estimated
 * from counts where its caller is called again and again (a time step, a
 * sweep): the function's calls per caller activation before, times the
 * activations after.  A node's calls count entries, so at the throttling
 * the caller had completed D = caller_calls - 1 activations and was phi of
 * the way through one more (phi from the time that one had run against the
 * completed ones' average, kept within [0, 1]); E were entered after.
 * However the times come out, the figure stays between
 * node_calls * E / (D + 1) and node_calls * (E + 1) / D. */
static double calls_after_by_counts(const struct ht_function_record *rec)
{
    const struct ht_node *c = rec->caller;
    uint64_t entered = rec->caller_calls;
    uint64_t now = __atomic_load_n(&c->calls, __ATOMIC_RELAXED);
    if (entered < 2 || now <= entered || rec->throttled_tick < rec->caller_enter_tick)
        return -1.0; /* nothing to count by: no activation before or after */
    double done = (double)(entered - 1);
    double average = (double)rec->caller_ticks_incl / done;
    double phi = average > 0.0 ? (double)(rec->throttled_tick - rec->caller_enter_tick) / average : 1.0;
    phi = phi < 0.0 ? 0.0 : phi > 1.0 ? 1.0 : phi;
    double per_activation = (double)rec->node_calls / (done + phi);
    return per_activation * ((double)(now - entered) + 1.0 - phi);
}

/* Else (the caller's one activation runs the whole loop), from times: the
 * function's rate from its first call to its throttling (the rate taken
 * without its own hooks' cost, of which at most 19/20 of the time is taken
 * out), times its share of its caller's exclusive time afterwards.
 * Functions throttled under the same caller share that time equally.
 * Neither the rate nor the time is exact: docs/throttle.md says how close
 * it comes. */
static double calls_after_by_time(const struct ht_function_record *rec, double overhead_ticks,
                                  uint64_t end_tick, unsigned sharing)
{
    if (rec->throttled_tick <= rec->first_tick)
        return 0.0;
    uint64_t calls = 0;
    for (const struct ht_node *n = __atomic_load_n(&rec->nodes, __ATOMIC_ACQUIRE); n;
         n = n->same_function_next)
        calls += __atomic_load_n(&n->calls, __ATOMIC_RELAXED);
    double before = (double)(rec->throttled_tick - rec->first_tick);
    double without_hooks = before - (double)calls * overhead_ticks;
    if (without_hooks < before / 20.0)
        without_hooks = before / 20.0;
    return (double)calls / without_hooks * caller_exclusive_after(rec, end_tick) / sharing;
}

struct throttled_list {
    const struct ht_function_record **recs;
    size_t count, capacity;
};

static void collect_throttled(struct ht_function_record *rec, void *ctx)
{
    struct throttled_list *l = ctx;
    if (!ht_function_is_throttled(rec) || !rec->caller)
        return;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 64;
        const struct ht_function_record **bigger = realloc(l->recs, cap * sizeof *bigger);
        if (!bigger)
            return;
        l->recs = bigger;
        l->capacity = cap;
    }
    l->recs[l->count++] = rec;
}

static int by_caller(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)(*(const struct ht_function_record *const *)a)->caller;
    uintptr_t y = (uintptr_t)(*(const struct ht_function_record *const *)b)->caller;
    return (x > y) - (x < y);
}

static double estimate_saved(uint64_t end_tick, double overhead_ticks)
{
    struct throttled_list l = {0};
    ht_functions_visit(collect_throttled, &l);
    if (l.count > 1)
        qsort(l.recs, l.count, sizeof *l.recs, by_caller);
    double saved = 0.0;
    for (size_t i = 0, j; i < l.count; i = j) {
        for (j = i + 1; j < l.count && l.recs[j]->caller == l.recs[i]->caller; j++)
            ;
        for (size_t k = i; k < j; k++) {
            double calls = calls_after_by_counts(l.recs[k]);
            if (calls < 0.0)
                calls = calls_after_by_time(l.recs[k], overhead_ticks, end_tick, (unsigned)(j - i));
            saved += 2.0 * calls; /* an entry and an exit hook each */
        }
    }
    free(l.recs);
    return saved;
}

void ht_throttle_report(uint64_t end_tick, double overhead_ticks_per_call,
                        struct ht_throttle_info *out)
{
    struct ht_patch_stats ps = {0};
    if (active && settings.patch_code)
        ht_patch_stats(&ps);
    *out = (struct ht_throttle_info){
        .enabled = settings.enabled,
        .patch_code = settings.patch_code,
        .patch_refused_errno = ps.refused_errno,
        .min_calls = settings.min_calls,
        .rule = rule,
        .hook_pair_fixed = hook_pair_fixed,
        .hook_calls_avoided = estimate_saved(end_tick, overhead_ticks_per_call),
        .sites_patched = ps.sites_patched,
        .sites_unpatched = ps.sites_unpatched,
    };
}
