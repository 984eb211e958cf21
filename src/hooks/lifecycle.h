/* What start-up recorded, for shut-down and (later) the MPI layer. */
#ifndef HT_HOOKS_LIFECYCLE_H
#define HT_HOOKS_LIFECYCLE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config/config.h"

const struct ht_config *ht_lifecycle_config(void);
bool ht_lifecycle_started(void);
time_t ht_lifecycle_start_time(void);
uint64_t ht_lifecycle_start_ns(void);

/* Looks up the C library's longjmp family (longjmp.c), once at start-up. */
void ht_longjmp_resolve(void);

#endif
