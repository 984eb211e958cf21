/* One-sided operations as origin -> target messages (see docs/mpi.md).
 *
 * Every operation is one message sent by the origin to the target (the
 * data it moves, in whichever direction, counted once on the side that
 * made the call: the target takes no part in it).  It goes to the
 * point-to-point figures and comm_matrix, not the collective ones.  A
 * request-based form (MPI_Rput, ...) passes its request and the message is
 * recorded when the request completes; the others pass MPI_REQUEST_NULL. */
#ifndef HT_MPI_RMA_H
#define HT_MPI_RMA_H

#include <mpi.h>

#include "mpi/record.h"

/* Put, Rput: origin_count x origin_datatype. */
void ht_rma_Put(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request request);
/* Get, Rget: origin_count x origin_datatype (what is fetched). */
void ht_rma_Get(struct ht_mpi_call *c, void *origin_addr, MPI_Count origin_count,
                MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request request);
/* Accumulate, Raccumulate: origin_count x origin_datatype. */
void ht_rma_Accumulate(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                       MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request request);
/* Get_accumulate, Rget_accumulate: the origin's data plus the result. */
void ht_rma_Get_accumulate(struct ht_mpi_call *c, const void *origin_addr, MPI_Count origin_count,
                           MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                           MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request request);
/* Fetch_and_op: one element each way, 2 x the type's size. */
void ht_rma_Fetch_and_op(struct ht_mpi_call *c, const void *origin_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op,
                         MPI_Win win, MPI_Request request);
/* Compare_and_swap: origin, compare and result, 3 x the type's size. */
void ht_rma_Compare_and_swap(struct ht_mpi_call *c, const void *origin_addr,
                             const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                             int target_rank, MPI_Aint target_disp, MPI_Win win,
                             MPI_Request request);

#endif
