/* Per-location state of the wait-state analysis. */
#include <stdlib.h>
#include <string.h>

#include "analyze/fail.h"
#include "analyze/locstate.h"

void locstate_init(struct locstate *s)
{
    memset(s, 0, sizeof *s);
    hashmap_init(&s->collectives);
}

void locstate_free(struct locstate *s)
{
    free(s->frames);
    s->frames = NULL;
    hashmap_free(&s->collectives);
}

void locstate_grow(struct locstate *s)
{
    s->capacity = s->capacity ? 2 * s->capacity : 16;
    s->frames = xrealloc(s->frames, s->capacity * sizeof *s->frames);
}

uint32_t locstate_callpath(struct locstate *s, struct calltree *tree)
{
    /* Frames below a known node keep theirs while the stack above them
     * changes, so only the frames entered since the last call are new. */
    uint32_t i = s->depth;
    while (i > 0 && s->frames[i - 1].node == LOCSTATE_NO_NODE)
        i--;
    uint32_t node = i > 0 ? s->frames[i - 1].node : CALLTREE_ROOT;
    for (; i < s->depth; i++) {
        node = calltree_child(tree, node, s->frames[i].region);
        s->frames[i].node = node;
    }
    return node;
}

uint64_t locstate_next_collective(struct locstate *s, uint32_t comm)
{
    uintptr_t n = (uintptr_t)hashmap_get(&s->collectives, comm, 0);
    hashmap_put(&s->collectives, comm, 0, (void *)(n + 1));
    return n;
}
