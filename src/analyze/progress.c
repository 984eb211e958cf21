/* Progress lines on stderr. */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "analyze/fail.h"
#include "analyze/progress.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, int enabled, uint64_t expected_events)
{
    p->enabled = enabled;
    p->terminal = isatty(STDERR_FILENO);
    p->expected_events = expected_events;
    p->start = p->last = now();
    p->printed = 0;
}

static void line(struct progress *p, uint64_t events, uint64_t messages, const char *tail)
{
    double elapsed = now() - p->start;
    fprintf(stderr, "%s" ANALYZE_PROGRAM ": %.1f M events", p->terminal ? "\r" : "",
            (double)events / 1e6);
    if (p->expected_events && events <= p->expected_events)
        fprintf(stderr, " (%.0f %%)", 100.0 * (double)events / (double)p->expected_events);
    fprintf(stderr, ", %" PRIu64 " messages matched, %.1f s%s", messages, elapsed, tail);
    /* A terminal line is rewritten: clear what a longer one left behind. */
    fputs(p->terminal ? "\033[K" : "\n", stderr);
    fflush(stderr);
    p->printed = 1;
}

void progress_update(struct progress *p, uint64_t events, uint64_t messages, uint64_t in_flight)
{
    if (!p->enabled)
        return;
    double t = now();
    if (t - p->last < 1.0)
        return;
    p->last = t;
    char tail[64];
    snprintf(tail, sizeof tail, ", %" PRIu64 " in flight", in_flight);
    line(p, events, messages, tail);
}

void progress_end(struct progress *p, uint64_t events, uint64_t messages, int complete)
{
    if (!p->enabled)
        return;
    line(p, events, messages, complete ? ", done" : ", stopped");
    if (p->terminal)
        fputc('\n', stderr);
}
