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
 * count is not a small constant.  An early pass notes them, before
 * inlining, as an attribute that -flto streams with the declaration.  The
 * hooks of a kernel's copy run once per call, around its loop; a helper
 * with a loop over 3 coordinates sits inside someone's element loop.
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

#include <string.h>
#include <map>
#include <string>

#include "after_inlining.h"

namespace {

enum inlined_mode { REMOVE, KEEP_LOOPS, KEEP };

inlined_mode mode = KEEP_LOOPS;
bool verbose = false;

/* Not a name a program can write: attribute names have no spaces. */
const char loop_attribute[] = "hooktrace loop";

/* A loop that runs at most this many times, known at compile time (over
 * the 3 coordinates, the 8 nodes of a hexahedron), is not a kernel's: GCC
 * unrolls it completely, and the function is a helper of someone's loop. */
const unsigned long fixed_trips_limit = 16;

/* Sites removed, by the listed name of the function inlined. */
std::map<std::string, unsigned long> *removed_sites;

bool calls_builtin(const gimple *stmt, built_in_function which)
{
    if (!is_gimple_call(stmt))
        return false;
    tree callee = gimple_call_fndecl(stmt);
    return callee && fndecl_built_in_p(callee, which);
}

bool is_enter_hook(const gimple *stmt)
{
    return calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_ENTER);
}

bool is_hook_call(const gimple *stmt)
{
    return is_enter_hook(stmt) || calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_EXIT);
}

bool is_return_address_value(const gimple *stmt)
{
    if (calls_builtin(stmt, BUILT_IN_RETURN_ADDRESS))
        return true;
    if (!gimple_assign_single_p(stmt) || TREE_CODE(gimple_assign_rhs1(stmt)) != SSA_NAME)
        return false;
    return calls_builtin(SSA_NAME_DEF_STMT(gimple_assign_rhs1(stmt)), BUILT_IN_RETURN_ADDRESS);
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

bool has_loop_attribute(tree decl)
{
    return lookup_attribute(loop_attribute, DECL_ATTRIBUTES(decl)) != NULL_TREE;
}

/* Should this hook, in the function SELF, go? */
bool from_inlined_copy(const gimple *stmt, tree self)
{
    tree hooked = hooked_function(stmt);
    if (!hooked)
        return false;
    tree origin = DECL_ORIGIN(hooked);
    if (origin == DECL_ORIGIN(self))
        return false;
    if (mode == KEEP_LOOPS && (has_loop_attribute(origin) || has_loop_attribute(hooked)))
        return false;
    return true;
}

/* As hooktrace_gcc.cc lists it: the assembler name, or a Fortran procedure
 * outside a module by its own name. */
const char *listed_name(tree decl)
{
    const char *symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    if (lang_GNU_Fortran() && DECL_NAME(decl) && !(strncmp(symbol, "__", 2) == 0 && strstr(symbol, "_MOD_")))
        return IDENTIFIER_POINTER(DECL_NAME(decl));
    return symbol;
}

void remove_statement(gimple_stmt_iterator *gsi)
{
    gimple *stmt = gsi_stmt(*gsi);
    unlink_stmt_vdef(stmt);
    gsi_remove(gsi, true);
    release_defs(stmt);
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
        if (has_kernel_loop(fun) && !has_loop_attribute(decl)) {
            DECL_ATTRIBUTES(decl) = tree_cons(get_identifier(loop_attribute), NULL_TREE, DECL_ATTRIBUTES(decl));
            if (verbose)
                inform(DECL_SOURCE_LOCATION(decl), "hooktrace: %qD has a loop: its inlined copies keep their hooks "
                       "under inlined-hooks=keep-loops", decl);
        }
        return 0;
    }

private:
    /* A loop whose trip count is not a small constant. */
    static bool has_kernel_loop(function *fun)
    {
        if (!mark_dfs_back_edges(fun))
            return false;
        bool kernel = false;
        loop_optimizer_init(LOOPS_NORMAL | LOOPS_HAVE_RECORDED_EXITS);
        scev_initialize();
        for (auto loop : loops_list(fun, 0)) {
            tree latches = number_of_latch_executions(loop);
            if (!latches || TREE_CODE(latches) != INTEGER_CST || !tree_fits_uhwi_p(latches) ||
                tree_to_uhwi(latches) >= fixed_trips_limit) {
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

    /* At -O0 nothing is inlined but always_inline functions, whose hooks
     * stay, as every hook does there (docs/plugin.md). */
    bool gate(function *fun) final override
    {
        return mode != KEEP && opt_for_fn(fun->decl, optimize) > 0;
    }

    unsigned int execute(function *fun) final override
    {
        tree self = fun->decl;
        bool removed = false, purge = false;
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun) {
            bool here = false;
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                gimple *stmt = gsi_stmt(gsi);
                if (!is_hook_call(stmt) || !from_inlined_copy(stmt, self)) {
                    gsi_next(&gsi);
                    continue;
                }
                if (is_enter_hook(stmt)) {
                    tree origin = DECL_ORIGIN(hooked_function(stmt));
                    (*removed_sites)[listed_name(origin)]++;
                    if (verbose)
                        inform(gimple_location(stmt), "hooktrace: hooks of %qD inlined into %qD removed", origin,
                               self);
                }
                remove_statement(&gsi);
                here = true;
            }
            if (here)
                purge |= gimple_purge_dead_eh_edges(bb);
            removed |= here;
        }
        if (!removed)
            return 0;
        /* The copies of __builtin_return_address (0) first, then the calls. */
        for (bool again = true; again;) {
            again = false;
            FOR_EACH_BB_FN(bb, fun) {
                for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                    gimple *stmt = gsi_stmt(gsi);
                    tree lhs = is_return_address_value(stmt) ? gimple_get_lhs(stmt) : NULL_TREE;
                    if (lhs && TREE_CODE(lhs) == SSA_NAME && has_zero_uses(lhs)) {
                        remove_statement(&gsi);
                        again = true;
                    } else {
                        gsi_next(&gsi);
                    }
                }
            }
        }
        /* A cleanup left empty (the exit hook of a copy was all it ran) goes
         * in GCC's later EH cleanup. */
        return TODO_update_ssa_only_virtuals | (purge ? TODO_cleanup_cfg : 0);
    }
};

/* Every function of the unit has been compiled: the assembler output is
 * still open. */
void finish_unit(void *, void *)
{
    if (!asm_out_file || removed_sites->empty())
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
    else if (value && strcmp(value, "keep") == 0)
        mode = KEEP;
    else {
        error("hooktrace plugin: inlined-hooks takes remove, keep-loops or keep, not %qs", value ? value : "");
        return -1;
    }
    return 1;
}

void ht_after_inlining_register(const char *plugin_name, bool verbose_notes)
{
    verbose = verbose_notes;
    removed_sites = new std::map<std::string, unsigned long>;

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
