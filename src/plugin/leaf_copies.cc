/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Straight-line leaf copies and their counters (leaf_copies.h,
 * docs/plugin.md "Inlined copies").
 *
 * Which copy a statement belongs to comes from GCC's BLOCK tree: when the
 * inliner copies F into G it wraps the copy's scopes in a new BLOCK whose
 * abstract origin is F and whose source location is the call's
 * (inlined_function_outer_scope_p), the same record -g turns into
 * DW_TAG_inlined_subroutine.  A copy is a leaf when nothing under its BLOCK
 * is a loop of unknown or large trip count or a call that stays a call; a
 * copy inlined into a copy makes both non-leaf only through what it holds.
 *
 * A leaf copy's enter hook becomes "counter += 1" on a local variable, one
 * per (scope, function), which the loop optimisers keep in a register
 * through an element loop and store once after it.  The scope is the
 * nearest enclosing copy that keeps its hooks, or the function: before each
 * of that scope's exit hooks (or the function's returns, when it has none
 * of its own, as an OpenMP outlined body) the counter goes to the run time,
 * hooktrace_inlined_calls_in (ID, COUNT, SCOPE), which adds COUNT to the
 * child ID of the call-stack node then current: the scope's own node.
 * SCOPE is the id the exit hook passes, so that the run time can tell a
 * throttled scope (not current) and drop its copies' counts with it. */
#include "gcc-plugin.h"

#include "tree.h"
#include "backend.h"
#include "gimple.h"
#include "ssa.h"
#include "cfganal.h"
#include "cfgloop.h"
#include "gimple-iterator.h"
#include "tree-scalar-evolution.h"
#include "tree-ssa-loop-niter.h"
#include "stringpool.h"
#include "attribs.h"
#include "stor-layout.h"
#include "gimplify.h"

#include <string.h>
#include <set>

#include "hook_calls.h"
#include "leaf_copies.h"

namespace {

/* ids handed out in this unit, by listed name. */
std::map<std::string, tree> *ids;

/* The run time's hooktrace_inlined_calls_in (const void *id, unsigned long,
 * const void *scope). */
tree flush_function;

bool is_copy(tree block)
{
    if (!block || TREE_CODE(block) != BLOCK || !inlined_function_outer_scope_p(block))
        return false;
    tree origin = block_ultimate_origin(block);
    return origin && TREE_CODE(origin) == FUNCTION_DECL;
}

unsigned origin_uid(tree copy)
{
    return DECL_UID(DECL_ORIGIN(block_ultimate_origin(copy)));
}

/* A call that stays a call once the function is compiled: not an internal
 * function (the hook markers are), not a hook, not a target built-in, not a
 * const, pure or leaf library built-in (sqrt, memcpy), not a noreturn call
 * (the throw and abort paths of checks).  An OpenMP region is a call to
 * libgomp, and so is what it runs. */
bool stays_a_call(const gimple *stmt)
{
    if (!is_gimple_call(stmt) || gimple_call_internal_p(stmt) || ht_is_hook_call(stmt) ||
        ht_calls_builtin(stmt, BUILT_IN_RETURN_ADDRESS))
        return false;
    int flags = gimple_call_flags(stmt);
    if (flags & ECF_NORETURN)
        return false;
    tree callee = gimple_call_fndecl(stmt);
    if (!callee)
        return true;
    if (fndecl_built_in_p(callee, BUILT_IN_MD))
        return false;
    if (fndecl_built_in_p(callee, BUILT_IN_NORMAL)) {
        const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee));
        if (strncmp(name, "GOMP_", 5) == 0 || strncmp(name, "GOACC_", 6) == 0)
            return true;
        return !(flags & (ECF_CONST | ECF_PURE | ECF_LEAF));
    }
    return true;
}

/* The copies enclosing BLOCK, innermost first. */
std::vector<tree> copy_chain(tree block)
{
    std::vector<tree> chain;
    for (tree b = block; b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (is_copy(b))
            chain.push_back(b);
    return chain;
}

/* The scope STMT at GSI runs in.  Statements GCC makes itself have no
 * location and no BLOCK (the GOMP_parallel call OpenMP expansion puts in
 * place of a parallel region): they take the BLOCK of the nearest statement
 * before them in their basic block, or else after. */
tree scope_block(gimple_stmt_iterator gsi)
{
    if (tree block = gimple_block(gsi_stmt(gsi)))
        return block;
    gimple_stmt_iterator back = gsi, ahead = gsi;
    for (gsi_prev(&back); !gsi_end_p(back); gsi_prev(&back))
        if (tree block = gimple_block(gsi_stmt(back)))
            return block;
    for (gsi_next(&ahead); !gsi_end_p(ahead); gsi_next(&ahead))
        if (tree block = gimple_block(gsi_stmt(ahead)))
            return block;
    return NULL_TREE;
}

} // namespace

