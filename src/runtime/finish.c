/* Shut-down: stop recording, turn every thread's tree into the profile, name
 * the functions, write the outputs.  Everything expensive happens here. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callstack/thread.h"
#include "common/clock.h"
#include "runtime/metadata.h"
#include "runtime/progress.h"
#include "counters/counters.h"
#include "runtime/runtime.h"
#include "throttle/throttle.h"
#include "callstack/function_table.h"
#include "merge/merge.h"
#include "merge/names.h"
#include "mpit/mpit.h"
#include "output/output.h"
#include "output/temporary.h"
#include "trace/writer.h"

/* /proc/self/cmdline holds the arguments separated by NULs. */
static char *read_command_line(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return strdup("(unknown)");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? cap * 2 : 256;
            char *bigger = realloc(buf, cap);
            if (!bigger)
                break;
            buf = bigger;
        }
        buf[len++] = c ? (char)c : ' ';
    }
    fclose(f);
    if (!buf)
        return strdup("(unknown)");
    while (len > 0 && buf[len - 1] == ' ')
        len--;
    buf[len] = '\0';
    return buf;
}

/* This process's profile and what the outputs say about the run. */
struct local_profile {
    struct ht_profile_thread *threads;
    struct ht_symbols *symbols;
    struct ht_function_table *table;
    struct ht_shared_names *names; /* rank 0's names for all ranks, or NULL */
    struct ht_profile profile;
    bool built;
    char *command;
    struct ht_run_metadata meta;
    char *args_text; /* what meta.argv points into */
    char exe[PATH_MAX];
    char basename[PATH_MAX];
    /* rank > 0 writing alone: rank 0's file with the control variables,
     * its JSON or its .mpit.json (mpi_t.cvars_in_json) */
    char rank0_json[PATH_MAX];
    struct ht_run_info run;
};

static void local_free(struct local_profile *lp)
{
    if (lp->built)
        ht_profile_free(&lp->profile);
    ht_function_table_free(lp->table);
    ht_shared_names_free(lp->names);
    if (lp->symbols)
        ht_symbols_close(lp->symbols);
    free(lp->threads);
    free(lp->command);
    ht_runtime_metadata_free(&lp->meta, lp->args_text);
}

/* Builds the profile as of end_tick: names every function once, merges the
 * threads.  rank >= 0 appends "_<rank>" to the default basename.  With
 * names_comm (all ranks call this together), rank 0 names the functions of
 * all ranks (merge/names.c) and this rank reads no symbols of its own. */
/* now: a profile written in the middle of the run (MPI_Pcontrol(3)),
 * recording going on: threads still change hands, MPI_T's late reading
 * waits for the end. */
