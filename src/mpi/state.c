#include "mpi/state.h"

#include <stdlib.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "output/output.h"
#include "runtime/runtime.h"
#include "mpi/abi.h"
#include "mpi/call.h"
#include "mpit/mpit.h"
#include "mpi/ranks.h"
#include "mpi/requests.h"
#include "mpi/thread_data.h"

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
              !ht_world.finalized && !ht_mpi_foreign;
    if (!on && ht_mpi_logging)
        __atomic_add_fetch(&ht_mpi.epoch, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&ht_mpi_logging, on, __ATOMIC_RELEASE);
}

/* Where MPI_T keeps a node's pvar figures: beside its message figures. */
static struct ht_mpit_values **pvar_slot(struct ht_node *node)
{
    struct ht_thread *t = ht_thread_self;
    struct ht_mpi_stats *s = t && t->mpi ? ht_mpi_node_stats(t->mpi, node) : NULL;
    return s ? &s->pvars : NULL;
}

void ht_mpi_after_init(void)
{
    const struct ht_config *cfg = ht_runtime_config();
    PMPI_Comm_rank(MPI_COMM_WORLD, &ht_world.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &ht_world.size);
    PMPI_Query_thread(&ht_mpi.thread_level);
    ht_mpi.rank_logged = ht_rank_set_contains(&cfg->mpi.log_ranks, ht_world.rank);
    /* MPI_THREAD_SERIALIZED lets any thread call MPI, one at a time: a hook
     * on one thread must not call MPI while another is inside it.  With the
     * other levels a thread polls only requests it made itself. */
    ht_mpi.hook_polling = ht_mpi.thread_level != MPI_THREAD_SERIALIZED;
    ht_mpi.shared_requests = ht_mpi.thread_level >= MPI_THREAD_SERIALIZED;
    double ticks_per_us = 1e-6 * ht_clock_ticks_per_second_estimate();
    ht_mpi.poll_interval_ticks = (uint64_t)((double)cfg->mpi.poll_interval_us * ticks_per_us);
    ht_mpi.poll_max_interval_ticks =
        (uint64_t)((double)cfg->mpi.poll_max_interval_us * ticks_per_us);
    if (ht_mpi.poll_max_interval_ticks < ht_mpi.poll_interval_ticks)
        ht_mpi.poll_max_interval_ticks = ht_mpi.poll_interval_ticks;
    ht_mpi.poll_batch = cfg->mpi.poll_batch;
    ht_mpi_ranks_init();
    ht_world.have_comm = PMPI_Comm_dup(MPI_COMM_WORLD, &ht_world.comm) == MPI_SUCCESS;
    ht_world.initialized = true;
    if (ht_runtime_started()) {
        struct ht_mpit_setup mpit = {cfg, ht_mpi.thread_level, ht_world.rank, pvar_slot};
        ht_mpit_init(&mpit);
    }
    ht_mpi_update_logging();
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

void ht_mpi_before_finalize(void)
{
    /* The merge's own MPI traffic must not count in any pvar figure. */
    ht_mpit_stop();
    /* Without pvars, the control variables, once per job, beside the merge. */
    const struct ht_config *cfg = ht_runtime_config();
    ht_mpit_late(ht_world.rank == 0 || ht_rank_set_contains(&cfg->mpi.rank_files, ht_world.rank));
    struct ht_thread *t = ht_thread_self;
    /* Completions handed back to threads that made no MPI call since. */
    if (ht_mpi.shared_requests)
        ht_request_drain_all_handoffs();
    if (t && t->mpi)
        ht_request_table_drain(t, ht_clock_now());
    ht_runtime_finish_mpi();
    /* Before PMPI_Finalize: Open MPI 4.1 crashes in a later MPI_T_finalize. */
    ht_mpit_finalize();
    ht_world.finalized = true;
    ht_mpi_update_logging();
}
