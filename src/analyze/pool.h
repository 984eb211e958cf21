/* A free-list allocator for objects of one size.  The analyzer creates and
 * frees one record per send and per receive; a pool turns those into a
 * pointer swap, and its high-water mark is exactly the peak number of
 * records in flight, which the progress line and --stats report. */
#ifndef HT_ANALYZE_POOL_H
#define HT_ANALYZE_POOL_H

#include <stddef.h>

struct pool_block;

struct pool {
    size_t object_size;
    struct pool_block *blocks; /* every block, freed by pool_destroy */
    void *free_list;
    size_t in_use;             /* objects handed out and not yet returned */
    size_t peak;               /* highest in_use so far */
};

void pool_init(struct pool *pool, size_t object_size);
void pool_destroy(struct pool *pool);
/* Uninitialised memory for one object; exits on out of memory. */
void *pool_alloc(struct pool *pool);
void pool_free(struct pool *pool, void *object);

#endif
