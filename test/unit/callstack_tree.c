/* The per-thread tree, driven with synthetic timestamps and stack addresses
 * so every figure is exact. */
#include <stdlib.h>

#include "callstack/tree.h"
#include "check.h"

#define F_MAIN 0x1000
#define F_A 0x2000
#define F_B 0x3000
#define F_REC 0x4000
#define F_K 0x5000
#define F_INLINED 0x6000
#define SITE 0x77 /* call_site when it does not matter */

/* A callee's hook runs lower on the stack than its caller's. */
static uintptr_t sp_at(int depth)
{
    return ((uintptr_t)1 << 40) - (uintptr_t)depth * 128;
}

static struct ht_node *child(struct ht_node *parent, uintptr_t fn)
{
    for (struct ht_node *c = parent->first_child; c; c = c->next_sibling)
        if (c->function == fn)
            return c;
    return NULL;
}

static void test_calls_and_times(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, F_MAIN, 0, sp_at(1), SITE);
    ht_tree_enter(&t, F_A, 10, sp_at(2), SITE);
    ht_tree_exit(&t, F_A, 30);
    ht_tree_enter(&t, F_A, 40, sp_at(2), SITE);
    ht_tree_exit(&t, F_A, 45);
    ht_tree_enter(&t, F_B, 50, sp_at(2), SITE);
    ht_tree_exit(&t, F_B, 70);
    ht_tree_exit(&t, F_MAIN, 100);

    struct ht_node *m = child(&t.root, F_MAIN);
    CHECK(m != NULL);
    CHECK_EQ_U64(m->calls, 1);
    CHECK_EQ_U64(m->ticks_incl, 100);
    CHECK_EQ_U64(child(m, F_A)->calls, 2);
    CHECK_EQ_U64(child(m, F_A)->ticks_incl, 25);
    CHECK_EQ_U64(child(m, F_B)->calls, 1);
    CHECK_EQ_U64(child(m, F_B)->ticks_incl, 20);
    CHECK_EQ_U64(child(m, F_A)->depth, 2);
    CHECK(t.current == &t.root);
    CHECK_EQ_U64(t.node_count, 3);
    ht_tree_release(&t);
}

static void test_recursion_is_one_node_per_level(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    for (int d = 1; d <= 5; d++)
        ht_tree_enter(&t, F_REC, (uint64_t)d, sp_at(d), SITE);
    for (int d = 5; d >= 1; d--)
        ht_tree_exit(&t, F_REC, 100 - (uint64_t)d);
    struct ht_node *n = &t.root;
    for (int d = 1; d <= 5; d++) {
        n = child(n, F_REC);
        CHECK(n != NULL);
        if (!n)
            return;
        CHECK_EQ_U64(n->calls, 1);
        CHECK_EQ_U64(n->depth, (uint64_t)d);
    }
    CHECK(n->first_child == NULL);
    CHECK_EQ_U64(t.node_count, 5);
    ht_tree_release(&t);
}

static void test_depth_limit_folds(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 3);
    for (int d = 1; d <= 10; d++)
        ht_tree_enter(&t, F_REC, (uint64_t)d * 10, sp_at(d), SITE);
    CHECK_EQ_U64(t.overflow, 7);
    for (int d = 10; d >= 1; d--)
        ht_tree_exit(&t, F_REC, 1000);
    CHECK(t.current == &t.root);
    CHECK_EQ_U64(t.overflow, 0);
    CHECK_EQ_U64(t.node_count, 3);
    struct ht_node *limit = child(child(child(&t.root, F_REC), F_REC), F_REC);
    CHECK(limit != NULL);
    if (limit) {
        CHECK_EQ_U64(limit->calls, 1);
        CHECK_EQ_U64(limit->folded_calls, 7);
        CHECK_EQ_U64(limit->ticks_incl, 1000 - 30); /* deeper time stays inside */
    }
    ht_tree_release(&t);
}

/* main -> a -> b -> rec, then longjmp back into main, which calls k: a, b and
 * rec must be closed at k's entry, and k must be main's callee. */
static void test_longjmp_unwinds_abandoned_calls(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, F_MAIN, 0, sp_at(1), SITE);
    ht_tree_enter(&t, F_A, 10, sp_at(2), SITE);
    ht_tree_enter(&t, F_B, 20, sp_at(3), SITE);
    ht_tree_enter(&t, F_REC, 30, sp_at(4), SITE);
    ht_tree_enter(&t, F_K, 50, sp_at(2), 0x99); /* same depth as a, other site: a was left */
    ht_tree_exit(&t, F_K, 60);
    ht_tree_exit(&t, F_MAIN, 100);
    struct ht_node *m = child(&t.root, F_MAIN);
    CHECK(child(m, F_K) != NULL);
    CHECK_EQ_U64(child(m, F_K)->calls, 1);
    CHECK_EQ_U64(child(m, F_K)->ticks_incl, 10);
    CHECK_EQ_U64(child(m, F_A)->ticks_incl, 40);
    CHECK_EQ_U64(child(child(m, F_A), F_B)->ticks_incl, 30);
    CHECK_EQ_U64(m->ticks_incl, 100);
    CHECK(t.current == &t.root);
    CHECK_EQ_U64(t.mismatched_exits, 0);
    ht_tree_release(&t);
}

/* The interposed longjmp knows the target's stack pointer: exactly the calls
 * entered below it close, whatever the frame sizes. */
