/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Instrumenting after inlining (docs/plugin.md): once GCC has inlined, the
 * hooks of every inlined copy come out, and the out-of-line body of every
 * function keeps its own.  This is what clang's
 * -finstrument-functions-after-inlining gives.  A medium helper inlined
 * into a hot element loop otherwise keeps two external calls per copy
 * inside the loop, and the loop keeps the shape they force on it (values
 * spilled around the calls, no vectorisation) even once run-time throttling
 * has turned the calls into no-ops.
 *
 * The late pass runs on every function GCC outputs, after the inliner's
 * decisions have been applied (early inlining and IPA inlining alike) and
 * before the loop optimisations and the vectoriser: just after
 * adjust_alignment, in front of all_optimizations.  A hook belongs to an
 * inlined copy when its first argument is the address of a function other
 * than the one being compiled.  Clones (foo.constprop.0, foo.isra.0,
 * foo.part.0) pass &foo: they are compared by DECL_ORIGIN, which GCC's
 * versioning points at the function cloned, so they keep their hooks.  A
 * function inlined into itself (recursion) keeps its hooks: they pair up.
 * An OpenMP outlined body (foo._omp_fn.0) has no hooks of its own, so any
 * hook in it is an inlined copy's.  Both hooks of a copy go together, on
 * every path, exception cleanups included, so what the program records
 * stays balanced.
 *
 * inlined-hooks=keep-loops (the default) keeps the copies of a kernel, so
 * that it stays in the profile: a function with a loop of its own whose trip
 * count is not a small constant; and those of a function that calls MPI
 * itself, so that its messages stay attributed to it.  An early pass notes them, before
 * inlining, as an attribute that -flto streams with the declaration.  The
 * hooks of a kernel's copy run once per call, around its loop; a helper
 * with a loop over 3 coordinates sits inside someone's element loop.
 *
 * Removing the copies' hooks after inlining is not enough if the inliner
 * decided with them in sight: it prices them as calls and, with &F in every
 * function, GCC's rule for static functions called once never applies, so
 * medium helpers the plain build inlines stayed out of line.  The early pass
 * therefore hides the hooks from it as markers (hide_hooks below), which
 * the late pass turns back into hooks or deletes.
 *
 * What it removed is counted per inlined function (one site per entry hook
 * removed) and written at the end of the unit, straight into the assembler
 * output, into a non-allocated section, .hooktrace.inlined, as
 * NUL-terminated "SITES NAME" strings.  (Top-level asm statements, which
 * the first rule uses, are no longer output once GCC compiles functions.) */
#include "gcc-plugin.h"

#include "tree.h"
#include "backend.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "ssa.h"
#include "cfganal.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "tree-eh.h"
#include "cfgloop.h"
#include "tree-scalar-evolution.h"
#include "cgraph.h"
#include "attribs.h"
#include "output.h"
#include "diagnostic-core.h"
#include "langhooks.h"
#include "internal-fn.h"
#include "tree-ssa.h"
#include "tree-into-ssa.h"

#include <string.h>
#include <strings.h>
#include <map>
#include <vector>
#include <string>

#include "after_inlining.h"
#include "hook_calls.h"
#include "leaf_copies.h"

namespace {

enum inlined_mode { REMOVE, KEEP_LOOPS, LEAF, KEEP };

inlined_mode mode = LEAF;
bool verbose = false;

/* Not a name a program can write: attribute names have no spaces. */
const char loop_attribute[] = "hooktrace loop";

/* Sites removed, by the listed name of the function inlined. */
std::map<std::string, unsigned long> *removed_sites;

bool is_enter_hook(const gimple *stmt)
{
    return ht_calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_ENTER);
}

/* The function a hook call names, or NULL_TREE when it is not a plain
 * address (then it stays). */
tree hooked_function(const gimple *stmt)
{
    if (gimple_call_num_args(stmt) < 1)
        return NULL_TREE;
    tree arg = gimple_call_arg(stmt, 0);
    STRIP_NOPS(arg);
    if (TREE_CODE(arg) != ADDR_EXPR || TREE_CODE(TREE_OPERAND(arg, 0)) != FUNCTION_DECL)
        return NULL_TREE;
    return TREE_OPERAND(arg, 0);
}

