/* MPI_T: not implemented yet (issue 7); the hooks the wrappers call. */
#include "mpi/mpit.h"

int ht_mpit_pvars_active;

void ht_mpit_call_begin(struct ht_mpi_call *c)
{
    (void)c;
}

void ht_mpit_call_end(struct ht_mpi_call *c)
{
    (void)c;
}
