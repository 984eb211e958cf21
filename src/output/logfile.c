/* The text logfile: a header describing the run, the profile table (all
 * threads, then each thread if there are several) and the stack list. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/output.h"
#include "output/output_counters.h"
#include "output/output_mpi.h"
#include "output/room.h"

#define NAME_COLUMN_MAX 60
/* After the calls of a stack of counted inlined copies (profile.h), as '*'
 * after those of a throttled one. */
#define INLINED_MARK '^'

/* The width of name in a column, as print_name prints it. */
static int name_width(const char *name)
{
    char buf[NAME_COLUMN_MAX + 1];
    return (int)strlen(ht_output_short_name(name, NAME_COLUMN_MAX, buf, sizeof buf));
}

/* Long C++ names would push every other column off screen; the stack list
 * below the table has them in full. */
static void print_name(FILE *out, const char *name, int width)
{
    char buf[NAME_COLUMN_MAX + 1];
    fprintf(out, "%-*s", width, ht_output_short_name(name, NAME_COLUMN_MAX, buf, sizeof buf));
}

static const char *caller_name(const struct ht_profile *p, const struct ht_stack *s)
{
    return s->parent < 0 ? "-" : p->stacks[s->parent].function->name;
}

/* What the threshold came from: the hook cost over the budget, or the
 * config (with the hooks' share of a call at it).  A hook cost outside
 * what is taken (src/throttle/rule.h), or fixed by a test, says so. */
static void logfile_threshold(FILE *out, const struct ht_throttle_info *th)
{
    const struct ht_throttle_rule *r = &th->rule;
    char outside[80] = "";
    if (r->hook_pair_ns != r->hook_pair_ns_measured)
        snprintf(outside, sizeof outside, ": %.1f ns, clamped to %g-%g ns", r->hook_pair_ns_measured,
                 HT_THROTTLE_HOOK_NS_MIN, HT_THROTTLE_HOOK_NS_MAX);
    char cost[200];
    snprintf(cost, sizeof cost, "hook pair %.1f ns (%s%s)", r->hook_pair_ns,
             th->hook_pair_fixed ? "fixed by HOOKTRACE_HOOK_NS_TEST" : "measured at start-up",
             outside);
    if (r->from_config)
        fprintf(out, "                 threshold: max_ns_per_call from the config; %s, %.2g%% of "
                     "a call at the threshold\n",
                cost, 100.0 * r->hook_pair_ns / (double)r->threshold_ns);
    else
        fprintf(out, "                 threshold: %s / budget %.4g%%\n", cost, 100.0 * r->budget);
}

/* The throttling lines of the header, and what to recompile with. */
static void logfile_throttle(FILE *out, const struct ht_run_info *run, const struct ht_profile *p)
{
    const struct ht_throttle_info *th = &run->throttle;
    if (!th->enabled) {
        fprintf(out, "throttling:      off\n");
        return;
    }
    fprintf(out, "throttling:      after %llu calls at under %.3f us per call; ",
            (unsigned long long)th->min_calls, (double)th->rule.threshold_ns * 1e-3);
    size_t functions = ht_output_throttled_functions(p);
    if (functions == 0)
        fprintf(out, "no function throttled\n");
    else
        fprintf(out, "%zu function%s throttled (marked *)\n", functions, functions == 1 ? "" : "s");
    logfile_threshold(out, th);
    if (functions == 0)
        return;
    char patching[160];
    ht_output_throttle_patching(th, patching, sizeof patching);
    fprintf(out, "                 %.3g hook calls saved (estimated); code patching %s: "
                 "%llu hook calls rewritten, %llu not; %llu hook calls after throttling\n",
            ht_output_hook_calls_saved(th, p), patching, (unsigned long long)th->sites_patched,
            (unsigned long long)th->sites_unpatched, (unsigned long long)p->throttled_hook_calls);
    ht_output_logfile_exclude(out, run);
}

