/* The archive writer of a build without OTF2 (configure --without-otf2,
 * docs/install.md): ht_trace_setup refuses trace mode, so no thread ever
 * records an event and there is nothing to write. */
#include "trace/writer.h"

int64_t ht_trace_write(const struct ht_trace_run *run, const struct ht_function_table *table,
                       const char *basename)
{
    (void)run;
    (void)table;
    (void)basename;
    return 0;
}

void ht_trace_summary(struct ht_trace_summary *out)
{
    *out = (struct ht_trace_summary){0};
}
