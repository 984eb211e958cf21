/* Objects are carved from blocks of POOL_BLOCK_OBJECTS; a freed object goes
 * on a free list threaded through its first word.  Blocks are only returned
 * at pool_destroy, so memory stays at the peak in flight, never above. */
#include <stdlib.h>

#include "analyze/fail.h"
#include "analyze/pool.h"

#define POOL_BLOCK_OBJECTS 4096

struct pool_block {
    struct pool_block *next;
    /* the objects follow, suitably aligned */
    max_align_t objects[];
};

void pool_init(struct pool *pool, size_t object_size)
{
    /* Round up so that every object in a block stays aligned. */
    size_t align = sizeof(max_align_t);
    if (object_size < sizeof(void *))
        object_size = sizeof(void *);
    pool->object_size = (object_size + align - 1) / align * align;
    pool->blocks = NULL;
    pool->free_list = NULL;
    pool->in_use = 0;
    pool->peak = 0;
}

void pool_destroy(struct pool *pool)
{
    struct pool_block *b = pool->blocks;
    while (b) {
        struct pool_block *next = b->next;
        free(b);
        b = next;
    }
    pool->blocks = NULL;
    pool->free_list = NULL;
    pool->in_use = 0;
}

static void add_block(struct pool *pool)
{
    struct pool_block *b = xmalloc(sizeof *b + POOL_BLOCK_OBJECTS * pool->object_size);
    b->next = pool->blocks;
    pool->blocks = b;
    char *base = (char *)b->objects;
    /* Thread the new objects onto the free list in address order. */
    for (size_t i = POOL_BLOCK_OBJECTS; i-- > 0;) {
        void **object = (void **)(base + i * pool->object_size);
        *object = pool->free_list;
        pool->free_list = object;
    }
}

void *pool_alloc(struct pool *pool)
{
    if (!pool->free_list)
        add_block(pool);
    void **object = pool->free_list;
    pool->free_list = *object;
    if (++pool->in_use > pool->peak)
        pool->peak = pool->in_use;
    return object;
}

void pool_free(struct pool *pool, void *object)
{
    *(void **)object = pool->free_list;
    pool->free_list = object;
    pool->in_use--;
}