/* Hooks the inliner does not see.  The inliner (early and IPA alike, through
 * ipa-fnsummary's estimate_num_insns) charges each hook call, and each
 * __builtin_return_address (0) feeding it, as a call with its arguments,
 * and refuses medium helpers it inlines in a build without hooks; it
 * charges nothing for an internal function call.  So before the early
 * inliner each hook becomes .UNIQUE (UNSPEC, MARKER_ENTER or MARKER_EXIT,
 * F's index or &F, below): nothrow, with virtual operands (nothing moves memory accesses across
 * it or deletes it), and a block holding one is never duplicated (OpenACC's
 * reason for it; no pass but OpenACC's looks at its arguments).  An exit
 * marker keeps its EH cleanup non-empty, so exceptions still call the exit
 * hook.  The late pass turns every marker back into the hook call, with a
 * new __builtin_return_address (0) (in an inlined copy it was the caller's
 * return address all the same), or deletes it.  A marker reaching expand
 * would expand to nothing: a hook silently lost. */
const HOST_WIDE_INT marker_enter = 0x68740e01, marker_exit = 0x68740e02;

/* A marker's third argument.  &F would make F's address taken, and GCC
 * inlines a static function called once whatever its size only when
 * nothing else refers to it: so a marker names F by an index into this
 * table, which no pass reads.  Only a kernel's markers under keep-loops
 * (its copies become hook calls again, whose &F must find F's body) pass
 * &F, as the hooks did. */
struct named {
    unsigned origin_uid; /* DECL_UID of the function the hooks are F's */
    std::string listed;  /* listed_name (F) */
};
std::vector<named> *marker_names;

bool is_marker(const gimple *stmt)
{
    if (!is_gimple_call(stmt) || !gimple_call_internal_p(stmt) || gimple_call_internal_fn(stmt) != IFN_UNIQUE ||
        gimple_call_num_args(stmt) != 3)
        return false;
    tree kind = gimple_call_arg(stmt, 0), magic = gimple_call_arg(stmt, 1);
    return TREE_CODE(kind) == INTEGER_CST && tree_fits_shwi_p(kind) && tree_to_shwi(kind) == IFN_UNIQUE_UNSPEC &&
           TREE_CODE(magic) == INTEGER_CST && tree_fits_shwi_p(magic) &&
           (tree_to_shwi(magic) == marker_enter || tree_to_shwi(magic) == marker_exit);
}

bool is_enter_marker(const gimple *stmt)
{
    return tree_to_shwi(gimple_call_arg(stmt, 1)) == marker_enter;
}

/* A marker naming its function by index (not a kernel's). */
const named *marker_entry(const gimple *stmt)
{
    tree arg = gimple_call_arg(stmt, 2);
    if (TREE_CODE(arg) != INTEGER_CST || !tree_fits_uhwi_p(arg) || tree_to_uhwi(arg) >= marker_names->size())
        return NULL;
    return &(*marker_names)[tree_to_uhwi(arg)];
}

/* The function a hook call or an &F marker names, or NULL_TREE. */
tree named_function(const gimple *stmt)
{
    if (!is_marker(stmt))
        return hooked_function(stmt);
    tree arg = gimple_call_arg(stmt, 2);
    STRIP_NOPS(arg);
    if (TREE_CODE(arg) != ADDR_EXPR || TREE_CODE(TREE_OPERAND(arg, 0)) != FUNCTION_DECL)
        return NULL_TREE;
    return TREE_OPERAND(arg, 0);
}