static void print_header(FILE *out, const struct ht_profile *p, const struct ht_run_info *run,
                         const struct ht_config *cfg, const struct ht_mpi_view *mpi,
                         const char *source_root)
{
    char date[64];
    struct tm tm;
    gmtime_r(&run->start_time, &tm);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    fprintf(out, "hooktrace %s profile%s\n\n", PACKAGE_VERSION, run->partial ? " (PARTIAL)" : "");
    if (run->partial) {
        fprintf(out, "partial:         %s", run->partial->reason);
        if (run->partial->signal)
            fprintf(out, " %s", run->partial->signal);
        if (run->partial->has_errorcode)
            fprintf(out, ", errorcode %d", run->partial->errorcode);
        if (run->partial->during)
            fprintf(out, " during %s (this rank's files: the job's merge did not end)",
                    run->partial->during);
        fprintf(out, " (the profile ends there; calls in progress count up to then)\n");
    }
    if (run->mpi_not_recorded)
        fprintf(out, "MPI:             not recorded: %s\n", run->mpi_not_recorded);
    fprintf(out, "command:         %s\n", run->command);
    fprintf(out, "executable:      %s\n", run->executable);
    /* The files in the stack list below are relative to it. */
    if (source_root)
        fprintf(out, "source root:     %s\n", source_root);
    fprintf(out, "started:         %s\n", date);
    fprintf(out, "wall time:       %.6f s\n", run->wall_seconds);
    if (run->pauses)
        fprintf(out, "paused:          %.6f s in %llu pause%s (MPI_Pcontrol(0)): in no call's time\n",
                run->paused_seconds, (unsigned long long)run->pauses, run->pauses == 1 ? "" : "s");
    if (run->resets)
        fprintf(out, "reset:           %llu time%s (MPI_Pcontrol(2)): what came before is not in the profile\n",
                (unsigned long long)run->resets, run->resets == 1 ? "" : "s");
    fprintf(out, "threads:         %d\n", p->nthreads);
    for (int t = 0; p->thread_groups && t < p->nthreads; t++) {
        const struct ht_thread_group *g = &p->thread_groups[t];
        if (g->threads)
            fprintf(out, "                 thread %d: %llu threads started at %s, merged"
                         " (%llu still running)\n", t, (unsigned long long)g->threads,
                    g->start_routine, (unsigned long long)g->running);
    }
    if (mpi)
        ht_output_logfile_mpi_header(out, mpi, cfg, run);
    fprintf(out, "clock:           %s, %.0f ticks/s\n", run->clock_source, run->ticks_per_second);
    if (p->inlined_calls)
        fprintf(out, "calls recorded:  %llu, and %llu calls of inlined copies counted without hooks\n",
                (unsigned long long)p->instrumented_calls, (unsigned long long)p->inlined_calls);
    else
        fprintf(out, "calls recorded:  %llu\n", (unsigned long long)p->instrumented_calls);
    /* The overhead is summed over threads, so it is compared with the time
     * all threads spent in recorded functions, not with the wall time. */
    double recorded = 0.0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].parent < 0)
            recorded += p->stacks[i].total.time_incl;
    fprintf(out, "overhead:        %.6f s over all threads (%.1f ns per call, measured at start-up;"
                 " %.2f%% of the %.6f s recorded)\n",
            run->overhead_seconds, run->overhead_ns_per_call,
            recorded > 0 ? 100.0 * run->overhead_seconds / recorded : 0.0, recorded);
    logfile_throttle(out, run, p);
    if (run->uninstrumented.count)
        fprintf(out, "uninstrumented:  %zu tiny functions left out at compile time by the GCC plugin"
                     " (named in the JSON; docs/plugin.md)\n", run->uninstrumented.count);
    /* The section lists the copies whose hooks the plugin removed; under
     * inlined-hooks=leaf (the default) their calls are counted, under
     * remove and keep-loops they are not, and the section does not say
     * which: the stacks that hold counted copies do. */
    if (run->inlined.count) {
        bool counted = false;
        for (size_t i = 0; i < p->nstacks && !counted; i++)
            counted = p->stacks[i].inlined;
        if (counted)
            fprintf(out, "inlined:         %zu function%s counted (calls, not timed) at %lu inlined"
                         " call sites by the GCC plugin, marked %c (named in the JSON; docs/plugin.md)\n",
                    run->inlined.count, run->inlined.count == 1 ? "" : "s", run->inlined.total_sites,
                    INLINED_MARK);
        else
            fprintf(out, "inlined:         %zu functions not recorded at %lu inlined call sites, their"
                         " hooks removed after inlining by the GCC plugin (named in the JSON;"
                         " docs/plugin.md)\n", run->inlined.count, run->inlined.total_sites);
    }
    int deepest = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].depth > deepest)
            deepest = p->stacks[i].depth;
    fprintf(out, "call stacks:     %zu, the deepest %d functions deep (%llu tree nodes, %.1f KiB)\n",
            p->nstacks, deepest, (unsigned long long)p->tree_nodes, (double)p->tree_bytes / 1024.0);
    fprintf(out, "config:          %s\n", cfg->source_file ? cfg->source_file : "(defaults)");
    ht_output_logfile_counters_header(out);
    if (cfg->include_functions.count || cfg->exclude_functions.count) {
        fprintf(out, "function filter:");
        for (size_t i = 0; i < cfg->include_functions.count; i++)
            fprintf(out, " +/%s/", cfg->include_functions.patterns[i]);
        for (size_t i = 0; i < cfg->exclude_functions.count; i++)
            fprintf(out, " -/%s/", cfg->exclude_functions.patterns[i]);
        fprintf(out, "\n                 excluded functions with no recorded caller: %.6f s\n",
                p->time_excluded_at_root);
    }
    if (p->folded_calls)
        fprintf(out, "depth limit:     %u reached; %llu deeper calls folded into the limit node\n",
                cfg->max_stack_depth, (unsigned long long)p->folded_calls);
    if (p->mismatched_exits)
        fprintf(out, "note:            %llu function exits matched no recorded entry\n",
                (unsigned long long)p->mismatched_exits);
    if (p->nested_hooks_declined)
        fprintf(out, "note:            %llu hook calls of signal handlers that interrupted a hook "
                     "were not recorded\n",
                (unsigned long long)p->nested_hooks_declined);
    if (p->out_of_memory)
        fprintf(out, "warning:         memory for call-stack nodes ran out; later calls were folded\n");
    fputc('\n', out);
}

