/* Naming every recorded function once per MPI job, on rank 0, instead of on
 * every rank (names.c, docs/symbols.md "In an MPI run"). */
#ifndef HT_MERGE_NAMES_H
#define HT_MERGE_NAMES_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "callstack/function_table.h"
#include "symbols/symbols.h"

struct ht_shared_names;

/* Collective over comm: every rank calls it once, with its symbols and the
 * table of the addresses it recorded (either may be NULL: the rank then
 * contributes nothing).  Returns the names rank 0 found for the union of
 * all ranks' functions, or NULL (nothing shared: each rank resolves its
 * own).  The names stay valid until ht_shared_names_free. */
struct ht_shared_names *ht_shared_names_exchange(MPI_Comm comm, struct ht_symbols *symbols,
                                                 struct ht_function_table *table);

/* The `known` callback of ht_function_table_resolve_known; ctx is the
 * ht_shared_names. */
bool ht_shared_names_lookup(uintptr_t address, struct ht_symbol *out, void *ctx);

void ht_shared_names_free(struct ht_shared_names *names);

#endif
