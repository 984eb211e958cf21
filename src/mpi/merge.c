/* Placeholder until the cross-rank merge lands: each rank writes its own
 * files, named <basename>_<rank>. */
#include <stdio.h>

#include "mpi/merge.h"
#include "mpi/state.h"

void ht_mpi_merge_and_write(const struct ht_profile *profile, const struct ht_run_info *run,
                            const struct ht_config *config, const char *basename)
{
    if (!profile)
        return;
    char name[4096];
    snprintf(name, sizeof name, "%s_%d", basename, ht_mpi.world_rank);
    ht_output_write_all(profile, run, config, name);
}
