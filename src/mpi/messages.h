/* Recording messages: each one updates the figures of the call-stack node
 * that issued it and, on the sending side, the per-peer counts behind the
 * communication matrices. */
#ifndef HT_MPI_MESSAGES_H
#define HT_MPI_MESSAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/compiler.h"
#include "mpi/thread_data.h"
#include "runtime/runtime.h"

/* One message moved by this thread on behalf of node.  peer is a world
 * rank (messages with no peer, MPI_PROC_NULL, are never recorded);
 * collective selects coll_matrix over comm_matrix. */
void ht_mpi_message(struct ht_thread *t, struct ht_node *node, bool send, bool collective,
                    int peer, uint64_t bytes, uint64_t start, uint64_t end);

/* A send to send_peer and a receive from recv_peer (an MPI_Sendrecv's:
 * either < 0 for none), point-to-point, as two ht_mpi_message calls would
 * record them, by a thread whose MPI data m is. */
HT_NOINSTR static inline void ht_mpi_messages_p2p_at(struct ht_mpi_thread *m,
                                                     struct ht_mpi_stats *s, int send_peer,
                                                     uint64_t send_bytes, int recv_peer,
                                                     uint64_t recv_bytes, uint64_t start,
                                                     uint64_t end)
{
    if (s) {
        uint64_t ticks = end > start ? end - start : 0;
        if (send_peer >= 0) {
            s->messages_sent++;
            s->bytes_sent += send_bytes;
            s->ticks_sent += ticks;
        }
        if (recv_peer >= 0) {
            s->messages_received++;
            s->bytes_received += recv_bytes;
            s->ticks_received += ticks;
        }
    }
    if (send_peer >= 0 && m->peers.p2p_messages && send_peer < ht_world.size) {
        m->peers.p2p_messages[send_peer]++;
        m->peers.p2p_bytes[send_peer] += send_bytes;
    }
}

HT_NOINSTR static inline void ht_mpi_messages_p2p(struct ht_thread *t, struct ht_mpi_thread *m,
                                                  struct ht_node *node, int send_peer,
                                                  uint64_t send_bytes, int recv_peer,
                                                  uint64_t recv_bytes, uint64_t start,
                                                  uint64_t end)
{
    if ((send_peer < 0 && recv_peer < 0) || !node)
        return;
    if (HT_UNLIKELY(!m->peers.p2p_messages)) /* a thread that met MPI before MPI_Init */
        ht_mpi_thread_data(t);
    ht_mpi_messages_p2p_at(m, node->mpi ? node->mpi : ht_mpi_node_stats(m, node), send_peer,
                           send_bytes, recv_peer, recv_bytes, start, end);
}

/* The messages of a group shape (requests.h): records them in O(1), in the node's record for this shape (callstack/
 * tree.h: expanded when read).  Returns the record (for its peer count),
 * or NULL if nothing was recorded. */
struct ht_group_messages *ht_mpi_group_message(struct ht_thread *t, struct ht_node *node,
                                                     const struct ht_group_shape *shape,
                                                     uint64_t start, uint64_t end);

#endif
