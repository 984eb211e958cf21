/* Reading the events with several threads (--threads, docs/analyze.md).
 *
 * The locations are dealt into shares; each share has its own OTF2 reader
 * of the archive (one reader is not thread-safe; several on one archive
 * are), which lets OTF2's global reader merge the share's locations.
 * Decoding turns every event into a small record in a bounded queue of
 * batches, a step at a time, by whichever of the threads is free (the
 * calling one too).  The calling thread merges the queues by (time,
 * location), the order OTF2's global reader uses for all locations
 * together, and hands each record to the same callbacks the serial read
 * uses.  The analysis therefore sees the events in the serial order, and
 * its output is the serial output, byte for byte. */
#ifndef HT_ANALYZE_ARCHIVE_PAR_H
#define HT_ANALYZE_ARCHIVE_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/analysis.h"

/* The events of the selected locations (indexes into the location list)
 * with `threads` (2 or more) readers, after the definitions were read by
 * the caller.  Returns 0, or -1 with a message in err as archive_read. */
int archive_read_parallel(struct analysis *a, const char *anchor, const uint8_t *selected,
                          unsigned threads, int show_progress, char *err, size_t errsize);

#endif
