/* The MPI tool information interface (MPI_T): control variables read at
 * start-up, performance variables read around MPI calls (docs/mpi_t.md).
 * The wrappers call ht_mpit_call_begin/end only while pvars are selected,
 * so without them no MPI_T call happens per MPI call. */
#ifndef HT_MPI_MPIT_H
#define HT_MPI_MPIT_H

struct ht_mpi_call;

/* Non-zero while performance variables are read around MPI calls. */
extern int ht_mpit_pvars_active;

/* Around every logged MPI call: after the routine's node is entered, and
 * after the PMPI routine returned. */
void ht_mpit_call_begin(struct ht_mpi_call *c);
void ht_mpit_call_end(struct ht_mpi_call *c);

#endif
