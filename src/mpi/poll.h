/* What the hooks call in the MPI layer: no MPI types, so that src/hooks
 * builds without mpi.h. */
#ifndef HT_MPI_POLL_H
#define HT_MPI_POLL_H

#include <stdint.h>

#include "callstack/thread.h"

/* Polls the thread's open MPI requests (requests.c), from the general path
 * of a hook when the thread has any: at most once per poll interval. */
void ht_mpi_poll_from_hook(struct ht_thread *t, uint64_t now);

#endif
