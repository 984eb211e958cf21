/* Giving the definitions of all ranks one set of ids.
 *
 * Each rank describes its definitions (regions, communicators) as byte
 * strings ("blobs"); rank 0 collects them, gives each distinct blob an id in
 * order of first appearance (rank 0's first, then rank 1's new ones, ...),
 * and sends every rank the ids of its own blobs.  The same code serves a
 * process alone (no MPI): its blobs are numbered in place. */
#ifndef HT_TRACE_UNIFY_H
#define HT_TRACE_UNIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growable list of length-prefixed blobs. */
struct ht_blobs {
    char *data;
    size_t bytes, capacity;
    uint32_t count;
};

int ht_blobs_add(struct ht_blobs *b, const void *blob, uint32_t len);
void ht_blobs_free(struct ht_blobs *b);

/* Iterating: *pos starts at 0; returns false at the end. */
bool ht_blobs_next(const struct ht_blobs *b, size_t *pos, const char **blob, uint32_t *len);

/* ids[i] receives the unified id of this rank's blob i.  On rank 0 (or
 * alone) *global receives every distinct blob in id order (the caller
 * frees it); elsewhere it is left empty.  Collective over the job (comms.h)
 * when mpi is true.  Returns 0, or -1 if out of memory (on any rank the
 * result is then unusable; the caller gives up on the archive). */
int ht_trace_unify(bool mpi, const struct ht_blobs *local, uint32_t *ids, struct ht_blobs *global);

#endif
