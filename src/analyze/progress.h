/* Progress of the event loop on stderr: at most one line a second, and a
 * last line when the loop ends.  On a terminal the line is rewritten in
 * place; otherwise (--progress into a log file) each is a new line. */
#ifndef HT_ANALYZE_PROGRESS_H
#define HT_ANALYZE_PROGRESS_H

#include <stdint.h>

struct progress {
    int enabled;
    int terminal;
    uint64_t expected_events; /* from the location definitions; 0: unknown */
    double start, last;       /* monotonic seconds */
    int printed;
};

void progress_start(struct progress *p, int enabled, uint64_t expected_events);
void progress_update(struct progress *p, uint64_t events, uint64_t messages, uint64_t in_flight);
void progress_end(struct progress *p, uint64_t events, uint64_t messages, int complete);

#endif
