/* Reading an OTF2 archive with the OTF2 reader API: the global
 * definitions (into the rank map), then the local definitions of every
 * location (so that OTF2 applies their mapping tables), then the events of
 * all locations merged in timestamp order by the global event reader.
 *
 * Merging matters for memory: a send waits for its receive only as long as
 * the message is in flight in the trace's time, not until the receiving
 * location's events are read. */
#ifndef HT_ANALYZE_ARCHIVE_H
#define HT_ANALYZE_ARCHIVE_H

#include <stddef.h>

#include "analyze/analysis.h"

/* The anchor file for a path given on the command line: the path itself,
 * or the one *.otf2 file in it if it is a directory.  Returns a malloc'ed
 * path, or NULL with a message in err. */
char *archive_find_anchor(const char *path, char *err, size_t errsize);

/* Reads the archive `anchor` into the analysis (which must be
 * initialised; analysis_finish is left to the caller).  progress: report
 * on stderr.  threads: event readers (archive_par.h), 1 for the serial
 * read; the result does not depend on it.  Returns 0, or -1 with one message in err naming the file
 * and the problem. */
int archive_read(struct analysis *a, const char *anchor, int progress, unsigned threads,
                 char *err, size_t errsize);

#endif
