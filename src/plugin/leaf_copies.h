/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The inlined copies of one function after inlining, for the second rule's
 * default, inlined-hooks=leaf (leaf_copies.cc, docs/plugin.md): which copy
 * each hook belongs to, which copies are straight-line leaf code (no loop,
 * no call left), and the counters that replace a leaf copy's hooks.
 * Include it after GCC's own headers. */
#ifndef HT_PLUGIN_LEAF_COPIES_H
#define HT_PLUGIN_LEAF_COPIES_H

#include <map>
#include <set>
#include <string>
#include <vector>

/* A loop that runs at most this many times, known at compile time (over
 * the 3 coordinates, the 8 nodes of a hexahedron), is not a kernel's: GCC
 * unrolls it completely, and the function is a helper of someone's loop. */
const unsigned long ht_fixed_trips_limit = 16;

/* Whether LOOP's trip count is unknown or at least ht_fixed_trips_limit
 * (the loop optimiser and scalar evolution must be initialised). */
bool ht_is_kernel_loop(class loop *loop);

/* The copies inlined into one function, as GCC's BLOCK tree records them:
 * each inlined call site has an outer-scope BLOCK whose origin is the
 * function inlined, and every statement of the copy sits in it or below. */
class ht_leaf_copies {
public:
    /* Analyses FUN: the copies, and which hold a loop or a call.  ENTERS:
     * the enter hooks (or markers) of inlined copies, each with the
     * DECL_UID of its function. */
    ht_leaf_copies(function *fun, const std::vector<std::pair<gimple *, unsigned>> &enters);

    /* The copy of the function whose DECL_UID is ORIGIN_UID that holds
     * STMT (its outer-scope BLOCK), or NULL_TREE when none is found (then
     * the copy's hooks stay, to be safe). */
    tree copy_of(const gimple *stmt, unsigned origin_uid) const;

    /* Straight-line leaf code: no kernel loop, no call that stays a call. */
    bool is_leaf(tree copy) const;

    /* The non-leaf COPY keeps its hooks; EXIT_HOOK is one of them (or
     * NULL for its enter hook): counters of the leaf copies inside it are
     * handed over before its exit hooks. */
    void note_kept(tree copy, gimple *exit_hook);

    /* Counts one call of the leaf COPY of the function listed as LISTED,
     * in place of the enter hook at GSI. */
    void count_call(gimple_stmt_iterator *gsi, tree copy, const char *listed);

    /* After the hooks are settled: each counter is handed to the run time
     * before every exit hook of the scope it counts in (the nearest
     * enclosing copy that kept its hooks, or the function, whose exit
     * hooks are OWN_EXITS), then reset. */
    void flush_counters(const std::vector<gimple *> &own_exits);

    /* Whether count_call was used. */
    bool counted() const { return !counters.empty(); }

private:
    struct counter {
        tree scope; /* a copy's BLOCK, or NULL_TREE: the function */
        std::string listed;
        tree var;
    };
    function *fun;
    std::map<tree, bool> copies;              /* copy -> holds a loop or call */
    std::vector<counter> counters;
    std::set<tree> kept;                      /* copies that keep their hooks */
    std::vector<std::pair<tree, gimple *>> exits; /* their exit hooks */

    tree scope_of(tree copy) const;
    void mark_enclosing(tree block);
    void insert_flushes(gimple_stmt_iterator *gsi, tree scope);
};

/* The address hooktrace knows an inlined copy of the function LISTED by:
 * the hidden object __hooktrace_inlined.LISTED, defined once per linked
 * object in .hooktrace.inlined_ids (ht_write_inlined_ids). */
tree ht_inlined_id(const char *listed);

/* Defines, in the assembler output, every id ht_inlined_id handed out in
 * this unit. */
void ht_write_inlined_ids(FILE *out);

#endif
