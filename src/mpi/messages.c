#include "mpi/messages.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "mpi/state.h"
#include "runtime/runtime.h"

#define STATS_CHUNK_BYTES ((size_t)64 << 10)

struct stats_chunk {
    struct stats_chunk *next;
};

static void *map_bytes(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Per-peer arrays need the world size, known only after MPI_Init; a thread
 * that met MPI before (an MPI_Init wrapper call) gets them later. */
static void allocate_peers(struct ht_thread *t, struct ht_mpi_thread *m)
{
    if (m->peers.p2p_messages || !ht_world.initialized || ht_world.size <= 0)
        return;
    size_t n = (size_t)ht_world.size;
    uint64_t *all = map_bytes(4 * n * sizeof *all);
    if (!all)
        return;
    m->peers.p2p_bytes = all + n;
    m->peers.coll_messages = all + 2 * n;
    m->peers.coll_bytes = all + 3 * n;
    m->peers.p2p_messages = all;
    /* The merge reads them from the thread's state (merge_local.c). */
    __atomic_store_n(&t->peers, &m->peers, __ATOMIC_RELEASE);
}

struct ht_mpi_thread *ht_mpi_thread_data(struct ht_thread *t)
{
    if (!t->mpi) {
        struct ht_mpi_thread *m = map_bytes(sizeof *m);
        if (!m)
            return NULL;
        __atomic_store_n(&t->mpi, m, __ATOMIC_RELEASE);
    }
    allocate_peers(t, t->mpi);
    return t->mpi;
}

struct ht_mpi_stats *ht_mpi_node_stats(struct ht_mpi_thread *m, struct ht_node *node)
{
    if (node->mpi)
        return node->mpi;
    if ((size_t)(m->arena_end - m->arena_next) < sizeof(struct ht_mpi_stats)) {
        struct stats_chunk *c = map_bytes(STATS_CHUNK_BYTES);
        if (!c)
            return NULL;
        c->next = m->chunks;
        m->chunks = c;
        m->arena_next = (char *)c + 64;
        m->arena_end = (char *)c + STATS_CHUNK_BYTES;
    }
    struct ht_mpi_stats *s = (struct ht_mpi_stats *)m->arena_next;
    m->arena_next += sizeof *s;
    __atomic_store_n(&node->mpi, s, __ATOMIC_RELEASE);
    return s;
}

void ht_mpi_message(struct ht_thread *t, struct ht_node *node, bool send, bool collective,
                    int peer, uint64_t bytes, uint64_t start, uint64_t end)
{
    struct ht_mpi_thread *m = ht_mpi_thread_data(t);
    if (!m || peer < 0 || !node)
        return;
    struct ht_mpi_stats *s = ht_mpi_node_stats(m, node);
    if (s) {
        uint64_t ticks = end > start ? end - start : 0;
        if (send) {
            s->messages_sent++;
            s->bytes_sent += bytes;
            s->ticks_sent += ticks;
        } else {
            s->messages_received++;
            s->bytes_received += bytes;
            s->ticks_received += ticks;
        }
    }
    if (send && m->peers.p2p_messages && peer < ht_world.size) {
        if (collective) {
            m->peers.coll_messages[peer]++;
            m->peers.coll_bytes[peer] += bytes;
        } else {
            m->peers.p2p_messages[peer]++;
            m->peers.p2p_bytes[peer] += bytes;
        }
    }
}
