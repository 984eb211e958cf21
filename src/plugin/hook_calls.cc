/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The hook calls in a function's GIMPLE, for both of the plugin's rules
 * (hook_calls.h). */
#include "gcc-plugin.h"

#include "tree.h"
#include "backend.h"
#include "gimple.h"
#include "ssa.h"
#include "gimple-iterator.h"
#include "langhooks.h"

#include <string.h>

#include "hook_calls.h"

/* By callee, not gimple_call_builtin_p: that also checks the argument
 * types, and GCC passes the function's own address, not a void *. */
bool ht_calls_builtin(const gimple *stmt, built_in_function which)
{
    if (!is_gimple_call(stmt))
        return false;
    tree callee = gimple_call_fndecl(stmt);
    return callee && fndecl_built_in_p(callee, which);
}

bool ht_is_hook_call(const gimple *stmt)
{
    return ht_calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_ENTER) ||
           ht_calls_builtin(stmt, BUILT_IN_PROFILE_FUNC_EXIT);
}

/* The value a hook call passes as its call site comes from
 * __builtin_return_address (0), sometimes through a copy; once the hooks
 * are gone neither is used. */
bool ht_is_return_address_value(const gimple *stmt)
{
    if (ht_calls_builtin(stmt, BUILT_IN_RETURN_ADDRESS))
        return true;
    if (!gimple_assign_single_p(stmt) || TREE_CODE(gimple_assign_rhs1(stmt)) != SSA_NAME)
        return false;
    return ht_calls_builtin(SSA_NAME_DEF_STMT(gimple_assign_rhs1(stmt)), BUILT_IN_RETURN_ADDRESS);
}

void ht_remove_statement(gimple_stmt_iterator *gsi)
{
    gimple *stmt = gsi_stmt(*gsi);
    unlink_stmt_vdef(stmt);
    gsi_remove(gsi, true);
    release_defs(stmt);
}

void ht_remove_unused_return_addresses(function *fun)
{
    basic_block bb;
    /* The copies go first, then the calls they copied. */
    for (bool again = true; again;) {
        again = false;
        FOR_EACH_BB_FN(bb, fun) {
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
                gimple *stmt = gsi_stmt(gsi);
                tree lhs = ht_is_return_address_value(stmt) ? gimple_get_lhs(stmt) : NULL_TREE;
                if (lhs && TREE_CODE(lhs) == SSA_NAME && has_zero_uses(lhs)) {
                    ht_remove_statement(&gsi);
                    again = true;
                } else {
                    gsi_next(&gsi);
                }
            }
        }
    }
}

/* The assembler name, which hooktrace demangles (C++) or turns into
 * module::procedure (gfortran's __module_MOD_procedure), except for a
 * Fortran procedure outside a module, whose symbol foo_ hooktrace shows as
 * foo. */
const char *ht_listed_name(tree decl)
{
    const char *symbol = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(decl));
    if (lang_GNU_Fortran() && DECL_NAME(decl) && !(strncmp(symbol, "__", 2) == 0 && strstr(symbol, "_MOD_")))
        return IDENTIFIER_POINTER(DECL_NAME(decl));
    return symbol;
}
