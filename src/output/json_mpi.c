/* The MPI fields of the JSON profile (docs/output_mpi.md). */
#include "output/output.h"
#include "output/output_mpi.h"

static void set_int(json_t *obj, const char *key, uint64_t v)
{
    json_object_set_new(obj, key, json_integer((json_int_t)v));
}

static void message_fields(json_t *obj, uint64_t msent, uint64_t mrecv, uint64_t bsent,
                           uint64_t brecv, double ssent, double srecv)
{
    set_int(obj, "messages_sent", msent);
    set_int(obj, "messages_received", mrecv);
    set_int(obj, "bytes_sent", bsent);
    set_int(obj, "bytes_received", brecv);
    json_object_set_new(obj, "message_time_sent_s", json_real(ssent));
    json_object_set_new(obj, "message_time_received_s", json_real(srecv));
}

void ht_output_json_mpi_top(json_t *doc, const struct ht_mpi_view *mpi,
                            const struct ht_run_info *run)
{
    json_object_set_new(doc, "ranks", json_integer(mpi->nranks));
    if (mpi->rank >= 0)
        json_object_set_new(doc, "rank", json_integer(mpi->rank));
    if (mpi->mpit)
        ht_output_json_mpit_top(doc, mpi->mpit, run);
    ht_output_json_rank_times_top(doc, mpi);
    if (!mpi->ranks)
        return;
    json_t *missing = json_array();
    for (int r = 0; r < mpi->nranks; r++)
        if (!mpi->ranks[r].profiled)
            json_array_append_new(missing, json_integer(r));
    if (json_array_size(missing))
        json_object_set_new(doc, "ranks_without_profile", missing);
    else
        json_decref(missing);
}

void ht_output_json_mpi_stack(json_t *obj, const struct ht_stack *s, const struct ht_mpi_view *mpi)
{
    if (mpi->spread) {
        const struct ht_mpi_spread *sp = &mpi->spread[s->id];
        json_t *imb = json_object();
        json_object_set_new(imb, "min_s", json_real(sp->min));
        json_object_set_new(imb, "min_rank", json_integer(sp->min_rank));
        json_object_set_new(imb, "avg_s",
                            json_real(mpi->nranks > 0 ? s->total.time_incl / mpi->nranks : 0.0));
        json_object_set_new(imb, "max_s", json_real(sp->max));
        json_object_set_new(imb, "max_rank", json_integer(sp->max_rank));
        json_object_set_new(obj, "imbalance", imb);
    }
    ht_output_json_rank_times_stack(obj, s, mpi);
    if (mpi->mpit)
        ht_output_json_mpit_stack(obj, s, mpi->mpit);
    if (!ht_output_stack_has_messages(s))
        return;
    const struct ht_mpi_stats *m = &s->total.mpi;
    message_fields(obj, m->messages_sent, m->messages_received, m->bytes_sent, m->bytes_received,
                   mpi->seconds_sent[s->id], mpi->seconds_received[s->id]);
    json_t *ranks = json_array();
    for (size_t i = mpi->figures_start[s->id]; i < mpi->figures_start[s->id + 1]; i++) {
        const struct ht_mpi_rank_figures *f = &mpi->figures[i];
        json_t *r = json_object();
        json_object_set_new(r, "rank", json_integer(f->rank));
        set_int(r, "calls", f->calls);
        json_object_set_new(r, "time_incl_s", json_real(f->time_incl));
        json_object_set_new(r, "time_excl_s", json_real(f->time_excl));
        message_fields(r, f->messages_sent, f->messages_received, f->bytes_sent,
                       f->bytes_received, f->seconds_sent, f->seconds_received);
        json_array_append_new(ranks, r);
    }
    json_object_set_new(obj, "ranks", ranks);
}

static json_t *matrix(const struct ht_mpi_cell *cells, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "sender", json_integer(cells[i].sender));
        json_object_set_new(c, "receiver", json_integer(cells[i].receiver));
        set_int(c, "messages", cells[i].messages);
        set_int(c, "bytes", cells[i].bytes);
        json_array_append_new(a, c);
    }
    return a;
}

void ht_output_json_mpi_matrices(json_t *doc, const struct ht_mpi_view *mpi)
{
    json_object_set_new(doc, "comm_matrix", matrix(mpi->comm, mpi->ncomm));
    json_object_set_new(doc, "coll_matrix", matrix(mpi->coll, mpi->ncoll));
}