static int local_build(struct local_profile *lp, uint64_t end_tick, uint64_t end_ns, int rank,
                       MPI_Comm names_comm, struct ht_progress *progress,
                       const struct ht_partial *partial, bool now)
{
    const struct ht_config *cfg = ht_runtime_config();
    int nthreads = 0;
    memset(lp, 0, sizeof *lp);
    int thread_indices = 0;
    lp->threads = ht_thread_collect(&nthreads, &thread_indices, !now);
    lp->symbols = ht_symbols_open();
    /* MPI_T's own loads, beside the merge, after the snapshot above. */
    if (!now)
        ht_mpit_late_start();
    lp->table = ht_function_table_new(lp->symbols, cfg);
    bool ready = lp->threads && lp->symbols && lp->table;
    for (int i = 0; ready && i < nthreads; i++) {
        ht_tree_visit_addresses(lp->threads[i].tree, ht_function_table_add, lp->table);
        if (lp->threads[i].start_routine) /* names a group of threads */
            ht_function_table_add(lp->threads[i].start_routine, lp->table);
    }
    /* Collective: a rank that failed above still takes part.  The wait for
     * the last rank to reach MPI_Finalize is its own step, so that the
     * progress lines do not give it to the naming. */
    if (names_comm != MPI_COMM_NULL) {
        int size = 1;
        PMPI_Comm_size(names_comm, &size);
        PMPI_Barrier(names_comm);
        ht_progress_note(progress, "all %d ranks reached MPI_Finalize", size);
        lp->names = ht_shared_names_exchange(names_comm, ready ? lp->symbols : NULL,
                                             ready ? lp->table : NULL);
    }
    if (!ready)
        return -1;
    size_t named_here = 0, named_by_rank0 = 0;
    if (ht_function_table_resolve_known(lp->table, lp->names ? ht_shared_names_lookup : NULL,
                                        lp->names, &named_here, &named_by_rank0) != 0)
        return -1;
    ht_progress_note(progress, "named the functions");
    double spt = ht_clock_seconds_per_tick();
    if (ht_profile_build(&lp->profile, lp->threads, nthreads, end_tick, spt,
                         ht_function_table_lookup, lp->table) != 0)
        return -1;
    lp->built = true;
    ht_progress_note(progress, "merged %d thread%s into %zu stacks", thread_indices,
                     thread_indices == 1 ? "" : "s", lp->profile.nstacks);

    ssize_t n = readlink("/proc/self/exe", lp->exe, sizeof lp->exe - 1);
    lp->exe[n > 0 ? n : 0] = '\0';
    char exe_copy[PATH_MAX];
    memcpy(exe_copy, lp->exe, sizeof exe_copy);
    const char *base = cfg->output_basename ? cfg->output_basename
                       : lp->exe[0]         ? basename(exe_copy)
                                            : "hooktrace";
    char child[32] = "";
    if (ht_runtime_fork_child_pid())
        snprintf(child, sizeof child, ".child-%ld", (long)ht_runtime_fork_child_pid());
    if (rank > 0) /* the file that lists rank 0's control variables */
        snprintf(lp->rank0_json, sizeof lp->rank0_json, "%s_0.%s", base,
                 cfg->mpi_t.cvars_in_json ? "json" : "mpit.json");
    if (rank >= 0)
        snprintf(lp->basename, sizeof lp->basename, "%s_%d%s", base, rank, child);
    else
        snprintf(lp->basename, sizeof lp->basename, "%s%s", base, child);
    lp->command = read_command_line();
    double per_call = ht_runtime_hook_pair_seconds();
    ht_runtime_metadata(&lp->meta, &lp->args_text, cfg);
    lp->run = (struct ht_run_info){
        .meta = &lp->meta,
        .partial = partial,
        .mpi_not_recorded = ht_world.foreign ? ht_world.foreign_mpis : NULL,
        .command = lp->command ? lp->command : "(unknown)",
        .executable = lp->exe,
        .start_time = ht_runtime_start_time(),
        .start_realtime = ht_runtime_start_realtime(),
        .wall_seconds = (double)(end_ns - ht_runtime_start_ns()) * 1e-9,
        .clock_source = ht_clock_source_name(),
        .ticks_per_second = 1.0 / spt,
        .overhead_ns_per_call = per_call * 1e9,
        .overhead_seconds = per_call * (double)lp->profile.instrumented_calls,
    };
    struct ht_pause_totals paused = ht_runtime_pause_totals();
    lp->run.pauses = paused.pauses;
    lp->run.resets = paused.resets;
    lp->run.paused_seconds = (double)paused.ticks * spt;
    ht_throttle_report(end_tick, per_call / spt, &lp->run.throttle);
    lp->run.functions_named_here = named_here;
    lp->run.functions_named_by_rank0 = named_by_rank0;
    return 0;
}

/* This rank as the merge needs it (profile: the profile was built). */
static struct ht_merge_rank this_rank(const struct local_profile *lp, bool profile)
{
    const struct ht_config *cfg = ht_runtime_config();
    return (struct ht_merge_rank){
        .profile = profile ? &lp->profile : NULL,
        .run = &lp->run,
        .config = cfg,
        .basename = lp->basename,
        .rank = ht_world.rank,
        .size = ht_world.size,
        .rank_file = ht_rank_set_contains(&cfg->mpi.rank_files, ht_world.rank),
        .seconds_per_tick = ht_clock_seconds_per_tick(),
        .comm = ht_world.have_comm ? ht_world.comm : MPI_COMM_NULL,
        .table = profile ? lp->table : NULL,
    };
}

