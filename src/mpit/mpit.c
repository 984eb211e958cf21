/* MPI_T start-up and shut-down, the notes the outputs show, and MPI_T's
 * names for its constants (docs/mpi_t.md). */
#include "mpit/mpit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "mpit/mpit_internal.h"

struct ht_mpit_state ht_mpit = {
    .call_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

void ht_mpit_note(const char *fmt, ...)
{
    char buf[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&ht_mpit.lock);
    if (ht_mpit.nnotes == ht_mpit.notes_capacity) {
        size_t cap = ht_mpit.notes_capacity ? 2 * ht_mpit.notes_capacity : 8;
        char **bigger = realloc(ht_mpit.notes, cap * sizeof *bigger);
        if (bigger) {
            ht_mpit.notes = bigger;
            ht_mpit.notes_capacity = cap;
        }
    }
    char *copy = ht_mpit.nnotes < ht_mpit.notes_capacity ? strdup(buf) : NULL;
    if (copy)
        ht_mpit.notes[ht_mpit.nnotes++] = copy;
    pthread_mutex_unlock(&ht_mpit.lock);
}

void ht_mpit_set_status(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    free(ht_mpit.status);
    ht_mpit.status = strdup(buf);
}

/* Performance variables asked for: they need MPI_T on every rank from
 * MPI_Init on.  mpi_t.pvar_change alone selects none. */
bool ht_mpit_pvars_asked(const struct ht_config *cfg)
{
    return cfg->mpi_t.pvars.count > 0 || cfg->mpi_t.pvar_classes != 0;
}

static void start(int thread_level)
{
    /* MPI_T calls happen inside the program's MPI calls, so they need the
     * same thread support as MPI itself; and Open MPI 4.1's
     * MPI_T_init_thread sets MPI's own thread level to the one asked for,
     * so it must be the one MPI provided. */
    int provided = MPI_THREAD_SINGLE;
    int rc = MPI_T_init_thread(thread_level, &provided);
    if (rc != MPI_SUCCESS) {
        ht_mpit_set_status("MPI_T_init_thread failed (%s): no control or performance variables",
                   ht_mpit_error_name(rc));
        return;
    }
    ht_mpit.initialized = true;
    ht_mpit.provided = provided;
    ht_mpit.lock_calls = thread_level == MPI_THREAD_MULTIPLE && provided != MPI_THREAD_MULTIPLE;
    ht_mpit.interval_ticks = (uint64_t)((double)ht_mpit.config->mpi_t.read_interval_us * 1e-6 *
                                        ht_clock_ticks_per_second_estimate());
    ht_mpit_read_cvars();
    ht_mpit_select_pvars();
}

void ht_mpit_start_timed(void)
{
    uint64_t t0 = ht_clock_now();
    start(ht_mpit.thread_level);
    ht_mpit.startup_ticks = ht_clock_now() - t0;
}

/* With performance variables: MPI_T_init_thread and the control variables
 * take 0.2 s per rank with Open MPI 4.1 (docs/mpi_t.md), and the MPI_Init
 * wrapper calls this inside its node, so that the time is MPI_Init's, not
 * that of the program's function that called it.  Without: nothing here;
 * rank 0 reads the control variables at MPI_Finalize (ht_mpit_late). */
void ht_mpit_init(const struct ht_mpit_setup *setup)
{
    if (ht_mpit.initialized || ht_mpit.deferred)
        return;
    const struct ht_config *cfg = setup->config;
    ht_mpit.config = cfg;
    ht_mpit.rank = setup->world_rank;
    ht_mpit.bind_comm = setup->bind_comm;
    ht_mpit.values_slot = setup->values_slot;
    ht_mpit.thread_level = setup->thread_level;
    ht_mpit.pid = getpid();
    if (!cfg->mpi_t.enabled) {
        ht_mpit_set_status("not used (mpi_t.enabled is false)");
        return;
    }
    if (!ht_mpit_pvars_asked(cfg)) {
        ht_mpit.deferred = true;
        ht_mpit_hold_end(setup->world_rank == 0 ||
                     ht_rank_set_contains(&cfg->mpi.rank_files, setup->world_rank));
        return;
    }
    ht_mpit_start_timed();
}

void ht_mpit_stop(void)
{
    __atomic_store_n(&ht_mpit_pvars_active, 0, __ATOMIC_RELEASE);
}

void ht_mpit_finalize(void)
{
    ht_mpit_stop();
    ht_mpit_late_done(false);
    if (ht_mpit.initialized) {
        ht_mpit_free_sessions();
        MPI_T_finalize();
        ht_mpit.initialized = false;
    }
    ht_mpit_unhold();
    ht_mpit_free_pvars();
    ht_mpit_free_cvars();
    for (size_t i = 0; i < ht_mpit.nnotes; i++)
        free(ht_mpit.notes[i]);
    free(ht_mpit.notes);
    ht_mpit.notes = NULL;
    ht_mpit.nnotes = ht_mpit.notes_capacity = 0;
    free(ht_mpit.status);
    ht_mpit.status = NULL;
}

void ht_mpit_fill_view(struct ht_mpit_output *out)
{
    struct ht_mpit_view *v = &out->view;
    const struct ht_config *cfg = ht_mpit.config;
    ht_mpit_late_done(!ht_mpit.cvars_elsewhere);
    memset(v, 0, sizeof *v);
    v->started_late = ht_mpit.started_late;
    v->initialized = ht_mpit.initialized;
    /* A sessions program has no MPI_COMM_WORLD to bind pvars to, and its
     * job starts in its first MPI_Session_init (src/mpi/job.c). */
    v->started_in = v->started_late ? "MPI_Finalize"
                    : !v->initialized ? NULL
                    : ht_mpit.bind_comm == MPI_COMM_NULL ? "MPI_Session_init"
                                                        : "MPI_Init";
    v->status = ht_mpit.status;
    if (!cfg) /* MPI_T was never set up: profiling started after MPI_Init? */
        v->status = "not used";
    v->listed_cvars = cfg ? &cfg->mpi_t.cvars : NULL;
    v->read_interval_us = cfg ? cfg->mpi_t.read_interval_us : 0;
    v->cvars = ht_mpit.cvars;
    v->ncvars = ht_mpit.ncvars;
    v->cvars_read = ht_mpit.ncvars;
    v->cvar_rank = ht_mpit.rank;
    v->startup_s = ht_clock_ticks_to_seconds(ht_mpit.startup_ticks);
    v->slots = ht_mpit.slots;
    v->nslots = ht_mpit.nslots;
    /* The list, not the notes, is copied: notes are freed only by
     * ht_mpit_finalize, but a thread's first MPI call may grow the list
     * while the outputs are written. */
    pthread_mutex_lock(&ht_mpit.lock);
    free(out->notes);
    out->notes = malloc((ht_mpit.nnotes + 1) * sizeof *out->notes);
    if (out->notes) {
        if (ht_mpit.nnotes)
            memcpy(out->notes, ht_mpit.notes, ht_mpit.nnotes * sizeof *out->notes);
        v->notes = out->notes;
        v->nnotes = ht_mpit.nnotes;
    }
    pthread_mutex_unlock(&ht_mpit.lock);
}

/* --- MPI_T's constants by name ------------------------------------------- */

/* MPICH numbers these from large bases and Open MPI from 0, so they are
 * compared by name, never used as indices. */

const char *ht_mpit_scope_name(int scope)
{
    switch (scope) {
    case MPI_T_SCOPE_CONSTANT: return "constant";
    case MPI_T_SCOPE_READONLY: return "readonly";
    case MPI_T_SCOPE_LOCAL: return "local";
    case MPI_T_SCOPE_GROUP: return "group";
    case MPI_T_SCOPE_GROUP_EQ: return "group_eq";
    case MPI_T_SCOPE_ALL: return "all";
    case MPI_T_SCOPE_ALL_EQ: return "all_eq";
    default: return "unknown";
    }
}

const char *ht_mpit_verbosity_name(int verbosity)
{
    switch (verbosity) {
    case MPI_T_VERBOSITY_USER_BASIC: return "user_basic";
    case MPI_T_VERBOSITY_USER_DETAIL: return "user_detail";
    case MPI_T_VERBOSITY_USER_ALL: return "user_all";
    case MPI_T_VERBOSITY_TUNER_BASIC: return "tuner_basic";
    case MPI_T_VERBOSITY_TUNER_DETAIL: return "tuner_detail";
    case MPI_T_VERBOSITY_TUNER_ALL: return "tuner_all";
    case MPI_T_VERBOSITY_MPIDEV_BASIC: return "mpidev_basic";
    case MPI_T_VERBOSITY_MPIDEV_DETAIL: return "mpidev_detail";
    case MPI_T_VERBOSITY_MPIDEV_ALL: return "mpidev_all";
    default: return "unknown";
    }
}

const char *ht_mpit_bind_name(int bind)
{
    switch (bind) {
    case MPI_T_BIND_NO_OBJECT: return "no_object";
    case MPI_T_BIND_MPI_COMM: return "comm";
    case MPI_T_BIND_MPI_DATATYPE: return "datatype";
    case MPI_T_BIND_MPI_ERRHANDLER: return "errhandler";
    case MPI_T_BIND_MPI_FILE: return "file";
    case MPI_T_BIND_MPI_GROUP: return "group";
    case MPI_T_BIND_MPI_OP: return "op";
    case MPI_T_BIND_MPI_REQUEST: return "request";
    case MPI_T_BIND_MPI_WIN: return "win";
    case MPI_T_BIND_MPI_MESSAGE: return "message";
    case MPI_T_BIND_MPI_INFO: return "info";
    default: return "unknown";
    }
}

/* Datatypes are handles (pointers in Open MPI): compared, not switched on. */
const char *ht_mpit_type_name(MPI_Datatype t)
{
    if (t == MPI_INT) return "int";
    if (t == MPI_UNSIGNED) return "unsigned";
    if (t == MPI_LONG) return "long";
    if (t == MPI_UNSIGNED_LONG) return "unsigned long";
    if (t == MPI_LONG_LONG) return "long long";
    if (t == MPI_UNSIGNED_LONG_LONG) return "unsigned long long";
    if (t == MPI_COUNT) return "count";
    if (t == MPI_DOUBLE) return "double";
    if (t == MPI_CHAR) return "char";
    if (t == MPI_C_BOOL) return "bool";
    return NULL;
}

const char *ht_mpit_error_name(int rc)
{
    static __thread char unknown[32];
    if (rc == MPI_T_ERR_MEMORY) return "MPI_T_ERR_MEMORY";
    if (rc == MPI_T_ERR_NOT_INITIALIZED) return "MPI_T_ERR_NOT_INITIALIZED";
    if (rc == MPI_T_ERR_CANNOT_INIT) return "MPI_T_ERR_CANNOT_INIT";
    if (rc == MPI_T_ERR_INVALID_INDEX) return "MPI_T_ERR_INVALID_INDEX";
    if (rc == MPI_T_ERR_INVALID_ITEM) return "MPI_T_ERR_INVALID_ITEM";
    if (rc == MPI_T_ERR_INVALID_HANDLE) return "MPI_T_ERR_INVALID_HANDLE";
    if (rc == MPI_T_ERR_OUT_OF_HANDLES) return "MPI_T_ERR_OUT_OF_HANDLES";
    if (rc == MPI_T_ERR_OUT_OF_SESSIONS) return "MPI_T_ERR_OUT_OF_SESSIONS";
    if (rc == MPI_T_ERR_INVALID_SESSION) return "MPI_T_ERR_INVALID_SESSION";
    if (rc == MPI_T_ERR_PVAR_NO_STARTSTOP) return "MPI_T_ERR_PVAR_NO_STARTSTOP";
    if (rc == MPI_T_ERR_PVAR_NO_ATOMIC) return "MPI_T_ERR_PVAR_NO_ATOMIC";
    if (rc == MPI_T_ERR_INVALID) return "MPI_T_ERR_INVALID";
    if (rc == MPI_T_ERR_INVALID_NAME) return "MPI_T_ERR_INVALID_NAME";
    snprintf(unknown, sizeof unknown, "error %d", rc);
    return unknown;
}
