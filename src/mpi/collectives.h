/* Collectives split into the pairwise messages this rank moves, one
 * function per pattern (see docs/mpi.md for the rule of each routine).
 * request is MPI_REQUEST_NULL for a blocking call. */
#ifndef HT_MPI_COLLECTIVES_H
#define HT_MPI_COLLECTIVES_H

#include "mpi/record.h"

#endif
