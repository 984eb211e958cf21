/* Counter figures (src/counters) in the JSON and the logfile
 * (docs/output.md "Counters").  Each writes nothing when the config named
 * no counter event. */
#ifndef HT_OUTPUT_OUTPUT_COUNTERS_H
#define HT_OUTPUT_OUTPUT_COUNTERS_H

#include <jansson.h>
#include <stdio.h>

#include "callstack/profile.h"
#include "config/config.h"
#include "output/output.h"

/* The top-level "counters": events, papi_version, unavailable. */
void ht_output_json_counters_top(json_t *doc);
/* A stack's (or one of its threads') "counters": {event: {incl, excl}}. */
void ht_output_json_counters(json_t *obj, const struct ht_profile *p,
                             const struct ht_stack_stats *st);
/* The header's "counters:" lines. */
void ht_output_logfile_counters_header(FILE *out);
/* The counters table: the rows of the profile table, in its order. */
void ht_output_logfile_counters(FILE *out, const struct ht_profile *p, const int *order,
                                bool all_ranks, enum ht_sort_column column,
                                const struct ht_log_rows *rows);

#endif
