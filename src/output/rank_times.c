/* Every rank's inclusive time on the top stacks (struct ht_mpi_rank_times,
 * summary only): the JSON's "rank_time_stacks" and "rank_time_incl_s", and
 * the logfile's "Inclusive time per rank, top stacks" table (docs/output_mpi.md).
 * The report draws its per-rank bars from the JSON. */
#include "output/json_dump.h"
#include "output/output.h"
#include "output/output_mpi.h"

/* With more ranks the table would be longer than useful: the JSON has it. */
#define TABLE_MAX_RANKS 64
/* Stacks side by side in one block of the table (12 characters each). */
#define BLOCK_COLUMNS 8
#define COLUMN_WIDTH 12

static const struct ht_mpi_rank_times *rank_times(const struct ht_mpi_view *mpi)
{
    return mpi->rank_times && mpi->rank_times->count ? mpi->rank_times : NULL;
}

void ht_output_json_rank_times_top(json_t *doc, const struct ht_mpi_view *mpi)
{
    const struct ht_mpi_rank_times *t = rank_times(mpi);
    if (!t)
        return;
    json_t *ids = json_array();
    for (size_t j = 0; j < t->count; j++)
        json_array_append_new(ids, json_integer(t->stacks[j]));
    json_object_set_new(doc, "rank_time_stacks", ids);
}

void ht_output_json_rank_times_stack(json_t *obj, const struct ht_stack *s,
                                     const struct ht_mpi_view *mpi)
{
    const struct ht_mpi_rank_times *t = rank_times(mpi);
    if (!t || t->row_of[s->id] < 0)
        return;
    size_t j = (size_t)t->row_of[s->id];
    json_t *times = json_array();
    for (int r = 0; r < mpi->nranks; r++)
        json_array_append_new(times, json_real(t->seconds[(size_t)r * t->count + j]));
    json_object_set_new(obj, "rank_time_incl_s", times);
}

/* The name in a column: its own tail kept when it is cut (short_name.c). */
static void print_name_column(FILE *out, const char *name)
{
    char buf[COLUMN_WIDTH];
    fprintf(out, " %*s", COLUMN_WIDTH - 1,
            ht_output_short_name(name, COLUMN_WIDTH - 1, buf, sizeof buf));
}

void ht_output_logfile_rank_times(FILE *out, const struct ht_profile *p,
                                  const struct ht_mpi_view *mpi, const struct ht_log_rows *rows)
{
    const struct ht_mpi_rank_times *t = rank_times(mpi);
    if (!t)
        return;
    /* "Call stacks" then gives their paths (K is at most 256: no limit). */
    for (size_t j = 0; rows->shown && j < t->count; j++)
        if (t->stacks[j] >= 0 && (size_t)t->stacks[j] < p->nstacks)
            rows->shown[t->stacks[j]] = true;
    fprintf(out, "Inclusive time per rank, top stacks (the %zu stacks with the most inclusive time"
                 " on one rank, most first;\nseconds, summed over the rank's threads; 0: the rank"
                 " never entered the stack)\n\n", t->count);
    if (mpi->nranks > TABLE_MAX_RANKS) {
        fprintf(out, "%d ranks: the times are in the JSON profile (rank_time_incl_s); stack IDs:",
                mpi->nranks);
        for (size_t j = 0; j < t->count; j++)
            fprintf(out, " %d", t->stacks[j]);
        fprintf(out, "\n\n");
        return;
    }
    for (size_t first = 0; first < t->count; first += BLOCK_COLUMNS) {
        size_t end = first + BLOCK_COLUMNS < t->count ? first + BLOCK_COLUMNS : t->count;
        fprintf(out, "%8s", "stack ID");
        for (size_t j = first; j < end; j++)
            fprintf(out, " %*d", COLUMN_WIDTH - 1, t->stacks[j]);
        fprintf(out, "\n%8s", "");
        for (size_t j = first; j < end; j++) {
            int32_t id = t->stacks[j];
            print_name_column(out, id >= 0 && (size_t)id < p->nstacks
                                       ? p->stacks[id].function->name : "?");
        }
        fprintf(out, "\n%8s\n", "rank");
        for (int r = 0; r < mpi->nranks; r++) {
            fprintf(out, "%8d", r);
            for (size_t j = first; j < end; j++)
                fprintf(out, " %*.6f", COLUMN_WIDTH - 1, t->seconds[(size_t)r * t->count + j]);
            fputc('\n', out);
        }
        fputc('\n', out);
    }
}

/* One rank per line, its stacks as [id, calls, inclusive, exclusive]
 * arrays: a fraction of the size of objects, and never built whole. */
int ht_output_json_rank_profiles(FILE *f, const struct ht_mpi_view *mpi, size_t json_flags)
{
    const struct ht_mpi_rank_profiles *t = mpi->rank_profiles;
    if (!t || !t->count)
        return 0;
    fputs(",\n \"rank_profiles\": [", f);
    int rc = 0;
    for (size_t j = 0; rc == 0 && j < t->count; j++) {
        const struct ht_mpi_rank_profile *rp = &t->ranks[j];
        json_t *time = json_real(rp->time_incl);
        fprintf(f, "%s\n  {\"rank\": %d, \"why\": \"%s\", \"time_incl_s\": ", j ? "," : "",
                rp->rank, rp->why);
        rc = time && ht_json_dumpf(time, f, json_flags | JSON_ENCODE_ANY) == 0 ? 0 : -1;
        json_decref(time);
        fputs(", \"stacks\": [", f);
        for (size_t i = 0; rc == 0 && i < rp->count; i++) {
            const struct ht_mpi_rank_row *row = &t->rows[rp->first + i];
            json_t *a = json_pack("[iIff]", (int)row->stack, (json_int_t)row->calls,
                                  row->time_incl, row->time_excl);
            fputs(i ? "," : "", f);
            rc = a && ht_json_dumpf(a, f, json_flags) == 0 ? 0 : -1;
            json_decref(a);
        }
        fputs("]}", f);
    }
    fputs("]", f);
    return rc;
}
