/* The MPI parts of the text logfile: the header lines, the communication
 * profile (summed and per rank), the per-rank table, the imbalance table and
 * the communication matrices (docs/output_mpi.md). */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/output_mpi.h"

#define NAME_MAX_WIDTH 60
#define MATRIX_GRID_RANKS 16 /* more ranks: only the top pairs */
#define MATRIX_TOP_PAIRS 20

const char *ht_output_bandwidth(char *buf, size_t size, uint64_t bytes, double seconds)
{
    if (bytes == 0)
        snprintf(buf, size, "0");
    else if (!(seconds > 0.0))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.4g", (double)bytes / seconds * 1e-6);
    return buf;
}

static const char *average(char *buf, size_t size, uint64_t bytes, uint64_t messages)
{
    if (messages == 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.1f", (double)bytes / (double)messages);
    return buf;
}

static void print_function(FILE *out, const char *name)
{
    char buf[NAME_MAX_WIDTH + 1];
    fputs(ht_output_short_name(name, NAME_MAX_WIDTH, buf, sizeof buf), out);
}

static void print_rank_list(FILE *out, const struct ht_rank_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        fprintf(out, "%s%d", i ? ", " : "", set->ranks[i]);
}

void ht_output_logfile_mpi_header(FILE *out, const struct ht_mpi_view *mpi,
                                  const struct ht_config *cfg, const struct ht_run_info *run)
{
    if (mpi->rank < 0)
        fprintf(out, "ranks:           %d (figures summed over ranks; threads: the most any rank had)\n",
                mpi->nranks);
    else
        fprintf(out, "rank:            %d of %d ranks (this rank's own figures)\n", mpi->rank,
                mpi->nranks);
    fprintf(out, "MPI messages:    ");
    if (!cfg->mpi.log_messages)
        fprintf(out, "not logged (mpi.log_messages is false)\n");
    else if (cfg->mpi.log_ranks.all)
        fprintf(out, "logged on every rank\n");
    else if (cfg->mpi.log_ranks.count == 0)
        fprintf(out, "logged on no rank (mpi.log_ranks is \"none\")\n");
    else {
        fprintf(out, "logged on ranks ");
        print_rank_list(out, &cfg->mpi.log_ranks);
        fputc('\n', out);
    }
    if (mpi->ranks) {
        int missing = 0;
        for (int r = 0; r < mpi->nranks; r++)
            if (!mpi->ranks[r].profiled)
                fprintf(out, "%s%d", missing++ ? ", " : "warning:         ranks without a profile: ", r);
        if (missing)
            fprintf(out, " (they count as 0 below)\n");
    }
    if (mpi->merge_failed)
        fprintf(out, "note:            the profiles of the ranks could not be merged; each rank"
                     " wrote its own files\n");
    if (mpi->mpit)
        ht_output_logfile_mpit_header(out, mpi->mpit, mpi->rank < 0, run->mpit_file);
}

/* One row of message figures: the columns shared by the summed and the
 * per-rank communication tables. */
static void print_message_columns(FILE *out, uint64_t msent, uint64_t mrecv, uint64_t bsent,
                                  uint64_t brecv, double seconds, double t_comm)
{
    char a[32], b[32], bw[32];
    fprintf(out, "%10llu %10llu %14llu %14llu %11s %11s %10s %12.6f", (unsigned long long)msent,
            (unsigned long long)mrecv, (unsigned long long)bsent, (unsigned long long)brecv,
            average(a, sizeof a, bsent, msent), average(b, sizeof b, brecv, mrecv),
            ht_output_bandwidth(bw, sizeof bw, bsent + brecv, seconds), t_comm);
}

static void print_message_heading(FILE *out)
{
    fprintf(out, "%10s %10s %14s %14s %11s %11s %10s %12s", "msgs_sent", "msgs_recv", "bytes_sent",
            "bytes_recv", "avg_sent[B]", "avg_recv[B]", "bw[MB/s]", "t_comm[s]");
}

static void print_comm_summed(FILE *out, const struct ht_profile *p, const int *order,
                              const struct ht_mpi_view *mpi, const struct ht_log_rows *rows)
{
    if (mpi->rank < 0)
        fprintf(out, "Communication profile, all ranks (stacks that moved messages)\n\n");
    else
        fprintf(out, "Communication profile, rank %d (stacks that moved messages)\n\n", mpi->rank);
    print_message_heading(out);
    fprintf(out, "  %8s  %s\n", "stack ID", "function");
    struct ht_mpi_stats sum = {0};
    double seconds = 0.0, t_comm = 0.0;
    size_t printed = 0, left_out = 0;
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct ht_stack *s = &p->stacks[order[k]];
        if (!ht_output_stack_has_messages(s))
            continue;
        const struct ht_mpi_stats *m = &s->total.mpi;
        double sec = mpi->seconds_sent[s->id] + mpi->seconds_received[s->id];
        if (ht_output_log_row(rows, s->id, &printed)) {
            print_message_columns(out, m->messages_sent, m->messages_received, m->bytes_sent,
                                  m->bytes_received, sec, s->total.time_incl);
            fprintf(out, "  %8d  ", s->id);
            print_function(out, s->function->name);
            fputc('\n', out);
        } else {
            left_out++;
        }
        sum.messages_sent += m->messages_sent;
        sum.messages_received += m->messages_received;
        sum.bytes_sent += m->bytes_sent;
        sum.bytes_received += m->bytes_received;
        seconds += sec;
        t_comm += s->total.time_incl;
    }
    print_message_columns(out, sum.messages_sent, sum.messages_received, sum.bytes_sent,
                          sum.bytes_received, seconds, t_comm);
    fprintf(out, "  %8s  (all stacks)\n", "");
    ht_output_log_left_out(out, left_out, rows->limit);
    fputc('\n', out);
}

