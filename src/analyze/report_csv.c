/* The message list as CSV, written as messages are matched. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/output_file.h"
#include "analyze/report.h"

struct csv_writer {
    struct output_file out;
    char *buffer;
};

/* Large writes: millions of short lines. */
#define CSV_BUFFER (1 << 20)

struct csv_writer *csv_open(const char *path, char *err, size_t errsize)
{
    struct csv_writer *csv = xmalloc(sizeof *csv);
    if (output_file_open(&csv->out, path, err, errsize) != 0) {
        free(csv);
        return NULL;
    }
    csv->buffer = NULL;
    if (csv->out.f != stdout) {
        csv->buffer = xmalloc(CSV_BUFFER);
        setvbuf(csv->out.f, csv->buffer, _IOFBF, CSV_BUFFER);
    }
    fputs("sender,receiver,communicator,tag,send_bytes,receive_bytes,"
          "send_time_s,receive_time_s,duration_s,status\n",
          csv->out.f);
    return csv;
}

void csv_message(struct csv_writer *csv, const struct trace_clock *clock,
                 const struct endpoint *s, const struct endpoint *r)
{
    FILE *f = csv->out.f;
    if (s && r) {
        fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64 ",%" PRIu64
                   ",%.9f,%.9f,%.9f,matched\n",
                s->self, r->self, s->comm, s->tag, s->bytes, r->bytes,
                trace_seconds(clock, s->time), trace_seconds(clock, r->time),
                trace_interval(clock, s->time, r->time));
    } else if (s) {
        fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64
                   ",,%.9f,,,missing_receive\n",
                s->self, s->peer, s->comm, s->tag, s->bytes, trace_seconds(clock, s->time));
    } else {
        fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",,%" PRIu64
                   ",,%.9f,,receive_without_send\n",
                r->peer, r->self, r->comm, r->tag, r->bytes, trace_seconds(clock, r->time));
    }
}

int csv_close(struct csv_writer *csv, int keep, char *err, size_t errsize)
{
    int status = 0;
    if (keep)
        status = output_file_commit(&csv->out, err, errsize);
    else
        output_file_abort(&csv->out);
    free(csv->buffer);
    free(csv);
    return status;
}
