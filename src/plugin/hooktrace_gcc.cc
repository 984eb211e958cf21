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
 *   exclude-file=PATH  assembler names whose hooks go whatever their size
 *                      (exclude_list.cc)
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
#include "hook_calls.h"
#include "exclude_list.h"

int plugin_is_GPL_compatible;

namespace {

int max_statements = 8;
bool verbose = false;

/* Functions of this translation unit whose hooks this pass removed. */
hash_set<tree> *tiny_functions;
/* Every function this pass ran on, to tell (verbose) a callee not seen yet. */
hash_set<tree> *seen_functions;

/* __builtin_return_address (0) itself: not counted in a function's size. */
bool is_return_address_call(const gimple *stmt)
{
    return ht_calls_builtin(stmt, BUILT_IN_RETURN_ADDRESS);
}

bool is_main(tree decl)
{
    if (!DECL_NAME(decl))
        return false;
    const char *name = IDENTIFIER_POINTER(DECL_NAME(decl));
    return strcmp(name, "main") == 0 || strcmp(name, "MAIN__") == 0;
}

/* The declaration whose body a call to callee runs.  A C++ constructor or
 * destructor is compiled as variants (complete object C1/D1, base object
 * C2/D2, deleting D0); when two have the same body GCC keeps one (C2, D2)
 * and makes the other an alias of it, and a call names the alias (C1, D1),
 * whose own declaration this pass never sees.  The same holds for any other
 * alias GCC or the program declares. */
tree body_of(tree callee)
{
    cgraph_node *node = cgraph_node::get(callee);
    if (!node)
        return callee;
    cgraph_node *target = node->ultimate_alias_target();
    return target ? target->decl : callee;
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
    tree body = body_of(callee);
    if (tiny_functions->contains(body))
        return true;
    if (verbose && !seen_functions->contains(body) && gimple_has_body_p(body))
        inform(gimple_location(call), "hooktrace: %qD called before this pass saw its body", body);
    return false;
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
            /* The return is where a function ends, not work it does:
             * counting it put iterator operator-(n), whose body is one
             * pointer subtraction and an iterator constructor, one over
             * the limit, and every back() with it. */
            case GIMPLE_RETURN:
                continue;
            case GIMPLE_ASM:
                return -1;
            case GIMPLE_CALL:
                /* Internal functions: sanitizer checks (.UBSAN_NULL ...),
                 * __builtin_expect; a sanitized accessor is still tiny. */
                if (ht_is_hook_call(stmt) || is_return_address_call(stmt) || gimple_call_internal_p(stmt))
                    continue;
                if (!call_allowed(as_a<gcall *>(stmt)))
                    return -1;
                break;
            default:
                if (gimple_clobber_p(stmt) || ht_is_return_address_value(stmt))
                    continue;
                break;
            }
            if (++count > max_statements)
                return -1;
        }
    }
    return count;
}

/* Removes the hook calls, then the __builtin_return_address values that fed
 * them; returns whether any EH edge became dead. */
bool remove_hooks(function *fun)
{
    bool purge = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
            if (ht_is_hook_call(gsi_stmt(gsi)))
                ht_remove_statement(&gsi);
            else
                gsi_next(&gsi);
        }
        purge |= gimple_purge_dead_eh_edges(bb);
    }
    ht_remove_unused_return_addresses(fun);
    return purge;
}

bool has_hooks(function *fun)
{
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
            if (ht_is_hook_call(gsi_stmt(gsi)))
                return true;
    return false;
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
        return flag_instrument_function_entry_exit && (ht_exclude_active() || tiny_rule_on(fun));
    }

    bool tiny_rule_on(function *fun)
    {
        return max_statements > 0 && opt_for_fn(fun->decl, optimize) > 0;
    }

    unsigned int execute(function *fun) final override
    {
        tree decl = fun->decl;
        seen_functions->add(decl);
        if (!has_hooks(fun))
            return 0;
        /* Named in the exclude file: exactly this function, at any level,
         * and not counted as tiny, so that its callers stay as they were. */
        if (ht_exclude_listed(decl)) {
            bool purge = remove_hooks(fun);
            list_in_section(ht_listed_name(decl));
            if (verbose)
                inform(DECL_SOURCE_LOCATION(decl), "hooktrace: %qD left uninstrumented (exclude-file)", decl);
            return TODO_update_ssa_only_virtuals | (purge ? TODO_cleanup_cfg : 0);
        }
        if (is_main(decl) || !tiny_rule_on(fun))
            return 0;
        if (mark_dfs_back_edges(fun))
            return 0; /* a loop */
        int count = count_statements(fun);
        if (count < 0)
            return 0;
        bool purge = remove_hooks(fun);
        tiny_functions->add(decl);
        list_in_section(ht_listed_name(decl));
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
        } else if (int taken = ht_exclude_argument(arg.key, arg.value)) {
            if (taken < 0)
                return false;
        } else {
            error("hooktrace plugin: unknown argument %qs (known: max-statements=N, " HT_AFTER_INLINING_USAGE
                  ", " HT_EXCLUDE_USAGE ", verbose)", arg.key);
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
    seen_functions = new hash_set<tree>;

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
    ht_exclude_register(info->base_name);
    return 0;
}
