/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hooktrace's GCC plugin: leave the hook calls out of functions too small to
 * be worth measuring, before GCC inlines them (docs/plugin.md).
 *
 * GCC inserts the -finstrument-functions hook calls when it gimplifies a
 * function, before any inlining, so every inlined copy of a one-line C++
 * accessor keeps a hook pair, and the code around it (argument set-up,
 * registers saved across the call, loops no longer vectorised) stays even
 * when hooktrace rewrites the call itself to a no-op at run time.  This pass
 * runs on each function just before the early inliner, callees before their
 * callers, and takes the hooks out of a function whose whole body costs less
 * than the hook pair would:
 *   - no loop (no back edge in its control-flow graph),
 *   - at most max-statements GIMPLE statements besides the hooks,
 *   - every call it makes goes to a function this pass already found tiny,
 *     to a const or pure builtin (sqrt, fabs, target intrinsics) or to a
 *     noreturn function (the throw and abort paths of bounds checks).
 * A call to anything else (another translation unit, MPI, an indirect or
 * virtual call) keeps the function instrumented, so every MPI call stays
 * attributed to the stack that made it.  main (and gfortran's MAIN__) is
 * always kept.  Clang's -finstrument-functions-after-inlining has a similar
 * aim: no hooks for what disappears into its callers.
 *
 * The names of the functions left out go into a non-allocated section,
 * .hooktrace.uninstrumented, which the linker concatenates; hooktrace reads
 * it from the binary at shut-down and names them in the profile.  They are
 * written as top-level asm statements, which GCC emits at the end of the
 * unit and, under -flto, streams with the code to the link-time compile.
 *
 * At -O0 it removes nothing (see the gate).
 *
 * Arguments (-fplugin-arg-hooktrace_gcc-NAME[=VALUE]):
 *   max-statements=N   the size limit (default 8; 0 keeps every hook)
 *   inlined-hooks=...  the second rule, after inlining (after_inlining.cc)
 *   verbose            a note on stderr for every function left out */
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "backend.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "ssa.h"
#include "cfganal.h"
#include "gimple-iterator.h"
#include "tree-cfg.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "langhooks.h"

#include <stdlib.h>
#include <string.h>
#include <string>

#include "after_inlining.h"

int plugin_is_GPL_compatible;

namespace {

int max_statements = 8;
bool verbose = false;

/* Functions of this translation unit whose hooks this pass removed. */
hash_set<tree> *tiny_functions;

/* By callee, not gimple_call_builtin_p: that also checks the argument
 * types, and GCC passes the function's own address, not a void *. */
bool calls_builtin(const gimple *stmt, built_in_function which)
{
    if (!is_gimple_call(stmt))
        return false;
    tree callee = gimple_call_fndecl(stmt);
    return callee && fndecl_built_in_p(callee, which);
}

bool is_hook_call(const gimple *stmt)
{
    return calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_ENTER) ||
           calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_EXIT);
}

/* The value a hook call passes as its call site comes from
 * __builtin_return_address (0), sometimes through a copy; once the hooks
 * are gone neither is used. */
bool is_return_address_call(const gimple *stmt)
{
    return calls_builtin(stmt, BUILT_IN_RETURN_ADDRESS);
}

bool is_return_address_value(const gimple *stmt)
{
    if (is_return_address_call(stmt))
        return true;
    if (!gimple_assign_single_p(stmt) || TREE_CODE(gimple_assign_rhs1(stmt)) != SSA_NAME)
        return false;
    return is_return_address_call(SSA_NAME_DEF_STMT(gimple_assign_rhs1(stmt)));
}

bool is_main(tree decl)
{
    if (!DECL_NAME(decl))
        return false;
    const char *name = IDENTIFIER_POINTER(DECL_NAME(decl));
    return strcmp(name, "main") == 0 || strcmp(name, "MAIN__") == 0;
}

/* Does a call to this function keep its caller out of the tiny set? */
bool call_allowed(const gcall *call)
{
    if (gimple_call_internal_p(call))
        return true;
    int flags = gimple_call_flags(call);
    if (flags & ECF_NORETURN)
        return true;
    tree callee = gimple_call_fndecl(call);
    if (!callee)
        return false; /* indirect or virtual: could be anything */
    if (fndecl_built_in_p(callee, BUILT_IN_MD))
        return true;
    if (fndecl_built_in_p(callee, BUILT_IN_NORMAL) && (flags & (ECF_CONST | ECF_PURE)))
        return true;
    return tiny_functions->contains(callee);
}

/* Counts the statements that would run besides the hooks; -1 as soon as
 * the function is found not to be tiny. */
int count_statements(function *fun)
{
    int count = 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
            gimple *stmt = gsi_stmt(gsi);
            switch (gimple_code(stmt)) {
            case GIMPLE_DEBUG: case GIMPLE_LABEL: case GIMPLE_NOP: case GIMPLE_PREDICT:
            case GIMPLE_RESX: case GIMPLE_EH_DISPATCH:
                continue;
            case GIMPLE_ASM:
                return -1;
            case GIMPLE_CALL:
                /* Internal functions: sanitizer checks (.UBSAN_NULL ...),
                 * __builtin_expect; a sanitized accessor is still tiny. */
                if (is_hook_call(stmt) || is_return_address_call(stmt) || gimple_call_internal_p(stmt))
                    continue;
                if (!call_allowed(as_a<gcall *>(stmt)))
                    return -1;
                break;
            default:
                if (gimple_clobber_p(stmt) || is_return_address_value(stmt))
                    continue;
                break;
            }
            if (++count > max_statements)
                return -1;
        }
    }
    return count;
}

void remove_statement(gimple_stmt_iterator *gsi)
{
    gimple *stmt = gsi_stmt(*gsi);
    unlink_stmt_vdef(stmt);
    gsi_remove(gsi, true);
    release_defs(stmt);
}

