/* One-sided operations as origin -> target messages (see docs/mpi.md). */
#ifndef HT_MPI_RMA_H
#define HT_MPI_RMA_H

#include "mpi/record.h"

#endif
