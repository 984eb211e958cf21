#include "mpi/state.h"

#include "output/output.h"
#include "runtime/runtime.h"
#include "mpi/abi.h"
#include "mpit/mpit.h"

struct ht_mpi_state ht_mpi = {.pcontrol_level = 1, .rank_logged = true};
int ht_mpi_logging;
int ht_mpi_fortran_env;

void ht_mpi_update_logging(void)
{
    /* Once logging may be on, the runtime must close the gate when
     * recording stops. */
    ht_runtime_on_stop(ht_mpi_update_logging);
    const struct ht_config *cfg = ht_runtime_config();
    bool on = ht_runtime_started() && __atomic_load_n(&ht_recording, __ATOMIC_RELAXED) &&
              cfg->mpi.log_messages && ht_mpi.pcontrol_level > 0 && ht_mpi.rank_logged &&
              ht_world.initialized && !ht_world.finalized && !ht_mpi_foreign;
    if (!on && ht_mpi_logging)
        __atomic_add_fetch(&ht_mpi.epoch, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&ht_mpi_logging, on, __ATOMIC_RELEASE);
}

void ht_mpi_pcontrol(int level)
{
    ht_mpi.pcontrol_level = level;
    ht_mpi_update_logging();
}

void ht_mpi_before_abort(int errorcode)
{
    static struct ht_partial why = {.reason = "MPI_Abort", .has_errorcode = true};
    why.errorcode = errorcode;
    ht_mpit_stop();
    ht_runtime_finish_partial(&why);
}
