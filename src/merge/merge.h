/* The profile of an MPI run: every rank's profile merged by call path,
 * inside the MPI_Finalize wrapper before PMPI_Finalize. */
#ifndef HT_MERGE_MERGE_H
#define HT_MERGE_MERGE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "callstack/profile.h"
#include "config/config.h"
#include "merge/peers.h"
#include "output/output.h"

/* This rank, as the runtime hands it to the merge. */
struct ht_merge_rank {
    const struct ht_profile *profile; /* NULL: this rank could not build one */
    const struct ht_run_info *run;
    const struct ht_config *config;
    const char *basename;             /* of the summary files */
    int rank, size;                   /* world rank and size */
    /* all ranks' communicator for the merge, in world order: a duplicate
     * of MPI_COMM_WORLD or, in a sessions program, hooktrace's from
     * mpi://WORLD; or MPI_COMM_NULL: the merge duplicates MPI_COMM_WORLD
     * itself (an MPI_Init program whose duplicate failed) */
    MPI_Comm comm;
    /* this rank's functions, already named (MPI_T's merge finds its stacks
     * by name); NULL: it names them itself */
    const struct ht_function_table *table;
    bool rank_file;                   /* also <basename>_<rank>.* (mpi.rank_files) */
    /* A rank other than 0 writing its files alone (no merge): rank 0's
     * JSON, which has what is written once per job (the MPI_T control
     * variables; docs/mpi_t.md).  NULL: everything is listed. */
    const char *job_file;
    /* no MPI_T section: written by a signal during the job's merge, whose
     * MPI_T state may still be being read */
    bool without_mpit;
    double seconds_per_tick;
};

/* Collective over the job (comm): every rank calls it once (one with no
 * profile contributes nothing).  Rank 0 writes <basename>.{log,json,folded}
 * for the whole run; ranks with rank_file also write <basename>_<rank>.*
 * with their own figures.  If the merge itself fails (out of memory
 * somewhere), every rank writes <basename>_<rank>.* instead. */
void ht_merge_and_write(const struct ht_merge_rank *me);

/* This rank's own files under the full name given (<basename>_<rank>), with
 * its message figures and its row of the communication matrices.  Talks to
 * no other rank: safe at exit without MPI_Finalize.  Returns the number of
 * outputs that could not be written. */
int ht_merge_write_own_files(const struct ht_merge_rank *me, const char *name, bool merge_failed);

#endif
