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

/* The same, but asks known(address, &symbol, ctx) first and resolves
 * through the symbols module only the addresses it does not know (names
 * shared by another rank, merge/names.c).  *local and *shared (either may
 * be NULL) count the addresses named each way. */
int ht_function_table_resolve_known(struct ht_function_table *table,
                                    bool (*known)(uintptr_t address, struct ht_symbol *out,
                                                  void *ctx),
                                    void *ctx, size_t *local, size_t *shared);

/* Calls visit(address, ctx) for every registered address. */
void ht_function_table_each(const struct ht_function_table *table,
                            void (*visit)(uintptr_t address, void *ctx), void *ctx);

/* Applies what the table does to every symbol it resolves: an MPI routine's
 * wrapper (in libhooktrace) gets no file:line. */
void ht_function_table_adjust(const struct ht_function_table *table, struct ht_symbol *symbol);

/* The ht_describe_fn for ht_profile_build. */
const struct ht_function *ht_function_table_lookup(uintptr_t address, void *table);

void ht_function_table_free(struct ht_function_table *table);

#endif
