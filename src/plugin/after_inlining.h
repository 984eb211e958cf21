/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plugin's second rule (after_inlining.cc, docs/plugin.md): the hooks
 * of inlined copies come out once GCC has inlined, as clang's
 * -finstrument-functions-after-inlining does.  hooktrace_gcc.cc hands it its
 * argument and has it register its passes. */
#ifndef HT_PLUGIN_AFTER_INLINING_H
#define HT_PLUGIN_AFTER_INLINING_H

struct plugin_name_args;

/* 1 when KEY=VALUE is this rule's argument (inlined-hooks=...), 0 when KEY
 * is not its, -1 after reporting a bad value. */
int ht_after_inlining_argument(const char *key, const char *value);

/* The argument as the list of known ones shows it. */
#define HT_AFTER_INLINING_USAGE "inlined-hooks=leaf|keep-loops|remove|keep"

/* Registers the early pass that notes which functions have a loop, the
 * late pass, and the unit's end, where the section is written. */
void ht_after_inlining_register(const char *plugin_name, bool verbose);

#endif