/* The line under a table that was cut at outputs.log_stacks rows. */
void ht_output_log_left_out(FILE *out, size_t left_out, unsigned limit)
{
    if (left_out)
        fprintf(out, "... and %zu more stack%s, left out (outputs.log_stacks is %u): the JSON"
                     " and folded files have every stack\n",
                left_out, left_out == 1 ? "" : "s", limit);
}

static void print_table(FILE *out, const struct ht_profile *p, const int *order, int thread,
                        enum ht_sort_column column, bool all_ranks, const struct ht_log_rows *rows,
                        struct ht_output_room *room)
{
    double total_excl = 0.0;
    for (size_t i = 0; i < p->nstacks; i++)
        total_excl += (thread < 0 ? &p->stacks[i].total : &p->stacks[i].per_thread[thread])->time_excl;
    /* The columns fit the rows shown (the first log_stacks with calls), not
     * every stack: shortening a C++ name takes thousands of instructions. */
    int fw = (int)strlen("function"), cw = (int)strlen("caller");
    size_t rows_to_show = 0;
    for (size_t k = 0; k < p->nstacks && !(rows->limit && rows_to_show >= rows->limit); k++) {
        const struct ht_stack *s = &p->stacks[order[k]];
        if ((thread < 0 ? &s->total : &s->per_thread[thread])->calls == 0)
            continue;
        rows_to_show++;
        int w = name_width(s->function->name), c = name_width(caller_name(p, s));
        fw = w > fw ? w : fw;
        cw = c > cw ? c : cw;
    }
    if (thread < 0)
        fprintf(out, "Runtime profile, all threads%s (sorted by %s)\n\n",
                all_ranks ? " of all ranks" : "", ht_sort_column_name(column));
    else if (all_ranks)
        fprintf(out, "Runtime profile, thread %d, summed over ranks\n\n", thread);
    else if (p->thread_groups && p->thread_groups[thread].threads)
        fprintf(out, "Runtime profile, thread %d: threads started at %s (%llu threads, merged)\n\n",
                thread, p->thread_groups[thread].start_routine,
                (unsigned long long)p->thread_groups[thread].threads);
    else
        fprintf(out, "Runtime profile, thread %d (tid %d)\n\n", thread, (int)p->thread_tids[thread]);
    bool any_throttled = false, any_inlined = false;
    size_t printed = 0, left_out = 0;
    fprintf(out, "%12s %12s %9s %12s  %-*s  %-*s  %8s\n", "calls", "t_excl[s]", "t_excl[%]",
            "t_incl[s]", fw, "function", cw, "caller", "stack ID");
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct ht_stack *s = &p->stacks[order[k]];
        const struct ht_stack_stats *st = thread < 0 ? &s->total : &s->per_thread[thread];
        if (st->calls == 0)
            continue;
        if (!ht_output_room_left(room, out, "logfile"))
            break;
        if (!ht_output_log_row(rows, s->id, &printed)) {
            left_out++;
            continue;
        }
        double pct = total_excl > 0 ? 100.0 * st->time_excl / total_excl : 0.0;
        char mark = s->throttled ? '*' : s->inlined ? INLINED_MARK : 0;
        if (mark)
            fprintf(out, "%11llu%c %12.6f %9.2f %12.6f  ", (unsigned long long)st->calls, mark,
                    st->time_excl, pct, st->time_incl);
        else
            fprintf(out, "%12llu %12.6f %9.2f %12.6f  ", (unsigned long long)st->calls,
                    st->time_excl, pct, st->time_incl);
        any_throttled |= s->throttled;
        any_inlined |= s->inlined && !s->throttled;
        print_name(out, s->function->name, fw);
        fputs("  ", out);
        print_name(out, caller_name(p, s), cw);
        fprintf(out, "  %8d\n", s->id);
    }
    ht_output_log_left_out(out, left_out, rows->limit);
    if (any_throttled)
        fprintf(out, "* throttled: calls and time until then; its later time is its caller's "
                     "exclusive time\n");
    if (any_inlined)
        fprintf(out, "%c inlined: calls of inlined copies, counted, not timed: their time is the caller's"
                     " exclusive time\n", INLINED_MARK);
    fputc('\n', out);
}