bool has_loop_attribute(tree decl)
{
    return lookup_attribute(loop_attribute, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

/* Should this hook (or marker), in the function SELF, go? */
bool from_inlined_copy(const gimple *stmt, tree self)
{
    if (is_marker(stmt)) {
        if (const named *entry = marker_entry(stmt))
            return entry->origin_uid != DECL_UID(DECL_ORIGIN(self));
    }
    tree hooked = named_function(stmt);
    if (!hooked)
        return false;
    tree origin = DECL_ORIGIN(hooked);
    if (origin == DECL_ORIGIN(self))
        return false;
    if (mode == KEEP_LOOPS && (has_loop_attribute(origin) || has_loop_attribute(hooked)))
        return false;
    return true;
}

/* Every hook call of FUN becomes a marker; returns whether any did.  A
 * kernel's, under keep-loops, keep &F. */
bool hide_hooks(function *fun, bool kernel)
{
    bool hidden = false;
    tree index = NULL_TREE;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            if (!ht_is_hook_call(stmt) || gimple_call_num_args(stmt) != 2)
                continue;
            tree magic = build_int_cst(integer_type_node, is_enter_hook(stmt) ? marker_enter : marker_exit);
            tree name = gimple_call_arg(stmt, 0), hooked = hooked_function(stmt);
            if (!(kernel && mode == KEEP_LOOPS) && hooked) {
                if (!index) {
                    tree origin = DECL_ORIGIN(hooked);
                    index = build_int_cst(integer_type_node, marker_names->size());
                    marker_names->push_back(named{DECL_UID(origin), ht_listed_name(origin)});
                }
                name = index;
            }
            gcall *marker = gimple_build_call_internal(IFN_UNIQUE, 3, build_int_cst(integer_type_node,
                                                       IFN_UNIQUE_UNSPEC), magic, name);
            gimple_set_location(marker, gimple_location(stmt));
            gimple_move_vops(marker, stmt);
            gsi_replace(&gsi, marker, false);
            hidden = true;
        }
    }
    if (hidden)
        ht_remove_unused_return_addresses(fun);
    return hidden;
}

/* The address a hook of SELF's own passes: the function cloned (as GCC's
 * own hooks in a clone do), or its id when that has no body of its own
 * left (every call to it inlined or redirected to its clones). */
tree own_address(tree self)
{
    tree origin = DECL_ORIGIN(self);
    cgraph_node *node = cgraph_node::get(origin);
    /* A clone whose original has no body left names the original by its
     * id (leaf_copies.h), so that it records as the function written. */
    if (origin != self && (!node || !node->definition || node->inlined_to))
        return build_fold_addr_expr(ht_inlined_id(ht_listed_name(origin)));
    return build_fold_addr_expr(origin);
}

/* The marker at GSI, in SELF, becomes its hook call again; ID: the id of
 * the inlined copy it belongs to (leaf_copies.h), or NULL_TREE. */
void restore_hook(gimple_stmt_iterator *gsi, tree self, tree id)
{
    gimple *marker = gsi_stmt(*gsi);
    /* An index marker stays only in its own function (or a clone of it),
     * unless it is a copy's named by its id. */
    tree name = id ? build_fold_addr_expr(id) : marker_entry(marker) ? own_address(self) : gimple_call_arg(marker, 2);
    gcall *where = gimple_build_call(builtin_decl_implicit(BUILT_IN_RETURN_ADDRESS), 1, integer_zero_node);
    tree address = make_ssa_name(ptr_type_node, where);
    gimple_call_set_lhs(where, address);
    gimple_set_location(where, gimple_location(marker));
    gsi_insert_before(gsi, where, GSI_SAME_STMT);
    built_in_function which = is_enter_marker(marker) ? BUILT_IN_PROFILE_FUNC_ENTER : BUILT_IN_PROFILE_FUNC_EXIT;
    gcall *hook = gimple_build_call(builtin_decl_implicit(which), 2, name, address);
    gimple_set_location(hook, gimple_location(marker));
    gimple_move_vops(hook, marker);
    gsi_replace(gsi, hook, false);
}

