/* The job: when hooktrace's MPI side starts and ends, and the communicator
 * its own traffic and world ranks go by, whichever way the program starts
 * MPI (docs/what_happens.md#mpi-4-sessions).
 *
 * The world model (MPI_Init ... MPI_Finalize) and each MPI 4 session
 * (MPI_Session_init ... MPI_Session_finalize) are ways into MPI a program
 * may hold open at once.  The first to open starts the job: the rank, the
 * size, the thread level, the job's communicator, MPI_T, logging.  The
 * last to close ends it: the profile is merged over the job's communicator
 * in that call's wrapper, before its PMPI routine (after the last one
 * MPI may be finalized).  The job's communicator is a duplicate of
 * MPI_COMM_WORLD, or, started by a session, one made from the mpi://WORLD
 * process set of a session of hooktrace's own, which numbers the
 * processes as MPI_COMM_WORLD would (also made at an MPI_Finalize that
 * leaves a session open: the duplicate goes with the world model). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "runtime/runtime.h"
#include "mpit/mpit.h"
#include "mpi/ranks.h"
#include "mpi/requests.h"
#include "mpi/state.h"
#include "mpi/thread_data.h"
#include "trace/clock_sync.h"
#include "trace/comms.h"

/* Sessions may be opened and closed by several threads at once; the
 * start and the end take this lock (never on the hot path). */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
/* The program's ways into MPI open now: 1 for the world model, 1 per
 * session. */
static int open_models;

/* Where MPI_T keeps a node's pvar figures: beside its message figures. */
static struct ht_mpit_values **pvar_slot(struct ht_node *node)
{
    struct ht_thread *t = ht_thread_self;
    struct ht_mpi_stats *s = t && t->mpi ? ht_mpi_node_stats(t->mpi, node) : NULL;
    return s ? &s->pvars : NULL;
}

/* The first line of MPI_Get_library_version's text, blanks collapsed, for
 * the profile's metadata ("Open MPI v4.1.4, package: ...", "MPICH
 * Version: 4.0"). */
static void note_library_version(void)
{
    static char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    if (PMPI_Get_library_version(text, &n) != MPI_SUCCESS || n <= 0)
        return;
    text[sizeof text - 1] = '\0';
    text[strcspn(text, "\n")] = '\0';
    size_t o = 0;
    for (const char *p = text; *p && o + 1 < sizeof ht_world.mpi_library; p++) {
        char c = *p == '\t' ? ' ' : *p;
        if (!(c == ' ' && (o == 0 || ht_world.mpi_library[o - 1] == ' ')))
            ht_world.mpi_library[o++] = c;
    }
    while (o > 0 && ht_world.mpi_library[o - 1] == ' ')
        o--;
    ht_world.mpi_library[o] = '\0';
}

/* The job starts: job is every rank in world order, hooktrace's own
 * (own_comm: freed at the end) or MPI_COMM_WORLD itself; bind_comm what
 * MPI_T binds pvars to (mpit.h). */
