/* The communicators a traced process used.
 *
 * OTF2 events name peers by their rank in a communicator, so the archive
 * must define every communicator an event mentions, with the world ranks
 * of its members, identically on every rank.  A communicator is entered
 * here the first time an event mentions it; its index in this process's
 * registry is what the buffers hold, translated to the unified id when the
 * archive is written.  Communicators are never removed: a freed one keeps
 * its index (its events are in the buffers). */
#ifndef HT_TRACE_COMMS_H
#define HT_TRACE_COMMS_H

#include <mpi.h>
#include <stdint.h>

struct ht_trace_comm {
    int inter;            /* 1: an inter-communicator */
    int size;             /* local group */
    int remote_size;      /* remote group (inter-communicators), else 0 */
    int *members;         /* world ranks: the local group, then the remote one */
};

/* The job's communicator: every rank in world order, what the archive's
 * world (index 0) stands for and what writing it is collective over.
 * MPI_COMM_WORLD until the MPI layer says otherwise at the job's start (a
 * duplicate of it, or in a sessions program hooktrace's communicator from
 * mpi://WORLD); valid until the archive is written. */
void ht_trace_set_job(MPI_Comm comm);
MPI_Comm ht_trace_job(void);

/* The registry index of comm, registering it on first use.  The caller
 * keeps 1 + the index with its communicator in *cached (0: not known yet;
 * NULL: no such place); an inter-communicator gives its remote group's
 * size and world ranks.  MPI_COMM_WORLD (and the job's communicator) is
 * always index 0.  Called from MPI wrappers only. */
uint32_t ht_trace_comm_index(MPI_Comm comm, uint32_t *cached, int remote_size,
                             const int *remote_world);

/* The registry as it stands (at the end, when no thread adds to it). */
const struct ht_trace_comm *ht_trace_comms(uint32_t *count);

#endif
