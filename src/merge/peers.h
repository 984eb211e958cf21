/* What the MPI layer counts per thread for the merge to sum: a small
 * header of its own, so that the MPI core includes nothing else of the
 * merge's. */
#ifndef HT_MERGE_PEERS_H
#define HT_MERGE_PEERS_H

#include <stdint.h>
#include <string.h>

struct ht_group_messages;

/* Messages a thread sent to each world rank (world-size entries each),
 * point-to-point and one-sided (p2p) and from collectives (coll).  The MPI
 * layer counts them per thread and hangs them on the thread's state
 * (ht_thread.peers); the merge sums them into this rank's matrix row. */
struct ht_peer_counts {
    uint64_t *p2p_messages, *p2p_bytes;
    uint64_t *coll_messages, *coll_bytes;
    /* Collectives recorded once per call (callstack/tree.h), newest first:
     * their messages count in coll_* when the row is built. */
    struct ht_group_messages *groups;
};

/* Zeroes the counts of a thread (a fork child's start, MPI_Pcontrol(2));
 * size: the world's. */
static inline void ht_peer_counts_forget(struct ht_peer_counts *p, int size)
{
    if (!p || size <= 0)
        return;
    uint64_t *rows[] = {p->p2p_messages, p->p2p_bytes, p->coll_messages, p->coll_bytes};
    for (int i = 0; i < 4; i++)
        if (rows[i])
            memset(rows[i], 0, (size_t)size * sizeof *rows[i]);
}

#endif
