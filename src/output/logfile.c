/* The text logfile: a header describing the run, the profile table (all
 * threads, then each thread if there are several) and the stack list. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/output.h"
#include "output/output_mpi.h"

#define NAME_COLUMN_MAX 60

static int name_width(const char *name)
{
    int n = (int)strlen(name);
    return n > NAME_COLUMN_MAX ? NAME_COLUMN_MAX : n;
}

/* Long C++ names would push every other column off screen; the stack list
 * below the table has them in full. */
static void print_name(FILE *out, const char *name, int width)
{
    int n = (int)strlen(name);
    if (n <= NAME_COLUMN_MAX)
        fprintf(out, "%-*s", width, name);
    else
        fprintf(out, "%.*s...%*s", NAME_COLUMN_MAX - 3, name, width - NAME_COLUMN_MAX, "");
}

static const char *caller_name(const struct ht_profile *p, const struct ht_stack *s)
{
    return s->parent < 0 ? "-" : p->stacks[s->parent].function->name;
}

static void print_header(FILE *out, const struct ht_profile *p, const struct ht_run_info *run,
                         const struct ht_config *cfg, const struct ht_mpi_view *mpi)
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
        fprintf(out, " (the profile ends there; calls in progress count up to then)\n");
    }
    fprintf(out, "command:         %s\n", run->command);
    fprintf(out, "executable:      %s\n", run->executable);
    fprintf(out, "started:         %s\n", date);
    fprintf(out, "wall time:       %.6f s\n", run->wall_seconds);
    fprintf(out, "threads:         %d\n", p->nthreads);
    if (mpi)
        ht_output_logfile_mpi_header(out, mpi, cfg);
    fprintf(out, "clock:           %s, %.0f ticks/s\n", run->clock_source, run->ticks_per_second);
    fprintf(out, "calls recorded:  %llu\n", (unsigned long long)p->instrumented_calls);
    /* The overhead is summed over threads, so it is compared with the time
     * all threads spent in recorded functions, not with the wall time. */
    double recorded = 0.0;
    for (size_t i = 0; i < p->nstacks; i++)
        if (p->stacks[i].parent < 0)
            recorded += p->stacks[i].total.time_incl;
    fprintf(out, "overhead:        %.6f s over all threads (%.1f ns per call, measured at exit;"
                 " %.2f%% of the %.6f s recorded)\n",
            run->overhead_seconds, run->overhead_ns_per_call,
            recorded > 0 ? 100.0 * run->overhead_seconds / recorded : 0.0, recorded);
    ht_output_logfile_throttle(out, &run->throttle, p, run->uninstrumented.count > 0);
    if (run->uninstrumented.count)
        fprintf(out, "uninstrumented:  %zu tiny functions left out at compile time by the GCC plugin"
                     " (named in the JSON; docs/plugin.md)\n", run->uninstrumented.count);
    fprintf(out, "call stacks:     %zu (%llu tree nodes, %.1f KiB)\n", p->nstacks,
            (unsigned long long)p->tree_nodes, (double)p->tree_bytes / 1024.0);
    fprintf(out, "config:          %s\n", cfg->source_file ? cfg->source_file : "(defaults)");
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
                        enum ht_sort_column column, bool all_ranks, const struct ht_log_rows *rows)
{
    double total_excl = 0.0;
    int fw = (int)strlen("function"), cw = (int)strlen("caller");
    for (size_t i = 0; i < p->nstacks; i++) {
        const struct ht_stack *s = &p->stacks[i];
        const struct ht_stack_stats *st = thread < 0 ? &s->total : &s->per_thread[thread];
        total_excl += st->time_excl;
        if (st->calls == 0)
            continue;
        if (name_width(s->function->name) > fw)
            fw = name_width(s->function->name);
        if (name_width(caller_name(p, s)) > cw)
            cw = name_width(caller_name(p, s));
    }
    if (thread < 0)
        fprintf(out, "Runtime profile, all threads%s (sorted by %s)\n\n",
                all_ranks ? " of all ranks" : "", ht_sort_column_name(column));
    else if (all_ranks)
        fprintf(out, "Runtime profile, thread %d, summed over ranks\n\n", thread);
    else
        fprintf(out, "Runtime profile, thread %d (tid %d)\n\n", thread, (int)p->thread_tids[thread]);
    bool any_throttled = false;
    size_t printed = 0, left_out = 0;
    fprintf(out, "%12s %12s %9s %12s  %-*s  %-*s  %8s\n", "calls", "t_excl[s]", "t_excl[%]",
            "t_incl[s]", fw, "function", cw, "caller", "stack ID");
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct ht_stack *s = &p->stacks[order[k]];
        const struct ht_stack_stats *st = thread < 0 ? &s->total : &s->per_thread[thread];
        if (st->calls == 0)
            continue;
        if (!ht_output_log_row(rows, s->id, &printed)) {
            left_out++;
            continue;
        }
        double pct = total_excl > 0 ? 100.0 * st->time_excl / total_excl : 0.0;
        fprintf(out, s->throttled ? "%11llu* %12.6f %9.2f %12.6f  " : "%12llu %12.6f %9.2f %12.6f  ",
                (unsigned long long)st->calls, st->time_excl, pct, st->time_incl);
        any_throttled |= s->throttled;
        print_name(out, s->function->name, fw);
        fputs("  ", out);
        print_name(out, caller_name(p, s), cw);
        fprintf(out, "  %8d\n", s->id);
    }
    ht_output_log_left_out(out, left_out, rows->limit);
    if (any_throttled)
        fprintf(out, "* throttled: calls and time until then; its later time is its caller's "
                     "exclusive time\n");
    fputc('\n', out);
}

