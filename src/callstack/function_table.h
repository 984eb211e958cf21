/* Address -> struct ht_function for one profile: each distinct address is
 * resolved once through the symbols module and checked once against the
 * config's filters; addresses that resolve to the same name, file and line
 * share one ht_function, so they merge into one stack. */
#ifndef HT_CALLSTACK_FUNCTION_TABLE_H
#define HT_CALLSTACK_FUNCTION_TABLE_H

#include "callstack/profile.h"
#include "config/config.h"
#include "symbols/symbols.h"

struct ht_function_table;

struct ht_function_table *ht_function_table_new(struct ht_symbols *symbols,
                                                const struct ht_config *config);

/* Registers an address (ht_address_fn signature). */
void ht_function_table_add(uintptr_t address, void *table);

/* Resolves every registered address; after this, lookups are read-only. */
int ht_function_table_resolve(struct ht_function_table *table);

/* The ht_describe_fn for ht_profile_build. */
const struct ht_function *ht_function_table_lookup(uintptr_t address, void *table);

void ht_function_table_free(struct ht_function_table *table);

#endif
