/* The config's excluded functions, by address (exclusions.c). */
#ifndef HT_RUNTIME_EXCLUSIONS_H
#define HT_RUNTIME_EXCLUSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

/* Whether the config excludes functions by exclude_functions or a filter
 * file. */
bool ht_exclusions_wanted(const struct ht_config *cfg);

/* At start-up: the entry addresses of the excluded functions of the
 * instrumented objects loaded now (*addresses malloc'ed, or NULL), and the
 * one-time warnings (an MPI routine matched, SCOREP_FILE_NAMES ignored).
 * cfg must outlive the process's libraries. */
void ht_exclusions_setup(const struct ht_config *cfg, uintptr_t **addresses, size_t *count);

#endif
