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

/* After PMPI_Init/PMPI_Init_thread succeeded (ht_mpi_after_init):
 * MPI_T_init_thread, the control variables, the pvar sessions. */
void ht_mpit_init(void);

/* In MPI_Finalize, first: no pvar is read after this. */
void ht_mpit_stop(void);

/* In MPI_Finalize after the profile is written, before PMPI_Finalize:
 * frees the sessions and calls MPI_T_finalize (Open MPI 4.1 crashes if
 * MPI_T_finalize comes after MPI_Finalize). */
void ht_mpit_finalize(void);

#endif