static void print_location(FILE *out, const struct ht_function *f)
{
    if (f->file && f->line)
        fprintf(out, " (%s:%u)", f->file, f->line);
    else if (f->file)
        fprintf(out, " (%s)", f->file);
}

static void print_stack_list(FILE *out, const struct ht_profile *p, const struct ht_log_rows *rows)
{
    fprintf(out, "Call stacks (stack ID: path from the root, file:line of each function)\n\n");
    int *path = malloc((p->nstacks ? p->nstacks : 1) * sizeof *path);
    if (!path)
        return;
    size_t left_out = 0;
    for (size_t i = 0; i < p->nstacks; i++) {
        if (rows->shown && !rows->shown[i]) {
            left_out++;
            continue;
        }
        int depth = ht_profile_path(p, (int)i, path, (int)p->nstacks);
        fprintf(out, "%8zu: ", i);
        for (int d = 0; d < depth; d++) {
            const struct ht_function *f = p->stacks[path[d]].function;
            fprintf(out, "%s%s", d ? " > " : "", f->name);
            print_location(out, f);
        }
        fputs(p->stacks[i].throttled ? " [throttled]\n" : "\n", out);
    }
    if (left_out)
        fprintf(out, "... and %zu more stack%s that no table above shows\n", left_out,
                left_out == 1 ? "" : "s");
    free(path);
}

void ht_output_logfile(FILE *out, const struct ht_profile *p, const struct ht_run_info *run,
                       const struct ht_config *cfg, const struct ht_mpi_view *mpi)
{
    bool all_ranks = mpi && mpi->rank < 0;
    print_header(out, p, run, cfg, mpi);
    int *order = ht_output_sorted_ids(p, cfg->sort_by);
    if (!order) {
        fprintf(out, "(out of memory: no table)\n");
        return;
    }
    /* A table shows at most log_stacks rows; the stack list, the stacks
     * some table shows. */
    struct ht_log_rows rows = {.limit = cfg->log_stacks};
    if (rows.limit && (rows.shown = calloc(p->nstacks + 1, sizeof *rows.shown)) == NULL)
        rows.limit = 0;
    print_table(out, p, order, -1, cfg->sort_by, all_ranks, &rows);
    if (p->nthreads > 1)
        for (int t = 0; t < p->nthreads; t++)
            print_table(out, p, order, t, cfg->sort_by, all_ranks, &rows);
    if (mpi)
        ht_output_logfile_mpi_tables(out, p, order, mpi, &rows);
    free(order);
    print_stack_list(out, p, &rows);
    free(rows.shown);
}