/* With mpi, every rank takes part (writing the archive is collective). */
static void write_trace(const struct local_profile *lp, bool mpi)
{
    struct ht_trace_run run = {
        .config = ht_runtime_config(),
        .seconds_per_tick = ht_clock_seconds_per_tick(),
        .mpi = mpi,
        .mpi_initialized = ht_world.initialized,
        .world_rank = ht_world.rank,
        .world_size = ht_world.size,
    };
    /* A file size limit fails the archive's writes rather than kill the
     * program with SIGXFSZ, as for the profile (output/temporary.h). */
    struct ht_xfsz_guard xfsz;
    ht_output_xfsz_block(&xfsz);
    ht_trace_write(&run, lp->built ? lp->table : NULL, lp->basename);
    ht_output_xfsz_restore(&xfsz);
}

/* The logfile says where the trace went and whether events were lost. */
static void write_trace_note(FILE *f, void *ctx)
{
    const struct ht_trace_summary *ts = ctx;
    fprintf(f, "\nTrace\n-----\n");
    if (ts->archive[0])
        fprintf(f, "archive:        %s\n", ts->archive);
    else
        fprintf(f, "archive:        not written (see the messages on standard error)\n");
    fprintf(f, "events lost:    %llu%s\n", (unsigned long long)ts->dropped,
            ts->dropped ? " (a flush of an event buffer to disk failed)" : "");
    fprintf(f, "buffer flushes: %llu (this process), %llu bytes written during the run\n",
            (unsigned long long)ts->flushes, (unsigned long long)ts->spilled_bytes);
}

static void note_trace_in_logfile(const struct ht_config *cfg, const char *basename)
{
    struct ht_trace_summary ts;
    ht_trace_summary(&ts);
    if (!ts.enabled || !cfg->write_logfile)
        return;
    ht_output_append_log(cfg->output_directory, basename, write_trace_note, &ts);
}

/* The files took the name <basename><suffix> (a concurrent run had the
 * plain one): what follows (the trace note) goes there too. */
static void add_suffix(struct local_profile *lp)
{
    size_t n = strlen(lp->basename);
    snprintf(lp->basename + n, sizeof lp->basename - n, "%s", ht_output_last_suffix());
}

static void (*stop_listener)(void);

void ht_runtime_on_stop(void (*listener)(void))
{
    __atomic_store_n(&stop_listener, listener, __ATOMIC_RELEASE);
}

static int finished;

void ht_runtime_finish_never(void)
{
    __atomic_store_n(&finished, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&ht_recording, 0, __ATOMIC_RELEASE);
}

/* Stops recording; false if the profile was written already or profiling
 * never started. */
static bool begin_finish(uint64_t *end_tick, uint64_t *end_ns)
{
    if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL))
        return false;
    if (!ht_runtime_started())
        return false;
    *end_tick = ht_clock_now();
    *end_ns = ht_clock_monotonic_ns();
    __atomic_store_n(&ht_recording, HT_RECORDING_OFF, __ATOMIC_RELEASE);
    ht_runtime_pause_settle(*end_tick);
    /* This thread's calls in progress (main, MPI_Finalize) count their
     * counters up to now, as their time counts up to end_tick. */
    ht_counters_close_open(ht_thread_self);
    void (*listener)(void) = __atomic_load_n(&stop_listener, __ATOMIC_ACQUIRE);
    if (listener)
        listener();
    return true;
}

/* The end of the MPI job's merge: a signal while it is under way makes the
 * watcher write this rank's own files (ht_runtime_finish_partial). */