static void job_start(MPI_Comm job, bool own_comm, int thread_level, MPI_Comm bind_comm)
{
    const struct ht_config *cfg = ht_runtime_config();
    PMPI_Comm_rank(job, &ht_world.rank);
    PMPI_Comm_size(job, &ht_world.size);
    ht_mpi.thread_level = thread_level;
    ht_mpi.rank_logged = ht_rank_set_contains(&cfg->mpi.log_ranks, ht_world.rank);
    /* MPI_THREAD_SERIALIZED lets any thread call MPI, one at a time: a hook
     * on one thread must not call MPI while another is inside it.  With the
     * other levels a thread polls only requests it made itself. */
    ht_mpi.polling = cfg->mpi.poll;
    ht_mpi.hook_polling = ht_mpi.polling && ht_mpi.thread_level != MPI_THREAD_SERIALIZED;
    ht_mpi.shared_requests = ht_mpi.thread_level >= MPI_THREAD_SERIALIZED;
    double ticks_per_us = 1e-6 * ht_clock_ticks_per_second_estimate();
    ht_mpi.poll_interval_ticks = (uint64_t)((double)cfg->mpi.poll_interval_us * ticks_per_us);
    ht_mpi.poll_max_interval_ticks =
        (uint64_t)((double)cfg->mpi.poll_max_interval_us * ticks_per_us);
    if (ht_mpi.poll_max_interval_ticks < ht_mpi.poll_interval_ticks)
        ht_mpi.poll_max_interval_ticks = ht_mpi.poll_interval_ticks;
    ht_mpi.poll_batch = cfg->mpi.poll_batch;
    ht_mpi_ranks_init(job);
    ht_trace_set_job(job);
    ht_trace_clock_sync(job, cfg->trace.enabled && !cfg->off, false);
    ht_world.have_comm = own_comm;
    ht_world.comm = job;
    note_library_version();
    ht_world.initialized = true;
    if (ht_runtime_started()) {
        struct ht_mpit_setup mpit = {cfg, ht_mpi.thread_level, ht_world.rank, bind_comm,
                                     pvar_slot};
        ht_mpit_init(&mpit);
    }
    ht_mpi_update_logging();
}

void ht_mpi_after_init(void)
{
    pthread_mutex_lock(&job_lock);
    if (open_models++ == 0 && !ht_world.initialized) {
        int level = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&level);
        /* The merge's traffic then never lands in the program's own
         * communicators (where a rank still at work would see it, in its
         * unexpected-message queue for one), and it starts without a
         * collective on MPI_COMM_WORLD. */
        MPI_Comm dup;
        bool own = PMPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS;
        job_start(own ? dup : MPI_COMM_WORLD, own, level, MPI_COMM_WORLD);
    }
    pthread_mutex_unlock(&job_lock);
}

#if HT_MPI_SESSIONS
/* hooktrace's own session, when a session started the job. */
static MPI_Session own_session = MPI_SESSION_NULL;

/* The thread level MPI gave hooktrace's session (MPI 4's "thread_level"
 * info key), else MPI_Query_thread's. */
