/* Writing the OTF2 archive at the end of the run. */
#ifndef HT_TRACE_WRITER_H
#define HT_TRACE_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "callstack/function_table.h"

/* The folder the archive goes into: "trace.folder", else the output
 * directory. */
const char *ht_trace_folder(const struct ht_config *cfg);

/* Writes the archive <folder>/<name>/traces.otf2 from every thread's
 * buffer.  table names the functions (resolved already); basename is the
 * profile's, from which the default archive name derives.  With run->mpi (all
 * ranks, inside MPI_Finalize, before PMPI_Finalize) the definitions are
 * unified across the job (ht_trace_job) and rank 0 writes them; otherwise this
 * process writes an archive of its own.  Reports problems on stderr and
 * returns the number of events written by this process, or -1. */
struct ht_trace_run {
    const struct ht_config *config;
    double seconds_per_tick;
    bool mpi;             /* all ranks write one archive together */
    bool mpi_initialized; /* without mpi: this rank writes its own archive */
    int world_rank, world_size;
};
int64_t ht_trace_write(const struct ht_trace_run *run, const struct ht_function_table *table,
                       const char *basename);

/* What the logfile says about the trace of this process (zeros when trace
 * mode is off). */
struct ht_trace_summary {
    bool enabled;
    char archive[4400];      /* path of traces.otf2, "" if none was written */
    uint64_t events;         /* recorded by this process */
    uint64_t dropped;        /* lost: a flush to disk failed */
    uint64_t flushes;        /* buffers written to disk during the run */
    uint64_t spilled_bytes;
};
void ht_trace_summary(struct ht_trace_summary *out);

#endif
