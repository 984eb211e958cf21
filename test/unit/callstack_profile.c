/* Merging threads' trees into the profile: paths, per-thread figures, IDs,
 * exclusive times, excluded functions and calls still in progress. */
#include <stdlib.h>

#include "callstack/profile.h"
#include "check.h"

enum { MAIN = 0x100, A = 0x200, B = 0x300, C = 0x400, WORKER = 0x500 };

static struct ht_function fn_main = {"main", "app.c", 10, true};
static struct ht_function fn_a = {"a", "app.c", 20, true};
static struct ht_function fn_b = {"b", "app.c", 30, true};
static struct ht_function fn_c = {"c", "lib.c", 5, true};
static struct ht_function fn_worker = {"worker", "app.c", 40, true};

static const struct ht_function *describe(uintptr_t address, void *ctx)
{
    (void)ctx;
    switch (address) {
    case MAIN: return &fn_main;
    case A: return &fn_a;
    case B: return &fn_b;
    case C: return &fn_c;
    case WORKER: return &fn_worker;
    }
    return NULL;
}

#define SITE 0x77

static uintptr_t sp_at(int depth)
{
    return ((uintptr_t)1 << 40) - (uintptr_t)depth * 128;
}

static void call(struct ht_tree *t, uintptr_t fn, int depth, uint64_t from, uint64_t to)
{
    ht_tree_enter(t, fn, from, sp_at(depth), SITE);
    ht_tree_exit(t, fn, to);
}

/* Thread 0: main 0..100 { a 10..30; a 40..45; b 50..70 { c 55..60 { a 56..58 } } }
 * Thread 1: worker 0..50 { a 5..25 } */
static void build_trees(struct ht_tree *t0, struct ht_tree *t1)
{
    ht_tree_init(t0, 512);
    ht_tree_enter(t0, MAIN, 0, sp_at(1), SITE);
    call(t0, A, 2, 10, 30);
    call(t0, A, 2, 40, 45);
    ht_tree_enter(t0, B, 50, sp_at(2), SITE);
    ht_tree_enter(t0, C, 55, sp_at(3), SITE);
    call(t0, A, 4, 56, 58);
    ht_tree_exit(t0, C, 60);
    ht_tree_exit(t0, B, 70);
    ht_tree_exit(t0, MAIN, 100);

    ht_tree_init(t1, 512);
    ht_tree_enter(t1, WORKER, 0, sp_at(1), SITE);
    call(t1, A, 2, 5, 25);
    ht_tree_exit(t1, WORKER, 50);
}

static const struct ht_stack *find(const struct ht_profile *p, const char *a, const char *b,
                                   const char *c)
{
    const char *want[3] = {a, b, c};
    int depth = c ? 3 : b ? 2 : 1;
    int path[8];
    for (size_t i = 0; i < p->nstacks; i++) {
        if (ht_profile_path(p, (int)i, path, 8) != depth)
            continue;
        int same = 1;
        for (int d = 0; d < depth; d++)
            same &= strcmp(p->stacks[path[d]].function->name, want[d]) == 0;
        if (same)
            return &p->stacks[i];
    }
    return NULL;
}

static void test_merge_threads(void)
{
    struct ht_tree t0, t1;
    build_trees(&t0, &t1);
    fn_c.kept = true;
    struct ht_profile_thread threads[2] = {
        {.tree = &t0, .index = 0, .tid = 11},
        {.tree = &t1, .index = 1, .tid = 12},
    };
    struct ht_profile p;
    CHECK(ht_profile_build(&p, threads, 2, 1000, 0.5, describe, NULL) == 0);
    CHECK_EQ_U64(p.nstacks, 7);
    CHECK_EQ_U64(p.nthreads, 2);
    CHECK_EQ_U64(p.thread_tids[1], 12);
    /* Depth first, callees by name: main, main;a, main;b, main;b;c,
     * main;b;c;a, worker, worker;a. */
    CHECK_STR(p.stacks[0].function->name, "main");
    CHECK_STR(p.stacks[1].function->name, "a");
    CHECK_STR(p.stacks[2].function->name, "b");
    CHECK_STR(p.stacks[3].function->name, "c");
    CHECK_STR(p.stacks[4].function->name, "a");
    CHECK_STR(p.stacks[5].function->name, "worker");
    CHECK_EQ_U64(p.stacks[4].parent, 3);
    CHECK_EQ_U64(p.stacks[4].depth, 4);
    CHECK(p.stacks[5].parent == -1);

    const struct ht_stack *main_ = &p.stacks[0];
    CHECK_EQ_U64(main_->total.calls, 1);
    CHECK(main_->total.time_incl == 50.0);           /* 100 ticks * 0.5 s */
    CHECK(main_->total.time_excl == 0.5 * (100 - 25 - 20));
    const struct ht_stack *ma = &p.stacks[1];
    CHECK_EQ_U64(ma->total.calls, 2);
    CHECK(ma->per_thread[0].time_incl == 12.5);
    CHECK_EQ_U64(ma->per_thread[1].calls, 0);
    const struct ht_stack *wa = find(&p, "worker", "a", NULL);
    CHECK(wa != NULL && wa->per_thread[1].calls == 1 && wa->per_thread[1].time_incl == 10.0);
    CHECK(wa != NULL && wa->per_thread[0].calls == 0);
    CHECK_EQ_U64(p.instrumented_calls, 8);
    ht_profile_free(&p);
    ht_tree_release(&t0);
    ht_tree_release(&t1);
}

