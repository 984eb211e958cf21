/* One thread's buffered records as the events of its OTF2 location. */
#ifndef HT_TRACE_ARCHIVE_EVENTS_H
#define HT_TRACE_ARCHIVE_EVENTS_H

#include <otf2/otf2.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/archive_internal.h"

struct ht_trace_buffer;

/* Writes the events of b (node->spare holds the unified regions; comm_ids
 * maps registry indices to unified communicators) and counts them in
 * info.  Returns 0, or -1 with a message in err. */
int ht_trace_write_location(OTF2_EvtWriter *w, struct ht_trace_buffer *b, const uint32_t *comm_ids,
                            uint32_t comm_count, struct ht_location_info *info, char *err,
                            size_t errlen);

#endif
