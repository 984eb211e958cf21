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

/* mpiP's levels (docs/regions.md, "Phases"): 0 (or less) pauses all
 * recording of this process and 1 resumes it; 2 forgets what was recorded
 * so far and changes nothing else; 3 and 4 write this rank's profile now
 * and change nothing else; 5 and more act as 1, as before levels had
 * meanings.  The message gate closes before the hooks pause and opens
 * after they resume, so no message is counted whose call is not. */
void ht_mpi_pcontrol(int level)
{
    if (level <= 0) {
        ht_mpi.pcontrol_level = 0;
        ht_mpi_update_logging();
        ht_runtime_pause();
    } else if (level == 2) {
        ht_runtime_reset();
    } else if (level == 3 || level == 4) {
        ht_runtime_write_now();
    } else {
        ht_runtime_resume();
        ht_mpi.pcontrol_level = 1;
        ht_mpi_update_logging();
    }
}

void ht_mpi_before_abort(int errorcode)
{
    static struct ht_partial why = {.reason = "MPI_Abort", .has_errorcode = true};
    why.errorcode = errorcode;
    ht_mpit_stop();
    ht_runtime_finish_partial(&why);
}
