/* Warning counts and examples. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/fail.h"
#include "analyze/warnings.h"

static const struct {
    const char *name, *meaning;
} kinds[WARN_KIND_COUNT] = {
    [WARN_MISSING_RECEIVE] = {"missing_receive", "send that no receive matched"},
    [WARN_RECEIVE_WITHOUT_SEND] = {"receive_without_send", "receive that no send matched"},
    [WARN_NONPOSITIVE_DURATION] = {"nonpositive_duration",
                                   "message received at or before the time it was sent"},
    [WARN_SEND_LONGER] = {"send_longer_than_receive",
                          "message that sent more bytes than its receive got"},
    [WARN_UNKNOWN_REQUEST] = {"unknown_request",
                              "completion of a request id that is not pending on the location"},
    [WARN_UNMATCHED_CANCEL] = {"unmatched_cancel",
                               "cancel of a request id that is not pending on the location"},
    [WARN_REQUEST_REUSED] = {"request_reused",
                             "request id started again while still pending on the location"},
    [WARN_ISEND_NOT_COMPLETED] = {"isend_not_completed",
                                  "Isend never completed or cancelled (counted as sent)"},
    [WARN_IRECV_NOT_COMPLETED] = {"irecv_not_completed",
                                  "IrecvRequest never completed or cancelled (dropped)"},
    [WARN_UNMAPPED_RANK] = {"unmapped_rank",
                            "MPI record whose process or peer has no world rank (dropped)"},
};

void warnings_init(struct warnings *w, unsigned max_examples)
{
    memset(w, 0, sizeof *w);
    w->max_examples = max_examples;
}

void warnings_free(struct warnings *w)
{
    for (int k = 0; k < WARN_KIND_COUNT; k++) {
        struct warning_example *e = w->examples[k];
        while (e) {
            struct warning_example *next = e->next;
            free(e);
            e = next;
        }
        w->examples[k] = w->last[k] = NULL;
    }
}

void warnings_add(struct warnings *w, enum warning_kind kind, const char *fmt, ...)
{
    if (w->count[kind]++ >= w->max_examples)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t n = strlen(text) + 1;
    struct warning_example *e = xmalloc(sizeof *e + n);
    e->next = NULL;
    memcpy(e->text, text, n);
    if (w->last[kind])
        w->last[kind]->next = e;
    else
        w->examples[kind] = e;
    w->last[kind] = e;
}

uint64_t warnings_total(const struct warnings *w)
{
    uint64_t total = 0;
    for (int k = 0; k < WARN_KIND_COUNT; k++)
        total += w->count[k];
    return total;
}

const char *warning_name(enum warning_kind kind)
{
    return kinds[kind].name;
}

const char *warning_meaning(enum warning_kind kind)
{
    return kinds[kind].meaning;
}