const pass_data loop_pass_data = {
    GIMPLE_PASS, "hooktrace_loops", OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

/* Before any inlining: which functions have a loop of their own. */
class loop_pass : public gimple_opt_pass {
public:
    explicit loop_pass(gcc::context *ctx) : gimple_opt_pass(loop_pass_data, ctx) {}

    /* Whatever the mode: under -flto the link's mode is the one that
     * applies. */
    bool gate(function *fun) final override
    {
        return flag_instrument_function_entry_exit && opt_for_fn(fun->decl, optimize) > 0;
    }

    unsigned int execute(function *fun) final override
    {
        tree decl = fun->decl;
        unsigned int todo = 0;
        /* Under -flto the late pass runs at the link, and only if the link
         * is given the plugin too: the hooks stay visible there. */
        bool loop = has_kernel_loop(fun), mpi = !loop && calls_mpi(fun);
        bool kernel = loop || mpi;
        if (mode != KEEP && !flag_generate_lto && !flag_generate_offload && !in_lto_p && hide_hooks(fun, kernel)) {
            /* The __builtin_return_address (0) calls removed had virtual
             * operands. */
            mark_virtual_operands_for_renaming(fun);
            todo = TODO_update_ssa_only_virtuals;
        }
        if (kernel && !has_loop_attribute(decl)) {
            DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(loop_attribute), NULL_TREE, DECL_ATTRIBUTES(decl));
            if (verbose)
                inform(DECL_SOURCE_LOCATION(decl), "hooktrace: %qD %s: its inlined copies keep their hooks "
                       "under inlined-hooks=keep-loops", decl, loop ? "has a loop" : "calls MPI");
        }
        return todo;
    }

private:
    /* A direct call to an MPI routine (C: MPI_/PMPI_; Fortran: mpi_...,
     * pmpi_..., the mpi_f08 module's procedures): its inlined copies keep
     * their hooks, so that each message stays attributed to the function
     * that sent it, as the first rule keeps such a function whatever its
     * size. */
    static bool calls_mpi(function *fun)
    {
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun) {
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *stmt = gsi_stmt(gsi);
                tree callee = is_gimple_call(stmt) ? gimple_call_fndecl(stmt) : NULL_TREE;
                if (!callee || !DECL_NAME(callee))
                    continue;
                const char *name = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(callee));
                if (strncasecmp(name, "mpi_", 4) == 0 || strncasecmp(name, "pmpi_", 5) == 0 ||
                    strstr(name, "mpi_f08") != NULL)
                    return true;
            }
        }
        return false;
    }

    /* A loop whose trip count is not a small constant. */
    static bool has_kernel_loop(function *fun)
    {
        if (!mark_dfs_back_edges(fun))
            return false;
        bool kernel = false;
        loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
        scev_initialize();
        for (auto loop : loops_list(fun, 0)) {
            if (ht_is_kernel_loop(loop)) {
                kernel = true;
                break;
            }
        }
        /* What was worked out here is not kept for GCC's own passes. */
        scev_reset();
        scev_finalize();
        loop_optimizer_finalize();
        return kernel;
    }
};