enum { MERGE_NONE, MERGE_UNDER_WAY, MERGE_OVER, MERGE_SIGNALLED, MERGE_SIGNAL_WRITTEN };
static int merge_state;
static uint64_t merge_end_tick, merge_end_ns;

/* Each process writes its own files, talking to no other. */
static void finish_alone(uint64_t end_tick, uint64_t end_ns, const struct ht_partial *partial)
{
    /* During the job's merge, MPI_T's state is the merge's (its reading
     * thread may still fill it): this rank's files go without it. */
    bool during_merge = partial && partial->during;
    int saved_errno = errno; /* the program may still look at it */
    /* After MPI_Init without MPI_Finalize, other ranks may be gone or
     * blocked: each rank writes its own files and talks to nobody.  A child
     * made by fork() keeps its rank in its name, and never calls MPI. */
    int rank = ht_world.initialized && (!ht_world.finalized || ht_runtime_fork_child_pid())
                   ? ht_world.rank
                   : -1;
    /* A process of another MPI's job (src/mpi/abi.c): a non-MPI program's
     * profile, under the rank its launcher gave it, so that the job's
     * processes never take one name. */
    int name_rank = rank < 0 && ht_world.foreign ? ht_world.launcher_rank : rank;
    struct ht_progress progress;
    ht_progress_start(&progress, ht_runtime_config()->progress_after_ms, true);
    struct local_profile lp;
    if (local_build(&lp, end_tick, end_ns, name_rank, MPI_COMM_NULL, &progress, partial, false) == 0) {
        if (rank >= 0) { /* with this rank's messages and matrix rows */
            struct ht_merge_rank me = this_rank(&lp, true);
            me.job_file = lp.rank0_json[0] ? lp.rank0_json : NULL;
            me.without_mpit = during_merge;
            ht_merge_write_own_files(&me, lp.basename, false);
        } else
            ht_output_write_all(&lp.profile, &lp.run, ht_runtime_config(), lp.basename);
        add_suffix(&lp);
        ht_progress_note(&progress, "wrote %s.*", lp.basename);
        write_trace(&lp, false);
        note_trace_in_logfile(ht_runtime_config(), lp.basename);
        ht_progress_note(&progress, "done");
    } else
        fprintf(stderr, "hooktrace: out of memory at exit: no profile written\n");
    local_free(&lp);
    errno = saved_errno;
}

void ht_runtime_write_now(void)
{
    static const struct ht_partial why = {.reason = "MPI_Pcontrol(3)"};
    static int written;
    if (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) || !ht_runtime_started() ||
        __atomic_load_n(&ht_recording, __ATOMIC_ACQUIRE) == HT_RECORDING_OFF)
        return;
    int k = __atomic_add_fetch(&written, 1, __ATOMIC_RELAXED);
    int saved_errno = errno;
    uint64_t start = ht_clock_now(), start_ns = ht_clock_monotonic_ns();
    int rank = ht_world.initialized && !ht_world.finalized ? ht_world.rank : -1;
    struct ht_progress progress;
    ht_progress_start(&progress, ht_runtime_config()->progress_after_ms, true);
    struct local_profile lp;
    if (local_build(&lp, start, start_ns, rank, MPI_COMM_NULL, &progress, &why, true) == 0) {
        size_t len = strlen(lp.basename);
        snprintf(lp.basename + len, sizeof lp.basename - len, ".pcontrol-%d", k);
        if (rank >= 0) {
            struct ht_merge_rank me = this_rank(&lp, true);
            me.without_mpit = true; /* MPI_T is read at the end */
            ht_merge_write_own_files(&me, lp.basename, false);
        } else
            ht_output_write_all(&lp.profile, &lp.run, ht_runtime_config(), lp.basename);
        ht_progress_note(&progress, "wrote %s.*", lp.basename);
    } else
        fprintf(stderr, "hooktrace: out of memory: the profile MPI_Pcontrol(3) asked for was not written\n");
    local_free(&lp);
    /* The writing is hooktrace's time, not the calls open around it. */
    struct ht_thread *self = ht_thread_self;
    uint64_t now = ht_clock_now();
    if (self && !self->tracing && now > start)
        ht_tree_exclude_ticks(&self->tree, now - start);
    errno = saved_errno;
}