bool ht_is_kernel_loop(class loop *loop)
{
    tree latches = number_of_latch_executions(loop);
    return !latches || TREE_CODE(latches) != INTEGER_CST || !tree_fits_uhwi_p(latches) ||
           tree_to_uhwi(latches) >= ht_fixed_trips_limit;
}

void ht_leaf_copies::mark_enclosing(tree block)
{
    for (tree copy : copy_chain(block))
        copies[copy] = true;
}

ht_leaf_copies::ht_leaf_copies(function *f, const std::vector<std::pair<gimple *, unsigned>> &enters) : fun(f)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            for (tree copy : copy_chain(gimple_block(stmt)))
                copies.emplace(copy, false);
            if (stays_a_call(stmt))
                mark_enclosing(scope_block(gsi));
        }
    }
    if (copies.empty())
        return;
    /* Where each copy is entered. */
    std::map<tree, basic_block> entered;
    for (const auto &enter : enters)
        if (tree copy = copy_of(enter.first, enter.second))
            entered[copy] = gimple_bb(enter.first);
    /* A loop belongs to the copies that hold all of its header, latch and
     * exit tests and are entered outside it: a copy inlined into the
     * loop's body holds only some, or (the whole body) is entered in it. */
    loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
    scev_initialize();
    for (auto loop : loops_list(fun, 0)) {
        if (!ht_is_kernel_loop(loop))
            continue;
        std::vector<basic_block> parts = {loop->header, loop->latch};
        for (edge exit : get_loop_exit_edges(loop))
            parts.push_back(exit->src);
        bool first = true;
        std::vector<tree> common;
        for (basic_block part : parts) {
            for (gimple_stmt_iterator gsi = gsi_start_bb(part); !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *stmt = gsi_stmt(gsi);
                /* What GCC made itself (an induction variable's step) has
                 * no scope and says nothing. */
                if (is_gimple_debug(stmt) || !gimple_block(stmt))
                    continue;
                std::vector<tree> chain = copy_chain(gimple_block(stmt));
                if (first) {
                    common = chain;
                    first = false;
                    continue;
                }
                std::vector<tree> kept;
                for (tree copy : common)
                    for (tree c : chain)
                        if (c == copy)
                            kept.push_back(copy);
                common = kept;
            }
        }
        for (tree copy : common) {
            auto at = entered.find(copy);
            if (at == entered.end() || !flow_bb_inside_loop_p(loop, at->second))
                copies[copy] = true;
        }
    }
    scev_reset();
    scev_finalize();
    loop_optimizer_finalize();
}

tree ht_leaf_copies::copy_of(const gimple *stmt, unsigned uid) const
{
    for (tree copy : copy_chain(gimple_block(stmt)))
        if (origin_uid(copy) == uid)
            return copies.count(copy) ? copy : NULL_TREE;
    return NULL_TREE;
}

bool ht_leaf_copies::is_leaf(tree copy) const
{
    auto it = copies.find(copy);
    return it != copies.end() && !it->second;
}

void ht_leaf_copies::note_kept(tree copy, gimple *exit_hook)
{
    kept.insert(copy);
    if (exit_hook)
        exits.push_back({copy, exit_hook});
}

tree ht_leaf_copies::scope_of(tree copy) const
{
    for (tree b = BLOCK_SUPERCONTEXT(copy); b && TREE_CODE(b) == BLOCK; b = BLOCK_SUPERCONTEXT(b))
        if (kept.count(b))
            return b;
    return NULL_TREE;
}

void ht_leaf_copies::count_call(gimple_stmt_iterator *gsi, tree copy, const char *listed)
{
    tree scope = scope_of(copy);
    tree var = NULL_TREE;
    for (const counter &c : counters)
        if (c.scope == scope && c.listed == listed)
            var = c.var;
    if (!var) {
        var = create_tmp_reg(long_unsigned_type_node, "hooktrace_calls");
        counters.push_back({scope, listed, var});
        gimple *zero = gimple_build_assign(var, build_int_cst(long_unsigned_type_node, 0));
        gsi_insert_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(fun)), zero);
    }
    gimple *add = gimple_build_assign(var, PLUS_EXPR, var, build_int_cst(long_unsigned_type_node, 1));
    gimple_set_location(add, gimple_location(gsi_stmt(*gsi)));
    gsi_insert_before(gsi, add, GSI_SAME_STMT);
}