static void print_comm_per_rank(FILE *out, const struct ht_profile *p,
                                const struct ht_mpi_view *mpi)
{
    fprintf(out, "Communication profile per rank (by stack ID, then rank)\n\n");
    fprintf(out, "%8s %6s ", "stack ID", "rank");
    print_message_heading(out);
    fprintf(out, "  function\n");
    for (size_t id = 0; id < p->nstacks; id++) {
        for (size_t i = mpi->figures_start[id]; i < mpi->figures_start[id + 1]; i++) {
            const struct ht_mpi_rank_figures *f = &mpi->figures[i];
            fprintf(out, "%8zu %6d ", id, f->rank);
            print_message_columns(out, f->messages_sent, f->messages_received, f->bytes_sent,
                                  f->bytes_received, f->seconds_sent + f->seconds_received,
                                  f->time_incl);
            fputs("  ", out);
            print_function(out, p->stacks[id].function->name);
            fputc('\n', out);
        }
    }
    fputc('\n', out);
}

static void print_rank_table(FILE *out, const struct ht_profile *p, const struct ht_mpi_view *mpi)
{
    struct totals {
        struct ht_mpi_stats m;
        double seconds, t_comm;
    } *t = calloc((size_t)mpi->nranks, sizeof *t);
    if (!t)
        return;
    for (size_t i = 0; i < mpi->figures_start[p->nstacks]; i++) {
        const struct ht_mpi_rank_figures *f = &mpi->figures[i];
        if (f->rank < 0 || f->rank >= mpi->nranks)
            continue;
        struct totals *r = &t[f->rank];
        r->m.messages_sent += f->messages_sent;
        r->m.messages_received += f->messages_received;
        r->m.bytes_sent += f->bytes_sent;
        r->m.bytes_received += f->bytes_received;
        r->seconds += f->seconds_sent + f->seconds_received;
        r->t_comm += f->time_incl;
    }
    fprintf(out, "Ranks (calls: instrumented calls recorded; the message columns sum the"
                 " rank's rows above)\n\n");
    fprintf(out, "%6s %7s %12s %14s ", "rank", "threads", "wall[s]", "calls");
    print_message_heading(out);
    fputc('\n', out);
    for (int r = 0; r < mpi->nranks; r++) {
        const struct ht_mpi_rank_summary *rs = &mpi->ranks[r];
        if (!rs->profiled) {
            fprintf(out, "%6d (no profile)\n", r);
            continue;
        }
        fprintf(out, "%6d %7d %12.6f %14llu ", r, rs->threads, rs->wall_seconds,
                (unsigned long long)rs->calls_recorded);
        print_message_columns(out, t[r].m.messages_sent, t[r].m.messages_received,
                              t[r].m.bytes_sent, t[r].m.bytes_received, t[r].seconds, t[r].t_comm);
        fputc('\n', out);
    }
    fputc('\n', out);
    free(t);
}

static void print_imbalance(FILE *out, const struct ht_profile *p, const int *order,
                            const struct ht_mpi_view *mpi, const struct ht_log_rows *rows)
{
    fprintf(out, "Imbalance over ranks (inclusive time; a rank that never entered the stack"
                 " counts as 0)\n\n");
    fprintf(out, "%12s %8s %12s %12s %8s %8s  %8s  %s\n", "min[s]", "min_rank", "avg[s]", "max[s]",
            "max_rank", "max/avg", "stack ID", "function");
    size_t printed = 0, left_out = 0;
    for (size_t k = 0; k < p->nstacks; k++) {
        const struct ht_stack *s = &p->stacks[order[k]];
        if (s->total.calls == 0)
            continue;
        if (!ht_output_log_row(rows, s->id, &printed)) {
            left_out++;
            continue;
        }
        const struct ht_mpi_spread *sp = &mpi->spread[s->id];
        double avg = mpi->nranks > 0 ? s->total.time_incl / mpi->nranks : 0.0;
        char ratio[32];
        if (avg > 0.0)
            snprintf(ratio, sizeof ratio, "%.2f", sp->max / avg);
        else
            snprintf(ratio, sizeof ratio, "-");
        fprintf(out, "%12.6f %8d %12.6f %12.6f %8d %8s  %8d  ", sp->min, sp->min_rank, avg,
                sp->max, sp->max_rank, ratio, s->id);
        print_function(out, s->function->name);
        fputc('\n', out);
    }
    ht_output_log_left_out(out, left_out, rows->limit);
    fputc('\n', out);
}