const pass_data inlined_pass_data = {
    GIMPLE_PASS, "hooktrace_inlined", OPTGROUP_NONE, TV_NONE, PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

class inlined_pass : public gimple_opt_pass {
public:
    explicit inlined_pass(gcc::context *ctx) : gimple_opt_pass(inlined_pass_data, ctx) {}

    /* On every function, whatever its level: a marker may sit anywhere an
     * inlined copy went (an always_inline callee's in an optimize ("O0")
     * function) and must not reach expand.  At -O0 nothing is inlined but
     * always_inline functions, whose hooks stay, as every hook does there
     * (docs/plugin.md). */
    bool gate(function *) final override
    {
        return true;
    }

    unsigned int execute(function *fun) final override
    {
        tree self = fun->decl;
        bool removing = mode != KEEP && opt_for_fn(self, optimize) > 0;
        if (mode == LEAF && removing)
            return execute_leaf(fun);
        bool removed = false, purge = false, restored = false;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun) {
            bool here = false;
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                gimple *stmt = gsi_stmt(gsi);
                bool marker = is_marker(stmt);
                if (!marker && !ht_is_hook_call(stmt)) {
                    gsi_next(&gsi);
                    continue;
                }
                /* An index marker cannot name its function anywhere else:
                 * another's copy goes even where nothing else is removed. */
                bool go = marker && marker_entry(stmt) ? from_inlined_copy(stmt, self)
                                                       : removing && from_inlined_copy(stmt, self);
                if (!go) {
                    if (marker) {
                        restore_hook(&gsi, self, NULL_TREE);
                        restored = true;
                    }
                    gsi_next(&gsi);
                    continue;
                }
                if (marker ? is_enter_marker(stmt) : is_enter_hook(stmt))
                    note_removed(stmt, self, "not counted");
                ht_remove_statement(&gsi);
                here = true;
            }
            if (here)
                purge |= gimple_purge_dead_eh_edges(bb);
            removed |= here;
        }
        if (restored)
            /* The new __builtin_return_address (0) calls want virtual
             * operands. */
            mark_virtual_operands_for_renaming(fun);
        if (!removed)
            return restored ? TODO_update_ssa_only_virtuals : 0;
        ht_remove_unused_return_addresses(fun);
        /* A cleanup left empty (the exit hook of a copy was all it ran) goes
         * in GCC's later EH cleanup. */
        return TODO_update_ssa_only_virtuals | (purge ? TODO_cleanup_cfg : 0);
    }

private:
    /* inlined-hooks=leaf: a copy keeps its hooks, named by its id, unless it
     * is straight-line leaf code, whose enter hook becomes a counter
     * (leaf_copies.h).  Two walks: which copies keep their hooks must be
     * known before a counter's scope is. */
    unsigned int execute_leaf(function *fun)
    {
        tree self = fun->decl;
        unsigned self_uid = DECL_UID(DECL_ORIGIN(self));
        std::vector<std::pair<gimple *, unsigned>> enters;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun)
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *stmt = gsi_stmt(gsi);
                unsigned uid = hook_origin_uid(stmt);
                if (uid && uid != self_uid && (is_marker(stmt) ? is_enter_marker(stmt) : is_enter_hook(stmt)))
                    enters.push_back({stmt, uid});
            }
        ht_leaf_copies copies(fun, enters);
        FOR_EACH_BB_FN(bb, fun)
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
                unsigned uid = hook_origin_uid(gsi_stmt(gsi));
                tree copy = uid && uid != self_uid ? copies.copy_of(gsi_stmt(gsi), uid) : NULL_TREE;
                if (copy && !copies.is_leaf(copy))
                    copies.note_kept(copy, NULL);
            }
        bool removed = false, purge = false, changed = false;
        std::vector<gimple *> own_exits;
        FOR_EACH_BB_FN(bb, fun) {
            bool here = false;
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                gimple *stmt = gsi_stmt(gsi);
                unsigned uid = hook_origin_uid(stmt);
                if (!uid) {
                    gsi_next(&gsi);
                    continue;
                }
                bool marker = is_marker(stmt), enter = marker ? is_enter_marker(stmt) : is_enter_hook(stmt);
                tree copy = uid != self_uid ? copies.copy_of(stmt, uid) : NULL_TREE;
                if (copy && copies.is_leaf(copy)) {
                    if (enter) {
                        copies.count_call(&gsi, copy, listed_name_of(stmt));
                        note_removed(stmt, self, "counted");
                    }
                    ht_remove_statement(&gsi);
                    here = changed = true;
                    continue;
                }
                /* Its own, or a copy that keeps its hooks (or one whose
                 * copy the BLOCK tree does not show: kept, to be safe). */
                if (marker) {
                    tree id = uid != self_uid ? ht_inlined_id(listed_name_of(stmt)) : NULL_TREE;
                    restore_hook(&gsi, self, id);
                    changed = true;
                }
                if (!enter) {
                    if (uid == self_uid)
                        own_exits.push_back(gsi_stmt(gsi));
                    else if (copy)
                        copies.note_kept(copy, gsi_stmt(gsi));
                }
                gsi_next(&gsi);
            }
            if (here)
                purge |= gimple_purge_dead_eh_edges(bb);
            removed |= here;
        }
        copies.flush_counters(own_exits);
        if (!changed)
            return 0;
        if (removed)
            ht_remove_unused_return_addresses(fun);
        mark_virtual_operands_for_renaming(fun);
        /* The counters are new variables: into SSA form. */
        return (copies.counted() ? TODO_update_ssa : TODO_update_ssa_only_virtuals) |
               (purge ? TODO_cleanup_cfg : 0);
    }

    /* The DECL_UID of the function a hook or marker is for, or 0 when STMT
     * is neither (or names no function plainly: then it stays). */
    static unsigned hook_origin_uid(const gimple *stmt)
    {
        bool marker = is_marker(stmt);
        if (!marker && !ht_is_hook_call(stmt))
            return 0;
        if (const named *entry = marker ? marker_entry(stmt) : NULL)
            return entry->origin_uid;
        tree hooked = named_function(stmt);
        return hooked ? DECL_UID(DECL_ORIGIN(hooked)) : 0;
    }

    static const char *listed_name_of(const gimple *stmt)
    {
        if (const named *entry = is_marker(stmt) ? marker_entry(stmt) : NULL)
            return entry->listed.c_str();
        return ht_listed_name(DECL_ORIGIN(named_function(stmt)));
    }

    /* One more site of the function whose enter hook STMT is, for the
     * .hooktrace.inlined section. */
    static void note_removed(const gimple *stmt, tree self, const char *how)
    {
        const char *listed = listed_name_of(stmt);
        (*removed_sites)[listed]++;
        if (verbose)
            inform(gimple_location(stmt), "hooktrace: hooks of %s inlined into %qD removed, its calls %s", listed,
                   self, how);
    }
};

