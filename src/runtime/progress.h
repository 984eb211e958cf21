/* Progress of shut-down on stderr.  Writing the profile of a large run can
 * take seconds (naming functions, merging ranks, writing files); once it
 * has taken longer than outputs.progress_after_ms, each step says on stderr
 * that it is done, so that nobody takes a busy process for a hung one. */
#ifndef HT_RUNTIME_PROGRESS_H
#define HT_RUNTIME_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct ht_progress {
    uint64_t start_ns;
    uint64_t after_ns;
    bool enabled; /* false: never print (a rank other than 0) */
};

void ht_progress_start(struct ht_progress *p, unsigned after_ms, bool enabled);

/* "hooktrace: <seconds since start> s: <what>", if the threshold passed. */
void ht_progress_note(struct ht_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
