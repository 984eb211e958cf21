/* The text report: what a person reads on the terminal. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/output_file.h"
#include "analyze/report.h"

unsigned report_matrix_size(const struct analysis *a, const struct matrix_cell *const *cells,
                            size_t n)
{
    unsigned size = a->ranks.world_size;
    for (size_t i = 0; i < n; i++) {
        if (cells[i]->sender >= size)
            size = cells[i]->sender + 1;
        if (cells[i]->receiver >= size)
            size = cells[i]->receiver + 1;
    }
    return size;
}

static double seconds(const struct analysis *a, int64_t ticks)
{
    return (double)ticks / (double)a->clock.resolution;
}

static void trace_section(FILE *f, const struct analysis *a)
{
    const struct summary *s = &a->summary;
    fprintf(f, "Trace\n");
    fprintf(f, "  locations                %" PRIu32 "\n", a->ranks.nlocations);
    if (a->ranks.world)
        fprintf(f, "  MPI ranks                %" PRIu32 "\n", a->ranks.world_size);
    else
        fprintf(f, "  MPI ranks                none defined (no MPI COMM_LOCATIONS group)\n");
    fprintf(f, "  events read              %" PRIu64 "\n", s->events);
    if (a->clock.known)
        fprintf(f, "  timer resolution         %" PRIu64 " ticks/s\n", a->clock.resolution);
    else
        fprintf(f, "  timer resolution         unknown (no ClockProperties): times are ticks\n");
    if (a->ranks.duplicate_definitions)
        fprintf(f, "  duplicate definitions    %" PRIu32 " (the first of each kept)\n",
                a->ranks.duplicate_definitions);
    fprintf(f, "  MPI point-to-point records\n");
    for (int k = 0; k < RECORD_KIND_COUNT; k++)
        fprintf(f, "    %-22s %" PRIu64 "\n", record_name(k), s->records[k]);
}

static void summary_section(FILE *f, const struct analysis *a)
{
    const struct summary *s = &a->summary;
    fprintf(f, "\nSummary\n");
    fprintf(f, "  messages matched         %" PRIu64 "\n", s->messages);
    fprintf(f, "  bytes matched            %" PRIu64 " bytes\n", s->bytes);
    if (s->messages) {
        fprintf(f, "  duration min/mean/max    %.9f / %.9f / %.9f s\n",
                seconds(a, s->min_duration), seconds(a, s->total_duration) / (double)s->messages,
                seconds(a, s->max_duration));
    }
    if (s->timed_ticks) {
        fprintf(f, "  mean bandwidth           %.6g bytes/s (%" PRIu64
                   " messages with a positive duration)\n",
                (double)s->timed_bytes * (double)a->clock.resolution / (double)s->timed_ticks,
                s->timed_messages);
    }
    fprintf(f, "  order violations         %" PRIu64 " repaired (receives moved %.9f s in all, "
               "at most %.9f s)\n",
            a->clocks.violations, seconds(a, (int64_t)a->clocks.violation_ticks),
            seconds(a, (int64_t)a->clocks.max_violation_ticks));
    fprintf(f, "  unmatched sends          %" PRIu64 " (%" PRIu64 " bytes)\n", s->unmatched_sends,
            s->unmatched_send_bytes);
    fprintf(f, "  unmatched receives       %" PRIu64 " (%" PRIu64 " bytes)\n",
            s->unmatched_receives, s->unmatched_receive_bytes);
    fprintf(f, "  peak sends/receives held %" PRIu64 "\n", s->peak_in_flight);
    fprintf(f, "  warnings                 %" PRIu64 "\n", warnings_total(&a->warnings));
}

static void warnings_section(FILE *f, const struct analysis *a)
{
    const struct warnings *w = &a->warnings;
    if (!warnings_total(w))
        return;
    fprintf(f, "\nWarnings\n");
    for (int k = 0; k < WARN_KIND_COUNT; k++) {
        if (!w->count[k])
            continue;
        fprintf(f, "  %-26s %10" PRIu64 "  %s\n", warning_name(k), w->count[k],
                warning_meaning(k));
        uint64_t shown = 0;
        for (const struct warning_example *e = w->examples[k]; e; e = e->next, shown++)
            fprintf(f, "      %s\n", e->text);
        if (shown && w->count[k] > shown)
            fprintf(f, "      ... and %" PRIu64 " more\n", w->count[k] - shown);
    }
}

static void matrix_section(FILE *f, const struct analysis *a)
{
    size_t n;
    const struct matrix_cell **cells = matrix_sorted(&a->matrix, &n);
    fprintf(f, "\nCommunication matrix (matched messages by world rank; empty cells omitted)\n");
    if (n == 0) {
        fprintf(f, "  (no messages)\n");
    } else {
        fprintf(f, "  %8s %8s %12s %16s %24s\n", "sender", "receiver", "messages", "bytes",
                "mean bandwidth (bytes/s)");
        for (size_t i = 0; i < n; i++) {
            const struct matrix_cell *c = cells[i];
            double bw = matrix_cell_bandwidth(c, a->clock.resolution);
            fprintf(f, "  %8" PRIu32 " %8" PRIu32 " %12" PRIu64 " %16" PRIu64, c->sender,
                    c->receiver, c->messages, c->bytes);
            if (bw < 0)
                fprintf(f, " %24s\n", "-");
            else
                fprintf(f, " %24.6g\n", bw);
        }
    }
    free(cells);
}

static void waits_section(FILE *f, const struct analysis *a)
{
    size_t n;
    const struct wait_entry **list = waits_sorted(&a->waits, &n);
    fprintf(f, "\nWait states (biggest first; seconds)\n");
    if (n == 0)
        fprintf(f, "  (none)\n");
    for (size_t i = 0; i < n; i++) {
        const struct wait_entry *e = list[i];
        fprintf(f, "  %-16s rank %-6" PRIu32 " %10" PRIu64 " x %14.9f  %s\n",
                wait_pattern_name(e->pattern), e->rank, e->count,
                (double)e->ticks / (double)a->clock.resolution, e->path);
    }
    free(list);
}

int report_text(const struct analysis *a, const char *path, char *err, size_t errsize)
{
    struct output_file out;
    if (output_file_open(&out, path, err, errsize) != 0)
        return -1;
    FILE *f = out.f;
    fprintf(f, "hooktrace-analyze: %s\n\n", a->archive_path);
    trace_section(f, a);
    summary_section(f, a);
    warnings_section(f, a);
    waits_section(f, a);
    matrix_section(f, a);
    return output_file_commit(&out, err, errsize);
}
