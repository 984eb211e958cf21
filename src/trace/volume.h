/* Trace volume (docs/trace.md, "Volume"): the per-rank bound
 * trace.max_bytes_per_rank and what the archive and stderr say about it
 * and about throttled functions. */
#ifndef HT_TRACE_VOLUME_H
#define HT_TRACE_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callstack/tree.h"
#include "trace/buffer.h"

/* At start-up: the process's bound in bytes, 0 for none. */
void ht_trace_volume_setup(uint64_t max_bytes_per_rank);

/* A thread recorded the bytes it was allowed (b->allowed): gives it more
 * from the process's bound and returns true, or, once the bound is spent,
 * closes the calls open at `open` (Leaves at now), records the cut and
 * returns false: from then on the thread records MPI events only. */
bool ht_trace_volume_grant(struct ht_trace_buffer *b, struct ht_node *open, uint64_t now);

/* At the end, on every rank together when mpi: the text for the summary
 * line ("; N functions throttled") and, on rank 0, the message about ranks
 * that reached the bound. */
void ht_trace_volume_report(bool mpi, int rank, int world_size, char *note, size_t len);

#endif
