/* Collective instances and the three collective patterns. */
#include <otf2/otf2.h>
#include <stdlib.h>

#include "analyze/collective.h"
#include "analyze/fail.h"

struct coll_instance {
    uint32_t size, arrived;
    uint32_t root_rank;
    uint8_t op;
    struct coll_member members[];
};

void collectives_init(struct collectives *c, coll_wait_fn *on_wait, void *context)
{
    hashmap_init(&c->instances);
    c->on_wait = on_wait;
    c->context = context;
    c->incomplete = 0;
}

void collectives_finish(struct collectives *c)
{
    for (size_t i = 0; i < hashmap_capacity(&c->instances); i++) {
        if (c->instances.slots[i].value) {
            free(c->instances.slots[i].value);
            c->incomplete++;
        }
    }
    hashmap_free(&c->instances);
    hashmap_init(&c->instances);
}

void collectives_free(struct collectives *c)
{
    collectives_finish(c);
    hashmap_free(&c->instances);
}

/* A member's wait until `until`, no later than its own end. */
static void wait_until(struct collectives *c, enum wait_pattern pattern,
                       const struct coll_member *m, uint64_t until)
{
    if ((int64_t)(m->end - until) < 0)
        until = m->end;
    if ((int64_t)(until - m->enter) > 0)
        c->on_wait(c->context, pattern, m->rank, m->callpath, until - m->enter);
}

static enum wait_pattern pattern_of(uint8_t op, int *kind)
{
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
        *kind = 'N';
        return WAIT_AT_BARRIER;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        *kind = 'N';
        return WAIT_AT_NXN;
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        *kind = '1';
        return WAIT_LATE_BROADCAST;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        *kind = 'R';
        return WAIT_EARLY_REDUCE;
    default:
        *kind = 0; /* scans and the rest: no pattern */
        return WAIT_PATTERN_COUNT;
    }
}

/* All members are in: who waited for whom. */
static void judge(struct collectives *c, const struct coll_instance *in)
{
    int kind;
    enum wait_pattern pattern = pattern_of(in->op, &kind);
    const struct coll_member *root = NULL;
    uint64_t last = in->members[0].enter, first_other = 0;
    int have_other = 0;
    for (uint32_t i = 0; i < in->size; i++) {
        const struct coll_member *m = &in->members[i];
        if ((int64_t)(m->enter - last) > 0)
            last = m->enter;
        if (m->rank == in->root_rank && !root) {
            root = m;
        } else if (!have_other || (int64_t)(m->enter - first_other) < 0) {
            first_other = m->enter;
            have_other = 1;
        }
    }
    if (kind == 'N') {
        /* Everyone waits until the last one enters. */
        for (uint32_t i = 0; i < in->size; i++)
            wait_until(c, pattern, &in->members[i], last);
    } else if (kind == '1' && root) {
        /* The others wait for the root, which has the data. */
        for (uint32_t i = 0; i < in->size; i++) {
            if (&in->members[i] != root)
                wait_until(c, pattern, &in->members[i], root->enter);
        }
    } else if (kind == 'R' && root && have_other) {
        /* The root waits until the first contribution can come. */
        wait_until(c, pattern, root, first_other);
    }
}

void collectives_arrive(struct collectives *c, uint32_t comm, uint64_t seq, uint32_t size,
                        uint8_t op, uint32_t root_rank, const struct coll_member *member)
{
    if (size < 2)
        return; /* nobody to wait for */
    struct coll_instance *in = hashmap_get(&c->instances, comm, seq);
    if (!in) {
        in = xmalloc(sizeof *in + size * sizeof in->members[0]);
        in->size = size;
        in->arrived = 0;
        in->root_rank = root_rank;
        in->op = op;
        hashmap_put(&c->instances, comm, seq, in);
    }
    in->members[in->arrived++] = *member;
    if (in->arrived < in->size)
        return;
    hashmap_remove(&c->instances, comm, seq);
    judge(c, in);
    free(in);
}