static void print_location(FILE *out, const struct ht_function *f, const char *source_root)
{
    const char *file = ht_output_relative(f->file, source_root);
    if (file && f->line)
        fprintf(out, " (%s:%u)", file, f->line);
    else if (file)
        fprintf(out, " (%s)", file);
}

/* A path deeper than HT_LOG_PATH_HEAD + HT_LOG_PATH_TAIL + 3 is cut in the
 * middle, so that a line is O(1) whatever the depth (room.h): a deep
 * recursion made the list grow with the square of its depth. */
static void print_stack_list(FILE *out, const struct ht_profile *p, const struct ht_log_rows *rows,
                             const char *source_root, struct ht_output_room *room)
{
    fprintf(out, "Call stacks (stack ID: path from the root, file:line of each function;"
                 " a path deeper than %d shows its first %d and last %d functions)\n\n",
            HT_LOG_PATH_HEAD + HT_LOG_PATH_TAIL + 3, HT_LOG_PATH_HEAD, HT_LOG_PATH_TAIL);
    struct ht_path_cutter cutter;
    int path[HT_LOG_PATH_HEAD + HT_LOG_PATH_TAIL + 3];
    if (ht_path_cutter_init(&cutter, p, HT_LOG_PATH_HEAD, HT_LOG_PATH_TAIL) != 0)
        return;
    size_t left_out = 0;
    for (size_t i = 0; i < p->nstacks; i++) {
        if (rows->shown && !rows->shown[i]) {
            left_out++;
            continue;
        }
        if (!ht_output_room_left(room, out, "logfile"))
            break;
        int elided;
        int frames = ht_path_cut(&cutter, (int)i, path, &elided);
        fprintf(out, "%8zu: ", i);
        for (int d = 0; d < frames; d++) {
            const struct ht_function *f = p->stacks[path[d]].function;
            if (elided && d == HT_LOG_PATH_HEAD)
                fprintf(out, " > ... %d frames ...", elided);
            fprintf(out, "%s%s", d ? " > " : "", f->name);
            print_location(out, f, source_root);
        }
        if (elided)
            fprintf(out, " [depth %d]", p->stacks[i].depth);
        if (p->stacks[i].throttled)
            fputs(" [throttled]", out);
        if (p->stacks[i].inlined)
            fputs(" [inlined]", out);
        fputc('\n', out);
    }
    if (left_out)
        fprintf(out, "... and %zu more stack%s that no table above shows\n", left_out,
                left_out == 1 ? "" : "s");
    ht_path_cutter_free(&cutter);
}

void ht_output_logfile(FILE *out, const struct ht_profile *p, const struct ht_run_info *run,
                       const struct ht_config *cfg, const struct ht_mpi_view *mpi)
{
    bool all_ranks = mpi && mpi->rank < 0;
    char *source_root = ht_output_source_root(p);
    print_header(out, p, run, cfg, mpi, source_root);
    int *order = ht_output_sorted_ids(p, cfg->sort_by);
    if (!order) {
        fprintf(out, "(out of memory: no table)\n");
        free(source_root);
        return;
    }
    /* A table shows at most log_stacks rows; the stack list, the stacks
     * some table shows. */
    struct ht_log_rows rows = {.limit = cfg->log_stacks};
    if (rows.limit && (rows.shown = calloc(p->nstacks + 1, sizeof *rows.shown)) == NULL)
        rows.limit = 0;
    struct ht_output_room room;
    ht_output_room_init(&room, out);
    print_table(out, p, order, -1, cfg->sort_by, all_ranks, &rows, &room);
    if (p->nthreads > 1)
        for (int t = 0; t < p->nthreads; t++)
            print_table(out, p, order, t, cfg->sort_by, all_ranks, &rows, &room);
    ht_output_logfile_counters(out, p, order, all_ranks, cfg->sort_by, &rows);
    if (mpi)
        ht_output_logfile_mpi_tables(out, p, order, mpi, &rows);
    free(order);
    print_stack_list(out, p, &rows, source_root, &room);
    if (room.stopped)
        fprintf(out, "\n... stopped here: the file system is nearly full\n");
    free(rows.shown);
    free(source_root);
}
