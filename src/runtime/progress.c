#include "runtime/progress.h"

#include <stdarg.h>
#include <stdio.h>

#include "common/clock.h"

void ht_progress_start(struct ht_progress *p, unsigned after_ms, bool enabled)
{
    p->start_ns = ht_clock_monotonic_ns();
    p->after_ns = (uint64_t)after_ms * 1000000u;
    p->enabled = enabled;
}

void ht_progress_note(struct ht_progress *p, const char *fmt, ...)
{
    if (!p->enabled)
        return;
    uint64_t elapsed = ht_clock_monotonic_ns() - p->start_ns;
    if (elapsed < p->after_ns)
        return;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "hooktrace: %.1f s: %s\n", (double)elapsed * 1e-9, what);
}