/* Every function of the unit has been compiled: the assembler output is
 * still open. */
void finish_unit(void *, void *)
{
    if (!asm_out_file)
        return;
    ht_write_inlined_ids(asm_out_file);
    if (removed_sites->empty())
        return;
    fputs("\t.pushsection .hooktrace.inlined,\"\",@progbits\n", asm_out_file);
    for (const auto &site : *removed_sites)
        fprintf(asm_out_file, "\t.string \"%lu %s\"\n", site.second, site.first.c_str());
    fputs("\t.popsection\n", asm_out_file);
    removed_sites->clear();
}

} // namespace

int ht_after_inlining_argument(const char *key, const char *value)
{
    if (strcmp(key, "inlined-hooks") != 0)
        return 0;
    if (value && strcmp(value, "remove") == 0)
        mode = REMOVE;
    else if (value && strcmp(value, "keep-loops") == 0)
        mode = KEEP_LOOPS;
    else if (value && strcmp(value, "leaf") == 0)
        mode = LEAF;
    else if (value && strcmp(value, "keep") == 0)
        mode = KEEP;
    else {
        error("hooktrace plugin: inlined-hooks takes leaf, keep-loops, remove or keep, not %qs", value ? value : "");
        return -1;
    }
    return 1;
}

void ht_after_inlining_register(const char *plugin_name, bool verbose_notes)
{
    verbose = verbose_notes;
    removed_sites = new std::map<std::string, unsigned long>;
    marker_names = new std::vector<named>;

    /* Beside the first rule's pass: each function as written, before the
     * early inliner copies anything into it. */
    register_pass_info early;
    early.pass = new loop_pass(g);
    early.reference_pass_name = "*rebuild_cgraph_edges";
    early.ref_pass_instance_number = 1;
    early.pos_op = PASS_POS_INSERT_BEFORE;
    register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &early);

    /* After IPA (the inlining decisions are applied when a function's
     * first pass runs), before all_optimizations: its loop unrolling,
     * loop optimisations and vectoriser see no hooks of inlined copies. */
    register_pass_info late;
    late.pass = new inlined_pass(g);
    late.reference_pass_name = "adjust_alignment";
    late.ref_pass_instance_number = 1;
    late.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &late);

    register_callback(plugin_name, PLUGIN_FINISH_UNIT, finish_unit, NULL);
}
