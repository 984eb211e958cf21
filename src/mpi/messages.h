/* Recording messages: each one updates the figures of the call-stack node
 * that issued it and, on the sending side, the per-peer counts behind the
 * communication matrices. */
#ifndef HT_MPI_MESSAGES_H
#define HT_MPI_MESSAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "mpi/thread_data.h"

/* One message moved by this thread on behalf of node.  peer is a world
 * rank (messages with no peer, MPI_PROC_NULL, are never recorded);
 * collective selects coll_matrix over comm_matrix. */
void ht_mpi_message(struct ht_thread *t, struct ht_node *node, bool send, bool collective,
                    int peer, uint64_t bytes, uint64_t start, uint64_t end);

/* The messages of a group shape (requests.h): records them in O(1), in the node's record for this shape (callstack/
 * tree.h: expanded when read).  Returns the record (for its peer count),
 * or NULL if nothing was recorded. */
struct ht_group_messages *ht_mpi_group_message(struct ht_thread *t, struct ht_node *node,
                                                     const struct ht_group_shape *shape,
                                                     uint64_t start, uint64_t end);

#endif
