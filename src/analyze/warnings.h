/* Problems in a trace that the analyzer works around.  Each is counted by
 * kind, never aborts the analysis, and the first few of each kind are kept
 * as examples so that the report stays short however many there are (the
 * "condensed" warnings of seed 004). */
#ifndef HT_ANALYZE_WARNINGS_H
#define HT_ANALYZE_WARNINGS_H

#include <stdint.h>

enum warning_kind {
    WARN_MISSING_RECEIVE,      /* a send no receive matched */
    WARN_RECEIVE_WITHOUT_SEND, /* a receive no send matched */
    WARN_NONPOSITIVE_DURATION, /* receive time <= send time */
    WARN_SEND_LONGER,          /* more bytes sent than received */
    WARN_UNKNOWN_REQUEST,      /* a completion for a request id not pending */
    WARN_UNMATCHED_CANCEL,     /* a cancel for a request id not pending */
    WARN_REQUEST_REUSED,       /* a request id started again while pending */
    WARN_ISEND_NOT_COMPLETED,  /* an Isend still pending at the end */
    WARN_IRECV_NOT_COMPLETED,  /* an IrecvRequest still pending at the end */
    WARN_UNMAPPED_RANK,        /* a location or peer without a world rank */
    WARN_KIND_COUNT
};

struct warning_example {
    struct warning_example *next;
    char text[];
};

struct warnings {
    uint64_t count[WARN_KIND_COUNT];
    unsigned max_examples; /* kept per kind */
    struct warning_example *examples[WARN_KIND_COUNT], *last[WARN_KIND_COUNT];
};

void warnings_init(struct warnings *w, unsigned max_examples);
void warnings_free(struct warnings *w);

/* Counts one warning; keeps the formatted text if fewer than max_examples
 * of its kind are kept so far (the text is only formatted then). */
void warnings_add(struct warnings *w, enum warning_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

uint64_t warnings_total(const struct warnings *w);

/* Stable identifier (JSON key) and one-line meaning of each kind. */
const char *warning_name(enum warning_kind kind);
const char *warning_meaning(enum warning_kind kind);

#endif
