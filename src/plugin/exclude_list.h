/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The plugin's exact exclusions (exclude_list.cc, docs/plugin.md): the
 * functions named, by assembler name, in the file given as exclude-file=PATH
 * (the .exclude file a run writes for what it throttled) lose their hooks
 * whatever their size; and the marker section every unit compiled with the
 * plugin carries, so that a run can tell whether its build used it. */
#ifndef HT_PLUGIN_EXCLUDE_LIST_H
#define HT_PLUGIN_EXCLUDE_LIST_H

union tree_node;

/* 1 when KEY=VALUE is this file's argument (exclude-file=PATH, read now),
 * 0 when KEY is not its, -1 after reporting an unreadable file or a bad
 * line. */
int ht_exclude_argument(const char *key, const char *value);

#define HT_EXCLUDE_USAGE "exclude-file=PATH"

/* Whether any name was read, and whether this function's is one of them. */
bool ht_exclude_active(void);
bool ht_exclude_listed(union tree_node *decl);

/* Registers the unit's marker, .hooktrace.plugin. */
void ht_exclude_register(const char *plugin_name);

#endif