bool ht_runtime_is_running_rank(void)
{
    return ht_world.initialized && !ht_world.finalized && !ht_runtime_fork_child_pid();
}

void ht_runtime_finish(void)
{
    uint64_t end_tick, end_ns;
    if (!begin_finish(&end_tick, &end_ns))
        return;
    finish_alone(end_tick, end_ns, NULL);
}

void ht_runtime_finish_partial(const struct ht_partial *why)
{
    uint64_t end_tick, end_ns;
    if (begin_finish(&end_tick, &end_ns)) {
        finish_alone(end_tick, end_ns, why);
        return;
    }
    /* A signal in the middle of the job's merge, which may never end now
     * (mpirun kills the ranks within a second, or the handler holds up
     * the thread that merges): this rank's own files, built apart from
     * the merge's (which only reads what both read), up to the same end. */
    int under_way = MERGE_UNDER_WAY;
    if (!__atomic_compare_exchange_n(&merge_state, &under_way, MERGE_SIGNALLED, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return; /* no merge, or its files are written */
    struct ht_partial during = *why;
    during.during = "MPI_Finalize";
    finish_alone(merge_end_tick, merge_end_ns, &during);
    __atomic_store_n(&merge_state, MERGE_SIGNAL_WRITTEN, __ATOMIC_RELEASE);
}

/* The merge is over: a signal's write of this rank's files, if one began,
 * ends before the merge's state (MPI_T, the trees) is freed. */
static void end_merge(void)
{
    int under_way = MERGE_UNDER_WAY;
    if (__atomic_compare_exchange_n(&merge_state, &under_way, MERGE_OVER, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return;
    while (__atomic_load_n(&merge_state, __ATOMIC_ACQUIRE) == MERGE_SIGNALLED) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

void ht_runtime_finish_mpi(void)
{
    uint64_t end_tick, end_ns;
    if (!begin_finish(&end_tick, &end_ns))
        return;
    merge_end_tick = end_tick;
    merge_end_ns = end_ns;
    __atomic_store_n(&merge_state, MERGE_UNDER_WAY, __ATOMIC_RELEASE);
    int saved_errno = errno;
    /* Rank 0 speaks for the job: it writes the summary. */
    struct ht_progress progress;
    ht_progress_start(&progress, ht_runtime_config()->progress_after_ms, ht_world.rank == 0);
    struct local_profile lp;
    /* Every rank takes part in the merge, even one that failed to build
     * its profile (it contributes nothing), or the others would hang. */
    MPI_Comm comm = ht_world.have_comm ? ht_world.comm : MPI_COMM_WORLD;
    bool ok = local_build(&lp, end_tick, end_ns, -1, comm, &progress, NULL, false) == 0;
    if (!ok)
        fprintf(stderr, "hooktrace: rank %d: out of memory at MPI_Finalize: its profile is empty\n",
                ht_world.rank);
    struct ht_merge_rank me = this_rank(&lp, ok);
    ht_merge_and_write(&me);
    /* Until rank 0 has written the summary, every rank's own figures are
     * still only in memory here: a signal before this barrier writes them. */
    PMPI_Barrier(comm);
    end_merge();
    ht_progress_note(&progress, "merged %d ranks and wrote %s.*", ht_world.size, lp.basename);
    /* Every rank takes part in writing the trace (it is collective). */
    write_trace(&lp, true);
    if (ht_world.have_comm) {
        PMPI_Comm_free(&ht_world.comm);
        ht_world.have_comm = false;
    }
    if (ht_world.rank == 0) {
        add_suffix(&lp);
        note_trace_in_logfile(ht_runtime_config(), lp.basename);
    }
    ht_progress_note(&progress, "done");
    local_free(&lp);
    errno = saved_errno;
}