/* A thread group: two trees (states of a start routine that served 3 and 2
 * threads) share one thread index; their figures add up there, and the
 * profile names the group by its start routine. */
static void test_thread_group(void)
{
    struct ht_tree t0, t1, t2, unused;
    build_trees(&t0, &t1);
    build_trees(&unused, &t2); /* t2: a second worker tree like t1 */
    fn_c.kept = true;
    struct ht_profile_thread threads[3] = {
        {&t0, 0, 11, 0, 0, 0},
        {&t1, 1, 0, WORKER, 3, 0},
        {&t2, 1, 0, WORKER, 2, 1},
    };
    struct ht_profile p;
    CHECK(ht_profile_build(&p, threads, 3, 1000, 0.5, describe, NULL) == 0);
    CHECK_EQ_U64(p.nthreads, 2);
    CHECK(p.thread_groups != NULL);
    if (p.thread_groups) {
        CHECK_EQ_U64(p.thread_groups[0].threads, 0);
        CHECK_EQ_U64(p.thread_groups[1].threads, 5);
        CHECK_EQ_U64(p.thread_groups[1].running, 1);
        CHECK_STR(p.thread_groups[1].start_routine, "worker");
    }
    CHECK_EQ_U64(p.thread_tids[0], 11);
    CHECK_EQ_U64(p.thread_tids[1], 0);
    const struct ht_stack *wa = find(&p, "worker", "a", NULL);
    CHECK(wa != NULL && wa->per_thread[1].calls == 2 && wa->per_thread[1].time_incl == 20.0);
    CHECK(wa != NULL && wa->total.calls == 2);
    ht_profile_free(&p);
    ht_tree_release(&t0);
    ht_tree_release(&t1);
    ht_tree_release(&t2);
    ht_tree_release(&unused);
}

/* An excluded function leaves the paths: its callees move to its caller and
 * its exclusive time goes to the caller. */
static void test_excluded_function(void)
{
    struct ht_tree t0, t1;
    build_trees(&t0, &t1);
    fn_c.kept = false;
    struct ht_profile_thread threads[1] = {{.tree = &t0, .index = 0, .tid = 11}};
    struct ht_profile p;
    CHECK(ht_profile_build(&p, threads, 1, 1000, 1.0, describe, NULL) == 0);
    CHECK_EQ_U64(p.nstacks, 4);
    const struct ht_stack *b = find(&p, "main", "b", NULL);
    const struct ht_stack *ba = find(&p, "main", "b", "a");
    CHECK(b && ba);
    if (b && ba) {
        CHECK(b->total.time_incl == 20.0);
        CHECK(b->total.time_excl == 15.0 + 3.0); /* b's own 15 + c's own 3 */
        CHECK_EQ_U64(ba->total.calls, 1);
        CHECK(ba->total.time_incl == 2.0);
    }
    CHECK(p.time_excluded_at_root == 0.0);
    CHECK_EQ_U64(p.instrumented_calls, 6);
    ht_profile_free(&p);

    /* Excluding a root function: its callees become roots, its own time is
     * reported as excluded at the root. */
    fn_c.kept = true;
    fn_worker.kept = false;
    struct ht_profile_thread worker_thread[1] = {{.tree = &t1, .index = 0, .tid = 12}};
    CHECK(ht_profile_build(&p, worker_thread, 1, 1000, 1.0, describe, NULL) == 0);
    CHECK_EQ_U64(p.nstacks, 1);
    CHECK_STR(p.stacks[0].function->name, "a");
    CHECK(p.stacks[0].parent == -1);
    CHECK(p.time_excluded_at_root == 30.0);
    ht_profile_free(&p);
    fn_worker.kept = true;
    ht_tree_release(&t0);
    ht_tree_release(&t1);
}

/* exit() called deep in the stack: calls still in progress count up to the
 * end of the profile. */
static void test_calls_in_progress(void)
{
    struct ht_tree t;
    ht_tree_init(&t, 512);
    ht_tree_enter(&t, MAIN, 0, sp_at(1), SITE);
    call(&t, A, 2, 2, 6);
    ht_tree_enter(&t, B, 10, sp_at(2), SITE);
    struct ht_profile_thread threads[1] = {{.tree = &t, .index = 0, .tid = 1}};
    struct ht_profile p;
    CHECK(ht_profile_build(&p, threads, 1, 100, 1.0, describe, NULL) == 0);
    const struct ht_stack *m = find(&p, "main", NULL, NULL), *b = find(&p, "main", "b", NULL);
    CHECK(m && b);
    if (m && b) {
        CHECK(m->total.time_incl == 100.0);
        CHECK(m->total.time_excl == 100.0 - 4.0 - 90.0);
        CHECK(b->total.time_incl == 90.0);
        CHECK_EQ_U64(b->total.calls, 1);
    }
    ht_profile_free(&p);
    ht_tree_release(&t);
}

int main(void)
{
    test_merge_threads();
    test_thread_group();
    test_excluded_function();
    test_calls_in_progress();
    return CHECK_DONE();
}
