/* Clock synchronisation in trace mode: each rank's clock offset to rank 0,
 * measured at the job's start and end and written into the archive as
 * OTF2 ClockOffset definitions of each of the rank's locations, as
 * Score-P writes them (docs/trace.md#clocks-across-nodes). */
#ifndef HT_TRACE_CLOCK_SYNC_H
#define HT_TRACE_CLOCK_SYNC_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

/* Collective over job (every rank in world order, hooktrace's own
 * communicator, so no message of the program can match ours): at the
 * job's start (end = false), right after MPI is initialised, and at its
 * end, before MPI is finalised.  wanted: the config asks for a trace (the
 * same on every rank); nothing is measured unless trace mode could start
 * on every rank, nor with one rank. */
void ht_trace_clock_sync(MPI_Comm job, bool wanted, bool end);

/* One measurement of this rank's clock against rank 0's. */
struct ht_clock_offset {
    uint64_t time;  /* local tick of the measurement */
    int64_t offset; /* global = local + offset, in ticks */
    double sd;      /* ticks */
};

/* This rank's measurements, at most two (the job's start and end), into
 * out; returns how many (none without MPI or with one rank).  The archive
 * writes them as ClockOffset definitions. */
int ht_trace_clock_offsets(struct ht_clock_offset out[2]);

#endif
