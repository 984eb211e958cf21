/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What both of the plugin's rules need to know of a function's GIMPLE
 * (hook_calls.cc): which statements are the -finstrument-functions hooks
 * and the __builtin_return_address (0) values they pass, how to remove
 * them, and the name a function is listed under.  Include it after GCC's
 * own headers. */
#ifndef HT_PLUGIN_HOOK_CALLS_H
#define HT_PLUGIN_HOOK_CALLS_H

/* Whether STMT calls the built-in WHICH, by callee. */
bool ht_calls_builtin(const gimple *stmt, built_in_function which);

/* A __cyg_profile_func_enter or __cyg_profile_func_exit call. */
bool ht_is_hook_call(const gimple *stmt);

/* __builtin_return_address (0), or a copy of its value. */
bool ht_is_return_address_value(const gimple *stmt);

/* Removes the statement at GSI, its virtual definition and its SSA
 * definitions; GSI then points at the next one. */
void ht_remove_statement(gimple_stmt_iterator *gsi);

/* Removes the __builtin_return_address (0) values left unused once their
 * hook calls went, copies first. */
void ht_remove_unused_return_addresses(function *fun);

/* The name hooktrace shows for DECL (see hook_calls.cc). */
const char *ht_listed_name(tree decl);

#endif
