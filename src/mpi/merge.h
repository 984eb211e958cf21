/* The profile of an MPI run: every rank's profile merged by call path,
 * inside the MPI_Finalize wrapper before PMPI_Finalize. */
#ifndef HT_MPI_MERGE_H
#define HT_MPI_MERGE_H

#include <stdbool.h>

#include "callstack/profile.h"
#include "config/config.h"
#include "output/output.h"

/* Collective over MPI_COMM_WORLD: every rank calls it once.  profile may be
 * NULL on a rank that could not build one (it then contributes nothing).
 * Rank 0 writes <basename>.{log,json,folded} for the whole run; ranks named
 * by mpi.rank_files also write <basename>_<rank>.* with their own figures.
 * If the merge itself fails (out of memory somewhere), every rank writes
 * <basename>_<rank>.* instead. */
void ht_mpi_merge_and_write(const struct ht_profile *profile, const struct ht_run_info *run,
                            const struct ht_config *config, const char *basename);

/* This rank's own files under the full name given (<basename>_<rank>), with
 * its message figures and its row of the communication matrices.  Talks to
 * no other rank: safe at exit without MPI_Finalize.  Returns the number of
 * outputs that could not be written. */
int ht_mpi_write_own_files(const struct ht_profile *profile, const struct ht_run_info *run,
                           const struct ht_config *config, const char *basename,
                           bool merge_failed);

#endif
