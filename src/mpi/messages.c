#include "mpi/messages.h"

#include <stdlib.h>
#include <sys/mman.h>

#include "mpi/ranks.h"
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
        pthread_mutex_init(&m->requests_lock, NULL);
        __atomic_store_n(&t->mpi, m, __ATOMIC_RELEASE);
    }
    allocate_peers(t, t->mpi);
    return t->mpi;
}

/* Zeroed memory from the thread's arena (chunks are never freed: nodes
 * point into them until the profile is written). */
static void *arena_alloc(struct ht_mpi_thread *m, size_t bytes)
{
    bytes = (bytes + 7) & ~(size_t)7;
    if ((size_t)(m->arena_end - m->arena_next) < bytes) {
        struct stats_chunk *c = map_bytes(STATS_CHUNK_BYTES);
        if (!c)
            return NULL;
        c->next = m->chunks;
        m->chunks = c;
        m->arena_next = (char *)c + 64;
        m->arena_end = (char *)c + STATS_CHUNK_BYTES;
    }
    void *p = m->arena_next;
    m->arena_next += bytes;
    return p;
}

struct ht_mpi_stats *ht_mpi_node_stats(struct ht_mpi_thread *m, struct ht_node *node)
{
    if (node->mpi)
        return node->mpi;
    struct ht_mpi_stats *s = arena_alloc(m, sizeof *s);
    if (s)
        __atomic_store_n(&node->mpi, s, __ATOMIC_RELEASE);
    return s;
}

/* A new record for calls of this shape at s, published to the readers
 * (the profile through s, the matrix through the thread's list). */
static struct ht_group_messages *group_new(struct ht_mpi_thread *m, struct ht_mpi_stats *s,
                                           const struct ht_group_shape *shape)
{
    struct ht_group_messages *g = arena_alloc(m, sizeof *g);
    if (!g)
        return NULL;
    ht_mpi_rank_map_keep(shape->map); /* its world[] is read at the end */
    g->world = shape->map->world;
    g->size = shape->map->size;
    g->self = shape->self;
    for (int i = 0; i < g->size; i++)
        g->peers += i != g->self && g->world[i] >= 0;
    g->send_bytes = shape->send_bytes;
    g->recv_bytes = shape->recv_bytes;
    g->next = s->groups;
    g->thread_next = m->peers.groups;
    __atomic_store_n(&s->groups, g, __ATOMIC_RELEASE);
    __atomic_store_n(&m->peers.groups, g, __ATOMIC_RELEASE);
    return g;
}

struct ht_group_messages *ht_mpi_group_message(struct ht_thread *t, struct ht_node *node,
                                                     const struct ht_group_shape *shape,
                                                     uint64_t start, uint64_t end)
{
    struct ht_mpi_thread *m = ht_mpi_thread_data(t);
    if (!m || !node || (!shape->send_bytes && !shape->recv_bytes))
        return NULL;
    struct ht_mpi_stats *s = ht_mpi_node_stats(m, node);
    if (!s)
        return NULL;
    /* A call site usually calls with one communicator and one size. */
    struct ht_group_messages *g = s->groups;
    while (g && !(g->world == shape->map->world && g->self == shape->self &&
                  g->send_bytes == shape->send_bytes && g->recv_bytes == shape->recv_bytes))
        g = g->next;
    if (!g && !(g = group_new(m, s, shape)))
        return NULL;
    g->calls++;
    g->ticks += end > start ? end - start : 0;
    return g;
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
