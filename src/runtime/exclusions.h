/* The config's excluded functions, by address (exclusions.c). */
#ifndef HT_RUNTIME_EXCLUSIONS_H
#define HT_RUNTIME_EXCLUSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

/* Entry addresses a symbol scan collects (here and throttling's "never"
 * list, lifecycle.c): malloc'ed, grown by doubling. */
struct ht_address_list {
    uintptr_t *addresses;
    size_t count, capacity;
};
/* Appends address; out of memory, the address is left out. */
void ht_address_list_add(struct ht_address_list *list, uintptr_t address);

/* Whether the config excludes functions by exclude_functions or a filter
 * file. */
bool ht_exclusions_wanted(const struct ht_config *cfg);

/* At start-up: the entry addresses of the excluded functions of the
 * instrumented objects loaded now (*addresses malloc'ed, or NULL), and the
 * one-time warnings (an MPI routine matched, SCOREP_FILE_NAMES ignored).
 * The objects loaded now are noted as read.  cfg must outlive the
 * process's libraries. */
void ht_exclusions_setup(const struct ht_config *cfg, uintptr_t **addresses, size_t *count);

/* The registry's observer when exclusions are wanted (callstack/functions.h:
 * asked about each function before its first node).  A function of an
 * object not read yet, a library loaded after start-up, has that object
 * read: its excluded functions are passed to ht_throttle_exclude before
 * the node is made.  Returns false when another thread was reading (ask
 * again later). */
bool ht_exclusions_function_seen(uintptr_t address);

/* dlclose unmapped [lo, hi): a library loaded there later is read afresh. */
void ht_exclusions_unmapped(uintptr_t lo, uintptr_t hi);

/* In a child after fork: no thread of the parent's is reading. */
void ht_exclusions_after_fork(void);

#endif
