/* The MPI_T figures at MPI_Finalize: each stack's performance variables
 * over the ranks (the summary) or on one rank (its own files), and the
 * control variables, as the output view shows them (output_mpit.h). */
#ifndef HT_MERGE_MPIT_MERGE_H
#define HT_MERGE_MPIT_MERGE_H

#include <mpi.h>

#include "callstack/profile.h"
#include "mpit/view.h"

struct ht_pathset;
struct ht_function_table;

/* This rank's unified stacks as the merge leaves them (merge_tree.c). */
struct ht_mpit_stacks {
    const struct ht_pathset *own; /* this rank's set of paths */
    const int *global_id;         /* [own->count]: each path's global ID */
    size_t nstacks;               /* the number of global stacks */
    const struct ht_function_table *table; /* this rank's functions, named;
                                              NULL: named here */
};

/* Collective over comm, called by every rank once the stacks are unified:
 * every stack's pvar figures over the ranks.  Rank 0 gets them in *out;
 * the other ranks get only the static part (cvars, notes).  Never fails to
 * take part, so no rank hangs; out of memory anywhere leaves the stats
 * out, with a note. */
void ht_mpit_merge(MPI_Comm comm, const struct ht_mpit_stacks *stacks,
                   const struct ht_config *config, struct ht_mpit_output *out);

/* This rank's own figures on the stacks of its own profile (p may be
 * NULL).  Talks to no other rank.  complete_in: NULL, every control
 * variable; else the name of the file that has rank 0's (a rank writing
 * alone, not rank 0), and no control variable. */
void ht_mpit_local(const struct ht_profile *p, const struct ht_config *config,
                   const char *complete_in, struct ht_mpit_output *out);

void ht_mpit_output_free(struct ht_mpit_output *out);

#endif