static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static void print_grid(FILE *out, const struct ht_mpi_cell *cells, size_t n, int nranks,
                       bool bytes)
{
    uint64_t *grid = calloc((size_t)nranks * (size_t)nranks, sizeof *grid);
    if (!grid)
        return;
    int w = 6;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = bytes ? cells[i].bytes : cells[i].messages;
        grid[(size_t)cells[i].sender * (size_t)nranks + (size_t)cells[i].receiver] = v;
        if (digits(v) > w)
            w = digits(v);
    }
    fprintf(out, "%s (row: sender, column: receiver)\n", bytes ? "bytes" : "messages");
    fprintf(out, "%8s", "");
    for (int r = 0; r < nranks; r++)
        fprintf(out, " %*d", w, r);
    fputc('\n', out);
    for (int s = 0; s < nranks; s++) {
        fprintf(out, "%8d", s);
        for (int r = 0; r < nranks; r++)
            fprintf(out, " %*llu", w, (unsigned long long)grid[(size_t)s * (size_t)nranks + (size_t)r]);
        fputc('\n', out);
    }
    fputc('\n', out);
    free(grid);
}

static int by_bytes_desc(const void *pa, const void *pb)
{
    const struct ht_mpi_cell *a = *(const struct ht_mpi_cell *const *)pa;
    const struct ht_mpi_cell *b = *(const struct ht_mpi_cell *const *)pb;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? 1 : -1;
    if (a->sender != b->sender)
        return a->sender > b->sender ? 1 : -1;
    return (a->receiver > b->receiver) - (a->receiver < b->receiver);
}

/* limit < n: the `limit` pairs with the most bytes; else every pair in
 * sender, receiver order. */
static void print_pairs(FILE *out, const struct ht_mpi_cell *cells, size_t n, size_t limit)
{
    const struct ht_mpi_cell **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return;
    for (size_t i = 0; i < n; i++)
        sorted[i] = &cells[i];
    if (limit < n)
        qsort(sorted, n, sizeof *sorted, by_bytes_desc);
    if (limit < n)
        fprintf(out, "the %zu pairs with the most bytes, of %zu\n", limit, n);
    fprintf(out, "%8s %8s %14s %16s\n", "sender", "receiver", "messages", "bytes");
    for (size_t i = 0; i < n && i < limit; i++)
        fprintf(out, "%8d %8d %14llu %16llu\n", sorted[i]->sender, sorted[i]->receiver,
                (unsigned long long)sorted[i]->messages, (unsigned long long)sorted[i]->bytes);
    fputc('\n', out);
    free(sorted);
}

static void print_matrix(FILE *out, const char *title, const struct ht_mpi_cell *cells, size_t n,
                         const struct ht_mpi_view *mpi)
{
    fprintf(out, "%s, counted by the sender%s\n\n", title,
            mpi->rank >= 0 ? ": this rank's row" : "");
    if (n == 0) {
        fprintf(out, "(no messages)\n\n");
        return;
    }
    if (mpi->rank >= 0) {
        print_pairs(out, cells, n, n);
    } else if (mpi->nranks <= MATRIX_GRID_RANKS) {
        print_grid(out, cells, n, mpi->nranks, false);
        print_grid(out, cells, n, mpi->nranks, true);
    } else {
        print_pairs(out, cells, n, MATRIX_TOP_PAIRS);
    }
}

void ht_output_logfile_mpi_tables(FILE *out, const struct ht_profile *p, const int *order,
                                  const struct ht_mpi_view *mpi, const struct ht_log_rows *rows)
{
    print_comm_summed(out, p, order, mpi, rows);
    if (mpi->rank < 0) {
        print_comm_per_rank(out, p, mpi);
        if (mpi->ranks)
            print_rank_table(out, p, mpi);
    }
    if (mpi->spread)
        print_imbalance(out, p, order, mpi, rows);
    ht_output_logfile_rank_times(out, p, mpi, rows);
    print_matrix(out, "Communication matrix (point-to-point and one-sided)", mpi->comm,
                 mpi->ncomm, mpi);
    print_matrix(out, "Collective communication matrix", mpi->coll, mpi->ncoll, mpi);
    if (mpi->mpit)
        ht_output_logfile_mpit_tables(out, p, order, mpi->mpit, mpi->rank < 0);
}