static int session_thread_level(MPI_Session session)
{
    static const struct {
        const char *name;
        int level;
    } levels[] = {{"MPI_THREAD_SINGLE", MPI_THREAD_SINGLE},
                  {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED},
                  {"MPI_THREAD_SERIALIZED", MPI_THREAD_SERIALIZED},
                  {"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE}};
    int level = MPI_THREAD_SINGLE;
    MPI_Info info = MPI_INFO_NULL;
    char value[64] = "";
    int found = 0;
    if (PMPI_Session_get_info(session, &info) == MPI_SUCCESS && info != MPI_INFO_NULL) {
        PMPI_Info_get(info, "thread_level", (int)sizeof value - 1, value, &found);
        PMPI_Info_free(&info);
    }
    for (size_t i = 0; found && i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(value, levels[i].name) == 0)
            return levels[i].level;
    PMPI_Query_thread(&level);
    return level;
}

/* hooktrace's own session and, from its mpi://WORLD, a communicator of
 * every rank of the job in world order (collective over them all: MPICH
 * 4.0's first MPI_Session_init waits for them all anyway).  MPI_COMM_NULL
 * if MPI says no; stderr says so, and what then happens. */
static MPI_Comm own_session_comm(const char *then)
{
    MPI_Group world = MPI_GROUP_NULL;
    MPI_Comm job = MPI_COMM_NULL;
    const char *failed = NULL;
    if (PMPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &own_session) != MPI_SUCCESS)
        failed = "MPI_Session_init";
    else if (PMPI_Group_from_session_pset(own_session, "mpi://WORLD", &world) != MPI_SUCCESS)
        failed = "MPI_Group_from_session_pset(mpi://WORLD)";
    else if (PMPI_Comm_create_from_group(world, "org.hooktrace.job", MPI_INFO_NULL,
                                         MPI_ERRORS_RETURN, &job) != MPI_SUCCESS)
        failed = "MPI_Comm_create_from_group";
    if (world != MPI_GROUP_NULL)
        PMPI_Group_free(&world);
    if (failed) {
        fprintf(stderr, "hooktrace: %s failed: %s\n", failed, then);
        if (own_session != MPI_SESSION_NULL)
            PMPI_Session_finalize(&own_session);
        own_session = MPI_SESSION_NULL;
        return MPI_COMM_NULL;
    }
    return job;
}

/* False if MPI says no: the processes are then profiled apart, as
 * without MPI. */
static bool start_by_session(void)
{
    MPI_Comm job = own_session_comm("this process's profile is not merged with the other ranks'");
    if (job == MPI_COMM_NULL)
        return false;
    job_start(job, true, session_thread_level(own_session), MPI_COMM_NULL);
    return true;
}

/* MPI_Finalize with a session still open, in a job MPI_Init started: the
 * job's communicator, a duplicate of MPI_COMM_WORLD, may not be used after
 * PMPI_Finalize; one from a session of hooktrace's own takes its place now
 * (collective, as MPI_Finalize is).  False if that failed: the job must
 * end here. */
static bool move_to_session(void)
{
    if (own_session != MPI_SESSION_NULL || !ht_world.initialized || ht_world.finalized)
        return true;
    MPI_Comm job = own_session_comm("the profile is merged at MPI_Finalize: the calls after it "
                                    "are not recorded");
    if (job == MPI_COMM_NULL)
        return false;
    if (ht_world.have_comm)
        PMPI_Comm_free(&ht_world.comm);
    /* The world numbering, from a group that outlives the world model. */
    ht_mpi_ranks_end();
    ht_mpi_ranks_init(job);
    ht_trace_set_job(job);
    ht_world.comm = job;
    ht_world.have_comm = true;
    return true;
}

void ht_mpi_after_session_init(void)
{
    pthread_mutex_lock(&job_lock);
    if (open_models++ == 0 && !ht_world.initialized)
        start_by_session();
    pthread_mutex_unlock(&job_lock);
}
#endif

/* The last way into MPI closes: the job ends, before its PMPI routine. */
static void job_end(void)
{
    if (ht_world.finalized) /* MPI_Init after the sessions that made the job closed */
        return;
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
    ht_trace_clock_sync(ht_trace_job(), true, true);
    ht_runtime_finish_mpi();
    /* Before PMPI_Finalize: Open MPI 4.1 crashes in a later MPI_T_finalize. */
    ht_mpit_finalize();
    ht_world.finalized = true;
    ht_mpi_update_logging();
    ht_mpi_ranks_end();
#if HT_MPI_SESSIONS
    if (own_session != MPI_SESSION_NULL)
        PMPI_Session_finalize(&own_session);
#endif
}

/* Whether this call closes the last way into MPI.  A finalize without a
 * matching start (MPI_Init called through PMPI_Init, say) ends the job as
 * MPI_Finalize always did. */
static bool closes_last(void)
{
    if (open_models > 1) {
        open_models--;
        return false;
    }
    open_models = 0;
    return true;
}

void ht_mpi_before_finalize(void)
{
    pthread_mutex_lock(&job_lock);
    if (closes_last())
        job_end();
#if HT_MPI_SESSIONS
    else if (!move_to_session())
        job_end();
#endif
    pthread_mutex_unlock(&job_lock);
}

#if HT_MPI_SESSIONS
void ht_mpi_before_session_finalize(void)
{
    pthread_mutex_lock(&job_lock);
    /* A session that could not start the job ends none: the processes
     * write their own profiles at exit. */
    if (closes_last() && ht_world.initialized)
        job_end();
    pthread_mutex_unlock(&job_lock);
}
#endif