/* Hands every counter of SCOPE to the run time before the statement at GSI,
 * and resets it.  The statement is SCOPE's exit hook, whose id names the
 * scope to the run time (which drops the counts while the scope is
 * throttled), or a return of a function without hooks (no scope). */
void ht_leaf_copies::insert_flushes(gimple_stmt_iterator *gsi, tree scope)
{
    if (!flush_function) {
        tree type = build_function_type_list(void_type_node, const_ptr_type_node, long_unsigned_type_node,
                                             const_ptr_type_node, NULL_TREE);
        flush_function = build_fn_decl("hooktrace_inlined_calls_in", type);
        TREE_NOTHROW(flush_function) = 1;
        DECL_ATTRIBUTES(flush_function) = tree_cons(get_identifier("leaf"), NULL_TREE, NULL_TREE);
    }
    gimple *at = gsi_stmt(*gsi);
    tree scope_id = ht_is_hook_call(at) ? unshare_expr(gimple_call_arg(at, 0)) : null_pointer_node;
    for (const counter &c : counters) {
        if (c.scope != scope)
            continue;
        gcall *call = gimple_build_call(flush_function, 3, build_fold_addr_expr(ht_inlined_id(c.listed.c_str())),
                                        c.var, scope_id);
        gimple_set_location(call, gimple_location(at));
        gsi_insert_before(gsi, call, GSI_SAME_STMT);
        gsi_insert_before(gsi, gimple_build_assign(c.var, build_int_cst(long_unsigned_type_node, 0)),
                          GSI_SAME_STMT);
    }
}

void ht_leaf_copies::flush_counters(const std::vector<gimple *> &own_exits)
{
    if (counters.empty())
        return;
    for (const auto &exit : exits) {
        gimple_stmt_iterator gsi = gsi_for_stmt(exit.second);
        insert_flushes(&gsi, exit.first);
    }
    if (!own_exits.empty()) {
        for (gimple *stmt : own_exits) {
            gimple_stmt_iterator gsi = gsi_for_stmt(stmt);
            insert_flushes(&gsi, NULL_TREE);
        }
        return;
    }
    /* No hooks of its own (an OpenMP outlined body, a function left out):
     * the counts go to whichever node is current when it returns. */
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        gimple_stmt_iterator gsi = gsi_last_bb(bb);
        if (!gsi_end_p(gsi) && gimple_code(gsi_stmt(gsi)) == GIMPLE_RETURN)
            insert_flushes(&gsi, NULL_TREE);
    }
}

tree ht_inlined_id(const char *listed)
{
    if (!ids)
        ids = new std::map<std::string, tree>;
    auto it = ids->find(listed);
    if (it != ids->end())
        return it->second;
    std::string symbol = std::string("__hooktrace_inlined.") + listed;
    tree type = build_array_type_nelts(char_type_node, strlen(listed) + 1);
    tree decl = build_decl(UNKNOWN_LOCATION, VAR_DECL, get_identifier(symbol.c_str()), type);
    TREE_PUBLIC(decl) = 1;
    DECL_EXTERNAL(decl) = 1;
    TREE_READONLY(decl) = 1;
    DECL_ARTIFICIAL(decl) = 1;
    TREE_USED(decl) = 1;
    /* Hidden: one per executable or shared object, reached without the
     * GOT. */
    DECL_VISIBILITY(decl) = VISIBILITY_HIDDEN;
    DECL_VISIBILITY_SPECIFIED(decl) = 1;
    (*ids)[listed] = decl;
    return decl;
}

void ht_write_inlined_ids(FILE *out)
{
    if (!ids)
        return;
    for (const auto &id : *ids) {
        const char *symbol = IDENTIFIER_POINTER(DECL_NAME(id.second));
        /* One copy per linked object: a COMDAT group of its own name. */
        fprintf(out, "\t.pushsection .hooktrace.inlined_ids,\"aG\",@progbits,%s,comdat\n", symbol);
        fprintf(out, "\t.weak %s\n\t.hidden %s\n\t.type %s, @object\n", symbol, symbol, symbol);
        fprintf(out, "%s:\n\t.string \"%s\"\n", symbol, id.first.c_str());
        fprintf(out, "\t.size %s, %zu\n\t.popsection\n", symbol, id.first.size() + 1);
    }
    ids->clear();
}
