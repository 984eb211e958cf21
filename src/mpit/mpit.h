/* The MPI tool information interface (MPI_T): control variables read at
 * start-up, performance variables read around MPI calls (docs/mpi_t.md).
 * The wrappers call ht_mpit_call_begin/end only while pvars are selected,
 * so without them no MPI_T call happens per MPI call. */
#ifndef HT_MPIT_MPIT_H
#define HT_MPIT_MPIT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "callstack/tree.h"
#include "config/config.h"

struct ht_mpit_values;

/* Non-zero while performance variables are read around MPI calls. */
extern int ht_mpit_pvars_active;

/* Around every logged MPI call: after the routine's node is entered, and
 * after the PMPI routine returned. */
void ht_mpit_call_begin(struct ht_node *node);
void ht_mpit_call_end(struct ht_node *node, uint64_t end);

/* What the MPI layer tells MPI_T at start-up.  values_slot gives, for the
 * calling thread, where a node's pvar figures hang (created on first use;
 * NULL if out of memory): MPI_T keeps them with the node's message figures
 * without knowing how the MPI layer stores those. */
struct ht_mpit_setup {
    const struct ht_config *config;
    int thread_level; /* as MPI provided it */
    int world_rank;
    /* pvars bound to a communicator are bound to this one: MPI_COMM_WORLD,
     * the program's; MPI_COMM_NULL in a sessions program, which has none
     * (they are left out) */
    MPI_Comm bind_comm;
    struct ht_mpit_values **(*values_slot)(struct ht_node *node);
};

/* After PMPI_Init/PMPI_Init_thread or the first PMPI_Session_init
 * succeeded (the job's start, src/mpi/job.c), if
 * profiling started: MPI_T_init_thread, the control variables, the pvar
 * sessions. */
void ht_mpit_init(const struct ht_mpit_setup *setup);

/* In MPI_Finalize, before the merge: without performance variables, a
 * rank whose files list control variables (wanted: rank 0, or a rank of
 * mpi.rank_files) starts MPI_T and reads them in a thread, beside the
 * merge; the outputs wait for it.  Other ranks make no MPI_T call.
 * ht_mpit_late says which; ht_mpit_late_start starts the thread, once the
 * loaded objects were listed for naming (ht_symbols_open): the libraries
 * MPI_T_init_thread loads may land where one the program closed lay. */
void ht_mpit_late(bool wanted);
void ht_mpit_late_start(void);

/* At start-up, when MPI_T will start late (mpi_t enabled, no pvars): until
 * MPI_Init has returned, keep loaded the Open MPI components it closes, so
 * that MPI_T_init_thread need not load them again (0.2 s of their
 * libraries' constructors sleeping; mpit_late.c).  ht_mpit_hold_closing is
 * called by the dlclose interposer before the C library's dlclose: it takes
 * one more reference to a component closed while holding. */
void ht_mpit_hold_begin(const struct ht_config *cfg);
void ht_mpit_hold_closing(void *handle);
/* MPI_T will never start (the process's MPI is not ours): stop holding,
 * and drop what was held. */
void ht_mpit_hold_cancel(void);

/* In MPI_Finalize, first: no pvar is read after this. */
void ht_mpit_stop(void);

/* In MPI_Finalize after the profile is written, before PMPI_Finalize:
 * frees the sessions and calls MPI_T_finalize (Open MPI 4.1 crashes if
 * MPI_T_finalize comes after MPI_Finalize). */
void ht_mpit_finalize(void);

#endif
