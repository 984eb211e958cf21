/* A small layer over the OTF2 writer API for the analyzer's tests and
 * benchmark: an archive of N MPI ranks, one location each (plus optional
 * extra thread locations), MPI_COMM_WORLD and MPI_COMM_SELF predefined,
 * more communicators on demand, and one call per MPI record.
 *
 * Location references are deliberately not the ranks (rank r is location
 * 100 + N - 1 - r), so a reader that confuses the two gets wrong answers.
 * All definitions are written by tw_close. */
#ifndef HT_TEST_ANALYZE_TRACE_WRITER_H
#define HT_TEST_ANALYZE_TRACE_WRITER_H

#include <stdint.h>

struct tw;

enum { TW_COMM_WORLD = 0, TW_COMM_SELF = 1 };

/* A new archive "<directory>/traces.otf2"; exits on failure. */
struct tw *tw_create(const char *directory, uint32_t nranks);

/* Leave out the MPI COMM_LOCATIONS group (a trace whose ranks cannot be
 * mapped). */
void tw_omit_world_group(struct tw *tw);
/* Write no ClockProperties definition. */
void tw_omit_clock(struct tw *tw);
/* Define MPI_COMM_WORLD a second time, on the COMM_SELF group. */
void tw_duplicate_world_comm(struct tw *tw);
/* Ticks per second (default 1e9, i.e. nanoseconds) and the clock offset. */
void tw_set_clock(struct tw *tw, uint64_t resolution, uint64_t offset);

/* The location of a rank's main thread. */
uint64_t tw_rank_location(const struct tw *tw, uint32_t rank);
/* A second location (thread) in the process of `rank`. */
uint64_t tw_add_thread(struct tw *tw, uint32_t rank);

/* An intra-communicator whose local rank i is world rank members[i].
 * flags: OTF2_GroupFlag of its group. */
uint32_t tw_add_comm(struct tw *tw, const char *name, uint32_t size, const uint32_t *members,
                     uint32_t flags);
/* An inter-communicator between two groups of world ranks. */
uint32_t tw_add_inter_comm(struct tw *tw, const char *name, uint32_t size_a, const uint32_t *a,
                           uint32_t size_b, const uint32_t *b);

/* Event records on a location, at a time in ticks. */
void tw_send(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
             uint32_t tag, uint64_t bytes);
void tw_isend(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
              uint32_t tag, uint64_t bytes, uint64_t request);
void tw_isend_complete(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request);
void tw_recv(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
             uint32_t tag, uint64_t bytes);
void tw_irecv_request(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request);
void tw_irecv(struct tw *tw, uint64_t loc, uint64_t time, uint32_t peer, uint32_t comm,
              uint32_t tag, uint64_t bytes, uint64_t request);
void tw_cancelled(struct tw *tw, uint64_t loc, uint64_t time, uint64_t request);
/* Enter and Leave of a region: events the analyzer must skip. */
void tw_enter(struct tw *tw, uint64_t loc, uint64_t time);
void tw_leave(struct tw *tw, uint64_t loc, uint64_t time);

/* A region named `name` (an MPI routine if it starts with "MPI_"); the
 * reference for tw_enter_region.  Region 0 is "work". */
uint32_t tw_region(struct tw *tw, const char *name);
void tw_enter_region(struct tw *tw, uint64_t loc, uint64_t time, uint32_t region);
void tw_leave_region(struct tw *tw, uint64_t loc, uint64_t time, uint32_t region);
/* MpiCollectiveBegin at `begin` and MpiCollectiveEnd at `end`: op is an
 * OTF2_CollectiveOp, root a rank of comm (OTF2_UNDEFINED_UINT32: none). */
void tw_collective(struct tw *tw, uint64_t loc, uint64_t begin, uint64_t end, uint8_t op,
                   uint32_t comm, uint32_t root);
/* A ClockOffset definition of a location (at most 4 each, in time order),
 * as Score-P writes them: at local time `time` the location's clock read
 * `offset` ticks less than the global one (global = local + offset). */
void tw_clock_offset(struct tw *tw, uint64_t loc, uint64_t time, int64_t offset,
                     double deviation);

/* Writes the definitions and closes the archive; exits on failure. */
void tw_close(struct tw *tw);

#endif