static void test_longjmp_to_known_stack_pointer(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, F_MAIN, 0, sp_at(1), SITE);
    ht_tree_enter(&t, F_A, 10, sp_at(2), SITE);
    ht_tree_enter(&t, F_B, 20, sp_at(3), SITE);
    ht_tree_enter(&t, F_REC, 30, sp_at(4), SITE);
    CHECK_EQ_U64(ht_tree_unwind_longjmp(&t, sp_at(2), 40), 2); /* setjmp was in a */
    CHECK(t.current->function == F_A);
    ht_tree_enter(&t, F_K, 45, sp_at(2) - 4096, SITE); /* a huge frame: still a's callee */
    ht_tree_exit(&t, F_K, 46);
    ht_tree_exit(&t, F_A, 50);
    ht_tree_exit(&t, F_MAIN, 60);
    struct ht_node *a = child(child(&t.root, F_MAIN), F_A);
    CHECK_EQ_U64(a->ticks_incl, 40);
    CHECK_EQ_U64(child(a, F_B)->ticks_incl, 20);
    CHECK_EQ_U64(child(child(a, F_B), F_REC)->ticks_incl, 10);
    CHECK(child(a, F_K) != NULL);
    CHECK(t.current == &t.root);
    CHECK_EQ_U64(t.mismatched_exits, 0);
    CHECK_EQ_U64(ht_tree_unwind_longjmp(&t, sp_at(0), 70), 0); /* nothing to close */
    ht_tree_release(&t);
}

/* An inlined function calls the hooks from its container's frame: same stack
 * address, same call_site.  It is a callee, not a sign of longjmp. */
static void test_inlined_callee(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, F_MAIN, 0, sp_at(1), 0x11);
    ht_tree_enter(&t, F_A, 10, sp_at(2), 0x22);
    ht_tree_enter(&t, F_INLINED, 12, sp_at(2), 0x22);
    ht_tree_enter(&t, F_B, 13, sp_at(3), 0x33); /* a real call from the inlined code */
    ht_tree_exit(&t, F_B, 14);
    ht_tree_exit(&t, F_INLINED, 15);
    ht_tree_enter(&t, F_INLINED, 16, sp_at(2), 0x22);
    ht_tree_exit(&t, F_INLINED, 18);
    ht_tree_exit(&t, F_A, 20);
    ht_tree_exit(&t, F_MAIN, 30);
    struct ht_node *a = child(child(&t.root, F_MAIN), F_A);
    struct ht_node *in = child(a, F_INLINED);
    CHECK(in != NULL);
    if (in) {
        CHECK_EQ_U64(in->calls, 2);
        CHECK_EQ_U64(in->ticks_incl, 5);
        CHECK(child(in, F_B) != NULL);
    }
    CHECK_EQ_U64(a->ticks_incl, 10);
    CHECK(t.current == &t.root);
    CHECK_EQ_U64(t.mismatched_exits, 0);
    ht_tree_release(&t);
}

static void test_mismatched_exits(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_exit(&t, F_A, 5); /* entered before recording began */
    CHECK_EQ_U64(t.mismatched_exits, 1);
    ht_tree_enter(&t, F_MAIN, 10, sp_at(1), SITE);
    ht_tree_enter(&t, F_A, 20, sp_at(2), SITE);
    ht_tree_enter(&t, F_B, 30, sp_at(3), SITE);
    ht_tree_exit(&t, F_MAIN, 90); /* a's and b's exits were skipped */
    CHECK(t.current == &t.root);
    struct ht_node *m = child(&t.root, F_MAIN);
    CHECK_EQ_U64(m->ticks_incl, 80);
    CHECK_EQ_U64(child(m, F_A)->ticks_incl, 70);
    CHECK_EQ_U64(child(child(m, F_A), F_B)->ticks_incl, 60);
    CHECK_EQ_U64(t.mismatched_exits, 1);
    ht_tree_release(&t);
}

/* Many callees of one caller go through the hash index, and the index grows
 * past its first size without losing a node. */
static void test_many_children(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, F_MAIN, 0, sp_at(1), SITE);
    for (int round = 0; round < 2; round++)
        for (uintptr_t f = 1; f <= 3000; f++) {
            ht_tree_enter(&t, 0x100000 + f * 16, 1, sp_at(2), SITE);
            ht_tree_exit(&t, 0x100000 + f * 16, 2);
        }
    ht_tree_exit(&t, F_MAIN, 10);
    CHECK_EQ_U64(t.node_count, 3001);
    struct ht_node *m = child(&t.root, F_MAIN);
    int n = 0, twice = 0;
    for (struct ht_node *c = m->first_child; c; c = c->next_sibling, n++)
        twice += c->calls == 2 && c->ticks_incl == 2;
    CHECK_EQ_U64(n, 3000);
    CHECK_EQ_U64(twice, 3000);
    CHECK(ht_tree_memory_bytes(&t) > 3001 * sizeof(struct ht_node));
    ht_tree_release(&t);
}

int main(void)
{
    test_calls_and_times();
    test_recursion_is_one_node_per_level();
    test_depth_limit_folds();
    test_longjmp_unwinds_abandoned_calls();
    test_longjmp_to_known_stack_pointer();
    test_inlined_callee();
    test_mismatched_exits();
    test_many_children();
    return CHECK_DONE();
}
