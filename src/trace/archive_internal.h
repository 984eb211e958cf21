/* Shared by the parts of the archive writer (archive.c: orchestration and
 * events; definitions.c: the global definitions rank 0 writes). */
#ifndef HT_TRACE_ARCHIVE_INTERNAL_H
#define HT_TRACE_ARCHIVE_INTERNAL_H

#include <otf2/otf2.h>
#include <stdbool.h>
#include <stdint.h>

#include "trace/unify.h"

/* node->spare while the archive is written: the node's unified region id
 * and kind, or HT_NODE_NOT_TRACED. */
#define HT_NODE_NOT_TRACED UINT64_MAX
#define HT_NODE_REGION(spare) ((uint32_t)(spare))
#define HT_NODE_OP(spare) ((int)(((spare) >> 32) & 0xff) - 1)
#define HT_NODE_NONBLOCKING(spare) (((spare) >> 40) & 1)

/* The definitions of the volume events (volume.c, archive_events.c). */
#define HT_TRACE_PARAM_THROTTLED 0
#define HT_TRACE_ATTR_FUNCTION 0
#define HT_TRACE_ATTR_BOUND 1

/* One location (thread) as every rank reports it to rank 0. */
struct ht_location_info {
    uint64_t id;
    uint64_t events;
    uint64_t first_tick, last_tick; /* UINT64_MAX / 0 without events */
    int32_t rank;                   /* -1 without MPI */
    int32_t thread;                 /* index of the thread in its process */
};

/* What rank 0 needs to write the global definitions. */
struct ht_trace_defs {
    bool mpi;                       /* the run used MPI: define its communicators */
    int world_size;
    int own_rank;                   /* >= 0: an archive of this rank alone (a run
                                       that ended without MPI_Finalize) */
    struct ht_blobs regions;        /* unified: "name\0file\0line" */
    struct ht_blobs comms;          /* unified: see comm_blob in archive.c */
    struct ht_location_info *locations;
    uint32_t location_count;
    char (*hosts)[64];              /* per process in the archive */
    double ticks_per_second;
    const char *program;
};

/* Writes every global definition; returns false on an OTF2 error. */
bool ht_trace_write_definitions(OTF2_GlobalDefWriter *w, const struct ht_trace_defs *d);

/* An OTF2 location id: thread index above, rank below, so that a rank's
 * first thread has the rank's number. */
static inline uint64_t ht_location_id(int rank, int thread)
{
    return (uint64_t)(uint32_t)thread << 32 | (uint32_t)(rank < 0 ? 0 : rank);
}

#endif