/* Removes the hook calls, then the __builtin_return_address values that fed
 * them; returns whether any EH edge became dead. */
bool remove_hooks(function *fun)
{
    bool purge = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
            if (is_hook_call(gsi_stmt(gsi)))
                remove_statement(&gsi);
            else
                gsi_next(&gsi);
        }
        purge |= gimple_purge_dead_eh_edges(bb);
    }
    /* The copies go first, then the calls they copied. */
    for (bool removed = true; removed;) {
        removed = false;
        FOR_EACH_BB_FN(bb, fun) {
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                gimple *stmt = gsi_stmt(gsi);
                tree lhs = is_return_address_value(stmt) ? gimple_get_lhs(stmt) : NULL_TREE;
                if (lhs && TREE_CODE(lhs) == SSA_NAME && has_zero_uses(lhs)) {
                    remove_statement(&gsi);
                    removed = true;
                } else {
                    gsi_next(&gsi);
                }
            }
        }
    }
    return purge;
}

bool has_hooks(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
            if (is_hook_call(gsi_stmt(gsi)))
                return true;
    return false;
}

/* The name hooktrace shows for the function: the assembler name, which it
 * demangles (C++) or turns into module::procedure (gfortran's
 * __module_MOD_procedure), except for a Fortran procedure outside a module,
 * whose symbol foo_ hooktrace shows as foo. */
const char *listed_name(tree decl)
{
    const char *symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    if (lang_GNU_Fortran() && DECL_NAME(decl) && !(strncmp(symbol, "__", 2) == 0 && strstr(symbol, "_MOD_")))
        return IDENTIFIER_POINTER(DECL_NAME(decl));
    return symbol;
}

/* One NUL-terminated name after another, in a section that is never loaded.
 * Assembler names need no quoting (letters, digits, _ . $). */
void list_in_section(const char *name)
{
    std::string text = "\t.pushsection .hooktrace.uninstrumented,\"\",@progbits\n\t.string \"";
    text += name;
    text += "\"\n\t.popsection";
    symtab->finalize_toplevel_asm(build_string((int)text.size(), text.c_str()));
}

const pass_data tiny_pass_data = {
    GIMPLE_PASS,
    "hooktrace_tiny",
    OPTGROUP_NONE,
    TV_NONE,
    PROP_cfg | PROP_ssa,
    0,
    0,
    0,
    0,
};

class tiny_pass : public gimple_opt_pass {
public:
    explicit tiny_pass(gcc::context *ctx) : gimple_opt_pass(tiny_pass_data, ctx) {}

    /* Not at -O0 (nor in a function optimize("O0") compiles so): nothing is
     * inlined there, so a tiny function's hooks are one call pair that
     * run-time throttling rewrites, keeping its first calls in the
     * profile, and a build for debugging shows every function. */
    bool gate(function *fun) final override
    {
        return flag_instrument_function_entry_exit && max_statements > 0 &&
               opt_for_fn(fun->decl, optimize) > 0;
    }

    unsigned int execute(function *fun) final override
    {
        tree decl = fun->decl;
        if (is_main(decl) || !has_hooks(fun))
            return 0;
        if (mark_dfs_back_edges(fun))
            return 0; /* a loop */
        int count = count_statements(fun);
        if (count < 0)
            return 0;
        bool purge = remove_hooks(fun);
        tiny_functions->add(decl);
        list_in_section(listed_name(decl));
        if (verbose)
            inform(DECL_SOURCE_LOCATION(decl), "hooktrace: %qD left uninstrumented (%d statements, no loop)",
                   decl, count);
        return TODO_update_ssa_only_virtuals | (purge ? TODO_cleanup_cfg : 0);
    }
};


bool parse_arguments(const plugin_name_args *info)
{
    for (int i = 0; i < info->argc; i++) {
        const plugin_argument &arg = info->argv[i];
        if (strcmp(arg.key, "max-statements") == 0 && arg.value) {
            char *end;
            long n = strtol(arg.value, &end, 10);
            if (*end || end == arg.value || n < 0 || n > 100000) {
                error("hooktrace plugin: max-statements takes a whole number from 0 to 100000, not %qs",
                      arg.value);
                return false;
            }
            max_statements = (int)n;
        } else if (strcmp(arg.key, "verbose") == 0 && !arg.value) {
            verbose = true;
        } else if (int taken = ht_after_inlining_argument(arg.key, arg.value)) {
            if (taken < 0)
                return false;
        } else {
            error("hooktrace plugin: unknown argument %qs (known: max-statements=N, " HT_AFTER_INLINING_USAGE
                  ", verbose)", arg.key);
            return false;
        }
    }
    return true;
}

} // namespace

int plugin_init(plugin_name_args *info, plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("hooktrace plugin: built for GCC %s, loaded by GCC %s; rebuild hooktrace with this compiler",
              gcc_version.basever, version->basever);
        return 1;
    }
    if (!parse_arguments(info))
        return 1;
    tiny_functions = new hash_set<tree>;

    static plugin_info about = {"0.1", "leaves tiny functions out of -finstrument-functions (hooktrace)"};
    register_callback(info->base_name, PLUGIN_INFO, NULL, &about);

    /* First thing in the per-function early passes, which run callees
     * before callers: before the call graph edges are rebuilt, the size
     * summaries taken and the early inliner copies anything. */
    register_pass_info pass;
    pass.pass = new tiny_pass(g);
    pass.reference_pass_name = "*rebuild_cgraph_edges";
    pass.ref_pass_instance_number = 1;
    pass.pos_op = PASS_POS_INSERT_BEFORE;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    ht_after_inlining_register(info->base_name, verbose);
    return 0;
}
